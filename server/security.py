"""Who may talk to the server, and what it agrees to read.

- **TLS / mutual TLS**: `server_credentials(cert, key, client_ca)` loads PEM files with clear
  errors (missing file, not PEM, encrypted key, key not matching the certificate, bad CA).
- **Bearer tokens**: `read_tokens_file` (one token per line; blank and `#` lines ignored) and
  `AuthInterceptor`: every RPC except the health service and reflection needs
  `authorization: Bearer <token>` metadata; the token is compared in constant time against
  every accepted token (SHA-256 digests through `hmac.compare_digest`, so neither the value nor
  the length of a token leaks through timing); anything else is UNAUTHENTICATED.
- **Malformed messages**: `DecodeGuardInterceptor` turns bytes that do not parse as the request
  type (bad UTF-8 in a string, a corrupt wire format) into INVALID_ARGUMENT naming `request`
  (or `requests[i]` in a stream) instead of gRPC's UNKNOWN/INTERNAL.

The interceptor plumbing every server interceptor shares (these and `writegate.server.app`'s) is
here too: `ServiceInterceptor` (resolve the handler, pick the services it applies to) and
`rebuild_handler` (a handler of the same kind with its behaviour wrapped or replaced).
"""

from __future__ import annotations

import hashlib
import hmac
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from writegate.errors import InputError

HEALTH_SERVICE = "grpc.health.v1.Health"
REFLECTION_SERVICES: tuple[str, ...] = (
    "grpc.reflection.v1alpha.ServerReflection",
    "grpc.reflection.v1.ServerReflection",
)
OPEN_SERVICES: frozenset[str] = frozenset({HEALTH_SERVICE, *REFLECTION_SERVICES})
"""Services that answer without a token (liveness probes and grpcurl discovery)."""
AUTH_HEADER = "authorization"
BEARER = "bearer "
MIN_TOKEN_CHARS = 16
_TOKEN_CHARS = frozenset(chr(c) for c in range(0x21, 0x7F))  # visible ASCII: legal in a header value


# -- TLS ----------------------------------------------------------------------------------------


def _read_pem(path: Path, field: str, marker: str, what: str) -> bytes:
    path = Path(path)
    if not path.is_file():
        raise InputError(field, f"{path} does not exist")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(field, f"cannot read {path}: {exc.strerror}") from None
    if marker.encode() not in data:
        raise InputError(field, f"{path} is not a PEM {what} (no '{marker}' line)")
    return data


def _no_password() -> bytes:
    raise InputError("tls_key", "is encrypted; gRPC needs an unencrypted PEM private key")


def server_credentials(
    cert: Path | None, key: Path | None, client_ca: Path | None = None
) -> grpc.ServerCredentials | None:
    """TLS credentials for the server, or None when no certificate is configured (plaintext).

    Args:
        cert: the server certificate chain (PEM).
        key: its private key (PEM, unencrypted).
        client_ca: CA bundle (PEM) for mutual TLS: clients must present a certificate it signed.

    Raises:
        InputError: naming `tls_cert`, `tls_key` or `tls_client_ca`.
    """
    if cert is None and key is None:
        if client_ca is not None:
            raise InputError("tls_client_ca", "needs --tls-cert and --tls-key (mutual TLS runs over TLS)")
        return None
    if cert is None:
        raise InputError("tls_cert", "is required with --tls-key")
    if key is None:
        raise InputError("tls_key", "is required with --tls-cert")
    cert_pem = _read_pem(cert, "tls_cert", "-----BEGIN CERTIFICATE-----", "certificate")
    key_pem = _read_pem(key, "tls_key", "PRIVATE KEY-----", "private key")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(str(cert), str(key), password=_no_password)
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc) or "key values mismatch" in str(exc):
            raise InputError("tls_key", f"{key} does not match the certificate {cert}") from None
        raise InputError("tls_cert", f"{cert} / {key} could not be loaded: {exc.reason or exc}") from None
    ca_pem = None
    if client_ca is not None:
        ca_pem = _read_pem(client_ca, "tls_client_ca", "-----BEGIN CERTIFICATE-----", "CA certificate")
        try:
            ctx.load_verify_locations(cafile=str(client_ca))
        except ssl.SSLError as exc:
            raise InputError("tls_client_ca", f"{client_ca} could not be loaded: {exc.reason or exc}") from None
    return grpc.ssl_server_credentials(
        [(key_pem, cert_pem)], root_certificates=ca_pem, require_client_auth=ca_pem is not None
    )


# -- tokens -------------------------------------------------------------------------------------


def check_token(token: str, where: str) -> str:
    """A token as accepted: ≥ 16 visible ASCII characters, no spaces.

    Raises:
        InputError: naming `where` (e.g. `tokens.txt:3`), never echoing the token.
    """
    if len(token) < MIN_TOKEN_CHARS:
        raise InputError(where, f"a token must have at least {MIN_TOKEN_CHARS} characters (got {len(token)})")
    bad = next((c for c in token if c not in _TOKEN_CHARS), None)
    if bad is not None:
        raise InputError(where, f"a token may hold visible ASCII only (found U+{ord(bad):04X})")
    return token


def parse_tokens(text: str, source: str = "auth_tokens") -> list[str]:
    """Tokens of a tokens file: one per line, surrounding space stripped, blank and `#` lines ignored.

    Raises:
        InputError: a malformed line (named `source:line`), or no token at all.
    """
    tokens = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            tokens.append(check_token(line, f"{source}:{number}"))
    if not tokens:
        raise InputError(source, "holds no token (every line is blank or a # comment)")
    return tokens


def read_tokens_file(path: Path) -> list[str]:
    """`parse_tokens` of a file.

    Raises:
        InputError: the file is missing or unreadable, or `parse_tokens` refuses it.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("auth_tokens", f"{path} does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError("auth_tokens", f"cannot read {path}: {exc}") from None
    return parse_tokens(text, f"auth_tokens {path}")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


class TokenSet:
    """Accepted bearer tokens, kept as SHA-256 digests.

    Args:
        tokens: the accepted tokens (at least one).
    """

    def __init__(self, tokens: Iterable[str]) -> None:
        self._digests: tuple[bytes, ...] = tuple(_digest(t) for t in tokens)
        if not self._digests:
            raise InputError("auth_tokens", "holds no token")

    def __len__(self) -> int:
        return len(self._digests)

    def accepts(self, token: str) -> bool:
        """True when `token` is one of the set; compares against EVERY token, in constant time."""
        given = _digest(token)
        ok = 0
        for digest in self._digests:
            ok |= hmac.compare_digest(given, digest)
        return bool(ok)


def bearer_token(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The token of the `authorization: Bearer <token>` metadata entry, if any."""
    for key, value in metadata or ():
        if key.lower() == AUTH_HEADER and isinstance(value, str) and value[: len(BEARER)].lower() == BEARER:
            return value[len(BEARER) :].strip()
    return None


def service_of(method: str) -> str:
    """`/pkg.Service/Method` → `pkg.Service`."""
    return method.lstrip("/").partition("/")[0]


def method_of(method: str) -> str:
    """`/pkg.Service/Method` → `Method`."""
    return method.rpartition("/")[2]


# -- interceptor plumbing -----------------------------------------------------------------------

Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler | None]]
"""What an interceptor awaits for the handler of a call (None: no such method)."""
Behaviour = Callable[..., Any]
"""A handler's function: `(request or request iterator, context)` → a response, or an async iterator of them."""

HANDLER_KINDS: tuple[tuple[str, Callable[..., grpc.RpcMethodHandler]], ...] = (
    ("unary_unary", grpc.unary_unary_rpc_method_handler),
    ("unary_stream", grpc.unary_stream_rpc_method_handler),
    ("stream_unary", grpc.stream_unary_rpc_method_handler),
    ("stream_stream", grpc.stream_stream_rpc_method_handler),
)
"""The four kinds of RPC handler: its attribute holding the behaviour, and how one is built."""


def rebuild_handler(
    handler: grpc.RpcMethodHandler,
    wrappers: Mapping[str, Callable[[Behaviour], Behaviour]],
    *,
    request_deserializer: Callable[[bytes], Any] | None = None,
) -> grpc.RpcMethodHandler:
    """A handler of the same kind as `handler` whose behaviour is `wrappers[kind](behaviour)`.

    Args:
        handler: the handler gRPC resolved.
        wrappers: by kind (`unary_unary`, `unary_stream`, `stream_unary`, `stream_stream`), what
            makes the new behaviour from the old; a kind not here leaves `handler` as it is.
        request_deserializer: replaces the handler's (default: keep it).
    """
    for kind, build in HANDLER_KINDS:
        behaviour = getattr(handler, kind)
        if behaviour is None:
            continue
        wrap = wrappers.get(kind)
        if wrap is None:
            return handler
        return build(wrap(behaviour), request_deserializer or handler.request_deserializer, handler.response_serializer)
    return handler


class ServiceInterceptor(grpc.aio.ServerInterceptor):
    """An interceptor that changes the handlers of the services it `applies` to (`intercept`);
    every other call, and a call of no known method, passes untouched."""

    def applies(self, service: str) -> bool:
        """True when calls of `service` (`pkg.Service`) are intercepted (default: every service)."""
        return True

    def intercept(self, handler: grpc.RpcMethodHandler, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        """The handler to run instead of `handler` for the call `details`."""
        raise NotImplementedError

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler | None:
        """gRPC's hook: resolve the handler, then `intercept` it when the call's service `applies`."""
        handler = await continuation(handler_call_details)
        if handler is None or not self.applies(service_of(handler_call_details.method)):
            return handler
        return self.intercept(handler, handler_call_details)


def _skip(_data: bytes) -> None:
    return None


def refusing_handler(handler: grpc.RpcMethodHandler, code: grpc.StatusCode, message: str) -> grpc.RpcMethodHandler:
    """A handler of the same kind as `handler` that answers `code` without parsing the request."""

    async def deny(_request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, message)

    async def deny_stream(_request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        await context.abort(code, message)
        yield  # pragma: no cover - abort raises

    def refuse(kind: str) -> Callable[[Behaviour], Behaviour]:
        answer = deny_stream if kind.endswith("_stream") else deny
        return lambda _behaviour: answer

    return rebuild_handler(handler, {kind: refuse(kind) for kind, _ in HANDLER_KINDS}, request_deserializer=_skip)


class AuthInterceptor(ServiceInterceptor):
    """UNAUTHENTICATED unless the call carries `authorization: Bearer <accepted token>`.

    Args:
        tokens: the accepted tokens.
        open_services: services that need no token (health, reflection).
    """

    def __init__(self, tokens: TokenSet, open_services: frozenset[str] = OPEN_SERVICES) -> None:
        self.tokens = tokens
        self.open_services = open_services

    def applies(self, service: str) -> bool:
        """Every service but the open ones needs a token."""
        return service not in self.open_services

    def intercept(self, handler: grpc.RpcMethodHandler, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        """`handler` when the call's token is accepted, else a handler answering UNAUTHENTICATED."""
        token = bearer_token(details.invocation_metadata)
        if token is None:
            return refusing_handler(
                handler, grpc.StatusCode.UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"
            )
        if not self.tokens.accepts(token):
            return refusing_handler(handler, grpc.StatusCode.UNAUTHENTICATED, "the bearer token is not valid")
        return handler


# -- malformed messages -------------------------------------------------------------------------


@dataclass(frozen=True)
class Malformed:
    """What the guarded deserializer returns for bytes that are not a valid message."""

    reason: str


def _reason(exc: DecodeError) -> str:
    text = str(exc)
    type_name, sep, detail = text.partition("': ")
    if sep and "type '" in type_name:
        return f"is not a valid {type_name.split(chr(39))[-1]} message ({detail})"
    return f"is not a valid protobuf message ({text})"


def guard_deserializer(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """Wrap a request deserializer so DecodeError becomes a `Malformed` value."""
    if deserializer is None:
        return None

    def safe(data: bytes) -> Any:
        try:
            return deserializer(data)
        except DecodeError as exc:
            return Malformed(_reason(exc))

    return safe


class DecodeGuardInterceptor(ServiceInterceptor):
    """Undecodable requests → INVALID_ARGUMENT naming `request` / `requests[i]` (unary / stream)."""

    def __init__(self, services: frozenset[str]) -> None:
        self.services = services

    def applies(self, service: str) -> bool:
        """Only the guarded services."""
        return service in self.services

    def intercept(self, handler: grpc.RpcMethodHandler, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        """`handler` with a deserializer that never raises, and a behaviour that refuses what did not parse."""

        def unary(inner: Behaviour) -> Behaviour:
            async def unary_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
                if isinstance(request, Malformed):
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"request: {request.reason}")
                return await inner(request, context)

            return unary_unary

        def stream(inner: Behaviour) -> Behaviour:
            async def stream_stream(request_iterator: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                async for response in inner(_checked(request_iterator), context):
                    yield response

            return stream_stream

        return rebuild_handler(
            handler,
            {"unary_unary": unary, "stream_stream": stream},
            request_deserializer=guard_deserializer(handler.request_deserializer),
        )


async def _checked(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """Stream messages; a malformed one raises InputError (the servicer maps it to INVALID_ARGUMENT)."""
    index = 0
    async for request in requests:
        if isinstance(request, Malformed):
            raise InputError(f"requests[{index}]", request.reason)
        yield request
        index += 1


def load_tokens(setting: Path | Sequence[Any] | None) -> TokenSet | None:
    """The accepted tokens of the `auth_tokens` setting: a tokens file, a list (of str or
    pydantic SecretStr, from a config file), or None (auth off).

    Raises:
        InputError: a missing/malformed file, a malformed token, or an empty list.
    """
    if setting is None:
        return None
    if isinstance(setting, (str, Path)):
        return TokenSet(read_tokens_file(Path(setting)))
    values = [t.get_secret_value() if hasattr(t, "get_secret_value") else str(t) for t in setting]
    if not values:
        raise InputError("auth_tokens", "is an empty list (omit it to turn auth off)")
    return TokenSet(check_token(v.strip(), f"auth_tokens[{i}]") for i, v in enumerate(values))
