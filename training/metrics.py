"""Classification metrics for the five labels, with the conflict slice reported on its own."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier.labels import LABEL2ID, LABELS, Label

_SUP, _CON = LABEL2ID[Label.SUPERSEDES.value], LABEL2ID[Label.CONTRADICTS.value]


class LabelScore(BaseModel):
    """Precision / recall / F1 of one label."""

    precision: float
    recall: float
    f1: float
    support: int


class ConflictSlice(BaseModel):
    """Pairs whose gold label is supersedes or contradicts: the failures this product exists for."""

    n: int = Field(description="Gold supersedes + contradicts pairs.")
    accuracy: float = Field(description="Exact label accuracy on the slice (the headline number).")
    detected: float = Field(description="Share predicted as some conflict (supersedes or contradicts).")
    told_apart: float = Field(description="Among those detected as a conflict, share with the right one of the two.")
    sup_as_con: int = Field(description="Gold supersedes predicted contradicts.")
    con_as_sup: int = Field(description="Gold contradicts predicted supersedes.")


class Report(BaseModel):
    """Metrics of one set of predictions."""

    n: int
    accuracy: float
    macro_f1: float
    per_label: dict[str, LabelScore]
    confusion: list[list[int]] = Field(description="confusion[gold][pred], LABELS order.")
    conflict: ConflictSlice

    def flat(self, prefix: str) -> dict[str, float]:
        """Flat metrics for writegate.json, e.g. `test.macro_f1`."""
        out = {
            f"{prefix}.macro_f1": self.macro_f1,
            f"{prefix}.accuracy": self.accuracy,
            f"{prefix}.conflict_accuracy": self.conflict.accuracy,
            f"{prefix}.conflict_told_apart": self.conflict.told_apart,
            f"{prefix}.n": float(self.n),
        }
        for name, s in self.per_label.items():
            out[f"{prefix}.f1.{name}"] = s.f1
        return {k: round(v, 4) for k, v in out.items()}


def confusion_matrix(
    gold: Sequence[int] | np.ndarray, pred: Sequence[int] | np.ndarray, k: int = len(LABELS)
) -> np.ndarray:
    """[k, k] counts, rows gold, columns predicted (vectorised: the paired bootstrap calls it thousands of times)."""
    g, p = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)
    if g.shape != p.shape:
        raise ValueError(f"gold and pred differ in length: {g.size} and {p.size}")
    if g.size and (min(g.min(), p.min()) < 0 or max(g.max(), p.max()) >= k):
        raise IndexError(f"label indices must be in [0, {k})")
    return np.bincount(g * k + p, minlength=k * k).reshape(k, k)


def _f1s(cm: np.ndarray) -> list[tuple[float, float, float, bool]]:
    """(precision, recall, F1, present in gold or predictions) per label of a confusion matrix."""
    out = []
    for i in range(cm.shape[0]):
        tp = int(cm[i, i])
        p_den, r_den = int(cm[:, i].sum()), int(cm[i, :].sum())
        prec = tp / p_den if p_den else 0.0
        rec = tp / r_den if r_den else 0.0
        out.append((prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0, bool(p_den or r_den)))
    return out


def macro_f1(cm: np.ndarray) -> float:
    """Macro-F1 of a confusion matrix over the labels present in gold or predictions."""
    f1s = [f1 for _, _, f1, present in _f1s(cm) if present]
    return float(np.mean(f1s)) if f1s else 0.0


def report(gold: Sequence[int], pred: Sequence[int]) -> Report:
    """All metrics for label indices `gold` vs `pred`.

    Macro-F1 averages over the labels present in gold or predictions (an absent label would
    otherwise count as F1 = 0 on small sets).
    """
    cm = confusion_matrix(gold, pred)
    n = int(cm.sum())
    per = {
        name: LabelScore(precision=prec, recall=rec, f1=f1, support=int(cm[i, :].sum()))
        for i, (name, (prec, rec, f1, _)) in enumerate(zip(LABELS, _f1s(cm), strict=True))
    }
    slice_n = int(cm[_SUP].sum() + cm[_CON].sum())
    right = int(cm[_SUP, _SUP] + cm[_CON, _CON])
    detected = int(cm[_SUP, _SUP] + cm[_SUP, _CON] + cm[_CON, _SUP] + cm[_CON, _CON])
    conflict = ConflictSlice(
        n=slice_n,
        accuracy=right / slice_n if slice_n else 0.0,
        detected=detected / slice_n if slice_n else 0.0,
        told_apart=right / detected if detected else 0.0,
        sup_as_con=int(cm[_SUP, _CON]),
        con_as_sup=int(cm[_CON, _SUP]),
    )
    return Report(
        n=n,
        accuracy=float(np.trace(cm) / n) if n else 0.0,
        macro_f1=macro_f1(cm),
        per_label=per,
        confusion=cm.tolist(),
        conflict=conflict,
    )
