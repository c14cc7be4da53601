import datetime

from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RecordKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RECORD_KIND_UNSPECIFIED: _ClassVar[RecordKind]
    RECORD_KIND_TIME_WINDOW: _ClassVar[RecordKind]
    RECORD_KIND_ENUM: _ClassVar[RecordKind]
    RECORD_KIND_EDGE: _ClassVar[RecordKind]
    RECORD_KIND_TIMEZONE: _ClassVar[RecordKind]
    RECORD_KIND_TEXT: _ClassVar[RecordKind]

class Polarity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POLARITY_UNSPECIFIED: _ClassVar[Polarity]
    POLARITY_PREFER: _ClassVar[Polarity]
    POLARITY_AVOID: _ClassVar[Polarity]
    POLARITY_REQUIRE: _ClassVar[Polarity]

class ProvenanceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROVENANCE_KIND_UNSPECIFIED: _ClassVar[ProvenanceKind]
    PROVENANCE_KIND_STATED: _ClassVar[ProvenanceKind]
    PROVENANCE_KIND_INFERRED: _ClassVar[ProvenanceKind]
    PROVENANCE_KIND_IMPORTED: _ClassVar[ProvenanceKind]

class EnumAttribute(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENUM_ATTRIBUTE_UNSPECIFIED: _ClassVar[EnumAttribute]
    ENUM_ATTRIBUTE_VERBOSITY: _ClassVar[EnumAttribute]
    ENUM_ATTRIBUTE_CHANNEL: _ClassVar[EnumAttribute]
    ENUM_ATTRIBUTE_FORMALITY: _ClassVar[EnumAttribute]
    ENUM_ATTRIBUTE_LANGUAGE: _ClassVar[EnumAttribute]
    ENUM_ATTRIBUTE_FORMAT: _ClassVar[EnumAttribute]

class EdgeType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EDGE_TYPE_UNSPECIFIED: _ClassVar[EdgeType]
    EDGE_TYPE_REPORTS_TO: _ClassVar[EdgeType]
    EDGE_TYPE_MANAGES: _ClassVar[EdgeType]
    EDGE_TYPE_MEMBER_OF: _ClassVar[EdgeType]
    EDGE_TYPE_HAS_ROLE: _ClassVar[EdgeType]
    EDGE_TYPE_LOCATED_IN: _ClassVar[EdgeType]
    EDGE_TYPE_OWNED_BY: _ClassVar[EdgeType]
    EDGE_TYPE_APPROVES: _ClassVar[EdgeType]
    EDGE_TYPE_DELEGATES_TO: _ClassVar[EdgeType]

class Label(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LABEL_UNSPECIFIED: _ClassVar[Label]
    LABEL_UNRELATED: _ClassVar[Label]
    LABEL_CORROBORATES: _ClassVar[Label]
    LABEL_ELABORATES: _ClassVar[Label]
    LABEL_CONTRADICTS: _ClassVar[Label]
    LABEL_SUPERSEDES: _ClassVar[Label]

class Evidence(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVIDENCE_UNSPECIFIED: _ClassVar[Evidence]
    EVIDENCE_MODEL: _ClassVar[Evidence]
    EVIDENCE_STRUCTURE: _ClassVar[Evidence]
    EVIDENCE_BOTH: _ClassVar[Evidence]
    EVIDENCE_CONTENT_FREE: _ClassVar[Evidence]
    EVIDENCE_OTHER_SUBJECT: _ClassVar[Evidence]
    EVIDENCE_CORRECTION: _ClassVar[Evidence]

class StateRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATE_ROLE_UNSPECIFIED: _ClassVar[StateRole]
    STATE_ROLE_CURRENT: _ClassVar[StateRole]
    STATE_ROLE_HISTORICAL: _ClassVar[StateRole]
    STATE_ROLE_IN_CONFLICT: _ClassVar[StateRole]
    STATE_ROLE_RETRACTED: _ClassVar[StateRole]
RECORD_KIND_UNSPECIFIED: RecordKind
RECORD_KIND_TIME_WINDOW: RecordKind
RECORD_KIND_ENUM: RecordKind
RECORD_KIND_EDGE: RecordKind
RECORD_KIND_TIMEZONE: RecordKind
RECORD_KIND_TEXT: RecordKind
POLARITY_UNSPECIFIED: Polarity
POLARITY_PREFER: Polarity
POLARITY_AVOID: Polarity
POLARITY_REQUIRE: Polarity
PROVENANCE_KIND_UNSPECIFIED: ProvenanceKind
PROVENANCE_KIND_STATED: ProvenanceKind
PROVENANCE_KIND_INFERRED: ProvenanceKind
PROVENANCE_KIND_IMPORTED: ProvenanceKind
ENUM_ATTRIBUTE_UNSPECIFIED: EnumAttribute
ENUM_ATTRIBUTE_VERBOSITY: EnumAttribute
ENUM_ATTRIBUTE_CHANNEL: EnumAttribute
ENUM_ATTRIBUTE_FORMALITY: EnumAttribute
ENUM_ATTRIBUTE_LANGUAGE: EnumAttribute
ENUM_ATTRIBUTE_FORMAT: EnumAttribute
EDGE_TYPE_UNSPECIFIED: EdgeType
EDGE_TYPE_REPORTS_TO: EdgeType
EDGE_TYPE_MANAGES: EdgeType
EDGE_TYPE_MEMBER_OF: EdgeType
EDGE_TYPE_HAS_ROLE: EdgeType
EDGE_TYPE_LOCATED_IN: EdgeType
EDGE_TYPE_OWNED_BY: EdgeType
EDGE_TYPE_APPROVES: EdgeType
EDGE_TYPE_DELEGATES_TO: EdgeType
LABEL_UNSPECIFIED: Label
LABEL_UNRELATED: Label
LABEL_CORROBORATES: Label
LABEL_ELABORATES: Label
LABEL_CONTRADICTS: Label
LABEL_SUPERSEDES: Label
EVIDENCE_UNSPECIFIED: Evidence
EVIDENCE_MODEL: Evidence
EVIDENCE_STRUCTURE: Evidence
EVIDENCE_BOTH: Evidence
EVIDENCE_CONTENT_FREE: Evidence
EVIDENCE_OTHER_SUBJECT: Evidence
EVIDENCE_CORRECTION: Evidence
STATE_ROLE_UNSPECIFIED: StateRole
STATE_ROLE_CURRENT: StateRole
STATE_ROLE_HISTORICAL: StateRole
STATE_ROLE_IN_CONFLICT: StateRole
STATE_ROLE_RETRACTED: StateRole

class TimeWindow(_message.Message):
    __slots__ = ("cron", "duration_minutes", "timezone", "polarity")
    CRON_FIELD_NUMBER: _ClassVar[int]
    DURATION_MINUTES_FIELD_NUMBER: _ClassVar[int]
    TIMEZONE_FIELD_NUMBER: _ClassVar[int]
    POLARITY_FIELD_NUMBER: _ClassVar[int]
    cron: str
    duration_minutes: int
    timezone: str
    polarity: Polarity
    def __init__(self, cron: _Optional[str] = ..., duration_minutes: _Optional[int] = ..., timezone: _Optional[str] = ..., polarity: _Optional[_Union[Polarity, str]] = ...) -> None: ...

class Timezone(_message.Message):
    __slots__ = ("timezone",)
    TIMEZONE_FIELD_NUMBER: _ClassVar[int]
    timezone: str
    def __init__(self, timezone: _Optional[str] = ...) -> None: ...

class EnumValue(_message.Message):
    __slots__ = ("attribute", "value")
    ATTRIBUTE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    attribute: EnumAttribute
    value: str
    def __init__(self, attribute: _Optional[_Union[EnumAttribute, str]] = ..., value: _Optional[str] = ...) -> None: ...

class Edge(_message.Message):
    __slots__ = ("source", "type", "target", "attributes")
    class AttributesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _struct_pb2.Value
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    source: str
    type: EdgeType
    target: str
    attributes: _containers.MessageMap[str, _struct_pb2.Value]
    def __init__(self, source: _Optional[str] = ..., type: _Optional[_Union[EdgeType, str]] = ..., target: _Optional[str] = ..., attributes: _Optional[_Mapping[str, _struct_pb2.Value]] = ...) -> None: ...

class Provenance(_message.Message):
    __slots__ = ("kind", "source", "note")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    kind: ProvenanceKind
    source: str
    note: str
    def __init__(self, kind: _Optional[_Union[ProvenanceKind, str]] = ..., source: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class Record(_message.Message):
    __slots__ = ("subject", "kind", "slot", "time_window", "timezone", "enum", "edge", "provenance", "observed_at", "half_life_days", "confidence", "text")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TIME_WINDOW_FIELD_NUMBER: _ClassVar[int]
    TIMEZONE_FIELD_NUMBER: _ClassVar[int]
    ENUM_FIELD_NUMBER: _ClassVar[int]
    EDGE_FIELD_NUMBER: _ClassVar[int]
    PROVENANCE_FIELD_NUMBER: _ClassVar[int]
    OBSERVED_AT_FIELD_NUMBER: _ClassVar[int]
    HALF_LIFE_DAYS_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    subject: str
    kind: RecordKind
    slot: str
    time_window: TimeWindow
    timezone: Timezone
    enum: EnumValue
    edge: Edge
    provenance: Provenance
    observed_at: _timestamp_pb2.Timestamp
    half_life_days: float
    confidence: float
    text: str
    def __init__(self, subject: _Optional[str] = ..., kind: _Optional[_Union[RecordKind, str]] = ..., slot: _Optional[str] = ..., time_window: _Optional[_Union[TimeWindow, _Mapping]] = ..., timezone: _Optional[_Union[Timezone, _Mapping]] = ..., enum: _Optional[_Union[EnumValue, _Mapping]] = ..., edge: _Optional[_Union[Edge, _Mapping]] = ..., provenance: _Optional[_Union[Provenance, _Mapping]] = ..., observed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., half_life_days: _Optional[float] = ..., confidence: _Optional[float] = ..., text: _Optional[str] = ...) -> None: ...

class Memory(_message.Message):
    __slots__ = ("id", "subject", "text", "observed_at", "provenance")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    OBSERVED_AT_FIELD_NUMBER: _ClassVar[int]
    PROVENANCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    subject: str
    text: str
    observed_at: _timestamp_pb2.Timestamp
    provenance: ProvenanceKind
    def __init__(self, id: _Optional[str] = ..., subject: _Optional[str] = ..., text: _Optional[str] = ..., observed_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., provenance: _Optional[_Union[ProvenanceKind, str]] = ...) -> None: ...

class Relation(_message.Message):
    __slots__ = ("candidate_id", "label", "scores", "slot_match", "evidence", "review")
    class ScoresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    CANDIDATE_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SLOT_MATCH_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    REVIEW_FIELD_NUMBER: _ClassVar[int]
    candidate_id: str
    label: Label
    scores: _containers.ScalarMap[str, float]
    slot_match: bool
    evidence: Evidence
    review: bool
    def __init__(self, candidate_id: _Optional[str] = ..., label: _Optional[_Union[Label, str]] = ..., scores: _Optional[_Mapping[str, float]] = ..., slot_match: _Optional[bool] = ..., evidence: _Optional[_Union[Evidence, str]] = ..., review: _Optional[bool] = ...) -> None: ...

class CandidateState(_message.Message):
    __slots__ = ("candidate_id", "role")
    CANDIDATE_ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    candidate_id: str
    role: StateRole
    def __init__(self, candidate_id: _Optional[str] = ..., role: _Optional[_Union[StateRole, str]] = ...) -> None: ...

class WriteEdge(_message.Message):
    __slots__ = ("source_id", "target_id", "label")
    SOURCE_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    source_id: str
    target_id: str
    label: Label
    def __init__(self, source_id: _Optional[str] = ..., target_id: _Optional[str] = ..., label: _Optional[_Union[Label, str]] = ...) -> None: ...

class NormalizeRequest(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class NormalizeResponse(_message.Message):
    __slots__ = ("records",)
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[Record]
    def __init__(self, records: _Optional[_Iterable[_Union[Record, _Mapping]]] = ...) -> None: ...

class ClassifyRequest(_message.Message):
    __slots__ = ("memory", "candidates")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    candidates: _containers.RepeatedCompositeFieldContainer[Memory]
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ...) -> None: ...

class ClassifyResponse(_message.Message):
    __slots__ = ("relations",)
    RELATIONS_FIELD_NUMBER: _ClassVar[int]
    relations: _containers.RepeatedCompositeFieldContainer[Relation]
    def __init__(self, relations: _Optional[_Iterable[_Union[Relation, _Mapping]]] = ...) -> None: ...

class PrepareWriteRequest(_message.Message):
    __slots__ = ("memory", "candidates")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    memory: Memory
    candidates: _containers.RepeatedCompositeFieldContainer[Memory]
    def __init__(self, memory: _Optional[_Union[Memory, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[Memory, _Mapping]]] = ...) -> None: ...

class PrepareWriteResponse(_message.Message):
    __slots__ = ("records", "relations", "candidate_states", "edges", "new_role")
    RECORDS_FIELD_NUMBER: _ClassVar[int]
    RELATIONS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_STATES_FIELD_NUMBER: _ClassVar[int]
    EDGES_FIELD_NUMBER: _ClassVar[int]
    NEW_ROLE_FIELD_NUMBER: _ClassVar[int]
    records: _containers.RepeatedCompositeFieldContainer[Record]
    relations: _containers.RepeatedCompositeFieldContainer[Relation]
    candidate_states: _containers.RepeatedCompositeFieldContainer[CandidateState]
    edges: _containers.RepeatedCompositeFieldContainer[WriteEdge]
    new_role: StateRole
    def __init__(self, records: _Optional[_Iterable[_Union[Record, _Mapping]]] = ..., relations: _Optional[_Iterable[_Union[Relation, _Mapping]]] = ..., candidate_states: _Optional[_Iterable[_Union[CandidateState, _Mapping]]] = ..., edges: _Optional[_Iterable[_Union[WriteEdge, _Mapping]]] = ..., new_role: _Optional[_Union[StateRole, str]] = ...) -> None: ...

class RelabelRequest(_message.Message):
    __slots__ = ("pair_id", "existing", "new")
    PAIR_ID_FIELD_NUMBER: _ClassVar[int]
    EXISTING_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    pair_id: str
    existing: Memory
    new: Memory
    def __init__(self, pair_id: _Optional[str] = ..., existing: _Optional[_Union[Memory, _Mapping]] = ..., new: _Optional[_Union[Memory, _Mapping]] = ...) -> None: ...

class PairError(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class RelabelResponse(_message.Message):
    __slots__ = ("pair_id", "relation", "error")
    PAIR_ID_FIELD_NUMBER: _ClassVar[int]
    RELATION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    pair_id: str
    relation: Relation
    error: PairError
    def __init__(self, pair_id: _Optional[str] = ..., relation: _Optional[_Union[Relation, _Mapping]] = ..., error: _Optional[_Union[PairError, _Mapping]] = ...) -> None: ...

class GetModelInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetModelInfoResponse(_message.Message):
    __slots__ = ("name", "version", "labels", "backend", "max_length", "metrics")
    class MetricsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    METRICS_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    labels: _containers.RepeatedScalarFieldContainer[str]
    backend: str
    max_length: int
    metrics: _containers.ScalarMap[str, float]
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., labels: _Optional[_Iterable[str]] = ..., backend: _Optional[str] = ..., max_length: _Optional[int] = ..., metrics: _Optional[_Mapping[str, float]] = ...) -> None: ...

class EmbedRequest(_message.Message):
    __slots__ = ("texts",)
    TEXTS_FIELD_NUMBER: _ClassVar[int]
    texts: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, texts: _Optional[_Iterable[str]] = ...) -> None: ...

class Embedding(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, values: _Optional[_Iterable[float]] = ...) -> None: ...

class EmbedResponse(_message.Message):
    __slots__ = ("embeddings", "name", "dim")
    EMBEDDINGS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DIM_FIELD_NUMBER: _ClassVar[int]
    embeddings: _containers.RepeatedCompositeFieldContainer[Embedding]
    name: str
    dim: int
    def __init__(self, embeddings: _Optional[_Iterable[_Union[Embedding, _Mapping]]] = ..., name: _Optional[str] = ..., dim: _Optional[int] = ...) -> None: ...
