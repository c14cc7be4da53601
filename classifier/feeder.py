"""The feeder: everything but the model forward in worker processes, the forward overlapped.

A `Feeder` owns a pool of worker processes (`workers`; 0 = all in this process). Windows of pairs
(`columnar.PairWindow`) go to the workers, which compare, render, tokenize and collate them into
length-ordered padded batches (`columnar.prepare_window`); the prepared windows come back in
order, `depth` per worker kept in flight so the workers run ahead of the model. `Feeder.label`
runs each prepared window's batches on the backend in a device thread while this process turns
the previous window's logits into `Labels` (`columnar.label_window`: softmax, fusion, guards on
arrays), so the forward overlaps the host work on both sides of it. `Feeder.map` runs any
picklable function over items in the same pool, in order (relabel's plan normalizes and picks
candidates with it).

The batches of a window depend on its pairs only, so the labels are the same whatever the number
of workers, and the same as `Classifier.predict` on the window's pairs.

Workers start with the `forkserver` method where the platform has it (else `spawn`): a process
that already runs threads (onnxruntime, gRPC, the tokenizer's pool) is never forked. Each worker
tokenizes on one thread (`TOKENIZERS_PARALLELISM=false` in the worker).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from writegate.classifier import columnar, features, modeldir
from writegate.classifier.backends.base import Backend
from writegate.errors import InputError

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_DEPTH = 4
"""Windows in flight per worker."""

_ENCODERS: dict[tuple[str, int, int], features.PairEncoder] = {}
"""Each process's tokenizer wrappers, by (tokenizer path, max_length, input format)."""


def _encoder(path: str, max_length: int, input_format: int) -> features.PairEncoder:
    key = (path, max_length, input_format)
    if key not in _ENCODERS:
        _ENCODERS[key] = features.PairEncoder.from_file(path, max_length, input_format)
    return _ENCODERS[key]


def _init_worker() -> None:
    os.environ["TOKENIZERS_PARALLELISM"] = "false"  # one core per worker
    threading.Thread(target=_exit_with_parent, name="writegate-orphan-watch", daemon=True).start()


def _exit_with_parent() -> None:
    # A killed parent (kill -9) cannot stop its workers: they would wait for work for ever (and
    # keep the forkserver and the parent's stdout alive). Exit when the parent is gone.
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(1)


def _prepare(args: tuple[str, int, int, int, columnar.PairWindow]) -> columnar.PreparedWindow:
    path, max_length, input_format, batch_size, window = args
    return columnar.prepare_window(_encoder(path, max_length, input_format), window, batch_size)


def _call(args: tuple[Callable[[Any], Any], Any]) -> Any:
    fn, item = args
    return fn(item)


def default_workers() -> int:
    """One worker per core this process may use, less one for the process that runs the model."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class Feeder:
    """Prepares windows in worker processes and labels them with a backend (see the module docstring).

    Args:
        model_dir: the model directory (its tokenizer and `writegate.json`).
        batch_size: pairs per backend call.
        workers: worker processes; 0 = prepare in this process (None = `default_workers()`).
        depth: windows in flight per worker.
        fusion: fuse structure into the probabilities (None = the model's `writegate.json`).
        preload: modules the workers' functions need (`Feeder.map`'s), imported once by the fork
            server rather than by each worker (the first feeder of a process sets them).

    Raises:
        InputError: `batch_size`, `workers` or `depth` out of range, or the model directory lacks its tokenizer.
    """

    def __init__(
        self,
        model_dir: Path,
        *,
        batch_size: int = 64,
        workers: int | None = None,
        depth: int = DEFAULT_DEPTH,
        fusion: bool | None = None,
        preload: Sequence[str] = (),
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InputError("batch_size", f"must be an integer ≥ 1, got {batch_size!r}")
        workers = default_workers() if workers is None else workers
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
            raise InputError("workers", f"must be an integer ≥ 0, got {workers!r}")
        if depth < 1:
            raise InputError("depth", f"must be ≥ 1, got {depth}")
        meta = modeldir.read_meta(Path(model_dir))
        self.tokenizer = str(modeldir.require_file(Path(model_dir), modeldir.TOKENIZER))
        self.max_length = meta.max_length
        self.input_format = features.check_input_format(meta.input_format_version, "model")
        self.temperature = meta.temperature
        self.review = meta.review
        self.fusion = meta.fusion if fusion is None else fusion
        self.batch_size = batch_size
        self.workers = workers
        self.depth = depth
        self.preload = tuple(preload)
        self._pool: ProcessPoolExecutor | None = None

    # -- the pool --------------------------------------------------------------------------------
    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context: multiprocessing.context.BaseContext
            if "forkserver" in multiprocessing.get_all_start_methods():
                forkserver = multiprocessing.get_context("forkserver")
                # imported once by the fork server, not by every worker (it forks them with the modules loaded)
                forkserver.set_forkserver_preload([__name__, *self.preload])
                context = forkserver
            else:
                context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_init_worker)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (a later call starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Feeder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ordered(self, fn: Callable[[Any], R], args: Iterable[Any]) -> Iterator[R]:
        """`fn` over `args` in the pool, results in order, at most `depth × workers` in flight."""
        if self.workers == 0:
            for a in args:
                yield fn(a)
            return
        pool = self._executor()
        pending: deque[Future[R]] = deque()
        limit = self.depth * self.workers
        it = iter(args)
        try:
            for a in it:
                pending.append(pool.submit(fn, a))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for f in pending:
                f.cancel()

    # -- front doors -----------------------------------------------------------------------------
    def submit(self, fn: Callable[[T], R], item: T) -> Future[R]:
        """`fn(item)` in a worker (`fn` must be a module-level function); in this process when `workers` is 0
        (the future is then already done). Wrap it with `asyncio.wrap_future` to await it."""
        if self.workers == 0:
            out: Future[R] = Future()
            try:
                out.set_result(fn(item))
            except Exception as exc:  # handed to the caller through the future
                out.set_exception(exc)
            return out
        return self._executor().submit(_call, (fn, item))

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """`fn(item)` for each item, in the workers (`fn` must be a module-level function), in order."""
        return self._ordered(_call, ((fn, item) for item in items))

    def prepare(self, windows: Iterable[columnar.PairWindow]) -> Iterator[columnar.PreparedWindow]:
        """Each window compared, tokenized and cut into padded batches (`columnar.prepare_window`), in order."""
        return self._ordered(
            _prepare, ((self.tokenizer, self.max_length, self.input_format, self.batch_size, w) for w in windows)
        )

    def label(self, backend: Backend, windows: Iterable[columnar.PairWindow]) -> Iterator[columnar.Labels]:
        """Label each window with `backend`, in order: the forward of one window runs in a device
        thread while this thread decodes the window before it and the workers prepare the next."""
        with ThreadPoolExecutor(1, thread_name_prefix="writegate-device") as device:
            ahead: tuple[columnar.PreparedWindow, Future[list[np.ndarray]]] | None = None
            for prepared in self.prepare(windows):
                running = (prepared, device.submit(backend.run_many, [b.batch for b in prepared.batches]))
                if ahead is not None:
                    yield self._decode(*ahead)
                ahead = running
            if ahead is not None:
                yield self._decode(*ahead)

    def _decode(self, prepared: columnar.PreparedWindow, logits: Future[list[np.ndarray]]) -> columnar.Labels:
        return columnar.label_window(
            prepared, logits.result(), temperature=self.temperature, fusion=self.fusion, review=self.review
        )
