"""What a model's forward takes: BERT takes token types, MPNet and RoBERTa-style models do not."""

from __future__ import annotations

import inspect
from typing import Any

from writegate.classifier.backends.base import Batch

INPUTS: tuple[str, ...] = ("input_ids", "attention_mask", "token_type_ids")


def takes_token_types(model: Any) -> bool:
    """Whether `model.forward` accepts `token_type_ids`."""
    return "token_type_ids" in inspect.signature(model.forward).parameters


def input_names(model: Any) -> tuple[str, ...]:
    """The inputs `model` is fed (and its ONNX graph declares), in this order."""
    return INPUTS if takes_token_types(model) else INPUTS[:2]


def forward_kwargs(model: Any, batch: Batch) -> dict[str, Any]:
    """A batch as the keyword arguments of `model.forward` (CPU int64 tensors)."""
    import torch

    arrays = {
        "input_ids": batch.input_ids,
        "attention_mask": batch.attention_mask,
        "token_type_ids": batch.token_type_ids,
    }
    return {name: torch.from_numpy(arrays[name]) for name in input_names(model)}
