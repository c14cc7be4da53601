"""Relabel throughput: pairs/s on a generated store, local engine, Ray (local), and the gRPC stream.

    python bench/relabel.py --model models/default [--records 100000] [--engines local,ray,grpc]
                            [--ray-cpus N] [--store PATH] [--json-out FILE]

The store is generated from the training-pair generator (`writegate.training.data.generate`):
each generated pair gives two records of one subject, 25 records a subject, so a subject mixes
related and unrelated memories. Printed: pairs/s per engine, and where the time goes —
read, normalize (each record once, in the plan), candidate search, classify (split on a sample of
chunks into encode = compare the plan's records + tokenize, model, decode), finalize.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from writegate.relabel.plan import Plan, build_plan
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel
from writegate.relabel.stores.jsonl import JsonlSource

SUBJECT_SIZE = 25


def generate_store(path: Path, records: int, seed: int = 11) -> Path:
    """Write a store of `records` records (two per generated pair) to `path`."""
    from writegate.training.data.generate import generate

    pairs = generate(math.ceil(records / 2), seed)
    with open(path, "w", encoding="utf-8") as fh:
        written = 0
        for pair in pairs:
            for side in ("existing", "new"):
                if written == records:
                    break
                fh.write(
                    json.dumps(
                        {
                            "id": f"r{written:07d}",
                            "subject": f"user:u{written // SUBJECT_SIZE:05d}",
                            "text": pair[side]["text"],
                            "observed_at": pair[side]["observed_at"],
                            "provenance": "imported",
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                written += 1
    return path


def run_engine(store: Path, out: Path, engine: Any, k: int, chunk_size: int) -> dict[str, Any]:
    """One full relabel run; its counts and phase timings."""
    t0 = time.perf_counter()
    stats = relabel(RelabelOptions(input=store, out=out, k=k, chunk_size=chunk_size, restart=True), engine)
    wall = time.perf_counter() - t0
    return {
        "pairs": stats.pairs,
        "records": stats.records,
        "wall_s": wall,
        "timings": stats.timings,
        "pairs_per_s": stats.pairs / stats.timings["classify"] if stats.timings["classify"] else 0.0,
    }


def profile_classify(plan: Plan, model: Path, chunk_size: int, batch_size: int, chunks: int = 4) -> dict[str, float]:
    """Seconds in encode / model / decode over the first `chunks` chunks (local, one process)."""
    from writegate.classifier.columnar import batch_window
    from writegate.classifier.model import Classifier

    clf = Classifier.load(model)  # plan.pair's sides carry the plan's records: encode compares them
    spent = {"encode": 0.0, "model": 0.0, "decode": 0.0}
    n = min(len(plan.pairs), chunks * chunk_size)
    for lo in range(0, n, chunk_size):
        pairs = [plan.pair(i) for i in range(lo, min(n, lo + chunk_size))]
        t0 = time.perf_counter()
        encoded = clf.encode(pairs)
        spent["encode"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        prepared = batch_window(encoded, batch_size)  # padding, as before, counts as the model's
        logits = clf.run(prepared)
        spent["model"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        clf.label(prepared, logits)
        spent["decode"] += time.perf_counter() - t0
    spent["pairs"] = float(n)
    return spent


async def _grpc_stream(plan: Plan, model: Path, limit: int) -> dict[str, Any]:
    import grpc

    from writegate.api import convert
    from writegate.normalizer.schema import Memory
    from writegate.server.app import WriteGateServer
    from writegate.server.config import ServerConfig
    from writegate.v1 import writegate_pb2 as pb
    from writegate.v1 import writegate_pb2_grpc as pb_grpc

    now = datetime.now(UTC)
    usable = [i for i in range(len(plan.pairs)) if plan.records[plan.pairs[i][1]].observed_at <= now][:limit]

    def memory(index: int) -> pb.Memory:
        r = plan.records[index]
        return convert.memory_to_proto(Memory(id=r.id, subject=r.subject, text=r.text, observed_at=r.observed_at))

    requests = [
        pb.RelabelRequest(pair_id=str(i), existing=memory(plan.pairs[i][0]), new=memory(plan.pairs[i][1]))
        for i in usable
    ]
    server = WriteGateServer(ServerConfig(port=0, model=model))
    port = await server.start()
    await server.wait_ready()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.WriteGateStub(channel)
            t0 = time.perf_counter()
            got = 0
            async for _ in stub.Relabel(iter(requests)):
                got += 1
            seconds = time.perf_counter() - t0
    finally:
        await server.stop(0)
    return {"pairs": got, "seconds": seconds, "pairs_per_s": got / seconds if seconds else 0.0}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints the tables (and writes `--json-out`)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=Path("models/default"))
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--store", type=Path, default=None, help="reuse (or write) the generated store here")
    p.add_argument("--engines", default="local,ray,grpc")
    p.add_argument("-k", type=int, default=8)
    p.add_argument("--chunk-size", type=int, default=1024)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--threads", type=int, default=None, help="local engine intra-op threads")
    p.add_argument("--ray-cpus", type=int, default=None)
    p.add_argument("--grpc-pairs", type=int, default=20_000, help="pairs sent through the gRPC stream (cap)")
    p.add_argument("--json-out", type=Path, default=None)
    args = p.parse_args(argv)
    console = Console()
    work = Path(tempfile.mkdtemp(prefix="relabel-bench-"))
    store = args.store or work / "store.jsonl"
    t0 = time.perf_counter()
    if not store.exists() or sum(1 for _ in store.open()) != args.records:
        generate_store(store, args.records)
    console.print(
        f"store: {store} ({args.records} records, generated/checked in {time.perf_counter() - t0:.1f} s), "
        f"model {args.model}, {os.cpu_count()} CPUs"
    )
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    results: dict[str, Any] = {"records": args.records, "model": str(args.model), "cpus": os.cpu_count()}

    if "local" in engines:
        engine = LocalEngine(args.model, batch_size=args.batch_size, threads=args.threads)
        results["local"] = run_engine(store, work / "local" / "edges.jsonl", engine, args.k, args.chunk_size)
    plan = build_plan(JsonlSource(store).rows(), args.k)
    results["classify_split"] = profile_classify(plan, args.model, args.chunk_size, args.batch_size)
    if "ray" in engines:
        try:
            from writegate.relabel.ray_engine import RayEngine

            engine = RayEngine(args.model, batch_size=args.batch_size, num_cpus=args.ray_cpus)
            results["ray"] = run_engine(store, work / "ray" / "edges.jsonl", engine, args.k, args.chunk_size)
        except Exception as exc:
            results["ray"] = {"skipped": f"{type(exc).__name__}: {exc}"}
    if "grpc" in engines:
        try:
            results["grpc"] = asyncio.run(_grpc_stream(plan, args.model, args.grpc_pairs))
        except ImportError as exc:
            results["grpc"] = {"skipped": f"the gRPC service is not importable: {exc}"}

    table = Table(title=f"writegate relabel: {args.records} records, K={args.k}")
    for col in ("engine", "pairs", "classify s", "pairs/s", "wall s"):
        table.add_column(col, justify="right" if col != "engine" else "left")
    for name in ("local", "ray", "grpc"):
        r = results.get(name)
        if r is None:
            continue
        if "skipped" in r:
            table.add_row(name, "-", "-", "-", r["skipped"][:60])
            continue
        secs = r["timings"]["classify"] if "timings" in r else r["seconds"]
        table.add_row(
            name, f"{r['pairs']:,}", f"{secs:.1f}", f"{r['pairs_per_s']:,.0f}", f"{r.get('wall_s', secs):.1f}"
        )
    console.print(table)
    if "local" in results:
        phases = Table(title="where the time goes (local engine)")
        phases.add_column("phase")
        phases.add_column("seconds", justify="right")
        phases.add_column("share", justify="right")
        timings = results["local"]["timings"]
        total = sum(timings.values())
        for name, secs in timings.items():
            phases.add_row(name, f"{secs:.2f}", f"{100 * secs / total:.1f}%")
        split = results["classify_split"]
        inner = split["encode"] + split["model"] + split["decode"]
        for name in ("encode", "model", "decode"):
            phases.add_row(
                f"  classify: {name}",
                f"(sample of {split['pairs']:.0f} pairs)",
                f"{100 * split[name] / inner:.1f}% of classify",
            )
        console.print(phases)
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
