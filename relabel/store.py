"""A memory store as records: what a source read (`StoreRow`), checked into `StoreRecord`s, and the rejects.

A source (`stores/`: a JSONL file, a PostgreSQL table, a mem0 store) yields one `StoreRow` per
entry — its values as found, not yet checked — or, for a JSONL line that holds no JSON object, an
`UnreadLine`. `read_store` checks each row into a `StoreRecord`; a bad entry (blank, malformed or
too deeply nested JSON, a missing or wrong field, a duplicate id — the first one wins —, or any
other failure on that entry) is a *reject*: kept with its line number and the entry as a store line
(`raw`, cut to 500 characters; invalid UTF-8 bytes as `\\udcXX` escapes). When the line is not valid
UTF-8, `raw_base64` also holds its exact bytes (without the line ending), base64, up to 1,500 bytes
(`raw_bytes` says how long the line was when it is longer). `observed_at` may be any date of years
1–9999 (no clock is read: the output depends on the input only).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from writegate.errors import InputError
from writegate.normalizer.api import (
    parse_observed_at,
    parse_provenance,
    validate_id,
    validate_subject,
    validate_text,
)
from writegate.normalizer.schema import ProvenanceKind

RAW_EXCERPT_CHARS = 500
RAW_BASE64_BYTES = 1500
REQUIRED_FIELDS: tuple[str, ...] = ("id", "subject", "text", "observed_at")


@dataclass(frozen=True, slots=True)
class StoreRow:
    """One entry of a store as its source read it: the values as found, not yet checked (None: absent).

    Attributes:
        line: its 1-based position in the store (the JSONL line number, the database row number).
        raw: the entry as a JSONL store line (for a JSONL file, the line itself): what a reject
            shows, and what a database source's hash covers.
    """

    line: int
    raw: str
    id: object = None
    subject: object = None
    text: object = None
    observed_at: object = None
    provenance: object = None

    def record(self) -> StoreRecord:
        """The row checked (the required fields first, in order, then each value).

        Raises:
            InputError: naming the field at fault.
        """
        for name in REQUIRED_FIELDS:
            if getattr(self, name) is None:
                raise InputError(name, "is required")
        return StoreRecord(
            line=self.line,
            id=validate_id(self.id, "id"),  # the one id rule of every entry point (gRPC included)
            subject=validate_subject(self.subject),
            text=validate_text(self.text),
            observed_at=parse_observed_at(self.observed_at),
            provenance=_provenance(self.provenance),
        )


@dataclass(frozen=True, slots=True)
class UnreadLine:
    """A store line that holds no record (blank, not JSON, not a JSON object): a reject as it stands."""

    line: int
    raw: str
    error: InputError


StoreEntry = StoreRow | UnreadLine
"""What a source yields per entry."""


@dataclass(frozen=True)
class StoreRecord:
    """One accepted entry of the store."""

    line: int
    id: str
    subject: str
    text: str
    observed_at: datetime
    provenance: ProvenanceKind


class Reject(BaseModel):
    """A line that was not relabelled, and why."""

    model_config = ConfigDict(frozen=True)

    line: int = Field(ge=1, description="1-based line number in the input.")
    field: str = Field(description="The offending field (`line` for the line as a whole).")
    error: str = Field(description="What was wrong.")
    raw: str = Field(
        description=f"The line, cut to {RAW_EXCERPT_CHARS} characters (invalid UTF-8 as lone surrogates); "
        "for a record whose text failed to normalize, its text."
    )
    raw_base64: str | None = Field(
        default=None,
        description="Only when the line is not valid UTF-8: its exact bytes (without the line ending), base64, "
        f"the first {RAW_BASE64_BYTES} bytes of a longer line.",
    )
    raw_bytes: int | None = Field(
        default=None, description="Only when `raw_base64` holds part of the line: the line's length in bytes."
    )


def _provenance(value: object) -> ProvenanceKind:
    if value is None:
        return ProvenanceKind.STATED
    if isinstance(value, dict):
        if "kind" not in value:
            return ProvenanceKind.STATED
        return parse_provenance(value["kind"], "provenance.kind")
    return parse_provenance(value, "provenance")


def unexpected_error(exc: Exception) -> str:
    """A reject's message for a failure that is not an `InputError`."""
    return f"could not be processed ({type(exc).__name__}: {exc})"


def _raw_bytes(raw: str) -> bytes | None:
    """The line's exact bytes when it is not valid UTF-8 (it holds surrogate escapes), else None."""
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return raw.encode("utf-8", "surrogateescape")
    return None


def line_reject(line: int, raw: str, field: str, error: str) -> Reject:
    """The reject of store line `line` (see the module docstring for `raw`, `raw_base64`, `raw_bytes`)."""
    raw = raw.rstrip("\r\n")
    exact = _raw_bytes(raw)
    return Reject(
        line=line,
        field=field,
        error=error,
        raw=raw[:RAW_EXCERPT_CHARS],
        raw_base64=None if exact is None else base64.b64encode(exact[:RAW_BASE64_BYTES]).decode("ascii"),
        raw_bytes=None if exact is None or len(exact) <= RAW_BASE64_BYTES else len(exact),
    )


@dataclass
class StoreRead:
    """What `read_store` found: the accepted records (store order), rejects, lines read."""

    records: list[StoreRecord]
    rejects: list[Reject]
    lines: int


def read_store(entries: Iterable[StoreEntry]) -> StoreRead:
    """Check a source's entries; bad ones become rejects (duplicate ids: the first one wins).

    Args:
        entries: what a source's `rows()` yields.

    Returns:
        The records and rejects; any failure on an entry (not only `InputError`) is that entry's reject.
    """
    records: list[StoreRecord] = []
    rejects: list[Reject] = []
    first_line: dict[str, int] = {}
    count = 0
    for entry in entries:
        number = count = entry.line
        try:
            if isinstance(entry, UnreadLine):
                raise entry.error
            rec = entry.record()
            if rec.id in first_line:
                raise InputError("id", f"duplicate id {rec.id!r} (first on line {first_line[rec.id]})")
        except InputError as exc:
            rejects.append(line_reject(number, entry.raw, exc.field, exc.message))
            continue
        except Exception as exc:  # one bad entry must not end the run
            rejects.append(line_reject(number, entry.raw, "line", unexpected_error(exc)))
            continue
        first_line[rec.id] = number
        records.append(rec)
    return StoreRead(records, rejects, count)
