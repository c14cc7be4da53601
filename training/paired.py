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

McNemar's test is scipy's exact binomial test. The resampling is numpy's, not
`scipy.stats.bootstrap`: that one resamples single observations (not whole template families),
needs two or more per sample (a source may hold one pair), gives a NaN interval when some draw
has no conflict pair (those draws are left out here), and has no way to average draw j over the
sources or to pool the harm counts across them. Each draw's statistics are vectorised numpy
(`metrics.macro_f1`, `sources.stacked_confusion`), as scikit-learn scores one set per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier.labels import LABEL2ID, Label
from writegate.errors import InputError
from writegate.training.metrics import macro_f1, macro_f1_score
from writegate.training.sources import (
    CONFLICT_IDS,
    SAFE_IDS,
    conflict_accuracy,
    harm_counts,
    stacked_confusion,
)

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
    false_invalidation_rate: Interval | None = Field(
        default=None, description="Safe pairs predicted supersedes/contradicts ÷ safe pairs; None without any."
    )
    retiring_precision: Interval | None = Field(
        default=None, description="Correct supersedes/contradicts predictions ÷ such predictions; None without any."
    )
    model_only_right: int = Field(description="Pairs the model gets right and the baseline wrong.")
    baseline_only_right: int = Field(description="Pairs the baseline gets right and the model wrong.")
    mcnemar_p: float = Field(description="Two-sided exact McNemar p-value on those discordant pairs.")

    @property
    def significant(self) -> bool:
        """Whether the macro-F1 interval excludes zero."""
        return self.macro_f1.low > 0 or self.macro_f1.high < 0


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for `b` and `c` discordant pairs (`scipy.stats.binomtest`, p = 1/2).

    Args:
        b: pairs only the first model gets right.
        c: pairs only the second model gets right.

    Returns:
        min(1, 2·P[X ≤ min(b, c)]) for X ~ Binomial(b + c, 1/2); 1.0 when there is no discordant pair.

    Raises:
        InputError: a negative count.
    """
    if b < 0 or c < 0:
        raise InputError("discordant", f"counts must be non-negative, got {b} and {c}")
    if b + c == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(min(b, c), b + c, 0.5).pvalue)


def _macro_f1_of(gold: np.ndarray, pred: np.ndarray) -> float:
    """Macro-F1 of one bootstrap draw (labels present in gold or predictions)."""
    return float(macro_f1(stacked_confusion(gold, pred))[0])


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
    f1_a, f1_b = macro_f1_score(g, a), macro_f1_score(g, b)
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
    fir, precision = _harm_intervals(g, a, b, draws, confidence)
    return PairedComparison(
        n=len(g),
        confidence=confidence,
        resamples=resamples,
        grouped=groups is not None,
        macro_f1=macro,
        conflict_accuracy=conflict,
        false_invalidation_rate=fir,
        retiring_precision=precision,
        model_only_right=only_a,
        baseline_only_right=only_b,
        mcnemar_p=mcnemar_exact(only_a, only_b),
    )


HarmPoint = tuple[int, int, int, int]
"""`sources.harm_counts` of one model: safe pairs, of them retired, retiring labels, of them right."""


@dataclass(frozen=True)
class HarmDraws:
    """Per bootstrap draw of one source's pairs, both models' harm counts (see `sources.harm_counts`).

    Each field holds one count per draw: `safe` pairs drawn, model a's and b's `false_` retirements
    among them, their `retiring_` labels, and of those the `right_` ones.
    """

    safe: np.ndarray
    false_a: np.ndarray
    false_b: np.ndarray
    retiring_a: np.ndarray
    retiring_b: np.ndarray
    right_a: np.ndarray
    right_b: np.ndarray

    @classmethod
    def of(cls, g: np.ndarray, a: np.ndarray, b: np.ndarray, idx: np.ndarray) -> HarmDraws:
        """The counts of gold `g` and predictions `a`, `b` over the draws `idx` (one row of pair indices each)."""
        safe, gold_is_pred_a, gold_is_pred_b = np.isin(g, SAFE_IDS), g == a, g == b
        retiring_a, retiring_b = np.isin(a, CONFLICT_IDS), np.isin(b, CONFLICT_IDS)
        return cls(
            safe=safe[idx].sum(axis=-1),
            false_a=(safe & retiring_a)[idx].sum(axis=-1),
            false_b=(safe & retiring_b)[idx].sum(axis=-1),
            retiring_a=retiring_a[idx].sum(axis=-1),
            retiring_b=retiring_b[idx].sum(axis=-1),
            right_a=(retiring_a & gold_is_pred_a)[idx].sum(axis=-1),
            right_b=(retiring_b & gold_is_pred_b)[idx].sum(axis=-1),
        )

    def __add__(self, other: HarmDraws) -> HarmDraws:
        return HarmDraws(*(x + y for x, y in zip(astuple_shallow(self), astuple_shallow(other), strict=True)))

    @staticmethod
    def stacked(parts: Sequence[HarmDraws]) -> HarmDraws:
        """The draws of every part, one after another."""
        return HarmDraws(*(np.concatenate(column) for column in zip(*map(astuple_shallow, parts), strict=True)))

    def intervals(
        self, point: tuple[HarmPoint, HarmPoint], confidence: float
    ) -> tuple[Interval | None, Interval | None]:
        """FIR and retiring-precision intervals; `point`: both models' `harm_counts` on all the pairs."""
        (safe, false_a, ret_a, ok_a), (_, false_b, ret_b, ok_b) = point
        with np.errstate(invalid="ignore", divide="ignore"):
            fir_d = np.where(self.safe > 0, (self.false_a - self.false_b) / self.safe, np.nan)
            prec_d = np.where(
                (self.retiring_a > 0) & (self.retiring_b > 0),
                self.right_a / self.retiring_a - self.right_b / self.retiring_b,
                np.nan,
            )
        fir = _interval_of(false_a / safe, false_b / safe, fir_d, confidence) if safe else None
        prec = _interval_of(ok_a / ret_a, ok_b / ret_b, prec_d, confidence) if ret_a and ret_b else None
        return fir, prec


def astuple_shallow(draws: HarmDraws) -> tuple[np.ndarray, ...]:
    """The fields in declaration order (`dataclasses.astuple` would deep-copy the arrays)."""
    return tuple(getattr(draws, f.name) for f in fields(draws))


def _harm_intervals(
    g: np.ndarray, a: np.ndarray, b: np.ndarray, draws: list[np.ndarray], confidence: float
) -> tuple[Interval | None, Interval | None]:
    """FIR and retiring-precision intervals of one set of pairs over index draws of any lengths."""
    stacked = HarmDraws.stacked([HarmDraws.of(g, a, b, i[None, :]) for i in draws])
    return stacked.intervals((harm_counts(g, a), harm_counts(g, b)), confidence)


class SourceDelta(BaseModel):
    """One source's paired difference (model − baseline)."""

    name: str
    pairs: int
    macro_f1: Interval = Field(description="Macro-F1 over the source's gold labels, with its bootstrap interval.")
    conflict_accuracy: Interval | None = Field(
        description="Conflict-slice accuracy; None without conflict pairs (or when no resample drew one)."
    )
    false_invalidation_rate: Interval | None = Field(default=None, description="None without safe pairs.")
    retiring_precision: Interval | None = Field(default=None, description="None without retiring predictions.")


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
    false_invalidation_rate: Interval | None = Field(
        default=None, description="Pooled over all sources' safe pairs (resampled within each source)."
    )
    retiring_precision: Interval | None = Field(
        default=None, description="Pooled over all sources' supersedes/contradicts predictions."
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
    g: np.ndarray, a: np.ndarray, b: np.ndarray, idx: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per resample `idx` row of one source's pairs: macro-F1 of both models, conflict accuracy of both (NaN: none drawn)."""
    gi = g[idx]
    f1_a = macro_f1(stacked_confusion(gi, a[idx]), gold_only=True)
    f1_b = macro_f1(stacked_confusion(gi, b[idx]), gold_only=True)
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
    _check_sources(names, gold, model, baseline, resamples, confidence)
    rng = np.random.default_rng(seed)
    each = [
        _compare_source(name, gs, ms, bs, rng, resamples, confidence)
        for name, gs, ms, bs in zip(names, gold, model, baseline, strict=True)
    ]
    f1_model, f1_baseline = np.mean([c.f1 for c in each], axis=0).tolist()
    mean_f1 = _interval_of(f1_model, f1_baseline, np.mean([c.f1_draws for c in each], axis=0), confidence)
    if mean_f1 is None:
        raise AssertionError("every draw has a macro-F1")
    conflicts = [
        (c.conflict, c.conflict_draws) for c in each if c.conflict is not None and c.conflict_draws is not None
    ]
    mean_conflict = None
    if conflicts:  # NaN in any source leaves the draw out (np.mean propagates it)
        acc_model, acc_baseline = np.mean([point for point, _ in conflicts], axis=0).tolist()
        draws = np.mean([d for _, d in conflicts], axis=0)
        mean_conflict = _interval_of(acc_model, acc_baseline, draws, confidence)
    harm = each[0].harm
    for c in each[1:]:
        harm = harm + c.harm
    points = np.asarray([c.harm_point for c in each], dtype=np.int64).sum(axis=0)
    pooled = (_harm_point(points[0]), _harm_point(points[1]))
    fir, precision = harm.intervals(pooled, confidence)
    only_a, only_b = sum(c.only_a for c in each), sum(c.only_b for c in each)
    return SourcesComparison(
        n=sum(c.delta.pairs for c in each),
        confidence=confidence,
        resamples=resamples,
        sources=[c.delta for c in each],
        mean_macro_f1=mean_f1,
        mean_conflict_accuracy=mean_conflict,
        false_invalidation_rate=fir,
        retiring_precision=precision,
        model_only_right=only_a,
        baseline_only_right=only_b,
        mcnemar_p=mcnemar_exact(only_a, only_b),
    )


def _harm_point(row: np.ndarray) -> HarmPoint:
    safe, false, retiring, right = (int(x) for x in row)
    return safe, false, retiring, right


def _check_sources(
    names: Sequence[str],
    gold: Sequence[Sequence[int]],
    model: Sequence[Sequence[int]],
    baseline: Sequence[Sequence[int]],
    resamples: int,
    confidence: float,
) -> None:
    """InputError unless there are sources, one name and three label lists each, and sane settings."""
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


@dataclass(frozen=True)
class _SourceResult:
    """One source's comparison and the draws the means over sources are made of."""

    delta: SourceDelta
    f1: tuple[float, float]
    f1_draws: np.ndarray
    conflict: tuple[float, float] | None
    conflict_draws: np.ndarray | None
    harm: HarmDraws
    harm_point: tuple[HarmPoint, HarmPoint]
    only_a: int
    only_b: int


def _compare_source(
    name: str,
    gs: Sequence[int],
    ms: Sequence[int],
    bs: Sequence[int],
    rng: np.random.Generator,
    resamples: int,
    confidence: float,
) -> _SourceResult:
    """Compare the two models on one source (its pairs resampled `resamples` times)."""
    g, a, b = (np.asarray(x, dtype=np.int64) for x in (gs, ms, bs))
    if not (len(g) == len(a) == len(b)):
        raise InputError(f"sources.{name}", f"need one prediction per gold label, got {len(g)}, {len(a)} and {len(b)}")
    if len(g) == 0:
        raise InputError(f"sources.{name}", "no pairs to compare")
    f1_a, f1_b = (macro_f1_score(g, x, gold_only=True) for x in (a, b))
    idx = rng.integers(0, len(g), size=(resamples, len(g)))
    d_f1_a, d_f1_b, d_acc_a, d_acc_b = _source_draws(g, a, b, idx)
    harm = HarmDraws.of(g, a, b, idx)
    point = (harm_counts(g, a), harm_counts(g, b))
    fir_iv, prec_iv = harm.intervals(point, confidence)
    f1_iv = _interval_of(f1_a, f1_b, d_f1_a - d_f1_b, confidence)
    if f1_iv is None:
        raise AssertionError("every draw has a macro-F1")
    acc_a, acc_b = conflict_accuracy(g, a), conflict_accuracy(g, b)
    conflict = None if acc_a is None or acc_b is None else (acc_a, acc_b)
    conflict_iv = None if conflict is None else _interval_of(*conflict, d_acc_a - d_acc_b, confidence)
    return _SourceResult(
        delta=SourceDelta(
            name=name,
            pairs=len(g),
            macro_f1=f1_iv,
            conflict_accuracy=conflict_iv,
            false_invalidation_rate=fir_iv,
            retiring_precision=prec_iv,
        ),
        f1=(f1_a, f1_b),
        f1_draws=d_f1_a - d_f1_b,
        conflict=conflict,
        conflict_draws=None if conflict is None else d_acc_a - d_acc_b,
        harm=harm,
        harm_point=point,
        only_a=int(np.sum((a == g) & (b != g))),
        only_b=int(np.sum((a != g) & (b == g))),
    )
