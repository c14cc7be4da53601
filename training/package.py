"""Package a fine-tuned torch model as a writegate model dir: calibrate, save, export, evaluate, document.

Steps 5–8 of `train` (training/train.py), given the fine-tuned model:
1. fit a softmax temperature on the full dev split (NLL), report ECE before/after;
2. save fp16 safetensors + writegate.json (the tokenizer is already in `out`), export ONNX fp32 + int8;
3. evaluate the int8 model on dev, the test split and the dev pairs, model-only and fused; with
   `fusion="auto"`, keep fusion iff it does not lower dev-split macro-F1 (never the dev pairs);
4. choose the review thresholds on the dev split with the served model (`training/review.py`);
5. write metrics (and the review thresholds) into writegate.json and MODEL_CARD.md.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from writegate.classifier import features, modeldir
from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.classifier.review import ReviewPolicy
from writegate.training.datafile import Example

FusionChoice = Literal["auto", "on", "off"]


NO_GOLD = -100  # the label id cross-entropy ignores


class PairDataset:
    """Encoded examples as Trainer features (lists of ints; the collator pads and tensorises)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.rows[i]


def encode_examples(encoder: features.PairEncoder, examples: Sequence[Example], progress: Any = None) -> PairDataset:
    """The serving input format (normalize + compare + render + tokenize) for each example.

    A row's `labels` is its gold label's id (`NO_GOLD` without one); a row with a teacher's
    probabilities also has `soft`.
    """
    from writegate.api.normalizing import with_records

    rows: list[dict[str, Any]] = []
    step = 512
    for start in range(0, len(examples), step):
        chunk = examples[start : start + step]
        pairs = with_records(ex.pair for ex in chunk)
        texts = [features.render_pair(p, features.compare_pair(p), encoder.input_format) for p in pairs]
        for ex, (ids, types) in zip(chunk, encoder.encode(texts), strict=True):
            row: dict[str, Any] = {
                "input_ids": ids,
                "token_type_ids": types,
                "attention_mask": [1] * len(ids),
                "labels": LABEL2ID[ex.label.value] if ex.gold else NO_GOLD,
            }
            if ex.soft is not None:
                row["soft"] = list(ex.soft)
            rows.append(row)
        if progress is not None:
            progress(len(chunk))
    return PairDataset(rows)


class PackageInputs(BaseModel):
    """What packaging needs besides the model itself."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    out: Path
    name: str
    version: str
    max_length: int = Field(ge=16, le=512)
    input_format: int = Field(
        default=features.INPUT_FORMAT_VERSION, description="The input format the model was trained on."
    )
    fusion: FusionChoice = "auto"
    threads: int = Field(ge=1)
    dev: list[Example] = Field(min_length=1)
    test: list[Example] | None = None
    dev_pairs: list[Example] | None = None
    provenance: list[str] = Field(description="The card's 'How it was made' lines before calibration/export/fusion.")
    metrics: dict[str, float] = Field(default_factory=dict, description="Metrics of the run itself (train.*).")
    started: float = Field(description="time.monotonic() when the whole run began.")
    drop_fp32_onnx: bool = False
    onnx: bool = Field(default=True, description="Export ONNX fp32/int8 and evaluate int8; False: torch only.")
    smooth_alpha: float | Literal["auto"] | None = Field(default="auto", description="See Preset.smooth_alpha.")
    quiet: bool = False


class Packaged(BaseModel):
    """What packaging produced."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    out: Path
    temperature: float
    ece_before: float
    ece_after: float
    fusion: bool
    metrics: dict[str, float]
    total_seconds: float


def package(model: Any, dev_logits: np.ndarray, inp: PackageInputs) -> Packaged:
    """Calibrate, save, export, evaluate and document `model` (a torch sequence classifier) in `inp.out`.

    Args:
        model: the fine-tuned fp32 torch model (any device); it is moved to the CPU and saved as fp16.
        dev_logits: its raw logits on `inp.dev`, in that order (`fitting.predict_in_order`), for the temperature.
        inp: everything else (see PackageInputs).

    Raises:
        ValueError: `dev_logits` is not one row of len(LABELS) logits per dev pair.
    """
    if dev_logits.shape != (len(inp.dev), len(LABELS)):
        raise ValueError(f"dev_logits has shape {dev_logits.shape}, expected ({len(inp.dev)}, {len(LABELS)})")
    from rich.console import Console

    from writegate.training.evaluate import render
    from writegate.training.export import export_onnx
    from writegate.training.model_card import CardInputs, write_card
    from writegate.training.review import choose_on_dev

    console = Console(stderr=True, quiet=inp.quiet)
    out = inp.out
    temperature, ece_before, ece_after = _calibrate(dev_logits, inp.dev, console)  # 1. on the full dev split
    meta = _save(model, inp, temperature)  # 2. save + export
    exported = export_onnx(out, smooth_alpha=inp.smooth_alpha) if inp.onnx else None
    clf, evals, fusion = _evaluate_served(inp)  # 3. the served model
    par = int8_parity(out, clf, (inp.test or inp.dev)[:1000]) if exported is not None else None

    metrics: dict[str, float] = {
        "dev.temperature": round(temperature, 4),
        "dev.ece_before": round(ece_before, 4),
        "dev.ece_after": round(ece_after, 4),
        **inp.metrics,
    }
    if exported is not None and par is not None:
        metrics |= {
            "export.fp32_max_abs_diff": float(f"{par.fp32_max_abs_diff:.3g}"),
            "export.int8_argmax_agreement": round(par.int8_argmax_agreement or 0.0, 4),
            **({"export.smooth_alpha": exported.smooth_alpha} if exported.smooth_alpha is not None else {}),
        }
    for ev in evals.values():
        metrics |= ev.flat(fusion)
    review = choose_on_dev(clf, inp.dev, fusion)  # 4. as served, on the full dev split
    console.print(review.describe("dev pairs"), soft_wrap=True)  # one line, however wide
    meta = meta.model_copy(update={"fusion": fusion, "metrics": metrics, "review": review.policy or ReviewPolicy()})
    modeldir.write_meta(out, meta)

    # 5. model card
    total = time.monotonic() - inp.started
    write_card(
        out,
        CardInputs(
            meta=meta,
            provenance=inp.provenance,
            evaluations=list(evals.values()),
            parity=par,
            total_seconds=total,
            ece_before=ece_before,
            ece_after=ece_after,
            int8_export=exported.describe() if exported is not None else "",
        ),
    )
    if inp.drop_fp32_onnx:  # keeps models/ small: int8 for onnx serving, fp16 safetensors for torch/--init
        (out / modeldir.ONNX_FP32).unlink(missing_ok=True)
    for ev in evals.values():
        render(ev, fusion, console)
    return Packaged(
        out=out,
        temperature=temperature,
        ece_before=ece_before,
        ece_after=ece_after,
        fusion=fusion,
        metrics=metrics,
        total_seconds=total,
    )


def _calibrate(dev_logits: np.ndarray, dev: Sequence[Example], console: Any) -> tuple[float, float, float]:
    """The softmax temperature fitted on the dev logits, and the dev ECE before and after it."""
    from writegate.classifier.post import softmax
    from writegate.training.calibrate import expected_calibration_error, fit_temperature

    dev_gold = np.asarray([LABEL2ID[ex.label.value] for ex in dev], dtype=np.int64)
    temperature = fit_temperature(dev_logits, dev_gold)
    ece_before = expected_calibration_error(softmax(dev_logits, 1.0), dev_gold)
    ece_after = expected_calibration_error(softmax(dev_logits, temperature), dev_gold)
    console.print(f"temperature {temperature:.3f}: dev ECE {ece_before:.4f} → {ece_after:.4f}")
    return temperature, ece_before, ece_after


def _save(model: Any, inp: PackageInputs, temperature: float) -> modeldir.ModelMeta:
    """Save `model` as fp16 safetensors and its writegate.json (metrics still empty) in `inp.out`."""
    import torch

    model = model.to("cpu").to(torch.float16)
    model.config.id2label = dict(enumerate(LABELS))
    model.config.label2id = dict(LABEL2ID)
    model.save_pretrained(str(inp.out), safe_serialization=True)
    meta = modeldir.ModelMeta(
        name=inp.name,
        version=inp.version,
        input_format_version=inp.input_format,
        max_length=inp.max_length,
        labels=list(LABELS),
        temperature=round(temperature, 6),
        fusion=inp.fusion != "off",
        metrics={},
    )
    modeldir.write_meta(inp.out, meta)
    return meta


def _evaluate_served(inp: PackageInputs) -> tuple[Any, dict[str, Any], bool]:
    """The served model (int8 ONNX; torch fp32 without an export) loaded from `inp.out`, its evaluations
    (dev, test, dev pairs) and whether fusion stays on (`auto`: iff it does not lower dev macro-F1)."""
    from writegate.classifier.model import Classifier
    from writegate.training.evaluate import evaluate

    clf = Classifier.load(inp.out, "onnx" if inp.onnx else "torch", threads=inp.threads)
    evals = {"dev": evaluate(clf, inp.dev, "dev")}
    if inp.test:
        evals["test"] = evaluate(clf, inp.test, "test")
    if inp.dev_pairs:
        evals["dev_pairs"] = evaluate(clf, inp.dev_pairs, "dev_pairs")
    fusion = {"on": True, "off": False}.get(inp.fusion, evals["dev"].fused.macro_f1 >= evals["dev"].model_only.macro_f1)
    return clf, evals, fusion


def int8_parity(out: Path, clf: Any, examples: Sequence[Example]) -> Any:
    """ONNX fp32/int8 vs torch fp32 on up to 1000 examples, in length-sorted batches of 64."""
    from writegate.api.normalizing import with_records
    from writegate.training.export import parity

    prepared = clf.prepare(with_records(ex.pair for ex in examples), 64)
    return parity(out, [b.batch for b in prepared.batches])
