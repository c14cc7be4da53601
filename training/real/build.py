"""Build the human-written pair files: one train and one dev JSONL per source, plus a summary.

Run: ``python -m writegate.training.real.build --real-dir DIR --out OUT
[--sources snli timeqa …] [--preset default|research]``, where DIR is a local copy of the public
datasets listed in docs/training.md ("The human-written sources"), one `NAME.jsonl` per source.

Writes `OUT/<source>.train.jsonl`, `OUT/<source>.dev.jsonl` (the pair format `writegate eval --data`
reads) and `OUT/summary.json`; prints the summary table. The output depends only on the input
files: the same bytes on every run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from writegate.classifier.labels import LABELS
from writegate.training.datafile import write_examples
from writegate.training.real import PRESETS, SOURCES, Source
from writegate.training.real.common import Mapped, SourceError, assign_splits, read_jsonl

SUMMARY = "summary.json"


class BuildError(Exception):
    """A bad invocation: missing directory or file, unknown source, source outside the preset."""


def choose(sources: Sequence[str] | None, preset: str) -> list[Source]:
    """The sources to build, in registry order.

    Raises:
        BuildError: an unknown preset or source, or a research-only source under `default`.
    """
    if preset not in PRESETS:
        raise BuildError(f"unknown preset {preset!r}; expected one of {', '.join(PRESETS)}")
    allowed = PRESETS[preset]
    names = list(dict.fromkeys(sources)) if sources else list(allowed)
    unknown = [n for n in names if n not in SOURCES]
    if unknown:
        raise BuildError(f"unknown source(s) {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    barred = [n for n in names if n not in allowed]
    if barred:
        raise BuildError(
            f"{', '.join(barred)} not in preset {preset!r} (licence does not allow shipping a model): "
            f"use --preset research"
        )
    return [SOURCES[n] for n in SOURCES if n in names]


def build_source(src: Source, real_dir: Path, out: Path) -> dict[str, Any]:
    """Map one source, write its two split files, return its summary entry."""
    rows = list(read_jsonl(real_dir / src.file))
    train, dev, dropped = assign_splits(src.examples(rows))
    for split, items in (("train", train), ("dev", dev)):
        write_examples(out / f"{src.name}.{split}.jsonl", (m.example for m in items))
    return {
        "licence": src.licence,
        "shippable": src.shippable,
        "rows_read": len(rows),
        "pairs": {"train": count_labels(train), "dev": count_labels(dev)},
        "train_dropped_shared_text": dropped,
    }


def count_labels(items: list[Mapped]) -> dict[str, int]:
    """Pairs per label, every label listed (in model order)."""
    counts = Counter(m.example.label.value for m in items)
    return {label: counts.get(label, 0) for label in LABELS}


def table(summary: dict[str, Any]) -> str:
    """The summary as a plain-text table: source, rows read, split, pairs per label, total."""
    head = ["source", "rows", "split", *LABELS, "total"]
    lines = [head]
    for name, s in summary["sources"].items():
        for split in ("train", "dev"):
            counts = s["pairs"][split]
            lines.append(
                [
                    name,
                    str(s["rows_read"]) if split == "train" else "",
                    split,
                    *(str(counts[label]) for label in LABELS),
                    str(sum(counts.values())),
                ]
            )
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    return "\n".join(
        "  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=False)))
        for row in lines
    )


def build(real_dir: Path, out: Path, sources: Sequence[str] | None = None, preset: str = "default") -> dict[str, Any]:
    """Build the chosen sources into `out` and write `out/summary.json`.

    Raises:
        BuildError: bad arguments, a missing directory or source file, or an unreadable source.
    """
    chosen = choose(sources, preset)
    if not real_dir.is_dir():
        raise BuildError(f"--real-dir {real_dir} is not a directory")
    missing = [s.file for s in chosen if not (real_dir / s.file).is_file()]
    if missing:
        raise BuildError(f"missing in {real_dir}: {', '.join(missing)}")
    out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"preset": preset, "sources": {}}
    for src in chosen:
        try:
            summary["sources"][src.name] = build_source(src, real_dir, out)
        except SourceError as exc:
            raise BuildError(str(exc)) from None
    (out / SUMMARY).write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the exit status (2 for a bad invocation)."""
    ap = argparse.ArgumentParser(
        prog="python -m writegate.training.real.build",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--real-dir", type=Path, required=True, help="directory of the sources' JSONL files")
    ap.add_argument("--out", type=Path, required=True, help="output directory")
    ap.add_argument("--sources", nargs="+", metavar="NAME", help=f"sources to build (of: {', '.join(SOURCES)})")
    ap.add_argument("--preset", default="default", help="default (shippable sources) or research (all)")
    args = ap.parse_args(argv)
    try:
        summary = build(args.real_dir, args.out, args.sources, args.preset)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(table(summary))
    print(f"wrote {args.out / SUMMARY}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
