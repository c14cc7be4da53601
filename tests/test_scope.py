"""Whose fact, is it current, is it negated: `normalizer.scope` on clauses from real persona text."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind
from writegate.normalizer.scope import (
    CLAUSE_BREAKS,
    CLAUSE_ENDS,
    EDGE_NEGATION,
    FACT_ANTECEDENTS,
    LIST_BREAKS,
    PREFERENCE_NEGATION,
    REQUEST_NEGATION,
    SCHEDULE_ANTECEDENTS,
    SWITCHED_FROM,
    Holder,
    Negation,
    holder,
    irrealis,
    names_someone,
    negated,
    past_state,
    preference_of_other,
    segment_after,
    segment_before,
    someone_elses,
    speaks_as_speaker,
)

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


# One negation check, read per family (`Negation`): the segment before the cue, its reach, a stop word after it
NEGATION = [
    ("Sam doesn't", EDGE_NEGATION, "", True, "edge-contracted"),
    ("Sam used to", EDGE_NEGATION, "", True, "edge-used-to"),
    ("Sam no longer reports to Ana, and", EDGE_NEGATION, "", False, "edge-after-and"),
    ("I would rather have prose, not", PREFERENCE_NEGATION, "", True, "preference-not"),
    ("I hate", PREFERENCE_NEGATION, "", True, "preference-hate"),
    ("I don't mind long replies, but I want", PREFERENCE_NEGATION, "", False, "preference-after-but"),
    ("Keep it", PREFERENCE_NEGATION, " is outdated now", True, "preference-stop-after"),
    ("Keep it", PREFERENCE_NEGATION, " and short", False, "preference-nothing-after"),
    ("Move us from", SWITCHED_FROM, "", True, "switched-from"),
    ("Move us from Teams to", SWITCHED_FROM, "", False, "switched-to"),
    ("don't book anything before 10", REQUEST_NEGATION, "", True, "request-anywhere"),
]


@pytest.mark.parametrize(
    ("before", "negation", "after", "expected"), [c[:4] for c in NEGATION], ids=[c[4] for c in NEGATION]
)
def test_negated(before: str, negation: Negation, after: str, expected: bool) -> None:
    assert negated(before, negation, after) is expected


def test_segments_cut_at_the_family_breaks() -> None:
    assert segment_before("I moved, and now I live", CLAUSE_BREAKS) == " now I live"
    assert segment_after(" Austin and I work remotely", CLAUSE_ENDS) == " Austin "
    assert segment_before("Sam, Lee and", LIST_BREAKS) == ""


def test_the_two_antecedent_readings_differ_where_said() -> None:
    # a fact: any capitalised word opening a sentence names someone; a schedule: only before "is", "has"…
    assert names_someone("Maria! ", CTX, FACT_ANTECEDENTS)
    assert not names_someone("Maria! ", CTX, SCHEDULE_ANTECEDENTS)
    # a schedule: "this guy" names someone; a fact needs a possessive person noun
    assert names_someone("I met this guy. ", CTX, SCHEDULE_ANTECEDENTS)
    assert not names_someone("I met this guy. ", CTX, FACT_ANTECEDENTS)
    for antecedents in (FACT_ANTECEDENTS, SCHEDULE_ANTECEDENTS):
        assert names_someone("My mom is a nurse. ", CTX, antecedents)
        assert not names_someone("Sam is here. ", CTX, antecedents)  # the subject is no other person


@pytest.mark.parametrize(
    ("sentence", "earlier", "expected"),
    [
        ("My husband works nights.", "", True),
        ("Bob's standup is at 10.", "", True),
        ("She likes mornings.", "", False),
        ("She likes mornings.", "My mom is a nurse. ", True),
        ("Her assistant says she refuses afternoon calls.", "", False),
        ("Standup is at 10.", "", False),
    ],
)
def test_someone_elses(sentence: str, earlier: str, expected: bool) -> None:
    assert someone_elses(sentence, CTX, earlier) is expected


@pytest.mark.parametrize(
    ("clause", "before", "expected"),
    [
        ("Lee prefers Slack", "", True),
        ("The CEO wants short updates", "", True),
        ("the best way to reach Lee is email", "", True),
        ("language for Lee: French", "", True),
        ("Keep it short", "", False),
        ("French works best for me", "", False),
        ("I prefer email", "", False),
        ("Sam prefers email", "", False),
    ],
)
def test_preference_of_other(clause: str, before: str, expected: bool) -> None:
    assert preference_of_other(clause, CTX, before) is expected


def test_speaks_as_speaker() -> None:
    assert speaks_as_speaker("He is a professor and I am a librarian")
    assert speaks_as_speaker("My mom is a nurse. She lives in Ohio")
    assert not speaks_as_speaker("My mistake earlier, she signs off on hiring")
