"""What a store should record after a write: pure functions from relations to state roles and edges.

The service labels; it never tells a store to delete and never adjudicates:

| relation of NEW to a candidate | candidate's role | edge stored (new → candidate) |
| --- | --- | --- |
| supersedes | historical | supersedes |
| contradicts | in_conflict (the new memory too) | contradicts |
| contradicts, evidence `correction` | retracted (the new memory stays current) | contradicts |
| supersedes / contradicts flagged `review` | current (a person decides) | supersedes / contradicts |
| elaborates / corroborates | current | elaborates / corroborates |
| unrelated | current | none |

`current` means "this write does not change the candidate's role"; a store keeps whatever role
an earlier write gave it (a historical record is not revived by an unrelated write).

A correction is the speaker taking back what they said ("Actually, it's Ellie, not Ella": one
subject, both memories `stated`, `classifier/correction.py`): the label stays `contradicts` (the old
value was never true, so it is no change), but nothing is left for the user to settle. The new
memory is `in_conflict` only when it contradicts some candidate otherwise.

A retiring label (`supersedes`, `contradicts`) that won narrowly or with a low probability is
flagged `review` by the classifier (`classifier/review.py`, thresholds in the model's
`writegate.json`): the edge is stored with its label, but the candidate keeps its role and the new
memory is not put in conflict by it, until a person looks.

A candidate of another subject, and any pair where one text states nothing ("test", "."), is
`unrelated` by the classifier's guards (`classifier/guard.py`), so such a write leaves every role
as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, Prediction
from writegate.normalizer.schema import Record


class StateRole(str, Enum):
    """A memory's state role after a write."""

    CURRENT = "current"
    HISTORICAL = "historical"
    IN_CONFLICT = "in_conflict"
    RETRACTED = "retracted"
    """Withdrawn by its speaker (a correction): kept, never live again; not `historical`, which was
    true and no longer is."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Relation(_Frozen):
    """How the new memory relates to one candidate."""

    candidate_id: str = Field(description="The candidate (EXISTING memory) id.")
    label: Label
    scores: dict[str, float] = Field(description="Probability per label name.")
    slot_match: bool = Field(default=False, description="Both sides normalized to the same slot.")
    evidence: Evidence = Field(default=Evidence.MODEL, description="Which part decided the label.")
    review: bool = Field(
        default=False,
        description="A retiring label that won narrowly or with a low probability: the candidate stays current "
        "until a person reviews it.",
    )


class CandidateState(_Frozen):
    """The role a candidate takes after this write."""

    candidate_id: str
    role: StateRole


class WriteEdge(_Frozen):
    """A typed edge to store: new memory → candidate, labelled."""

    source_id: str = Field(description="The new memory's id.")
    target_id: str = Field(description="The candidate's id.")
    label: Label


class WritePlan(_Frozen):
    """The roles and edges implied by a write's relations."""

    new_role: StateRole
    candidate_states: list[CandidateState]
    edges: list[WriteEdge]


class PrepareWriteResult(_Frozen):
    """The answer of PrepareWrite: records, relations and what to record."""

    records: list[Record]
    relations: list[Relation]
    candidate_states: list[CandidateState]
    edges: list[WriteEdge]
    new_role: StateRole


ROLE_BY_LABEL: dict[Label, StateRole] = {
    Label.SUPERSEDES: StateRole.HISTORICAL,
    Label.CONTRADICTS: StateRole.IN_CONFLICT,
    Label.ELABORATES: StateRole.CURRENT,
    Label.CORROBORATES: StateRole.CURRENT,
    Label.UNRELATED: StateRole.CURRENT,
}
"""The candidate's role after a write whose relation to it is the key."""

EDGE_LABELS: frozenset[Label] = frozenset(set(Label) - {Label.UNRELATED})
"""Labels that give an edge to store; `unrelated` gives none."""


def relations(candidate_ids: Sequence[str], predictions: Sequence[Prediction]) -> list[Relation]:
    """Pair each candidate id with its prediction, in candidate order."""
    if len(candidate_ids) != len(predictions):
        raise ValueError(f"{len(candidate_ids)} candidates but {len(predictions)} predictions")
    return [
        Relation(
            candidate_id=cid,
            label=p.label,
            scores=dict(p.probabilities),
            slot_match=p.slot_match,
            evidence=p.evidence,
            review=p.review,
        )
        for cid, p in zip(candidate_ids, predictions, strict=True)
    ]


def is_correction(rel: Relation) -> bool:
    """The new memory retracts the candidate: `contradicts` with evidence `correction`."""
    return rel.label is Label.CONTRADICTS and rel.evidence is Evidence.CORRECTION


def candidate_role(rel: Relation) -> StateRole:
    """The candidate's role after a write whose relation to it is `rel`: `current` while it awaits review,
    `retracted` for a correction, else the label's (`ROLE_BY_LABEL`)."""
    if rel.review:
        return StateRole.CURRENT
    if is_correction(rel):
        return StateRole.RETRACTED
    return ROLE_BY_LABEL[rel.label]


def plan_write(new_id: str, rels: Sequence[Relation]) -> WritePlan:
    """The state roles and edges implied by the new memory's relations (never a deletion).

    Args:
        new_id: the new memory's id (the source of every edge).
        rels: one relation per candidate, in candidate order.
    """
    states = [CandidateState(candidate_id=r.candidate_id, role=candidate_role(r)) for r in rels]
    edges = [
        WriteEdge(source_id=new_id, target_id=r.candidate_id, label=r.label) for r in rels if r.label in EDGE_LABELS
    ]
    conflict = any(s.role is StateRole.IN_CONFLICT for s in states)
    return WritePlan(
        new_role=StateRole.IN_CONFLICT if conflict else StateRole.CURRENT,
        candidate_states=states,
        edges=edges,
    )


def prepare_write(new_id: str, records: Sequence[Record], rels: Sequence[Relation]) -> PrepareWriteResult:
    """Assemble PrepareWrite's answer from the new memory's records and relations."""
    plan = plan_write(new_id, rels)
    return PrepareWriteResult(
        records=list(records),
        relations=list(rels),
        candidate_states=plan.candidate_states,
        edges=plan.edges,
        new_role=plan.new_role,
    )
