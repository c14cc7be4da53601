"""The relabel pipeline's own speed: everything around the model, per core.

    python bench/pipeline.py --backend null [--records 50000] [--workers N] [--json FILE]

Runs a whole `writegate relabel` (read, validate, order, normalize each memory once, pick 8
candidates per memory within its subject, compare, render, tokenize, collate, the backend,
softmax/fusion/guards, edge lines, checkpoint, finalize; every pair written, as with
`--keep-unrelated`) on a generated store of distinct memories, 25 a subject. With `--backend null` the model returns fixed logits
(`classifier/backends/null.py`), so the figure is the ceiling any GPU can reach through this code
on a CPU of this kind.

pairs/s per core = pairs ÷ the CPU seconds of this process and all its descendants together (the
fork server and the feeder's workers: the cores a run keeps busy, whatever their number). `--workers 0` runs it all in this process.
`--json FILE` writes `{"pairs_per_s_per_core": …, "cores": …, …}`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
from rich.console import Console
from rich.table import Table

from writegate.classifier.modeldir import default_model_dir
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel

SUBJECT_SIZE = 25


def distinct_store(path: Path, records: int, seed: int = 11) -> Path:
    """Write `records` memories with distinct texts (from the training-pair generator), `SUBJECT_SIZE` a subject."""
    from writegate.training.data.generate import generate

    seen: set[str] = set()
    rows: list[dict[str, Any]] = []
    while len(rows) < records:
        for pair in generate(records, seed):
            for side in ("existing", "new"):
                text = pair[side]["text"]
                if text in seen or len(rows) == records:
                    continue
                seen.add(text)
                n = len(rows)
                rows.append(
                    {
                        "id": f"m{n:07d}",
                        "subject": f"user:u{n // SUBJECT_SIZE:05d}",
                        "text": text,
                        "observed_at": pair[side]["observed_at"],
                    }
                )
        seed += 1
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


class MeasuredEngine(LocalEngine):
    """The local engine; when the run closes it, it first reads the CPU seconds of this process's
    descendants (the fork server and the feeder's workers), before they exit."""

    descendants_cpu_s = 0.0

    def close(self) -> None:
        """Read the descendants' CPU seconds, then stop the workers."""
        total = 0.0
        for child in psutil.Process().children(recursive=True):
            try:
                times = child.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        self.descendants_cpu_s = total
        super().close()


def run(store: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One relabel of `store`; pairs, wall and CPU seconds."""
    engine = MeasuredEngine(args.model, backend=args.backend, batch_size=args.batch_size, workers=args.workers)
    out = Path(tempfile.mkdtemp(prefix="pipeline-bench-")) / "edges.jsonl"
    cpu0, wall0 = time.process_time(), time.perf_counter()
    options = RelabelOptions(
        input=store, out=out, k=args.k, chunk_size=args.chunk_size, keep_unrelated=True, restart=True
    )
    stats = relabel(options, engine)
    wall = time.perf_counter() - wall0
    main_cpu = time.process_time() - cpu0
    worker_cpu = engine.descendants_cpu_s
    cpu = main_cpu + worker_cpu
    return {
        "backend": args.backend,
        "records": stats.records,
        "pairs": stats.pairs,
        "workers": engine.feeder.workers,
        "wall_s": wall,
        "main_cpu_s": main_cpu,
        "worker_cpu_s": worker_cpu,
        "cores": cpu / wall,
        "pairs_per_s": stats.pairs / wall,
        "pairs_per_s_per_core": stats.pairs / cpu,
        "timings": stats.timings,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", default="null", help="null (fixed logits), onnx or torch (default null)")
    p.add_argument(
        "--model", type=Path, default=default_model_dir(), help="its tokenizer is used (default the shipped model)"
    )
    p.add_argument("--records", type=int, default=50_000)
    p.add_argument("--store", type=Path, default=None, help="reuse (or write) the generated store here")
    p.add_argument("--workers", type=int, default=None, help="feeder workers (default one per core less one)")
    p.add_argument("-k", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--chunk-size", type=int, default=1024)
    p.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = p.parse_args(argv)
    console = Console()
    store = args.store or Path(tempfile.mkdtemp(prefix="pipeline-store-")) / "store.jsonl"
    if not store.exists() or sum(1 for _ in store.open(encoding="utf-8")) != args.records:
        distinct_store(store, args.records)
    result = run(store, args)
    table = Table(title=f"relabel pipeline, backend {args.backend}: {result['records']:,} memories, K={args.k}")
    for col in ("pairs", "workers", "wall s", "CPU s (main + workers)", "cores busy", "pairs/s", "pairs/s per core"):
        table.add_column(col, justify="right")
    table.add_row(
        f"{result['pairs']:,}",
        str(result["workers"]),
        f"{result['wall_s']:.1f}",
        f"{result['main_cpu_s']:.1f} + {result['worker_cpu_s']:.1f}",
        f"{result['cores']:.2f}",
        f"{result['pairs_per_s']:,.0f}",
        f"{result['pairs_per_s_per_core']:,.0f}",
    )
    console.print(table)
    phases = Table(title="wall seconds per phase (this process)")
    phases.add_column("phase")
    phases.add_column("s", justify="right")
    for name, secs in result["timings"].items():
        phases.add_row(name, f"{secs:.2f}")
    console.print(phases)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
