"""Shared machinery of the pair generator: subjects, template rendering, domains, phrasing splits.

Template syntax: ``{S}`` subject, ``{P}`` possessive, ``{O}`` object, ``{pr}``/``{pp}``/``{po}``
the subject/possessive/object pronoun (a second mention), ``[verb]`` a verb conjugated for the
subject (``[prefer]`` → "prefers" / "prefer" for "I"), and ``{key}`` any value from the context.

Phrasing splits: every phrasing has one home split, `split_of` — a stable hash of its text alone
(1 in 10 test, 1 in 10 dev, the rest train) — so adding a phrasing to a list moves no other, and a
text has the same split in every list it is in (a concatenation of lists splits like its parts).
A pair of one split draws a list's phrasings from that split's share (`part`): the items whose home
it is. A list with none there is drawn from the other held-out split's items (dev ↔ test), and a
list with no held-out item at all is shared: every split draws from all of it.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from writegate.training.data.pools import Person, Pools

SPLITS: tuple[str, ...] = ("train", "dev", "test")
HELD_OUT_EVERY = 10  # one phrasing in this many is test, one dev


_IRREGULAR: dict[str, tuple[str, str]] = {
    "be": ("is", "am"),
    "have": ("has", "have"),
    "do": ("does", "do"),
    "don't": ("doesn't", "don't"),
    "isn't": ("isn't", "am not"),
    "was": ("was", "was"),
    "wasn't": ("wasn't", "wasn't"),
    "go": ("goes", "go"),
    "haven't": ("hasn't", "haven't"),
}
_MODALS = frozenset({"can", "can't", "will", "won't", "should", "must", "may", "might", "could", "would"})


def conj(verb: str, first_person: bool) -> str:
    """Conjugate a base-form verb for a third-person or first-person singular subject."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][1 if first_person else 0]
    if first_person or verb in _MODALS:
        return verb
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


@dataclass(frozen=True)
class Subj:
    """How one text refers to its subject."""

    S: str
    P: str
    O: str  # noqa: E741 - the {O} of the template syntax
    pr: str
    pp: str
    po: str
    first: bool = False


def _pron(gender: str) -> tuple[str, str, str]:
    return ("she", "her", "her") if gender == "f" else ("he", "his", "him")


def named(p: Person, form: str) -> Subj:
    """A named third-person subject: form is "first", "full" or "pron"."""
    pr, pp, po = _pron(p.gender)
    if form == "pron":
        return Subj(pr, pp, po, pr, pp, po)
    name = p.first if form == "first" else p.full
    return Subj(name, f"{name}'s", name, pr, pp, po)


def user(p: Person, form: str) -> Subj:
    """The store's own user: form is "the user", "User", "I" or "pron"."""
    pr, pp, po = _pron(p.gender)
    if form == "I":
        return Subj("I", "my", "me", "I", "my", "me", first=True)
    if form == "pron":
        return Subj(pr, pp, po, pr, pp, po)
    return Subj(form, f"{form}'s", form, pr, pp, po)


def relative(owner: Subj, relation: str, gender: str) -> Subj:
    """Another person in the same frame ("her sister", "Priya's manager")."""
    pr, pp, po = _pron(gender)
    base = f"{owner.P} {relation}"
    return Subj(base, f"{base}'s", base, pr, pp, po)


def third(name: str, gender: str) -> Subj:
    """A plain third-person subject (another named person)."""
    pr, pp, po = _pron(gender)
    return Subj(name, f"{name}'s", name, pr, pp, po)


_FIRST_MAP = {
    "has": "I have",
    "is": "I am",
    "doesn't": "I don't",
    "isn't": "I'm not",
    "hasn't": "I haven't",
    "was not": "I wasn't",
}
_FIRST_FIX = re.compile(r"\bI (has|is|doesn't|isn't|hasn't|was not)\b")
_Q_FIX = re.compile(r"\b(does|is|has) I\b")
_Q_MAP = {"does": "do I", "is": "am I", "has": "have I"}
_ARTICLE = re.compile(r"\b([Aa]) ((?:[aeioAEIO]|in-|un[a-z])\w*)")
_TOK = re.compile(r"\{(\w+)\}|\[([a-z']+)\]")


def render(template: str, ctx: dict[str, str], subj: Subj) -> str:
    """Fill a template from a subject and a context; raises KeyError on a missing key."""

    mentioned = False

    def sub(m: re.Match[str]) -> str:
        nonlocal mentioned
        key, verb = m.group(1), m.group(2)
        if verb is not None:
            return conj(verb, subj.first)
        if key in ("S", "P", "O"):
            # a second mention of the subject in one text is a pronoun
            if mentioned:
                return getattr(subj, {"S": "pr", "P": "pp", "O": "po"}[key])
            mentioned = True
            return getattr(subj, key)
        if key in ("pr", "pp", "po"):
            return getattr(subj, key)
        return ctx[key]

    text = _TOK.sub(sub, template)
    if subj.first:
        text = _FIRST_FIX.sub(lambda m: _FIRST_MAP[m.group(1)], text)
        text = _Q_FIX.sub(lambda m: _Q_MAP[m.group(1)], text)
    text = _ARTICLE.sub(r"\1n \2", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    return text[:1].upper() + text[1:] if text else text


_LOWER_OK = {
    "the",
    "she",
    "he",
    "her",
    "his",
    "my",
    "user",
    "no",
    "our",
    "all",
    "every",
    "a",
    "an",
    "meetings",
    "it",
    "there",
    "they",
    "nobody",
    "someone",
    "approvals",
    "deploys",
    "since",
    "as",
}


def lower_first(text: str, common: frozenset[str] = frozenset()) -> str:
    """Lower-case the first letter when the first word is a common word (not a name, "I" or "Q:")."""
    first = text.split(" ", 1)[0].lower().strip(",:")
    return text[:1].lower() + text[1:] if first in _LOWER_OK or first in common else text


_WORD = re.compile(r"^[A-Z][a-z']+[,:]?$")
_PROPER = frozenset({"slack", "salesforce", "q", "zoom", "teams", "whatsapp"})


def common_starts(lists: Sequence[Sequence[str]]) -> frozenset[str]:
    """Lower-cased first words of templates that begin with a literal common word."""
    out: set[str] = set()
    for items in lists:
        for t in items:
            w = t.split(" ", 1)[0]
            if _WORD.match(w) and w.lower().strip(",:") not in _PROPER:
                out.add(w.lower().strip(",:"))
    return frozenset(out)


@dataclass(frozen=True)
class Domain:
    """One slot family: how its facts are sampled and phrased.

    kind: "single" (changeable single-valued), "multi" (values accumulate) or "immutable".
    topic: the coarse topic ("comms", "bio"…): an "other topic" negative comes from another one.
    Template lists (each a list of phrasings, split between train/dev/test by `split_of`):
      state: assert the value ({v} …); change: an explicit change to the new value ({old} = old);
      stop: the old value ended; neg: deny the existing value; elab: the existing value plus
      detail; general: a less specific statement of the value; negre: a negated or imperative
      restatement of the same value; also: add a second value (multi only).
    max_gap_days: a dated, short-lived fact ("on call this weekend", "out until March 3"): pairs are
      at most this many days apart, since two such notes years apart are about two different events.
    """

    slot: str
    kind: str
    sample: Callable[[Pools], Ctx]
    state: tuple[str, ...]
    change: tuple[str, ...] = ()
    stop: tuple[str, ...] = ()
    neg: tuple[str, ...] = ()
    elab: tuple[str, ...] = ()
    general: tuple[str, ...] = ()
    negre: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    topic: str = ""
    person_subject: bool = True
    free_values: bool = False  # values do not depend on the shared keys (any sample's value fits any base)
    max_gap_days: int | None = None


@dataclass
class Ctx:
    """One sampled fact: shared keys, the existing value A, an incompatible value B, an extra value C."""

    base: dict[str, str]
    A: dict[str, str]
    B: dict[str, str]
    C: dict[str, str] | None = None
    person: Person | None = None
    other_base: dict[str, str] | None = None  # another entity in the same frame (entity domains)
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(
        cls, base: dict[str, str], a: str, b: str, person: Person, extra: dict[str, str], *, added: bool = False
    ) -> Ctx:
        """The fact of a slot whose value is one string: A = `a`, B = `b`; `added`: an accumulating slot, where
        `b` is also C (a value added to `a`)."""
        return Ctx(base, {"v": a}, {"v": b}, C={"v": b} if added else None, person=person, extra=extra)

    def a(self) -> dict[str, str]:
        return {**self.base, **self.extra, **self.A}

    def b(self) -> dict[str, str]:
        old = {f"old_{k}" if k != "v" else "old": v for k, v in self.A.items()}
        return {**self.base, **self.extra, **self.B, **old}

    def c(self) -> dict[str, str]:
        assert self.C is not None
        return {**self.base, **self.extra, **self.C, "old": self.A["v"]}


def split_of(item: str) -> str:
    """The home split of a phrasing: a stable hash of its text alone.

    Args:
        item: the phrasing as written in its list.

    Returns:
        "test" for 1 in `HELD_OUT_EVERY` phrasings, "dev" for another 1 in `HELD_OUT_EVERY`, else "train".
    """
    bucket = int.from_bytes(hashlib.sha256(item.encode()).digest()[:8], "big") % HELD_OUT_EVERY
    return "test" if bucket == 0 else ("dev" if bucket == 1 else "train")


def partition(items: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Each phrasing under its home split (`split_of`); every item is under exactly one split."""
    out: dict[str, list[str]] = {s: [] for s in SPLITS}
    for x in items:
        out[split_of(x)].append(x)
    return {s: tuple(v) for s, v in out.items()}


def share(items: Sequence[str], split: str) -> tuple[str, ...]:
    """The phrasings a pair of `split` may draw from `items` (the module docstring's rule).

    Args:
        items: one phrasing list (or a concatenation of lists).
        split: "train", "dev" or "test".

    Returns:
        The items whose home is `split`; with none, the other held-out split's items (dev ↔ test);
        with no held-out item either, all of `items`.
    """
    homes = partition(items)
    if homes[split]:
        return homes[split]
    other = {"dev": "test", "test": "dev"}.get(split)
    if other is not None and homes[other]:
        return homes[other]
    return tuple(items)


_SHARE_CACHE: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def part(items: Sequence[str], split: str) -> tuple[str, ...]:
    """`share` of `items` for `split` (memoised)."""
    key = (tuple(items), split)
    if key not in _SHARE_CACHE:
        _SHARE_CACHE[key] = share(key[0], split)
    return _SHARE_CACHE[key]


def choose(rng: random.Random, items: Sequence[str], split: str) -> str:
    """A random phrasing of `items` from `split`'s share."""
    return rng.choice(part(items, split))
