"""The gRPC server: ONE `serve()` (and the `WriteGateServer` it runs).

Start-up order: check the model and embedder directories (`read_meta`: a bad `--model` or
`--embedder` fails before anything is bound or logged); bind the port with the standard health
service saying NOT_SERVING, server reflection and the WriteGate service (UNAVAILABLE until ready);
load the model and the embedder off the event loop, side by side (with `normalize_workers` N > 0,
meanwhile start the normalize pool: a `Feeder` whose worker processes normalize the requests'
cache misses, its N workers started by N small tasks sent at once); start the batcher; run the
warm-up (one cold batch, then a load that measures pairs/s and sizes the queue:
`ServerConfig.queue_policy`, handed to the batcher once), release its memory; the same for the
Embed batcher (`TextJobs`: the warm-up pairs' texts, texts/s); only then health says SERVING.
Shutdown (SIGTERM or SIGINT): every new RPC is answered UNAVAILABLE ("shutting down": clients
retry elsewhere), health NOT_SERVING; the accepted calls none of whose pairs has reached the
model are answered UNAVAILABLE at once (`Batcher.shed`, `QUEUED_AT_SHUTDOWN`); those on the model
finish — within `grace_s`, after which what is left is answered UNAVAILABLE; then new calls are
held unanswered until gRPC's stop has begun (`DrainInterceptor.hold_new`), so that a client that
sends again at once cannot keep a call waiting inside gRPC, which gRPC's stop would cancel; gRPC
stops once calls stop arriving (`QUIET_S`), the held calls are answered UNAVAILABLE, the batcher
stops, the normalize pool's worker processes stop, exit 0. The Embed batcher is shed and closed
with the classifier's, at the same steps.

Interceptors (`server/interceptors.py`, built on `security.ServiceInterceptor`), outermost
first: tracing (only with an `--otel-exporter` other than none: `start_tracing`), metrics,
logging (request shape only; texts only with `--log-text`; texts of in-flight requests redacted
from every log record), drain, bearer-token auth (when tokens are configured), decode guard
(undecodable bytes → INVALID_ARGUMENT). Admission to the batcher's queue is the servicer's, after
validation (a bad request is never "server busy"), before any normalize or model work. TLS / mTLS and the token set are loaded, with clear
errors, before the port is bound; see docs/serving.md, 'Running it safely'.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import numpy as np
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from writegate.api.normalizing import MemoryKey, normalize_many, with_records
from writegate.classifier.batcher import Batcher, TextEmbedder, TextJobs
from writegate.classifier.embedder import Embedder
from writegate.classifier.embedder import read_meta as read_embedder_meta
from writegate.classifier.feeder import Feeder
from writegate.classifier.model import Classifier
from writegate.classifier.modeldir import read_meta
from writegate.classifier.types import Pair, Prediction, Side
from writegate.errors import InputError
from writegate.server.config import ServerConfig
from writegate.server.interceptors import (
    FINAL_GRACE_S,
    QUIET_S,
    SERVICE_NAME,
    DrainInterceptor,
    LoggingInterceptor,
    MetricsInterceptor,
)
from writegate.server.metrics import Metrics
from writegate.server.privacy import TextRedactor
from writegate.server.security import (
    AuthInterceptor,
    DecodeGuardInterceptor,
    load_tokens,
    server_credentials,
)
from writegate.server.service import WriteGateService
from writegate.v1 import writegate_pb2_grpc as pb_grpc

log = logging.getLogger("writegate.server")

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
QUEUED_AT_SHUTDOWN = "the server is shutting down; this call had not reached the model (retry it)"
"""UNAVAILABLE's message for an accepted call that was still queued at the signal."""

Loader = Callable[[], Classifier]
"""Returns a loaded classifier (`Classifier.load(...)`); runs in a worker thread."""
EmbedderLoader = Callable[[], TextEmbedder]
"""Returns a loaded embedder (`Embedder.load(...)`); runs in a worker thread."""
OTEL_EXTRA = "pip install 'writegate[otel]'"
"""How to install what `--otel-exporter` needs."""


def warmup_pairs() -> list[Pair]:
    """A few pairs of different lengths: the warm-up batch run before SERVING."""
    t0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    t1 = t0 + timedelta(days=111)
    texts = [
        ("User prefers morning meetings", "User prefers meetings 9-10am on Tuesdays"),
        ("Michelle owns the Acme account", "Acme was handed off to Marcus in June"),
        ("User works in EST", "User moved to London last month and now works on UK time " * 6),
    ]
    return with_records(  # the pairs carry their records, as served ones do
        Pair(existing=Side(text=a, observed_at=t0), new=Side(text=b.strip(), observed_at=t1)) for a, b in texts
    )


def warmup_texts(pairs: Sequence[Pair]) -> list[str]:
    """The Embed batcher's warm-up: the distinct texts of the warm-up pairs, in order."""
    return list(dict.fromkeys(text for pair in pairs for text in (pair.existing.text, pair.new.text)))


def start_normalize_pool(feeder: Feeder) -> None:
    """Start every worker process of `feeder` (blocking): one small `normalize_many` task per
    worker, all at once, so that no request waits for a worker to start or import the normalizer."""
    key = MemoryKey("User works in EST", "user:default", datetime(2026, 3, 1, tzinfo=UTC))
    for future in [feeder.submit(normalize_many, [key]) for _ in range(feeder.workers)]:
        future.result()


# -- the server --------------------------------------------------------------------------------


def start_tracing(config: ServerConfig, tracer_provider: Any = None) -> Any:
    """The server's `writegate.server.tracing.Tracing`, or None when tracing is off
    (`--otel-exporter none` and no `tracer_provider`): then OpenTelemetry is not imported.

    Args:
        config: the server config (`otel_*`).
        tracer_provider: an OpenTelemetry SDK `TracerProvider` to trace with (tests: an in-memory
            exporter); None = the one the config describes.

    Raises:
        InputError: naming `otel_exporter` when OpenTelemetry is not installed, or `otel_endpoint`.
    """
    if tracer_provider is None and config.otel_exporter == "none":
        return None
    try:
        from writegate.server.tracing import Tracing

        return Tracing.start(config, tracer_provider)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("opentelemetry"):
            raise
        raise InputError(
            "otel_exporter", f"{config.otel_exporter} needs OpenTelemetry ({exc.name} is missing): {OTEL_EXTRA}"
        ) from None


class WriteGateServer:
    """One gRPC server: health, reflection, WriteGate; the model loads after the port is bound.

    Args:
        config: the server config.
        loader: builds the classifier (default: `Classifier.load` from the config).
        embedder_loader: builds the embedder of the Embed RPC (default: `Embedder.load` from the config).
        metrics: the metrics (default: a fresh registry).
        warmup: the warm-up pairs run before SERVING (their texts warm the Embed batcher up).
        tracer_provider: an OpenTelemetry `TracerProvider` to trace with (default: the one
            `config.otel_exporter` describes; none when that is `none`): `start_tracing`.

    Raises:
        InputError: tracing is asked for and OpenTelemetry is not installed.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        loader: Loader | None = None,
        embedder_loader: EmbedderLoader | None = None,
        metrics: Metrics | None = None,
        warmup: Sequence[Pair] | None = None,
        tracer_provider: Any = None,
    ) -> None:
        self.config = config
        self.tracing = start_tracing(config, tracer_provider)
        """`writegate.server.tracing.Tracing`, or None (tracing off)."""
        self.checks_model = loader is None
        """True when the model directory is checked first thing in `start` (the default loader)."""
        self.loader: Loader = loader or (lambda: load_classifier(config))
        self.checks_embedder = embedder_loader is None
        """True when the embedder directory is checked first thing in `start` (the default loader)."""
        self.embedder_loader: EmbedderLoader = embedder_loader or (lambda: load_embedder(config))
        self.metrics = metrics or Metrics()
        self.warmup = list(warmup) if warmup is not None else warmup_pairs()
        service = WriteGateService if self.tracing is None else self.tracing.service
        self.service: WriteGateService = service(limits=config.limits, relabel_window=config.relabel_window)
        self.health = health.aio.HealthServicer()
        self.server: grpc.aio.Server | None = None
        self.batcher: Batcher[Pair, Prediction] | None = None
        self.embed_batcher: Batcher[str, np.ndarray] | None = None
        self.feeder: Feeder | None = None
        """The normalize pool (`normalize_workers` > 0), from the load until `stop`."""
        self.port: int | None = None
        self.ready = asyncio.Event()
        self._load_task: asyncio.Task[None] | None = None
        self._metrics_http: Any = None
        self.drain = DrainInterceptor()
        self.redactor: TextRedactor | None = (
            None if config.log_text else TextRedactor(keep_requests=4 * config.relabel_window + 16)
        )

    def _interceptors(self) -> list[grpc.aio.ServerInterceptor]:
        """Outermost first: traces, metrics and logs see every answer (UNAUTHENTICATED included)."""
        interceptors: list[grpc.aio.ServerInterceptor] = [] if self.tracing is None else [self.tracing.interceptor()]
        interceptors += [
            MetricsInterceptor(self.metrics),
            LoggingInterceptor(log_text=self.config.log_text, redactor=self.redactor),
            self.drain,
        ]
        tokens = load_tokens(self.config.auth_tokens)
        if tokens is not None:
            interceptors.append(AuthInterceptor(tokens))
        interceptors.append(DecodeGuardInterceptor(frozenset({SERVICE_NAME})))
        return interceptors

    def _warn_if_exposed(self, tls: bool, tokens: bool) -> None:
        if _is_loopback(self.config.host):
            return
        if not tls:
            log.warning(
                "listening on %s WITHOUT TLS: memories cross the network in clear text (see docs/serving.md, 'TLS and mutual TLS')",
                self.config.host,
            )
        if not tokens:
            log.warning(
                "listening on %s WITHOUT bearer tokens: anyone who can reach the port may call it", self.config.host
            )

    async def start(self) -> int:
        """Check the model and embedder directories, bind and start serving (NOT_SERVING); start
        loading the model and the embedder. Returns the bound port.

        Raises:
            InputError: the model or embedder directory is not one (before anything is bound or
                logged), or the port cannot be bound.
        """
        cfg = self.config
        if self.checks_model:
            read_meta(cfg.model)
        if self.checks_embedder:
            read_embedder_meta(cfg.embedder)
        credentials = server_credentials(cfg.tls_cert, cfg.tls_key, cfg.tls_client_ca)
        interceptors = self._interceptors()
        self._warn_if_exposed(credentials is not None, cfg.auth_tokens is not None)
        await self._set_health(NOT_SERVING)
        server = grpc.aio.server(
            interceptors=interceptors,
            options=[
                ("grpc.max_receive_message_length", cfg.max_message_bytes),
                ("grpc.max_send_message_length", cfg.max_message_bytes),
                ("grpc.so_reuseport", 0),
            ],
            maximum_concurrent_rpcs=cfg.max_concurrent_rpcs,
        )
        pb_grpc.add_WriteGateServicer_to_server(self.service, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
            server,
        )
        try:
            if credentials is None:
                port = server.add_insecure_port(self.config.address)
            else:
                port = server.add_secure_port(self.config.address, credentials)
        except RuntimeError as exc:
            raise InputError("port", f"cannot listen on {self.config.address}: {exc}") from None
        if port == 0:
            raise InputError("port", f"cannot listen on {self.config.address}")
        await server.start()
        self.server, self.port = server, port
        if self.redactor is not None:
            self.redactor.install()
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
        cfg = self.config
        workers = cfg.effective_normalize_workers
        if workers > 0:
            self.feeder = Feeder(cfg.model, workers=workers)
            pool = asyncio.ensure_future(asyncio.to_thread(start_normalize_pool, self.feeder))  # while the model loads
            try:
                classifier, embedder = await self._load_models()
            except BaseException:
                await asyncio.gather(pool, return_exceptions=True)  # the load's error is the one to report
                raise
            await pool
            log.info("normalize pool: %d worker processes", workers)
        else:
            classifier, embedder = await self._load_models()
        batcher = await self._start_batcher(classifier)
        embed_batcher = await self._start_embed_batcher(embedder)
        self.service.feeder = self.feeder
        self.service.attach(batcher, classifier.info)
        self.service.attach_embedder(embed_batcher, embedder.name, embedder.dim)
        await self._set_health(SERVING)
        self.ready.set()
        info = classifier.info
        log.info(
            "SERVING %s %s on %s, embedder %s (loaded + warm in %.2f s)",
            info.name,
            info.version,
            info.backend,
            embedder.name,
            time.perf_counter() - start,
        )

    async def _load_models(self) -> tuple[Classifier, TextEmbedder]:
        """The classifier and the embedder, loaded side by side in worker threads."""
        return await asyncio.gather(asyncio.to_thread(self.loader), asyncio.to_thread(self.embedder_loader))

    async def _warm(self, batcher: Batcher[Any, Any], warmup: Sequence[Any], what: str) -> float | None:
        """A batcher's warm-up: a cold batch (first allocations), then a load that measures the speed the
        queue bound follows; then its memory is released. The speed, or None without warm-up items.

        Raises:
            InputError: naming `what` (`model`, `embedder`): the warm-up failed.
        """
        if not warmup:
            return None
        try:
            await batcher.submit(warmup)
            speed = await batcher.measure(warmup, max_pairs=max(len(warmup), batcher.max_queue_pairs))
        except Exception as exc:  # a model that cannot run one batch is a bad --model (--embedder)
            raise InputError(what, f"the warm-up batch failed: {exc}") from exc
        await batcher.release_memory()  # start SERVING at the idle footprint
        return speed

    async def _start_embed_batcher(self, embedder: TextEmbedder) -> Batcher[str, np.ndarray]:
        """Start the Embed batcher (`TextJobs`, the config's queue policy) and warm it up on the warm-up texts."""
        batcher = Batcher(TextJobs(embedder), self.config.queue_policy, observer=self.metrics.embed)
        await batcher.start()
        self.embed_batcher = batcher
        speed = await self._warm(batcher, warmup_texts(self.warmup), "embedder")
        log.info(
            "Embed: %s (dim %d), max_queue_pairs %d texts%s",
            embedder.name,
            embedder.dim,
            batcher.max_queue_pairs,
            "" if speed is None else f" ({speed:.0f} texts/s measured by the warm-up)",
        )
        return batcher

    async def _start_batcher(self, classifier: Classifier) -> Batcher[Pair, Prediction]:
        """Start the batcher with the config's queue policy, run the warm-up (a cold batch, then a load
        that measures the speed the queue bound follows), release its memory and log the bound."""
        cfg = self.config
        batcher = Batcher(classifier, cfg.queue_policy, observer=self.metrics)
        policy = batcher.policy
        await batcher.start()
        self.batcher = batcher
        speed = await self._warm(batcher, self.warmup, "model")
        if not policy.sized:
            log.info("max_queue_pairs %d (set)", batcher.max_queue_pairs)
        else:
            log.info(
                "max_queue_pairs %d: %s pairs/s measured by the warm-up x (%.0f ms max queue wait less a "
                "batch of %.0f ms) (it follows the speed measured under load)",
                batcher.max_queue_pairs,
                "?" if speed is None else f"{speed:.0f}",
                policy.queue_wait_ms,
                policy.batch_ms,
            )
        two_batches_s = 2 * (policy.batch_ms or 0.0) / 1000  # what a call on the model typically still needs
        if cfg.grace_s < two_batches_s:
            log.warning(
                "--grace-s %.2f is shorter than two batches (~%.2f s): a shutdown under load may answer calls "
                "already on the model UNAVAILABLE",
                cfg.grace_s,
                two_batches_s,
            )
        return batcher

    async def stop(self, grace: float | None = None) -> None:
        """Refuse new RPCs (UNAVAILABLE), answer every accepted one, stop the batcher.

        The accepted calls none of whose pairs has reached the model are answered UNAVAILABLE at once
        (`Batcher.shed`: clients retry them elsewhere); those on the model (`DrainInterceptor`) get up
        to `grace` s. Whatever still waits for the batcher after that is answered UNAVAILABLE (the
        batcher closes first) instead of being cancelled by gRPC's stop; so are the calls that arrive
        until gRPC has stopped (`DrainInterceptor.hold_new`).
        """
        grace = self.config.grace_s if grace is None else grace
        self.drain.refuse_new()
        shed = sum(batcher.shed(QUEUED_AT_SHUTDOWN) for batcher in self._batchers())
        if shed:
            log.info("shutting down: %d queued calls answered UNAVAILABLE (not run)", shed)
        await self.health.enter_graceful_shutdown()
        if self._load_task is not None and not self._load_task.done():
            self._load_task.cancel()
        if self.server is not None:
            if not await self.drain.wait_idle(grace):
                log.warning(
                    "%d RPCs still running after the %.1f s grace: answering them UNAVAILABLE",
                    self.drain.in_flight,
                    grace,
                )
                for batcher in self._batchers():
                    await batcher.close()
                await self.drain.wait_idle(FINAL_GRACE_S)
            self.drain.hold_new()  # a client that sends again at once now waits here, not inside gRPC
            await self.drain.wait_quiet(QUIET_S, FINAL_GRACE_S)
            # what is left: held refusals, health watches, reflection
            stopping = asyncio.ensure_future(self.server.stop(FINAL_GRACE_S))
            await asyncio.sleep(QUIET_S)  # gRPC's stop has begun: no new call reaches a handler
            self.drain.release_held()
            await stopping
        if self._load_task is not None:
            try:
                await self._load_task
            except (asyncio.CancelledError, Exception):  # already reported by wait_ready
                pass
        for batcher in self._batchers():
            await batcher.close()
        if self.feeder is not None:
            self.service.feeder = None
            await asyncio.to_thread(self.feeder.close)
            self.feeder = None
        if self._metrics_http is not None:
            self._metrics_http.shutdown()
            self._metrics_http.server_close()
            self._metrics_http = None
        if self.tracing is not None:
            await asyncio.to_thread(self.tracing.shutdown)  # the spans still batched are exported
        if self.server is not None:
            log.info("stopped")
        if self.redactor is not None:
            self.redactor.uninstall()

    def _batchers(self) -> list[Batcher[Any, Any]]:
        """The batchers started so far: the classifier's, the Embed one."""
        return [b for b in (self.batcher, self.embed_batcher) if b is not None]


def _is_loopback(host: str) -> bool:
    if host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_classifier(config: ServerConfig) -> Classifier:
    """`Classifier.load` with the config's model, backend and threads (blocking)."""
    return Classifier.load(
        config.model,
        config.backend.value,
        threads=config.effective_threads,
        device=config.device,
        precision=config.precision,
    )


def load_embedder(config: ServerConfig) -> Embedder:
    """`Embedder.load` with the config's embedder directory and threads (blocking)."""
    return Embedder.load(config.embedder, threads=config.effective_threads)


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
    installed: list[signal.Signals] = []
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
