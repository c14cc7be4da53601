"""examples/memory_store.py: candidates by Embed's vectors, PrepareWrite before each write, every
version kept with its role."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from server_fakes import FakeEmbedder, running_server

from writegate.classifier.embedder import Embedder, default_embedder_dir
from writegate.client import Client

ROOT = Path(__file__).resolve().parents[1]


def load_example():
    spec = importlib.util.spec_from_file_location("memory_store_example", ROOT / "examples" / "memory_store.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the models' annotations through it
    spec.loader.exec_module(module)
    return module


def day(d: str) -> datetime:
    return datetime.fromisoformat(d).replace(tzinfo=UTC)


def by_similarity(query: str, memories: list[tuple[str, str]]) -> list[str]:
    """The ids of (id, text) memories, listed newest first, ranked by FakeEmbedder's cosine with `query`."""
    vectors = FakeEmbedder().embed([query, *(text for _, text in memories)])
    order = np.argsort(-(vectors[1:] @ vectors[0]), kind="stable")
    return [memories[i][0] for i in order]


async def test_store_keeps_versions_and_answers_current_and_changes(tmp_path: Path) -> None:
    example = load_example()
    async with running_server() as (_app, target):

        def scenario() -> dict:
            with Client(target, timeout=5) as client:
                store = example.MemoryStore(tmp_path / "store.sqlite", client)
                s = "user:alice"
                first = store.write("User works in EST", subject=s, observed_at=day("2025-11-03"), memory_id="m1")
                # the fake labels by keyword: "moved" → supersedes, "never" → contradicts, "also" → elaborates
                store.write("User moved to London", subject=s, observed_at=day("2026-05-02"), memory_id="m2")
                store.write("User also speaks French", subject=s, observed_at=day("2026-05-03"), memory_id="m3")
                store.write("She never lived in London", subject=s, observed_at=day("2026-05-04"), memory_id="m4")
                store.write("Bob is in Paris", subject="user:bob", observed_at=day("2026-05-04"), memory_id="b1")
                out = {
                    "first": first,
                    "current": [(m.id, m.role.value) for m in store.current(s)],
                    "versions": [(m.id, m.role.value) for m in store.versions(s)],
                    "changes": [
                        (c.memory_id, c.old_role.value, c.new_role.value, c.label, c.caused_by)
                        for c in store.changes(s)
                    ],
                    "since": [c.memory_id for c in store.changes(s, since=day("2026-05-04"))],
                    "edges_m2": store.edges("m2"),
                    "bob": [(m.id, m.role.value) for m in store.current("user:bob")],
                    "candidates": [m.id for m in store.candidates(s, client.embed(["She never lived in London"])[0])],
                    "stored_vector": store.db.execute("SELECT vector FROM memories WHERE id = 'm4'").fetchone()[0],
                }
                store.close()
                return out

        out = await asyncio.to_thread(scenario)
    assert out["first"].relations == [] and out["first"].new_role.value == "current"
    assert out["versions"] == [
        ("m1", "historical"),
        ("m2", "in_conflict"),
        ("m3", "in_conflict"),
        ("m4", "in_conflict"),
    ]
    assert out["current"] == [
        ("m2", "in_conflict"),
        ("m3", "in_conflict"),
        ("m4", "in_conflict"),
    ]  # m1 is history, kept
    # m4's candidates: the live m2 and m3, the more similar to m4 first
    m4_candidates = by_similarity(
        "She never lived in London", [("m3", "User also speaks French"), ("m2", "User moved to London")]
    )
    assert out["changes"] == [
        ("m1", "current", "historical", "supersedes", "m2"),
        *((c, "current", "in_conflict", "contradicts", "m4") for c in m4_candidates),
    ]
    assert out["since"] == m4_candidates
    assert out["edges_m2"] == [("m2", "supersedes", "m1"), ("m3", "elaborates", "m2"), ("m4", "contradicts", "m2")]
    assert out["bob"] == [("b1", "current")]  # other subjects are not candidates
    assert out["candidates"] == ["m4", *m4_candidates]  # m4 itself is the most similar to its own text
    stored = np.frombuffer(out["stored_vector"], dtype=np.float32)
    np.testing.assert_array_equal(stored, FakeEmbedder().embed(["She never lived in London"])[0])


async def test_the_candidates_are_the_top_k_most_similar_live_memories(tmp_path: Path) -> None:
    example = load_example()
    texts = [("k1", "tea in the morning"), ("k2", "green tea please"), ("k3", "my car is red"), ("k4", "tea or coffee")]
    new = "I drink tea"
    async with running_server() as (_app, target):

        def scenario() -> list[str]:
            with Client(target, timeout=5) as client:
                store = example.MemoryStore(tmp_path / "k.sqlite", client, top_k=2)
                for memory_id, text in texts:
                    store.write(text, subject="user:kim", observed_at=day("2026-01-01"), memory_id=memory_id)
                result = store.write(new, subject="user:kim", observed_at=day("2026-02-01"), memory_id="k5")
                store.close()
                return [r.candidate_id for r in result.relations]

        sent = await asyncio.to_thread(scenario)
    assert sent == by_similarity(new, texts[::-1])[:2]  # newest first among equals


def test_a_failed_prepare_write_stores_nothing(tmp_path: Path) -> None:
    example = load_example()

    class Refusing:
        def embed(self, texts):
            return FakeEmbedder().embed(texts).tolist()

        def prepare_write(self, memory, candidates):
            raise RuntimeError("server down")

    store = example.MemoryStore(tmp_path / "s.sqlite", Refusing())
    with pytest.raises(RuntimeError, match="server down"):
        store.write("User works in EST", subject="user:alice", observed_at=day("2025-11-03"))
    assert store.versions("user:alice") == []


@pytest.mark.skipif(
    not (default_embedder_dir() / "embedder.json").is_file(), reason="no shipped embedder in models/embedder"
)
async def test_the_shipped_embedder_finds_a_conflict_that_shares_no_word(tmp_path: Path) -> None:
    """examples/memories.jsonl's Alice: "I eat steak every Friday" shares no content word with "I am vegetarian",
    and the store sends that memory first among its 3 candidates of 16 (the fake classifier labels; the
    embedder is the shipped one)."""
    example = load_example()
    rows = [json.loads(line) for line in (ROOT / "examples" / "memories.jsonl").read_text().splitlines()]
    alice = {row["id"]: row for row in rows if row["subject"] == "user:alice"}
    before, new = [alice[f"a{i:02d}"] for i in range(1, 17)], alice["a17"]
    assert (before[-1]["text"], new["text"]) == ("I am vegetarian", "I eat steak every Friday")
    assert not {w.lower() for w in before[-1]["text"].split()} & {w.lower() for w in new["text"].split()} - {"i"}
    async with running_server(embedder=Embedder.load(threads=1)) as (_app, target):

        def scenario() -> list[str]:
            with Client(target, timeout=10) as client:
                store = example.MemoryStore(tmp_path / "alice.sqlite", client, top_k=3)
                for row in [*before, new]:
                    result = store.write(
                        row["text"], subject=row["subject"], observed_at=day(row["observed_at"]), memory_id=row["id"]
                    )
                store.close()
                return [r.candidate_id for r in result.relations]

        sent = await asyncio.to_thread(scenario)
    assert len(sent) == 3 and sent[0] == "a16"
