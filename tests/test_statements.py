"""TimeQA questions with their answers become statements, or None (never a garbled sentence)."""

from __future__ import annotations

import pytest

from writegate.training.real.statements import statement
from writegate.training.real.timeqa import Fact, as_of, renderings


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("Who owned the Newton D. Baker House?", "George Peter", "George Peter owned the Newton D. Baker House."),
        (
            "Who was the head of Konrad Wolf Film University?",
            "Lothar Bisky",
            "Lothar Bisky was the head of Konrad Wolf Film University.",
        ),
        ("What was John Pettus' job?", "Governor of Mississippi", "John Pettus' job was Governor of Mississippi."),
        ("What nationality was the composer Sir Panufnik?", "Polish", "The composer Sir Panufnik was Polish."),
        ("Which team was managed by Mazzarri?", "Inter", "Inter was managed by Mazzarri."),
        ("Which company made Volvo 9700s?", "Volvo Polska", "Volvo Polska made Volvo 9700s."),
        ("Which classical scholar worked for Swan Sonnenschein?", "A. Smith", "A. Smith worked for Swan Sonnenschein."),
        ("Lee Nogan played for what football team?", "Grimsby Town", "Lee Nogan played for Grimsby Town."),
        (
            "The Luftflotte 5 was commanded by whom?",
            "Hans-Jürgen Stumpff",
            "The Luftflotte 5 was commanded by Hans-Jürgen Stumpff.",
        ),
        ("USAFE had which location as its headquarters?", "Wiesbaden", "USAFE had Wiesbaden as its headquarters."),
    ],
)
def test_a_question_and_its_answer_read_as_a_statement(question: str, answer: str, expected: str) -> None:
    assert statement(question, answer) == expected


@pytest.mark.parametrize(
    "question",
    [
        "Who was Cheryl Tiegs married to?",  # ends in a preposition
        "What was the MS Costa Allegra named?",  # ends in a participle
        "What title did Bohemond IV hold?",  # do-support
        "Who was gifted the egg and who seized it?",  # two wh-words
        "The Office had which person heading it?",  # the wh-phrase is not a plain noun
        "At which camp was Esther Hillesum held?",  # fronted after a preposition
        "What was given to Jorge Cori?",  # no noun phrase to lead with
        "Where was the court headquartered?",
    ],
)
def test_other_shapes_give_none(question: str) -> None:
    assert statement(question, "Somebody") is None


def fact(index: int, question: str, answer: str, year: int) -> Fact:
    from datetime import UTC, datetime

    return Fact(index, datetime(year, 1, 1, tzinfo=UTC), str(year), question, question, (answer,))


def test_a_row_is_all_statements_or_all_as_of_notes() -> None:
    said = [fact(0, "Who owned Acme Hall?", "George Peter", 1811), fact(1, "Who owned Acme Hall?", "Ann Lee", 1916)]
    assert renderings(said) == {0: "George Peter owned Acme Hall.", 1: "Ann Lee owned Acme Hall."}
    mixed = [*said, fact(2, "Who was Acme Hall sold to?", "Bo Ek", 1930)]
    assert renderings(mixed) == {f.index: as_of(f) for f in mixed}
    assert as_of(mixed[2]) == "As of 1930: Who was Acme Hall sold to? Bo Ek"
