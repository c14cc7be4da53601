"""OpenTelemetry traces (`--otel-exporter`): each RPC's SERVER span joins the caller's trace (W3C
`traceparent` metadata), with its stages as children; off by default, without importing
OpenTelemetry. Real loopback ports, the fake classifier, spans in an in-memory exporter (or a
loopback OTLP collector)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import grpc
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from server_fakes import BOOM, FakeClassifier, memory, running_server, serving

from writegate.errors import InputError
from writegate.server.app import WriteGateServer, start_tracing
from writegate.server.config import ServerConfig, load_config
from writegate.server.service import WriteGateService
from writegate.v1 import writegate_pb2 as pb

TRACE_ID = 0x0AF7651916CD43DD8448EB211C80319C
CALLER_SPAN_ID = 0xB7AD6B7169203331
TRACEPARENT = f"00-{TRACE_ID:032x}-{CALLER_SPAN_ID:016x}-01"
"""A caller's span, as OpenTelemetry's gRPC client instrumentation sends it."""
PREPARE_WRITE = "writegate.v1.WriteGate/PrepareWrite"
SECRET = "Zanzibar"
"""A word of every text: it must never appear in a span."""


def in_memory() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def prepare_write_request(n: int, new_text: str = f"she moved to {SECRET}") -> pb.PrepareWriteRequest:
    return pb.PrepareWriteRequest(
        memory=memory("new", new_text),
        candidates=[memory(f"c{i}", f"lives in {SECRET} district {i}") for i in range(n)],
    )


def children(spans: tuple[ReadableSpan, ...], parent: ReadableSpan) -> list[ReadableSpan]:
    """`parent`'s child spans, in the order they began."""
    return sorted(
        (s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id),
        key=lambda s: (s.start_time, s.end_time),
    )


def one(spans: tuple[ReadableSpan, ...], name: str) -> ReadableSpan:
    (span,) = [s for s in spans if s.name == name]
    return span


def assert_no_text(spans: tuple[ReadableSpan, ...]) -> None:
    for span in spans:
        seen = [span.name, str(dict(span.attributes or {})), span.status.description or ""]
        assert not any(SECRET in text for text in seen), span.name


async def test_a_prepare_write_trace_shows_its_stages_under_the_callers_span() -> None:
    provider, exporter = in_memory()
    async with serving(tracer_provider=provider) as (_app, _channel, stub):
        resp = await stub.PrepareWrite(prepare_write_request(3), metadata=(("traceparent", TRACEPARENT),), timeout=5)
    assert len(resp.edges) == 3
    spans = exporter.get_finished_spans()
    rpc = one(spans, PREPARE_WRITE)
    assert rpc.kind is SpanKind.SERVER
    assert rpc.context.trace_id == TRACE_ID
    assert rpc.parent is not None and rpc.parent.span_id == CALLER_SPAN_ID and rpc.parent.is_remote
    assert dict(rpc.attributes or {}) == {
        "rpc.system": "grpc",
        "rpc.service": "writegate.v1.WriteGate",
        "rpc.method": "PrepareWrite",
        "rpc.grpc.status_code": 0,
        "writegate.candidates": 3,
    }
    assert rpc.status.status_code is StatusCode.UNSET

    stages = children(spans, rpc)
    assert [s.name for s in stages] == ["validate", "normalize", "encode", "queue_wait", "model", "prepare"]
    assert len(spans) == 1 + len(stages)  # nothing else, nothing orphaned
    assert rpc.start_time is not None and rpc.end_time is not None
    for before, after in zip(stages, stages[1:], strict=False):
        assert before.end_time is not None and after.start_time is not None
        assert before.end_time <= after.start_time, (before.name, after.name)  # one after the other
    for stage in stages:
        assert stage.context.trace_id == TRACE_ID and stage.kind is SpanKind.INTERNAL
        assert stage.status.status_code is StatusCode.UNSET, stage.name
        assert rpc.start_time <= stage.start_time and stage.end_time <= rpc.end_time  # type: ignore[operator]
    by_name = {s.name: dict(s.attributes or {}) for s in stages}
    assert by_name["normalize"] == {"writegate.memories": 4, "writegate.normalized": 4}  # none cached yet
    assert by_name["encode"] == {"writegate.pairs": 3}
    assert by_name["queue_wait"] == {"writegate.queue.pairs_ahead": 0}
    model = by_name["model"]
    assert model["writegate.pairs"] == 3 and model["writegate.batches"] == len(model["writegate.batch_pairs"]) >= 1
    assert sum(model["writegate.batch_pairs"]) == 3  # this request's pairs alone
    assert by_name["prepare"] == {"writegate.edges": 3}
    assert_no_text(spans)


async def test_a_call_without_traceparent_begins_a_trace_and_cached_memories_are_not_normalized_again() -> None:
    provider, exporter = in_memory()
    async with serving(tracer_provider=provider) as (_app, _channel, stub):
        for _ in range(2):
            await stub.Classify(
                pb.ClassifyRequest(memory=memory("n", "she moved"), candidates=[memory("c")]), timeout=5
            )
    first, second = sorted(
        (s for s in exporter.get_finished_spans() if s.name == "writegate.v1.WriteGate/Classify"),
        key=lambda s: s.start_time or 0,
    )
    assert first.parent is None and second.parent is None and first.context.trace_id != second.context.trace_id
    spans = exporter.get_finished_spans()
    assert [s.name for s in children(spans, first)] == ["validate", "normalize", "encode", "queue_wait", "model"]
    assert [dict(s.attributes or {}) for s in children(spans, second) if s.name == "normalize"] == [
        {"writegate.memories": 2, "writegate.normalized": 0}
    ]


async def test_bad_input_fails_the_validate_span_naming_the_field_never_the_text() -> None:
    provider, exporter = in_memory()
    request = prepare_write_request(2)
    request.candidates[1].id = "c0"
    async with serving(tracer_provider=provider) as (_app, _channel, stub):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(request, metadata=(("traceparent", TRACEPARENT),), timeout=5)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    spans = exporter.get_finished_spans()
    rpc = one(spans, PREPARE_WRITE)
    assert (rpc.attributes or {})["rpc.grpc.status_code"] == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert rpc.status.status_code is StatusCode.UNSET  # the caller's mistake, not the server's
    (validate,) = children(spans, rpc)
    assert validate.name == "validate" and validate.status.status_code is StatusCode.ERROR
    assert validate.status.description == "InputError: candidates[1].id"
    assert_no_text(spans)


async def test_a_failed_batch_fails_the_model_span_and_the_rpc_span() -> None:
    provider, exporter = in_memory()
    async with serving(tracer_provider=provider) as (_app, _channel, stub):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(prepare_write_request(1, new_text=f"{BOOM} {SECRET}"), timeout=5)
    assert info.value.code() is grpc.StatusCode.INTERNAL
    spans = exporter.get_finished_spans()
    rpc = one(spans, PREPARE_WRITE)
    assert rpc.status.status_code is StatusCode.ERROR and rpc.status.description == "INTERNAL"
    stages = children(spans, rpc)
    assert [s.name for s in stages] == ["validate", "normalize", "encode", "queue_wait", "model"]
    assert [s.name for s in stages if s.status.status_code is StatusCode.ERROR] == ["model"]
    assert stages[-1].status.description == "BatchFailed"
    assert_no_text(spans)


async def test_a_relabel_stream_has_its_span_with_the_messages_it_read() -> None:
    provider, exporter = in_memory()
    requests = [
        pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}"), new=memory("n", "moved")) for i in range(3)
    ]
    async with serving(tracer_provider=provider) as (_app, _channel, stub):
        answers = [r async for r in stub.Relabel(iter(requests), metadata=(("traceparent", TRACEPARENT),), timeout=5)]
    assert len(answers) == 3
    rpc = one(exporter.get_finished_spans(), "writegate.v1.WriteGate/Relabel")
    assert rpc.parent is not None and rpc.parent.span_id == CALLER_SPAN_ID
    assert (rpc.attributes or {})["writegate.messages"] == 3 and (rpc.attributes or {})["rpc.grpc.status_code"] == 0


async def test_an_unauthenticated_call_is_traced_too(tmp_path: Any) -> None:
    provider, exporter = in_memory()
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("a-token-of-sixteen-chars\n")
    async with serving(tracer_provider=provider, auth_tokens=tokens) as (_app, _channel, stub):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5)
    assert info.value.code() is grpc.StatusCode.UNAUTHENTICATED
    rpc = one(exporter.get_finished_spans(), "writegate.v1.WriteGate/GetModelInfo")
    assert dict(rpc.attributes or {}) == {
        "rpc.system": "grpc",
        "rpc.service": "writegate.v1.WriteGate",
        "rpc.method": "GetModelInfo",
        "rpc.grpc.status_code": grpc.StatusCode.UNAUTHENTICATED.value[0],
    }


# -- off by default, at no cost --------------------------------------------------------------------


def test_tracing_is_off_by_default_and_opentelemetry_is_not_imported() -> None:
    code = (
        "import sys\n"
        "from writegate.server.app import WriteGateServer\n"
        "from writegate.server.config import load_config\n"
        "from writegate.server.service import WriteGateService\n"
        "app = WriteGateServer(load_config({'port': '0'}), loader=object)\n"
        "assert app.tracing is None and type(app.service) is WriteGateService\n"
        "assert not any(type(i).__name__ == 'TracingInterceptor' for i in app._interceptors())\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'opentelemetry')\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_the_servicer_is_the_plain_one_without_tracing() -> None:
    app = WriteGateServer(ServerConfig(port=0), loader=FakeClassifier)
    assert app.tracing is None and type(app.service) is WriteGateService


# -- configuration ---------------------------------------------------------------------------------


def test_the_otel_settings_come_from_flags_env_and_file(tmp_path: Any) -> None:
    path = tmp_path / "serve.toml"
    path.write_text('otel_exporter = "console"\notel_sample_ratio = 0.25\n')
    cfg = load_config(
        {"otel_service_name": "gate-eu"},
        config_file=path,
        env={"WRITEGATE_OTEL_EXPORTER": "otlp", "WRITEGATE_OTEL_ENDPOINT": "http://collector:4317"},
    )
    assert (cfg.otel_exporter, cfg.otel_endpoint, cfg.otel_service_name, cfg.otel_sample_ratio) == (
        "otlp",
        "http://collector:4317",
        "gate-eu",
        0.25,
    )
    with pytest.raises(InputError) as info:
        load_config({"otel_exporter": "jaeger"})
    assert info.value.field == "--otel-exporter" and "'none', 'console' or 'otlp'" in info.value.message


def test_an_endpoint_without_the_otlp_exporter_is_refused() -> None:
    with pytest.raises(InputError) as info:
        start_tracing(ServerConfig(otel_exporter="console", otel_endpoint="http://collector:4317"))
    assert info.value.field == "otel_endpoint" and "--otel-exporter otlp" in info.value.message


@pytest.mark.parametrize(
    ("missing", "exporter"),
    [("opentelemetry", "console"), ("opentelemetry.exporter.otlp.proto.grpc.trace_exporter", "otlp")],
    ids=["no-opentelemetry", "no-otlp-exporter"],
)
def test_a_missing_opentelemetry_names_the_setting_and_the_extra(
    monkeypatch: pytest.MonkeyPatch, missing: str, exporter: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # `import` now fails as if it were not installed
    monkeypatch.delitem(sys.modules, "writegate.server.tracing", raising=False)
    with pytest.raises(InputError) as info:
        WriteGateServer(ServerConfig(port=0, otel_exporter=exporter), loader=FakeClassifier)  # type: ignore[arg-type]
    assert info.value.field == "otel_exporter"
    assert f"({missing} is missing)" in info.value.message and "pip install 'writegate[otel]'" in info.value.message


# -- the exporters the server builds ---------------------------------------------------------------


async def test_the_otlp_exporter_sends_the_spans_to_a_collector() -> None:
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

    received: list[Any] = []

    class Collector(trace_service_pb2_grpc.TraceServiceServicer):
        async def Export(self, request: Any, context: Any) -> Any:
            received.append(request)
            return trace_service_pb2.ExportTraceServiceResponse()

    collector = grpc.aio.server()
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Collector(), collector)
    port = collector.add_insecure_port("127.0.0.1:0")
    await collector.start()
    try:
        settings = {"otel_exporter": "otlp", "otel_endpoint": f"http://127.0.0.1:{port}", "otel_service_name": "gate-1"}
        async with serving(**settings) as (app, _channel, stub):
            await stub.PrepareWrite(prepare_write_request(2), metadata=(("traceparent", TRACEPARENT),), timeout=5)
            assert app.tracing is not None and app.tracing.owned
        # the server's stop flushed the batched spans (in a thread: the collector answers on this loop)
    finally:
        await collector.stop(None)
    spans = [
        (resource.resource, span)
        for request in received
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    names = {span.name for _, span in spans}
    assert {PREPARE_WRITE, "validate", "normalize", "encode", "queue_wait", "model", "prepare"} <= names
    assert all(span.trace_id == TRACE_ID.to_bytes(16, "big") for _, span in spans)
    services = {a.value.string_value for resource, _ in spans for a in resource.attributes if a.key == "service.name"}
    assert services == {"gate-1"}


async def test_the_console_exporter_prints_the_spans(capfd: pytest.CaptureFixture[str]) -> None:
    async with running_server(otel_exporter="console") as (_app, target), grpc.aio.insecure_channel(target) as channel:
        from writegate.v1 import writegate_pb2_grpc as pb_grpc

        await pb_grpc.WriteGateStub(channel).GetModelInfo(pb.GetModelInfoRequest(), timeout=5)
        await asyncio.sleep(0)
    out = capfd.readouterr().out
    assert '"name": "writegate.v1.WriteGate/GetModelInfo"' in out and '"service.name": "writegate"' in out
