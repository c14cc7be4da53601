"""`AsyncClient`: the asyncio WriteGate client (typed: pydantic in, pydantic out).

The one implementation of the calls and deadlines (gRPC retries them: `RetryPolicy`); the blocking
`Client` runs it on an event loop of its own.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Iterable, Sequence
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
    embed_request,
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
        retry: how the channel the client opens retries UNAVAILABLE (None: `RetryPolicy()`, 3 retries).
        channel: an existing channel (then `target`, `retry` and the TLS options are not used and
            `close()` leaves it open); it retries as its own options say (`RetryPolicy.channel_options()`).
        tls: use TLS with the system's root CAs (implied by any of the next three).
        tls_ca: the CA (PEM path or bytes) that signed the server's certificate.
        tls_cert: the client certificate (PEM) for mutual TLS, with `tls_key`.
        tls_key: the client certificate's private key (PEM).
        tls_server_name: the name to check the server certificate against, when not the target's host.
        token: bearer token sent as `authorization: Bearer <token>` on every call.

    Raises:
        ValueError: (here) both `channel` and `retry` are given.
        InputError: (from every call) INVALID_ARGUMENT, with the field the server named.
        grpc.RpcError: (from every call) any other failure (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED,
            INTERNAL, UNAVAILABLE after the last retry), as `grpc.aio.AioRpcError`.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        timeout: float | None = 10.0,
        retry: RetryPolicy | None = None,
        channel: grpc.aio.Channel | None = None,
        tls: bool = False,
        tls_ca: PemSource | None = None,
        tls_cert: PemSource | None = None,
        tls_key: PemSource | None = None,
        tls_server_name: str | None = None,
        token: str | None = None,
    ) -> None:
        if channel is not None and retry is not None:
            raise ValueError(
                "retry applies to the channel the client opens: make yours with RetryPolicy.channel_options()"
            )
        self._own_channel = channel is None
        self.metadata = auth_metadata(token)
        self._retry = None if channel is not None else retry or RetryPolicy()
        if channel is None:
            creds = channel_credentials(tls=tls, tls_ca=tls_ca, tls_cert=tls_cert, tls_key=tls_key)
            options = channel_options(tls_server_name, self._retry)
            channel = (
                grpc.aio.insecure_channel(target, options=options)
                if creds is None
                else grpc.aio.secure_channel(target, creds, options=options)
            )
        self.channel = channel
        self.stub = pb_grpc.WriteGateStub(self.channel)
        self.timeout = timeout

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def retry(self) -> RetryPolicy | None:
        """The retry policy of the channel the client opened (None on a channel of the caller's)."""
        return self._retry

    async def close(self) -> None:
        """Close the channel (if this client opened it); closing again does nothing."""
        if self._own_channel:
            await self.channel.close()

    async def _call(self, method: Callable[..., Any], request: Any, timeout: float | None) -> Any:
        try:
            return await method(request, timeout=self.timeout if timeout is None else timeout, metadata=self.metadata)
        except grpc.RpcError as exc:
            raise_typed(exc)

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

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        """One embedding per text, in order: `dim` floats of unit length (cosine = dot product).

        The server batches the texts with other calls' texts; INVALID_ARGUMENT names the text
        (`texts[2]: is required (empty)`).
        """
        resp = await self._call(self.stub.Embed, embed_request(texts), timeout)
        return convert.embeddings_from_proto(resp)

    async def relabel(
        self, pairs: AsyncIterable[RelabelPair | dict] | Iterable[RelabelPair | dict], *, timeout: float | None = None
    ) -> AsyncGenerator[RelabelResult, None]:
        """Stream pairs in, one result per pair out in the same order.

        Each result holds the pair's `relation`, or its own `error` (a bad pair, a full queue, a
        failed batch: `result.ok` is False) and the stream goes on. Only stream-level failures
        raise (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED). gRPC retries UNAVAILABLE (`retry`) only
        before the first result, sending the pairs again from its buffer (see `RetryPolicy`).
        `timeout` bounds the whole stream, retries included; None = no deadline (the client
        default does not apply). Leaving the iteration early cancels the stream.
        """

        async def requests() -> AsyncIterator[pb.RelabelRequest]:
            if isinstance(pairs, AsyncIterable):
                async for p in pairs:
                    yield relabel_request(p)
            else:
                for p in pairs:
                    yield relabel_request(p)

        call = self.stub.Relabel(requests(), timeout=timeout, metadata=self.metadata)
        try:
            async for msg in call:
                yield relabel_result(msg)
        except grpc.RpcError as exc:
            raise_typed(exc)
        finally:
            call.cancel()  # a stream left early (or failed) ends here, not at garbage collection
