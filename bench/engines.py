"""The bare engine of several models on the same pairs, in one run: pairs/s, side by side.

    python bench/engines.py --model 0.27.0=OLD_DIR --model new=models/default [--data FILE.jsonl]
        [--pairs 2000] [--threads 1] [--rounds 5] [--batch-size 64] [--json out.json]

Each model's pairs are tokenized once (`Classifier.prepare`, its own input format and tokenizer),
then only the engine is timed (`Classifier.run`: the ONNX int8 graph on `--threads` threads), in
`--rounds` rounds that take the models in turn, so load on a shared machine falls on all of them
alike. Printed per model: tokens per pair, the median pairs/s of the rounds with the slowest and
fastest, and the ratio to the first model (median of the per-round ratios). Pairs: the first
`--pairs` of `--data` (a labelled pairs file, `docs/training.md`), or of `tests/data/store_pairs`
when it is not given. An older model dir comes out of git with
`git archive REV models/default | tar -x -C DIR`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from writegate.api.normalizing import with_records
from writegate.classifier.model import Classifier
from writegate.errors import InputError
from writegate.training.datafile import read_examples
from writegate.training.evaluate import wide_enough

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "store_pairs" / "store_pairs.jsonl"


def _model_arg(value: str) -> tuple[str, Path]:
    name, sep, path = value.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"--model: expected NAME=DIR, got {value!r}")
    return name, Path(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", type=_model_arg, action="append", required=True, help="NAME=DIR; the first is the reference"
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled pairs (JSONL)")
    parser.add_argument("--pairs", type=int, default=2000, help="pairs taken from --data, at most")
    parser.add_argument("--threads", type=int, default=1, help="intra-op threads of each engine")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    for flag, value in (
        ("--pairs", args.pairs),
        ("--threads", args.threads),
        ("--rounds", args.rounds),
        ("--batch-size", args.batch_size),
    ):
        if value < 1:
            parser.error(f"{flag}: must be ≥ 1, got {value}")
    names = [n for n, _ in args.model]
    if len(set(names)) != len(names):
        parser.error(f"--model: names must differ, got {names}")

    try:
        pairs = with_records(ex.pair for ex in read_examples(args.data)[: args.pairs])
        loaded = {n: Classifier.load(d, "onnx", threads=args.threads) for n, d in args.model}
    except InputError as exc:
        parser.error(str(exc))
    if not pairs:
        parser.error(f"--data: {args.data} holds no pairs")
    prepared = {n: clf.prepare(pairs, args.batch_size) for n, clf in loaded.items()}
    tokens = {n: sum(int(b.batch.attention_mask.sum()) for b in p.batches) / len(pairs) for n, p in prepared.items()}
    for n, clf in loaded.items():  # warm-up
        clf.run(prepared[n])

    rates: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(args.rounds):
        for n in names:
            t0 = time.perf_counter()
            loaded[n].run(prepared[n])
            rates[n].append(len(pairs) / (time.perf_counter() - t0))

    ref = names[0]
    table = Table(
        title=f"bare engine, onnx int8, {len(pairs)} pairs of {args.data.name}, {args.threads} thread(s), {args.rounds} rounds"
    )
    for col in ("model", "version", "tokens/pair", "pairs/s (median)", "slowest", "fastest", f"× {ref}"):
        table.add_column(col, justify="left" if col in ("model", "version") else "right", no_wrap=True)
    out = []
    for n in names:
        ratio = statistics.median(a / b for a, b in zip(rates[n], rates[ref], strict=True))
        row = {
            "model": n,
            "version": loaded[n].meta.version,
            "tokens_per_pair": round(tokens[n], 1),
            "pairs_per_s": round(statistics.median(rates[n]), 1),
            "slowest": round(min(rates[n]), 1),
            "fastest": round(max(rates[n]), 1),
            "ratio": round(ratio, 3),
        }
        out.append(row)
        table.add_row(
            n,
            str(row["version"]),
            f"{row['tokens_per_pair']:.1f}",
            f"{row['pairs_per_s']:.1f}",
            f"{row['slowest']:.1f}",
            f"{row['fastest']:.1f}",
            f"{ratio:.2f}",
        )
    wide_enough(Console(), table).print(table)  # a pipe or a file gets the whole table, not 80 columns
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
