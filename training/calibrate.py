"""Temperature scaling (Guo et al., 2017): one scalar T fitted on dev logits by NLL."""

from __future__ import annotations

import numpy as np

from writegate.classifier.post import softmax

T_MIN, T_MAX = 0.05, 20.0


def nll(logits: np.ndarray, labels: np.ndarray, temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of `labels` under softmax(logits / T)."""
    probs = softmax(logits, temperature)
    return float(-np.mean(np.log(np.clip(probs[np.arange(len(labels)), labels], 1e-12, None))))


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The T in [0.05, 20] that minimises dev NLL (bounded search on log T).

    Returns 1.0 for an empty set.
    """
    if len(labels) == 0:
        return 1.0
    from scipy.optimize import minimize_scalar

    logits = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    res = minimize_scalar(
        lambda log_t: nll(logits, labels, float(np.exp(log_t))),
        bounds=(np.log(T_MIN), np.log(T_MAX)),
        method="bounded",
        options={"xatol": 1e-4},
    )
    return float(np.exp(res.x))


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, n_bins: int = 15) -> float:
    """ECE: Σ_bins |bin| / n · |accuracy(bin) − confidence(bin)|, equal-width confidence bins."""
    probs = np.asarray(probs, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    if len(labels) == 0:
        return 0.0
    conf = probs.max(axis=1)
    correct = (probs.argmax(axis=1) == labels).astype(np.float64)
    bins = np.minimum((conf * n_bins).astype(int), n_bins - 1)
    ece = 0.0
    for b in range(n_bins):
        sel = bins == b
        if sel.any():
            ece += sel.mean() * abs(correct[sel].mean() - conf[sel].mean())
    return float(ece)
