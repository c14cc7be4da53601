"""Entity ids (`kind:slug`) and subject resolution for the rule families.

Slugs are lowercase ASCII (accents folded with unicodedata), words joined by hyphens:
`Michelle Chen` → `michelle-chen`, `São Paulo` → `sao-paulo`.

Subject resolution (docs/normalizer.md, "The values the rules give"): first person ("I", "my", "me"…), "the user" / "user", a
third-person pronoun ("she", "he", "they"…) with no other person named before it in the text, and
a name whose slug matches the subject's slug (or the first word of it: "Sam" for `user:sam-lee`)
resolve to the request's subject.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from writegate.normalizer.clock import DAY_NAMES, MONTH_NAMES
from writegate.normalizer.context import Context

MAX_SLUG_LEN = 60
"""Slugs are cut here so that slots (`edge.<type>.<source>.<target>`) stay within 300 chars."""

FIRST_PERSON: frozenset[str] = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our"})
THIRD_PERSON: frozenset[str] = frozenset(
    {"she", "he", "they", "her", "him", "them", "his", "hers", "their", "theirs", "herself", "himself", "themselves"}
)
USER_WORDS: frozenset[str] = frozenset({"the user", "user", "the user's", "user's"})

_NON_SLUG_RE = re.compile(r"[^a-z0-9]+")
_POSSESSIVE_RE = re.compile(r"(?:'s|’s|'|’)$")


@lru_cache(maxsize=8192)
def slugify(name: str) -> str:
    """Lowercase, ASCII-folded, hyphen-joined slug of `name` ("" when nothing is left).

    Args:
        name: any text, e.g. "Michelle Chen" or "São Paulo".

    Returns:
        The slug, at most `MAX_SLUG_LEN` characters, e.g. "michelle-chen".
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    slug = _NON_SLUG_RE.sub("-", folded).strip("-")
    return slug[:MAX_SLUG_LEN].rstrip("-")


def entity_id(kind: str, name: str) -> str | None:
    """`kind:slug` for `name`, or None when the name slugs to nothing."""
    slug = slugify(_POSSESSIVE_RE.sub("", name.strip()))
    return f"{kind}:{slug}" if slug else None


def strip_possessive(mention: str) -> str:
    """`Sam` for `Sam's`; unchanged otherwise."""
    return _POSSESSIVE_RE.sub("", mention.strip())


def is_subject_reference(mention: str, ctx: Context) -> bool:
    """True when `mention` names the request's subject without a pronoun: first person, "the user",
    or a name whose slug is the subject's slug or its first word."""
    low = strip_possessive(mention).lower()
    if low in FIRST_PERSON or low in USER_WORDS:
        return True
    slug = slugify(low)
    subj = ctx.subject_slug
    return bool(slug) and (slug == subj or slug == subj.split("-", 1)[0] or slug == subj.split("_", 1)[0])


def is_pronoun(mention: str) -> bool:
    """True for a third-person pronoun ("she", "his"…)."""
    return strip_possessive(mention).lower() in THIRD_PERSON


def resolve_person(mention: str, ctx: Context, antecedent: str | None = None) -> str | None:
    """Entity id of a person mention.

    Args:
        mention: "I", "my", "the user", "she", "Sam", "Grace Hopper's"…
        ctx: the request (its subject).
        antecedent: the entity id a third-person pronoun refers to when another person was named
            before it in the text; None means the pronoun resolves to the subject.

    Returns:
        `ctx.subject`, `person:<slug>`, or None when the mention slugs to nothing.
    """
    if is_subject_reference(mention, ctx):
        return ctx.subject
    if is_pronoun(mention):
        return antecedent or ctx.subject
    return entity_id("person", mention)


_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’.-]*(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'’-]*|de|van|von|da|del|der|le|la|bin|al|di|du))*"
_NAME_RE = re.compile(_NAME)
_NAME_STOP: frozenset[str] = frozenset(
    {
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "we",
        "they",
        "she",
        "he",
        "i",
        "our",
        "my",
        "their",
        "his",
        "her",
        "everyone",
        "nobody",
        "someone",
        "anyone",
        "there",
        "here",
        "a",
        "an",
        "as",
        "since",
        "after",
        "before",
        "in",
        "on",
        "at",
        "from",
        "per",
        "now",
        "then",
        "today",
        "yesterday",
        "also",
        "and",
        "but",
        "if",
        "when",
        "while",
        "user",
        "please",
        "no",
        "not",
        "all",
        "each",
        "every",
        "both",
        "what",
        "who",
        "which",
        *(name.lower() for name in DAY_NAMES + MONTH_NAMES),
    }
)
_SENT_SUBJECT_RE = re.compile(
    r"(?:^|[.!?;]\s+)(" + _NAME + r")(?:'s|’s)?\s+(?:\w+\s+)?"
    r"(?:is|was|has|had|joined|reports|reported|works|worked|manages|managed|runs|ran|leads|led|owns|owned|"
    r"took|moved|prefers|likes|wants|said|says|started|became|got|lives|needs|asked|handles|approves|"
    r"signs|manager|boss|team|role)\b"
)


def name_mention(text: str) -> str | None:
    """The leading proper name of `text` ("Grace Hopper" for "Grace Hopper and Lee"), or None."""
    m = _NAME_RE.match(text)
    if not m:
        return None
    words = m.group(0).rstrip(".'’-").split()
    while words and words[-1].lower() in _NAME_STOP:
        words.pop()
    if not words or words[0].lower() in _NAME_STOP:
        return None
    return " ".join(words)


def pronoun_antecedent(before: str, ctx: Context) -> str | None:
    """The person a third-person pronoun at the end of `before` refers to, or None (the subject).

    The antecedent is the last sentence-leading proper name in `before` that is not the subject.
    """
    if not before:
        return None
    found: str | None = None
    for m in _SENT_SUBJECT_RE.finditer(before):
        name = name_mention(m.group(1))
        if name and not is_subject_reference(name, ctx) and not is_pronoun(name):
            found = name
    return entity_id("person", found) if found else None
