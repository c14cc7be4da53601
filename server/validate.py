"""Request validation: every bad input raises `InputError` naming the field (`candidates[3].id`).

Rules (the service maps the error to INVALID_ARGUMENT):

- `text`: required, not whitespace only, at most `max_text_bytes` of UTF-8 (default 16 KiB), no
  control characters;
- `subject`: required, an entity id `kind:slug`;
- `id`: required for every candidate, for the new memory of PrepareWrite and for both sides of a
  Relabel pair; at most 200 characters; candidate ids unique within a request;
- `observed_at`: required; not before 1970-01-01T00:00:00Z (a zero or negative Timestamp is an
  unset or garbage clock) and not more than `max_future` (default 1 day: generous clock skew)
  after the server's clock — a memory cannot be observed in the future;
- `provenance`: a known ProvenanceKind (unset = stated);
- `candidates`: at most `max_candidates` (default 256).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from writegate.normalizer.api import validate_subject, validate_text
from writegate.normalizer.errors import InputError
from writegate.normalizer.schema import MAX_TEXT_BYTES
from writegate.v1 import writegate_pb2 as pb

MAX_ID_CHARS = 200
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MAX_TIMESTAMP_SECONDS = 253402300799  # 9999-12-31T23:59:59Z, the Timestamp spec's upper bound


@dataclass(frozen=True)
class Limits:
    """The request limits (from `ServerConfig`)."""

    max_candidates: int = 256
    max_text_bytes: int = MAX_TEXT_BYTES
    max_future: timedelta = timedelta(days=1)


DEFAULT_LIMITS = Limits()


def validate_observed_at(msg: pb.Memory, field: str, now: datetime, limits: Limits) -> None:
    """`observed_at` is set and between 1970 and now + max_future."""
    if not msg.HasField("observed_at"):
        raise InputError(field, "is required (unset)")
    ts = msg.observed_at
    if not 0 <= ts.nanos <= 999_999_999:
        raise InputError(field, f"has invalid nanos {ts.nanos}")
    if ts.seconds == 0 and ts.nanos == 0:
        raise InputError(field, "is the Unix epoch (1970-01-01T00:00:00Z): an unset clock, not an observation time")
    if ts.seconds < 0:
        raise InputError(field, "is before 1970-01-01T00:00:00Z")
    latest = now + limits.max_future
    if ts.seconds > _MAX_TIMESTAMP_SECONDS or ts.ToDatetime(tzinfo=timezone.utc) > latest:
        raise InputError(field, f"is in the future (more than {_span(limits.max_future)} after the server clock)")


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:g} h" if hours < 48 else f"{hours / 24:g} days"


def validate_memory(
    msg: pb.Memory,
    field: str,
    *,
    require_id: bool,
    now: datetime,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Check one Memory message; raise InputError naming `field.<name>`."""
    if require_id and not msg.id:
        raise InputError(f"{field}.id", "is required")
    if len(msg.id) > MAX_ID_CHARS:
        raise InputError(f"{field}.id", f"is over {MAX_ID_CHARS} characters")
    if not msg.subject:
        raise InputError(f"{field}.subject", "is required")
    validate_subject(msg.subject, f"{field}.subject")
    if not msg.text:
        raise InputError(f"{field}.text", "is required (empty)")
    size = len(msg.text.encode("utf-8", "surrogatepass"))
    if size > limits.max_text_bytes:
        raise InputError(f"{field}.text", f"is over the limit of {limits.max_text_bytes} bytes ({size} bytes)")
    validate_text(msg.text, f"{field}.text")
    validate_observed_at(msg, f"{field}.observed_at", now, limits)
    if msg.provenance not in pb.ProvenanceKind.values():
        raise InputError(f"{field}.provenance", f"is not a known ProvenanceKind ({msg.provenance})")


def validate_candidates(
    candidates: Sequence[pb.Memory],
    *,
    now: datetime,
    limits: Limits = DEFAULT_LIMITS,
    field: str = "candidates",
) -> None:
    """Check the candidate list: count, each memory, unique ids."""
    if len(candidates) > limits.max_candidates:
        raise InputError(field, f"has {len(candidates)} candidates; the limit is {limits.max_candidates}")
    seen: dict[str, int] = {}
    for i, cand in enumerate(candidates):
        validate_memory(cand, f"{field}[{i}]", require_id=True, now=now, limits=limits)
        if cand.id in seen:
            raise InputError(f"{field}[{i}].id", f"duplicates {field}[{seen[cand.id]}].id ({cand.id!r})")
        seen[cand.id] = i


def _require(request: object, name: str) -> None:
    if not request.HasField(name):  # type: ignore[attr-defined]
        raise InputError(name, "is required (unset)")


def validate_normalize(req: pb.NormalizeRequest, *, now: datetime, limits: Limits = DEFAULT_LIMITS) -> None:
    """NormalizeRequest: a memory (id optional)."""
    _require(req, "memory")
    validate_memory(req.memory, "memory", require_id=False, now=now, limits=limits)


def validate_classify(req: pb.ClassifyRequest, *, now: datetime, limits: Limits = DEFAULT_LIMITS) -> None:
    """ClassifyRequest: a memory (id optional) and valid candidates."""
    _require(req, "memory")
    validate_memory(req.memory, "memory", require_id=False, now=now, limits=limits)
    validate_candidates(req.candidates, now=now, limits=limits)


def validate_prepare_write(req: pb.PrepareWriteRequest, *, now: datetime, limits: Limits = DEFAULT_LIMITS) -> None:
    """PrepareWriteRequest: a memory with an id (the edges' source), valid candidates not reusing it."""
    _require(req, "memory")
    validate_memory(req.memory, "memory", require_id=True, now=now, limits=limits)
    validate_candidates(req.candidates, now=now, limits=limits)
    for i, cand in enumerate(req.candidates):
        if cand.id == req.memory.id:
            raise InputError(f"candidates[{i}].id", f"is the new memory's own id ({cand.id!r})")


def validate_relabel(req: pb.RelabelRequest, index: int, *, now: datetime, limits: Limits = DEFAULT_LIMITS) -> None:
    """One RelabelRequest of a stream; fields are named `requests[i].existing.text` etc."""
    field = f"requests[{index}]"
    if not req.pair_id:
        raise InputError(f"{field}.pair_id", "is required")
    for side in ("existing", "new"):
        if not req.HasField(side):
            raise InputError(f"{field}.{side}", "is required (unset)")
        validate_memory(getattr(req, side), f"{field}.{side}", require_id=side == "existing", now=now, limits=limits)
