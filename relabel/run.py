"""Batch relabeling of a legacy memory store: every candidate pair labelled once, resumably.

Pipeline (`relabel`):

0. **guard** (`preflight`): every path the run writes (`outputs.OutputPaths`: the edges and the
   side files named after `--out`, the checkpoint directory, a sink's `--report`) is checked
   against the `--input` file and against each other, each output folder must take a new file,
   and each sink checks what it can (a write-back database: permissions, existing tables) —
   all before anything is read; then the checkpoint's lock is taken, so a second run on the same
   `--out` is refused before it reads the store.
1. **read** (`store`): a source (`stores/`) yields the store's entries; a JSONL store holds one
   JSON object a line, `{"id", "subject", "text", "observed_at", "provenance"?}`. A bad entry is a
   *reject* (`store.Reject`), written with its line number to `NAME.rejects.jsonl` beside the output
   and counted; the run goes on.
2. **order**, 3. **normalize**, 4. **candidates** (`plan.build_plan`): records in the canonical
   order (subject, observed_at, id), each normalized once, each subject's candidate pairs
   (`candidates`: same slot, then by meaning, words or both, `RelabelOptions.candidates`) and their
   records' comparisons.
5. **classify** the pairs in chunks of `chunk_size` (each chunk a `columnar.PairWindow`; the local
   engine runs them through `classifier.feeder.Feeder.label`, Ray through the same feeder in
   each actor); each chunk is committed atomically (`checkpoint`).
6. **finalize** (`outputs.output_files`): the edges (unrelated dropped unless `keep_unrelated`),
   `NAME.rejects.jsonl`, `NAME.conflicts.jsonl` (the contradicts pairs with both texts),
   `NAME.roles.jsonl` (each record's state role) and `NAME.summary.json` (counts only), all renamed
   into place atomically.

A run killed at any point and rerun with the same arguments recomputes steps 1–4 (deterministic,
checked against the manifest's plan hash), skips the committed chunks and ends with the same bytes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from writegate.classifier.columnar import Labels, PairWindow
from writegate.classifier.embedder import verify as verify_embedder
from writegate.classifier.labels import Label
from writegate.classifier.windows import DEFAULT_BATCH_SIZE
from writegate.errors import InputError
from writegate.relabel import checkpoint
from writegate.relabel.candidates import DEFAULT_MAX_POSTINGS, DEFAULT_RETRIEVAL, Retrieval
from writegate.relabel.outputs import OutputPaths, Tally, check_outputs, edge_texts, free_space_warning, output_files
from writegate.relabel.plan import DEFAULT_K, Mapper, NullProgress, Plan, ProgressSink, build_plan
from writegate.relabel.stores.jsonl import JsonlSource

if TYPE_CHECKING:
    from writegate.relabel.stores.base import Sink, Source

DEFAULT_CHUNK_SIZE = 1024


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
        # the workers run `plan.plan_subjects`: its module is loaded once, by the fork server
        self.feeder = Feeder(self.model_dir, batch_size=batch_size, workers=workers, preload=[Plan.__module__])

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
    """The options of one run (the CLI flags).

    Attributes:
        input: the store: a JSONL file's path, or a source (`stores.open_source`: a database, a mem0 store).
        candidates: how partners beyond the same-slot ones are found (`--candidates`).
        embedder: the embedder directory for `meaning` and `both` (`--embedder`; None = the shipped one).
    """

    input: Path | Source
    out: Path
    k: int = DEFAULT_K
    keep_unrelated: bool = False
    chunk_size: int = DEFAULT_CHUNK_SIZE
    max_postings: int = DEFAULT_MAX_POSTINGS
    restart: bool = False
    candidates: Retrieval = DEFAULT_RETRIEVAL
    embedder: Path | None = None

    @property
    def source(self) -> Source:
        """The store's source (a path is read as a JSONL store)."""
        return JsonlSource(self.input) if isinstance(self.input, Path) else self.input


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
    review: int = 0
    """Pairs flagged for review (`classifier/review.py`): they change no role."""


def preflight(options: RelabelOptions, *, sinks: Sequence[Sink] = ()) -> OutputPaths:
    """Every check that can fail before a run does any work (see the module docstring, step 0).

    Returns:
        The run's output paths.

    Raises:
        InputError: naming the flag at fault (`--out`, `--report`, `--input`, `--write-back`, `chunk_size`,
            `--embedder`: missing or corrupt, or given with `--candidates words`).
    """
    if options.chunk_size < 1:
        raise InputError("chunk_size", f"must be ≥ 1, got {options.chunk_size}")
    if options.embedder is not None and not options.candidates.embeds:
        raise InputError("--embedder", "--candidates words uses no embedder: drop --embedder, or use meaning or both")
    if options.candidates.embeds:
        verify_embedder(options.embedder)
    paths = OutputPaths.of(options.out)
    input_path = options.source.file
    if input_path is not None and not input_path.is_file():
        raise InputError("--input", f"{input_path} is not a file")
    check_outputs(paths, input_path=input_path, others=[f for sink in sinks for f in sink.files()])
    for sink in sinks:
        sink.check()
    return paths


def relabel(
    options: RelabelOptions,
    engine: Engine,
    *,
    progress: ProgressSink | None = None,
    on_step: checkpoint.StepHook | None = None,
    sinks: Sequence[Sink] = (),
) -> RunStats:
    """Run (or resume) a relabel: see the module docstring.

    Args:
        options: input, output and the knobs.
        engine: `LocalEngine`, or `ray_engine.RayEngine`.
        progress: progress reporting.
        on_step: called at each durable checkpoint step (tests crash there).
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
        paths = preflight(options, sinks=sinks)
        source = options.source
        plan, ckpt = _open_run(options, engine, source, paths, progress, on_step)
        try:
            resumed = ckpt.committed
            if resumed:
                progress.log(f"resuming: {resumed} of {ckpt.total_chunks} chunks already done")
            for sink in sinks:
                sink.begin(ckpt, plan, engine.model_info())
            timings = dict(plan.timings)
            t0 = time.perf_counter()
            _classify(plan, ckpt, engine, sinks, options.chunk_size, progress)
            timings["classify"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            if sinks:  # before the outputs are renamed: a run killed in a sink still has its checkpoint
                _finish_sinks(plan, ckpt, sinks)
            tally = Tally()
            summary = {
                "input": source.describe(),
                "model": dict(engine.model_info()),
                "options": {
                    "candidates_per_record": options.k,
                    "candidates": options.candidates.value,
                    "keep_unrelated": options.keep_unrelated,
                },
            }
            files = output_files(
                paths, plan, ckpt.iter_lines, tally, keep_unrelated=options.keep_unrelated, summary=summary
            )
            ckpt.finalize(files)
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
            review=sum(tally.review.values()),
        )


def _open_run(
    options: RelabelOptions,
    engine: Engine,
    source: Source,
    paths: OutputPaths,
    progress: ProgressSink,
    on_step: checkpoint.StepHook | None,
) -> tuple[Plan, checkpoint.Checkpoint]:
    """Lock `--out`, read the store into its plan and open the checkpoint (steps 1–4)."""
    lock = checkpoint.lock_work_dir(options.out)  # before the store is read: a second run is refused at once
    try:
        plan = build_plan(
            source.rows(),
            options.k,
            max_postings=options.max_postings,
            progress=progress,
            mapper=engine.plan_mapper(),
            keep_records=False,
            retrieval=options.candidates,
            embedder=options.embedder,
        )
        progress.log(
            f"read {plan.lines} lines: {len(plan.records)} records, {len(plan.rejects)} rejected; "
            f"{len(plan.pairs)} candidate pairs"
        )
        warning = free_space_warning(paths, len(plan.pairs), len(plan.records))
        if warning:
            progress.log(f"warning: {warning}")
        fingerprint = {
            "input_sha256": source.sha256(),  # a source hashes what it read
            "candidates_per_record": options.k,
            "max_postings": options.max_postings,
            "candidates": options.candidates.value,
            **({"embedder_sha256": verify_embedder(options.embedder).onnx_sha256} if options.candidates.embeds else {}),
            **engine.fingerprint(),  # not the engine's name: both run the same chunks identically
        }
        ckpt = checkpoint.Checkpoint.open(
            options.out,
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
    return plan, ckpt


def _chunks(plan: Plan, start: int, chunk_size: int) -> Iterator[PairWindow]:
    total = len(plan.pairs)
    for index in range(start, -(-total // chunk_size)):
        yield plan.window(index, index * chunk_size, min(total, (index + 1) * chunk_size))


def _classify(
    plan: Plan,
    ckpt: checkpoint.Checkpoint,
    engine: Engine,
    sinks: Sequence[Sink],
    chunk_size: int,
    progress: ProgressSink,
) -> None:
    """Label the chunks not yet committed; commit each one's edges lines, then tell the sinks (step 5)."""
    resumed = ckpt.committed
    progress.phase("classify", len(plan.pairs), done=min(len(plan.pairs), resumed * chunk_size))
    id_json = plan.id_json
    for labels in engine.label_chunks(_chunks(plan, resumed, chunk_size), plan):
        index, lo = labels.index, labels.index * chunk_size
        lines = edge_texts([(id_json[n], id_json[e]) for e, n in plan.pairs[lo : lo + len(labels)]], labels)
        ckpt.commit_chunk(index, lines)
        for sink in sinks:
            sink.chunk(index, lines)
        progress.advance(len(lines))


def _finish_sinks(plan: Plan, ckpt: checkpoint.Checkpoint, sinks: Sequence[Sink]) -> None:
    """Tell each sink the run is done, with the tally of every committed edges line."""
    finished = Tally.of(ckpt.iter_lines())
    for sink in sinks:
        sink.finish(plan, finished, ckpt.iter_lines)
