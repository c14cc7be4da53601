"""Batch forming, pure: a window's pairs cut into token-budgeted batches, spread over idle run
slots, and laid out on the slots at the measured speed to see when each batch would end."""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

MIN_SPLIT_PAIRS = 4
"""A batch is only split for an idle run slot if both halves get at least this many pairs."""


def cut_batches(lengths: Sequence[int], max_batch_tokens: int, max_pairs: int | None = None) -> list[list[int]]:
    """Sort indices by length and cut them into batches with n × max(L) ≤ max_batch_tokens.

    A single item longer than the budget gets a batch of its own. With `max_pairs`, a batch of more
    pairs is cut into near-equal parts of at most that many (in length order). Returns indices.
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = lengths[i]  # ascending: the newcomer is the longest
        if current and (len(current) + 1) * longest > max_batch_tokens:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    if max_pairs is None:
        return batches
    out: list[list[int]] = []
    for batch in batches:
        parts = math.ceil(len(batch) / max(1, max_pairs))
        size, extra = divmod(len(batch), parts)
        start = 0
        for part in range(parts):
            end = start + size + (1 if part < extra else 0)
            out.append(batch[start:end])
            start = end
    return out


def split_for_idle(batches: list[list[int]], slots: int) -> list[list[int]]:
    """Halve the largest batches until there are `slots` batches (or none can be halved).

    A window that would leave run slots idle (one request's 16 pairs, two workers) is spread over
    them instead: its latency is that of the halves. Order within a batch is kept.
    """
    out = [list(b) for b in batches]
    while 0 < len(out) < slots:
        big = max(range(len(out)), key=lambda i: len(out[i]))
        if len(out[big]) < 2 * MIN_SPLIT_PAIRS:
            break
        half = len(out[big]) // 2
        out[big : big + 1] = [out[big][:half], out[big][half:]]
    return out


def plan_finish(sizes: Sequence[int], slot_free_at: Sequence[float], pairs_per_s_per_slot: float) -> list[float]:
    """When each batch (of `sizes` pairs, run in this order) would end.

    Each batch takes the slot that frees first (`slot_free_at`: when each run slot is free, now for
    an idle one) and runs at `pairs_per_s_per_slot`.
    """
    if not slot_free_at:
        raise ValueError("plan_finish needs at least one slot")
    slots = list(slot_free_at)
    heapq.heapify(slots)
    out = []
    for n in sizes:
        end = heapq.heappop(slots) + n / pairs_per_s_per_slot
        out.append(end)
        heapq.heappush(slots, end)
    return out


def finish_times(owners: Sequence[Sequence[K]], ends: Sequence[float]) -> dict[K, float]:
    """When the last batch holding each owner (a request) ends: batch i holds `owners[i]` and ends at `ends[i]`."""
    finish: dict[K, float] = {}
    for batch, end in zip(owners, ends, strict=True):
        for owner in batch:
            finish[owner] = max(finish.get(owner, 0.0), end)
    return finish
