"""`Client`: the blocking WriteGate client, a thin wrapper over `AsyncClient`.

Each `Client` runs an `AsyncClient` on a private event loop in a daemon thread; a call submits the
async call to that loop and waits for its result, so calls, deadlines and error mapping have one
implementation (gRPC itself retries: `RetryPolicy`). The wrapper is usable from any thread (several
at once) and from inside a running event loop of the caller's own (the call blocks that loop, as
any blocking call does).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Iterator, Sequence
from typing import Any, TypeVar, Unpack

import grpc

from writegate.api.types import Memory, ModelInfo, PrepareWriteResult, Record, Relation
from writegate.client.aio import AsyncClient
from writegate.client.common import DEFAULT_TARGET, ClientOptions, RelabelPair, RelabelResult, RetryPolicy

_T = TypeVar("_T")
_END = object()


class _LoopThread:
    """An event loop running in a daemon thread; coroutines are submitted to it from other threads."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._lock = threading.Lock()  # submit vs stop: nothing is submitted to a stopped loop
        self.closed = False
        self.thread = threading.Thread(target=self._serve, name="writegate-client-loop", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()  # the default executor is shut down without waiting for a blocked pairs iterator

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        """Run `coro` on the loop and wait for it; its exception is raised here, as it is.

        Raises:
            ValueError: the loop is stopped (the client is closed).
            concurrent.futures.CancelledError: the client was closed while the call waited.
        """
        with self._lock:
            if self.closed:
                coro.close()
                raise ValueError("Cannot invoke RPC: the client is closed")
            future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result()
        except BaseException:  # the call's own error (already done), or KeyboardInterrupt while waiting
            future.cancel()
            raise

    def stop(self, before: Callable[[], Awaitable[None]] | None = None) -> None:
        """Await `before()` on the loop, cancel what still runs there, stop the loop, join the thread."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
        if threading.current_thread() is self.thread:  # dropped inside the loop: no waiting on itself
            self.loop.stop()
            return

        async def wind_down() -> None:
            try:
                if before is not None:
                    await before()
            finally:
                tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(wind_down(), self.loop).result()
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join()


async def _pulled(items: Iterator[_T]) -> AsyncIterator[_T]:
    """An iterator's items, each `next` in a worker thread (a blocking iterator never blocks the loop)."""
    while (item := await asyncio.to_thread(next, items, _END)) is not _END:
        yield item  # type: ignore[misc]


async def _next(stream: AsyncIterator[_T]) -> Any:
    try:
        return await anext(stream)
    except StopAsyncIteration:
        return _END


async def _aclose(stream: AsyncGenerator[Any, None]) -> None:
    await stream.aclose()


class Client:
    """A blocking client of the WriteGate service: `AsyncClient` run on a private event loop.

    Use as `with Client(target) as client: ...` or call `client.close()`. Safe to share between
    threads.

    Args:
        target: `host:port` of the server.
        **options: `timeout`, `retry`, `tls`, `tls_ca`, `tls_cert`, `tls_key`, `tls_server_name`,
            `token`: as for `AsyncClient` (`ClientOptions`).
        channel: a function returning the `grpc.aio.Channel` to use (then `target`, `retry` and
            the TLS options are not used; the channel retries as its options say:
            `RetryPolicy.channel_options()`). It is called on the client's own event loop, since an
            asyncio channel belongs to the loop it was made on; `close()` closes it with that loop.

    Raises:
        ValueError: (here) both `channel` and `retry` are given; (from every call) the client is closed.
        InputError: (from every call) INVALID_ARGUMENT, with the field the server named.
        grpc.RpcError: (from every call) any other failure (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED,
            INTERNAL, UNAVAILABLE after the last retry), as `grpc.aio.AioRpcError`.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        channel: Callable[[], grpc.aio.Channel] | None = None,
        **options: Unpack[ClientOptions],
    ) -> None:
        if channel is not None and not callable(channel):
            raise TypeError("channel must be a function returning a grpc.aio.Channel (made on the client's loop)")

        async def make() -> AsyncClient:
            return AsyncClient(target, channel=None if channel is None else channel(), **options)

        self._runner = _LoopThread()
        try:
            self._aio = self._runner.run(make())
        except BaseException:
            self._runner.stop()
            raise
        # closes the channel (made on this loop, so of no use without it) and ends the thread, on
        # close() or when the client is garbage collected
        self._finalizer = weakref.finalize(self, self._runner.stop, self._aio.channel.close)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel (if this client opened it) and stop the client's loop; closing again does nothing.

        A call still running in another thread then raises `concurrent.futures.CancelledError`.
        """
        self._finalizer()

    @property
    def timeout(self) -> float | None:
        """The default deadline per call in seconds (settable)."""
        return self._aio.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self._aio.timeout = value

    @property
    def retry(self) -> RetryPolicy | None:
        """The retry policy of the channel the client opened (None on a channel of the caller's)."""
        return self._aio.retry

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The metadata sent with every call."""
        return self._aio.metadata

    def normalize(self, memory: Memory | dict, *, timeout: float | None = None) -> list[Record]:
        """The memory's records."""
        return self._runner.run(self._aio.normalize(memory, timeout=timeout))

    def classify(
        self, memory: Memory | dict, candidates: Sequence[Memory | dict], *, timeout: float | None = None
    ) -> list[Relation]:
        """One relation per candidate, in candidate order."""
        return self._runner.run(self._aio.classify(memory, candidates, timeout=timeout))

    def prepare_write(
        self, memory: Memory | dict, candidates: Sequence[Memory | dict], *, timeout: float | None = None
    ) -> PrepareWriteResult:
        """Records, relations, candidate roles and edges to store for writing `memory`."""
        return self._runner.run(self._aio.prepare_write(memory, candidates, timeout=timeout))

    def model_info(self, *, timeout: float | None = None) -> ModelInfo:
        """The served model."""
        return self._runner.run(self._aio.model_info(timeout=timeout))

    def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        """One embedding per text, in order: `dim` floats of unit length (see `AsyncClient.embed`)."""
        return self._runner.run(self._aio.embed(texts, timeout=timeout))

    def relabel(self, pairs: Iterable[RelabelPair | dict], *, timeout: float | None = None) -> Iterator[RelabelResult]:
        """Stream pairs in, one result per pair out in the same order (see `AsyncClient.relabel`).

        Each result holds the pair's `relation` or its own `error` (`result.ok` is False); only
        stream-level failures raise. gRPC retries UNAVAILABLE only before the first result (see
        `RetryPolicy`). An iterator of pairs is read in a worker thread, so it may
        block (read a file, wait on a queue). `timeout` bounds the whole stream; None = no
        deadline. Leaving the loop early (or closing the iterator) cancels the stream.
        """
        source = pairs if isinstance(pairs, Sequence) else _pulled(iter(pairs))
        stream = self._aio.relabel(source, timeout=timeout)
        try:
            while (result := self._runner.run(_next(stream))) is not _END:
                yield result
        finally:
            if not self._runner.closed:
                try:
                    self._runner.run(_aclose(stream))
                except (ValueError, concurrent.futures.CancelledError):
                    pass  # closed meanwhile: the loop's wind-down closed the stream
