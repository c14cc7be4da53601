"""`writegate relabel --report`: the page's data (totals, conflicts first, timelines), that it is one
self-contained file that nothing in a memory's text can break out of, and — where Debian's
`chromium` is installed — that a real browser renders it: struck-through superseded memories linked
to what replaced them, filters by subject and label.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import RuleEngine, relabel_roles, relabel_summary

from writegate.classifier.labels import LABELS, Label
from writegate.classifier.review import ReviewPolicy
from writegate.relabel.report import ReportSink, render, report_data, report_json, short_time
from writegate.relabel.run import RelabelOptions, relabel
from writegate.relabel.store import StoreRecord

EVIL = "</script><script>document.title='pwned'</script><!-- & <b>bold</b>"
ROWS = [  # id, subject, text, date
    ("a1", "user:alice", "I work in EST", "2025-09-02"),
    ("a2", "user:alice", "I moved to London last month", "2026-01-12"),
    ("a3", "user:alice", "I work in GMT now", "2026-01-15"),
    ("a4", "user:alice", "I have a dog named Biscuit", "2025-10-20"),
    ("a5", "user:alice", "Biscuit is a golden retriever", "2026-04-02"),
    ("b1", "user:bob", "Bob was born in Lyon", "2025-02-01"),
    ("b2", "user:bob", "Bob was born in Marseille", "2025-04-01"),
    ("b3", "user:bob", EVIL, "2025-05-01T13:45:00Z"),
    ("c1", "user:carol", "Carol prefers video calls", "2025-07-07"),
    ("c2", "user:carol", "Carol prefers phone calls", "2026-05-19"),
    ("c3", "user:carol", "Carol likes tea", "2026-05-20"),
]
RULES = {
    ("I work in EST", "I moved to London last month"): (Label.SUPERSEDES, 0.91),
    ("I work in EST", "I work in GMT now"): (Label.SUPERSEDES, 0.97),
    ("I have a dog named Biscuit", "Biscuit is a golden retriever"): (Label.ELABORATES, 0.88),
    ("Bob was born in Lyon", "Bob was born in Marseille"): (Label.CONTRADICTS, 0.95),
    ("Carol prefers video calls", "Carol prefers phone calls"): (Label.CONTRADICTS, 0.61),
    ("I moved to London last month", "I work in GMT now"): (Label.CORROBORATES, 0.7),
}


def _store(path: Path) -> Path:
    path.write_text(
        "".join(json.dumps({"id": i, "subject": s, "text": t, "observed_at": d}) + "\n" for i, s, t, d in ROWS),
        encoding="utf-8",
    )
    return path


def _run(tmp_path: Path, review: ReviewPolicy | None = None) -> tuple[Path, dict[str, Any]]:
    store = _store(tmp_path / "store.jsonl")
    page = tmp_path / "out" / "report.html"
    relabel(
        RelabelOptions(input=store, out=tmp_path / "out" / "edges.jsonl", k=4, chunk_size=3),
        RuleEngine(RULES, default=(Label.UNRELATED, 0.8), review=review),
        sinks=[ReportSink(page, source=str(store))],
    )
    return page, _data(page)


def _data(page: Path) -> dict[str, Any]:
    html = page.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_short_time() -> None:
    assert short_time(datetime(2026, 3, 1, tzinfo=UTC)) == "2026-03-01"
    assert short_time(datetime(66, 3, 1, 14, 5, 59, tzinfo=UTC)) == "0066-03-01 14:05"


def test_report_data_totals_conflicts_and_timelines(tmp_path: Path) -> None:
    page, data = _run(tmp_path)
    summary = relabel_summary(tmp_path / "out" / "edges.jsonl")
    roles = relabel_roles(tmp_path / "out" / "edges.jsonl")
    assert data["totals"] == summary["labels"]
    assert data["role_totals"] == summary["roles"]
    assert data["meta"] | {"source": None} == {
        "source": None,
        "model": {"name": "rules", "version": "1"},
        "memories": 11,
        "subjects": 3,
        "pairs": summary["pairs"]["classified"],
        "edges": 6,
        "rejected": 0,
        "flagged": 0,
    }
    m = data["m"]
    ids = [row[0] for row in m]
    assert ids == ["a1", "a4", "a2", "a3", "a5", "b1", "b2", "b3", "c1", "c2", "c3"]  # subject, time, id
    assert [data["roles"][row[3]] for row in m] == [roles[i] for i in ids]
    # conflicts: most probable first, each (new, existing) with five probabilities in label order
    conflicts = [data["e"][k] for k in data["conflicts"]]
    assert [(ids[e[1]], ids[e[0]]) for e in conflicts] == [("b1", "b2"), ("c1", "c2")]
    assert conflicts[0][3][LABELS.index("contradicts")] == 0.95
    # subjects: most conflicts first, then most supersedes edges, then name
    assert [s[0] for s in data["subjects"]] == ["user:bob", "user:carol", "user:alice"]
    alice = data["subjects"][2]
    assert alice[1:] == [0, 5, 0, 2]  # first memory, count, contradicts, supersedes
    supersedes = [(ids[e[1]], ids[e[0]]) for e in data["e"] if data["labels"][e[2]] == "supersedes"]
    assert sorted(supersedes) == [("a1", "a2"), ("a1", "a3")]  # EST struck through, linked to both
    assert m[ids.index("b3")][2] == "2025-05-01 13:45"


def test_page_is_self_contained_escaped_and_deterministic(tmp_path: Path) -> None:
    page, data = _run(tmp_path)
    html = page.read_text(encoding="utf-8")
    assert EVIL in [row[1] for row in data["m"]]  # the text survives, as data
    body = html.split('<script type="application/json" id="data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in body and ">" not in body  # nothing inside can close the element or open markup
    assert html.count("</script>") == 2 and "<script>document.title" not in html
    for external in ("http://", "https://", "//fonts.", "@import", "url(", " src="):
        assert external not in html, external
    again = tmp_path / "again"
    again.mkdir()
    page2, _ = _run(again)
    assert page2.read_bytes().replace(str(again).encode(), b"X") == page.read_bytes().replace(
        str(tmp_path).encode(), b"X"
    )


def test_report_of_an_empty_run(tmp_path: Path) -> None:
    args = ([], list, lambda rid: "current")
    data = report_data(*args, source="s", model={"name": "m", "version": "1"}, pairs=0)
    assert data["subjects"] == [] and data["conflicts"] == [] and data["totals"]["supersedes"] == 0
    page = b"".join(render(report_json(*args, source="s", model={"name": "m", "version": "1"}, pairs=0), "s"))
    assert b"__DATA__" not in page and b'"m":[],"e":[]' in page


def test_a_report_of_many_memories_is_written_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    from writegate.relabel import report

    monkeypatch.setattr(report, "PIECE", 7)
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    rec = [
        StoreRecord(i + 1, f"x{i:03d}", f"user:u{i // 10}", f"memory {i}", t0.replace(day=1 + i % 28), None)  # type: ignore[arg-type]
        for i in range(100)
    ]
    rec.sort(key=lambda r: (r.subject, r.observed_at, r.id))
    scores = {name: 0.2 for name in LABELS}
    edges = [
        {"new_id": rec[i + 1].id, "existing_id": rec[i].id, "label": LABELS[i % 5], "scores": scores}
        for i in range(0, 99)
    ]
    parts = list(
        report_json(
            rec, lambda: edges, lambda rid: "current", source="s", model={"name": "m", "version": "1"}, pairs=99
        )
    )
    assert len(parts) > 20
    data = json.loads("".join(parts))
    assert [m[0] for m in data["m"]] == [r.id for r in rec]
    assert len(data["e"]) == sum(1 for e in edges if e["label"] != "unrelated")
    assert [data["e"][k][2] for k in data["conflicts"]] == [LABELS.index("contradicts")] * len(data["conflicts"])


def test_report_lists_every_edge_of_a_record(tmp_path: Path) -> None:
    rec = [
        StoreRecord(1, "x1", "user:a", "A", datetime(2026, 1, 1, tzinfo=UTC), None),  # type: ignore[arg-type]
        StoreRecord(2, "x2", "user:a", "B", datetime(2026, 1, 2, tzinfo=UTC), None),
    ]  # type: ignore[arg-type]
    scores = {name: 0.2 for name in LABELS}
    edges = [
        {"new_id": "x2", "existing_id": "x1", "label": "unrelated", "scores": scores},
        {"new_id": "x2", "existing_id": "x1", "label": "elaborates", "scores": scores},
    ]
    data = report_data(
        rec, lambda: edges, lambda rid: "current", source="s", model={"name": "m", "version": "1"}, pairs=2
    )
    assert data["totals"]["unrelated"] == 1 and data["e"] == [[1, 0, LABELS.index("elaborates"), [0.2] * 5, 0]]


# -- in a real browser --------------------------------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium: apt-get install -y chromium")


def dump_dom(page: Path, fragment: str = "") -> str:
    """The DOM after the page's script ran, from headless Chromium."""
    argv = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--virtual-time-budget=5000",
        "--dump-dom",
        page.as_uri() + fragment,
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_chromium_renders_the_page(tmp_path: Path) -> None:
    page, _ = _run(tmp_path)
    dom = dump_dom(page)
    assert re.search(r'<body data-ready-ms="\d+"', dom)  # the script ran to the end
    assert "pwned" not in dom.split("</head>")[0]
    # conflicts, most probable first
    conflicts = dom.split('<div class="conflict">')[1:]
    assert (
        len(conflicts) == 2 and "Bob was born in Lyon" in conflicts[0] and "Carol prefers video calls" in conflicts[1]
    )
    # the first subject's timeline (bob), then alice's via the URL: EST struck through, linked to both successors
    assert "Timeline: user:bob" in dom
    alice = dump_dom(page, "#s=user:alice")
    est = re.search(r'<div class="mem historical" id="m0">(.*?)</div></div>', alice)
    assert est and "I work in EST" in est.group(1)
    assert (
        "superseded by" in est.group(1)
        and "I moved to London last month" in est.group(1)
        and "I work in GMT now" in est.group(1)
    )
    # a fragment that is not valid percent-encoding is ignored: the page still renders
    broken = dump_dom(page, "#s=%&l=%E0%A4%A")
    assert re.search(r'<body data-ready-ms="\d+"', broken) and "Timeline: user:bob" in broken
    # the label filter: only elaborates → one pair of alice's memories
    only = dump_dom(page, "#s=user:alice&l=elaborates")
    shown = re.findall(r'<div class="mem (?:current|historical|in_conflict)" id="m(\d+)">', only)
    assert shown == ["1", "4"]  # the dog and the golden retriever
    assert "No conflicts match the filters." in only


def test_a_correction_is_settled_not_a_conflict(tmp_path: Path) -> None:
    """The speaker took "Ella" back: it is retracted, listed under the corrections, not the conflicts."""
    ella, ellie = "My daughter's name is Ella", "Actually, my daughter's name is Ellie, not Ella"
    rows = [
        {"id": "d1", "subject": "user:dana", "text": ella, "observed_at": "2026-03-01T10:00:00Z"},
        {"id": "d2", "subject": "user:dana", "text": ellie, "observed_at": "2026-03-01T10:05:00Z"},
        {"id": "e1", "subject": "user:erin", "text": "Erin was born in Lyon", "observed_at": "2026-03-01"},
        {"id": "e2", "subject": "user:erin", "text": "Erin was born in Nice", "observed_at": "2026-03-01"},
    ]
    store = tmp_path / "store.jsonl"
    store.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    page = tmp_path / "out" / "report.html"
    rules = {(ella, ellie): (Label.CONTRADICTS, 0.77), (rows[2]["text"], rows[3]["text"]): (Label.CONTRADICTS, 0.9)}
    relabel(
        RelabelOptions(input=store, out=tmp_path / "out" / "edges.jsonl", k=4),
        RuleEngine(rules),
        sinks=[ReportSink(page, source=str(store))],
    )
    data = _data(page)
    ids = [row[0] for row in data["m"]]
    assert data["role_totals"] == {"current": 1, "historical": 0, "in_conflict": 2, "retracted": 1}
    assert [(ids[data["e"][k][1]], ids[data["e"][k][0]]) for k in data["corrections"]] == [("d1", "d2")]
    assert [(ids[data["e"][k][1]], ids[data["e"][k][0]]) for k in data["conflicts"]] == [("e1", "e2")]
    dom = dump_dom(page, "#s=user:dana")
    (settled,) = dom.split('<div class="conflict correction">')[1:]
    assert ella in settled and ellie in settled and "· correction" in settled
    conflicts = dom.split('<div class="conflict">')[1:]
    assert len(conflicts) == 0 and "No conflicts match the filters." in dom  # dana has none to ask about
    retracted = re.search(r'<div class="mem retracted" id="m0">(.*?)</div></div>', dom)
    assert retracted and ella in retracted.group(1) and "retracted by" in retracted.group(1)
    assert ellie in retracted.group(1)
    assert '<span class="badge" style="background: var(--retracted);">retracted</span>' in dom


# -- the review list ------------------------------------------------------------------------------------

UNSURE = ReviewPolicy(confidence=0.7)
"""Flags Carol's contradicts (0.61); the supersedes edges (0.91, 0.97) stay applied."""


def _pairs(data: dict[str, Any], key: str) -> list[tuple[str, str]]:
    ids = [row[0] for row in data["m"]]
    return [(ids[data["e"][k][1]], ids[data["e"][k][0]]) for k in data[key]]


def test_review_lists_flagged_edges_and_every_supersedes_least_probable_first(tmp_path: Path) -> None:
    _, data = _run(tmp_path, UNSURE)
    out = tmp_path / "out" / "edges.jsonl"
    assert data["meta"]["flagged"] == 1 == relabel_summary(out)["pairs"]["review"]
    # each edge in one list: the flagged contradicts is to review, not an open conflict
    assert _pairs(data, "review") == [("c1", "c2"), ("a1", "a2"), ("a1", "a3")]  # 0.61, 0.91, 0.97
    assert _pairs(data, "conflicts") == [("b1", "b2")]
    assert [data["e"][k][4] for k in data["review"]] == [1, 0, 0]
    roles = relabel_roles(out)
    assert (roles["c1"], roles["c2"], roles["a1"]) == ("current", "current", "historical")
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(e["existing_id"], e["new_id"], e["label"]) for e in lines if e["review"]] == [("c1", "c2", "contradicts")]


def test_chromium_shows_the_review_list_headings_and_each_edge_once(tmp_path: Path) -> None:
    page, _ = _run(tmp_path, UNSURE)
    dom = dump_dom(page)
    assert "Pairs compared, by label" in dom and "Memories, by state role" in dom
    review = dom.split('<div class="conflict review"')[1:]
    assert len(review) == 3
    assert "Carol prefers video calls" in review[0] and "review: roles unchanged" in review[0]
    assert "contradicts 0.61" in review[0]
    assert "I moved to London last month" in review[1] and "supersedes 0.91" in review[1]
    assert "applied: the earlier memory is historical" in review[1]
    assert "I work in GMT now" in review[2] and "supersedes 0.97" in review[2]
    (conflict,) = dom.split('<div class="conflict">')[1:]
    assert "Bob was born in Lyon" in conflict
    # each edge once, under its earlier memory: "superseded by" under EST, never "supersedes" under the later ones
    timeline = dump_dom(page, "#s=user:alice").split('id="timeline"')[1]
    words = re.findall(r'<span class="lab"[^>]*>([a-z ]+)</span>', timeline)
    assert sorted(words) == ["corroborated by", "elaborated by", "superseded by", "superseded by"]
    carol = dump_dom(page, "#s=user:carol").split('id="timeline"')[1]
    video = re.search(r'<div class="mem current" id="m8">(.*?)</div></div>', carol)
    assert video and "contradicted by" in video.group(1) and '<span class="flag">review</span>' in video.group(1)


def test_chromium_shortens_uuid_ids_and_keeps_them_whole_in_the_tooltip(tmp_path: Path) -> None:
    uuids = ["3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d", "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"]
    rows = [
        {"id": uuids[0], "subject": "user:uma", "text": "Uma works in EST", "observed_at": "2025-09-02"},
        {"id": uuids[1], "subject": "user:uma", "text": "Uma moved to London", "observed_at": "2026-01-12"},
        {"id": "short-id", "subject": "user:uma", "text": "Uma likes tea", "observed_at": "2026-02-01"},
    ]
    store = tmp_path / "store.jsonl"
    store.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    page = tmp_path / "report.html"
    relabel(
        RelabelOptions(input=store, out=tmp_path / "out" / "edges.jsonl", k=4),
        RuleEngine({("Uma works in EST", "Uma moved to London"): (Label.SUPERSEDES, 0.9)}),
        sinks=[ReportSink(page, source=str(store))],
    )
    dom = dump_dom(page)
    for full in uuids:
        assert f'title="{full}">{full[:8]}…</span>' in dom
        assert f">{full}<" not in dom  # never shown whole
    assert 'title="short-id">short-id</span>' in dom
