"""The Relabel stream answers every pair — with its relation or its own error — and goes on; only
stream-level problems (not ready, deadline, cancel) end it. Over a real loopback port."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from server_fakes import BOOM, FakeClassifier, memory, serving, until

from writegate.server import validate
from writegate.server.interceptors import LoggingInterceptor, MetricsInterceptor, wrap_handler
from writegate.server.metrics import Metrics
from writegate.server.service import RELABEL_DEPTH, relabel_window_for
from writegate.v1 import writegate_pb2 as pb

INTERNAL = grpc.StatusCode.INTERNAL.value[0]
RESOURCE_EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]


def pair(i: int, new_text: str = "she moved") -> pb.RelabelRequest:
    return pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}", "old"), new=memory(f"n{i}", new_text))


async def test_a_failed_batch_is_an_error_for_its_pairs_and_the_stream_goes_on() -> None:
    # windows of one pair, batches of one pair (12+ tokens each, 16 a batch): only BOOM's batch fails
    fake = FakeClassifier(tokens_per_word=3)
    async with serving(fake, relabel_window=1, max_batch_tokens=16) as (_app, _channel, stub):
        out = [r async for r in stub.Relabel(iter([pair(0), pair(1, f"a {BOOM} here"), pair(2)]), timeout=10)]
    assert [(r.pair_id, r.WhichOneof("result")) for r in out] == [
        ("p0", "relation"),
        ("p1", "error"),
        ("p2", "relation"),
    ]
    assert out[1].error.code == INTERNAL
    assert "RuntimeError: boom" in out[1].error.message
    assert [r.relation.label for r in (out[0], out[2])] == [pb.LABEL_SUPERSEDES] * 2


async def test_a_full_queue_is_an_error_for_that_window_and_the_stream_goes_on() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake, max_queue_pairs=4) as (app, _channel, stub):
        fake.hold()
        one = pb.ClassifyRequest(memory=memory("n", "hold"), candidates=[memory("c")])
        running = asyncio.ensure_future(stub.Classify(one, timeout=10))
        assert await asyncio.to_thread(fake.entered.wait, 5)  # the running batch no longer counts
        four = pb.ClassifyRequest(memory=memory("n", "hold"), candidates=[memory(f"c{i}") for i in range(4)])
        held = asyncio.ensure_future(stub.Classify(four, timeout=10))
        await asyncio.wait_for(until(lambda: app.batcher.queue_depth == 4), 5)  # the queue is full

        sent: asyncio.Queue[pb.RelabelRequest | None] = asyncio.Queue()

        async def requests() -> AsyncIterator[pb.RelabelRequest]:
            while (req := await sent.get()) is not None:
                yield req

        call = stub.Relabel(requests(), timeout=10)
        sent.put_nowait(pair(0))
        busy = await call.read()
        assert (busy.pair_id, busy.WhichOneof("result"), busy.error.code) == ("p0", "error", RESOURCE_EXHAUSTED)
        assert busy.error.message.startswith("server busy: the queue holds 4 pairs")
        fake.release()
        assert len((await running).relations) == 1 and len((await held).relations) == 4
        sent.put_nowait(pair(1))
        sent.put_nowait(None)
        rest = []
        while (r := await call.read()) is not grpc.aio.EOF:
            rest.append(r)
        assert await call.code() == grpc.StatusCode.OK
    assert [(r.pair_id, r.WhichOneof("result")) for r in rest] == [("p1", "relation")]


async def test_the_deadline_still_ends_the_stream() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake) as (_app, _channel, stub):
        fake.hold()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            _ = [r async for r in stub.Relabel(iter([pair(0), pair(1)]), timeout=0.3)]
        fake.release()
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_a_relabel_window_over_the_queue_capacity_is_shrunk_so_a_lone_stream_fits() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake, max_queue_pairs=8) as (app, _channel, stub):
        windows: list[int] = []
        real_submit = app.batcher.submit

        async def recording_submit(pairs: Any, **kwargs: Any) -> Any:
            windows.append(len(pairs))
            return await real_submit(pairs, **kwargs)

        app.batcher.submit = recording_submit  # type: ignore[method-assign]
        fake.hold()
        call = stub.Relabel(iter([pair(i) for i in range(40)]), timeout=10)
        await asyncio.wait_for(until(lambda: len(windows) == RELABEL_DEPTH + 2), 5)  # the most in flight
        fake.release()
        out = [r async for r in call]
    assert [(r.pair_id, r.WhichOneof("result")) for r in out] == [(f"p{i}", "relation") for i in range(40)]
    assert max(windows) <= 8 // (RELABEL_DEPTH + 2)


@pytest.mark.parametrize(
    ("window", "max_queue_pairs", "expected"),
    [(256, 8192, 256), (256, 512, 128), (256, 8, 2), (256, 3, 1), (1, 1, 1), (5, 1_000_000, 5)],
    ids=["default", "bench-queue", "small-queue", "tiny-queue", "one", "huge-queue"],
)
def test_relabel_window_for(window: int, max_queue_pairs: int, expected: int) -> None:
    assert relabel_window_for(window, max_queue_pairs) == expected


@pytest.mark.parametrize(
    ("max_candidates", "max_queue_pairs", "expected"),
    [(256, 8192, 256), (10_000, 8192, 8192), (64, 16, 16), (16, 16, 16)],
    ids=["default", "over-default-queue", "over-small-queue", "equal"],
)
def test_max_candidates_is_clamped_to_the_queue(max_candidates: int, max_queue_pairs: int, expected: int) -> None:
    limits = validate.Limits(max_candidates=max_candidates)
    assert validate.limits_for_queue(limits, max_queue_pairs).max_candidates == expected


# -- a client that cancels: CANCELLED in metrics, never a WARNING ---------------------------------


class _Context:
    """The bits of a ServicerContext the observers read (a call with time left, no code set)."""

    def code(self) -> None:
        return None

    def time_remaining(self) -> float:
        return 10.0


@pytest.mark.parametrize("observer", ["metrics", "logging"], ids=["metrics", "logging"])
async def test_a_stream_closed_by_a_client_cancel_counts_as_cancelled(
    observer: str, caplog: pytest.LogCaptureFixture
) -> None:
    # gRPC closes the handler's generator (GeneratorExit at its `yield`) when the client cancels
    # while a response is being written; that is a cancel, not an UNKNOWN server failure.
    async def handler(requests: Any, context: Any) -> AsyncIterator[pb.RelabelResponse]:
        async for req in requests:
            yield pb.RelabelResponse(pair_id=req.pair_id)

    async def requests() -> AsyncIterator[pb.RelabelRequest]:
        for i in range(3):
            yield pair(i)

    metrics = Metrics()
    logger = logging.getLogger("test.writegate.cancel")
    interceptor = MetricsInterceptor(metrics) if observer == "metrics" else LoggingInterceptor(logger)
    wrapped = wrap_handler(grpc.stream_stream_rpc_method_handler(handler), "Relabel", interceptor.begin)
    stream = wrapped.stream_stream(requests(), _Context())
    with caplog.at_level(logging.DEBUG, logger=logger.name):
        assert (await stream.__anext__()).pair_id == "p0"
        await stream.aclose()
    if observer == "metrics":
        counts = {
            code: metrics.requests.labels(method="Relabel", code=code)._value.get() for code in ("CANCELLED", "UNKNOWN")
        }
        assert counts == {"CANCELLED": 1, "UNKNOWN": 0}
    else:
        assert [(r.levelno, r.getMessage().split(" ")[:2]) for r in caplog.records] == [
            (logging.INFO, ["Relabel", "CANCELLED"])
        ]
