"""Windowed classification: the one classify path of `writegate relabel` (local and Ray) and the
gRPC `Relabel` stream.

A *window* of pairs is encoded (compare the records each side carries + tokenize: the caller
normalized them, e.g. `writegate relabel` from its plan), sorted by length (stable, so
ties keep input order), cut into batches of `batch_size`, run and decoded; predictions come back
in input order. The batches depend only on the window's pairs, so the same window always gives
the same numbers — what makes resumed runs byte-identical to uninterrupted ones.

Front doors:

- `classify_window(model, pairs, batch_size)`: one window, sync (the CLI's chunks, Ray actors);
- `label_pairs(model, pairs, batch_size, window)`: a sync stream of pairs, windowed;
- `alabel_pairs(items, run_window, window)`: an async stream of `(key, pair)` (the gRPC stream),
  each window handed to `run_window` (e.g. the dynamic batcher's `submit`, or `thread_runner`),
  at most `depth` windows in flight, results yielded in request order;
- `edge_line(new_id, existing_id, prediction)`: the output line of one labelled pair.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Protocol, TypeVar

import numpy as np

from writegate.classifier.backends.base import Batch
from writegate.classifier.model import predict_in_length_order
from writegate.classifier.types import Pair, Prediction
from writegate.normalizer.errors import InputError

K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")

DEFAULT_BATCH_SIZE = 64
DEFAULT_WINDOW = 1024
SCORE_DIGITS = 6
"""Scores are written rounded to this many decimals (as `writegate classify` prints them)."""


class WindowModel(Protocol):
    """What the classify path needs: the classifier's pre / core / post steps."""

    def encode(self, pairs: Sequence[Pair]) -> Sequence[Any]: ...

    def collate(self, items: Sequence[Any]) -> Batch: ...

    def run(self, batch: Batch) -> np.ndarray: ...

    def decode(self, items: Sequence[Any], logits: np.ndarray) -> list[Prediction]: ...


RunWindow = Callable[[list[Pair]], Awaitable[Sequence[Prediction]]]
"""Labels one window of pairs, asynchronously (in input order)."""


def _check_positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(name, f"must be an integer ≥ 1, got {value!r}")


def classify_window(
    model: WindowModel, pairs: Sequence[Pair], batch_size: int = DEFAULT_BATCH_SIZE
) -> list[Prediction]:
    """Label one window of pairs: encode, stable sort by length, run in batches, restore order.

    Args:
        model: a `Classifier` (or anything with its encode / collate / run / decode).
        pairs: the window, (EXISTING, NEW) each.
        batch_size: pairs per backend call.

    Returns:
        One prediction per pair, in input order.

    Raises:
        InputError: `batch_size` is not ≥ 1.
    """
    _check_positive("batch_size", batch_size)
    return run_encoded(model, encode_window(model, pairs), batch_size)


def encode_window(model: WindowModel, pairs: Sequence[Pair]) -> Sequence[Any]:
    """The pre step of `classify_window` alone (pure Python: a pipeline runs it ahead in a thread)."""
    return model.encode(pairs) if pairs else []


def run_encoded(model: WindowModel, items: Sequence[Any], batch_size: int = DEFAULT_BATCH_SIZE) -> list[Prediction]:
    """The rest of `classify_window`: stable sort by length, run in batches, decode, input order."""
    _check_positive("batch_size", batch_size)
    return predict_in_length_order(model, items, batch_size)


def label_pairs(
    model: WindowModel,
    pairs: Iterable[Pair],
    batch_size: int = DEFAULT_BATCH_SIZE,
    window: int = DEFAULT_WINDOW,
) -> Iterator[Prediction]:
    """Label a stream of pairs, `window` pairs at a time; predictions in input order.

    Memory stays bounded by one window whatever the stream's length.

    Raises:
        InputError: `batch_size` or `window` is not ≥ 1.
    """
    _check_positive("batch_size", batch_size)
    _check_positive("window", window)
    it = iter(pairs)
    while chunk := list(islice(it, window)):
        yield from classify_window(model, chunk, batch_size)


def thread_runner(model: WindowModel, batch_size: int = DEFAULT_BATCH_SIZE) -> RunWindow:
    """A `RunWindow` that runs `classify_window` in a worker thread (off the event loop)."""

    async def run(pairs: list[Pair]) -> Sequence[Prediction]:
        return await asyncio.to_thread(classify_window, model, pairs, batch_size)

    return run


async def alabel_pairs(
    items: AsyncIterable[tuple[K, P]],
    run_window: Callable[[list[P]], Awaitable[Sequence[R]]],
    window: int = 256,
    depth: int = 2,
) -> AsyncIterator[tuple[K, R]]:
    """Label an async stream of `(key, pair)`; yields `(key, prediction)` in request order.

    The items are handed to `run_window` as they came (a `RunWindow` takes Pairs; the gRPC stream
    also passes a bad request's own error in its place), and it returns one answer per item.

    A window is what has arrived when the previous one was handed on (at least one pair, at most
    `window`), so a slow stream is not held back waiting for a full window. At most `depth`
    windows are in flight: reading pauses when they are (flow control). An exception raised by
    the request stream is re-raised after the results of the pairs read before it.

    Raises:
        InputError: `window` or `depth` is not ≥ 1.
    """
    _check_positive("window", window)
    _check_positive("depth", depth)
    inbox: asyncio.Queue[tuple[K, P] | BaseException | None] = asyncio.Queue(maxsize=window)
    in_flight: asyncio.Queue[tuple[list[K], asyncio.Task[Sequence[R]]] | BaseException | None] = asyncio.Queue(
        maxsize=depth
    )

    async def read() -> None:
        try:
            async for item in items:
                await inbox.put(item)
            await inbox.put(None)
        except Exception as exc:  # noqa: BLE001 - handed on, re-raised in order
            await inbox.put(exc)

    async def dispatch() -> None:
        done = False
        while not done:
            first = await inbox.get()
            entries: list[tuple[K, P]] = []
            tail: BaseException | None = None
            for entry in _drain(inbox, first, window):
                if entry is None:
                    done = True
                elif isinstance(entry, BaseException):
                    tail, done = entry, True
                else:
                    entries.append(entry)
            if entries:
                task = asyncio.ensure_future(run_window([p for _, p in entries]))
                await in_flight.put(([k for k, _ in entries], task))
            if tail is not None:
                await in_flight.put(tail)
        await in_flight.put(None)

    reader = asyncio.ensure_future(read())
    dispatcher = asyncio.ensure_future(dispatch())
    pending: list[asyncio.Task[Any]] = []
    try:
        while (entry := await in_flight.get()) is not None:
            if isinstance(entry, BaseException):
                raise entry
            keys, task = entry
            pending.append(task)
            preds = await task
            pending.remove(task)
            if len(preds) != len(keys):
                raise RuntimeError(f"window of {len(keys)} pairs got {len(preds)} predictions")
            for key, pred in zip(keys, preds, strict=True):
                yield key, pred
    finally:
        reader.cancel()
        dispatcher.cancel()
        while not in_flight.empty():
            left = in_flight.get_nowait()
            if isinstance(left, tuple):
                pending.append(left[1])
        for task in pending:
            task.cancel()


def _drain(queue: asyncio.Queue[Any], first: Any, limit: int) -> Iterator[Any]:
    """`first`, then what is waiting in `queue` now, up to `limit` pairs or an end marker."""
    yield first
    count = 1
    if first is None or isinstance(first, BaseException):
        return
    while count < limit and not queue.empty():
        entry = queue.get_nowait()
        yield entry
        if entry is None or isinstance(entry, BaseException):
            return
        count += 1


def rounded_scores(prediction: Prediction) -> dict[str, float]:
    """The prediction's probabilities rounded to `SCORE_DIGITS` decimals, in label order."""
    return {name: round(float(p), SCORE_DIGITS) for name, p in prediction.probabilities.items()}


def edge_line(new_id: str, existing_id: str, prediction: Prediction) -> dict[str, Any]:
    """The output line of one labelled pair (`writegate relabel`'s edges file).

    `{"new_id", "existing_id", "label", "scores", "evidence", "slot_match"}`: the label says how
    NEW relates to EXISTING (the older record).
    """
    return {
        "new_id": new_id,
        "existing_id": existing_id,
        "label": prediction.label.value,
        "scores": rounded_scores(prediction),
        "evidence": prediction.evidence.value,
        "slot_match": prediction.slot_match,
    }
