"""Python work per PrepareWrite on the event loop, with the model stubbed out.

    python bench/servicer_overhead.py [--k 16] [--requests 400]

Runs the real servicer (validation, proto → pydantic, normalizing the new memory and the
candidates once each — cached across requests, misses in a worker thread —, relations, the write
plan, pydantic → proto) on bench/serve.py's requests, with a batcher that renders each pair's
input text from the records the pair carries (what the encode thread does, token ids aside) and
answers at once; prints the time per request and the top functions of a cProfile run. No gRPC
transport: that is on top.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import build_requests

from writegate.classifier.batcher import QueuePolicy
from writegate.classifier.features import compare_pair, render_pair
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, Pair, Prediction
from writegate.server.service import WriteGateService


class StubBatcher:
    """Renders each pair's input (compare its records + text) and answers `unrelated` at once."""

    max_queue_pairs = 1 << 30  # admits everything: the servicer's own cost is what is measured
    policy = QueuePolicy(max_queue_pairs=max_queue_pairs)

    def check_admission(self, n: int) -> None:
        """Every request is admitted."""

    async def submit(self, pairs: list[Pair], deadline: float | None = None) -> list[Prediction]:
        for p in pairs:
            render_pair(p, compare_pair(p))
        return [
            Prediction(
                label=Label.UNRELATED,
                probabilities={lbl.value: 0.2 for lbl in Label},
                slot_match=False,
                evidence=Evidence.MODEL,
            )
            for _ in pairs
        ]


class Context:
    """The two ServicerContext methods the servicer uses."""

    def time_remaining(self) -> float:
        return 5.0

    async def abort(self, code: Any, message: str) -> None:
        raise RuntimeError(f"{code}: {message}")


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args(argv)
    svc = WriteGateService()
    svc.attach(StubBatcher(), None)  # type: ignore[arg-type]
    requests = build_requests(args.k, args.requests)

    async def run() -> None:
        for req in requests:
            await svc.PrepareWrite(req, Context())  # type: ignore[arg-type]

    asyncio.run(run())  # warm the caches, as a long-running server has them
    start = time.perf_counter()
    asyncio.run(run())
    per = (time.perf_counter() - start) / len(requests)
    print(f"{per * 1e3:.2f} ms of servicer Python work per PrepareWrite with k={args.k} ({len(requests)} requests)")
    prof = cProfile.Profile()
    prof.runcall(asyncio.run, run())
    pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
