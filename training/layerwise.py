"""Layer-wise learning-rate decay: the optimizer's parameter groups for a BERT classifier.

The classifier head and pooler train at the full learning rate, each encoder layer below at
`decay` times the rate of the one above it, the embeddings at `decay ** (layers + 1)`: the lower
layers, which hold the pretrained lexical and phrase-level knowledge a held-out phrasing has to be
read with, move least. `decay = 1` is one rate for every parameter (plain fine-tuning).
"""

from __future__ import annotations

import re
from typing import Any

_LAYER = re.compile(r"\.encoder\.layer\.(\d+)\.")


def depth(name: str, n_layers: int) -> int:
    """0 for the embeddings, `i + 1` for encoder layer `i`, `n_layers + 1` for the pooler and head.

    Raises:
        ValueError: a parameter name this layout does not know (nothing is silently given a rate).
    """
    if ".embeddings." in f".{name}":
        return 0
    if m := _LAYER.search(f".{name}"):
        i = int(m.group(1))
        if i >= n_layers:
            raise ValueError(f"parameter {name!r} is in layer {i}, but the model has {n_layers} layers")
        return i + 1
    if name.startswith(("classifier.", "bert.pooler.", "pooler.")):
        return n_layers + 1
    raise ValueError(f"parameter {name!r} is neither embeddings, an encoder layer, the pooler nor the classifier")


def no_weight_decay(name: str) -> bool:
    """Biases and LayerNorm parameters take no weight decay (as in the Trainer's own optimizer)."""
    return name.endswith(".bias") or "LayerNorm" in name or "layer_norm" in name


def param_groups(model: Any, lr: float, decay: float, weight_decay: float) -> list[dict[str, Any]]:
    """AdamW parameter groups with layer-wise decayed learning rates (trainable parameters only).

    Args:
        model: a `*ForSequenceClassification` with `config.num_hidden_layers`.
        lr: the rate of the classifier head and pooler.
        decay: factor per layer going down, in (0, 1].
        weight_decay: for every parameter but biases and LayerNorm.

    Returns:
        One group per (depth, decayed or not) that has parameters, each with its own `lr`.
    """
    if not 0 < decay <= 1:
        raise ValueError(f"decay must be in (0, 1], got {decay}")
    n_layers = int(model.config.num_hidden_layers)
    groups: dict[tuple[int, bool], dict[str, Any]] = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        d, nd = depth(name, n_layers), no_weight_decay(name)
        group = groups.setdefault((d, nd), {"params": [], "lr": lr * decay ** (n_layers + 1 - d),
                                            "weight_decay": 0.0 if nd else weight_decay})
        group["params"].append(param)
    return [groups[k] for k in sorted(groups)]
