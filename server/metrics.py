"""Prometheus metrics: per-RPC counts and latency, batch shape, queue depth, pairs; the Embed
batcher's texts (`EmbedMetrics`).

Each server owns one `Metrics` with its own registry (several servers can live in one process,
as in the tests); `serve()` exposes it over HTTP on `--metrics-port`. pairs/s is
`rate(writegate_pairs_total[1m])`, texts embedded per second `rate(writegate_embed_texts_total[1m])`.
"""

from __future__ import annotations

from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, start_http_server

LATENCY_BUCKETS: tuple[float, ...] = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.02,
    0.04,
    0.08,
    0.16,
    0.32,
    0.64,
    1.28,
    2.56,
    5.12,
    10.24,
)
BATCH_SIZE_BUCKETS: tuple[float, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
BATCH_TOKEN_BUCKETS: tuple[float, ...] = (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)


class EmbedMetrics:
    """The Embed batcher's `BatchObserver`: its batches, queue and texts.

    Attributes:
        batch_size: `writegate_embed_batch_texts` (texts per embedder batch).
        batch_seconds: `writegate_embed_batch_seconds` (one embedder run).
        queue: `writegate_embed_queue_texts` (texts admitted and not yet run).
        texts: `writegate_embed_texts_total` (texts embedded).
    """

    def __init__(self, registry: CollectorRegistry) -> None:
        r = registry
        self.batch_size = Histogram(
            "writegate_embed_batch_texts", "Texts per embedder batch.", buckets=BATCH_SIZE_BUCKETS, registry=r
        )
        self.batch_seconds = Histogram(
            "writegate_embed_batch_seconds", "Seconds per embedder batch.", buckets=LATENCY_BUCKETS, registry=r
        )
        self.queue = Gauge(
            "writegate_embed_queue_texts", "Texts admitted to the Embed queue and not yet run.", registry=r
        )
        self.texts = Counter("writegate_embed_texts", "Texts embedded.", registry=r)

    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None:
        """Record one embedder batch (its tokens are an estimate, not recorded)."""
        self.batch_size.observe(size)
        self.batch_seconds.observe(seconds)
        self.texts.inc(size)

    def queue_depth(self, pairs: int) -> None:
        """Set the Embed queue's depth (texts)."""
        self.queue.set(pairs)


class Metrics:
    """The server's metrics, in a registry of their own.

    Attributes:
        requests: `writegate_requests_total{method, code}`.
        latency: `writegate_request_seconds{method}`.
        batch_size: `writegate_batch_pairs` (pairs per backend batch).
        batch_tokens: `writegate_batch_tokens` (padded tokens n × L per batch).
        batch_seconds: `writegate_batch_seconds` (collate + run + decode).
        queue_depth: `writegate_queue_pairs` (pairs admitted and not yet run).
        pairs: `writegate_pairs_total` (pairs classified; rate() = pairs/s).
        embed: the Embed batcher's observer (`EmbedMetrics`).
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.requests = Counter("writegate_requests", "RPCs by method and status code.", ["method", "code"], registry=r)
        self.latency = Histogram(
            "writegate_request_seconds", "RPC latency by method.", ["method"], buckets=LATENCY_BUCKETS, registry=r
        )
        self.batch_size = Histogram(
            "writegate_batch_pairs", "Pairs per backend batch.", buckets=BATCH_SIZE_BUCKETS, registry=r
        )
        self.batch_tokens = Histogram(
            "writegate_batch_tokens",
            "Padded tokens (n x L) per backend batch.",
            buckets=BATCH_TOKEN_BUCKETS,
            registry=r,
        )
        self.batch_seconds = Histogram(
            "writegate_batch_seconds",
            "Seconds per batch (collate + run + decode).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.queue = Gauge("writegate_queue_pairs", "Pairs admitted and not yet run.", registry=r)
        self.pairs = Counter("writegate_pairs", "Pairs classified.", registry=r)
        self.embed = EmbedMetrics(r)

    # -- BatchObserver ---------------------------------------------------------------------------
    def batch_done(self, size: int, padded_tokens: int, seconds: float) -> None:
        """Record one backend batch."""
        self.batch_size.observe(size)
        self.batch_tokens.observe(padded_tokens)
        self.batch_seconds.observe(seconds)
        self.pairs.inc(size)

    def queue_depth(self, pairs: int) -> None:
        """Set the queue depth."""
        self.queue.set(pairs)

    # -- RPCs --------------------------------------------------------------------------------------
    def rpc_done(self, method: str, code: str, seconds: float) -> None:
        """Record one finished RPC."""
        self.requests.labels(method=method, code=code).inc()
        self.latency.labels(method=method).observe(seconds)

    def render(self) -> bytes:
        """The Prometheus text exposition."""
        return generate_latest(self.registry)

    def serve_http(self, port: int, host: str = "127.0.0.1") -> WSGIServer:
        """Expose `/metrics` on `host:port` (a daemon thread); returns the HTTP server.

        `server.server_port` is the bound port (useful with port 0); `server.shutdown()` stops it.
        """
        httpd, _thread = start_http_server(port, addr=host, registry=self.registry)
        return httpd
