"""Golden cases for `compare`, `compare_all` and `SlotComparison.as_text`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from writegate.normalizer.compare import SlotComparison, ValueRelation, compare, compare_all, minute_mask
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import Edge, EnumValue, ProvenanceKind, Record, RecordKind, TimeWindow, Timezone

CTX = Context("user:sam", datetime(2026, 3, 2, 10, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)
OTHER = Context("user:lee", datetime(2026, 3, 2, 10, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)


def enum(attribute: str, value: str, ctx: Context = CTX) -> Record:
    return ctx.record(RecordKind.ENUM, f"preference.{attribute}", "t", enum=EnumValue(attribute=attribute, value=value))


def zone(name: str) -> Record:
    return CTX.record(RecordKind.TIMEZONE, "timezone", "t", timezone=Timezone(timezone=name))


def window(cron: str, minutes: int, tz: str | None = None, polarity: str = "prefer") -> Record:
    tw = TimeWindow(cron=cron, duration_minutes=minutes, timezone=tz, polarity=polarity)
    return CTX.record(RecordKind.TIME_WINDOW, "schedule.meetings", "t", time_window=tw)


def edge(etype: str, target: str, slot: str, source: str = "user:sam", **attrs: str | float | bool) -> Record:
    return CTX.record(RecordKind.EDGE, slot, "t", edge=Edge(source=source, type=etype, target=target, attributes=attrs))


def text() -> Record:
    return CTX.record(RecordKind.TEXT, "text", "Sam has a cat.")


MORNINGS = window("0 9 * * *", 180)
NINE_TEN = window("0 9 * * *", 60)
AFTERNOONS = window("0 12 * * *", 300)
ACME_M = edge("owned_by", "person:michelle", "edge.owned_by.account:acme", source="account:acme")
ACME_K = edge("owned_by", "person:marcus", "edge.owned_by.account:acme", source="account:acme")
TRAVEL_2500 = edge("approves", "budget:travel", "edge.approves.budget:travel", max_amount=2500, currency="USD")
TRAVEL_5000 = edge("approves", "budget:travel", "edge.approves.budget:travel", max_amount=5000, currency="USD")
TRAVEL = edge("approves", "budget:travel", "edge.approves.budget:travel")

# (id, existing, new, relation or None for different slots, as_text or None)
CASES: list[tuple[str, Record, Record, ValueRelation | None, str | None]] = [
    (
        "enum-equal",
        enum("channel", "email"),
        enum("channel", "email"),
        ValueRelation.EQUAL,
        "same slot preference.channel: equal",
    ),
    (
        "enum-incompatible",
        enum("channel", "email"),
        enum("channel", "slack"),
        ValueRelation.INCOMPATIBLE,
        "same slot preference.channel: incompatible",
    ),
    ("enum-other-attribute", enum("channel", "email"), enum("format", "bullets"), None, None),
    ("enum-other-subject", enum("channel", "email"), enum("channel", "slack", OTHER), None, None),
    ("text-never-same-slot", text(), text(), None, None),
    ("kind-differs", zone("UTC"), enum("language", "de"), None, None),
    ("tz-equal", zone("Europe/London"), zone("Europe/London"), ValueRelation.EQUAL, "same slot timezone: equal"),
    (
        "tz-incompatible",
        zone("America/New_York"),
        zone("Europe/London"),
        ValueRelation.INCOMPATIBLE,
        "same slot timezone: incompatible",
    ),
    (
        "tz-same-clock",
        zone("Europe/Paris"),
        zone("Europe/Berlin"),
        ValueRelation.COMPATIBLE,
        "same slot timezone: compatible",
    ),
    (
        "edge-single-equal",
        edge("reports_to", "person:lee", "edge.reports_to"),
        edge("reports_to", "person:lee", "edge.reports_to"),
        ValueRelation.EQUAL,
        "same slot edge.reports_to (single-valued): equal",
    ),
    (
        "edge-single-incompatible",
        ACME_M,
        ACME_K,
        ValueRelation.INCOMPATIBLE,
        "same slot edge.owned_by.account:acme (single-valued): incompatible",
    ),
    (
        "edge-multi-equal",
        edge("manages", "team:payments", "edge.manages.team:payments"),
        edge("manages", "team:payments", "edge.manages.team:payments"),
        ValueRelation.EQUAL,
        "same slot edge.manages.team:payments (multi-valued): equal",
    ),
    (
        "edge-multi-other-target",
        edge("manages", "team:payments", "edge.manages.team:payments"),
        edge("manages", "team:risk", "edge.manages.team:risk"),
        None,
        None,
    ),
    (
        "approves-amount-differs",
        TRAVEL_2500,
        TRAVEL_5000,
        ValueRelation.INCOMPATIBLE,
        "same slot edge.approves.budget:travel (multi-valued): incompatible",
    ),
    ("approves-adds-cap", TRAVEL, TRAVEL_2500, ValueRelation.NARROWER, None),
    ("approves-drops-cap", TRAVEL_2500, TRAVEL, ValueRelation.BROADER, None),
    (
        "approves-exclusive-flips",
        edge("approves", "budget:general", "edge.approves.budget:general", exclusive=True),
        edge("approves", "budget:general", "edge.approves.budget:general", exclusive=False),
        ValueRelation.INCOMPATIBLE,
        None,
    ),
    (
        "delegates-scope-accumulates",
        edge("delegates_to", "person:ana", "edge.delegates_to.person:ana", scope="travel"),
        edge("delegates_to", "person:ana", "edge.delegates_to.person:ana", scope="hiring"),
        ValueRelation.COMPATIBLE,
        None,
    ),
    (
        "located-city-in-country",
        edge("located_in", "place:india", "edge.located_in"),
        edge("located_in", "place:mumbai", "edge.located_in"),
        ValueRelation.NARROWER,
        "same slot edge.located_in (single-valued): narrower",
    ),
    (
        "located-country-of-city",
        edge("located_in", "place:amsterdam", "edge.located_in"),
        edge("located_in", "place:netherlands", "edge.located_in"),
        ValueRelation.BROADER,
        None,
    ),
    (
        "located-two-cities",
        edge("located_in", "place:berlin", "edge.located_in"),
        edge("located_in", "place:munich", "edge.located_in"),
        ValueRelation.INCOMPATIBLE,
        None,
    ),
    (
        "located-city-other-country",
        edge("located_in", "place:france", "edge.located_in"),
        edge("located_in", "place:berlin", "edge.located_in"),
        ValueRelation.INCOMPATIBLE,
        None,
    ),
    (
        "win-narrower",
        MORNINGS,
        NINE_TEN,
        ValueRelation.NARROWER,
        "same slot schedule.meetings: narrower (overlap 0.33)",
    ),
    ("win-broader", NINE_TEN, MORNINGS, ValueRelation.BROADER, "same slot schedule.meetings: broader (overlap 0.33)"),
    (
        "win-equal-other-spelling",
        window("0 9 * * 1-5", 60),
        window("0 9 * * MON-FRI", 60),
        ValueRelation.EQUAL,
        "same slot schedule.meetings: equal (overlap 1.00)",
    ),
    (
        "win-disjoint",
        MORNINGS,
        AFTERNOONS,
        ValueRelation.INCOMPATIBLE,
        "same slot schedule.meetings: incompatible (overlap 0.00)",
    ),
    (
        "win-two-points",
        window("0 16 * * 5", 60),
        window("15 16 * * 5", 60),
        ValueRelation.INCOMPATIBLE,
        "same slot schedule.meetings: incompatible (overlap 0.60)",
    ),
    (
        "win-two-points-avoid",
        window("0 16 * * 5", 60, polarity="avoid"),
        window("15 16 * * 5", 60, polarity="avoid"),
        ValueRelation.COMPATIBLE,
        None,
    ),
    (
        "win-partial",
        window("0 9 * * *", 120),
        window("0 10 * * *", 120),
        ValueRelation.COMPATIBLE,
        "same slot schedule.meetings: compatible (overlap 0.33)",
    ),
    (
        "win-avoid-overlaps-prefer",
        MORNINGS,
        window("0 0 * * *", 600, polarity="avoid"),
        ValueRelation.INCOMPATIBLE,
        None,
    ),
    (
        "win-avoid-disjoint-prefer",
        AFTERNOONS,
        window("0 0 * * *", 540, polarity="avoid"),
        ValueRelation.COMPATIBLE,
        None,
    ),
    (
        "win-two-avoids-disjoint",
        window("0 0 * * *", 540, polarity="avoid"),
        window("0 17 * * *", 420, polarity="avoid"),
        ValueRelation.COMPATIBLE,
        None,
    ),
    ("win-prefer-vs-require", NINE_TEN, window("0 9 * * *", 60, polarity="require"), ValueRelation.COMPATIBLE, None),
    (
        "win-zone-shift",
        window("0 9 * * 1-5", 60, "America/New_York"),
        window("0 14 * * 1-5", 60, "Europe/London"),
        ValueRelation.EQUAL,
        None,
    ),
    (
        "win-zone-shift-disjoint",
        window("0 9 * * 1-5", 60, "America/New_York"),
        window("0 9 * * 1-5", 60, "Europe/London"),
        ValueRelation.INCOMPATIBLE,
        None,
    ),
]


@pytest.mark.parametrize(("a", "b", "relation", "as_text"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compare_golden(a: Record, b: Record, relation: ValueRelation | None, as_text: str | None) -> None:
    result = compare(a, b)
    assert result.same_slot is (relation is not None)
    assert result.relation == relation
    if as_text is not None:
        assert result.as_text() == as_text
    if relation is None:
        assert result.as_text() == "different slots"
        assert compare_all([a], [b]) is None


@pytest.mark.parametrize(
    ("cron", "minutes", "count"),
    [("0 9 * * 1-5", 60, 300), ("0 23 * * 6", 120, 120), ("*/30 * * * *", 30, 10080), ("0 9 * * 0,7", 60, 60)],
    ids=["weekdays", "wraps-into-sunday", "whole-week", "sunday-twice"],
)
def test_minute_mask_size(cron: str, minutes: int, count: int) -> None:
    assert minute_mask(cron, minutes).bit_count() == count


def test_minute_mask_wraps_to_sunday_midnight() -> None:
    assert minute_mask("0 23 * * 6", 120) & 1  # Saturday 23:00 + 2h covers Sunday 00:00


def test_compare_all_prefers_incompatible() -> None:
    result = compare_all([enum("channel", "email"), ACME_M], [ACME_K, enum("channel", "email")])
    assert (
        result is not None
        and result.relation is ValueRelation.INCOMPATIBLE
        and result.slot == "edge.owned_by.account:acme"
    )


def test_compare_all_prefers_narrower_over_equal() -> None:
    result = compare_all([MORNINGS, enum("format", "prose")], [enum("format", "prose"), NINE_TEN])
    assert result is not None and result.relation is ValueRelation.NARROWER


@pytest.mark.parametrize(
    ("existing", "new"),
    [([], []), ([text()], [text()]), ([enum("channel", "email")], [zone("UTC")])],
    ids=["empty", "texts", "no-shared-slot"],
)
def test_compare_all_none(existing: list[Record], new: list[Record]) -> None:
    assert compare_all(existing, new) is None


def test_as_text_different_slots() -> None:
    assert SlotComparison(same_slot=False).as_text() == "different slots"
