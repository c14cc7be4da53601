"""SmoothQuant for the dynamic int8 export: move activation outliers into the weights first.

onnxruntime's dynamic int8 quantizes each MatMul input with one scale for the whole tensor, so a
few outlier channels (BERT's LayerNorm outputs have some) squeeze every other channel into a few
levels. SmoothQuant (Xiao et al., 2023, arXiv:2211.10438) divides input channel j by
`s_j = max|X_j|^α / max|W_j|^(1-α)` and multiplies input channel j of the weight by the same
`s_j`: the fp32 function is unchanged, the activation range is flatter, and the weights, whose
range is far narrower, absorb the difference. BERT is post-LayerNorm — the LayerNorm output also
feeds the residual — so `1/s` cannot be folded into the LayerNorm; it stays an elementwise Mul in
front of the MatMul (~3% of the int8 speed).

Measured on writegate-minilm-l6 0.3.0 (first 2000 test pairs, argmax agreement with torch fp32;
plain int8: 98.0%, max |Δlogit| 2.34): α 0.75 on all four projection families 99.0% (max |Δlogit|
0.89), α 0.85 98.9%, α 0.5 96.8%, α 0.25 46% (the FFN output weights overflow); α 0.5 on one
family alone: query/key/value 98.35%, attention output 97.8%, FFN input 97.95%, FFN output 96.5%.
On 0.4.0 (the whole 2.4.0 dev / test splits, 3041 / 3393 pairs): plain int8 97.3% / 97.5%; α 0.6
98.0 / 98.2, α 0.7 98.7 / 98.2, **α 0.75 98.6 / 98.7**, α 0.8 98.8 / 98.6, α 0.9 98.5 / 98.4;
2048 calibration pairs instead of 512 change nothing (98.55 / 98.6). On top of α 0.75, keeping
matmuls in fp32: all six FFN outputs 99.3 / 99.2 but ~1.5× the time per batch; layer 0's FFN
output alone 98.95 / 98.9; all of layer 0 98.95 / 99.1, of any other one layer ≤ 98.9. So 99% is
reached only at a price in speed that the CPU server cannot pay; α 0.75 stays the default.
The best α moves with the model: on 0.22.0 (a weight average of two runs) the first 4000 dev pairs agree
97.6% at α 0.5, 98.6% at 0.6, 98.9% at 0.75, 99.25% at 0.85, 98.85% at 0.9. So `export_onnx` picks α per
model by default (`smooth_alpha="auto"`, `export.SMOOTH_ALPHAS` 0.7–0.9): it quantizes at each and keeps
the one that agrees best with torch fp32 on 2048 generated pairs of another seed than the calibration
pairs (five exports: a few minutes more per training run); the model card records the choice.
SmoothQuant also makes a pair's label depend less on its batch mates (dynamic int8 takes one
range per batch): labels that change between batch 1 and batch 64 fell from 2.1% (plain, 0.3.0)
to 0.5–0.7%. Speed equal to plain int8 within noise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import torch

from writegate.classifier.backends.base import Batch

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


def activation_maxima(model: Any, layers: Sequence[torch.nn.Module], batches: Iterable[Batch]) -> dict[tuple[int, str], torch.Tensor]:
    """Per-channel max |input| of each group's first linear over `batches` (padding included, as served)."""
    maxima: dict[tuple[int, str], torch.Tensor] = {}

    def hook(key: tuple[int, str]) -> Any:
        def record(_module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], _out: torch.Tensor) -> None:
            x = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1]).amax(0).float()
            maxima[key] = torch.maximum(maxima[key], x) if key in maxima else x
        return record

    handles = [_get(layer, group[0]).register_forward_hook(hook((i, group[0])))  # type: ignore[union-attr]
               for i, layer in enumerate(layers) for group in GROUPS]
    try:
        with torch.no_grad():
            for b in batches:
                model(input_ids=torch.from_numpy(b.input_ids), attention_mask=torch.from_numpy(b.attention_mask),
                      token_type_ids=torch.from_numpy(b.token_type_ids))
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
            w_max = torch.stack([lin.weight.detach().abs().amax(0).float() for lin in linears]).amax(0)  # type: ignore[union-attr]
            scale = smoothing_scale(maxima[(i, group[0])], w_max, alpha)
            for name, lin in zip(group, linears, strict=True):
                parent, _, child = name.rpartition(".")
                setattr(layer.get_submodule(parent), child, Smoothed(lin, scale))  # type: ignore[arg-type]
                wrapped += 1
    return wrapped


def calibration_batches(model_dir: Any, n: int = CALIBRATION_PAIRS, batch_size: int = 64,
                        seed: int = CALIBRATION_SEED) -> list[Batch]:
    """`n` generated pairs (training generator, fixed seed) encoded with `model_dir`'s tokenizer and input format.

    Generated pairs, not a user's data, so that `writegate export` and `writegate train` smooth
    the same way from nothing but the model dir.
    """
    from pathlib import Path

    from writegate.classifier import features, modeldir
    from writegate.classifier.model import Encoded, collate, length_ordered_chunks
    from writegate.normalizer.api import with_records_all
    from writegate.training.data.generate import generate
    from writegate.training.datafile import parse_example

    model_dir = Path(model_dir)
    max_length = modeldir.read_meta(model_dir).max_length if (model_dir / modeldir.META_FILE).is_file() else features.MAX_LENGTH
    encoder = features.PairEncoder.from_file(modeldir.require_file(model_dir, modeldir.TOKENIZER), max_length)
    pairs = with_records_all(parse_example(row, i + 1).pair for i, row in enumerate(generate(n, seed)[:n]))
    texts = [features.render_pair(p, features.compare_pair(p)) for p in pairs]
    items = [Encoded(ids, types, None) for ids, types in encoder.encode(texts)]
    return [collate([items[i] for i in idx], encoder.pad_id) for idx in length_ordered_chunks(items, batch_size)]

