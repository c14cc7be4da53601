"""null backend: fixed logits, no model (to measure everything around the model: `bench/pipeline.py`)."""

from __future__ import annotations

import numpy as np

from writegate.classifier.backends.base import Backend, Batch
from writegate.classifier.labels import LABELS

_LOGITS = {"unrelated": 1.0, "corroborates": 0.5, "elaborates": 0.25, "contradicts": -0.25, "supersedes": -0.5}
FIXED_LOGITS = np.array([_LOGITS[name] for name in LABELS], dtype=np.float32)
"""Every pair's logits (LABELS order): `unrelated` wins unless fusion or a guard decides."""


class NullBackend(Backend):
    """Returns `FIXED_LOGITS` for every pair: the labels mean nothing; the cost is the pipeline's alone."""

    name = "null"

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32, the same row for every pair."""
        return np.broadcast_to(FIXED_LOGITS, (batch.size, len(FIXED_LOGITS))).copy()
