"""`api/prepare.py`: roles and edges from relations (pure); never a deletion."""

from __future__ import annotations

import pytest

from writegate.api.prepare import Relation, StateRole, plan_write, relations
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, Prediction


def rel(cid: str, label: Label, evidence: Evidence = Evidence.MODEL) -> Relation:
    return Relation(candidate_id=cid, label=label, scores={label.value: 1.0}, evidence=evidence)


@pytest.mark.parametrize(
    ("labels", "roles", "edges", "new_role"),
    [
        ([], [], [], StateRole.CURRENT),
        ([Label.SUPERSEDES], [StateRole.HISTORICAL], [("c0", Label.SUPERSEDES)], StateRole.CURRENT),
        (
            [Label.CONTRADICTS, Label.UNRELATED],
            [StateRole.IN_CONFLICT, StateRole.CURRENT],
            [("c0", Label.CONTRADICTS)],
            StateRole.IN_CONFLICT,
        ),
        (
            [Label.UNRELATED, Label.ELABORATES, Label.CORROBORATES],
            [StateRole.CURRENT] * 3,
            [("c1", Label.ELABORATES), ("c2", Label.CORROBORATES)],
            StateRole.CURRENT,
        ),
        (
            [Label.SUPERSEDES, Label.CONTRADICTS],
            [StateRole.HISTORICAL, StateRole.IN_CONFLICT],
            [("c0", Label.SUPERSEDES), ("c1", Label.CONTRADICTS)],
            StateRole.IN_CONFLICT,
        ),
    ],
    ids=["no-candidates", "supersedes", "contradicts", "compatible", "mixed"],
)
def test_plan_write(labels: list[Label], roles: list[StateRole], edges: list, new_role: StateRole) -> None:
    plan = plan_write("n", [rel(f"c{i}", lab) for i, lab in enumerate(labels)])
    assert [s.role for s in plan.candidate_states] == roles
    assert [s.candidate_id for s in plan.candidate_states] == [f"c{i}" for i in range(len(labels))]
    assert [(e.target_id, e.label) for e in plan.edges] == edges
    assert all(e.source_id == "n" for e in plan.edges)
    assert plan.new_role is new_role
    assert {r.value for r in StateRole} == {"current", "historical", "in_conflict", "retracted"}  # no "deleted"


@pytest.mark.parametrize(
    ("relations", "roles", "new_role"),
    [
        ([rel("c0", Label.CONTRADICTS, Evidence.CORRECTION)], [StateRole.RETRACTED], StateRole.CURRENT),
        (  # another candidate contradicts it plainly: the new memory is in conflict all the same
            [rel("c0", Label.CONTRADICTS, Evidence.CORRECTION), rel("c1", Label.CONTRADICTS, Evidence.BOTH)],
            [StateRole.RETRACTED, StateRole.IN_CONFLICT],
            StateRole.IN_CONFLICT,
        ),
        (  # a correction's evidence on any other label changes nothing (only the classifier sets it)
            [rel("c0", Label.SUPERSEDES, Evidence.CORRECTION), rel("c1", Label.ELABORATES, Evidence.CORRECTION)],
            [StateRole.HISTORICAL, StateRole.CURRENT],
            StateRole.CURRENT,
        ),
    ],
    ids=["correction", "correction-and-conflict", "correction-evidence-elsewhere"],
)
def test_a_correction_retracts_the_candidate_and_keeps_the_edge(
    relations: list[Relation], roles: list[StateRole], new_role: StateRole
) -> None:
    plan = plan_write("n", relations)
    assert [s.role for s in plan.candidate_states] == roles
    assert [(e.target_id, e.label) for e in plan.edges] == [(r.candidate_id, r.label) for r in relations]
    assert plan.new_role is new_role


def test_relations_pairs_ids_with_predictions_in_order() -> None:
    preds = [
        Prediction(
            label=Label.ELABORATES,
            probabilities={"elaborates": 0.9, "unrelated": 0.1},
            slot_match=True,
            evidence=Evidence.BOTH,
        )
    ]
    (r,) = relations(["c9"], preds)
    assert (r.candidate_id, r.label, r.scores, r.slot_match, r.evidence) == (
        "c9",
        Label.ELABORATES,
        {"elaborates": 0.9, "unrelated": 0.1},
        True,
        Evidence.BOTH,
    )
    with pytest.raises(ValueError, match="2 candidates but 1 predictions"):
        relations(["a", "b"], preds)
