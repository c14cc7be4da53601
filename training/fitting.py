"""Fitting one run: the Trainer over the encoded pairs, its progress bar and time estimate, `--resume`
from the work dir's last checkpoint, and the members of a soup (`training/train.py` drives it).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.errors import InputError
from writegate.training.distil import distil_trainer_class
from writegate.training.inputs import input_names
from writegate.training.package import PairDataset
from writegate.training.soup import MemberRecord

if TYPE_CHECKING:
    from writegate.training.train import TrainConfig

WEIGHT_FILES: tuple[str, ...] = ("model.safetensors", "pytorch_model.bin")  # a base/init dir's weights, either one


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


def progress_callback(quiet: bool) -> Any:
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


def seed_everything(seed: int) -> None:
    import torch
    from transformers import set_seed

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    set_seed(seed)


RUN_RECORD = "run.json"
"""Beside a run's checkpoints: its fingerprint and the training seconds up to the last checkpoint."""


def run_record(path: Path, key: str, before: float, started: float) -> Any:
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
    keep = {*names, "labels", "soft"}

    def collate(features: list[dict[str, Any]]) -> Any:
        return pad([{k: v for k, v in f.items() if k in keep} for f in features])

    return collate


class Fitter:
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
        seed_everything(p.seed)
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
        distilled = any("soft" in r for r in rows)
        if distilled:  # a pair the teacher did not score (mixed-in default data) gets zeros: no KL term
            rows = [r if "soft" in r else {**r, "soft": [0.0] * len(LABELS)} for r in rows]
        trainer_class = distil_trainer_class() if distilled else Trainer
        extra = {"distil_weight": p.distil_weight, "distil_temperature": p.distil_temperature} if distilled else {}
        trainer = trainer_class(
            **extra,
            model=model,
            args=args,
            train_dataset=PairDataset(rows),
            eval_dataset=self.dev_sub,
            data_collator=_collator(DataCollatorWithPadding(self.hf_tok), input_names(model)),
            compute_metrics=_metrics_fn,
            callbacks=[
                EarlyStoppingCallback(early_stopping_patience=p.patience),
                progress_callback(cfg.quiet),
                stop_callback(),
            ],
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
        trainer.add_callback(run_record(record, key, before, t_train))
        state = trainer.train(resume_from_checkpoint=last)
        seconds = before + time.monotonic() - t_train
        return trainer, MemberRecord(
            fingerprint="", data_seed=data_seed, steps=state.global_step, train_seconds=seconds, device=self.device
        )


def fit_or_reuse(fitter: Fitter, index: int, console: Any) -> tuple[dict[str, Any], MemberRecord]:
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


def fit_soup(fitter: Fitter, console: Any) -> tuple[Any, list[MemberRecord]]:
    """Train (or reuse from the work dir) every member, average their weights (training/soup.py).

    Returns a Trainer whose model holds the averaged weights, and the members' records.
    """
    from writegate.training import soup

    p = fitter.cfg.preset
    states, records = [], []
    for index in range(len(p.soup) + 1):
        state, record = fit_or_reuse(fitter, index, console)
        states.append(state)
        records.append(record)
    trainer = fitter.trainer(0, p.data_seed)  # its model is replaced by the average below
    trainer.model.load_state_dict(soup.average_state_dicts(states))
    return trainer, records


def stop_callback() -> Any:
    """A TrainerCallback that raises KeyboardInterrupt at the next step once `staging.STOP` is set."""
    from transformers import TrainerCallback

    from writegate.training.staging import STOP

    class StopWhenAsked(TrainerCallback):
        def on_step_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if STOP.is_set():
                raise KeyboardInterrupt

        on_step_end = on_substep_end = on_evaluate = on_step_begin

    return StopWhenAsked()
