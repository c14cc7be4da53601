"""Golden cases for the time-window family (the vocabulary of docs/normalizer.md decides the values)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import word_soup
from hypothesis import given, settings
from hypothesis import strategies as st

from writegate.normalizer import clock, time_windows
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.schema import ProvenanceKind, Record, RecordKind, TimeWindowValue

CTX = Context("user:sam", datetime(2026, 3, 2, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)
M = "schedule.meetings"
NY, CHI, LA = "America/New_York", "America/Chicago", "America/Los_Angeles"

Window = tuple[str, str, int, str | None, str]  # slot, cron, duration, timezone, polarity


def windows(text: str) -> list[Window]:
    out = []
    for rec in time_windows.extract(text, CTX):
        assert isinstance(rec.value, TimeWindowValue)
        w = rec.value.time_window
        out.append((rec.slot, w.cron, w.duration_minutes, w.timezone, w.polarity.value))
    return out


GOLDEN: list[tuple[str, str, list[Window]]] = [
    # reference expectations from the hand-written dev set
    ("ref-weekday-mornings", "Sam likes meetings on weekday mornings.", [(M, "0 9 * * 1-5", 180, None, "prefer")]),
    ("ref-after-5pm", "Don't schedule anything for Sam after 5pm.", [(M, "0 17 * * *", 420, None, "avoid")]),
    (
        "ref-standup",
        "Standup every Monday and Thursday at 10:15.",
        [("schedule.standup", "15 10 * * 1,4", 60, None, "prefer")],
    ),
    ("ref-central", "Sam prefers 8:30-9:00 calls, Central time.", [(M, "30 8 * * *", 30, CHI, "prefer")]),
    # clock forms and ranges
    ("range-am-est", "Sam prefers meetings 9-10am on weekdays (EST).", [(M, "0 9 * * 1-5", 60, NY, "prefer")]),
    ("range-en-dash", "Calls 9–10am work best.", [(M, "0 9 * * *", 60, None, "prefer")]),
    ("range-between", "Sam can only meet between 2 and 4pm.", [(M, "0 14 * * *", 120, None, "require")]),
    ("range-24h", "14:00–15:30 on Tuesdays and Thursdays works best.", [(M, "0 14 * * 2,4", 90, None, "prefer")]),
    ("range-from-to-bare", "Calls from 9 to 11 on Mon–Thu.", [(M, "0 9 * * 1-4", 120, None, "prefer")]),
    ("range-9-to-5", "Sam works 9-5 weekdays.", [(M, "0 9 * * 1-5", 480, None, "prefer")]),
    ("range-am-pm", "Sam is available 9am-5pm ET.", [(M, "0 9 * * *", 480, NY, "prefer")]),
    ("range-short-meridiem", "Sam likes 9a-5p.", [(M, "0 9 * * *", 480, None, "prefer")]),
    ("range-11-to-1pm", "Lunch meetings 11-1pm are fine.", [(M, "0 11 * * *", 120, None, "prefer")]),
    ("range-in-the-afternoon", "Call Sam between 1 and 3 in the afternoon.", [(M, "0 13 * * *", 120, None, "prefer")]),
    ("range-cross-midnight", "Sam is busy Fridays from 10pm to 2am.", [(M, "0 22 * * 5", 240, None, "avoid")]),
    ("range-24h-cross-midnight", "Deploy window 22:00-2:00 is off limits.", [(M, "0 22 * * *", 240, None, "avoid")]),
    ("range-working-hours-bare", "Sam's working hours are 8 to 4.", [(M, "0 8 * * *", 480, None, "prefer")]),
    ("range-noon-to-2", "Sam is free from noon to 2 on Wednesdays.", [(M, "0 12 * * 3", 120, None, "prefer")]),
    ("range-till-midnight", "Sam prefers calls from 8pm until midnight.", [(M, "0 20 * * *", 240, None, "prefer")]),
    ("point-dotted", "Meetings at 9.30am please.", [(M, "30 9 * * *", 60, None, "prefer")]),
    ("point-a-m-dots", "Sam's call is every Tuesday at 3 p.m. EST.", [(M, "0 15 * * 2", 60, NY, "prefer")]),
    ("point-noon", "Sam likes calls at noon.", [(M, "0 12 * * *", 60, None, "prefer")]),
    ("point-bare-pm", "Every Tuesday at 3 Sam has a 1:1 with Bob.", [(M, "0 15 * * 2", 60, None, "prefer")]),
    ("point-oclock", "Sam's weekly sync is on Mondays at 4 o'clock.", [(M, "0 16 * * 1", 60, None, "prefer")]),
    ("point-duration", "A 30-minute standup at 9 every day.", [("schedule.standup", "0 9 * * *", 30, None, "prefer")]),
    (
        "point-duration-hour",
        "Gym for an hour at 6:30am on weekdays.",
        [("schedule.gym", "30 6 * * 1-5", 60, None, "prefer")],
    ),
    (
        "point-in-the-morning",
        "Standup at 9 in the morning every weekday.",
        [("schedule.standup", "0 9 * * 1-5", 60, None, "prefer")],
    ),
    # parts of day
    ("pod-early-morning", "Sam prefers early mornings.", [(M, "0 6 * * *", 180, None, "prefer")]),
    ("pod-late-afternoon", "Late afternoons are best for Sam.", [(M, "0 15 * * *", 120, None, "prefer")]),
    (
        "pod-early-in-the-morning",
        "1:1s with Sam work best early in the morning.",
        [(M, "0 6 * * *", 180, None, "prefer")],
    ),
    ("pod-late-in-the-afternoon", "Calls late in the afternoon suit Sam.", [(M, "0 15 * * *", 120, None, "prefer")]),
    ("pod-evenings-avoid", "Sam hates evening calls.", [(M, "0 17 * * *", 240, None, "avoid")]),
    ("pod-business-hours", "Only contact Sam during business hours.", [(M, "0 9 * * *", 480, None, "require")]),
    ("pod-lunch", "No meetings over lunch.", [(M, "0 12 * * *", 60, None, "avoid")]),
    ("pod-lunch-no-clock", "Lunch is off limits.", [(M, "0 12 * * *", 60, None, "avoid")]),
    ("pod-after-lunch", "Sam prefers meetings after lunch.", [(M, "0 13 * * *", 660, None, "prefer")]),
    ("pod-before-lunch", "Sam likes calls before lunch.", [(M, "0 0 * * *", 720, None, "prefer")]),
    (
        "pod-outside-hours",
        "No calls outside business hours.",
        [(M, "0 0 * * *", 540, None, "avoid"), (M, "0 17 * * *", 420, None, "avoid")],
    ),
    ("pod-narrowed", "Sam likes mornings after 10.", [(M, "0 10 * * *", 120, None, "prefer")]),
    (
        "pod-describes-clock",
        "Morning standup at 9:30 every weekday.",
        [("schedule.standup", "30 9 * * 1-5", 60, None, "prefer")],
    ),
    (
        "pod-weekend-afternoons",
        "Sam is happy to take calls on weekend afternoons.",
        [(M, "0 12 * * 0,6", 300, None, "prefer")],
    ),
    # before / after / not before
    ("before-bare", "No meetings before 10.", [(M, "0 0 * * *", 600, None, "avoid")]),
    ("not-before", "Sam is not available before 9am.", [(M, "0 0 * * *", 540, None, "avoid")]),
    ("till", "No meetings till 11am.", [(M, "0 0 * * *", 660, None, "avoid")]),
    ("no-earlier-than", "Nothing earlier than 8:30am, please.", [(M, "0 0 * * *", 510, None, "avoid")]),
    ("no-later-than", "Sam wants no calls later than 6pm on Fridays.", [(M, "0 18 * * 5", 360, None, "avoid")]),
    ("after-prefer", "Sam prefers calls after 2pm.", [(M, "0 14 * * *", 600, None, "prefer")]),
    ("after-require", "Sam can only meet after 3pm on Wednesdays.", [(M, "0 15 * * 3", 540, None, "require")]),
    # days
    ("days-only-avoid", "No meetings on Fridays.", [(M, "0 0 * * 5", 1440, None, "avoid")]),
    ("days-weekend-off", "Sam is off on weekends.", [(M, "0 0 * * 0,6", 1440, None, "avoid")]),
    ("days-except", "Sam prefers weekdays except Fridays for meetings.", [(M, "0 0 * * 1-4", 1440, None, "prefer")]),
    ("days-list-three", "Sam likes calls on Mon, Wed and Fri at 11am.", [(M, "0 11 * * 1,3,5", 60, None, "prefer")]),
    (
        "days-range-words",
        "Sam takes calls Monday through Wednesday from 1 to 3pm.",
        [(M, "0 13 * * 1-3", 120, None, "prefer")],
    ),
    (
        "days-paired",
        "Mondays 9-11 and Thursdays 2-4pm are good for calls.",
        [(M, "0 9 * * 1", 120, None, "prefer"), (M, "0 14 * * 4", 120, None, "prefer")],
    ),
    (
        "days-tue-thu",
        "Sam prefers Tuesdays and Thursdays in the afternoon.",
        [(M, "0 12 * * 2,4", 300, None, "prefer")],
    ),
    ("days-every-day", "Standup every day at 9:45.", [("schedule.standup", "45 9 * * *", 60, None, "prefer")]),
    ("days-span", "Sam is unavailable from Friday 6pm to Monday 8am.", [(M, "0 18 * * 5", 3720, None, "avoid")]),
    ("days-wrap-range", "Sam is on call Fri-Mon after 8pm.", [(M, "0 20 * * 0,1,5,6", 240, None, "prefer")]),
    ("days-one-off-this", "Sam has on-call duty this weekend.", []),
    ("days-one-off-through", "Sam is on call through Friday.", []),
    ("days-one-off-next", "No meetings next Monday.", []),
    (
        "days-range-through-is-recurring",
        "Sam is free Monday through Friday 9-5.",
        [(M, "0 9 * * 1-5", 480, None, "prefer")],
    ),
    # polarity per clause and several windows
    (
        "only-dont-book-outside",
        "Don't book Sam outside the evening on weekdays.",
        [(M, "0 17 * * 1-5", 240, None, "require")],
    ),
    ("only-no-except", "No calls for Sam except from 1 pm to 3pm.", [(M, "0 13 * * *", 120, None, "require")]),
    (
        "only-anywhere-but",
        "Avoid scheduling Sam anywhere but between 8 and 9am.",
        [(M, "0 8 * * *", 60, None, "require")],
    ),
    (
        "only-never-takes-outside",
        "Sam never takes 1:1s outside in the morning on Wednesdays.",
        [(M, "0 9 * * 3", 180, None, "require")],
    ),
    ("only-never-outside-range", "Sam never takes 1:1s outside 9-11am.", [(M, "0 9 * * *", 120, None, "require")]),
    (
        "only-wont-outside-pod",
        "Sam won't do meetings outside the afternoon.",
        [(M, "0 12 * * *", 300, None, "require")],
    ),
    ("only-no-outside", "No meetings outside 10-12 for Sam.", [(M, "0 10 * * *", 120, None, "require")]),
    ("only-doesnt-except", "Sam doesn't take calls except in the morning.", [(M, "0 9 * * *", 180, None, "require")]),
    # "outside business hours" is already the complement: the negation avoids it
    (
        "dont-book-outside-hours",
        "Don't book Sam outside business hours.",
        [(M, "0 0 * * *", 540, None, "avoid"), (M, "0 17 * * *", 420, None, "avoid")],
    ),
    (
        "nothing-outside-hours",
        "Nothing outside business hours for Sam.",
        [(M, "0 0 * * *", 540, None, "avoid"), (M, "0 17 * * *", 420, None, "avoid")],
    ),
    (
        "never-outside-a-place",
        "Sam never meets outside the office in the morning.",
        [(M, "0 9 * * *", 180, None, "avoid")],
    ),
    ("no-change-is-no-cue", "Sam wants 1:1s in the evening — no change.", [(M, "0 17 * * *", 240, None, "prefer")]),
    (
        "clauses-avoid-prefer",
        "Mornings are off limits, afternoons are fine.",
        [(M, "0 9 * * *", 180, None, "avoid"), (M, "0 12 * * *", 300, None, "prefer")],
    ),
    (
        "clauses-and",
        "Sam likes mornings and avoids evenings.",
        [(M, "0 9 * * *", 180, None, "prefer"), (M, "0 17 * * *", 240, None, "avoid")],
    ),
    (
        "clauses-but-never",
        "Sam prefers mornings, but never before 10am.",
        [(M, "0 9 * * *", 180, None, "prefer"), (M, "0 0 * * *", 600, None, "avoid")],
    ),
    ("keep-clear", "Keep Friday afternoons clear.", [(M, "0 12 * * 5", 300, None, "avoid")]),
    ("dont-mind", "Sam doesn't mind early meetings at 8am.", [(M, "0 8 * * *", 60, None, "prefer")]),
    (
        "must-focus",
        "Sam must have focus time every morning.",
        [("schedule.focus-time", "0 9 * * *", 180, None, "require")],
    ),
    ("needs-to-be", "The weekly review needs to be on Thursdays at 4pm.", [(M, "0 16 * * 4", 60, None, "require")]),
    (
        "or-inherits",
        "Don't book Sam before 9am or after 6pm.",
        [(M, "0 0 * * *", 540, None, "avoid"), (M, "0 18 * * *", 360, None, "avoid")],
    ),
    # events and slots
    (
        "event-gym-standup",
        "Gym at 7am and standup at 10.",
        [("schedule.gym", "0 7 * * *", 60, None, "prefer"), ("schedule.standup", "0 10 * * *", 60, None, "prefer")],
    ),
    ("event-lunch", "Lunch is at 12:30.", [("schedule.lunch", "30 12 * * *", 60, None, "prefer")]),
    (
        "event-school-run",
        "School run at 3:15pm on weekdays.",
        [("schedule.school-run", "15 15 * * 1-5", 60, None, "prefer")],
    ),
    (
        "event-gym-mornings",
        "Sam goes to the gym on weekday mornings.",
        [("schedule.gym", "0 9 * * 1-5", 180, None, "prefer")],
    ),
    ("ideally", "Ideally calls at 11am.", [(M, "0 11 * * *", 60, None, "prefer")]),
    ("requires-afternoon", "Sam requires meetings to be in the afternoon.", [(M, "0 12 * * *", 300, None, "require")]),
    ("avoid-day-before-noon", "Avoid Mondays before noon.", [(M, "0 0 * * 1", 720, None, "avoid")]),
    ("never-weekends", "Sam never takes calls on weekends.", [(M, "0 0 * * 0,6", 1440, None, "avoid")]),
    (
        "cet-availability",
        "Sam's availability: weekdays 9:00-17:00 CET.",
        [(M, "0 9 * * 1-5", 480, "Europe/Berlin", "prefer")],
    ),
    (
        "or-paired-days",
        "Don't book anything on Monday mornings or Friday afternoons.",
        [(M, "0 9 * * 1", 180, None, "avoid"), (M, "0 12 * * 5", 300, None, "avoid")],
    ),
    (
        "pacific-after",
        "Sam is free every weekday after 4:30pm, Pacific time.",
        [(M, "30 16 * * 1-5", 450, LA, "prefer")],
    ),
    (
        "before-or-after-weekdays",
        "No meetings before 9 or after 5 on weekdays.",
        [(M, "0 0 * * 1-5", 540, None, "avoid"), (M, "0 17 * * 1-5", 420, None, "avoid")],
    ),
    (
        "cue-about-other-slot",
        "Focus time 9-11am daily, no meetings.",
        [("schedule.focus-time", "0 9 * * *", 120, None, "prefer")],
    ),
    ("event-yoga", "Yoga each Wednesday at 2:30pm.", [("schedule.yoga", "30 14 * * 3", 60, None, "prefer")]),
    (
        "two-sentences",
        "Sam likes mornings. Standup is at 10am PT.",
        [(M, "0 9 * * *", 180, None, "prefer"), ("schedule.standup", "0 10 * * *", 60, LA, "prefer")],
    ),
    # a question and its answer are read as one sentence
    (
        "qa-afternoon",
        "Q: when does the user like to meet? A: in the afternoon",
        [(M, "0 12 * * *", 300, None, "prefer")],
    ),
    ("qa-early-morning", "Q: when do I like to meet? A: early in the morning", [(M, "0 6 * * *", 180, None, "prefer")]),
    ("qa-busy", "Q: when is the user busy? A: Friday afternoons.", [(M, "0 12 * * 5", 300, None, "avoid")]),
    ("qa-event-slot", "Q: when is standup? A: 10am daily.", [("schedule.standup", "0 10 * * *", 60, None, "prefer")]),
]

NEGATIVES: list[tuple[str, str]] = [
    ("cats", "I have 2 cats"),
    ("version", "We upgraded to version 3.10 yesterday"),
    ("room", "The meeting is in room 101."),
    ("train", "The train leaves at 9:15am."),
    ("arrived-bare", "I arrived at 3."),
    ("deadline-by", "Sam needs to be done by 5pm."),
    ("greeting", "Good morning Sam!"),
    ("date", "In 2026-03-02 at 14:00 Sam met Bob."),
    ("ratio", "Ratio 16:10 is great."),
    ("years", "Sam stayed after 2 years of service."),
    ("price", "The plan costs $9.99 and 20% more after 5 seats."),
    ("after-midnight", "Nothing after midnight please."),
    ("saturday-verb", "Sat down with Bob yesterday."),
    ("score", "We won 3-1 on the weekend match report."),
    ("people", "Between 2 and 4 people joined."),
    ("covid", "COVID-19 guidance changed."),
    ("one-on-one", "Sam likes 1:1s."),
    ("qa-not-scheduling", "Q: when was the user born? A: in the morning"),
    ("answer-without-question", "A: in the afternoon"),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in GOLDEN], ids=[i for i, _, _ in GOLDEN])
def test_golden(text: str, expected: list[Window]) -> None:
    assert windows(text) == expected


@pytest.mark.parametrize("text", [t for _, t in NEGATIVES], ids=[i for i, _ in NEGATIVES])
def test_no_false_windows(text: str) -> None:
    assert windows(text) == []


def test_record_fields() -> None:
    (rec,) = time_windows.extract("Sam prefers 8:30-9:00 calls, Central time.", CTX)
    assert rec.subject == "user:sam"
    assert rec.text == "Sam prefers 8:30-9:00 calls, Central time."
    assert rec.provenance.kind is ProvenanceKind.STATED
    assert rec.half_life_days == DEFAULT_CONFIG.half_life(RecordKind.TIME_WINDOW, ProvenanceKind.STATED)


def test_hedge_lowers_confidence() -> None:
    (plain,) = time_windows.extract("Sam prefers mornings.", CTX)
    (hedged,) = time_windows.extract("Sam probably prefers mornings.", CTX)
    assert hedged.confidence < plain.confidence


def test_qa_record_text() -> None:
    (rec,) = time_windows.extract("Sam likes 1:1s. Q: when does the user like to meet? A: in the afternoon", CTX)
    assert rec.text == "Q: when does the user like to meet? A: in the afternoon"


def test_inferred_place_zone_not_attached() -> None:
    (rec,) = time_windows.extract("Sam moved to London and likes mornings.", CTX)
    assert isinstance(rec.value, TimeWindowValue) and rec.value.time_window.timezone is None


@pytest.mark.parametrize(
    ("days", "field"),
    [
        ({1, 2, 3, 4, 5}, "1-5"),
        ({0, 6}, "0,6"),
        ({1, 4}, "1,4"),
        (set(range(7)), "*"),
        ({1, 2, 3, 5}, "1-3,5"),
        ({0, 1, 5, 6}, "0,1,5,6"),
    ],
    ids=["weekdays", "weekend", "mon-thu-list", "all", "run-and-single", "wrap"],
)
def test_dow_field(days: set[int], field: str) -> None:
    assert clock.dow_field(frozenset(days)) == field


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Standup at 9 a.m. EST on Mondays. Sam likes mornings.",
            ["Standup at 9 a.m. EST on Mondays.", " Sam likes mornings."],
        ),
        ("e.g. Mondays work; Fridays don't", ["e.g. Mondays work;", " Fridays don't"]),
        ("Call at 3 p.m. Then lunch.", ["Call at 3 p.m.", " Then lunch."]),
        (
            "Sam likes 1:1s. Q: when do we meet? A: at 3pm. Thanks.",
            ["Sam likes 1:1s.", " Q: when do we meet? A: at 3pm.", " Thanks."],
        ),
        ("Why not? A lot of calls.", ["Why not?", " A lot of calls."]),
    ],
    ids=[
        "meridiem-then-zone",
        "abbreviation-and-semicolon",
        "meridiem-ends-sentence",
        "question-and-answer-are-one",
        "question-without-q-note",
    ],
)
def test_sentence_spans(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in clock.sentence_spans(text)] == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_never_raises_and_validates(text: str) -> None:
    for rec in time_windows.extract(text, CTX):
        assert Record.model_validate(rec.model_dump()) == rec


SCHEDULE_WORDS = (
    "9 | 10am | - | to | between | and | after | before | noon | midnight | Mondays | Fri | weekends | mornings | "
    "lunch | no | only | prefers | meetings | standup | at | 12:30 | 22:00 | EST | , | . | except"
)


@settings(max_examples=200, deadline=None)
@given(word_soup(SCHEDULE_WORDS, max_size=14))
def test_schedule_word_soup_never_raises(text: str) -> None:
    for rec in time_windows.extract(text, CTX):
        assert isinstance(rec.value, TimeWindowValue) and 1 <= rec.value.time_window.duration_minutes <= 10080


@pytest.mark.parametrize(
    "text",
    [
        "- afternoons afternoons gym mornings after 11 Sam",
        "weekdays , 3.10 Sam 9 evenings Fri 4 after Monday after 8am from except afternoons",
    ],
    ids=["two-parts-one-open-end", "soup-with-except"],
)
def test_regressions_never_raise(text: str) -> None:
    for rec in time_windows.extract(text, CTX):
        assert isinstance(rec.value, TimeWindowValue)


# preferences as people state them: the zone of the sentence or clause, "my time", instructions' polarity
PHX, VAN = "America/Phoenix", "America/Vancouver"
STATED: list[tuple[str, str, list[Window]]] = [
    ("zone-after-clock", "Weekly review every Thursday at 3pm Central.", [(M, "0 15 * * 4", 60, CHI, "prefer")]),
    ("zone-negated-window", "Never schedule anything before 8am Eastern.", [(M, "0 0 * * *", 480, NY, "avoid")]),
    (
        "zone-per-clause",
        "Calls with London 9-10am GMT, with Denver 4-5pm MT.",
        [(M, "0 9 * * *", 60, "Europe/London", "prefer"), (M, "0 16 * * *", 60, "America/Denver", "prefer")],
    ),
    ("my-time-place", "Reach me after 7pm my time; I live in Phoenix.", [(M, "0 19 * * *", 300, PHX, "prefer")]),
    ("my-time-stated", "I'm on CET. No calls after 6pm my time.", [(M, "0 18 * * *", 360, "Europe/Berlin", "avoid")]),
    ("my-time-unknown", "Call windows: 9-11am my time.", [(M, "0 9 * * *", 120, None, "prefer")]),
    (
        "my-time-move-dated",
        "User moved to Vancouver last month and prefers calls after 10am their time.",
        [(M, "0 10 * * *", 840, VAN, "prefer")],
    ),
    ("only-between-booking", "Book my calls only between 9 and 11am.", [(M, "0 9 * * *", 120, None, "require")]),
    ("always-book-plural", "Always book my haircut for Saturday mornings.", [(M, "0 9 * * 6", 180, None, "prefer")]),
    ("never-one-day", "Never schedule calls on Sunday.", [(M, "0 0 * * 0", 1440, None, "avoid")]),
    ("listed-days", "No calls on Saturday or Sunday.", [(M, "0 0 * * 0,6", 1440, None, "avoid")]),
    ("meeting-free", "Meeting-free Wednesdays, please.", [(M, "0 0 * * 3", 1440, None, "avoid")]),
    ("limit-to", "Limit meetings to 10am–3pm.", [(M, "0 10 * * *", 300, None, "require")]),
    ("decline", "Decline meetings before 9 on Mondays.", [(M, "0 0 * * 1", 540, None, "avoid")]),
    (
        "correction-keeps-restated-polarity",
        "Team lunch every other... no, every Wednesday at noon.",
        [("schedule.lunch", "0 12 * * 3", 60, None, "prefer")],
    ),
    (
        "change-from-to",
        "The daily standup moved from 9:30 to 10am.",
        [("schedule.standup", "0 10 * * *", 60, None, "prefer")],
    ),
    (
        "pod-then-clock",
        "Prefers late-afternoon calls, around 4pm Paris time.",
        [(M, "0 16 * * *", 60, "Europe/Paris", "prefer")],
    ),
    (
        "reported-by-assistant",
        "Her assistant says she refuses afternoon calls.",
        [(M, "0 12 * * *", 300, None, "avoid")],
    ),
    ("someone-elses-manager", "My manager prefers meetings before noon.", []),
    ("someone-elses-user-possessive", "User's daughter has swim practice every Tuesday at 5pm.", []),
    ("one-off-delivery", "Please email me the slides after the 3pm meeting.", []),
    ("future-action", "I'll call you at 5.", []),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in STATED], ids=[i for i, _, _ in STATED])
def test_stated_preferences(text: str, expected: list[Window]) -> None:
    assert windows(text) == expected
