"""The record schema validates its own constraints."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from writegate.normalizer.schema import (
    Edge,
    EdgeType,
    EnumAttribute,
    EnumValue,
    Memory,
    Record,
    RecordKind,
    TimeWindow,
    Timezone,
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


def test_null_timezone_is_kept_in_json() -> None:
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
    assert rec.to_json()["time_window"]["timezone"] is None


def test_decayed_confidence_halves_each_half_life() -> None:
    rec = _record(confidence=0.8, half_life_days=10)
    assert rec.decayed_confidence(T0) == pytest.approx(0.8)
    assert rec.decayed_confidence(datetime(2026, 3, 12, 10, tzinfo=UTC)) == pytest.approx(0.4)
    assert rec.decayed_confidence(datetime(2026, 3, 22, 10, tzinfo=UTC)) == pytest.approx(0.2)


def test_naive_observed_at_is_utc() -> None:
    assert _record(observed_at=datetime(2026, 1, 1)).observed_at.tzinfo is UTC
