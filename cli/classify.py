"""`writegate classify`: label (existing, new) pairs from a JSONL file, one output line per input line.

Every input line gets exactly one output line, in order: `{"id"?, "label", "probabilities"}`
(`--details`: also `slot_match`, `evidence`), or `{"error": "line N: field: message", "line": N,
"id"?}` for a bad line (a blank one included), with the same message on stderr. `"id"` echoes the
line's string `"id"` when it has one.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from writegate.normalizer.errors import InputError
from writegate.api.jsonl import check_id, error_record, json_line, line_id, parse_json_line

DEFAULT_MODEL = "models/default"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument("--input", required=True, metavar="FILE.jsonl",
                   help='lines {"existing": {"text", "observed_at"}, "new": {"text", "observed_at"}}; "-" = stdin')
    from writegate.classifier.modeldir import MODEL_HELP, default_model_dir
    p.add_argument("--model", default=default_model_dir(), help=MODEL_HELP)
    p.add_argument("--backend", default="onnx", choices=["onnx", "torch"], help="inference backend (default onnx)")
    p.add_argument("--batch-size", type=int, default=64, help="pairs per backend call (default 64)")
    p.add_argument("--no-fusion", action="store_true", help="model probabilities only, no structured evidence")
    p.add_argument("--details", action="store_true", help="also print slot_match and evidence")


def _parse(obj: Any, cache: dict[Any, Any]) -> Any:
    from writegate.api.pairs import parse_pair
    from writegate.normalizer.api import with_records

    pair = parse_pair(obj)
    check_id(obj)
    return with_records(pair, cache)  # the classifier compares the records the pair carries


def run(args: argparse.Namespace) -> int:
    """Run the command; returns 1 if any line failed, else 0."""
    from writegate.classifier.model import Classifier

    clf = Classifier.load(args.model, args.backend, fusion=False if args.no_fusion else None)
    try:
        handle = (io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape") if args.input == "-"
                  else open(args.input, encoding="utf-8", errors="surrogateescape"))  # noqa: SIM115
    except OSError as exc:
        raise InputError("--input", f"cannot open {args.input!r}: {exc.strerror}") from None
    # (line number, the output line's "id" echo, the pair or None, its error or None)
    rows: list[tuple[int, dict[str, str], Any, InputError | None]] = []
    records: dict[Any, Any] = {}  # each distinct side normalized once
    with handle:
        for number, raw in enumerate(handle, start=1):
            obj: Any = None  # the parsed line, once it parses (its "id" is echoed)
            try:
                obj = parse_json_line(raw)
                rows.append((number, line_id(obj), _parse(obj, records), None))
            except InputError as exc:
                rows.append((number, line_id(obj), None, exc))
    pairs = [pair for _, _, pair, err in rows if err is None]
    preds = iter(clf.predict(pairs, batch_size=args.batch_size))
    failed = 0
    for number, echo, _, err in rows:
        if err is not None:
            failed += 1
            print(f"writegate classify: line {number}: {err}", file=sys.stderr)
            out: dict[str, Any] = error_record(number, err) | echo
        else:
            pred = next(preds)
            out = {**echo, "label": pred.label.value,
                   "probabilities": {k: round(v, 6) for k, v in pred.probabilities.items()}}
            if args.details:
                out |= {"slot_match": pred.slot_match, "evidence": pred.evidence.value}
        sys.stdout.write(json_line(out))
    if failed:
        print(f"writegate classify: {failed} line(s) failed", file=sys.stderr)
    return 1 if failed else 0
