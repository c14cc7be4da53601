"""Shared by `bench/fuzz_serve.py` and `bench/load.py`: a `writegate serve` subprocess on loopback.

`spawn(model, *flags)` starts it on a free port and waits for its SERVING line; without a model it
serves the tests' tiny random one (`tests/fixtures/tiny_model/`, committed: no torch needed).
`rss_mb(proc)` reads the server's resident memory (psutil).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
TINY_MODEL = ROOT / "tests" / "fixtures" / "tiny_model"
"""The tests' tiny random model (built by tests/fixtures/build_tiny_model.py); served read-only."""


@dataclass
class Server:
    """A running `writegate serve`."""

    proc: subprocess.Popen
    port: int
    stderr: list[str] = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        """Resident memory of the server process, MiB."""
        return psutil.Process(self.proc.pid).memory_info().rss / 2**20

    def settled_rss_mb(self, seconds: float) -> float:
        """The RSS (MiB) after `seconds` without load (the server releases idle memory after ~1 s)."""
        time.sleep(seconds)
        return self.rss_mb()

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, wait; returns the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


@contextlib.contextmanager
def spawn(model: Path | None, *flags: str) -> Iterator[Server]:
    """`writegate serve --host 127.0.0.1 --port 0 --model … *flags`, SERVING; stopped on exit."""
    cmd = [
        sys.executable,
        "-m",
        "writegate.cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--model",
        str(model or TINY_MODEL),
        *flags,
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}
    )
    line = proc.stdout.readline()  # type: ignore[union-attr]
    if "SERVING on 127.0.0.1:" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stderr.read()}")  # type: ignore[union-attr]
    server = Server(proc, int(line.split("127.0.0.1:")[1].split()[0]))
    threading.Thread(target=lambda: server.stderr.extend(proc.stderr), daemon=True).start()  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()
