"""`writegate relabel` on the stores people run: a PostgreSQL table and mem0's local Qdrant store in,
`writegate_*` tables out. Real services: a PostgreSQL server started for the session (`pg_server`),
qdrant-client in local mode (no server). A REAL relabel process is SIGKILLed at several points of
the write-back and rerun; its tables are compared with an uninterrupted run's.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pg_server as pg_fixtures
import pytest
from helpers import relabel_roles, relabel_summary

from writegate.api.secrets import redact_url as redact
from writegate.errors import InputError
from writegate.relabel.checkpoint import work_dir_for
from writegate.relabel.store import StoreRow, read_store
from writegate.relabel.stores import open_sink, open_source, scheme_of
from writegate.relabel.stores.base import entity_subject, parse_columns, store_row
from writegate.relabel.stores.jsonl import jsonl_rows

PgServer = pg_fixtures.PgServer
pg_server = pg_fixtures.pg_server  # the session fixture, requested by name

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "memories.jsonl"
CHUNK = "16"


def _records(copies: int = 4) -> list[dict[str, Any]]:
    """The example memories, `copies` times over (other subjects, later dates): a few hundred."""
    base = [json.loads(line) for line in EXAMPLES.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = []
    for c in range(copies):
        for rec in base:
            day = date.fromisoformat(rec["observed_at"]) + timedelta(days=3 * c)
            subject = rec["subject"] if c == 0 else f"{rec['subject']}{c}"
            out.append(
                {"id": f"{rec['id']}-{c}", "subject": subject, "text": rec["text"], "observed_at": day.isoformat()}
            )
    return out


def _values(source: Any) -> list[dict[str, Any]]:
    """The values of each row a source reads, by name; each row's `raw` is those values as a store line,
    and the rows are numbered from 1."""
    out = []
    for number, row in enumerate(source.rows(), start=1):
        assert isinstance(row, StoreRow) and row.line == number
        values = {"id": row.id, "subject": row.subject, "text": row.text, "observed_at": row.observed_at}
        assert json.loads(row.raw) == values
        out.append(values)
    return out


def _jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _relabel(input_: str, out: Path, model: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [
        sys.executable,
        "-m",
        "writegate.cli.main",
        "relabel",
        "--input",
        input_,
        "--out",
        str(out),
        "--model",
        str(model),
        "--chunk-size",
        CHUNK,
        "--batch-size",
        "8",
        "--quiet",
        *extra,
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)


def _tables(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every writegate_* table, rows sorted."""
    import psycopg

    order = {
        "writegate_runs": "run_id",
        "writegate_chunks": "run_id, chunk",
        "writegate_edges": "run_id, pair",
        "writegate_states": "run_id, memory_id",
    }
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY {o}").fetchall() for t, o in order.items()}


def _table_digest(url: str, table: str = "memories") -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            f"SELECT md5(string_agg(t::text, '|' ORDER BY t::text)), count(*) FROM {table} t"
        ).fetchone()
    return f"{rows[0]}:{rows[1]}"


# -- URLs, columns, subjects (no service) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "scheme"),
    [
        ("store.jsonl", ""),
        ("/abs/store.jsonl", ""),
        ("C:/x.jsonl", ""),
        ("file:///tmp/s.jsonl", "file"),
        ("postgresql://u@h:5432/db?table=t", "postgresql"),
        ("postgres://u@h/db", "postgres"),
        ("mem0:///tmp/q", "mem0"),
    ],
)
def test_scheme_picks_the_reader(spec: str, scheme: str) -> None:
    assert scheme_of(spec) == scheme


def test_open_source_dispatch_and_errors(tmp_path: Path) -> None:
    assert open_source(str(tmp_path / "s.jsonl")).file == tmp_path / "s.jsonl"
    assert open_source(f"file://{tmp_path}/s.jsonl").file == tmp_path / "s.jsonl"
    with pytest.raises(InputError, match="--input: unknown store scheme 'redis'"):
        open_source("redis://h/0")
    with pytest.raises(InputError, match="--columns: maps the columns of a postgresql"):
        open_source("s.jsonl", "id=x")
    with pytest.raises(
        InputError, match=r"--input: name the memories table: postgresql://u:\*\*\*@h/db\?table=memories"
    ):
        open_source("postgresql://u:secret@h/db")
    with pytest.raises(InputError, match="a mem0 store maps only text, observed_at|unknown name 'id'"):
        open_source("mem0:///tmp/q", "id=x")
    (tmp_path / "q").mkdir()
    (tmp_path / "q" / "meta.json").write_text("{}")
    with pytest.raises(InputError, match=f"is a Qdrant local store: read it as mem0://{tmp_path}/q"):
        open_source(str(tmp_path / "q"))
    with pytest.raises(InputError, match="--write-back: expected a postgresql:// URL"):
        open_sink("mem0:///x", source="s", keep_unrelated=False)
    with pytest.raises(InputError, match="--write-back: the --input table is one of the tables it writes"):
        open_sink("postgresql://u@h/db", source="postgresql://u@h/db?table=writegate_edges", keep_unrelated=False)


def test_a_database_row_is_checked_and_rejected_as_its_store_line() -> None:
    rows = [
        store_row(1, "a", "user:x", "hello", datetime(2026, 1, 2, 3, tzinfo=UTC)),
        store_row(2, "b", None, "hi", date(2026, 1, 1)),
    ]
    read = read_store(rows)
    [record] = read.records
    assert (record.id, record.observed_at) == ("a", datetime(2026, 1, 2, 3, tzinfo=UTC))
    [reject] = read.rejects
    assert (reject.line, reject.field, reject.error) == (2, "subject", "is required")
    assert reject.raw == '{"id": "b", "subject": null, "text": "hi", "observed_at": "2026-01-01"}'
    assert read_store(jsonl_rows([row.raw for row in rows])) == read  # the same lines of a JSONL store


def test_a_missing_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed: import raises ImportError
    monkeypatch.setitem(sys.modules, "qdrant_client", None)
    with pytest.raises(InputError, match=r"--input: needs the psycopg package: pip install 'writegate\[stores\]'"):
        list(open_source("postgresql://u@h/db?table=t").rows())
    with pytest.raises(
        InputError, match=r"--input: needs the qdrant_client package: pip install 'writegate\[stores\]'"
    ):
        list(open_source("mem0:///tmp/q").rows())


def test_columns_spec() -> None:
    assert parse_columns("id=memory_id, text = body") == {"id": "memory_id", "text": "body"}
    assert parse_columns(None) == {}
    for bad, message in [
        ("id", "expected name=column pairs"),
        ("who=x", "unknown name 'who'"),
        ("id=a,id=b", "'id' is given twice"),
        ("id=", "expected name=column pairs"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_columns(bad)


@pytest.mark.parametrize(
    ("kind", "raw", "want"),
    [
        ("user", "user:alice", "user:alice"),
        ("user", "alice", "user:alice"),
        ("agent", "support-bot", "agent:support-bot"),
        ("user", 42, "user:42"),
        ("user", "Alice", "user:alice-3bc51062"),
        ("user", "alice@example.com", None),
        ("user", "", None),
        ("user", None, None),
    ],
)
def test_entity_subject(kind: str, raw: object, want: str | None) -> None:
    got = entity_subject(kind, raw)
    if raw == "alice@example.com":
        assert (
            got is not None
            and got.startswith("user:alice-example.com-")
            and got != entity_subject("user", "Alice@example.com")
        )
    else:
        assert got == want


def test_redact() -> None:
    assert redact("postgresql://u:pw@h:5/db?table=t") == "postgresql://u:***@h:5/db?table=t"
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"


# -- mem0 (Qdrant local mode) -----------------------------------------------------------------------


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def test_mem0_layout_is_read_as_mem0_writes_it(tmp_path: Path) -> None:
    pytest.importorskip("qdrant_client")
    from writegate.relabel.stores.mem0_qdrant import point_id, write_store

    records = _records(1)
    records.append(
        {
            "id": "x1",
            "subject": "agent:support-bot",
            "text": "Escalate billing issues to Tom",
            "observed_at": "2026-01-02T03:04:05Z",
        }
    )
    store = tmp_path / "qdrant"
    assert write_store(store, records) == len(records)
    before = _tree_digest(store)
    source = open_source(f"mem0://{store}")
    lines = _values(source)
    assert _tree_digest(store) == before  # only read
    assert source.describe() == f"mem0://{store}?collection=mem0"
    by_id = {line["id"]: line for line in lines}
    assert len(by_id) == len(records)
    for rec in records:
        got = by_id[point_id(rec["id"])]
        assert got["subject"] == rec["subject"] and got["text"] == rec["text"]
    assert by_id[point_id("x1")]["observed_at"] == "2026-01-02T03:04:05+00:00"
    assert [line["id"] for line in lines] == sorted(by_id)  # point-id order: deterministic
    again = open_source(f"mem0://{store}")
    list(again.rows())
    assert again.sha256() == source.sha256()


def test_mem0_payload_fields_owner_precedence_and_columns(tmp_path: Path) -> None:
    qdrant_client = pytest.importorskip("qdrant_client")
    from writegate.relabel.stores.mem0_qdrant import Mem0Source

    store = tmp_path / "q"
    client = qdrant_client.QdrantClient(path=str(store))
    models = qdrant_client.models
    client.create_collection("memories", vectors_config=models.VectorParams(size=2, distance=models.Distance.COSINE))
    payloads = [
        {
            "user_id": "alice",
            "agent_id": "bot",
            "data": "I work in EST",
            "created_at": "2025-01-01T00:00:00+00:00",
            "updated_at": "2025-06-01T00:00:00+00:00",
        },
        {"agent_id": "Bot 7", "data": "Answer in French", "created_at": "2025-02-01T00:00:00+00:00"},
        {"run_id": "r1", "data": "Session note", "created_at": "2025-03-01T00:00:00+00:00", "updated_at": None},
        {"user_id": "bob", "created_at": "2025-04-01T00:00:00+00:00"},  # no text: a reject downstream
    ]
    ids = ["00000000-0000-0000-0000-00000000000" + str(i) for i in range(1, 5)]
    client.upsert(
        "memories", [models.PointStruct(id=i, vector=[0.1, 0.2], payload=p) for i, p in zip(ids, payloads, strict=True)]
    )
    client.close()
    lines = _values(Mem0Source(f"mem0://{store}?collection=memories"))
    assert [(x["subject"], x["text"], x["observed_at"]) for x in lines] == [
        ("user:alice", "I work in EST", "2025-06-01T00:00:00+00:00"),  # user_id wins; updated_at
        (entity_subject("agent", "Bot 7"), "Answer in French", "2025-02-01T00:00:00+00:00"),
        ("run:r1", "Session note", "2025-03-01T00:00:00+00:00"),
        ("user:bob", None, "2025-04-01T00:00:00+00:00"),
    ]
    created = [
        x["observed_at"]
        for x in _values(Mem0Source(f"mem0://{store}?collection=memories", {"observed_at": "created_at"}))
    ]
    assert created[0] == "2025-01-01T00:00:00+00:00"
    with pytest.raises(InputError, match="no collection 'mem0'"):
        list(Mem0Source(f"mem0://{store}").rows())


MEM0_SCRIPT = textwrap.dedent("""
    import json, os, sys
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault("OPENAI_API_KEY", "unused-offline")  # the LLM is never called with infer=False
    from mem0 import Memory
    from mem0.embeddings.mock import MockEmbeddings
    store, history = sys.argv[1], sys.argv[2]
    m = Memory.from_config({
        "vector_store": {"provider": "qdrant", "config": {"path": store, "collection_name": "mem0",
                                                          "embedding_model_dims": 10, "on_disk": True}},
        "embedder": {"provider": "openai", "config": {"embedding_dims": 10}},
        "history_db_path": history,
    })
    m.embedding_model = MockEmbeddings()  # mem0's own offline embedder (fixed 10-d vectors)
    for rec in map(json.loads, sys.stdin):
        kind, _, owner = rec["subject"].partition(":")
        who = {"agent_id": owner} if kind == "agent" else {"user_id": owner}
        m.add([{"role": "user", "content": rec["text"]}], infer=False,
              metadata={"created_at": rec["observed_at"] + "T00:00:00+00:00"}, **who)
    m.vector_store.client.close()
""")


def test_a_store_written_by_mem0_itself(tmp_path: Path) -> None:
    """mem0ai pins protobuf<7, writegate needs ≥7: mem0 runs in its own interpreter (WRITEGATE_MEM0_PYTHON)."""
    python = os.environ.get("WRITEGATE_MEM0_PYTHON")
    if not python:
        pytest.skip(
            "set WRITEGATE_MEM0_PYTHON to a python with mem0ai installed (its own venv: mem0ai pins protobuf<7)"
        )
    pytest.importorskip("qdrant_client")
    records = [r for r in _records(1) if r["subject"] in ("user:alice", "user:bob")][:12]
    store = tmp_path / "qdrant"
    done = subprocess.run(
        [python, "-c", MEM0_SCRIPT, str(store), str(tmp_path / "history.db")],
        input="".join(json.dumps(r) + "\n" for r in records),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = _values(open_source(f"mem0://{store}"))
    assert sorted((x["subject"], x["text"], x["observed_at"][:10]) for x in lines) == sorted(
        (r["subject"], r["text"], r["observed_at"]) for r in records
    )


def test_relabel_a_mem0_store_end_to_end(tmp_path: Path, tiny_model_dir: Path) -> None:
    pytest.importorskip("qdrant_client")
    from writegate.relabel.stores.mem0_qdrant import point_id, write_store

    records = _records(1)
    write_store(tmp_path / "qdrant", records)
    done = _relabel(
        f"mem0://{tmp_path / 'qdrant'}",
        tmp_path / "out" / "edges.jsonl",
        tiny_model_dir,
        "--report",
        str(tmp_path / "out" / "report.html"),
    )
    assert done.returncode == 0, done.stderr
    summary = relabel_summary(tmp_path / "out" / "edges.jsonl")
    assert summary["input"] == f"mem0://{tmp_path / 'qdrant'}?collection=mem0"
    assert summary["records"]["accepted"] == len(records) and summary["records"]["rejected"] == 0
    assert set(relabel_roles(tmp_path / "out" / "edges.jsonl")) == {point_id(r["id"]) for r in records}
    assert (tmp_path / "out" / "report.html").stat().st_size > 1000


# -- PostgreSQL ---------------------------------------------------------------------------------------


def test_postgres_reader_order_columns_types_and_read_only(pg_server: PgServer) -> None:
    import psycopg

    url = pg_server.create_db("reader")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (memory_id integer PRIMARY KEY, owner text, body text, seen date)")
        conn.execute(
            "INSERT INTO notes VALUES (3, 'alice', 'I work in EST', '2025-01-02'), "
            "(1, 'user:bob', 'Bob was born in Lyon', '2025-01-02'), (2, 'Alice', 'I like tea', '2024-12-31'), "
            "(4, NULL, 'orphan', '2025-02-01'), (5, 'carol', 'no date', NULL)"
        )
    before = _table_digest(url, "notes")
    source = open_source(f"{url}?table=notes", "id=memory_id,subject=owner,text=body,observed_at=seen")
    lines = _values(source)
    assert [(x["id"], x["subject"], x["observed_at"]) for x in lines] == [
        ("2", entity_subject("user", "Alice"), "2024-12-31"),
        ("1", "user:bob", "2025-01-02"),  # same date: id order ('1' < '3')
        ("3", "user:alice", "2025-01-02"),
        ("4", None, "2025-02-01"),
        ("5", "user:carol", None),  # NULL dates last; a reject downstream
    ]
    assert _table_digest(url, "notes") == before
    with pytest.raises(
        InputError,
        match=r"--columns: column \"text\" does not exist \(table 'notes' has: memory_id, owner, "
        r"body, seen\)",
    ):
        list(open_source(f"{url}?table=notes", "id=memory_id,subject=owner,observed_at=seen").rows())
    with pytest.raises(InputError, match="--input: no table 'nope'"):
        list(open_source(f"{url}?table=nope").rows())
    with pytest.raises(InputError, match="--input: cannot connect to"):
        list(open_source(pg_server.url("no_such_db", table="t")).rows())


def test_postgres_reader_streams_with_a_server_side_cursor(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from writegate.relabel.stores import postgres

    url = pg_server.create_db("stream")
    postgres.create_table(f"{url}?table=memories", _records(1))
    monkeypatch.setattr(postgres, "ITERSIZE", 7)
    rows = open_source(f"{url}?table=memories").rows()
    first = [next(rows) for _ in range(10)]  # mid-way: the cursor is open on the server
    with psycopg.connect(url) as conn:
        queries = [
            r[0]
            for r in conn.execute(
                "SELECT query FROM pg_stat_activity WHERE datname = 'stream' AND pid <> pg_backend_pid()"
            ).fetchall()
        ]
    assert any(q.startswith('FETCH FORWARD 7 FROM "writegate_relabel"') for q in queries), queries
    rest = list(rows)
    assert len(first) + len(rest) == 48


@pytest.fixture(scope="module")
def pg_reference(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> dict[str, Any]:
    """A memories table, the JSONL path's files, and an uninterrupted Postgres run's files and tables."""
    root = tmp_path_factory.mktemp("pg_ref")
    records = _records()
    store = _jsonl(root / "store.jsonl", records)
    jsonl = _relabel(str(store), root / "jsonl" / "edges.jsonl", tiny_model_dir)
    assert jsonl.returncode == 0, jsonl.stderr
    source_db = pg_server.create_db("memories_src")
    table = f"{source_db}?table=memories"
    from writegate.relabel.stores.postgres import create_table

    create_table(table, records)
    digest = _table_digest(source_db)
    results = pg_server.create_db("ref_results")
    ref = _relabel(
        table,
        root / "pg" / "edges.jsonl",
        tiny_model_dir,
        "--write-back",
        results,
        "--report",
        str(root / "pg" / "report.html"),
    )
    assert ref.returncode == 0, ref.stderr
    assert _table_digest(source_db) == digest  # the user's table is never modified
    files = {p.name: p.read_bytes() for p in sorted((root / "pg").iterdir())}
    tables = _tables(results)
    assert len(files["edges.jsonl"].splitlines()) > 3 * int(CHUNK)
    return {
        "table": table,
        "source_db": source_db,
        "files": files,
        "tables": tables,
        "jsonl": root / "jsonl",
        "records": records,
        "results": results,
    }


def test_postgres_gives_the_same_edges_as_jsonl(pg_reference: dict[str, Any]) -> None:
    files, jsonl = pg_reference["files"], pg_reference["jsonl"]
    assert files["edges.jsonl"] == (jsonl / "edges.jsonl").read_bytes()
    pg_summary, file_summary = json.loads(files["edges.summary.json"]), relabel_summary(jsonl / "edges.jsonl")
    for kind in ("rejects", "conflicts", "roles"):
        assert files[f"edges.{kind}.jsonl"] == (jsonl / f"edges.{kind}.jsonl").read_bytes()
    assert pg_summary.pop("input") == pg_reference["table"]
    file_summary.pop("input")
    assert pg_summary == file_summary


def test_write_back_tables_hold_the_edges_and_roles(pg_reference: dict[str, Any]) -> None:
    tables = pg_reference["tables"]
    summary = json.loads(pg_reference["files"]["edges.summary.json"])
    roles = [json.loads(line) for line in pg_reference["files"]["edges.roles.jsonl"].splitlines()]
    edges = [json.loads(line) for line in pg_reference["files"]["edges.jsonl"].splitlines()]
    (run,) = tables["writegate_runs"]
    run_id, source, model_name, model_version = run[:4]
    assert source == pg_reference["table"] and run[-1] is True  # complete
    assert (model_name, model_version) == (summary["model"]["name"], summary["model"]["version"])
    db_edges = [
        {
            "new_id": r[2],
            "existing_id": r[3],
            "label": r[4],
            "scores": r[5],
            "evidence": r[6],
            "slot_match": r[7],
            "review": r[8],
        }
        for r in tables["writegate_edges"]
    ]
    assert db_edges == edges  # ORDER BY pair = the file's order, unrelated left out
    assert all(r[0] == run_id and r[9:] == (model_name, model_version) for r in tables["writegate_edges"])
    assert {r[1]: r[3] for r in tables["writegate_states"]} == {r["id"]: r["role"] for r in roles}
    assert {r[1]: r[4] for r in tables["writegate_states"] if r[4]} == {
        r["id"]: r["superseded_by"] for r in roles if "superseded_by" in r
    }
    assert len(tables["writegate_chunks"]) == -(-summary["pairs"]["classified"] // int(CHUNK))


CRASH_POINTS = [
    ["chunk:1"],  # the file has chunk 1, the database not yet: the resume writes it from the file
    ["db-chunk-written:2"],  # inside chunk 2's transaction: rolled back
    ["db-chunk:3"],  # chunk 3 in both
    ["db-states-written"],  # inside the last transaction
    ["db-done"],  # the tables complete, the files not yet renamed
    ["final-done"],  # everything done: a rerun does it again, same rows
    ["chunk:0", "db-chunk-written:4", "db-chunk:6", "db-states-written"],  # killed four times in a row
]


@pytest.mark.parametrize("points", CRASH_POINTS, ids=["+".join(p) for p in CRASH_POINTS])
def test_sigkill_during_write_back_then_rerun_gives_the_same_tables(
    pg_server: PgServer,
    pg_reference: dict[str, Any],
    tmp_path: Path,
    tiny_model_dir: Path,
    points: list[str],
) -> None:
    results = pg_server.create_db("crash_" + hashlib.sha1("+".join(points).encode()).hexdigest()[:8])
    out = tmp_path / "edges.jsonl"
    for point in points:
        killed = _relabel(pg_reference["table"], out, tiny_model_dir, "--write-back", results, "--_crash-at", point)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
    rerun = _relabel(pg_reference["table"], out, tiny_model_dir, "--write-back", results)
    assert rerun.returncode == 0, rerun.stderr
    assert _tables(results) == pg_reference["tables"]
    assert out.read_bytes() == pg_reference["files"]["edges.jsonl"]
    assert not work_dir_for(out).exists()


def test_a_new_run_of_the_same_input_and_model_replaces_the_old_rows(
    pg_server: PgServer,
    pg_reference: dict[str, Any],
    tmp_path: Path,
    tiny_model_dir: Path,
) -> None:
    results = pg_server.create_db("replace_runs")
    for k in ("8", "3"):
        done = _relabel(
            pg_reference["table"], tmp_path / k / "edges.jsonl", tiny_model_dir, "--write-back", results, "-k", k
        )
        assert done.returncode == 0, done.stderr
    tables = _tables(results)
    assert (
        len(tables["writegate_runs"]) == 1
        and tables["writegate_runs"][0] != pg_reference["tables"]["writegate_runs"][0]
    )
    assert len(tables["writegate_edges"]) == len((tmp_path / "3" / "edges.jsonl").read_text().splitlines())
    assert {r[0] for r in tables["writegate_states"]} == {tables["writegate_runs"][0][0]}


def test_two_runs_writing_one_run_are_refused(pg_server: PgServer, pg_reference: dict[str, Any]) -> None:
    """The advisory lock: a second writer of the same run fails at once, it does not interleave."""
    import psycopg

    from writegate.relabel.stores.postgres import PostgresSink

    results = pg_server.create_db("locked")

    class Ckpt:
        manifest = {"fingerprint": {"x": 1}, "plan_sha256": "p", "items": 0, "chunk_size": 4}
        committed = 0
        on_step = staticmethod(lambda step: None)

    first = PostgresSink(results, source="s", keep_unrelated=False)
    first.begin(Ckpt(), None, {"name": "m", "version": "1"})  # type: ignore[arg-type]
    second = PostgresSink(results, source="s", keep_unrelated=False)
    with pytest.raises(InputError, match="another relabel run is writing run"):
        second.begin(Ckpt(), None, {"name": "m", "version": "1"})  # type: ignore[arg-type]
    first.close()
    second.close()
    with psycopg.connect(results) as conn:
        assert conn.execute("SELECT count(*) FROM writegate_runs").fetchone() == (1,)


def test_write_back_leaves_the_memories_table_alone_in_the_same_database(
    pg_server: PgServer,
    tmp_path: Path,
    tiny_model_dir: Path,
) -> None:
    from writegate.relabel.stores.postgres import create_table

    url = pg_server.create_db("same_db")
    create_table(f"{url}?table=public.memories", _records(1))
    digest = _table_digest(url)
    done = _relabel(f"{url}?table=public.memories", tmp_path / "edges.jsonl", tiny_model_dir, "--write-back", url)
    assert done.returncode == 0, done.stderr
    assert _table_digest(url) == digest
    assert len(_tables(url)["writegate_states"]) == 48


def test_cli_errors_name_the_flag(tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from writegate.cli.main import main

    store = _jsonl(tmp_path / "s.jsonl", _records(1))
    argv = ["relabel", "--input", str(store), "--out", str(tmp_path / "e.jsonl"), "--model", str(tiny_model_dir)]
    assert main([*argv, "--columns", "id=x"]) == 2
    assert "--columns: maps the columns" in capsys.readouterr().err
    assert main([*argv, "--write-back", "sqlite:///x.db"]) == 2
    assert "--write-back: expected a postgresql:// URL" in capsys.readouterr().err
    assert main([*argv, "--report", str(store)]) == 2
    assert "--report: " in capsys.readouterr().err


def test_two_reads_of_a_table_hash_the_same(pg_server: PgServer) -> None:
    """The order is total (observed_at, id), so a resumed run sees the same input hash."""
    from writegate.relabel.stores.postgres import create_table

    url = pg_server.create_db("twice")
    create_table(f"{url}?table=memories", _records(2))
    sources = [open_source(f"{url}?table=memories") for _ in range(2)]
    for source in sources:
        assert sum(1 for _ in source.rows()) == 96
    assert sources[0].sha256() == sources[1].sha256()


SHIPPED = Path(__file__).resolve().parent.parent / "models" / "default"


@pytest.mark.slow
@pytest.mark.skipif(not (SHIPPED / "writegate.json").is_file(), reason="the shipped model is not present")
def test_write_back_of_a_correction_on_the_shipped_model(pg_server: PgServer, tmp_path: Path) -> None:
    """The speaker took "Ella" back five minutes later: `retracted` in writegate_states, the edge's
    evidence `correction`; a plain conflict stays `in_conflict`."""
    from writegate.relabel.stores.postgres import create_table

    records = [
        {
            "id": "d1",
            "subject": "user:dana",
            "text": "My daughter's name is Ella",
            "observed_at": "2026-03-01T10:00:00Z",
        },
        {
            "id": "d2",
            "subject": "user:dana",
            "text": "Actually, my daughter's name is Ellie, not Ella",
            "observed_at": "2026-03-01T10:05:00Z",
        },
        {"id": "e1", "subject": "user:erin", "text": "Erin was born in Lyon", "observed_at": "2026-03-01"},
        {"id": "e2", "subject": "user:erin", "text": "Erin was born in Nice", "observed_at": "2026-03-01"},
    ]
    source = pg_server.create_db("corrections_src")
    create_table(f"{source}?table=memories", records)
    results = pg_server.create_db("corrections_results")
    done = _relabel(f"{source}?table=memories", tmp_path / "edges.jsonl", SHIPPED, "--write-back", results)
    assert done.returncode == 0, done.stderr
    tables = _tables(results)
    assert {r[1]: r[3] for r in tables["writegate_states"]} == {
        "d1": "retracted",
        "d2": "current",
        "e1": "in_conflict",
        "e2": "in_conflict",
    }
    edges = {(r[3], r[2]): (r[4], r[6]) for r in tables["writegate_edges"]}
    assert edges["d1", "d2"] == ("contradicts", "correction")
    assert edges["e1", "e2"][0] == "contradicts" and edges["e1", "e2"][1] != "correction"
    assert relabel_roles(tmp_path / "edges.jsonl") == {r[1]: r[3] for r in tables["writegate_states"]}
