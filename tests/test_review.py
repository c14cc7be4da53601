"""The review flag: which `supersedes`/`contradicts` labels a person should check, and that a flagged
relation changes no role on any path.

- the rule (`classifier/review.py`) and its thresholds in `writegate.json` (`classifier/modeldir.py`);
- `api/prepare.plan_write`: the candidate of a flagged relation stays `current`, its edge is kept;
- over gRPC on loopback, a fake classifier unsure where a text says "maybe": `Classify`,
  `PrepareWrite` and the `Relabel` stream carry `review`, and `PrepareWrite` keeps the role;
- the tiny model with review thresholds: `Classifier.predict`, the service, `writegate classify
  --details` and `writegate relabel` flag the same pairs;
- relabel's edges, summary and roles, and its Postgres write-back.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import redirect_stdout
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path
from typing import Any

import numpy as np
import pg_server as pg_fixtures
import pytest
from helpers import RuleEngine, cli, relabel_roles, relabel_summary
from server_fakes import FakeClassifier, memory, serving

from writegate.api import convert
from writegate.api.normalizing import with_records
from writegate.api.prepare import Relation, StateRole, plan_write, relations
from writegate.classifier.backends.base import Batch
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.model import Classifier
from writegate.classifier.modeldir import META_FILE, ModelMeta, read_meta, write_meta
from writegate.classifier.review import ReviewPolicy
from writegate.classifier.types import Pair, Prediction, Side
from writegate.errors import InputError
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel
from writegate.relabel.stores import open_sink
from writegate.v1 import writegate_pb2 as pb

PgServer = pg_fixtures.PgServer
pg_server = pg_fixtures.pg_server  # the session fixture, requested by name

RETIRING = {Label.SUPERSEDES.value, Label.CONTRADICTS.value}


def _row(**p: float) -> list[float]:
    return [p.get(name, 0.0) for name in LABELS]


# -- the rule and its thresholds ------------------------------------------------------------------------


def test_only_retiring_labels_below_a_threshold_are_flagged() -> None:
    probs = np.array(
        [
            _row(supersedes=0.9, unrelated=0.1),  # sure
            _row(supersedes=0.65, elaborates=0.35),  # below the confidence
            _row(contradicts=0.6, supersedes=0.4),  # a small margin (and below the confidence)
            _row(contradicts=0.8, supersedes=0.2),  # sure
            _row(elaborates=0.3, corroborates=0.25, unrelated=0.45),  # unsure, but not retiring
            _row(unrelated=1.0),  # a guard's answer
        ]
    )
    label = probs.argmax(axis=1)
    both = ReviewPolicy(margin=0.3, confidence=0.7)
    assert both.flags(probs, label).tolist() == [False, True, True, False, False, False]
    assert ReviewPolicy(margin=0.3).flags(probs, label).tolist() == [False, False, True, False, False, False]
    assert ReviewPolicy(confidence=0.62).flags(probs, label).tolist() == [False, False, True, False, False, False]
    assert not ReviewPolicy().active and not ReviewPolicy().flags(probs, label).any()
    assert both.flags(np.zeros((0, 5)), np.zeros(0, dtype=np.int64)).shape == (0,)


def _meta_dir(tmp_path: Path, tiny_model_dir: Path, review: Any) -> Path:
    meta = json.loads((tiny_model_dir / META_FILE).read_text(encoding="utf-8"))
    if review is not None:
        meta["review"] = review
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    return tmp_path


def test_thresholds_are_read_from_writegate_json_and_checked(tmp_path: Path, tiny_model_dir: Path) -> None:
    assert read_meta(tiny_model_dir).review == ReviewPolicy()  # an older model dir: flags nothing
    got = read_meta(_meta_dir(tmp_path / "ok", tiny_model_dir, {"margin": 0.1, "confidence": 0.7})).review
    assert got == ReviewPolicy(margin=0.1, confidence=0.7)
    bad = _meta_dir(tmp_path / "big", tiny_model_dir, {"confidence": 1.5})
    with pytest.raises(InputError, match=r"writegate\.json: field review\.confidence: .*less than or equal to 1"):
        read_meta(bad)
    typo = _meta_dir(tmp_path / "typo", tiny_model_dir, {"confidence": 0.7, "margn": 0.1})
    with pytest.raises(InputError, match=r"field review\.margn: Extra inputs are not permitted"):
        read_meta(typo)
    shipped = read_meta(Path(__file__).resolve().parents[1] / "models" / "default")
    assert shipped.review == ReviewPolicy(margin=0.0, confidence=0.65)  # the card's choice


def test_write_meta_writes_review_only_when_it_flags_something(tmp_path: Path, tiny_model_dir: Path) -> None:
    meta = read_meta(tiny_model_dir)
    write_meta(tmp_path, meta)
    assert "review" not in json.loads((tmp_path / META_FILE).read_text(encoding="utf-8"))
    write_meta(tmp_path, ModelMeta.model_validate(meta.model_dump() | {"review": {"confidence": 0.7}}))
    assert json.loads((tmp_path / META_FILE).read_text(encoding="utf-8"))["review"] == {
        "margin": 0.0,
        "confidence": 0.7,
    }
    assert read_meta(tmp_path).review == ReviewPolicy(confidence=0.7)


# -- what a store records -------------------------------------------------------------------------------


def _rel(cid: str, label: Label, review: bool = False) -> Relation:
    return Relation(candidate_id=cid, label=label, scores={label.value: 0.6}, review=review)


def test_a_flagged_relation_keeps_the_candidate_current_and_its_edge() -> None:
    rels = [
        _rel("c0", Label.SUPERSEDES, review=True),
        _rel("c1", Label.CONTRADICTS, review=True),
        _rel("c2", Label.SUPERSEDES),
    ]
    plan = plan_write("n", rels)
    assert [s.role for s in plan.candidate_states] == [StateRole.CURRENT, StateRole.CURRENT, StateRole.HISTORICAL]
    assert [(e.target_id, e.label) for e in plan.edges] == [
        ("c0", Label.SUPERSEDES),
        ("c1", Label.CONTRADICTS),
        ("c2", Label.SUPERSEDES),
    ]
    assert plan.new_role is StateRole.CURRENT  # the only contradicts is flagged
    assert plan_write("n", [*rels, _rel("c3", Label.CONTRADICTS)]).new_role is StateRole.IN_CONFLICT
    (rel,) = relations(["c9"], [Prediction(label=Label.SUPERSEDES, probabilities={"supersedes": 0.6}, review=True)])
    assert rel.review and convert.relation_from_proto(convert.relation_to_proto(rel)).review


# -- over gRPC ------------------------------------------------------------------------------------------


class UnsureFake(FakeClassifier):
    """The fake classifier (the new text's keyword decides the label), unsure — logit 1 instead of 5,
    so the label's probability is 0.40 — where either text has the word "maybe"; review below 0.7."""

    def __init__(self) -> None:
        super().__init__()
        self.review = ReviewPolicy(confidence=0.7)

    def _run(self, batch: Batch) -> np.ndarray:
        logits = super()._run(batch)
        for r, key in enumerate(batch.input_ids[:, 1].tolist()):
            if "maybe" in self.keys[key].lower().replace("|", " ").split():
                logits[r] /= 5
        return logits


SURE, UNSURE_ONE = memory("c0", "I live in Berlin"), memory("c1", "maybe I live in Rome")


async def test_grpc_carries_review_and_prepare_write_keeps_the_role() -> None:
    later = datetime(2026, 3, 2, 10, tzinfo=UTC)
    moved = memory("n1", "I moved to Paris", at=later)
    never = memory("n2", "I never lived in Berlin", at=later)
    async with serving(UnsureFake()) as s:
        resp = await s.stub.PrepareWrite(pb.PrepareWriteRequest(memory=moved, candidates=[SURE, UNSURE_ONE]))
        assert [(r.label, r.review) for r in resp.relations] == [
            (pb.LABEL_SUPERSEDES, False),
            (pb.LABEL_SUPERSEDES, True),
        ]
        assert [s.role for s in resp.candidate_states] == [pb.STATE_ROLE_HISTORICAL, pb.STATE_ROLE_CURRENT]
        assert [(e.target_id, e.label) for e in resp.edges] == [
            ("c0", pb.LABEL_SUPERSEDES),
            ("c1", pb.LABEL_SUPERSEDES),
        ]
        assert convert.prepare_write_from_proto(resp).relations[1].review

        resp = await s.stub.PrepareWrite(pb.PrepareWriteRequest(memory=never, candidates=[UNSURE_ONE]))
        assert resp.relations[0].label == pb.LABEL_CONTRADICTS and resp.relations[0].review
        assert (resp.candidate_states[0].role, resp.new_role) == (pb.STATE_ROLE_CURRENT, pb.STATE_ROLE_CURRENT)
        resp = await s.stub.PrepareWrite(pb.PrepareWriteRequest(memory=never, candidates=[SURE, UNSURE_ONE]))
        assert [s.role for s in resp.candidate_states] == [pb.STATE_ROLE_IN_CONFLICT, pb.STATE_ROLE_CURRENT]
        assert resp.new_role == pb.STATE_ROLE_IN_CONFLICT  # from the sure one

        got = await s.stub.Classify(pb.ClassifyRequest(memory=moved, candidates=[SURE, UNSURE_ONE]))
        assert [r.review for r in got.relations] == [False, True]

        async def requests() -> Any:
            for i, existing in enumerate((SURE, UNSURE_ONE)):
                yield pb.RelabelRequest(pair_id=f"p{i}", existing=existing, new=moved)

        answers = [a async for a in s.stub.Relabel(requests())]
        assert [(a.pair_id, a.relation.candidate_id, a.relation.review) for a in answers] == [
            ("p0", "c0", False),
            ("p1", "c1", True),
        ]


# -- the tiny model: every path flags the same pairs ------------------------------------------------------

TEXTS = [  # the tiny model labels the pairs of the first three, and morning/evening, `contradicts`
    "I live in Berlin",
    "I moved to London last month",
    "I work in EST",
    "I prefer morning meetings",
    "I prefer evening meetings",
    "I have a dog named Biscuit",
]


@pytest.fixture(scope="module")
def review_model(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> Path:
    """The tiny model with review thresholds that flag its retiring labels (they are near 0.46)."""
    out = Path(shutil.copytree(tiny_model_dir, tmp_path_factory.mktemp("review") / "model"))
    meta = json.loads((out / META_FILE).read_text(encoding="utf-8"))
    (out / META_FILE).write_text(json.dumps(meta | {"review": {"margin": 0.1, "confidence": 0.6}}), encoding="utf-8")
    return out


def _store(path: Path) -> Path:
    rows = [
        {"id": f"t{i}", "subject": "user:tess", "text": t, "observed_at": f"2026-01-{i + 1:02d}"}
        for i, t in enumerate(TEXTS)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _pairs() -> Iterator[tuple[int, int]]:
    return ((i, j) for i in range(len(TEXTS)) for j in range(i + 1, len(TEXTS)))


def _side(i: int) -> Side:
    return Side(text=TEXTS[i], observed_at=datetime(2026, 1, i + 1, tzinfo=UTC), subject="user:tess")


async def test_every_path_flags_the_same_pairs(tmp_path: Path, review_model: Path, tiny_model_dir: Path) -> None:
    pairs = list(_pairs())
    preds = Classifier.load(review_model).predict(with_records(Pair(existing=_side(i), new=_side(j)) for i, j in pairs))
    flagged = {(TEXTS[i], TEXTS[j]) for (i, j), p in zip(pairs, preds, strict=True) if p.review}
    retiring = {(TEXTS[i], TEXTS[j]) for (i, j), p in zip(pairs, preds, strict=True) if p.label.value in RETIRING}
    assert len(flagged) >= 3 and flagged == retiring  # the thresholds flag every retiring label of the tiny model

    # writegate classify --details
    lines = tmp_path / "pairs.jsonl"
    lines.write_text(
        "".join(
            json.dumps(
                {
                    "existing": {"text": TEXTS[i], "observed_at": f"2026-01-{i + 1:02d}", "subject": "user:tess"},
                    "new": {"text": TEXTS[j], "observed_at": f"2026-01-{j + 1:02d}", "subject": "user:tess"},
                }
            )
            + "\n"
            for i, j in pairs
        ),
        encoding="utf-8",
    )
    stdout = StringIO()
    with redirect_stdout(stdout):
        assert cli("classify", input=lines, model=review_model, details=True) == 0
    out = [json.loads(x) for x in stdout.getvalue().splitlines()]
    assert {(TEXTS[i], TEXTS[j]) for (i, j), o in zip(pairs, out, strict=True) if o["review"]} == flagged

    # writegate relabel: the edges, the summary, the roles
    store = _store(tmp_path / "store.jsonl")
    edges = tmp_path / "r" / "edges.jsonl"
    relabel(RelabelOptions(input=store, out=edges, k=8, keep_unrelated=True), LocalEngine(review_model, workers=0))
    by_id = {f"t{i}": t for i, t in enumerate(TEXTS)}
    written = [json.loads(x) for x in edges.read_text(encoding="utf-8").splitlines()]
    assert {(by_id[e["existing_id"]], by_id[e["new_id"]]) for e in written if e["review"]} == flagged
    assert relabel_summary(edges)["pairs"]["review"] == len(flagged)
    assert set(relabel_roles(edges).values()) == {"current"}  # every retiring label was flagged
    plain = tmp_path / "plain" / "edges.jsonl"  # the same model without thresholds puts them in conflict
    relabel(RelabelOptions(input=store, out=plain, k=8, keep_unrelated=True), LocalEngine(tiny_model_dir, workers=0))
    assert "in_conflict" in set(relabel_roles(plain).values())

    # the service
    new = memory("t4", TEXTS[4], subject="user:tess", at=datetime(2026, 1, 5, tzinfo=UTC))
    candidates = [
        memory(f"t{i}", TEXTS[i], subject="user:tess", at=datetime(2026, 1, i + 1, tzinfo=UTC)) for i in range(4)
    ]
    clf = Classifier.load(review_model)
    async with serving(loader=lambda: clf) as s:
        resp = await s.stub.PrepareWrite(pb.PrepareWriteRequest(memory=new, candidates=candidates))
    assert {TEXTS[i] for i, r in enumerate(resp.relations) if r.review} == {e for e, n in flagged if n == TEXTS[4]}
    assert {s.role for s in resp.candidate_states} == {pb.STATE_ROLE_CURRENT}
    assert resp.new_role == pb.STATE_ROLE_CURRENT


# -- relabel's outputs and the Postgres write-back ----------------------------------------------------------

ACME_1, ACME_2 = "Michelle owns the Acme account", "Acme was handed off to Marcus"
EST, LONDON = "I work in EST", "I moved to London last month"
LYON, MARSEILLE = "I was born in Lyon", "I was born in Marseille"
ROWS = [
    ("m1", ACME_1, "2026-01-01"),
    ("m2", ACME_2, "2026-06-01"),
    ("m3", EST, "2026-01-02"),
    ("m4", LONDON, "2026-06-02"),
    ("m5", LYON, "2026-01-03"),
    ("m6", MARSEILLE, "2026-06-03"),
]
RULES = {
    (ACME_1, ACME_2): (Label.SUPERSEDES, 0.62),  # flagged
    (EST, LONDON): (Label.SUPERSEDES, 0.95),
    (LYON, MARSEILLE): (Label.CONTRADICTS, 0.55),  # flagged
}
EXPECTED_ROLES = {
    "m1": "current",
    "m2": "current",
    "m3": "historical",
    "m4": "current",
    "m5": "current",
    "m6": "current",
}


def test_relabel_and_postgres_write_back_keep_flagged_candidates_current(tmp_path: Path, pg_server: PgServer) -> None:
    import psycopg

    store = tmp_path / "store.jsonl"
    store.write_text(
        "".join(json.dumps({"id": i, "subject": "user:alice", "text": t, "observed_at": d}) + "\n" for i, t, d in ROWS),
        encoding="utf-8",
    )
    url = pg_server.create_db("review_write_back")
    out = tmp_path / "out" / "edges.jsonl"
    stats = relabel(
        RelabelOptions(input=store, out=out, k=8),
        RuleEngine(RULES, review=ReviewPolicy(confidence=0.7)),
        sinks=[open_sink(url, source=str(store), keep_unrelated=False)],
    )
    assert stats.review == 2 == relabel_summary(out)["pairs"]["review"]
    edges = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert {(e["existing_id"], e["label"], e["review"]) for e in edges} == {
        ("m1", "supersedes", True),
        ("m3", "supersedes", False),
        ("m5", "contradicts", True),
    }
    assert relabel_roles(out) == EXPECTED_ROLES
    with psycopg.connect(url) as conn:
        states = dict(conn.execute("SELECT memory_id, role FROM writegate_states").fetchall())
        stored = conn.execute("SELECT existing_id, label, review FROM writegate_edges ORDER BY pair").fetchall()
    assert states == EXPECTED_ROLES
    assert [tuple(r) for r in stored] == [(e["existing_id"], e["label"], e["review"]) for e in edges]


# -- choosing the thresholds ----------------------------------------------------------------------------


def test_the_sweep_counts_wrong_and_right_flags_and_the_choice_keeps_the_load() -> None:
    from writegate.training.review import choose, sweep

    probs = np.array(
        [
            _row(supersedes=0.55, elaborates=0.45),  # wrong (gold elaborates)
            _row(supersedes=0.65, corroborates=0.35),  # right
            _row(contradicts=0.95, unrelated=0.05),  # right
            _row(supersedes=0.75, unrelated=0.25),  # wrong (gold corroborates)
            _row(elaborates=0.4, unrelated=0.6),  # not retiring
        ]
    )
    gold = np.array([LABELS.index(x) for x in ("elaborates", "supersedes", "contradicts", "corroborates", "unrelated")])
    points = sweep(probs, gold, margins=(0.0, 0.2), confidences=(0.0, 0.6, 0.7, 0.8))
    got = {(p.margin, p.confidence): (p.wrong_flagged, p.right_flagged) for p in points}
    assert got == {
        (0.0, 0.0): (0, 0),
        (0.0, 0.6): (1, 0),
        (0.0, 0.7): (1, 1),
        (0.0, 0.8): (2, 1),
        (0.2, 0.0): (1, 0),
        (0.2, 0.6): (1, 0),
        (0.2, 0.7): (1, 1),
        (0.2, 0.8): (2, 1),
    }
    assert points[3].flagged_by_label == {"supersedes": 3, "contradicts": 0}
    best = choose(points, right_total=2, max_load=0.5)
    assert (best.margin, best.confidence) == (0.0, 0.8)
    cheapest = choose(points, right_total=2, max_load=0.0)  # ties: the smaller thresholds
    assert (cheapest.margin, cheapest.confidence) == (0.2, 0.0)


def _labelled(path: Path, rows: tuple[tuple[int, int, str], ...]) -> Path:
    """(existing text index, new text index, gold label) rows of TEXTS as a pair file."""
    path.write_text(
        "".join(
            json.dumps(
                {
                    "existing": {"text": TEXTS[i], "observed_at": "2026-01-01"},
                    "new": {"text": TEXTS[j], "observed_at": "2026-02-01"},
                    "label": label,
                }
            )
            + "\n"
            for i, j, label in rows
        ),
        encoding="utf-8",
    )
    return path


# the tiny model labels the first two `contradicts` (p 0.46, margin 0.18 over the runner-up): both wrong
TWO_WRONG = ((0, 1, "supersedes"), (3, 4, "elaborates"), (5, 0, "unrelated"))
ONE_RIGHT = ((3, 4, "contradicts"), (5, 0, "unrelated"))


def test_the_review_command_runs_on_labelled_pairs(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from writegate.training.review import main

    data = _labelled(tmp_path / "pairs.jsonl", TWO_WRONG)
    before = (tiny_model_dir / META_FILE).read_bytes()
    assert main(["--data", str(data), "--model", str(tiny_model_dir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 pairs\n") and "chosen (at most 10% of the right ones flagged)" in out
    assert "wrote" not in out and (tiny_model_dir / META_FILE).read_bytes() == before  # no --write: prints only
    assert main(["--data", str(data), "--model", str(tiny_model_dir), "--max-load", "2"]) == 2
    assert "--max-load: must be between 0 and 1, got 2.0" in capsys.readouterr().err


def test_write_puts_the_chosen_point_into_writegate_json(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from writegate.training.review import main

    model = Path(shutil.copytree(tiny_model_dir, tmp_path / "model"))
    before = (model / META_FILE).read_text(encoding="utf-8")
    assert "review" not in before
    argv = ["--model", str(model), "--write"]
    assert main(["--data", str(_labelled(tmp_path / "wrong.jsonl", TWO_WRONG)), *argv]) == 0
    out = capsys.readouterr().out
    # the smallest thresholds that flag both wrong labels (no right one to spare)
    assert "chosen (at most 10% of the right ones flagged): margin 0.2, confidence 0.0: flags 2 of 2 wrong" in out
    assert f"wrote {model / META_FILE}: review margin 0.2, confidence 0.0" in out
    after = (model / META_FILE).read_text(encoding="utf-8")
    block = '  "review": {\n    "margin": 0.2,\n    "confidence": 0.0\n  },\n'
    assert after.replace(block, "") == before and after.index(block) < after.index('"metrics"')  # the rest as it was
    assert read_meta(model).review == ReviewPolicy(margin=0.2)
    preds = Classifier.load(model).predict(with_records([Pair(existing=_side(0), new=_side(1))]))
    assert preds[0].label is Label.CONTRADICTS and preds[0].review  # served with the thresholds

    # data without a wrong retiring label chooses nothing: the file stays as it is
    assert main(["--data", str(_labelled(tmp_path / "right.jsonl", ONE_RIGHT)), *argv]) == 0
    assert f"not written: the data holds no wrong retiring label; {model / META_FILE} is unchanged" in (
        capsys.readouterr().out
    )
    assert (model / META_FILE).read_text(encoding="utf-8") == after


def test_write_refuses_what_is_not_a_model_dir_before_the_model_runs(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from writegate.training.review import main

    data = str(_labelled(tmp_path / "wrong.jsonl", TWO_WRONG))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["--data", data, "--model", str(empty), "--write"]) == 2
    assert f"error: model: {empty / META_FILE} is missing (model directory {empty} is incomplete)" in (
        capsys.readouterr().err
    )
    model = Path(shutil.copytree(tiny_model_dir, tmp_path / "model"))
    meta = json.loads((model / META_FILE).read_text(encoding="utf-8"))
    (model / META_FILE).write_text(json.dumps(meta | {"notes": "mine", "owner": "me"}), encoding="utf-8")
    before = (model / META_FILE).read_bytes()
    assert main(["--data", data, "--model", str(model), "--write"]) == 2
    got = capsys.readouterr()
    assert got.out == ""  # refused before the model ran
    assert f"{model / META_FILE} has fields writegate does not read (notes, owner): not rewritten" in got.err
    assert (model / META_FILE).read_bytes() == before


def test_train_chooses_on_its_dev_split_with_the_served_model(tmp_path: Path, tiny_model_dir: Path) -> None:
    """What `writegate train` prints and writes (`training/package.py`), on the tiny model: the
    end-to-end run is `test_training.py`'s domain fine-tuning test."""
    from writegate.training.datafile import read_examples
    from writegate.training.review import choose_on_dev

    clf = Classifier.load(tiny_model_dir)
    with_wrong = choose_on_dev(clf, read_examples(_labelled(tmp_path / "w.jsonl", TWO_WRONG)), True)
    assert with_wrong.describe("dev pairs") == (
        "review: margin 0.2, confidence 0.0 flags 2 of 2 wrong and 0 of 0 right retiring labels on 3 dev pairs"
    )
    assert with_wrong.policy == ReviewPolicy(margin=0.2)
    all_right = choose_on_dev(clf, read_examples(_labelled(tmp_path / "r.jsonl", ONE_RIGHT)), True)
    assert all_right.policy is None
    assert all_right.describe("dev pairs") == (
        "review: no wrong retiring label on 2 dev pairs (1 right one): no thresholds chosen or written"
    )
