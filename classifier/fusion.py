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
RULE_NONE, RULE_NO_CONFLICT, RULE_NO_AGREEMENT = 0, 1, 2
"""Rule codes: nothing excluded; `supersedes` and `contradicts` excluded; `corroborates` and
`elaborates` excluded."""
RULE_LABELS: dict[int, tuple[int, ...]] = {
    RULE_NONE: (),
    RULE_NO_CONFLICT: (LABEL2ID[Label.SUPERSEDES.value], LABEL2ID[Label.CONTRADICTS.value]),
    RULE_NO_AGREEMENT: (LABEL2ID[Label.CORROBORATES.value], LABEL2ID[Label.ELABORATES.value]),
}
"""The label indices each rule excludes."""
_FLOOR = 1e-12
_MODEL, _STRUCTURE, _BOTH = (list(Evidence).index(e) for e in (Evidence.MODEL, Evidence.STRUCTURE, Evidence.BOTH))


def rule_for(comparison: SlotComparison | None) -> int:
    """The rule (a `RULE_*` code) that the structure imposes on a pair (see the module docstring)."""
    if comparison is None:
        return RULE_NONE
    if comparison.same_slot:
        if comparison.relation in COMPATIBLE:
            return RULE_NO_CONFLICT
        if comparison.relation is ValueRelation.INCOMPATIBLE:
            return RULE_NO_AGREEMENT
        return RULE_NONE
    return RULE_NO_CONFLICT if comparison.single_valued else RULE_NONE


def fuse_rows(probs: np.ndarray, rules: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Apply the structure rules to rows of probabilities.

    Args:
        probs: [n, 5] probabilities in LABELS order.
        rules: [n] rule codes (`rule_for`).

    Returns:
        The fused float64 probabilities (rows sum to 1) and, per row, the index in `Evidence`
        of what decided its label.
    """
    probs = np.array(probs, dtype=np.float64)
    evidence = np.full(len(probs), _MODEL, dtype=np.int8)
    before = np.argmax(probs, axis=1) if len(probs) else np.zeros(0, dtype=np.int64)
    for code, excluded in RULE_LABELS.items():
        rows = np.flatnonzero(rules == code) if excluded else ()
        if not len(rows):
            continue
        fused = np.maximum(probs[rows], _FLOOR)
        fused[:, list(excluded)] = 0.0
        fused = fused / fused.sum(axis=1, keepdims=True)
        probs[rows] = fused
        evidence[rows] = np.where(np.argmax(fused, axis=1) != before[rows], _STRUCTURE, _BOTH)
    return probs, evidence
