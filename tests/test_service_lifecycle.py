"""serve(): graceful drain on stop; the CLI exits 0 on SIGTERM; load errors are clear."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server_fakes import FakeClassifier, memory

from writegate.server.app import serve
from writegate.server.config import ServerConfig
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc


async def test_stop_drains_in_flight_requests_then_returns_0() -> None:
    gate = threading.Event()
    gate.set()
    fake = FakeClassifier(gate=gate)
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    config = ServerConfig(port=0, max_wait_ms=0, grace_s=10)
    server = asyncio.ensure_future(serve(config, loader=lambda: fake, stop_event=stop, on_ready=ready.set_result))
    app = await asyncio.wait_for(ready, 10)
    target = f"127.0.0.1:{app.port}"
    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.WriteGateStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        gate.clear()
        fake.entered.clear()
        req = pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")])
        in_flight = asyncio.ensure_future(stub.PrepareWrite(req, timeout=15))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        stop.set()  # as SIGTERM does
        refused = None
        while refused is None:  # health turns NOT_SERVING, then new RPCs are refused
            try:
                status = (await health.Check(health_pb2.HealthCheckRequest(), timeout=5)).status
                assert status in (health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING)
                await asyncio.sleep(0.001)
            except grpc.aio.AioRpcError as exc:
                refused = exc.code()
        assert refused in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        assert not server.done() and not in_flight.done()  # still draining the in-flight request
        gate.set()
        resp = await in_flight
        assert resp.relations[0].label == pb.LABEL_SUPERSEDES
        assert await asyncio.wait_for(server, 10) == 0
    async with grpc.aio.insecure_channel(target) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await pb_grpc.WriteGateStub(channel).PrepareWrite(req, timeout=2)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE


async def test_load_error_stops_the_server_and_propagates() -> None:
    from writegate.errors import InputError

    def broken() -> None:
        raise InputError("model", "/nowhere/writegate.json is missing")

    with pytest.raises(InputError, match="is missing"):
        await asyncio.wait_for(serve(ServerConfig(port=0), loader=broken), 10)


def _cli(*args: str, **kwargs: object) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "writegate.cli.main", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **kwargs,
    )


def test_cli_missing_model_is_a_clear_error_before_it_listens(tmp_path: Path) -> None:
    proc = _cli("--model", str(tmp_path / "none"), "--port", "0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert out == ""  # no SERVING line
    assert err.splitlines() == [  # one line, no "listening" log before it
        f"writegate serve: error: model: {tmp_path / 'none'} is not a directory (pass --model DIR or set WRITEGATE_MODEL=DIR)"
    ]


async def test_the_model_dir_is_checked_before_the_port_is_bound(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from writegate.errors import InputError
    from writegate.server.app import WriteGateServer

    caplog.set_level("INFO", logger="writegate.server")
    app = WriteGateServer(ServerConfig(port=0, model=tmp_path / "none", host="0.0.0.0"))
    with pytest.raises(InputError, match="is not a directory"):
        await app.start()
    assert app.server is None and app.port is None
    assert caplog.records == []  # neither "listening" nor the exposed-host warnings


def test_cli_bad_flag_value_is_a_clear_error() -> None:
    proc = _cli("--port", "99999")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "--port: Input should be less than or equal to 65535" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_cli_serves_the_tiny_model_and_exits_0_on_signal(tiny_model_dir: Path, sig: signal.Signals) -> None:
    from writegate.client import Client
    from writegate.normalizer.schema import Memory

    proc = _cli("--model", str(tiny_model_dir), "--port", "0", "--threads", "1")
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert "SERVING on 127.0.0.1:" in line, line + proc.stderr.read()  # type: ignore[union-attr]
        port = int(line.split("127.0.0.1:")[1].split()[0])
        with Client(f"127.0.0.1:{port}", timeout=20) as client:
            t = "2026-03-01T10:00:00Z"
            result = client.prepare_write(
                Memory(id="n", subject="user:alice", text="User moved to London", observed_at=t),
                [Memory(id="c", subject="user:alice", text="User works in EST", observed_at=t)],
            )
            assert [r.candidate_id for r in result.relations] == ["c"]
            assert client.model_info().name == "tiny-test"
        proc.send_signal(sig)
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_a_model_that_fails_its_warm_up_is_refused() -> None:
    from server_fakes import BOOM, T0

    from writegate.classifier.types import Pair, Side
    from writegate.errors import InputError
    from writegate.server.app import WriteGateServer

    bad = [Pair(existing=Side(text="x", observed_at=T0), new=Side(text=BOOM, observed_at=T0))]
    app = WriteGateServer(ServerConfig(port=0), loader=FakeClassifier, warmup=bad)
    await app.start()
    try:
        with pytest.raises(InputError, match="model: the warm-up batch failed"):
            await asyncio.wait_for(app.wait_ready(), 10)
        assert not app.ready.is_set()
    finally:
        await app.stop(0)


def test_cli_vllm_without_vllm_is_a_clear_error(tiny_model_dir: Path) -> None:
    proc = _cli("--model", str(tiny_model_dir), "--port", "0", "--backend", "vllm")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "writegate serve: error: the vllm backend is not available" in err and "Traceback" not in err


# -- shutdown under load: every accepted call is answered, every later one is UNAVAILABLE ---------

SHUTTING_DOWN = "the server is shutting down"
QUEUED = "the server is shutting down; this call had not reached the model (retry it)"


async def _until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not cond():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(wait(), timeout)


def _sigterm_or_set(stop: asyncio.Event) -> None:
    """SIGTERM to this process when serve() handles it (main thread), else what its handler does."""
    if signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN, None):
        os.kill(os.getpid(), signal.SIGTERM)
    else:
        stop.set()


LOAD_SEEDS = range(20)


@pytest.mark.parametrize("seed", LOAD_SEEDS, ids=[f"seed{s}" for s in LOAD_SEEDS])
async def test_sigterm_under_load_answers_every_accepted_call(seed: int) -> None:
    """16 closed-loop clients; SIGTERM after a seeded number of answers. Every call the server
    accepted is answered: OK when it had reached the model, else UNAVAILABLE at once (queued);
    every other one is refused UNAVAILABLE — none CANCELLED or lost."""
    rng = random.Random(seed)
    signal_after = rng.randint(1, 60)  # answers before the signal
    fake = FakeClassifier()
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    config = ServerConfig(port=0, max_wait_ms=rng.choice([0, 1]), grace_s=10, batch_workers=2)
    server = asyncio.ensure_future(serve(config, loader=lambda: fake, stop_event=stop, on_ready=ready.set_result))
    app = await asyncio.wait_for(ready, 10)
    answers: list[tuple[bool, str, str]] = []  # (sent once the drain had begun, code, details)

    async def client(stub: pb_grpc.WriteGateStub, c: int) -> None:
        sizes = random.Random(seed * 1000 + c)
        for i in itertools.count():
            k = sizes.randint(1, 8)
            req = pb.PrepareWriteRequest(
                memory=memory(f"n{c}-{i}", "she moved"), candidates=[memory(f"c{j}") for j in range(k)]
            )
            late = app.drain.draining
            try:
                await stub.PrepareWrite(req, timeout=10)
            except grpc.aio.AioRpcError as exc:
                answers.append((late, exc.code().name, exc.details() or ""))
                return
            answers.append((late, "OK", ""))

    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = pb_grpc.WriteGateStub(channel)
        clients = [asyncio.ensure_future(client(stub, c)) for c in range(16)]
        await _until(lambda: len(answers) >= signal_after)
        _sigterm_or_set(stop)
        await asyncio.wait_for(asyncio.gather(*clients), 20)
        assert await asyncio.wait_for(server, 20) == 0
    codes = Counter((code, details) for _late, code, details in answers)
    assert set(codes) <= {("OK", ""), ("UNAVAILABLE", SHUTTING_DOWN), ("UNAVAILABLE", QUEUED)}, codes
    # each accepted call answered, and only those: OK, or UNAVAILABLE when it was still queued
    assert codes[("OK", "")] + codes[("UNAVAILABLE", QUEUED)] == app.drain.accepted
    assert codes[("UNAVAILABLE", SHUTTING_DOWN)] + codes[("UNAVAILABLE", QUEUED)] == 16  # each client's last
    assert all(code != "OK" for late, code, _ in answers if late)  # nothing new ran after the drain began


class _HoldInterceptor(grpc.aio.ServerInterceptor):
    """Inside the drain: holds a call flagged `hold` between acceptance and its handler, as gRPC
    does while it reads a unary request."""

    def __init__(self) -> None:
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    async def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        if ("hold", "1") in (details.invocation_metadata or ()):
            self.held.set()
            await self.release.wait()
        return await continuation(details)


async def test_a_call_accepted_just_before_the_drain_is_counted_and_answered() -> None:
    """A call gRPC handed over before the drain but had not run yet is counted in flight (the drain
    waits for it) and answered: UNAVAILABLE, as every call that had not reached the model."""
    from writegate.server.app import WriteGateServer

    hold = _HoldInterceptor()

    class Held(WriteGateServer):
        def _interceptors(self) -> list[grpc.aio.ServerInterceptor]:
            return [*super()._interceptors(), hold]

    app = Held(ServerConfig(port=0, max_wait_ms=0), loader=FakeClassifier)
    port = await app.start()
    await asyncio.wait_for(app.wait_ready(), 10)
    req = pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")])
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = pb_grpc.WriteGateStub(channel)
        accepted = asyncio.ensure_future(stub.PrepareWrite(req, timeout=10, metadata=(("hold", "1"),)))
        await asyncio.wait_for(hold.held.wait(), 10)
        stopping = asyncio.ensure_future(app.stop(10))
        await _until(lambda: app.drain.draining)
        assert app.drain.in_flight == 1  # counted from acceptance, not from its handler's start
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.PrepareWrite(req, timeout=10)
        assert (refused.value.code(), refused.value.details()) == (grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        assert not stopping.done()  # the drain waits for it
        hold.release.set()
        with pytest.raises(grpc.aio.AioRpcError) as answered:  # answered, not cancelled: it never reached the model
            await asyncio.wait_for(accepted, 10)
        await asyncio.wait_for(stopping, 10)
    assert (answered.value.code(), answered.value.details()) == (grpc.StatusCode.UNAVAILABLE, QUEUED)
    assert app.drain.in_flight == 0


async def test_calls_still_queued_after_the_grace_are_answered_unavailable_not_cancelled() -> None:
    from server_fakes import running_server

    gate = threading.Event()
    gate.set()
    fake = FakeClassifier(gate=gate)
    req = pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")])
    async with running_server(fake) as (app, target), grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.WriteGateStub(channel)
        gate.clear()
        fake.entered.clear()
        running = asyncio.ensure_future(stub.PrepareWrite(req, timeout=10))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        queued = asyncio.ensure_future(stub.PrepareWrite(req, timeout=10))
        await _until(lambda: app.batcher is not None and app.batcher.queue_depth == 1)
        await app.stop(0)
        results = await asyncio.gather(running, queued, return_exceptions=True)
    assert [(r.code(), r.details()) for r in results] == [  # type: ignore[union-attr]
        (grpc.StatusCode.UNAVAILABLE, "the batcher is shutting down"),  # on the model past the grace
        (grpc.StatusCode.UNAVAILABLE, QUEUED),  # queued: at the signal
    ]


async def test_sigterm_answers_queued_calls_unavailable_at_once_and_lets_running_ones_finish() -> None:
    """At the signal a queued call is answered UNAVAILABLE at once (not when the model is free, nor
    at its deadline); the call on the model finishes OK; a new call is refused UNAVAILABLE."""
    from server_fakes import running_server

    fake = FakeClassifier.gated()
    running_req = pb.PrepareWriteRequest(memory=memory("n", "she moved"), candidates=[memory("c")])
    queued_req = pb.PrepareWriteRequest(memory=memory("q", "never said that"), candidates=[memory("c")])
    async with running_server(fake) as (app, target), grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.WriteGateStub(channel)
        fake.hold()
        running = asyncio.ensure_future(stub.PrepareWrite(running_req, timeout=30))
        assert await asyncio.to_thread(fake.entered.wait, 5)
        queued = asyncio.ensure_future(stub.PrepareWrite(queued_req, timeout=30))
        await _until(lambda: app.batcher is not None and app.batcher.queue_depth == 1)
        stopping = asyncio.ensure_future(app.stop(30))
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await asyncio.wait_for(queued, 10)  # while the model still holds the running call
        assert (info.value.code(), info.value.details()) == (grpc.StatusCode.UNAVAILABLE, QUEUED)
        assert not running.done() and not stopping.done()
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.PrepareWrite(queued_req, timeout=10)
        assert (refused.value.code(), refused.value.details()) == (grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        fake.release()
        assert (await running).relations[0].label == pb.LABEL_SUPERSEDES
        await asyncio.wait_for(stopping, 20)
    assert not any("never said that" in k for batch in fake.batches for k in batch)


async def test_clients_that_send_again_at_once_are_never_cancelled_at_shutdown() -> None:
    """32 clients send their next call as soon as one is answered, refusals included, until the
    server has stopped: every answer is OK or UNAVAILABLE — gRPC's own stop cancels none."""
    fake = FakeClassifier()
    stop = asyncio.Event()
    ready: asyncio.Future = asyncio.get_running_loop().create_future()
    config = ServerConfig(port=0, max_wait_ms=0, grace_s=10, batch_workers=2)
    server = asyncio.ensure_future(serve(config, loader=lambda: fake, stop_event=stop, on_ready=ready.set_result))
    app = await asyncio.wait_for(ready, 10)
    codes: Counter[str] = Counter()

    async def client(stub: pb_grpc.WriteGateStub, c: int) -> None:
        req = pb.PrepareWriteRequest(memory=memory(f"n{c}", "she moved"), candidates=[memory("c0"), memory("c1")])
        while not server.done():
            try:
                await stub.PrepareWrite(req, timeout=10)
                codes["OK"] += 1
            except grpc.aio.AioRpcError as exc:
                codes[exc.code().name] += 1
                await asyncio.sleep(0)  # at once, but let the server's loop run

    async with grpc.aio.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        stub = pb_grpc.WriteGateStub(channel)
        clients = [asyncio.ensure_future(client(stub, c)) for c in range(32)]
        await _until(lambda: codes["OK"] >= 50)
        _sigterm_or_set(stop)
        assert await asyncio.wait_for(server, 30) == 0
        await asyncio.wait_for(asyncio.gather(*clients), 30)
    assert set(codes) <= {"OK", "UNAVAILABLE"}, codes
    assert codes["UNAVAILABLE"] >= 32
