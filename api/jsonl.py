"""JSON Lines in and out: one record per output line, whatever line splitter reads it; one parse of an input line.

Output: `json_text` / `json_line`. Input: `parse_json_line` (the one JSON parse of `writegate
normalize --input`, `writegate classify --input` and `writegate relabel`), and for the two JSONL
CLIs, which answer every input line with exactly one output line, `line_id` (the `"id"` an output
line echoes), `check_id` and `error_record` (`{"error": "line N: field: message", "line": N,
"id"?}`).
"""

from __future__ import annotations

import json
from typing import Any

from writegate.normalizer.errors import InputError

# json.dumps escapes every C0 control; these three are left raw, yet str.splitlines() and many
# editors treat them as line breaks, which would cut one record in two.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_text(obj: Any) -> str:
    """`obj` as JSON on one line, without the trailing newline (UTF-8 kept, line-break characters escaped)."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS)


def json_line(obj: Any) -> str:
    """`json_text(obj)` with its "\\n": one JSON Lines record."""
    return json_text(obj) + "\n"


def parse_json_line(raw: str) -> Any:
    """Parse one input line.

    Args:
        raw: the line, its line ending (`\n`, `\r\n`) left on or not; invalid UTF-8 may be kept
            as lone surrogates (it parses, and the field checks reject it).

    Returns:
        The JSON value.

    Raises:
        InputError: field `line`: "is blank", "is not valid JSON: <what> at column <n>",
            "is nested too deeply to parse", or "is not valid JSON: <why>" (e.g. an integer of
            more than 4300 digits).
    """
    if not raw.strip():
        raise InputError("line", "is blank")
    try:
        # without the line ending: "abc<newline> is an unterminated string, not a control character in one
        return json.loads(raw.removesuffix("\n").removesuffix("\r"))
    except json.JSONDecodeError as exc:
        # some of the decoder's messages end in "at" already ("Unterminated string starting at")
        where = "column" if exc.msg.endswith(" at") else "at column"
        raise InputError("line", f"is not valid JSON: {exc.msg} {where} {exc.colno}") from None
    except RecursionError:
        raise InputError("line", "is nested too deeply to parse") from None
    except ValueError as exc:
        raise InputError("line", f"is not valid JSON: {exc}") from None


def _has_surrogates(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def line_id(obj: Any) -> dict[str, str]:
    """`{"id": ...}` to echo on an output line: a JSON object's string `"id"` (valid UTF-8), else `{}`."""
    if isinstance(obj, dict) and isinstance(obj.get("id"), str) and not _has_surrogates(obj["id"]):
        return {"id": obj["id"]}
    return {}


def check_id(obj: dict[str, Any]) -> None:
    """Check a line's optional `"id"`.

    Raises:
        InputError: field `id`: not a string, or invalid UTF-8.
    """
    if "id" not in obj:
        return
    value = obj["id"]
    if not isinstance(value, str):
        raise InputError("id", f"must be a string, got {type(value).__name__}")
    if _has_surrogates(value):
        raise InputError("id", "contains invalid UTF-8")


def error_record(number: int, exc: InputError, obj: Any = None) -> dict[str, Any]:
    """The output line answering a failed input line.

    Args:
        number: the 1-based line number.
        exc: what was wrong.
        obj: the line's JSON value, if it parsed (its string `"id"` is echoed).

    Returns:
        `{"error": "line N: field: message", "line": N}`, plus `"id"` when `obj` has one.
    """
    return {"error": f"line {number}: {exc}", "line": number, **line_id(obj)}
