"""Whose edge is it: the entity left of an edge cue, read clause by clause.

The left mention is the nearest one before the cue in its clause; "and …" / ", …" carries the clause's
first source on ("Sam reports to Lee and manages the payments team"); no mention at all (notes such as
"Reports to Lee.", "Lives in Austin and manages the data team") means the request's subject. A left
phrase that is not a person ("my brother", "the team") gives nothing; a relative clause is about the
noun before it ("I have a sister who lives in Spain" gives nothing, "a doll named Kiwi that is a
singer" is Kiwi's); "mine" is someone else. A third-person pronoun with no named antecedent is the
subject only when the text does not also speak of the speaker (`scope.speaks_as_speaker`). April, June
and August are names when directly left of the cue ("June is Lee's boss"), not after a time word ("in
June").
"""

from __future__ import annotations

import re

from writegate.normalizer.context import Context
from writegate.normalizer.edge_words import NAME_STOP, WORD_RE
from writegate.normalizer.entities import FIRST_PERSON, THIRD_PERSON, pronoun_antecedent, resolve_person
from writegate.normalizer.scope import speaks_as_speaker

_SKIP_LEFT = frozenset(
    "a actually already also am an are be been being both can could currently directly effectively"
    " finally formally get gets getting got had has have is just longer may might never no not now"
    " officially recently should since still temporarily the then to today was will would".split()
)
"""Adverbs, auxiliaries and articles between a mention and its cue ("Sam has now officially …")."""
_CONJ = frozenset({"and", ",", "&", "who", "that", "which", "but", "so", "then", "where"})
_NAME_MONTHS = frozenset({"april", "june", "august"})
"""Months that are also first names: a name when directly left of the cue and not after a time word."""
_TIME_WORDS = frozenset(
    "after around before by during early from in last late mid next of on since starting this through"
    " till to until".split()
)
_NOTE_VERBS = frozenset(
    "also approves based became covers currently delegated delegates got handles has heads holds is"
    " joined just leads live lives living located manages managing moved now oversees owns prefers"
    " promoted recently relocated reporting reports runs signs sits started takes took was working works".split()
)
"""Words that open a subject-less note ("Lives in Austin and …"): its facts are the subject's."""
_CONTRACTION_RE = re.compile(r"['’](?:m|ve|d|ll|re|s)$", re.I)
_LEADING_RE = re.compile(
    r"^\s*(?:the\s+user\b|user\b|(?:i|she|he|they|we)\b|[A-ZÀ-ÖØ-Þ][\w-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w-]*)*)", re.I
)


def _words(text: str) -> list[str]:
    out: list[str] = []
    for word in WORD_RE.findall(text):
        low = word.lower()
        base = _CONTRACTION_RE.sub("", low)
        if base != low and (base in FIRST_PERSON or base in THIRD_PERSON):
            word = base  # "I'm" → "i", "she's" → "she"
        out.append(word)
    return out


def _month_name(words: list[str], i: int) -> bool:
    """True when words[i] ("June") is a first name: the last word left of the cue, not after a time word."""
    return (
        i == len(words) - 1 and words[i].lower() in _NAME_MONTHS and (i == 0 or words[i - 1].lower() not in _TIME_WORDS)
    )


_RELATIVE_END_RE = re.compile(r"(?P<before>[\w'’-]+)\s*,?\s*(?:who|that|which)\s*$", re.I)


def _leading_mention(clause: str) -> list[str]:
    """The clause's leading person mention ("The user switched careers and …" → ["user"])."""
    m = _LEADING_RE.match(clause)
    if not m:
        return []
    if m.group(0).split()[0].lower() in _NOTE_VERBS:
        return ["user"]  # a subject-less note ("Lives in Austin and manages …"): the subject's facts
    kind, mentions = left_mention(m.group(0))
    return mentions if kind == "people" else []


def left_mention(left: str) -> tuple[str, list[str]]:
    """Classify the text left of a cue: ("empty"|"conj"|"none"|"people", mentions).

    Args:
        left: the clause up to the cue.

    Returns:
        "empty" (no mention: the subject or the clause's first source), "conj" (after "and", "who"…),
        "none" (a phrase that is no person), or "people" with the names or pronouns.
    """
    words = _words(left)
    while words and words[-1].lower() in _SKIP_LEFT:
        words.pop()
    if not words:
        return "empty", []
    last = words[-1].lower()
    if last in _CONJ:
        return "conj", []
    if last in FIRST_PERSON or last in THIRD_PERSON or last in {"user", "user's", "user’s"}:
        return "people", [last]
    names: list[str] = []
    current: list[str] = []
    i = len(words) - 1
    while i >= 0:
        word = words[i]
        low = word.lower()
        if word[:1].isupper() and (low.removesuffix("'s").removesuffix("’s") not in NAME_STOP or _month_name(words, i)):
            current.insert(0, word.removesuffix("'s").removesuffix("’s"))
        elif (word in (",", "&") or low == "and") and current:
            names.insert(0, " ".join(current))
            current = []
        else:
            break
        i -= 1
    if current:
        names.insert(0, " ".join(current))
    if not names or words[-1] in (",", "&") or words[-1].lower() == "and":
        return "none", []
    return "people", names


class Clause:
    """Extraction state for one clause: the first source carries over to "and …".

    Args:
        text: the clause.
        ctx: the request.
        before: the text before the clause (a pronoun's antecedent).
        whole: the whole text (does it speak of the speaker as "I"); default: `before` and `text`.
    """

    def __init__(self, text: str, ctx: Context, before: str, whole: str = "") -> None:
        self.text = text
        self.ctx = ctx
        self.before = before
        self.whole = whole or f"{before} {text}"
        self.first_sources: list[str] | None = None

    def person(self, mention: str) -> str | None:
        """The id of the person `mention` names ("Lee", "she", "my", "the user"), or None."""
        antecedent = pronoun_antecedent(self.before, self.ctx)
        if mention.lower() in {"mine", "ours"}:
            return None  # "Mine is a lawyer": someone of mine, not me
        if antecedent is None and mention.lower() in THIRD_PERSON and speaks_as_speaker(self.whole):
            return None  # "he"/"she" beside "I" is someone else, whom the text does not name
        return resolve_person(mention, self.ctx, antecedent)

    def sources(self, left: str, possessive: str | None) -> list[str]:
        """Whose fact a cue states: the mention left of it, or the possessive before it ("my", "Lee's").

        Args:
            left: the clause up to the cue.
            possessive: the cue's own possessive ("my manager is"), if any.
        """
        if possessive and possessive.lower() not in {"'s", "’s"}:
            pid = self.person(possessive.split("'")[0].split("’")[0].replace("the ", ""))
            return [pid] if pid else []
        kind, mentions = left_mention(left)
        if kind == "empty":
            out = self.first_sources or [self.ctx.subject]
        elif kind == "conj" and (rel := _RELATIVE_END_RE.search(left)):
            # "I have a sister who lives in Spain", "a doll named Katie that is a dancer": the fact is the
            # noun's or name's before the relative pronoun, never the clause subject's
            named_kind, named = left_mention(left[: rel.end("before")])
            people = named_kind == "people" and not left.rstrip().lower().endswith("which")
            out = [p for p in (self.person(n) for n in named) if p] if people else []
        elif kind == "conj":
            out = self.first_sources or [p for p in (self.person(m) for m in _leading_mention(self.text)) if p]
        elif kind == "none":
            out = []
        else:
            out = [p for p in (self.person(m) for m in mentions) if p]
        if self.first_sources is None and out:
            self.first_sources = out
        return out
