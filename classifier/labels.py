"""The five relation labels (labels.md), in the model's output order."""

from __future__ import annotations

from enum import Enum


class Label(str, Enum):
    """How the NEW memory relates to an EXISTING one."""

    UNRELATED = "unrelated"
    CORROBORATES = "corroborates"
    ELABORATES = "elaborates"
    CONTRADICTS = "contradicts"
    SUPERSEDES = "supersedes"


LABELS: tuple[str, ...] = tuple(label.value for label in Label)
"""Model output index i ↔ LABELS[i]; the same order as the proto enum (value = i + 1)."""
LABEL2ID: dict[str, int] = {name: i for i, name in enumerate(LABELS)}


def parse_label(value: object, field: str = "label") -> Label:
    """Parse a label name, raising InputError naming `field` when unknown."""
    from writegate.errors import InputError

    try:
        return Label(value)
    except ValueError:
        raise InputError(field, f"unknown label {value!r}; expected one of {', '.join(LABELS)}") from None
