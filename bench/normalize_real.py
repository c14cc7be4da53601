"""Score the normalizer on hand-labelled sets: real text and stated preferences.

    python bench/normalize_real.py [FILE ...] [--errors]

With no FILE it scores two sets, each in its own table: the real chat and booking text of
`tests/data/normalize_real/*.jsonl`, and the agent-memory preferences and instructions of
`tests/data/normalize_prefs/` (its tuning part, each held-out part, and all of it). With FILEs
it scores those files as one set.

Every case is run through `normalize(text, subject, observed_at)`. Per record kind (time_window,
timezone, enum, edge): emitted typed records, how many of them are correct (they match an expected
record), precision; expected records, how many were found, recall; and the cases that pass (no false
and no missed typed record). `--errors` lists every false and missed record with its text.

Matching is the rule of `bench/dev_normalize.py` (`_matches`): fields not listed in an expected
record are not checked, cron windows are equal when they cover the same minutes of the week
(`writegate.normalizer.compare.minute_mask`). Each expected record pairs with at most one output
record. The labels were written by reading the texts (see the set's README.md): never tune the
rules to these cases, they estimate unseen text.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dev_normalize import _matches

from writegate.normalizer import normalize

DATA_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "normalize_real"
PREFS_DIR = DATA_DIR.parent / "normalize_prefs"
PREFS_PARTS = {
    "tuning part": ("tune.jsonl",),
    "held-out part": ("heldout.jsonl",),
    "second held-out part": ("heldout2.jsonl",),
    "all": ("tune.jsonl", "heldout.jsonl", "heldout2.jsonl"),
}
"""The preference set's tables: the part the rules were tuned on, the two held-out parts (the set's
README says how each was used), and all of it."""
KINDS = ("time_window", "timezone", "enum", "edge")


def load_cases(paths: Iterable[Path] | None = None) -> list[dict[str, Any]]:
    """The cases of the given JSONL files (default: every `*.jsonl` of the set), in file order."""
    files = sorted(DATA_DIR.glob("*.jsonl")) if paths is None else list(paths)
    cases = []
    for path in files:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def score_case(
    case: dict[str, Any], out: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(correct, false, missed) typed records of one case, given the normalizer's JSON output."""
    typed_out = [r for r in out if r.get("kind") in KINDS]
    typed_exp = [e for e in case["expect"] if e.get("kind") in KINDS]
    used: set[int] = set()
    missed = []
    for exp in typed_exp:
        hit = next((i for i, r in enumerate(typed_out) if i not in used and _matches(exp, r)), None)
        if hit is None:
            missed.append(exp)
        else:
            used.add(hit)
    correct = [r for i, r in enumerate(typed_out) if i in used]
    false = [r for i, r in enumerate(typed_out) if i not in used]
    return correct, false, missed


def score(
    cases: Iterable[dict[str, Any]],
    normalize_fn: Callable[..., list[Any]] = normalize,
) -> dict[str, Any]:
    """Score the cases: per kind emitted/correct/precision/expected/found/recall, case passes, errors.

    `precision` / `recall` are None where nothing was emitted / expected. `errors` holds one entry per
    false (`"error": "false"`) or missed (`"error": "missed"`) record: case id, source, text, record.
    """
    kinds = {k: {"emitted": 0, "correct": 0, "expected": 0, "found": 0} for k in KINDS}
    by_source: dict[str, dict[str, int]] = {}
    errors: list[dict[str, Any]] = []
    total = passed = 0
    for case in cases:
        out = [
            r.to_json() for r in normalize_fn(case["text"], subject=case["subject"], observed_at=case["observed_at"])
        ]
        correct, false, missed = score_case(case, out)
        for r in correct + false:
            kinds[r["kind"]]["emitted"] += 1
        for r in correct:
            kinds[r["kind"]]["correct"] += 1
        for e in case["expect"]:
            if e.get("kind") in KINDS:
                kinds[e["kind"]]["expected"] += 1
                kinds[e["kind"]]["found"] += 1
        for e in missed:
            kinds[e["kind"]]["found"] -= 1
        ok = not false and not missed
        total += 1
        passed += ok
        src = case["source"].split(":", 1)[0]
        s = by_source.setdefault(src, {"cases": 0, "passed": 0})
        s["cases"] += 1
        s["passed"] += ok
        for r in false:
            errors.append(
                {"error": "false", "id": case["id"], "source": case["source"], "text": case["text"], "record": r}
            )
        for e in missed:
            errors.append(
                {"error": "missed", "id": case["id"], "source": case["source"], "text": case["text"], "record": e}
            )
    for v in kinds.values():
        v["precision"] = _ratio(v["correct"], v["emitted"])
        v["recall"] = _ratio(v["found"], v["expected"])
    all_ = {k: sum(v[k] for v in kinds.values()) for k in ("emitted", "correct", "expected", "found")}
    all_["precision"] = _ratio(all_["correct"], all_["emitted"])
    all_["recall"] = _ratio(all_["found"], all_["expected"])
    return {"kinds": kinds, "all": all_, "cases": total, "passed": passed, "by_source": by_source, "errors": errors}


def _value(record: dict[str, Any]) -> str:
    """The value field of a record (plus provenance for timezones), compact."""
    kind = record.get("kind", "")
    parts: dict[str, Any] = {kind: record.get(kind)} if kind in record else {}
    if kind == "timezone" and "provenance" in record:
        parts["provenance"] = record["provenance"].get("kind")
    return json.dumps(parts, ensure_ascii=False)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def _print_result(console: Console, title: str, result: dict[str, Any], errors: bool) -> None:
    table = Table(title=f"{title} ({result['cases']} cases)")
    for col in ("kind", "emitted", "correct", "precision", "expected", "found", "recall"):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for name, v in list(result["kinds"].items()) + [("all typed", result["all"])]:
        table.add_row(
            name,
            str(v["emitted"]),
            str(v["correct"]),
            _pct(v["precision"]),
            str(v["expected"]),
            str(v["found"]),
            _pct(v["recall"]),
        )
    console.print(table)
    for src, s in result["by_source"].items():
        print(f"  {src}: {s['passed']}/{s['cases']} cases pass")
    print(f"{result['passed']}/{result['cases']} cases pass")
    if errors:
        errs = Table(title="false and missed records")
        for col in ("id", "error", "record", "text"):
            errs.add_column(col, overflow="fold")
        for e in result["errors"]:
            errs.add_row(e["id"], e["error"], _value(e["record"]), e["text"])
        console.print(errs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "files", nargs="*", type=Path, help=f"JSONL case files (default: {DATA_DIR}/*.jsonl and {PREFS_DIR}/*.jsonl)"
    )
    parser.add_argument("--errors", action="store_true", help="list every false and missed record with its text")
    args = parser.parse_args()
    console = Console()
    if args.files:
        _print_result(console, "normalizer on the given files", score(load_cases(args.files)), args.errors)
        return
    _print_result(console, "normalizer on real text", score(load_cases()), args.errors)
    for part, names in PREFS_PARTS.items():
        result = score(load_cases(PREFS_DIR / name for name in names))
        _print_result(console, f"normalizer on stated preferences, {part}", result, args.errors and part == "all")


if __name__ == "__main__":
    main()
