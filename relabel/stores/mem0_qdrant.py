"""mem0's open-source default store: an embedded Qdrant (qdrant-client local mode) at a path.

`--input mem0:///path/to/qdrant?collection=mem0` (a relative path: `mem0:store/qdrant`). mem0 keeps
each memory as one Qdrant point of the collection; what it writes, as of mem0ai 2.2.1
(`mem0/memory/main.py`, `Memory._create_memory`, lines 1975-1994, and `Memory._update_memory`,
lines 2065-2080; `mem0/configs/vector_stores/qdrant.py`, lines 11 and 16; the entity ids of
`_build_filters_and_metadata`, lines 372-380):

- the point id: a `uuid4` (the memory id);
- the payload: `data` (the memory text), `hash` (md5 of `data`), `created_at` and `updated_at`
  (ISO 8601, UTC; an update rewrites `data` and `updated_at`, keeps `created_at`),
  `text_lemmatized`, the session ids it was added with — `user_id`, `agent_id`, `run_id` —,
  `role`, `actor_id` and the caller's metadata;
- the collection: `mem0` by default (`collection_name`), at `/tmp/qdrant` by default (`path`);
  entities (mem0 ≥ 2) live in another collection, which is not read.

A memory's subject is its `user_id` (`user:…`), else its `agent_id` (`agent:…`), else its
`run_id` (`run:…`), made an entity id by `entity_subject`; its `observed_at` is `updated_at` (the
time its current text was written), else `created_at`. `--columns text=…,observed_at=…` reads
other payload fields. The store is opened read-only in spirit: points are only scrolled; local
mode holds a lock on the directory, so stop the program using mem0 (or copy the directory) first.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from writegate.api.secrets import redact_url
from writegate.errors import InputError
from writegate.relabel.stores.base import HashedSource, StoreValues, entity_subject, need

SCHEMES = ("mem0",)
DEFAULT_COLLECTION = "mem0"
PAGE = 1000
OWNER_FIELDS: tuple[tuple[str, str], ...] = (("user_id", "user"), ("agent_id", "agent"), ("run_id", "run"))
MAPPABLE = ("text", "observed_at")


def parse_url(url: str) -> tuple[Path, str]:
    """`mem0:///abs/path?collection=C` or `mem0:rel/path` → (path, collection)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise InputError("--input", f"expected a mem0: URL, got {redact_url(url)!r}")
    if parts.netloc:
        raise InputError(
            "--input", f"mem0: takes a local path (mem0:///abs/path or mem0:rel/path), got {redact_url(url)!r}"
        )
    query = dict(parse_qsl(parts.query))
    if not parts.path:
        raise InputError("--input", f"name the store's directory: mem0:///path/to/qdrant, got {redact_url(url)!r}")
    return Path(unquote(parts.path)), query.get("collection") or DEFAULT_COLLECTION


def open_client(path: Path, flag: str = "--input") -> Any:
    """A qdrant-client in local mode on an existing store (never creates one)."""
    qdrant_client = need("qdrant_client", flag)
    if not (path / "meta.json").is_file():
        raise InputError(flag, f"{path} is not a Qdrant local store (no meta.json); mem0's default is /tmp/qdrant")
    try:
        return qdrant_client.QdrantClient(path=str(path))
    except RuntimeError as exc:  # the directory is locked by another client (mem0 still running)
        raise InputError(flag, f"cannot open {path}: {exc}") from None


class Mem0Source(HashedSource):
    """The memories of a mem0 local Qdrant store, as store rows (point-id order).

    Args:
        url: `mem0:///path?collection=mem0`.
        columns: payload field for `text` (default `data`) and `observed_at` (default `updated_at`,
            then `created_at`).
    """

    def __init__(self, url: str, columns: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.path, self.collection = parse_url(url)
        unknown = sorted(set(columns or {}) - set(MAPPABLE))
        if unknown:
            raise InputError(
                "--columns",
                f"a mem0 store maps only {', '.join(MAPPABLE)} (its ids and owners are "
                f"fixed), got {', '.join(unknown)}",
            )
        self.text_field = (columns or {}).get("text", "data")
        self.time_fields = (
            ((columns or {})["observed_at"],) if "observed_at" in (columns or {}) else ("updated_at", "created_at")
        )

    def describe(self) -> str:
        """The URL."""
        return f"mem0://{self.path.resolve()}?collection={self.collection}"

    def _read(self) -> Iterator[StoreValues]:
        client = open_client(self.path)
        try:
            names = [c.name for c in client.get_collections().collections]
            if self.collection not in names:
                raise InputError(
                    "--input",
                    f"no collection {self.collection!r} in {self.path} "
                    f"(it has: {', '.join(sorted(names)) or 'none'}); add ?collection=NAME",
                )
            offset = None
            while True:
                points, offset = client.scroll(
                    self.collection, limit=PAGE, offset=offset, with_payload=True, with_vectors=False
                )
                for point in points:
                    yield self.values(str(point.id), point.payload or {})
                if offset is None:
                    break
        finally:
            client.close()

    def values(self, point_id: str, payload: Mapping[str, Any]) -> StoreValues:
        """One point's (id, subject, text, observed_at)."""
        subject = None
        for field, kind in OWNER_FIELDS:
            if payload.get(field) not in (None, ""):
                subject = entity_subject(kind, payload[field])
                break
        observed_at = next((payload[f] for f in self.time_fields if payload.get(f) not in (None, "")), None)
        return point_id, subject, payload.get(self.text_field), observed_at


# -- writing mem0's layout (the walkthrough, tests, bench, where mem0 itself cannot run) -------------

ID_NAMESPACE = uuid.UUID("6f1c1c53-3b0e-4d55-9a40-0ad4b6a3e1f2")
DIMS = 8


def point_id(record_id: str) -> str:
    """A stable uuid for a record id (mem0 uses uuid4; any uuid is a valid point id)."""
    return str(uuid.uuid5(ID_NAMESPACE, record_id))


def owner(subject: str) -> tuple[str, str]:
    """`user:alice` → (`user_id`, `alice`); `agent:x` → `agent_id`; any other kind → `user_id`."""
    kind, _, slug = subject.partition(":")
    field = {"agent": "agent_id", "run": "run_id"}.get(kind, "user_id")
    return field, slug


def _vector(text: str) -> list[float]:
    # A fixed pseudo-embedding (mem0 stores the embedder's vector; relabel never reads it).
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [b / 255.0 + 0.01 for b in digest[:DIMS]]


def write_store(path: Path, records: Iterable[Mapping[str, Any]], collection: str = DEFAULT_COLLECTION) -> int:
    """Write `records` into a Qdrant local store at `path` exactly as mem0 lays out its memories.

    The collection is created as mem0 2.x creates it (cosine dense vectors, a `bm25` sparse slot);
    each record becomes a point whose payload has mem0's fields (`data`, `hash`, `created_at`,
    `updated_at` — the record's `observed_at` in UTC —, `text_lemmatized`, `role`, and the owner id
    from the subject). Returns the points written.
    """
    from writegate.normalizer.api import parse_observed_at

    qdrant_client = need("qdrant_client", "--input")
    models = qdrant_client.models
    path.mkdir(parents=True, exist_ok=True)
    client = qdrant_client.QdrantClient(path=str(path))
    try:
        if collection not in [c.name for c in client.get_collections().collections]:
            client.create_collection(
                collection_name=collection,
                vectors_config=models.VectorParams(size=DIMS, distance=models.Distance.COSINE, on_disk=True),
                sparse_vectors_config={"bm25": models.SparseVectorParams(modifier=models.Modifier.IDF)},
            )
        batch: list[Any] = []
        n = 0
        for rec in records:
            field, owner_id = owner(rec["subject"])
            stamp = parse_observed_at(rec["observed_at"]).isoformat()  # UTC, as mem0 writes its times
            payload = {
                field: owner_id,
                "role": "user",
                "data": rec["text"],
                "hash": hashlib.md5(rec["text"].encode()).hexdigest(),  # mem0's content hash
                "created_at": stamp,
                "updated_at": stamp,
                "text_lemmatized": rec["text"],
            }
            batch.append(
                models.PointStruct(id=point_id(str(rec["id"])), vector={"": _vector(rec["text"])}, payload=payload)
            )
            n += 1
            if len(batch) == PAGE:
                client.upsert(collection_name=collection, points=batch)
                batch = []
        if batch:
            client.upsert(collection_name=collection, points=batch)
    finally:
        client.close()
    return n
