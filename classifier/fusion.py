"""Fusion of the model's probabilities with the structured comparison of the two records.

The model already reads the comparison as text; fusion turns the hard facts into constraints:

- same slot, compatible values (EQUAL / NARROWER / BROADER / COMPATIBLE): a pair cannot conflict
  → `supersedes` and `contradicts` get probability 0;
- same slot, INCOMPATIBLE values: both cannot hold, so NEW neither repeats nor refines EXISTING
  → `corroborates` and `elaborates` get 0 (`unrelated` stays: the normalizer may have read the two
  subjects as one);
- different slots of one single-valued edge type (e.g. two accounts' owners): they cannot conflict
  → `supersedes` and `contradicts` get 0;
- no comparison, or different slots otherwise: the model alone decides.

The remaining mass is renormalised. Evidence: `model` when no rule applied, `both` when a rule
applied and agreed with the model's own top label, `structure` when the rule changed the label.
If the model put (almost) all mass on excluded labels, the allowed labels keep their relative
order from the model's probabilities (a floor keeps them defined).
"""

from __future__ import annotations

import numpy as np

from writegate.classifier.labels import LABEL2ID, Label
from writegate.classifier.types import Evidence
from writegate.normalizer.compare import SlotComparison, ValueRelation

COMPATIBLE: frozenset[ValueRelation] = frozenset(
    {ValueRelation.EQUAL, ValueRelation.NARROWER, ValueRelation.BROADER, ValueRelation.COMPATIBLE}
)
_CONFLICT = (LABEL2ID[Label.SUPERSEDES.value], LABEL2ID[Label.CONTRADICTS.value])
_AGREEMENT = (LABEL2ID[Label.CORROBORATES.value], LABEL2ID[Label.ELABORATES.value])
_FLOOR = 1e-12


def excluded_labels(comparison: SlotComparison | None) -> tuple[int, ...]:
    """Indices of the labels that the structure rules out (see the module docstring)."""
    if comparison is None:
        return ()
    if comparison.same_slot:
        if comparison.relation in COMPATIBLE:
            return _CONFLICT
        if comparison.relation is ValueRelation.INCOMPATIBLE:
            return _AGREEMENT
        return ()
    if comparison.single_valued:
        return _CONFLICT
    return ()


def fuse(probs: np.ndarray, comparison: SlotComparison | None) -> tuple[np.ndarray, Evidence]:
    """Apply the structure rules to one row of probabilities.

    Args:
        probs: [5] probabilities in LABELS order.
        comparison: the pair's structured comparison, or None.

    Returns:
        The fused probabilities (sum 1) and which evidence decided the label.
    """
    probs = np.asarray(probs, dtype=np.float64)
    excluded = excluded_labels(comparison)
    if not excluded:
        return probs, Evidence.MODEL
    fused = np.maximum(probs, _FLOOR)
    fused[list(excluded)] = 0.0
    fused = fused / fused.sum()
    changed = int(np.argmax(fused)) != int(np.argmax(probs))
    return fused, Evidence.STRUCTURE if changed else Evidence.BOTH
