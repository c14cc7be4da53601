"""Raw memory text never reaches logs or metric labels, unless `--log-text`."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from server_fakes import memory, running_server

from writegate.server.privacy import TextRedactor, describe, redact
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

SECRET = "Alice was diagnosed with diabetes in March"
CANDIDATE_SECRET = "Alice's salary is 182000 dollars"


def secret_request(new_text: str = SECRET) -> pb.PrepareWriteRequest:
    return pb.PrepareWriteRequest(memory=memory("n", new_text), candidates=[memory("c", CANDIDATE_SECRET)])


@pytest.mark.parametrize("log_text", [False, True], ids=["default", "log-text"])
async def test_rpc_log_lines_carry_text_only_with_log_text(caplog: pytest.LogCaptureFixture, log_text: bool) -> None:
    caplog.set_level(logging.DEBUG)
    async with (
        running_server(log_text=log_text, metrics_port=None) as (app, target),
        grpc.aio.insecure_channel(target) as ch,
    ):
        stub = pb_grpc.WriteGateStub(ch)
        await stub.PrepareWrite(secret_request(), timeout=5)
        with pytest.raises(grpc.aio.AioRpcError):  # INVALID_ARGUMENT is logged at INFO
            await stub.PrepareWrite(secret_request(SECRET + "\x07"), timeout=5)
        metrics = app.metrics.render().decode()
    lines = [
        r.getMessage() for r in caplog.records if r.name == "writegate.server" and "PrepareWrite" in r.getMessage()
    ]
    assert any("PrepareWrite OK" in line and "1 candidates" in line for line in lines), lines
    assert any("PrepareWrite INVALID_ARGUMENT" in line for line in lines), lines
    assert (SECRET in caplog.text) is log_text
    assert (CANDIDATE_SECRET in caplog.text) is log_text
    assert SECRET not in metrics and CANDIDATE_SECRET not in metrics


async def test_error_logs_that_quote_the_text_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    def leaky_normalizer(text: str, **_: object) -> list:
        raise ValueError(f"cannot parse {text!r} [type=x, input_value={text!r}, input_type=str]")

    async with running_server() as (app, target), grpc.aio.insecure_channel(target) as ch:
        app.service.normalizer = leaky_normalizer
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await pb_grpc.WriteGateStub(ch).PrepareWrite(secret_request(), timeout=5)
    assert info.value.code() == grpc.StatusCode.INTERNAL
    assert SECRET not in info.value.details()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors, "the unexpected error was logged"
    assert SECRET not in caplog.text and "diabetes" not in caplog.text
    assert f"<memory text: {len(SECRET)} chars>" in caplog.text  # the traceback is kept, the text is not
    assert "ValueError" in caplog.text


@pytest.mark.parametrize(
    ("message", "texts", "expected"),
    [
        ("failed on 'User moved to Berlin'", ["User moved to Berlin"], "failed on '<memory text: 20 chars>'"),
        ("x input_value='anything at all', y", [], "x input_value=<redacted>, y"),
        ('x input_value="a \\" b" y', [], "x input_value=<redacted> y"),
        ("the cat sat", ["cat"], "the cat sat"),  # too short to search for
        ("bad 'tab\\there'", ["tab\there"], "bad '<memory text: 8 chars>'"),  # repr-escaped
    ],
    ids=["quoted-text", "pydantic-input-value", "double-quoted-input-value", "short-text-kept", "escaped-text"],
)
def test_redact(message: str, texts: list[str], expected: str) -> None:
    assert redact(message, texts) == expected


def test_redactor_forgets_a_request_when_its_call_ends() -> None:
    redactor = TextRedactor()
    req = secret_request()
    with redactor.track(req) as held:
        held.append(pb.RelabelRequest(pair_id="p", existing=memory("e", "streamed existing text"), new=memory("m")))
        assert set(redactor.texts()) >= {SECRET, CANDIDATE_SECRET, "streamed existing text"}
    assert redactor.texts() == []


@pytest.mark.parametrize(("log_text", "shown"), [(False, False), (True, True)], ids=["shape-only", "with-text"])
def test_describe(log_text: bool, shown: bool) -> None:
    line = describe(secret_request(), log_text=log_text)
    assert line.startswith("1 candidates, ")
    assert (SECRET in line) is shown


def _serve(model: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "writegate.cli.main",
            "serve",
            "--model",
            str(model),
            "--port",
            "0",
            "--threads",
            "1",
            "--log-level",
            "DEBUG",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.parametrize("flag", [(), ("--log-text",)], ids=["default", "log-text"])
def test_cli_logs_no_text_by_default_and_text_with_log_text(tiny_model_dir: Path, flag: tuple[str, ...]) -> None:
    from writegate.client import Client

    proc = _serve(tiny_model_dir, *flag)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert "SERVING on 127.0.0.1:" in line, line + proc.stderr.read()  # type: ignore[union-attr]
        port = int(line.split("127.0.0.1:")[1].split()[0])
        t = "2026-03-01T10:00:00Z"
        with Client(f"127.0.0.1:{port}", timeout=20) as client:
            client.prepare_write(
                {"id": "n", "subject": "user:alice", "text": SECRET, "observed_at": t},
                [{"id": "c", "subject": "user:alice", "text": CANDIDATE_SECRET, "observed_at": t}],
            )
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "PrepareWrite OK" in err
    assert (SECRET in err) is bool(flag) and (CANDIDATE_SECRET in err) is bool(flag)
