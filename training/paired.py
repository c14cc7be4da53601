"""Paired comparison of two models on the same labelled pairs: is the difference more than noise?

The gains between shipped models have been the size of what a change of training seed alone moves
(training/EXPERIMENTS.md), so a ship decision needs the difference *and* its uncertainty: a paired
bootstrap interval of the macro-F1 difference (pairs, or whole template families, resampled with
both models' predictions kept together) and McNemar's exact test on the pairs exactly one model
gets right (which treats pairs as independent, so it is the optimistic one).

What the interval covers: the sampling of *pairs and families* for two fixed models, not the
run-to-run variance of a *recipe*. A recipe rerun with only another data order (same data, same
initialisation, another `--data-seed`) has come out "significantly" worse than the first run
(training/EXPERIMENTS.md, the 0.6.0 recipe), though nothing but the order changed. So an
interval that excludes 0 says *this* model beats *that* one on such pairs; whether a recipe change
helps needs several runs per recipe.

Several sources (`compare_sources`): the bootstrap resamples pairs within each source and compares
the mean over sources of their macro-F1 (`training/sources.py`), so a large source does not drown a
small one.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier.labels import LABEL2ID, Label
from writegate.normalizer.errors import InputError
from writegate.training.metrics import confusion_matrix, macro_f1
from writegate.training.sources import conflict_accuracy, gold_macro_f1, stacked_confusion

_CONFLICT = (LABEL2ID[Label.SUPERSEDES.value], LABEL2ID[Label.CONTRADICTS.value])


class Interval(BaseModel):
    """A difference (model − baseline) with its paired-bootstrap confidence interval."""

    model: float
    baseline: float
    delta: float = Field(description="model − baseline on all pairs.")
    low: float = Field(description="Lower end of the bootstrap interval of delta.")
    high: float = Field(description="Upper end of the bootstrap interval of delta.")


class PairedComparison(BaseModel):
    """How a model compares with a baseline on the very same pairs."""

    n: int = Field(description="Pairs compared.")
    confidence: float = Field(description="Coverage of the bootstrap intervals, e.g. 0.95.")
    resamples: int = Field(description="Bootstrap resamples.")
    grouped: bool = Field(description="Whether whole groups (template families) were resampled rather than pairs.")
    macro_f1: Interval
    conflict_accuracy: Interval | None = Field(
        description="Exact accuracy on gold supersedes/contradicts; None without such pairs."
    )
    model_only_right: int = Field(description="Pairs the model gets right and the baseline wrong.")
    baseline_only_right: int = Field(description="Pairs the baseline gets right and the model wrong.")
    mcnemar_p: float = Field(description="Two-sided exact McNemar p-value on those discordant pairs.")

    @property
    def significant(self) -> bool:
        """Whether the macro-F1 interval excludes zero."""
        return self.macro_f1.low > 0 or self.macro_f1.high < 0


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for `b` and `c` discordant pairs (binomial, p = 1/2).

    Args:
        b: pairs only the first model gets right.
        c: pairs only the second model gets right.

    Returns:
        min(1, 2·P[X ≤ min(b, c)]) for X ~ Binomial(b + c, 1/2); 1.0 when there is no discordant pair.
    """
    if b < 0 or c < 0:
        raise InputError("discordant", f"counts must be non-negative, got {b} and {c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = Fraction(sum(comb(n, k) for k in range(min(b, c) + 1)), 2**n)  # exact: no underflow at large n
    return float(min(Fraction(1), 2 * tail))


def _macro_f1_of(gold: np.ndarray, pred: np.ndarray) -> float:
    return macro_f1(confusion_matrix(gold, pred))


def _interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def _resamples(n: int, groups: Sequence[str] | None, resamples: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Index arrays of bootstrap resamples: of pairs, or of whole groups when `groups` is given."""
    if groups is None:
        return list(rng.integers(0, n, size=(resamples, n)))
    members: dict[str, list[int]] = {}
    for i, grp in enumerate(groups):
        members.setdefault(grp, []).append(i)
    blocks = [np.asarray(v, dtype=np.int64) for v in members.values()]
    return [
        np.concatenate([blocks[j] for j in rng.integers(0, len(blocks), size=len(blocks))]) for _ in range(resamples)
    ]


def compare_predictions(
    gold: Sequence[int],
    model: Sequence[int],
    baseline: Sequence[int],
    groups: Sequence[str] | None = None,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairedComparison:
    """Compare two models' label indices on the same gold labels.

    Args:
        gold: gold label indices (LABELS order).
        model: the candidate model's predicted indices, one per gold label.
        baseline: the baseline's predicted indices, one per gold label.
        groups: a group per pair (the generator's template family): the bootstrap then resamples whole
            groups, since the errors of one held-out family rise and fall together; None resamples pairs.
        resamples: bootstrap resamples (both models' predictions resampled together).
        confidence: coverage of the intervals.
        seed: seed of the resampling (the result is deterministic).

    Returns:
        The macro-F1 and conflict-slice differences with intervals, and the McNemar test.
    """
    g, a, b = (np.asarray(x, dtype=np.int64) for x in (gold, model, baseline))
    if not (len(g) == len(a) == len(b)):
        raise InputError("predictions", f"need one prediction per gold label, got {len(g)}, {len(a)} and {len(b)}")
    if len(g) == 0:
        raise InputError("gold", "no pairs to compare")
    if groups is not None and len(groups) != len(g):
        raise InputError("groups", f"need one group per pair, got {len(groups)} for {len(g)} pairs")
    if resamples < 1:
        raise InputError("resamples", f"must be at least 1, got {resamples}")
    if not 0 < confidence < 1:
        raise InputError("confidence", f"must be in (0, 1), got {confidence}")
    draws = _resamples(len(g), groups, resamples, np.random.default_rng(seed))
    f1_a, f1_b = _macro_f1_of(g, a), _macro_f1_of(g, b)
    low, high = _interval(np.array([_macro_f1_of(g[i], a[i]) - _macro_f1_of(g[i], b[i]) for i in draws]), confidence)
    macro = Interval(model=f1_a, baseline=f1_b, delta=f1_a - f1_b, low=low, high=high)

    conflict = None
    right_a, right_b, in_slice = a == g, b == g, np.isin(g, _CONFLICT)
    if in_slice.any():
        acc_a, acc_b = float(right_a[in_slice].mean()), float(right_b[in_slice].mean())
        kept = [i[in_slice[i]] for i in draws]
        diffs = np.array([right_a[i].mean() - right_b[i].mean() for i in kept if len(i)])
        low_c, high_c = _interval(diffs, confidence)
        conflict = Interval(model=acc_a, baseline=acc_b, delta=acc_a - acc_b, low=low_c, high=high_c)

    only_a = int(np.sum(right_a & ~right_b))
    only_b = int(np.sum(~right_a & right_b))
    return PairedComparison(
        n=len(g),
        confidence=confidence,
        resamples=resamples,
        grouped=groups is not None,
        macro_f1=macro,
        conflict_accuracy=conflict,
        model_only_right=only_a,
        baseline_only_right=only_b,
        mcnemar_p=mcnemar_exact(only_a, only_b),
    )


class SourceDelta(BaseModel):
    """One source's paired difference (model − baseline)."""

    name: str
    pairs: int
    macro_f1: Interval = Field(description="Macro-F1 over the source's gold labels, with its bootstrap interval.")
    conflict_accuracy: Interval | None = Field(
        description="Conflict-slice accuracy; None without conflict pairs (or when no resample drew one)."
    )


class SourcesComparison(BaseModel):
    """How a model compares with a baseline on the same pairs of several sources, source by source."""

    n: int = Field(description="Pairs compared, all sources together.")
    confidence: float
    resamples: int
    sources: list[SourceDelta]
    mean_macro_f1: Interval = Field(description="Mean over sources of their macro-F1.")
    mean_conflict_accuracy: Interval | None = Field(
        description="Mean over the sources with conflict pairs of their conflict-slice accuracy; None without any."
    )
    model_only_right: int
    baseline_only_right: int
    mcnemar_p: float = Field(description="Two-sided exact McNemar p-value on the discordant pairs of all sources.")

    @property
    def significant(self) -> bool:
        """Whether the interval of the mean macro-F1 difference excludes zero."""
        return self.mean_macro_f1.low > 0 or self.mean_macro_f1.high < 0


def _interval_of(model: float, baseline: float, diffs: np.ndarray, confidence: float) -> Interval | None:
    """An Interval from bootstrap differences (NaN draws left out); None when no draw is left."""
    kept = diffs[~np.isnan(diffs)]
    if kept.size == 0:
        return None
    low, high = _interval(kept, confidence)
    return Interval(model=model, baseline=baseline, delta=model - baseline, low=low, high=high)


def _source_draws(
    g: np.ndarray, a: np.ndarray, b: np.ndarray, resamples: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per resample of one source's pairs: macro-F1 of both models, conflict accuracy of both (NaN: none drawn)."""
    idx = rng.integers(0, len(g), size=(resamples, len(g)))
    gi = g[idx]
    f1_a = gold_macro_f1(stacked_confusion(gi, a[idx]))
    f1_b = gold_macro_f1(stacked_confusion(gi, b[idx]))
    in_slice = np.isin(g, _CONFLICT)[idx]
    drawn = in_slice.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        acc_a = np.where(drawn > 0, ((a == g)[idx] & in_slice).sum(axis=1) / drawn, np.nan)
        acc_b = np.where(drawn > 0, ((b == g)[idx] & in_slice).sum(axis=1) / drawn, np.nan)
    return f1_a, f1_b, acc_a, acc_b


def compare_sources(
    names: Sequence[str],
    gold: Sequence[Sequence[int]],
    model: Sequence[Sequence[int]],
    baseline: Sequence[Sequence[int]],
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> SourcesComparison:
    """Compare two models source by source, and on the mean over sources (see `training/sources.py`).

    The bootstrap resamples pairs within each source (each source keeps its size), with both
    models' predictions kept together, recomputes each source's macro-F1 (over the labels with gold
    support in the resample) and conflict-slice accuracy, and takes their means. A resample that
    draws no conflict pair of some source is left out of that source's conflict interval and of the
    mean's.

    Args:
        names: one name per source.
        gold: per source, gold label indices (LABELS order).
        model: per source, the candidate model's predicted indices.
        baseline: per source, the baseline's predicted indices.
        resamples: bootstrap resamples.
        confidence: coverage of the intervals.
        seed: seed of the resampling (the result is deterministic).

    Returns:
        Per-source and mean differences with intervals, and McNemar's test over all pairs.

    Raises:
        InputError: mismatched lengths, an empty source, no source, or a bad `resamples`/`confidence`.
    """
    if not (len(names) == len(gold) == len(model) == len(baseline)):
        raise InputError(
            "sources",
            f"need one name, gold and two predictions per source, got {len(names)}, "
            f"{len(gold)}, {len(model)} and {len(baseline)}",
        )
    if not names:
        raise InputError("sources", "no source to compare")
    if resamples < 1:
        raise InputError("resamples", f"must be at least 1, got {resamples}")
    if not 0 < confidence < 1:
        raise InputError("confidence", f"must be in (0, 1), got {confidence}")
    rng = np.random.default_rng(seed)
    deltas: list[SourceDelta] = []
    f1_diffs: list[np.ndarray] = []
    conflict_diffs: list[np.ndarray] = []
    point_f1: list[tuple[float, float]] = []
    point_conflict: list[tuple[float, float]] = []
    only_a = only_b = 0
    for name, gs, ms, bs in zip(names, gold, model, baseline, strict=True):
        g, a, b = (np.asarray(x, dtype=np.int64) for x in (gs, ms, bs))
        if not (len(g) == len(a) == len(b)):
            raise InputError(
                f"sources.{name}", f"need one prediction per gold label, got {len(g)}, {len(a)} and {len(b)}"
            )
        if len(g) == 0:
            raise InputError(f"sources.{name}", "no pairs to compare")
        only_a += int(np.sum((a == g) & (b != g)))
        only_b += int(np.sum((a != g) & (b == g)))
        f1_a, f1_b = (float(gold_macro_f1(stacked_confusion(g, x))[0]) for x in (a, b))
        d_f1_a, d_f1_b, d_acc_a, d_acc_b = _source_draws(g, a, b, resamples, rng)
        f1_iv = _interval_of(f1_a, f1_b, d_f1_a - d_f1_b, confidence)
        assert f1_iv is not None  # every draw has a macro-F1
        acc_a, acc_b = conflict_accuracy(g, a), conflict_accuracy(g, b)
        conflict_iv = None
        if acc_a is not None and acc_b is not None:
            conflict_iv = _interval_of(acc_a, acc_b, d_acc_a - d_acc_b, confidence)
            point_conflict.append((acc_a, acc_b))
            conflict_diffs.append(d_acc_a - d_acc_b)
        deltas.append(SourceDelta(name=name, pairs=len(g), macro_f1=f1_iv, conflict_accuracy=conflict_iv))
        point_f1.append((f1_a, f1_b))
        f1_diffs.append(d_f1_a - d_f1_b)

    f1_model, f1_baseline = np.mean(point_f1, axis=0).tolist()
    mean_f1 = _interval_of(f1_model, f1_baseline, np.mean(f1_diffs, axis=0), confidence)
    assert mean_f1 is not None
    mean_conflict = None
    if point_conflict:  # NaN in any source leaves the draw out (np.mean propagates it)
        acc_model, acc_baseline = np.mean(point_conflict, axis=0).tolist()
        mean_conflict = _interval_of(acc_model, acc_baseline, np.mean(conflict_diffs, axis=0), confidence)
    return SourcesComparison(
        n=sum(d.pairs for d in deltas),
        confidence=confidence,
        resamples=resamples,
        sources=deltas,
        mean_macro_f1=mean_f1,
        mean_conflict_accuracy=mean_conflict,
        model_only_right=only_a,
        baseline_only_right=only_b,
        mcnemar_p=mcnemar_exact(only_a, only_b),
    )
