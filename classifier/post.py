"""Post-processing of logits without a model: calibrated softmax, probabilities by label name."""

from __future__ import annotations

import numpy as np

from writegate.classifier.labels import LABELS


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Row-wise softmax of `logits / temperature` (float64 for stability, returned as float64).

    Args:
        logits: [n, k] or [k].
        temperature: T > 0; T > 1 softens over-confident models (fitted on dev, see training/calibrate.py).
    """
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def as_dict(probs: np.ndarray) -> dict[str, float]:
    """One probability per label name, in LABELS order."""
    return {name: float(p) for name, p in zip(LABELS, probs, strict=True)}
