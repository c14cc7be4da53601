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


def single(etype: str, target: str) -> Record:
    """An edge of a single-valued type: its slot is the type's."""
    return edge(etype, target, f"edge.{etype}")


def multi(etype: str, target: str, **attrs: str | float | bool) -> Record:
    """An edge of a multi-valued type: its slot is the type's and the target's."""
    return edge(etype, target, f"edge.{etype}.{target}", **attrs)


def lives_in(place: str) -> Record:
    return single("located_in", f"place:{place}")


def avoid(cron: str, minutes: int) -> Record:
    return window(cron, minutes, polarity="avoid")


def text() -> Record:
    return CTX.record(RecordKind.TEXT, "text", "Sam has a cat.")


R = ValueRelation
MORNINGS = window("0 9 * * *", 180)
NINE_TEN = window("0 9 * * *", 60)
AFTERNOONS = window("0 12 * * *", 300)
NEW_YORK_9AM = window("0 9 * * 1-5", 60, "America/New_York")
ACME_M = edge("owned_by", "person:michelle", "edge.owned_by.account:acme", source="account:acme")
ACME_K = edge("owned_by", "person:marcus", "edge.owned_by.account:acme", source="account:acme")
TRAVEL_2500 = multi("approves", "budget:travel", max_amount=2500, currency="USD")
TRAVEL_5000 = multi("approves", "budget:travel", max_amount=5000, currency="USD")
TRAVEL = multi("approves", "budget:travel")

# (id, existing, new, relation or None for different slots)
CASES: list[tuple[str, Record, Record, ValueRelation | None]] = [
    ("enum-equal", enum("channel", "email"), enum("channel", "email"), R.EQUAL),
    ("enum-incompatible", enum("channel", "email"), enum("channel", "slack"), R.INCOMPATIBLE),
    ("enum-other-attribute", enum("channel", "email"), enum("format", "bullets"), None),
    ("enum-other-subject", enum("channel", "email"), enum("channel", "slack", OTHER), None),
    ("text-never-same-slot", text(), text(), None),
    ("kind-differs", zone("UTC"), enum("language", "de"), None),
    ("tz-equal", zone("Europe/London"), zone("Europe/London"), R.EQUAL),
    ("tz-incompatible", zone("America/New_York"), zone("Europe/London"), R.INCOMPATIBLE),
    ("tz-same-clock", zone("Europe/Paris"), zone("Europe/Berlin"), R.COMPATIBLE),
    ("edge-single-equal", single("reports_to", "person:lee"), single("reports_to", "person:lee"), R.EQUAL),
    ("edge-single-incompatible", ACME_M, ACME_K, R.INCOMPATIBLE),
    ("edge-multi-equal", multi("manages", "team:payments"), multi("manages", "team:payments"), R.EQUAL),
    ("edge-multi-other-target", multi("manages", "team:payments"), multi("manages", "team:risk"), None),
    ("approves-amount-differs", TRAVEL_2500, TRAVEL_5000, R.INCOMPATIBLE),
    ("approves-adds-cap", TRAVEL, TRAVEL_2500, R.NARROWER),
    ("approves-drops-cap", TRAVEL_2500, TRAVEL, R.BROADER),
    (
        "approves-exclusive-flips",
        multi("approves", "budget:general", exclusive=True),
        multi("approves", "budget:general", exclusive=False),
        R.INCOMPATIBLE,
    ),
    (
        "delegates-scope-accumulates",
        multi("delegates_to", "person:ana", scope="travel"),
        multi("delegates_to", "person:ana", scope="hiring"),
        R.COMPATIBLE,
    ),
    ("located-city-in-country", lives_in("india"), lives_in("mumbai"), R.NARROWER),
    ("located-country-of-city", lives_in("amsterdam"), lives_in("netherlands"), R.BROADER),
    ("located-two-cities", lives_in("berlin"), lives_in("munich"), R.INCOMPATIBLE),
    ("located-city-other-country", lives_in("france"), lives_in("berlin"), R.INCOMPATIBLE),
    ("win-narrower", MORNINGS, NINE_TEN, R.NARROWER),
    ("win-broader", NINE_TEN, MORNINGS, R.BROADER),
    ("win-equal-other-spelling", window("0 9 * * 1-5", 60), window("0 9 * * MON-FRI", 60), R.EQUAL),
    ("win-disjoint", MORNINGS, AFTERNOONS, R.INCOMPATIBLE),
    ("win-two-points", window("0 16 * * 5", 60), window("15 16 * * 5", 60), R.INCOMPATIBLE),
    ("win-two-points-avoid", avoid("0 16 * * 5", 60), avoid("15 16 * * 5", 60), R.COMPATIBLE),
    ("win-partial", window("0 9 * * *", 120), window("0 10 * * *", 120), R.COMPATIBLE),
    ("win-avoid-overlaps-prefer", MORNINGS, avoid("0 0 * * *", 600), R.INCOMPATIBLE),
    ("win-avoid-disjoint-prefer", AFTERNOONS, avoid("0 0 * * *", 540), R.COMPATIBLE),
    ("win-two-avoids-disjoint", avoid("0 0 * * *", 540), avoid("0 17 * * *", 420), R.COMPATIBLE),
    ("win-prefer-vs-require", NINE_TEN, window("0 9 * * *", 60, polarity="require"), R.COMPATIBLE),
    ("win-zone-shift", NEW_YORK_9AM, window("0 14 * * 1-5", 60, "Europe/London"), R.EQUAL),
    ("win-zone-shift-disjoint", NEW_YORK_9AM, window("0 9 * * 1-5", 60, "Europe/London"), R.INCOMPATIBLE),
]

# what `as_text` says, for the cases that check it
AS_TEXT = {
    "enum-equal": "same slot preference.channel: equal",
    "enum-incompatible": "same slot preference.channel: incompatible",
    "tz-equal": "same slot timezone: equal",
    "tz-incompatible": "same slot timezone: incompatible",
    "tz-same-clock": "same slot timezone: compatible",
    "edge-single-equal": "same slot edge.reports_to (single-valued): equal",
    "edge-single-incompatible": "same slot edge.owned_by.account:acme (single-valued): incompatible",
    "edge-multi-equal": "same slot edge.manages.team:payments (multi-valued): equal",
    "approves-amount-differs": "same slot edge.approves.budget:travel (multi-valued): incompatible",
    "located-city-in-country": "same slot edge.located_in (single-valued): narrower",
    "win-narrower": "same slot schedule.meetings: narrower (overlap 0.33)",
    "win-broader": "same slot schedule.meetings: broader (overlap 0.33)",
    "win-equal-other-spelling": "same slot schedule.meetings: equal (overlap 1.00)",
    "win-disjoint": "same slot schedule.meetings: incompatible (overlap 0.00)",
    "win-two-points": "same slot schedule.meetings: incompatible (overlap 0.60)",
    "win-partial": "same slot schedule.meetings: compatible (overlap 0.33)",
}


@pytest.mark.parametrize(
    ("a", "b", "relation", "as_text"), [(*c[1:], AS_TEXT.get(c[0])) for c in CASES], ids=[c[0] for c in CASES]
)
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
