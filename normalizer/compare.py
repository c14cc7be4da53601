"""`compare`: the structured comparison of two records of the same subject.

The classifier uses it as evidence: compatible values cannot be supersedes/contradicts, and so on.
Direction: `a` is the EXISTING record, `b` the NEW one.

Two records share a slot iff they have the same subject, the same slot and the same kind; `text`
records never share one. How two values of one kind relate is that value class's `compare`
(`schema.TimeWindowValue`, `TimezoneValue`, `EnumPreferenceValue`, `EdgeValue`); this module holds
what they share: the relations, the result types, and the minute-of-week arithmetic of windows and
zones. It imports the schema only for annotations (the value classes import it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from zoneinfo import ZoneInfo

from croniter import croniter
from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from writegate.normalizer.schema import Record, TimeWindow


class ValueRelation(str, Enum):
    """How b's value relates to a's, when both are about the same slot."""

    EQUAL = "equal"  # same value
    NARROWER = "narrower"  # b lies inside a (b more specific): e.g. 9-10am inside mornings
    BROADER = "broader"  # a lies inside b (b less specific)
    COMPATIBLE = "compatible"  # both can hold at once (overlapping windows, multi-valued edges)
    INCOMPATIBLE = "incompatible"  # both cannot hold at once


class ValueComparison(NamedTuple):
    """How two values of one kind relate: what a value class's `compare` returns."""

    relation: ValueRelation
    overlap: float | None = None
    """Time windows: |a∩b| / |a∪b| of their minute-of-week sets."""
    single_valued: bool | None = None
    """Edges: whether a's type is single-valued."""


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
OFFSET_DATES = (datetime(2026, 1, 15, 12, tzinfo=UTC), datetime(2026, 7, 15, 12, tzinfo=UTC))
"""Two zones keep the same clock when their UTC offsets agree on both dates (winter and summer)."""
_WEEK_MASK = (1 << WEEK_MINUTES) - 1


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


def utc_offset_minutes(zone: str, at: datetime) -> int:
    """`zone`'s UTC offset at `at`, in minutes."""
    offset = at.astimezone(ZoneInfo(zone)).utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def _rotate(mask: int, shift: int) -> int:
    shift %= WEEK_MINUTES
    return ((mask << shift) | (mask >> (WEEK_MINUTES - shift))) & _WEEK_MASK if shift else mask


def window_masks(a: TimeWindow, b: TimeWindow) -> tuple[int, int]:
    """Minute-of-week masks of `a` and of `b` shifted into a's zone.

    When both windows name different zones, b is shifted by the difference of their UTC offsets on
    a fixed reference date (2026-01-15); a window without a zone is taken to be in the other's zone.
    """
    mask_a = minute_mask(a.cron, a.duration_minutes)
    mask_b = minute_mask(b.cron, b.duration_minutes)
    if a.timezone and b.timezone and a.timezone != b.timezone:
        shift = utc_offset_minutes(a.timezone, _REFERENCE_DATE) - utc_offset_minutes(b.timezone, _REFERENCE_DATE)
        mask_b = _rotate(mask_b, shift)
    return mask_a, mask_b


def compare(a: Record, b: Record) -> SlotComparison:
    """Compare the EXISTING record `a` with the NEW record `b`.

    Args:
        a: the stored record.
        b: the new record.

    Returns:
        `same_slot=False` when they cannot conflict; else the relation of b's value to a's, with
        `overlap` for time windows and `single_valued` for edges.
    """
    if a.subject != b.subject or a.slot != b.slot:
        return SlotComparison(same_slot=False)
    found = a.value.compare(b.value)  # None: another kind, or text
    if found is None:
        return SlotComparison(same_slot=False)
    relation, overlap, single_valued = found
    return SlotComparison(same_slot=True, slot=a.slot, relation=relation, overlap=overlap, single_valued=single_valued)


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
