"""Faults: broken model directories, SIGTERM under load, an exception inside one batch.

Already covered elsewhere (not repeated here): a missing model directory and a model whose warm-up
fails (test_service_lifecycle), SIGTERM/SIGINT on an idle server and in-process drain
(test_service_lifecycle), a failing batch on the fake classifier (test_service_rpcs).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from server_fakes import memory, running_server

from writegate.server.app import load_classifier
from writegate.server.config import ServerConfig
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc


def _serve(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "writegate.cli.main", "serve", "--port", "0", "--threads", "1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda d: (d / name).write_bytes(data)


def _remove(name: str) -> Callable[[Path], None]:
    return lambda d: (d / name).unlink()


def _labels_reordered(d: Path) -> None:
    meta = json.loads((d / "writegate.json").read_text())
    meta["labels"] = list(reversed(meta["labels"]))
    (d / "writegate.json").write_text(json.dumps(meta))


BROKEN: dict[str, tuple[Callable[[Path], None], str]] = {
    "meta-missing": (_remove("writegate.json"), "writegate.json is missing"),
    "meta-not-json": (_write("writegate.json", b"{not json"), "writegate.json is not valid JSON"),
    "meta-wrong-labels": (_labels_reordered, "writegate.json: labels"),
    "tokenizer-corrupt": (_write("tokenizer.json", b'{"model": 1'), "tokenizer.json could not be loaded"),
    "onnx-missing": (_remove("model.int8.onnx"), "model.int8.onnx is missing"),
    "onnx-corrupt": (
        _write("model.int8.onnx", b"\x08\x07garbage" * 100),
        "model.int8.onnx could not be loaded by onnxruntime",
    ),
    "onnx-truncated": (None, "model.int8.onnx could not be loaded by onnxruntime"),  # type: ignore[dict-item]
}


@pytest.mark.parametrize(("break_it", "message"), BROKEN.values(), ids=BROKEN.keys())
def test_broken_model_directory_refuses_to_start(
    tiny_model_dir: Path, tmp_path: Path, break_it: Callable[[Path], None] | None, message: str
) -> None:
    model = tmp_path / "model"
    shutil.copytree(tiny_model_dir, model)
    if break_it is None:  # truncated: half the bytes of a real file
        path = model / "model.int8.onnx"
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    else:
        break_it(model)
    proc = _serve("--model", str(model))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "SERVING" not in out
    last = err.strip().splitlines()[-1]
    assert last.startswith("writegate serve: error: model: ") and message in last, last
    assert "Traceback" not in err


def _heavy_request(i: int, k: int = 128) -> pb.PrepareWriteRequest:
    return pb.PrepareWriteRequest(
        memory=memory(f"n{i}", "User moved to London last month and now works on UK time"),
        candidates=[memory(f"c{j}", f"User works in EST and prefers morning meetings, note {j}") for j in range(k)],
    )


def test_sigterm_under_load_drains_in_flight_refuses_new_and_exits_0(tiny_model_dir: Path) -> None:
    # 16 x 128 pairs must all be queued: the default queue holds only ~1.5 s of work (tested elsewhere)
    proc = _serve("--model", str(tiny_model_dir), "--grace-s", "60", "--max-queue-pairs", "4096")
    shutting_down = threading.Event()
    stderr: list[str] = []

    def read_stderr() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            stderr.append(line)
            if "shutting down" in line:
                shutting_down.set()

    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert "SERVING on 127.0.0.1:" in line, line + proc.stderr.read()  # type: ignore[union-attr]
        port = int(line.split("127.0.0.1:")[1].split()[0])
        threading.Thread(target=read_stderr, daemon=True).start()

        async def scenario() -> tuple[list[object], int, grpc.StatusCode]:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = pb_grpc.WriteGateStub(channel)
                calls = [asyncio.ensure_future(stub.PrepareWrite(_heavy_request(i), timeout=60)) for i in range(16)]
                await asyncio.wait(calls, return_when=asyncio.FIRST_COMPLETED)  # the server is busy
                running = [not c.done() for c in calls]
                proc.send_signal(signal.SIGTERM)
                assert await asyncio.to_thread(shutting_down.wait, 20), "".join(stderr)
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.PrepareWrite(_heavy_request(99, k=1), timeout=10)
                results = await asyncio.gather(*calls, return_exceptions=True)
                drained = [r for r, was_running in zip(results, running, strict=True) if was_running]
                return results, drained, refused.value

        results, drained, refused = asyncio.run(scenario())
        assert refused.code() == grpc.StatusCode.UNAVAILABLE, refused.details()
        # a request the server had not started before SIGTERM is new: refused, never failed otherwise;
        # one still queued at SIGTERM is answered UNAVAILABLE at once (retry it); one on the model finishes
        outcomes = [
            "OK"
            if isinstance(r, pb.PrepareWriteResponse) and len(r.relations) == 128
            else f"{r.code().name}: {r.details()}"
            if isinstance(r, grpc.aio.AioRpcError)
            else repr(r)
            for r in results
        ]
        assert set(outcomes) <= {
            "OK",
            "UNAVAILABLE: the server is shutting down",
            "UNAVAILABLE: the server is shutting down; this call had not reached the model (retry it)",
        }, outcomes
        assert any(isinstance(r, pb.PrepareWriteResponse) for r in drained), (
            "no request still running at SIGTERM completed afterwards: no drain was observed"
        )
        assert proc.wait(timeout=60) == 0
        assert "Traceback" not in "".join(stderr)
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_injected_exception_fails_only_its_batch_on_the_real_model(tiny_model_dir: Path) -> None:
    config = ServerConfig(port=0, model=tiny_model_dir, threads=1)
    classifier = load_classifier(config)
    real_run = classifier.run
    fail_next = threading.Event()
    calls: list[int] = []

    def run(batch):
        calls.append(batch.size)
        if fail_next.is_set():
            fail_next.clear()
            raise RuntimeError("injected fault")
        return real_run(batch)

    classifier.run = run  # type: ignore[method-assign]
    async with running_server(loader=lambda: classifier, max_wait_ms=300, metrics_port=None) as (app, target):
        async with grpc.aio.insecure_channel(target) as channel:
            stub = pb_grpc.WriteGateStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            fail_next.set()
            n_before = len(calls)
            results = await asyncio.gather(
                stub.PrepareWrite(_heavy_request(0, k=2), timeout=10),
                stub.PrepareWrite(_heavy_request(1, k=3), timeout=10),
                return_exceptions=True,
            )
            assert calls[n_before:] == [5], "both requests shared the one failing batch"
            for res in results:
                assert isinstance(res, grpc.aio.AioRpcError) and res.code() == grpc.StatusCode.INTERNAL
                assert "the batch of 5 pairs failed: RuntimeError: injected fault" in res.details()
            after = await stub.PrepareWrite(_heavy_request(2, k=4), timeout=10)
            assert len(after.relations) == 4
            status = await health.Check(health_pb2.HealthCheckRequest(service="writegate.v1.WriteGate"), timeout=5)
            assert status.status == health_pb2.HealthCheckResponse.SERVING
        text = app.metrics.render().decode()
    assert 'writegate_requests_total{code="INTERNAL",method="PrepareWrite"} 2.0' in text
    assert 'writegate_requests_total{code="OK",method="PrepareWrite"} 1.0' in text
