"""End-to-end checks of the shipped model (models/default) on unambiguous pairs.

Skipped, with the reason, while models/default holds no trained model yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from writegate.classifier.types import Pair, Side

MODEL_DIR = Path(__file__).resolve().parents[1] / "models" / "default"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (MODEL_DIR / "writegate.json").is_file() or not (MODEL_DIR / "model.int8.onnx").is_file(),
                       reason=f"no shipped model yet: {MODEL_DIR} lacks writegate.json / model.int8.onnx "
                              "(train it with `writegate train --preset default`)"),
]

CASES = [
    ("Michelle owns the Acme account", "2026-03-01", "Acme was handed off to Marcus in June", "2026-06-20", "supersedes"),
    ("User was born in Lyon", "2026-01-01", "User was born in Marseille", "2026-04-01", "contradicts"),
    ("User prefers concise answers", "2026-01-01", "User's dog is named Biscuit", "2026-01-02", "unrelated"),
    ("User has a dog named Biscuit", "2026-01-01", "User also has a cat", "2026-02-01", "elaborates"),
    ("User works in EST", "2025-11-03", "User moved to London last month", "2026-05-02", "supersedes"),
    # a less specific restatement a month later (0.1.0 read it as supersedes)
    ("User prefers meetings 9-10am", "2025-11-03", "User likes to meet in the morning", "2025-12-01", "corroborates"),
]


@pytest.fixture(scope="module")
def clf():  # noqa: ANN201 - Classifier
    from writegate.classifier.model import Classifier

    return Classifier.load(MODEL_DIR)


def test_model_info(clf) -> None:  # noqa: ANN001
    assert clf.info.backend == "onnx" and clf.info.max_length == 128
    assert "test.macro_f1" in clf.info.metrics


@pytest.mark.parametrize(("e", "te", "n", "tn", "label"), CASES, ids=[c[4] + f"-{i}" for i, c in enumerate(CASES)])
def test_unambiguous_pairs(clf, e: str, te: str, n: str, tn: str, label: str) -> None:  # noqa: ANN001
    [pred] = clf.predict([Pair(existing=Side(text=e, observed_at=te), new=Side(text=n, observed_at=tn))])
    assert pred.label.value == label, pred.probabilities
    assert pred.probabilities[label] > 0.4


def test_same_texts_flip_with_dates(clf) -> None:  # noqa: ANN001
    """labels.md: the same two texts are supersedes later, contradicts on the same day."""
    e, n = "Michelle owns the Acme account", "Marcus owns the Acme account"
    later, same = clf.predict([
        Pair(existing=Side(text=e, observed_at="2026-03-01"), new=Side(text=n, observed_at="2026-09-01")),
        Pair(existing=Side(text=e, observed_at="2026-03-01"), new=Side(text=n, observed_at="2026-03-01")),
    ])
    assert later.label.value == "supersedes" and same.label.value == "contradicts"
