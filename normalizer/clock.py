"""Small pure helpers shared by the time families: clock times, day names, cron fields, sentences.

Minutes are minutes after midnight (0–1440); days of week are cron numbers (0 = Sunday).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from writegate.normalizer.gates import at_word_start, one_of

MINUTES_PER_DAY = 1440
MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY
ALL_DAYS: frozenset[int] = frozenset(range(7))
WEEKDAYS: frozenset[int] = frozenset({1, 2, 3, 4, 5})
WEEKEND: frozenset[int] = frozenset({0, 6})
DAY_NAMES: tuple[str, ...] = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

TIME_WORDS_RE = re.compile(  # searched in lower-cased text (re.I makes an alternation several times slower)
    one_of(
        [
            *"0123456789",
            *("noon", "midday", "midnight", "morning", "afternoon", "evening", "night", "lunch", "hours", "day"),
            *("weekend", "o'clock", "o’clock", 'o"clock'),
        ],
        grouped=False,
    )
    + "|"
    + at_word_start(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
    + "|"
    + at_word_start(["am", "a.m", "pm", "p.m"], r"\b")
)
r"""A word or digit without which a lower-cased text names no time: the time families' pre-filter.

It is `[0-9]|noon|midday|midnight|morning|afternoon|evening|night|lunch|hours|day|weekend
|\b(?:mon|tue|wed|thu|fri|sat|sun)|\b[ap]\.?m\b|o['’"]clock`, written so that every branch starts
with a literal character (`gates.one_of`, `gates.at_word_start`), which `re` searches several times
faster."""

_DAY_PREFIXES: tuple[tuple[str, int], ...] = (
    ("sun", 0),
    ("mon", 1),
    ("tue", 2),
    ("wed", 3),
    ("thu", 4),
    ("fri", 5),
    ("sat", 6),
)


def day_number(word: str) -> int | None:
    """Cron day-of-week of a day name or abbreviation ("Mondays", "Thu", "tues.") or None."""
    w = word.strip().lower()
    for prefix, number in _DAY_PREFIXES:
        if w.startswith(prefix):
            return number
    return None


def day_range(first: int, last: int) -> frozenset[int]:
    """The days from `first` to `last` inclusive, wrapping past Saturday ("Fri–Mon")."""
    return frozenset((first + i) % 7 for i in range((last - first) % 7 + 1))


def dow_field(days: frozenset[int]) -> str:
    """Canonical cron day-of-week field: `*`, `1-5`, `0,6`, `1,4`, `1-3,5`.

    Runs of three or more consecutive days collapse to `a-b`; shorter runs are listed.
    """
    if not days or days == ALL_DAYS:
        return "*"
    ordered = sorted(days)
    parts: list[str] = []
    run = [ordered[0]]
    for d in ordered[1:]:
        if d == run[-1] + 1:
            run.append(d)
            continue
        parts.extend(_run_parts(run))
        run = [d]
    parts.extend(_run_parts(run))
    return ",".join(parts)


def _run_parts(run: list[int]) -> list[str]:
    return [f"{run[0]}-{run[-1]}"] if len(run) >= 3 else [str(d) for d in run]


class Meridiem(str, Enum):
    """am / pm, when written."""

    AM = "am"
    PM = "pm"


class Role(str, Enum):
    """How a clock time is used: it decides how a bare hour ("at 5") is read."""

    POINT = "point"  # at T
    START = "start"  # after T / from T
    END = "end"  # before T / until T


@dataclass(frozen=True, slots=True)
class ClockTime:
    """A written clock time before am/pm is resolved.

    Attributes:
        hour: 0–24 as written.
        minute: 0–59.
        meridiem: am/pm when written (or implied by "in the morning").
        literal: the hour is unambiguous as written (24-hour form, leading zero, noon, midnight).
        strong: it is certainly a time (has am/pm, minutes, o'clock, or is noon/midnight), not
            just a number.
    """

    hour: int
    minute: int = 0
    meridiem: Meridiem | None = None
    literal: bool = False
    strong: bool = False

    def with_meridiem(self, meridiem: Meridiem | None) -> ClockTime:
        """The same time with `meridiem` set (if it applies to a 12-hour reading)."""
        if meridiem is None or self.literal or self.meridiem is not None or not 1 <= self.hour <= 12:
            return self
        return ClockTime(self.hour, self.minute, meridiem, self.literal, True)


NOON = ClockTime(12, 0, None, literal=True, strong=True)
MIDNIGHT = ClockTime(0, 0, None, literal=True, strong=True)


def clock_time(hour: str, minute: str | None, meridiem: str | None, oclock: bool = False) -> ClockTime | None:
    """Build a ClockTime from regex groups, or None when it is not a valid time.

    Args:
        hour: the hour digits ("9", "09", "14").
        minute: the minute digits or None.
        meridiem: "am"/"a.m."/"p"… or None.
        oclock: written with "o'clock".
    """
    h = int(hour)
    m = int(minute) if minute else 0
    mer: Meridiem | None = None
    if meridiem:
        mer = Meridiem.AM if meridiem.lower().startswith("a") else Meridiem.PM
        if not 1 <= h <= 12:
            return None
    if h > 24 or m > 59 or (h == 24 and m):
        return None
    literal = mer is None and (h == 0 or h > 12 or (len(hour) == 2 and hour.startswith("0")))
    strong = mer is not None or minute is not None or oclock
    return ClockTime(h, m, mer, literal, strong)


def _with_mer(t: ClockTime, mer: Meridiem) -> int:
    h = t.hour % 12 + (12 if mer is Meridiem.PM else 0)
    return h * 60 + t.minute


def resolve(t: ClockTime, role: Role = Role.POINT) -> int:
    """Minutes after midnight for a clock time, reading a bare 12-hour hour by its role.

    A bare hour is pm when it is 1–6 (or 1–8 after "after"), else am; 12 is noon.
    "midnight" as an END is 24:00.
    """
    if t.meridiem is not None:
        return _with_mer(t, t.meridiem)
    if t.literal:
        if t.hour == 0 and t.minute == 0 and role is Role.END:
            return MINUTES_PER_DAY
        return t.hour * 60 + t.minute
    if t.hour == 12:
        return 12 * 60 + t.minute
    pm_up_to = 8 if role is Role.START else 6
    return _with_mer(t, Meridiem.PM if 1 <= t.hour <= pm_up_to else Meridiem.AM)


def resolve_range(start: ClockTime, end: ClockTime) -> tuple[int, int] | None:
    """Start and end minutes of a written range ("9-10am", "between 2 and 4pm", "10pm-2am").

    The end is read first; a start without am/pm takes the end's when that keeps start < end
    ("2 and 4pm" → 14:00–16:00, "11-1pm" → 11:00–13:00). An end at or before the start moves
    forward by 12 hours at a time, so a range may cross midnight (end > 1440).

    Returns:
        (start, end) minutes with start < end ≤ start + 1440, or None for an empty range.
    """
    if start.literal and start.hour not in (0, 12) and end.meridiem is None and not end.literal:  # "22:00-2:00"
        end = ClockTime(end.hour, end.minute, None, literal=True, strong=end.strong)
    elif end.literal and end.hour not in (0, 12, 24) and start.meridiem is None and not start.literal:
        start = ClockTime(start.hour, start.minute, None, literal=True, strong=start.strong)
    e = resolve(end, Role.END)
    if start.meridiem is None and not start.literal and end.meridiem is not None and start.hour != 12:
        s = _with_mer(start, end.meridiem)
        if s >= e:
            s = _with_mer(start, Meridiem.AM if end.meridiem is Meridiem.PM else Meridiem.PM)
    elif start.meridiem is None and not start.literal and end.meridiem is None and not end.literal and start.hour != 12:
        s = _with_mer(start, Meridiem.AM) if 7 <= start.hour <= 11 else resolve(start, Role.START)
        if end.hour != 12 and start.hour < end.hour and s >= 12 * 60:
            e = _with_mer(end, Meridiem.PM)
    else:
        s = resolve(start, Role.START)
    if e == s:
        return None
    for _ in range(2):
        if e > s:
            break
        e += 12 * 60 if (end.meridiem is None and not end.literal and e < 12 * 60) else MINUTES_PER_DAY
    if e <= s:
        e += MINUTES_PER_DAY
    if e - s > MINUTES_PER_DAY or e == s:
        return None
    return s, e


_QUESTION_RE = re.compile(r"\s*Q\s*[:.]", re.I)
_ANSWER_RE = re.compile(r"\s*A\s*[:.]", re.I)
_SENT_END_RE = re.compile(r"[.!?;]+(?=\s|$)|\n+")
_ABBREV_DOT_RE = re.compile(r"(?:\b[eE]\.g|\b[iI]\.e|\bvs|\betc|\b[A-Z]|\bSt|\bDr|\bMr|\bMrs|\bMs|\bapprox)\.$")
_MERIDIEM_DOT_RE = re.compile(r"\b[aApP]\.[mM]\.$")
_NEXT_STARTS_SENTENCE_RE = re.compile(
    r"\s+(?![A-Z]{2,5}\b|(?:Eastern|Central|Mountain|Pacific|Atlantic|Alaska|Hawaii)\b)[A-Z\"'“(]"
)
"""After "a.m."/"p.m.", what opens a new sentence: not a zone ("9 a.m. EST", "10:30 a.m. Central")."""


def _ends_sentence(text: str, dot_start: int, dot_end: int) -> bool:
    window = text[max(0, dot_start - 8) : dot_start + 1]
    if _ABBREV_DOT_RE.search(window):
        return False
    if _MERIDIEM_DOT_RE.search(window):  # "9 a.m. EST" / "9 a.m. on Mondays" go on; "9 a.m. Then…" ends
        return _NEXT_STARTS_SENTENCE_RE.match(text, dot_end) is not None
    return True


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text` (split at . ! ? ; and newlines).

    "9 a.m. EST", "e.g. Mondays" and initials do not end a sentence. A question note and its answer
    ("Q: where is the user based? A: Denver") are one sentence: together they state one fact.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END_RE.finditer(text):
        if m.group().startswith(".") and not _ends_sentence(text, m.start(), m.end()):
            continue
        if text[start : m.start()].strip():
            spans.append((start, m.end()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return _join_answers(text, spans)


def _join_answers(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with each "Q: …?" sentence joined to the "A: …" sentence right after it."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        question = out[-1] if out else None
        if (
            question is not None
            and _ANSWER_RE.match(text, a)
            and _QUESTION_RE.match(text, question[0])
            and text[question[0] : question[1]].rstrip().endswith("?")
        ):
            out[-1] = (question[0], b)
        else:
            out.append((a, b))
    return out
