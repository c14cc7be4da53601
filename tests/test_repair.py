"""Self-repairs and changes resolved before the time rules read a sentence (`normalizer.repair`)."""

from __future__ import annotations

import pytest

from writegate.normalizer.repair import restated

RESTATED = [
    ("every", "Team lunch every other... no, every Wednesday at noon.", "Team lunch every Wednesday at noon."),
    ("clock", "Standup is at 9, sorry, 9:30 every weekday.", "Standup is at 9:30 every weekday."),
    ("i-mean", "No meetings before 9 — I mean 10.", "No meetings before 10."),
    ("no-dash", "Gym on Mondays and Wednesdays at 6 — no, 7am.", "Gym on Mondays and Wednesdays at 7am."),
    ("no-wait", "Review is Thursday at 3, no wait, 4pm.", "Review is Thursday at 4pm."),
    ("preposition", "Calls after 5... sorry, after 6pm are fine.", "Calls after 6pm are fine."),
    ("day", "Book my 1:1s for Mondays — actually, Tuesdays at 11.", "Book my 1:1s for Tuesdays at 11."),
    ("make-that", "Yoga every Saturday at 8... make that 9am.", "Yoga every Saturday at 9am."),
    ("range", "Office hours are Thursdays 2-4pm, correction, 3-5pm.", "Office hours are Thursdays 3-5pm."),
    ("a-m", "Calls at 9 a.m., sorry, 10 a.m. daily.", "Calls at 10 a.m. daily."),
    ("change", "The daily standup moved from 9:30 to 10am.", "The daily standup moved to 10am."),
    ("change-day", "Retro was switched from Fridays to Thursdays.", "Retro was switched to Thursdays."),
]


@pytest.mark.parametrize(("text", "expected"), [r[1:] for r in RESTATED], ids=[r[0] for r in RESTATED])
def test_restated(text: str, expected: str) -> None:
    assert restated(text) == expected


UNCHANGED = [
    ("reply", "No, make it 4pm instead."),
    ("no-then-words", "No meetings on Fridays, no calls after 5."),
    ("actually-no-value", "I actually prefer mornings."),
    ("range-not-change", "I'm free from 9 to 11 on Mondays."),
    ("nothing-to-replace", "Mornings are best, sorry."),
]


@pytest.mark.parametrize("text", [t for _, t in UNCHANGED], ids=[i for i, _ in UNCHANGED])
def test_unchanged(text: str) -> None:
    assert restated(text) == text
