"""Which sentences with a time in them state a standing window: `normalizer.standing` and the family end to end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from writegate.normalizer import time_windows
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind, TimeWindowValue
from writegate.normalizer.scope import someone_elses
from writegate.normalizer.standing import is_one_off, states_standing_window

CTX = Context("user:sam", datetime(2026, 3, 2, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)

NOT_STANDING = [
    ("date", "I want to pick it up at about 1 pm on March 10th."),
    ("next-week", "Sounds good, how about on Monday next week?"),
    ("date-ordinal", "Please can you schedule it on March 6th at 09:45."),
    ("this-month", "I want to eat there on the 4th of this month at 7 pm."),
    ("correction-it", "No, it should be afternoon 3:45."),
    ("correction-the-thing", "No, The appointment will be quarter past 2 in the afternoon."),
    ("want-it", "No, I want it for three in the afternoon."),
    ("book-me", "Please book me for 11 in the morning."),
    ("try-again", "Try booking again for half past 10 in the morning."),
    ("question", "Can we meet at 3pm on Tuesdays?"),
    ("tomorrow", "Call me tomorrow at 9."),
    ("past", "I had a call with the vendor at 4pm."),
    ("used-to", "I used to go to the gym at 6am every day."),
    ("plan", "We could meet in the mornings at 10."),
    ("will-be-free", "I will be free at 3 in the afternoon."),
    ("other-person", "My husband goes to the gym at 6 every morning."),
    ("other-name", "Bob has standup at 10 every day."),
    ("pronoun-after-other", "My sister is a nurse. She works nights every weekend."),
    ("you", "You'll have breakfast waiting each morning."),
]


@pytest.mark.parametrize("text", [t for _, t in NOT_STANDING], ids=[i for i, _ in NOT_STANDING])
def test_not_standing(text: str) -> None:
    assert time_windows.extract(text, CTX) == []


STANDING = [
    ("every-spoken", "Every Tuesday I pick up the kids at half past 3 in the afternoon.", "30 15 * * 2", 60),
    ("weekly-quarter-to", "My weekly sync with Lee is on Thursdays at quarter to 5 in the evening.", "45 16 * * 4", 60),
    ("usually-word-hour", "I usually go to the gym at seven in the morning.", "0 7 * * *", 60),
    ("pod-first", "Standup is every weekday at morning 9:30.", "30 9 * * 1-5", 60),
    ("night", "I stream every Friday at 8 in the night.", "0 20 * * 5", 60),
    ("recurring-beats-next", "From next week, standup is every day at 10.", "0 10 * * *", 60),
    ("pronoun-no-antecedent", "She prefers calls in the morning.", "0 9 * * *", 180),
    ("was-moved", "Standup was moved to 10:30 on Mondays.", "30 10 * * 1", 60),
]


@pytest.mark.parametrize(("text", "cron", "minutes"), [s[1:] for s in STANDING], ids=[s[0] for s in STANDING])
def test_standing(text: str, cron: str, minutes: int) -> None:
    got = [
        (r.value.time_window.cron, r.value.time_window.duration_minutes)
        for r in time_windows.extract(text, CTX)
        if isinstance(r.value, TimeWindowValue)
    ]
    assert (cron, minutes) in got


def test_recurring_cue_overrides_one_off_words() -> None:
    assert is_one_off("Book it for 3pm.")
    assert not is_one_off("Book it for 3pm every Monday.")


def test_pronoun_is_the_subject_without_antecedent() -> None:
    assert not someone_elses("She likes mornings.", CTX, "")
    assert someone_elses("She likes mornings.", CTX, "My mom is a nurse. ")


def test_question_is_not_a_statement() -> None:
    assert not states_standing_window("Are you free on Mondays at 9?", CTX)


@pytest.mark.parametrize(
    "text",
    [
        "Book my calls only between 9 and 11am.",
        "Always book client meetings in the afternoon.",
        "Book all my dentist appointments in the morning.",
        "Don't book anything before 10am.",
    ],
)
def test_booking_inside_a_standing_rule_is_no_one_off(text: str) -> None:
    assert not is_one_off(text)


@pytest.mark.parametrize(
    "text", ["Book a table for two at 7pm on Friday.", "Book me a haircut next Saturday at 10.", "Email me the slides."]
)
def test_one_off_bookings_stay_one_off(text: str) -> None:
    assert is_one_off(text)


def test_reported_preference_is_the_subjects() -> None:
    assert not someone_elses("Her assistant says she refuses afternoon calls.", CTX, "")
    assert someone_elses("My manager prefers meetings before noon.", CTX, "")
