"""The WriteGate RPCs over a real loopback port, on the fake classifier (known labels)."""

from __future__ import annotations

import asyncio
import threading
import urllib.request
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from server_fakes import BOOM, T0, FakeClassifier, expected_label, memory, serving, until

from writegate.api import convert
from writegate.api.normalizing import RecordCache
from writegate.classifier.types import Pair
from writegate.normalizer.api import normalize
from writegate.normalizer.schema import Record
from writegate.server.service import RELABEL_DEPTH
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

INTERNAL = grpc.StatusCode.INTERNAL.value[0]
LABEL_ENUM = {"unrelated": 1, "corroborates": 2, "elaborates": 3, "contradicts": 4, "supersedes": 5}


def request(*candidate_texts: str, new_text: str = "User prefers morning meetings") -> pb.PrepareWriteRequest:
    """PrepareWrite of memory `new` against candidates c0, c1, … (the fake labels by NEW's text)."""
    return pb.PrepareWriteRequest(
        memory=memory("new", new_text),
        candidates=[memory(f"c{i}", t) for i, t in enumerate(candidate_texts)],
    )


def classify(stub: pb_grpc.WriteGateStub, new_id: str, new_text: str) -> Any:
    """Classify memory `new_id` (`new_text`) against the one candidate c (the call, to await)."""
    return stub.Classify(pb.ClassifyRequest(memory=memory(new_id, new_text), candidates=[memory("c")]), timeout=10)


@pytest.mark.parametrize(
    ("new_text", "label", "candidate_role", "new_role", "edge"),
    [
        ("she moved to London", "supersedes", pb.STATE_ROLE_HISTORICAL, pb.STATE_ROLE_CURRENT, True),
        ("she never said that", "contradicts", pb.STATE_ROLE_IN_CONFLICT, pb.STATE_ROLE_IN_CONFLICT, True),
        ("she also has a cat", "elaborates", pb.STATE_ROLE_CURRENT, pb.STATE_ROLE_CURRENT, True),
        ("prefers mornings again", "corroborates", pb.STATE_ROLE_CURRENT, pb.STATE_ROLE_CURRENT, True),
        ("the dog is Biscuit", "unrelated", pb.STATE_ROLE_CURRENT, pb.STATE_ROLE_CURRENT, False),
    ],
    ids=["supersedes", "contradicts", "elaborates", "corroborates", "unrelated"],
)
async def test_prepare_write_roles_and_edges(
    new_text: str, label: str, candidate_role: int, new_role: int, edge: bool
) -> None:
    async with serving() as (_app, _channel, stub):
        resp = await stub.PrepareWrite(request("old one", "old two", new_text=new_text), timeout=5)
    assert len(resp.records) >= 1 and all(r.subject == "user:alice" for r in resp.records)
    assert [r.candidate_id for r in resp.relations] == ["c0", "c1"]
    assert {r.label for r in resp.relations} == {LABEL_ENUM[label]}
    assert abs(sum(resp.relations[0].scores.values()) - 1) < 1e-5
    assert [(s.candidate_id, s.role) for s in resp.candidate_states] == [("c0", candidate_role), ("c1", candidate_role)]
    assert resp.new_role == new_role
    expected_edges = [("new", f"c{i}", LABEL_ENUM[label]) for i in range(2)] if edge else []
    assert [(e.source_id, e.target_id, e.label) for e in resp.edges] == expected_edges


async def test_classify_keeps_candidate_order_across_batches() -> None:
    fake = FakeClassifier()
    async with serving(fake, max_batch_tokens=64) as (_app, _channel, stub):
        cands = [memory(f"c{i}", " ".join(["word"] * (1 + i % 9))) for i in range(40)]
        resp = await stub.Classify(pb.ClassifyRequest(memory=memory("n", "she moved"), candidates=cands), timeout=5)
    assert [r.candidate_id for r in resp.relations] == [f"c{i}" for i in range(40)]
    assert len(fake.batches) > 2  # the 40 pairs needed several token-budgeted batches


async def test_concurrent_requests_share_batches() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake, max_batch_tokens=4096) as (app, _channel, stub):
        fake.hold()
        first = asyncio.ensure_future(classify(stub, "n0", "hold"))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        n_before = len(fake.batches)
        tasks = [asyncio.ensure_future(classify(stub, f"n{i}", "she moved")) for i in range(1, 9)]
        await asyncio.wait_for(until(lambda: app.batcher is not None and len(app.batcher._queue.pending) == 8), 5)
        fake.release()
        await first
        results = await asyncio.gather(*tasks)
    assert all(r.relations[0].label == pb.LABEL_SUPERSEDES for r in results)
    assert len(fake.batches) - n_before - 1 == 1  # the 8 waiting requests ran as ONE batch


async def test_two_batch_workers_run_two_requests_at_once() -> None:
    fake = FakeClassifier.gated()  # open for the warm-up batch
    async with serving(fake, batch_workers=2) as (app, _channel, stub):
        assert app.batcher is not None and app.batcher.policy.workers == 2
        fake.hold()
        calls = []
        for i, text in enumerate(("she moved", "also has a cat")):
            calls.append(asyncio.ensure_future(classify(stub, f"n{i}", text)))
            await asyncio.wait_for(until(lambda i=i: fake.active == i + 1), 5)  # the 2nd does not wait for the 1st
        fake.release()
        results = await asyncio.gather(*calls)
    assert [r.relations[0].label for r in results] == [pb.LABEL_SUPERSEDES, pb.LABEL_ELABORATES]


async def test_normalize_and_model_info() -> None:
    async with serving() as (_app, _channel, stub):
        norm = await stub.Normalize(pb.NormalizeRequest(memory=memory(text="User prefers concise answers")), timeout=5)
        info = await stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5)
    assert len(norm.records) >= 1
    assert {r.subject for r in norm.records} == {"user:alice"}
    assert all(r.kind != pb.RECORD_KIND_UNSPECIFIED for r in norm.records)
    assert (info.name, info.version, info.backend, info.max_length) == ("fake-model", "0.0.1", "fake", 128)
    assert list(info.labels) == list(LABEL_ENUM)
    assert dict(info.metrics) == {"macro_f1": 0.5}


class PairRecordingFake(FakeClassifier):
    """A FakeClassifier that keeps the pairs it encodes (to see the records they carry)."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[Pair] = []

    def encode(self, pairs):
        self.pairs.extend(pairs)
        return super().encode(pairs)


def counting_normalizer(calls: list[str]):
    """`normalize`, noting each text it is called on."""

    def normalizer(text: str, **kwargs: Any) -> list[Record]:
        calls.append(text)
        return normalize(text, **kwargs)

    return normalizer


async def test_each_memory_is_normalized_once_and_the_pairs_carry_its_records() -> None:
    fake, calls = PairRecordingFake(), []
    async with serving(fake) as (app, _channel, stub):
        app.service.normalizer = counting_normalizer(calls)
        fake.pairs.clear()  # the warm-up's
        req = request(
            "User works in EST", "User prefers concise answers", new_text="User moved to London, now on UK time"
        )
        resp = await stub.PrepareWrite(req, timeout=5)
        assert sorted(calls) == sorted([req.memory.text, *(c.text for c in req.candidates)])  # once each
        new_records = normalize(req.memory.text, subject="user:alice", observed_at=T0)
        assert [convert.record_from_proto(r) for r in resp.records] == new_records
        assert [p.new.records for p in fake.pairs] == [tuple(new_records)] * 2
        assert [p.existing.records for p in fake.pairs] == [
            tuple(normalize(c.text, subject="user:alice", observed_at=T0)) for c in req.candidates
        ]

        calls.clear()
        await stub.Classify(pb.ClassifyRequest(memory=req.memory, candidates=req.candidates), timeout=5)
        assert calls == []  # the same memories again: their records are kept
        assert fake.pairs[2:] == fake.pairs[:2]


async def test_relabel_pairs_carry_their_records() -> None:
    fake = PairRecordingFake()
    async with serving(fake, relabel_window=4) as (_app, _channel, stub):
        fake.pairs.clear()  # the warm-up's

        async def requests():
            for i in range(6):
                yield pb.RelabelRequest(
                    pair_id=f"p{i}",
                    existing=memory(f"e{i}", "User works in EST"),
                    new=memory(f"n{i}", f"User moved to London {i} weeks ago"),
                )

        out = [r async for r in stub.Relabel(requests(), timeout=10)]
    assert [r.WhichOneof("result") for r in out] == ["relation"] * 6
    assert [p.existing.records for p in fake.pairs] == [
        tuple(normalize("User works in EST", subject="user:alice", observed_at=T0))
    ] * 6
    assert all(p.new.records and p.new.records[0].text == p.new.text for p in fake.pairs)


async def test_a_relabel_window_normalizes_each_memory_once_and_a_normalizer_crash_is_its_pairs_own() -> None:
    calls: list[str] = []
    counting = counting_normalizer(calls)

    def crashing(text: str, **kwargs: Any) -> list[Record]:
        if "crash" in text:
            raise RuntimeError("a normalizer bug")
        return counting(text, **kwargs)

    def requests(*new_texts: str) -> list[pb.RelabelRequest]:
        return [
            pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}", "User works in EST"), new=memory(f"n{i}", t))
            for i, t in enumerate(new_texts)
        ]

    async with serving(relabel_window=8) as (app, _channel, stub):
        app.service.normalizer = counting
        out = [r async for r in stub.Relabel(iter(requests("she moved", "never", "she moved")), timeout=10)]
        assert [r.WhichOneof("result") for r in out] == ["relation"] * 3
        assert sorted(calls) == ["User works in EST", "never", "she moved"]  # each memory once

        app.service.normalizer = crashing  # a new normalizer: an empty cache
        calls.clear()
        out = [r async for r in stub.Relabel(iter(requests("she moved", "crash here", "never")), timeout=10)]
    assert [r.WhichOneof("result") for r in out] == ["relation", "error", "relation"]
    assert (out[1].error.code, out[1].error.message) == (INTERNAL, "internal error: RuntimeError")
    assert set(calls) == {"User works in EST", "never", "she moved"}  # the other pairs were normalized


def test_record_cache_drops_the_least_recently_used() -> None:
    cache = RecordCache(size=2)
    a, b, c = (tuple(normalize(t, observed_at=T0)) for t in ("User works in EST", "likes tea", "likes coffee"))
    cache.put("a", a)
    cache.put("b", b)
    assert cache.get("a") == a  # a is now the most recently used
    cache.put("c", c)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (a, None, c, 2)
    assert len(RecordCache(size=0)) == 0 and RecordCache(size=0).get("a") is None


async def test_relabel_streams_in_request_order() -> None:
    texts = ["she moved", "never", "also this", "again", "nothing"] * 12
    async with serving(relabel_window=4, max_batch_tokens=64) as (_app, _channel, stub):

        async def requests():
            for i, t in enumerate(texts):
                yield pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}", "old"), new=memory(f"n{i}", t))

        out = [r async for r in stub.Relabel(requests(), timeout=10)]
    assert [r.pair_id for r in out] == [f"p{i}" for i in range(len(texts))]
    assert [r.relation.candidate_id for r in out] == [f"e{i}" for i in range(len(texts))]
    assert [r.relation.label for r in out] == [LABEL_ENUM[expected_label(t).value] for t in texts]


async def test_deadline_exceeded_while_the_worker_is_busy() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake) as (_app, _channel, stub):
        fake.hold()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(request("old"), timeout=0.3)
        assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        fake.release()
        ok = await stub.PrepareWrite(request("old"), timeout=5)
        assert len(ok.relations) == 1


async def test_failed_batch_is_internal_for_that_request_only() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake, max_batch_tokens=16) as (app, channel, stub):
        health = health_pb2_grpc.HealthStub(channel)
        fake.hold()
        hold = asyncio.ensure_future(classify(stub, "h", "hold"))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        bad = asyncio.ensure_future(classify(stub, "b", f"a {BOOM} here"))
        good = asyncio.ensure_future(classify(stub, "g", "she moved here"))
        await asyncio.wait_for(until(lambda: len(app.batcher._queue.pending) == 2), 5)
        fake.release()
        await hold
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await bad
        assert info.value.code() == grpc.StatusCode.INTERNAL
        assert "RuntimeError: boom" in info.value.details()
        assert (await good).relations[0].label == pb.LABEL_SUPERSEDES
        status = await health.Check(health_pb2.HealthCheckRequest(service="writegate.v1.WriteGate"), timeout=5)
        assert status.status == health_pb2.HealthCheckResponse.SERVING


async def test_full_queue_is_resource_exhausted() -> None:
    fake = FakeClassifier.gated()
    async with serving(fake, max_queue_pairs=4) as (app, _channel, stub):
        fake.hold()
        running = asyncio.ensure_future(stub.PrepareWrite(request("running"), timeout=10))
        assert await asyncio.to_thread(fake.entered.wait, 5)  # the running batch no longer counts
        held = asyncio.ensure_future(stub.PrepareWrite(request("a", "b", "c"), timeout=10))
        await asyncio.wait_for(until(lambda: app.batcher.queue_depth == 3), 5)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(request("d", "e"), timeout=5)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "limit of 4" in info.value.details()
        fake.release()
        assert len((await running).relations) == 1
        assert len((await held).relations) == 3


async def test_a_sized_queue_below_max_candidates_still_serves_a_full_request() -> None:
    """On a slow machine the bound that follows the speed is smaller than `max_candidates`: a full
    request is still valid, and served when nothing else is queued."""
    fake = FakeClassifier()
    async with serving(fake, max_candidates=64) as (app, _channel, stub):
        app.batcher.speed.pairs_per_s = 10.0  # 10 pairs/s x 1.3 s: a bound of 14 pairs
        assert app.batcher.max_queue_pairs < 64
        resp = await stub.PrepareWrite(request(*(f"fact {i}" for i in range(64))), timeout=10)
        assert len(resp.relations) == 64


async def test_a_call_whose_batch_cannot_end_by_its_deadline_is_never_run() -> None:
    """At the measured speed (set here to 2 pairs/s) a 4-candidate call needs 2 s on the model: with a
    1 s deadline it is answered DEADLINE_EXCEEDED at once and its pairs never reach the model; the
    same call with 10 s is served."""
    fake = FakeClassifier()
    async with serving(fake) as (app, _channel, stub):
        app.batcher.speed.pairs_per_s = 2.0
        before = len(fake.batches)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(request("a", "b", "c", "d", new_text="too slow"), timeout=1)
        assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "not run" in info.value.details()
        assert fake.batches[before:] == []
        resp = await stub.PrepareWrite(request("a", "b", "c", "d", new_text="in time"), timeout=10)
        assert len(resp.relations) == 4


async def test_health_goes_from_not_serving_to_serving_after_warm_up() -> None:
    release = threading.Event()
    fake = FakeClassifier()

    def slow_loader() -> FakeClassifier:
        assert release.wait(20)
        return fake

    async with serving(fake, loader=slow_loader, ready=False) as (_app, channel, stub):
        health = health_pb2_grpc.HealthStub(channel)
        watch = health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=10)
        first = await watch.read()
        assert first.status == health_pb2.HealthCheckResponse.NOT_SERVING
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "still loading" in info.value.details()
        release.set()
        second = await watch.read()
        assert second.status == health_pb2.HealthCheckResponse.SERVING
        assert fake.batches, "the warm-up batch ran before SERVING"
        watch.cancel()
        assert (await stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5)).name == "fake-model"


async def test_reflection_lists_the_service() -> None:
    async with serving() as (_app, channel, _stub):
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)

        async def ask():
            yield reflection_pb2.ServerReflectionRequest(list_services="")
            yield reflection_pb2.ServerReflectionRequest(file_containing_symbol="writegate.v1.WriteGate")

        answers = [a async for a in stub.ServerReflectionInfo(ask(), timeout=5)]
    names = {s.name for s in answers[0].list_services_response.service}
    assert {"writegate.v1.WriteGate", "grpc.health.v1.Health"} <= names
    from google.protobuf import descriptor_pb2

    files = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in answers[1].file_descriptor_response.file_descriptor_proto
    ]
    assert any(f.name == "writegate/v1/writegate.proto" and f.service[0].name == "WriteGate" for f in files)


async def test_metrics_count_rpcs_and_batches_over_http() -> None:
    async with serving(metrics_port=0) as (app, _channel, stub):
        await stub.PrepareWrite(request("a", "b"), timeout=5)
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.PrepareWrite(pb.PrepareWriteRequest(), timeout=5)
        url = f"http://127.0.0.1:{app.metrics_port}/metrics"
        text = (await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=5).read())).decode()
    assert 'writegate_requests_total{code="OK",method="PrepareWrite"} 1.0' in text
    assert 'writegate_requests_total{code="INVALID_ARGUMENT",method="PrepareWrite"} 1.0' in text
    assert 'writegate_request_seconds_count{method="PrepareWrite"} 2.0' in text
    assert "writegate_batch_pairs_count" in text and "writegate_batch_tokens_bucket" in text
    assert "writegate_pairs_total 5.0" in text  # 3 warm-up pairs + 2
    assert "writegate_queue_pairs 0.0" in text


async def test_relabel_keeps_a_bounded_number_of_pairs_in_flight() -> None:
    fake = FakeClassifier.gated()
    window = 2
    async with serving(fake, relabel_window=window) as (app, _channel, stub):
        submitted = 0
        real_submit = app.batcher.submit

        async def counting_submit(pairs, **kwargs):
            nonlocal submitted
            submitted += len(pairs)
            return await real_submit(pairs, **kwargs)

        app.batcher.submit = counting_submit  # type: ignore[method-assign]
        fake.hold()

        async def requests():
            for i in range(20):
                yield pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}", "old"), new=memory(f"n{i}", "also"))

        call = stub.Relabel(requests(), timeout=20)
        # windows of ≤ `window` pairs: one awaited, RELABEL_DEPTH queued, one held by the dispatcher
        bound = (RELABEL_DEPTH + 2) * window
        await asyncio.wait_for(until(lambda: submitted >= 1), 5)
        with pytest.raises(TimeoutError):  # the server stops reading: the other pairs wait in the client
            await asyncio.wait_for(until(lambda: submitted > bound), 0.3)
        fake.release()
        out = [r.pair_id async for r in call]
    assert out == [f"p{i}" for i in range(20)]
    assert submitted == 20
