"""Does a sentence state a standing time window of the subject, or something else with a time in it?

A `time_window` record is a recurring preference or routine ("no meetings before 10", "standup
every day at 9:45"). Most sentences with a time in them are not: a booking, a correction of one, a
question, a past event, a plan, someone else's schedule. `states_standing_window` rejects those
before any window is built; the time-window family then reads what is left.

Rejected, unless the sentence also has a recurring cue (`RECURRING_RE`: every, each, daily, weekly,
always, usually, normally, a plural day "on Mondays", weekdays, weekends, "standing"/"recurring"):

* a **question** (the sentence ends with "?"; a "Q: … A: …" note ends with its answer);
* a **one-off date**: today, tonight, tomorrow, "this/next/last week|weekend|<day>", "Monday next
  week", "the weekend after next", "March 10th", "the 4th of this month", "on the 2nd", 2026-03-10,
  3/10;
* a **booking or a correction of one**: an object that is one thing ("book it", "make it", "set
  it for", "pick it up", "the/an appointment", "a table", "the car", "tickets", "a ride", "the
  alarm"…), "it should/will be", "how about …", or a reply that opens with "No," / "Actually," and
  names a time for "it"/"that". A booking word inside a standing rule is no booking
  (`STANDING_BOOKING_RE`: "book my calls only between 9 and 11", "always book client meetings in
  the afternoon", "book all my dentist appointments in the morning", "don't book anything before
  10"): the rule names a kind of thing (a plural: "calls", "my 1:1s"), all or only of them, or
  forbids the booking;
* a **past event** (was, were, had, did, went, used to, ago, yesterday, "last time/night/week",
  "…before." at the end) — "was moved/changed to" is a change, not the past, and stays, and the
  date of a move or change dates that event, not the window ("moved to Vancouver last month and
  prefers calls after 10am");
* a **plan or hypothetical** (would, could, might, gonna, going to, hope to, plan to, let's, shall
  we, "if" other than "if possible") — "would like", "would rather", "would prefer" state a
  preference and stay;
* **someone else's** schedule: the sentence's subject is another person ("My husband works
  nights", "My manager prefers meetings before noon", "The user's daughter has swim practice at 5",
  "They always bring me lunch at noon", "Bob's standup is at 10").

A standing rule also makes a single day recur (`is_rule`): "Never schedule calls on Sunday",
"Don't book meetings on Friday" forbid every Sunday and Friday.
"""

from __future__ import annotations

import re

from writegate.normalizer.clock import TIME_WORDS_RE
from writegate.normalizer.context import Context
from writegate.normalizer.gates import one_of
from writegate.normalizer.scope import REQUEST_NEGATION, SCHEDULE_BREAKS, negated, someone_elses

_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may(?=\.?\s+[0-9])|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
RECURRING_RE = re.compile(
    r"\b(?:every|each|daily|weekly|nightly|monthly|always|usually|normally|typically|generally|regularly|routinely"
    r"|most\s+(?:days|mornings|evenings|nights|weeks)|standing|recurring|week\s?days|work\s?days|weekends"
    r"|(?:" + _DAY + r")(?:s|['’]s)\b(?!\s+(?:next|this)\b)|mornings|afternoons|evenings|nights)\b",
)
"""A word that makes a time recur. The patterns here run on lower-cased text (`re.I` is several times slower)."""
_ONE_OFF_RE = re.compile(
    r"\b(?:today|tonight|tomorrow|tmrw|yesterday|later\s+today|day\s+after\s+tomorrow"
    r"|(?:this|next|last|coming|the\s+following)\s+(?:week|weekend|month|year|time|morning|afternoon|evening|night|"
    + _DAY
    + r")"
    r"|(?:" + _DAY + r"|week|weekend)\s+(?:after\s+)?next\b|(?:" + _DAY + r")\s+(?:of\s+)?(?:this|next)\s+week"
    r"|" + _MONTH + r"\.?\s+[0-9]{1,2}(?:st|nd|rd|th)?\b|[0-9]{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b"
    r"|(?:the\s+)?[0-9]{1,2}(?:st|nd|rd|th)\s+of\s+(?:this|next|the)\s+month|\bon\s+the\s+[0-9]{1,2}(?:st|nd|rd|th)\b"
    r"|the\s+[0-9]{1,2}(?:st|nd|rd|th)\b(?!\s+(?:floor|century|time|grade|place|anniversary|birthday))"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}/[0-9]{1,2}(?:/[0-9]{2,4})?)\b",
)
_THING = (
    r"appointments?|reservations?|bookings?|tables?|rides?|cabs?|taxis?|cars?|flights?|tickets?|rooms?|hotels?"
    r"|visits?|alarms?|events?|shows?|movies?|bus|trains?|haircuts?|sessions?|pick-?ups?|drop-?offs?|check-?ins?"
    r"|check-?outs?|trips?|tours?|consultations?|checkups?|check-ups?|games?|concerts?|parties|party|dinner\s+reservations?"
)
_BOOKING_RE = re.compile(
    r"\b(?:book|reserve|schedule|set|make|change|move|push|switch|put|get|want|need|have|pick|drop|take|start|do|add"
    r"|call|name)\s+(?:it|that|this|them|(?:another\s+)?one)\b"
    r"|\b(?:it|that)\s+(?:should|will|would|needs?\s+to|has\s+to|must|can)\s+be\b"
    r"|\b(?:how|what)\s+about\b|\banything\s+else\b|\bpick(?:ing)?\s+(?:me\s+)?up\b"
    r"|\b(?:the|an?|my|that|this|our|(?:the\s+)?user['’]s)\s+(?:[\w-]+\s+)?(?:" + _THING + r")\b",
)
_REQUEST_RE = re.compile(
    r"\b(?:book(?:ing|ed)?|reserv(?:e|ing|ation)|schedul(?:e|ing)\s+(?:me|it|one|an?|the|for|at)|make\s+(?:an?\s+)?appointment"
    r"|add\s+(?:this|it|that)|find\s+me|try(?:ing)?\s+(?:to\s+)?(?:book|schedule|again)|check\s+(?:for|availability)"
    r"|appointment(?!s)|(?:is|are)\s+there\s+any"
    r"|(?:send|e-?mail|forward|share|text)\s+(?:me|us)\s+(?:the|a|an|this|that|those|these|your|his|her)\s+\w+)\b",
)
_BOOK_VERB = r"(?:book|schedul(?:e|ing)|put|set\s+up|reserve|plan|accept|take|add)"
_KINDS = (
    r"(?:calls|meetings|appointments|syncs|1:1s|one-on-ones|sessions|check-ins|interviews|demos|lessons|classes"
    r"|reviews|standups|catch-?ups|haircuts|workouts|mtgs)"
)
STANDING_BOOKING_RE = re.compile(
    r"\b(?:only|always|never|whenever|strictly|exclusively|all\s+(?:of\s+)?my|any\s+time\s+you|anytime\s+you"
    r"|every\s+time\s+you)\b"
    r"|\b" + _BOOK_VERB + r"\s+(?:(?:my|our|all|any|team|client|the)\s+)?(?:[\w-]+\s+)?" + _KINDS + r"\b"
    r"|\b(?:don['’]?t|do\s+not|never|please\s+don['’]?t)\s+(?:ever\s+)?" + _BOOK_VERB + r"\b",
)
"""A booking word inside a standing rule, lower-cased: all or only of something, a plural kind, a forbidden booking."""
_RULE_RE = re.compile(
    r"\b(?:never|(?:don['’]?t|do\s+not|please\s+don['’]?t)\s+(?:ever\s+)?" + _BOOK_VERB + r"|(?:meeting|call)[\s-]free"
    r"|(?:stop|quit)\s+(?:book|schedul)\w*|declin\w*|only\s+" + _BOOK_VERB + r"|no\s+(?:[\w-]+\s+)?" + _KINDS + r"|"
    r"(?:free|clear)\s+of\s+(?:any\s+|all\s+)?" + _KINDS + r")\b",
)
"""A rule about every occurrence of a day, lower-cased: a forbidden or exclusive booking."""
_CORRECTION_RE = re.compile(r"^\W*(?:no|nope|nah|actually|sorry|wait|oops|instead)\b\s*[,.!-]")
_PAST_RE = re.compile(
    r"\b(?:(?:was|were)(?!\s+(?:moved|changed|rescheduled|shifted|pushed|bumped|switched|set)\b)|had|did|went|used\s+to"
    r"|ago|yesterday|last\s+(?:time|night|week|weekend|month|year)|once(?!\s+a\s+(?:day|week|month|fortnight)))\b|\bbefore\s*[.!]?\s*$",
)
_PLAN_RE = re.compile(
    r"\b(?:would|could|'d)(?!\s+(?:like|love|prefer|rather|appreciate)\b)|\b(?:might|gonna|going\s+to|hope\s+to|hoping\s+to"
    r"|plan(?:ning)?\s+to|let['’]?s|let\s+us|shall\s+we|should\s+we|why\s+don['’]?t\s+we|someday"
    r"|(?:will|['’]ll)\s+(?:probably\s+)?be\s+(?:free|available|around|there|back|busy|off|out|away)"
    r"|(?:i|we)(?:['’]ll|\s+will)(?!\s+(?:always|usually|normally|never|only|not|no\s+longer|be\s+(?:on|in)\b)))\b"
    r"|\bif\b(?!\s+(?:possible|you\s+can|that\s+works|it\s+works|at\s+all|needed|necessary))",
)


def is_recurring(sentence: str) -> bool:
    """True when the sentence has a word that makes its time recur (`RECURRING_RE`)."""
    return RECURRING_RE.search(sentence.lower()) is not None


def is_rule(sentence: str) -> bool:
    """True for a standing rule about every such day or time ("never schedule calls on Sunday")."""
    return _RULE_RE.search(sentence.lower()) is not None


def is_one_off(sentence: str) -> bool:
    """True for a dated, booked or corrected one-time thing ("pick it up at 1 pm on March 10th")."""
    low = sentence.lower()
    if RECURRING_RE.search(low):
        return False
    if _ONE_OFF_RE.search(low):
        return True
    booked = _BOOKING_RE.search(low) or (_REQUEST_RE.search(low) and not negated(low, REQUEST_NEGATION))
    if booked and STANDING_BOOKING_RE.search(low) is None:
        return True  # "book me for 11 in the morning"; "book my calls only between 9 and 11" is a rule
    return _CORRECTION_RE.search(low) is not None


def is_not_current(sentence: str) -> bool:
    """True for a past event or a plan/hypothetical ("I had a call at 3", "we could meet at 5").

    Read per segment (split at dashes, semicolons, brackets and ", but/and/not …"): only segments
    that hold a time count, so "— her high school was in Ohio" does not make a window past; the
    sentence is not current when every such segment is past or a plan.
    """
    low = sentence.lower()
    segments = [seg for seg in SCHEDULE_BREAKS.split(low) if seg and TIME_WORDS_RE.search(seg)] or [low]
    return all(_PAST_RE.search(seg) is not None or _PLAN_RE.search(seg) is not None for seg in segments)


_EVENT_DATE_RE = re.compile(
    r"\b(?:moved|relocated|transferred|switched|started|joined|changed|settled)\b[^,;.]{0,40}?\b(?P<date>"
    r"last\s+(?:week|month|year|spring|summer|fall|autumn|winter)|yesterday|(?:a|an|[0-9]+|two|three|few)\s+\w+\s+ago"
    r"|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december|[0-9]{4}))\b",
    re.I,
)
"""The date of a past move or change ("moved to Vancouver last month"): it dates that event, not the window."""
_EVENT_GATE_RE = re.compile(
    one_of(["moved", "relocated", "transferred", "switched", "started", "joined", "changed", "settled"], grouped=False)
)
"""A word every match of `_EVENT_DATE_RE` contains (lower-cased text)."""


def states_standing_window(sentence: str, ctx: Context, earlier: str = "") -> bool:
    """True when `sentence` may state a standing time window of the subject (see the module docstring).

    Args:
        sentence: one sentence (a question and its answer count as one).
        ctx: the request.
        earlier: the text before the sentence (for pronouns).
    """
    stripped = sentence.rstrip()
    if stripped.endswith("?"):
        return False
    dated = sentence
    if _EVENT_GATE_RE.search(sentence.lower()) is not None:
        dated = _EVENT_DATE_RE.sub(
            lambda m: m.group()[: m.start("date") - m.start()] + " " * len(m.group("date")), dated
        )
    if is_one_off(dated) or is_not_current(dated):
        return False
    return not someone_elses(sentence.lstrip(), ctx, earlier)
