"""Paired model comparison: McNemar's exact test and the bootstrap intervals of the differences."""

from __future__ import annotations

import pytest

from writegate.classifier.labels import LABEL2ID
from writegate.errors import InputError
from writegate.training.paired import compare_predictions, mcnemar_exact

SUP, CON, UNR, COR = (LABEL2ID[x] for x in ("supersedes", "contradicts", "unrelated", "corroborates"))


@pytest.fixture
def stats() -> None:
    """scikit-learn and scipy compute the comparison (the `train` extra): the test is skipped without them."""
    pytest.importorskip("sklearn", reason="macro-F1 needs scikit-learn (the `train` extra)")
    pytest.importorskip("scipy", reason="McNemar's test needs scipy (the `train` extra)")


needs_stats = pytest.mark.usefixtures("stats")


@needs_stats
@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (0, 0, 1.0),
        (3, 3, 1.0),
        (10, 2, 2 * (1 + 12 + 66) / 4096),  # 2·P[X ≤ 2], X ~ Bin(12, 1/2)
        (2, 10, 2 * (1 + 12 + 66) / 4096),  # symmetric
        (20, 0, 2 / 2**20),
        (2000, 1000, None),  # large n: no underflow to 0, far below 1e-30
    ],
    ids=["none", "tied", "10-vs-2", "2-vs-10", "20-vs-0", "large"],
)
def test_mcnemar_exact(b: int, c: int, p: float | None) -> None:
    got = mcnemar_exact(b, c)
    if p is None:
        assert 0 < got < 1e-30
    else:
        assert got == pytest.approx(p)


@needs_stats
def test_identical_predictions_differ_by_nothing() -> None:
    gold = [SUP, CON, UNR, COR] * 10
    pred = [SUP, SUP, UNR, UNR] * 10
    cmp = compare_predictions(gold, pred, pred, resamples=200)
    assert cmp.macro_f1.delta == 0 and cmp.macro_f1.low == 0 and cmp.macro_f1.high == 0
    assert cmp.model_only_right == cmp.baseline_only_right == 0 and cmp.mcnemar_p == 1.0
    assert not cmp.significant


@needs_stats
def test_a_clearly_better_model_has_an_interval_above_zero() -> None:
    gold = [SUP, CON, UNR, COR] * 50
    worse = [UNR if i % 3 == 0 else g for i, g in enumerate(gold)]  # a third of the pairs wrong
    cmp = compare_predictions(gold, gold, worse, resamples=500)
    assert cmp.macro_f1.model == 1.0 and cmp.macro_f1.delta > 0 and cmp.macro_f1.low > 0 and cmp.significant
    assert cmp.conflict_accuracy is not None and cmp.conflict_accuracy.low > 0
    assert cmp.model_only_right == sum(1 for i, g in enumerate(gold) if i % 3 == 0 and g != UNR)
    assert cmp.baseline_only_right == 0 and cmp.mcnemar_p < 1e-6


@needs_stats
def test_resampling_whole_groups_widens_the_interval_when_errors_cluster() -> None:
    """All of the baseline's errors in two of twenty families: pairs look independent, families do not."""
    gold = [SUP, CON, UNR, COR, SUP] * 40
    groups = [f"fam{i // 10}" for i in range(len(gold))]
    baseline = [UNR if groups[i] in {"fam0", "fam1"} and g != UNR else g for i, g in enumerate(gold)]
    by_pair = compare_predictions(gold, gold, baseline, resamples=1000)
    by_family = compare_predictions(gold, gold, baseline, groups=groups, resamples=1000)
    assert by_family.grouped and not by_pair.grouped
    assert by_family.macro_f1.delta == by_pair.macro_f1.delta
    assert by_family.macro_f1.high - by_family.macro_f1.low > 1.5 * (by_pair.macro_f1.high - by_pair.macro_f1.low)


@needs_stats
def test_no_conflict_pairs_means_no_conflict_interval() -> None:
    cmp = compare_predictions([UNR, COR, UNR], [UNR, COR, COR], [UNR, UNR, UNR], resamples=50)
    assert cmp.conflict_accuracy is None


@needs_stats
def test_same_seed_same_interval() -> None:
    gold = [SUP, CON, UNR, COR] * 20
    a = [g if i % 5 else UNR for i, g in enumerate(gold)]
    b = [g if i % 7 else CON for i, g in enumerate(gold)]
    assert compare_predictions(gold, a, b, seed=3) == compare_predictions(gold, a, b, seed=3)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"model": [SUP]}, "predictions", "need one prediction per gold label, got 2, 1 and 2"),
        ({"gold": [], "model": [], "baseline": []}, "gold", "no pairs to compare"),
        ({"groups": ["a"]}, "groups", "need one group per pair, got 1 for 2 pairs"),
        ({"resamples": 0}, "resamples", "must be at least 1, got 0"),
        ({"confidence": 1.0}, "confidence", "must be in (0, 1), got 1.0"),
    ],
    ids=["lengths", "empty", "groups", "resamples", "confidence"],
)
def test_bad_arguments_name_the_field(kwargs: dict, field: str, message: str) -> None:
    args = {"gold": [SUP, CON], "model": [SUP, CON], "baseline": [SUP, SUP], **kwargs}
    with pytest.raises(InputError) as err:
        compare_predictions(**args)
    assert err.value.field == field and message in str(err.value)


def test_negative_discordant_counts_are_refused() -> None:
    with pytest.raises(InputError, match="must be non-negative"):
        mcnemar_exact(-1, 2)
