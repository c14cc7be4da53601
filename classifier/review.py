"""The review rule: which retiring labels a person should look at before the store acts on them.

A retiring label (`supersedes`, `contradicts`) makes an existing memory historical or puts it in
conflict. When such a label wins by less than `margin` over the runner-up, or its probability is
below `confidence`, the relation is flagged `review`: the store keeps the candidate `current`
(`api/prepare.py`, relabel's roles) and stores the edge with its label, for a person to settle.

The rule runs once, in the classifier's post step (`columnar.label_window`), on the probabilities
after fusion and guards, so every entry point flags the same pairs. The thresholds are the model
directory's (`writegate.json` → `review`, chosen on dev data with `python -m
writegate.training.review`); a model directory without them flags nothing.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from writegate.classifier.labels import LABEL2ID, Label

RETIRING: tuple[Label, ...] = (Label.SUPERSEDES, Label.CONTRADICTS)
"""The labels that retire a memory or put it in conflict: only these are ever flagged."""
RETIRING_IDS = np.array([LABEL2ID[label.value] for label in RETIRING], dtype=np.int64)
"""The label ids of `RETIRING`."""


class ReviewPolicy(BaseModel):
    """When a retiring label is flagged for review (`writegate.json`'s `review`; both 0 = never)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    margin: float = Field(
        default=0.0, ge=0, le=1, description="Flag when the label's probability leads the runner-up's by less."
    )
    confidence: float = Field(default=0.0, ge=0, le=1, description="Flag when the label's probability is below.")

    @property
    def active(self) -> bool:
        """Whether this policy can flag anything."""
        return self.margin > 0 or self.confidence > 0

    def flags(self, probabilities: np.ndarray, label: np.ndarray) -> np.ndarray:
        """bool [n]: which rows to review.

        Args:
            probabilities: float [n, 5] in `LABELS` order (after fusion and guards).
            label: int [n], each row's label (its argmax).
        """
        probs = np.asarray(probabilities, dtype=np.float64)
        label = np.asarray(label, dtype=np.int64)
        if not self.active or len(label) == 0:
            return np.zeros(len(label), dtype=bool)
        top = probs[np.arange(len(label)), label]
        runner_up = np.partition(probs, -2, axis=1)[:, -2]
        unsure = (top - runner_up < self.margin) | (top < self.confidence)
        return np.isin(label, RETIRING_IDS) & unsure
