"""The queue: admission, the pairs waiting, and the windows the worker takes from its head.

One `PairQueue` holds every admitted pair until the worker takes it; it is used only from the
event loop, so two operations do the job of text-embeddings-inference's queue task and its two
commands: `append` (a request's encoded pairs join the tail) and `take_window` (whole requests
from the head, within the lookahead's tokens). Admission (`check`) counts the pairs admitted and
not yet run or dropped (`admitted`), which is the queue depth the metrics see. "Pairs" are the
items of the batcher's job kind (`jobs.py`): the texts of the Embed batcher; messages name them
by the kind's `unit`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from writegate.classifier.batcher.policy import QueuePolicy
from writegate.errors import BatcherClosed, BatcherError, DeadlineExceeded, QueueFull


class BatchObserver(Protocol):
    """Receives the batcher's measurements (see `writegate.server.metrics`)."""

    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None: ...

    def queue_depth(self, pairs: int) -> None: ...


class NoObserver:
    """A `BatchObserver` that drops every measurement."""

    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None:
        pass

    def queue_depth(self, pairs: int) -> None:
        pass


@dataclass(frozen=True)
class BatchRun:
    """One batch that carried pairs of a timed request (`Timeline.batches`)."""

    start_ns: int
    """`time.time_ns()` when the batch went to its run thread."""
    end_ns: int
    """`time.time_ns()` when its predictions (or its failure) came back."""
    pairs: int
    """The request's pairs in it."""
    batch_pairs: int
    """All the pairs in it, other requests' included."""


@dataclass
class Timeline:
    """One request's way through the batcher, filled in by `submit(..., timeline=...)`."""

    pairs_ahead: int | None = None
    """Pairs admitted before this request (the queue it joined)."""
    queued_ns: int | None = None
    """`time.time_ns()` once its pairs were encoded and joined the queue (None: they never did)."""
    batches: list[BatchRun] = field(default_factory=list)
    """The batches that ran its pairs, in the order they ended."""


@dataclass(eq=False)
class Request:
    """One `submit`'s pairs: they run together or not at all."""

    deadline: float | None
    items: list[Item] = field(default_factory=list)
    started: bool = False  # some pair of it is (or was) on the model
    timeline: Timeline | None = None


@dataclass(eq=False)
class Item:
    """One waiting pair (an item of the job kind): row `row` of its request's encoded items."""

    encoded: Any
    row: int
    future: asyncio.Future[Any]
    request: Request
    arrived: float
    n_tokens: int
    counted: bool = True  # counts in the queue depth: admitted, not yet run or dropped

    @property
    def deadline(self) -> float | None:
        return self.request.deadline


class PairQueue:
    """The admitted pairs: those waiting (`pending`) and those the worker took and has not resolved (`taken`).

    Args:
        policy: the queue policy (the lookahead's tokens, when a batch's worth is waiting).
        observer: told the queue depth whenever it changes.
        unit: what one item is called in messages (the job kind's `unit`; plural: + s).
    """

    def __init__(self, policy: QueuePolicy, observer: BatchObserver, unit: str = "pair") -> None:
        self.policy = policy
        self.observer = observer
        self.unit = unit
        self.pending: deque[Item] = deque()
        self.pending_tokens = 0
        self.admitted = 0
        """Pairs admitted and not yet run or dropped."""
        self.taken: set[Item] = set()
        self.closed: str | None = None
        """Once `shed()` ran: why every new request is refused."""
        self.wake = asyncio.Event()
        self.full = asyncio.Event()

    # -- admission -----------------------------------------------------------------------------
    def check(self, n: int, deadline: float | None, *, bound: int, pairs_per_s: float | None, now: float) -> None:
        """Raise unless the queue can take `n` more pairs now (see `Batcher.check_admission`)."""
        if self.closed is not None:
            raise BatcherClosed(self.closed)
        if n and self.admitted and self.admitted + n > bound:  # alone, a request always fits
            raise QueueFull(f"the queue holds {self.admitted} {self.unit}s; {n} more would exceed its limit of {bound}")
        if not n or deadline is None or not pairs_per_s:
            return
        # only the queue ahead counts here: the request's own batch is checked when it is formed
        wait = self.admitted / pairs_per_s
        remaining = deadline - now
        if wait > remaining:
            raise DeadlineExceeded(
                f"the deadline (in {max(0.0, remaining) * 1000:.0f} ms) is sooner than the ~{wait * 1000:.0f} ms "
                f"that the {self.admitted} queued {self.unit}s ahead of these {n} need"
            )

    def admit(self, n: int) -> None:
        """Count `n` pairs that are being encoded (negative: they never joined the queue)."""
        self.admitted += n
        self.observer.queue_depth(self.admitted)

    def append(self, request: Request) -> None:
        """The request's pairs (already counted by `admit`) join the tail; the worker wakes."""
        self.pending.extend(request.items)
        self.pending_tokens += sum(it.n_tokens for it in request.items)
        self.wake.set()
        if self.pending_tokens >= self.policy.max_batch_tokens:
            self.full.set()

    # -- the worker's side ---------------------------------------------------------------------
    async def wait(self, timeout: float | None) -> bool:
        """Wait to be woken (a request joined, a batch ended); False when `timeout` s passed first."""
        self.wake.clear()
        if timeout is None:
            await self.wake.wait()
            return True
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def wait_for_company(self, now: float) -> None:
        """Up to `max_wait_ms` after the head pair arrived, until a batch's worth of tokens waits."""
        if self.policy.max_wait_s <= 0 or self.pending_tokens >= self.policy.max_batch_tokens:
            return
        remaining = self.pending[0].arrived + self.policy.max_wait_s - now
        if remaining <= 0:
            return
        self.full.clear()
        try:
            await asyncio.wait_for(self.full.wait(), remaining)
        except TimeoutError:
            pass

    def take_window(self, now: float, max_pairs: int | None = None) -> list[Item]:
        """Whole requests from the head, within the lookahead's tokens and `max_pairs` (the first
        request always whole); cancelled and expired ones are dropped on the way. They count as taken."""
        window: list[Item] = []
        tokens = 0
        last: Request | None = None
        while self.pending:
            item = self.pending[0]
            if item.request is not last and window:  # a new request: does it still fit?
                if tokens + item.n_tokens > self.policy.lookahead_tokens or (
                    max_pairs is not None and len(window) >= max_pairs
                ):
                    break
            last = item.request
            self.pending.popleft()
            self.pending_tokens -= item.n_tokens
            if self.drop_if_dead(item, now):
                continue
            window.append(item)
            tokens += item.n_tokens
        self.taken.update(window)
        return window

    def drop_if_dead(self, item: Item, now: float) -> bool:
        """Drop a cancelled, failed or expired item (its request whole when expired); True if dropped."""
        if not item.future.done() and item.deadline is not None and now >= item.deadline:
            self.fail_request(item.request, DeadlineExceeded(f"the deadline passed before the {self.unit} ran"))
        if item.future.done():
            self.uncount([item])
            return True
        return False

    def fail_request(self, request: Request, exc: BatcherError) -> None:
        """Fail every pair of `request` that has no answer yet with `exc`: the request is dropped whole."""
        for it in request.items:
            if not it.future.done():
                it.future.set_exception(exc)
        self.uncount(request.items)
        self.taken.difference_update(request.items)

    def uncount(self, items: Iterable[Item]) -> None:
        """The items stop counting in the queue depth (run, dropped or failed); idempotent."""
        n = 0
        for it in items:
            if it.counted:
                it.counted = False
                n += 1
        if n:
            self.admitted -= n
            self.observer.queue_depth(self.admitted)

    # -- the end -------------------------------------------------------------------------------
    def shed(self, message: str) -> int:
        """Refuse every new request with `BatcherClosed(message)`, and fail with it every request none of
        whose pairs has reached the model. Returns the requests failed."""
        self.closed = message
        waiting = {it.request for it in (*self.pending, *self.taken) if not it.request.started}
        failed = 0
        for request in waiting:
            if any(not it.future.done() for it in request.items):
                failed += 1
            self.fail_request(request, BatcherClosed(message))
        return failed

    def drain(self) -> list[Item]:
        """Empty the queue: every item waiting or taken (the batcher is closing)."""
        waiting, self.taken = [*self.taken, *self.pending], set()
        self.pending.clear()
        self.pending_tokens = 0
        return waiting

    @staticmethod
    def fail_all(items: Sequence[Item], exc: BatcherError) -> None:
        """Fail each of `items` that has no answer yet with `exc`."""
        for item in items:
            if not item.future.done():
                item.future.set_exception(exc)
