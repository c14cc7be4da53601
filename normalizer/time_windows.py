"""Time-window rule family: text → recurring cron windows with a duration, polarity and zone.

Only a sentence that states a standing window of the subject is read (`standing.states_standing_window`:
no question, one-off date, booking or correction of one, past event, plan, or someone else's
schedule, unless a recurring cue says otherwise). A correction inside the memory is resolved first
(`repair.restated`: "every other… no, every Wednesday at noon" reads "every Wednesday at noon", so
the repair's "no" is no polarity; "moved from 9:30 to 10am" reads "moved to 10am"). Spoken clock
phrases are first rewritten as written
times (`spoken.written_times`: "half past 4 in the evening" → "4:30 in the evening"). A window must
also be licensed by what the sentence names (`_licensed`): a whole day needs a meeting word or a
cue naming it and must recur ("no meetings on Fridays", "off on weekends", not "free on Sunday");
a part of day needs a meeting or event word or a cue naming it ("prefers early mornings", not "likes
to go to the beach in the morning"); a clock point needs a meeting noun, an event or a recurring cue
("I prefer 1:15 in the afternoon" alone answers a booking); a window over the whole week is dropped.

Each sentence is read on its own; a question and its answer ("Q: when does the user like to meet? A:
in the afternoon") are one sentence (`clock.sentence_spans`), so the question's scheduling words and
cues apply to the answer's window:

* **times**: clock times (9am, 9 a.m., 9:30, 9.30pm, 14:00, noon, midnight, 3 o'clock), ranges
  (9-10am, 9–10am, between 2 and 4pm, from 9 to 11, 14:00–15:30, 10pm-2am), open ends ("before T"
  = 00:00→T, "after/past/later than/from T" = T→24:00), points ("at 3pm": 60 minutes, or a stated
  length: "a 30-minute call at 9"), a multi-day span ("Friday 6pm to Monday 8am"), and the parts of
  day (`_PARTS`: morning 09–12, afternoon 12–17, evening 17–21, early morning 06–09 (also "early in
  the morning"), late afternoon 15–17, lunch 12–13, business/working/office hours 09–17, all day), "before/after
  lunch", "after work/hours", "outside business hours" (two windows). A part of day next to a
  clock time in the same clause only describes it ("morning standup at 9:30"), except that an
  open end narrows it ("mornings after 10" → 10–12). A bare number ("at 5", "from 9 to 11") is a
  time only after a preposition, before an allowed word, in a sentence about scheduling.
* **days**: day names and plurals, Mon–Thu style ranges, lists ("Tuesdays and Thursdays"),
  weekdays `1-5`, weekends `0,6`, every day `*`, and "except Fridays". No day → `*`. As many day
  groups as time specs → paired in order ("Mondays 9-11 and Thursdays 2-4pm"), else every time
  spec gets all named days. Days without a time give whole-day windows when the sentence is about
  scheduling ("no meetings on Fridays"). A sentence whose only days are one-off dates ("on call this weekend",
  "out through Friday", "next Monday") states no recurring window: nothing.
* **polarity**, per clause: a negated complement ("don't book her outside 9-11am", "she never takes
  1:1s outside the morning", "no calls except from 1 to 3pm", "anywhere but …") is require — but
  "no calls outside business hours" avoids the two windows that phrase already is; then avoid (no,
  not, never, don't, avoid, off limits, keep … clear, busy, unavailable, meeting-free, free of
  meetings, stop scheduling, decline…) over require (must, only, has to, needs to, required, limit
  … to…) over prefer (prefer, likes, best, ideally, fine…); "no change" is no cue; a clause without
  a cue takes the nearest clause's; default prefer. A standing rule ("never", "don't book", "no
  calls on …") makes a single named day recur: "Never schedule calls on Sunday" is every Sunday.
* **slot**: `schedule.meetings` (meetings, calls, 1:1s, anything, availability…) unless the nearest
  named event is one of `EVENTS` (`schedule.standup`, `schedule.gym`, `schedule.focus-time`,
  `schedule.school-run`, `schedule.lunch`…). "Lunch" with no clock time is the part of day.
* **timezone**: the zone the sentence names (`timezones.find_timezones`, the timezone family's
  rules: "9-10am EST", "Central time", "3pm Central", "London time", "UTC+2"): the only one named,
  else the one in the window's clause, else the nearest ("calls with London 9-10am GMT, with Denver
  4-5pm MT"). A time "in my time" ("after 7pm my time", "9-11 local time", "their time") takes the
  subject's zone as the whole memory states it (`own_zone`: a stated zone, else a place the subject
  lives in: "…; I live in Phoenix"); a place alone, with no "my time", is not attached.

A range crossing midnight stays one window (`0 22 * * 5`, 240 minutes); disjoint windows give
several records.

Longer than 600 lines: it is one reading of a sentence (mask → atoms → days → specs → polarity →
licence → records) whose steps share the private `_Atom`, `_DayGroup` and `_Spec`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from writegate.normalizer.clock import (
    ALL_DAYS,
    MIDNIGHT,
    MINUTES_PER_DAY,
    MINUTES_PER_WEEK,
    NOON,
    TIME_WORDS_RE,
    WEEKDAYS,
    WEEKEND,
    ClockTime,
    Meridiem,
    Role,
    clock_time,
    day_number,
    day_range,
    dow_field,
    resolve,
    resolve_range,
    sentence_spans,
)
from writegate.normalizer.context import Context
from writegate.normalizer.gates import may_match
from writegate.normalizer.repair import restated
from writegate.normalizer.schema import Polarity, ProvenanceKind, Record, RecordKind, TimeWindow
from writegate.normalizer.spoken import written_times
from writegate.normalizer.standing import is_recurring, is_rule, states_standing_window
from writegate.normalizer.timezones import Mention, find_timezones

DEFAULT_SLOT = "schedule.meetings"
POINT_MINUTES = 60

EVENTS: tuple[tuple[str, str], ...] = (
    ("standup", r"stand[\s-]?ups?|daily\s+scrums?|scrums?"),
    ("retro", r"retros?|retrospectives?"),
    ("all-hands", r"all[\s-]hands"),
    ("gym", r"gym|workouts?|exercis(?:e|ing)"),
    ("yoga", r"yoga"),
    ("focus-time", r"focus\s+(?:time|blocks?|hours?|sessions?)|deep[\s-]work|heads[\s-]down(?:\s+time)?|maker\s+time"),
    (
        "school-run",
        r"school\s+(?:runs?|pick[\s-]?ups?|drop[\s-]?offs?)|(?:pick(?:ing)?\s+up|drop(?:ping)?\s+off)\s+the\s+kids",
    ),
    ("lunch", r"lunch(?:es)?"),
    ("breakfast", r"breakfasts?"),
    ("dinner", r"dinners?"),
    ("commute", r"commut(?:e|es|ing)"),
)
"""Named recurring events with their own slot `schedule.<slug>`; everything else is meetings."""

_PARTS: dict[str, tuple[int, int]] = {
    "early morning": (360, 540),
    "late afternoon": (900, 1020),
    "morning": (540, 720),
    "afternoon": (720, 1020),
    "evening": (1020, 1260),
    "lunch": (720, 780),
    "hours": (540, 1020),
    "all day": (0, 1440),
}
"""The parts of day, in minutes."""

# ---------------------------------------------------------------- regexes (compiled once)
_MASK_RE = re.compile(
    r"\b[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:T[0-9:.]+Z?)?\b"  # ISO dates
    r"|\b[0-9]{1,4}/[0-9]{1,4}(?:/[0-9]{1,4})?\b"  # 3/14, 24/7
    r"|\b[0-9]+(?:\.[0-9]+)+\b(?!\s?[ap]\.?m)"  # versions, decimals
    r"|[$€£¥]\s?[0-9][0-9,.]*|\b[0-9][0-9,.]*\s?%"  # money, percentages
    r"|\b[0-9]+(?:st|nd|rd|th|x)\b"  # ordinals
    r"|(?i:\bgood\s+(?:morning|afternoon|evening)\b(?!s))"  # greetings
)
_ONE_ON_ONE_RE = re.compile(r"\b1:1s?\b|\b1-on-1s?\b", re.I)  # a meeting, not a time
_DURATION_RE = re.compile(
    r"\b(?P<n>[0-9]{1,3}|an?|one|two|three|half\s+an?)\s*[- ]?\s*(?P<u>minutes?|mins?|hours?|hrs?|hr)\b", re.I
)
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}
_ATOM_RE = re.compile(
    r"(?<![\w.:/#$€£¥@])"
    r"(?:(?P<word>(?:12\s*)?noon|midday|(?:12\s*)?midnight)"
    r"|(?P<h>[0-9]{1,2})(?:(?P<sep>:)(?P<m>[0-5][0-9])|\.(?P<dm>[0-5][0-9])(?=\s?[ap]\.?m))?"
    r"(?:\s?(?P<mer>[ap]\.m\.?|[ap]m\b)|(?P<mer1>[ap])\b(?![.'’]\w)|\s?(?P<oc>o['’]?clock)\b)?)"
    r"(?![\w:]|[.,][0-9])",
    re.I,
)
_AFTER_MERIDIEM_RE = re.compile(r"[0-9]\s?(?:[ap]\.?m\.?|[ap])$", re.I)
_MER_PHRASE_RE = re.compile(r"\s+(?:in\s+the|this|each|every)\s+(morning|afternoon|evening)s?\b|\s+at\s+night\b", re.I)
_RANGE_GAP_RE = re.compile(r"\s*(?:-|–|—|~|to|until|till|til|thru|through|and)\s*", re.I)
_SPAN_SHAPE_RE = re.compile(
    r"\b(?:from\s+)?(?:mon|tue|wed|thu|fri|sat|sun)\w*\s+[0-9].*?\b(?:to|until|till|through|thru|-|–)\s+(?:mon|tue|wed|thu|fri|sat|sun)",
    re.I,
)
_SPAN_GAP_RE = re.compile(r"\s*(?:-|–|—|to|until|till|thru|through)\s+(?:on\s+)?", re.I)
_PREP_RE = re.compile(
    r"(?:^|\b)(?P<p>before|after|until|till|til|past|from|at|around|@|by|starting\s+at|starts\s+at|beginning\s+at"
    r"|earlier\s+than|later\s+than|between)\s*$",
    re.I,
)
_OPEN_PREPS = frozenset({"before", "after", "until", "till", "til", "past", "from", "earlier than", "later than"})
_DAY_WORDS = (
    r"(?:sun|mon|tues|wednes|thurs|fri|satur)days?\b|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b"
    r"|week(?:days?|ends?)\b"
)
_NEXT_OK_RE = re.compile(
    r"\s*(?:$|[^\w\s]|(?i:and|or|to|until|till|til|through|thru|on|every|each|in|at|sharp|for|with|if|when|but|so|please"
    r"|is|are|works?|would|should|then|daily|weekly|only|local|o['’]?clock|ish|mornings?|afternoons?|evenings?"
    r"|lunch|noon|time|(?:my|your|his|her|their)\s+(?:own\s+)?(?:local\s+)?time|local\s+time|" + _DAY_WORDS + r")\b"
    r"|(?-i:[A-Z]{2,4}|[A-Z][a-z]+)\b)",
    re.I,
)
_DAY_RE = re.compile(
    r"(?<!\w)(?:"
    r"(?P<full>(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:s|['’]s)?)"
    r"|(?P<abbr>(?:Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)\.?)"
    r"|(?P<weekdays>(?i:week[\s-]?days?|work[\s-]?days?|working\s+days|business\s+days|monday\s+(?:to|through|thru|-|–)\s+friday))"
    r"|(?P<weekend>(?i:weekends?))"
    r"|(?P<every>(?i:every\s?day|each\s+day|daily|7\s+days\s+a\s+week|all\s+week))"
    r")(?!\w)"
)
_DAY_RANGE_GAP_RE = re.compile(r"\s*(?:-|–|—|to|through|thru|till|until)\s*", re.I)
_DAY_LIST_GAP_RE = re.compile(r"\s*(?:,|&|/|\+|and|or)?\s*(?:(?:and|or|&)\s+)?(?:on\s+)?", re.I)
_ABBR_OK_BEFORE_RE = re.compile(r"\b(?:on|every|each|until|till|from)\s+$", re.I)
_EXCEPT_RE = re.compile(
    r"\b(?:except(?:\s+for)?|but\s+not|other\s+than|excluding|apart\s+from|besides|save\s+for)\s+(?:on\s+)?$", re.I
)
# a day named as one date, not a recurrence: "this weekend", "next Monday", "through Friday"
_ONE_OFF_BEFORE_RE = re.compile(r"\b(?:this|next|last|coming|through|thru|until|till|by)\s+(?:coming\s+)?$", re.I)
_RECURRING_DAY_RE = re.compile(r"(?:s|['’]s)$|^(?:every|each)", re.I)
_EVERY_BEFORE_RE = re.compile(r"\b(?:every|each)\s+(?:other\s+)?$", re.I)
_POD_RE = re.compile(
    r"(?<![\w-])(?:"
    r"(?P<outside>outside(?:\s+of)?\s+(?:the\s+)?(?:business|working|work|office|core)\s+hours)"
    r"|(?P<ba>before|after)\s+(?:the\s+)?(?P<ba_what>lunch(?:\s*time)?|work|hours|(?:business|working|work|office)\s+hours)"
    r"|(?P<lunchpod>(?:over|during|at|around|through|across)\s+lunch(?:\s*time)?|lunch\s*(?:time|hours?)|lunch(?=\s+(?:meetings?|calls?|syncs?|slots?)))"
    r"|(?P<pod>early[\s-]+mornings?|early\s+in\s+the\s+mornings?|late[\s-]+afternoons?|late\s+in\s+the\s+afternoons?"
    r"|mornings?|afternoons?|evenings?"
    r"|(?:business|working|work|office)\s+hours|all[\s-]+day|(?:the\s+)?(?:whole|entire|full)\s+day)"
    r"|(?P<bare_lunch>lunch(?:es)?)"
    r")(?![\w-])",
    re.I,
)
# gates (`gates.may_match`): what every match of `_DURATION_RE`, `_DAY_RE`, `_POD_RE` contains, lower-cased
_DURATION_GATE_RE = re.compile(r"min|hour|hr")
_DAY_GATE_RE = re.compile(r"day|week|daily|mon|tue|wed|thu|fri|sat|sun")
_POD_GATE_RE = re.compile(
    r"morning|afternoon|evening|lunch|hours|(?:before|after)\s+(?:the\s+)?work|all[\s-]+day|(?:whole|entire|full)\s+day"
)
# what follows "outside"/"except" in a negated complement must be a window ("outside 9-11am", "except in the
# morning"), not "business hours" (the window itself is already the complement: "no calls outside business
# hours" avoids 0-9 and 17-24) nor a place ("outside the office")
_WINDOW_AHEAD = (
    r"(?=\s+(?:of\s+)?(?:the\s+)?(?:from\b|between\b|at\b|during\b|in\s+the\b|\d"
    r"|(?:early\s+|late\s+)?(?:mornings?|afternoons?|evenings?|lunch)\b))"
)
_CUE_RE = re.compile(
    r"\b(?:"
    r"(?P<neutral>no\s+change|nothing\s+new|no\s+news)"
    r"|(?P<only>(?:(?:don['’]?t|doesn['’]?t|do\s+not|does\s+not|never|won['’]?t|will\s+not|wouldn['’]?t|can['’]?t|cannot"
    r"|no|nothing)(?!\s+mind)\b[^.;!?]{0,40}?\b(?:outside|except|other\s+than)"
    + _WINDOW_AHEAD
    + r")|anywhere\s+(?:but|except|other\s+than))"
    r"|(?P<ok>(?:don['’]?t|doesn['’]?t|do\s+not|does\s+not|wouldn['’]?t|would\s+not)\s+mind|no\s+problem|not\s+a\s+problem"
    r"|no\s+issue|happy\s+to|fine\s+with)"
    r"|(?P<avoid>avoid\w*|never|no|not|nothing|none|nobody|don['’]?t|doesn['’]?t|do\s+not|does\s+not|can['’]?t|cannot"
    r"|won['’]?t|isn['’]?t|aren['’]?t|shouldn['’]?t|mustn['’]?t|unavailable|off[\s-]limits|busy|blocked|out\s+of\s+(?:the\s+)?office"
    r"|OOO|hates?|dislikes?|refuses?|keep\w*\b[^.;!?]{0,40}?\b(?:clear|free|open|empty)|(?:stay|stays|kept|remain|remains)\s+(?:clear|free|empty)"
    r"|protect\w*|off|(?:meeting|call)[\s-]free|(?:free|clear)\s+of\s+(?:any\s+|all\s+)?(?:meetings|calls|appointments)|(?:stop|quit)\s+(?:book|schedul)\w*|declin\w*|turn\s+down)"
    r"|(?P<require>must|only|has\s+to|have\s+to|needs?\s+to|required?|requires|mandatory|strictly|exclusively"
    r"|(?:limit|restrict)(?:s|ed|ing)?\b[^.;!?]{0,30}?\bto)"
    r"|(?P<prefer>prefer\w*|likes?|liked|loves?|best|ideal\w*|favou?r\w*|good|great|fine|ok(?:ay)?|enjoys?|wants?"
    r"|would\s+rather|rather|available|free|open|works?\s+(?:well|best|for))"
    r")\b",
    re.I,
)
_CUE_LOWER_RE = re.compile(_CUE_RE.pattern.replace("OOO", "ooo"))
"""`_CUE_RE` without `re.I`, its one upper-case word lower-cased, for lower-cased ASCII text: the same
matches there (`gates`), found several times faster."""
_CLAUSE_RE = re.compile(r",|;|:|\bbut\b|\band\b|\bor\b|\bwhile\b|\bwhereas\b|\bthough\b|\balthough\b", re.I)
_EVENT_RE = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?P<e{i}>{pattern})" for i, (_, pattern) in enumerate(EVENTS)) + r")(?![\w-])", re.I
)
_MEETING_RE = re.compile(
    r"\b(?:meetings?|mtgs?|meet(?:s|ing)?|calls?|syncs?|1:1s?|1-on-1s?|one[\s-]on[\s-]ones?|interviews?|appointments?"
    r"|catch[\s-]?ups?|chats?|demos?|anything|availab\w*|schedul\w*|calendar|bookings?|book"
    r"|contact(?:ed|ing)?|reach(?:ed|ing)?|disturb(?:ed)?)\b",
    re.I,
)
_CONTEXT_RE = re.compile(r"\b(?:free|busy|work\w*|office|slots?|windows?|block\w*|hours)\b", re.I)
_LICENSE_RE = re.compile(
    r"\b(?:free|busy|available|availability|unavailable|off|OOO|out\s+of\s+(?:the\s+)?office|block\w*|calendar"
    r"|slots?|windows?|(?:business|working|work|office|core)\s+hours|hours\s+are|off[\s-]limits|works?|working)\b",
    re.I,
)
"""Words that make a clock range or open end a scheduling window without a meeting or event named."""
_APPOSITION_RE = re.compile(
    r"[\s-]*(?:[\w:-]+\s+){0,2}?[\w:-]*\s*[,:(—–]\s*(?:(?:around|about|at|ideally|preferably|say|roughly|usually|typically"
    r"|like)\s+)?",
    re.I,
)
"""Between a part of day and the clock time that says when in it: "late-afternoon calls, around 4pm"."""
_MY_TIME_RE = re.compile(
    r"(?:[0-9]|[ap]\.?m\b\.?|noon|midnight|mornings?|afternoons?|evenings?)\s*,?\s*(?:(?:my|his|her|their)\s+(?:own\s+)?"
    r"(?:local\s+)?|local\s+)time\b|\b(?:in|on)\s+(?:my|his|her|their)\s+(?:own\s+)?(?:local\s+)?time(?:\s*zone)?\b",
    re.I,
)
"""A time given in the subject's own zone: "after 7pm my time", "9-11 local time", "on my time"."""
_SCHEDULING_POD_RE = re.compile(r"(?:business|working|work|office|core)\s+hours|outside", re.I)
_NOUN_ANCHOR_RE = re.compile(
    r"(?:meetings?|mtgs?|calls?|syncs?|1:1s?|1-on-1s?|one[\s-]on[\s-]ones?|interviews?|appointments|catch[\s-]?ups?|chats?"
    r"|demos?)\b",
    re.I,
)
"""Meeting words that name a kind of event; a clock point needs one of these (or an event, or a
recurring cue): "anything available at 5:30" answers a booking."""
"""Parts of day that are about scheduling themselves: "outside business hours", "after lunch"."""
_GAP_FILLER = frozenset(
    {
        "the",
        "a",
        "an",
        "on",
        "in",
        "at",
        "during",
        "for",
        "and",
        "or",
        "is",
        "are",
        "be",
        "been",
        "early",
        "late",
        "very",
        "really",
        "most",
        "all",
        "of",
        "any",
        "every",
        "each",
        "only",
        "his",
        "her",
        "their",
        "my",
        "user",
        "s",
        "before",
        "after",
        "until",
        "till",
        "from",
        "between",
        "earlier",
        "later",
        "than",
        "past",
        "around",
    }
)
_GAP_WORD_RE = re.compile(r"[A-Za-z]+")


# ---------------------------------------------------------------- internal specs
@dataclass(frozen=True, slots=True)
class _Atom:
    start: int
    end: int
    time: ClockTime


@dataclass(frozen=True, slots=True)
class _DayGroup:
    start: int
    end: int
    days: frozenset[int]
    recurring: bool
    listed: bool = False  # a list or range of days ("Saturday or Sunday", "Tuesday through Thursday")


@dataclass(slots=True)
class _Spec:
    start: int  # char position
    end: int
    begin: int  # minutes after midnight
    finish: int
    kind: str  # "range", "point", "loose" (a point with no preposition or am/pm), "open", "pod", "span", "day"
    strong: bool
    fixed_days: frozenset[int] | None = None
    days: frozenset[int] | None = None


# ---------------------------------------------------------------- scanning
def _mask(sentence: str) -> str:
    """Blank out numbers that are not clock times (same length, so positions hold); 1:1 → "mtg"."""
    masked = _ONE_ON_ONE_RE.sub(lambda m: "mtg".ljust(len(m.group())), sentence) if "1" in sentence else sentence
    return _MASK_RE.sub(lambda m: "#" * len(m.group()), masked)


def _durations(masked: str) -> tuple[str, int | None]:
    minutes: int | None = None
    if not may_match(masked, _DURATION_GATE_RE):
        return masked, minutes
    for m in _DURATION_RE.finditer(masked):
        n, unit = m.group("n").lower(), m.group("u").lower()
        if n.startswith("half"):
            value = 30 if unit.startswith("h") else None
        else:
            count = int(n) if n.isdigit() else _WORD_NUMBERS.get(n)
            value = None if count is None else count * (60 if unit.startswith("h") else 1)
        if minutes is None and value is not None and 1 <= value <= MINUTES_PER_DAY:
            minutes = value
    masked = _DURATION_RE.sub(lambda m: "#" * len(m.group()), masked)
    return masked, minutes


def _atoms(masked: str) -> tuple[list[_Atom], list[tuple[int, int]]]:
    atoms: list[_Atom] = []
    consumed: list[tuple[int, int]] = []
    for m in _ATOM_RE.finditer(masked):
        if m.start() >= 2 and masked[m.start() - 1] in "-–" and masked[m.start() - 2].isalpha():
            if not _AFTER_MERIDIEM_RE.search(masked, max(0, m.start() - 8), m.start() - 1):
                continue  # "COVID-19", not "9am-5pm"
        word = m.group("word")
        if word:
            ct: ClockTime | None = NOON if "noon" in word.lower() or "midday" in word.lower() else MIDNIGHT
        else:
            ct = clock_time(
                m.group("h"), m.group("m") or m.group("dm"), m.group("mer") or m.group("mer1"), bool(m.group("oc"))
            )
        if ct is None:
            continue
        end = m.end()
        phrase = _MER_PHRASE_RE.match(masked, end)
        if phrase is not None:
            ct = ct.with_meridiem(Meridiem.AM if (phrase.group(1) or "").lower() == "morning" else Meridiem.PM)
            consumed.append((end, phrase.end()))
        atoms.append(_Atom(m.start(), end, ct))
    return atoms, consumed


def _next_ok(masked: str, pos: int) -> bool:
    return _NEXT_OK_RE.match(masked, pos) is not None


def _day_groups(masked: str) -> tuple[list[_DayGroup], list[_DayGroup]]:
    """(positive groups, excluded groups)."""
    tokens: list[tuple[int, int, frozenset[int], bool, bool, int | None]] = []
    for m in _DAY_RE.finditer(masked) if may_match(masked, _DAY_GATE_RE) else ():
        text = m.group()
        single: int | None = None
        if m.group("full") or m.group("abbr"):
            single = day_number(text)
            if single is None:
                continue
            days = frozenset({single})
            recurring = bool(_RECURRING_DAY_RE.search(text.rstrip("."))) and not m.group("abbr")
        elif m.group("weekdays"):
            days, recurring = WEEKDAYS, True
        elif m.group("weekend"):
            days, recurring = WEEKEND, True
        else:
            days, recurring = ALL_DAYS, True
        if _EVERY_BEFORE_RE.search(masked, max(0, m.start() - 8), m.start()):
            recurring = True
        tokens.append((m.start(), m.end(), days, recurring, bool(m.group("abbr")), single))
    groups: list[_DayGroup] = []
    i = 0
    while i < len(tokens):
        start, end, days, recurring, abbr_only, single = tokens[i]
        j = i
        while j + 1 < len(tokens):
            gap = masked[tokens[j][1] : tokens[j + 1][0]]
            nxt = tokens[j + 1]
            if single is not None and nxt[5] is not None and j == i and _DAY_RANGE_GAP_RE.fullmatch(gap):
                days = day_range(single, nxt[5])
            elif _DAY_LIST_GAP_RE.fullmatch(gap):
                days = days | nxt[2]
            else:
                break
            recurring = True  # a list or range of days recurs
            abbr_only = abbr_only and nxt[4]
            end = nxt[1]
            j += 1
        if abbr_only and j == i:
            ok = _ABBR_OK_BEFORE_RE.search(masked, max(0, start - 8), start) or re.match(
                r"\s*[0-9]", masked[end : end + 3]
            )
            if not ok:
                i = j + 1
                continue
        groups.append(_DayGroup(start, end, days, recurring, listed=j > i))
        i = j + 1
    positive = [g for g in groups if not _EXCEPT_RE.search(masked, max(0, g.start - 20), g.start)]
    excluded = [g for g in groups if g not in positive]
    return positive, excluded


def _open_spec(atom: _Atom, prep: str) -> _Spec | None:
    p = prep.split()[0]
    if p in ("before", "until", "till", "til", "earlier"):
        if atom.time is MIDNIGHT:
            return None
        t = resolve(atom.time, Role.END)
        return _Spec(atom.start, atom.end, 0, t, "open", atom.time.strong) if t > 0 else None
    if p in ("after", "past", "later", "from"):
        if atom.time is MIDNIGHT:
            return None
        t = resolve(atom.time, Role.START)
        return (
            _Spec(atom.start, atom.end, t, MINUTES_PER_DAY, "open", atom.time.strong) if t < MINUTES_PER_DAY else None
        )
    return None


def _time_specs(masked: str, atoms: list[_Atom], days: list[_DayGroup], point_minutes: int) -> list[_Spec]:
    specs: list[_Spec] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        prep_m = _PREP_RE.search(masked, max(0, a.start - 16), a.start)
        prep = " ".join(prep_m.group("p").lower().split()) if prep_m else ""
        if i + 1 < len(atoms):
            b = atoms[i + 1]
            gap = masked[a.end : b.start]
            gm = _RANGE_GAP_RE.fullmatch(gap)
            if gm is not None and (not gap.strip().lower() == "and" or prep == "between"):
                spec = _range_spec(a, b, prep, masked)
                if spec is not None:
                    specs.append(spec)
                i += 2
                continue
            span = _span_spec(a, b, gap, masked, days)
            if span is not None:
                specs.append(span)
                i += 2
                continue
        i += 1
        if not a.time.strong and (not prep or not _next_ok(masked, a.end)):
            continue
        if prep == "by":
            continue  # a deadline, not a window
        if prep in _OPEN_PREPS:
            spec = _open_spec(a, prep)
            if spec is not None:
                specs.append(spec)
            continue
        s = resolve(a.time, Role.POINT)
        if s < MINUTES_PER_DAY:
            loose = not prep and a.time.meridiem is None  # "16:10" alone
            specs.append(_Spec(a.start, a.end, s, s + point_minutes, "loose" if loose else "point", a.time.strong))
    return specs


def _range_spec(a: _Atom, b: _Atom, prep: str, masked: str) -> _Spec | None:
    strong = a.time.strong or b.time.strong
    if not (strong or a.time.literal or b.time.literal) and not (
        b.time.hour > a.time.hour or (a.time.hour >= 7 and b.time.hour <= 7)
    ):
        return None  # "3-1" is a score, "9-5" a range
    if not strong and not (prep in ("from", "between") or _next_ok(masked, b.end)):
        return None
    if not b.time.strong and not _next_ok(masked, b.end):
        return None
    rng = resolve_range(a.time, b.time)
    if rng is None or rng[0] >= MINUTES_PER_DAY:
        return None
    return _Spec(a.start, b.end, rng[0], rng[1], "range", strong)


def _span_spec(a: _Atom, b: _Atom, gap: str, masked: str, days: list[_DayGroup]) -> _Spec | None:
    """ "Friday 6pm to Monday 8am": one window across days."""
    before = next((g for g in days if len(g.days) == 1 and 0 <= a.start - g.end <= 4), None)
    gm = _SPAN_GAP_RE.match(gap)
    if before is None or gm is None:
        return None
    after = next((g for g in days if len(g.days) == 1 and g.start >= a.end + gm.end() - 1 and g.end <= b.start), None)
    if after is None or not re.fullmatch(r"\s*(?:at\s+)?", masked[after.end : b.start]):
        return None
    d1, d2 = next(iter(before.days)), next(iter(after.days))
    t1, t2 = resolve(a.time, Role.START), resolve(b.time, Role.END)
    length = (d2 * MINUTES_PER_DAY + t2 - d1 * MINUTES_PER_DAY - t1) % MINUTES_PER_WEEK
    if length <= 0 or t1 >= MINUTES_PER_DAY:
        return None
    spec = _Spec(before.start, b.end, t1, t1 + length, "span", True, fixed_days=frozenset({d1}))
    return spec


def _pod_specs(masked: str, consumed: list[tuple[int, int]], has_clock: bool) -> list[_Spec]:
    specs: list[_Spec] = []
    for m in _POD_RE.finditer(masked) if may_match(masked, _POD_GATE_RE) else ():
        if any(a <= m.start() < b for a, b in consumed):
            continue
        if m.group("outside"):
            specs.append(_Spec(m.start(), m.end(), 0, 540, "pod", True))
            specs.append(_Spec(m.start(), m.end(), 1020, MINUTES_PER_DAY, "pod", True))
        elif m.group("ba"):
            what = m.group("ba_what").lower()
            lo, hi = _PARTS["lunch"] if what.startswith("lunch") else _PARTS["hours"]
            if m.group("ba").lower() == "before":
                specs.append(_Spec(m.start(), m.end(), 0, lo, "open", True))
            else:
                specs.append(_Spec(m.start(), m.end(), hi, MINUTES_PER_DAY, "open", True))
        elif m.group("bare_lunch"):
            if not has_clock:  # "Lunch is off limits": the part of day; with a clock time, an event
                specs.append(_Spec(m.start(), m.end(), *_PARTS["lunch"], "pod", False))
        else:
            key = _pod_key(m.group())
            lo, hi = _PARTS[key]
            specs.append(_Spec(m.start(), m.end(), lo, hi, "pod", False))
    return specs


def _pod_key(text: str) -> str:
    t = " ".join(text.lower().replace("-", " ").split())
    t = t.replace("early in the morning", "early morning").replace("late in the afternoon", "late afternoon")
    for key in ("early morning", "late afternoon", "morning", "afternoon", "evening", "lunch", "all day"):
        if key in t:
            return key
    return "all day" if "day" in t else "hours"


# ---------------------------------------------------------------- polarity and slot
def _clauses(masked: str) -> list[tuple[int, int]]:
    bounds = [0] + [m.start() for m in _CLAUSE_RE.finditer(masked)] + [len(masked)]
    return [(bounds[k], bounds[k + 1]) for k in range(len(bounds) - 1)]


_RANK = {Polarity.AVOID: 3, Polarity.REQUIRE: 2, Polarity.PREFER: 1}
_ONLY_RANK = 4  # "don't book her outside 9-11", "no calls except 1-3pm": a negated complement, i.e. only this window


def _cues(masked: str) -> list[tuple[str | None, int, int]]:
    """(group name, start, end) of every `_CUE_RE` match in `masked`."""
    matches = _CUE_LOWER_RE.finditer(masked.lower()) if masked.isascii() else _CUE_RE.finditer(masked)
    return [(m.lastgroup, m.start(), m.end()) for m in matches]


def _clause_polarities(masked: str, clauses: list[tuple[int, int]]) -> list[Polarity | None]:
    found: list[Polarity | None] = [None] * len(clauses)
    rank = [0] * len(clauses)
    for group, start, _ in _cues(masked):
        kind = group or "prefer"
        if kind == "neutral":
            continue  # "— no change" says nothing about polarity
        pol = {
            "ok": Polarity.PREFER,
            "prefer": Polarity.PREFER,
            "avoid": Polarity.AVOID,
            "require": Polarity.REQUIRE,
            "only": Polarity.REQUIRE,
        }[kind]
        r = _ONLY_RANK if kind == "only" else _RANK[pol]
        k = next(idx for idx, (a, b) in enumerate(clauses) if a <= start < b or idx == len(clauses) - 1)
        if r > rank[k]:
            found[k], rank[k] = pol, r
    return found


def _polarity_at(
    pos: int, slot: str, clauses: list[tuple[int, int]], found: list[Polarity | None], anchors: list[tuple[int, str]]
) -> Polarity:
    """The clause's cue, else the nearest earlier clause's, else a later one's that is about the same slot."""
    k = next((idx for idx, (a, b) in enumerate(clauses) if a <= pos < b), len(clauses) - 1)
    here = found[k]
    if here is not None:
        return here
    for idx in range(k - 1, -1, -1):
        earlier = found[idx]
        if earlier is not None:
            return earlier
    for idx in range(k + 1, len(found)):
        a, b = clauses[idx]
        if any(a <= at < b and other != slot for at, other in anchors):
            break  # "Focus time 9-11am, no meetings": the cue is about another slot
        later = found[idx]
        if later is not None:
            return later
    return Polarity.PREFER


def _anchors(masked: str, pods: list[_Spec], has_clock: bool) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for m in _EVENT_RE.finditer(masked):
        idx = int((m.lastgroup or "e0")[1:])
        slug = EVENTS[idx][0]
        if any(p.start <= m.start() < p.end for p in pods):
            continue  # "over lunch", "lunch meetings": the part of day
        if slug == "lunch" and not has_clock:
            continue
        out.append((m.start(), f"schedule.{slug}"))
    out.extend((m.start(), DEFAULT_SLOT) for m in _MEETING_RE.finditer(masked))
    return out


def _slot_at(pos: int, anchors: list[tuple[int, str]], clauses: list[tuple[int, int]]) -> str:
    if not anchors:
        return DEFAULT_SLOT
    k = next((a, b) for a, b in clauses if a <= pos < b) if any(a <= pos < b for a, b in clauses) else (0, 0)
    same = [x for x in anchors if k[0] <= x[0] < k[1]]
    pool = same or anchors
    return min(pool, key=lambda x: abs(x[0] - pos))[1]


# ---------------------------------------------------------------- assembly
def _combine(pods: list[_Spec], clocks: list[_Spec], clauses: list[tuple[int, int]], masked: str) -> list[_Spec]:
    """Drop parts of day that only describe a clock time ("late-afternoon calls, around 4pm"); narrow them by an open end."""
    if not clocks:
        return pods
    out = list(clocks)
    for p in pods:
        if p.kind == "open" or p.strong:
            out.append(p)
            continue
        clause = next(((a, b) for a, b in clauses if a <= p.start < b), (p.start, p.end))
        near = [
            c
            for c in clocks
            if clause[0] <= c.start < clause[1]
            or abs(c.start - p.end) <= 12
            or abs(p.start - c.end) <= 12
            or (c.start >= p.end and _APPOSITION_RE.fullmatch(masked, p.end, c.start) is not None)
        ]
        if not near:
            out.append(p)
            continue
        for c in near:
            if c.kind == "open":
                lo, hi = max(p.begin, c.begin), min(p.finish, c.finish)
                if lo < hi:
                    if c in out:
                        out.remove(c)
                    out.append(_Spec(min(p.start, c.start), max(p.end, c.end), lo, hi, "range", True))
    return out


def _assign_days(specs: list[_Spec], groups: list[_DayGroup], excluded: frozenset[int]) -> None:
    free = [g for g in groups if not any(s.fixed_days is not None and s.start <= g.start < s.end for s in specs)]
    timed = [s for s in specs if s.fixed_days is None]
    if len(free) == len(timed) and len(free) > 1:
        for s, g in zip(sorted(timed, key=lambda x: x.start), sorted(free, key=lambda x: x.start), strict=True):
            s.days = g.days
    else:
        union: frozenset[int] = frozenset().union(*(g.days for g in free)) if free else ALL_DAYS
        for s in timed:
            s.days = union
    for s in specs:
        days = s.fixed_days if s.fixed_days is not None else (s.days or ALL_DAYS)
        s.days = days - excluded if excluded and days - excluded else days


def _governed(masked: str, spec: _Spec) -> bool:
    """A preference cue names this window itself ("prefers early mornings", "Mondays are off limits").

    Only fillers, days and parts of day may stand between the cue and the window: in "likes to go
    to the beach on weekends" the cue is about going to the beach.
    """
    for group, start, end in _cues(masked):
        if group == "neutral":
            continue
        if start <= spec.start < end or spec.start <= start < spec.end:
            return True
        gap = masked[end : spec.start] if end <= spec.start else masked[spec.end : start]
        if any(c in gap for c in ",;"):
            continue
        words = [w.lower() for w in _GAP_WORD_RE.findall(gap)]
        rest = [
            w for w in words if w not in _GAP_FILLER and _DAY_RE.fullmatch(w) is None and _POD_RE.fullmatch(w) is None
        ]
        if not rest:
            return True
    return False


def _whole_week(spec: _Spec) -> bool:
    """A window over every minute of every day says nothing ("I am busy every day")."""
    return spec.begin == 0 and spec.finish >= MINUTES_PER_DAY and (spec.fixed_days or spec.days or ALL_DAYS) == ALL_DAYS


def _licensed(masked: str, spec: _Spec, recurring: bool, anchors: list[tuple[int, str]]) -> bool:
    """May this window stand, given what the sentence names?

    * a whole day ("no meetings on Fridays") needs a meeting word or a cue that names the day itself
      ("off on weekends"), and the day must recur ("Fridays", "every Friday", "Mon-Fri"): "I am free
      on Sunday" is one Sunday;
    * a part of day ("mornings") needs a meeting or event word or a cue that names it ("prefers
      early mornings"); "outside business hours", "after lunch" are scheduling phrases themselves;
    * a clock point ("at 3pm") needs a meeting or event word or a recurring cue: "I prefer 1:15 in
      the afternoon" alone answers a booking;
    * a clock range or open end ("9-5", "before 10") also stands on a cue that names it or a
      scheduling word ("available", "busy", "hours").
    """
    meeting = any(slot == DEFAULT_SLOT for _, slot in anchors)
    if spec.kind == "day":
        return (meeting or _governed(masked, spec)) and (
            recurring if meeting else is_recurring(masked[spec.start : spec.end])
        )
    if spec.kind == "pod" or (spec.kind == "open" and not _ATOM_RE.search(masked, spec.start, spec.end)):
        if _SCHEDULING_POD_RE.search(masked, spec.start, spec.end):
            return True
        return bool(anchors) or _governed(masked, spec)
    if recurring or any(_NOUN_ANCHOR_RE.match(masked, at) or slot != DEFAULT_SLOT for at, slot in anchors):
        return True
    if spec.kind in ("point", "loose"):
        return False
    if anchors:
        return True
    return _governed(masked, spec) or _LICENSE_RE.search(masked) is not None


def _window_zone(spec: _Spec, zones: list[Mention], clauses: list[tuple[int, int]]) -> str | None:
    """The zone the sentence names for this window: the only one named, else the nearest in its clause, else the nearest."""
    if not zones:
        return None
    if len({m.zone for m in zones}) == 1:
        return zones[0].zone
    clause = next(((a, b) for a, b in clauses if a <= spec.start < b), (0, 0))
    pool = [m for m in zones if clause[0] <= m.span[0] < clause[1]] or zones
    return min(pool, key=lambda m: min(abs(m.span[0] - spec.end), abs(spec.start - m.span[1]))).zone


def own_zone(text: str, ctx: Context) -> str | None:
    """The subject's zone as the memory states it: a stated zone, else one inferred from where they live.

    What "after 7pm my time" means when the memory also says "I live in Phoenix" or "I'm on EST".
    """
    mentions = find_timezones(text, ctx)
    best = next((m for m in mentions if m.provenance is ProvenanceKind.STATED), mentions[0] if mentions else None)
    return best.zone if best is not None else None


def _sentence_records(sentence: str, ctx: Context, text: str = "") -> list[Record]:
    """The windows one sentence states; `text` (the whole memory) gives the subject's zone for "my time"."""
    written = written_times(sentence)
    masked, point_minutes = _durations(_mask(written))
    atoms, consumed = _atoms(masked)
    groups, excluded_groups = _day_groups(masked)
    if groups and all(_ONE_OFF_BEFORE_RE.search(masked, max(0, g.start - 14), g.start) for g in groups):
        return []  # a one-off date ("on call this weekend", "out through Friday") is no recurring window
    clocks = _time_specs(masked, atoms, groups, point_minutes or POINT_MINUTES)
    pods = _pod_specs(masked, consumed, bool(clocks))
    if not clocks and not pods and not groups:
        return []  # no clock time, part of day or day: nothing can become a window
    recurring = is_recurring(sentence) or is_rule(sentence)
    if groups and not any(g.recurring for g in groups) and not recurring and not _SPAN_SHAPE_RE.search(masked):
        return []  # "free on Sunday", "Sunday afternoon should be good": one day, not every one
    clauses = _clauses(masked)
    cues = _clause_polarities(masked, clauses)
    anchors = _anchors(masked, pods, bool(clocks))
    scheduling = (
        any(c is not None for c in cues)
        or bool(anchors)
        or any(g.recurring for g in groups)
        or _CONTEXT_RE.search(masked) is not None
        or recurring
    )
    if not anchors and not groups:
        clocks = [c for c in clocks if c.kind != "loose"]
    specs = _combine(pods, clocks, clauses, masked)
    if not scheduling:
        specs = [s for s in specs if s.kind == "range" and s.strong]
    if not specs:
        if not groups or not (anchors or any(c is not None for c in cues)):
            return []
        specs = [_Spec(g.start, g.end, 0, MINUTES_PER_DAY, "day", False, fixed_days=g.days) for g in groups]
    days_recur = recurring or any(g.listed for g in groups)
    specs = [s for s in specs if _licensed(masked, s, days_recur, anchors) and not _whole_week(s)]
    if not specs:
        return []
    excluded = frozenset().union(*(g.days for g in excluded_groups)) if excluded_groups else frozenset()
    _assign_days(specs, groups if specs[0].kind != "day" else [], excluded)
    # the sentence is the subject's (`states_standing_window` keeps only those): no holder check here
    zones = [m for m in find_timezones(written) if m.provenance is ProvenanceKind.STATED]
    own = None
    if not zones and "time" in masked.lower() and _MY_TIME_RE.search(masked):
        own = own_zone(text or sentence, ctx)
    records: list[Record] = []
    seen: set[tuple[str, int, str, str]] = set()
    for s in sorted(specs, key=lambda x: x.start):
        duration = min(s.finish - s.begin, MINUTES_PER_WEEK)
        if duration < 1 or not 0 <= s.begin < MINUTES_PER_DAY:
            continue
        cron = f"{s.begin % 60} {s.begin // 60} * * {dow_field(s.days or ALL_DAYS)}"
        slot = _slot_at(s.start, anchors, clauses)
        polarity = _polarity_at(s.start, slot, clauses, cues, anchors)
        key = (cron, duration, polarity.value, slot)
        if key in seen:
            continue
        seen.add(key)
        zone = _window_zone(s, zones, clauses) or own
        window = TimeWindow(cron=cron, duration_minutes=duration, timezone=zone, polarity=polarity)
        records.append(ctx.record(RecordKind.TIME_WINDOW, slot, sentence, time_window=window))
    return records


def extract(text: str, ctx: Context) -> list[Record]:
    """Time-window records for every window the text states (see the module docstring).

    Args:
        text: the memory text.
        ctx: the request context.

    Returns:
        `time_window` records, one per window, in text order.
    """
    low = text.lower()
    if not TIME_WORDS_RE.search(low):
        return []
    text = restated(text)
    records: list[Record] = []
    for a, b in sentence_spans(text):
        sentence = text[a:b]
        if TIME_WORDS_RE.search(sentence.lower()) and not sentence.rstrip().endswith("?"):
            found = _sentence_records(sentence, ctx, text)
            if found and states_standing_window(sentence, ctx, text[:a]):  # the gate costs more than most sentences
                records.extend(found)
    return records
