"""`Batcher`: the requests' side (admission, encode, waiting for the answers) and the worker task
that forms batches from the queue's head and hands them to the run slots; the same for every job
kind (`jobs.py`)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar, overload

from writegate.classifier.batcher.forming import cut_batches, finish_times, plan_finish, split_for_idle
from writegate.classifier.batcher.jobs import JobKind, PairJobs
from writegate.classifier.batcher.policy import QueuePolicy
from writegate.classifier.batcher.queue import BatchObserver, Item, NoObserver, PairQueue, Request, Timeline
from writegate.classifier.batcher.runner import Runner, Speed, too_late
from writegate.classifier.model import Classifier
from writegate.classifier.types import Pair, Prediction
from writegate.errors import BatcherClosed, BatchFailed, DeadlineExceeded

In = TypeVar("In")
Out = TypeVar("Out")


class Batcher(Generic[In, Out]):
    """Pools pairs from concurrent requests into token-budgeted batches (see the package docstring).

    Args:
        jobs: what it runs: a classifier (its pairs: `PairJobs`, the window steps: encode per
            request; run and label per batch) or another job kind (`TextJobs`: texts to embed).
            "Pairs" below are the kind's items.
        policy: how the queue admits pairs and the batches are formed, fixed for the batcher's life.
        observer: metrics sink.
        clock: monotonic seconds (tests may pass a fake).
    """

    @overload
    def __init__(
        self: Batcher[Pair, Prediction],
        jobs: Classifier,
        policy: QueuePolicy | None = None,
        *,
        observer: BatchObserver | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None: ...

    @overload
    def __init__(
        self,
        jobs: JobKind[In, Out],
        policy: QueuePolicy | None = None,
        *,
        observer: BatchObserver | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None: ...

    def __init__(
        self,
        jobs: Classifier | JobKind[Any, Any],
        policy: QueuePolicy | None = None,
        *,
        observer: BatchObserver | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.jobs: JobKind[Any, Any] = PairJobs(jobs) if isinstance(jobs, Classifier) else jobs
        self.policy = policy or QueuePolicy()
        self.clock = clock
        self.observer: BatchObserver = observer or NoObserver()
        self._queue = PairQueue(self.policy, self.observer, self.jobs.unit)
        self._runner = Runner(self.jobs, self.policy, self._queue, self.observer, clock)
        self._worker: asyncio.Task[None] | None = None
        self._encode_pool: ThreadPoolExecutor | None = None

    # -- state ---------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True between `start()` and `close()`."""
        return self._worker is not None and not self._worker.done()

    @property
    def queue_depth(self) -> int:
        """Pairs admitted and not yet run."""
        return self._queue.admitted

    @property
    def speed(self) -> Speed:
        """The measured speed (`measure()`, and under load)."""
        return self._runner.speed

    @property
    def pairs_per_s(self) -> float | None:
        """The measured speed in pairs/s (None: not yet); with it, deadlines that cannot be met are refused."""
        return self._runner.speed.pairs_per_s

    @property
    def max_queue_pairs(self) -> int:
        """THE admission bound now: `QueuePolicy.queue_bound` at the measured speed."""
        return self.policy.queue_bound(self.pairs_per_s)

    @property
    def batch_pairs(self) -> int | None:
        """The most pairs one batch holds now: `QueuePolicy.batch_pairs` at the measured speed."""
        return self.policy.batch_pairs(self.pairs_per_s)

    @property
    def releases(self) -> int:
        """Idle memory releases done."""
        return self._runner.releases

    # -- lifecycle -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the worker on the running loop."""
        if self.running:
            return
        self._encode_pool = ThreadPoolExecutor(1, thread_name_prefix="writegate-encode")
        self._runner.start()
        self._queue.closed = None
        self._worker = asyncio.get_running_loop().create_task(self._work(), name="writegate-batcher")

    def shed(self, message: str) -> int:
        """Refuse every new request (`BatcherClosed(message)`) and fail, at once and with that error,
        every request none of whose pairs has reached the model; requests already running finish.

        The server's SIGTERM: queued calls are answered UNAVAILABLE now (clients retry them
        elsewhere) instead of waiting for the model or their deadline. Returns the requests failed.
        """
        return self._queue.shed(message)

    async def close(self) -> None:
        """Stop the worker; pairs still waiting or running fail with BatcherClosed."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            try:
                await worker
            except asyncio.CancelledError:
                pass
        waiting = self._queue.drain()
        await self._runner.close()
        PairQueue.fail_all(waiting, BatcherClosed("the batcher is shutting down"))
        self._queue.uncount(waiting)
        if self._encode_pool is not None:
            # encodes already submitted still finish: their requests then meet the checks after the
            # encode in `_enqueue` (shed or closed) and are answered UNAVAILABLE, not cancelled
            self._encode_pool.shutdown(wait=False)
        self._encode_pool = None

    # -- requests ------------------------------------------------------------------------------
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
        self._queue.check(n, deadline, bound=self.max_queue_pairs, pairs_per_s=self.pairs_per_s, now=self.clock())

    async def submit(
        self, pairs: Sequence[In], *, deadline: float | None = None, timeline: Timeline | None = None
    ) -> list[Out]:
        """Label `pairs` (in order), batched with everyone else's: one answer per pair (the kind's)

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
        if not pairs:
            return []
        self.check_admission(len(pairs), deadline)
        if timeline is not None:
            timeline.pairs_ahead = self._queue.admitted
        request = await self._enqueue(pairs, deadline, timeline)
        return await self._answers(request, deadline)

    async def _enqueue(self, pairs: Sequence[In], deadline: float | None, timeline: Timeline | None) -> Request:
        """Count the pairs, encode them in the encode thread (off the loop), then queue them."""
        n = len(pairs)
        self._queue.admit(n)
        loop = asyncio.get_running_loop()
        try:
            encoded = await loop.run_in_executor(self._encode_pool, self.jobs.encode, list(pairs))
            lengths = self.jobs.lengths(encoded)
            if len(lengths) != n:
                raise BatchFailed(f"encode returned {len(lengths)} items for {n} {self.jobs.unit}s")
            if self._queue.closed is not None:
                raise BatcherClosed(self._queue.closed)
            if not self.running:
                raise BatcherClosed("the batcher is shutting down")
            now = self.clock()
            if deadline is not None and now >= deadline:
                raise DeadlineExceeded(f"the deadline passed before the {self.jobs.unit}s were queued")
        except BaseException:
            self._queue.admit(-n)
            raise
        request = Request(deadline, timeline=timeline)
        request.items = [Item(encoded, i, loop.create_future(), request, now, lengths[i]) for i in range(n)]
        self._queue.append(request)
        if timeline is not None:
            timeline.queued_ns = time.time_ns()
        return request

    async def _answers(self, request: Request, deadline: float | None) -> list[Out]:
        """Wait for the request's predictions until its deadline; one failure fails the request."""
        futures = [it.future for it in request.items]
        try:
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            _, pending = await asyncio.wait(futures, timeout=timeout, return_when=asyncio.FIRST_EXCEPTION)
            for fut in futures:
                exc = fut.exception() if fut.done() and not fut.cancelled() else None
                if exc is not None:
                    raise exc
            if pending:
                raise DeadlineExceeded(f"the deadline passed while the {self.jobs.unit}s were waiting or running")
            return [f.result() for f in futures]
        finally:
            for fut in futures:
                if not fut.done():
                    fut.cancel()
                elif not fut.cancelled():
                    fut.exception()  # mark retrieved: one failure is reported, not each
            self._queue.uncount(request.items)  # those still queued no longer count: the worker skips them

    async def measure(self, pairs: Sequence[In], *, max_pairs: int = 2048) -> float:
        """Time a load of `pairs` (repeated to fill one batch per worker) through the pipeline.

        Sets and returns `pairs_per_s` (encode + run + label, all workers busy; not reported to the
        observer: a measurement is not traffic). A few pairs make one small batch, whose time is
        mostly per-batch overhead: the load fills `max_batch_tokens` on every worker instead (at
        most `max_pairs` pairs).
        """
        if not pairs:
            raise ValueError("measure() needs pairs")
        if not self.running:
            raise BatcherClosed("the batcher is not running")
        encoded = await asyncio.get_running_loop().run_in_executor(self._encode_pool, self.jobs.encode, list(pairs))
        per_copy = len(pairs) * max(1, max(self.jobs.lengths(encoded)))
        tokens = self.policy.workers * self.policy.max_batch_tokens
        copies = max(1, min(max_pairs // len(pairs), math.ceil(tokens / per_copy)))
        load = list(pairs) * copies
        observer = self.observer
        self._observe(NoObserver())  # a measurement, not traffic
        try:
            start = time.perf_counter()
            await self.submit(load)
            speed = len(load) / max(time.perf_counter() - start, 1e-9)
            self._runner.speed.measured(speed)
        finally:
            self._observe(observer)
            self._runner.speed.forget_stretch()
        return speed

    def _observe(self, observer: BatchObserver) -> None:
        self.observer = self._queue.observer = self._runner.observer = observer

    async def release_memory(self) -> None:
        """Release the model's free memory now (as after an idle period)."""
        await self._runner.release_memory()

    # -- the worker ----------------------------------------------------------------------------
    async def _work(self) -> None:
        queue, runner = self._queue, self._runner
        while True:
            while not queue.pending:
                idle_s = self.policy.idle_release_s if runner.idle_with_memory else None
                if not await queue.wait(idle_s):
                    await runner.release_memory()
            await runner.acquire()  # a free slot first: the queue fills while all are busy
            await queue.wait_for_company(self.clock())
            free = self.policy.workers - runner.busy + 1  # idle slots, the one just acquired included
            cap = self.batch_pairs
            window = queue.take_window(self.clock(), None if cap is None else cap * free)
            batches = self._plan(window, free, cap)
            if not batches:
                runner.release()
            for j, chunk in enumerate(batches):
                if j > 0:
                    await runner.acquire()
                runner.launch(chunk)

    def _cut(self, window: list[Item], free: int, cap: int | None) -> list[list[Item]]:
        batches = cut_batches([it.n_tokens for it in window], self.policy.max_batch_tokens, cap)
        return [[window[i] for i in idx] for idx in split_for_idle(batches, free)]

    def _plan(self, window: list[Item], free: int, cap: int | None) -> list[list[Item]]:
        """The window's batches, once every request that cannot end by its deadline is dropped.

        With a known speed, the batches are laid out on the run slots (`plan_finish`: the idle ones
        now, the busy ones when their batch should end); a request whose last pair would end after
        its deadline is failed whole (DeadlineExceeded) and the rest is cut again.
        """
        batches = self._cut(window, free, cap)
        speed = self.pairs_per_s
        if not speed or all(it.deadline is None for it in window):
            return batches
        for _ in range(3):  # dropping shortens the batches: cut again, check again (a few times at most)
            now = self.clock()
            ends = plan_finish([len(b) for b in batches], self._runner.slot_free_at(now), speed / self.policy.workers)
            finish = finish_times([[it.request for it in b] for b in batches], ends)
            late = [r for r, end in finish.items() if r.deadline is not None and end > r.deadline]
            if not late:
                return batches
            for request in late:
                self._queue.fail_request(request, too_late(request, finish[request] - now, now, self.jobs.unit))
            window = [it for it in window if not it.future.done()]
            batches = self._cut(window, free, cap)
        return batches
