"""What the sync and async clients share: options (the retry policy among them), request building,
response parsing, errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypedDict

import grpc
from pydantic import BaseModel, ConfigDict, Field, model_validator

from writegate.api import convert
from writegate.api.types import InputError, Memory, Relation
from writegate.v1 import writegate_pb2 as pb

DEFAULT_TARGET = "127.0.0.1:50051"
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    ("grpc.max_send_message_length", 64 * 1024 * 1024),
)


class RelabelPair(BaseModel):
    """One pair of a Relabel stream."""

    model_config = ConfigDict(frozen=True)

    pair_id: str = Field(min_length=1, description="Echoed in the result.")
    existing: Memory = Field(description="The EXISTING memory (its id is the relation's candidate_id).")
    new: Memory = Field(description="The NEW memory.")


class PairError(BaseModel):
    """Why one pair of a Relabel stream got no relation (the stream went on).

    `code` is INVALID_ARGUMENT for a bad pair (`field` names it: `requests[1].new.text`),
    RESOURCE_EXHAUSTED when the server's queue was full (resend the pair), INTERNAL when its batch
    failed.
    """

    model_config = ConfigDict(frozen=True)

    code: grpc.StatusCode
    message: str = Field(description="What was wrong (for INVALID_ARGUMENT, without the field).")
    field: str | None = Field(default=None, description="The field named by an INVALID_ARGUMENT error.")


class RelabelResult(BaseModel):
    """One answer of a Relabel stream, in request order: a relation or the pair's own error."""

    model_config = ConfigDict(frozen=True)

    pair_id: str = Field(description="The request's pair_id, as given.")
    relation: Relation | None = Field(default=None, description="Set when the pair was labelled.")
    error: PairError | None = Field(default=None, description="Set when it was not.")

    @model_validator(mode="after")
    def _one_of(self) -> RelabelResult:
        if (self.relation is None) == (self.error is None):
            raise ValueError("exactly one of relation and error must be set")
        return self

    @property
    def ok(self) -> bool:
        """True when the pair was labelled (`relation` is set)."""
        return self.error is None


SERVICE = "writegate.v1.WriteGate"
"""The service whose methods the retry policy covers (all of them)."""
MAX_RETRIES = 4
"""gRPC makes at most five attempts of a call: it clamps a larger `maxAttempts` to 5."""
MIN_BACKOFF_S = 0.01
"""The shortest first wait. gRPC counts backoffs in whole milliseconds (a config with 0 ms fails every
call), and grpcio 1.85 can lose a retry whose timer is about a millisecond (grpc/grpc#41036): measured
on loopback, 18 of 30 calls with 1 ms waits hung until their deadline, none of 1,800 with 3 ms or more."""


@dataclass(frozen=True)
class RetryPolicy:
    """The client's retries: gRPC's own retry policy, set in the service config of the channel it opens.

    A call that ends UNAVAILABLE (the server is down, still loading its model, or shutting down and
    refusing new calls) is sent again, at most `retries` times; every other status ends the call at
    once. Before retry n (1-based) gRPC waits `min(backoff_s · 2^(n-1), max_backoff_s)`, drawn
    within ±20% of that (gRPC's jitter), or what the server asks for in `grpc-retry-pushback-ms`.
    Retries stay within the call's deadline: when it passes during a wait, the call ends
    DEADLINE_EXCEEDED then.

    Normalize, Classify, PrepareWrite, GetModelInfo and Embed are pure functions of their request,
    so a retry is always safe. A Relabel stream is retried only while no result has come back and the
    requests sent so far fit gRPC's per-call retry buffer (256 KiB): gRPC sends them again from
    that buffer, so any iterable of pairs is retried. Once a result came back it never is.

    Attributes:
        retries: retries after the first attempt (attempts = 1 + retries; 0 = no retry; at most 4).
        backoff_s: the wait before the first retry (at least 0.01).
        max_backoff_s: the cap of the doubling wait.
    """

    retries: int = 3
    backoff_s: float = 0.05
    max_backoff_s: float = 2.0

    def __post_init__(self) -> None:
        if not (0 <= self.retries <= MAX_RETRIES and MIN_BACKOFF_S <= self.backoff_s <= self.max_backoff_s):
            raise ValueError(
                f"need 0 <= retries <= {MAX_RETRIES} and {MIN_BACKOFF_S} <= backoff_s <= max_backoff_s, got {self}"
            )

    def service_config(self) -> dict[str, Any]:
        """The gRPC service config that carries this policy (`{}`: no retry policy, when `retries` is 0)."""
        if self.retries == 0:
            return {}
        policy = {
            "maxAttempts": self.retries + 1,
            "initialBackoff": f"{self.backoff_s:.9f}s",
            "maxBackoff": f"{self.max_backoff_s:.9f}s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": [grpc.StatusCode.UNAVAILABLE.name],
        }
        return {"methodConfig": [{"name": [{"service": SERVICE}], "retryPolicy": policy}]}

    def channel_options(self) -> list[tuple[str, int | str]]:
        """Channel options that give a channel this policy (and ignore a service config from DNS).

        For a channel of your own (`AsyncClient(channel=...)`):
        `grpc.aio.insecure_channel(target, options=RetryPolicy().channel_options())`.
        """
        return [
            ("grpc.service_config", json.dumps(self.service_config())),
            ("grpc.service_config_disable_resolution", 1),
        ]


PemSource = str | Path | bytes
"""A PEM file path, or the PEM bytes themselves."""


class ClientOptions(TypedDict, total=False):
    """The keyword arguments `Client` passes on to `AsyncClient` (documented and defaulted there)."""

    timeout: float | None
    retry: RetryPolicy | None
    tls: bool
    tls_ca: PemSource | None
    tls_cert: PemSource | None
    tls_key: PemSource | None
    tls_server_name: str | None
    token: str | None


def _pem(value: PemSource | None, field: str) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    path = Path(value)
    if not path.is_file():
        raise InputError(field, f"{path} does not exist")
    return path.read_bytes()


def channel_credentials(
    *,
    tls: bool = False,
    tls_ca: PemSource | None = None,
    tls_cert: PemSource | None = None,
    tls_key: PemSource | None = None,
) -> grpc.ChannelCredentials | None:
    """TLS credentials for a channel, or None for plaintext.

    TLS is on when `tls` is set or any of the PEM arguments is given. `tls_ca` is the CA that signed
    the server's certificate (None = the system roots); `tls_cert` + `tls_key` are the client's own
    certificate for mutual TLS.

    Raises:
        InputError: a PEM file is missing, or only one of tls_cert / tls_key is given.
    """
    if not (tls or tls_ca is not None or tls_cert is not None or tls_key is not None):
        return None
    if (tls_cert is None) != (tls_key is None):
        raise InputError("tls_key" if tls_key is None else "tls_cert", "mutual TLS needs both tls_cert and tls_key")
    return grpc.ssl_channel_credentials(
        root_certificates=_pem(tls_ca, "tls_ca"),
        private_key=_pem(tls_key, "tls_key"),
        certificate_chain=_pem(tls_cert, "tls_cert"),
    )


def channel_options(
    tls_server_name: str | None = None, retry: RetryPolicy | None = None
) -> list[tuple[str, int | str]]:
    """The channel options: message limits, the retry policy, the TLS name to check (when not the target's host)."""
    options: list[tuple[str, int | str]] = list(CHANNEL_OPTIONS) + (retry or RetryPolicy()).channel_options()
    if tls_server_name:
        options.append(("grpc.ssl_target_name_override", tls_server_name))
    return options


def auth_metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    """`authorization: Bearer <token>` call metadata (empty without a token).

    Raises:
        InputError: the token is empty or holds whitespace or non-ASCII characters.
    """
    if token is None:
        return ()
    if not token or any(not 0x21 <= ord(c) <= 0x7E for c in token):
        raise InputError("token", "must be non-empty visible ASCII without spaces")
    return (("authorization", f"Bearer {token}"),)


def raise_typed(exc: grpc.RpcError) -> NoReturn:
    """Re-raise INVALID_ARGUMENT as `InputError(field, message)`; other codes as they are."""
    code = exc.code() if hasattr(exc, "code") else None
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        details = exc.details() or ""
        field, _, message = details.partition(": ")
        raise InputError(field, message) if message else InputError("request", details)
    raise exc


def memory_proto(memory: Memory | dict) -> pb.Memory:
    """A Memory (or a dict of its fields) → proto."""
    return convert.memory_to_proto(memory if isinstance(memory, Memory) else Memory.model_validate(memory))


def normalize_request(memory: Memory | dict) -> pb.NormalizeRequest:
    """NormalizeRequest for `memory`."""
    return pb.NormalizeRequest(memory=memory_proto(memory))


def classify_request(memory: Memory | dict, candidates: Sequence[Memory | dict]) -> pb.ClassifyRequest:
    """ClassifyRequest for `memory` against `candidates`."""
    return pb.ClassifyRequest(memory=memory_proto(memory), candidates=[memory_proto(c) for c in candidates])


def prepare_write_request(memory: Memory | dict, candidates: Sequence[Memory | dict]) -> pb.PrepareWriteRequest:
    """PrepareWriteRequest for `memory` against `candidates`."""
    return pb.PrepareWriteRequest(memory=memory_proto(memory), candidates=[memory_proto(c) for c in candidates])


def embed_request(texts: Sequence[str]) -> pb.EmbedRequest:
    """EmbedRequest for `texts`.

    Raises:
        InputError: `texts` is one string, not a sequence of them (it would embed each character).
    """
    if isinstance(texts, str):
        raise InputError("texts", "must be a list of strings, not one string")
    return pb.EmbedRequest(texts=list(texts))


def relabel_request(pair: RelabelPair | dict) -> pb.RelabelRequest:
    """RelabelRequest for one pair."""
    pair = pair if isinstance(pair, RelabelPair) else RelabelPair.model_validate(pair)
    return pb.RelabelRequest(pair_id=pair.pair_id, existing=memory_proto(pair.existing), new=memory_proto(pair.new))


_STATUS_BY_NUMBER: dict[int, grpc.StatusCode] = {code.value[0]: code for code in grpc.StatusCode}


def pair_error(msg: pb.PairError) -> PairError:
    """PairError proto → PairError (an INVALID_ARGUMENT message split into field and message)."""
    code = _STATUS_BY_NUMBER.get(msg.code, grpc.StatusCode.UNKNOWN)
    field, sep, message = msg.message.partition(": ")
    if code == grpc.StatusCode.INVALID_ARGUMENT and sep:
        return PairError(code=code, field=field, message=message)
    return PairError(code=code, message=msg.message)


def relabel_result(msg: pb.RelabelResponse) -> RelabelResult:
    """RelabelResponse → RelabelResult (its relation, or its error)."""
    if msg.WhichOneof("result") == "error":
        return RelabelResult(pair_id=msg.pair_id, error=pair_error(msg.error))
    return RelabelResult(pair_id=msg.pair_id, relation=convert.relation_from_proto(msg.relation))
