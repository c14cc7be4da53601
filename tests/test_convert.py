"""proto ↔ pydantic converters: exact round trips, complete enum tables, errors naming fields."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum

import pytest
from google.protobuf import json_format

from writegate.api import convert
from writegate.api.prepare import CandidateState, PrepareWriteResult, Relation, StateRole, WriteEdge
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, ModelInfo
from writegate.errors import InputError
from writegate.normalizer.schema import Memory, ProvenanceKind, Record, RecordKind
from writegate.v1 import writegate_pb2 as pb

AT = datetime(2026, 3, 2, 10, 0, 0, 123456, tzinfo=UTC)


def rec(kind: RecordKind, slot: str, **value: object) -> Record:
    """A record with every common field set; `value` is its kind's value as plain data (validated)."""
    return Record.model_validate(
        {
            "subject": "user:alice",
            "kind": kind,
            "slot": slot,
            "provenance": {"kind": "inferred", "source": "session-42", "note": "from a place"},
            "observed_at": AT,
            "half_life_days": 7.5,
            "confidence": 0.95,
            "text": "some text",
            **value,
        }
    )


APPROVES = {"max_amount": 50000, "currency": "USD", "exclusive": True}
RECORDS = {
    "time_window": rec(
        RecordKind.TIME_WINDOW,
        "schedule.meetings",
        time_window={
            "cron": "0 9 * * 1-5",
            "duration_minutes": 60,
            "timezone": "America/New_York",
            "polarity": "avoid",
        },
    ),
    "time_window-no-tz": rec(
        RecordKind.TIME_WINDOW, "schedule.meetings", time_window={"cron": "30 14 * * 2", "duration_minutes": 90}
    ),
    "timezone": rec(RecordKind.TIMEZONE, "timezone", timezone={"timezone": "Europe/London"}),
    "enum": rec(RecordKind.ENUM, "pref.channel", enum={"attribute": "channel", "value": "in_person"}),
    "enum-language": rec(RecordKind.ENUM, "pref.language", enum={"attribute": "language", "value": "fr"}),
    "edge-approves": rec(
        RecordKind.EDGE,
        "edge.approves.budget:general",
        edge={"source": "user:alice", "type": "approves", "target": "budget:general", "attributes": APPROVES},
    ),
    "edge-delegates": rec(
        RecordKind.EDGE,
        "edge.delegates_to.person:bo",
        edge={"source": "user:alice", "type": "delegates_to", "target": "person:bo", "attributes": {"scope": "travel"}},
    ),
    "edge-plain": rec(
        RecordKind.EDGE,
        "edge.reports_to",
        edge={"source": "user:alice", "type": "reports_to", "target": "person:michelle-chen"},
    ),
    "text": rec(RecordKind.TEXT, "text"),
}


@pytest.mark.parametrize("record", RECORDS.values(), ids=RECORDS.keys())
def test_record_round_trip_is_exact(record: Record) -> None:
    msg = convert.record_to_proto(record)
    wire = pb.Record.FromString(msg.SerializeToString())
    assert convert.record_from_proto(wire) == record
    assert wire.WhichOneof("value") == (None if record.kind is RecordKind.TEXT else record.kind.value)
    common = {"subject", "kind", "slot", "provenance", "observed_at", "half_life_days", "confidence", "text"}
    assert set(record.to_json()) - common == set(filter(None, [wire.WhichOneof("value")]))  # the same value field


def test_record_json_mapping_uses_the_design_names() -> None:
    data = json_format.MessageToDict(
        convert.record_to_proto(RECORDS["edge-approves"]), preserving_proto_field_name=True
    )
    assert set(data) == {
        "subject",
        "kind",
        "slot",
        "edge",
        "provenance",
        "observed_at",
        "half_life_days",
        "confidence",
        "text",
    }
    assert data["edge"]["attributes"] == {"max_amount": 50000.0, "currency": "USD", "exclusive": True}
    assert data["observed_at"] == "2026-03-02T10:00:00.123456Z"


@pytest.mark.parametrize(
    "memory",
    [
        Memory(
            id="m1", subject="user:alice", text="prefers mornings", observed_at=AT, provenance=ProvenanceKind.IMPORTED
        ),
        Memory(id="", subject="person:bo", text="x", observed_at=datetime(1999, 1, 1, tzinfo=UTC)),
    ],
    ids=["full", "no-id"],
)
def test_memory_round_trip(memory: Memory) -> None:
    wire = pb.Memory.FromString(convert.memory_to_proto(memory).SerializeToString())
    assert convert.memory_from_proto(wire) == memory


def test_unset_provenance_means_stated() -> None:
    msg = pb.Memory(id="m", subject="user:a", text="t", observed_at=convert.timestamp_to_proto(AT))
    assert convert.memory_from_proto(msg).provenance is ProvenanceKind.STATED


def test_relation_and_plan_round_trip() -> None:
    scores = {"unrelated": 0.125, "corroborates": 0.0625, "elaborates": 0.0625, "contradicts": 0.25, "supersedes": 0.5}
    rel = Relation(candidate_id="c1", label=Label.SUPERSEDES, scores=scores, slot_match=True, evidence=Evidence.BOTH)
    result = PrepareWriteResult(
        records=[RECORDS["timezone"]],
        relations=[rel],
        candidate_states=[CandidateState(candidate_id="c1", role=StateRole.HISTORICAL)],
        edges=[WriteEdge(source_id="n1", target_id="c1", label=Label.SUPERSEDES)],
        new_role=StateRole.CURRENT,
    )
    wire = pb.PrepareWriteResponse.FromString(convert.prepare_write_to_proto(result).SerializeToString())
    assert convert.prepare_write_from_proto(wire) == result  # scores are exact binary fractions in float32


def test_model_info_round_trip() -> None:
    info = ModelInfo(
        name="m",
        version="1.2",
        labels=[x.value for x in Label],
        backend="onnx",
        max_length=128,
        metrics={"macro_f1": 0.875},
    )
    assert convert.model_info_from_proto(convert.model_info_to_proto(info)) == info


# convert's enum tables, found by what they map: every module-level dict keyed by enum members
TABLES = [t for t in vars(convert).values() if isinstance(t, dict) and t and all(isinstance(k, Enum) for k in t)]
PROTO_ENUMS = sorted(pb.DESCRIPTOR.enum_types_by_name)


def _table_of(enum_name: str) -> dict:
    """member → proto number (the record kinds' table maps to a `KindWire`, its number first)."""
    [table] = [t for t in TABLES if type(next(iter(t))).__name__ == enum_name]  # one table per enum
    return {member: getattr(to, "number", to) for member, to in table.items()}


def test_every_proto_enum_has_a_table_and_every_table_a_proto_enum() -> None:
    assert sorted(type(next(iter(t))).__name__ for t in TABLES) == PROTO_ENUMS


@pytest.mark.parametrize("proto_name", PROTO_ENUMS, ids=PROTO_ENUMS)
def test_enum_tables_are_complete_and_match_by_name(proto_name: str) -> None:
    table = _table_of(proto_name)
    enum = type(next(iter(table)))
    proto_enum = pb.DESCRIPTOR.enum_types_by_name[proto_name]
    assert set(table) == set(enum)
    assert sorted(table.values()) == sorted(v.number for v in proto_enum.values if v.number != 0)
    prefix = proto_enum.values[0].name.removesuffix("UNSPECIFIED")
    for member, number in table.items():
        assert proto_enum.values_by_number[number].name == prefix + member.name


def test_record_kind_table_carries_every_value_field_of_the_proto() -> None:
    oneof = {f.name for f in pb.Record.DESCRIPTOR.oneofs_by_name["value"].fields}
    assert {wire.value.field for wire in convert.RECORD_KIND.values() if wire.value is not None} == oneof


def test_label_numbers_follow_the_model_output_order() -> None:
    assert [convert.LABEL[label] for label in Label] == [1, 2, 3, 4, 5]


def pb_record(kind: pb.RecordKind, slot: str = "s", **fields: object) -> pb.Record:
    """A Record message of user:a with text "t" (the other fields as given)."""
    return pb.Record(subject="user:a", kind=kind, slot=slot, text="t", **fields)


@pytest.mark.parametrize(
    ("msg", "field", "message"),
    [
        (pb_record(pb.RECORD_KIND_UNSPECIFIED), "record.kind", "RECORD_KIND_UNSPECIFIED"),
        (
            pb_record(
                pb.RECORD_KIND_TIMEZONE, "timezone", half_life_days=1, timezone=pb.Timezone(timezone="Mars/Olympus")
            ),
            "record.timezone.timezone",
            "unknown IANA timezone",
        ),
        (
            pb_record(
                pb.RECORD_KIND_EDGE,
                half_life_days=1,
                edge=pb.Edge(source="user:a", type=pb.EDGE_TYPE_UNSPECIFIED, target="person:b"),
            ),
            "record.edge.type",
            "EDGE_TYPE_UNSPECIFIED",
        ),
        (pb_record(pb.RECORD_KIND_TEXT, "text", half_life_days=0), "record.half_life_days", "greater than 0"),
        (
            pb_record(pb.RECORD_KIND_EDGE, half_life_days=1, timezone=pb.Timezone(timezone="UTC")),
            "record",
            "kind edge must not carry timezone",
        ),
        (pb_record(pb.RECORD_KIND_ENUM, half_life_days=1), "record", "kind enum needs enum"),
    ],
    ids=["kind-unset", "bad-zone", "edge-type-unset", "half-life-zero", "value-of-another-kind", "value-missing"],
)
def test_bad_messages_raise_input_error_naming_the_field(msg: pb.Record, field: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        convert.record_from_proto(msg)
    assert info.value.field == field
    assert message in info.value.message


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("USD", "string_value"),
        (50000.0, "number_value"),
        (True, "bool_value"),
        (False, "bool_value"),
        (0, "number_value"),
    ],
    ids=["str", "float", "true", "false", "int"],
)
def test_attribute_values(value: object, kind: str) -> None:
    msg = convert.attribute_to_proto(value)  # type: ignore[arg-type]
    assert msg.WhichOneof("kind") == kind
    back = convert.attribute_from_proto(msg)
    assert back == value and type(back) is (float if kind == "number_value" else type(value))


def test_null_attribute_is_refused() -> None:
    from google.protobuf import struct_pb2

    with pytest.raises(InputError, match="got null_value"):
        convert.attribute_from_proto(struct_pb2.Value(null_value=struct_pb2.NULL_VALUE), "edge.attributes.x")
