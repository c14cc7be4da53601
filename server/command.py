"""`writegate serve`: run the gRPC service (grpc.aio, health, reflection, metrics)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from writegate.server.config import BackendName, load_config

HELP = "Run the gRPC service."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Every flag is also a config-file key and a `WRITEGATE_<FLAG>` variable; unset = default."""
    parser.add_argument("--config", type=Path, default=None, help="TOML or JSON file of settings (env WRITEGATE_CONFIG)")
    parser.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="gRPC port (default 50051; 0 = any free port)")
    parser.add_argument("--model", type=Path, default=None, help="model directory (default models/default)")
    parser.add_argument("--backend", choices=[b.value for b in BackendName], default=None, help="default onnx")
    parser.add_argument("--device", default=None, help="torch backend: cpu, cuda, cuda:N")
    parser.add_argument("--precision", default=None, help="onnx: int8 (default) | fp32; torch: fp32 | bf16 | fp16")
    parser.add_argument("--threads", type=int, default=None,
                        help="intra-op CPU threads per batch (default: 1 with several batch workers)")
    parser.add_argument("--batch-workers", type=int, default=None,
                        help="batches run at once (default: onnx = CPU cores, torch/vllm = 1)")
    parser.add_argument("--max-batch-tokens", type=int, default=None, help="padded tokens n x L per batch (default 8192)")
    parser.add_argument("--max-wait-ms", type=float, default=None, help="max wait for a batch to fill (default 2)")
    parser.add_argument("--max-queue-pairs", type=int, default=None,
                        help="queued pairs before RESOURCE_EXHAUSTED (default: measured pairs/s x --max-queue-wait-ms)")
    parser.add_argument("--max-queue-wait-ms", type=float, default=None,
                        help="sizes the default queue: the pairs the measured speed runs in this long (default 1500)")
    parser.add_argument("--max-candidates", type=int, default=None, help="candidates per request (default 256)")
    parser.add_argument("--max-text-bytes", type=int, default=None, help="UTF-8 bytes per memory text (default 16384)")
    parser.add_argument("--max-future-hours", type=float, default=None, help="how far past the server clock observed_at may be (24)")
    parser.add_argument("--relabel-window", type=int, default=None, help="pairs per Relabel window; 2 windows in flight per stream (default 256)")
    parser.add_argument("--metrics-port", type=int, default=None, help="Prometheus /metrics port (default: off)")
    parser.add_argument("--metrics-host", default=None, help="address of the metrics endpoint (default 127.0.0.1)")
    parser.add_argument("--grace-s", type=float, default=None, help="seconds to drain in-flight RPCs on shutdown")
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO (default), WARNING, ERROR")
    parser.add_argument("--log-text", action="store_const", const=True, default=None,
                        help="write raw memory text to the logs (default: never; see README.md, 'Running it safely')")
    parser.add_argument("--max-message-bytes", type=int, default=None,
                        help="largest gRPC message accepted or sent (default 8 MiB)")
    parser.add_argument("--max-concurrent-rpcs", type=int, default=None,
                        help="RPCs in progress before RESOURCE_EXHAUSTED (default 1024)")
    parser.add_argument("--tls-cert", type=Path, default=None, help="server certificate chain (PEM): turns TLS on")
    parser.add_argument("--tls-key", type=Path, default=None, help="private key of --tls-cert (PEM, unencrypted)")
    parser.add_argument("--tls-client-ca", type=Path, default=None,
                        help="CA bundle (PEM) for mutual TLS: clients must present a certificate it signed")
    parser.add_argument("--auth-tokens", type=Path, default=None, metavar="FILE",
                        help="bearer tokens, one per line (# comments); clients send 'authorization: Bearer <token>'")


FLAG_FIELDS: tuple[str, ...] = (
    "host", "port", "model", "backend", "device", "precision", "threads", "batch_workers", "max_batch_tokens",
    "max_wait_ms", "max_queue_pairs", "max_queue_wait_ms", "max_candidates", "max_text_bytes", "max_future_hours", "relabel_window", "metrics_port",
    "metrics_host", "grace_s", "log_level", "log_text", "max_message_bytes", "max_concurrent_rpcs", "tls_cert",
    "tls_key", "tls_client_ca", "auth_tokens",
)
"""Every ServerConfig field has a flag (tests/test_service_config.py checks it)."""


def run(args: argparse.Namespace) -> int:
    """Load the config once, serve until SIGTERM/SIGINT, exit 0 after draining."""
    from writegate.server.app import serve

    flags = {name: getattr(args, name) for name in FLAG_FIELDS}
    config = load_config(flags, config_file=args.config, env=os.environ)
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    def announce(app: object) -> None:
        port = getattr(app, "port", config.port)
        extras = [name for name, on in (("TLS", config.tls_cert is not None), ("mTLS", config.tls_client_ca is not None),
                                        ("tokens", config.auth_tokens is not None)) if on]
        print(f"writegate serve: SERVING on {config.host}:{port} ({config.backend.value}, model {config.model}"
              f"{'; ' + ', '.join(extras) if extras else ''})", flush=True)

    try:
        return asyncio.run(serve(config, on_ready=announce))
    except RuntimeError as exc:  # a backend's runtime is missing or refused (e.g. vllm)
        print(f"writegate serve: error: {exc}", file=sys.stderr)
        return 1
