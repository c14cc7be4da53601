"""The server's ONE config object, read once at start, and the names the outside world gives it.

`ServerConfig`'s fields are the single declaration of every `writegate serve` setting: name, type,
default and `Field(description=...)`. Everything else is derived from them (`SETTINGS`): the flag
`--<field-name>` (underscores as dashes) with its help, default and env name; the environment
variable `WRITEGATE_<FIELD>` (e.g. `WRITEGATE_MAX_BATCH_TOKENS=4096`); the config-file key
(`--config FILE`, TOML or JSON, top-level keys = field names). Precedence, lowest first:
defaults < file < environment < command-line flags. `WRITEGATE_CONFIG` names a config file when
`--config` is not given. Every value, whatever its source, is validated by `ServerConfig`, and an
error names where the value came from (`--port`, `WRITEGATE_PORT`, `serve.toml: port`).
"""

from __future__ import annotations

import json
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from pydantic.fields import FieldInfo

from writegate.classifier.embedder import default_embedder_dir
from writegate.classifier.modeldir import default_model_dir
from writegate.errors import InputError, first_error
from writegate.normalizer.schema import MAX_TEXT_BYTES
from writegate.server.validate import Limits

if TYPE_CHECKING:
    from writegate.classifier.batcher import QueuePolicy

ENV_PREFIX = "WRITEGATE_"
ENV_CONFIG = "WRITEGATE_CONFIG"
DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024  # 257 memories of 16 KiB text (+ ids) fit twice over
FALLBACK_QUEUE_PAIRS = 1024
"""The sized queue bound when no speed was measured (no warm-up pairs)."""
MAX_SIZED_QUEUE_PAIRS = 65_536
"""A measured speed never sizes the queue beyond this (set `max_queue_pairs` for more)."""
BATCH_SHARE_OF_QUEUE_WAIT = 1 / 8
"""A batch holds at most the pairs one worker runs in this share of `max_queue_wait_ms`, and the sized
queue bound is the speed × the rest: a call admitted to a full queue ends about `max_queue_wait_ms` later."""


class BackendName(str, Enum):
    """Which backend runs the model."""

    ONNX = "onnx"
    TORCH = "torch"
    VLLM = "vllm"


class ServerConfig(BaseModel):
    """Everything `writegate serve` can be told: each field is one setting, declared only here
    (its flag, env variable, config-file key and `--help` line are derived: `SETTINGS`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", min_length=1, description="Address to listen on.")
    port: int = Field(default=50051, ge=0, le=65535, description="gRPC port (0 = any free port).")
    model: Path = Field(
        default_factory=lambda: default_model_dir({}),  # {}: WRITEGATE_MODEL is read as this field's env variable
        description="Model directory (the default is the shipped models/default, which the package carries).",
    )
    embedder: Path = Field(
        default_factory=default_embedder_dir,
        description="Embedder directory of the Embed RPC (the default is the shipped models/embedder, which the package "
        "carries).",
    )
    backend: BackendName = Field(default=BackendName.ONNX, description="onnx (CPU, int8), torch or vllm.")
    device: str | None = Field(
        default=None, description="torch: cpu, cuda, cuda:N (unset: cuda when torch sees one, else cpu)."
    )
    precision: str | None = Field(
        default=None,
        description="onnx: int8 | fp32; torch and vllm: fp32 | bf16 | fp16 (unset: onnx int8; torch bf16 on cuda, else "
        "fp32; vllm bf16).",
    )
    threads: int | None = Field(
        default=None,
        ge=1,
        le=256,
        description="Intra-op CPU threads per batch (unset: 1 with several batch workers, else the backend's default).",
    )
    batch_workers: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Batches run at once (unset: onnx = CPU cores available, torch on cuda = 2, else 1).",
    )
    normalize_workers: int | None = Field(
        default=None,
        ge=0,
        le=256,
        description="Worker processes that normalize the memories a request brings that are not in the record cache "
        "(0 = a thread of the server process; unset: onnx = 0, torch and vllm = CPU cores available less one).",
    )
    max_batch_tokens: int = Field(default=8192, ge=16, le=1_048_576, description="Padded tokens (n x L) per batch.")
    max_wait_ms: float = Field(default=2.0, ge=0, le=1000, description="Max wait of the first queued pair for a batch.")
    max_queue_pairs: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Queued pairs before RESOURCE_EXHAUSTED (unset: the speed measured at start x max_queue_wait_ms).",
    )
    max_queue_wait_ms: float = Field(
        default=1500.0,
        ge=1,
        le=600_000,
        description="Sizes the default queue: the pairs the measured speed runs in this long, its own batch included "
        "(below typical deadlines); a batch takes at most 1/8 of it.",
    )
    max_candidates: int = Field(default=256, ge=1, le=100_000, description="Candidates per request.")
    max_embed_texts: int = Field(default=256, ge=1, le=100_000, description="Texts per Embed request.")
    max_text_bytes: int = Field(default=MAX_TEXT_BYTES, ge=1, le=MAX_TEXT_BYTES, description="UTF-8 bytes per text.")
    max_future_hours: float = Field(
        default=24.0, ge=0, le=24 * 366, description="How far past the server clock observed_at may be."
    )
    relabel_window: int = Field(
        default=256, ge=1, le=100_000, description="Pairs per Relabel window (2 windows in flight per stream)."
    )
    metrics_port: int | None = Field(
        default=None, ge=0, le=65535, description="Prometheus /metrics port (unset = off)."
    )
    metrics_host: str = Field(default="127.0.0.1", min_length=1, description="Address of the metrics endpoint.")
    grace_s: float = Field(default=10.0, ge=0, le=3600, description="Seconds to drain in-flight RPCs on shutdown.")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        default="INFO", description="Log level."
    )
    log_text: bool = Field(
        default=False, description="Write raw memory text to the logs (off: never logged; see docs/serving.md, 'Logs')."
    )
    max_message_bytes: int = Field(
        default=DEFAULT_MAX_MESSAGE_BYTES, ge=1024, le=1 << 30, description="Largest gRPC message accepted or sent."
    )
    max_concurrent_rpcs: int | None = Field(
        default=1024, ge=1, le=1_000_000, description="RPCs in progress before RESOURCE_EXHAUSTED (unset = unbounded)."
    )
    tls_cert: Path | None = Field(
        default=None, description="Server certificate chain (PEM); with tls_key turns TLS on."
    )
    tls_key: Path | None = Field(default=None, description="Private key of tls_cert (PEM, unencrypted).")
    tls_client_ca: Path | None = Field(
        default=None, description="CA (PEM) clients' certificates must chain to: mutual TLS (needs tls_cert)."
    )
    auth_tokens: Path | list[SecretStr] | None = Field(
        default=None,
        description="Bearer tokens clients send as 'authorization: Bearer <token>': a file (one per line, blank/# "
        "lines ignored) or, in a config file, a list (unset: no token needed).",
    )
    otel_exporter: Literal["none", "console", "otlp"] = Field(
        default="none",
        description="OpenTelemetry traces of each RPC and its stages, joined to the caller's traceparent: none (off; "
        "OpenTelemetry is not imported), console (stdout) or otlp (gRPC; pip install 'writegate[otel]').",
    )
    otel_endpoint: str | None = Field(
        default=None,
        description="otlp: the collector, e.g. http://collector:4317 (unset: OTEL_EXPORTER_OTLP_ENDPOINT, else "
        "localhost:4317).",
    )
    otel_service_name: str = Field(default="writegate", min_length=1, description="service.name of the traces.")
    otel_sample_ratio: float = Field(
        default=1.0,
        ge=0,
        le=1,
        description="Share of the traces begun here that are kept; a caller's traceparent decides for its own.",
    )

    @property
    def address(self) -> str:
        """`host:port` to bind."""
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"

    @property
    def effective_batch_workers(self) -> int:
        """`batch_workers`, or its default: one per available core for onnx; 2 for torch on a named CUDA
        device (one batch's collate and decode overlap the other's forward); else 1."""
        if self.batch_workers is not None:
            return self.batch_workers
        if self.backend is BackendName.ONNX:
            return available_cores()
        return 2 if self.backend is BackendName.TORCH and (self.device or "").startswith("cuda") else 1

    @property
    def effective_normalize_workers(self) -> int:
        """`normalize_workers`, or its default: 0 for onnx (its batch workers use the cores), else one
        per available core less one (at least one), the one left for the process that drives the model."""
        if self.normalize_workers is not None:
            return self.normalize_workers
        return 0 if self.backend is BackendName.ONNX else max(1, available_cores() - 1)

    @property
    def effective_threads(self) -> int | None:
        """`threads`, or 1 when several batches run at once (None = the backend's own default)."""
        if self.threads is not None:
            return self.threads
        return 1 if self.effective_batch_workers > 1 else None

    @property
    def queue_policy(self) -> QueuePolicy:
        """The batchers' queue policy, handed to each once (`Batcher(classifier, config.queue_policy)`, and
        the Embed batcher's); the bound itself is `QueuePolicy.queue_bound` at each one's measured speed.

        `max_queue_pairs` when set is the bound; unset, the bound follows the measured speed: what it
        runs in `max_queue_wait_ms` less one batch (`FALLBACK_QUEUE_PAIRS` until a speed is known), and a
        request larger than it is taken when nothing else is queued. Either way a batch holds at most
        the pairs one worker runs in `BATCH_SHARE_OF_QUEUE_WAIT` of `max_queue_wait_ms`.
        """
        from writegate.classifier.batcher import QueuePolicy  # the batcher (numpy) only when serving

        sized = self.max_queue_pairs is None
        return QueuePolicy(
            max_batch_tokens=self.max_batch_tokens,
            max_wait_ms=self.max_wait_ms,
            workers=self.effective_batch_workers,
            max_queue_pairs=max(self.max_candidates, self.max_embed_texts, FALLBACK_QUEUE_PAIRS)
            if self.max_queue_pairs is None
            else self.max_queue_pairs,
            queue_wait_ms=self.max_queue_wait_ms if sized else None,
            queue_ceiling=MAX_SIZED_QUEUE_PAIRS,
            batch_ms=self.max_queue_wait_ms * BATCH_SHARE_OF_QUEUE_WAIT,
        )

    @property
    def limits(self) -> Limits:
        """The request-validation limits."""
        return Limits(
            max_candidates=self.max_candidates,
            max_text_bytes=self.max_text_bytes,
            max_future=timedelta(hours=self.max_future_hours),
            max_embed_texts=self.max_embed_texts,
        )


FIELDS: tuple[str, ...] = tuple(ServerConfig.model_fields)
"""The field names: the config-file keys."""


# -- the names the outside world gives each field ------------------------------------------------


def flag_name(field: str) -> str:
    """The command-line flag of a field: `max_batch_tokens` → `--max-batch-tokens`."""
    return "--" + field.replace("_", "-")


def env_name(field: str) -> str:
    """The environment variable of a field: `max_batch_tokens` → `WRITEGATE_MAX_BATCH_TOKENS`."""
    return ENV_PREFIX + field.upper()


@dataclass(frozen=True)
class Setting:
    """One `ServerConfig` field under the names the command line and the environment give it.

    Attributes:
        name: the field name, also its config-file key (`max_batch_tokens`).
        flag: the command-line flag (`--max-batch-tokens`).
        env: the environment variable (`WRITEGATE_MAX_BATCH_TOKENS`).
        description: the field's `Field(description=...)`.
        default: the default as `--help` shows it (`unset` for None).
        metavar: how `--help` names the value (`INT`, `PATH`, `{onnx,torch,vllm}`).
        switch: a yes/no setting: `--flag` / `--no-flag`, no value.
    """

    name: str
    flag: str
    env: str
    description: str
    default: str
    metavar: str
    switch: bool

    @property
    def help(self) -> str:
        """The flag's help: the description, the default and the env variable."""
        return f"{self.description} [default: {self.default}; env: {self.env}]"


_METAVARS: dict[Any, str] = {int: "INT", float: "NUM", str: "TEXT", Path: "PATH"}


def _value_type(annotation: Any) -> Any:
    """The type a flag's or env variable's text stands for: of a union, the first member that is not None."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return next(arg for arg in typing.get_args(annotation) if arg is not type(None))
    return annotation


def _metavar(kind: Any) -> str:
    if typing.get_origin(kind) is Literal:
        return "{" + ",".join(str(v) for v in typing.get_args(kind)) + "}"
    if isinstance(kind, type) and issubclass(kind, Enum):
        return "{" + ",".join(str(member.value) for member in kind) + "}"
    return _METAVARS.get(kind, "VALUE")


def _shown(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _setting(name: str, field: FieldInfo) -> Setting:
    kind = _value_type(field.annotation)
    return Setting(
        name=name,
        flag=flag_name(name),
        env=env_name(name),
        description=field.description or "",
        default=_shown(field.get_default(call_default_factory=True)),
        metavar=_metavar(kind),
        switch=kind is bool,
    )


SETTINGS: tuple[Setting, ...] = tuple(_setting(name, field) for name, field in ServerConfig.model_fields.items())
"""Every field, in declaration order, with its flag, env variable and help (the `serve` flags are built from these)."""


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
    """The `WRITEGATE_<FIELD>` variables of `env`, by field name (an empty value means unset/None)."""
    return {s.name: env[s.env] or None for s in SETTINGS if s.env in env}


def load_config(
    flags: Mapping[str, Any] | None = None,
    *,
    config_file: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> ServerConfig:
    """Build the config: defaults < file < env < flags (flags that are None are not given).

    Every layer holds raw values (the text of a flag or variable, a file's TOML/JSON value);
    `ServerConfig` validates them all the same way.

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
        source[key] = env_name(key)
    for key, value in (flags or {}).items():
        if key not in FIELDS:
            raise InputError(key, f"is not a server setting; known: {', '.join(FIELDS)}")
        if value is not None:
            merged[key], source[key] = value, flag_name(key)
    try:
        return ServerConfig(**merged)
    except ValidationError as exc:
        first = first_error(exc)
        key = first.head or "config"
        raise InputError(source.get(key, key), first.message) from None
