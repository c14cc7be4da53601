"""Whose fact and is it current: `normalizer.scope` on clauses from real persona text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind
from writegate.normalizer.scope import Holder, holder, irrealis, past_state

CTX = Context("user:sam", datetime(2026, 3, 2, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)

HOLDERS = [
    ("", "", Holder.SUBJECT, "note"),
    ("I", "", Holder.SUBJECT, "first-person"),
    ("I'm currently", "", Holder.SUBJECT, "first-person-adverb"),
    ("Sam", "", Holder.SUBJECT, "subject-name"),
    ("The user", "", Holder.SUBJECT, "the-user"),
    ("My wife's family", "", Holder.OTHER, "possessed-family"),
    ("my brother", "", Holder.OTHER, "my-brother"),
    ("her family", "", Holder.OTHER, "her-family"),
    ("I have a sister who", "", Holder.OTHER, "relative-clause"),
    ("Maria", "", Holder.OTHER, "other-name"),
    ("She", "", Holder.SUBJECT, "pronoun-no-antecedent"),
    ("She", "My mom is a nurse. ", Holder.OTHER, "pronoun-after-other-person"),
    ("My best friend and I", "", Holder.SUBJECT, "speaker-last"),
]


@pytest.mark.parametrize(("left", "earlier", "expected"), [h[:3] for h in HOLDERS], ids=[h[3] for h in HOLDERS])
def test_holder(left: str, earlier: str, expected: Holder) -> None:
    assert holder(left, CTX, earlier) is expected


MODAL = [
    ("I want to", "", True, "want-to"),
    ("I have been saving to", "", True, "saving-to"),
    ("I am thinking of", "", True, "thinking-of"),
    ("I'm moving to", "", True, "progressive-move"),
    ("I moved to", "", False, "past-move"),
    ("I will be", "", True, "will"),
    ("I", "very soon", True, "soon"),
    ("when I am", "", True, "when"),
    ("I", "", False, "plain"),
    ("I have", "", False, "perfect"),
    ("I currently", "now", False, "currently"),
]


@pytest.mark.parametrize(("left", "right", "expected"), [m[:3] for m in MODAL], ids=[m[3] for m in MODAL])
def test_irrealis(left: str, right: str, expected: bool) -> None:
    assert irrealis(left, right) is expected


PAST = [
    ("I was", "", True, "was"),
    ("I grew up", "", True, "grew-up"),
    ("I used to", "", True, "used-to"),
    ("I", "years ago", True, "ago"),
    ("I", "", False, "present"),
    ("I have", "for ten years", False, "present-perfect"),
]


@pytest.mark.parametrize(("left", "right", "expected"), [p[:3] for p in PAST], ids=[p[3] for p in PAST])
def test_past_state(left: str, right: str, expected: bool) -> None:
    assert past_state(left, right) is expected
