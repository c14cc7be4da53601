"""Where the subject lives now: the places after a cue ("lives in", "is based in", "moved to").

The shared rule for places (`current_places`): timezone records (`timezones`, rules 7 and 8 of its
docstring) and, through the same checks, `located_in` edges. A cue, then one whole place
(`place_at`), then the scope checks: not in a question; not negated or past (`scope.past_state`:
"grew up in", "used to live", "was born in", "lived in Japan for 2 years"; a past move counts); not a
plan, wish or hypothetical (`scope.irrealis`, "while I'm in", "to live in"); about the subject
(`scope.holder`: "my sister lives in Spain" and "friends who live in Japan" are someone else's, a
subject-less note "Lives in Austin" is the subject's, and so is "she" with no other person named
before it; "others live in", "many of our residents work in" are not); a participle describes the
subject only after a verb like "am", "have been", "love" ("a dentist located in Gilroy", "a cousin
living in Ohio" give nothing), and the word before the cue must be a possible subject ("the venue was
moved to" gives nothing); a stay is not a home (`scope.stay`: "in Paris for a few days on holiday";
"have been living in Paris for six months" is a home). The office or hub someone regularly works from
("works in the Berlin office") counts like "works from Berlin".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from writegate.normalizer.clock import DAY_NAMES, MONTH_NAMES
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.entities import slugify
from writegate.normalizer.gates import may_match
from writegate.normalizer.places import Place, PlaceKind, lookup_place, lookup_place_in
from writegate.normalizer.schema import ProvenanceKind
from writegate.normalizer.scope import PERSON_NOUNS, Holder, holder, holds_since, irrealis, past_state, stay

LOWERCASE_CITY = 500_000
"""An all-lowercase label value or answer ("location: lisbon") counts as a city only if this big:
smaller cities share their names with common words ("hub", "nice", "reading")."""

OFFICE_WORDS = r"(?:office|hub|hq|headquarters|campus|site|branch)"

_MOVE_GAP = (
    r"(?:\s+(?:back|over|out|down|up|away|here|there|permanently|all\s+the\s+way))*(?:\s+from\s+[^.;!?,]{1,40}?)?\s+to"
)

_PLACE_CUE_RE = re.compile(
    r"(?:(?i:\b(?:"
    r"(?P<move>moved|relocated|transferred|emigrated|(?:after|since)\s+(?:moving|relocating))"
    + _MOVE_GAP
    + r"|(?P<part>based|located|living|residing|settled|stationed)\s+(?:in|out\s+of|at)"
    r"|(?:lives|live|resides|reside)\s+(?:in|out\s+of|at)"
    r"|(?:works?|working)\s+(?:remotely\s+)?(?:from|out\s+of)"
    r"|(?P<workin>(?:works?|working)(?:\s+as\s+an?\s+[\w-]+(?:\s+[\w-]+)?)?\s+in)"
    r"|(?:makes?|making|made)\s+(?:a\s+|(?:my|his|her|their|our)\s+)?home\s+(?:in|at)"
    r"|(?P<home>back\s+home\s+in|(?<![\w'’])(?:my|our)\s+home\s+is\s+(?:now\s+)?(?:in\s+)?)"
    r"|(?P<perfect>(?:['’]ve|\bhave|\bhas)\s+(?:(?:always|now|been)\s+)?lived\s+(?:in|at))"
    r"))"
    r"|\b(?P<who>I|[Hh]e|[Ss]he|[Tt]hey|[Ww]e|(?:[Tt]he\s+)?[Uu]ser|[A-Z][a-z]+)(?:\s+(?:is|am|are)|['’](?:s|m|re))"
    r"\s+(?:now\s+|currently\s+|still\s+|also\s+)?(?:in|at)"
    r")\s+(?:the\s+)?(?=\w)"
)
"""A place cue: a past move (a move is a current fact; "move to", "moving to" are plans), living
or being based somewhere, working from or in a place, making a home, being in a place."""

_OFFICE_CUE_RE = re.compile(
    r"(?i:\b(?:goes|go|going|commutes?|commuting|heads?|heading)\s+in(?:\s*to)?"
    r"|\b(?:works?|working|sits?|sitting|seated|based|located|stationed)\s+(?:in|at|out\s+of|from))"
    r"\s+(?i:the|our|their|his|her|my)\s+(?=[A-Z])"
)

_OFFICE_AFTER_RE = re.compile(r"\s+" + OFFICE_WORDS + r"\b", re.I)

_CONTRACTIONS = ("'s", "'m", "'re", "’s", "’m", "’re")

_PLACE_CUE_GATE_RE = re.compile(
    "|".join(
        (
            r"moved|relocated|transferred|emigrated|moving|relocating",
            r"based\s+(?:in|out|at)|located\s+(?:in|out|at)|living\s+(?:in|out|at)|residing\s+(?:in|out|at)",
            r"settled\s+(?:in|out|at)|stationed\s+(?:in|out|at)|lives?\s+(?:in|out|at)|resides?\s+(?:in|out|at)",
            r"work(?:s|ing)?\s+(?:remotely\s+(?:from|out)|from|out|as|in)|home\s+(?:in|at|is)|lived\s+(?:in|at)",
            *(
                rf"{verb}\s+(?:(?:now|currently|still|also)\s+)?(?:in|at)\s"
                for verb in ("is", "am", "are", *_CONTRACTIONS)
            ),
        )
    )
)
"""`_PLACE_CUE_RE` lower-cased, each branch cut after its verb and preposition ("based in", "works
as", "home at", "moved", "<who> is/'s (now) in/at "); every branch starts with a literal (`gates.one_of`)."""

_OFFICE_DETERMINER = r"\s+(?:the|our|their|his|her|my)\s"

_OFFICE_CUE_GATE_RE = re.compile(
    "|".join(
        rf"{verb}\s+{prep}{_OFFICE_DETERMINER}"
        for verb, prep in (
            (r"go(?:es|ing)?", r"in(?:\s*to)?"),
            (r"commut(?:es?|ing)", r"in(?:\s*to)?"),
            (r"head(?:s|ing)?", r"in(?:\s*to)?"),
            *((verb, r"(?:in|at|out\s+of|from)") for verb in (r"work(?:s|ing)?", r"sit(?:s|ting)?", "seated", "based")),
            *((verb, r"(?:in|at|out\s+of|from)") for verb in ("located", "stationed")),
        )
    )
)
"""`_OFFICE_CUE_RE` lower-cased, without its look-ahead for a capital; every branch starts with a literal."""

STALE_RE = re.compile(r"\b(?:no\s+longer|used\s+to|not|never|formerly|previously|was|were|had\s+been|left)\b", re.I)

CONTRACTED_NOT_RE = re.compile(r"n['’]t\b", re.I)
"""A place after "isn't based in", "doesn't live in" is negated; a stated zone is kept ("don't book after 5pm ET")."""


def sentence_start(text: str, pos: int) -> int:
    start = 0
    for m in re.finditer(r"[.!?;\n]\s*", text[:pos]):
        start = m.end()
    while start < len(text) and text[start] in " \t\"'“(":
        start += 1
    return start


_CONNECTORS = frozenset({"de", "del", "da", "do", "di", "am", "upon", "on", "of", "la", "le", "el", "al"})

_RUN_WORD_RE = re.compile(r"[\w.'’-]+")

_NOT_CONTINUATION = frozenset({"I", *DAY_NAMES, *MONTH_NAMES})
"""Capitalised words that may follow a place without being part of its name ("in Paris I…")."""


@dataclass(frozen=True, slots=True)
class PlaceHit:
    """A place name read at a position of a text.

    Attributes:
        name: the name as written ("Columbia", "San Jose").
        place: what it resolved to (its `timezone` None when it has no single zone).
        span: character span of the name (a qualifier after it, "…, Missouri", not included).
    """

    name: str
    place: Place
    span: tuple[int, int]


def place_at(text: str, pos: int) -> PlaceHit | None:
    """The place named by the longest run of words starting at `pos`, if it is one whole place.

    The words must all be capitalised (connectors like "de" aside: "Rio de Janeiro") or all be
    lowercase (then only a country, a region or a city of `LOWERCASE_CITY` people: "texas",
    "amsterdam"). The name must end the run: a capitalised word right after it continues another
    name ("San Fran", "Colorado University", "Lancaster County" give nothing), unless it is a
    state, region or country that qualifies the city ("Denver Colorado"); a qualifier after a comma
    ("Columbia, Missouri", "Hemet, CA") resolves the city inside it.

    Args:
        text: any text.
        pos: where the name should start.
    """
    words: list[re.Match[str]] = []
    at = pos
    while len(words) < 5:
        m = _RUN_WORD_RE.match(text, at)
        if m is None:
            break
        words.append(m)
        if m.group().endswith((",", ".")) or not text.startswith(" ", m.end()):
            break
        at = m.end() + 1
    for k in range(min(len(words), 4), 0, -1):
        run = [w.group() for w in words[:k]]
        name = " ".join(run).rstrip(".,'’")
        if not name or name.endswith(("'s", "’s")) or run[-1].lower() in _CONNECTORS:
            continue
        lower = name.islower()
        if not lower and not all(w[:1].isupper() or (0 < i < k - 1 and w in _CONNECTORS) for i, w in enumerate(run)):
            continue
        place = lookup_place(name)
        if place is None:
            continue
        if lower and place.kind is PlaceKind.CITY and place.population < LOWERCASE_CITY:
            return None
        end = words[k - 1].end() - (len(" ".join(run)) - len(name))  # the last word, less what rstrip took
        qualified = _qualified(text, name, end, next_word=words[k] if k < len(words) else None)
        if qualified is False:
            return None
        return PlaceHit(name, qualified or place, (words[0].start(), end))
    return None


def _qualified(text: str, name: str, end: int, next_word: re.Match[str] | None) -> Place | None | Literal[False]:
    """The place inside a qualifier after the name, None when there is none, False when the name
    runs on into a longer name or the qualifier does not hold it."""
    comma = text.startswith(",", end)
    nxt = next_word.group().rstrip(".,") if next_word is not None else ""
    if not comma and (not nxt[:1].isupper() or nxt in _NOT_CONTINUATION or nxt.startswith(("I'", "I’"))):
        return None
    start = end + 1 if comma or next_word is None else next_word.start()
    qual = re.match(r"\s*([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2})", text[start : start + 60])
    if qual is None:
        return None if comma else False
    qwords = qual.group(1).split()
    for j in range(len(qwords), 0, -1):
        q = " ".join(qwords[:j]).rstrip(".,")
        inside = lookup_place_in(name, q)
        if inside is not None:
            return inside
        if lookup_place(q) is not None:
            return False  # "York, Pennsylvania" read as England's York: no
    return None if comma else False


_BREAK_RE = re.compile(r"[,;:—–()]|\s-\s|\b(?:but|and|so|then|because|although|though|whereas|or)\b", re.I)

_ADVERBS = (
    r"(?:now|currently|still|also|actually|really|just|recently|finally|already|mostly|usually|happily|permanently"
    r"|officially|presently|even|too|here|right\s+now|at\s+the\s+moment)"
)

_AUX_RE = re.compile(
    r"(?:(?:(?:^|\s)(?:am|is|are|was|were|be|been|being|have|has|had|love|loves|like|likes|enjoy|enjoys)"
    r"|['’](?:m|re|s|ve))\s*(?:\s" + _ADVERBS + r"\s*)*)+$",
    re.I,
)
"""What may stand between a subject and a participle cue: "I am (currently) living in", "I've been
based in", "I love living in" (a liked state holds now; "I liked living in" is past)."""

_ADVERBS_END_RE = re.compile(r"(?:\s*\b" + _ADVERBS + r")+\s*$", re.I)

_SUBJECT_WORD_RE = re.compile(
    r"(?:^|\s)(?P<w>(?i:i|we|he|she|they|you|it|user|(?:" + PERSON_NOUNS + r")(?:['’]s)?)|[A-Z][\w'’-]*)\s*$"
)
"""The word before a cue that can be its subject: a pronoun, a person noun or a name (not "the venue")."""

_RELATIVE_BEFORE_RE = re.compile(r"\b(?:who|that|which|whom)\s+(?:\w+\s+){0,2}$", re.I)

_OTHERS_RE = re.compile(
    r"\b(?:others|mine|both|none|many|most|several|one\s+of\s+(?:them|us|my\s+\w+)|some\s+of\s+(?:them|my\s+\w+))\b",
    re.I,
)

_INFINITIVE_RE = re.compile(r"\bto\s+(?:\w+\s+)?$", re.I)

_LOCAL_IRREALIS_RE = re.compile(r"\b(?:while|whilst|during|use\s+to)\b", re.I)

_MOVE_STALE_RE = re.compile(r"\b(?:not|never|no\s+longer)\b|n['’]t\b", re.I)

_WORK_IN_END_RE = re.compile(
    r"\s*(?:$|[^\w\s]|(?:at|in|on|for|as|and|but|so|with|now|currently|since|because|too|these|full|part|remotely)\b)",
    re.I,
)
"""After "works in <place>" the clause ends or goes on with a preposition ("the west virginia coal
industry" is a trade, not a place)."""

QUESTION_END_RE = re.compile(r"[.!?](?=\s|$)|\n")


def _clause_left(text: str, sent_start: int, pos: int) -> tuple[int, bool]:
    """Start of the clause holding `pos` and whether it was cut at "and" or a comma."""
    start, cut = sent_start, False
    for m in _BREAK_RE.finditer(text, sent_start, pos):
        start, cut = m.end(), m.group().strip().lower() in {",", "and"}
    return start, cut


def _scope_ok(text: str, cue: re.Match[str], hit: PlaceHit, ctx: Context | None) -> bool:
    """Whether a cued place is a current fact about the subject (the checks of the docstring)."""
    sent_start = sentence_start(text, cue.start())
    end = QUESTION_END_RE.search(text, hit.span[1])
    if end is not None and end.group() == "?":
        return False
    who = cue.groupdict().get("who")
    cue_start = cue.start("who") if who else cue.start()
    clause_start, cut = _clause_left(text, sent_start, cue_start)
    before = text[clause_start:cue_start]
    extended = not _ADVERBS_END_RE.sub("", before).strip() and cut and not who
    if extended:
        clause_start = _clause_left(text, sent_start, max(sent_start, clause_start - 5))[0]  # "… and live in X"
        before = text[clause_start:cue_start]
    cue_text = text[cue_start : cue.end()]
    right_end = next(
        (m.start() for m in _BREAK_RE.finditer(text, hit.span[1], end.start() if end else len(text))), None
    )
    right = text[hit.span[1] : right_end if right_end is not None else (end.start() if end else len(text))]
    move = bool(cue.groupdict().get("move"))
    perfect = bool(cue.groupdict().get("perfect"))
    if move:
        if _MOVE_STALE_RE.search(before):
            return False
    elif STALE_RE.search(before) or CONTRACTED_NOT_RE.search(before) or past_state(before + cue_text, right):
        if not (perfect and holds_since(right) and not STALE_RE.search(before)):
            return False  # "I've lived in Oslo since 2019" holds now; "I've lived in Japan" need not
    elif perfect and not holds_since(right):
        return False
    lasting = (perfect or _PERFECT_BEFORE_RE.search(before) is not None) and holds_since(right)
    if not move and not lasting and stay(right):
        return False  # "I'm in Paris for a few days", "in Dubai on business until Thursday": a stay, not a home
    if irrealis(before + cue_text, right) or _LOCAL_IRREALIS_RE.search(before) or _INFINITIVE_RE.search(before):
        return False
    if _RELATIVE_BEFORE_RE.search(before) or _OTHERS_RE.search(before + (who or "")):
        return False
    participle = bool(cue.groupdict().get("part"))
    if extended and participle:
        return False  # "… and be located in Fremont": whose participle is it?
    if not who and not extended and not re.match(r"(?i:after|since)\b", cue_text):
        trimmed = _ADVERBS_END_RE.sub("", before)
        aux = _AUX_RE.search(trimmed)
        if aux is not None:
            trimmed = trimmed[: aux.start()]
        elif participle and trimmed.strip():
            return False  # "a dentist located in", "a student living in": the participle describes a noun
        if trimmed.strip() and _SUBJECT_WORD_RE.search(_ADVERBS_END_RE.sub("", trimmed)) is None:
            return False  # "the venue has been moved to", "an apartment is located in"
        if not trimmed.strip() and (aux is not None or clause_start != sent_start) and participle:
            if clause_start != sent_start or not _PERSON_PARTICIPLE_RE.match(cue_text):
                return False  # "Is located in San Mateo", "… and be located in Fremont"; "Is based in Lima" is a note
    left = text[sent_start:cue_start] + (who or "")  # "My parents and grandparents moved to": the whole subject
    return holder(left, ctx or _name_ctx(left), text[:clause_start]) is Holder.SUBJECT


_PERFECT_BEFORE_RE = re.compile(r"(?:\bhave|\bhas|['’]ve|['’]s)\s+(?:\w+\s+)?been\s+$", re.I)
"""Before a participle cue, a perfect that lasts: "I have been living in Paris for six months" is a home."""

_PERSON_PARTICIPLE_RE = re.compile(r"(?:based|living|residing|stationed)\b", re.I)
"""Participles said of a person: a note that opens "Is based in" is about the subject ("Is located in" is a thing's)."""

_NO_CTX_NAME_RE = re.compile(r"\b([A-Z][a-z]+)\b(?:['’]s)?\s*(?:\w+\s+){0,2}$")


def _name_ctx(left: str) -> Context:
    """Without a request context a name before the cue is taken for the subject ("Sam moved to Berlin")."""
    m = _NO_CTX_NAME_RE.search(left)
    slug = slugify(m.group(1)) if m is not None else ""
    return Context(f"user:{slug or 'subject'}", datetime(2000, 1, 1, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)


def current_places(text: str, ctx: Context | None = None) -> list[PlaceHit]:
    """The places `text` states the subject is in now: one per place cue that passes every check.

    The shared rule for places (timezone records here, `located_in` edges): a cue ("lives in",
    "is based in", "moved to", "works from", "is in", "works in the Berlin office"), then one whole
    place (`place_at`), then the scope checks: not in a question, not negated or past ("used to
    live", "grew up", "was based"; a past *move* counts: "moved to Texas last year"), not a plan,
    wish or hypothetical (`scope.irrealis`, "while I'm in", "to live in"), not another person's
    (`scope.holder`, a relative clause "who lives in", "others live in"), and not a participle
    describing a thing or someone else ("a dentist located in", "the venue was moved to").

    Args:
        text: any text; never raises.
        ctx: the request (its subject's name counts as the subject); None takes a name before the
            cue for the subject.

    Returns:
        The places in text order (a place's `timezone` may be None: "I live in the USA").
    """
    out: list[PlaceHit] = []
    for cue in _PLACE_CUE_RE.finditer(text) if may_match(text, _PLACE_CUE_GATE_RE) else ():
        hit = place_at(text, cue.end())
        if hit is None or (cue.group("workin") and not _WORK_IN_END_RE.match(text, hit.span[1])):
            continue
        if _scope_ok(text, cue, hit, ctx):
            out.append(hit)
    for cue in _OFFICE_CUE_RE.finditer(text) if may_match(text, _OFFICE_CUE_GATE_RE) else ():
        hit = place_at(text, cue.end())
        if hit is None and (
            m := re.match(
                r"([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2})\s+" + OFFICE_WORDS + r"\b", text[cue.end() :], re.I
            )
        ):
            hit = place_at(text[: cue.end() + m.end(1)], cue.end())  # the office word ends the name: "the London HQ"
        if hit is not None and _OFFICE_AFTER_RE.match(text, hit.span[1]) and _scope_ok(text, cue, hit, ctx):
            out.append(hit)
    return out
