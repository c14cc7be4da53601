"""The plan of a relabel run: the store read, ordered, normalized, and its candidate pairs compared.

`build_plan`: records sorted by (subject, observed_at, id) — the canonical order; in a pair the
earlier one is EXISTING (ties by id), the later NEW. Each record is normalized once (as the
classifier does: its subject and date); a record that fails is a reject too (its `raw`: the
text). Per subject, `candidates.subject_pairs` picks each record's partners (by meaning: over
the subject's embeddings, computed there and dropped with the subject) and each pair's records are
compared (`compare_all`) once. The per-subject work is `plan_subjects`, a pure
function of whole subjects that runs in the engine's worker processes (`run.Engine.plan_mapper`).
The plan is deterministic: a resumed run rebuilds it and checks its hash (`Plan.sha256`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple, Protocol

import numpy as np

from writegate.api.jsonl import json_text
from writegate.api.normalizing import MemoryKey, Normalized, NormalizeFailure, normalize_many
from writegate.classifier.columnar import PairWindow, WindowMemory
from writegate.classifier.embedder import Embedder, verify
from writegate.classifier.types import Pair, Side
from writegate.errors import InputError
from writegate.normalizer.compare import SlotComparison, compare_all
from writegate.normalizer.schema import Record
from writegate.relabel.candidates import (
    DEFAULT_MAX_POSTINGS,
    DEFAULT_RETRIEVAL,
    Retrieval,
    nearest,
    slots_of,
    subject_pairs,
    subject_vectors,
)
from writegate.relabel.store import (
    RAW_EXCERPT_CHARS,
    Reject,
    StoreEntry,
    StoreRecord,
    read_store,
    unexpected_error,
)

DEFAULT_K = 8


class ProgressSink(Protocol):
    """Where the pipeline reports progress (a rich bar, log lines, or nothing)."""

    def phase(self, name: str, total: int, done: int = 0) -> None: ...

    def advance(self, n: int) -> None: ...

    def log(self, message: str) -> None: ...


class NullProgress:
    """Reports nothing."""

    def phase(self, name: str, total: int, done: int = 0) -> None:
        return None

    def advance(self, n: int) -> None:
        return None

    def log(self, message: str) -> None:
        return None


@dataclass
class Plan:
    """The deterministic work list of a run."""

    records: list[StoreRecord]
    """Accepted records in canonical order (subject, observed_at, id)."""
    pairs: list[tuple[int, int]]
    """(existing, new) indices into `records`, in output order."""
    normalized: dict[int, tuple[Record, ...]]
    """Each record's normalized records (index → records); empty when built without them."""
    rejects: list[Reject]
    """Rejected lines, by line number."""
    lines: int
    comparisons: list[SlotComparison | None] = field(default_factory=list)
    """Each pair's `compare_all` of its records (as `pairs`)."""
    timings: dict[str, float] = field(default_factory=dict)
    _sides: list[Side] = field(default_factory=list, repr=False)

    @property
    def sha256(self) -> str:
        """Hash of the ordered pairs (by id): a resumed run must rebuild the same plan."""
        h = hashlib.sha256(f"{len(self.records)}\n".encode())
        for e, n in self.pairs:
            h.update(f"{self.records[e].id}\t{self.records[n].id}\n".encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    @cached_property
    def id_json(self) -> list[str]:
        """Each record's id as JSON text (`json_text`), by position."""
        return [json_text(r.id) for r in self.records]

    def window(self, index: int, lo: int, hi: int) -> PairWindow:
        """Pairs `lo`..`hi` as window `index`: the memories they refer to, once each, and the pairs' comparisons."""
        position: dict[int, int] = {}
        memories: list[WindowMemory] = []
        refs: list[tuple[int, int]] = []
        for e, n in self.pairs[lo:hi]:
            for i in (e, n):
                if i not in position:
                    position[i] = len(memories)
                    r = self.records[i]
                    memories.append(WindowMemory(r.text, r.observed_at, r.subject, None, r.provenance))
            refs.append((position[e], position[n]))
        return PairWindow(index, memories, refs, self.comparisons[lo:hi])

    def pair(self, index: int) -> Pair:
        """Pair `index` as the classifier takes it: each side carries its records from `normalized`.

        Raises:
            ValueError: the plan was built without its records (`build_plan(keep_records=False)`).
        """
        if len(self.normalized) != len(self.records):
            raise ValueError("this plan was built without its records (build_plan(keep_records=False))")
        if len(self._sides) != len(self.records):
            self._sides = [
                Side(
                    text=r.text,
                    observed_at=r.observed_at,
                    subject=r.subject,
                    provenance=r.provenance,
                    records=self.normalized[i],
                )
                for i, r in enumerate(self.records)
            ]
        e, n = self.pairs[index]
        return Pair(existing=self._sides[e], new=self._sides[n])


PLAN_TASK_RECORDS = 512
"""Records per plan task (whole subjects: a large subject is one task)."""


class PlanTask(NamedTuple):
    """Whole subjects' records for `plan_subjects`."""

    k: int
    max_postings: int
    starts: list[int]
    """Each subject's first position in the canonical order (handed back with the result)."""
    subjects: list[list[MemoryKey]]
    """Each subject's records as normalized, in canonical order."""
    keep_records: bool = True
    """Hand each record's normalized records back (else `()` in their place: less to send)."""
    retrieval: Retrieval = DEFAULT_RETRIEVAL
    embedder: str | None = None
    """The embedder directory (`meaning`, `both`); None = the shipped one."""
    embed_threads: int | None = None
    """The embedder's intra-op threads (1 in a worker process; the vectors are the same whatever the number)."""


_EMBEDDERS: dict[tuple[str | None, int | None], Embedder] = {}
"""Each process's embedders, by (directory, threads): loaded once per worker."""


def _embedder(path: str | None, threads: int | None) -> Embedder:
    key = (path, threads)
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = Embedder.load(None if path is None else Path(path), threads=threads)
    return _EMBEDDERS[key]


SubjectPlan = tuple[list[Normalized], list[tuple[int, int]], list["SlotComparison | None"]]
"""One subject's result: each record's records (or its failure), the candidate pairs among the
records that normalized (positions among those), and each pair's comparison (`compare_all`)."""


def plan_subjects(task: PlanTask) -> tuple[list[int], list[SubjectPlan]]:
    """Normalize each record once, pick each subject's candidate pairs (`subject_pairs`) and compare
    each pair's records (`compare_all`: what the classifier's input shows and fusion uses).

    A pure function of its task: it runs in the feeder's worker processes.

    Returns:
        The task's `starts`, and each subject's plan.
    """
    out: list[SubjectPlan] = []
    for rows in task.subjects:
        normalized = normalize_many(rows, contain=unexpected_error)  # one bad record must not end the run
        kept = [i for i, got in enumerate(normalized) if not isinstance(got, NormalizeFailure)]
        records = [got for got in normalized if not isinstance(got, NormalizeFailure)]
        texts = [rows[i].text for i in kept]
        similar = None
        if task.retrieval.embeds:
            similar = np.zeros((len(texts), 0), dtype=np.int64)  # one record: no partner to find
            if len(texts) > 1:
                embedder = _embedder(task.embedder, task.embed_threads)
                with subject_vectors(embedder.embed, texts, embedder.dim) as vectors:
                    similar = nearest(vectors, task.k)
        pairs = subject_pairs(
            [rows[i].observed_at.timestamp() for i in kept],
            [slots_of(got) for got in records],
            texts,
            task.k,
            task.max_postings,
            retrieval=task.retrieval,
            similar=similar,
        )
        comparisons = [compare_all(records[e], records[n]) for e, n in pairs]
        if not task.keep_records:
            normalized = [got if isinstance(got, NormalizeFailure) else () for got in normalized]
        out.append((normalized, pairs, comparisons))
    return task.starts, out


Mapper = Callable[
    [Callable[[PlanTask], tuple[list[int], list[SubjectPlan]]], Iterable[PlanTask]],
    Iterable[tuple[list[int], list[SubjectPlan]]],
]
"""Runs `plan_subjects` over the tasks, results in order: `map`, or `Feeder.map` (worker processes)."""


def _subject_runs(records: Sequence[StoreRecord]) -> Iterator[tuple[int, int]]:
    start = 0
    while start < len(records):
        end = start
        while end < len(records) and records[end].subject == records[start].subject:
            end += 1
        yield start, end
        start = end


def _plan_tasks(ordered: Sequence[StoreRecord], template: PlanTask) -> Iterator[PlanTask]:
    """`template` (the options) with whole subjects of `ordered`, about `PLAN_TASK_RECORDS` records a task."""
    runs: list[tuple[int, int]] = []
    size = 0
    for run in [*_subject_runs(ordered), None]:
        if run is not None:
            runs.append(run)
            size += run[1] - run[0]
        if runs and (run is None or size >= PLAN_TASK_RECORDS):
            subjects = [[MemoryKey(r.text, r.subject, r.observed_at) for r in ordered[a:b]] for a, b in runs]
            yield template._replace(starts=[a for a, _ in runs], subjects=subjects)
            runs, size = [], 0


def build_plan(
    entries: Iterable[StoreEntry],
    k: int = DEFAULT_K,
    *,
    max_postings: int = DEFAULT_MAX_POSTINGS,
    progress: ProgressSink | None = None,
    mapper: Mapper | None = None,
    keep_records: bool = True,
    retrieval: Retrieval = DEFAULT_RETRIEVAL,
    embedder: Path | None = None,
) -> Plan:
    """Read, validate, order, normalize and pick the candidate pairs of a store.

    Args:
        entries: the store, as its source yields it (`stores.base.Source.rows`).
        k: candidates per record.
        max_postings: see `LexicalIndex`.
        progress: progress reporting.
        mapper: runs the per-subject work (`plan_subjects`); None = in this process. The plan is
            the same whichever mapper ran it.
        keep_records: keep each record's normalized records in `Plan.normalized` (`Plan.pair`
            needs them; a run does not: the pairs' comparisons are in the plan).
        retrieval: how partners beyond the same-slot ones are found (`candidates.Retrieval`).
        embedder: the embedder directory for `meaning` and `both` (None = the shipped one).

    Raises:
        InputError: `k` is not ≥ 1; the embedder is missing or corrupt (`--embedder`).
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError("--candidates-per-record", f"must be an integer ≥ 1, got {k!r}")
    if retrieval.embeds:
        verify(embedder)  # a missing or corrupt embedder fails here, before any work
    progress = progress or NullProgress()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    read = read_store(entries)
    timings["read"] = time.perf_counter() - t0
    rejects = list(read.rejects)
    ordered = sorted(read.records, key=lambda r: (r.subject, r.observed_at, r.id))

    t0 = time.perf_counter()
    progress.phase("normalize", len(ordered))
    kept: list[StoreRecord] = []
    normalized_list: list[tuple[Record, ...]] = []
    pairs: list[tuple[int, int]] = []
    comparisons: list[SlotComparison | None] = []
    template = PlanTask(
        k,
        max_postings,
        [],
        [],
        keep_records,
        retrieval,
        None if embedder is None else str(embedder),
        None if mapper is None else 1,  # worker processes: one thread each
    )
    tasks = _plan_tasks(ordered, template)
    for starts, subjects in (mapper or map)(plan_subjects, tasks):
        for a, (normalized, local, compared) in zip(starts, subjects, strict=True):
            base = len(kept)
            for rec, got in zip(ordered[a : a + len(normalized)], normalized, strict=True):
                if isinstance(got, NormalizeFailure):
                    rejects.append(
                        Reject(line=rec.line, field=got.field, error=got.message, raw=rec.text[:RAW_EXCERPT_CHARS])
                    )
                else:
                    kept.append(rec)
                    normalized_list.append(got)
            pairs.extend((base + e, base + n) for e, n in local)
            comparisons.extend(compared)
            progress.advance(len(normalized))
    timings["normalize_and_candidates"] = time.perf_counter() - t0
    rejects.sort(key=lambda r: r.line)
    records_by_index = dict(enumerate(normalized_list)) if keep_records else {}
    return Plan(kept, pairs, records_by_index, rejects, read.lines, comparisons, timings)
