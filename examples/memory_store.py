"""A reference memory store on SQLite that calls writegate's PrepareWrite before every write.

The pattern the service exists for:

1. retrieve the candidates a new memory could relate to: here the service's `Embed` gives the new
   memory's vector, and the store takes the `top_k` live memories of the same subject whose stored
   vectors are most similar (cosine), so "I eat steak every Friday" finds "I am vegetarian" though
   they share no word; a store with a vector index of its own would ask it instead,
2. call `PrepareWrite(new, candidates)`,
3. in one transaction: insert the new memory with its role and its vector, apply the candidates'
   new roles (`historical` when superseded, `in_conflict` when contradicted, `retracted` when the
   user took it back), store the typed edges.

Nothing is ever deleted: every version stays, with its role and the history of how it got it, so
the store can answer "what is current" (and which facts are in conflict) and "what changed".

Run a demo against a running server:

    writegate serve &
    python examples/memory_store.py --target 127.0.0.1:50051 --db /tmp/demo.sqlite
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict

from writegate.api.types import Memory, PrepareWriteResult, ProvenanceKind, StateRole

SCHEMA = """
CREATE TABLE IF NOT EXISTS memories (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    subject TEXT NOT NULL,
    text TEXT NOT NULL,
    observed_at TEXT NOT NULL,
    provenance TEXT NOT NULL,
    role TEXT NOT NULL,
    records TEXT NOT NULL,
    vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_subject_role ON memories (subject, role);
CREATE TABLE IF NOT EXISTS role_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id TEXT NOT NULL REFERENCES memories (id),
    old_role TEXT,
    new_role TEXT NOT NULL,
    caused_by TEXT NOT NULL REFERENCES memories (id),
    label TEXT,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS edges (
    source_id TEXT NOT NULL REFERENCES memories (id),
    target_id TEXT NOT NULL REFERENCES memories (id),
    label TEXT NOT NULL,
    PRIMARY KEY (source_id, target_id)
);
"""

LIVE_ROLES: tuple[str, ...] = (StateRole.CURRENT.value, StateRole.IN_CONFLICT.value)
M = TypeVar("M", bound=BaseModel)


class WriteGateLike(Protocol):
    """What the store needs of `writegate.client.Client`."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def prepare_write(self, memory: Memory, candidates: Sequence[Memory]) -> PrepareWriteResult: ...


class StoredMemory(BaseModel):
    """A memory as stored, with its role."""

    model_config = ConfigDict(frozen=True)

    id: str
    subject: str
    text: str
    observed_at: datetime
    role: StateRole
    slots: list[str]


class Change(BaseModel):
    """One role change: `memory_id` went from `old_role` to `new_role` because of `caused_by`."""

    model_config = ConfigDict(frozen=True)

    memory_id: str
    text: str
    old_role: StateRole | None
    new_role: StateRole
    caused_by: str
    caused_by_text: str
    label: str | None
    at: datetime


def _from_row(model: type[M], row: sqlite3.Row, **values: Any) -> M:
    """A `model` with `values`, its other fields read from the row's columns of the same names."""
    return model(**{name: row[name] for name in model.model_fields if name not in values}, **values)


class MemoryStore:
    """A small versioned memory store; every write goes through PrepareWrite.

    Args:
        path: the SQLite file (`:memory:` for a throw-away store).
        client: a WriteGate client (`writegate.client.Client`).
        top_k: how many live memories of the subject, the most similar to the new one, are sent as
            candidates.
    """

    def __init__(self, path: str | Path, client: WriteGateLike, *, top_k: int = 8) -> None:
        if top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        self.db = sqlite3.connect(str(path))
        self.db.row_factory = sqlite3.Row
        self.db.executescript(SCHEMA)
        self.client = client
        self.top_k = top_k

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self.db:  # commit on success, roll back on error
            yield self.db

    def candidates(self, subject: str, vector: Sequence[float]) -> list[Memory]:
        """The subject's `top_k` live memories (current or in conflict) most similar to `vector`, most
        similar first (ties: newest first). Embed's vectors have unit length: the dot product is the cosine."""
        rows = self.db.execute(
            f"SELECT * FROM memories WHERE subject = ? AND role IN ({','.join('?' * len(LIVE_ROLES))}) "
            "ORDER BY observed_at DESC, seq DESC",
            (subject, *LIVE_ROLES),
        ).fetchall()
        if not rows:
            return []
        stored = np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows])
        cosine = stored @ np.asarray(vector, dtype=np.float32)
        best = np.argsort(-cosine, kind="stable")[: self.top_k]
        return [_from_row(Memory, rows[i]) for i in best]

    def write(
        self,
        text: str,
        *,
        subject: str,
        observed_at: datetime | None = None,
        provenance: ProvenanceKind = ProvenanceKind.STATED,
        memory_id: str | None = None,
    ) -> PrepareWriteResult:
        """Write a memory: its vector (Embed) and candidates, PrepareWrite, then store it with its vector,
        every role change and edge."""
        new = Memory(
            id=memory_id or uuid.uuid4().hex[:12],
            subject=subject,
            text=text,
            observed_at=observed_at or datetime.now(UTC),
            provenance=provenance,
        )
        (vector,) = self.client.embed([text])
        result = self.client.prepare_write(new, self.candidates(subject, vector))
        now = datetime.now(UTC).isoformat()
        labels = {r.candidate_id: r.label.value for r in result.relations}
        with self._tx() as db:
            db.execute(
                "INSERT INTO memories (id, subject, text, observed_at, provenance, role, records, vector) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new.id,
                    subject,
                    text,
                    new.observed_at.isoformat(),
                    new.provenance.value,
                    result.new_role.value,
                    json.dumps([r.to_json() for r in result.records]),
                    np.asarray(vector, dtype=np.float32).tobytes(),
                ),
            )
            db.execute(
                "INSERT INTO role_changes (memory_id, old_role, new_role, caused_by, label, at) VALUES (?, NULL, ?, ?, NULL, ?)",
                (new.id, result.new_role.value, new.id, now),
            )
            for state in result.candidate_states:
                old = db.execute("SELECT role FROM memories WHERE id = ?", (state.candidate_id,)).fetchone()["role"]
                if state.role is StateRole.CURRENT or state.role.value == old:
                    continue  # `current` = this write does not change the candidate's role
                db.execute("UPDATE memories SET role = ? WHERE id = ?", (state.role.value, state.candidate_id))
                db.execute(
                    "INSERT INTO role_changes (memory_id, old_role, new_role, caused_by, label, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (state.candidate_id, old, state.role.value, new.id, labels.get(state.candidate_id), now),
                )
            db.executemany(
                "INSERT INTO edges (source_id, target_id, label) VALUES (?, ?, ?)",
                [(e.source_id, e.target_id, e.label.value) for e in result.edges],
            )
        return result

    def current(self, subject: str) -> list[StoredMemory]:
        """What is current: the subject's live memories; `in_conflict` ones need the user's call."""
        rows = self.db.execute(
            f"SELECT * FROM memories WHERE subject = ? AND role IN ({','.join('?' * len(LIVE_ROLES))}) ORDER BY seq",
            (subject, *LIVE_ROLES),
        ).fetchall()
        return [self._stored(r) for r in rows]

    def versions(self, subject: str) -> list[StoredMemory]:
        """Every version ever written for the subject, with its role (nothing is deleted)."""
        rows = self.db.execute("SELECT * FROM memories WHERE subject = ? ORDER BY seq", (subject,)).fetchall()
        return [self._stored(r) for r in rows]

    def changes(self, subject: str, since: datetime | None = None) -> list[Change]:
        """What changed: role changes of the subject's memories caused by later writes."""
        rows = self.db.execute(
            "SELECT c.*, m.text AS text, b.text AS caused_by_text, b.observed_at AS caused_at FROM role_changes c "
            "JOIN memories m ON m.id = c.memory_id JOIN memories b ON b.id = c.caused_by "
            "WHERE m.subject = ? AND c.old_role IS NOT NULL ORDER BY c.seq",
            (subject,),
        ).fetchall()
        out = [_from_row(Change, r, at=r["caused_at"]) for r in rows]
        return [c for c in out if since is None or c.at >= since]

    def edges(self, memory_id: str) -> list[tuple[str, str, str]]:
        """The typed edges from or to a memory: (source_id, label, target_id)."""
        rows = self.db.execute(
            "SELECT source_id, label, target_id FROM edges WHERE source_id = ? OR target_id = ? ORDER BY rowid",
            (memory_id, memory_id),
        ).fetchall()
        return [(r["source_id"], r["label"], r["target_id"]) for r in rows]

    @staticmethod
    def _stored(row: sqlite3.Row) -> StoredMemory:
        return _from_row(StoredMemory, row, slots=sorted({r["slot"] for r in json.loads(row["records"])}))


DEMO: tuple[tuple[str, str, str], ...] = (
    ("m1", "2025-11-03", "User works in EST"),
    ("m2", "2025-11-03", "User prefers morning meetings"),
    ("m3", "2025-12-01", "User prefers meetings 9-10am on Tuesdays"),
    ("m4", "2026-05-02", "User moved to London last month"),
    ("m5", "2026-05-02", "User's dog is named Biscuit"),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the demo memories through a running server and print what is current and what changed."""
    from writegate.client import Client

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--target", default="127.0.0.1:50051", help="writegate server host:port")
    parser.add_argument("--db", default=":memory:", help="SQLite file (default: in memory)")
    parser.add_argument("--subject", default="user:alice")
    parser.add_argument("--top-k", type=int, default=8, help="candidates per write: the most similar live memories")
    args = parser.parse_args(argv)
    with Client(args.target, timeout=30) as client:
        store = MemoryStore(args.db, client, top_k=args.top_k)
        for memory_id, day, text in DEMO:
            at = datetime.fromisoformat(day).replace(tzinfo=UTC)
            result = store.write(text, subject=args.subject, observed_at=at, memory_id=memory_id)
            rels = ", ".join(f"{r.candidate_id}:{r.label.value}" for r in result.relations) or "no candidates"
            print(f"write {memory_id} {text!r} -> {result.new_role.value} ({rels})")
        print("\nwhat is current:")
        for m in store.current(args.subject):
            print(f"  {m.id} [{m.role.value}] {m.text}")
        print("\nwhat changed:")
        for c in store.changes(args.subject):
            print(
                f"  {c.memory_id} {c.old_role.value if c.old_role else '-'} -> {c.new_role.value}: "
                f"{c.label} by {c.caused_by} ({c.caused_by_text!r})"
            )
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
