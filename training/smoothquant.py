"""SmoothQuant for the dynamic int8 export: move activation outliers into the weights first.

onnxruntime's dynamic int8 quantizes each MatMul input with one scale for the whole tensor, so a
few outlier channels (BERT's LayerNorm outputs have some) squeeze every other channel into a few
levels. SmoothQuant (Xiao et al., 2023, arXiv:2211.10438) divides input channel j by
`s_j = max|X_j|^α / max|W_j|^(1-α)` and multiplies input channel j of the weight by the same
`s_j`: the fp32 function is unchanged, the activation range is flatter, and the weights, whose
range is far narrower, absorb the difference. BERT is post-LayerNorm — the LayerNorm output also
feeds the residual — so `1/s` cannot be folded into the LayerNorm; it stays an elementwise Mul in
front of the MatMul, which costs little speed.

Choosing α: smoothing all four projection families agrees with torch fp32 better than smoothing
any one of them alone; too small an α overflows the weights (the FFN output projections first).
More calibration pairs than `CALIBRATION_PAIRS` change nothing. Keeping matmuls in fp32 on top
of SmoothQuant brings int8 closer to fp32 only at a price in speed that the CPU server cannot
pay. The best α moves with the model, so `export_onnx` picks α per model by default
(`smooth_alpha="auto"`, `export.SMOOTH_ALPHAS`): it quantizes at each and keeps the one that
agrees best with torch fp32 on `export.SELECTION_PAIRS` generated pairs of another seed than the
calibration pairs (one export per candidate); the model card records the choice.
Ties go to the α nearest `export.DEFAULT_SMOOTH_ALPHA`, the fixed α of the models before.
SmoothQuant also makes a pair's label depend less on its batch mates (dynamic int8 takes one
range per batch). The measurements, per model version: training/EXPERIMENTS.md, "Figures moved
out of code".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import torch

from writegate.classifier.backends.base import Batch
from writegate.training.inputs import forward_kwargs

CALIBRATION_PAIRS = 512
CALIBRATION_SEED = 7

# Linear layers of one BERT layer that read the same input (and therefore share one scale).
GROUPS: tuple[tuple[str, ...], ...] = (
    ("attention.self.query", "attention.self.key", "attention.self.value"),
    ("attention.output.dense",),
    ("intermediate.dense",),
    ("output.dense",),
)


class Smoothed(torch.nn.Module):
    """`linear(x / s)` with the weight's input channels (columns) pre-multiplied by `s`: the same function in fp32."""

    inv_scale: torch.Tensor

    def __init__(self, linear: torch.nn.Linear, scale: torch.Tensor) -> None:
        super().__init__()
        self.register_buffer("inv_scale", (1.0 / scale).to(linear.weight.dtype))
        with torch.no_grad():
            linear.weight.mul_(scale.to(linear.weight.dtype)[None, :])
        self.linear = linear

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x * self.inv_scale)


def smoothing_scale(x_max: torch.Tensor, w_max: torch.Tensor, alpha: float) -> torch.Tensor:
    """Per input channel `max|X|^α / max|W|^(1-α)`, floored so that dead channels stay finite.

    Args:
        x_max: per-channel max |activation| over the calibration data, shape [in].
        w_max: per-input-channel max |weight| over every linear of the group, shape [in].
        alpha: migration strength in [0, 1]: the share of each channel's range moved into the weights
            (0.5 makes activation and weight maxima equal).
    """
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    x = x_max.clamp(min=1e-5)
    w = w_max.clamp(min=1e-5)
    return (x.pow(alpha) / w.pow(1.0 - alpha)).clamp(min=1e-5)


def encoder_layers(model: Any) -> Sequence[torch.nn.Module] | None:
    """The transformer layers of a BERT-family model, or None when the layout is another one."""
    encoder = getattr(getattr(model, "base_model", None), "encoder", None)
    layers = getattr(encoder, "layer", None)
    if layers is None:
        return None
    for layer in layers:
        for group in GROUPS:
            for name in group:
                if not isinstance(_get(layer, name), torch.nn.Linear):
                    return None
    return layers


def _get(module: torch.nn.Module, name: str) -> torch.nn.Module | None:
    try:
        return module.get_submodule(name)
    except AttributeError:
        return None


def activation_maxima(
    model: Any, layers: Sequence[torch.nn.Module], batches: Iterable[Batch]
) -> dict[tuple[int, str], torch.Tensor]:
    """Per-channel max |input| of each group's first linear over `batches` (padding included, as served)."""
    maxima: dict[tuple[int, str], torch.Tensor] = {}

    def hook(key: tuple[int, str]) -> Any:
        def record(_module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], _out: torch.Tensor) -> None:
            x = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1]).amax(0).float()
            maxima[key] = torch.maximum(maxima[key], x) if key in maxima else x

        return record

    handles = [
        _get(layer, group[0]).register_forward_hook(hook((i, group[0])))  # type: ignore[union-attr]
        for i, layer in enumerate(layers)
        for group in GROUPS
    ]
    try:
        with torch.no_grad():
            for b in batches:
                model(**forward_kwargs(model, b))
    finally:
        for h in handles:
            h.remove()
    return maxima


def smooth(model: Any, batches: Sequence[Batch], alpha: float) -> int:
    """Wrap every projection of every layer in `Smoothed`, in place; returns how many were wrapped.

    Returns 0 (and leaves the model as it is) for a model that is not BERT-shaped.
    """
    layers = encoder_layers(model)
    if layers is None or not batches:
        return 0
    maxima = activation_maxima(model, layers, batches)
    wrapped = 0
    for i, layer in enumerate(layers):
        for group in GROUPS:
            linears = [_get(layer, name) for name in group]
            w_max = torch.stack([lin.weight.detach().abs().amax(0).float() for lin in linears]).amax(0)  # type: ignore[union-attr,operator]
            scale = smoothing_scale(maxima[(i, group[0])], w_max, alpha)
            for name, lin in zip(group, linears, strict=True):
                parent, _, child = name.rpartition(".")
                setattr(layer.get_submodule(parent), child, Smoothed(lin, scale))  # type: ignore[arg-type]
                wrapped += 1
    return wrapped


def calibration_batches(
    model_dir: Any, n: int = CALIBRATION_PAIRS, batch_size: int = 64, seed: int = CALIBRATION_SEED
) -> list[Batch]:
    """`n` generated pairs (training generator, fixed seed) encoded with `model_dir`'s tokenizer and input format.

    Generated pairs, not a user's data, so that `writegate export` and `writegate train` smooth
    the same way from nothing but the model dir.
    """
    from pathlib import Path

    from writegate.api.normalizing import with_records
    from writegate.classifier import features, modeldir
    from writegate.classifier.columnar import collate_rows, length_chunks
    from writegate.training.data.generate import generate
    from writegate.training.datafile import parse_example

    model_dir = Path(model_dir)
    meta = modeldir.read_meta(model_dir) if (model_dir / modeldir.META_FILE).is_file() else None
    encoder = features.PairEncoder.from_file(
        modeldir.require_file(model_dir, modeldir.TOKENIZER),
        meta.max_length if meta else features.MAX_LENGTH,
        meta.input_format_version if meta else features.INPUT_FORMAT_VERSION,
    )
    pairs = with_records(parse_example(row, i + 1).pair for i, row in enumerate(generate(n, seed)[:n]))
    texts = [features.render_pair(p, features.compare_pair(p), encoder.input_format) for p in pairs]
    encoded = encoder.encode(texts)
    rows, seg_a = [ids for ids, _ in encoded], [types.count(0) for _, types in encoded]
    return [
        collate_rows([rows[i] for i in idx], [seg_a[i] for i in idx], encoder.pad_id)
        for idx in length_chunks([len(r) for r in rows], batch_size)
    ]
