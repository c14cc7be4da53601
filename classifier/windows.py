"""The gRPC `Relabel` stream's windows: an async stream of pairs labelled a window at a time.

`alabel_pairs(items, run_window, window)` takes an async stream of `(key, pair)`, hands each window
to `run_window` (the dynamic batcher's `submit`), keeps at most `depth` windows in flight, and
yields the results in request order. Batch relabel runs its windows through the feeder instead
(`classifier/feeder.py`). The constants are the relabel defaults and the scores' rounding.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

from writegate.classifier.types import Pair, Prediction
from writegate.errors import InputError

K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")

DEFAULT_BATCH_SIZE = 64
SCORE_DIGITS = 6
"""Scores are written rounded to this many decimals (as `writegate classify` prints them)."""


RunWindow = Callable[[list[Pair]], Awaitable[Sequence[Prediction]]]
"""Labels one window of pairs, asynchronously (in input order)."""


def _check_positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(name, f"must be an integer ≥ 1, got {value!r}")


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
        except Exception as exc:  # handed on, re-raised in order
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
