"""`writegate normalize`: text → JSON records, one text or a JSONL file of them.

With `--input`, every input line gets exactly one output line, in order: `{"id"?, "records": [...]}`,
or `{"error": "line N: field: message", "line": N, "id"?}` for a bad line (a blank one included),
with the same message on stderr. `"id"` echoes the line's string `"id"` when it has one.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from writegate.api.jsonl import check_id, error_record, json_line, line_id, open_lines, read_json_lines
from writegate.errors import InputError
from writegate.normalizer import normalize
from writegate.normalizer.schema import Record


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument("text", nargs="?", help="the memory text (or use --input)")
    p.add_argument(
        "--input",
        metavar="FILE.jsonl",
        help='lines {"text", "subject"?, "observed_at"?, "provenance"?, "id"?}; "-" = stdin; '
        "one output line per input line",
    )
    p.add_argument("--subject", default="user:default", help="entity id kind:slug (default user:default)")
    p.add_argument("--observed-at", default=None, help="ISO 8601 date/datetime (default: now)")
    p.add_argument("--provenance", default="stated", help="stated | inferred | imported")
    p.add_argument("--explain", action="store_true", help="add a human rendering per record")


def _render(records: list[Record], with_explain: bool) -> list[dict[str, Any]]:
    out = []
    for rec in records:
        data = rec.to_json()
        if with_explain:
            data["explain"] = rec.explain()
        out.append(data)
    return out


def _one_line(item: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    unknown = sorted(set(item) - {"text", "subject", "observed_at", "provenance", "id"})
    if unknown:
        raise InputError(unknown[0], "is not a known field (text, subject, observed_at, provenance, id)")
    check_id(item)
    if "text" not in item:
        raise InputError("text", "is missing")
    records = normalize(
        item["text"],
        subject=item.get("subject", args.subject),
        observed_at=item.get("observed_at", args.observed_at),
        provenance=item.get("provenance", args.provenance),
    )
    return _render(records, args.explain)


def _run_file(args: argparse.Namespace) -> int:
    failed = 0
    # invalid UTF-8 is kept: the field checks report it, naming the field
    for line in read_json_lines(open_lines(args.input), skip_blank=False, invalid_utf8="keep"):
        try:
            out: dict[str, Any] = {**line_id(line.value), "records": _one_line(line.result(), args)}
        except InputError as exc:
            failed += 1
            print(f"writegate normalize: line {line.number}: {exc}", file=sys.stderr)
            out = error_record(line.number, exc, line.value)
        sys.stdout.write(json_line(out))
    if failed:
        print(f"writegate normalize: {failed} line(s) failed", file=sys.stderr)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    if args.input is not None:
        if args.text is not None:
            raise InputError("text", "give either TEXT or --input, not both")
        return _run_file(args)
    if args.text is None:
        raise InputError("text", "is missing: give TEXT or --input FILE.jsonl")
    records = normalize(args.text, subject=args.subject, observed_at=args.observed_at, provenance=args.provenance)
    print(json.dumps(_render(records, args.explain), indent=2, ensure_ascii=False))
    return 0
