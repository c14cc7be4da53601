"""Self-repairs and changes in a sentence: the value a speaker settles on, before the time rules read it.

People correct themselves mid-sentence and state changes as "from … to …"; the time rules should
read only the value that stands. `restated` rewrites, case-insensitively:

* a **self-repair**: a break (`,`, `…`/`...`, a dash), a repair marker ("no", "sorry", "wait", "I
  mean", "actually", "make that", "correction", "or rather", "scratch that"), then a restated value
  that starts with a clock time, a preposition before one, "every"/"each", a day or a part of day.
  The restated value replaces the last element of the same kind before the marker: "Standup is at
  9, sorry, 9:30 every weekday" → "Standup is at 9:30 every weekday"; "Team lunch every other… no,
  every Wednesday at noon" → "Team lunch every Wednesday at noon"; "Calls after 5… sorry, after 6pm
  are fine" → "Calls after 6pm are fine". The marker "no" counts only with punctuation after it
  ("…, no, every Wednesday", not "…, no meetings on Fridays"), so a repair's "no" is never read as a
  polarity; a marker that opens the sentence is a reply to someone else ("No, make it 4pm"), not a
  self-repair, and stays;
* a **change**: "moved/changed/pushed/shifted/switched/rescheduled from X to Y" → "… to Y" (X a
  time or a day), so "standup moved from 9:30 to 10am" is a point at 10:00, not a 9:30–10:00 range.

Anything else is returned as is (one regex search when no marker word is present).
"""

from __future__ import annotations

import re

from writegate.normalizer.gates import one_of

_T = r"(?:[0-9]{1,2}(?:[:.][0-5][0-9])?(?:\s*[ap]\.?m\.?(?!\w))?|noon|midnight)"
_TIME_EXPR = r"(?:(?:between|from)\s+)?" + _T + r"(?:\s*(?:-|–|to|until|till|and)\s*" + _T + r")?"
_DAY = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
    r"|week\s?days?|week\s?ends?)\b"
)
_POD = r"(?:early\s+|late\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b"
_PREP = r"(?:before|after|at|from|between|until|till|around|by|past)"
_MARKER_RE = re.compile(
    r"(?:\s*(?:\.{2,}|…|,|—|–|\s-)\s*)"
    r"(?:(?:no|nope|nah)(?:\s+wait)?(?:\s*(?:[,:—–-]|\.{2,}|…))+|(?:sorry|oops|wait|i\s+mean|or\s+rather|make\s+that"
    r"|correction|scratch\s+that|actually)\b(?:\s*(?:[,:—–-]|\.{2,}|…))*)\s*"
    r"(?=(?P<next>" + _PREP + r"\s|every\b|each\b|" + _TIME_EXPR + r"|" + _DAY + r"|" + _POD + r"))",
    re.I,
)
_GATE_RE = re.compile(
    r"(?:\.{2}|[,…—–-])\s*(?:no\b|nope|nah|sorry|oops|wait|i\s+mean|or\s+rather|make\s+that|correction|scratch|actually)"
)
"""What every repair marker starts with, in lower-cased text: a break, then the marker word."""
_CHANGE_RE = re.compile(
    r"\b(?P<verb>(?:moved|changed|pushed|shifted|switched|rescheduled|bumped|brought\s+forward)(?:\s+(?:back|up|forward))?)"
    r"\s+from\s+(?:" + _TIME_EXPR + r"|(?:on\s+)?" + _DAY + r")\s+(?=to\s)",
    re.I,
)
_CHANGE_GATE_RE = re.compile(
    one_of(["moved", "changed", "pushed", "shifted", "switched", "rescheduled", "bumped", "forward"], grouped=False)
    + r"(?=.*\sfrom\s)",
    re.S,
)
"""A change verb with "from" after it, in lower-cased text."""
_TIME_EXPR_RE = re.compile(r"(?<![\w:.])" + _TIME_EXPR + r"(?![\w:])", re.I)
_EVERY_RE = re.compile(r"\b(?:every|each)\b", re.I)
_DAY_RUN_RE = re.compile(r"\b" + _DAY + r"(?:\s*(?:,|and|or|&|/)\s*" + _DAY + r")*", re.I)
_POD_RE = re.compile(r"\b" + _POD, re.I)
_SENTENCE_BREAK_RE = re.compile(r"[.!?]+\s+(?=[A-Z])|\n")
"""Where a sentence ends: "every other... no, every Wednesday" is one sentence, "a.m., sorry" too."""


def _cut(before: str, restated: str) -> int | None:
    """Where the element that `restated` replaces starts in `before`, or None when there is none."""
    low = restated.lower()
    prep = re.match(_PREP + r"\b", low)
    if prep is not None:
        found = [m.start() for m in re.finditer(r"\b" + prep.group() + r"\b", before, re.I)]
        if found:
            return found[-1]
    if prep is not None or re.match(_TIME_EXPR, low):
        times = list(_TIME_EXPR_RE.finditer(before))
        return times[-1].start() if times else None
    if re.match(r"(?:every|each)\b", low):
        every = list(_EVERY_RE.finditer(before))
        return every[-1].start() if every else None
    if re.match(_DAY, low):
        runs = list(_DAY_RUN_RE.finditer(before))
        return runs[-1].start() if runs else None
    pods = list(_POD_RE.finditer(before))
    return pods[-1].start() if pods else None


def restated(text: str) -> str:
    """`text` with its self-repairs and changes resolved to the value that stands (see the module docstring).

    Args:
        text: a memory text (any length).

    Returns:
        The rewritten text; `text` itself when it holds neither.
    """
    low = text.lower()
    out = text
    if _CHANGE_GATE_RE.search(low) is not None:
        out = _CHANGE_RE.sub(lambda m: m.group("verb") + " ", out)
    if _GATE_RE.search(low) is None:
        return out
    while True:
        for m in _MARKER_RE.finditer(out):
            start = max((b.end() for b in _SENTENCE_BREAK_RE.finditer(out, 0, m.start())), default=0)
            before = out[start : m.start()]
            if not before.strip():
                continue  # "No, make it 4pm": a reply, not a self-repair
            cut = _cut(before, m.group("next"))
            if cut is None:
                continue
            out = out[: start + cut] + out[m.end() :]
            break
        else:
            return out
