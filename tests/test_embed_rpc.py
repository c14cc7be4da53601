"""The Embed RPC over a real loopback port: vectors, order, validation, batching, limits, the client.

Most tests serve a `FakeEmbedder` (bag of words, known vectors); the `shipped` ones serve the real
embedder (`models/embedder`) and compare with `Embedder.embed` called directly.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import grpc
import numpy as np
import pytest
from server_fakes import FakeClassifier, FakeEmbedder, RecordingEmbedder, running_server, serving, until

from writegate.classifier.batcher import Batcher, QueuePolicy, TextJobs
from writegate.classifier.batcher.jobs import text_tokens
from writegate.classifier.embedder import Embedder, default_embedder_dir
from writegate.client import AsyncClient, Client
from writegate.errors import BatcherClosed, InputError
from writegate.server.app import WriteGateServer
from writegate.server.config import ServerConfig, load_config
from writegate.server.privacy import describe, request_texts
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

TEXTS = ["I am vegetarian", "I eat steak every Friday", "My daughter is called Ellie", "I live in Leeds"]
MORE = [*TEXTS, "I joined Initech in March as a data engineer", "We moved to Utrecht last summer"]
SHIPPED = pytest.mark.skipif(
    not (default_embedder_dir() / "embedder.json").is_file(), reason="no shipped embedder in models/embedder"
)


def vectors(resp: pb.EmbedResponse) -> np.ndarray:
    return np.array([list(e.values) for e in resp.embeddings], dtype=np.float32)


def histogram(app: WriteGateServer, name: str, sample: str) -> float:
    value = app.metrics.registry.get_sample_value(f"{name}_{sample}")
    assert value is not None, name
    return value


async def test_embed_answers_one_unit_vector_per_text_in_order() -> None:
    async with serving() as (_app, _channel, stub):
        resp = await stub.Embed(pb.EmbedRequest(texts=TEXTS), timeout=5)
        reversed_resp = await stub.Embed(pb.EmbedRequest(texts=TEXTS[::-1]), timeout=5)
    assert (resp.name, resp.dim) == ("fake-embedder", FakeEmbedder.dim)
    got = vectors(resp)
    np.testing.assert_array_equal(got, FakeEmbedder().embed(TEXTS))
    np.testing.assert_array_equal(vectors(reversed_resp), got[::-1])
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, rtol=1e-6)


@pytest.mark.parametrize(
    ("texts", "config", "message"),
    [
        ([], {}, "texts: is required (empty list)"),
        (["a", "b", "", "d"], {}, "texts[2]: is required (empty)"),
        (["a", "   "], {}, "texts[1]: is empty or whitespace only"),
        (["a", "bell\x07here"], {}, "texts[1]: contains a control character (U+0007)"),
        (["a" * 11], {"max_text_bytes": 10}, "texts[0]: is over the limit of 10 bytes (11 bytes)"),
        (["a", "b", "c", "d"], {"max_embed_texts": 3}, "texts: has 4 texts; the limit is 3"),
        # a set queue bound below max_embed_texts is the limit: a request it can never hold is a bad request
        (["a"] * 5, {"max_queue_pairs": 4}, "texts: has 5 texts; the limit is 4"),
    ],
    ids=["empty-list", "empty-text", "whitespace", "control", "too-long", "too-many", "queue-bound"],
)
async def test_bad_requests_are_invalid_argument_naming_the_text(texts: list[str], config: dict, message: str) -> None:
    embedder = RecordingEmbedder(FakeEmbedder())
    async with serving(embedder=embedder, **config) as (_app, _channel, stub):
        runs = len(embedder.batches)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.Embed(pb.EmbedRequest(texts=texts), timeout=5)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details() == message
    assert len(embedder.batches) == runs  # never reached the embedder


async def test_concurrent_calls_are_one_embedder_run() -> None:
    embedder = RecordingEmbedder(FakeEmbedder())
    async with serving(embedder=embedder) as (app, _channel, stub):
        batches_before = histogram(app, "writegate_embed_batch_texts", "count")
        texts_before = histogram(app, "writegate_embed_batch_texts", "sum")
        embedder.hold()
        first = asyncio.ensure_future(stub.Embed(pb.EmbedRequest(texts=["held"]), timeout=10))
        assert await asyncio.to_thread(embedder.entered.wait, 5)
        calls = [asyncio.ensure_future(stub.Embed(pb.EmbedRequest(texts=[t]), timeout=10)) for t in TEXTS * 2]
        batcher = app.embed_batcher
        assert batcher is not None
        await asyncio.wait_for(until(lambda: len(batcher._queue.pending) == 8), 5)
        embedder.release()
        await first
        results = await asyncio.gather(*calls)
        batches = histogram(app, "writegate_embed_batch_texts", "count") - batches_before
        texts = histogram(app, "writegate_embed_batch_texts", "sum") - texts_before
    held, merged = embedder.batches[-2:]
    assert held == ["held"] and sorted(merged) == sorted(TEXTS * 2)  # the 8 waiting calls ran as ONE embedder run
    assert (batches, texts) == (2, 9)  # the metrics saw the same two batches
    expected = FakeEmbedder().embed(TEXTS * 2)
    for got, want in zip(results, expected, strict=True):
        np.testing.assert_array_equal(vectors(got)[0], want)


async def test_full_embed_queue_is_resource_exhausted() -> None:
    embedder = RecordingEmbedder(FakeEmbedder())
    async with serving(embedder=embedder, max_queue_pairs=4) as (app, _channel, stub):
        embedder.hold()
        running = asyncio.ensure_future(stub.Embed(pb.EmbedRequest(texts=["running"]), timeout=10))
        assert await asyncio.to_thread(embedder.entered.wait, 5)
        held = asyncio.ensure_future(stub.Embed(pb.EmbedRequest(texts=["a", "b", "c"]), timeout=10))
        batcher = app.embed_batcher
        assert batcher is not None
        await asyncio.wait_for(until(lambda: batcher.queue_depth == 3), 5)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.Embed(pb.EmbedRequest(texts=["d", "e"]), timeout=5)
        embedder.release()
        assert len((await running).embeddings) == 1
        assert len((await held).embeddings) == 3
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert info.value.details() == "server busy: the queue holds 3 texts; 2 more would exceed its limit of 4"


async def test_deadlines_as_for_pairs() -> None:
    """A call waiting past its deadline is DEADLINE_EXCEEDED; one whose batch cannot end by its
    deadline at the measured speed (set here to 2 texts/s) is refused and never runs."""
    embedder = RecordingEmbedder(FakeEmbedder())
    async with serving(embedder=embedder) as (app, _channel, stub):
        embedder.hold()
        with pytest.raises(grpc.aio.AioRpcError) as waited:
            await stub.Embed(pb.EmbedRequest(texts=["slow"]), timeout=0.3)
        embedder.release()
        batcher = app.embed_batcher
        assert batcher is not None
        await asyncio.wait_for(until(lambda: batcher.queue_depth == 0 and not batcher._runner.busy), 5)
        runs = len(embedder.batches)
        batcher.speed.pairs_per_s = 2.0
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.Embed(pb.EmbedRequest(texts=["a", "b", "c", "d"]), timeout=1)
        never_ran = embedder.batches[runs:]
        ok = await stub.Embed(pb.EmbedRequest(texts=["a", "b", "c", "d"]), timeout=10)
    assert waited.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert refused.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert "its 4 texts need to run: not run" in refused.value.details()
    assert never_ran == []
    assert len(ok.embeddings) == 4


async def test_shed_answers_queued_texts_at_once_and_lets_running_ones_finish() -> None:
    embedder = RecordingEmbedder(FakeEmbedder())
    batcher = Batcher(TextJobs(embedder), QueuePolicy(max_wait_ms=0))
    await batcher.start()
    try:
        embedder.hold()
        running = asyncio.ensure_future(batcher.submit(["running"]))
        assert await asyncio.to_thread(embedder.entered.wait, 5)
        queued = asyncio.ensure_future(batcher.submit(["queued", "too"]))
        await until(lambda: len(batcher._queue.pending) == 2)
        assert batcher.shed("shutting down") == 1
        with pytest.raises(BatcherClosed, match="shutting down"):
            await queued
        embedder.release()
        (vector,) = await running
    finally:
        await batcher.close()
    np.testing.assert_array_equal(vector, FakeEmbedder().embed(["running"])[0])
    assert embedder.batches == [["running"]]


def test_text_tokens_count_the_special_tokens_and_stop_at_max_length() -> None:
    assert text_tokens("I am vegetarian", 128) == 2 + 4
    assert text_tokens("word " * 1000, 128) == 128
    window = TextJobs(FakeEmbedder()).encode(["ab", "x" * 400])
    assert window.lengths == [3, FakeEmbedder.max_length]


async def test_metrics_count_embed_calls_and_texts() -> None:
    async with serving(metrics_port=0) as (app, _channel, stub):
        texts_before = app.metrics.registry.get_sample_value("writegate_embed_texts_total") or 0.0
        await stub.Embed(pb.EmbedRequest(texts=TEXTS[:3]), timeout=5)
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.Embed(pb.EmbedRequest(), timeout=5)
        texts_after = app.metrics.registry.get_sample_value("writegate_embed_texts_total")
        text = app.metrics.render().decode()
    assert 'writegate_requests_total{code="OK",method="Embed"} 1.0' in text
    assert 'writegate_requests_total{code="INVALID_ARGUMENT",method="Embed"} 1.0' in text
    assert texts_after == texts_before + 3
    assert "writegate_embed_queue_texts 0.0" in text


def test_embed_requests_are_logged_by_shape_and_their_texts_redacted() -> None:
    request = pb.EmbedRequest(texts=["my secret diagnosis", "another private text"])
    assert describe(request) == "2 texts, 39 text chars"
    assert request_texts(request) == ["my secret diagnosis", "another private text"]


def test_the_embedder_settings() -> None:
    default = load_config()
    assert (default.embedder, default.max_embed_texts) == (default_embedder_dir(), 256)
    cfg = load_config({"max_embed_texts": "8"}, env={"WRITEGATE_EMBEDDER": "/srv/embedder"})
    assert (cfg.embedder, cfg.max_embed_texts, cfg.limits.max_embed_texts) == (Path("/srv/embedder"), 8, 8)
    with pytest.raises(InputError, match="--max-embed-texts"):
        load_config({"max_embed_texts": "0"})


async def test_a_missing_embedder_stops_the_start_before_the_port_is_bound(tmp_path: Path) -> None:
    app = WriteGateServer(ServerConfig(port=0, embedder=tmp_path / "none"), loader=FakeClassifier)
    with pytest.raises(InputError) as info:
        await app.start()
    assert str(info.value) == f"embedder: {tmp_path / 'none'} is not a directory; pass --embedder DIR"
    assert app.server is None


async def test_embed_is_unavailable_until_the_embedder_is_loaded() -> None:
    loaded = threading.Event()

    def slow_embedder() -> FakeEmbedder:
        assert loaded.wait(20)
        return FakeEmbedder()

    config = ServerConfig(port=0, max_wait_ms=0, batch_workers=1, grace_s=1.0)
    app = WriteGateServer(config, loader=FakeClassifier, embedder_loader=slow_embedder)
    port = await app.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.WriteGateStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await stub.Embed(pb.EmbedRequest(texts=["x"]), timeout=5)
            loaded.set()
            await asyncio.wait_for(app.wait_ready(), 10)
            ok = await stub.Embed(pb.EmbedRequest(texts=["x"]), timeout=5)
    finally:
        loaded.set()
        await app.stop(0.5)
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "still loading" in info.value.details()
    assert len(ok.embeddings) == 1


# -- the client --------------------------------------------------------------------------------


async def test_the_clients_embed() -> None:
    async with running_server() as (_app, target):
        async with AsyncClient(target, timeout=5) as client:
            async_vectors = await client.embed(TEXTS)
            with pytest.raises(InputError) as bad:
                await client.embed(["fine", ""])

        def sync_calls() -> tuple[list[list[float]], InputError]:
            with Client(target, timeout=5) as client:
                got = client.embed(tuple(TEXTS))
                with pytest.raises(InputError) as one_string:
                    client.embed("I am vegetarian")
            return got, one_string.value

        sync_vectors, one_string = await asyncio.to_thread(sync_calls)
    expected = FakeEmbedder().embed(TEXTS).tolist()
    assert async_vectors == expected and sync_vectors == expected
    assert (bad.value.field, bad.value.message) == ("texts[1]", "is required (empty)")
    assert (one_string.field, one_string.message) == ("texts", "must be a list of strings, not one string")


# -- the shipped embedder ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> Embedder:
    return Embedder.load(threads=1)


@SHIPPED
async def test_the_shipped_embedder_over_loopback_matches_it_called_directly(shipped: Embedder) -> None:
    """A lone call is one embedder run of its texts: the vectors are `Embedder.embed`'s, in order. Calls
    merged into one run get the vectors each text gets alone: a vector never depends on its batch-mates."""
    embedder = RecordingEmbedder(shipped)
    async with running_server(embedder=embedder) as (app, target):
        batcher = app.embed_batcher
        assert batcher is not None
        async with AsyncClient(target, timeout=20) as client:
            alone = np.array(await client.embed(TEXTS), dtype=np.float32)
            reordered = np.array(await client.embed(TEXTS[::-1]), dtype=np.float32)
            embedder.hold()
            first = asyncio.ensure_future(client.embed(["held back"]))
            assert await asyncio.to_thread(embedder.entered.wait, 5)
            calls = [asyncio.ensure_future(client.embed([text])) for text in MORE]
            await asyncio.wait_for(until(lambda: len(batcher._queue.pending) == len(MORE)), 10)
            embedder.release()
            await first
            merged = np.array([v for call in calls for v in await call], dtype=np.float32)
    run = embedder.batches[-1]
    assert sorted(run) == sorted(MORE)  # the waiting calls were one embedder run
    assert alone.shape == (len(TEXTS), shipped.dim)
    np.testing.assert_allclose(np.linalg.norm(alone, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(alone, shipped.embed(TEXTS), atol=1e-6)
    np.testing.assert_allclose(reordered, alone[::-1], atol=1e-6)
    direct_run = dict(zip(run, shipped.embed(run), strict=True))
    np.testing.assert_allclose(merged, np.array([direct_run[t] for t in MORE]), atol=1e-6)
    each_alone = np.array([shipped.embed([t])[0] for t in MORE])
    np.testing.assert_array_equal(merged, each_alone)
