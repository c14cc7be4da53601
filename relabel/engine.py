"""Batch relabeling of a legacy memory store: every candidate pair labelled once, resumably.

Pipeline (`relabel`):

0. **guard** (`preflight`): every path the run writes (`outputs.OutputPaths`: the edges and the
   side files named after `--out`, the checkpoint directory, a sink's `--report`) is checked
   against the `--input` file and against each other, each output folder must take a new file,
   and each sink checks what it can (a write-back database: permissions, existing tables) —
   all before anything is read; then the checkpoint's lock is taken, so a second run on the same
   `--out` is refused before it reads the store.
1. **read**: one JSON object a line, `{"id", "subject", "text", "observed_at", "provenance"?}`.
   A bad line (blank, malformed or too deeply nested JSON, a missing or wrong field, a duplicate
   id — the first one wins —, or any other failure on that line) is a *reject*: written with its
   line number to `NAME.rejects.jsonl` beside the output and counted; the run goes on. A reject's
   `raw` is the line cut to 500 characters (invalid UTF-8 bytes as `\\udcXX` escapes); when the line
   is not valid UTF-8, `raw_base64` also holds its exact bytes (without the line ending), base64, up
   to 1,500 bytes (`raw_bytes` says how long the line was when it is longer).
   `observed_at` may be any date of years 1–9999 (no clock is read: the output depends on the input only).
2. **order**: records sorted by (subject, observed_at, id) — the canonical order. In a pair the
   earlier one is EXISTING (ties by id), the later NEW.
3. **normalize** each record once (as the classifier does: its subject and date); a record that
   fails is a reject too (its `raw`: the text).
4. **candidates**, per subject: for each record, up to K partners — first the records sharing one
   of its slots, nearest in time; then, to fill K, the most similar by TF-IDF cosine over an
   inverted index (terms in more than `max_postings` records of the subject are skipped, so a
   huge subject costs O(n·K), never all pairs). Each unordered pair is kept once, and its two
   records are compared (`compare_all`) once. Steps 3–4 are `plan_subjects`, a pure function of
   whole subjects: `build_plan` runs it in the engine's worker processes (`Engine.plan_mapper`).
5. **classify** the pairs in chunks of `chunk_size` (each chunk a `columnar.PairWindow`; the local
   engine runs them through `classifier.feeder.Feeder.label`, Ray through the same feeder in
   each actor); each chunk is committed atomically (`checkpoint`).
6. **finalize**: the edges (unrelated dropped unless `keep_unrelated`), `NAME.rejects.jsonl`,
   `NAME.conflicts.jsonl` (the contradicts pairs with both texts), `NAME.roles.jsonl` (each record's
   state role) and `NAME.summary.json` (counts only), all renamed into place atomically.

A run killed at any point and rerun with the same arguments recomputes steps 1–4 (deterministic,
checked against the manifest's plan hash), skips the committed chunks and ends with the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import time
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from itertools import chain, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict, Field

from writegate.api.jsonl import json_text, open_lines, parse_json_object, read_json_lines
from writegate.api.prepare import StateRole
from writegate.classifier.columnar import Labels, PairWindow, WindowMemory
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.types import Pair, Side
from writegate.classifier.windows import DEFAULT_BATCH_SIZE, SCORE_DIGITS
from writegate.normalizer.api import (
    normalize,
    parse_observed_at,
    parse_provenance,
    validate_id,
    validate_subject,
    validate_text,
)
from writegate.normalizer.compare import SlotComparison, compare_all
from writegate.normalizer.errors import InputError
from writegate.normalizer.schema import ProvenanceKind, Record, RecordKind, iso_utc
from writegate.relabel import checkpoint
from writegate.relabel.outputs import OutputPaths, check_outputs, free_space_warning

if TYPE_CHECKING:
    from writegate.relabel.stores.base import Sink, Source

DEFAULT_K = 8
DEFAULT_CHUNK_SIZE = 1024
DEFAULT_MAX_POSTINGS = 1000
RAW_EXCERPT_CHARS = 500
RAW_BASE64_BYTES = 1500
REQUIRED_FIELDS: tuple[str, ...] = ("id", "subject", "text", "observed_at")


# -- records and rejects ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreRecord:
    """One accepted line of the store."""

    line: int
    id: str
    subject: str
    text: str
    observed_at: datetime
    provenance: ProvenanceKind

    @property
    def side(self) -> Side:
        """This record as one side of a pair."""
        return Side(text=self.text, observed_at=self.observed_at, subject=self.subject)


class Reject(BaseModel):
    """A line that was not relabelled, and why."""

    model_config = ConfigDict(frozen=True)

    line: int = Field(ge=1, description="1-based line number in the input.")
    field: str = Field(description="The offending field (`line` for the line as a whole).")
    error: str = Field(description="What was wrong.")
    raw: str = Field(
        description=f"The line, cut to {RAW_EXCERPT_CHARS} characters (invalid UTF-8 as lone surrogates); "
        "for a record whose text failed to normalize, its text."
    )
    raw_base64: str | None = Field(
        default=None,
        description="Only when the line is not valid UTF-8: its exact bytes (without the line ending), base64, "
        f"the first {RAW_BASE64_BYTES} bytes of a longer line.",
    )
    raw_bytes: int | None = Field(
        default=None, description="Only when `raw_base64` holds part of the line: the line's length in bytes."
    )


def _validate_id(value: object) -> str:
    return validate_id(value, "id")  # the one id rule of every entry point (gRPC included)


def _provenance(value: object) -> ProvenanceKind:
    if value is None:
        return ProvenanceKind.STATED
    if isinstance(value, dict):
        if "kind" not in value:
            return ProvenanceKind.STATED
        return parse_provenance(value["kind"], "provenance.kind")
    return parse_provenance(value, "provenance")


def parse_record(raw: str, line: int) -> StoreRecord:
    """Parse one store line.

    Raises:
        InputError: naming the field (`line` when the line is not a JSON object).
    """
    return _store_record(parse_json_object(raw), line)


def _store_record(obj: dict[str, Any], line: int) -> StoreRecord:
    for name in REQUIRED_FIELDS:
        if name not in obj or obj[name] is None:
            raise InputError(name, "is required")
    return StoreRecord(
        line=line,
        id=_validate_id(obj["id"]),
        subject=validate_subject(obj["subject"]),
        text=validate_text(obj["text"]),
        observed_at=parse_observed_at(obj["observed_at"]),
        provenance=_provenance(obj.get("provenance")),
    )


@dataclass
class StoreRead:
    """What `read_store` found: the accepted records (file order), rejects, lines read."""

    records: list[StoreRecord]
    rejects: list[Reject]
    lines: int


def _unexpected(exc: Exception) -> str:
    return f"could not be processed ({type(exc).__name__}: {exc})"


def _raw_bytes(raw: str) -> bytes | None:
    """The line's exact bytes when it is not valid UTF-8 (it holds surrogate escapes), else None."""
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return raw.encode("utf-8", "surrogateescape")
    return None


def _reject(line: int, raw: str, field: str, error: str) -> Reject:
    raw = raw.rstrip("\r\n")
    exact = _raw_bytes(raw)
    return Reject(
        line=line,
        field=field,
        error=error,
        raw=raw[:RAW_EXCERPT_CHARS],
        raw_base64=None if exact is None else base64.b64encode(exact[:RAW_BASE64_BYTES]).decode("ascii"),
        raw_bytes=None if exact is None or len(exact) <= RAW_BASE64_BYTES else len(exact),
    )


def read_store(lines: Iterable[str]) -> StoreRead:
    """Parse store lines; bad ones become rejects (duplicate ids: the first one wins).

    Args:
        lines: the lines without their line endings, invalid UTF-8 as surrogate escapes (as
            `open_store` yields them).

    Returns:
        The records and rejects; any failure on a line (not only `InputError`) is that line's reject.
    """
    records: list[StoreRecord] = []
    rejects: list[Reject] = []
    first_line: dict[str, int] = {}
    count = 0
    # invalid UTF-8 is kept: the text check rejects it and the reject keeps the bytes
    for line in read_json_lines(lines, skip_blank=False, invalid_utf8="keep"):
        number, raw = line.number, line.raw
        count = number
        try:
            rec = _store_record(line.result(), number)
            if rec.id in first_line:
                raise InputError("id", f"duplicate id {rec.id!r} (first on line {first_line[rec.id]})")
        except InputError as exc:
            rejects.append(_reject(number, raw, exc.field, exc.message))
            continue
        except Exception as exc:  # noqa: BLE001 - one bad line must not end the run
            rejects.append(_reject(number, raw, "line", _unexpected(exc)))
            continue
        first_line[rec.id] = number
        records.append(rec)
    return StoreRead(records, rejects, count)


def open_store(path: Path) -> Iterator[str]:
    """The input's lines (invalid UTF-8 kept as surrogates, so the text check rejects it).

    Raises:
        InputError: `--input`: the file cannot be opened.
    """
    return open_lines(path, field="--input")


# -- candidates ------------------------------------------------------------------------------------

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
    return tuple(sorted({r.slot for r in records if r.kind is not RecordKind.TEXT}))


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


# -- the plan --------------------------------------------------------------------------------------


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
                    memories.append(WindowMemory(r.text, r.observed_at, r.subject, None))
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
                Side(text=r.text, observed_at=r.observed_at, subject=r.subject, records=self.normalized[i])
                for i, r in enumerate(self.records)
            ]
        e, n = self.pairs[index]
        return Pair(existing=self._sides[e], new=self._sides[n])


PLAN_TASK_RECORDS = 512
"""Records per plan task (whole subjects: a large subject is one task)."""


class NormalizeFailure(NamedTuple):
    """A record whose text failed to normalize: the reject's field and error."""

    field: str
    error: str


class PlanTask(NamedTuple):
    """Whole subjects' records for `plan_subjects`."""

    k: int
    max_postings: int
    starts: list[int]
    """Each subject's first position in the canonical order (handed back with the result)."""
    subjects: list[list[tuple[str, str, datetime]]]
    """Each subject's records as (text, subject, observed_at), in canonical order."""
    keep_records: bool = True
    """Hand each record's normalized records back (else `()` in their place: less to send)."""


SubjectPlan = tuple[list["tuple[Record, ...] | NormalizeFailure"], list[tuple[int, int]], list["SlotComparison | None"]]
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
        normalized: list[tuple[Record, ...] | NormalizeFailure] = []
        kept: list[int] = []
        for i, (text, subject, observed_at) in enumerate(rows):
            try:
                normalized.append(tuple(normalize(text, subject=subject, observed_at=observed_at)))
                kept.append(i)
            except InputError as exc:
                normalized.append(NormalizeFailure(exc.field, exc.message))
            except Exception as exc:  # noqa: BLE001 - one bad record must not end the run
                normalized.append(NormalizeFailure("text", _unexpected(exc)))
        pairs = subject_pairs(
            [rows[i][2].timestamp() for i in kept],
            [slots_of(normalized[i]) for i in kept],  # type: ignore[arg-type] # kept ones are records
            [rows[i][0] for i in kept],
            task.k,
            task.max_postings,
        )
        records = [normalized[i] for i in kept]
        comparisons = [compare_all(records[e], records[n]) for e, n in pairs]  # type: ignore[arg-type]
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


def _plan_tasks(ordered: Sequence[StoreRecord], k: int, max_postings: int, keep_records: bool) -> Iterator[PlanTask]:
    runs: list[tuple[int, int]] = []
    size = 0
    for run in [*_subject_runs(ordered), None]:
        if run is not None:
            runs.append(run)
            size += run[1] - run[0]
        if runs and (run is None or size >= PLAN_TASK_RECORDS):
            subjects = [[(r.text, r.subject, r.observed_at) for r in ordered[a:b]] for a, b in runs]
            yield PlanTask(k, max_postings, [a for a, _ in runs], subjects, keep_records)
            runs, size = [], 0


def build_plan(
    lines: Iterable[str],
    k: int = DEFAULT_K,
    *,
    max_postings: int = DEFAULT_MAX_POSTINGS,
    progress: ProgressSink | None = None,
    mapper: Mapper | None = None,
    keep_records: bool = True,
) -> Plan:
    """Read, validate, order, normalize and pick the candidate pairs of a store.

    Args:
        lines: the store's lines.
        k: candidates per record.
        max_postings: see `LexicalIndex`.
        progress: progress reporting.
        mapper: runs the per-subject work (`plan_subjects`); None = in this process. The plan is
            the same whichever mapper ran it.
        keep_records: keep each record's normalized records in `Plan.normalized` (`Plan.pair`
            needs them; a run does not: the pairs' comparisons are in the plan).

    Raises:
        InputError: `k` is not ≥ 1.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError("--candidates-per-record", f"must be an integer ≥ 1, got {k!r}")
    progress = progress or NullProgress()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    read = read_store(lines)
    timings["read"] = time.perf_counter() - t0
    rejects = list(read.rejects)
    ordered = sorted(read.records, key=lambda r: (r.subject, r.observed_at, r.id))

    t0 = time.perf_counter()
    progress.phase("normalize", len(ordered))
    kept: list[StoreRecord] = []
    normalized_list: list[tuple[Record, ...]] = []
    pairs: list[tuple[int, int]] = []
    comparisons: list[SlotComparison | None] = []
    tasks = _plan_tasks(ordered, k, max_postings, keep_records)
    for starts, subjects in (mapper or map)(plan_subjects, tasks):
        for a, (normalized, local, compared) in zip(starts, subjects, strict=True):
            base = len(kept)
            for rec, got in zip(ordered[a : a + len(normalized)], normalized, strict=True):
                if isinstance(got, NormalizeFailure):
                    rejects.append(
                        Reject(line=rec.line, field=got.field, error=got.error, raw=rec.text[:RAW_EXCERPT_CHARS])
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


# -- engines ---------------------------------------------------------------------------------------


class Engine(Protocol):
    """Labels windows of pairs (the checkpoint's chunks); yields their `Labels` in the order the windows came."""

    name: str

    def fingerprint(self) -> dict[str, Any]:
        """What the results depend on besides the input (model hash, backend, batch size)."""
        ...

    def model_info(self) -> dict[str, str]:
        """The model's name and version (for the summary)."""
        ...

    def plan_mapper(self) -> Mapper | None:
        """What runs the plan's per-subject work (`build_plan`'s `mapper`), None = this process."""
        ...

    def label_chunks(self, chunks: Iterator[PairWindow], plan: Plan) -> Iterator[Labels]:
        """Label each chunk (`Labels.index` = the chunk's index); the same labels as `Classifier.predict`."""
        ...

    def close(self) -> None:
        """Release what the engine started (worker processes); `relabel` calls it when the run ends."""
        ...


class LocalEngine:
    """Classify on this machine: worker processes prepare the chunks, this process runs the model
    (`classifier.feeder.Feeder`; the model loads on the first chunk).

    Args:
        model_dir: the model directory.
        backend: `onnx` (default), `torch` or `null`.
        batch_size: pairs per backend call.
        threads: intra-op threads (None = the backend's default).
        workers: worker processes that normalize, compare and tokenize (None = one per core less
            one; 0 = all in this process). The output is the same whatever the number.
        device: torch's device (`cpu`, `cuda`, `cuda:N`; None = CUDA when torch sees one).
    """

    name = "local"

    def __init__(
        self,
        model_dir: Path,
        backend: str = "onnx",
        batch_size: int = DEFAULT_BATCH_SIZE,
        threads: int | None = None,
        workers: int | None = None,
        device: str | None = None,
    ) -> None:
        from writegate.classifier import modeldir
        from writegate.classifier.feeder import Feeder

        self.model_dir = Path(model_dir)
        self.meta = modeldir.read_meta(self.model_dir)
        self.backend = backend
        self.batch_size = batch_size
        self.threads = threads
        self.device = device
        self.feeder = Feeder(self.model_dir, batch_size=batch_size, workers=workers, preload=[__name__])

    def fingerprint(self) -> dict[str, Any]:
        """Model tree hash, backend and batch size."""
        return model_fingerprint(self.model_dir, self.backend, self.batch_size)

    def model_info(self) -> dict[str, str]:
        """Name and version from writegate.json."""
        return {"name": self.meta.name, "version": self.meta.version}

    def plan_mapper(self) -> Mapper | None:
        """The feeder's workers (None when it has none)."""
        return self.feeder.map if self.feeder.workers else None

    def label_chunks(self, chunks: Iterator[PairWindow], plan: Plan) -> Iterator[Labels]:
        """Label the chunks through the feeder (`Feeder.label`)."""
        from writegate.classifier.backends import load_backend

        first = next(chunks, None)
        if first is None:
            return
        backend = load_backend(self.backend, self.model_dir, threads=self.threads, device=self.device)
        yield from self.feeder.label(backend, chain([first], chunks))

    def close(self) -> None:
        """Stop the feeder's workers."""
        self.feeder.close()


def model_fingerprint(model_dir: Path, backend: str, batch_size: int) -> dict[str, Any]:
    """The part of a run's fingerprint that the model side gives."""
    return {"model_sha256": checkpoint.sha256_tree(Path(model_dir)), "backend": backend, "batch_size": batch_size}


# -- the run ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RelabelOptions:
    """The options of one run (the CLI flags)."""

    input: Path
    out: Path
    k: int = DEFAULT_K
    keep_unrelated: bool = False
    chunk_size: int = DEFAULT_CHUNK_SIZE
    max_postings: int = DEFAULT_MAX_POSTINGS
    restart: bool = False


@dataclass
class RunStats:
    """What a run did and where its time went (seconds per phase)."""

    lines: int
    records: int
    rejected: int
    pairs: int
    written: int
    resumed_chunks: int
    labels: dict[str, int]
    timings: dict[str, float]


def preflight(options: RelabelOptions, *, source: Source | None = None, sinks: Sequence[Sink] = ()) -> OutputPaths:
    """Every check that can fail before a run does any work (see the module docstring, step 0).

    Returns:
        The run's output paths.

    Raises:
        InputError: naming the flag at fault (`--out`, `--report`, `--input`, `--write-back`, `chunk_size`).
    """
    if options.chunk_size < 1:
        raise InputError("chunk_size", f"must be ≥ 1, got {options.chunk_size}")
    paths = OutputPaths.of(options.out)
    input_path = options.input if source is None else None
    if input_path is not None and not input_path.is_file():
        raise InputError("--input", f"{input_path} is not a file")
    check_outputs(paths, input_path=input_path, others=[f for sink in sinks for f in sink.files()])
    for sink in sinks:
        sink.check()
    return paths


_CONFLICTS = frozenset({Label.SUPERSEDES.value, Label.CONTRADICTS.value})
_LABEL_KEY = '"label": "'


def label_of(raw: str) -> str:
    """The label of an edges-file line (as `edge_texts` writes it) without parsing the rest.

    Inside a JSON string every `"` is escaped, so the first `"label": "` is the key's.
    """
    at = raw.index(_LABEL_KEY) + len(_LABEL_KEY)
    return raw[at : raw.index('"', at)]


class _Tally:
    """Counts and roles gathered while the edges are written; the summary and the roles file read them."""

    def __init__(self) -> None:
        self.labels: Counter[str] = Counter()
        self.written = 0
        self.superseded_by: dict[str, list[str]] = defaultdict(list)
        self.in_conflict: set[str] = set()

    def add_text(self, raw: str) -> str:
        """Count one edges-file line; returns its label (only a conflict's line is parsed whole)."""
        label = label_of(raw)
        if label in _CONFLICTS:
            self.add(json.loads(raw))
        else:
            self.labels[label] += 1
        return label

    def add(self, line: Mapping[str, Any]) -> None:
        label = line["label"]
        self.labels[label] += 1
        if label == Label.SUPERSEDES.value:
            self.superseded_by[line["existing_id"]].append(line["new_id"])
        elif label == Label.CONTRADICTS.value:
            self.in_conflict.update((line["existing_id"], line["new_id"]))

    def role(self, record_id: str) -> StateRole:
        if record_id in self.superseded_by:
            return StateRole.HISTORICAL
        if record_id in self.in_conflict:
            return StateRole.IN_CONFLICT
        return StateRole.CURRENT


_SCORES = "{{" + ", ".join(f'"{name}": {{}}' for name in LABELS) + "}}"


def edge_texts(ids_json: Sequence[tuple[str, str]], labels: Labels) -> list[str]:
    """Each labelled pair of a window as its edges-file line: the JSON text (`api.jsonl.json_text`) of
    `{"new_id", "existing_id", "label", "scores", "evidence", "slot_match"}`, the scores rounded to
    `SCORE_DIGITS` places, formatted directly (the label says how NEW relates to EXISTING).

    Args:
        ids_json: (new_id, existing_id) per pair, in the window's pair order, each already as JSON
            text (`json_text(id)`: a store's ids recur in many pairs, `Plan.id_json` encodes each once).
        labels: the window's labels.
    """
    if len(ids_json) != len(labels):
        raise ValueError(f"{len(ids_json)} id pairs for {len(labels)} labels")
    digits = repeat(SCORE_DIGITS)
    return [
        f'{{"new_id": {new_id}, "existing_id": {existing_id}, "label": "{label}", '
        f'"scores": {_SCORES.format(*map(repr, map(round, probabilities, digits)))}, "evidence": "{evidence}", '
        f'"slot_match": {"true" if slot_match else "false"}}}'
        for (new_id, existing_id), (label, probabilities, evidence, slot_match) in zip(
            ids_json, labels.rows(), strict=True
        )
    ]


def _edges_bytes(lines: Iterable[str], tally: _Tally, keep_unrelated: bool) -> Iterator[bytes]:
    for raw in lines:
        if tally.add_text(raw) != Label.UNRELATED.value or keep_unrelated:
            tally.written += 1
            yield raw.encode("utf-8") + b"\n"


def _summary_bytes(
    plan: Plan,
    tally: _Tally,
    options: RelabelOptions,
    paths: OutputPaths,
    model: Mapping[str, str],
    input_name: str | None = None,
) -> Iterator[bytes]:
    # A generator: it runs after the edges generator is exhausted, when the tally is complete.
    role_counts = Counter(tally.role(r.id).value for r in plan.records)
    by_field = Counter(r.field for r in plan.rejects)
    summary = {
        "input": input_name or str(options.input),
        "model": dict(model),
        "options": {"candidates_per_record": options.k, "keep_unrelated": options.keep_unrelated},
        "records": {
            "lines": plan.lines,
            "accepted": len(plan.records),
            "rejected": len(plan.rejects),
            "subjects": len({r.subject for r in plan.records}),
        },
        "rejects": {"file": paths.rejects.name, "count": len(plan.rejects), "by_field": dict(sorted(by_field.items()))},
        "pairs": {"classified": len(plan.pairs), "written": tally.written},
        "labels": {label.value: tally.labels.get(label.value, 0) for label in Label},
        "roles": {role.value: role_counts.get(role.value, 0) for role in StateRole},
        "files": {
            "edges": paths.edges.name,
            "rejects": paths.rejects.name,
            "conflicts": paths.conflicts.name,
            "roles": paths.roles.name,
        },
    }
    yield (json.dumps(summary, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _rejects_bytes(rejects: Sequence[Reject]) -> Iterator[bytes]:
    for r in rejects:
        # ASCII escapes: a rejected line may hold invalid UTF-8 (kept as lone surrogates).
        yield (json.dumps(r.model_dump(exclude_none=True), ensure_ascii=True) + "\n").encode("ascii")


def _conflicts_bytes(plan: Plan, lines: Iterable[str]) -> Iterator[bytes]:
    """The contradicts pairs, in the edges' order, with both texts and dates (one line each)."""
    by_id = {r.id: r for r in plan.records}
    for raw in lines:
        if label_of(raw) != Label.CONTRADICTS.value:
            continue
        line = json.loads(raw)
        e, n = by_id[line["existing_id"]], by_id[line["new_id"]]
        conflict = {
            "subject": e.subject,
            "existing_id": e.id,
            "existing_text": e.text,
            "existing_observed_at": iso_utc(e.observed_at),
            "new_id": n.id,
            "new_text": n.text,
            "new_observed_at": iso_utc(n.observed_at),
            "scores": line["scores"],
        }
        yield (json.dumps(conflict, ensure_ascii=False) + "\n").encode("utf-8")


def _roles_bytes(plan: Plan, tally: _Tally) -> Iterator[bytes]:
    """Each record's state role and the records that superseded it (canonical order, one line each)."""
    for r in plan.records:
        line: dict[str, str | list[str]] = {"id": r.id, "subject": r.subject, "role": tally.role(r.id).value}
        if r.id in tally.superseded_by:
            line["superseded_by"] = tally.superseded_by[r.id]
        yield (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")


def _chunks(plan: Plan, start: int, chunk_size: int) -> Iterator[PairWindow]:
    total = len(plan.pairs)
    for index in range(start, -(-total // chunk_size)):
        yield plan.window(index, index * chunk_size, min(total, (index + 1) * chunk_size))


def relabel(
    options: RelabelOptions,
    engine: Engine,
    *,
    progress: ProgressSink | None = None,
    on_step: checkpoint.StepHook | None = None,
    source: Source | None = None,
    sinks: Sequence[Sink] = (),
) -> RunStats:
    """Run (or resume) a relabel: see the module docstring.

    Args:
        options: input, output and the knobs.
        engine: `LocalEngine`, or `relabel_ray.RayEngine`.
        progress: progress reporting.
        on_step: called at each durable checkpoint step (tests crash there).
        source: read the store from here instead of the file `options.input` (`stores.open_source`).
        sinks: also written: told of each committed chunk and, before the outputs are renamed into
            place, of the finished run (`stores.base.Sink`: a database, the HTML report).

    Returns:
        Counts and the seconds spent per phase.

    Raises:
        InputError: unreadable input, bad option, outputs that clash or cannot be written, a sink
            that cannot work (`preflight`), another run holding `--out`, or a checkpoint of a
            different run there.
    """
    with closing(engine):  # its worker processes end with the run
        progress = progress or NullProgress()
        paths = preflight(options, source=source, sinks=sinks)
        out = options.out
        lock = checkpoint.lock_work_dir(out)  # before the store is read: a second run is refused at once
        try:
            input_sha = checkpoint.sha256_file(options.input) if source is None else ""
            store_lines = open_store(options.input) if source is None else source.lines()
            plan = build_plan(
                store_lines,
                options.k,
                max_postings=options.max_postings,
                progress=progress,
                mapper=engine.plan_mapper(),
                keep_records=False,
            )
            input_sha = input_sha or source.sha256()  # type: ignore[union-attr] # a source hashes what it yielded
            progress.log(
                f"read {plan.lines} lines: {len(plan.records)} records, {len(plan.rejects)} rejected; "
                f"{len(plan.pairs)} candidate pairs"
            )
            warning = free_space_warning(paths, len(plan.pairs), len(plan.records))
            if warning:
                progress.log(f"warning: {warning}")
            fingerprint = {
                "input_sha256": input_sha,
                "candidates_per_record": options.k,
                "max_postings": options.max_postings,
                **engine.fingerprint(),  # not the engine's name: both run the same chunks identically
            }
            ckpt = checkpoint.Checkpoint.open(
                out,
                fingerprint,
                plan_sha256=plan.sha256,
                total_items=len(plan.pairs),
                chunk_size=options.chunk_size,
                restart=options.restart,
                lock=lock,
                **({"on_step": on_step} if on_step else {}),
            )
        except BaseException:
            lock.close()
            raise
        try:
            resumed = ckpt.committed
            if resumed:
                progress.log(f"resuming: {resumed} of {ckpt.total_chunks} chunks already done")
            for sink in sinks:
                sink.begin(ckpt, plan, engine.model_info())
            progress.phase("classify", len(plan.pairs), done=min(len(plan.pairs), resumed * options.chunk_size))
            t0 = time.perf_counter()
            for labels in engine.label_chunks(_chunks(plan, resumed, options.chunk_size), plan):
                index, lo = labels.index, labels.index * options.chunk_size
                id_json = plan.id_json
                lines = edge_texts([(id_json[n], id_json[e]) for e, n in plan.pairs[lo : lo + len(labels)]], labels)
                ckpt.commit_chunk(index, lines)
                for sink in sinks:
                    sink.chunk(index, lines)
                progress.advance(len(lines))
            timings = dict(plan.timings)
            timings["classify"] = time.perf_counter() - t0

            t0 = time.perf_counter()
            if sinks:  # before the outputs are renamed: a run killed in a sink still has its checkpoint
                finished = _Tally()
                for raw in ckpt.iter_lines():
                    finished.add_text(raw)
                for sink in sinks:
                    sink.finish(plan, finished, ckpt.iter_lines)
                del finished
            tally = _Tally()
            ckpt.finalize(
                {  # in this order: the roles and the summary read the tally the edges fill
                    paths.rejects: _rejects_bytes(plan.rejects),
                    paths.edges: _edges_bytes(ckpt.iter_lines(), tally, options.keep_unrelated),
                    paths.conflicts: _conflicts_bytes(plan, ckpt.iter_lines()),
                    paths.roles: _roles_bytes(plan, tally),
                    paths.summary: _summary_bytes(
                        plan,
                        tally,
                        options,
                        paths,
                        engine.model_info(),
                        source.describe() if source is not None else None,
                    ),
                }
            )
            timings["finalize"] = time.perf_counter() - t0
        finally:
            ckpt.close()
            for sink in sinks:
                sink.close()
        return RunStats(
            lines=plan.lines,
            records=len(plan.records),
            rejected=len(plan.rejects),
            pairs=len(plan.pairs),
            written=tally.written,
            resumed_chunks=resumed,
            labels={label.value: tally.labels.get(label.value, 0) for label in Label},
            timings=timings,
        )
