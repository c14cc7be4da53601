"""`writegate.client`: typed sync and async clients, deadlines, retries on UNAVAILABLE."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import grpc
import pytest
from server_fakes import T0, FakeClassifier, running_server

from writegate.client import AsyncClient, Client, RelabelPair, RelabelResult, RetryPolicy
from writegate.client.common import relabel_result
from writegate.classifier.labels import Label
from writegate.normalizer.errors import InputError
from writegate.normalizer.schema import Memory, Record
from writegate.server.prepare import PrepareWriteResult, StateRole
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
                    list(client.relabel(RelabelPair(pair_id=f"p{i}", existing=c, new=NEW) for i, c in enumerate(CANDIDATES))),
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
    pairs = [RelabelPair(pair_id="p0", existing=CANDIDATES[0], new=NEW), RelabelPair(pair_id="p1", existing=bad, new=NEW),
             RelabelPair(pair_id="p2", existing=CANDIDATES[1], new=NEW)]
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
        (3, "requests[4].pair_id: duplicates requests[0].pair_id ('p')",
         (grpc.StatusCode.INVALID_ARGUMENT, "requests[4].pair_id", "duplicates requests[0].pair_id ('p')")),
        (8, "server busy: the queue holds 4 pairs", (grpc.StatusCode.RESOURCE_EXHAUSTED, None, "server busy: the queue holds 4 pairs")),
        (13, "the batch of 1 pairs failed: RuntimeError: boom", (grpc.StatusCode.INTERNAL, None, "the batch of 1 pairs failed: RuntimeError: boom")),
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
    with socket_free_port() as port, Client(
        f"127.0.0.1:{port}", timeout=5, retry=RetryPolicy(retries=2, backoff_s=0.1, max_backoff_s=0.15), sleep=delays.append
    ) as client:
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
