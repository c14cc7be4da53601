"""The gRPC server: ONE `serve()` (and the `WriteGateServer` it runs).

Start-up order: bind the port with the standard health service saying NOT_SERVING, server
reflection and the WriteGate service (UNAVAILABLE until ready); load the model off the event
loop; start the batcher; run one warm-up batch; only then health says SERVING. Shutdown (SIGTERM
or SIGINT): health NOT_SERVING, stop accepting new RPCs, drain in-flight ones for up to `grace_s`,
stop the batcher, exit 0.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from writegate.classifier.batcher import Batcher
from writegate.classifier.types import Pair, Side
from writegate.normalizer.errors import InputError
from writegate.server.config import ServerConfig
from writegate.server.metrics import Metrics
from writegate.server.service import WriteGateService
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

log = logging.getLogger("writegate.server")

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["WriteGate"].full_name
"""`writegate.v1.WriteGate`."""
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # 256 candidates × 16 KiB texts fit with room to spare

Loader = Callable[[], Any]
"""Returns a loaded classifier (`Classifier.load(...)`); runs in a worker thread."""


def warmup_pairs() -> list[Pair]:
    """A few pairs of different lengths: the warm-up batch run before SERVING."""
    t0 = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
    t1 = t0 + timedelta(days=111)
    texts = [
        ("User prefers morning meetings", "User prefers meetings 9-10am on Tuesdays"),
        ("Michelle owns the Acme account", "Acme was handed off to Marcus in June"),
        ("User works in EST", "User moved to London last month and now works on UK time " * 6),
    ]
    return [Pair(existing=Side(text=a, observed_at=t0), new=Side(text=b.strip(), observed_at=t1)) for a, b in texts]


# -- interceptors ------------------------------------------------------------------------------


def _status_name(context: grpc.aio.ServicerContext, exc: BaseException | None) -> str:
    if exc is None:
        code = context.code()
        return "OK" if code is None else getattr(code, "name", str(code))
    if isinstance(exc, asyncio.CancelledError):
        remaining = context.time_remaining()
        return "DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0 else "CANCELLED"
    code = context.code()
    return getattr(code, "name", "UNKNOWN") if code is not None else "UNKNOWN"


Done = Callable[[str, str, float], None]


def _wrap_handler(handler: grpc.RpcMethodHandler, method: str, done: Done) -> grpc.RpcMethodHandler:
    """Wrap a WriteGate handler so `done(method, status, seconds)` runs when the RPC ends."""
    if handler.unary_unary is not None:
        inner_uu = handler.unary_unary

        async def unary_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            start, error = time.perf_counter(), None
            try:
                return await inner_uu(request, context)
            except BaseException as exc:
                error = exc
                raise
            finally:
                done(method, _status_name(context, error), time.perf_counter() - start)

        return grpc.unary_unary_rpc_method_handler(
            unary_unary, handler.request_deserializer, handler.response_serializer
        )
    if handler.stream_stream is not None:
        inner_ss = handler.stream_stream

        async def stream_stream(request_iterator: Any, context: grpc.aio.ServicerContext) -> Any:
            start, error = time.perf_counter(), None
            try:
                async for response in inner_ss(request_iterator, context):
                    yield response
            except BaseException as exc:
                error = exc
                raise
            finally:
                done(method, _status_name(context, error), time.perf_counter() - start)

        return grpc.stream_stream_rpc_method_handler(
            stream_stream, handler.request_deserializer, handler.response_serializer
        )
    return handler


class _WriteGateInterceptor(grpc.aio.ServerInterceptor):
    """Wraps the WriteGate methods (not health or reflection) with `on_done`."""

    prefix = f"/{SERVICE_NAME}/"

    def on_done(self, method: str, status: str, seconds: float) -> None:
        raise NotImplementedError

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        name = handler_call_details.method
        if handler is None or not name.startswith(self.prefix):
            return handler
        return _wrap_handler(handler, name[len(self.prefix) :], self.on_done)


class MetricsInterceptor(_WriteGateInterceptor):
    """Request counts by status and latency histograms per RPC."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def on_done(self, method: str, status: str, seconds: float) -> None:
        self.metrics.rpc_done(method, status, seconds)


class LoggingInterceptor(_WriteGateInterceptor):
    """One log line per RPC: DEBUG when OK, WARNING for server-side failures, INFO otherwise."""

    def __init__(self, logger: logging.Logger = log) -> None:
        self.logger = logger

    def on_done(self, method: str, status: str, seconds: float) -> None:
        level = logging.DEBUG if status == "OK" else logging.WARNING if status in {"INTERNAL", "UNKNOWN"} else logging.INFO
        self.logger.log(level, "%s %s %.1f ms", method, status, seconds * 1000)


# -- the server --------------------------------------------------------------------------------


class WriteGateServer:
    """One gRPC server: health, reflection, WriteGate; the model loads after the port is bound.

    Args:
        config: the server config.
        loader: builds the classifier (default: `Classifier.load` from the config).
        metrics: the metrics (default: a fresh registry).
        warmup: the warm-up pairs run before SERVING.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        loader: Loader | None = None,
        metrics: Metrics | None = None,
        warmup: Sequence[Pair] | None = None,
    ) -> None:
        self.config = config
        self.loader: Loader = loader or (lambda: load_classifier(config))
        self.metrics = metrics or Metrics()
        self.warmup = list(warmup) if warmup is not None else warmup_pairs()
        self.service = WriteGateService(limits=config.limits, relabel_window=config.relabel_window)
        self.health = health.aio.HealthServicer()
        self.server: grpc.aio.Server | None = None
        self.batcher: Batcher | None = None
        self.port: int | None = None
        self.ready = asyncio.Event()
        self._load_task: asyncio.Task[None] | None = None
        self._metrics_http: Any = None

    async def start(self) -> int:
        """Bind and start serving (NOT_SERVING); start loading the model. Returns the bound port.

        Raises:
            InputError: the port cannot be bound.
        """
        await self._set_health(NOT_SERVING)
        server = grpc.aio.server(
            interceptors=[MetricsInterceptor(self.metrics), LoggingInterceptor()],
            options=[
                ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
                ("grpc.so_reuseport", 0),
            ],
        )
        pb_grpc.add_WriteGateServicer_to_server(self.service, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
            server,
        )
        try:
            port = server.add_insecure_port(self.config.address)
        except RuntimeError as exc:
            raise InputError("port", f"cannot listen on {self.config.address}: {exc}") from None
        if port == 0:
            raise InputError("port", f"cannot listen on {self.config.address}")
        await server.start()
        self.server, self.port = server, port
        if self.config.metrics_port is not None:
            self._metrics_http = self.metrics.serve_http(self.config.metrics_port, self.config.metrics_host)
        log.info("listening on %s:%d (NOT_SERVING until the model is loaded and warm)", self.config.host, port)
        self._load_task = asyncio.get_running_loop().create_task(self._load(), name="writegate-load")
        return port

    @property
    def metrics_port(self) -> int | None:
        """The bound metrics port, when the endpoint is on."""
        return None if self._metrics_http is None else int(self._metrics_http.server_port)

    async def wait_ready(self) -> None:
        """Wait until SERVING; re-raise the load error if loading failed."""
        if self._load_task is None:
            raise RuntimeError("start() first")
        await asyncio.shield(self._load_task)

    async def _set_health(self, status: int) -> None:
        for name in ("", SERVICE_NAME):
            await self.health.set(name, status)

    async def _load(self) -> None:
        start = time.perf_counter()
        classifier = await asyncio.to_thread(self.loader)
        batcher = Batcher(
            classifier,
            max_batch_tokens=self.config.max_batch_tokens,
            max_wait_ms=self.config.max_wait_ms,
            max_queue_pairs=self.config.max_queue_pairs,
            observer=self.metrics,
        )
        await batcher.start()
        self.batcher = batcher
        if self.warmup:
            try:
                await batcher.submit(self.warmup)
            except Exception as exc:  # noqa: BLE001 - a model that cannot run one batch is a bad --model
                raise InputError("model", f"the warm-up batch failed: {exc}") from exc
        self.service.attach(batcher, classifier.info)
        await self._set_health(SERVING)
        self.ready.set()
        info = classifier.info
        log.info(
            "SERVING %s %s on %s (loaded + warm in %.2f s)", info.name, info.version, info.backend, time.perf_counter() - start
        )

    async def stop(self, grace: float | None = None) -> None:
        """Stop accepting, drain in-flight RPCs for up to `grace` seconds, stop the batcher."""
        grace = self.config.grace_s if grace is None else grace
        await self.health.enter_graceful_shutdown()
        if self._load_task is not None and not self._load_task.done():
            self._load_task.cancel()
        if self.server is not None:
            await self.server.stop(grace)
        if self._load_task is not None:
            try:
                await self._load_task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - already reported by wait_ready
                pass
        if self.batcher is not None:
            await self.batcher.close()
        if self._metrics_http is not None:
            self._metrics_http.shutdown()
            self._metrics_http.server_close()
            self._metrics_http = None
        log.info("stopped")


def load_classifier(config: ServerConfig) -> Any:
    """`Classifier.load` with the config's model, backend and threads (blocking)."""
    from writegate.classifier.model import Classifier

    return Classifier.load(
        config.model,
        config.backend.value,
        threads=config.threads,
        device=config.device,
        precision=config.precision,
    )


async def serve(
    config: ServerConfig,
    *,
    loader: Loader | None = None,
    stop_event: asyncio.Event | None = None,
    on_ready: Callable[[WriteGateServer], None] | None = None,
) -> int:
    """Run the server until SIGTERM/SIGINT (or `stop_event`), then drain and return 0.

    Raises:
        InputError: the port cannot be bound or the model cannot be loaded.
    """
    loop = asyncio.get_running_loop()
    stop = stop_event or asyncio.Event()
    installed: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread / platform
            pass
    app = WriteGateServer(config, loader=loader)
    waiters: list[asyncio.Future[Any]] = []
    try:
        await app.start()
        ready = asyncio.ensure_future(app.wait_ready())
        stopped = asyncio.ensure_future(stop.wait())
        waiters = [ready, stopped]
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        if ready.done():
            ready.result()  # raises the load error
            if on_ready is not None:
                on_ready(app)
            await stopped
        log.info("shutting down: draining in-flight RPCs (grace %.1f s)", config.grace_s)
        return 0
    finally:
        for waiter in waiters:
            waiter.cancel()
        await app.stop()
        for sig in installed:
            loop.remove_signal_handler(sig)
