"""Fakes shared by the batcher, service, client and example-store tests (not a test module).

`FakeClassifier` is a `Classifier` whose `encode` and backend are a rule instead of a model: the
NEW text's keyword decides the label, so tests know the answer. Its `label` step is the real one.
`FakeEmbedder` embeds a text as its bag of words (texts that share words are close); the servers
of `running_server` use it unless a test passes another embedder. `RecordingEmbedder` wraps an
embedder (the real one too), keeps the texts of each run and can hold a run at a gate.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

import grpc
import numpy as np
from google.protobuf.timestamp_pb2 import Timestamp

from writegate.classifier import columnar
from writegate.classifier.backends.base import Backend, Batch
from writegate.classifier.guard import GUARD_NONE
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.model import Classifier
from writegate.classifier.modeldir import ModelMeta
from writegate.classifier.types import Pair
from writegate.server.app import WriteGateServer
from writegate.server.config import ServerConfig
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

BOOM = "BOOM"
"""A NEW text containing this makes the batch holding it raise."""

KEYWORDS: tuple[tuple[str, Label], ...] = (
    ("moved", Label.SUPERSEDES),
    ("now", Label.SUPERSEDES),
    ("never", Label.CONTRADICTS),
    ("actually", Label.CONTRADICTS),
    ("also", Label.ELABORATES),
    ("again", Label.CORROBORATES),
)

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def expected_label(new_text: str) -> Label:
    """The label FakeClassifier gives a pair whose NEW text is `new_text`."""
    words = new_text.lower().split()
    return next((label for word, label in KEYWORDS if word in words), Label.UNRELATED)


FAKE_META = ModelMeta(
    name="fake-model", version="0.0.1", input_format_version=1, labels=list(LABELS), metrics={"macro_f1": 0.5}
)


class FakeBackend(Backend):
    """Runs a fake's batches: `FakeClassifier._run` (which tests override)."""

    name = "fake"

    def __init__(self, fake: FakeClassifier) -> None:
        self.fake = fake

    def run(self, batch: Batch) -> np.ndarray:
        return self.fake.run_batch(batch)


class FakeClassifier(Classifier):
    """A rule-based `Classifier`: a pair's row is [label index (-1 for BOOM), key id, 0, …], its length
    3 + words of both texts × `tokens_per_word`; the backend puts logit 5 on that label.

    Args:
        gate: when set, `run` waits for it (lets a test hold the worker inside a batch).
        tokens_per_word: pair length = 3 + words of both texts × this.
    """

    def __init__(self, *, gate: threading.Event | None = None, tokens_per_word: int = 1) -> None:
        super().__init__(FAKE_META, None, FakeBackend(self))  # no tokenizer: `encode` is the fake's own
        self.gate = gate
        self.entered = threading.Event()
        self.tokens_per_word = tokens_per_word
        self.batches: list[list[str]] = []  # keys of the pairs of each batch labelled
        self.batch_shapes: list[tuple[int, int]] = []
        self.active = 0  # batches inside run() now
        self.max_active = 0
        self.keys: list[str] = []  # "existing|new" of each pair encoded, by key id
        self._lock = threading.Lock()

    @classmethod
    def gated(cls, **kwargs: Any) -> FakeClassifier:
        """A fake with a gate that is open for now (a server's warm-up batch runs): `hold()` closes it."""
        gate = threading.Event()
        gate.set()
        return cls(gate=gate, **kwargs)

    def hold(self) -> None:
        """Close the gate: the next batch waits inside `run`, and `entered` is set once one is there."""
        assert self.gate is not None, "hold() needs a fake made with FakeClassifier.gated()"
        self.gate.clear()
        self.entered.clear()

    def release(self) -> None:
        """Open the gate: held batches run."""
        assert self.gate is not None, "release() needs a fake made with FakeClassifier.gated()"
        self.gate.set()

    def encode(self, pairs: Sequence[Pair]) -> columnar.EncodedWindow:
        rows = []
        for p in pairs:
            words = len(p.existing.text.split()) + len(p.new.text.split())
            index = -1 if BOOM in p.new.text else LABELS.index(expected_label(p.new.text).value)
            with self._lock:
                key = len(self.keys)
                self.keys.append(f"{p.existing.text}|{p.new.text}")
            rows.append([index, key] + [0] * (1 + words * self.tokens_per_word))
        n = len(rows)
        return columnar.EncodedWindow(
            0, rows, [len(r) for r in rows], np.zeros(n, np.int8), np.full(n, GUARD_NONE, np.int8), np.zeros(n, bool)
        )

    def keys_of(self, prepared: columnar.PreparedWindow) -> list[str]:
        """The keys of a prepared window's pairs, in pair order."""
        ids = np.zeros(prepared.size, dtype=np.int64)
        for b in prepared.batches:
            ids[b.rows] = b.batch.input_ids[:, 1]
        return [self.keys[int(i)] for i in ids]

    def label(self, prepared: columnar.PreparedWindow, logits: Sequence[np.ndarray]) -> columnar.Labels:
        self.batches.append(self.keys_of(prepared))
        return super().label(prepared, logits)

    def run_batch(self, batch: Batch) -> np.ndarray:
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            return self._run(batch)
        finally:
            with self._lock:
                self.active -= 1

    def _run(self, batch: Batch) -> np.ndarray:
        self.entered.set()
        if self.gate is not None and not self.gate.wait(timeout=20):
            raise TimeoutError("the test never opened the gate")
        self.batch_shapes.append(batch.input_ids.shape)
        index = batch.input_ids[:, 0]
        if (index < 0).any():
            raise RuntimeError("boom: the backend failed")
        logits = np.zeros((batch.size, len(LABELS)), dtype=np.float32)
        logits[np.arange(batch.size), index] = 5.0
        return logits


class FakeEmbedder:
    """A `TextEmbedder`: a text's lowercased words hashed (crc32) into `dim` buckets, L2-normalized."""

    name = "fake-embedder"
    dim = 16
    max_length = 32

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.strip(".,!?").encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


class RecordingEmbedder:
    """Wraps an embedder: keeps the texts of each `embed` call (one per batch of the Embed batcher)
    and, once `hold()` was called, makes the next calls wait at a gate until `release()`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name, self.dim, self.max_length = inner.name, inner.dim, inner.max_length
        self.batches: list[list[str]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()

    def hold(self) -> None:
        """Close the gate: the next run waits inside `embed`, and `entered` is set once one is there."""
        self.gate.clear()
        self.entered.clear()

    def release(self) -> None:
        """Open the gate."""
        self.gate.set()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.entered.set()
        if not self.gate.wait(timeout=20):
            raise TimeoutError("the test never opened the gate")
        self.batches.append(list(texts))
        return self.inner.embed(texts)


# -- a real loopback server around a fake classifier ---------------------------------------------


def ts(dt: datetime = T0) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(dt.astimezone(UTC).replace(tzinfo=None))
    return out


def memory(
    id: str = "m1",
    text: str = "User prefers morning meetings",
    *,
    subject: str = "user:alice",
    at: datetime = T0,
    **kwargs: Any,
) -> pb.Memory:
    """A valid Memory message (override any field)."""
    return pb.Memory(id=id, subject=subject, text=text, observed_at=ts(at), **kwargs)


@contextlib.asynccontextmanager
async def running_server(
    fake: FakeClassifier | None = None,
    *,
    loader: Callable[[], Any] | None = None,
    ready: bool = True,
    tracer_provider: Any = None,
    embedder: Any = None,
    **config: Any,
) -> AsyncIterator[tuple[WriteGateServer, str]]:
    """A WriteGateServer on 127.0.0.1:<free port>; yields (server, target).

    One batch worker unless `batch_workers` is given: tests that hold a batch at the gate count on
    the next pairs waiting for it. `tracer_provider`: an OpenTelemetry one to trace with.
    `embedder`: the Embed RPC's (default: a `FakeEmbedder`).
    """
    fake = fake or FakeClassifier()
    served_embedder = embedder or FakeEmbedder()
    settings = {"port": 0, "max_wait_ms": 0, "grace_s": 1.0, "batch_workers": 1, **config}
    app = WriteGateServer(
        ServerConfig(**settings),
        loader=loader or (lambda: fake),
        embedder_loader=lambda: served_embedder,
        tracer_provider=tracer_provider,
    )
    port = await app.start()
    try:
        if ready:
            await asyncio.wait_for(app.wait_ready(), 10)
        yield app, f"127.0.0.1:{port}"
    finally:
        if fake.gate is not None:
            fake.gate.set()
        await app.stop(0.5)


class Served(NamedTuple):
    """A running server, a channel to it and a WriteGate stub on that channel."""

    app: WriteGateServer
    channel: grpc.aio.Channel
    stub: pb_grpc.WriteGateStub


@contextlib.asynccontextmanager
async def serving(fake: FakeClassifier | None = None, **kwargs: Any) -> AsyncIterator[Served]:
    """`running_server(fake, **kwargs)` with an insecure channel and a WriteGate stub on it."""
    async with running_server(fake, **kwargs) as (app, target), grpc.aio.insecure_channel(target) as channel:
        yield Served(app, channel, pb_grpc.WriteGateStub(channel))


async def until(cond: Callable[[], bool]) -> None:
    """Wait, yielding to the loop, until `cond()` is true (wrap it in `asyncio.wait_for` for a limit)."""
    while not cond():
        await asyncio.sleep(0.001)
