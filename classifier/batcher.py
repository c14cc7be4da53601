"""The dynamic batcher: pairs from all concurrent requests share one bounded queue and one worker.

Flow of one request (`await batcher.submit(pairs, deadline=...)`):

1. admission: if the queue cannot take all its pairs, `QueueFull` at once (RESOURCE_EXHAUSTED);
2. pre: `model.encode(pairs)` (compare the pairs' records + tokenize; the pairs carry their
   normalized records, see `classifier/features.py`) in the encode thread, off the loop;
3. the encoded pairs join the queue, each with its own future.

The worker (one asyncio task) waits for the first pair, then up to `max_wait_ms` after that pair
arrived for more (or until a batch's worth of tokens is waiting), takes the waiting pairs (up to
`lookahead_batches` batches' worth), drops cancelled and expired ones (`DeadlineExceeded`), sorts
them by length and cuts them into batches whose padded size n × L stays within
`max_batch_tokens` (text-embeddings-inference's budget). Each batch runs `collate → run →
decode` in a run thread, off the event loop; its futures get their predictions. Up to `workers`
batches run at once (one run thread each): the worker waits for a free run slot *before* it forms
the next window, so the queue fills while every slot is busy, and a window that makes fewer
batches than there are idle slots is split so that no slot idles (a lone request's pairs run on
every slot). On the CPU, `workers` = cores with one intra-op thread each matches one batch on all
cores under load and cuts a lone request's latency: a parallel op waits for its slowest
thread, and on a machine shared with the gRPC and Python work some thread is always preempted
(`bench/serve.py --batch-workers N --threads T` compares them; results: training/EXPERIMENTS.md,
"Serving speed"). An exception in a batch
fails only that batch's pairs (`BatchFailed`); the worker carries on.

Speed and memory: `measure()` times a load of pairs through the whole pipeline (pairs/s; the
server runs it as its warm-up); under load, every stretch of at least `SPEED_WINDOW_S` during
which pairs kept waiting measures the speed again (pairs done / seconds: what the machine gives
now, with the gRPC and Python work beside it). With `queue_wait_ms` set, the queue bound follows
that speed (`queue_pairs_for`: about `queue_wait_ms` of work). With a speed known, a request
whose deadline is sooner than the queued pairs ahead of it can be done is refused at once
(`DeadlineExceeded`) instead of late. Once nothing has been queued or running for
`idle_release_s`, the model's free working memory is handed back to the OS
(`model.release_memory()` when it has one — onnxruntime's arena — then glibc's `malloc_trim`):
the peak of a load does not stay resident after it.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
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


@dataclass(eq=False)
class _Item:
    encoded: Any
    future: asyncio.Future[Prediction]
    deadline: float | None
    arrived: float
    n_tokens: int = field(init=False)

    def __post_init__(self) -> None:
        self.n_tokens = int(self.encoded.n_tokens)


def cut_batches(lengths: Sequence[int], max_batch_tokens: int) -> list[list[int]]:
    """Sort indices by length and cut them into batches with n × max(L) ≤ max_batch_tokens.

    A single item longer than the budget gets a batch of its own. Pure; returns indices.
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
    return batches


SPEED_WINDOW_S = 1.0
"""A saturated stretch (pairs waiting at every batch's end) this long gives a new speed sample."""

MIN_SPLIT_PAIRS = 4
"""A batch is only split for an idle run slot if both halves get at least this many pairs."""


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
        max_queue_pairs: pairs admitted but not yet run; beyond it `submit` raises QueueFull.
        lookahead_batches: how many batches' worth of waiting pairs are sorted together.
        workers: batches that may run at once, each in its own run thread.
        observer: metrics sink.
        clock: monotonic seconds (tests may pass a fake).
        idle_release_s: after this long with nothing queued or running (and batches run since the
            last time), release the model's free memory; None = never.
        queue_wait_ms: when set, `max_queue_pairs` follows the measured speed: the pairs it runs
            in this long, within [`queue_floor`, `queue_ceiling`] (None: `max_queue_pairs` is fixed).
        queue_floor: the smallest sized bound (one full request must fit).
        queue_ceiling: the largest sized bound.
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
    ) -> None:
        if max_batch_tokens < 1:
            raise ValueError(f"max_batch_tokens must be ≥ 1, got {max_batch_tokens}")
        if max_queue_pairs < 1:
            raise ValueError(f"max_queue_pairs must be ≥ 1, got {max_queue_pairs}")
        if workers < 1:
            raise ValueError(f"workers must be ≥ 1, got {workers}")
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
        """Measured speed (`measure()`); with it, deadlines that cannot be met are refused at admission."""
        self.releases = 0  # idle memory releases done
        self.queue_wait_ms = queue_wait_ms
        self.queue_floor, self.queue_ceiling = queue_floor, max(queue_floor, queue_ceiling)
        self._stretch: tuple[float, int] | None = None  # (start, pairs done) of the saturated stretch
        self._ran = False  # batches ran since the last release
        self._pending: deque[_Item] = deque()
        self._pending_tokens = 0
        self._admitted = 0  # pairs admitted and not yet run or dropped
        self._wake = asyncio.Event()
        self._full = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._taken: set[_Item] = set()  # taken from the queue by the worker, not yet resolved
        self._runs: set[asyncio.Task[None]] = set()
        self._slots = asyncio.Semaphore(workers)
        self._busy = 0  # run slots held
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

    async def start(self) -> None:
        """Start the worker on the running loop."""
        if self.running:
            return
        self._encode_pool = ThreadPoolExecutor(1, thread_name_prefix="writegate-encode")
        self._run_pool = ThreadPoolExecutor(self.workers, thread_name_prefix="writegate-run")
        self._slots, self._busy = asyncio.Semaphore(self.workers), 0
        self._worker = asyncio.get_running_loop().create_task(self._work(), name="writegate-batcher")

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
        runs, self._runs = list(self._runs), set()
        for run in runs:
            run.cancel()
        if runs:
            await asyncio.gather(*runs, return_exceptions=True)
        self._pending_tokens = 0
        for item in waiting:
            if not item.future.done():
                item.future.set_exception(BatcherClosed("the batcher is shutting down"))
        for pool in (self._encode_pool, self._run_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._encode_pool = self._run_pool = None

    # -- requests ---------------------------------------------------------------------------------
    def check_admission(self, n: int) -> None:
        """Raise QueueFull unless the queue can take `n` more pairs now (`submit` admits by this rule)."""
        if n and self._admitted + n > self.max_queue_pairs:
            raise QueueFull(
                f"the queue holds {self._admitted} pairs; {n} more would exceed its limit of {self.max_queue_pairs}"
            )

    async def submit(self, pairs: Sequence[Pair], *, deadline: float | None = None) -> list[Prediction]:
        """Label `pairs` (in order), batched with everyone else's.

        Args:
            pairs: the request's pairs.
            deadline: absolute `clock()` time after which the request is worthless.

        Raises:
            QueueFull: the queue cannot take the pairs now.
            DeadlineExceeded: the deadline passed before they ran.
            BatchFailed: the batch holding them raised.
            BatcherClosed: the batcher is not running.
        """
        if not self.running:
            raise BatcherClosed("the batcher is not running")
        n = len(pairs)
        if n == 0:
            return []
        self.check_admission(n)
        self._refuse_if_too_late(n, deadline)
        self._admitted += n
        self.observer.queue_depth(self._admitted)
        queued = False
        try:
            loop = asyncio.get_running_loop()
            encoded = await loop.run_in_executor(self._encode_pool, self.model.encode, list(pairs))
            if len(encoded) != n:
                raise BatchFailed(f"encode returned {len(encoded)} items for {n} pairs")
            now = self.clock()
            if deadline is not None and now >= deadline:
                raise DeadlineExceeded("the deadline passed before the pairs were queued")
            items = [_Item(e, loop.create_future(), deadline, now) for e in encoded]
            self._pending.extend(items)
            self._pending_tokens += sum(it.n_tokens for it in items)
            queued = True
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

    def expected_wait(self) -> float | None:
        """Seconds until the pairs queued now have run (None: speed unknown)."""
        if not self.pairs_per_s:
            return None
        return self._admitted / self.pairs_per_s

    def _refuse_if_too_late(self, n: int, deadline: float | None) -> None:
        # only the queue ahead counts: a lone request's own pairs get every worker (faster than pairs/s)
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
        """New speed (`smooth` = weight of the old one); the sized queue bound follows it."""
        old = self.pairs_per_s
        self.pairs_per_s = pairs_per_s if old is None else smooth * old + (1 - smooth) * pairs_per_s
        if self.queue_wait_ms is not None:
            bound = queue_pairs_for(
                self.pairs_per_s, self.queue_wait_ms, floor=self.queue_floor, ceiling=self.queue_ceiling
            )
            if bound != self.max_queue_pairs:
                log.debug("speed %.0f pairs/s: max_queue_pairs %d -> %d", self.pairs_per_s, self.max_queue_pairs, bound)
            self.max_queue_pairs = bound

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
            window = self._take_window()
            self._taken.update(window)
            batches = split_for_idle(
                cut_batches([it.n_tokens for it in window], self.max_batch_tokens), self.workers - self._busy + 1
            )
            if not batches:
                self._release_slot()
            for j, idx in enumerate(batches):
                if j > 0:
                    await self._acquire_slot()
                run = asyncio.get_running_loop().create_task(self._run([window[i] for i in idx]))
                self._runs.add(run)
                run.add_done_callback(self._run_done)

    async def _acquire_slot(self) -> None:
        await self._slots.acquire()
        self._busy += 1

    def _release_slot(self) -> None:
        self._busy -= 1
        self._slots.release()

    def _run_done(self, run: asyncio.Task[None]) -> None:
        if run in self._runs:  # not when close() took it
            self._runs.discard(run)
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

    def _take_window(self) -> list[_Item]:
        window: list[_Item] = []
        tokens = 0
        now = self.clock()
        while self._pending:
            item = self._pending[0]
            if window and tokens + item.n_tokens > self.lookahead_tokens:
                break
            self._pending.popleft()
            self._pending_tokens -= item.n_tokens
            if self._drop_if_dead(item, now):
                continue
            window.append(item)
            tokens += item.n_tokens
        return window

    def _drop_if_dead(self, item: _Item, now: float) -> bool:
        """Drop a cancelled or expired item (releasing its queue slot); True if dropped."""
        dead = item.future.done()
        if not dead and item.deadline is not None and now >= item.deadline:
            item.future.set_exception(DeadlineExceeded("the deadline passed before the pair ran"))
            dead = True
        if dead:
            self._release(1)
        return dead

    def _release(self, n: int) -> None:
        self._admitted -= n
        self.observer.queue_depth(self._admitted)

    async def _run(self, chunk: list[_Item]) -> None:
        try:
            await self._run_live(chunk)
        finally:
            self._taken.difference_update(chunk)

    async def _run_live(self, chunk: list[_Item]) -> None:
        now = self.clock()
        live = [it for it in chunk if not self._drop_if_dead(it, now)]
        if not live:
            return
        self._release(len(live))
        loop = asyncio.get_running_loop()
        try:
            preds = await loop.run_in_executor(self._run_pool, self._infer, [it.encoded for it in live])
        except Exception as exc:  # noqa: BLE001 - one failed batch must not kill the worker
            log.exception("a batch of %d pairs failed", len(live))
            failure = BatchFailed(f"the batch of {len(live)} pairs failed: {type(exc).__name__}: {exc}")
            for it in live:
                if not it.future.done():
                    it.future.set_exception(failure)
            return
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
