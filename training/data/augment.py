"""Label-preserving surface augmentation, applied alike to every text of every label.

Each function takes a rendered text and returns another surface form with the same meaning: a
speaker frame ("I noted that …", "Pretty sure …"), a chat or note shape ("ok so …", "Note to
self: …", "• …"), a trailing hedge (", I think", " iirc"), a predicate synonym ("prefers" →
"favors"), or a typo in one common word. None of these is a label's reason, so they are spread
evenly over all labels. The lists are in ``phrases/augment.toml``; frames, shapes and hedges are
split between train/dev/test by `core.part` like every other list, synonyms are shared.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from writegate.training.data.core import choose, lower_first
from writegate.training.data.phrasebook import PhraseDataError, PhraseLists

_LISTS = PhraseLists("augment")
FRAME_PRE: tuple[str, ...] = _LISTS["frame_pre"]  # speaker frames and hedges that take the whole statement as a clause
SHAPE_PRE: tuple[str, ...] = _LISTS["shape_pre"]  # chat-like and note-like openers
HEDGE_POST: tuple[str, ...] = _LISTS["hedge_post"]  # trailing hedges and chat fillers


def _forms(path: Path, key: str, text: str) -> tuple[str, str]:
    """A "third person / first person" entry of the synonym table."""
    third, sep, first = text.partition(" / ")
    if not sep or not third.strip() or not first.strip():
        raise PhraseDataError(path, key, f'{text!r}: expected "third person / first person"')
    return third.strip(), first.strip()


def synonym_table(lists: PhraseLists) -> dict[tuple[str, str], tuple[tuple[str, str], ...]]:
    """The ``[synonyms]`` table of an augment file as (third-person, first-person) form pairs.

    Args:
        lists: the loaded augment file.

    Returns:
        Each predicate's two forms → its alternatives in the same two forms.

    Raises:
        PhraseDataError: an entry is not "third person / first person".
    """
    return {
        _forms(lists.path, f"synonyms.{k}", k): tuple(_forms(lists.path, f"synonyms.{k}", x) for x in alts)
        for k, alts in lists.table("synonyms").items()
    }


SYNONYMS = synonym_table(_LISTS)  # predicate synonyms, shared by every split
_SYN_RX = re.compile(
    r"\b(I )?(" + "|".join(sorted({re.escape(w) for k in SYNONYMS for w in k}, key=len, reverse=True)) + r")\b"
)
_SYN_INDEX: dict[str, tuple[int, tuple[tuple[str, str], ...]]] = {
    w: (i, alts) for k, alts in SYNONYMS.items() for i, w in enumerate(k)
}


def synonyms(text: str, rng: random.Random) -> str:
    """Replace one predicate by a synonym, keeping its person ("prefers" → "favors", "I prefer" → "I favor")."""
    hits = [
        m
        for m in _SYN_RX.finditer(text)
        if (m.group(1) is not None) == (_SYN_INDEX[m.group(2)][0] == 1)
        and not text.startswith((" to ", " being", " that", "-"), m.end(2))
    ]
    if not hits:
        return text
    m = rng.choice(hits)
    i, alts = _SYN_INDEX[m.group(2)]
    rep = rng.choice(alts)[i]
    return text[: m.start(2)] + rep + text[m.end(2) :]


_COMMON_TYPO_WORDS = re.compile(
    r"\b(the|prefers|prefer|works|meetings|account|manager|reports|because|about|"
    r"usually|should|which|their|with|from|office|team|their|likes|really|always)\b"
)
_SKIP_LEAD = re.compile(r"[:—?]")


def _lead_ok(text: str) -> bool:
    """A frame may only open texts whose first words hold no marker or question."""
    lead = " ".join(text.split()[:5])
    return not _SKIP_LEAD.search(lead) and not text.startswith(("Q:", "- ", "* ", "• "))


def frame(text: str, rng: random.Random, split: str, common: frozenset[str], ctx: dict[str, str]) -> str:
    """Wrap the text in a speaker frame or a hedge ("Pretty sure …", "I was told …")."""
    if not _lead_ok(text):
        return text
    return choose(rng, FRAME_PRE, split) + lower_first(text, common)


def shape(text: str, rng: random.Random, split: str, common: frozenset[str], ctx: dict[str, str]) -> str:
    """Give the text a chat or note shape ("ok so …", "Note to self: …", "• …"); ctx has "topic" and "N"."""
    if text.startswith(("- ", "* ", "Note:", "Memory:")):
        return text
    pfx = choose(rng, SHAPE_PRE, split).replace("{topic}", ctx["topic"]).replace("{N}", ctx["N"])
    body = lower_first(text, common) if pfx[:1].islower() or pfx.endswith((", ", "so ", "— ")) else text
    return pfx + body


def hedge(text: str, rng: random.Random, split: str) -> str:
    """Append a trailing hedge or chat filler (", I think", " iirc")."""
    if "?" in text:
        return text
    end = "." if text.endswith(".") and rng.random() < 0.5 else ""
    return text.rstrip(".") + choose(rng, HEDGE_POST, split) + end


def typo(text: str, rng: random.Random) -> str:
    """Swap two adjacent letters of one common word (never a value, name or number)."""
    hits = list(_COMMON_TYPO_WORDS.finditer(text))
    if not hits:
        return text
    m = rng.choice(hits)
    w = m.group(0)
    spots = [i for i in range(1, len(w) - 1) if w[i] != w[i + 1]]  # swapping equal letters would change nothing
    if not spots:
        return text
    i = rng.choice(spots)
    w2 = w[:i] + w[i + 1] + w[i] + w[i + 2 :]
    return text[: m.start()] + w2 + text[m.end() :]


def augment(text: str, rng: random.Random, split: str, common: frozenset[str], ctx: dict[str, str]) -> str:
    """Apply zero or more label-preserving surface changes (rates equal for every label and side)."""
    x = rng.random()
    if x < 0.14:
        text = frame(text, rng, split, common, ctx)
    elif x < 0.26:
        text = shape(text, rng, split, common, ctx)
    if rng.random() < 0.35:
        text = synonyms(text, rng)
    if rng.random() < 0.1:
        text = hedge(text, rng, split)
    if rng.random() < 0.05:
        text = typo(text, rng)
    return text
