"""Explicit converters between the proto messages (`writegate.v1`) and the pydantic models.

One function per direction and message; enums map by name through tables, never by number
arithmetic. `*_from_proto` of a request message assumes `validate.py` has checked it; a value the
pydantic model still rejects raises `InputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar

import numpy as np
from google.protobuf import struct_pb2, timestamp_pb2
from google.protobuf.message import Message
from pydantic import BaseModel, ValidationError

from writegate.api.prepare import CandidateState, PrepareWriteResult, Relation, StateRole, WriteEdge
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, ModelInfo
from writegate.errors import InputError, first_error
from writegate.normalizer.schema import (
    Edge,
    EdgeType,
    EnumAttribute,
    EnumValue,
    Memory,
    Polarity,
    Provenance,
    ProvenanceKind,
    Record,
    RecordKind,
    TimeWindow,
    Timezone,
)
from writegate.v1 import writegate_pb2 as pb

E = TypeVar("E")
M = TypeVar("M", bound=BaseModel)

# -- enum tables (pydantic enum ↔ proto enum number) -------------------------------------------

POLARITY: dict[Polarity, pb.Polarity] = {
    Polarity.PREFER: pb.POLARITY_PREFER,
    Polarity.AVOID: pb.POLARITY_AVOID,
    Polarity.REQUIRE: pb.POLARITY_REQUIRE,
}
PROVENANCE: dict[ProvenanceKind, pb.ProvenanceKind] = {
    ProvenanceKind.STATED: pb.PROVENANCE_KIND_STATED,
    ProvenanceKind.INFERRED: pb.PROVENANCE_KIND_INFERRED,
    ProvenanceKind.IMPORTED: pb.PROVENANCE_KIND_IMPORTED,
}
ENUM_ATTRIBUTE: dict[EnumAttribute, pb.EnumAttribute] = {
    EnumAttribute.VERBOSITY: pb.ENUM_ATTRIBUTE_VERBOSITY,
    EnumAttribute.CHANNEL: pb.ENUM_ATTRIBUTE_CHANNEL,
    EnumAttribute.FORMALITY: pb.ENUM_ATTRIBUTE_FORMALITY,
    EnumAttribute.LANGUAGE: pb.ENUM_ATTRIBUTE_LANGUAGE,
    EnumAttribute.FORMAT: pb.ENUM_ATTRIBUTE_FORMAT,
}
EDGE_TYPE: dict[EdgeType, pb.EdgeType] = {
    EdgeType.REPORTS_TO: pb.EDGE_TYPE_REPORTS_TO,
    EdgeType.MANAGES: pb.EDGE_TYPE_MANAGES,
    EdgeType.MEMBER_OF: pb.EDGE_TYPE_MEMBER_OF,
    EdgeType.HAS_ROLE: pb.EDGE_TYPE_HAS_ROLE,
    EdgeType.LOCATED_IN: pb.EDGE_TYPE_LOCATED_IN,
    EdgeType.OWNED_BY: pb.EDGE_TYPE_OWNED_BY,
    EdgeType.APPROVES: pb.EDGE_TYPE_APPROVES,
    EdgeType.DELEGATES_TO: pb.EDGE_TYPE_DELEGATES_TO,
}
LABEL: dict[Label, pb.Label] = {
    Label.UNRELATED: pb.LABEL_UNRELATED,
    Label.CORROBORATES: pb.LABEL_CORROBORATES,
    Label.ELABORATES: pb.LABEL_ELABORATES,
    Label.CONTRADICTS: pb.LABEL_CONTRADICTS,
    Label.SUPERSEDES: pb.LABEL_SUPERSEDES,
}
EVIDENCE: dict[Evidence, pb.Evidence] = {
    Evidence.MODEL: pb.EVIDENCE_MODEL,
    Evidence.STRUCTURE: pb.EVIDENCE_STRUCTURE,
    Evidence.BOTH: pb.EVIDENCE_BOTH,
    Evidence.CONTENT_FREE: pb.EVIDENCE_CONTENT_FREE,
    Evidence.OTHER_SUBJECT: pb.EVIDENCE_OTHER_SUBJECT,
    Evidence.CORRECTION: pb.EVIDENCE_CORRECTION,
}
STATE_ROLE: dict[StateRole, pb.StateRole] = {
    StateRole.CURRENT: pb.STATE_ROLE_CURRENT,
    StateRole.HISTORICAL: pb.STATE_ROLE_HISTORICAL,
    StateRole.IN_CONFLICT: pb.STATE_ROLE_IN_CONFLICT,
    StateRole.RETRACTED: pb.STATE_ROLE_RETRACTED,
}


def _inverse(table: Mapping[E, int]) -> dict[int, E]:
    return {int(number): member for member, number in table.items()}


_POLARITY_INV = _inverse(POLARITY)
_PROVENANCE_INV = _inverse(PROVENANCE)
_ENUM_ATTRIBUTE_INV = _inverse(ENUM_ATTRIBUTE)
_EDGE_TYPE_INV = _inverse(EDGE_TYPE)
_LABEL_INV = _inverse(LABEL)
_EVIDENCE_INV = _inverse(EVIDENCE)
_STATE_ROLE_INV = _inverse(STATE_ROLE)


def _enum_from_proto(inverse: Mapping[int, E], number: int, field: str, enum_name: str) -> E:
    try:
        return inverse[number]
    except KeyError:
        name = pb.DESCRIPTOR.enum_types_by_name[enum_name].values_by_number.get(number)
        shown = name.name if name is not None else str(number)
        raise InputError(field, f"must be set to a known {enum_name} value, got {shown}") from None


def _validated(model: type[M], field: str, **values: object) -> M:
    """Build `model(**values)`, turning a ValidationError into an InputError naming the field."""
    try:
        return model(**values)
    except ValidationError as exc:
        first = first_error(exc)
        raise InputError(f"{field}.{first.dotted}" if first.loc else field, first.message) from None


# -- timestamps --------------------------------------------------------------------------------


def timestamp_to_proto(dt: datetime) -> timestamp_pb2.Timestamp:
    """An aware datetime (naive = UTC) → Timestamp, microsecond exact."""
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(dt if dt.tzinfo is None else dt.astimezone(UTC).replace(tzinfo=None))
    return ts


def timestamp_from_proto(ts: timestamp_pb2.Timestamp) -> datetime:
    """Timestamp → aware UTC datetime (sub-microsecond nanos are dropped)."""
    return ts.ToDatetime(tzinfo=UTC)


# -- edge attributes (map<string, google.protobuf.Value>) ----------------------------------------


def attribute_to_proto(value: str | float | bool, field: str = "attributes") -> struct_pb2.Value:
    """One edge attribute → google.protobuf.Value (bool, number or string)."""
    out = struct_pb2.Value()
    if isinstance(value, bool):
        out.bool_value = value
    elif isinstance(value, (int, float)):
        out.number_value = float(value)
    elif isinstance(value, str):
        out.string_value = value
    else:
        raise InputError(field, f"must be a string, number or bool, got {type(value).__name__}")
    return out


def attribute_from_proto(value: struct_pb2.Value, field: str = "attributes") -> str | float | bool:
    """google.protobuf.Value → one edge attribute."""
    kind = value.WhichOneof("kind")
    if kind == "bool_value":
        return value.bool_value
    if kind == "number_value":
        return value.number_value
    if kind == "string_value":
        return value.string_value
    raise InputError(field, f"must be a string, number or bool value, got {kind or 'nothing'}")


# -- record value messages ---------------------------------------------------------------------


def time_window_to_proto(tw: TimeWindow) -> pb.TimeWindow:
    """TimeWindow → proto."""
    msg = pb.TimeWindow(cron=tw.cron, duration_minutes=tw.duration_minutes, polarity=POLARITY[tw.polarity])
    if tw.timezone is not None:
        msg.timezone = tw.timezone
    return msg


def time_window_from_proto(msg: pb.TimeWindow, field: str = "time_window") -> TimeWindow:
    """proto → TimeWindow."""
    return _validated(
        TimeWindow,
        field,
        cron=msg.cron,
        duration_minutes=msg.duration_minutes,
        timezone=msg.timezone if msg.HasField("timezone") else None,
        polarity=_enum_from_proto(_POLARITY_INV, msg.polarity, f"{field}.polarity", "Polarity"),
    )


def timezone_to_proto(tz: Timezone) -> pb.Timezone:
    """Timezone → proto."""
    return pb.Timezone(timezone=tz.timezone)


def timezone_from_proto(msg: pb.Timezone, field: str = "timezone") -> Timezone:
    """proto → Timezone."""
    return _validated(Timezone, field, timezone=msg.timezone)


def enum_value_to_proto(ev: EnumValue) -> pb.EnumValue:
    """EnumValue → proto."""
    return pb.EnumValue(attribute=ENUM_ATTRIBUTE[ev.attribute], value=ev.value)


def enum_value_from_proto(msg: pb.EnumValue, field: str = "enum") -> EnumValue:
    """proto → EnumValue."""
    attribute = _enum_from_proto(_ENUM_ATTRIBUTE_INV, msg.attribute, f"{field}.attribute", "EnumAttribute")
    return _validated(EnumValue, field, attribute=attribute, value=msg.value)


def edge_to_proto(edge: Edge) -> pb.Edge:
    """Edge → proto (attributes as google.protobuf.Value)."""
    msg = pb.Edge(source=edge.source, type=EDGE_TYPE[edge.type], target=edge.target)
    for key, value in edge.attributes.items():
        msg.attributes[key].CopyFrom(attribute_to_proto(value, f"edge.attributes.{key}"))
    return msg


def edge_from_proto(msg: pb.Edge, field: str = "edge") -> Edge:
    """proto → Edge."""
    return _validated(
        Edge,
        field,
        source=msg.source,
        type=_enum_from_proto(_EDGE_TYPE_INV, msg.type, f"{field}.type", "EdgeType"),
        target=msg.target,
        attributes={k: attribute_from_proto(v, f"{field}.attributes.{k}") for k, v in msg.attributes.items()},
    )


def provenance_to_proto(prov: Provenance) -> pb.Provenance:
    """Provenance → proto."""
    msg = pb.Provenance(kind=PROVENANCE[prov.kind])
    if prov.source is not None:
        msg.source = prov.source
    if prov.note is not None:
        msg.note = prov.note
    return msg


def provenance_from_proto(msg: pb.Provenance, field: str = "provenance") -> Provenance:
    """proto → Provenance (an unset kind is `stated`)."""
    return _validated(
        Provenance,
        field,
        kind=provenance_kind_from_proto(msg.kind, f"{field}.kind"),
        source=msg.source if msg.HasField("source") else None,
        note=msg.note if msg.HasField("note") else None,
    )


def provenance_kind_from_proto(number: int, field: str = "provenance") -> ProvenanceKind:
    """ProvenanceKind number → enum; UNSPECIFIED (unset) means `stated`."""
    if number == pb.PROVENANCE_KIND_UNSPECIFIED:
        return ProvenanceKind.STATED
    return _enum_from_proto(_PROVENANCE_INV, number, field, "ProvenanceKind")


# -- Record ------------------------------------------------------------------------------------


class ValueWire(NamedTuple):
    """How a record value travels: the `pb.Record` oneof field that carries it (named as the
    value's field in the record's JSON form) and its converters."""

    field: str
    to_proto: Callable[[Any], Message]
    from_proto: Callable[[Any, str], BaseModel]


class KindWire(NamedTuple):
    """How a record kind travels: its `pb.RecordKind` number and its value (None: `text` has none)."""

    number: pb.RecordKind
    value: ValueWire | None = None


RECORD_KIND: dict[RecordKind, KindWire] = {
    RecordKind.TIME_WINDOW: KindWire(
        pb.RECORD_KIND_TIME_WINDOW, ValueWire("time_window", time_window_to_proto, time_window_from_proto)
    ),
    RecordKind.ENUM: KindWire(pb.RECORD_KIND_ENUM, ValueWire("enum", enum_value_to_proto, enum_value_from_proto)),
    RecordKind.EDGE: KindWire(pb.RECORD_KIND_EDGE, ValueWire("edge", edge_to_proto, edge_from_proto)),
    RecordKind.TIMEZONE: KindWire(
        pb.RECORD_KIND_TIMEZONE, ValueWire("timezone", timezone_to_proto, timezone_from_proto)
    ),
    RecordKind.TEXT: KindWire(pb.RECORD_KIND_TEXT),
}
"""The one table of record kinds on the wire: kind ↔ proto number, value ↔ oneof field."""

_RECORD_KIND_INV = {int(wire.number): kind for kind, wire in RECORD_KIND.items()}
_VALUE_BY_FIELD = {wire.value.field: wire.value for wire in RECORD_KIND.values() if wire.value is not None}


def record_to_proto(rec: Record) -> pb.Record:
    """Record → proto; exactly the value field of its kind is set."""
    wire = RECORD_KIND[rec.kind]
    values = {} if wire.value is None else {wire.value.field: wire.value.to_proto(getattr(rec.value, wire.value.field))}
    return pb.Record(
        subject=rec.subject,
        kind=wire.number,
        slot=rec.slot,
        provenance=provenance_to_proto(rec.provenance),
        observed_at=timestamp_to_proto(rec.observed_at),
        half_life_days=rec.half_life_days,
        confidence=rec.confidence,
        text=rec.text,
        **values,
    )


def record_from_proto(msg: pb.Record, field: str = "record") -> Record:
    """proto → Record (validated: kind and value field must agree)."""
    which = msg.WhichOneof("value")
    values: dict[str, object] = {}
    if which is not None:
        values[which] = _VALUE_BY_FIELD[which].from_proto(getattr(msg, which), f"{field}.{which}")
    return _validated(
        Record,
        field,
        subject=msg.subject,
        kind=_enum_from_proto(_RECORD_KIND_INV, msg.kind, f"{field}.kind", "RecordKind"),
        slot=msg.slot,
        provenance=provenance_from_proto(msg.provenance, f"{field}.provenance"),
        observed_at=timestamp_from_proto(msg.observed_at),
        half_life_days=msg.half_life_days,
        confidence=msg.confidence,
        text=msg.text,
        **values,
    )


def records_to_proto(records: Iterable[Record]) -> list[pb.Record]:
    """Records → protos, in order."""
    return [record_to_proto(r) for r in records]


# -- Memory ------------------------------------------------------------------------------------


def memory_to_proto(mem: Memory) -> pb.Memory:
    """Memory → proto."""
    return pb.Memory(
        id=mem.id,
        subject=mem.subject,
        text=mem.text,
        observed_at=timestamp_to_proto(mem.observed_at),
        provenance=PROVENANCE[mem.provenance],
    )


def memory_from_proto(msg: pb.Memory, field: str = "memory") -> Memory:
    """proto → Memory (call `validate.validate_memory` first for the request-level rules)."""
    return _validated(
        Memory,
        field,
        id=msg.id,
        subject=msg.subject,
        text=msg.text,
        observed_at=timestamp_from_proto(msg.observed_at),
        provenance=provenance_kind_from_proto(msg.provenance, f"{field}.provenance"),
    )


# -- Relation, plan, model info ------------------------------------------------------------------


def label_from_proto(number: int, field: str = "label") -> Label:
    """proto enum number → Label."""
    return _enum_from_proto(_LABEL_INV, number, field, "Label")


def relation_to_proto(rel: Relation) -> pb.Relation:
    """Relation → proto."""
    return pb.Relation(
        candidate_id=rel.candidate_id,
        label=LABEL[rel.label],
        scores=rel.scores,
        slot_match=rel.slot_match,
        evidence=EVIDENCE[rel.evidence],
        review=rel.review,
    )


def relation_from_proto(msg: pb.Relation, field: str = "relation") -> Relation:
    """proto → Relation (scores are float32 on the wire)."""
    return _validated(
        Relation,
        field,
        candidate_id=msg.candidate_id,
        label=label_from_proto(msg.label, f"{field}.label"),
        scores=dict(msg.scores),
        slot_match=msg.slot_match,
        evidence=_enum_from_proto(_EVIDENCE_INV, msg.evidence, f"{field}.evidence", "Evidence"),
        review=msg.review,
    )


def state_role_from_proto(number: int, field: str = "role") -> StateRole:
    """proto enum number → StateRole."""
    return _enum_from_proto(_STATE_ROLE_INV, number, field, "StateRole")


def prepare_write_to_proto(result: PrepareWriteResult) -> pb.PrepareWriteResponse:
    """PrepareWriteResult → PrepareWriteResponse."""
    return pb.PrepareWriteResponse(
        records=records_to_proto(result.records),
        relations=[relation_to_proto(r) for r in result.relations],
        candidate_states=[
            pb.CandidateState(candidate_id=s.candidate_id, role=STATE_ROLE[s.role]) for s in result.candidate_states
        ],
        edges=[pb.WriteEdge(source_id=e.source_id, target_id=e.target_id, label=LABEL[e.label]) for e in result.edges],
        new_role=STATE_ROLE[result.new_role],
    )


def prepare_write_from_proto(msg: pb.PrepareWriteResponse) -> PrepareWriteResult:
    """PrepareWriteResponse → PrepareWriteResult."""
    return PrepareWriteResult(
        records=[record_from_proto(r, f"records[{i}]") for i, r in enumerate(msg.records)],
        relations=[relation_from_proto(r, f"relations[{i}]") for i, r in enumerate(msg.relations)],
        candidate_states=[
            CandidateState(
                candidate_id=s.candidate_id, role=state_role_from_proto(s.role, f"candidate_states[{i}].role")
            )
            for i, s in enumerate(msg.candidate_states)
        ],
        edges=[
            WriteEdge(
                source_id=e.source_id, target_id=e.target_id, label=label_from_proto(e.label, f"edges[{i}].label")
            )
            for i, e in enumerate(msg.edges)
        ],
        new_role=state_role_from_proto(msg.new_role, "new_role"),
    )


def model_info_to_proto(info: ModelInfo) -> pb.GetModelInfoResponse:
    """ModelInfo → GetModelInfoResponse."""
    return pb.GetModelInfoResponse(**info.model_dump())


def model_info_from_proto(msg: pb.GetModelInfoResponse) -> ModelInfo:
    """GetModelInfoResponse → ModelInfo."""
    return ModelInfo.of(msg, msg.backend)


def relations_to_proto(relations: Sequence[Relation]) -> list[pb.Relation]:
    """Relations → protos, in order."""
    return [relation_to_proto(r) for r in relations]


def embed_response_to_proto(name: str, dim: int, vectors: Sequence[np.ndarray]) -> pb.EmbedResponse:
    """The Embed batcher's answers (float32 [dim] each, in text order) → EmbedResponse."""
    return pb.EmbedResponse(embeddings=[pb.Embedding(values=v.tolist()) for v in vectors], name=name, dim=dim)


def embeddings_from_proto(msg: pb.EmbedResponse) -> list[list[float]]:
    """EmbedResponse → one list of `dim` floats per text, in order.

    Raises:
        InputError: `embeddings[i]`: a vector whose length is not the response's `dim`.
    """
    out = []
    for i, emb in enumerate(msg.embeddings):
        if len(emb.values) != msg.dim:
            raise InputError(f"embeddings[{i}]", f"has {len(emb.values)} values; dim is {msg.dim}")
        out.append(list(emb.values))
    return out
