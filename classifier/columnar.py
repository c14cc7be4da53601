"""The classifier's pre and post steps on a window of pairs, in columns: its only unit.

A `PairWindow` is a list of memories (text, date, subject, normalized records) and a list of
(existing, new) positions into it, as a relabel chunk is. The steps:

- `encode_window` (pre): tokenize each memory's text once, compare the records of each pair,
  render the headers and the structure tail, assemble the ids (`PairEncoder.assemble`), find the
  guards, the fusion rule and whether it may be a correction → an `EncodedWindow` (token rows and
  per-pair codes);
- `batch_window` cuts it into length-ordered, padded batches (stable sort by length, `batch_size`
  at a time: the batches depend on the window's pairs only) → a `PreparedWindow`
  (`prepare_window` does both); `gather` makes one batch of rows taken from several encoded
  windows (the dynamic batcher's batch of several requests' pairs);
- the backend runs the batches (`Backend.run_many`);
- `label_window` (post) turns the batches' logits into `Labels`: softmax, fusion, guards and
  corrections (`correction.py`) on whole arrays, then the review flags (`review.py`).

`Classifier.predict`, the dynamic batcher and the feeder all run these functions, so every entry
point gives the same ids and probabilities. A `PreparedWindow` holds only numpy arrays and plain
tuples, so it crosses a process boundary cheaply (`classifier/feeder.py` prepares windows in
worker processes).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from writegate.classifier import features, post
from writegate.classifier.backends.base import Batch
from writegate.classifier.correction import apply_corrections, may_correct
from writegate.classifier.fusion import fuse_rows, rule_for
from writegate.classifier.guard import GUARD_NONE, apply_guards, is_content_free
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.review import ReviewPolicy
from writegate.classifier.types import Evidence, Prediction
from writegate.normalizer.compare import SlotComparison, compare_all
from writegate.normalizer.schema import ProvenanceKind, Record

EVIDENCE: tuple[Evidence, ...] = tuple(Evidence)
"""Evidence codes: `Labels.evidence[i]` indexes this tuple."""
_OTHER_SUBJECT = EVIDENCE.index(Evidence.OTHER_SUBJECT)
_CONTENT_FREE = EVIDENCE.index(Evidence.CONTENT_FREE)


class WindowMemory(NamedTuple):
    """One memory of a window."""

    text: str
    observed_at: datetime
    subject: str
    records: tuple[Record, ...] | None
    """Its normalized records (the caller normalized it once); None when the window carries its pairs'
    comparisons."""
    provenance: ProvenanceKind = ProvenanceKind.STATED
    """Where it comes from (a correction needs two `stated` memories: `correction.py`)."""


@dataclass(frozen=True)
class PairWindow:
    """Pairs over shared memories: a relabel chunk, or the pairs of some writes.

    Attributes:
        index: the window's number (a relabel chunk's index).
        memories: the memories the pairs refer to.
        pairs: (existing, new) positions in `memories`.
        comparisons: each pair's `compare_all` of its two memories' records, when the caller has
            them (relabel computes them with the candidates); None = compare the memories' records here.
    """

    index: int
    memories: Sequence[WindowMemory]
    pairs: Sequence[tuple[int, int]]
    comparisons: Sequence[SlotComparison | None] | None = None


@dataclass(frozen=True)
class PreparedBatch:
    """One padded batch and the window positions of its rows."""

    rows: np.ndarray
    """int64 [n]: row r is pair `rows[r]` of the window."""
    batch: Batch


@dataclass(frozen=True)
class PreparedWindow:
    """A window ready for the model: batches, and per pair what the post step needs."""

    index: int
    batches: list[PreparedBatch]
    rule: np.ndarray
    """int8 [n]: the fusion rule code of each pair (`fusion.rule_for`)."""
    guard: np.ndarray
    """int8 [n]: the guard's index in `EVIDENCE`, or `guard.GUARD_NONE`."""
    slot_match: np.ndarray
    """bool [n]: the two sides share a slot."""
    may_correct: np.ndarray | None = None
    """bool [n]: a `contradicts` label of the pair is a correction (`correction.py`); None: no pair is."""

    @property
    def size(self) -> int:
        """Pairs in the window."""
        return len(self.rule)

    @property
    def n_tokens(self) -> int:
        """Padded tokens over all batches."""
        return sum(b.batch.n_tokens for b in self.batches)


@dataclass(frozen=True)
class Labels:
    """The labels of a window's pairs, in pair order, as arrays.

    Attributes:
        index: the window's number.
        probabilities: float64 [n, 5] in `LABELS` order (after fusion and guards).
        label: int64 [n], index into `LABELS`.
        evidence: int8 [n], index into `EVIDENCE`.
        slot_match: bool [n].
        review: bool [n]: the label is a retiring one a person should review (`review.py`); None: none is.
    """

    index: int
    probabilities: np.ndarray
    label: np.ndarray
    evidence: np.ndarray
    slot_match: np.ndarray
    review: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.label)

    def _review(self) -> list[bool]:
        return [False] * len(self) if self.review is None else self.review.tolist()

    def prediction(self, i: int) -> Prediction:
        """Pair `i`'s `Prediction`."""
        return Prediction(
            label=Label(LABELS[int(self.label[i])]),
            probabilities=post.as_dict(self.probabilities[i]),
            slot_match=bool(self.slot_match[i]),
            evidence=EVIDENCE[int(self.evidence[i])],
            review=self.review is not None and bool(self.review[i]),
        )

    def predictions(self) -> list[Prediction]:
        """All pairs' `Prediction`s, in pair order."""
        return [self.prediction(i) for i in range(len(self))]

    def rows(self) -> list[tuple[str, list[float], str, bool, bool]]:
        """Per pair (label, probabilities in `LABELS` order, evidence, slot_match, review) as plain values:
        cheap to write."""
        labels = [LABELS[i] for i in self.label.tolist()]
        evidence = [EVIDENCE[i].value for i in self.evidence.tolist()]
        return list(
            zip(labels, self.probabilities.tolist(), evidence, self.slot_match.tolist(), self._review(), strict=True)
        )


@dataclass(frozen=True)
class EncodedWindow:
    """A window's pairs as token id rows, with what the post step needs (pair order); not yet batched.

    Attributes:
        index: the window's number.
        rows: each pair's token ids, special tokens included.
        seg_a: how many ids of each row are segment A's (`[CLS] A [SEP]`).
        rule: int8 [n]: the fusion rule code of each pair (`fusion.rule_for`).
        guard: int8 [n]: the guard's index in `EVIDENCE`, or `guard.GUARD_NONE`.
        slot_match: bool [n]: the two sides share a slot.
        pad_id: the tokenizer's padding id.
        may_correct: bool [n]: a `contradicts` label of the pair is a correction (`correction.py`);
            None: no pair is.
    """

    index: int
    rows: list[list[int]]
    seg_a: list[int]
    rule: np.ndarray
    guard: np.ndarray
    slot_match: np.ndarray
    pad_id: int = 0
    may_correct: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.rows)


def encode_window(encoder: features.PairEncoder, window: PairWindow) -> EncodedWindow:
    """Compare, render and tokenize a window's pairs: each memory's text and each distinct header
    and structure tail tokenized once, every pair assembled with `PairEncoder.assemble`.

    Raises:
        ValueError: a pair's memory has no records and the window carries no comparisons.
    """
    mems = window.memories
    dates = [features.utc_date(m.observed_at) for m in mems]
    content_free = [is_content_free(m.text) for m in mems]
    heads: dict[date, str] = {}
    new_dates: dict[date, str] = {}
    gaps: dict[int, str] = {}
    tails: dict[str, None] = {}
    pair_gaps: list[int] = []
    pair_tails: list[str] = []
    n = len(window.pairs)
    rule = np.zeros(n, dtype=np.int8)
    guard = np.full(n, GUARD_NONE, dtype=np.int8)
    slot_match = np.zeros(n, dtype=bool)
    for i, (e, k) in enumerate(window.pairs):
        existing, new = mems[e], mems[k]
        if dates[e] not in heads:
            heads[dates[e]] = features.existing_head(dates[e], encoder.input_format)
        days = (dates[k] - dates[e]).days
        if dates[k] not in new_dates or days not in gaps:
            new_dates[dates[k]], gaps[days] = features.new_head_parts(dates[k], days, encoder.input_format)
        pair_gaps.append(days)
        comparison = window.comparisons[i] if window.comparisons is not None else _compare(existing, new, i)
        tail = features.structure_text(comparison)
        tails[tail] = None
        pair_tails.append(tail)
        rule[i] = rule_for(comparison)
        slot_match[i] = comparison is not None and comparison.same_slot
        if existing.subject != new.subject:
            guard[i] = _OTHER_SUBJECT
        elif content_free[k] or content_free[e]:
            guard[i] = _CONTENT_FREE
    texts = [features.clean_text(m.text) for m in mems]
    pieces: dict[Any, str] = {**{("a", d): h for d, h in heads.items()}, **{("n", d): h for d, h in new_dates.items()}}
    pieces |= {("g", g): w for g, w in gaps.items()}
    pieces |= {("t", t): t for t in tails}
    ids = encoder.piece_ids([*texts, *pieces.values()])
    piece_ids = dict(zip(pieces, ids[len(texts) :], strict=True))
    rows: list[list[int]] = []
    seg_a: list[int] = []
    assemble = encoder.assemble
    for i, (e, k) in enumerate(window.pairs):
        b_head = piece_ids["n", dates[k]] + piece_ids["g", pair_gaps[i]]
        row, n_a = assemble(piece_ids["a", dates[e]], ids[e], b_head, ids[k], piece_ids["t", pair_tails[i]])
        rows.append(row)
        seg_a.append(n_a)
    corrections = may_correct(mems, window.pairs)  # a guarded pair is unrelated: never a correction
    return EncodedWindow(window.index, rows, seg_a, rule, guard, slot_match, encoder.pad_id, corrections)


def _compare(existing: WindowMemory, new: WindowMemory, i: int) -> SlotComparison | None:
    if existing.records is None or new.records is None:
        raise ValueError(f"pair {i}: a memory without records, and the window carries no comparisons")
    return compare_all(existing.records, new.records)


def prepare_window(encoder: features.PairEncoder, window: PairWindow, batch_size: int) -> PreparedWindow:
    """Everything but the model for one window: `encode_window`, then `batch_window`.

    Args:
        encoder: the model's tokenizer wrapper.
        window: the memories and pairs.
        batch_size: pairs per batch (≥ 1).
    """
    return batch_window(encode_window(encoder, window), batch_size)


def batch_window(encoded: EncodedWindow, batch_size: int) -> PreparedWindow:
    """An encoded window cut into `length_chunks` of `batch_size` pairs, each batch padded to its longest row.

    Raises:
        ValueError: `batch_size` < 1.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be ≥ 1, got {batch_size}")
    chunks = length_chunks([len(r) for r in encoded.rows], batch_size)
    return PreparedWindow(
        index=encoded.index,
        batches=[_padded(encoded, idx) for idx in chunks],
        rule=encoded.rule,
        guard=encoded.guard,
        slot_match=encoded.slot_match,
        may_correct=encoded.may_correct,
    )


def gather(parts: Sequence[tuple[EncodedWindow, int]]) -> PreparedWindow:
    """Rows of encoded windows, (window, row) in this order, as a window of one padded batch: a batch
    of several requests' pairs (the dynamic batcher's). Its pair i is `parts[i]`.

    Raises:
        ValueError: `parts` is empty.
    """
    if not parts:
        raise ValueError("gather needs at least one row")
    merged = EncodedWindow(
        index=0,
        rows=[w.rows[i] for w, i in parts],
        seg_a=[w.seg_a[i] for w, i in parts],
        rule=np.array([w.rule[i] for w, i in parts], dtype=np.int8),
        guard=np.array([w.guard[i] for w, i in parts], dtype=np.int8),
        slot_match=np.array([w.slot_match[i] for w, i in parts], dtype=bool),
        pad_id=parts[0][0].pad_id,
        may_correct=np.array([w.may_correct is not None and w.may_correct[i] for w, i in parts], dtype=bool),
    )
    return PreparedWindow(
        0, [_padded(merged, range(len(parts)))], merged.rule, merged.guard, merged.slot_match, merged.may_correct
    )


def _padded(encoded: EncodedWindow, idx: Sequence[int]) -> PreparedBatch:
    return PreparedBatch(
        rows=np.asarray(idx, dtype=np.int64),
        batch=collate_rows([encoded.rows[i] for i in idx], [encoded.seg_a[i] for i in idx], encoded.pad_id),
    )


def length_chunks(lengths: Sequence[int], batch_size: int) -> Iterator[list[int]]:
    """Positions sorted by length (stable: ties keep their order, so the batches are deterministic),
    `batch_size` at a time: the batches of a window (`batch_window`)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    for start in range(0, len(order), batch_size):
        yield order[start : start + batch_size]


def collate_rows(rows: Sequence[Sequence[int]], seg_a: np.ndarray | Sequence[int], pad_id: int = 0) -> Batch:
    """Pad token id rows to the longest: int64 [n, L] ids, mask, and token types (1 from `seg_a[i]` on)."""
    n = len(rows)
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=n)
    width = int(lengths.max()) if n else 0
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=int(lengths.sum()))
    cols = np.arange(width, dtype=np.int64)
    mask = cols < lengths[:, None]
    ids = np.full((n, width), pad_id, dtype=np.int64)
    ids[mask] = flat
    types = mask & (cols >= np.asarray(seg_a, dtype=np.int64).reshape(n, 1))
    return Batch(input_ids=ids, attention_mask=mask.astype(np.int64), token_type_ids=types.astype(np.int64))


def label_window(
    prepared: PreparedWindow,
    logits: Sequence[np.ndarray],
    *,
    temperature: float,
    fusion: bool,
    review: ReviewPolicy | None = None,
) -> Labels:
    """The post step of a window: each batch's logits → `Labels` in pair order, the retiring labels
    to review flagged by `review` on the final probabilities.

    Args:
        prepared: the window as `batch_window` or `gather` made it.
        logits: float [rows, 5] per batch of `prepared.batches`, in that order.
        temperature: the model's softmax temperature.
        fusion: apply the structure rules (`fusion.fuse_rows`).
        review: the model's review thresholds (`ModelMeta.review`); None flags nothing.

    Raises:
        ValueError: `logits` does not match the batches.
    """
    probs, evidence = post_rows(
        window_logits(prepared, logits),
        prepared.rule,
        prepared.guard,
        temperature=temperature,
        fusion=fusion,
        may_correct=prepared.may_correct,
    )
    label = np.argmax(probs, axis=1)
    return Labels(
        index=prepared.index,
        probabilities=probs,
        label=label,
        evidence=evidence,
        slot_match=prepared.slot_match,
        review=None if review is None else review.flags(probs, label),
    )


def window_logits(prepared: PreparedWindow, logits: Sequence[np.ndarray]) -> np.ndarray:
    """The batches' logits as float32 [n, 5] in pair order.

    Raises:
        ValueError: `logits` does not match the batches.
    """
    if len(logits) != len(prepared.batches):
        raise ValueError(f"{len(prepared.batches)} batches but {len(logits)} logits arrays")
    raw = np.zeros((prepared.size, len(LABELS)), dtype=np.float32)
    for b, out in zip(prepared.batches, logits, strict=True):
        if len(out) != len(b.rows):
            raise ValueError(f"a batch of {len(b.rows)} rows got {len(out)} logits")
        raw[b.rows] = out
    return raw


def post_rows(
    logits: np.ndarray,
    rule: np.ndarray,
    guard: np.ndarray,
    *,
    temperature: float,
    fusion: bool,
    may_correct: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Temperature softmax, then (when `fusion`) the structure rules, then the guards, then the
    corrections (`may_correct`: bool [n], None: no pair may be one), on [n, 5] logits.

    Returns:
        float64 [n, 5] probabilities and int8 [n] evidence codes (`EVIDENCE`).
    """
    probs = post.softmax(logits, temperature)
    if fusion:
        probs, evidence = fuse_rows(probs, rule)
    else:
        evidence = np.full(len(probs), EVIDENCE.index(Evidence.MODEL), dtype=np.int8)
    apply_guards(probs, evidence, guard)
    if may_correct is not None:
        apply_corrections(probs, evidence, may_correct)
    return probs, evidence
