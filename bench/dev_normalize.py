"""Check the normalizer on hand-written cases and the records each one expects.

    python bench/dev_normalize.py --data FILE.jsonl

Each line of FILE is a case `{"id", "text", "subject", "observed_at", "expect": [records]}`.
Each expected record must be among the output; cron windows are equal when they cover the same
minutes of the week; fields not listed in an expected record are not checked. Prints one row per
case and the pass count. Never tune the rules to these cases: they estimate unseen text.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from writegate.normalizer import normalize
from writegate.normalizer.compare import minute_mask


def _matches(expected: Any, actual: Any, key: str = "") -> bool:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        if "cron" in expected and "duration_minutes" in expected and "cron" in actual:
            same = minute_mask(expected["cron"], expected["duration_minutes"]) == minute_mask(
                actual["cron"], actual["duration_minutes"]
            )
            rest = {k: v for k, v in expected.items() if k not in ("cron", "duration_minutes")}
            return same and _matches(rest, actual)
        return all(k in actual and _matches(v, actual[k], k) for k, v in expected.items())
    return expected == actual


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, required=True, help="JSONL file, one case a line (format: this script's docstring)"
    )
    args = parser.parse_args()
    table = Table(title=f"normalizer on {args.data.name}")
    for col in ("id", "ok", "text", "missing"):
        table.add_column(col)
    passed = total = 0
    for line in args.data.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        out = [r.to_json() for r in normalize(case["text"], subject=case["subject"], observed_at=case["observed_at"])]
        missing = [e for e in case["expect"] if not any(_matches(e, r) for r in out)]
        total += 1
        passed += not missing
        table.add_row(case["id"], "yes" if not missing else "NO", case["text"], json.dumps(missing) if missing else "")
    Console().print(table)
    print(f"{passed}/{total} cases pass")


if __name__ == "__main__":
    main()
