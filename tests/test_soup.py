"""Model soups: data seeds, weight averaging, the `soup` CLI, the preset path, and packaging pieces."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from writegate.classifier import modeldir
from writegate.server.cli import main
from writegate.training.model_card import card_section
from test_training import small_data

pytest.importorskip("torch", reason="soups need torch (the `train` extra)")


def _train(base: Path, data: Path, dev: Path, out: Path, *extra: str) -> None:
    argv = ["train", "--data", str(data), "--dev", str(dev), "--test", str(dev), "--dev-pairs", str(dev),
            "--base", str(base), "--out", str(out), "--max-steps", "3", "--eval-steps", "3", "--batch-size", "4",
            "--lr", "1e-3", "--quiet", "--drop-fp32-onnx", *extra]
    assert main(argv) == 0


def _weights(model_dir: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return {k: v.astype(np.float32) for k, v in load_file(str(model_dir / modeldir.SAFETENSORS)).items()}


@pytest.fixture(scope="module")
def members(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, Path]:
    """Two tiny runs with the same seed and other data orders, plus the data they share."""
    tmp = tmp_path_factory.mktemp("soup")
    data, dev = small_data(tmp / "train.jsonl", 24), small_data(tmp / "dev.jsonl", 10)
    a, b = tmp / "a", tmp / "b"
    _train(tiny_model_dir, data, dev, a, "--version", "1.0.0-a")
    _train(tiny_model_dir, data, dev, b, "--version", "1.0.0-b", "--data-seed", "7")
    return a, b, data, dev


def test_a_data_seed_changes_the_run_and_the_same_seeds_repeat_it(tiny_model_dir: Path, tmp_path: Path,
                                                                   members: tuple[Path, Path, Path, Path]) -> None:
    a, b, data, dev = members
    again = tmp_path / "again"
    _train(tiny_model_dir, data, dev, again, "--data-seed", "7")
    wa, wb, wagain = _weights(a), _weights(b), _weights(again)
    assert any(not np.array_equal(wa[k], wb[k]) for k in wa)  # another data order, another model
    assert all(np.array_equal(wb[k], wagain[k]) for k in wb)  # same seed + data seed: the same model
    assert "shuffled with data seed 7" in (b / modeldir.MODEL_CARD).read_text()
    assert "(file order)" in (a / modeldir.MODEL_CARD).read_text()


def test_soup_cli_averages_the_members_and_documents_them(members: tuple[Path, Path, Path, Path],
                                                          tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, _, dev = members
    out = tmp_path / "soup"
    assert main(["soup", "--models", str(a), str(b), "--dev", str(dev), "--test", str(dev),
                 "--dev-pairs", str(dev), "--out", str(out), "--quiet"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metrics"]["soup.members"] == 2 and result["temperature"] > 0
    for name in (modeldir.ONNX_INT8, modeldir.ONNX_FP32, modeldir.SAFETENSORS, modeldir.META_FILE,
                 modeldir.MODEL_CARD, *modeldir.TOKENIZER_FILES):
        assert (out / name).is_file(), name
    wa, wb, ws = _weights(a), _weights(b), _weights(out)
    for k in ws:  # the fp16-saved average of the fp16 members
        np.testing.assert_allclose(ws[k], (wa[k] + wb[k]) / 2, rtol=2e-3, atol=1e-4, err_msg=k)
    meta = modeldir.read_meta(out)
    assert meta.version == "1.0.0-a-soup" and "test.macro_f1" in meta.metrics and "dev_pairs.macro_f1" in meta.metrics
    card = (out / modeldir.MODEL_CARD).read_text()
    assert "model soup) of 2 fine-tuning runs" in card and "- command: `writegate" in card
    assert "- member 1: `writegate-minilm-l6 1.0.0-a`" in card and "- member 2: `writegate-minilm-l6 1.0.0-b`" in card
    assert "shuffled with data seed 7" in card and "### test" in card  # the members' own lines, then metrics

    from writegate.classifier.model import Classifier

    assert Classifier.load(out).info.version == "1.0.0-a-soup"


def _copy_with_meta(src: Path, dst: Path, **update: object) -> Path:
    shutil.copytree(src, dst)
    meta = modeldir.read_meta(dst).model_copy(update=update)
    modeldir.write_meta(dst, meta)
    return dst


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("one", "a soup needs at least two model dirs, got 1"),
        ("twice", "the same model dir is given twice"),
        ("missing", "is not a directory"),
        ("max_length", "has max_length 64"),
        ("no_weights", "model.safetensors is missing"),
        ("shapes", "not the same architecture"),
        ("vocabulary", "another tokenizer vocabulary"),
        ("out_is_member", "is one of the members"),
    ],
    ids=["one-member", "same-dir-twice", "missing-dir", "other-max-length", "no-weights", "other-weights", "other-vocabulary",
         "out-is-a-member"],
)
def test_soup_cli_rejects_members_that_cannot_be_averaged(case: str, message: str, tmp_path: Path,
                                                          members: tuple[Path, Path, Path, Path],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    a, b, _, dev = members
    out = tmp_path / "soup"
    if case == "one":
        models = [a]
    elif case == "twice":
        models = [a, a]
    elif case == "missing":
        models = [a, tmp_path / "nope"]
    elif case == "max_length":
        models = [a, _copy_with_meta(b, tmp_path / "b64", max_length=64)]
    elif case == "no_weights":
        c = _copy_with_meta(b, tmp_path / "c")
        (c / modeldir.SAFETENSORS).unlink()
        models = [a, c]
    elif case == "shapes":
        from safetensors.torch import load_file, save_file

        other = _copy_with_meta(b, tmp_path / "other")
        weights = load_file(str(other / modeldir.SAFETENSORS))
        weights.pop("classifier.bias")
        save_file(weights, str(other / modeldir.SAFETENSORS), metadata={"format": "pt"})
        models = [a, other]
    elif case == "vocabulary":
        other = _copy_with_meta(b, tmp_path / "other")
        tok = json.loads((other / modeldir.TOKENIZER).read_text(encoding="utf-8"))
        vocab = tok["model"]["vocab"]
        vocab["zzzextra"] = len(vocab)
        (other / modeldir.TOKENIZER).write_text(json.dumps(tok), encoding="utf-8")
        models = [a, other]
    else:
        models, out = [a, b], b
    assert main(["soup", "--models", *map(str, models), "--dev", str(dev), "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    if case != "out_is_member":
        assert not out.exists()


def test_train_with_soup_data_seeds_ships_the_average(tiny_model_dir: Path, tmp_path: Path,
                                                      members: tuple[Path, Path, Path, Path]) -> None:
    _, _, data, dev = members
    out, work = tmp_path / "model", tmp_path / "work"
    _train(tiny_model_dir, data, dev, out, "--soup-data-seeds", "7", "--work-dir", str(work), "--version", "2.0.0")
    m1, m2 = work / "members" / "m1", work / "members" / "m2"
    assert modeldir.read_meta(m1).version == "2.0.0-m1" and modeldir.read_meta(m2).version == "2.0.0-m2"
    assert "shuffled with data seed 7" in (m2 / modeldir.MODEL_CARD).read_text()
    meta = modeldir.read_meta(out)
    assert meta.version == "2.0.0" and meta.metrics["soup.members"] == 2
    assert meta.metrics["train.seconds"] == pytest.approx(
        modeldir.read_meta(m1).metrics["train.seconds"] + modeldir.read_meta(m2).metrics["train.seconds"], abs=0.2)
    assert not (out / modeldir.ONNX_FP32).exists()  # --drop-fp32-onnx reaches the soup


def test_train_soup_needs_a_fixed_dev_split(tiny_model_dir: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = small_data(tmp_path / "d.jsonl", 12)
    assert main(["train", "--data", str(data), "--base", str(tiny_model_dir), "--out", str(tmp_path / "o"),
                 "--soup-data-seeds", "7"]) == 2
    assert "dev: a soup needs a fixed dev split for every member" in capsys.readouterr().err


def test_predict_logits_is_independent_of_padding(tiny_model_dir: Path) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification

    from writegate.training.package import PairDataset, predict_logits

    model = AutoModelForSequenceClassification.from_pretrained(str(tiny_model_dir), dtype=torch.float32)
    model.train()  # dropout on: predict_logits must switch it off, then restore the mode
    rows = [{"input_ids": [101] + [1000 + i] * n + [102], "token_type_ids": [0] * (n + 2),
             "attention_mask": [1] * (n + 2), "labels": 0} for i, n in enumerate((3, 9, 1, 5))]
    batched = predict_logits(model, PairDataset(rows), pad_id=0, batch_size=4)
    alone = np.concatenate([predict_logits(model, PairDataset([r]), pad_id=0) for r in rows])
    assert batched.shape == (4, 5)
    np.testing.assert_allclose(batched, alone, atol=1e-5)
    assert model.training is True


def test_card_section_stops_at_the_next_heading_of_its_level(tmp_path: Path) -> None:
    card = tmp_path / "card.md"
    card.write_text("# m\n\n## How it was made\n- a\n\n### sub\n- b\n## Metrics\n- c\n", encoding="utf-8")
    assert card_section(card, "## How it was made") == ["- a", "### sub", "- b"]
    assert card_section(card, "## Files") == []
    assert card_section(tmp_path / "absent.md", "## How it was made") == []
