"""`writegate relabel`: label every candidate pair of a legacy memory store (resumable)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from writegate.errors import InputError


def _add_store_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that name what is read and what is written."""
    p.add_argument(
        "--input",
        required=True,
        metavar="STORE",
        help='the store: a JSONL file, lines {"id", "subject", "text", "observed_at", "provenance"?}; '
        "or postgresql://USER@HOST:PORT/DB?table=T (a memories table); or mem0:///PATH "
        "(mem0's local Qdrant store, ?collection=mem0)",
    )
    p.add_argument(
        "--columns",
        default=None,
        metavar="id=…,subject=…,text=…,observed_at=…",
        help="the table's column (mem0: the payload field) for each of those names, if not the name",
    )
    p.add_argument(
        "--write-back",
        default=None,
        metavar="postgresql://…",
        help="also write the edges and each memory's state role to writegate_* tables there "
        "(one transaction per chunk; resumable like --out)",
    )
    p.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="OUT.html",
        help="also write a self-contained HTML report: totals, conflicts to review, per-subject timelines",
    )
    p.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="EDGES.jsonl",
        help="the edges; NAME.summary.json, NAME.rejects.jsonl, NAME.conflicts.jsonl and NAME.roles.jsonl are "
        "written beside it (NAME: this file's name without .jsonl; never over --input)",
    )


def _add_candidate_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that choose each record's candidate partners."""
    from writegate.classifier.embedder import EMBEDDER_HELP
    from writegate.relabel.candidates import DEFAULT_RETRIEVAL, Retrieval
    from writegate.relabel.plan import DEFAULT_K

    p.add_argument(
        "--candidates-per-record",
        "-k",
        dest="k",
        type=int,
        default=DEFAULT_K,
        metavar="K",
        help=f"partners per record: same slot first, then the most similar (default {DEFAULT_K})",
    )
    p.add_argument(
        "--candidates",
        choices=[r.value for r in Retrieval],
        default=DEFAULT_RETRIEVAL.value,
        metavar="|".join(r.value for r in Retrieval),
        help="how the most similar are found: meaning (sentence embeddings, cosine), words (TF-IDF) or both "
        f"(default {DEFAULT_RETRIEVAL.value}; docs/relabel.md, Candidates)",
    )
    p.add_argument("--embedder", type=Path, default=None, metavar="DIR", help=EMBEDDER_HELP)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    from writegate.classifier.modeldir import MODEL_HELP, default_model_dir
    from writegate.classifier.windows import DEFAULT_BATCH_SIZE
    from writegate.relabel.run import DEFAULT_CHUNK_SIZE

    _add_store_arguments(p)
    p.add_argument("--model", type=Path, default=default_model_dir(), help=MODEL_HELP)
    p.add_argument("--engine", choices=["local", "ray"], default="local", help="where to classify (default local)")
    p.add_argument(
        "--backend",
        choices=["onnx", "torch"],
        default=None,
        help="inference backend (default onnx; on Ray with GPUs: torch on CUDA)",
    )
    p.add_argument("--threads", type=int, default=None, help="intra-op threads per model (default: the backend's)")
    p.add_argument(
        "--device",
        default=None,
        help="torch backend's device: cpu, cuda, cuda:N (default: cuda when torch sees one, else cpu)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that normalize, compare and tokenize while the model runs (local: default one per "
        "core less one, 0 = none; Ray: per actor, default 0); the output is the same whatever N",
    )
    _add_candidate_arguments(p)
    p.add_argument("--keep-unrelated", action="store_true", help="also write pairs labelled unrelated")
    p.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        help=f"pairs per backend call (default {DEFAULT_BATCH_SIZE})",
    )
    p.add_argument(
        "--chunk-size",
        type=int,
        default=DEFAULT_CHUNK_SIZE,
        help=f"pairs per checkpoint chunk (default {DEFAULT_CHUNK_SIZE})",
    )
    p.add_argument("--restart", action="store_true", help="discard any checkpoint at --out and start over")
    p.add_argument("--quiet", "-q", action="store_true", help="plain log lines instead of a progress bar")
    p.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="Ray cluster, e.g. ray://host:10001 (default: RAY_ADDRESS, else a local Ray)",
    )
    p.add_argument(
        "--ray-actors",
        type=int,
        default=None,
        metavar="N",
        help="model actors on Ray (default: one per GPU, else CPUs / threads)",
    )
    p.add_argument("--ray-cpus", type=int, default=None, metavar="N", help="CPUs of a local Ray instance")
    # Test-only: SIGKILL this process at a checkpoint step (see checkpoint.StepHook).
    p.add_argument("--_crash-at", dest="crash_at", default=None, help=argparse.SUPPRESS)


def _crash_hook(point: str | None) -> Callable[[str], None] | None:
    if point is None:
        return None

    def hook(step: str) -> None:
        if step == point:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


class RichProgress:
    """A rich progress bar on stderr: records (normalize), then pairs (classify) with pairs/s and ETA."""

    LABELS = {"normalize": "records", "classify": "pairs"}

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.console = Console(stderr=True)
        self.bar = Progress(
            TextColumn("[bold]{task.description:>8}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self.task: Any = None
        self.name = ""
        self.bar.start()

    def phase(self, name: str, total: int, done: int = 0) -> None:
        self.name = self.LABELS.get(name, name)
        self.task = self.bar.add_task(self.name, total=total, completed=done, rate="")

    def advance(self, n: int) -> None:
        if self.task is None or n <= 0:
            return
        self.bar.advance(self.task, n)
        speed = self.bar.tasks[self.task].speed
        self.bar.update(self.task, rate=f"{speed:,.0f} {self.name}/s" if speed else "")

    def log(self, message: str) -> None:
        self.bar.console.print(f"relabel: {message}", highlight=False)

    def close(self) -> None:
        self.bar.stop()


class LogProgress:
    """`--quiet`: one log line per phase and at most one every `every_s` seconds."""

    LABELS = RichProgress.LABELS

    def __init__(self, every_s: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every_s = every_s
        self.clock = clock
        self.name, self.total, self.done, self.start_done = "", 0, 0, 0
        self.started = self.last = self.last_advance = clock()

    def phase(self, name: str, total: int, done: int = 0) -> None:
        self._line(final=True)
        self.name, self.total, self.done, self.start_done = self.LABELS.get(name, name), total, done, done
        self.started = self.last = self.last_advance = self.clock()
        self.log(f"{name}: {total} {self.name}" + (f" ({done} already done)" if done else ""))

    def advance(self, n: int) -> None:
        self.done += n
        self.last_advance = self.clock()
        if self.last_advance - self.last >= self.every_s:
            self._line()

    def _line(self, final: bool = False) -> None:
        if not self.name or (final and self.done == self.start_done):
            return
        now = self.last_advance if final else self.clock()
        self.last = now
        rate = (self.done - self.start_done) / max(now - self.started, 1e-9)
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        pct = 100.0 * self.done / self.total if self.total else 100.0
        eta_text = "" if final else (f", ETA {eta:,.0f} s" if eta != float("inf") else ", ETA ?")
        self.log(f"{self.name} {self.done}/{self.total} ({pct:.1f}%), {rate:,.0f} {self.name}/s{eta_text}")

    def log(self, message: str) -> None:
        print(f"writegate relabel: {message}", file=sys.stderr, flush=True)

    def close(self) -> None:
        self._line(final=True)


def _check_flags(args: argparse.Namespace) -> None:
    for name in ("batch_size", "chunk_size", "k"):
        value = getattr(args, name)
        if value < 1:
            raise InputError(
                f"--{name.replace('_', '-') if name != 'k' else 'candidates-per-record'}", f"must be ≥ 1, got {value}"
            )
    if args.threads is not None and args.threads < 1:
        raise InputError("--threads", f"must be ≥ 1, got {args.threads}")
    if args.workers is not None and args.workers < 0:
        raise InputError("--workers", f"must be ≥ 0, got {args.workers}")
    if args.device is not None and args.engine == "ray":
        raise InputError("--device", "Ray actors pick their device (CUDA when the cluster has GPUs): drop --device")
    if args.device is not None and (args.backend or "onnx") != "torch":
        raise InputError("--device", "only the torch backend takes a device: add --backend torch")
    if args.engine != "ray" and (args.ray_address or args.ray_actors or args.ray_cpus):
        raise InputError("--ray-address", "the --ray-* flags need --engine ray")


def _engine(args: argparse.Namespace) -> Any:
    if args.engine == "ray":
        from writegate.relabel.ray_engine import RayEngine

        return RayEngine(
            args.model,
            backend=args.backend,
            batch_size=args.batch_size,
            threads=args.threads,
            address=args.ray_address,
            actors=args.ray_actors,
            num_cpus=args.ray_cpus,
            feeder_workers=args.workers or 0,
        )
    from writegate.relabel.run import LocalEngine

    return LocalEngine(
        args.model,
        backend=args.backend or "onnx",
        batch_size=args.batch_size,
        threads=args.threads,
        workers=args.workers,
        device=args.device,
    )


def run(args: argparse.Namespace) -> int:
    """Run (or resume) the relabel; returns 0 (rejected lines are reported, not fatal).

    Raises:
        InputError: a bad flag, clashing outputs, an output folder that takes no file, a write-back
            database the run cannot write (all checked first, before the model is read).
    """
    from writegate.relabel.candidates import Retrieval
    from writegate.relabel.run import RelabelOptions, preflight, relabel
    from writegate.relabel.stores import open_sink, open_source

    _check_flags(args)
    source = open_source(args.input, args.columns)
    name = str(source.file.resolve()) if source.file is not None else source.describe()
    sinks: list[Any] = []
    if args.write_back:
        sinks.append(open_sink(args.write_back, source=name, keep_unrelated=args.keep_unrelated))
    if args.report:
        from writegate.relabel.report import ReportSink

        sinks.append(ReportSink(args.report, source=name))
    options = RelabelOptions(
        input=source,
        out=args.out,
        k=args.k,
        keep_unrelated=args.keep_unrelated,
        chunk_size=args.chunk_size,
        restart=args.restart,
        candidates=Retrieval(args.candidates),
        embedder=args.embedder,
    )
    paths = preflight(options, sinks=sinks)  # before the model is read
    engine = _engine(args)
    progress = LogProgress() if args.quiet else RichProgress()
    try:
        stats = relabel(options, engine, progress=progress, on_step=_crash_hook(args.crash_at), sinks=sinks)
    except KeyboardInterrupt:
        progress.log("interrupted: rerun the same command to resume from the last committed chunk")
        raise
    except OSError as exc:  # a full disk, a folder made read-only mid-run: the checkpoint is kept
        raise InputError(
            "--out", f"cannot write {exc.filename or 'an output'}: {exc.strerror or exc}; rerun to resume"
        ) from None
    finally:
        progress.close()
    labels = ", ".join(f"{k} {v}" for k, v in stats.labels.items())
    progress.log(
        f"{stats.pairs} pairs labelled ({labels}), {stats.review} to review; {stats.written} edges → {paths.edges}"
    )
    progress.log(f"summary → {paths.summary}; conflicts → {paths.conflicts}; roles → {paths.roles}")
    progress.log(f"{stats.rejected} rejected line(s) → {paths.rejects}")
    for sink in sinks:
        progress.log(sink.describe())
    return 0
