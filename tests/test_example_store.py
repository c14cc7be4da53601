"""examples/memory_store.py: PrepareWrite before each write, every version kept with its role."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from server_fakes import running_server

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
                    "candidates_m4": [m.id for m in store.candidates(s)],
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
    assert out["changes"] == [
        ("m1", "current", "historical", "supersedes", "m2"),
        ("m3", "current", "in_conflict", "contradicts", "m4"),  # candidates go newest first
        ("m2", "current", "in_conflict", "contradicts", "m4"),
    ]
    assert out["since"] == ["m3", "m2"]
    assert out["edges_m2"] == [("m2", "supersedes", "m1"), ("m3", "elaborates", "m2"), ("m4", "contradicts", "m2")]
    assert out["bob"] == [("b1", "current")]  # other subjects are not candidates
    assert out["candidates_m4"] == ["m4", "m3", "m2"]


def test_a_failed_prepare_write_stores_nothing(tmp_path: Path) -> None:
    example = load_example()

    class Refusing:
        def prepare_write(self, memory, candidates):
            raise RuntimeError("server down")

    store = example.MemoryStore(tmp_path / "s.sqlite", Refusing())
    with pytest.raises(RuntimeError, match="server down"):
        store.write("User works in EST", subject="user:alice", observed_at=day("2025-11-03"))
    assert store.versions("user:alice") == []
