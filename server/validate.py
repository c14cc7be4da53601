"""Request validation: every bad input raises `InputError` naming the field (`candidates[3].id`).

Rules (the service maps the error to INVALID_ARGUMENT; it validates a request before anything
else — admission to the batcher's queue included — so a bad request is never "server busy"):

- `text`: required, not whitespace only, at most `max_text_bytes` of UTF-8 (default 16 KiB), no
  control characters;
- `subject`: required, an entity id `kind:slug`;
- `id`: required for every candidate, for the new memory of PrepareWrite and for the existing
  side of a Relabel pair; optional elsewhere, but checked when set. One rule with the relabel
  CLI (`normalizer.api.validate_id`): at most 200 characters, not whitespace only, no control
  character at all (C0 including tab and newline, DEL, C1); candidate ids unique within a
  request;
- `pair_id` (Relabel): required, the same id rule, unique within the stream;
- `observed_at`: required (set); any instant from 0001-01-01T00:00:00Z (the Timestamp spec's lower
  bound: a legacy store's historical dates label like any other) up to `max_future` (default 1
  day: generous clock skew) after the server's clock — a memory cannot be observed in the future;
- `provenance`: a known ProvenanceKind (unset = stated);
- `candidates`: at most `max_candidates` (default 256). A server whose queue holds fewer pairs
  (`--max-queue-pairs`) enforces that instead (`limits_for_queue`): a request its queue can never
  hold is a bad request, not a busy server;
- `texts` (Embed): 1 to `max_embed_texts` (default 256; clamped to the Embed queue's bound the same
  way), each by the rules of a memory's `text` (`validate_text_field`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Literal

from writegate.errors import InputError
from writegate.normalizer.api import validate_id, validate_subject, validate_text
from writegate.normalizer.schema import MAX_TEXT_BYTES
from writegate.v1 import writegate_pb2 as pb

_MIN_TIMESTAMP_SECONDS = -62135596800  # 0001-01-01T00:00:00Z, the Timestamp spec's lower bound
_MAX_TIMESTAMP_SECONDS = 253402300799  # 9999-12-31T23:59:59Z, the Timestamp spec's upper bound


@dataclass(frozen=True)
class Limits:
    """The request limits (from `ServerConfig`)."""

    max_candidates: int = 256
    max_text_bytes: int = MAX_TEXT_BYTES
    max_future: timedelta = timedelta(days=1)
    max_embed_texts: int = 256


DEFAULT_LIMITS = Limits()


def limits_for_queue(
    limits: Limits, max_queue_pairs: int, field: Literal["max_candidates", "max_embed_texts"] = "max_candidates"
) -> Limits:
    """`limits` with `field` (the items of one request that join one queue) at most `max_queue_pairs`.

    A request with more candidates (or texts to embed) than the batcher's queue holds could never
    be admitted: a lone one would be answered "server busy" forever. Clamped, it is
    INVALID_ARGUMENT naming the limit it exceeds.
    """
    if getattr(limits, field) <= max_queue_pairs:
        return limits
    if field == "max_candidates":
        return replace(limits, max_candidates=max_queue_pairs)
    return replace(limits, max_embed_texts=max_queue_pairs)


def validate_observed_at(msg: pb.Memory, field: str, now: datetime, limits: Limits) -> None:
    """`observed_at` is set and between 0001-01-01T00:00:00Z and now + max_future."""
    if not msg.HasField("observed_at"):
        raise InputError(field, "is required (unset)")
    ts = msg.observed_at
    if not 0 <= ts.nanos <= 999_999_999:
        raise InputError(field, f"has invalid nanos {ts.nanos}")
    if ts.seconds < _MIN_TIMESTAMP_SECONDS:
        raise InputError(field, "is before 0001-01-01T00:00:00Z")
    latest = now + limits.max_future
    if ts.seconds > _MAX_TIMESTAMP_SECONDS or ts.ToDatetime(tzinfo=UTC) > latest:
        raise InputError(field, f"is in the future (more than {_span(limits.max_future)} after the server clock)")


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:g} h" if hours < 48 else f"{hours / 24:g} days"


def validate_text_field(text: str, field: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """One text (a memory's, or one to embed): not empty, at most `max_text_bytes` of UTF-8, then
    `validate_text` (not whitespace only, no control characters); raise InputError naming `field`."""
    if not text:
        raise InputError(field, "is required (empty)")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_text_bytes:
        raise InputError(field, f"is over the limit of {limits.max_text_bytes} bytes ({size} bytes)")
    validate_text(text, field)


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
    if msg.id:
        validate_id(msg.id, f"{field}.id")
    if not msg.subject:
        raise InputError(f"{field}.subject", "is required")
    validate_subject(msg.subject, f"{field}.subject")
    validate_text_field(msg.text, f"{field}.text", limits)
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


def validate_embed(req: pb.EmbedRequest, *, now: datetime, limits: Limits = DEFAULT_LIMITS) -> None:
    """EmbedRequest: 1 to `max_embed_texts` texts, each a valid text (`now` is unused: no timestamps)."""
    if not req.texts:
        raise InputError("texts", "is required (empty list)")
    if len(req.texts) > limits.max_embed_texts:
        raise InputError("texts", f"has {len(req.texts)} texts; the limit is {limits.max_embed_texts}")
    for i, text in enumerate(req.texts):
        validate_text_field(text, f"texts[{i}]", limits)


def validate_relabel(
    req: pb.RelabelRequest,
    index: int,
    *,
    now: datetime,
    limits: Limits = DEFAULT_LIMITS,
    seen: dict[str, int] | None = None,
) -> None:
    """One RelabelRequest of a stream; fields are named `requests[i].existing.text` etc.

    Args:
        req: the request.
        index: its position in the stream.
        now: the server clock.
        limits: the request limits.
        seen: the stream's pair ids so far (→ their index); this one is added, valid or not, once
            its pair_id is a valid id that has not been seen.
    """
    field = f"requests[{index}]"
    if not req.pair_id:
        raise InputError(f"{field}.pair_id", "is required")
    validate_id(req.pair_id, f"{field}.pair_id")
    if seen is not None:
        first = seen.setdefault(req.pair_id, index)
        if first != index:
            raise InputError(f"{field}.pair_id", f"duplicates requests[{first}].pair_id ({req.pair_id!r})")
    for side in ("existing", "new"):
        if not req.HasField(side):
            raise InputError(f"{field}.{side}", "is required (unset)")
        validate_memory(getattr(req, side), f"{field}.{side}", require_id=side == "existing", now=now, limits=limits)
