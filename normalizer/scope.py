"""Whose fact is it, and is it a current fact? Checks shared by the families that type a clause.

A typed record states a current fact about the request's subject. A rule family finds a cue (the
verb phrase it types: "lives in", "works as", "is a") and asks about the words around it, in the
cue's clause:

* `holder`: who the clause is about. "my brother is a doctor", "her family lives in Spain", "I have
  a sister who lives in Spain", "Maria lives in Rome" are about someone else; "I", "we", "the user",
  the subject's name, and a subject-less note ("Lives in Austin") are about the subject; a
  third-person pronoun is the subject only when no other person was named before it (design.md).
* `irrealis`: a plan, wish, hypothetical or future ("I want to move to Texas", "I'm moving to
  Florida soon", "saving to move", "when I am in Hong Kong", "if I lived in Paris").
* `past_state`: a state that no longer holds ("I was a teacher", "I grew up in Ohio", "I used to
  live in Paris", "I retired from nursing", "years ago").
* `stay`: being somewhere for a while, not living there ("in Paris for a few days", "in Dubai on
  business until Thursday", "in Tokyo for a conference this week").
* `holds_since`: a perfect that lasts until now ("I've lived in Oslo since 2019", "… for ten
  years"), where "I've lived in Japan" alone may be past.

Each check is a few precompiled regexes over at most one clause: the families call them only
after a cue matched, so they cost nothing on texts without one.
"""

from __future__ import annotations

import re
from enum import Enum

from writegate.normalizer.context import Context
from writegate.normalizer.entities import is_subject_reference

PERSON_NOUNS = (
    r"mom|mum|mother|dad|father|parents?|brothers?|sisters?|siblings?|wife|husband|spouse|partner|boyfriend"
    r"|girlfriend|fianc[eé]e?|sons?|daughters?|kids?|child|children|bab(?:y|ies)|family|grand(?:ma|pa|mother|father|"
    r"parents?|kids?|children|sons?|daughters?)|aunts?|uncles?|cousins?|nieces?|nephews?|in-laws?|friends?"
    r"|roommates?|room-mates?|neighbou?rs?|co-?workers?|colleagues?|classmates?|students?|clients?|customers?"
    r"|dogs?|cats?|pets?|twins?|relatives?|folks|people|guys?|men|women|man|woman|boy|girl|teacher|doctor|wife's|"
    r"husband's"
)
"""Nouns for people (and pets) other than the speaker: "my <noun>" is someone else."""

WORK_NOUNS = (
    r"managers?|boss(?:es)?|co-?founders?|assistants?|ceo|cto|cfo|coo|supervisors?|team\s+leads?|teammates?"
    r"|direct\s+reports?|directors?|vp"
)
"""Nouns for the people someone works with, read after a possessive: "my manager prefers …" is the
manager's preference ("I'm a director" is the speaker). "My team" is not among them: "my team's
standup" is the speaker's schedule too; `holder` alone reads "my team prefers …" as someone else."""

_OTHER_RE = re.compile(
    r"\b(?:my|our|his|her|their|your|a|an|the|one\s+of\s+my)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b(?:['’]s)?"
    r"|\b(?:my|our|his|her|their|your)\s+(?:[\w-]+\s+)?(?:" + WORK_NOUNS + r"|team)\b(?:['’]s)?"
    r"|\b\w+['’]s\s+(?:[\w-]+\s+)?(?:" + PERSON_NOUNS + "|" + WORK_NOUNS + r")\b"
    r"|\b(?:he|she|they|it|you|everyone|everybody|someone|somebody|nobody|people)\b",
    re.I,
)
_FIRST_PERSON_RE = re.compile(
    r"\b(?:i|i['’]m|i['’]ve|i['’]d|i['’]ll|we|we['’]re|we['’]ve|me|myself|the\s+user)\b", re.I
)
_RELATIVE_RE = re.compile(r"\b(?:who|that|which|whose)\b\s*(?:\w+\s+){0,2}$", re.I)
_NAME_BEFORE_RE = re.compile(r"(?:^|[\s,(])([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?:['’]s)?\s*(?:\w+\s+){0,2}$")
_NOT_NAMES = frozenset(
    {
        "i",
        "i'm",
        "i've",
        "i'd",
        "i'll",
        "we",
        "my",
        "our",
        "the",
        "a",
        "an",
        "and",
        "but",
        "so",
        "now",
        "currently",
        "also",
        "still",
        "recently",
        "just",
        "actually",
        "then",
        "today",
        "user",
        "he",
        "she",
        "they",
        "it",
        "you",
        "yes",
        "no",
        "well",
        "oh",
        "ah",
        "hi",
        "hello",
        "hey",
        "lol",
        "haha",
        "sure",
        "ok",
        "okay",
        "wow",
        "yeah",
        "lives",
        "live",
        "works",
        "work",
        "is",
        "am",
        "was",
        "based",
        "moved",
        "located",
        "in",
        "at",
        "on",
        "from",
    }
)

_IRREALIS_LEFT_RE = re.compile(
    r"\b(?:wants?\s+to|wanted\s+to|wanna|would|could|might|may|should|shall|will|gonna|going\s+to|['’]d|['’]ll"
    r"|hopes?|hoping|hoped|plans?|planning|planned|intends?|intending|thinking\s+(?:of|about)|think\s+about"
    r"|consider(?:s|ing)?|dreams?|dreaming|dreamed|wish(?:es|ing)?|sav(?:e|es|ing)(?:\s+up)?\s+(?:to|for)"
    r"|trying\s+to|tries\s+to|try\s+to|about\s+to|looking\s+to|looking\s+forward\s+to|can['’]?t\s+wait\s+to"
    r"|need\s+to|needs\s+to|have\s+to|has\s+to|if|unless|when|whenever|once|someday|one\s+day|eventually"
    r"|maybe|perhaps|possibly|probably|interested\s+in|excited\s+to|ready\s+to|decided\s+to|(?:am|are|is|['’]m|['’]re"
    r"|['’]s)\s+(?:\w+\s+)?(?:moving|relocating|heading|going|transferring|getting\s+transferred))\b",
    re.I,
)
_IRREALIS_RIGHT_RE = re.compile(
    r"\b(?:soon|someday|one\s+day|eventually|in\s+the\s+future|next\s+(?:week|month|year|summer|spring|fall|winter)"
    r"|in\s+(?:a\s+few|\d+|two|three|a\s+couple\s+of)\s+(?:days|weeks|months|years)|after\s+(?:i|we)\s+(?:retire|graduate)"
    r"|when\s+i\s+retire|one\s+of\s+these\s+days|if\s+)\b",
    re.I,
)
_PAST_LEFT_RE = re.compile(
    r"\b(?:was|were|used\s+to|grew\s+up|raised|born|previously|formerly|former|ex|retired|had\s+been|back\s+when"
    r"|once|before|until|in\s+the\s+past|years\s+ago|as\s+a\s+(?:kid|child|teen|teenager))\b"
    r"|\b(?:lived|worked)\b(?!\s+(?:here|there)\b)",
    re.I,
)
_PAST_RIGHT_RE = re.compile(
    r"\b(?:years\s+ago|ago|as\s+a\s+(?:kid|child|teen|teenager)|in\s+the\s+past|growing\s+up|when\s+i\s+was"
    r"|before\s+(?:i|we)|until\s+(?:recently|last)|in\s+(?:college|high\s+school))\b",
    re.I,
)


class Holder(str, Enum):
    """Who a clause states a fact about."""

    SUBJECT = "subject"
    OTHER = "other"


def holder(left: str, ctx: Context, earlier: str = "") -> Holder:
    """Who the fact whose cue follows `left` is about.

    Args:
        left: the cue's clause up to the cue ("My wife's family", "I have a sister who", "I").
        ctx: the request (its subject's name counts as the subject).
        earlier: the text before the clause; a third-person pronoun refers to someone else when
            that text names another person ("My mom is a nurse. She lives in Ohio.").

    Returns:
        `Holder.OTHER` when the clause's subject is another person, else `Holder.SUBJECT`
        (first person, "the user", the subject's name, or no subject at all: a note).
    """
    words = left.strip()
    if not words:
        return Holder.SUBJECT
    if _RELATIVE_RE.search(words) and _OTHER_RE.search(words):
        return Holder.OTHER  # "I have a sister who …"
    last_first = _last(_FIRST_PERSON_RE, words)
    last_other = _last(_OTHER_RE, words)
    name = _NAME_BEFORE_RE.search(words)
    if (
        name is not None
        and name.group(1).split()[0].lower() not in _NOT_NAMES
        and not is_subject_reference(name.group(1), ctx)
    ):
        last_other = max(last_other, name.start(1))
    if last_other < 0:
        return Holder.SUBJECT
    if last_first > last_other:
        return Holder.SUBJECT
    pronoun = re.fullmatch(r"(?i:he|she|they)", words[last_other:].split()[0]) is not None
    if pronoun and not _names_someone(earlier, ctx):
        return Holder.SUBJECT  # design.md: a pronoun with no other antecedent is the subject
    return Holder.OTHER


def _last(pattern: re.Pattern[str], text: str) -> int:
    start = -1
    for m in pattern.finditer(text):
        start = m.start()
    return start


def _names_someone(text: str, ctx: Context) -> bool:
    if not text.strip():
        return False
    if re.search(r"\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b", text, re.I):
        return True
    for m in re.finditer(r"(?:^|[.!?;]\s+)([A-Z][a-z]+)\b", text):
        if m.group(1).lower() not in _NOT_NAMES and not is_subject_reference(m.group(1), ctx):
            return True
    return False


def irrealis(left: str, right: str = "") -> bool:
    """True when the cue's clause states a plan, wish, hypothetical or future, not a current fact.

    Args:
        left: the clause up to and including the cue ("I am thinking of moving to", "I'm moving to",
            "when I am in").
        right: the clause after the cue's object ("soon", "next year").
    """
    return _IRREALIS_LEFT_RE.search(left) is not None or _IRREALIS_RIGHT_RE.search(right) is not None


def past_state(left: str, right: str = "") -> bool:
    """True when the clause states a state that no longer holds ("I was a nurse", "grew up in Ohio").

    A past *move* is a current fact ("I moved to Texas"): families call this only for states
    (live, be, work as).
    """
    return _PAST_LEFT_RE.search(left) is not None or _PAST_RIGHT_RE.search(right) is not None


_STAY_RE = re.compile(
    r"\bfor\s+(?:a|an|the|one|two|three|four|five|six|few|couple|several|[0-9]+)\b[^.;!?]{0,25}?"
    r"\b(?:days?|nights?|weeks?|weekend|months?|summer|winter|holidays?|conference|trip|visit|wedding|meeting|work|business)\b"
    r"|\bfor\s+(?:work|business|pleasure|vacation|holiday|fun|leisure)\b"
    r"|\bon\s+(?:holiday|vacation|business|leave|(?:a|my|the)\s+(?:[\w-]+\s+)?(?:trip|visit|holiday|vacation|break))\b"
    r"|\b(?:until|till|through)\b|\b(?:this|next)\s+(?:week|weekend|month)\b|\bover\s+the\s+(?:weekend|holidays?|break|summer)\b"
    r"|\bvisiting\b",
    re.I,
)
"""After a place, what makes being there a stay, not a home: a length of stay, a holiday or business, an end date."""


def stay(right: str) -> bool:
    """True when what follows a place makes being there a stay, not a home (a trip, a holiday, a visit).

    Args:
        right: the clause after the place ("for a few days on holiday", "on business until Thursday").
    """
    return _STAY_RE.search(right) is not None


_SINCE_RE = re.compile(
    r"^[^.;!?]{0,40}?\b(?:since\b|for\s+(?:the\s+(?:past|last)\s+)?(?:[\w-]+\s+){0,2}(?:years?|months?|decades?)\b|now\b)",
    re.I,
)


def holds_since(right: str) -> bool:
    """True when the clause after a perfect ("I've lived in Oslo") says it lasts until now ("since 2019").

    Args:
        right: the clause after the cue or its place.
    """
    return _SINCE_RE.search(right) is not None
