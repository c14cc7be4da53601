"""The backend interface: padded token arrays in, logits out (`Backend`, the one protocol a backend implements)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Batch:
    """A padded batch of encoded pairs: int64 arrays of shape [n, L]."""

    input_ids: np.ndarray
    attention_mask: np.ndarray
    token_type_ids: np.ndarray

    def __post_init__(self) -> None:
        shapes = {self.input_ids.shape, self.attention_mask.shape, self.token_type_ids.shape}
        if len(shapes) != 1 or self.input_ids.ndim != 2:
            raise ValueError(f"Batch arrays must share one 2-D shape, got {sorted(shapes)}")

    @property
    def size(self) -> int:
        """Number of pairs in the batch."""
        return int(self.input_ids.shape[0])

    @property
    def n_tokens(self) -> int:
        """Padded tokens in the batch (n × L): the cost a backend pays."""
        return int(self.input_ids.size)


class Backend(Protocol):
    """Runs the classifier on batches. Blocking; safe to call from one worker thread.

    A backend subclasses this protocol: it must define `name` and `run`; `run_many` and
    `release_memory` have defaults that a backend overrides when it can do better.
    """

    name: str

    def run(self, batch: Batch) -> np.ndarray:
        """Return float32 logits of shape [n, 5] (index i ↔ LABELS[i])."""
        ...

    def run_many(self, batches: Sequence[Batch]) -> list[np.ndarray]:
        """The logits of each batch, in order (default: `run` on each; the torch backend queues them all
        on the device before it reads the first result)."""
        return [self.run(batch) for batch in batches]

    def release_memory(self) -> None:
        """Hand free working memory back to the OS; called when idle (default: nothing to hand back)."""
        return None
