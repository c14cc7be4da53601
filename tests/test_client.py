"""`writegate.client`: typed sync and async clients, deadlines, retries on UNAVAILABLE."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import grpc
import pytest
from server_fakes import T0, FakeClassifier, running_server

from writegate.api.prepare import PrepareWriteResult, StateRole
from writegate.classifier.labels import Label
from writegate.client import AsyncClient, Client, RelabelPair, RelabelResult, RetryPolicy
from writegate.client.common import relabel_result
from writegate.normalizer.errors import InputError
from writegate.normalizer.schema import Memory, Record
from writegate.v1 import writegate_pb2 as pb


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


async def test_async_retries_unavailable_until_the_model_is_ready() -> None:
    release = threading.Event()
    fake = FakeClassifier()
    attempts: list[float] = []

    def loader() -> FakeClassifier:
        assert release.wait(20)
        return fake

    async with running_server(fake, loader=loader, ready=False) as (app, target):

        async def sleep(delay: float) -> None:  # the retry wait: let the model finish loading
            attempts.append(delay)
            release.set()
            await asyncio.wait_for(app.wait_ready(), 10)

        async with AsyncClient(target, timeout=10, retry=RetryPolicy(retries=3, backoff_s=0.01), sleep=sleep) as client:
            info = await client.model_info()
    assert info.name == "fake-model"
    assert len(attempts) == 1  # one UNAVAILABLE (still loading), then success
    assert 0 <= attempts[0] <= 0.01


def test_sync_gives_up_after_the_retries() -> None:
    delays: list[float] = []
    with (
        socket_free_port() as port,
        Client(
            f"127.0.0.1:{port}",
            timeout=5,
            retry=RetryPolicy(retries=2, backoff_s=0.1, max_backoff_s=0.15),
            sleep=delays.append,
        ) as client,
    ):
        with pytest.raises(grpc.RpcError) as info:
            client.model_info()
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert len(delays) == 2 and 0 <= delays[0] <= 0.1 and 0 <= delays[1] <= 0.15


async def test_deadline_is_not_retried() -> None:
    gate = threading.Event()
    gate.set()
    fake = FakeClassifier(gate=gate)
    slept: list[float] = []

    async def sleep(delay: float) -> None:
        slept.append(delay)

    async with running_server(fake) as (_app, target), AsyncClient(target, timeout=0.3, sleep=sleep) as client:
        gate.clear()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await client.classify(NEW, CANDIDATES)
        gate.set()
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert slept == []


class socket_free_port:  # noqa: N801 - a context manager: a port nobody listens on
    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused
        return self.sock.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


# -- retries: UNAVAILABLE only, within the deadline; a Relabel stream only before its first result --


class FakeRpcError(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode) -> None:
        self._code = code

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._code.name


@pytest.mark.parametrize(
    ("kwargs", "ok"),
    [
        ({}, True),
        ({"retries": 0}, True),
        ({"retries": -1}, False),
        ({"backoff_s": -0.1}, False),
        ({"backoff_s": 3.0, "max_backoff_s": 2.0}, False),
    ],
    ids=["default", "no-retries", "negative-retries", "negative-backoff", "backoff-over-cap"],
)
def test_retry_policy_settings(kwargs: dict[str, float], ok: bool) -> None:
    if ok:
        assert RetryPolicy(**kwargs).retries == kwargs.get("retries", 3)
    else:
        with pytest.raises(ValueError, match="retries >= 0"):
            RetryPolicy(**kwargs)


@pytest.mark.parametrize(
    ("code", "attempt", "deadline", "retried"),
    [
        (grpc.StatusCode.UNAVAILABLE, 0, None, True),
        (grpc.StatusCode.UNAVAILABLE, 2, 100.0, True),
        (grpc.StatusCode.UNAVAILABLE, 3, None, False),
        (grpc.StatusCode.UNAVAILABLE, 0, 10.0, False),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, 0, None, False),
        (grpc.StatusCode.DEADLINE_EXCEEDED, 0, None, False),
        (grpc.StatusCode.INTERNAL, 0, None, False),
    ],
    ids=["unavailable", "third-retry", "retries-spent", "past-the-deadline", "busy", "deadline", "internal"],
)
def test_retry_after(code: grpc.StatusCode, attempt: int, deadline: float | None, retried: bool) -> None:
    policy = RetryPolicy(retries=3, backoff_s=0.05, max_backoff_s=0.15)
    wait = policy.retry_after(FakeRpcError(code), attempt, deadline, now=10.0)
    if retried:
        assert wait is not None and 0 <= wait <= min(0.15, 0.05 * 2**attempt)
    else:
        assert wait is None


def _response(pair_id: str) -> Any:
    from writegate.v1 import writegate_pb2 as pb

    relation = pb.Relation(
        candidate_id="c1",
        label=pb.LABEL_SUPERSEDES,
        evidence=pb.EVIDENCE_MODEL,
        scores={"supersedes": 0.9, "unrelated": 0.1},
    )
    return pb.RelabelResponse(pair_id=pair_id, relation=relation)


class FlakyRelabel:
    """A Relabel stub method: each call answers `per_call[i]` results, then fails UNAVAILABLE (or ends)."""

    def __init__(self, per_call: list[tuple[int, bool]]) -> None:
        self.per_call, self.calls = per_call, 0

    def __call__(self, requests: Any, **_kwargs: Any) -> Any:
        async def stream() -> Any:
            sent = [r.pair_id async for r in requests]  # the stream's requests, consumed as gRPC would
            answered, fails = self.per_call[min(self.calls, len(self.per_call) - 1)]
            self.calls += 1
            for pair_id in sent[:answered]:
                yield _response(pair_id)
            if fails:
                raise FakeRpcError(grpc.StatusCode.UNAVAILABLE)

        return stream()


RELABEL_RETRY_CASES = [
    ("list-fails-first", "list", [(0, True), (2, False)], 2, ["p0", "p1"], False),
    ("list-fails-after-a-result", "list", [(1, True), (2, False)], 1, ["p0"], True),
    ("generator-fails-first", "generator", [(0, True), (2, False)], 1, [], True),
    ("list-always-fails", "list", [(0, True)], 3, [], True),
]


@pytest.mark.parametrize(
    ("kind", "per_call", "calls", "results", "raises"),
    [case[1:] for case in RELABEL_RETRY_CASES],
    ids=[case[0] for case in RELABEL_RETRY_CASES],
)
async def test_relabel_is_retried_only_before_its_first_result_and_when_replayable(
    kind: str, per_call: list[tuple[int, bool]], calls: int, results: list[str], raises: bool
) -> None:
    pairs = [RelabelPair(pair_id=f"p{i}", existing=CANDIDATES[i], new=NEW) for i in range(2)]
    policy = RetryPolicy(retries=2, backoff_s=0.01)

    def source() -> Any:
        return list(pairs) if kind == "list" else (p for p in pairs)

    sync_client = Client("127.0.0.1:1", retry=policy, sleep=lambda _s: None)
    sync_client._aio.stub = type("Stub", (), {"Relabel": FlakyRelabel(per_call)})()  # the wrapped async client's
    got: list[str] = []
    with pytest.raises(grpc.RpcError) if raises else contextlib.nullcontext():
        got.extend(r.pair_id for r in sync_client.relabel(source()))
    sync_client.close()
    assert (sync_client._aio.stub.Relabel.calls, got) == (calls, results)

    async def no_sleep(_s: float) -> None:
        pass

    async with AsyncClient("127.0.0.1:1", retry=policy, sleep=no_sleep) as async_client:
        async_client.stub = type("Stub", (), {"Relabel": FlakyRelabel(per_call)})()
        got = []
        with pytest.raises(grpc.RpcError) if raises else contextlib.nullcontext():
            async for r in async_client.relabel(source()):
                got.append(r.pair_id)
        assert (async_client.stub.Relabel.calls, got) == (calls, results)


async def test_a_refusal_while_the_server_shuts_down_is_retried() -> None:
    """UNAVAILABLE 'shutting down' is retried: here the retry waits for the accepted call to
    finish and reaches a second server on the same port."""
    async with running_server() as (app, target):
        port = int(target.rsplit(":", 1)[1])
        app.drain.refuse_new()
        waits: list[float] = []
        second: list[Any] = []

        async def sleep(wait: float) -> None:  # the retry wait: the old server goes, a new one comes
            waits.append(wait)
            await app.stop(0)
            second.append(running_server(port=port))
            await second[0].__aenter__()

        try:
            async with AsyncClient(
                target, timeout=10, retry=RetryPolicy(retries=1, backoff_s=0.01), sleep=sleep
            ) as client:
                relations = await client.classify(NEW, CANDIDATES)
        finally:
            if second:
                await second[0].__aexit__(None, None, None)
    assert [r.candidate_id for r in relations] == ["c1", "c2"]
    assert len(waits) == 1


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
    slept: list[float] = []
    async with running_server(fake) as (_app, target):

        def call() -> None:
            with Client(target, timeout=0.3, sleep=slept.append) as client:
                gate.clear()
                try:
                    client.classify(NEW, CANDIDATES)
                finally:
                    gate.set()

        with pytest.raises(grpc.RpcError) as info:
            await asyncio.to_thread(call)
    assert isinstance(info.value, grpc.aio.AioRpcError)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert slept == []


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
