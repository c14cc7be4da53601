"""Candidate search: which pairs of one subject's records are classified.

For each record, up to K partners — first the records sharing one of its slots, nearest in time;
then, to fill K, the most similar by the retrieval chosen (`Retrieval`):

- `meaning`: cosine similarity of sentence embeddings (`classifier.embedder`), exact top-K over
  the subject in blocks (`nearest`): a subject's vectors are never all compared at once, and a
  subject of more than `SPILL_VECTORS` memories keeps its vectors in a temporary file;
- `words`: TF-IDF cosine over an inverted index (terms in more than `max_postings` records of the
  subject are skipped, so a huge subject costs O(n·K), never all pairs);
- `both`: the two rankings taken in turn (meaning first).

Each unordered pair is kept once.
"""

from __future__ import annotations

import math
import re
import tempfile
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum

import numpy as np

from writegate.normalizer.schema import Record


class Retrieval(str, Enum):
    """How a record's partners beyond its same-slot ones are found."""

    MEANING = "meaning"
    WORDS = "words"
    BOTH = "both"

    @property
    def embeds(self) -> bool:
        """Whether this retrieval needs the subject's embeddings."""
        return self is not Retrieval.WORDS


DEFAULT_RETRIEVAL = Retrieval.BOTH
"""Chosen by recall of planted conflict pairs (docs/relabel.md, "Candidates")."""
BLOCK = 2048
"""Rows (and columns) per block of `nearest`: a block's similarities take BLOCK² · 4 bytes (16 MiB)."""
SPILL_VECTORS = 65536
"""A subject with more memories keeps its vectors in a temporary file (`subject_vectors`), not in memory."""
EMBED_CHUNK = 4096
"""Texts per call of the embedder in `subject_vectors`."""
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


@contextmanager
def subject_vectors(
    embed: Callable[[Sequence[str]], np.ndarray], texts: Sequence[str], dim: int
) -> Iterator[np.ndarray]:
    """The embeddings of one subject's texts, float32 [n, dim], for the length of the `with`.

    Up to `SPILL_VECTORS` texts the array is in memory; above, it is a memory-mapped temporary
    file (deleted on exit), filled `EMBED_CHUNK` texts at a time, so a huge subject never holds
    its vectors in memory.
    """
    n = len(texts)
    if n <= SPILL_VECTORS:
        yield embed(texts) if n else np.zeros((0, dim), dtype=np.float32)
        return
    with tempfile.NamedTemporaryFile(prefix="writegate-vectors-", suffix=".f32") as fh:
        vectors = np.memmap(fh, dtype=np.float32, mode="w+", shape=(n, dim))
        for start in range(0, n, EMBED_CHUNK):
            vectors[start : start + EMBED_CHUNK] = embed(texts[start : start + EMBED_CHUNK])
        vectors.flush()
        try:
            yield vectors
        finally:
            del vectors


def nearest(vectors: np.ndarray, k: int, block: int = BLOCK) -> np.ndarray:
    """Each row's `k` most similar other rows by dot product (cosine for unit rows), best first.

    Exact, in blocks of `block` rows × `block` columns: each block's similarities that can still
    enter a row's best `k` (at least its k-th best so far) are merged into the row's running best,
    so memory is O(block² + n·k) whatever n, and time O(n²·dim). Ties go to the lower position
    among the candidates a block keeps; the result depends only on `vectors`.

    Returns:
        int64 [n, min(k, n - 1)] row indices.
    """
    n = len(vectors)
    k = max(0, min(k, n - 1))
    out = np.zeros((n, k), dtype=np.int64)
    if k == 0:
        return out
    for r0 in range(0, n, block):
        rows = np.asarray(vectors[r0 : r0 + block], dtype=np.float32)
        b = len(rows)
        best_sim = np.full((b, k), -np.inf, dtype=np.float32)
        best_idx = np.full((b, k), n, dtype=np.int64)  # n: no row yet
        for c0 in range(0, n, block):
            sims = rows @ np.asarray(vectors[c0 : c0 + block], dtype=np.float32).T
            if c0 <= r0 < c0 + sims.shape[1]:
                np.fill_diagonal(sims[:, r0 - c0 :], -np.inf)  # never a row's own partner
            if c0 == 0:  # nothing to compare with yet: each row's best k of the block
                take = np.argpartition(-sims, k - 1, axis=1)[:, :k] if k < sims.shape[1] else None
                cols = take if take is not None else np.broadcast_to(np.arange(sims.shape[1]), sims.shape)
                rows_at = np.repeat(np.arange(b), cols.shape[1])
                cand = (rows_at, np.take_along_axis(sims, cols, axis=1).ravel(), cols.ravel())
            else:  # only what beats (or ties) a row's k-th best so far
                r, c = np.nonzero(sims >= best_sim[:, -1:])
                cand = (r, sims[r, c], c)
            best_sim, best_idx = _merge(best_sim, best_idx, cand, c0, k)
        out[r0 : r0 + b] = best_idx
    return out


def _merge(
    best_sim: np.ndarray, best_idx: np.ndarray, cand: tuple[np.ndarray, np.ndarray, np.ndarray], c0: int, k: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each row's best `k` of its running best and the candidates (row, similarity, column - c0)."""
    b = len(best_sim)
    rows = np.concatenate([np.repeat(np.arange(b), k), cand[0]])
    sims = np.concatenate([best_sim.ravel(), cand[1].astype(np.float32, copy=False)])
    idx = np.concatenate([best_idx.ravel(), cand[2].astype(np.int64, copy=False) + c0])
    order = np.lexsort((idx, -sims, rows))
    starts = np.cumsum(np.bincount(rows, minlength=b)) - np.bincount(rows, minlength=b)
    keep = order[np.arange(len(order)) - starts[rows[order]] < k]  # every row has ≥ k entries
    return sims[keep].reshape(b, k), idx[keep].reshape(b, k)


def _interleave(*rankings: Sequence[int]) -> Iterator[int]:
    """The rankings' items taken in turn (first of each, then second of each, …)."""
    for rank in range(max((len(r) for r in rankings), default=0)):
        for ranking in rankings:
            if rank < len(ranking):
                yield ranking[rank]


def subject_pairs(
    times: Sequence[float],
    slots: Sequence[Sequence[str]],
    texts: Sequence[str],
    k: int,
    max_postings: int = DEFAULT_MAX_POSTINGS,
    *,
    retrieval: Retrieval = Retrieval.WORDS,
    similar: np.ndarray | None = None,
) -> list[tuple[int, int]]:
    """Candidate pairs of one subject's records (positions in canonical order).

    Args:
        times: each record's observed_at (POSIX seconds), ascending.
        slots: each record's slots.
        texts: each record's text.
        k: partners per record: same-slot ones nearest in time first, then the most similar.
        max_postings: see `LexicalIndex`.
        retrieval: how "most similar" is found.
        similar: with `meaning` or `both`, each record's nearest records by meaning (`nearest`
            over the subject's embeddings, at least `k` a row where the subject has more than k).

    Returns:
        Unordered pairs once each as (older, newer) positions, sorted by (newer, older).

    Raises:
        ValueError: `meaning` or `both` without `similar` for every record.
    """
    n = len(times)
    if retrieval.embeds and (similar is None or len(similar) != n):
        raise ValueError(f"retrieval {retrieval.value} needs each record's nearest records by meaning")
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
            taken = set(partners)
            rankings: list[Sequence[int]] = []
            if similar is not None and retrieval.embeds:
                rankings.append(similar[i].tolist())
            if retrieval is not Retrieval.MEANING:
                index = index or LexicalIndex([terms(t) for t in texts], max_postings)
                rankings.append(index.most_similar(i, k, exclude=taken))
            for j in _interleave(*rankings):
                if len(partners) == k:
                    break
                if j not in taken:
                    taken.add(j)
                    partners.append(j)
        chosen.update((min(i, j), max(i, j)) for j in partners)
    return sorted(chosen, key=lambda p: (p[1], p[0]))
