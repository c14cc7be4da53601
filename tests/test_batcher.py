"""The dynamic batcher: token budget, length sorting, deadlines, bounded queue, failure isolation.

No time.sleep: the fake classifier's `gate` holds the worker inside a batch while the test
queues more work; `until()` waits (bounded) for a condition on the batcher's state.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from server_fakes import BOOM, T0, FakeClassifier, expected_label

from writegate.classifier.batcher import Batcher, QueuePolicy
from writegate.classifier.batcher.forming import cut_batches, plan_finish, split_for_idle
from writegate.classifier.batcher.policy import queue_pairs_for
from writegate.classifier.types import Pair, Side
from writegate.errors import BatcherClosed, BatchFailed, DeadlineExceeded, QueueFull


def pair(new_text: str, existing_text: str = "e") -> Pair:
    return Pair(existing=Side(text=existing_text, observed_at=T0), new=Side(text=new_text, observed_at=T0))


def words(n: int, last: str = "x") -> str:
    return " ".join(["w"] * (n - 1) + [last])


def batcher_for(fake: FakeClassifier, *, clock: Any = None, observer: Any = None, **policy: Any) -> Batcher:
    """A Batcher around `fake` with the policy `QueuePolicy(**policy)`."""
    options: dict[str, Any] = {"observer": observer} | ({} if clock is None else {"clock": clock})
    return Batcher(fake, QueuePolicy(**policy), **options)


async def until(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not cond():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(wait(), timeout)


@contextlib.asynccontextmanager
async def gated_batcher(**settings: Any) -> AsyncIterator[tuple[Batcher, FakeClassifier, threading.Event]]:
    """A started Batcher (max_batch_tokens 64, max_wait_ms 0 unless given) around a FakeClassifier
    whose runs wait at a closed gate; the gate opens and the batcher closes on exit."""
    gate = threading.Event()
    fake = FakeClassifier(gate=gate)
    batcher = batcher_for(fake, **{"max_batch_tokens": 64, "max_wait_ms": 0, **settings})
    await batcher.start()
    try:
        yield batcher, fake, gate
    finally:
        gate.set()
        await batcher.close()


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize(
    ("lengths", "budget", "expected"),
    [
        ([], 100, []),
        ([10], 5, [[0]]),
        ([10, 10, 10], 30, [[0, 1, 2]]),
        ([10, 10, 10], 29, [[0, 1], [2]]),
        ([30, 5, 20, 6], 40, [[1, 3], [2], [0]]),
        ([8, 8, 8, 8, 64], 64, [[0, 1, 2, 3], [4]]),
    ],
    ids=["empty", "one-over-budget", "exact-fit", "one-short", "sorted-by-length", "long-alone"],
)
def test_cut_batches(lengths: list[int], budget: int, expected: list[list[int]]) -> None:
    batches = cut_batches(lengths, budget)
    assert batches == expected
    for b in batches:
        assert len(b) == 1 or len(b) * max(lengths[i] for i in b) <= budget


async def test_results_in_request_order_with_labels() -> None:
    fake = FakeClassifier()
    batcher = batcher_for(fake, max_batch_tokens=64, max_wait_ms=0)
    await batcher.start()
    try:
        texts = ["she moved to London", "never said that", "also has a cat", "hello again", "unrelated fact"]
        preds = await batcher.submit([pair(t) for t in texts])
        assert [p.label for p in preds] == [expected_label(t) for t in texts]
        assert batcher.queue_depth == 0
    finally:
        await batcher.close()


async def test_batches_respect_the_token_budget_and_sort_by_length() -> None:
    budget = 40
    async with gated_batcher(max_batch_tokens=budget, lookahead_batches=8) as (batcher, fake, gate):
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        sizes = [17, 2, 15, 3, 16, 2, 4]  # words of NEW; pair length = 3 + 1 + words
        tasks = [asyncio.ensure_future(batcher.submit([pair(words(n, f"t{n}-{i}"))])) for i, n in enumerate(sizes)]
        await until(lambda: len(batcher._queue.pending) == len(sizes))
        gate.set()
        await first
        results = await asyncio.gather(*tasks)
        assert all(len(r) == 1 for r in results)
        later = fake.batch_shapes[1:]
        assert sum(n for n, _ in later) == len(sizes)
        for n, length in later:
            assert n == 1 or n * length <= budget, fake.batch_shapes
        # sorted: every batch's pairs are no longer than the next batch's
        lengths = [[4 + int(k.split("-")[0].rsplit("t", 1)[1]) for k in keys] for keys in fake.batches[1:]]
        flat = [x for b in lengths for x in b]
        assert flat == sorted(flat)
        assert len(later) < len(sizes)  # pairs of different requests shared batches


async def test_full_queue_answers_at_once() -> None:
    async with gated_batcher(max_queue_pairs=4) as (batcher, fake, gate):
        held = asyncio.ensure_future(batcher.submit([pair("a"), pair("b"), pair("c")]))
        await until(lambda: batcher.queue_depth == 3)
        with pytest.raises(QueueFull, match="limit of 4"):
            await batcher.submit([pair("d"), pair("e")])
        gate.set()
        assert len(await held) == 3
        assert len(await batcher.submit([pair("d"), pair("e")])) == 2  # room again


async def test_a_request_larger_than_the_bound_is_taken_when_nothing_is_queued() -> None:
    async with gated_batcher(max_queue_pairs=4) as (batcher, fake, gate):
        big = asyncio.ensure_future(batcher.submit([pair(f"big {i}") for i in range(6)]))  # alone: taken
        await until(lambda: batcher.queue_depth == 6 or fake.entered.is_set())
        with pytest.raises(QueueFull, match="limit of 4"):
            await batcher.submit([pair("small")])  # not alone: the bound holds
        gate.set()
        assert len(await big) == 6


async def test_expired_pairs_are_dropped_before_they_run() -> None:
    clock = FakeClock()
    async with gated_batcher(clock=clock) as (batcher, fake, gate):
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        late = asyncio.ensure_future(batcher.submit([pair("too late one"), pair("too late two")], deadline=clock.t + 5))
        on_time = asyncio.ensure_future(batcher.submit([pair("in time")], deadline=clock.t + 50))
        await until(lambda: len(batcher._queue.pending) == 3)
        clock.t += 10  # `late` expires while the worker is busy
        gate.set()
        await first
        with pytest.raises(DeadlineExceeded, match="before the pair ran"):
            await late
        assert len(await on_time) == 1
        ran = [k for batch in fake.batches for k in batch]
        assert not any("too late" in k for k in ran)
        assert batcher.queue_depth == 0


async def test_already_expired_deadline_is_refused() -> None:
    fake = FakeClassifier()
    clock = FakeClock()
    batcher = batcher_for(fake, max_wait_ms=0, clock=clock)
    await batcher.start()
    try:
        with pytest.raises(DeadlineExceeded, match="before the pairs were queued"):
            await batcher.submit([pair("x")], deadline=clock.t - 1)
        assert fake.batches == [] and batcher.queue_depth == 0
    finally:
        await batcher.close()


async def test_failed_batch_fails_only_its_requests_and_worker_survives() -> None:
    async with gated_batcher(max_batch_tokens=8) as (batcher, fake, gate):  # every pair is its own batch
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        bad = asyncio.ensure_future(batcher.submit([pair(BOOM)]))
        good = asyncio.ensure_future(batcher.submit([pair("moved")]))
        await until(lambda: len(batcher._queue.pending) == 2)
        gate.set()
        await first
        with pytest.raises(BatchFailed, match="RuntimeError: boom"):
            await bad
        assert [p.label.value for p in await good] == ["supersedes"]
        assert batcher.running
        assert [p.label.value for p in await batcher.submit([pair("also")])] == ["elaborates"]


async def test_cancelled_request_is_skipped() -> None:
    async with gated_batcher() as (batcher, fake, gate):
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        gone = asyncio.ensure_future(batcher.submit([pair("cancelled one")]))
        kept = asyncio.ensure_future(batcher.submit([pair("kept")]))
        await until(lambda: len(batcher._queue.pending) == 2)
        gone.cancel()
        gate.set()
        await first
        assert len(await kept) == 1
        assert not any("cancelled one" in k for batch in fake.batches for k in batch)
        assert batcher.queue_depth == 0


async def test_budget_reached_does_not_wait_for_max_wait() -> None:
    fake = FakeClassifier()
    batcher = batcher_for(fake, max_batch_tokens=16, max_wait_ms=60_000)  # would hang the test if it waited
    await batcher.start()
    try:
        preds = await asyncio.wait_for(batcher.submit([pair(words(6)), pair(words(6))]), 5)
        assert len(preds) == 2
    finally:
        await batcher.close()


async def test_closed_batcher_refuses_and_fails_waiting_pairs() -> None:
    gate = threading.Event()
    fake = FakeClassifier(gate=gate)
    batcher = batcher_for(fake, max_wait_ms=0)
    await batcher.start()
    first = asyncio.ensure_future(batcher.submit([pair("hold")]))
    assert await asyncio.to_thread(fake.entered.wait, 5)
    waiting = asyncio.ensure_future(batcher.submit([pair("waiting")]))
    await until(lambda: len(batcher._queue.pending) == 1)
    await batcher.close()
    gate.set()
    for task in (first, waiting):
        with pytest.raises(BatcherClosed, match="shutting down"):
            await task
    with pytest.raises(BatcherClosed, match="not running"):
        await batcher.submit([pair("after")])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_batch_tokens": 0}, "max_batch_tokens"),
        ({"max_queue_pairs": 0}, "max_queue_pairs"),
        ({"workers": 0}, "workers"),
    ],
    ids=["tokens", "queue", "workers"],
)
def test_bad_settings(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        QueuePolicy(**kwargs)


@pytest.mark.parametrize(
    ("batches", "slots", "expected"),
    [
        ([], 2, []),
        ([list(range(16))], 2, [list(range(8)), list(range(8, 16))]),
        ([list(range(16))], 1, [list(range(16))]),
        ([list(range(7))], 2, [list(range(7))]),
        ([list(range(8))], 4, [[0, 1, 2, 3], [4, 5, 6, 7]]),
        ([[0, 1], list(range(2, 12))], 3, [[0, 1], [2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]),
        ([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10]], 2, [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10]]),
    ],
    ids=["empty", "halved", "one-slot", "too-small", "no-quarter-under-minimum", "largest-first", "enough-batches"],
)
def test_split_for_idle(batches: list[list[int]], slots: int, expected: list[list[int]]) -> None:
    out = split_for_idle(batches, slots)
    assert out == expected
    assert sorted(i for b in out for i in b) == sorted(i for b in batches for i in b)


async def test_workers_run_batches_at_once() -> None:
    async with gated_batcher(workers=2) as (batcher, fake, gate):
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        second = asyncio.ensure_future(batcher.submit([pair("also has a cat")]))
        await until(lambda: fake.active == 2)  # the second batch did not wait for the first
        third = asyncio.ensure_future(batcher.submit([pair("never said that")]))
        await until(lambda: len(batcher._queue.pending) == 1)  # no third slot: it queues
        gate.set()
        results = await asyncio.gather(first, second, third)
        assert [r[0].label for r in results] == [
            expected_label(t) for t in ("hold", "also has a cat", "never said that")
        ]
        assert fake.max_active == 2 and batcher.queue_depth == 0


async def test_one_request_is_spread_over_idle_workers() -> None:
    fake = FakeClassifier()
    batcher = batcher_for(fake, max_batch_tokens=4096, max_wait_ms=0, workers=2)
    await batcher.start()
    try:
        texts = [f"fact number {i}" for i in range(16)]
        preds = await batcher.submit([pair(t) for t in texts])
        assert [p.label for p in preds] == [expected_label(t) for t in texts]
        assert sorted(n for n, _ in fake.batch_shapes) == [8, 8]
    finally:
        await batcher.close()


async def test_one_worker_runs_one_batch_at_a_time() -> None:
    async with gated_batcher(workers=1) as (batcher, fake, gate):
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        second = asyncio.ensure_future(batcher.submit([pair("also has a cat")]))
        await until(lambda: len(batcher._queue.pending) == 1)
        gate.set()
        await asyncio.gather(first, second)
        assert fake.max_active == 1 and len(fake.batch_shapes) == 2


async def test_close_fails_pairs_of_every_running_batch() -> None:
    async with gated_batcher(workers=2) as (batcher, fake, gate):
        running = []
        for i, text in enumerate(("hold", "also has a cat")):  # one at a time: two batches, not one of two pairs
            running.append(asyncio.ensure_future(batcher.submit([pair(text)])))
            await until(lambda i=i: fake.active == i + 1)
        await batcher.close()
        gate.set()
        for task in running:
            with pytest.raises(BatcherClosed, match="shutting down"):
                await task


# -- speed, deadline admission, queue sizing, idle memory release -------------------------------


@pytest.mark.parametrize(
    ("pairs_per_s", "wait_ms", "floor", "ceiling", "expected"),
    [
        (400.0, 1500, 256, 65_536, 600),
        (400.0, 1000, 256, 65_536, 400),
        (100.0, 1500, 256, 65_536, 256),
        (1e6, 1500, 256, 65_536, 65_536),
        (333.3, 1000, 1, 65_536, 334),
        (0.0, 1500, 256, 65_536, 256),
        (float("nan"), 1500, 256, 65_536, 256),
    ],
    ids=["cpu-1.5s", "cpu-1s", "slow-floor", "fast-ceiling", "rounds-up", "zero-speed", "nan-speed"],
)
def test_queue_pairs_for(pairs_per_s: float, wait_ms: float, floor: int, ceiling: int, expected: int) -> None:
    assert queue_pairs_for(pairs_per_s, wait_ms, floor=floor, ceiling=ceiling) == expected


def test_queue_pairs_for_refuses_a_floor_over_the_ceiling() -> None:
    with pytest.raises(ValueError, match="floor"):
        queue_pairs_for(100.0, 1000, floor=10, ceiling=5)


class CountingObserver:
    def __init__(self) -> None:
        self.pairs = 0

    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None:
        self.pairs += size

    def queue_depth(self, pairs: int) -> None:
        pass


@pytest.mark.parametrize(
    ("workers", "budget"), [(1, 64), (2, 64), (2, 4096)], ids=["one-worker", "two-workers", "big-budget"]
)
async def test_measure_fills_a_batch_per_worker_and_is_not_traffic(workers: int, budget: int) -> None:
    fake, observer = FakeClassifier(), CountingObserver()
    batcher = batcher_for(fake, max_batch_tokens=budget, max_wait_ms=0, workers=workers, observer=observer)
    await batcher.start()
    try:
        speed = await batcher.measure([pair("moved"), pair(words(12))], max_pairs=512)
        ran = sum(n for n, _ in fake.batch_shapes)
        longest = max(len(row) for row in fake.encode([pair(words(12))]).rows)
        assert ran >= min(512, workers * budget // longest)  # at least a batch per worker (or the cap)
        assert ran <= 512
        assert speed > 0 and batcher.pairs_per_s == speed
        assert observer.pairs == 0  # not reported as classified pairs
        await batcher.submit([pair("x")])
        assert observer.pairs == 1
    finally:
        await batcher.close()


@pytest.mark.parametrize(
    ("pairs_per_s", "queued", "n", "remaining", "refused", "runs"),
    [
        (None, 30, 10, 0.01, False, True),
        (100.0, 30, 10, 0.45, False, True),
        (100.0, 30, 10, 0.2, True, False),
        (100.0, 0, 10, 0.01, False, False),
        (1000.0, 30, 10, 0.05, False, True),
    ],
    ids=["speed-unknown", "fits", "queue-ahead-too-long", "empty-queue-own-pairs-not-counted", "fast-enough"],
)
async def test_a_deadline_the_queue_cannot_meet_is_refused_at_once(
    pairs_per_s: float | None, queued: int, n: int, remaining: float, refused: bool, runs: bool
) -> None:
    """Admission counts the pairs queued ahead only; the request's own batch is checked when it is
    formed (`runs` False: admitted, then dropped there — its 10 pairs take 0.1 s, it has 0.01 s)."""
    clock = FakeClock()
    async with gated_batcher(clock=clock) as (batcher, fake, gate):
        batcher.speed.pairs_per_s = pairs_per_s
        held = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        ahead = asyncio.ensure_future(batcher.submit([pair(f"q{i}") for i in range(queued)])) if queued else None
        await until(lambda: batcher.queue_depth == queued)
        submitted = asyncio.ensure_future(
            batcher.submit([pair(f"n{i}") for i in range(n)], deadline=clock.t + remaining)
        )
        if refused:
            with pytest.raises(DeadlineExceeded, match="is sooner than the"):
                await submitted
            assert batcher.queue_depth == queued  # nothing admitted
        else:
            await until(lambda: batcher.queue_depth == queued + n)
        gate.set()
        await held
        if ahead is not None:
            await ahead
        if runs:
            assert len(await submitted) == n
        elif not refused:
            with pytest.raises(DeadlineExceeded, match="need to run: not run"):
                await submitted
            assert not any(k.split("|")[1].startswith("n") for batch in fake.batches for k in batch)


class ReleasingFake(FakeClassifier):
    def __init__(self) -> None:
        super().__init__()
        self.released = 0

    def release_memory(self) -> None:
        self.released += 1


async def test_idle_memory_is_released_once_per_idle_period() -> None:
    fake = ReleasingFake()
    batcher = batcher_for(fake, max_wait_ms=0, idle_release_s=0)
    await batcher.start()
    try:
        assert batcher.releases == 0  # nothing ran yet: nothing to release
        await batcher.submit([pair("moved")])
        await until(lambda: fake.released == 1)
        await batcher.submit([pair("also")])
        await until(lambda: fake.released == 2)
        assert batcher.releases == 2
    finally:
        await batcher.close()


class HoldingFake(ReleasingFake):
    """Batches of two or more pairs wait at `gate`; single pairs run at once."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def _run(self, batch: Any) -> Any:
        if batch.size < 2:
            return FakeClassifier(gate=None)._run(batch)
        return super()._run(batch)


async def test_memory_is_not_released_while_a_batch_runs() -> None:
    fake = HoldingFake()
    batcher = batcher_for(fake, max_wait_ms=0, workers=2, idle_release_s=0)
    await batcher.start()
    try:
        held = asyncio.ensure_future(batcher.submit([pair("hold one"), pair("hold two")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        await batcher.submit([pair("moved")])  # done on the other worker while the held batch runs
        for _ in range(50):
            await asyncio.sleep(0)
        assert fake.released == 0
        fake.gate.set()
        assert len(await held) == 2
        await until(lambda: fake.released == 1)
    finally:
        fake.gate.set()
        await batcher.close()


def test_onnx_release_memory_keeps_predictions(tiny_model_dir: Any) -> None:
    from writegate.classifier.model import Classifier

    model = Classifier.load(tiny_model_dir, "onnx", threads=1)
    from writegate.api.normalizing import with_records

    pairs = with_records([pair("she moved to London"), pair(words(40))])
    before = model.predict(pairs)
    model.release_memory()
    assert [p.probabilities for p in model.predict(pairs)] == [p.probabilities for p in before]


class TimedFake(FakeClassifier):
    """Each batch takes `seconds` on the fake clock."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        super().__init__(gate=threading.Event())
        self.clock, self.seconds = clock, seconds

    def _run(self, batch: Any) -> Any:
        out = super()._run(batch)
        self.clock.t += self.seconds
        return out


@pytest.mark.parametrize(
    ("together", "speed", "bound"),
    [(True, 2.0, 3), (False, None, 100)],
    ids=["saturated-measures", "one-at-a-time-does-not"],
)
async def test_speed_under_load_resizes_the_queue(together: bool, speed: float | None, bound: int) -> None:
    clock = FakeClock()
    fake = TimedFake(clock, 0.5)  # one pair per batch, 0.5 s each: 2 pairs/s
    batcher = batcher_for(
        fake, max_batch_tokens=8, max_wait_ms=0, max_queue_pairs=100, clock=clock, queue_wait_ms=1500, queue_floor=1
    )
    await batcher.start()
    try:
        if together:
            tasks = [asyncio.ensure_future(batcher.submit([pair(f"p{i}")])) for i in range(6)]
            await until(lambda: batcher.queue_depth == 5)  # one runs (at the gate), five wait
            fake.gate.set()
            await asyncio.gather(*tasks)
        else:
            fake.gate.set()
            for i in range(6):
                await batcher.submit([pair(f"p{i}")])
        assert (batcher.pairs_per_s, batcher.max_queue_pairs) == (speed, bound)
    finally:
        fake.gate.set()
        await batcher.close()


# -- overload: deadlines checked when a batch is formed, batches sized by time, shedding ---------


@pytest.mark.parametrize(
    ("lengths", "budget", "max_pairs", "expected"),
    [
        ([5] * 16, 4096, None, [list(range(16))]),
        ([5] * 16, 4096, 10, [list(range(8)), list(range(8, 16))]),
        ([5] * 7, 4096, 3, [[0, 1, 2], [3, 4], [5, 6]]),
        ([5] * 6, 15, 4, [[0, 1, 2], [3, 4, 5]]),
        ([5, 50, 5], 4096, 1, [[0], [2], [1]]),
    ],
    ids=["no-cap", "even-halves", "near-equal-parts", "tokens-bind-first", "one-each-by-length"],
)
def test_cut_batches_caps_pairs_per_batch(
    lengths: list[int], budget: int, max_pairs: int | None, expected: list[list[int]]
) -> None:
    assert cut_batches(lengths, budget, max_pairs) == expected


@pytest.mark.parametrize(
    ("sizes", "slots", "rate", "expected"),
    [
        ([10], [0.0], 10.0, [1.0]),
        ([10, 10], [0.0], 10.0, [1.0, 2.0]),
        ([10, 10], [0.0, 0.0], 10.0, [1.0, 1.0]),
        ([10, 10], [0.0, 0.5], 10.0, [1.0, 1.5]),
        ([10, 10, 5], [0.0, 0.5], 10.0, [1.0, 1.5, 1.5]),
    ],
    ids=["one", "queued-behind", "side-by-side", "busy-slot-later", "earliest-free-slot"],
)
def test_plan_finish(sizes: list[int], slots: list[float], rate: float, expected: list[float]) -> None:
    assert plan_finish(sizes, slots, rate) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("wait_ms", "batch_ms", "speed", "expected"),
    [(1500.0, None, 400.0, 600), (1500.0, 500.0, 400.0, 400), (1000.0, 125.0, 100.0, 88), (1500.0, 187.5, None, 77)],
    ids=["no-batch-share", "less-one-batch", "rounds-up", "speed-unknown-given-bound"],
)
def test_the_sized_bound_is_the_queue_wait_less_one_batch(
    wait_ms: float, batch_ms: float | None, speed: float | None, expected: int
) -> None:
    policy = QueuePolicy(max_queue_pairs=77, queue_wait_ms=wait_ms, batch_ms=batch_ms, queue_floor=1)
    assert policy.queue_bound(speed) == expected


async def test_a_request_whose_batch_cannot_end_by_its_deadline_is_dropped_before_it_runs() -> None:
    clock = FakeClock()
    async with gated_batcher(clock=clock) as (batcher, fake, gate):
        batcher.speed.pairs_per_s = 10.0  # one worker: 0.1 s a pair
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        doomed = asyncio.ensure_future(batcher.submit([pair("doomed one"), pair("doomed two")], deadline=clock.t + 1))
        kept = asyncio.ensure_future(batcher.submit([pair("kept")], deadline=clock.t + 50))
        await until(lambda: len(batcher._queue.pending) == 3)
        clock.t += 0.8  # 0.2 s left: not expired, but its batch (3 pairs: 0.3 s) would end after it
        gate.set()
        await first
        with pytest.raises(DeadlineExceeded, match="its 2 pairs need to run: not run"):
            await doomed
        assert len(await kept) == 1
        ran = [k for batch in fake.batches for k in batch]
        assert not any("doomed" in k for k in ran)
        assert batcher.queue_depth == 0


async def test_a_request_is_dropped_whole_when_its_last_batch_would_end_too_late() -> None:
    clock = FakeClock()
    async with gated_batcher(clock=clock, max_batch_tokens=8) as (batcher, fake, gate):  # one pair per batch
        batcher.speed.pairs_per_s = 10.0
        first = asyncio.ensure_future(batcher.submit([pair("hold")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        kept = asyncio.ensure_future(batcher.submit([pair("kept")], deadline=clock.t + 50))
        # its batches would end 0.2 s and 0.3 s after the window is formed: the first in time, the second not
        split = asyncio.ensure_future(batcher.submit([pair("split a"), pair("split b")], deadline=clock.t + 0.25))
        await until(lambda: len(batcher._queue.pending) == 3)
        gate.set()
        await first
        with pytest.raises(DeadlineExceeded, match="not run"):
            await split
        assert len(await kept) == 1
        assert not any("split" in k for batch in fake.batches for k in batch)  # neither half ran


class PerPairFake(FakeClassifier):
    """Each batch takes `per_pair` s a pair on the fake clock; `done_at` is when each pair's batch ended."""

    def __init__(self, clock: FakeClock, per_pair: float) -> None:
        super().__init__()
        self.clock, self.per_pair = clock, per_pair
        self.done_at: dict[str, float] = {}

    def _run(self, batch: Any) -> Any:
        out = super()._run(batch)
        self.clock.t += batch.size * self.per_pair
        return out

    def label(self, prepared: Any, logits: Any) -> Any:
        for key in self.keys_of(prepared):
            self.done_at[key] = self.clock.t
        return super().label(prepared, logits)


@pytest.mark.parametrize("deadline", [None, 0.6], ids=["no-deadline", "deadline-under-the-queue-wait"])
async def test_under_overload_accepted_requests_end_near_the_queue_wait_and_no_late_pair_runs(
    deadline: float | None,
) -> None:
    """40 closed-loop clients of 4-pair requests against 100 pairs/s (fake clock), queue wait 1 s.

    Accepted requests end within 1.25 × the queue wait (their own batch included); with a deadline
    under it, every request either ends in time or is refused or dropped with none of its pairs run.
    """
    clock = FakeClock()
    fake = PerPairFake(clock, 0.01)
    batcher = batcher_for(
        fake, max_batch_tokens=4096, max_wait_ms=0, clock=clock, queue_wait_ms=1000, batch_ms=125, queue_floor=4
    )
    await batcher.start()
    batcher.speed.pairs_per_s = 100.0
    latencies: list[float] = []
    failed: list[str] = []  # keys' prefixes of requests not answered
    outcomes: list[str] = []
    done = asyncio.Event()
    answered = asyncio.Condition()  # a refused client tries again once another request was answered

    async def next_answer() -> None:
        async with answered:
            await answered.wait()

    async def client(c: int) -> None:
        i = 0
        while not done.is_set():
            name = f"r{c}-{i}"
            i += 1
            start = clock()
            try:
                await batcher.submit(
                    [pair(f"{name} p{j}") for j in range(4)], deadline=None if deadline is None else start + deadline
                )
            except QueueFull:
                await next_answer()
                continue
            except DeadlineExceeded:
                failed.append(name)
                outcomes.append("late")
                await next_answer()
                continue
            latencies.append(max(fake.done_at[f"e|{name} p{j}"] for j in range(4)) - start)
            outcomes.append("ok")
            if len(latencies) >= 150:
                done.set()
            async with answered:
                answered.notify_all()

    try:
        await asyncio.wait_for(asyncio.gather(*(client(c) for c in range(40))), 30)
    finally:
        await batcher.close()
    assert max(latencies) <= 1.25, sorted(latencies)[-5:]
    if deadline is not None:
        assert max(latencies) <= deadline
        ran = {k.split("|")[1].rsplit(" ", 1)[0] for batch in fake.batches for k in batch}
        assert ran.isdisjoint(failed)  # no work for a request that missed its deadline


async def test_batches_hold_what_one_worker_runs_in_batch_ms() -> None:
    fake = FakeClassifier()
    batcher = batcher_for(fake, max_batch_tokens=4096, max_wait_ms=0, workers=1, batch_ms=100)
    await batcher.start()
    try:
        batcher.speed.pairs_per_s = 50.0  # 100 ms: 5 pairs
        assert batcher.batch_pairs == 5
        await batcher.submit([pair(f"fact {i}") for i in range(12)])
        assert sorted(n for n, _ in fake.batch_shapes) == [4, 4, 4]  # 12 pairs in near-equal batches of ≤ 5
    finally:
        await batcher.close()


async def test_shed_fails_queued_requests_at_once_and_lets_running_ones_finish() -> None:
    async with gated_batcher(max_batch_tokens=8) as (batcher, fake, gate):  # one pair per batch
        running = asyncio.ensure_future(batcher.submit([pair("running")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        queued = asyncio.ensure_future(batcher.submit([pair("queued a"), pair("queued b")]))
        await until(lambda: len(batcher._queue.pending) == 2)
        assert batcher.shed("shutting down: not run") == 1
        with pytest.raises(BatcherClosed, match="shutting down: not run"):
            await asyncio.wait_for(queued, 5)  # at once: the running batch still holds the gate
        assert not running.done()
        with pytest.raises(BatcherClosed, match="shutting down: not run"):
            await batcher.submit([pair("new")])
        with pytest.raises(BatcherClosed, match="shutting down: not run"):
            batcher.check_admission(1)
        assert batcher.queue_depth == 0
        gate.set()
        assert len(await running) == 1
        assert not any("queued" in k or "new" in k for batch in fake.batches for k in batch)


async def test_shed_lets_a_request_with_pairs_on_the_model_finish() -> None:
    async with gated_batcher(max_batch_tokens=8, lookahead_batches=1) as (batcher, fake, gate):  # 1 pair/batch
        started = asyncio.ensure_future(batcher.submit([pair("part a"), pair("part b")]))
        assert await asyncio.to_thread(fake.entered.wait, 5)  # "part a" runs; "part b" waits for the slot
        assert batcher.shed("shutting down") == 0
        gate.set()
        assert len(await started) == 2
