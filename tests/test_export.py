"""ONNX export (fp32 + int8) and parity against torch on the tiny model."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from writegate.api.normalizing import with_records
from writegate.classifier import columnar
from writegate.classifier.model import Classifier
from writegate.classifier.types import Pair, Side
from writegate.cli.main import main
from writegate.errors import InputError

pytest.importorskip("torch")

PAIRS = [
    ("Michelle owns the Acme account", "Acme was handed off to Marcus in June"),
    ("User prefers concise answers", "User's dog is named Biscuit"),
    ("User works in EST", "User has never been on Eastern time, she's always been in PST " * 6),
    ("prefers mornings", "likes 9-10am"),
]


def _batches(clf: Classifier) -> list:
    pairs = [
        Pair(existing=Side(text=e, observed_at="2026-03-01"), new=Side(text=n, observed_at="2026-04-02"))
        for e, n in PAIRS
    ]
    encoded = clf.encode(with_records(pairs))
    # several batch shapes: one pair, two short pairs (padding), all pairs (truncated to 128)
    rows = [range(1, 2), range(2), range(len(encoded))]
    return [columnar.gather([(encoded, i) for i in r]).batches[0].batch for r in rows]


def test_parity_fp32_and_int8(tiny_model_dir: Path) -> None:
    from writegate.training.export import parity

    clf = Classifier.load(tiny_model_dir, precision="fp32")
    batches = _batches(clf)
    assert len({b.input_ids.shape[1] for b in batches}) == 3  # dynamic sequence axis exercised
    r = parity(tiny_model_dir, batches)
    assert r.n == 1 + 2 + len(PAIRS)
    assert r.fp32_max_abs_diff < 1e-4
    assert r.int8_max_abs_diff is not None and r.int8_max_abs_diff < 0.5
    assert r.int8_argmax_agreement is not None and 0.0 <= r.int8_argmax_agreement <= 1.0


def test_export_cli_to_new_dir(tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in (
        "config.json",
        "model.safetensors",
        "writegate.json",
        "tokenizer.json",
        "tokenizer_config.json",
        "vocab.txt",
        "special_tokens_map.json",
    ):
        shutil.copy2(tiny_model_dir / name, src / name)
    out = tmp_path / "out"
    assert main(["export", "--model", str(src), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "model.onnx" in text and "model.int8.onnx" in text and "parity vs torch fp32" in text
    assert (out / "model.int8.onnx").stat().st_size < (out / "model.onnx").stat().st_size
    probe = with_records(
        [Pair(existing=Side(text="a b c", observed_at="2026-01-01"), new=Side(text="d e f", observed_at="2026-01-02"))]
    )
    a, _ = Classifier.load(out, precision="fp32").logits(probe)
    b, _ = Classifier.load(tiny_model_dir, precision="fp32").logits(probe)
    assert np.abs(a - b).max() < 1e-5


def test_export_requires_weights(tmp_path: Path) -> None:
    from writegate.training.export import check_model_dir

    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(InputError, match=r"model\.safetensors is missing"):
        check_model_dir(tmp_path)


def test_export_cli_missing_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--model", str(tmp_path / "nope")]) == 2
    assert "is not a directory" in capsys.readouterr().err


def _fp32_ffn_out_layers(path: Path) -> list[str]:
    import onnx

    return sorted(
        n.name.split("/")[4]  # /inner/bert/encoder/layer.N/output/dense/MatMul
        for n in onnx.load(str(path)).graph.node
        if n.op_type == "MatMul" and "/output/dense/" in n.name and "/attention/" not in n.name
    )


@pytest.mark.parametrize(
    ("layers", "kept"),
    [(0, []), (1, ["layer.0"]), (2, ["layer.0", "layer.1"]), ("all", ["layer.0", "layer.1"])],
)
def test_int8_can_keep_the_first_layers_ffn_outputs_fp32(
    layers: int | str, kept: list[str], tiny_model_dir: Path, tmp_path: Path
) -> None:
    from writegate.training.export import quantize_int8

    int8 = quantize_int8(tiny_model_dir / "model.onnx", tmp_path / "int8.onnx", fp32_ffn_layers=layers)
    assert _fp32_ffn_out_layers(int8) == kept  # the tiny model has two layers


def test_int8_rejects_more_fp32_layers_than_the_model_has(tiny_model_dir: Path, tmp_path: Path) -> None:
    from writegate.training.export import export_onnx, quantize_int8

    with pytest.raises(InputError, match=r"^--int8-fp32-ffn: must be all or a layer count from 1 to 2, got 3$"):
        quantize_int8(tiny_model_dir / "model.onnx", tmp_path / "int8.onnx", fp32_ffn_layers=3)
    with pytest.raises(InputError, match="from 1 to 2, got 3"):
        export_onnx(tiny_model_dir, tmp_path / "out", fp32_ffn_layers=3)
    assert not (tmp_path / "out").exists()  # checked before any work


def test_export_cli_keeps_layer_0_ffn_output_fp32(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["export", "--model", str(tiny_model_dir), "--out", str(out), "--smooth-alpha", "0.8"]
    assert main([*argv, "--int8-fp32-ffn", "1"]) == 0
    assert "int8: SmoothQuant α 0.8; layer 0's FFN output projection in fp32" in capsys.readouterr().out
    assert _fp32_ffn_out_layers(out / "model.int8.onnx") == ["layer.0"]
    assert main([*argv, "--int8-fp32-ffn"]) == 0  # bare: every layer
    assert "the FFN output projections of layers 0-1 in fp32" in capsys.readouterr().out
    assert _fp32_ffn_out_layers(out / "model.int8.onnx") == ["layer.0", "layer.1"]
    assert main([*argv, "--int8-fp32-ffn", "7"]) == 2
    assert "--int8-fp32-ffn: must be all or a layer count from 1 to 2, got 7" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--smooth-alpha", "1.5"], "--smooth-alpha: must be in [0, 1], got 1.5", id="alpha-too-big"),
        pytest.param(
            ["--smooth-alpha", "x"],
            "--smooth-alpha: must be auto or a number in [0, 1], got 'x'",
            id="alpha-not-a-number",
        ),
        pytest.param(["--smooth-alpha", "0.5", "--no-smooth"], "not allowed with argument", id="both-flags"),
        pytest.param(["--int8-fp32-ffn", "0"], "--int8-fp32-ffn: must be all or at least 1, got 0", id="no-layers"),
        pytest.param(
            ["--int8-fp32-ffn", "first"], "--int8-fp32-ffn: must be all or a layer count, got 'first'", id="not-a-count"
        ),
    ],
)
def test_export_cli_rejects_bad_flags(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["export", "--model", str(tmp_path), *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_export_without_tokenizer_names_the_file_and_the_way_out(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("config.json", "model.safetensors"):
        shutil.copy2(tiny_model_dir / name, tmp_path / name)
    assert main(["export", "--model", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "tokenizer.json is missing" in err and "--no-smooth" in err
    assert not (tmp_path / "out").exists()  # refused before any work
    assert main(["export", "--model", str(tmp_path), "--out", str(tmp_path / "plain"), "--no-smooth"]) == 0
    assert (tmp_path / "plain" / "model.int8.onnx").is_file()
