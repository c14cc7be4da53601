"""OpenTelemetry traces of the WriteGate RPCs, joined to the caller's trace (opt-in: `--otel-exporter`).

Only `writegate.server.app.start_tracing` imports this module, and only when tracing is on: with
`--otel-exporter none` (the default) OpenTelemetry is never imported and no request does any
tracing work (the servicer is the plain `WriteGateService`, no tracing interceptor is installed).

What is traced:

- one SERVER span per WriteGate RPC, `writegate.v1.WriteGate/<Method>`, made by
  `TracingInterceptor` (the outermost interceptor, so refusals such as UNAUTHENTICATED are traced
  too). Its parent is the caller's span when the call's metadata carries a W3C `traceparent`
  (what OpenTelemetry's gRPC client instrumentation sends); else it begins a trace. Attributes:
  `rpc.system`, `rpc.service`, `rpc.method`, `rpc.grpc.status_code` and, for Classify and
  PrepareWrite, `writegate.candidates`; the span's status is ERROR for the server-side codes of
  OpenTelemetry's gRPC conventions (`SERVER_ERRORS`).
- its stages, as child spans (`TracedWriteGateService`, unary RPCs): `validate`, `normalize`
  (`writegate.memories`, `writegate.normalized`: the ones not in the record cache), then, from the
  batcher's `Timeline`, `encode` (tokenize and compare records: `writegate.pairs`), `queue_wait`
  (`writegate.queue.pairs_ahead`), `model` (`writegate.batches`, `writegate.batch_pairs`: every
  batch that carried the request's pairs, other requests' pairs included), and `prepare`
  (PrepareWrite: `writegate.edges`). A stage that failed has status ERROR, described by the
  error's type (and, for bad input, the field): never a memory text, id or subject, in any
  attribute either.

The tracer provider is the server's own (as `Metrics` has its own registry), not OpenTelemetry's
global one: `start_tracing` builds it from the config (the console exporter, or OTLP over gRPC to
`--otel-endpoint`, batched), or a test passes one (an in-memory exporter).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import grpc
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter
from opentelemetry.sdk.trace.sampling import ParentBased, TraceIdRatioBased
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from writegate.api import prepare
from writegate.api.normalizing import MemoryKey, Normalized
from writegate.classifier.batcher import Timeline
from writegate.classifier.types import Pair, Prediction
from writegate.errors import InputError
from writegate.normalizer.schema import Memory, Record
from writegate.server.config import ServerConfig
from writegate.server.interceptors import SERVICE_NAME, CallObserver, WriteGateInterceptor, wrap_handler
from writegate.server.security import method_of
from writegate.server.service import WriteGateService
from writegate.v1 import writegate_pb2 as pb

INSTRUMENTATION = "writegate.server"
"""The tracer's (instrumentation scope's) name."""
SERVER_ERRORS: frozenset[str] = frozenset(
    {"UNKNOWN", "DEADLINE_EXCEEDED", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS"}
)
"""The status codes that make a server span's status ERROR (OpenTelemetry's gRPC conventions: the
others are the caller's mistakes or choices, and leave it unset)."""


def build_provider(config: ServerConfig) -> TracerProvider:
    """A tracer provider for `config`'s exporter (`console` or `otlp`), batching its spans.

    Raises:
        ModuleNotFoundError: `otlp` without its exporter package (the `otel` extra).
    """
    exporter: SpanExporter
    if config.otel_exporter == "otlp":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter(endpoint=config.otel_endpoint)
    else:
        exporter = ConsoleSpanExporter(service_name=config.otel_service_name, out=sys.stdout)  # stdout now
    provider = TracerProvider(
        resource=Resource.create({"service.name": config.otel_service_name}),
        sampler=ParentBased(TraceIdRatioBased(config.otel_sample_ratio)),
    )
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


class Tracing:
    """The server's tracer, the W3C propagator, and what they trace with.

    Args:
        provider: the tracer provider.
        owned: True when the server made `provider` and shuts it down (flushing its spans) at stop.
    """

    def __init__(self, provider: TracerProvider, *, owned: bool) -> None:
        self.provider = provider
        self.owned = owned
        self.tracer: Tracer = provider.get_tracer(INSTRUMENTATION)
        self.propagator = TraceContextTextMapPropagator()

    @classmethod
    def start(cls, config: ServerConfig, provider: TracerProvider | None = None) -> Tracing:
        """Tracing with `provider`, else with a provider built from `config` (`build_provider`).

        Raises:
            InputError: `otel_endpoint` is set but the exporter is not `otlp`.
            ModuleNotFoundError: the exporter's package is missing.
        """
        if config.otel_endpoint is not None and config.otel_exporter != "otlp":
            raise InputError("otel_endpoint", f"is only used with --otel-exporter otlp (not {config.otel_exporter})")
        if provider is not None:
            return cls(provider, owned=False)
        return cls(build_provider(config), owned=True)

    def interceptor(self) -> TracingInterceptor:
        """The interceptor that makes each RPC's span (the outermost one)."""
        return TracingInterceptor(self)

    def service(self, **kwargs: Any) -> TracedWriteGateService:
        """The servicer that traces its stages (`kwargs`: `WriteGateService`'s)."""
        return TracedWriteGateService(self.tracer, **kwargs)

    def shutdown(self) -> None:
        """Export what is left and stop the exporter, when the provider is the server's own."""
        if self.owned:
            self.owned = False  # once
            self.provider.shutdown()


class _TracedCall:
    """One RPC's span: begun when the call reaches the interceptors, current while a unary
    handler runs (so that the servicer's stage spans are its children), ended with the status."""

    def __init__(
        self, tracer: Tracer, method: str, request: Any, parent: otel_context.Context, *, stream: bool
    ) -> None:
        attributes: dict[str, Any] = {"rpc.system": "grpc", "rpc.service": SERVICE_NAME, "rpc.method": method}
        candidates = getattr(request, "candidates", None)
        if candidates is not None:
            attributes["writegate.candidates"] = len(candidates)
        self.span = tracer.start_span(
            f"{SERVICE_NAME}/{method}", context=parent, kind=SpanKind.SERVER, attributes=attributes
        )
        self.messages = 0
        self.stream = stream
        # a stream's handler is an async generator, which may be closed from another context: only a
        # unary call makes its span current (a stream's span is the parent of nothing)
        self._token = None if self.stream else otel_context.attach(trace.set_span_in_context(self.span, parent))

    def message(self, request: Any) -> None:
        self.messages += 1

    def done(self, status: str, seconds: float) -> None:
        try:
            code = grpc.StatusCode[status] if status in grpc.StatusCode.__members__ else grpc.StatusCode.UNKNOWN
            self.span.set_attribute("rpc.grpc.status_code", code.value[0])
            if self.stream:
                self.span.set_attribute("writegate.messages", self.messages)
            if status in SERVER_ERRORS:
                self.span.set_status(Status(StatusCode.ERROR, status))
            self.span.end()
        finally:
            if self._token is not None:
                otel_context.detach(self._token)


class TracingInterceptor(WriteGateInterceptor):
    """A SERVER span per WriteGate RPC, child of the caller's span when its metadata carries one."""

    def __init__(self, tracing: Tracing) -> None:
        self.tracing = tracing

    def intercept(self, handler: grpc.RpcMethodHandler, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        """`handler`, observed by a `_TracedCall` whose parent is read from the call's metadata."""
        metadata = {key: value for key, value in details.invocation_metadata or () if isinstance(value, str)}
        parent = self.tracing.propagator.extract(metadata)
        tracer, stream = self.tracing.tracer, bool(handler.request_streaming)

        def begin(method: str, request: Any) -> CallObserver:
            return _TracedCall(tracer, method, request, parent, stream=stream)

        return wrap_handler(handler, method_of(details.method), begin)


def _error(exc: BaseException) -> str:
    """How a failed stage is described: the error's type, and the field of bad input (never a text)."""
    if isinstance(exc, InputError):
        return f"InputError: {exc.field}"
    return type(exc).__name__


@contextlib.contextmanager
def _failing(span: Span) -> Iterator[Span]:
    """`span`, whose status becomes ERROR (`_error`) when the block raises."""
    try:
        yield span
    except BaseException as exc:
        span.set_status(Status(StatusCode.ERROR, _error(exc)))
        raise


class TracedWriteGateService(WriteGateService):
    """`WriteGateService` whose stages are spans, children of the RPC's span (`TracingInterceptor`).

    Args:
        tracer: the server's tracer.
        **kwargs: `WriteGateService`'s.
    """

    def __init__(self, tracer: Tracer, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tracer = tracer

    @contextlib.contextmanager
    def _stage(self, name: str, **attributes: Any) -> Iterator[Span]:
        """A stage's span, current while the block runs; ERROR when the block raises."""
        with (
            self.tracer.start_as_current_span(
                name, attributes=attributes, record_exception=False, set_status_on_exception=False
            ) as span,
            _failing(span),
        ):
            yield span

    def _validate(self, check: Any, request: Any) -> None:
        with self._stage("validate"):
            super()._validate(check, request)

    async def _records_of(self, mems: Sequence[Memory], fields: Sequence[str]) -> list[tuple[Record, ...]]:
        with self._stage("normalize", **{"writegate.memories": len(mems), "writegate.normalized": 0}):
            return await super()._records_of(mems, fields)

    async def _normalized(self, items: list[MemoryKey]) -> list[Normalized]:
        trace.get_current_span().set_attribute("writegate.normalized", len(items))  # the `normalize` span
        return await super()._normalized(items)

    async def _labels(self, pairs: list[Pair], deadline: float | None) -> list[Prediction]:
        """The batcher's answer, and its stages as spans made afterwards from the request's `Timeline`."""
        timeline, start_ns, error = Timeline(), time.time_ns(), None
        try:
            return await self.batcher.submit(pairs, deadline=deadline, timeline=timeline)
        except BaseException as exc:
            error = exc
            raise
        finally:
            self._timeline_spans(len(pairs), timeline, start_ns, time.time_ns(), error)

    def _timeline_spans(
        self, pairs: int, timeline: Timeline, start_ns: int, end_ns: int, error: BaseException | None
    ) -> None:
        """`encode`, `queue_wait` and `model`, as far as the request got; the last one fails with `error`."""
        stages: list[tuple[str, int, int, Mapping[str, Any]]] = []
        queued = timeline.queued_ns
        stages.append(("encode", start_ns, queued or end_ns, {"writegate.pairs": pairs}))
        if queued is not None:
            batches = timeline.batches
            first = min((b.start_ns for b in batches), default=end_ns)
            stages.append(("queue_wait", queued, first, {"writegate.queue.pairs_ahead": timeline.pairs_ahead or 0}))
            if batches:
                model = {
                    "writegate.pairs": sum(b.pairs for b in batches),
                    "writegate.batches": len(batches),
                    "writegate.batch_pairs": [b.batch_pairs for b in batches],
                }
                stages.append(("model", first, max(b.end_ns for b in batches), model))
        for i, (name, start, end, attributes) in enumerate(stages):
            span = self.tracer.start_span(name, start_time=start, attributes=attributes)
            if error is not None and i == len(stages) - 1:
                span.set_status(Status(StatusCode.ERROR, _error(error)))
            span.end(end_time=max(start, end))

    def _prepared(
        self, new_id: str, records: Sequence[Record], relations: Sequence[prepare.Relation]
    ) -> pb.PrepareWriteResponse:
        with self._stage("prepare") as span:
            response = super()._prepared(new_id, records, relations)
            span.set_attribute("writegate.edges", len(response.edges))
            return response
