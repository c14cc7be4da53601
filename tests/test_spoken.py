"""Spoken clock phrases (as people type them in booking dialogues) → written times."""

from __future__ import annotations

import pytest

from writegate.normalizer.spoken import written_times

CASES = [
    ("half-past", "half past 1 in the afternoon", "1:30 in the afternoon"),
    ("quarter-past", "Quarter past 10 in the morning", "10:15 in the morning"),
    ("quarter-to", "quarter to 5 in the evening", "4:45 in the evening"),
    ("quarter-to-one", "quarter to 1 in the afternoon", "12:45 in the afternoon"),
    ("quarter-to-24h", "quarter to 13 in the afternoon", "12:45 in the afternoon"),
    ("minutes-past", "twenty past 9 every day", "9:20 every day"),
    ("minutes-to-word", "twenty to 4 on Fridays", "3:40 on Fridays"),
    ("minutes-to-digits", "10 minutes to 4 pm", "3:50 pm"),
    ("word-hour", "Three pm", "3 pm"),
    ("word-hour-morning", "eleven in the morning", "11 in the morning"),
    ("word-hour-and-minutes", "seven thirty in the evening", "7:30 in the evening"),
    ("word-hyphen-minutes", "six forty-five pm", "6:45 pm"),
    ("word-after-past", "half past one in the afternoon", "1:30 in the afternoon"),
    ("night-pm", "8 in the night", "8 pm"),
    ("night-oclock", "half past 10 in the night", "10:30 pm"),
    ("night-quoted-oclock", '8 o"clock in the night', "8 pm"),
    ("night-small-hours", "2 at night", "2 am"),
    ("pod-first-morning", "morning 10:30", "10:30 am"),
    ("pod-first-afternoon", "Afternoon 2.", "2 pm."),
    ("pod-first-evening-comma", "evening, 4:30", "4:30 pm"),
    ("pod-first-night", "night 8:15", "8:15 pm"),
    ("quoted-oclock", '3 o"clock in the afternoon', "3 o'clock in the afternoon"),
    # left alone
    ("range-is-not-to", "from 1 to 3pm", "from 1 to 3pm"),
    ("word-range-is-not-to", "from ten to 5", "from ten to 5"),
    ("number-words-alone", "one meeting and two calls", "one meeting and two calls"),
    ("pod-duration", "morning 10 minutes of yoga", "morning 10 minutes of yoga"),
    ("pod-count", "evening 3 people came", "evening 3 people came"),
    ("no-cue", "I have 2 cats", "I have 2 cats"),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_written_times(text: str, expected: str) -> None:
    assert written_times(text) == expected
