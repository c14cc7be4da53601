"""`writegate relabel`: input validation, candidate selection, roles, the shared classify path, the CLI."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import RuleEngine, argv, cli, relabel_jsonl, relabel_roles, relabel_summary, relabel_superseded_by

from writegate.classifier.columnar import EVIDENCE, Labels
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.model import Classifier
from writegate.classifier.types import Evidence, Pair, Prediction, Side
from writegate.classifier.windows import alabel_pairs
from writegate.cli.main import main
from writegate.errors import InputError
from writegate.relabel import checkpoint
from writegate.relabel.candidates import LexicalIndex, subject_pairs, terms
from writegate.relabel.command import LogProgress
from writegate.relabel.outputs import edge_texts
from writegate.relabel.plan import build_plan
from writegate.relabel.run import RelabelOptions, relabel
from writegate.relabel.store import read_store
from writegate.relabel.stores.jsonl import jsonl_rows, parse_record

T0 = datetime(2026, 1, 1, tzinfo=UTC)


LINE = {"id": "m1", "subject": "user:alice", "text": "User works in EST", "observed_at": "2026-01-01"}


def _line(*values: Any, **fields: Any) -> str:
    """A store line: LINE with its first fields set to `values`, in order, and any field set by name."""
    return json.dumps({**LINE, **dict(zip(LINE, values, strict=False)), **fields})


def _write_store(path: Path, rows: Sequence[tuple[str, str, str, str]]) -> Path:
    path.write_text("".join(_line(*row) + "\n" for row in rows), encoding="utf-8")
    return path


# -- reading and validation --------------------------------------------------------------------

BAD_LINES = [
    ("not json", "line", "is not valid JSON: Expecting value at column 1"),
    ('{"id": "m1", "text": "cut', "line", "is not valid JSON: Unterminated string starting at column 22"),
    ("[" * 3000 + "]" * 3000, "line", "is nested too deeply to parse"),
    ('{"a": ' * 3000 + "1" + "}" * 3000, "line", "is nested too deeply to parse"),
    ('{"id": ' + "9" * 5000 + "}", "line", "is not valid JSON: Exceeds the limit (4300 digits)"),
    ("[1, 2]", "line", "must be a JSON object, got list"),
    ("   ", "line", "is blank"),
    (json.dumps({"subject": "user:a", "text": "x", "observed_at": "2026-01-01"}), "id", "is required"),
    (json.dumps({"id": "a", "text": "x", "observed_at": "2026-01-01"}), "subject", "is required"),
    (json.dumps({"id": "a", "subject": "user:a", "observed_at": "2026-01-01"}), "text", "is required"),
    (json.dumps({"id": "a", "subject": "user:a", "text": "x"}), "observed_at", "is required"),
    (_line(id=7), "id", "must be a string, got int"),
    (_line(id="x" * 201), "id", "is over 200 characters"),
    (_line(id=""), "id", "is empty"),
    (_line(subject="Alice"), "subject", "must be an entity id `kind:slug`"),
    (_line(subject="user:"), "subject", "must be an entity id `kind:slug`"),
    (_line(text="   "), "text", "is empty or whitespace only"),
    (_line(text="bell\u0007"), "text", "contains a control character (U+0007)"),
    (_line(text=12), "text", "must be a string, got int"),
    (_line(observed_at="yesterday"), "observed_at", "is not an ISO 8601 date or datetime"),
    (_line(observed_at="0001-01-01T00:00+01:00"), "observed_at", "is outside years 1-9999 in UTC"),
    (_line(provenance="hearsay"), "provenance", "must be one of stated, inferred, imported"),
    (_line(provenance={"kind": "hearsay"}), "provenance.kind", "must be one of"),
]


@pytest.mark.parametrize(
    ("raw", "field", "message"), BAD_LINES, ids=[f"{f}-{i}" for i, (_, f, _) in enumerate(BAD_LINES)]
)
def test_bad_line_is_rejected_naming_the_field(raw: str, field: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_record(raw, 3)
    assert info.value.field == field
    assert message in info.value.message


@pytest.mark.parametrize(
    ("extra", "observed_at", "expected"),
    [
        ({}, "2026-01-01", datetime(2026, 1, 1, tzinfo=UTC)),
        ({"provenance": "imported"}, "2026-01-01T10:00:00+02:00", datetime(2026, 1, 1, 8, tzinfo=UTC)),
        (
            {"provenance": {"kind": "inferred", "source": "s1"}},
            "2026-01-01T10:00:00Z",
            datetime(2026, 1, 1, 10, tzinfo=UTC),
        ),
        ({"metadata": {"anything": 1}}, "2026-01-01T10:00:00", datetime(2026, 1, 1, 10, tzinfo=UTC)),
    ],
    ids=["date-only", "offset-to-utc", "provenance-object", "extra-fields-ignored"],
)
def test_good_line(extra: dict[str, Any], observed_at: str, expected: datetime) -> None:
    rec = parse_record(_line(observed_at=observed_at, **extra), 1)
    assert (rec.id, rec.subject, rec.observed_at) == ("m1", "user:alice", expected)


def test_read_store_keeps_first_duplicate_and_numbers_every_reject() -> None:
    lines = [_line("a"), "oops", _line("b"), _line("a", text="again"), _line("c", subject="X")]
    read = read_store(jsonl_rows(lines))
    assert [r.id for r in read.records] == ["a", "b"]
    assert [(r.line, r.field) for r in read.rejects] == [(2, "line"), (4, "id"), (5, "subject")]
    assert read.rejects[1].error == "duplicate id 'a' (first on line 1)"
    assert read.lines == 5


def test_invalid_utf8_is_a_reject_not_a_crash(tmp_path: Path, tiny_model_dir: Path) -> None:
    store = tmp_path / "store.jsonl"
    store.write_bytes(
        _line("a").encode() + b"\n" + b'{"id": "b", "subject": "user:alice", "text": "caf\xe9", '
        b'"observed_at": "2026-01-01"}\n' + _line("c", text="User moved to London").encode() + b"\n"
    )
    out = tmp_path / "out" / "edges.jsonl"
    assert main(["relabel", "--input", str(store), "--out", str(out), "--model", str(tiny_model_dir), "--quiet"]) == 0
    (reject,) = relabel_jsonl(out, "rejects.jsonl")
    assert (reject["line"], reject["field"], reject["error"]) == (2, "text", "contains invalid UTF-8")


# -- candidates --------------------------------------------------------------------------------


def test_terms() -> None:
    assert terms("User moved to London, on 3 May (e-mail_me)!") == [
        "user",
        "moved",
        "to",
        "london",
        "on",
        "3",
        "may",
        "mail",
        "me",
    ]


def test_lexical_index_ranks_by_cosine_and_skips_common_terms() -> None:
    docs = [terms(t) for t in ["acme account owner", "acme account", "dog named biscuit", "acme", "the cat"]]
    index = LexicalIndex(docs)
    assert index.most_similar(0, 3, exclude=set()) == [1, 3]  # nothing shares a term with 2 or 4
    assert index.most_similar(0, 1, exclude={1}) == [3]
    capped = LexicalIndex(docs, max_postings=2)  # "acme" (3 docs) is skipped; "account" (2) is kept
    assert capped.most_similar(0, 3, exclude=set()) == [1]


def test_same_slot_partners_come_first_and_are_nearest_in_time() -> None:
    # 0..5 share slot tz; 6 shares words with 0 only
    texts = ["alpha"] * 6 + ["alpha beta"]
    slots = [("timezone",)] * 6 + [()]
    pairs = subject_pairs([float(i) for i in range(7)], slots, texts, k=2)
    partners_of_3 = sorted({a for a, b in pairs if b == 3} | {b for a, b in pairs if a == 3})
    assert partners_of_3 == [2, 4, 5]  # its own two nearest, and 5 (whose nearest are 4 and 3)
    assert all(a < b for a, b in pairs)
    assert pairs == sorted(pairs, key=lambda p: (p[1], p[0]))
    assert [a for a, b in pairs if b == 6] == [0, 1]  # the slot-less record: lexical, ties by position


def test_large_subject_is_not_all_pairs() -> None:
    n, k = 3000, 4
    texts = [f"user timezone note {i}" for i in range(n)]  # "user"/"timezone"/"note" are in every record
    pairs = subject_pairs([float(i) for i in range(n)], [("timezone",)] * n, texts, k=k, max_postings=100)
    assert len(pairs) <= n * k
    assert max(b - a for a, b in pairs) <= k  # same-slot partners: the nearest in time


def test_plan_orders_subject_time_id_and_orients_older_as_existing() -> None:
    lines = [
        _line("z", "user:bob", "User has a dog named Biscuit", "2026-01-01"),
        _line("b", "user:alice", "User works in EST", "2026-02-01"),
        _line("a", "user:alice", "User works in PST", "2026-02-01"),  # same time: id breaks the tie
        _line("c", "user:alice", "User moved to London", "2026-01-01"),
    ]
    plan = build_plan(jsonl_rows(lines), k=3)
    assert [r.id for r in plan.records] == ["c", "a", "b", "z"]
    ids = [(plan.records[e].id, plan.records[n].id) for e, n in plan.pairs]
    assert ("a", "b") in ids and ("c", "a") in ids and ("c", "b") in ids
    assert all(plan.records[e].subject == plan.records[n].subject for e, n in plan.pairs)


def test_plan_rejects_bad_k() -> None:
    with pytest.raises(InputError, match="--candidates-per-record: must be an integer ≥ 1, got 0"):
        build_plan(jsonl_rows([_line()]), k=0)


# -- roles and summary, with a rule engine -----------------------------------------------------


def _pred(label: Label) -> Prediction:
    probs = {name: (0.6 if name == label.value else 0.1) for name in LABELS}
    return Prediction(label=label, probabilities=probs, slot_match=label is not Label.UNRELATED, evidence=Evidence.BOTH)


ACME_1, ACME_2 = "Michelle owns the Acme account", "Acme was handed off to Marcus"
LYON, MARSEILLE, DOG = "User was born in Lyon", "User was born in Marseille", "User has a dog named Biscuit"
ROLE_STORE = [
    ("r1", "user:alice", ACME_1, "2026-01-01"),
    ("r2", "user:alice", ACME_2, "2026-06-01"),
    ("r3", "user:alice", LYON, "2026-01-01"),
    ("r4", "user:alice", MARSEILLE, "2026-04-01"),
    ("r5", "user:alice", DOG, "2026-02-01"),
]
RULES = {(ACME_1, ACME_2): (Label.SUPERSEDES, 0.6), (LYON, MARSEILLE): (Label.CONTRADICTS, 0.6)}


@pytest.mark.parametrize("keep_unrelated", [False, True], ids=["drop-unrelated", "keep-unrelated"])
def test_roles_counts_and_conflicts(tmp_path: Path, keep_unrelated: bool) -> None:
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    out = tmp_path / "edges.jsonl"
    stats = relabel(
        RelabelOptions(input=store, out=out, k=4, keep_unrelated=keep_unrelated, chunk_size=2), RuleEngine(RULES)
    )
    edges = [json.loads(x) for x in out.read_text().splitlines()]
    summary = relabel_summary(out)
    assert relabel_roles(out) == {
        "r1": "historical",
        "r3": "in_conflict",
        "r5": "current",
        "r4": "in_conflict",
        "r2": "current",
    }
    assert summary["roles"] == {"current": 2, "historical": 1, "in_conflict": 2, "retracted": 0}
    assert relabel_superseded_by(out) == {"r1": ["r2"]}
    conflicts = relabel_jsonl(out, "conflicts.jsonl")
    assert [(c["existing_id"], c["new_id"]) for c in conflicts] == [("r3", "r4")]
    assert conflicts[0]["existing_text"] == LYON and conflicts[0]["new_text"] == MARSEILLE
    assert summary["files"] == {
        "edges": "edges.jsonl",
        "rejects": "edges.rejects.jsonl",
        "conflicts": "edges.conflicts.jsonl",
        "roles": "edges.roles.jsonl",
    }
    assert sum(summary["labels"].values()) == summary["pairs"]["classified"] == stats.pairs
    assert summary["labels"]["supersedes"] == 1 and summary["labels"]["contradicts"] == 1
    written = summary["pairs"]["classified"] if keep_unrelated else 2
    assert len(edges) == summary["pairs"]["written"] == written
    by_pair = {(e["existing_id"], e["new_id"]): e for e in edges}
    assert by_pair[("r1", "r2")]["label"] == "supersedes" and by_pair[("r3", "r4")]["label"] == "contradicts"
    assert set(edges[0]) == {"new_id", "existing_id", "label", "scores", "evidence", "slot_match", "review"}
    assert not checkpoint.work_dir_for(out).exists()


def test_checkpoint_of_another_run_is_refused_then_restart(tmp_path: Path) -> None:
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    out = tmp_path / "edges.jsonl"
    engine = RuleEngine(RULES)

    class Stop(Exception):
        pass

    def stop_after_first_chunk(step: str) -> None:
        if step == "chunk:0":
            raise Stop

    with pytest.raises(Stop):
        relabel(RelabelOptions(input=store, out=out, k=4, chunk_size=2), engine, on_step=stop_after_first_chunk)
    with pytest.raises(InputError) as info:
        relabel(RelabelOptions(input=store, out=out, k=3, chunk_size=2), engine)
    assert info.value.field == "--out"
    assert "(changed: candidates_per_record, items, plan_sha256)" in info.value.message  # K changes the pairs
    assert "pass --restart" in info.value.message
    engine.seen.clear()
    relabel(RelabelOptions(input=store, out=out, k=4, chunk_size=2), engine)  # same args: resumes
    assert engine.seen[0] == 1
    relabel(RelabelOptions(input=store, out=out, k=3, chunk_size=2, restart=True), engine)
    assert out.exists()


def test_second_run_on_the_same_output_is_locked_out(tmp_path: Path) -> None:
    out = tmp_path / "edges.jsonl"
    first = checkpoint.Checkpoint.open(out, {"a": 1}, plan_sha256="x", total_items=4, chunk_size=2)
    try:
        with pytest.raises(InputError, match="another relabel run is writing this output"):
            checkpoint.Checkpoint.open(out, {"a": 1}, plan_sha256="x", total_items=4, chunk_size=2)
    finally:
        first.close()


def test_leftover_tmp_and_chunks_after_a_gap_are_discarded(tmp_path: Path) -> None:
    out = tmp_path / "edges.jsonl"
    ck = checkpoint.Checkpoint.open(out, {"a": 1}, plan_sha256="x", total_items=8, chunk_size=2)
    ck.commit_chunk(0, ["{}"])
    ck.close()
    (ck.dir / "chunk-000001.jsonl.tmp").write_bytes(b"half a li")
    (ck.dir / "chunk-000002.jsonl").write_bytes(b"{}\n")  # after a gap: not committed
    again = checkpoint.Checkpoint.open(out, {"a": 1}, plan_sha256="x", total_items=8, chunk_size=2)
    assert again.committed == 1
    assert sorted(p.name for p in again.dir.iterdir()) == ["chunk-000000.jsonl", "lock", "manifest.json"]
    again.close()


# -- the shared classify path ------------------------------------------------------------------


def _pairs(n: int) -> list[Pair]:
    from writegate.api.normalizing import with_records

    texts = [
        "User works in EST",
        "User moved to London last month and now works on UK time",
        "Michelle owns the Acme account",
        "User prefers concise answers",
    ]
    return with_records(
        Pair(
            existing=Side(text=texts[i % 4], observed_at=T0),
            new=Side(text=texts[(i * 3 + 1) % 4] + " " * (i % 3) + "!" * (i % 5), observed_at=T0 + timedelta(days=i)),
        )
        for i in range(n)
    )


@pytest.fixture(scope="module")
def clf(tiny_model_dir: Path) -> Classifier:
    # fp32: int8's dynamic quantization scales depend on the whole batch, so only fp32 is
    # padding-independent enough to compare different windowings
    return Classifier.load(tiny_model_dir, precision="fp32")


def test_edge_texts_round_scores_to_six_places() -> None:
    probs = np.array([[0.1234567891, 0.0, 0.0, 0.0, 0.8765432109]])
    labels = Labels(
        0, probs, np.array([4]), np.array([EVIDENCE.index(Evidence.STRUCTURE)], dtype=np.int8), np.array([True])
    )
    [line] = edge_texts([('"n"', '"e"')], labels)
    assert json.loads(line) == {
        "new_id": "n",
        "existing_id": "e",
        "label": LABELS[4],
        "scores": dict(zip(LABELS, [0.123457, 0.0, 0.0, 0.0, 0.876543], strict=True)),
        "evidence": "structure",
        "slot_match": True,
        "review": False,
    }


async def _stream(items: Sequence[Any], fail_at: int | None = None) -> AsyncIterator[tuple[int, Pair]]:
    for i, item in enumerate(items):
        if i == fail_at:
            raise InputError(f"requests[{i}].new.text", "is empty")
        await asyncio.sleep(0)
        yield i, item


@pytest.mark.parametrize(
    ("n", "window", "depth"),
    [(0, 4, 1), (1, 4, 2), (37, 5, 2), (37, 64, 3)],
    ids=["empty", "one", "many-small-windows", "one-big-window"],
)
async def test_alabel_pairs_keeps_order_and_bounds_windows(n: int, window: int, depth: int) -> None:
    sizes: list[int] = []

    async def run_window(pairs: list[Pair]) -> list[Prediction]:
        sizes.append(len(pairs))
        await asyncio.sleep(0)
        return [_pred(Label.ELABORATES if int(p.new.observed_at.day) % 2 else Label.UNRELATED) for p in pairs]

    pairs = _pairs(n)
    got = [(k, p.label) async for k, p in alabel_pairs(_stream(pairs), run_window, window=window, depth=depth)]
    assert [k for k, _ in got] == list(range(n))
    assert all(1 <= s <= window for s in sizes) and sum(sizes) == n


async def test_alabel_pairs_reraises_stream_error_after_earlier_results() -> None:
    async def run_window(pairs: list[Pair]) -> list[Prediction]:
        return [_pred(Label.UNRELATED) for _ in pairs]

    got: list[int] = []
    with pytest.raises(InputError, match=r"requests\[5\]\.new\.text: is empty"):
        async for key, _ in alabel_pairs(_stream(_pairs(9), fail_at=5), run_window, window=2):
            got.append(key)
    assert got == [0, 1, 2, 3, 4]


# -- the CLI -----------------------------------------------------------------------------------


def test_cli_end_to_end_on_the_tiny_model(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store.jsonl"
    store.write_text("".join(_line(*row) + "\n" for row in ROLE_STORE) + "garbage\n", encoding="utf-8")
    out = tmp_path / "o" / "edges.jsonl"
    args = argv(
        "relabel", input=store, out=out, model=tiny_model_dir, keep_unrelated=True, k=4, chunk_size=3, batch_size=2
    )
    assert main(args) == 0
    first = {p.name: p.read_bytes() for p in out.parent.iterdir()}
    assert sorted(first) == [
        "edges.conflicts.jsonl",
        "edges.jsonl",
        "edges.rejects.jsonl",
        "edges.roles.jsonl",
        "edges.summary.json",
    ]
    summary = json.loads(first["edges.summary.json"])
    assert summary["records"] == {"lines": 6, "accepted": 5, "rejected": 1, "subjects": 1}
    assert summary["pairs"]["written"] == summary["pairs"]["classified"] == len(first["edges.jsonl"].splitlines())
    assert main(args) == 0  # a rerun from scratch gives the same bytes
    assert {p.name: p.read_bytes() for p in out.parent.iterdir()} == first
    err = capsys.readouterr().err
    assert "pairs" in err and "edges →" in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"batch_size": 0}, "--batch-size: must be ≥ 1, got 0"),
        ({"k": 0}, "--candidates-per-record: must be ≥ 1, got 0"),
        ({"ray_address": "ray://h:10001"}, "--ray-address: the --ray-* flags need --engine ray"),
        ({"model": "/nonexistent/model"}, "model: /nonexistent/model is not a directory"),
        ({"workers": -1}, "--workers: must be ≥ 0, got -1"),
        ({"device": "cuda"}, "--device: only the torch backend takes a device: add --backend torch"),
        ({"device": "cpu", "engine": "ray"}, "--device: Ray actors pick their device"),
    ],
    ids=[
        "batch-size",
        "k",
        "ray-flag-without-ray",
        "missing-model",
        "workers",
        "device-without-torch",
        "device-on-ray",
    ],
)
def test_cli_bad_flags(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str], flags: dict[str, object], message: str
) -> None:
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    assert cli("relabel", input=store, out=tmp_path / "e.jsonl", **{"model": tiny_model_dir, **flags}) == 2
    assert message in capsys.readouterr().err


def test_cli_missing_input(tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nope = tmp_path / "nope.jsonl"
    assert cli("relabel", input=nope, out=tmp_path / "e.jsonl", model=tiny_model_dir, quiet=True) == 2
    assert f"--input: {nope} is not a file" in capsys.readouterr().err


def test_quiet_log_lines() -> None:
    now = [0.0]
    lines: list[str] = []
    progress = LogProgress(every_s=10.0, clock=lambda: now[0])
    progress.log = lines.append  # type: ignore[method-assign]
    progress.phase("classify", 1000, done=200)
    now[0] = 5.0
    progress.advance(100)  # < 10 s since the last line: silent
    now[0] = 20.0
    progress.advance(100)
    progress.close()
    assert lines == [
        "classify: 1000 pairs (200 already done)",
        "pairs 400/1000 (40.0%), 10 pairs/s, ETA 60 s",
        "pairs 400/1000 (40.0%), 10 pairs/s",
    ]


async def test_alabel_pairs_through_the_dynamic_batcher(clf: Classifier) -> None:
    # the gRPC Relabel wiring: windows go to Batcher.submit (cross-request batching, deadlines)
    from writegate.classifier.batcher import Batcher, QueuePolicy

    batcher = Batcher(clf, QueuePolicy(max_wait_ms=1))
    await batcher.start()
    try:
        pairs = _pairs(30)

        async def stream() -> AsyncIterator[tuple[int, Pair]]:
            for i, p in enumerate(pairs):
                yield i, p

        got = [(k, p) async for k, p in alabel_pairs(stream(), lambda ps: batcher.submit(ps), window=8)]
    finally:
        await batcher.close()
    want = clf.predict(pairs)
    assert [k for k, _ in got] == list(range(30))
    assert [p.label for _, p in got] == [p.label for p in want]


def test_store_of_only_bad_lines_gives_empty_edges(tmp_path: Path, tiny_model_dir: Path) -> None:
    store = tmp_path / "store.jsonl"
    store.write_text("nope\n{}\n", encoding="utf-8")
    out = tmp_path / "edges.jsonl"
    assert main(["relabel", "--input", str(store), "--out", str(out), "--model", str(tiny_model_dir), "--quiet"]) == 0
    assert out.read_bytes() == b""
    summary = relabel_summary(out)
    assert summary["records"]["rejected"] == 2 and summary["pairs"] == {
        "classified": 0,
        "written": 0,
        "corrections": 0,
        "review": 0,
    }
    assert [x["field"] for x in relabel_jsonl(out, "rejects.jsonl")] == ["line", "id"]


def test_ray_engine_without_ray_says_how_to_install(
    tmp_path: Path, tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray → ImportError
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    assert cli("relabel", input=store, out=tmp_path / "e.jsonl", model=tiny_model_dir, engine="ray") == 2
    assert "--engine: ray is not installed: pip install 'writegate[ray]'" in capsys.readouterr().err


# -- never harm a store ------------------------------------------------------------------------


class RecordingProgress:
    """A progress sink that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def phase(self, name: str, total: int, done: int = 0) -> None:
        self.calls.append(("phase", name))

    def advance(self, n: int) -> None:
        self.calls.append(("advance", n))

    def log(self, message: str) -> None:
        self.calls.append(("log", message))


def _rejects(out: Path) -> list[dict[str, Any]]:
    return relabel_jsonl(out, "rejects.jsonl")


def test_a_line_too_deep_to_parse_is_a_reject_and_the_run_goes_on(tmp_path: Path) -> None:
    store = tmp_path / "store.jsonl"
    good = [_line(*row) for row in ROLE_STORE]
    bad = ["[" * 3000 + "]" * 3000, '{"a": ' * 3000 + "1" + "}" * 3000, '{"id": ' + "9" * 5000 + "}"]
    store.write_text("\n".join([good[0], bad[0], *good[1:3], bad[1], *good[3:], bad[2]]) + "\n", encoding="utf-8")
    out = tmp_path / "edges.jsonl"
    stats = relabel(RelabelOptions(input=store, out=out, k=4), RuleEngine(RULES))
    assert (stats.lines, stats.records, stats.rejected) == (8, 5, 3)
    assert [(r["line"], r["field"], r["error"]) for r in _rejects(out)] == [
        (2, "line", "is nested too deeply to parse"),
        (5, "line", "is nested too deeply to parse"),
        (
            8,
            "line",
            "is not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: "
            "value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
    ]
    assert {(e["existing_id"], e["new_id"]) for e in map(json.loads, out.read_text().splitlines())} == {
        ("r1", "r2"),
        ("r3", "r4"),
    }


def test_an_unexpected_failure_on_one_record_is_a_reject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from writegate.api.normalizing import normalize_many
    from writegate.normalizer.api import normalize
    from writegate.relabel import plan as plan_module

    def flaky(text: str, **kwargs: Any) -> Any:
        if text == DOG:
            raise RuntimeError("boom")
        return normalize(text, **kwargs)

    monkeypatch.setattr(plan_module, "normalize_many", lambda keys, **kw: normalize_many(keys, flaky, **kw))
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    out = tmp_path / "edges.jsonl"
    stats = relabel(RelabelOptions(input=store, out=out, k=4), RuleEngine(RULES))
    assert (stats.records, stats.rejected) == (4, 1)
    assert [(r["line"], r["field"], r["error"]) for r in _rejects(out)] == [
        (5, "text", "could not be processed (RuntimeError: boom)")
    ]


def test_invalid_utf8_rejects_keep_the_exact_bytes(tmp_path: Path) -> None:
    bad_text = b'{"id": "b", "subject": "user:alice", "text": "caf\xe9 \xed\xa0\x80", "observed_at": "2026-01-01"}'
    not_json = b"\xff\xfe{ \x80"
    store = tmp_path / "store.jsonl"
    store.write_bytes(b"\n".join([_line("a").encode(), bad_text, not_json + b"\r", b'{"id": "c"}']) + b"\n")
    out = tmp_path / "edges.jsonl"
    relabel(RelabelOptions(input=store, out=out), RuleEngine(RULES))
    rejects = _rejects(out)
    assert [(r["line"], r["field"], r["error"][:22]) for r in rejects] == [
        (2, "text", "contains invalid UTF-8"),
        (3, "line", "is not valid JSON: Exp"),
        (4, "subject", "is required"),
    ]
    assert base64.b64decode(rejects[0]["raw_base64"], validate=True) == bad_text
    assert base64.b64decode(rejects[1]["raw_base64"], validate=True) == not_json  # without its \r\n
    assert "raw_base64" not in rejects[2]  # valid UTF-8: `raw` is the line
    assert rejects[0]["raw"] == bad_text.decode("utf-8", "surrogateescape")


def _hardlink(target: Path, link: Path) -> None:
    link.hardlink_to(target)


def _symlink(target: Path, link: Path) -> None:
    link.symlink_to(target)


# (name, input path, --out, links made first (target, link, how), what relabel would write there or None for the
# checkpoint directory); paths relative to tmp_path
OVERWRITES: list[tuple[str, str, str, list[tuple[str, str, Callable[[Path, Path], None]]], str | None]] = [
    ("same-path", "store.jsonl", "store.jsonl", [], "the edges"),
    ("relative-path", "store.jsonl", "sub/../store.jsonl", [], "the edges"),
    ("symlinked-out", "store.jsonl", "o/edges.jsonl", [("store.jsonl", "o/edges.jsonl", _symlink)], "the edges"),
    ("summary-name", "o/edges.summary.json", "o/edges.jsonl", [], "the summary"),
    ("rejects-name", "o/edges.rejects.jsonl", "o/edges.jsonl", [], "the rejects"),
    ("conflicts-name", "o/edges.conflicts.jsonl", "o/edges.jsonl", [], "the conflicts"),
    ("roles-name", "o/edges.roles.jsonl", "o/edges.jsonl", [], "the state roles"),
    (
        "hardlinked-summary",
        "store.jsonl",
        "o/edges.jsonl",
        [("store.jsonl", "o/edges.summary.json", _hardlink)],
        "the summary",
    ),
    ("symlinked-folder", "d/edges.rejects.jsonl", "o/edges.jsonl", [("d", "o", _symlink)], "the rejects"),
    ("checkpoint-manifest", "o/.edges.jsonl.relabel/manifest.json", "o/edges.jsonl", [], None),
    ("checkpoint-lock", "o/.edges.jsonl.relabel/lock", "o/edges.jsonl", [], None),
    ("finished-checkpoint", "o/.edges.jsonl.relabel.done/chunk-000000.jsonl", "o/edges.jsonl", [], None),
]


@pytest.mark.parametrize(("name", "input_rel", "out_rel", "links", "what"), OVERWRITES, ids=[c[0] for c in OVERWRITES])
def test_an_out_that_would_overwrite_the_input_is_refused_before_any_work(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    input_rel: str,
    out_rel: str,
    links: list[tuple[str, str, Callable[[Path, Path], None]]],
    what: str | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    store = tmp_path / input_rel
    store.parent.mkdir(parents=True, exist_ok=True)
    _write_store(store, ROLE_STORE)
    for target, link, make in links:
        (tmp_path / link).parent.mkdir(parents=True, exist_ok=True)
        make(tmp_path / target, tmp_path / link)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    # a missing model: the refusal comes before the model is even looked at
    code = main(["relabel", "--input", input_rel, "--out", out_rel, "--model", "no-such-model", "--quiet"])
    err = capsys.readouterr().err
    out = Path(out_rel)
    if what is None:
        where = checkpoint.work_dir_for(out) if "done" not in input_rel else Path("o/.edges.jsonl.relabel.done")
        message = f"--out: relabel keeps its checkpoint in {where}, which holds the --input file: choose another --out"
    else:
        path = {
            "the edges": out,
            "the summary": out.with_name("edges.summary.json"),
            "the rejects": out.with_name("edges.rejects.jsonl"),
            "the conflicts": out.with_name("edges.conflicts.jsonl"),
            "the state roles": out.with_name("edges.roles.jsonl"),
        }[what]
        message = f"--out: relabel would write {what} to {path}, which is the --input file: choose another --out"
    assert (code, err) == (2, f"writegate relabel: error: {message}\n")
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before  # nothing written, nothing gone


def test_relabel_refuses_to_write_over_its_input(tmp_path: Path) -> None:
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    before = store.read_bytes()
    with pytest.raises(InputError) as info:
        relabel(RelabelOptions(input=store, out=store), RuleEngine(RULES))
    assert str(info.value) == (
        f"--out: relabel would write the edges to {store}, which is the --input file: choose another --out"
    )
    assert store.read_bytes() == before


def test_a_locked_out_is_refused_before_the_store_is_read(tmp_path: Path) -> None:
    store = _write_store(tmp_path / "store.jsonl", ROLE_STORE)
    out = tmp_path / "edges.jsonl"
    held = checkpoint.Checkpoint.open(out, {"a": 1}, plan_sha256="x", total_items=4, chunk_size=2)
    progress = RecordingProgress()
    try:
        with pytest.raises(InputError) as info:
            relabel(RelabelOptions(input=store, out=out, k=4), RuleEngine(RULES), progress=progress)
    finally:
        held.close()
    assert str(info.value) == (
        f"--out: another relabel run is writing this output (lock held on {checkpoint.work_dir_for(out)})"
    )
    assert progress.calls == []  # no phase started: the store was not read
    relabel(RelabelOptions(input=store, out=out, k=4, restart=True), RuleEngine(RULES), progress=progress)
    assert out.exists() and not checkpoint.work_dir_for(out).exists()
