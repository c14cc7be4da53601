"""JSON Lines in and out: one record per output line, whatever line splitter reads it; one reader of input lines.

Output: `json_text` / `json_line`.

Input: `open_lines` (a file's lines, or stdin's) and `read_json_lines`, the one JSONL reader of
`writegate normalize --input`, `writegate classify --input`, `writegate relabel` and the training
data files. It yields a `JsonLine` per line; a line that is not a value is reported by its number
with the first rung of the error ladder it fails (field `line`, a `JsonLineError`):

1. blank: skipped, or "is blank" where every line must be answered;
2. invalid UTF-8: "is not valid UTF-8: byte 0xff at column N" (or kept as lone surrogates, for
   callers whose field checks name the field that holds it);
3. invalid JSON: "is not valid JSON: <what> at column N", "is nested too deeply to parse";
4. wrong top-level type: "must be a JSON object, got list".

`parse_json_line` / `parse_json_object` are rungs 1, 3 (and 4) for one line. For the two JSONL
CLIs, which answer every input line with exactly one output line: `line_id` (the `"id"` an output
line echoes), `check_id` and `error_record` (`{"error": "line N: field: message", "line": N, "id"?}`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from writegate.errors import InputError

# json.dumps escapes every C0 control; these three are left raw, yet str.splitlines() and many
# editors treat them as line breaks, which would cut one record in two.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_text(obj: Any) -> str:
    """`obj` as JSON on one line, without the trailing newline (UTF-8 kept, line-break characters escaped)."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS)


def json_line(obj: Any) -> str:
    """`json_text(obj)` with its "\\n": one JSON Lines record."""
    return json_text(obj) + "\n"


LineFault = Literal["blank", "utf8", "json", "type"]
"""The rung of the error ladder a line failed: blank, invalid UTF-8, invalid JSON, not an object."""


class JsonLineError(InputError):
    """A line that is not a JSON value (or not an object): field `line`; `kind` names the rung.

    Attributes:
        kind: the rung that failed (`LineFault`).
    """

    def __init__(self, kind: LineFault, message: str) -> None:
        super().__init__("line", message)
        self.kind: LineFault = kind

    def __reduce__(self) -> tuple[type[JsonLineError], tuple[LineFault, str]]:
        return type(self), (self.kind, self.message)


def parse_json_line(raw: str) -> Any:
    """Parse one input line.

    Args:
        raw: the line, its line ending (`\n`, `\r\n`) left on or not; invalid UTF-8 may be kept
            as lone surrogates (it parses, and the field checks reject it).

    Returns:
        The JSON value.

    Raises:
        JsonLineError: field `line`: "is blank", "is not valid JSON: <what> at column <n>",
            "is nested too deeply to parse", or "is not valid JSON: <why>" (e.g. an integer of
            more than 4300 digits).
    """
    if not raw.strip():
        raise JsonLineError("blank", "is blank")
    try:
        # without the line ending: "abc<newline> is an unterminated string, not a control character in one
        return json.loads(raw.removesuffix("\n").removesuffix("\r"))
    except json.JSONDecodeError as exc:
        # some of the decoder's messages end in "at" already ("Unterminated string starting at")
        where = "column" if exc.msg.endswith(" at") else "at column"
        raise JsonLineError("json", f"is not valid JSON: {exc.msg} {where} {exc.colno}") from None
    except RecursionError:
        raise JsonLineError("json", "is nested too deeply to parse") from None
    except ValueError as exc:
        raise JsonLineError("json", f"is not valid JSON: {exc}") from None


def _json_kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def parse_json_object(raw: str) -> dict[str, Any]:
    """Parse one input line that must hold a JSON object.

    Raises:
        JsonLineError: as `parse_json_line`, or "must be a JSON object, got <type>".
    """
    value = parse_json_line(raw)
    if not isinstance(value, dict):
        raise JsonLineError("type", f"must be a JSON object, got {_json_kind(value)}")
    return value


@dataclass(frozen=True, slots=True)
class JsonLine:
    """One line of a JSON Lines input, as `read_json_lines` read it.

    Attributes:
        number: the 1-based line number (blank lines count).
        raw: the line without its line ending (invalid UTF-8 as lone surrogates).
        value: the parsed value; None when `error` is set.
        error: why the line is no value, or None.
    """

    number: int
    raw: str
    value: Any = None
    error: JsonLineError | None = None

    @property
    def ok(self) -> bool:
        """True when the line parsed (`error` is None)."""
        return self.error is None

    def result(self) -> Any:
        """The parsed value.

        Raises:
            JsonLineError: the line's error, when it has one.
        """
        if self.error is not None:
            raise self.error
        return self.value


def _first_surrogate(text: str) -> int:
    return next((i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF), -1)


def read_json_lines(
    lines: Iterable[str],
    *,
    skip_blank: bool = True,
    objects: bool = True,
    invalid_utf8: Literal["error", "keep"] = "error",
) -> Iterator[JsonLine]:
    """Read JSON Lines: one `JsonLine` per line, in order, each bad line with its error.

    Args:
        lines: the lines, line endings on or off, invalid UTF-8 as lone surrogates (as
            `open_lines` yields them).
        skip_blank: skip blank lines (they still count for the numbering); False reports them
            ("is blank").
        objects: each line must hold a JSON object ("must be a JSON object, got list").
        invalid_utf8: "error" reports a line holding invalid UTF-8 ("is not valid UTF-8: byte
            0xff at column N"); "keep" parses it with the bad bytes as lone surrogates, for field
            checks that name the field holding them.

    Yields:
        A `JsonLine` per line (per non-blank line with `skip_blank`); errors are yielded, not
        raised, so a caller decides whether a bad line ends the read.
    """
    parse = parse_json_object if objects else parse_json_line
    for number, line in enumerate(lines, start=1):
        raw = line.removesuffix("\n").removesuffix("\r")
        if skip_blank and not raw.strip():
            continue
        try:
            if invalid_utf8 == "error" and (at := _first_surrogate(raw)) >= 0:
                byte = ord(raw[at]) - 0xDC00 if 0xDC80 <= ord(raw[at]) <= 0xDCFF else None
                what = f"byte 0x{byte:02x}" if byte is not None else f"U+{ord(raw[at]):04X}"
                raise JsonLineError("utf8", f"is not valid UTF-8: {what} at column {at + 1}")
            yield JsonLine(number, raw, parse(raw))
        except JsonLineError as exc:
            yield JsonLine(number, raw, error=exc)


def open_lines(path: str | Path, *, field: str = "--input") -> Iterator[str]:
    """The lines of a file (`"-"`: stdin), for `read_json_lines`.

    A line ends at `\n` only (a `\r` before it is dropped), whatever else it holds; invalid
    UTF-8 is kept as lone surrogates (surrogateescape), so the reader can report or keep it.
    The file is opened now and closed when the lines run out.

    Args:
        path: the file, or `"-"` for stdin.
        field: the field an open failure names.

    Raises:
        InputError: `field`: the file cannot be opened.
    """
    if str(path) == "-":
        return _decoded(sys.stdin.buffer, close=False)
    try:
        fh = open(path, "rb")  # closed by _decoded
    except OSError as exc:
        raise InputError(field, f"cannot open {str(path)!r}: {exc.strerror}") from None
    return _decoded(fh, close=True)


def _decoded(fh: IO[bytes], *, close: bool) -> Iterator[str]:
    try:
        for raw in fh:
            yield raw.decode("utf-8", "surrogateescape").removesuffix("\n").removesuffix("\r")
    finally:
        if close:
            fh.close()


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
