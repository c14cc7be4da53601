"""The record schema validates its own constraints."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args

import pytest
from pydantic import ValidationError

from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.schema import (
    Edge,
    EdgeType,
    EdgeValue,
    EnumAttribute,
    EnumValue,
    Memory,
    ProvenanceKind,
    Record,
    RecordKind,
    RecordValue,
    TextValue,
    TimeWindow,
    Timezone,
    TimezoneValue,
)

T0 = datetime(2026, 3, 2, 10, tzinfo=UTC)


def _record(**kw):
    base = dict(
        subject="user:alice",
        kind=RecordKind.TIMEZONE,
        slot="timezone",
        timezone=Timezone(timezone="UTC"),
        observed_at=T0,
        half_life_days=180,
        confidence=0.9,
        text="on UTC",
    )
    base.update(kw)
    return Record(**base)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: TimeWindow(cron="0 9 * *", duration_minutes=60), "exactly 5 fields"),
        (lambda: TimeWindow(cron="0 25 * * *", duration_minutes=60), "does not parse"),
        (lambda: TimeWindow(cron="0 9 * * *", duration_minutes=0), "greater than or equal to 1"),
        (lambda: TimeWindow(cron="0 9 * * *", duration_minutes=10081), "less than or equal to 10080"),
        (lambda: TimeWindow(cron="0 9 * * *", duration_minutes=60, timezone="Mars/Olympus"), "unknown IANA timezone"),
        (lambda: Timezone(timezone="EST5"), "unknown IANA timezone"),
        (lambda: EnumValue(attribute=EnumAttribute.CHANNEL, value="pigeon"), "channel must be one of"),
        (lambda: EnumValue(attribute=EnumAttribute.LANGUAGE, value="spanish"), "ISO 639-1"),
        (lambda: Edge(source="Alice", type=EdgeType.REPORTS_TO, target="person:bob"), "String should match pattern"),
        (
            lambda: Edge(
                source="user:alice", type=EdgeType.APPROVES, target="budget:general", attributes={"currency": "dollars"}
            ),
            "ISO 4217",
        ),
        (
            lambda: Edge(
                source="user:alice", type=EdgeType.APPROVES, target="budget:general", attributes={"max_amount": -5}
            ),
            "non-negative",
        ),
        (lambda: _record(kind=RecordKind.EDGE, timezone=None), "needs edge"),
        (lambda: _record(kind=RecordKind.TEXT), "must not carry timezone"),
        (lambda: _record(kind="place"), "does not match any of the expected tags"),
        (lambda: _record(value=TextValue()), "kind"),  # the JSON form or `value`, not both
        (lambda: _record(confidence=1.5), "less than or equal to 1"),
        (lambda: _record(half_life_days=0), "greater than 0"),
        (lambda: Memory(text="   ", observed_at=T0), "empty or whitespace"),
        (lambda: Memory(text="a\x00b", observed_at=T0), "control characters"),
        (lambda: Memory(text="x" * 16385, observed_at=T0), "at most 16384"),
    ],
    ids=[
        "cron-4-fields",
        "cron-hour-25",
        "duration-0",
        "duration-over-week",
        "window-bad-zone",
        "bad-zone",
        "channel-closed-set",
        "language-not-code",
        "entity-id",
        "currency",
        "amount-negative",
        "kind-needs-value",
        "kind-extra-value",
        "kind-unknown",
        "kind-and-value",
        "confidence",
        "half-life",
        "memory-empty",
        "memory-control",
        "memory-too-long",
    ],
)
def test_invalid_values_are_rejected_with_a_message(build, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        build()


def test_valid_record_json_form_matches_design() -> None:
    rec = Record(
        subject="user:alice",
        kind=RecordKind.TIME_WINDOW,
        slot="schedule.meetings",
        time_window=TimeWindow(cron="0 9 * * 1-5", duration_minutes=60, timezone="America/New_York"),
        observed_at=T0,
        half_life_days=7,
        confidence=0.95,
        text="prefers meetings 9-10am on weekdays (EST)",
    )
    data = rec.to_json()
    assert data["time_window"] == {
        "cron": "0 9 * * 1-5",
        "duration_minutes": 60,
        "timezone": "America/New_York",
        "polarity": "prefer",
    }
    assert data["observed_at"] == "2026-03-02T10:00:00Z"
    assert "edge" not in data and data["provenance"] == {"kind": "stated"}
    assert Record.model_validate(data) == rec


def test_decayed_confidence_halves_each_half_life() -> None:
    rec = _record(confidence=0.8, half_life_days=10)
    assert rec.decayed_confidence(T0) == pytest.approx(0.8)
    assert rec.decayed_confidence(datetime(2026, 3, 12, 10, tzinfo=UTC)) == pytest.approx(0.4)
    assert rec.decayed_confidence(datetime(2026, 3, 22, 10, tzinfo=UTC)) == pytest.approx(0.2)


def test_naive_observed_at_is_utc() -> None:
    assert _record(observed_at=datetime(2026, 1, 1)).observed_at.tzinfo is UTC


def test_one_value_class_per_kind_each_with_its_half_lives() -> None:
    classes = get_args(get_args(RecordValue)[0])
    assert sorted(c.model_fields["kind"].default for c in classes) == sorted(RecordKind)
    assert set(DEFAULT_CONFIG.half_life_days) == set(RecordKind)  # a value's kind keys its half-lives


def test_the_json_form_carries_the_value_beside_the_other_fields() -> None:
    edge = Edge(source="user:alice", type=EdgeType.REPORTS_TO, target="person:bo")
    rec = _record(kind=RecordKind.EDGE, slot="edge.reports_to", timezone=None, edge=edge)
    assert rec.value == EdgeValue(edge=edge) and rec.kind is RecordKind.EDGE
    data = rec.to_json()
    assert list(data) == [
        "subject",
        "kind",
        "slot",
        "edge",
        "provenance",
        "observed_at",
        "half_life_days",
        "confidence",
        "text",
    ]
    assert data["kind"] == "edge" and data["edge"]["target"] == "person:bo"
    assert Record.model_validate(data) == rec
    assert Record.model_validate(rec.model_dump()) == rec
    assert list(_record(kind=RecordKind.TEXT, timezone=None).to_json())[:4] == ["subject", "kind", "slot", "provenance"]


def test_a_window_without_zone_keeps_its_null_timezone_last() -> None:
    rec = Record(
        subject="user:a",
        kind=RecordKind.TIME_WINDOW,
        slot="schedule.meetings",
        time_window=TimeWindow(cron="0 9 * * *", duration_minutes=60),
        observed_at=T0,
        half_life_days=7,
        confidence=0.9,
        text="9am",
    )
    assert list(rec.to_json()["time_window"].items()) == [
        ("cron", "0 9 * * *"),
        ("duration_minutes", 60),
        ("polarity", "prefer"),
        ("timezone", None),
    ]


@pytest.mark.parametrize(
    ("value", "provenance", "expected"),
    [
        (
            {"kind": "time_window", "time_window": {"cron": "0 9 * * 1-5", "duration_minutes": 60, "timezone": "UTC"}},
            ProvenanceKind.STATED,
            "prefer: At 09:00, Monday through Friday, for 60 minutes, UTC",
        ),
        (
            {"kind": "time_window", "time_window": {"cron": "0 22 * * *", "duration_minutes": 30, "polarity": "avoid"}},
            ProvenanceKind.STATED,
            "avoid: At 22:00, for 30 minutes, timezone unknown",
        ),
        (
            {"kind": "timezone", "timezone": {"timezone": "Europe/Oslo"}},
            ProvenanceKind.INFERRED,
            "timezone Europe/Oslo (inferred)",
        ),
        (
            {"kind": "enum", "enum": {"attribute": "channel", "value": "email"}},
            ProvenanceKind.STATED,
            "channel = email",
        ),
        (
            {
                "kind": "edge",
                "edge": {
                    "source": "user:a",
                    "type": "approves",
                    "target": "budget:general",
                    "attributes": {"max_amount": 500, "currency": "USD"},
                },
            },
            ProvenanceKind.STATED,
            "user:a --approves--> budget:general (currency=USD, max_amount=500)",
        ),
        ({"kind": "text"}, ProvenanceKind.STATED, "free text (no schema matched)"),
    ],
    ids=["window", "window-no-zone", "timezone", "enum", "edge", "text"],
)
def test_each_value_explains_itself(value: dict, provenance: ProvenanceKind, expected: str) -> None:
    rec = Record.model_validate(
        {
            **value,
            "subject": "user:a",
            "slot": "s",
            "provenance": {"kind": provenance},
            "observed_at": T0,
            "half_life_days": 1,
            "confidence": 0.5,
            "text": "t",
        }
    )
    assert rec.explain() == expected


def test_values_of_different_kinds_never_compare() -> None:
    utc = TimezoneValue(timezone=Timezone(timezone="UTC"))
    assert utc.compare(TextValue()) is None and TextValue().compare(TextValue()) is None
    assert utc.compare(utc) is not None
