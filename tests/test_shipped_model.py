"""End-to-end checks of the shipped model (models/default) on unambiguous pairs.

Skipped, with the reason, while models/default holds no trained model yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import DESIGN_EXAMPLES, example_ids

from writegate.api.normalizing import with_records
from writegate.classifier.types import Pair, Side

MODEL_DIR = Path(__file__).resolve().parents[1] / "models" / "default"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (MODEL_DIR / "writegate.json").is_file() or not (MODEL_DIR / "model.int8.onnx").is_file(),
        reason=f"no shipped model yet: {MODEL_DIR} lacks writegate.json / model.int8.onnx "
        "(train it with `writegate train --preset default`)",
    ),
]

CASES = [
    *DESIGN_EXAMPLES,
    ("User has a dog named Biscuit", "2026-01-01", "User also has a cat", "2026-02-01", "elaborates"),
    # a less specific restatement a month later (0.1.0 read it as supersedes)
    ("User prefers meetings 9-10am", "2025-11-03", "User likes to meet in the morning", "2025-12-01", "corroborates"),
]


@pytest.fixture(scope="module")
def clf():
    from writegate.classifier.model import Classifier

    return Classifier.load(MODEL_DIR)


def test_model_info(clf) -> None:
    assert clf.info.backend == "onnx" and clf.info.max_length == 128
    assert "test.macro_f1" in clf.info.metrics


@pytest.mark.parametrize(("e", "te", "n", "tn", "label"), CASES, ids=example_ids(CASES))
def test_unambiguous_pairs(clf, e: str, te: str, n: str, tn: str, label: str) -> None:
    [pred] = clf.predict(with_records([Pair(existing=Side(text=e, observed_at=te), new=Side(text=n, observed_at=tn))]))
    assert pred.label.value == label, pred.probabilities
    assert pred.probabilities[label] > 0.4


def test_same_texts_flip_with_dates(clf) -> None:
    """labels.md: the same two texts are supersedes later, contradicts on the same day."""
    e, n = "Michelle owns the Acme account", "Marcus owns the Acme account"
    later, same = clf.predict(
        with_records(
            [
                Pair(existing=Side(text=e, observed_at="2026-03-01"), new=Side(text=n, observed_at="2026-09-01")),
                Pair(existing=Side(text=e, observed_at="2026-03-01"), new=Side(text=n, observed_at="2026-03-01")),
            ]
        )
    )
    assert later.label.value == "supersedes" and same.label.value == "contradicts"


@pytest.fixture(scope="module")
def held_out_batches(clf):
    """The test splits of two 24000-pair generated sets (seeds 13 and 14: 4,630 held-out pairs), encoded,
    in length-sorted batches of 64.

    Two splits, not one: on 2,282 pairs one label is 0.04 points and the 99% bar read noise (0.27.0:
    98.95% / 99.33% / 99.17% on seeds 13 / 14 / 15, 99.15% over the three, the same with the normalizer
    before and after issue 33; seed 13 alone moved by three pairs when the normalizer changed).
    """
    pytest.importorskip("faker", reason="the held-out pairs come from the pair generator (the `train` extra)")
    from writegate.training.data import generate as gen
    from writegate.training.datafile import parse_example

    rows = gen.split(gen.generate(24000, 13))["test"] + gen.split(gen.generate(24000, 14))["test"]
    prepared = clf.prepare(with_records(parse_example(r, i + 1).pair for i, r in enumerate(rows)), 64)
    return [b.batch for b in prepared.batches]


def test_int8_agrees_with_torch_fp32(clf, held_out_batches) -> None:
    """int8 vs fp32 top-label agreement on held-out pairs.

    The issue's target, 99%, on these 4,630 pairs: the shipped 0.28.0 int8 (layer 0's FFN output in fp32)
    has 99.16%, its plain int8 export 98.77%, below the bar (a plain int8 export of 0.4.0 had 98.5% of 779 pairs).
    """
    pytest.importorskip("torch")
    import numpy as np

    from writegate.training.export import load_torch_fp32, torch_logits

    fp32 = load_torch_fp32(MODEL_DIR)  # the shipped fp16 weights, run in fp32
    agree = sum(int(np.sum(clf.backend.run(b).argmax(1) == torch_logits(fp32, b).argmax(1))) for b in held_out_batches)
    assert agree / sum(b.size for b in held_out_batches) >= 0.99


def test_int8_labels_barely_depend_on_batch_mates(clf, held_out_batches) -> None:
    """Dynamic int8 scales each activation by its batch's range: a pair's label may move with its batch mates.

    On these 4,630 pairs 0.7% of the shipped 0.28.0 int8's labels change between a batch of 64 and the
    pair alone (0.22.0, on 2,282 pairs: 0.4%; 0.9.0: 0.5%, 0.8.0: 0.7%; on 779 pairs 0.5.0 had 0.5%, its plain int8
    export 1.0%, and 0.3.0's plain int8 2.1% on its test split).
    """
    import numpy as np

    from writegate.classifier.backends.base import Batch

    agree = n = 0
    for b in held_out_batches:
        together = clf.backend.run(b).argmax(1)
        lengths = b.attention_mask.sum(1)
        alone = [
            clf.backend.run(
                Batch(
                    b.input_ids[i : i + 1, :n_i], b.attention_mask[i : i + 1, :n_i], b.token_type_ids[i : i + 1, :n_i]
                )
            )[0].argmax()  # its own length: no padding
            for i, n_i in enumerate(lengths)
        ]
        agree += int(np.sum(together == np.asarray(alone)))
        n += b.size
    assert agree / n >= 0.99
