"""`writegate train`: fine-tune the relation classifier (see writegate.training.train).

`writegate train --preset default --real-dir DIR` (no --data) reproduces models/default: it runs
the data generator (`python -m writegate.training.data.generate`) into a work dir, builds the
preset's mix of the human-written sources in DIR, generated pairs and content-free negatives
(training/real/mix.py), and trains on it with the `default` preset into models/default (the
generator's test split is evaluated too). A preset without a mix (`generated`) trains on the
generator's train/dev/test splits alone.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from writegate.errors import InputError, first_error

if TYPE_CHECKING:
    from writegate.training.presets import Preset


PRESET_FLAGS: dict[str, type] = {
    "--epochs": float,
    "--batch-size": int,
    "--lr": float,
    "--label-smoothing": float,
    "--distil-weight": float,
    "--distil-temperature": float,
    "--max-steps": int,
    "--eval-steps": int,
    "--seed": int,
    "--input-format": int,
}
"""The flags that override a preset's field of the same name; their help comes from the field."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags (in this order in --help)."""
    _data_arguments(p)
    _model_arguments(p)
    _recipe_arguments(p)
    _run_arguments(p)


def _data_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, help="training pairs (JSONL); omit with --preset default to generate them")
    p.add_argument("--dev", type=Path, help="dev pairs (default: a family/slot-grouped 10%% of --data)")
    p.add_argument("--test", type=Path, help="test pairs, evaluated after training")
    p.add_argument(
        "--soft",
        type=Path,
        metavar="SCORES.jsonl",
        help="a teacher's probabilities for --data (`writegate classify --input DATA --model TEACHER` output, "
        "one line per line of --data): distil them (--distil-weight); needs --data and --dev",
    )
    p.add_argument(
        "--dev-pairs", type=Path, help="hand-written pairs (the training format), evaluated only, never trained on"
    )


def _model_arguments(p: argparse.ArgumentParser) -> None:
    from writegate.training.bases import BASES, DEFAULT_BASE

    p.add_argument(
        "--base",
        metavar="NAME|DIR",
        help=f"base model: {' or '.join(BASES)} (from their PyPI packages; default {DEFAULT_BASE}), or a "
        "local model dir",
    )
    p.add_argument(
        "--cache-dir",
        type=Path,
        default=Path(os.environ.get("WRITEGATE_CACHE") or Path.home() / ".cache" / "writegate"),
        help="where a base assembled from its packages is kept (default: $WRITEGATE_CACHE, else "
        "~/.cache/writegate; all-mpnet-base-v2 takes 0.44 GB there)",
    )
    p.add_argument("--init", type=Path, help="start from this writegate model dir (e.g. models/default)")
    p.add_argument(
        "--out", type=Path, help="output model dir (default models/custom; models/default for --preset default)"
    )


def _recipe_arguments(p: argparse.ArgumentParser) -> None:
    from writegate.training.presets import PRESETS, Preset

    p.add_argument(
        "--preset",
        metavar="|".join(sorted(PRESETS)),
        help="named settings (training/presets.py; the flags below override them); without one, the defaults shown",
    )
    for flag, kind in PRESET_FLAGS.items():
        field = Preset.model_fields[flag.removeprefix("--").replace("-", "_")]
        p.add_argument(flag, type=kind, help=f"{field.description or ''} (default {field.default})".lstrip())
    p.add_argument(
        "--data-seed",
        type=int,
        help="shuffle the training pairs with this seed (same initialisation as --seed, another data order; "
        "default: none, the file order)",
    )
    p.add_argument(
        "--soup",
        type=int,
        nargs="*",
        metavar="DATA_SEED",
        help="average the weights of further runs with these data seeds (same --seed; one run's time each); "
        "--soup alone: a single run (the default preset is one run; the generated preset averages two, see "
        "training/presets.py)",
    )
    p.add_argument(
        "--mix-default-share",
        type=float,
        default=0.3,
        help="with --init: share of default generated pairs in the training set (default 0.3)",
    )
    p.add_argument("--default-data", type=Path, help="default data for mixing (file or dir with train.jsonl)")
    p.add_argument(
        "--fusion",
        choices=["auto", "on", "off"],
        default="auto",
        help="structured-evidence fusion: auto = keep it iff it does not lower dev macro-F1",
    )


def _run_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=int, help="torch threads (default: all cores)")
    p.add_argument(
        "--no-onnx",
        dest="onnx",
        action="store_false",
        help="no ONNX export: a torch-only model dir, evaluated and served with --backend torch (a teacher)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="go on from the last checkpoint in --work-dir (a killed run, same arguments); without one, start",
    )
    p.add_argument("--work-dir", type=Path, help="keep generated data and checkpoints here (default: a temp dir)")
    p.add_argument(
        "--member",
        type=int,
        metavar="INDEX",
        help="train only this soup member (0 = the preset's data order, 1.. = --soup's) into --work-dir "
        "and stop: members trained apart (other machines, sessions) are reused by a later run "
        "whose work dir holds them all",
    )
    p.add_argument("--name", help="model name for the card (default: TrainConfig's, writegate-minilm-l6)")
    p.add_argument("--version", help="model version for the card (default: TrainConfig's, the shipped model's)")
    p.add_argument(
        "--drop-fp32-onnx",
        action="store_true",
        help="delete model.onnx after the parity check (default for --preset default without --data: "
        "keeps models/ under 100 MB)",
    )
    p.add_argument(
        "--real-dir",
        type=Path,
        help="the human-written sources (snli.jsonl, timeqa.jsonl…; see training/real/) that a preset's "
        "mix draws from; required by a preset with a mix, e.g. --preset default",
    )
    p.add_argument("--quiet", action="store_true")


def _generate(work: Path, seed: int, n: int | None) -> Path:
    """Run the generator CLI into `work/data`; returns that dir."""
    out = work / "data"
    cmd = [sys.executable, "-m", "writegate.training.data.generate", "--out", str(out), "--seed", str(seed)]
    if n is not None:
        cmd += ["--n", str(n)]
    print(f"generating data: {shlex.join(cmd)}", file=sys.stderr)
    res = subprocess.run(cmd, check=False)
    if res.returncode != 0:
        raise InputError("preset", f"the data generator failed (exit {res.returncode}): {shlex.join(cmd)}")
    return out


def _mix(work: Path, gen: Path, preset: Preset, real_dir: Path | None) -> tuple[Path, Path, dict[str, object]]:
    """Build the preset's mix (training/real/mix.py) into `work/mix`: (train file, dev file, {"mix", "real"} summaries)."""
    from writegate.training.real import SOURCES
    from writegate.training.real.build import BuildError, build
    from writegate.training.real.mix import GENERATED, build_mix, read_parts

    if real_dir is None:
        raise InputError("--real-dir", "is required: the preset's mix draws from the human-written sources")
    if not real_dir.is_dir():
        raise InputError("--real-dir", f"{real_dir} is not a directory")
    names = [n for n in preset.mix if n != GENERATED]
    unknown = [n for n in names if n not in SOURCES]
    if unknown:
        raise InputError("preset", f"mix names unknown source(s) {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    research = "research" if any(not SOURCES[n].shippable for n in names) else "default"
    try:
        real = build(real_dir, work / "real", names, research)
    except BuildError as exc:
        raise InputError("--real-dir", str(exc)) from None
    parts = read_parts(work / "real", names, gen if GENERATED in preset.mix else None)
    mix = build_mix(parts, preset.mix, preset.mix_dev_cap, preset.junk_pairs, preset.seed, work / "mix")
    return work / "mix" / "train.jsonl", work / "mix" / "dev.jsonl", {"mix": mix, "real": real}


def _with_overrides(preset: Preset, overrides: dict[str, object]) -> Preset:
    """`preset` with the command line's values; a value out of range is an InputError naming its flag."""
    from pydantic import ValidationError

    try:
        return type(preset).model_validate(preset.model_dump() | overrides)
    except ValidationError as exc:
        first = first_error(exc)
        field = first.head or "preset"
        flag = f"--{field.replace('_', '-')}" if field in overrides else f"preset field {field}"
        raise InputError(flag, f"{first.message.lower()} (got {first.input!r})") from None


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code.

    SIGTERM ends it as Ctrl-C does: the partial model folder and the temporary folders are removed
    on the way out (`training/staging.py`).
    """

    from writegate.training.staging import STOP

    def terminate(signum: int, frame: object) -> None:
        STOP.set()  # the Trainer's next step raises too, should this one be swallowed on the way
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        with ExitStack() as stack:
            return _run(args, stack)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace, stack: ExitStack) -> int:
    from writegate.training.presets import Preset, get_preset
    from writegate.training.staging import TEMP_PREFIXES, temp_dir
    from writegate.training.train import TrainConfig, check_member, train, train_member

    preset = get_preset(args.preset) if args.preset else Preset()
    fields = [flag.removeprefix("--").replace("-", "_") for flag in PRESET_FLAGS]
    overrides = {f: getattr(args, f) for f in fields} | {
        "data_seed": args.data_seed,
        "soup": tuple(args.soup) if args.soup is not None else None,
    }
    preset = _with_overrides(preset, {k: v for k, v in overrides.items() if v is not None})
    check_member(args.member, preset, args.work_dir)  # before generating any data
    if args.resume and args.work_dir is None:
        raise InputError("--resume", "needs --work-dir: the checkpoints to go on from are kept there")
    if args.soft is not None and (args.data is None or args.dev is None):
        raise InputError("--soft", "needs --data (the pairs it scores) and --dev (gold-labelled pairs to select on)")
    data, dev, test, manifest, out = args.data, args.dev, args.test, None, args.out
    drop_fp32 = args.drop_fp32_onnx or (args.data is None and args.preset == "default")
    if data is None:
        if args.preset is None:
            raise InputError("data", "is missing: give --data FILE.jsonl, or --preset default to generate the data")
        work = args.work_dir or stack.enter_context(temp_dir(TEMP_PREFIXES[1]))
        gen = _generate(work, preset.seed, preset.generate_n)
        data, dev, test = gen / "train.jsonl", dev or gen / "dev.jsonl", test or gen / "test.jsonl"
        if (gen / "manifest.json").is_file():
            manifest = json.loads((gen / "manifest.json").read_text(encoding="utf-8"))
        if preset.mix:
            data, mix_dev, mix_summary = _mix(work, gen, preset, args.real_dir)
            dev = args.dev or mix_dev
            manifest = {"generator": manifest, **mix_summary}
        out = out or Path("models/default" if args.preset == "default" else f"models/{args.preset}")
    for name, path in (
        ("data", data),
        ("soft", args.soft),
        ("dev", dev),
        ("test", test),
        ("dev_pairs", args.dev_pairs),
    ):
        if path is not None and not Path(path).is_file():
            raise InputError(name, f"{path} does not exist")
    cfg = TrainConfig(
        data=data,
        soft=args.soft,
        dev=dev,
        test=test,
        dev_pairs=args.dev_pairs,
        base=args.base,
        cache_dir=args.cache_dir,
        resume=args.resume,
        onnx=args.onnx,
        init=args.init,
        out=out or Path("models/custom"),
        preset=preset,
        mix_default_share=args.mix_default_share,
        default_data=args.default_data,
        fusion=args.fusion,
        threads=args.threads,
        command=shlex.join(["writegate", *sys.argv[1:]]),
        data_manifest=manifest,
        work_dir=args.work_dir,
        member=args.member,
        drop_fp32_onnx=drop_fp32,
        quiet=args.quiet,
        **{k: v for k, v in (("name", args.name), ("version", args.version)) if v is not None},
    )
    result = train(cfg) if args.member is None else train_member(cfg)
    print(json.dumps(result.model_dump(mode="json"), indent=2))
    return 0
