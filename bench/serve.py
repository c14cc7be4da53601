"""PrepareWrite throughput and latency: `writegate serve` (dynamic batching) vs the naive way.

    python bench/serve.py [--model models/default] [--quick] [--threads N] [--json out.json]

One run, side by side, for k = 1, 16, 64 candidates × 1, 8, 32 concurrent clients:

- (a) served: a real `writegate serve` subprocess on a loopback port (onnx int8 by default,
  dynamic batching across requests); the clients are asyncio gRPC stubs in this process;
- (b) naive: the same classifier on transformers/torch fp32 (CPU), one request at a time
  (a lock), each request's k pairs batched together but never with another request's; the same
  clients call it in threads. No gRPC on this side, which only flatters (b).

Printed: pairs/s and PrepareWrite latency p50/p99 for both, the ratios, the server's mean batch
size, the CPU cores the server process and this (client) process used during the cell (on a
small machine the load generator takes its share of the same cores), and the issue's targets.
On a GPU pass `--backend torch --device cuda --precision bf16` for (a); `--roofline-tflops 790`
then adds achieved TFLOP/s (FLOPs per pair from config.json × pairs/s) as a share of the bf16
peak. Request counts are bounded; `--quick` runs a few.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import numpy as np
from rich.console import Console
from rich.table import Table

from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

KS: tuple[int, ...] = (1, 16, 64)
CLIENTS: tuple[int, ...] = (1, 8, 32)
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

EXISTING = [
    "User prefers morning meetings",
    "User works in EST",
    "Michelle owns the Acme account",
    "User prefers concise answers",
    "User has a dog named Biscuit",
    "User reports to Grace Hopper",
    "User is on the Singapore team",
    "No meetings before 10am",
    "User prefers Slack over email",
    "User approves budgets up to $50K",
    "Marcus is the sole approver for travel budgets",
    "User was born in Lyon",
    "Prefers meetings 9-10am on Tuesdays and Thursdays",
    "User speaks French",
    "User's manager is Priya Nair",
    "Keep Fridays clear after 3pm",
    "User likes detailed write-ups in bullets",
    "The Globex deal is owned by Jonas",
    "User is a staff engineer",
    "User lives in Berlin",
]
NEW = [
    "User moved to London last month",
    "Acme was handed off to Marcus in June",
    "User prefers meetings 9-10am on Tuesdays",
    "Actually she has always been on Pacific time",
    "User also has a cat",
    "User was promoted to director",
    "Approvals under $50K now go to her three direct reports",
    "User now prefers email for anything formal",
    "User likes to meet in the morning",
    "User's dog is named Biscuit",
]


@dataclass
class Cell:
    """One measurement."""

    k: int
    clients: int
    requests: int
    pairs_per_s: float
    p50_ms: float
    p99_ms: float
    mean_batch: float | None = None
    server_cores: float | None = None
    client_cores: float | None = None


def memory(mem_id: str, text: str, at: datetime) -> pb.Memory:
    """A Memory message."""
    m = pb.Memory(id=mem_id, subject="user:alice", text=text)
    m.observed_at.FromDatetime(at.replace(tzinfo=None))
    return m


def build_requests(k: int, n: int) -> list[pb.PrepareWriteRequest]:
    """`n` varied PrepareWrite requests with `k` candidates each."""
    out = []
    for i in range(n):
        cands = [memory(f"c{i}-{j}", EXISTING[(i + j) % len(EXISTING)], T0 + timedelta(days=j % 30)) for j in range(k)]
        out.append(
            pb.PrepareWriteRequest(
                memory=memory(f"n{i}", NEW[i % len(NEW)], T0 + timedelta(days=60 + i % 9)), candidates=cands
            )
        )
    return out


def n_requests(k: int, clients: int, quick: bool) -> int:
    """Bounded request count per cell: about `target` pairs, at least 4 requests per client."""
    target = 96 if quick else 2048
    per_client = 2 if quick else 4
    return min(2000, max(clients * per_client, math.ceil(target / k)))


def summarize(k: int, clients: int, latencies: list[float], wall: float) -> Cell:
    """Throughput and percentiles of one cell."""
    lat = np.asarray(latencies) * 1000
    return Cell(
        k,
        clients,
        len(latencies),
        len(latencies) * k / wall,
        float(np.percentile(lat, 50)),
        float(np.percentile(lat, 99)),
    )


# -- (a) served ----------------------------------------------------------------------------------


def free_port() -> int:
    """A free loopback port (for the metrics endpoint)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(args: argparse.Namespace, metrics_port: int) -> tuple[subprocess.Popen, int]:
    """Start `writegate serve` on a free port; return (process, port) once it is SERVING."""
    cmd = [
        sys.executable,
        "-m",
        "writegate.cli.main",
        "serve",
        "--model",
        str(args.model),
        "--port",
        "0",
        "--backend",
        args.backend,
        "--metrics-port",
        str(metrics_port),
        "--log-level",
        "WARNING",
        "--max-wait-ms",
        str(args.max_wait_ms),
        "--max-batch-tokens",
        str(args.max_batch_tokens),
        "--max-queue-pairs",
        "65536",
    ]  # a throughput bench: every closed-loop request queues (32 x 64 pairs)
    for flag, value in (
        ("--threads", args.threads),
        ("--device", args.device),
        ("--precision", args.precision),
        ("--batch-workers", args.batch_workers),
    ):
        if value is not None:
            cmd += [flag, str(value)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = proc.stdout.readline()  # type: ignore[union-attr]
    if "SERVING on" not in line:
        proc.kill()
        raise SystemExit(f"writegate serve did not start: {line!r}")
    return proc, int(line.split("127.0.0.1:")[1].split()[0])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (Linux /proc; 0.0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scrape_batches(metrics_port: int) -> tuple[float, float]:
    """(sum, count) of the server's batch-size histogram."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).read().decode()
    values = {
        line.split()[0]: float(line.split()[1])
        for line in text.splitlines()
        if line.startswith("writegate_batch_pairs_")
    }
    return values.get("writegate_batch_pairs_sum", 0.0), values.get("writegate_batch_pairs_count", 0.0)


async def served_cell(target: str, k: int, clients: int, n: int) -> Cell:
    """`clients` concurrent callers send `n` PrepareWrite requests in total."""
    requests = build_requests(k, n)
    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
    async with grpc.aio.insecure_channel(target, options=options) as channel:
        stub = pb_grpc.WriteGateStub(channel)
        for req in requests[: min(4, n)]:  # warm the connection and this k's shapes
            await stub.PrepareWrite(req, timeout=120)
        latencies: list[float] = []
        it = iter(requests)

        async def client() -> None:
            for req in it:
                t = time.perf_counter()
                await stub.PrepareWrite(req, timeout=120)
                latencies.append(time.perf_counter() - t)

        start = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        return summarize(k, clients, latencies, time.perf_counter() - start)


def run_served(args: argparse.Namespace, console: Console) -> dict[tuple[int, int], Cell]:
    """All cells of (a), on one server."""
    metrics_port = free_port()
    proc, port = start_server(args, metrics_port)
    out: dict[tuple[int, int], Cell] = {}
    try:
        for k in KS:
            for c in CLIENTS:
                before = scrape_batches(metrics_port)
                srv0, cli0, t0 = cpu_seconds(proc.pid), time.process_time(), time.perf_counter()
                cell = asyncio.run(served_cell(f"127.0.0.1:{port}", k, c, n_requests(k, c, args.quick)))
                wall = time.perf_counter() - t0
                cell.server_cores = (cpu_seconds(proc.pid) - srv0) / wall
                cell.client_cores = (time.process_time() - cli0) / wall
                after = scrape_batches(metrics_port)
                cell.mean_batch = (after[0] - before[0]) / max(after[1] - before[1], 1)
                out[(k, c)] = cell
                console.log(f"served k={k} clients={c}: {cell.pairs_per_s:.0f} pairs/s, p50 {cell.p50_ms:.1f} ms")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return out


# -- (b) naive -----------------------------------------------------------------------------------


class Naive:
    """The classifier on torch fp32, one PrepareWrite at a time, no cross-request batching."""

    def __init__(self, model: Path, threads: int | None) -> None:
        from writegate.classifier.model import Classifier

        self.classifier = Classifier.load(model, "torch", device="cpu", precision="fp32", threads=threads)
        self.lock = threading.Lock()

    def prepare_write(self, req: pb.PrepareWriteRequest) -> object:
        """Normalize + classify the request's pairs + plan, under the one lock."""
        from writegate.api import convert, prepare
        from writegate.api.normalizing import Normalizer
        from writegate.classifier.types import Pair

        with self.lock:
            mem = convert.memory_from_proto(req.memory)
            cands = [convert.memory_from_proto(c) for c in req.candidates]
            new, *existing = Normalizer(size=0).sides([mem, *cands])
            preds = self.classifier.predict([Pair(existing=c, new=new) for c in existing], batch_size=len(cands))
            records = new.records or ()
            return prepare.prepare_write(mem.id, records, prepare.relations([c.id for c in cands], preds))

    def cell(self, k: int, clients: int, n: int) -> Cell:
        """`clients` threads send `n` requests in total."""
        requests = build_requests(k, n)
        for req in requests[: min(2, n)]:
            self.prepare_write(req)
        latencies: list[float] = []
        it = iter(requests)
        guard = threading.Lock()

        def client() -> None:
            while True:
                with guard:
                    req = next(it, None)
                if req is None:
                    return
                t = time.perf_counter()
                self.prepare_write(req)
                latencies.append(time.perf_counter() - t)

        start = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            for f in [pool.submit(client) for _ in range(clients)]:
                f.result()
        return summarize(k, clients, latencies, time.perf_counter() - start)


def run_naive(args: argparse.Namespace, console: Console) -> tuple[dict[tuple[int, int], Cell], Naive]:
    """All cells of (b)."""
    naive = Naive(args.model, args.threads)
    out = {}
    for k in KS:
        for c in CLIENTS:
            out[(k, c)] = cell = naive.cell(k, c, n_requests(k, c, args.quick))
            console.log(f"naive k={k} clients={c}: {cell.pairs_per_s:.0f} pairs/s, p50 {cell.p50_ms:.1f} ms")
    return out, naive


# -- report --------------------------------------------------------------------------------------


def flops_per_pair(model: Path, tokens: float) -> float:
    """Forward FLOPs of one pair of `tokens` tokens through the BERT encoder (matmuls only)."""
    cfg = json.loads((Path(model) / "config.json").read_text())
    d, ff, layers = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"]
    per_layer = 8 * tokens * d * d + 4 * tokens * d * ff + 4 * tokens * tokens * d
    return float(layers * per_layer + 2 * d * d + 2 * d * 5)


def mean_tokens(naive: Naive) -> float:
    """Mean tokens per pair of the benchmark's pairs (structure tails included)."""
    from writegate.api import convert
    from writegate.api.normalizing import Normalizer
    from writegate.classifier.types import Pair

    req = build_requests(len(EXISTING), 1)[0]
    new, *existing = Normalizer(size=0).sides([convert.memory_from_proto(m) for m in [req.memory, *req.candidates]])
    pairs = [Pair(existing=c, new=new) for c in existing]
    return float(np.mean([len(row) for row in naive.classifier.encode(pairs).rows]))


def report(args: argparse.Namespace, served: dict, naive: dict, tokens: float, console: Console) -> None:
    """Print the side-by-side table and the targets."""
    workers = f", {args.batch_workers} batch workers" if args.batch_workers else ""
    title = (
        f"PrepareWrite: (a) writegate serve [{args.backend}{'/' + args.precision if args.precision else ''}, "
        f"dynamic batching{workers}] vs (b) naive torch fp32, one request at a time — {args.model}"
    )
    table = Table(title=title)
    for col in (
        "k",
        "clients",
        "(a) pairs/s",
        "(a) p50 ms",
        "(a) p99 ms",
        "(a) batch",
        "(a) cores srv/cli",
        "(b) pairs/s",
        "(b) p50 ms",
        "(b) p99 ms",
        "pairs/s a/b",
        "p50 b/a",
    ):
        table.add_column(col, justify="right")
    if args.roofline_tflops:
        table.add_column("(a) TFLOP/s (% peak)", justify="right")
    fpp = flops_per_pair(args.model, tokens)
    for key, a in served.items():
        b = naive[key]
        row = [
            str(a.k),
            str(a.clients),
            f"{a.pairs_per_s:,.0f}",
            f"{a.p50_ms:.1f}",
            f"{a.p99_ms:.1f}",
            f"{a.mean_batch:.1f}",
            f"{a.server_cores:.1f}/{a.client_cores:.1f}",
            f"{b.pairs_per_s:,.0f}",
            f"{b.p50_ms:.1f}",
            f"{b.p99_ms:.1f}",
            f"{a.pairs_per_s / b.pairs_per_s:.1f}x",
            f"{b.p50_ms / a.p50_ms:.1f}x",
        ]
        if args.roofline_tflops:
            tflops = fpp * a.pairs_per_s / 1e12
            row.append(f"{tflops:.2f} ({100 * tflops / args.roofline_tflops:.2f}%)")
        table.add_row(*row)
    console.print(table)
    console.print(
        f"{tokens:.1f} tokens/pair on average; {fpp / 1e9:.3f} GFLOP/pair; "
        f"{os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} run"
    )
    a, b, one = served.get((16, 32)), naive.get((16, 32)), served.get((16, 1))
    if a and b and one:
        console.print(
            f"target (a) ≥ 500 pairs/s at 32 clients × 16: {a.pairs_per_s:,.0f} "
            f"{'✓' if a.pairs_per_s >= 500 else '✗'}; ≥ 5× (b): {a.pairs_per_s / b.pairs_per_s:.1f}× "
            f"{'✓' if a.pairs_per_s >= 5 * b.pairs_per_s else '✗'}; "
            f"k=16 p50 ≤ 40 ms at 1 client: {one.p50_ms:.1f} ms {'✓' if one.p50_ms <= 40 else '✗'}"
        )


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=Path("models/default"))
    parser.add_argument("--quick", action="store_true", help="a few requests per cell (smoke run)")
    parser.add_argument("--threads", type=int, default=None, help="intra-op threads of both sides")
    parser.add_argument(
        "--batch-workers", type=int, default=None, help="(a)'s batches run at once (default: the server's)"
    )
    parser.add_argument("--backend", default="onnx", help="(a)'s backend (default onnx)")
    parser.add_argument("--device", default=None, help="(a)'s device (torch backend)")
    parser.add_argument("--precision", default=None, help="(a)'s precision (default int8 on onnx)")
    parser.add_argument("--max-batch-tokens", type=int, default=8192)
    parser.add_argument("--max-wait-ms", type=float, default=2.0)
    parser.add_argument("--roofline-tflops", type=float, default=None, help="peak TFLOP/s (H200 bf16 dense: ~790)")
    parser.add_argument("--json", type=Path, default=None, help="also write the cells as JSON")
    args = parser.parse_args(argv)
    if not (args.model / "writegate.json").is_file():
        raise SystemExit(f"bench/serve.py: {args.model} is not a model directory (writegate.json missing)")
    console = Console(width=160)
    served = run_served(args, console)
    naive, naive_model = run_naive(args, console)
    tokens = mean_tokens(naive_model)
    report(args, served, naive, tokens, console)
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "model": str(args.model),
                    "backend": args.backend,
                    "quick": args.quick,
                    "tokens_per_pair": tokens,
                    "served": [asdict(c) for c in served.values()],
                    "naive": [asdict(c) for c in naive.values()],
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
