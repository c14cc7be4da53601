"""Distillation: the loss, a teacher's probabilities read beside the pairs, and a run that learns from them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from helpers import QUICK_TRAIN, argv, small_data, write_jsonl

from writegate.classifier.labels import LABELS
from writegate.cli.main import main
from writegate.errors import InputError
from writegate.training.datafile import DataFileError, read_examples

torch = pytest.importorskip("torch", reason="distillation trains with torch (the `train` extra)")


# -- the loss -----------------------------------------------------------------------------------------
def _batch() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    logits = torch.tensor([[2.0, 0.5, -1.0, 0.0, 0.3], [0.1, 0.2, 1.5, -0.5, 0.0], [1.0, -1.0, 0.0, 0.5, 2.0]])
    labels = torch.tensor([0, -100, 4])  # the second pair has no gold label
    soft = torch.tensor([[0.7, 0.1, 0.1, 0.05, 0.05], [0.1, 0.1, 0.6, 0.1, 0.1], [0.0, 0.0, 0.0, 0.0, 0.0]])
    return logits, labels, soft  # the third pair has no teacher


def _ce(logits: torch.Tensor, label: int) -> float:
    return -float(torch.log_softmax(logits, -1)[label])


def _kl(p: list[float], logits: torch.Tensor, t: float) -> float:
    pt = [x ** (1 / t) for x in p]
    pt = [x / sum(pt) for x in pt]
    q = torch.log_softmax(logits / t, -1).tolist()
    return sum(a * (math.log(a) - b) for a, b in zip(pt, q, strict=True)) * t * t


@pytest.mark.parametrize(("weight", "temperature"), [(0.0, 1.0), (1.0, 1.0), (0.5, 1.0), (0.3, 2.0)])
def test_the_loss_mixes_cross_entropy_on_gold_pairs_with_kl_on_taught_pairs(weight: float, temperature: float) -> None:
    from writegate.training.distil import distil_loss

    logits, labels, soft = _batch()
    got = float(distil_loss(logits, labels, soft, weight=weight, temperature=temperature))
    ce = (_ce(logits[0], 0) + _ce(logits[2], 4)) / 2  # the gold pairs: 1 and 3
    kd = (_kl(soft[0].tolist(), logits[0], temperature) + _kl(soft[1].tolist(), logits[1], temperature)) / 2
    assert got == pytest.approx(weight * kd + (1 - weight) * ce, rel=1e-5)


def test_a_batch_with_one_kind_of_target_uses_that_term_alone() -> None:
    from writegate.training.distil import distil_loss

    logits, labels, soft = _batch()
    no_gold = torch.full_like(labels, -100)
    only_kd = float(distil_loss(logits, no_gold, soft, weight=0.2, temperature=1.0))
    expected = (_kl(soft[0].tolist(), logits[0], 1) + _kl(soft[1].tolist(), logits[1], 1)) / 2
    assert only_kd == pytest.approx(expected, rel=1e-5)
    only_ce = float(distil_loss(logits, labels, None, weight=0.9, temperature=1.0))
    assert only_ce == pytest.approx((_ce(logits[0], 0) + _ce(logits[2], 4)) / 2, rel=1e-5)
    leaf = logits.clone().requires_grad_()
    nothing = distil_loss(leaf, no_gold, torch.zeros_like(soft), weight=0.5, temperature=1.0)
    nothing.backward()  # nothing to learn: zero, and still a graph the trainer can step through
    assert float(nothing.detach()) == 0.0 and float(leaf.grad.abs().sum()) == 0.0


def test_a_student_that_matches_its_teacher_has_no_distillation_loss() -> None:
    from writegate.training.distil import distil_loss

    logits, _, _ = _batch()
    teacher = torch.softmax(logits, -1)
    assert float(distil_loss(logits, torch.full((3,), -100), teacher, weight=1.0, temperature=2.0)) == pytest.approx(
        0.0, abs=1e-6
    )


def test_the_trainer_takes_its_loss_from_the_batch_labels_and_soft_targets(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from transformers import TrainingArguments

    from writegate.training.distil import distil_loss, distil_trainer_class

    logits, labels, soft = _batch()
    seen: dict[str, object] = {}

    class Model(torch.nn.Module):
        config = SimpleNamespace(to_dict=dict, use_cache=False)

        def forward(self, **inputs: torch.Tensor) -> SimpleNamespace:
            seen.update(inputs)
            return SimpleNamespace(logits=logits)

    args = TrainingArguments(output_dir=str(tmp_path), use_cpu=True, label_smoothing_factor=0.1, report_to=[])
    trainer = distil_trainer_class()(model=Model(), args=args, distil_weight=0.4, distil_temperature=2.0)
    batch = {"input_ids": torch.ones(3, 4, dtype=torch.long), "labels": labels, "soft": soft}
    got = trainer.compute_loss(trainer.model, batch)
    assert set(seen) == {"input_ids"} and set(batch) == {"input_ids", "labels", "soft"}  # the batch stays whole
    want = distil_loss(logits, labels, soft, weight=0.4, temperature=2.0, label_smoothing=0.1)
    assert float(got) == pytest.approx(float(want))


# -- reading a teacher's probabilities -----------------------------------------------------------------
def _scores(label: str, p: float = 0.8) -> dict[str, float]:
    rest = (1 - p) / (len(LABELS) - 1)
    return {name: p if name == label else rest for name in LABELS}


def test_a_pair_without_a_gold_label_takes_the_teachers_top_label(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in small_data(tmp_path / "d.jsonl", 2).read_text().splitlines()]
    del rows[1]["label"]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    soft = write_jsonl(
        tmp_path / "soft.jsonl",
        [
            {"id": "p0", "label": "unrelated", "scores": _scores("unrelated")},
            {"id": "p1", "scores": _scores("contradicts")},
        ],
    )
    gold, taught = read_examples(data, soft)
    assert (gold.label.value, gold.gold, gold.soft) == ("supersedes", True, tuple(_scores("unrelated").values()))
    assert (taught.label.value, taught.gold) == ("contradicts", False)
    assert "label" not in taught.to_json() and gold.to_json()["label"] == "supersedes"
    with pytest.raises(DataFileError, match=r"line 2: label: is missing"):
        read_examples(data)  # without a teacher, a label is needed


@pytest.mark.parametrize(
    ("soft_rows", "message"),
    [
        ([{"id": "p0", "scores": _scores("unrelated")}], r"line 2: soft: .*soft\.jsonl has no line 2"),
        (
            [{"id": f"p{i}", "scores": _scores("unrelated")} for i in range(3)],
            r"^soft: .*soft\.jsonl has 3 lines for the 2 of .*data\.jsonl$",
        ),
        (
            [{"id": "p0", "scores": _scores("unrelated")}, {"id": "p9", "scores": _scores("unrelated")}],
            r"line 2: soft: line 2 of .*soft\.jsonl is for id 'p9', not 'p1'",
        ),
        (
            [
                {"id": "p0", "scores": _scores("unrelated")},
                {"id": "p1", "scores": _scores("unrelated", 0.9) | {"unrelated": 0.5}},
            ],
            r"line 2: soft: line 2 of .*: scores: the probabilities sum to 0\.6000, not 1",
        ),
        (
            [{"id": "p0", "scores": _scores("unrelated")}, {"error": "line 2: text: is empty", "line": 2}],
            r"line 2: soft: line 2 of .*: scores: the teacher failed on this pair: line 2: text: is empty",
        ),
        (
            [{"id": "p0", "scores": _scores("unrelated")}, {"id": "p1", "scores": {"unrelated": 1.0}}],
            r"line 2: soft: .*scores: must map each of unrelated, corroborates, elaborates, contradicts, supersedes",
        ),
    ],
    ids=["too-few-lines", "too-many-lines", "another-id", "not-summing-to-1", "an-error-line", "labels-missing"],
)
def test_a_teachers_file_that_does_not_fit_the_pairs_is_refused(
    tmp_path: Path, soft_rows: list[object], message: str
) -> None:
    data = small_data(tmp_path / "data.jsonl", 2)
    soft = write_jsonl(tmp_path / "soft.jsonl", soft_rows)
    with pytest.raises(InputError, match=message):
        read_examples(data, soft)


# -- a distilled run ---------------------------------------------------------------------------------
def test_a_student_learns_from_a_teachers_classify_output(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pool = small_data(tmp_path / "pool.jsonl", 24)
    assert main(["classify", "--input", str(pool), "--model", str(tiny_model_dir), "--no-fusion"]) == 0
    soft = tmp_path / "pool.scores.jsonl"
    soft.write_text(capsys.readouterr().out, encoding="utf-8")
    rows = [json.loads(line) for line in pool.read_text().splitlines()]
    for row in rows[::2]:
        del row["label"]  # half the pool is unlabelled: learnt from the teacher alone
    write_jsonl(pool, rows)
    out = tmp_path / "student"
    dev = small_data(tmp_path / "dev.jsonl", 10)
    flags = {"data": pool, "soft": soft, "dev": dev, "base": tiny_model_dir, "out": out, **QUICK_TRAIN}
    assert main(argv("train", **flags, distil_weight=0.7, distil_temperature=2.0)) == 0
    assert (out / "model.int8.onnx").is_file() and (out / "model.safetensors").is_file()
    card = (out / "MODEL_CARD.md").read_text()
    assert "- distilled (training/distil.py): the teacher's probabilities `pool.scores.jsonl`" in card
    assert "weight 0.7, temperature 2.0; 12 of the 24 training pairs have no gold label" in card


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"dev": None}, "--soft: needs --data (the pairs it scores) and --dev (gold-labelled pairs to select on)"),
        ({"distil_weight": 1.5}, "--distil-weight: input should be less than or equal to 1 (got 1.5)"),
        ({"distil_temperature": 0}, "--distil-temperature: input should be greater than 0 (got 0.0)"),
    ],
    ids=["no-dev", "weight-above-1", "zero-temperature"],
)
def test_distillation_flags_are_checked_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: dict[str, object], message: str
) -> None:
    data = small_data(tmp_path / "train.jsonl", 8)
    base = {"data": data, "soft": data, "dev": data, "out": tmp_path / "o"}
    assert main(argv("train", **{k: v for k, v in (base | flags).items() if v is not None})) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
