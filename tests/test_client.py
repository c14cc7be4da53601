"""`writegate.client`: typed sync and async clients, deadlines, gRPC's retries on UNAVAILABLE (over loopback servers)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import grpc
import pytest
from server_fakes import T0, FakeClassifier, running_server, until

from writegate.api.prepare import PrepareWriteResult, StateRole
from writegate.classifier.labels import Label
from writegate.client import AsyncClient, Client, RelabelPair, RelabelResult, RetryPolicy
from writegate.client.common import relabel_result
from writegate.errors import InputError
from writegate.normalizer.schema import Memory, Record
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc


def mem(id: str, text: str, days: int = 0) -> Memory:
    return Memory(id=id, subject="user:alice", text=text, observed_at=T0 + timedelta(days=days))


NEW = mem("n1", "User moved to London", days=30)
CANDIDATES = [mem("c1", "User works in EST"), mem("c2", "User has a dog")]


async def test_sync_client_is_typed_end_to_end() -> None:
    async with running_server() as (_app, target):

        def calls() -> tuple:
            with Client(target, timeout=5) as client:
                return (
                    client.prepare_write(NEW, CANDIDATES),
                    client.classify(NEW, CANDIDATES),
                    client.normalize(NEW),
                    client.model_info(),
                    list(
                        client.relabel(
                            RelabelPair(pair_id=f"p{i}", existing=c, new=NEW) for i, c in enumerate(CANDIDATES)
                        )
                    ),
                )

        result, relations, records, info, relabelled = await asyncio.to_thread(calls)
    assert isinstance(result, PrepareWriteResult)
    assert [r.label for r in result.relations] == [Label.SUPERSEDES, Label.SUPERSEDES]  # "moved"
    assert [s.role for s in result.candidate_states] == [StateRole.HISTORICAL, StateRole.HISTORICAL]
    assert [(e.source_id, e.target_id) for e in result.edges] == [("n1", "c1"), ("n1", "c2")]
    assert result.new_role is StateRole.CURRENT
    assert all(isinstance(r, Record) and r.subject == "user:alice" for r in result.records)
    assert [r.candidate_id for r in relations] == ["c1", "c2"]
    assert records == result.records
    assert info.name == "fake-model"
    assert [(r.pair_id, r.relation.candidate_id) for r in relabelled] == [("p0", "c1"), ("p1", "c2")]


async def test_async_client_is_typed_end_to_end() -> None:
    async with running_server() as (_app, target), AsyncClient(target, timeout=5) as client:
        result = await client.prepare_write(NEW, CANDIDATES)
        relations = await client.classify(NEW.model_dump(), [c.model_dump() for c in CANDIDATES])  # dicts work too
        info = await client.model_info()
        pairs = [{"pair_id": "x", "existing": CANDIDATES[0], "new": NEW}]
        relabelled = [r async for r in client.relabel(pairs)]
    assert [s.candidate_id for s in result.candidate_states] == ["c1", "c2"]
    assert [r.label for r in relations] == [Label.SUPERSEDES] * 2
    assert info.backend == "fake"
    assert relabelled[0].pair_id == "x" and relabelled[0].relation.label is Label.SUPERSEDES


async def test_relabel_results_carry_each_pairs_own_error() -> None:
    bad = mem("c\x00", "User works in EST")  # a NUL in the id: the server refuses this pair only
    pairs = [
        RelabelPair(pair_id="p0", existing=CANDIDATES[0], new=NEW),
        RelabelPair(pair_id="p1", existing=bad, new=NEW),
        RelabelPair(pair_id="p2", existing=CANDIDATES[1], new=NEW),
    ]
    async with running_server() as (_app, target):

        def sync_call() -> list[RelabelResult]:
            with Client(target, timeout=5) as client:
                return list(client.relabel(pairs))

        sync_results = await asyncio.to_thread(sync_call)
        async with AsyncClient(target, timeout=5) as client:
            async_results = [r async for r in client.relabel(pairs)]
    for results in (sync_results, async_results):
        assert [(r.pair_id, r.ok) for r in results] == [("p0", True), ("p1", False), ("p2", True)]
        assert [r.relation.candidate_id for r in (results[0], results[2])] == ["c1", "c2"]  # type: ignore[union-attr]
        assert results[1].relation is None and results[0].error is None
        error = results[1].error
        assert error is not None and error.code is grpc.StatusCode.INVALID_ARGUMENT
        assert (error.field, error.message) == ("requests[1].existing.id", "contains a control character (U+0000)")


@pytest.mark.parametrize(
    ("code", "message", "expected"),
    [
        (
            3,
            "requests[4].pair_id: duplicates requests[0].pair_id ('p')",
            (grpc.StatusCode.INVALID_ARGUMENT, "requests[4].pair_id", "duplicates requests[0].pair_id ('p')"),
        ),
        (
            8,
            "server busy: the queue holds 4 pairs",
            (grpc.StatusCode.RESOURCE_EXHAUSTED, None, "server busy: the queue holds 4 pairs"),
        ),
        (
            13,
            "the batch of 1 pairs failed: RuntimeError: boom",
            (grpc.StatusCode.INTERNAL, None, "the batch of 1 pairs failed: RuntimeError: boom"),
        ),
        (99, "from a newer server", (grpc.StatusCode.UNKNOWN, None, "from a newer server")),
    ],
    ids=["invalid-argument", "resource-exhausted", "internal", "unknown-code"],
)
def test_relabel_result_of_an_error_response(code: int, message: str, expected: tuple) -> None:
    result = relabel_result(pb.RelabelResponse(pair_id="p", error=pb.PairError(code=code, message=message)))
    assert (result.pair_id, result.ok, result.relation) == ("p", False, None)
    assert result.error is not None and (result.error.code, result.error.field, result.error.message) == expected


async def test_invalid_argument_becomes_input_error_naming_the_field() -> None:
    async with running_server(max_candidates=1) as (_app, target), AsyncClient(target, timeout=5) as client:
        with pytest.raises(InputError) as info:
            await client.prepare_write(NEW, CANDIDATES)
    assert info.value.field == "candidates"
    assert info.value.message == "has 2 candidates; the limit is 1"


async def test_sync_invalid_argument() -> None:
    async with running_server() as (_app, target):

        def call() -> None:
            with Client(target, timeout=5) as client:
                client.prepare_write(mem("", "no id"), CANDIDATES)

        with pytest.raises(InputError) as info:
            await asyncio.to_thread(call)
    assert (info.value.field, info.value.message) == ("memory.id", "is required")


async def test_deadline_is_not_retried() -> None:
    gate = threading.Event()
    gate.set()
    fake = FakeClassifier(gate=gate)
    async with running_server(fake) as (app, target), AsyncClient(target, timeout=0.3) as client:
        gate.clear()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await client.classify(NEW, CANDIDATES)
        gate.set()
        await asyncio.wait_for(until(lambda: _answered(app, "Classify") > 0), 10)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert _answered(app, "Classify") == 1  # one attempt reached the server


class socket_free_port:
    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused
        return self.sock.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


# -- retries: gRPC's retry policy; UNAVAILABLE only, within the deadline, a stream only before its first result --

U = grpc.StatusCode.UNAVAILABLE


def _answered(app: Any, method: str, code: str | None = None) -> int:
    """RPCs of `method` the server answered (with `code`, or any), from its own request counter."""
    return int(
        sum(
            sample.value
            for metric in app.metrics.registry.collect()
            for sample in metric.samples
            if sample.name == "writegate_requests_total"
            and sample.labels["method"] == method
            and (code is None or sample.labels["code"] == code)
        )
    )


def _relation_response(pair_id: str = "") -> Any:
    relation = pb.Relation(
        candidate_id="c1", label=pb.LABEL_SUPERSEDES, evidence=pb.EVIDENCE_MODEL, scores={"supersedes": 1.0}
    )
    return (
        pb.RelabelResponse(pair_id=pair_id, relation=relation) if pair_id else pb.ClassifyResponse(relations=[relation])
    )


class Scripted(pb_grpc.WriteGateServicer):
    """A servicer that ends each call with the next scripted status code, and answers once none is left.

    Args:
        codes: the status of each call in turn (an abort with the message `request: scripted <CODE>`).
        results_first: a Relabel stream answers this many pairs before its scripted status.
    """

    def __init__(self, *codes: grpc.StatusCode, results_first: int = 0) -> None:
        self.codes = list(codes)
        self.results_first = results_first
        self.attempts: list[int] = []  # gRPC's grpc-previous-rpc-attempts of each call that arrived (0: none)
        self.arrived: list[float] = []
        self.received: list[list[str]] = []  # each Relabel call's pair ids

    def _arrive(self, context: grpc.aio.ServicerContext) -> None:
        self.arrived.append(time.monotonic())
        self.attempts.append(int(dict(context.invocation_metadata()).get("grpc-previous-rpc-attempts", 0)))

    async def _end(self, context: grpc.aio.ServicerContext) -> None:
        if self.codes:
            code = self.codes.pop(0)
            await context.abort(code, f"request: scripted {code.name}")

    async def Classify(self, request: pb.ClassifyRequest, context: grpc.aio.ServicerContext) -> Any:
        self._arrive(context)
        await self._end(context)
        return _relation_response()

    async def Relabel(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> Any:
        self._arrive(context)
        ids = [r.pair_id async for r in request_iterator]
        self.received.append(ids)
        for pair_id in ids if not self.codes else ids[: self.results_first]:
            yield _relation_response(pair_id)
        await self._end(context)


@contextlib.asynccontextmanager
async def scripted(servicer: Scripted) -> Any:
    """A gRPC server on 127.0.0.1:<free port> with `servicer`; yields its target."""
    server = grpc.aio.server()
    pb_grpc.add_WriteGateServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(0)


WAYS = pytest.mark.parametrize("way", ["async", "sync"])


async def _classify(way: str, target: str, **options: Any) -> list[str]:
    """`classify(NEW, CANDIDATES)` with a new AsyncClient or Client: the candidate ids of the answer."""
    if way == "sync":

        def call() -> list[str]:
            with Client(target, **options) as client:
                return [r.candidate_id for r in client.classify(NEW, CANDIDATES)]

        return await asyncio.to_thread(call)
    async with AsyncClient(target, **options) as client:
        return [r.candidate_id for r in await client.classify(NEW, CANDIDATES)]


async def _relabel(way: str, target: str, pairs: Any, **options: Any) -> tuple[list[str], grpc.RpcError | None]:
    """The pair ids a Relabel stream of `pairs` yields before it ends, and the error that ended it."""
    got: list[str] = []
    if way == "sync":

        def call() -> grpc.RpcError | None:
            with Client(target, **options) as client:
                try:
                    got.extend(r.pair_id for r in client.relabel(pairs))
                except grpc.RpcError as exc:
                    return exc
            return None

        return got, await asyncio.to_thread(call)
    async with AsyncClient(target, **options) as client:
        try:
            async for r in client.relabel(pairs):
                got.append(r.pair_id)
        except grpc.RpcError as exc:
            return got, exc
    return got, None


def _pairs(kind: str) -> Any:
    pairs = [RelabelPair(pair_id=f"p{i}", existing=CANDIDATES[i], new=NEW) for i in range(2)]
    return pairs if kind == "list" else (p for p in pairs)


FAST = RetryPolicy(retries=3, backoff_s=0.01, max_backoff_s=0.02)


@WAYS
async def test_unavailable_twice_then_ok_is_one_successful_call(way: str) -> None:
    servicer = Scripted(U, U)
    async with scripted(servicer) as target:
        assert await _classify(way, target, timeout=10, retry=FAST) == ["c1"]
    assert servicer.attempts == [0, 1, 2]  # three attempts, gRPC's own


@WAYS
@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.INVALID_ARGUMENT,
    ],
    ids=lambda code: code.name.lower(),
)
async def test_only_unavailable_is_retried(way: str, code: grpc.StatusCode) -> None:
    servicer = Scripted(code, code)
    async with scripted(servicer) as target:
        with pytest.raises((grpc.RpcError, InputError)) as info:
            await _classify(way, target, timeout=10, retry=FAST)
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        assert isinstance(info.value, InputError) and (info.value.field, info.value.message) == (
            "request",
            "scripted INVALID_ARGUMENT",
        )
    else:
        assert isinstance(info.value, grpc.aio.AioRpcError) and info.value.code() == code  # e.g. a full queue
    assert servicer.attempts == [0]


@WAYS
@pytest.mark.parametrize("retries", [0, 2, 4])
async def test_unavailable_is_raised_after_the_last_retry(way: str, retries: int) -> None:
    servicer = Scripted(*[U] * 6)
    async with scripted(servicer) as target:
        with pytest.raises(grpc.RpcError) as info:
            await _classify(way, target, timeout=10, retry=RetryPolicy(retries=retries, backoff_s=0.01))
    assert info.value.code() == U and info.value.details() == "request: scripted UNAVAILABLE"
    assert servicer.attempts == list(range(retries + 1))


async def test_the_wait_before_each_retry_doubles_from_backoff_s() -> None:
    servicer = Scripted(U, U, U)
    async with scripted(servicer) as target:
        policy = RetryPolicy(retries=3, backoff_s=0.1, max_backoff_s=0.2)
        assert await _classify("async", target, timeout=10, retry=policy) == ["c1"]
    gaps = [b - a for a, b in zip(servicer.arrived, servicer.arrived[1:], strict=False)]
    # 0.1 s, then 0.2 s twice (capped), each within ±20%: lower bounds only (a busy machine adds, never takes)
    assert len(gaps) == 3 and gaps[0] >= 0.07 and gaps[1] >= 0.15 and gaps[2] >= 0.15, gaps


async def test_no_retry_past_the_deadline() -> None:
    servicer = Scripted(*[U] * 5)
    async with scripted(servicer) as target:
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as info:
            await _classify("async", target, timeout=0.3, retry=RetryPolicy(retries=4, backoff_s=5, max_backoff_s=5))
        elapsed = time.monotonic() - started
    # the wait before the first retry (4 to 6 s) outlasts the deadline: the call ends at the deadline
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert servicer.attempts == [0] and elapsed < 3.5


@WAYS
@pytest.mark.parametrize("kind", ["list", "generator"])
async def test_relabel_refused_before_its_first_result_is_sent_again(way: str, kind: str) -> None:
    servicer = Scripted(U)
    async with scripted(servicer) as target:
        got, error = await _relabel(way, target, _pairs(kind), retry=FAST)
    assert (got, error) == (["p0", "p1"], None)
    assert servicer.attempts == [0, 1] and servicer.received == [["p0", "p1"]] * 2  # gRPC sent the pairs again


@WAYS
async def test_relabel_is_never_retried_after_a_result(way: str) -> None:
    servicer = Scripted(U, results_first=1)
    async with scripted(servicer) as target:
        got, error = await _relabel(way, target, _pairs("list"), retry=FAST)
    assert got == ["p0"] and error is not None and error.code() == U
    assert servicer.attempts == [0]


async def test_the_real_server_is_retried_until_its_model_is_ready() -> None:
    release = threading.Event()
    fake = FakeClassifier()

    def loader() -> FakeClassifier:
        assert release.wait(20)
        return fake

    async with running_server(fake, loader=loader, ready=False) as (app, target):
        policy = RetryPolicy(retries=4, backoff_s=0.2)
        async with AsyncClient(target, timeout=10, retry=policy) as client:
            info = asyncio.create_task(client.model_info())
            relabelled = asyncio.create_task(_relabel("async", target, _pairs("generator"), retry=policy))
            refused = lambda: _answered(app, "GetModelInfo", "UNAVAILABLE") + _answered(app, "Relabel", "UNAVAILABLE")  # noqa: E731
            await asyncio.wait_for(until(lambda: refused() >= 2), 10)  # "the model is still loading"
            release.set()
            assert (await info).name == "fake-model"
            assert await relabelled == (["p0", "p1"], None)


async def test_the_real_server_shutting_down_is_retried_then_raised() -> None:
    async with running_server() as (app, target):
        app.drain.refuse_new()
        with pytest.raises(grpc.RpcError) as info:
            await _classify("async", target, timeout=10, retry=RetryPolicy(retries=2, backoff_s=0.01))
        refused = lambda: _answered(app, "Classify", "UNAVAILABLE")  # noqa: E731 - counted once the status is sent
        await asyncio.wait_for(until(lambda: refused() >= 3), 10)
        assert refused() == 3  # the call and its two retries
    assert info.value.code() == U and "shutting down" in info.value.details()


@pytest.mark.parametrize(
    ("kwargs", "ok"),
    [
        ({}, True),
        ({"retries": 0}, True),
        ({"retries": 4}, True),
        ({"retries": 5}, False),
        ({"retries": -1}, False),
        ({"backoff_s": 0.005}, False),
        ({"backoff_s": 3.0, "max_backoff_s": 2.0}, False),
    ],
    ids=[
        "default",
        "no-retries",
        "four-retries",
        "five-retries",
        "negative-retries",
        "under-10-ms",
        "backoff-over-cap",
    ],
)
def test_retry_policy_settings(kwargs: dict[str, float], ok: bool) -> None:
    if ok:
        assert RetryPolicy(**kwargs).retries == kwargs.get("retries", 3)  # type: ignore[arg-type]
    else:
        with pytest.raises(ValueError, match="0 <= retries <= 4"):
            RetryPolicy(**kwargs)  # type: ignore[arg-type]


def test_retry_policy_is_a_grpc_service_config() -> None:
    assert RetryPolicy(retries=2, backoff_s=0.05, max_backoff_s=1.5).service_config() == {
        "methodConfig": [
            {
                "name": [{"service": pb.DESCRIPTOR.services_by_name["WriteGate"].full_name}],
                "retryPolicy": {
                    "maxAttempts": 3,
                    "initialBackoff": "0.050000000s",
                    "maxBackoff": "1.500000000s",
                    "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"],
                },
            }
        ]
    }
    assert RetryPolicy(retries=0).service_config() == {}


async def test_a_channel_of_the_callers_retries_as_its_own_options_say() -> None:
    servicer = Scripted(U)
    async with scripted(servicer) as target:
        options = RetryPolicy(retries=1, backoff_s=0.01).channel_options()
        async with grpc.aio.insecure_channel(target, options=options) as channel:
            client = AsyncClient(channel=channel, timeout=5)
            assert client.retry is None
            assert [r.candidate_id for r in await client.classify(NEW, CANDIDATES)] == ["c1"]
            with pytest.raises(ValueError, match=r"RetryPolicy\.channel_options"):
                AsyncClient(channel=channel, retry=RetryPolicy())
    assert servicer.attempts == [0, 1]


# -- the sync Client: the AsyncClient on an event loop of its own, in a thread ----------------------


def _loop_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "writegate-client-loop")


async def test_sync_client_is_shared_by_threads() -> None:
    async with running_server() as (_app, target):

        def calls() -> list[list[str]]:
            with Client(target, timeout=10) as client, concurrent.futures.ThreadPoolExecutor(4) as pool:
                return list(pool.map(lambda _i: [r.candidate_id for r in client.classify(NEW, CANDIDATES)], range(8)))

        results = await asyncio.to_thread(calls)
    assert results == [["c1", "c2"]] * 8


async def test_sync_client_keeps_the_error_types_of_the_async_core() -> None:
    gate = threading.Event()
    gate.set()
    fake = FakeClassifier(gate=gate)
    async with running_server(fake) as (_app, target):

        def call() -> None:
            with Client(target, timeout=0.3) as client:
                gate.clear()
                try:
                    client.classify(NEW, CANDIDATES)
                finally:
                    gate.set()

        with pytest.raises(grpc.RpcError) as info:
            await asyncio.to_thread(call)
    assert isinstance(info.value, grpc.aio.AioRpcError)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def test_sync_close_twice_and_calls_after_close() -> None:
    client = Client("127.0.0.1:1")
    thread = client._runner.thread
    with client:
        assert thread.is_alive()
    assert not thread.is_alive()
    client.close()  # again: nothing
    with pytest.raises(ValueError, match="the client is closed"):
        client.model_info()
    with pytest.raises(ValueError, match="the client is closed"):
        next(client.relabel([]))


async def test_async_close_twice() -> None:
    client = AsyncClient("127.0.0.1:1")
    async with client:
        pass
    await client.close()


def test_sync_client_that_fails_to_start_leaves_no_thread() -> None:
    before = _loop_threads()
    with pytest.raises(InputError) as info:
        Client("127.0.0.1:1", token="two words")
    assert info.value.field == "token"
    assert _loop_threads() == before


def test_sync_client_left_open_ends_its_thread_when_collected() -> None:
    client = Client("127.0.0.1:1")
    thread = client._runner.thread
    del client
    gc.collect()
    thread.join(5)
    assert not thread.is_alive()


async def test_sync_client_on_a_channel_of_its_own_making() -> None:
    made: list[grpc.aio.Channel] = []

    async with running_server() as (_app, target):

        def make() -> grpc.aio.Channel:
            made.append(grpc.aio.insecure_channel(target))
            return made[-1]

        def call() -> str:
            with Client(channel=make, timeout=5) as client:
                return client.model_info().name

        assert await asyncio.to_thread(call) == "fake-model"
    assert len(made) == 1
    sync_channel = grpc.insecure_channel("127.0.0.1:1")
    with pytest.raises(TypeError, match="function returning a grpc.aio.Channel"):
        Client(channel=sync_channel)  # type: ignore[arg-type]
    sync_channel.close()


async def test_sync_relabel_reads_a_blocking_iterator_off_the_loop() -> None:
    blocked, release = threading.Event(), threading.Event()

    def pairs() -> Iterator[RelabelPair]:
        yield RelabelPair(pair_id="p0", existing=CANDIDATES[0], new=NEW)
        blocked.set()
        assert release.wait(10)  # the iterator blocks (a queue, a slow file): the loop must not
        yield RelabelPair(pair_id="p1", existing=CANDIDATES[1], new=NEW)

    async with running_server() as (_app, target):

        def scenario() -> tuple[str, list[str]]:
            with Client(target, timeout=10) as client, concurrent.futures.ThreadPoolExecutor(1) as pool:
                streamed = pool.submit(lambda: [r.pair_id for r in client.relabel(pairs())])
                assert blocked.wait(10)
                name = client.model_info().name  # answered while the stream's iterator blocks
                release.set()
                return name, streamed.result(10)

        assert await asyncio.to_thread(scenario) == ("fake-model", ["p0", "p1"])


async def test_sync_relabel_left_early_ends_the_stream() -> None:
    pairs = [RelabelPair(pair_id=f"p{i}", existing=CANDIDATES[i % 2], new=NEW) for i in range(4)]
    async with running_server() as (_app, target):

        def scenario() -> tuple[str, str]:
            with Client(target, timeout=10) as client:
                stream = client.relabel(pairs)
                first = next(stream).pair_id
                stream.close()  # leaves the stream early: cancelled, and the client goes on
                return first, client.model_info().name

        assert await asyncio.to_thread(scenario) == ("p0", "fake-model")


async def test_closing_the_sync_client_cancels_a_call_in_flight() -> None:
    gate = threading.Event()
    gate.set()  # open while the server starts
    fake = FakeClassifier(gate=gate)
    async with running_server(fake) as (_app, target):

        def scenario() -> None:
            client = Client(target, timeout=10)
            gate.clear()
            fake.entered.clear()
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                call = pool.submit(client.classify, NEW, CANDIDATES)
                assert fake.entered.wait(10)  # the call waits at the server
                client.close()
                gate.set()
                with pytest.raises(concurrent.futures.CancelledError):
                    call.result(10)

        await asyncio.to_thread(scenario)


async def test_sync_client_works_inside_a_running_event_loop() -> None:
    # no nested-loop error: the client's loop is its own (this loop is blocked meanwhile, as by any blocking call)
    with (
        socket_free_port() as port,
        Client(f"127.0.0.1:{port}", timeout=5, retry=RetryPolicy(retries=0)) as client,
        pytest.raises(grpc.RpcError) as info,
    ):
        client.model_info()
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
