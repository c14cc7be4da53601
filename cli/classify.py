"""`writegate classify`: label (existing, new) pairs from a JSONL file, one output line per input line.

Every input line gets exactly one output line, in order: `{"id"?, "label", "scores"}` (`--details`:
also `slot_match`, `evidence`, `review`), or `{"error": "line N: field: message", "line": N, "id"?}`
for a bad line (a blank one included), with the same message on stderr. `"id"` echoes the line's
string `"id"` when it has one. `scores` holds the five labels' probabilities and
`slot_match`/`evidence`/`review` are named as in the service's `Relation` and relabel's edge lines.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from writegate.api.jsonl import check_id, error_record, json_line, line_id, open_lines, read_json_lines
from writegate.errors import InputError

if TYPE_CHECKING:
    from writegate.classifier.types import Pair

Row = tuple[int, dict[str, str], "Pair | None", InputError | None]
"""A line: its number, the output line's "id" echo, its pair (None when it failed) and its error."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument(
        "--input",
        required=True,
        metavar="FILE.jsonl",
        help='lines {"existing": {"text", "observed_at"}, "new": {"text", "observed_at"}}; "-" = stdin',
    )
    from writegate.classifier.modeldir import MODEL_HELP, default_model_dir

    p.add_argument("--model", default=default_model_dir(), help=MODEL_HELP)
    p.add_argument("--backend", default="onnx", choices=["onnx", "torch"], help="inference backend (default onnx)")
    p.add_argument("--batch-size", type=int, default=64, help="pairs per backend call (default 64)")
    p.add_argument("--no-fusion", action="store_true", help="model probabilities only, no structured evidence")
    p.add_argument("--details", action="store_true", help="also print slot_match, evidence and review")


def _parse(obj: Any) -> Pair:
    from writegate.api.pairs import parse_pair

    pair = parse_pair(obj)
    check_id(obj)
    return pair


def _with_records(rows: list[Row]) -> list[Row]:
    """`rows` whose pairs carry their records (each distinct side normalized once), or their side's error."""
    from writegate.api.normalizing import fill_pairs

    filled = iter(fill_pairs([pair for _, _, pair, _ in rows if pair is not None]))
    out: list[Row] = []
    for number, echo, pair, err in rows:
        if pair is not None:
            got = next(filled)
            pair, err = (None, got) if isinstance(got, InputError) else (got, None)
        out.append((number, echo, pair, err))
    return out


def run(args: argparse.Namespace) -> int:
    """Run the command; returns 1 if any line failed, else 0."""
    from writegate.classifier.model import Classifier

    clf = Classifier.load(args.model, args.backend, fusion=False if args.no_fusion else None)
    lines = open_lines(args.input)
    rows: list[Row] = []
    # invalid UTF-8 is kept: the field checks report it, naming the field
    for line in read_json_lines(lines, skip_blank=False, invalid_utf8="keep"):
        try:
            rows.append((line.number, line_id(line.value), _parse(line.result()), None))
        except InputError as exc:
            rows.append((line.number, line_id(line.value), None, exc))
    rows = _with_records(rows)  # the classifier compares the records the pairs carry
    pairs = [pair for _, _, pair, _ in rows if pair is not None]
    preds = iter(clf.predict(pairs, batch_size=args.batch_size))
    failed = 0
    for number, echo, _, err in rows:
        if err is not None:
            failed += 1
            print(f"writegate classify: line {number}: {err}", file=sys.stderr)
            out: dict[str, Any] = error_record(number, err) | echo
        else:
            pred = next(preds)
            out = {
                **echo,
                "label": pred.label.value,
                "scores": {k: round(v, 6) for k, v in pred.probabilities.items()},
            }
            if args.details:
                out |= {"slot_match": pred.slot_match, "evidence": pred.evidence.value, "review": pred.review}
        sys.stdout.write(json_line(out))
    if failed:
        print(f"writegate classify: {failed} line(s) failed", file=sys.stderr)
    return 1 if failed else 0
