"""NLI pairs (premise `a`, hypothesis `b`) as memories of one scene; shared by `snli` and `oie_nli`.

A contradiction's two sides get the same observation time (one photo, one text): with a later NEW,
"a man is sitting" → "a man is standing" would be a change over time, i.e. `supersedes`. The other
labels hold at any time, so their NEW is observed at the same moment or later (`common.later`):
otherwise only change pairs would have a gap, and a gap alone would read as a change.

- contradiction → `contradicts` (a → b)
- entailment → `corroborates` (a → b: NEW less specific); reversed (b → a) → `elaborates` when the
  premise adds at least two content words and is at least two content words longer, `corroborates`
  when it adds none (a paraphrase), else left out (often a paraphrase in other words)
- neutral → `elaborates` (a → b: NEW adds detail about the same scene) for a third of the rows: on
  a sample about one in five neutral hypotheses conflicts with the premise or adds nothing
- one negative per premise → `unrelated`: a hypothesis of another premise of the same split,
  "hard" for about half (it shares a specific word with the premise, but not one of either text's
  first three content words, where the scene's main actor or object sits: sharing that reads as the
  same scene), "easy" (no shared word) for the rest or when no hard candidate qualifies
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

from writegate.classifier.labels import Label
from writegate.training.real.common import (
    Mapped,
    Row,
    content_list,
    content_words,
    jaccard,
    later,
    make,
    moment,
    norm,
    present,
    split_of,
    stable_int,
    stem,
)

NLI_LABELS = ("entailment", "neutral", "contradiction")
MIN_EXTRA_WORDS = 2
"""A reversed entailment is `elaborates` when the premise adds (and is longer by) this many content words."""
NEUTRAL_PER_MILLE = 333
"""Share of neutral rows kept as `elaborates`."""
HEAD = 3
"""A hard negative may not share any of either text's first `HEAD` content words."""
HARD_MAX_OVERLAP = 0.34
"""A hard negative shares a word with the premise but at most this Jaccard overlap of content words."""
MAX_SCAN = 40
# Words that every other scene shares: sharing only these does not make a negative "hard".
GENERIC = frozenset(
    stem(w)
    for w in """
man men woman women person people boy girl child children kid kids dog dogs guy lady group young little old
small large big front wear wearing shirt white black red blue green outside outdoor sit stand walk look hold
play top near next while background area someone another their other
""".split()
)


def examples(rows: Iterable[Row], source: str, hard: bool = True) -> Iterator[Mapped]:
    """Map NLI rows (`id`, `a`, `b`, `label`) to labelled pairs; group = the normalised premise.

    Args:
        rows: the source's rows, in file order.
        source: family prefix (`snli`, `oie_nli`).
        hard: draw about half the negatives "hard" (else all are "easy").
    """
    groups: dict[str, list[Row]] = {}
    for r in rows:
        if r.get("label") in NLI_LABELS and isinstance(r.get("a"), str) and isinstance(r.get("b"), str):
            groups.setdefault(norm(r["a"]), []).append(r)
    for group, members in groups.items():
        when = moment(group)
        for r in members:
            yield from present(row_pairs(r, group, when, source))
    yield from present(negatives(groups, source, hard))


def row_pairs(r: Row, group: str, when: datetime, source: str) -> Iterator[Mapped | None]:
    """The pairs of one NLI row: a contradiction at one moment `when`; the others at `when` or later (`later`)."""
    a, b, rid, label = r["a"], r["b"], str(r["id"]), r["label"]
    if label == "contradiction":
        yield make(group, f"{rid}:contradicts", Label.CONTRADICTS, f"{source}.contradiction", (a, when), (b, when))
    elif label == "neutral" and stable_int("neutral", rid) % 1000 < NEUTRAL_PER_MILLE:
        yield make(group, f"{rid}:elaborates", Label.ELABORATES, f"{source}.neutral", (a, when), (b, later(rid, when)))
    elif label == "entailment":
        yield make(
            group, f"{rid}:corroborates", Label.CORROBORATES, f"{source}.entailment", (a, when), (b, later(rid, when))
        )
        wa, wb = content_words(a), content_words(b)
        extra = wa - wb
        if len(extra) >= MIN_EXTRA_WORDS and len(wa) >= len(wb) + MIN_EXTRA_WORDS:
            yield make(
                group,
                f"{rid}:reversed",
                Label.ELABORATES,
                f"{source}.entailment_reversed",
                (b, when),
                (a, later(f"{rid}:reversed", when)),
            )
        elif not extra:
            yield make(
                group,
                f"{rid}:reversed",
                Label.CORROBORATES,
                f"{source}.paraphrase_reversed",
                (b, when),
                (a, later(f"{rid}:reversed", when)),
            )


def negatives(groups: dict[str, list[Row]], source: str, hard: bool) -> Iterator[Mapped | None]:
    """One `unrelated` pair per premise: a hypothesis of another premise in the same split."""
    by_split: dict[str, list[str]] = {}
    for g in groups:
        by_split.setdefault(split_of(g), []).append(g)
    for keys in by_split.values():
        keys.sort(key=lambda g: stable_int("order", g))
        index = word_index(keys, groups)
        for i, g in enumerate(keys):
            premise = groups[g][0]
            want_hard = hard and stable_int("hard", g) % 2 == 0
            found = hard_negative(g, premise["a"], index, groups) if want_hard else None
            kind = "hard" if found else "easy"
            found = found or easy_negative(i, premise["a"], keys, groups)
            if found is not None:
                when = moment(g)
                yield make(
                    g,
                    f"{premise['id']}:unrelated",
                    Label.UNRELATED,
                    f"{source}.negative_{kind}",
                    (premise["a"], when),
                    (found, later(g, when)),
                )


def word_index(keys: list[str], groups: dict[str, list[Row]]) -> dict[str, list[str]]:
    """Specific content word (not in the head) → the premises (group keys, in `keys` order) with it."""
    index: dict[str, list[str]] = {}
    for g in keys:
        premise = groups[g][0]["a"]
        for w in sorted(content_words(premise) - GENERIC - head(premise)):
            index.setdefault(w, []).append(g)
    return index


def hard_negative(g: str, premise: str, index: dict[str, list[str]], groups: dict[str, list[Row]]) -> str | None:
    """A hypothesis of another premise sharing a specific word with `premise`, not overlapping much."""
    mine, my_head = content_words(premise), head(premise)
    for w in sorted(mine - GENERIC - my_head, key=lambda w: (len(index.get(w, ())), w)):
        cands = index.get(w, [])
        start = stable_int("start", g, w) % max(len(cands), 1)
        for other in (cands[(start + k) % len(cands)] for k in range(min(len(cands), MAX_SCAN))):
            if other == g:
                continue
            for r in sorted(groups[other], key=lambda r: stable_int("hyp", g, str(r["id"]))):
                theirs = content_words(r["b"])
                shared = mine & theirs
                if (
                    w in shared
                    and not shared & (my_head | head(r["b"]))
                    and len(theirs - mine) >= 2
                    and jaccard(mine, theirs) <= HARD_MAX_OVERLAP
                ):
                    return str(r["b"])
    return None


def easy_negative(i: int, premise: str, keys: list[str], groups: dict[str, list[Row]]) -> str | None:
    """A hypothesis of a following premise (hash order) sharing no content word with `premise`."""
    mine = content_words(premise)
    for k in range(1, min(len(keys), MAX_SCAN)):
        other = keys[(i + k) % len(keys)]
        for r in groups[other]:
            if not mine & content_words(r["b"]):
                return str(r["b"])
    return None


def head(text: str) -> frozenset[str]:
    """The first `HEAD` content words: where a caption names its main actor or object."""
    return frozenset(content_list(text)[:HEAD])
