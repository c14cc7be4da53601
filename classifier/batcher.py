"""The dynamic batcher: pairs from all concurrent requests share one bounded queue and one worker.

Flow of one request (`await batcher.submit(pairs, deadline=...)`):

1. admission (`check_admission`): if the queue cannot take all its pairs, `QueueFull` at once
   (RESOURCE_EXHAUSTED); if its deadline is sooner than the pairs queued ahead of it can be run,
   `DeadlineExceeded` at once; once `shed()` ran, `BatcherClosed`;
2. pre: `model.encode(pairs)` (compare the pairs' records + tokenize; the pairs carry their
   normalized records, see `classifier/features.py`) in the encode thread, off the loop;
3. the encoded pairs join the queue together (a request's pairs run together or not at all),
   each with its own future.

The worker (one asyncio task) waits for a free run slot, then for the first pair, then up to
`max_wait_ms` after that pair arrived for more (or until a batch's worth of tokens is waiting),
and takes a window of whole requests from the head of the queue: at most `lookahead_batches`
batches' worth of tokens and, once the speed is known and `batch_ms` is set, at most what the free
slots run in `batch_ms`. It drops cancelled and expired requests, sorts the window's pairs by
length and cuts them into batches whose padded size n × L stays within `max_batch_tokens`
(text-embeddings-inference's budget) and, with `batch_ms`, whose pairs one worker runs in about
`batch_ms` (a batch is short next to the time a call may wait). **When the window is formed**, the
batches are laid out on the run slots at the measured speed (`plan_finish`): a request whose last
pair would end after its deadline is dropped whole (`DeadlineExceeded`) and never reaches the model;
each batch is checked again when it gets its slot. Each batch runs `collate → run → decode` in a
run thread, off the event loop; its futures get their predictions. Up to `workers` batches run at
once (one run thread each): the worker waits for a free run slot *before* it forms the next window,
so the queue fills while every slot is busy, and a window that makes fewer batches than there are
idle slots is split so that no slot idles (a lone request's pairs run on every slot). On the CPU,
`workers` = cores with one intra-op thread each matches one batch on all cores under load and cuts
a lone request's latency: a parallel op waits for its slowest thread, and on a machine shared with
the gRPC and Python work some thread is always preempted (`bench/serve.py --batch-workers N
--threads T` compares them; results: training/EXPERIMENTS.md, "Serving speed"). An exception in a
batch fails only that batch's pairs (`BatchFailed`); the worker carries on.

Speed, the queue bound and memory: `measure()` times a load of pairs through the whole pipeline
(pairs/s; the server runs it as its warm-up); under load, every stretch of at least
`SPEED_WINDOW_S` during which pairs kept waiting measures the speed again (pairs done / seconds:
what the machine gives now, with the gRPC and Python work beside it). With `queue_wait_ms` set,
the queue bound is computed from that speed in one place (`max_queue_pairs`): the pairs it runs in
`queue_wait_ms` less one batch (`batch_ms`), so that a request admitted to a full queue finishes
about `queue_wait_ms` later. `shed()` (the server's SIGTERM) refuses new requests and fails every
request none of whose pairs has started with `BatcherClosed`, at once; batches already running
finish. Once nothing has been queued or running for `idle_release_s`, the model's free working
memory is handed back to the OS (`model.release_memory()` when it has one — onnxruntime's arena —
then glibc's `malloc_trim`): the peak of a load does not stay resident after it.

`submit(..., timeline=Timeline())` also records when the request's pairs joined the queue and when
each of its batches ran (wall clock, for the server's trace spans); without a timeline nothing is
recorded.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import heapq
import logging
import math
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from writegate.classifier.backends.base import Batch
from writegate.classifier.types import Pair, Prediction

log = logging.getLogger(__name__)


class BatcherError(Exception):
    """Base of the batcher's errors (each maps to one gRPC status in the service)."""


class QueueFull(BatcherError):
    """The queue cannot take the request's pairs now (RESOURCE_EXHAUSTED)."""


class DeadlineExceeded(BatcherError):
    """The request's deadline passed before its pairs ran (DEADLINE_EXCEEDED)."""


class BatchFailed(BatcherError):
    """The batch holding the request's pairs raised (INTERNAL)."""


class BatcherClosed(BatcherError):
    """The batcher is not running (UNAVAILABLE)."""


class EncodedLike(Protocol):
    """What the batcher needs of an encoded pair."""

    @property
    def n_tokens(self) -> int: ...


class BatchModel(Protocol):
    """The classifier's pre / core / post steps (`writegate.classifier.model.Classifier`)."""

    def encode(self, pairs: Sequence[Pair]) -> Sequence[Any]: ...

    def collate(self, items: Sequence[Any]) -> Batch: ...

    def run(self, batch: Batch) -> np.ndarray: ...

    def decode(self, items: Sequence[Any], logits: np.ndarray) -> list[Prediction]: ...


class BatchObserver(Protocol):
    """Receives the batcher's measurements (see `writegate.server.metrics`)."""

    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None: ...

    def queue_depth(self, pairs: int) -> None: ...


class _NoObserver:
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
class _Request:
    """One `submit`'s pairs: they run together or not at all."""

    deadline: float | None
    items: list[_Item] = field(default_factory=list)
    started: bool = False  # some pair of it is (or was) on the model
    timeline: Timeline | None = None


@dataclass(eq=False)
class _Item:
    encoded: Any
    future: asyncio.Future[Prediction]
    request: _Request
    arrived: float
    n_tokens: int = field(init=False)
    counted: bool = True  # counts in the queue depth: admitted, not yet run or dropped

    def __post_init__(self) -> None:
        self.n_tokens = int(self.encoded.n_tokens)

    @property
    def deadline(self) -> float | None:
        return self.request.deadline


def cut_batches(lengths: Sequence[int], max_batch_tokens: int, max_pairs: int | None = None) -> list[list[int]]:
    """Sort indices by length and cut them into batches with n × max(L) ≤ max_batch_tokens.

    A single item longer than the budget gets a batch of its own. With `max_pairs`, a batch of more
    pairs is cut into near-equal parts of at most that many (in length order). Pure; returns indices.
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


def plan_finish(sizes: Sequence[int], slot_free_at: Sequence[float], pairs_per_s_per_slot: float) -> list[float]:
    """When each batch (of `sizes` pairs, run in this order) would end. Pure.

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


SPEED_WINDOW_S = 1.0
"""A saturated stretch (pairs waiting at every batch's end) this long gives a new speed sample."""

MIN_SPLIT_PAIRS = 4
"""A batch is only split for an idle run slot if both halves get at least this many pairs."""

MIN_BATCH_PAIRS = 4
"""`batch_ms` never cuts batches smaller than this."""


def queue_pairs_for(pairs_per_s: float, max_wait_ms: float, *, floor: int = 1, ceiling: int = 65_536) -> int:
    """The queue bound that `pairs_per_s` drains in about `max_wait_ms`, within [floor, ceiling]. Pure.

    Beyond it a request would wait longer than that before its batch even starts, so it is
    better refused at once (RESOURCE_EXHAUSTED) than answered late (DEADLINE_EXCEEDED).
    """
    if floor > ceiling:
        raise ValueError(f"floor {floor} > ceiling {ceiling}")
    if not math.isfinite(pairs_per_s) or pairs_per_s <= 0:
        return floor
    return max(floor, min(ceiling, math.ceil(pairs_per_s * max_wait_ms / 1000.0)))


def release_heap() -> bool:
    """Hand the C heap's free pages back to the OS (glibc `malloc_trim(0)`); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.malloc_trim(0))
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False


def split_for_idle(batches: list[list[int]], slots: int) -> list[list[int]]:
    """Halve the largest batches until there are `slots` batches (or none can be halved).

    A window that would leave run slots idle (one request's 16 pairs, two workers) is spread over
    them instead: its latency is that of the halves. Order within a batch is kept. Pure.
    """
    out = [list(b) for b in batches]
    while 0 < len(out) < slots:
        big = max(range(len(out)), key=lambda i: len(out[i]))
        if len(out[big]) < 2 * MIN_SPLIT_PAIRS:
            break
        half = len(out[big]) // 2
        out[big : big + 1] = [out[big][:half], out[big][half:]]
    return out


class Batcher:
    """Pools pairs from concurrent requests into token-budgeted batches.

    Args:
        model: the classifier (encode / collate / run / decode).
        max_batch_tokens: padded tokens (n × L) per batch.
        max_wait_ms: how long the first waiting pair may wait for company.
        max_queue_pairs: pairs admitted but not yet run; beyond it `submit` raises QueueFull (a
            request alone always fits). With `queue_wait_ms`, the bound until a speed is known.
        lookahead_batches: how many batches' worth of waiting pairs are sorted together.
        workers: batches that may run at once, each in its own run thread.
        observer: metrics sink.
        clock: monotonic seconds (tests may pass a fake).
        idle_release_s: after this long with nothing queued or running (and batches run since the
            last time), release the model's free memory; None = never.
        queue_wait_ms: when set, the queue bound follows the measured speed: the pairs it runs in
            this long less one `batch_ms`, within [`queue_floor`, `queue_ceiling`] (None: the bound
            is `max_queue_pairs`).
        queue_floor: the smallest sized bound.
        queue_ceiling: the largest sized bound.
        batch_ms: once the speed is known, a batch holds at most the pairs one worker runs in this
            long (at least `MIN_BATCH_PAIRS`), and a window at most that per free slot (None: only
            the token budgets cut).
    """

    def __init__(
        self,
        model: BatchModel,
        *,
        max_batch_tokens: int = 8192,
        max_wait_ms: float = 2.0,
        max_queue_pairs: int = 4096,
        lookahead_batches: int = 4,
        workers: int = 1,
        observer: BatchObserver | None = None,
        clock: Callable[[], float] = time.monotonic,
        idle_release_s: float | None = 1.0,
        queue_wait_ms: float | None = None,
        queue_floor: int = 1,
        queue_ceiling: int = 65_536,
        batch_ms: float | None = None,
    ) -> None:
        if max_batch_tokens < 1:
            raise ValueError(f"max_batch_tokens must be ≥ 1, got {max_batch_tokens}")
        if workers < 1:
            raise ValueError(f"workers must be ≥ 1, got {workers}")
        if batch_ms is not None and batch_ms <= 0:
            raise ValueError(f"batch_ms must be > 0, got {batch_ms}")
        self.model = model
        self.max_batch_tokens = max_batch_tokens
        self.max_wait = max(0.0, max_wait_ms) / 1000.0
        self.max_queue_pairs = max_queue_pairs
        self.lookahead_tokens = max_batch_tokens * max(1, lookahead_batches)
        self.workers = workers
        self.observer: BatchObserver = observer or _NoObserver()
        self.clock = clock
        self.idle_release_s = idle_release_s
        self.pairs_per_s: float | None = None
        """Measured speed (`measure()`, and under load); with it, deadlines that cannot be met are refused."""
        self.releases = 0  # idle memory releases done
        self.queue_wait_ms = queue_wait_ms
        self.queue_floor, self.queue_ceiling = queue_floor, max(queue_floor, queue_ceiling)
        self.batch_ms = batch_ms
        self._stretch: tuple[float, int] | None = None  # (start, pairs done) of the saturated stretch
        self._ran = False  # batches ran since the last release
        self._pending: deque[_Item] = deque()
        self._pending_tokens = 0
        self._admitted = 0  # pairs admitted and not yet run or dropped
        self._shed: str | None = None  # once shed(): why every new request is refused
        self._wake = asyncio.Event()
        self._full = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._taken: set[_Item] = set()  # taken from the queue by the worker, not yet resolved
        self._runs: dict[asyncio.Task[None], float] = {}  # run → when it should end (its start + expected time)
        self._slots = asyncio.Semaphore(workers)
        self._busy = 0  # run slots held
        self._timed = 0  # queued requests with a timeline: batches are timed only while there are some
        self._encode_pool: ThreadPoolExecutor | None = None
        self._run_pool: ThreadPoolExecutor | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True between `start()` and `close()`."""
        return self._worker is not None and not self._worker.done()

    @property
    def queue_depth(self) -> int:
        """Pairs admitted and not yet run."""
        return self._admitted

    @property
    def max_queue_pairs(self) -> int:
        """THE admission bound, in pairs (`check_admission`).

        With `queue_wait_ms` and a measured speed: what that speed runs in `queue_wait_ms` less one
        `batch_ms` (`queue_pairs_for`, within [`queue_floor`, `queue_ceiling`]) — a request admitted
        to a full queue waits about that long, then its own batch runs. Otherwise the number given.
        """
        if self.queue_wait_ms is None or not self.pairs_per_s:
            return self._max_queue_pairs
        wait_ms = max(1.0, self.queue_wait_ms - (self.batch_ms or 0.0))
        return queue_pairs_for(self.pairs_per_s, wait_ms, floor=self.queue_floor, ceiling=self.queue_ceiling)

    @max_queue_pairs.setter
    def max_queue_pairs(self, pairs: int) -> None:
        if pairs < 1:
            raise ValueError(f"max_queue_pairs must be ≥ 1, got {pairs}")
        self._max_queue_pairs = pairs

    @property
    def batch_pairs(self) -> int | None:
        """The most pairs one batch holds: what one worker runs in `batch_ms` at the measured speed
        (at least `MIN_BATCH_PAIRS`); None without `batch_ms` or a speed."""
        if self.batch_ms is None or not self.pairs_per_s:
            return None
        return max(MIN_BATCH_PAIRS, int(self.pairs_per_s / self.workers * self.batch_ms / 1000.0))

    async def start(self) -> None:
        """Start the worker on the running loop."""
        if self.running:
            return
        self._encode_pool = ThreadPoolExecutor(1, thread_name_prefix="writegate-encode")
        self._run_pool = ThreadPoolExecutor(self.workers, thread_name_prefix="writegate-run")
        self._slots, self._busy = asyncio.Semaphore(self.workers), 0
        self._shed = None
        self._worker = asyncio.get_running_loop().create_task(self._work(), name="writegate-batcher")

    def shed(self, message: str) -> int:
        """Refuse every new request (`BatcherClosed(message)`) and fail, at once and with that error,
        every request none of whose pairs has reached the model; requests already running finish.

        The server's SIGTERM: queued calls are answered UNAVAILABLE now (clients retry them
        elsewhere) instead of waiting for the model or their deadline. Returns the requests failed.
        """
        self._shed = message
        waiting = {it.request for it in (*self._pending, *self._taken) if not it.request.started}
        failed = 0
        for request in waiting:
            if any(not it.future.done() for it in request.items):
                failed += 1
            self._fail_request(request, BatcherClosed(message))
        return failed

    async def close(self) -> None:
        """Stop the worker; pairs still waiting fail with BatcherClosed."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            try:
                await worker
            except asyncio.CancelledError:
                pass
        waiting, self._taken = [*self._taken, *self._pending], set()
        self._pending.clear()
        runs, self._runs = list(self._runs), {}
        for run in runs:
            run.cancel()
        if runs:
            await asyncio.gather(*runs, return_exceptions=True)
        self._pending_tokens = 0
        closed = BatcherClosed("the batcher is shutting down")
        for item in waiting:
            if not item.future.done():
                item.future.set_exception(closed)
        self._uncount(waiting)
        for pool in (self._encode_pool, self._run_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._encode_pool = self._run_pool = None

    # -- requests ---------------------------------------------------------------------------------
    def check_admission(self, n: int, deadline: float | None = None) -> None:
        """Admission, as `submit` does it: raise unless the queue can take `n` more pairs now.

        A request fits when the pairs queued and its own stay within `max_queue_pairs`, or when
        nothing is queued: alone, a request larger than the bound is taken (the bound follows the
        speed and may be smaller than the largest valid request).

        Raises:
            BatcherClosed: `shed()` ran (the server is shutting down).
            QueueFull: the queue bound (`max_queue_pairs`) cannot take them.
            DeadlineExceeded: `deadline` is sooner than the pairs queued ahead can be run.
        """
        if self._shed is not None:
            raise BatcherClosed(self._shed)
        if n and self._admitted and self._admitted + n > self.max_queue_pairs:  # alone, a request always fits
            raise QueueFull(
                f"the queue holds {self._admitted} pairs; {n} more would exceed its limit of {self.max_queue_pairs}"
            )
        if n:
            self._refuse_if_too_late(n, deadline)

    async def submit(
        self, pairs: Sequence[Pair], *, deadline: float | None = None, timeline: Timeline | None = None
    ) -> list[Prediction]:
        """Label `pairs` (in order), batched with everyone else's.

        Args:
            pairs: the request's pairs.
            deadline: absolute `clock()` time after which the request is worthless.
            timeline: when given, filled in with the queue it joined, when it joined it and when
                each of its batches ran (also when the request fails).

        Raises:
            QueueFull: the queue cannot take the pairs now.
            DeadlineExceeded: the deadline passed, or could not be met, before they ran.
            BatchFailed: the batch holding them raised.
            BatcherClosed: the batcher is not running, or was shed.
        """
        if not self.running:
            raise BatcherClosed("the batcher is not running")
        n = len(pairs)
        if n == 0:
            return []
        self.check_admission(n, deadline)
        if timeline is not None:
            timeline.pairs_ahead = self._admitted
        self._admitted += n
        self.observer.queue_depth(self._admitted)
        queued = False
        try:
            loop = asyncio.get_running_loop()
            encoded = await loop.run_in_executor(self._encode_pool, self.model.encode, list(pairs))
            if len(encoded) != n:
                raise BatchFailed(f"encode returned {len(encoded)} items for {n} pairs")
            if self._shed is not None:
                raise BatcherClosed(self._shed)
            if not self.running:
                raise BatcherClosed("the batcher is shutting down")
            now = self.clock()
            if deadline is not None and now >= deadline:
                raise DeadlineExceeded("the deadline passed before the pairs were queued")
            request = _Request(deadline, timeline=timeline)
            items = [_Item(e, loop.create_future(), request, now) for e in encoded]
            request.items = items
            self._pending.extend(items)
            self._pending_tokens += sum(it.n_tokens for it in items)
            queued = True
            if timeline is not None:
                timeline.queued_ns = time.time_ns()
                self._timed += 1
        finally:
            if not queued:
                self._admitted -= n
                self.observer.queue_depth(self._admitted)
        self._wake.set()
        if self._pending_tokens >= self.max_batch_tokens:
            self._full.set()
        futures = [it.future for it in items]
        try:
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            done, pending = await asyncio.wait(futures, timeout=timeout, return_when=asyncio.FIRST_EXCEPTION)
            failed = next((f for f in futures if f.done() and not f.cancelled() and f.exception() is not None), None)
            if failed is not None:
                raise failed.exception()  # type: ignore[misc]
            if pending:
                raise DeadlineExceeded("the deadline passed while the pairs were waiting or running")
            return [f.result() for f in futures]
        finally:
            for fut in futures:
                if not fut.done():
                    fut.cancel()
                elif not fut.cancelled():
                    fut.exception()  # mark retrieved: one failure is reported, not each
            self._uncount(items)  # those still queued no longer count: the worker skips them
            if timeline is not None:
                self._timed -= 1

    def expected_wait(self) -> float | None:
        """Seconds until the pairs queued now have run (None: speed unknown)."""
        if not self.pairs_per_s:
            return None
        return self._admitted / self.pairs_per_s

    def _refuse_if_too_late(self, n: int, deadline: float | None) -> None:
        # only the queue ahead counts here: the request's own batch is checked when it is formed
        if deadline is None:
            return
        wait = self.expected_wait()
        remaining = deadline - self.clock()
        if wait is not None and wait > remaining:
            raise DeadlineExceeded(
                f"the deadline (in {max(0.0, remaining) * 1000:.0f} ms) is sooner than the ~{wait * 1000:.0f} ms "
                f"that the {self._admitted} queued pairs ahead of these {n} need"
            )

    async def measure(self, pairs: Sequence[Pair], *, max_pairs: int = 2048) -> float:
        """Time a load of `pairs` (repeated to fill one batch per worker) through the pipeline.

        Sets and returns `pairs_per_s` (encode + run + decode, all workers busy; not reported to the
        observer: a measurement is not traffic). A few pairs make one small batch, whose time is
        mostly per-batch overhead: the load fills `max_batch_tokens` on every worker instead (at
        most `max_pairs` pairs).
        """
        if not pairs:
            raise ValueError("measure() needs pairs")
        if not self.running:
            raise BatcherClosed("the batcher is not running")
        encoded = await asyncio.get_running_loop().run_in_executor(self._encode_pool, self.model.encode, list(pairs))
        longest = max(int(e.n_tokens) for e in encoded)
        per_copy = len(pairs) * max(1, longest)
        copies = max(1, min(max_pairs // len(pairs), math.ceil(self.workers * self.max_batch_tokens / per_copy)))
        load = list(pairs) * copies
        observer, self.observer = self.observer, _NoObserver()  # a measurement, not traffic
        try:
            start = time.perf_counter()
            await self.submit(load)
            speed = len(load) / max(time.perf_counter() - start, 1e-9)
            self._set_speed(speed)
        finally:
            self.observer = observer
            self._stretch = None
        return speed

    def _set_speed(self, pairs_per_s: float, *, smooth: float = 0.0) -> None:
        """New speed (`smooth` = weight of the old one); the queue bound and batch size follow it."""
        old, bound = self.pairs_per_s, self.max_queue_pairs
        self.pairs_per_s = pairs_per_s if old is None else smooth * old + (1 - smooth) * pairs_per_s
        if self.max_queue_pairs != bound:
            log.debug("speed %.0f pairs/s: max_queue_pairs %d -> %d", self.pairs_per_s, bound, self.max_queue_pairs)

    def _meter(self, done: int) -> None:
        """After a batch of `done` pairs: a speed sample per saturated stretch of ≥ SPEED_WINDOW_S."""
        now = self.clock()
        if self._admitted == 0:  # nothing waits: the stretch (if any) ends, it measured the load, not the speed
            self._stretch = None
        elif self._stretch is None:
            self._stretch = (now, 0)  # counts the pairs done from here on
        else:
            start, pairs = self._stretch[0], self._stretch[1] + done
            if now - start >= SPEED_WINDOW_S:
                self._set_speed(pairs / (now - start), smooth=0.5)
                self._stretch = (now, 0)
            else:
                self._stretch = (start, pairs)

    async def release_memory(self) -> None:
        """Release the model's free memory now (as after an idle period)."""
        await self._release_memory()

    # -- bookkeeping --------------------------------------------------------------------------------
    def _uncount(self, items: Sequence[_Item]) -> None:
        """The items stop counting in the queue depth (run, dropped or failed); idempotent."""
        n = 0
        for it in items:
            if it.counted:
                it.counted = False
                n += 1
        if n:
            self._admitted -= n
            self.observer.queue_depth(self._admitted)

    def _fail_request(self, request: _Request, exc: BatcherError) -> None:
        """Fail every pair of `request` that has no answer yet with `exc`: the request is dropped whole."""
        for it in request.items:
            if not it.future.done():
                it.future.set_exception(exc)
        self._uncount(request.items)

    # -- worker -----------------------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            while not self._pending:
                self._wake.clear()
                if self._ran and self._busy == 0 and self.idle_release_s is not None:
                    try:
                        await asyncio.wait_for(self._wake.wait(), self.idle_release_s)
                    except TimeoutError:
                        await self._release_memory()
                    continue
                await self._wake.wait()
            await self._acquire_slot()  # a free slot first: the queue fills while all are busy
            await self._wait_for_company()
            free = self.workers - self._busy + 1  # idle slots, the one just acquired included
            cap = self.batch_pairs
            window = self._take_window(None if cap is None else cap * free)
            self._taken.update(window)
            batches = self._plan(window, free, cap)
            if not batches:
                self._release_slot()
            for j, chunk in enumerate(batches):
                if j > 0:
                    await self._acquire_slot()
                run = asyncio.get_running_loop().create_task(self._run(chunk))
                self._runs[run] = math.inf
                run.add_done_callback(self._run_done)

    def _cut(self, window: list[_Item], free: int, cap: int | None) -> list[list[_Item]]:
        lengths = [it.n_tokens for it in window]
        return [
            [window[i] for i in idx] for idx in split_for_idle(cut_batches(lengths, self.max_batch_tokens, cap), free)
        ]

    def _plan(self, window: list[_Item], free: int, cap: int | None) -> list[list[_Item]]:
        """The window's batches, once every request that cannot end by its deadline is dropped.

        With a known speed, the batches are laid out on the run slots (`plan_finish`: the idle ones
        now, the busy ones when their batch should end); a request whose last pair would end after
        its deadline is failed whole (DeadlineExceeded) and the rest is cut again.
        """
        batches = self._cut(window, free, cap)
        if not self.pairs_per_s or all(it.deadline is None for it in window):
            return batches
        per_slot = self.pairs_per_s / self.workers
        for _ in range(3):  # dropping shortens the batches: cut again, check again (a few times at most)
            now = self.clock()
            idle = [now] * max(1, self.workers - len(self._runs))
            busy = [max(now, end) for end in self._runs.values() if math.isfinite(end)]
            ends = plan_finish([len(b) for b in batches], idle + busy, per_slot)
            finish: dict[_Request, float] = {}
            for batch, end in zip(batches, ends, strict=True):
                for it in batch:
                    finish[it.request] = max(finish.get(it.request, 0.0), end)
            late = [r for r, end in finish.items() if r.deadline is not None and end > r.deadline]
            if not late:
                return batches
            for request in late:
                self._fail_request(request, _too_late(request, finish[request] - now, now))
            window = [it for it in window if not it.future.done()]
            self._taken.difference_update(it for r in late for it in r.items)
            batches = self._cut(window, free, cap)
        return batches

    async def _acquire_slot(self) -> None:
        await self._slots.acquire()
        self._busy += 1

    def _release_slot(self) -> None:
        self._busy -= 1
        self._slots.release()

    def _run_done(self, run: asyncio.Task[None]) -> None:
        if run in self._runs:  # not when close() took it
            del self._runs[run]
            self._release_slot()
            self._ran = True
            self._wake.set()  # the worker starts the idle clock once no run is left

    async def _release_memory(self) -> None:
        self._ran = False
        self.releases += 1
        await asyncio.get_running_loop().run_in_executor(self._run_pool, self._release_in_thread)

    def _release_in_thread(self) -> None:
        release = getattr(self.model, "release_memory", None)
        try:
            if release is not None:
                release()
            release_heap()
        except Exception:  # noqa: BLE001 - memory hygiene must never fail a request
            log.exception("releasing idle memory failed")

    async def _wait_for_company(self) -> None:
        if self.max_wait <= 0 or self._pending_tokens >= self.max_batch_tokens:
            return
        remaining = self._pending[0].arrived + self.max_wait - self.clock()
        if remaining <= 0:
            return
        self._full.clear()
        try:
            await asyncio.wait_for(self._full.wait(), remaining)
        except TimeoutError:
            pass

    def _take_window(self, max_pairs: int | None = None) -> list[_Item]:
        """Whole requests from the head of the queue, within the lookahead's tokens and `max_pairs`
        (the first request always whole); cancelled and expired ones are dropped on the way."""
        window: list[_Item] = []
        tokens = 0
        now = self.clock()
        last: _Request | None = None
        while self._pending:
            item = self._pending[0]
            if item.request is not last and window:  # a new request: does it still fit?
                if tokens + item.n_tokens > self.lookahead_tokens or (
                    max_pairs is not None and len(window) >= max_pairs
                ):
                    break
            last = item.request
            self._pending.popleft()
            self._pending_tokens -= item.n_tokens
            if self._drop_if_dead(item, now):
                continue
            window.append(item)
            tokens += item.n_tokens
        return window

    def _drop_if_dead(self, item: _Item, now: float) -> bool:
        """Drop a cancelled, failed or expired item (its request whole when expired); True if dropped."""
        if not item.future.done() and item.deadline is not None and now >= item.deadline:
            self._fail_request(item.request, DeadlineExceeded("the deadline passed before the pair ran"))
        if item.future.done():
            self._uncount([item])
            return True
        return False

    async def _run(self, chunk: list[_Item]) -> None:
        try:
            await self._run_live(chunk)
        finally:
            self._taken.difference_update(chunk)

    async def _run_live(self, chunk: list[_Item]) -> None:
        now = self.clock()
        live = [it for it in chunk if not self._drop_if_dead(it, now)]
        if live and self.pairs_per_s:  # its slot came later than planned: can each request still make it?
            end = now + len(live) * self.workers / self.pairs_per_s
            for request in {it.request for it in live if it.deadline is not None and end > it.deadline}:
                self._fail_request(request, _too_late(request, end - now, now))
            live = [it for it in live if not it.future.done()]
        if not live:
            return
        for it in live:
            it.request.started = True
        self._uncount(live)
        run = asyncio.current_task()
        if run is not None and run in self._runs:  # when it should end: the next window's plan counts on it
            self._runs[run] = now + (len(live) * self.workers / self.pairs_per_s if self.pairs_per_s else 0.0)
        loop = asyncio.get_running_loop()
        start_ns = time.time_ns() if self._timed else 0
        try:
            preds = await loop.run_in_executor(self._run_pool, self._infer, [it.encoded for it in live])
        except Exception as exc:  # noqa: BLE001 - one failed batch must not kill the worker
            if self._timed:
                _record_batch(live, start_ns)
            log.exception("a batch of %d pairs failed", len(live))
            failure = BatchFailed(f"the batch of {len(live)} pairs failed: {type(exc).__name__}: {exc}")
            for it in live:
                if not it.future.done():
                    it.future.set_exception(failure)
            return
        if self._timed:
            _record_batch(live, start_ns)
        for it, pred in zip(live, preds, strict=True):
            if not it.future.done():
                it.future.set_result(pred)
        self._meter(len(live))

    def _infer(self, encoded: list[Any]) -> list[Prediction]:
        """collate → run → decode, in the run thread."""
        start = time.perf_counter()
        batch = self.model.collate(encoded)
        logits = self.model.run(batch)
        preds = self.model.decode(encoded, logits)
        if len(preds) != len(encoded):
            raise RuntimeError(f"decode returned {len(preds)} predictions for {len(encoded)} pairs")
        self.observer.batch_done(len(encoded), batch.n_tokens, time.perf_counter() - start)
        return preds


def _record_batch(live: Sequence[_Item], start_ns: int) -> None:
    """Add the batch of `live` pairs, begun at `start_ns` and ending now, to its requests' timelines."""
    end_ns = time.time_ns()
    counts: dict[_Request, int] = {}
    for it in live:
        if it.request.timeline is not None:
            counts[it.request] = counts.get(it.request, 0) + 1
    for request, pairs in counts.items():
        assert request.timeline is not None
        request.timeline.batches.append(BatchRun(start_ns, end_ns, pairs, len(live)))


def _too_late(request: _Request, needs: float, now: float) -> DeadlineExceeded:
    remaining = (request.deadline or now) - now
    return DeadlineExceeded(
        f"the deadline (in {max(0.0, remaining) * 1000:.0f} ms) is sooner than the ~{needs * 1000:.0f} ms "
        f"its {len(request.items)} pairs need to run: not run"
    )
