"""ONNX export: torch weights (safetensors) → `model.onnx` (fp32) + `model.int8.onnx` (dynamic int8).

The legacy TorchScript exporter (`dynamo=False`) is used: it handles BERT with dynamic batch and
sequence axes on torch 2.13 without extra dependencies, and its graphs quantize cleanly.
"""

from __future__ import annotations

import copy
import logging
import re
import shutil
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier import modeldir
from writegate.classifier.backends.base import Batch
from writegate.errors import InputError
from writegate.training.inputs import forward_kwargs, input_names

OPSET = 17
DEFAULT_SMOOTH_ALPHA = 0.75  # the fixed α before it was chosen per model; now breaks ties (training/smoothquant.py)
# `smooth_alpha="auto"` exports int8 at each of these and keeps the one whose labels agree best with torch fp32
# on SELECTION_PAIRS generated pairs (another seed than the calibration pairs; never a test split).
SMOOTH_ALPHAS: tuple[float, ...] = (0.7, 0.75, 0.8, 0.85, 0.9)
SELECTION_PAIRS = 2048
SELECTION_SEED = 11
SmoothAlpha = float | Literal["auto"] | None
Fp32FfnLayers = int | Literal["all"]  # how many layers, from the first, keep their FFN output projection in fp32
COPY_FILES: tuple[str, ...] = (
    *modeldir.TOKENIZER_FILES,
    modeldir.CONFIG,
    modeldir.SAFETENSORS,
    modeldir.META_FILE,
    modeldir.MODEL_CARD,
)


class Exported(BaseModel):
    """What `export_onnx` wrote and how it smoothed the int8 graph."""

    paths: list[Path] = Field(description="The ONNX files written (fp32, then int8).")
    smooth_alpha: float | None = Field(default=None, description="SmoothQuant α of the int8 graph; None = plain.")
    alpha_agreement: dict[float, float] = Field(
        default_factory=dict,
        description=(
            "With smooth_alpha='auto': each candidate α's int8 argmax agreement with torch fp32 on the selection pairs."
        ),
    )

    fp32_ffn_layers: int = Field(
        default=0, description="How many layers, from the first, kept their FFN output projection in fp32."
    )

    def describe(self) -> str:
        """One line for logs and the model card."""
        if self.smooth_alpha is None:
            how = "plain int8 (no SmoothQuant)"
        elif not self.alpha_agreement:
            how = f"SmoothQuant α {self.smooth_alpha:g}"
        else:
            tried = ", ".join(f"{a:g} {v:.2%}" for a, v in sorted(self.alpha_agreement.items()))
            how = (
                f"SmoothQuant α {self.smooth_alpha:g}, chosen by int8 agreement with fp32 on {SELECTION_PAIRS} "
                f"generated pairs ({tried})"
            )
        if self.fp32_ffn_layers == 1:
            how += "; layer 0's FFN output projection in fp32"
        elif self.fp32_ffn_layers > 1:
            how += f"; the FFN output projections of layers 0-{self.fp32_ffn_layers - 1} in fp32"
        return how


class Parity(BaseModel):
    """Agreement of the ONNX models with torch fp32 on one batch."""

    n: int = Field(description="Pairs compared.")
    fp32_max_abs_diff: float = Field(description="max |Δlogit| ONNX fp32 vs torch fp32.")
    int8_max_abs_diff: float | None = Field(default=None, description="max |Δlogit| ONNX int8 vs torch fp32.")
    int8_argmax_agreement: float | None = Field(default=None, description="Share of pairs with the same argmax.")


def load_torch_fp32(model_dir: Path) -> Any:
    """The HF model from `model_dir` in fp32 with eager attention (export- and parity-friendly)."""
    import transformers
    from transformers import AutoModelForSequenceClassification

    transformers.utils.logging.disable_progress_bar()
    modeldir.require_file(model_dir, modeldir.CONFIG)
    modeldir.require_file(model_dir, modeldir.SAFETENSORS)
    import torch

    model = AutoModelForSequenceClassification.from_pretrained(
        str(model_dir), dtype=torch.float32, attn_implementation="eager", local_files_only=True
    )
    model.eval()
    return model


def export_onnx(
    model_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    quantize: bool = True,
    fp32_ffn_layers: Fp32FfnLayers = 0,
    smooth_alpha: SmoothAlpha = "auto",
) -> Exported:
    """Export `model_dir`'s torch weights to ONNX fp32 (and int8) in `out_dir` (default: in place).

    The int8 model is quantized from a SmoothQuant-ed copy of the fp32 graph (`smooth_alpha`: a strength,
    "auto" = the best of SMOOTH_ALPHAS by agreement with torch fp32 on generated pairs, None = plain;
    see `writegate.training.smoothquant`); `model.onnx` itself stays plain.
    `fp32_ffn_layers` keeps the FFN output projections of the first N layers (or "all") unquantized
    (see `quantize_int8`).
    Files the runtime needs (tokenizer, config, writegate.json, weights, card) are copied into a
    different `out_dir`.

    Raises:
        InputError: a needed file is missing (the tokenizer too, for SmoothQuant's calibration), or
            `fp32_ffn_layers` is more than the model's layers.
    """
    model_dir = Path(model_dir)
    out = Path(out_dir) if out_dir is not None else model_dir
    if quantize and smooth_alpha is not None:
        _require_calibration_tokenizer(model_dir)  # before any work
    kept = fp32_ffn_layer_count(fp32_ffn_layers, _layer_count(model_dir)) if quantize and fp32_ffn_layers else 0
    out.mkdir(parents=True, exist_ok=True)
    model = load_torch_fp32(model_dir)
    fp32 = trace_to_onnx(model, out / modeldir.ONNX_FP32)
    result = Exported(paths=[fp32])
    if quantize:
        int8 = out / modeldir.ONNX_INT8
        if smooth_alpha is None:
            result = Exported(paths=[fp32, quantize_int8(fp32, int8, fp32_ffn_layers=kept)], fp32_ffn_layers=kept)
        else:
            alphas = SMOOTH_ALPHAS if smooth_alpha == "auto" else (float(smooth_alpha),)
            with tempfile.TemporaryDirectory(prefix="writegate-smooth-") as tmp:
                candidates = {
                    a: quantize_int8(
                        trace_to_onnx(
                            smoothed_model(copy.deepcopy(model), model_dir, a), Path(tmp) / f"smoothed-{a}.onnx"
                        ),
                        Path(tmp) / f"int8-{a}.onnx",
                        fp32_ffn_layers=kept,
                    )
                    for a in alphas
                }
                agreement = _selection_agreement(model, model_dir, candidates) if len(alphas) > 1 else {}
                # best agreement; ties go to the α nearest the measured default
                best = max(alphas, key=lambda a: (agreement.get(a, 0.0), -abs(a - DEFAULT_SMOOTH_ALPHA)))
                shutil.copyfile(candidates[best], int8)
            result = Exported(paths=[fp32, int8], smooth_alpha=best, alpha_agreement=agreement, fp32_ffn_layers=kept)
    if out.resolve() != model_dir.resolve():
        for name in COPY_FILES:
            src = model_dir / name
            if src.is_file():
                shutil.copy2(src, out / name)
    return result


def _selection_agreement(model: Any, model_dir: Path, candidates: dict[float, Path]) -> dict[float, float]:
    """Each candidate int8 graph's argmax agreement with torch fp32 `model` on the selection pairs."""
    from writegate.classifier.backends.onnx import OnnxBackend
    from writegate.training import smoothquant

    batches = smoothquant.calibration_batches(model_dir, SELECTION_PAIRS, seed=SELECTION_SEED)
    reference = [torch_logits(model, b).argmax(1) for b in batches]
    n = sum(b.size for b in batches)
    out: dict[float, float] = {}
    for alpha, path in candidates.items():
        backend = OnnxBackend(path)
        out[alpha] = (
            sum(int(np.sum(backend.run(b).argmax(1) == ref)) for b, ref in zip(batches, reference, strict=True)) / n
        )
    return out


def smoothed_model(model: Any, model_dir: Path, alpha: float) -> Any:
    """`model` with SmoothQuant scales applied in place, checked to compute the same fp32 logits.

    Calibrates on generated pairs encoded with `model_dir`'s tokenizer. A model that is not
    BERT-shaped is returned unchanged.

    Raises:
        InputError: `model_dir` has no tokenizer to encode the calibration pairs with.
        RuntimeError: the smoothed model's fp32 logits drift from the original's (a bug, not bad input).
    """
    from writegate.training import smoothquant

    batches = smoothquant.calibration_batches(model_dir)  # raises InputError without a tokenizer
    probe = batches[-1]
    before = torch_logits(model, probe)
    if smoothquant.smooth(model, batches, alpha) == 0:
        return model
    drift = float(np.abs(torch_logits(model, probe) - before).max())
    if drift > 1e-3:
        raise RuntimeError(f"SmoothQuant changed the fp32 logits by {drift:.2e}; refusing to quantize from it")
    return model


def _layer_count(model_dir: Path) -> int:
    from transformers import AutoConfig

    return int(AutoConfig.from_pretrained(model_dir).num_hidden_layers)


def _require_calibration_tokenizer(model_dir: Path) -> None:
    tokenizer = Path(model_dir) / modeldir.TOKENIZER
    if not tokenizer.is_file():
        raise InputError(
            "model",
            f"{tokenizer} is missing: SmoothQuant calibrates on tokenized pairs "
            "(add the tokenizer, or export with --no-smooth)",
        )


def trace_to_onnx(model: Any, path: Path) -> Path:
    """Trace `model` (an HF sequence classifier) to ONNX with dynamic batch and sequence axes."""
    import torch

    names = input_names(model)  # no token_type_ids for a model without token types (MPNet)

    class _Logits(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(names, inputs, strict=True))).logits

    ids = torch.full((2, 16), 101, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 10:] = 0
    types = torch.zeros_like(ids)
    types[:, 8:] = 1
    axes = {name: {0: "batch", 1: "sequence"} for name in names} | {"logits": {0: "batch"}}
    wrapper = _Logits(model).eval()  # export restores the wrapper's mode on the way out: a fresh one is training
    return export_traced(wrapper, (ids, mask, types)[: len(names)], path, names, "logits", axes)


def export_traced(
    module: Any, inputs: tuple[Any, ...], path: Path, names: Sequence[str], output: str, axes: dict[str, dict[int, str]]
) -> Path:
    """Trace `module` on example `inputs` to ONNX at `path`: the TorchScript exporter, opset `OPSET`,
    constants folded, the dynamic `axes` given; returns `path`."""
    import torch

    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TracerWarnings on shape checks that are constant for BERT
        torch.onnx.export(
            module,
            inputs,
            str(path),
            input_names=list(names),
            output_names=[output],
            dynamic_axes=axes,
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )
    return path


def quantize_int8(fp32: Path, int8: Path, *, fp32_ffn_layers: Fp32FfnLayers = 0) -> Path:
    """Dynamic int8 quantization (onnxruntime.quantization), per-channel weight scales.

    Per-channel weight scales agree with fp32 on the argmax more often than per-tensor ones, at
    the same speed. `fp32_ffn_layers` also keeps the FFN output projections of the first N layers
    (or of "all") in fp32: each one brings the labels closer to fp32, and costs speed and file size
    (measured: training/EXPERIMENTS.md, "Second values on multi-valued slots").

    Most of the disagreement that remains comes from the per-tensor uint8 quantization of the
    activations: the int8 *weights* alone (per-channel, fp32 activations) agree nearly always,
    and the batch composition does not change the agreement. Keeping any one family of MatMuls in
    fp32 buys little, and onnxruntime's weight-only `MatMulNBits` (8 bits, block 32) agrees better
    but runs slower than fp32 on the CPU. So the quantizer stays plain dynamic int8, and
    `export_onnx` feeds it a SmoothQuant-ed graph instead (`writegate.training.smoothquant`).
    The measurements: training/EXPERIMENTS.md, "Figures moved out of code".

    Raises:
        InputError: `fp32_ffn_layers` is not "all" or 0 to the graph's layer count.
    """
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    exclude: list[str] = []
    if fp32_ffn_layers != 0:
        by_layer = ffn_out_matmuls(onnx.load(str(fp32), load_external_data=False).graph, fp32.name)
        exclude = by_layer[: fp32_ffn_layer_count(fp32_ffn_layers, len(by_layer))]
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # quantize_dynamic warns to run pre-processing; not needed for BERT
    try:
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=exclude)
    finally:
        root.setLevel(level)
    return int8


def fp32_ffn_layer_count(fp32_ffn_layers: Fp32FfnLayers, layers: int) -> int:
    """How many of a `layers`-layer model's FFN output projections `fp32_ffn_layers` keeps in fp32.

    Raises:
        InputError: it is not "all" or 0 to `layers`.
    """
    if fp32_ffn_layers == "all":
        return layers
    if not 0 <= fp32_ffn_layers <= layers:
        raise InputError("--int8-fp32-ffn", f"must be all or a layer count from 1 to {layers}, got {fp32_ffn_layers}")
    return fp32_ffn_layers


def ffn_out_matmuls(graph: Any, name: str) -> list[str]:
    """The names of an exported BERT graph's FFN output projections (MatMul nodes), layer 0 first."""
    found: dict[int, str] = {}
    for n in graph.node:
        if n.op_type == "MatMul" and "/output/dense/" in n.name and "/attention/" not in n.name:
            layer = re.search(r"/layer\.(\d+)/", n.name)
            if layer is None:
                raise InputError(name, f"cannot tell the layer of the FFN output projection {n.name!r}")
            found[int(layer.group(1))] = n.name
    if sorted(found) != list(range(len(found))):
        raise InputError(name, f"FFN output projections found for layers {sorted(found)}, not 0 to N-1")
    return [found[i] for i in range(len(found))]


def torch_logits(model: Any, batch: Batch) -> np.ndarray:
    """fp32 torch logits for a batch."""
    import torch

    with torch.no_grad():
        out = model(**forward_kwargs(model, batch))
    return out.logits.float().numpy()


def parity(model_dir: str | Path, batches: Batch | Sequence[Batch], *, threads: int | None = None) -> Parity:
    """Compare ONNX fp32 (and int8, when present) with torch fp32 on one or more batches."""
    from writegate.classifier.backends.onnx import OnnxBackend

    model_dir = Path(model_dir)
    batches = [batches] if isinstance(batches, Batch) else list(batches)
    model = load_torch_fp32(model_dir)
    fp32 = OnnxBackend(modeldir.require_file(model_dir, modeldir.ONNX_FP32), threads=threads)
    int8_path = model_dir / modeldir.ONNX_INT8
    int8 = OnnxBackend(int8_path, threads=threads) if int8_path.is_file() else None
    n, d32, d8, agree = 0, 0.0, 0.0, 0
    for batch in batches:
        if batch.size == 0:
            continue
        ref = torch_logits(model, batch)
        n += batch.size
        d32 = max(d32, float(np.abs(fp32.run(batch) - ref).max()))
        if int8 is not None:
            q = int8.run(batch)
            d8 = max(d8, float(np.abs(q - ref).max()))
            agree += int(np.sum(q.argmax(1) == ref.argmax(1)))
    return Parity(
        n=n,
        fp32_max_abs_diff=d32,
        int8_max_abs_diff=d8 if int8 is not None else None,
        int8_argmax_agreement=(agree / n if n else 1.0) if int8 is not None else None,
    )


def check_model_dir(model_dir: Path) -> None:
    """Raise InputError unless `model_dir` has torch weights to export."""
    if not Path(model_dir).is_dir():
        raise InputError("model", f"{model_dir} is not a directory")
    modeldir.require_file(Path(model_dir), modeldir.CONFIG)
    modeldir.require_file(Path(model_dir), modeldir.SAFETENSORS)
