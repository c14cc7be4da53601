"""`writegate export`: a model dir's torch weights (safetensors) → ONNX fp32 + int8, with a parity check."""

from __future__ import annotations

import argparse
from datetime import UTC
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    from writegate.classifier.modeldir import MODEL_HELP, default_model_dir

    p.add_argument("--model", default=default_model_dir(), help=MODEL_HELP + ", with config.json + model.safetensors")
    p.add_argument("--out", default=None, help="output directory (default: in place)")
    p.add_argument("--no-int8", action="store_true", help="skip the int8 quantization")
    smooth = p.add_mutually_exclusive_group()
    smooth.add_argument(
        "--smooth-alpha",
        type=_alpha,
        default="auto",
        help="SmoothQuant strength for the int8 graph, 0..1, or auto (default: the best of 0.7-0.9 by "
        "int8 agreement with fp32 on generated pairs; see training/smoothquant.py)",
    )
    smooth.add_argument("--no-smooth", action="store_true", help="quantize the plain fp32 graph (no SmoothQuant)")
    p.add_argument(
        "--int8-fp32-ffn",
        nargs="?",
        type=_layers,
        const="all",
        default=0,
        metavar="N",
        help="keep the FFN output projections of the first N layers (bare: all) in fp32 "
        "(closer to fp32, but slower and a larger file)",
    )


def _alpha(raw: str) -> float | str:
    if raw == "auto":
        return raw
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be auto or a number in [0, 1], got {raw!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {raw}")
    return value


def _layers(raw: str) -> int | str:
    if raw == "all":
        return raw
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be all or a layer count, got {raw!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be all or at least 1, got {value}")
    return value


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from writegate.classifier.model import Classifier
    from writegate.training.export import check_model_dir, export_onnx, parity

    src = Path(args.model)
    check_model_dir(src)
    alpha = None if args.no_smooth else args.smooth_alpha
    exported = export_onnx(
        src, args.out, quantize=not args.no_int8, fp32_ffn_layers=args.int8_fp32_ffn, smooth_alpha=alpha
    )
    for path in exported.paths:
        print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    if not args.no_int8:
        print(f"int8: {exported.describe()}")
    out = Path(args.out) if args.out else src
    if (out / "writegate.json").is_file() and (out / "tokenizer.json").is_file():
        clf = Classifier.load(out, "onnx", precision="fp32", fusion=False)
        from datetime import datetime

        from writegate.classifier.types import Pair, Side

        probe = [
            Pair(
                existing=Side(text="Michelle owns the Acme account", observed_at=datetime(2026, 3, 1, tzinfo=UTC)),
                new=Side(text="Acme was handed off to Marcus in June", observed_at=datetime(2026, 6, 20, tzinfo=UTC)),
            ),
            Pair(
                existing=Side(text="User prefers concise answers", observed_at=datetime(2026, 1, 1, tzinfo=UTC)),
                new=Side(text="User's dog is named Biscuit", observed_at=datetime(2026, 1, 2, tzinfo=UTC)),
            ),
        ]
        from writegate.api.normalizing import with_records

        r = parity(out, [b.batch for b in clf.prepare(with_records(probe), len(probe)).batches])
        agree = "n/a" if r.int8_argmax_agreement is None else f"{r.int8_argmax_agreement:.0%}"
        print(
            f"parity vs torch fp32 on {r.n} probe pairs: fp32 max |Δlogit| {r.fp32_max_abs_diff:.2e}; int8 argmax agreement {agree}"
        )
    return 0
