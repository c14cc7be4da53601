"""Guards: pairs that must be `unrelated` whatever the model says, so no write can harm a store.

A pair is guarded, and labelled `unrelated` with probability 1, when:

- **other_subject**: the two memories belong to different subjects (`user:alice`'s new memory
  against `user:bob`'s candidate). labels.md, step 1: a different subject is unrelated, and a
  write about one subject never changes the state role of another subject's memory.
- **content_free**: either text has no content word: only punctuation, digits, symbols, emoji,
  single letters, English function words, placeholder or filler words ("test", "null",
  "lorem ipsum", "{}", "fact number 1", "ok thanks") or letter runs without a vowel ("sdfgh").
  Such a text states nothing, so it can neither change nor contradict a memory.

The checks are pure and read only the two texts and subjects: `columnar.encode_window` finds each
pair's guard, `columnar.post_rows` applies it after the model (and after fusion), so every entry
point — the service, `classify`, `relabel`, `eval` — labels the same way.
"""

from __future__ import annotations

import re

import numpy as np

from writegate.classifier.labels import LABEL2ID, LABELS, Label

_WORD = re.compile(r"[^\W\d_]+")
_VOWELS = frozenset("aeiouy")

FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those it its it's i me my mine we us our you your he him his she her
    they them their one ones someone something anything nothing everything
    is am are was were be been being do does did done have has had having will would shall should
    can could may might must
    and or but nor so yet if then than as of at by for from in into on onto to with without about
    over under up down out off again not no yes here there where when what which who whom why how
    all any some each every both either neither such very too also just only
    user user's users
    """.split()
)
"""Words that carry no fact on their own (English)."""

PLACEHOLDER_WORDS: frozenset[str] = frozenset(
    """
    test tests testing tested null nil none undefined nan true false empty blank default void
    lorem ipsum dolor sit amet consectetur adipiscing adipisicing elit sed eiusmod tempor incididunt
    ut labore et dolore magna aliqua enim minim veniam quis nostrud
    foo bar baz qux quux foobar asdf asdfg asdfgh asdfghjkl qwerty qwertz azerty xyz abc abcd abcdef
    placeholder dummy sample example todo tbd tba fixme xxx wip
    fact facts number numbers memory memories note notes text string value values item items entry
    entries data datum content contents record records info information stuff thing things
    ok okay k kk yep yeah yup nope hmm hm um uh ah oh lol haha thanks thank thx ty please pls
    hello world hi hey bye goodbye sure cool nice fine great whatever etc misc
    """.split()
)
"""Test, placeholder and filler words: a text made only of these states nothing."""


def is_content_word(word: str) -> bool:
    """A letter token that can carry a fact (not a function, placeholder or filler word, not noise)."""
    w = word.casefold()
    if len(w) < 2 or w in FUNCTION_WORDS or w in PLACEHOLDER_WORDS:
        return False
    if len(set(w)) == 1:  # "aaaa", "zzz"
        return False
    return not (w.isascii() and len(w) >= 3 and not _VOWELS.intersection(w))  # "sdfgh", "xkcd"


def is_content_free(text: str) -> bool:
    """True when `text` has no content word (see the module docstring)."""
    return not any(is_content_word(m.group()) for m in _WORD.finditer(text))


_UNRELATED = np.eye(len(LABELS), dtype=np.float64)[LABEL2ID[Label.UNRELATED.value]]
GUARD_NONE = -1
"""The guard code of a pair the model decides; a guard's code is its index in `Evidence`."""


def apply_guards(probs: np.ndarray, evidence: np.ndarray, guards: np.ndarray) -> None:
    """Set each guarded row (`guards[i] != GUARD_NONE`) to `unrelated` with probability 1 and its evidence
    to the guard, in place."""
    rows = np.flatnonzero(guards != GUARD_NONE)
    if len(rows):
        probs[rows] = _UNRELATED
        evidence[rows] = guards[rows]
