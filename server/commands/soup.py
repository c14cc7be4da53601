"""`writegate soup`: average fine-tuning runs of the same initialisation into one model (see writegate.training.soup)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from writegate.server.commands.train import DEV_PAIRS


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument("--models", type=Path, nargs="+", required=True,
                   help="two or more model dirs trained from the same initialisation (same --seed, e.g. other --data-seed)")
    p.add_argument("--dev", type=Path, required=True, help="dev pairs: the temperature and the fusion choice are fitted on them")
    p.add_argument("--test", type=Path, help="test pairs, evaluated")
    p.add_argument("--dev-pairs", type=Path, default=Path(DEV_PAIRS),
                   help=f"hand-written pairs, evaluated only, if the file exists (default {DEV_PAIRS})")
    p.add_argument("--out", type=Path, required=True, help="output model dir")
    p.add_argument("--fusion", choices=["auto", "on", "off"], default="auto",
                   help="structured-evidence fusion: auto = keep it iff it does not lower dev macro-F1")
    p.add_argument("--threads", type=int, help="torch threads (default: all cores)")
    p.add_argument("--name", help="model name (default: the first member's)")
    p.add_argument("--version", help="model version (default: the first member's + '-soup')")
    p.add_argument("--drop-fp32-onnx", action="store_true", help="delete model.onnx after the parity check")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from writegate.normalizer.errors import InputError
    from writegate.training.soup import SoupConfig, soup

    for name, path in (("dev", args.dev), ("test", args.test)):
        if path is not None and not path.is_file():
            raise InputError(name, f"{path} does not exist")
    cfg = SoupConfig(members=args.models, dev=args.dev, test=args.test,
                     dev_pairs=args.dev_pairs if args.dev_pairs and args.dev_pairs.is_file() else None,
                     out=args.out, fusion=args.fusion, threads=args.threads, name=args.name, version=args.version,
                     command=shlex.join(["writegate", *sys.argv[1:]]), drop_fp32_onnx=args.drop_fp32_onnx,
                     quiet=args.quiet)
    result = soup(cfg)
    print(json.dumps(result.model_dump(mode="json"), indent=2))
    return 0
