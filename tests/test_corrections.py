"""Corrections: a speaker's own retraction settles a `contradicts` pair (`normalizer/retraction.py`,
`classifier/correction.py`, `api/prepare.py`, relabel's outputs).

The label stays `contradicts`; the evidence becomes `correction`; the existing memory is
`retracted` and the new one `current`. The cue tests use real phrasings (the Schema-Guided
Dialogue and Multi-Session Chat turns quoted below) both ways; the end-to-end tests run the shipped
model over gRPC and through `writegate relabel`.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from helpers import RuleEngine, argv, relabel_jsonl, relabel_summary
from server_fakes import memory, serving

from writegate.classifier import columnar
from writegate.classifier.correction import may_correct, one_speaker_after
from writegate.classifier.guard import GUARD_NONE
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.types import Evidence
from writegate.cli.main import main
from writegate.normalizer.retraction import retraction_cue
from writegate.normalizer.schema import ProvenanceKind
from writegate.relabel.run import RelabelOptions, relabel
from writegate.v1 import writegate_pb2 as pb

SHIPPED = Path(__file__).resolve().parents[1] / "models" / "default"
T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
ELLA = "My daughter's name is Ella"
ELLIE = "Actually, my daughter's name is Ellie, not Ella"

# -- the cues ---------------------------------------------------------------------------------------

RETRACTIONS = [
    (ELLIE, "actually"),
    ("Oh actually it's on Tuesday", "actually"),
    ("No, actually I'm allergic to walnuts", "actually"),
    ("I'm 34. Actually, I'm 35", "actually"),
    ("I meant Tuesday, not Thursday", "i_meant"),
    ("What I meant was Ellie", "i_meant"),
    ("I meant to say Ellie", "i_meant"),
    ("Thank you, yes I meant masters.", "i_meant"),  # MSC
    ("It's not Ella but Ellie", "not_but"),
    ("My daughter's name is not Ella, but Ellie", "not_but"),
    ("The meeting is not on Tuesday but on Thursday", "not_but"),
    ("That's wrong, my daughter is Ellie", "that_is_wrong"),
    ("No, that is not true: it is Ellie", "that_is_wrong"),
    ("What I said before was wrong: I live in York", "that_is_wrong"),
    ("That was a typo: Ellie", "that_is_wrong"),
    ("I misspoke earlier, it's Ellie", "misspoke"),
    ("I am sorry, I mistyped! I am.", "misspoke"),  # MSC
    ("I was wrong, she is 7", "i_was_wrong"),
    ("I got that wrong: she is 7", "i_was_wrong"),
    ("My mistake, she is seven", "i_was_wrong"),
    ("My bad, it's Ellie", "i_was_wrong"),
    ("Correction: the flight is at 9", "correction"),
    ("Let me correct myself: Ellie", "correction"),
    ("User corrected the earlier note: daughter is Ellie", "correction"),
    ("Scratch that, it's Ellie", "take_back"),
    ("I take that back: I don't like tea", "take_back"),
    ("Wait, no, it's Ellie", "wait_no"),
    # a change request reads like one: the model says supersedes, and only contradicts reads the cue (SGD)
    ("Actually, make it at 18:15 on the 12th.", "actually"),
]
NOT_RETRACTIONS = [
    "My daughter's name is Ellie",
    "I actually like tea",
    "I'm actually a big meat eater. But fish ain't too bad either!",  # MSC
    "I don't do accounting anymore. I am actually a freelance entrepreneur.",  # MSC: a change, not a retraction
    "Actually yes, we have an auto mechanics class.",  # MSC: an answer
    "I meant to call you",
    "I meant it",
    "I never meant to hurt you",
    "I didn't mean that",
    "I mean, I love pizza",
    "I like not only cats but also dogs",
    "I'm not rich but I'm happy",
    "Not married, but have two dogs and three kitties.",  # MSC
    "It's not too hot but warm",
    "It is wrong to lie",
    "I lied to her and that was wrong of me",
    "It was better to have no agreement than an agreement that is wrong",  # STS
    "I look young. I'm mistaken for a student at the school where I work.",  # MSC
    "At least for a few short ones because of my bad knee.",
    "I live in Utrecht now, not Leeds",  # a change names the old value too
    "She corrected my essay",
    "I work in corrections",
    "Don't forget that I'm allergic",
    "I'm not wrong",
]


@pytest.mark.parametrize(("text", "cue"), RETRACTIONS, ids=[t for t, _ in RETRACTIONS])
def test_a_retraction_is_found_by_its_cue(text: str, cue: str) -> None:
    assert retraction_cue(text) == cue


@pytest.mark.parametrize("text", NOT_RETRACTIONS)
def test_these_retract_nothing(text: str) -> None:
    assert retraction_cue(text) is None


# -- the classifier's post step ------------------------------------------------------------------


def _mem(text: str, at: datetime = T0, *, subject: str = "user:dana", prov: ProvenanceKind = ProvenanceKind.STATED):
    return columnar.WindowMemory(text, at, subject, None, prov)


LATER = T0 + timedelta(minutes=5)


@pytest.mark.parametrize(
    ("existing", "new", "want"),
    [
        (_mem(ELLA), _mem(ELLIE, LATER), True),
        (_mem(ELLA), _mem(ELLIE, T0), True),  # the same moment
        (_mem(ELLA, LATER), _mem(ELLIE, T0), False),  # nothing retracts what is said after it
        (_mem(ELLA), _mem(ELLIE, LATER, subject="user:erin"), False),
        (_mem(ELLA, prov=ProvenanceKind.IMPORTED), _mem(ELLIE, LATER), False),  # another source's memory
        (_mem(ELLA), _mem(ELLIE, LATER, prov=ProvenanceKind.INFERRED), False),  # the agent's reading
        (_mem(ELLA), _mem("My daughter's name is Ellie", LATER), False),  # no cue
        (_mem(ELLA, T0.replace(tzinfo=None)), _mem(ELLIE, LATER), True),  # a naive time is UTC
    ],
    ids=["later", "same-moment", "earlier", "other-subject", "imported", "inferred", "no-cue", "naive"],
)
def test_may_correct_needs_one_speaker_a_later_text_and_a_cue(
    existing: columnar.WindowMemory, new: columnar.WindowMemory, want: bool
) -> None:
    assert may_correct([existing, new], [(0, 1)]).tolist() == [want]
    assert one_speaker_after(existing, new) is (want or new.text != ELLIE)  # only the cue was missing


def _logits(label: Label) -> np.ndarray:
    out = np.zeros(len(LABELS), dtype=np.float32)
    out[LABELS.index(label.value)] = 5.0
    return out


def test_post_rows_marks_only_contradicts_as_a_correction() -> None:
    logits = np.stack([_logits(Label.CONTRADICTS), _logits(Label.SUPERSEDES), _logits(Label.CONTRADICTS)] * 2)
    may = np.array([True, True, False, True, True, False])
    guard = np.array([GUARD_NONE] * 3 + [columnar.EVIDENCE.index(Evidence.CONTENT_FREE)] + [GUARD_NONE] * 2, np.int8)
    probs, evidence = columnar.post_rows(
        logits, np.zeros(6, np.int8), guard, temperature=1.0, fusion=False, may_correct=may
    )
    assert [columnar.EVIDENCE[i] for i in evidence] == [
        Evidence.CORRECTION,
        Evidence.MODEL,  # supersedes: a change request stays a change
        Evidence.MODEL,
        Evidence.CONTENT_FREE,  # a guard made it unrelated
        Evidence.MODEL,
        Evidence.MODEL,
    ]
    plain, _ = columnar.post_rows(logits, np.zeros(6, np.int8), guard, temperature=1.0, fusion=False)
    assert np.array_equal(probs, plain)  # the probabilities never change


# -- relabel, deterministic (the rule engine runs the real post step) --------------------------------

STORE = [  # id, subject, text, observed_at, provenance
    ("d1", "user:dana", ELLA, "2026-03-01T10:00:00Z", None),
    ("d2", "user:dana", ELLIE, "2026-03-01T10:05:00Z", None),
    ("e1", "user:erin", "Erin was born in Lyon", "2026-03-01T10:00:00Z", None),
    ("e2", "user:erin", "Actually, Erin was born in Marseille", "2026-03-01T10:05:00Z", "imported"),
    ("f1", "user:fay", "Fay was born in Lyon", "2026-03-01T10:00:00Z", None),
    ("f2", "user:fay", "Fay was born in Nice", "2026-03-01T10:00:00Z", None),
]
RULES = {
    (e, n): (Label.CONTRADICTS, 0.8) for e, n in [(ELLA, ELLIE), (STORE[2][2], STORE[3][2]), (STORE[4][2], STORE[5][2])]
}


def _store(path: Path) -> Path:
    rows = [
        {"id": i, "subject": s, "text": t, "observed_at": at, **({"provenance": p} if p else {})}
        for i, s, t, at, p in STORE
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _check_outputs(out: Path) -> None:
    edges = {(e["existing_id"], e["new_id"]): e for e in (json.loads(x) for x in out.read_text().splitlines())}
    assert (edges["d1", "d2"]["label"], edges["d1", "d2"]["evidence"]) == ("contradicts", "correction")
    assert edges["e1", "e2"]["label"] == "contradicts" and edges["e1", "e2"]["evidence"] != "correction"
    roles = {r["id"]: r for r in relabel_jsonl(out, "roles.jsonl")}
    assert {i: r["role"] for i, r in roles.items()} == {
        "d1": "retracted",
        "d2": "current",
        "e1": "in_conflict",  # an imported memory never retracts the user's
        "e2": "in_conflict",
        "f1": "in_conflict",
        "f2": "in_conflict",
    }
    assert roles["d1"]["retracted_by"] == ["d2"] and "retracted_by" not in roles["e1"]
    summary = relabel_summary(out)
    assert summary["roles"] == {"current": 1, "historical": 0, "in_conflict": 4, "retracted": 1}
    assert summary["labels"]["contradicts"] == 3 and summary["pairs"]["corrections"] == 1
    open_conflicts = relabel_jsonl(out, "conflicts.jsonl")
    assert sorted(c["existing_id"] for c in open_conflicts) == ["e1", "f1"]  # nothing to ask about d1


def test_relabel_retracts_what_the_speaker_took_back(tmp_path: Path) -> None:
    out = tmp_path / "out" / "edges.jsonl"
    relabel(RelabelOptions(input=_store(tmp_path / "store.jsonl"), out=out, k=4), RuleEngine(RULES))
    _check_outputs(out)


# -- the shipped model, end to end ---------------------------------------------------------------------

shipped = pytest.mark.skipif(
    not (SHIPPED / "writegate.json").is_file(), reason="the shipped model models/default is not present"
)


@pytest.mark.slow
@shipped
async def test_prepare_write_over_grpc_settles_a_correction() -> None:
    """ "My daughter's name is Ella", then five minutes later "Actually, … Ellie, not Ella"."""
    from writegate.server.app import load_classifier
    from writegate.server.config import ServerConfig

    config = ServerConfig(port=0, model=SHIPPED, max_wait_ms=0)
    ella = memory("ella", ELLA, subject="user:dana", at=T0)
    ellie = memory("ellie", ELLIE, subject="user:dana", at=T0 + timedelta(minutes=5))
    booking = memory("b", "Book a table for two at 6pm", subject="user:dana", at=T0)
    change = memory("c", "Actually, make it 7pm", subject="user:dana", at=T0 + timedelta(minutes=5))
    imported = memory("ella-crm", ELLA, subject="user:dana", at=T0, provenance=pb.PROVENANCE_KIND_IMPORTED)
    async with serving(loader=lambda: load_classifier(config), model=SHIPPED) as (_app, _channel, stub):
        resp = await stub.PrepareWrite(pb.PrepareWriteRequest(memory=ellie, candidates=[ella]), timeout=30)
        other_source = await stub.PrepareWrite(pb.PrepareWriteRequest(memory=ellie, candidates=[imported]), timeout=30)
        plan_change = await stub.PrepareWrite(pb.PrepareWriteRequest(memory=change, candidates=[booking]), timeout=30)
        classified = await stub.Classify(pb.ClassifyRequest(memory=ellie, candidates=[ella]), timeout=30)
        streamed = [
            r async for r in stub.Relabel(iter([pb.RelabelRequest(pair_id="p", existing=ella, new=ellie)]), timeout=30)
        ]
    (rel,) = resp.relations
    assert rel.label == pb.LABEL_CONTRADICTS, dict(rel.scores)  # the shipped model: contradicts 0.77
    assert rel.evidence == pb.EVIDENCE_CORRECTION
    assert [(s.candidate_id, s.role) for s in resp.candidate_states] == [("ella", pb.STATE_ROLE_RETRACTED)]
    assert resp.new_role == pb.STATE_ROLE_CURRENT
    assert [(e.source_id, e.target_id, e.label) for e in resp.edges] == [("ellie", "ella", pb.LABEL_CONTRADICTS)]
    # the same words against another source's memory: a conflict for the user, as before
    (rel,) = other_source.relations
    assert (rel.label, rel.evidence) == (pb.LABEL_CONTRADICTS, pb.EVIDENCE_MODEL)
    assert other_source.candidate_states[0].role == other_source.new_role == pb.STATE_ROLE_IN_CONFLICT
    # a change request is a change: supersedes, the booking historical
    assert plan_change.relations[0].label == pb.LABEL_SUPERSEDES
    assert plan_change.relations[0].evidence != pb.EVIDENCE_CORRECTION
    assert plan_change.candidate_states[0].role == pb.STATE_ROLE_HISTORICAL
    # Classify and the Relabel stream show the evidence too
    assert classified.relations[0].evidence == pb.EVIDENCE_CORRECTION
    assert [(r.pair_id, r.relation.evidence) for r in streamed] == [("p", pb.EVIDENCE_CORRECTION)]


@pytest.mark.slow
@shipped
def test_relabel_on_the_shipped_model(tmp_path: Path) -> None:
    out = tmp_path / "out" / "edges.jsonl"
    assert main(argv("relabel", input=_store(tmp_path / "store.jsonl"), out=out, model=SHIPPED, k=4)) == 0
    _check_outputs(out)
