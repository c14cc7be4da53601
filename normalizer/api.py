"""`normalize`: raw memory text → schema records. Pure: no model, no I/O."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from writegate.errors import InputError
from writegate.normalizer import edges, enums, time_windows, timezones
from writegate.normalizer.config import DEFAULT_CONFIG, NormalizerConfig
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ENTITY_ID_RE, MAX_TEXT_BYTES, ProvenanceKind, Record, RecordKind

Extractor = Callable[[str, Context], list[Record]]

FAMILIES: tuple[Extractor, ...] = (
    time_windows.extract,
    timezones.extract,
    enums.extract,
    edges.extract,
)
"""One extractor per rule family, run in this order on every text."""

MAX_ID_CHARS = 200
"""The longest id (memory, candidate, pair) accepted, in characters."""
_ID_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0 (tab and newline included), DEL, C1, and surrogates (never valid alone)."""
_TEXT_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""C0 controls other than tab, newline and carriage return, and DEL."""
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_ALNUM_RE = re.compile("[0-9A-Za-z]")
"""An ASCII letter or digit: visible content without looking at every character."""


def validate_text(text: object, field: str = "text") -> str:
    """Return `text` if it is a usable memory text, else raise InputError naming `field`."""
    if not isinstance(text, str):
        raise InputError(field, f"must be a string, got {type(text).__name__}")
    if not text.strip():
        raise InputError(field, "is empty or whitespace only")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_TEXT_BYTES:
        raise InputError(
            field, f"is over {MAX_TEXT_BYTES // 1024} KiB ({len(text.encode('utf-8', 'surrogatepass'))} bytes)"
        )
    bad = _TEXT_CONTROL_RE.search(text)
    if bad is not None:
        raise InputError(field, f"contains a control character (U+{ord(bad.group()):04X})")
    if _SURROGATE_RE.search(text):
        raise InputError(field, "contains invalid UTF-8")
    if _ALNUM_RE.search(text) is None and not any(is_visible(c) for c in text):
        raise InputError(field, "has no visible content (only whitespace, zero-width or other invisible characters)")
    return text


# Letters and symbols that render as blank space.
_BLANK_LOOKALIKES = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def is_visible(char: str) -> bool:
    """A character that shows: a letter, digit, punctuation or symbol, not a blank look-alike."""
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANK_LOOKALIKES


def validate_id(value: object, field: str = "id") -> str:
    """Return `value` if it is a usable id, else raise InputError naming `field`.

    The one id rule of every entry point (gRPC requests, `writegate relabel`'s store): a
    non-empty string of at most `MAX_ID_CHARS` characters, not whitespace only, with no control
    character at all (C0 including tab and newline, DEL, C1) and no lone surrogate.

    Raises:
        InputError: e.g. `candidates[2].id: contains a control character (U+0000)`.
    """
    if not isinstance(value, str):
        raise InputError(field, f"must be a string, got {type(value).__name__}")
    if not value:
        raise InputError(field, "is empty")
    if len(value) > MAX_ID_CHARS:
        raise InputError(field, f"is over {MAX_ID_CHARS} characters ({len(value)})")
    bad = _ID_FORBIDDEN.search(value)
    if bad is not None:
        code = ord(bad.group())
        if 0xD800 <= code <= 0xDFFF:
            raise InputError(field, f"contains invalid UTF-8 (a lone surrogate, U+{code:04X})")
        raise InputError(field, f"contains a control character (U+{code:04X})")
    if not value.strip():
        raise InputError(field, "is whitespace only")
    return value


def validate_subject(subject: object, field: str = "subject") -> str:
    """Return `subject` if it is a `kind:slug` entity id, else raise InputError."""
    if not isinstance(subject, str) or not ENTITY_ID_RE.fullmatch(subject):
        raise InputError(field, f"must be an entity id `kind:slug` (lowercase, e.g. `user:alice`), got {subject!r}")
    return subject


def parse_observed_at(value: object, field: str = "observed_at") -> datetime:
    """Parse an ISO 8601 date or datetime (naive = UTC; any year 1-9999) into an aware UTC datetime.

    An aware UTC datetime is taken as it is: it was parsed at the edge (`Memory`, a pair's side).
    """
    if isinstance(value, datetime):
        if value.tzinfo is UTC:
            return value
        dt = value
    elif isinstance(value, str) and value.strip():
        raw = value.strip()
        try:
            dt = datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith(("Z", "z")) else raw)
        except ValueError:
            raise InputError(field, f"is not an ISO 8601 date or datetime: {value!r}") from None
    else:
        raise InputError(field, f"must be an ISO 8601 date or datetime, got {value!r}")
    try:
        return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00+01:00 is before year 1 in UTC
        raise InputError(field, f"is outside years 1-9999 in UTC: {value!r}") from None


def parse_provenance(value: object, field: str = "provenance") -> ProvenanceKind:
    """Parse `stated` / `inferred` / `imported`."""
    if isinstance(value, ProvenanceKind):
        return value
    try:
        return ProvenanceKind(value)
    except ValueError:
        allowed = ", ".join(p.value for p in ProvenanceKind)
        raise InputError(field, f"must be one of {allowed}, got {value!r}") from None


def _dedupe(records: Sequence[Record]) -> list[Record]:
    if len(records) < 2:
        return list(records)  # most texts: one record, nothing to compare
    seen: set[str] = set()
    out: list[Record] = []
    for rec in records:
        key = repr((rec.slot, rec.value))  # the value holds its kind
        if key not in seen:
            seen.add(key)
            out.append(rec)
    return out


def normalize(
    text: str,
    subject: str = "user:default",
    observed_at: datetime | str | None = None,
    provenance: ProvenanceKind | str = ProvenanceKind.STATED,
    *,
    source: str | None = None,
    config: NormalizerConfig = DEFAULT_CONFIG,
) -> list[Record]:
    """Normalize one memory text into schema records.

    Args:
        text: the raw memory text (≤ 16 KiB, no control characters).
        subject: whose memory it is, `kind:slug`; first person and "the user" resolve to it.
        observed_at: when it was observed (ISO 8601 or datetime; naive = UTC). Defaults to now.
        provenance: `stated`, `inferred` or `imported`.
        source: an optional provenance source (a session id…).
        config: half-lives and confidences.

    Returns:
        At least one record: every fact the rules recognise, or one `kind: text` record.

    Raises:
        InputError: naming the bad field.
    """
    text = validate_text(text)
    ctx = Context(
        subject=validate_subject(subject),
        observed_at=datetime.now(UTC) if observed_at is None else parse_observed_at(observed_at),
        provenance=parse_provenance(provenance),
        config=config,
        source=source,
    )
    records: list[Record] = []
    for extract in FAMILIES:
        records.extend(extract(text, ctx))
    if not records:
        records.append(ctx.record(RecordKind.TEXT, "text", text))
    return _dedupe(records)
