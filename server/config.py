"""The server's ONE config object, read once at start.

Every `writegate serve` flag is a field here and can also come from a config file (`--config
FILE`, TOML or JSON, top-level keys = field names) or an environment variable `WRITEGATE_<FIELD>`
(e.g. `WRITEGATE_MAX_BATCH_TOKENS=4096`). Precedence, lowest first: defaults < file < environment
< command-line flags. `WRITEGATE_CONFIG` names a config file when `--config` is not given.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from writegate.classifier.batcher import queue_pairs_for
from writegate.normalizer.errors import InputError, first_error
from writegate.normalizer.schema import MAX_TEXT_BYTES
from writegate.server.validate import Limits

ENV_PREFIX = "WRITEGATE_"
ENV_CONFIG = "WRITEGATE_CONFIG"
DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024  # 257 memories of 16 KiB text (+ ids) fit twice over
FALLBACK_QUEUE_PAIRS = 1024
"""The sized queue bound when no speed was measured (no warm-up pairs)."""
MAX_SIZED_QUEUE_PAIRS = 65_536
"""A measured speed never sizes the queue beyond this (set `max_queue_pairs` for more)."""


class BackendName(str, Enum):
    """Which backend runs the model."""

    ONNX = "onnx"
    TORCH = "torch"
    VLLM = "vllm"


class ServerConfig(BaseModel):
    """Everything `writegate serve` can be told."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", min_length=1, description="Address to listen on.")
    port: int = Field(default=50051, ge=0, le=65535, description="gRPC port (0 = any free port).")
    model: Path = Field(default=Path("models/default"), description="Model directory.")
    backend: BackendName = Field(default=BackendName.ONNX, description="onnx (CPU, int8), torch or vllm.")
    device: str | None = Field(default=None, description="torch: cpu, cuda, cuda:N.")
    precision: str | None = Field(default=None, description="onnx: int8|fp32; torch: fp32|bf16|fp16.")
    threads: int | None = Field(
        default=None, ge=1, le=256,
        description="Intra-op CPU threads per batch (unset: 1 with several batch workers, else the backend's default).",
    )
    batch_workers: int | None = Field(
        default=None, ge=1, le=64,
        description="Batches run at once (unset: onnx = CPU cores available, torch and vllm = 1).",
    )
    max_batch_tokens: int = Field(default=8192, ge=16, le=1_048_576, description="Padded tokens (n x L) per batch.")
    max_wait_ms: float = Field(default=2.0, ge=0, le=1000, description="Max wait of the first queued pair for a batch.")
    max_queue_pairs: int | None = Field(
        default=None, ge=1, le=1_000_000,
        description="Queued pairs before RESOURCE_EXHAUSTED (unset: the speed measured at start x max_queue_wait_ms).",
    )
    max_queue_wait_ms: float = Field(
        default=1500.0, ge=1, le=600_000,
        description="Sizes the default queue: the pairs the measured speed runs in this long (below typical deadlines).",
    )
    max_candidates: int = Field(default=256, ge=1, le=100_000, description="Candidates per request.")
    max_text_bytes: int = Field(default=MAX_TEXT_BYTES, ge=1, le=MAX_TEXT_BYTES, description="UTF-8 bytes per text.")
    max_future_hours: float = Field(default=24.0, ge=0, le=24 * 366, description="How far past the server clock observed_at may be.")
    relabel_window: int = Field(default=256, ge=1, le=100_000, description="Pairs per Relabel window (2 windows in flight per stream).")
    metrics_port: int | None = Field(default=None, ge=0, le=65535, description="Prometheus /metrics port (unset = off).")
    metrics_host: str = Field(default="127.0.0.1", min_length=1, description="Address of the metrics endpoint.")
    grace_s: float = Field(default=10.0, ge=0, le=3600, description="Seconds to drain in-flight RPCs on shutdown.")
    log_level: str = Field(default="INFO", pattern=r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL)$", description="Log level.")
    log_text: bool = Field(default=False, description="Write raw memory text to the logs (off: never logged).")
    max_message_bytes: int = Field(
        default=DEFAULT_MAX_MESSAGE_BYTES, ge=1024, le=1 << 30, description="Largest gRPC message accepted or sent."
    )
    max_concurrent_rpcs: int | None = Field(
        default=1024, ge=1, le=1_000_000, description="RPCs in progress before RESOURCE_EXHAUSTED (None = unbounded)."
    )
    tls_cert: Path | None = Field(default=None, description="Server certificate chain (PEM); with tls_key turns TLS on.")
    tls_key: Path | None = Field(default=None, description="Private key of tls_cert (PEM, unencrypted).")
    tls_client_ca: Path | None = Field(default=None, description="CA (PEM) clients' certificates must chain to: mutual TLS.")
    auth_tokens: Path | list[SecretStr] | None = Field(
        default=None,
        description="Bearer tokens: a file (one per line, blank/# lines ignored) or, in a config file, a list.",
    )

    @property
    def address(self) -> str:
        """`host:port` to bind."""
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"

    @property
    def effective_batch_workers(self) -> int:
        """`batch_workers`, or its default: one per available core for onnx, 1 for GPU-style backends."""
        if self.batch_workers is not None:
            return self.batch_workers
        return available_cores() if self.backend is BackendName.ONNX else 1

    @property
    def effective_threads(self) -> int | None:
        """`threads`, or 1 when several batches run at once (None = the backend's own default)."""
        if self.threads is not None:
            return self.threads
        return 1 if self.effective_batch_workers > 1 else None

    def queue_pairs(self, pairs_per_s: float | None) -> int:
        """The queue bound: `max_queue_pairs` when set, else what `pairs_per_s` runs in
        `max_queue_wait_ms` — never less than one request's `max_candidates`.

        Args:
            pairs_per_s: the speed measured by the warm-up (None: unknown, `FALLBACK_QUEUE_PAIRS`).
        """
        if self.max_queue_pairs is not None:
            return self.max_queue_pairs
        floor = self.max_candidates
        if pairs_per_s is None:
            return max(floor, FALLBACK_QUEUE_PAIRS)
        return queue_pairs_for(pairs_per_s, self.max_queue_wait_ms, floor=floor, ceiling=max(floor, MAX_SIZED_QUEUE_PAIRS))

    @property
    def limits(self) -> Limits:
        """The request-validation limits."""
        return Limits(
            max_candidates=self.max_candidates,
            max_text_bytes=self.max_text_bytes,
            max_future=timedelta(hours=self.max_future_hours),
        )


FIELDS: tuple[str, ...] = tuple(ServerConfig.model_fields)


def available_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def read_config_file(path: Path) -> dict[str, Any]:
    """Read a TOML (`.toml`) or JSON (anything else) config file of top-level field names.

    Raises:
        InputError: the file is missing, does not parse, or holds an unknown key.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("config", f"{path} does not exist")
    try:
        raw = path.read_text(encoding="utf-8")
        data = tomllib.loads(raw) if path.suffix.lower() == ".toml" else json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("config", f"{path} does not parse: {exc}") from None
    if not isinstance(data, dict):
        raise InputError("config", f"{path} must hold a table/object of settings")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise InputError("config", f"{path}: unknown setting {unknown[0]!r}; known: {', '.join(FIELDS)}")
    return data


def read_env(env: Mapping[str, str]) -> dict[str, Any]:
    """The `WRITEGATE_<FIELD>` variables of `env` (an empty value means unset/None)."""
    out: dict[str, Any] = {}
    for name in FIELDS:
        key = ENV_PREFIX + name.upper()
        if key in env:
            out[name] = env[key] if env[key] != "" else None
    return out


def load_config(
    flags: Mapping[str, Any] | None = None,
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> ServerConfig:
    """Build the config: defaults < file < env < flags (flags that are None are not given).

    Args:
        flags: command-line values by field name; None = not given.
        config_file: a TOML/JSON file; defaults to `env["WRITEGATE_CONFIG"]` when set.
        env: the environment (pass `os.environ` at the entry point; nothing here reads it).

    Raises:
        InputError: naming the setting and where it came from.
    """
    env = env or {}
    merged: dict[str, Any] = {}
    source: dict[str, str] = {}
    file = config_file if config_file is not None else env.get(ENV_CONFIG) or None
    if file is not None:
        for key, value in read_config_file(Path(file)).items():
            merged[key], source[key] = value, f"{file}: {key}"
    for key, value in read_env(env).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
        source[key] = ENV_PREFIX + key.upper()
    for key, value in (flags or {}).items():
        if key not in FIELDS:
            raise InputError(key, f"is not a server setting; known: {', '.join(FIELDS)}")
        if value is not None:
            merged[key], source[key] = value, "--" + key.replace("_", "-")
    try:
        return ServerConfig(**merged)
    except ValidationError as exc:
        first = first_error(exc)
        key = first.head or "config"
        raise InputError(source.get(key, key), first.message) from None
