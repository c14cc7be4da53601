"""`AsyncClient`: the asyncio WriteGate client (typed: pydantic in, pydantic out).

The one implementation of the calls, deadlines and retries; the blocking `Client` runs it on an
event loop of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

import grpc

from writegate.api import convert
from writegate.api.types import Memory, ModelInfo, PrepareWriteResult, Record, Relation
from writegate.client.common import (
    DEFAULT_TARGET,
    PemSource,
    RelabelPair,
    RelabelResult,
    RetryPolicy,
    auth_metadata,
    channel_credentials,
    channel_options,
    classify_request,
    normalize_request,
    prepare_write_request,
    raise_typed,
    relabel_request,
    relabel_result,
)
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc


class AsyncClient:
    """An asyncio client of the WriteGate service.

    Use as `async with AsyncClient(target) as client: ...` or call `await client.close()`.

    Args:
        target: `host:port` of the server.
        timeout: default deadline per call in seconds (retries included); None = no deadline.
        retry: retries on UNAVAILABLE (backoff with jitter).
        channel: an existing channel (then `target` and the TLS options are ignored and `close()`
            leaves it open).
        tls: use TLS with the system's root CAs (implied by any of the next three).
        tls_ca: the CA (PEM path or bytes) that signed the server's certificate.
        tls_cert: the client certificate (PEM) for mutual TLS, with `tls_key`.
        tls_key: the client certificate's private key (PEM).
        tls_server_name: the name to check the server certificate against, when not the target's host.
        token: bearer token sent as `authorization: Bearer <token>` on every call.
        sleep: the sleep awaited between retries (tests pass a fake).

    Raises (from every call):
        InputError: INVALID_ARGUMENT, with the field the server named.
        grpc.RpcError: any other failure (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE
            after the last retry), as `grpc.aio.AioRpcError`.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        timeout: float | None = 10.0,
        retry: RetryPolicy = RetryPolicy(),  # noqa: B008 - frozen
        channel: grpc.aio.Channel | None = None,
        tls: bool = False,
        tls_ca: PemSource | None = None,
        tls_cert: PemSource | None = None,
        tls_key: PemSource | None = None,
        tls_server_name: str | None = None,
        token: str | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._own_channel = channel is None
        self.metadata = auth_metadata(token)
        if channel is None:
            creds = channel_credentials(tls=tls, tls_ca=tls_ca, tls_cert=tls_cert, tls_key=tls_key)
            options = channel_options(tls_server_name)
            channel = (
                grpc.aio.insecure_channel(target, options=options)
                if creds is None
                else grpc.aio.secure_channel(target, creds, options=options)
            )
        self.channel = channel
        self.stub = pb_grpc.WriteGateStub(self.channel)
        self.timeout = timeout
        self.retry = retry
        self._sleep = sleep

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the channel (if this client opened it); closing again does nothing."""
        if self._own_channel:
            await self.channel.close()

    async def _call(self, method: Callable[..., Any], request: Any, timeout: float | None) -> Any:
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        attempt = 0
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                return await method(request, timeout=remaining, metadata=self.metadata)
            except grpc.RpcError as exc:
                wait = self.retry.retry_after(exc, attempt, deadline, time.monotonic())
                if wait is None:
                    raise_typed(exc)
                await self._sleep(wait)
                attempt += 1

    async def normalize(self, memory: Memory | dict, *, timeout: float | None = None) -> list[Record]:
        """The memory's records."""
        resp = await self._call(self.stub.Normalize, normalize_request(memory), timeout)
        return [convert.record_from_proto(r, f"records[{i}]") for i, r in enumerate(resp.records)]

    async def classify(
        self, memory: Memory | dict, candidates: Sequence[Memory | dict], *, timeout: float | None = None
    ) -> list[Relation]:
        """One relation per candidate, in candidate order."""
        resp = await self._call(self.stub.Classify, classify_request(memory, candidates), timeout)
        return [convert.relation_from_proto(r, f"relations[{i}]") for i, r in enumerate(resp.relations)]

    async def prepare_write(
        self, memory: Memory | dict, candidates: Sequence[Memory | dict], *, timeout: float | None = None
    ) -> PrepareWriteResult:
        """Records, relations, candidate roles and edges to store for writing `memory`."""
        resp = await self._call(self.stub.PrepareWrite, prepare_write_request(memory, candidates), timeout)
        return convert.prepare_write_from_proto(resp)

    async def model_info(self, *, timeout: float | None = None) -> ModelInfo:
        """The served model."""
        resp = await self._call(self.stub.GetModelInfo, pb.GetModelInfoRequest(), timeout)
        return convert.model_info_from_proto(resp)

    async def relabel(
        self, pairs: AsyncIterable[RelabelPair | dict] | Iterable[RelabelPair | dict], *, timeout: float | None = None
    ) -> AsyncGenerator[RelabelResult, None]:
        """Stream pairs in, one result per pair out in the same order.

        Each result holds the pair's `relation`, or its own `error` (a bad pair, a full queue, a
        failed batch: `result.ok` is False) and the stream goes on. Only stream-level failures
        raise (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED). UNAVAILABLE is retried (`retry`) only
        before the first result and only when `pairs` is a sequence (sent again from the start);
        an iterator is not replayable. `timeout` bounds the whole stream, retries included; None
        = no deadline (the client default does not apply). Leaving the iteration early cancels
        the stream.
        """

        async def requests() -> AsyncIterator[pb.RelabelRequest]:
            if isinstance(pairs, AsyncIterable):
                async for p in pairs:
                    yield relabel_request(p)
            else:
                for p in pairs:
                    yield relabel_request(p)

        replayable = isinstance(pairs, Sequence)
        deadline = None if timeout is None else time.monotonic() + timeout
        for attempt in itertools.count():
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            call = self.stub.Relabel(requests(), timeout=remaining, metadata=self.metadata)
            answered = False
            try:
                async for msg in call:
                    answered = True
                    yield relabel_result(msg)
                return
            except grpc.RpcError as exc:
                wait = (
                    None
                    if answered or not replayable
                    else self.retry.retry_after(exc, attempt, deadline, time.monotonic())
                )
                if wait is None:
                    raise_typed(exc)
                await self._sleep(wait)
            finally:
                if hasattr(call, "cancel"):  # a stream left early (or failed) ends here, not at garbage collection
                    call.cancel()
