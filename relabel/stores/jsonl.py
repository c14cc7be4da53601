"""A JSONL store file (`--input PATH`): one JSON object a line, `{"id", "subject", "text", "observed_at",
"provenance"?}`; a line that holds no JSON object is an `UnreadLine` (its error as `api.jsonl` words it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from writegate.api.jsonl import open_lines, parse_json_object, read_json_lines
from writegate.relabel import checkpoint
from writegate.relabel.store import StoreEntry, StoreRecord, StoreRow, UnreadLine


class JsonlSource:
    """The lines of a JSONL store file, each as a `StoreRow` (see the module docstring).

    Args:
        path: the file.
    """

    def __init__(self, path: Path) -> None:
        self.file = Path(path)

    def describe(self) -> str:
        """The path, as given."""
        return str(self.file)

    def rows(self) -> Iterator[StoreEntry]:
        """The file's lines as store entries (the file is opened now).

        Raises:
            InputError: `--input`: the file cannot be opened.
        """
        # invalid UTF-8 is kept (as surrogate escapes): the text check rejects it and the reject keeps the bytes
        return jsonl_rows(open_lines(self.file, field="--input"))

    def sha256(self) -> str:
        """The file's hash."""
        return checkpoint.sha256_file(self.file)


def jsonl_rows(lines: Iterable[str]) -> Iterator[StoreEntry]:
    """Store lines (without their line endings, invalid UTF-8 as surrogate escapes) as store entries.

    Blank lines count: each line is an entry, numbered from 1.
    """
    for line in read_json_lines(lines, skip_blank=False, invalid_utf8="keep"):
        if line.error is not None:
            yield UnreadLine(line.number, line.raw, line.error)
        else:
            yield _row(line.number, line.raw, line.value)


def _row(number: int, raw: str, obj: dict[str, Any]) -> StoreRow:
    return StoreRow(
        number, raw, obj.get("id"), obj.get("subject"), obj.get("text"), obj.get("observed_at"), obj.get("provenance")
    )


def parse_record(raw: str, line: int) -> StoreRecord:
    """Parse and check one store line.

    Raises:
        InputError: naming the field (`line` when the line is not a JSON object).
    """
    return _row(line, raw, parse_json_object(raw)).record()
