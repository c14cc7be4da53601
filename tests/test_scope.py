"""Whose fact and is it current: `normalizer.scope` on clauses from real persona text."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind
from writegate.normalizer.scope import Holder, holder, irrealis, past_state

CTX = Context("user:sam", datetime(2026, 3, 2, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)

SUBJECT, OTHER = Holder.SUBJECT, Holder.OTHER


def holder_after(left: str, earlier: str) -> Holder:
    """`holder` of a clause whose text left of the value is `left`, after the text `earlier` (in CTX)."""
    return holder(left, CTX, earlier)


# (decision, the clause left of the value, the other text it reads, expected, id): `holder_after` reads the
# text before the clause; `irrealis` (wanted, planned, conditional) and `past_state` (no longer true) read
# the clause right of the value
SCOPE = [
    (holder_after, "", "", SUBJECT, "note"),
    (holder_after, "I", "", SUBJECT, "first-person"),
    (holder_after, "I'm currently", "", SUBJECT, "first-person-adverb"),
    (holder_after, "Sam", "", SUBJECT, "subject-name"),
    (holder_after, "The user", "", SUBJECT, "the-user"),
    (holder_after, "My wife's family", "", OTHER, "possessed-family"),
    (holder_after, "my brother", "", OTHER, "my-brother"),
    (holder_after, "her family", "", OTHER, "her-family"),
    (holder_after, "I have a sister who", "", OTHER, "relative-clause"),
    (holder_after, "Maria", "", OTHER, "other-name"),
    (holder_after, "She", "", SUBJECT, "pronoun-no-antecedent"),
    (holder_after, "She", "My mom is a nurse. ", OTHER, "pronoun-after-other-person"),
    (holder_after, "My best friend and I", "", SUBJECT, "speaker-last"),
    (irrealis, "I want to", "", True, "want-to"),
    (irrealis, "I have been saving to", "", True, "saving-to"),
    (irrealis, "I am thinking of", "", True, "thinking-of"),
    (irrealis, "I'm moving to", "", True, "progressive-move"),
    (irrealis, "I moved to", "", False, "past-move"),
    (irrealis, "I will be", "", True, "will"),
    (irrealis, "I", "very soon", True, "soon"),
    (irrealis, "when I am", "", True, "when"),
    (irrealis, "I", "", False, "plain"),
    (irrealis, "I have", "", False, "perfect"),
    (irrealis, "I currently", "now", False, "currently"),
    (past_state, "I was", "", True, "was"),
    (past_state, "I grew up", "", True, "grew-up"),
    (past_state, "I used to", "", True, "used-to"),
    (past_state, "I", "years ago", True, "ago"),
    (past_state, "I", "", False, "present"),
    (past_state, "I have", "for ten years", False, "present-perfect"),
]


@pytest.mark.parametrize(
    ("decision", "left", "other", "expected"), [c[:4] for c in SCOPE], ids=[f"{c[0].__name__}-{c[4]}" for c in SCOPE]
)
def test_scope_decision(decision: Callable[[str, str], object], left: str, other: str, expected: object) -> None:
    assert decision(left, other) is expected
