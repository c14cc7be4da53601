"""Label-preserving surface augmentation, applied alike to every text of every label.

Each function takes a rendered text and returns another surface form with the same meaning: a
speaker frame ("I noted that …", "Pretty sure …"), a chat or note shape ("ok so …", "Note to
self: …", "• …"), a trailing hedge (", I think", " iirc"), a predicate synonym ("prefers" → "favors"), or a typo in one common word. None of
these is a label's reason, so they are spread evenly over all labels (the phrasing lists are
split between train/dev/test by `core.part` like every other list).
"""

from __future__ import annotations

import random
import re

from writegate.training.data.core import choose, lower_first

# speaker frames and hedges that take the whole statement as a clause
FRAME_PRE: tuple[str, ...] = (
    "I noted that ", "I remember that ", "I was told ", "I heard ", "I think ", "I believe ", "Pretty sure ",
    "If I remember right, ", "From what I gather, ", "Apparently ", "As far as I know, ", "IIRC ", "Seems like ",
    "My understanding is that ", "Someone mentioned that ", "It sounds like ", "I gathered that ", "Word is ",
    "If I'm not mistaken, ", "I'm fairly sure ", "Unless I misheard, ", "I wrote down that ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~I could be wrong, but ", "~Last I heard, ", "~Rumor has it ", "~I'm told ", "~To my knowledge, ",
    "~As I understand it, ", "~I seem to recall that ", "~From memory, ", "~Going by what I heard, ",
    "~Supposedly, ", "~I reckon ", "~AFAIK ", "~Not sure, but I think ",
)
# chat-like and note-like openers
SHAPE_PRE: tuple[str, ...] = (
    "ok so ", "fyi ", "btw ", "hey — ", "quick note: ", "just so you know, ", "random but ", "oh and ",
    "Note to self: ", "Memo: ", "• ", "(note) ", "(from chat) ", ">> ", "Context: ", "Re the {topic} thread: ",
    "Fact: ", "Jotting this down: ", "Noting: ", "so, ", "for context, ", "keep in mind: ", "Remember: ",
    "Background: ", "Info: ", "Talked to {N} today — ", "After the call with {N}: ", "{N} in chat: ", "From my 1:1 with {N}: ",
    # v2.13 widening: "~" items are partitioned among themselves
    "~tl;dr: ", "~NB: ", "~re {topic}: ", "~Quick one: ", "~Snippet from the {topic} doc: ", "~For reference: ",
    "~Sidebar: ", "~→ ", "~1) ", "~pinging this here: ", "~{N} asked me to log this: ", "~Logging this: ",
    "~Saving for later: ", "~psst, ", "~From the {topic} channel: ",
)
HEDGE_POST: tuple[str, ...] = (
    ", I think", ", if I recall", " (I believe)", ", apparently", ", fwiw", " lol", " btw", " iirc",
    " — need to double-check", ", or so I was told", ", if that matters", " (good to know)", " :)", ", just fyi",
    ", as far as I know", " — noting it here", ", from memory", " (not 100% sure)", ", worth noting",
    # v2.13 widening: "~" items are partitioned among themselves
    "~, to my knowledge", "~ (unconfirmed)", "~, last I checked", "~ — I'd double-check", "~, I'm fairly sure",
    "~ (if memory serves)", "~ afaik", "~, or something like that", "~ (don't quote me)", "~ (grain of salt)",
    "~, supposedly", "~ (someone should verify)", "~ haha",
)
# predicate synonyms: (third-person form, first-person form) -> alternatives in the same two forms
SYNONYMS: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("prefers", "prefer"): (("likes", "like"), ("favors", "favor"), ("goes for", "go for"), ("would rather have", "would rather have")),
    ("likes", "like"): (("prefers", "prefer"), ("is fond of", "am fond of"), ("enjoys", "enjoy")),
    ("wants", "want"): (("would like", "would like"), ("asks for", "ask for"), ("needs", "need")),
    ("owns", "own"): (("is the owner of", "am the owner of"), ("has", "have")),
    ("works under", "work under"): (("reports to", "report to"), ("rolls up to", "roll up to")),
    ("reports to", "report to"): (("works under", "work under"), ("rolls up to", "roll up to"), ("answers to", "answer to")),
    ("handles", "handle"): (("takes care of", "take care of"), ("deals with", "deal with"), ("looks after", "look after")),
    ("manages", "manage"): (("runs", "run"), ("leads", "lead"), ("is in charge of", "am in charge of")),
    ("uses", "use"): (("works with", "work with"), ("relies on", "rely on"), ("sticks to", "stick to")),
    ("lives in", "live in"): (("resides in", "reside in"), ("is living in", "am living in"), ("makes a home in", "make a home in")),
    ("enjoys", "enjoy"): (("likes", "like"), ("is into", "am into"), ("loves", "love")),
    ("loves", "love"): (("adores", "adore"), ("really likes", "really like"), ("enjoys", "enjoy")),
    ("drives", "drive"): (("gets around in", "get around in"), ("uses", "use")),
    ("speaks", "speak"): (("can speak", "can speak"), ("knows", "know")),
    ("is responsible for", "am responsible for"): (("is in charge of", "am in charge of"), ("handles", "handle"), ("covers", "cover")),
    ("is based in", "am based in"): (("is located in", "am located in"), ("works out of", "work out of"), ("sits in", "sit in")),
    ("approves", "approve"): (("signs off on", "sign off on"), ("okays", "okay")),
}
_SYN_RX = re.compile(r"\b(I )?(" + "|".join(sorted({re.escape(w) for k in SYNONYMS for w in k}, key=len, reverse=True)) + r")\b")
_SYN_INDEX: dict[str, tuple[int, tuple[tuple[str, str], ...]]] = {w: (i, alts) for k, alts in SYNONYMS.items() for i, w in enumerate(k)}


def synonyms(text: str, rng: random.Random) -> str:
    """Replace one predicate by a synonym, keeping its person ("prefers" → "favors", "I prefer" → "I favor")."""
    hits = [m for m in _SYN_RX.finditer(text) if (m.group(1) is not None) == (_SYN_INDEX[m.group(2)][0] == 1)
            and not text.startswith((" to ", " being", " that", "-"), m.end(2))]
    if not hits:
        return text
    m = rng.choice(hits)
    i, alts = _SYN_INDEX[m.group(2)]
    rep = rng.choice(alts)[i]
    return text[: m.start(2)] + rep + text[m.end(2) :]


_COMMON_TYPO_WORDS = re.compile(r"\b(the|prefers|prefer|works|meetings|account|manager|reports|because|about|"
                                 r"usually|should|which|their|with|from|office|team|their|likes|really|always)\b")
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
