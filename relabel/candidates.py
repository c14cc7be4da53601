"""Candidate search: which pairs of one subject's records are classified.

For each record, up to K partners — first the records sharing one of its slots, nearest in time;
then, to fill K, the most similar by TF-IDF cosine over an inverted index (terms in more than
`max_postings` records of the subject are skipped, so a huge subject costs O(n·K), never all
pairs). Each unordered pair is kept once.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Sequence

from writegate.normalizer.schema import Record

DEFAULT_MAX_POSTINGS = 1000

_TERM_RE = re.compile(r"[^\W_]+")


def terms(text: str) -> list[str]:
    """Lexical terms: lowercased runs of letters/digits; one-letter words dropped."""
    return [t for t in _TERM_RE.findall(text.lower()) if len(t) > 1 or t.isdigit()]


class LexicalIndex:
    """TF-IDF cosine over an inverted index of one subject's records.

    Weights: (1 + ln tf) · (ln((1 + n) / (1 + df)) + 1), unit-normalized. Terms in more than
    `max_postings` records are left out of the search (they carry little weight and would make
    the search quadratic).
    """

    def __init__(self, docs: Sequence[Sequence[str]], max_postings: int = DEFAULT_MAX_POSTINGS) -> None:
        n = len(docs)
        counts = [Counter(d) for d in docs]
        df = Counter(t for c in counts for t in c)
        idf = {t: math.log((1 + n) / (1 + d)) + 1.0 for t, d in df.items()}
        self.vectors: list[list[tuple[str, float]]] = []
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, c in enumerate(counts):
            weights = sorted((t, (1.0 + math.log(tf)) * idf[t]) for t, tf in c.items())
            norm = math.sqrt(sum(w * w for _, w in weights)) or 1.0
            vec = [(t, w / norm) for t, w in weights]
            self.vectors.append(vec)
            for t, w in vec:
                if df[t] <= max_postings:
                    self.postings[t].append((i, w))

    def most_similar(self, i: int, k: int, exclude: set[int]) -> list[int]:
        """Up to `k` docs most similar to doc `i` (cosine > 0), best first; ties by position."""
        if k <= 0:
            return []
        scores: dict[int, float] = defaultdict(float)
        for t, w in self.vectors[i]:
            for j, wj in self.postings.get(t, ()):
                if j != i and j not in exclude:
                    scores[j] += w * wj
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        return [j for j, s in ranked[:k] if s > 0.0]


def slots_of(records: Sequence[Record]) -> tuple[str, ...]:
    """The conflict slots of a memory's records (`text` records have none)."""
    return tuple(sorted({r.slot for r in records if r.value.typed}))


def subject_pairs(
    times: Sequence[float],
    slots: Sequence[Sequence[str]],
    texts: Sequence[str],
    k: int,
    max_postings: int = DEFAULT_MAX_POSTINGS,
) -> list[tuple[int, int]]:
    """Candidate pairs of one subject's records (positions in canonical order).

    Args:
        times: each record's observed_at (POSIX seconds), ascending.
        slots: each record's slots.
        texts: each record's text.
        k: partners per record: same-slot ones nearest in time first, then the most similar.
        max_postings: see `LexicalIndex`.

    Returns:
        Unordered pairs once each as (older, newer) positions, sorted by (newer, older).
    """
    n = len(times)
    members: dict[str, list[int]] = defaultdict(list)
    for i, record_slots in enumerate(slots):
        for slot in record_slots:
            members[slot].append(i)
    index: LexicalIndex | None = None
    chosen: set[tuple[int, int]] = set()
    for i in range(n):
        near: set[int] = set()
        for slot in slots[i]:
            group = members[slot]
            at = bisect_left(group, i)
            near.update(group[max(0, at - k) : at])
            near.update(group[at + 1 : at + 1 + k])
        partners = sorted(near, key=lambda j: (abs(times[j] - times[i]), j))[:k]
        if len(partners) < k and n > 1:
            index = index or LexicalIndex([terms(t) for t in texts], max_postings)
            partners += index.most_similar(i, k - len(partners), exclude=set(partners))
        chosen.update((min(i, j), max(i, j)) for j in partners)
    return sorted(chosen, key=lambda p: (p[1], p[0]))
