"""The run slots: up to `workers` batches at once, each in its own run thread, and what a batch
run measures (the speed) and leaves behind (working memory, released when idle).

A batch runs its job kind's `infer` on its pairs in a run thread, off the event loop (for the
classifier's pairs: `columnar.gather`, one padded batch of several requests' rows →
`Classifier.run` → `Classifier.label`; for texts: one embedder run); its futures get their
answers. Just before, each request in it is checked again: one that cannot end by its deadline
now is dropped whole. An exception fails only that batch's pairs (`BatchFailed`).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from writegate.classifier.batcher.jobs import JobKind
from writegate.classifier.batcher.policy import QueuePolicy
from writegate.classifier.batcher.queue import BatchObserver, BatchRun, Item, PairQueue, Request
from writegate.errors import BatchFailed, DeadlineExceeded

log = logging.getLogger("writegate.classifier.batcher")

SPEED_WINDOW_S = 1.0
"""A saturated stretch (pairs waiting at every batch's end) this long gives a new speed sample."""


def release_heap() -> bool:
    """Hand the C heap's free pages back to the OS (glibc `malloc_trim(0)`); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.malloc_trim(0))
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return False


def too_late(request: Request, needs: float, now: float, unit: str = "pair") -> DeadlineExceeded:
    """The error of a request whose pairs (`unit`s) need `needs` s more than its deadline leaves it."""
    remaining = (request.deadline or now) - now
    return DeadlineExceeded(
        f"the deadline (in {max(0.0, remaining) * 1000:.0f} ms) is sooner than the ~{needs * 1000:.0f} ms "
        f"its {len(request.items)} {unit}s need to run: not run"
    )


class Speed:
    """The measured speed in pairs/s (`Batcher.measure`, then under load): every stretch of at least
    `SPEED_WINDOW_S` during which pairs kept waiting gives a sample (pairs done / seconds: what the
    machine gives now, with the gRPC and Python work beside it), averaged half and half with the last."""

    def __init__(self) -> None:
        self.pairs_per_s: float | None = None
        self._stretch: tuple[float, int] | None = None  # (start, pairs done) of the saturated stretch

    def measured(self, pairs_per_s: float, *, smooth: float = 0.0) -> None:
        """A new sample (`smooth` = weight of the old speed)."""
        old = self.pairs_per_s
        self.pairs_per_s = pairs_per_s if old is None else smooth * old + (1 - smooth) * pairs_per_s
        log.debug("speed %.0f pairs/s", self.pairs_per_s)

    def forget_stretch(self) -> None:
        """End the saturated stretch (after a measurement, which is not traffic)."""
        self._stretch = None

    def batch_done(self, done: int, waiting: bool, now: float) -> None:
        """After a batch of `done` pairs; `waiting`: pairs are still queued."""
        if not waiting:  # the stretch (if any) ends: it measured the load, not the speed
            self._stretch = None
        elif self._stretch is None:
            self._stretch = (now, 0)  # counts the pairs done from here on
        else:
            start, pairs = self._stretch[0], self._stretch[1] + done
            if now - start >= SPEED_WINDOW_S:
                self.measured(pairs / (now - start), smooth=0.5)
                self._stretch = (now, 0)
            else:
                self._stretch = (start, pairs)


class Runner:
    """The run slots and their run threads (see the module docstring).

    Args:
        jobs: the job kind (its `infer` runs each batch).
        policy: the queue policy (`workers`).
        queue: the queue the batches' pairs came from (their depth, their requests' failures).
        observer: told each batch's size, padded tokens and seconds.
        clock: monotonic seconds.
    """

    def __init__(
        self,
        jobs: JobKind[Any, Any],
        policy: QueuePolicy,
        queue: PairQueue,
        observer: BatchObserver,
        clock: Callable[[], float],
    ) -> None:
        self.jobs, self.policy, self.queue, self.observer, self.clock = jobs, policy, queue, observer, clock
        self.speed = Speed()
        self.runs: dict[asyncio.Task[None], float] = {}  # run → when it should end (its start + expected time)
        self.busy = 0  # run slots held
        self.ran = False  # batches ran since the last release
        self.releases = 0  # idle memory releases done
        self._slots = asyncio.Semaphore(policy.workers)
        self._pool: ThreadPoolExecutor | None = None

    # -- slots ---------------------------------------------------------------------------------
    def start(self) -> None:
        """New run threads and free slots."""
        self._pool = ThreadPoolExecutor(self.policy.workers, thread_name_prefix="writegate-run")
        self._slots, self.busy = asyncio.Semaphore(self.policy.workers), 0

    async def close(self) -> None:
        """Cancel the runs (their pairs are failed by the caller) and stop the run threads."""
        runs, self.runs = list(self.runs), {}
        for run in runs:
            run.cancel()
        if runs:
            await asyncio.gather(*runs, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None

    async def acquire(self) -> None:
        """Wait for a free run slot and hold it."""
        await self._slots.acquire()
        self.busy += 1

    def release(self) -> None:
        """Free a held slot."""
        self.busy -= 1
        self._slots.release()

    def slot_free_at(self, now: float) -> list[float]:
        """When each run slot is free: now for the idle ones, when its batch should end for a busy one."""
        idle = [now] * max(1, self.policy.workers - len(self.runs))
        return idle + [max(now, end) for end in self.runs.values() if math.isfinite(end)]

    def launch(self, chunk: list[Item]) -> None:
        """Run a batch on the slot just acquired; the slot is freed when it ends."""
        run = asyncio.get_running_loop().create_task(self._run(chunk))
        self.runs[run] = math.inf
        run.add_done_callback(self._run_done)

    def _run_done(self, run: asyncio.Task[None]) -> None:
        if run in self.runs:  # not when close() took it
            del self.runs[run]
            self.release()
            self.ran = True
            self.queue.wake.set()  # the worker starts the idle clock once no run is left

    # -- one batch -----------------------------------------------------------------------------
    async def _run(self, chunk: list[Item]) -> None:
        try:
            live = self._still_in_time(chunk)
            if live:
                await self._run_live(live)
        finally:
            self.queue.taken.difference_update(chunk)

    def _still_in_time(self, chunk: list[Item]) -> list[Item]:
        """The chunk's pairs that may run now: dead ones dropped and, when its slot came later than
        planned, the requests that can no longer end by their deadline."""
        now = self.clock()
        live = [it for it in chunk if not self.queue.drop_if_dead(it, now)]
        speed = self.speed.pairs_per_s
        if live and speed:
            end = now + self.policy.run_seconds(len(live), speed)
            for request in {it.request for it in live if it.deadline is not None and end > it.deadline}:
                self.queue.fail_request(request, too_late(request, end - now, now, self.jobs.unit))
            live = [it for it in live if not it.future.done()]
        if live:
            run = asyncio.current_task()
            if run is not None and run in self.runs:  # when it should end: the next window's plan counts on it
                self.runs[run] = now + (self.policy.run_seconds(len(live), speed) if speed else 0.0)
        return live

    async def _run_live(self, live: list[Item]) -> None:
        for it in live:
            it.request.started = True
        self.queue.uncount(live)
        timed = any(it.request.timeline is not None for it in live)
        start_ns = time.time_ns() if timed else 0
        try:
            preds = await asyncio.get_running_loop().run_in_executor(self._pool, self._infer, live)
        except Exception as exc:  # one failed batch must not kill the worker
            if timed:
                _record_batch(live, start_ns)
            unit = self.jobs.unit
            log.exception("a batch of %d %ss failed", len(live), unit)
            failure = BatchFailed(f"the batch of {len(live)} {unit}s failed: {type(exc).__name__}: {exc}")
            PairQueue.fail_all(live, failure)
            return
        if timed:
            _record_batch(live, start_ns)
        for it, pred in zip(live, preds, strict=True):
            if not it.future.done():
                it.future.set_result(pred)
        self.speed.batch_done(len(live), self.queue.admitted > 0, self.clock())

    def _infer(self, live: Sequence[Item]) -> list[Any]:
        """The job kind's `infer` (for pairs: gather → run → label), in the run thread."""
        start = time.perf_counter()
        ran = self.jobs.infer([(it.encoded, it.row) for it in live])
        self.observer.batch_done(len(live), ran.padded_tokens, time.perf_counter() - start)
        return ran.answers

    # -- idle memory ---------------------------------------------------------------------------
    @property
    def idle_with_memory(self) -> bool:
        """True when batches ran since the last release and none runs now."""
        return self.ran and self.busy == 0

    async def release_memory(self) -> None:
        """Release the model's free memory (the job kind's `release_memory`, then the C heap's), in a run thread."""
        self.ran = False
        self.releases += 1
        await asyncio.get_running_loop().run_in_executor(self._pool, self._release_in_thread)

    def _release_in_thread(self) -> None:
        try:
            self.jobs.release_memory()
            release_heap()
        except Exception:  # memory hygiene must never fail a request
            log.exception("releasing idle memory failed")


def _record_batch(live: Sequence[Item], start_ns: int) -> None:
    """Add the batch of `live` pairs, begun at `start_ns` and ending now, to its requests' timelines."""
    end_ns = time.time_ns()
    counts: dict[Request, int] = {}
    for it in live:
        if it.request.timeline is not None:
            counts[it.request] = counts.get(it.request, 0) + 1
    for request, pairs in counts.items():
        if request.timeline is not None:
            request.timeline.batches.append(BatchRun(start_ns, end_ns, pairs, len(live)))
