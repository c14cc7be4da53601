"""TLS, mutual TLS, bearer tokens and message limits, over a real loopback port (fake classifier)."""

from __future__ import annotations

import datetime as dt
import hmac
import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from server_fakes import FakeClassifier, memory, running_server, serving

from writegate.client import AsyncClient, RetryPolicy
from writegate.errors import InputError
from writegate.server import security
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

TOKEN = "tok-0123456789abcdef"
OTHER = "tok-fedcba9876543210"


# -- a throw-away PKI ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    rogue_cert: Path  # signed by another CA
    rogue_key: Path
    other_key: Path  # matches no certificate
    encrypted_key: Path


def _key():
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def _write_key(path: Path, key, password: bytes | None = None) -> Path:
    from cryptography.hazmat.primitives import serialization

    enc = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc))
    return path


def _cert(subject_cn: str, key, issuer_cn: str, issuer_key, *, ca: bool, san: bool = False):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    now = dt.datetime.now(dt.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject_cn)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer_cn)]))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if san:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
    return builder.sign(issuer_key, hashes.SHA256())


def _write_cert(path: Path, cert) -> Path:
    from cryptography.hazmat.primitives import serialization

    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    pytest.importorskip("cryptography")
    d = tmp_path_factory.mktemp("pki")
    ca_key, rogue_ca_key = _key(), _key()
    ca = _cert("writegate test CA", ca_key, "writegate test CA", ca_key, ca=True)
    server_key, client_key, rogue_key = _key(), _key(), _key()
    return Pki(
        ca=_write_cert(d / "ca.pem", ca),
        server_cert=_write_cert(
            d / "server.pem", _cert("localhost", server_key, "writegate test CA", ca_key, ca=False, san=True)
        ),
        server_key=_write_key(d / "server.key", server_key),
        client_cert=_write_cert(d / "client.pem", _cert("store-1", client_key, "writegate test CA", ca_key, ca=False)),
        client_key=_write_key(d / "client.key", client_key),
        rogue_cert=_write_cert(d / "rogue.pem", _cert("rogue", rogue_key, "rogue CA", rogue_ca_key, ca=False)),
        rogue_key=_write_key(d / "rogue.key", rogue_key),
        other_key=_write_key(d / "other.key", _key()),
        encrypted_key=_write_key(d / "enc.key", server_key, b"secret"),
    )


def no_retry() -> RetryPolicy:
    return RetryPolicy(retries=0)


def prepare() -> tuple[dict, list[dict]]:
    t = "2026-03-01T10:00:00Z"
    new = {"id": "n", "subject": "user:alice", "text": "she moved to Berlin", "observed_at": t}
    return new, [{"id": "c", "subject": "user:alice", "text": "lives in Paris", "observed_at": t}]


# -- TLS and mTLS --------------------------------------------------------------------------------


async def test_tls_serves_a_client_that_trusts_the_ca_and_refuses_plaintext(pki: Pki) -> None:
    async with running_server(tls_cert=pki.server_cert, tls_key=pki.server_key) as (_app, target):
        async with AsyncClient(target, tls_ca=pki.ca, timeout=5) as client:
            result = await client.prepare_write(*prepare())
            assert result.relations[0].label.value == "supersedes"
        async with AsyncClient(target, timeout=2, retry=no_retry()) as plain:
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await plain.model_info()
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    ("cert", "key", "ok"),
    [("client_cert", "client_key", True), (None, None, False), ("rogue_cert", "rogue_key", False)],
    ids=["ca-signed-client-cert", "no-client-cert", "cert-of-another-ca"],
)
async def test_mutual_tls_admits_only_clients_with_a_cert_of_the_client_ca(
    pki: Pki, cert: str | None, key: str | None, ok: bool
) -> None:
    creds = {} if cert is None else {"tls_cert": getattr(pki, cert), "tls_key": getattr(pki, key)}
    async with running_server(tls_cert=pki.server_cert, tls_key=pki.server_key, tls_client_ca=pki.ca) as (_app, target):
        async with AsyncClient(target, tls_ca=pki.ca, timeout=3, retry=no_retry(), **creds) as client:
            if ok:
                assert (await client.model_info()).name == "fake-model"
            else:
                with pytest.raises(grpc.aio.AioRpcError) as info:
                    await client.model_info()
                assert info.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        ({"cert": "missing.pem", "key": "server_key"}, "tls_cert", "does not exist"),
        ({"cert": "server_key", "key": "server_key"}, "tls_cert", "is not a PEM certificate"),
        ({"cert": "server_cert", "key": "server_cert"}, "tls_key", "is not a PEM private key"),
        ({"cert": "server_cert", "key": "other_key"}, "tls_key", "does not match the certificate"),
        ({"cert": "server_cert", "key": "encrypted_key"}, "tls_key", "is encrypted"),
        ({"cert": "server_cert", "key": None}, "tls_key", "is required with --tls-cert"),
        ({"cert": None, "key": "server_key"}, "tls_cert", "is required with --tls-key"),
        ({"cert": None, "key": None, "client_ca": "ca"}, "tls_client_ca", "needs --tls-cert and --tls-key"),
        ({"cert": "server_cert", "key": "server_key", "client_ca": "server_key"}, "tls_client_ca", "is not a PEM CA"),
    ],
    ids=[
        "cert-missing",
        "cert-not-pem",
        "key-not-pem",
        "key-mismatch",
        "key-encrypted",
        "key-absent",
        "cert-absent",
        "ca-without-tls",
        "ca-not-pem",
    ],
)
def test_bad_tls_files_are_clear_errors(pki: Pki, tmp_path: Path, args: dict, field: str, message: str) -> None:
    def path(name: str | None) -> Path | None:
        if name is None:
            return None
        return getattr(pki, name) if hasattr(pki, name) else tmp_path / name

    with pytest.raises(InputError) as info:
        security.server_credentials(path(args["cert"]), path(args["key"]), path(args.get("client_ca")))
    assert info.value.field == field
    assert message in info.value.message


# -- bearer tokens -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metadata", "code", "details"),
    [
        ((), grpc.StatusCode.UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"),
        ((("authorization", f"Bearer {OTHER}"),), grpc.StatusCode.UNAUTHENTICATED, "the bearer token is not valid"),
        ((("authorization", f"Basic {TOKEN}"),), grpc.StatusCode.UNAUTHENTICATED, "missing 'authorization: Bearer"),
        (
            (("authorization", f"Bearer {TOKEN[:-1]}"),),
            grpc.StatusCode.UNAUTHENTICATED,
            "the bearer token is not valid",
        ),
        ((("authorization", f"Bearer {TOKEN}"),), grpc.StatusCode.OK, None),
        ((("authorization", f"bearer {TOKEN}"),), grpc.StatusCode.OK, None),
    ],
    ids=["no-token", "wrong-token", "other-scheme", "prefix-of-token", "right-token", "lowercase-scheme"],
)
async def test_token_auth_on_every_writegate_rpc(metadata: tuple, code: grpc.StatusCode, details: str | None) -> None:
    fake = FakeClassifier()
    async with running_server(fake, auth_tokens=[TOKEN, "second-token-0000"], metrics_port=None) as (app, target):
        async with grpc.aio.insecure_channel(target) as channel:
            stub = pb_grpc.WriteGateStub(channel)
            n_batches = len(fake.batches)
            calls = {
                "GetModelInfo": stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5, metadata=metadata),
                "PrepareWrite": stub.PrepareWrite(
                    pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")]),
                    timeout=5,
                    metadata=metadata,
                ),
            }
            for name, call in calls.items():
                if code == grpc.StatusCode.OK:
                    await call
                    continue
                with pytest.raises(grpc.aio.AioRpcError) as info:
                    await call
                assert info.value.code() == code, name
                assert info.value.details().startswith(details), info.value.details()
            relabel = stub.Relabel(
                iter([pb.RelabelRequest(pair_id="p", existing=memory("e"), new=memory("n", "also"))]),
                timeout=5,
                metadata=metadata,
            )
            if code == grpc.StatusCode.OK:
                assert [r.pair_id async for r in relabel] == ["p"]
            else:
                with pytest.raises(grpc.aio.AioRpcError) as info:
                    _ = [r async for r in relabel]
                assert info.value.code() == code
                assert len(fake.batches) == n_batches  # refused before any work
        text = app.metrics.render().decode()
    if code != grpc.StatusCode.OK:
        assert 'writegate_requests_total{code="UNAUTHENTICATED",method="PrepareWrite"} 1.0' in text


async def test_health_and_reflection_stay_open_without_a_token() -> None:
    async with running_server(auth_tokens=[TOKEN]) as (_app, target), grpc.aio.insecure_channel(target) as channel:
        status = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert status.status == health_pb2.HealthCheckResponse.SERVING

        async def ask():
            yield reflection_pb2.ServerReflectionRequest(list_services="")

        answers = [
            a async for a in reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(ask(), timeout=5)
        ]
        assert "writegate.v1.WriteGate" in {s.name for s in answers[0].list_services_response.service}


async def test_client_token_option_and_tokens_file(tmp_path: Path) -> None:
    path = tmp_path / "tokens.txt"
    path.write_text(f"# writegate tokens\n\n  {TOKEN}  \n# retired: {OTHER}\n")
    async with running_server(auth_tokens=path) as (_app, target):
        async with AsyncClient(target, token=TOKEN, timeout=5) as client:
            assert (await client.model_info()).name == "fake-model"
        async with AsyncClient(target, token=OTHER, timeout=5) as client:
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await client.model_info()
            assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.parametrize(
    ("text", "tokens", "error"),
    [
        (f"{TOKEN}\n{OTHER}\n", [TOKEN, OTHER], None),
        (f"# comment\n\n\t{TOKEN}\r\n   \n#{OTHER}\n", [TOKEN], None),
        ("", None, "auth_tokens: holds no token (every line is blank or a # comment)"),
        ("# only a comment\n\n", None, "auth_tokens: holds no token (every line is blank or a # comment)"),
        (f"{TOKEN}\nshort\n", None, "auth_tokens:2: a token must have at least 16 characters (got 5)"),
        (f"{TOKEN} {OTHER}\n", None, "auth_tokens:1: a token may hold visible ASCII only (found U+0020)"),
        ("tökén-0123456789abc\n", None, "auth_tokens:1: a token may hold visible ASCII only (found U+00F6)"),
    ],
    ids=["two-tokens", "comments-blanks-crlf", "empty", "comments-only", "too-short", "inner-space", "non-ascii"],
)
def test_parse_tokens(text: str, tokens: list[str] | None, error: str | None) -> None:
    if error is None:
        assert security.parse_tokens(text) == tokens
    else:
        with pytest.raises(InputError) as info:
            security.parse_tokens(text)
        assert str(info.value) == error
        assert "tökén" not in str(info.value)  # a bad token is never echoed


@pytest.mark.parametrize(
    ("setting", "field", "message"),
    [
        (Path("/nonexistent/tokens.txt"), "auth_tokens", "/nonexistent/tokens.txt does not exist"),
        ([], "auth_tokens", "is an empty list"),
        ([TOKEN, "x"], "auth_tokens[1]", "at least 16 characters"),
    ],
    ids=["missing-file", "empty-list", "short-in-list"],
)
def test_load_tokens_errors(setting: object, field: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        security.load_tokens(setting)  # type: ignore[arg-type]
    assert info.value.field == field and message in info.value.message


def test_cli_refuses_a_missing_tokens_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from writegate.classifier import modeldir
    from writegate.classifier.labels import LABELS
    from writegate.cli.main import main

    # the model is checked first: give it a valid writegate.json so that the tokens file is what fails
    modeldir.write_meta(
        tmp_path, modeldir.ModelMeta(name="m", version="1", input_format_version=1, labels=list(LABELS))
    )
    code = main(["serve", "--port", "0", "--auth-tokens", str(tmp_path / "none.txt"), "--model", str(tmp_path)])
    assert code == 2
    assert f"writegate serve: error: auth_tokens: {tmp_path / 'none.txt'} does not exist" in capsys.readouterr().err


@pytest.mark.parametrize("position", [0, 2, 4, None], ids=["first", "middle", "last", "absent"])
def test_token_check_compares_against_every_token(monkeypatch: pytest.MonkeyPatch, position: int | None) -> None:
    tokens = [f"token-{i}-0123456789abcdef" for i in range(5)]
    calls: list[int] = []
    real = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", counting)
    given = tokens[position] if position is not None else "not-a-token-0123456789"
    assert security.TokenSet(tokens).accepts(given) is (position is not None)
    assert len(calls) == len(tokens)  # no early exit: the time does not depend on which token matched


@pytest.mark.parametrize(
    ("metadata", "token"),
    [
        ((("authorization", "Bearer abc"),), "abc"),
        ((("Authorization", "BEARER  abc "),), "abc"),
        ((("x-other", "1"), ("authorization", "Bearer abc")), "abc"),
        ((("authorization", "Basic abc"),), None),
        ((), None),
        (None, None),
    ],
    ids=["plain", "case-and-space", "among-others", "basic-scheme", "empty", "none"],
)
def test_bearer_token(metadata: tuple | None, token: str | None) -> None:
    assert security.bearer_token(metadata) == token


# -- the interceptor plumbing -------------------------------------------------------------------


async def _behaviour(_request: object, _context: object) -> None:
    return None


@pytest.mark.parametrize("kind", [kind for kind, _ in security.HANDLER_KINDS])
def test_refusing_handler_keeps_the_kind_and_never_parses(kind: str) -> None:
    build = dict(security.HANDLER_KINDS)[kind]
    handler = build(_behaviour, bytes.decode, str.encode)
    refused = security.refusing_handler(handler, grpc.StatusCode.UNAVAILABLE, "no")
    assert [k for k, _ in security.HANDLER_KINDS if getattr(refused, k) is not None] == [kind]
    assert getattr(refused, kind) is not _behaviour
    assert refused.request_deserializer(b"\xff not utf-8") is None  # the request is never parsed
    assert refused.response_serializer is str.encode


def test_rebuild_handler_wraps_only_the_kinds_it_is_given() -> None:
    async def other(_request: object, _context: object) -> None:
        return None

    handler = grpc.unary_stream_rpc_method_handler(_behaviour, bytes.decode, str.encode)
    assert security.rebuild_handler(handler, {"unary_unary": lambda _b: other}) is handler
    wrapped = security.rebuild_handler(handler, {"unary_stream": lambda b: other if b is _behaviour else b})
    assert wrapped.unary_stream is other and wrapped.unary_unary is None
    assert (wrapped.request_deserializer, wrapped.response_serializer) == (bytes.decode, str.encode)


@pytest.mark.parametrize(
    ("interceptor", "open_method", "closed_method"),
    [
        (
            security.AuthInterceptor(security.TokenSet([TOKEN])),
            "/grpc.health.v1.Health/Check",
            "/writegate.v1.WriteGate/PrepareWrite",
        ),
        (
            security.DecodeGuardInterceptor(frozenset({"writegate.v1.WriteGate"})),
            "/grpc.health.v1.Health/Check",
            "/writegate.v1.WriteGate/PrepareWrite",
        ),
    ],
    ids=["auth", "decode-guard"],
)
async def test_service_interceptors_touch_only_the_services_they_apply_to(
    interceptor: security.ServiceInterceptor, open_method: str, closed_method: str
) -> None:
    handler = grpc.unary_unary_rpc_method_handler(_behaviour, bytes.decode, str.encode)

    async def resolve(_details: object) -> grpc.RpcMethodHandler:
        return handler

    async def unknown(_details: object) -> None:
        return None

    @dataclass(frozen=True)
    class Details:
        method: str
        invocation_metadata: tuple = ()

    def details(method: str) -> grpc.HandlerCallDetails:
        return Details(method)  # type: ignore[return-value]

    assert await interceptor.intercept_service(resolve, details(open_method)) is handler
    assert await interceptor.intercept_service(resolve, details(closed_method)) is not handler
    assert await interceptor.intercept_service(unknown, details(closed_method)) is None


# -- limits before any work ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "req", "code", "details"),
    [
        (
            {"max_message_bytes": 4096},
            pb.PrepareWriteRequest(memory=memory("n", "x " * 1500), candidates=[memory("c", "y " * 1500)]),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            ".*larger than max.*",
        ),
        (
            {"max_text_bytes": 64},
            pb.PrepareWriteRequest(memory=memory("n", "short"), candidates=[memory("c0"), memory("c1", "z" * 65)]),
            grpc.StatusCode.INVALID_ARGUMENT,
            re.escape("candidates[1].text: is over the limit of 64 bytes (65 bytes)"),
        ),
    ],
    ids=["message-over-max-message-bytes", "text-over-max-text-bytes"],
)
async def test_a_request_over_a_limit_is_refused_before_any_work(
    config: dict[str, int], req: pb.PrepareWriteRequest, code: grpc.StatusCode, details: str
) -> None:
    if "max_message_bytes" in config:
        assert req.ByteSize() > config["max_message_bytes"]
    fake = FakeClassifier()
    normalized: list[str] = []
    async with serving(fake, **config) as (app, _channel, stub):
        app.service.normalizer = lambda text, **kw: normalized.append(text) or []
        n_batches = len(fake.batches)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(req, timeout=5)
        assert info.value.code() == code
        assert re.fullmatch(details, info.value.details(), re.DOTALL), info.value.details()
        assert len(fake.batches) == n_batches and normalized == []
        ok = await stub.PrepareWrite(
            pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")]), timeout=5
        )
        assert len(ok.relations) == 1


async def test_concurrent_rpc_limit_answers_resource_exhausted() -> None:
    import asyncio

    fake = FakeClassifier.gated()
    async with serving(fake, max_concurrent_rpcs=2) as (_app, _channel, stub):
        fake.hold()
        req = pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")])
        held = [asyncio.ensure_future(stub.PrepareWrite(req, timeout=10)) for _ in range(2)]
        assert await asyncio.to_thread(fake.entered.wait, 5)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(req, timeout=5)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        fake.release()
        assert all(len(r.relations) == 1 for r in await asyncio.gather(*held))


@pytest.mark.parametrize("source", ["toml-list", "toml-path", "env-path"], ids=["toml-list", "toml-path", "env-path"])
def test_tokens_from_the_config_are_secret_in_its_repr(tmp_path: Path, source: str) -> None:
    from writegate.server.config import load_config

    tokens_file = tmp_path / "tokens.txt"
    tokens_file.write_text(f"{TOKEN}\n")
    config_file, env = None, {}
    if source == "toml-list":
        config_file = tmp_path / "c.toml"
        config_file.write_text(f'auth_tokens = ["{TOKEN}", "{OTHER}"]\n')
    elif source == "toml-path":
        config_file = tmp_path / "c.toml"
        config_file.write_text(f'auth_tokens = "{tokens_file}"\n')
    else:
        env = {"WRITEGATE_AUTH_TOKENS": str(tokens_file)}
    config = load_config(config_file=config_file, env=env)
    tokens = security.load_tokens(config.auth_tokens)
    assert tokens is not None and tokens.accepts(TOKEN) and not tokens.accepts("tok-not-a-token-000")
    assert TOKEN not in repr(config) and TOKEN not in str(config.model_dump())
