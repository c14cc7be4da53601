"""Spoken clock phrases → written clock times, before the time-window rules read a sentence.

People say times the way they would on the phone; the rules read written forms. `written_times`
rewrites, case-insensitively:

* number words next to a clock cue: "three pm" → "3 pm", "eleven in the morning", "seven thirty
  in the evening" → "7:30 in the evening", "six forty-five pm" → "6:45 pm";
* "half past 1" → "1:30", "quarter past 2" → "2:15", "quarter to 5" → "4:45", "ten past 9" →
  "9:10", "twenty to 4" → "3:40" (a 24-hour hour stays 24-hour: "quarter to 13" → "12:45");
* "in the night" / "at night" after a time: 6–11 → pm, 12 → midnight, 1–5 → am ("8 in the night" →
  "8 pm", "half past 10 in the night" → "10:30 pm");
* a part of day written before the time ("morning 10:30", "afternoon 2", "evening, 4:30", "night
  8:15") → the time with its am/pm ("10:30 am", "2 pm", "4:30 pm", "8:15 pm");
* `o"clock` (a typed double quote) → "o'clock".

Nothing else changes, and a text with none of these cues is returned as is (one regex search).
"""

from __future__ import annotations

import re

from writegate.normalizer.gates import may_match, one_of

_HOURS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_MINUTES = {
    "oh five": 5,
    "o five": 5,
    "five": 5,
    "ten": 10,
    "fifteen": 15,
    "twenty": 20,
    "twenty-five": 25,
    "twenty five": 25,
    "thirty": 30,
    "thirty-five": 35,
    "thirty five": 35,
    "forty": 40,
    "forty-five": 45,
    "forty five": 45,
    "fifty": 50,
    "fifty-five": 55,
    "fifty five": 55,
}
_HOUR_WORD = r"(?:" + "|".join(sorted(_HOURS, key=len, reverse=True)) + r")"
_MINUTE_WORD = r"(?:" + "|".join(sorted(_MINUTES, key=len, reverse=True)).replace(" ", r"[\s-]") + r")"
_MERIDIEM_AHEAD = (
    r"(?=\s*(?:[ap]\.?m\.?(?!\w)|o['’]clock\b|in\s+the\s+(?:morning|afternoon|evening|night)\b|at\s+night\b|sharp\b))"
)

_TRIGGER_RE = re.compile(
    r"past|quarter|half|o\"clock|night|morning|afternoon|evening|[ap]\.?m\b|o['’]clock|(?:twenty|minutes?)[\s-](?:five\s+)?to\b",
    re.I,
)
_TRIGGER_LOWER_RE = re.compile(
    one_of(["past", "quarter", "half", 'o"clock', "night", "morning", "afternoon", "evening", "o'clock"], grouped=False)
    + r"|a\.?m\b|p\.?m\b|twenty[\s-](?:five\s+)?to\b|minutes?[\s-](?:five\s+)?to\b"
)
"""`_TRIGGER_RE` for lower-cased ASCII text (where `re.I` matches what lower-casing gives: `gates`),
every branch starting with a literal, which `re` searches several times faster."""
# gates (`gates.may_match`): what every match of each rewrite below contains, in lower-cased text
_HOUR_AFTER_GATE_RE = re.compile(r"(?:past|to)\s+" + _HOUR_WORD)
_WORD_TIME_GATE_RE = re.compile(
    _HOUR_WORD + r".*?(?:[ap]\.?m|o['’]clock|in\s+the\s+(?:morning|afternoon|evening|night)|at\s+night|sharp)", re.S
)
"""An hour word, then what `_MERIDIEM_AHEAD` needs."""
_PAST_TO_GATE_RE = re.compile(r"(?:past|to)\s+[0-9]")
_NIGHT_GATE_RE = re.compile(r"night")
_POD_GATE_RE = re.compile(r"morning|afternoon|evening|night")
_QUOTE_OCLOCK_RE = re.compile(r"\bo\"clock\b", re.I)
_WORD_TIME_RE = re.compile(
    r"\b(?P<h>" + _HOUR_WORD + r")(?:[\s-]+(?P<m>" + _MINUTE_WORD + r"))?\b" + _MERIDIEM_AHEAD, re.I
)
_WORD_HOUR_AFTER_PAST_RE = re.compile(
    r"\b(?P<lead>(?:half|quarter|[0-9]{1,2}|"
    + _MINUTE_WORD
    + r")(?:\s+minutes?)?\s+(?:past|to)\s+)(?P<h>"
    + _HOUR_WORD
    + r")\b",
    re.I,
)
_PAST_TO_RE = re.compile(
    r"\b(?:a\s+)?(?:(?P<n>half|quarter|" + _MINUTE_WORD + r")|(?P<nm>[0-9]{1,2}|" + _MINUTE_WORD + r")\s+minutes?)"
    r"\s+(?P<dir>past|to)\s+(?P<h>[0-9]{1,2})(?![0-9:.])"
    r"(?=\s*(?:[ap]\.?m\.?(?!\w)|o['’]clock\b|in\s+the\s+\w+|at\s+night\b|tonight\b|[,.;!?]|$"
    r"|\s+(?:on|every|each|daily|sharp|and|or|for|with|is|are|works?)\b))",
    re.I,
)
"""'half past 1', 'quarter to 5', 'twenty past 9', '10 minutes to 4'; a bare number before 'to' is a range."""
_NIGHT_RE = re.compile(
    r"\b(?P<h>[0-9]{1,2})(?::(?P<m>[0-5][0-9]))?(?:\s*o['’]clock)?\s+(?:in\s+the\s+night|at\s+night)\b", re.I
)
_POD_FIRST_RE = re.compile(
    r"\b(?P<pod>morning|afternoon|evening|night)\s*,?\s+(?:at\s+)?(?P<h>[0-9]{1,2})(?::(?P<m>[0-5][0-9]))?"
    r"(?![0-9:]|\.[0-9]|\s*(?:[ap]\.?m\b|o['’]clock|-|–|to\b|minutes?|mins?|hours?|hrs?|days?|weeks?|people|times|%))",
    re.I,
)


def _minutes_word(word: str) -> int:
    return _MINUTES[" ".join(word.lower().replace("-", " ").split())]


def _word_time(m: re.Match[str]) -> str:
    hour = _HOURS[m.group("h").lower()]
    return f"{hour}:{_minutes_word(m.group('m')):02d}" if m.group("m") else str(hour)


def _past_to(m: re.Match[str]) -> str:
    n = (m.group("n") or m.group("nm")).lower()
    hour = int(m.group("h"))
    if (
        m.group("n")
        and n not in ("half", "quarter")
        and m.group("dir").lower() == "to"
        and n not in ("twenty", "twenty-five", "twenty five")
    ):
        return m.group()  # "from ten to 5" is a range
    if n == "half":
        minutes = 30
    elif n == "quarter":
        minutes = 15
    elif n.isdigit():
        minutes = int(n)
    else:
        minutes = _minutes_word(n)
    if not 0 < minutes < 60 or hour > 24 or (n == "half" and m.group("dir").lower() == "to"):
        return m.group()
    if m.group("dir").lower() == "past":
        return f"{hour}:{minutes:02d}"
    hour = hour - 1 if hour > 1 else (12 if hour == 1 else 23)
    return f"{hour}:{60 - minutes:02d}"


def _night(m: re.Match[str]) -> str:
    hour = int(m.group("h"))
    minute = m.group("m")
    if not 1 <= hour <= 12:
        return m.group()
    clock = f"{hour}:{minute}" if minute else str(hour)
    return f"{clock} am" if hour <= 5 or hour == 12 else f"{clock} pm"


def _pod_first(m: re.Match[str]) -> str:
    hour = int(m.group("h"))
    if not 1 <= hour <= 12:
        return m.group()
    pod = m.group("pod").lower()
    clock = f"{hour}:{m.group('m')}" if m.group("m") else str(hour)
    if pod == "morning":
        meridiem = "am"
    elif pod == "night":
        meridiem = "am" if hour <= 5 or hour == 12 else "pm"
    else:
        meridiem = "pm"
    return f"{clock} {meridiem}"


def written_times(text: str) -> str:
    """`text` with spoken clock phrases rewritten as written times (see the module docstring).

    Args:
        text: one sentence (or any text).

    Returns:
        The rewritten text; `text` itself when it holds no spoken clock phrase.
    """
    if text.isascii():
        if _TRIGGER_LOWER_RE.search(text.lower()) is None:
            return text
    elif _TRIGGER_RE.search(text) is None:
        return text
    out = _QUOTE_OCLOCK_RE.sub("o'clock", text) if '"' in text else text
    if may_match(out, _HOUR_AFTER_GATE_RE):
        out = _WORD_HOUR_AFTER_PAST_RE.sub(lambda m: m.group("lead") + str(_HOURS[m.group("h").lower()]), out)
    if may_match(out, _WORD_TIME_GATE_RE):
        out = _WORD_TIME_RE.sub(_word_time, out)
    if may_match(out, _PAST_TO_GATE_RE):
        out = _PAST_TO_RE.sub(_past_to, out)
    if may_match(out, _NIGHT_GATE_RE):
        out = _NIGHT_RE.sub(_night, out)
    return _POD_FIRST_RE.sub(_pod_first, out) if may_match(out, _POD_GATE_RE) else out
