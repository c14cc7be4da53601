"""A hostile or careless user against `writegate relabel`: secrets in URLs, links planted beside
`--out`, outputs that clash, strings that look like the report's markers, a database the run cannot
write, a disk that fills up. Each case is refused with one line before any work, or the run
completes without touching anything outside its outputs and without a secret in any of them.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pg_server as pg_fixtures
import pytest
from helpers import RuleEngine, relabel_jsonl, relabel_side, relabel_summary
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writegate.api.secrets import redact_url
from writegate.classifier.labels import Label
from writegate.errors import InputError
from writegate.relabel import checkpoint
from writegate.relabel.report import ReportSink
from writegate.relabel.run import RelabelOptions, relabel
from writegate.relabel.store import RAW_BASE64_BYTES, read_store
from writegate.relabel.stores.jsonl import jsonl_rows
from writegate.relabel.stores.postgres import DDL, PostgresSink, _split, table_parts

pg_server = pg_fixtures.pg_server  # the session fixture, requested by name
PgServer = pg_fixtures.PgServer

LYON, MARSEILLE, DOG = "User was born in Lyon", "User was born in Marseille", "User has a dog named Biscuit"
STORE = [
    ("r1", "user:alice", LYON, "2026-01-01"),
    ("r2", "user:alice", MARSEILLE, "2026-04-01"),
    ("r3", "user:alice", DOG, "2026-02-01"),
]
RULES = {(LYON, MARSEILLE): (Label.CONTRADICTS, 0.9)}
SECRET = "S3cretPw"


def _store(path: Path, rows: list[tuple[str, str, str, str]] = STORE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"id": i, "subject": s, "text": t, "observed_at": d}) for i, s, t, d in rows]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _run(store: Path, out: Path, **options: Any) -> None:
    sinks = options.pop("sinks", ())
    relabel(RelabelOptions(input=store, out=out, k=4, **options), RuleEngine(RULES), sinks=sinks)


def _cli(*argv: str, limit_bytes: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # a "full disk": writes past the limit fail with EFBIG
        if limit_bytes is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return subprocess.run(
        [sys.executable, "-m", "writegate.cli.main", "relabel", "--quiet", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=limit if limit_bytes is not None else None,
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# -- 1. secrets never leave the process ------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "want"),
    [
        ("postgresql://me:S3cret@h:5432/db?table=t", "postgresql://me:***@h:5432/db?table=t"),
        ("postgresql://me@h/db?table=t&password=S3cret", "postgresql://me@h/db?table=t&password=***"),
        ("postgresql://me@h/db?sslpassword=a&PASSWORD=b&x=1", "postgresql://me@h/db?sslpassword=***&PASSWORD=***&x=1"),
        ("postgresql://u:p%40ss@[::1]:5/db?options=-c%20a%3Db", "postgresql://u:***@[::1]:5/db?options=-c%20a%3Db"),
        ("mem0:///tmp/q?collection=c&api_key=k1", "mem0:///tmp/q?collection=c&api_key=***"),
        ("ray://h:10001#access_token=t", "ray://h:10001#access_token=***"),
        ("postgresql://me@h/db?table=t", "postgresql://me@h/db?table=t"),
        ("postgresql://a:b@c@h/db", "postgresql://a:***@h/db"),
        ("/plain/path.jsonl", "/plain/path.jsonl"),
        ("postgresql://me@h:notaport/db?token=t", "postgresql://me@h:notaport/db?token=***"),
    ],
)
def test_redact_url(url: str, want: str) -> None:
    assert redact_url(url) == want


def test_no_secret_in_any_output_log_or_table(pg_server: PgServer, tmp_path: Path, tiny_model_dir: Path) -> None:
    from writegate.relabel.stores.postgres import create_table

    source = pg_server.create_db("secret_src")
    rows = [{"id": i, "subject": s, "text": t, "observed_at": d} for i, s, t, d in STORE]
    create_table(source + "?table=memories", rows)
    results = pg_server.create_db("secret_results")
    # trust auth: the server ignores the passwords, so the run succeeds with them in every place
    with_pw = source.replace("writegate@", f"writegate:{SECRET}1@") + f"?table=memories&password={SECRET}2"
    write_back = results + f"?sslpassword={SECRET}3&password={SECRET}4"
    out = tmp_path / "o" / "edges.jsonl"
    report = tmp_path / "o" / "report.html"
    done = _cli("--input", with_pw, "--out", str(out), "--model", str(tiny_model_dir), "--keep-unrelated")
    done2 = _cli(
        "--input", with_pw, "--out", str(out), "--model", str(tiny_model_dir), "--write-back", write_back,
        "--report", str(report), "--restart",
    )  # fmt: skip
    assert done.returncode == done2.returncode == 0, done.stderr + done2.stderr
    import psycopg

    with psycopg.connect(results) as conn:
        stored = conn.execute("SELECT source FROM writegate_runs").fetchall()
    assert stored and all("***" in source for (source,) in stored)
    texts = {"stderr": done.stderr + done2.stderr, "tables": json.dumps(stored)}
    texts |= {name: data.decode("utf-8", "replace") for name, data in _tree(tmp_path / "o").items()}
    assert relabel_summary(out)["input"].count("***") == 2
    for name, text in texts.items():
        assert SECRET not in text, name
    bad = _cli(
        "--input", with_pw.replace("127.0.0.1", "127.0.0.2") + "&connect_timeout=2", "--out", str(out),
        "--model", str(tiny_model_dir),
    )  # fmt: skip
    assert bad.returncode == 2 and SECRET not in bad.stderr and "***" in bad.stderr


# -- 2. nothing outside the run's outputs is touched ---------------------------------------------------


def test_links_planted_beside_out_are_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    store = _store(tmp_path / "store.jsonl")
    o = tmp_path / "o"
    o.mkdir()
    # every name a run writes, or wrote in earlier versions, as a link to the victim's file
    for name in ("summary.json.tmp", "edges.jsonl.tmp", "edges.summary.json", "edges.rejects.jsonl", "rejects.jsonl"):
        (o / name).symlink_to(victim / "precious.txt")
    _run(store, o / "edges.jsonl")
    assert (victim / "precious.txt").read_text() == "keep me"
    assert (
        not (o / "edges.summary.json").is_symlink() and relabel_summary(o / "edges.jsonl")["records"]["accepted"] == 3
    )


@pytest.mark.parametrize("name", [".edges.jsonl.relabel", ".edges.jsonl.relabel.done"])
def test_a_link_at_the_work_directory_is_refused_and_its_target_kept(tmp_path: Path, name: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "chunk-000000.jsonl").write_text("not yours")
    (victim / "manifest.json").write_text("{}")
    store = _store(tmp_path / "store.jsonl")
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / name).symlink_to(victim, target_is_directory=True)
    with pytest.raises(InputError) as info:
        _run(store, tmp_path / "o" / "edges.jsonl")
    assert str(info.value) == (
        f"--out: {tmp_path / 'o' / name} is a symbolic link, not relabel's work directory: remove it"
    )
    assert sorted(p.name for p in victim.iterdir()) == ["chunk-000000.jsonl", "manifest.json"]


def test_a_work_directory_with_foreign_files_is_not_emptied(tmp_path: Path) -> None:
    store = _store(tmp_path / "store.jsonl")
    done = tmp_path / "o" / ".edges.jsonl.relabel.done"
    done.mkdir(parents=True)
    (done / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match=r"holds files relabel did not write \(notes.txt\): remove them"):
        _run(store, tmp_path / "o" / "edges.jsonl")
    assert (done / "notes.txt").read_text() == "mine"


def test_a_link_at_the_lock_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path / "store.jsonl")
    work = tmp_path / "o" / ".edges.jsonl.relabel"
    work.mkdir(parents=True, mode=0o700)
    (work / "lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(InputError, match="cannot take the lock .*lock: Too many levels of symbolic links"):
        _run(store, tmp_path / "o" / "edges.jsonl")
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the directory to another user")
def test_a_work_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path / "store.jsonl")
    work = tmp_path / "o" / ".edges.jsonl.relabel"
    work.mkdir(parents=True)
    os.chown(work, 65534, 65534)
    with pytest.raises(InputError, match=r"belongs to another user \(uid 65534\)"):
        _run(store, tmp_path / "o" / "edges.jsonl")


def test_the_work_directory_is_private(tmp_path: Path) -> None:
    out = tmp_path / "edges.jsonl"
    lock = checkpoint.lock_work_dir(out)
    try:
        assert checkpoint.work_dir_for(out).stat().st_mode & 0o777 == 0o700
    finally:
        lock.close()


# -- 3. outputs never overwrite each other ---------------------------------------------------------------


def test_two_runs_in_one_folder_share_no_file(tmp_path: Path) -> None:
    a = _store(tmp_path / "a.jsonl", [*STORE, ("bad", "user:X", "x", "2026-01-01")])
    b = _store(tmp_path / "b.jsonl")
    _run(a, tmp_path / "o" / "a.jsonl")
    first = _tree(tmp_path / "o")
    _run(b, tmp_path / "o" / "b.jsonl")
    after = _tree(tmp_path / "o")
    assert {k: v for k, v in after.items() if k.startswith("a.")} == first
    assert [r["line"] for r in relabel_jsonl(tmp_path / "o" / "a.jsonl", "rejects.jsonl")] == [4]
    assert relabel_jsonl(tmp_path / "o" / "b.jsonl", "rejects.jsonl") == []


@pytest.mark.parametrize(
    ("out", "report", "message"),
    [
        ("o/e.jsonl", "o/e.jsonl", "--report: o/e.jsonl would hold both the edges and the report: choose another path"),
        (
            "o/e.jsonl",
            "o/e.summary.json",
            "--report: o/e.summary.json would hold both the summary and the report: choose another path",
        ),
        ("o/e.jsonl", "store.jsonl", "--report: relabel would write the report to store.jsonl, which is the --input"),
        ("o/e.jsonl", "o/.e.jsonl.relabel/r.html", "--report: o/.e.jsonl.relabel/r.html (the report) is inside"),
        ("o/e.jsonl", "o", "--report: o (the report) is a directory"),
        ("o/e.summary.json", None, "--out: 'e.summary.json' ends like a relabel side file (.summary.json)"),
        ("o/x.rejects.jsonl", None, "--out: 'x.rejects.jsonl' ends like a relabel side file (.rejects.jsonl)"),
        ("store.jsonl/e.jsonl", None, "--out: cannot write in store.jsonl: "),
        ("o/e.jsonl", "store.jsonl/r.html", "--report: cannot write in store.jsonl: "),
    ],
)
def test_clashing_outputs_are_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: str, report: str | None, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _store(tmp_path / "store.jsonl")
    (tmp_path / "o").mkdir()
    before = _tree(tmp_path)
    argv = ["--input", "store.jsonl", "--out", out, "--model", "no-such-model"]
    done = _cli(*argv, *(["--report", report] if report else []))
    assert done.returncode == 2 and done.stderr.startswith(f"writegate relabel: error: {message}"), done.stderr
    assert len(done.stderr.splitlines()) == 1  # one line, no traceback; the model was never looked at
    assert _tree(tmp_path) == before


# -- 4. the report's structure holds whatever the input says --------------------------------------------


def test_marker_strings_in_the_input_stay_data(tmp_path: Path) -> None:
    weird = "__DATA__ </script><script>alert(1)</script> __TITLE__"
    store = _store(tmp_path / "__DATA__" / "store.jsonl", [("r1", "user:a", f"{weird} and more", "2026-01-01")])
    report = tmp_path / "__DATA__" / "r.html"
    _run(store, tmp_path / "o" / "e.jsonl", sinks=[ReportSink(report, source=weird)])
    page = report.read_text(encoding="utf-8")
    assert page.count('<script type="application/json" id="data">') == 1
    head, _, rest = page.partition('<script type="application/json" id="data">')
    data = json.loads(rest.partition("</script>")[0])
    assert data["meta"]["source"] == weird and data["m"][0][1] == f"{weird} and more"
    title = "writegate relabel — __DATA__ &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; __TITLE__"
    assert f"<title>{title}</title>" in head


# -- 5. every check that can fail comes before the work ------------------------------------------------


def _role_url(pg: PgServer, db: str, role: str) -> str:
    return pg.url(db).replace(f"{pg_fixtures.SUPERUSER}@", f"{role}@")


def _sql(url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def test_write_back_checks_fail_before_any_work(pg_server: PgServer, tmp_path: Path) -> None:
    db = pg_server.create_db("wb_checks")
    _sql(pg_server.url(), "DROP ROLE IF EXISTS lowly", "CREATE ROLE lowly LOGIN")
    store = _store(tmp_path / "store.jsonl")

    def attempt(url: str) -> str:
        engine = RuleEngine(RULES)
        with pytest.raises(InputError) as info:
            relabel(
                RelabelOptions(input=store, out=tmp_path / "o" / "e.jsonl"),
                engine,
                sinks=[PostgresSink(url, source=str(store))],
            )
        assert engine.seen == [] and not (tmp_path / "o" / ".e.jsonl.relabel").exists()  # nothing classified
        return str(info.value)

    # PostgreSQL 15: PUBLIC may not create in schema public
    assert attempt(_role_url(pg_server, "wb_checks", "lowly")) == (
        "--write-back: user lowly may not create tables in schema public (needed for writegate_runs, "
        "writegate_chunks, writegate_edges, writegate_states): GRANT CREATE ON SCHEMA public TO lowly, "
        "or create the tables first (docs/stores.md)"
    )
    _sql(db, DDL)
    assert attempt(_role_url(pg_server, "wb_checks", "lowly")) == (
        "--write-back: user lowly lacks SELECT on table public.writegate_runs: "
        "GRANT SELECT, INSERT, UPDATE, DELETE ON public.writegate_runs TO lowly"
    )
    _sql(db, "ALTER TABLE writegate_edges DROP COLUMN scores")
    assert attempt(db).startswith(
        "--write-back: table public.writegate_edges exists without column scores (jsonb): it was not made by "
    )
    _sql(db, "ALTER TABLE writegate_edges ADD COLUMN scores text")
    assert attempt(db).startswith("--write-back: column public.writegate_edges.scores is text, relabel writes jsonb")

    # a column added in a later version (`review`) is not a reason to refuse: the DDL adds it
    _sql(db, "ALTER TABLE writegate_edges DROP COLUMN scores")
    _sql(db, "ALTER TABLE writegate_edges ADD COLUMN scores jsonb NOT NULL")
    _sql(db, "ALTER TABLE writegate_edges DROP COLUMN review")
    PostgresSink(db, source="x").check()
    _sql(db, DDL)
    import psycopg

    with psycopg.connect(db) as conn:
        added = conn.execute(
            "SELECT data_type, column_default FROM information_schema.columns "
            "WHERE table_name = 'writegate_edges' AND column_name = 'review'"
        ).fetchall()
    assert added == [("boolean", "false")]


def test_a_full_disk_is_one_line_and_the_rerun_resumes(tmp_path: Path, tiny_model_dir: Path) -> None:
    rows = [(f"r{i}", "user:alice", f"User likes item number {i}", f"2026-01-{1 + i % 28:02d}") for i in range(60)]
    store = _store(tmp_path / "store.jsonl", rows)
    ref, out = tmp_path / "ref" / "e.jsonl", tmp_path / "run" / "e.jsonl"
    common = ["--input", str(store), "--model", str(tiny_model_dir), "--keep-unrelated", "--chunk-size", "16"]
    assert _cli(*common, "--out", str(ref)).returncode == 0
    full = _cli(*common, "--out", str(out), limit_bytes=12_000)
    assert full.returncode == 2, full.stderr
    (line,) = [x for x in full.stderr.splitlines() if "error" in x]
    assert line.startswith("writegate relabel: error: --out: cannot write ") and "File too large; rerun" in line
    assert "Traceback" not in full.stderr
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]
    again = _cli(*common, "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert _tree(out.parent) == _tree(ref.parent)


# -- 7. smaller ones -----------------------------------------------------------------------------------


def test_a_subject_with_a_trailing_newline_is_a_subject_reject() -> None:
    read = read_store(
        jsonl_rows([json.dumps({"id": "a", "subject": "user:bob\n", "text": "x", "observed_at": "2026-01-01"})])
    )
    (reject,) = read.rejects
    assert reject.field == "subject" and "got 'user:bob\\n'" in reject.error


def test_a_long_invalid_utf8_line_keeps_a_bounded_excerpt() -> None:
    raw = ("\udcff" * 10_000) + "x" * 100_000
    (reject,) = read_store(jsonl_rows([raw])).rejects
    assert len(reject.raw) == 500 and reject.raw_bytes == 110_000
    import base64

    assert base64.b64decode(reject.raw_base64 or "") == b"\xff" * RAW_BASE64_BYTES
    short = read_store(jsonl_rows(["\udcff{"])).rejects[0]
    assert base64.b64decode(short.raw_base64 or "") == b"\xff{" and short.raw_bytes is None


@pytest.mark.parametrize(
    ("name", "parts"),
    [("memories", ("memories",)), ("s.t", ("s", "t")), ('"my.table"', ("my.table",)), ('s."a.b"', ("s", "a.b"))],
)
def test_table_names_with_quoted_dots(name: str, parts: tuple[str, ...]) -> None:
    assert table_parts(name, "--input") == parts
    assert table_parts('"a""b"', "--input") == ('a"b',)


@pytest.mark.parametrize("bad", ["a.b.c", "a..b", '"open', '"a"b', ""])
def test_bad_table_names_are_refused(bad: str) -> None:
    with pytest.raises(InputError, match="^--input: "):
        table_parts(bad, "--input")


def test_libpq_options_keep_their_spaces() -> None:
    conninfo, ours = _split("postgresql://u@h/db?table=t&options=-c%20search_path%3Dx", "--input", ("table",))
    assert conninfo == "postgresql://u@h/db?options=-c%20search_path%3Dx" and ours == {"table": "t"}


def test_a_quoted_table_with_a_dot_is_read(pg_server: PgServer, tmp_path: Path) -> None:
    from writegate.relabel.stores import open_source

    db = pg_server.create_db("dotted")
    _sql(
        db,
        'CREATE TABLE "my.memories" (id text, subject text, text text, observed_at timestamptz)',
        "INSERT INTO \"my.memories\" VALUES ('a', 'user:x', 'hello', '2026-01-01')",
    )
    rows = list(open_source(db + '?table="my.memories"&options=-c%20statement_timeout%3D5000').rows())
    assert len(rows) == 1 and rows[0].id == "a"


def test_the_summary_does_not_grow_with_the_store(tmp_path: Path) -> None:
    small = _store(tmp_path / "s.jsonl")
    big = _store(tmp_path / "b.jsonl", [(f"x{i}", f"user:u{i % 40}", f"fact {i}", "2026-01-01") for i in range(400)])
    _run(small, tmp_path / "s" / "e.jsonl")
    _run(big, tmp_path / "b" / "e.jsonl")
    sizes = [relabel_side(tmp_path / d / "e.jsonl", "summary.json").stat().st_size for d in ("s", "b")]
    assert abs(sizes[0] - sizes[1]) < 100  # counts only: the digits and the input's name differ
    assert len(relabel_jsonl(tmp_path / "b" / "e.jsonl", "roles.jsonl")) == 400


def test_a_killed_test_process_takes_its_postgres_with_it(tmp_path: Path) -> None:
    if pg_fixtures.find_bin("initdb") is None:
        pytest.skip("no initdb: apt-get install -y postgresql")
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from pg_server import PgServer
        server = PgServer().start()
        print(server.proc.pid, flush=True)
        time.sleep(600)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        pid = int(child.stdout.readline())
        exited = os.pidfd_open(pid)  # readable once the server has exited
    finally:
        child.kill()
        child.wait(timeout=30)
    try:
        readable, _, _ = select.select([exited], [], [], 30)
    finally:
        os.close(exited)
    assert readable, "postgres outlived its test process"


# -- the relabel fuzz: random layouts of links, clashes and marker strings ----------------------------------

NAMES = st.sampled_from(
    [
        "e.jsonl",
        "e.summary.json",
        "e.rejects.jsonl",
        "e.conflicts.jsonl",
        "e.roles.jsonl",
        ".e.jsonl.relabel",
        ".e.jsonl.relabel.done",
        "summary.json.tmp",
        "r.html",
        "__DATA__",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    links=st.lists(st.tuples(NAMES, st.sampled_from(["file", "dir", "missing"])), max_size=4, unique_by=lambda x: x[0]),
    report=st.sampled_from([None, "r.html", "e.jsonl", "e.roles.jsonl", "__DATA__/r.html", ".e.jsonl.relabel/x"]),
    text=st.sampled_from(["plain", "__DATA__", "</script>__TITLE__", "a\u2028b"]),
)
def test_fuzz_layouts_never_touch_the_victim(
    tmp_path_factory: pytest.TempPathFactory, links: list[tuple[str, str]], report: str | None, text: str
) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    victim = root / "victim"
    victim.mkdir()
    (victim / "f").write_text("keep")
    (victim / "chunk-000000.jsonl").write_text("keep")
    o = root / "o"
    o.mkdir()
    for name, kind in links:
        target = {"file": victim / "f", "dir": victim, "missing": victim / "nothing"}[kind]
        (o / name).symlink_to(target)
    store = _store(root / "store.jsonl", [("a", "user:a", text, "2026-01-01"), ("b", "user:a", LYON, "2026-02-01")])
    sinks = [ReportSink(o / report, source="store")] if report else []
    try:
        _run(store, o / "e.jsonl", sinks=sinks)
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(("--out: ", "--report: "))
    else:
        assert relabel_summary(o / "e.jsonl")["records"]["accepted"] == 2
    assert (victim / "f").read_text() == "keep" and (victim / "chunk-000000.jsonl").read_text() == "keep"
    # only a report the user asked for through a linked folder (o/__DATA__/r.html) may appear there
    assert {p.name for p in victim.iterdir()} - {"chunk-000000.jsonl", "f"} <= ({"r.html"} if report else set())


def test_short_free_space_is_a_warning_with_the_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from writegate.relabel.outputs import OutputPaths, free_space_warning

    paths = OutputPaths.of(tmp_path / "e.jsonl")
    monkeypatch.setattr(shutil, "disk_usage", lambda _: shutil._ntuple_diskusage(10**9, 10**9 - 3_000_000, 3_000_000))  # type: ignore[attr-defined]
    assert free_space_warning(paths, pairs=1000, records=100) is None  # 0.66 MB needed
    assert free_space_warning(paths, pairs=100_000, records=10_000) == (
        f"{tmp_path} has 3 MB free; this run may need up to 66 MB "
        "(a full disk stops it; rerun to resume from the last committed chunk)"
    )
