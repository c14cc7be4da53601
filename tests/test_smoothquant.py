"""SmoothQuant before the int8 export: the scales, the fp32 equivalence, the exported graphs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from writegate.training import smoothquant as sq  # noqa: E402
from writegate.training.export import export_onnx, load_torch_fp32, torch_logits  # noqa: E402


@pytest.mark.parametrize(
    ("x_max", "w_max", "alpha", "expected"),
    [
        pytest.param([4.0, 1.0], [1.0, 1.0], 0.5, [2.0, 1.0], id="alpha-half-equal-weights"),
        pytest.param([16.0, 1.0], [1.0, 1.0], 0.75, [8.0, 1.0], id="alpha-0.75"),
        pytest.param([9.0], [4.0], 0.5, [1.5], id="balances-activation-and-weight"),
        pytest.param([5.0], [2.0], 1.0, [5.0], id="alpha-one-moves-everything"),
        pytest.param([0.0], [0.0], 0.5, [1.0], id="dead-channel-stays-finite"),
    ],
)
def test_smoothing_scale(x_max: list[float], w_max: list[float], alpha: float, expected: list[float]) -> None:
    got = sq.smoothing_scale(torch.tensor(x_max), torch.tensor(w_max), alpha)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)


@pytest.mark.parametrize("alpha", [-0.1, 1.5], ids=["negative", "above-one"])
def test_smoothing_scale_rejects_alpha_outside_unit_interval(alpha: float) -> None:
    with pytest.raises(ValueError, match=r"alpha must be in \[0, 1\]"):
        sq.smoothing_scale(torch.ones(2), torch.ones(2), alpha)


def test_smoothed_linear_computes_the_same_function() -> None:
    torch.manual_seed(0)
    lin = torch.nn.Linear(4, 3)
    x = torch.randn(5, 4) * torch.tensor([100.0, 1.0, 1.0, 0.01])
    ref = lin(x).detach()
    wrapped = sq.Smoothed(lin, torch.tensor([10.0, 1.0, 2.0, 0.1]))
    np.testing.assert_allclose(wrapped(x).detach().numpy(), ref.numpy(), rtol=1e-5, atol=1e-4)
    # the range moved: channel 0 of the input is 10× smaller, its weight column 10× larger
    assert float((x * wrapped.inv_scale)[:, 0].abs().max()) == pytest.approx(float(x[:, 0].abs().max()) / 10, rel=1e-5)


def test_smooth_keeps_the_logits_and_wraps_every_projection(tiny_model_dir: Path) -> None:
    model = load_torch_fp32(tiny_model_dir)
    batches = sq.calibration_batches(tiny_model_dir, n=32)
    assert batches and sum(b.size for b in batches) == 32
    before = [torch_logits(model, b) for b in batches]
    assert sq.smooth(model, batches, 0.75) == 2 * 6  # two layers × (q, k, v, attention out, FFN in, FFN out)
    assert isinstance(model.bert.encoder.layer[0].attention.self.query, sq.Smoothed)
    for b, ref in zip(batches, before, strict=True):
        assert np.abs(torch_logits(model, b) - ref).max() < 1e-4


def test_smooth_leaves_other_architectures_alone() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(3, 3))
    assert sq.encoder_layers(model) is None
    assert sq.smooth(model, [], 0.75) == 0
    assert isinstance(model[0], torch.nn.Linear)


def test_export_smooths_only_the_int8_graph(tiny_model_dir: Path, tmp_path: Path) -> None:
    import onnx

    plain, smoothed = tmp_path / "plain", tmp_path / "smoothed"
    export_onnx(tiny_model_dir, plain, smooth_alpha=None)
    export_onnx(tiny_model_dir, smoothed)

    def muls_into_matmuls(path: Path) -> int:
        graph = onnx.load(str(path)).graph
        mul_outputs = {o for n in graph.node if n.op_type == "Mul" for o in n.output}
        # the scale Mul feeds the activation quantizer (int8) or the MatMul (fp32)
        return sum(
            1
            for n in graph.node
            if n.op_type in ("MatMul", "DynamicQuantizeLinear", "MatMulInteger")
            and n.input
            and n.input[0] in mul_outputs
        )

    assert muls_into_matmuls(smoothed / "model.onnx") == muls_into_matmuls(plain / "model.onnx")  # fp32 stays plain
    assert muls_into_matmuls(smoothed / "model.int8.onnx") > muls_into_matmuls(plain / "model.int8.onnx")
    assert (smoothed / "model.onnx").read_bytes() == (plain / "model.onnx").read_bytes()


def test_onnx_export_leaves_the_model_in_eval_mode(tiny_model_dir: Path, tmp_path: Path) -> None:
    from writegate.training.export import trace_to_onnx

    model = load_torch_fp32(tiny_model_dir)
    trace_to_onnx(model, tmp_path / "m.onnx")
    assert not model.training  # a fresh wrapper is in training mode and export restores it, dropout included


def test_auto_alpha_keeps_the_candidate_that_agrees_best_with_fp32(
    tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from writegate.training import export

    scores = {0.7: 0.91, 0.75: 0.95, 0.8: 0.97, 0.85: 0.97, 0.9: 0.96}  # a tie at the top: nearest to 0.75 wins
    monkeypatch.setattr(
        export, "_selection_agreement", lambda model, model_dir, candidates: {a: scores[a] for a in candidates}
    )
    auto = export.export_onnx(tiny_model_dir, tmp_path / "auto")
    assert auto.smooth_alpha == 0.8 and auto.alpha_agreement == scores
    assert (
        "SmoothQuant α 0.8, chosen by int8 agreement with fp32 on 2048 generated pairs (0.7 91.00%" in auto.describe()
    )
    fixed = export.export_onnx(tiny_model_dir, tmp_path / "fixed", smooth_alpha=0.8)
    assert fixed.smooth_alpha == 0.8 and fixed.alpha_agreement == {}
    assert (tmp_path / "auto" / "model.int8.onnx").read_bytes() == (tmp_path / "fixed" / "model.int8.onnx").read_bytes()
    assert (
        export.export_onnx(tiny_model_dir, tmp_path / "plain", smooth_alpha=None).describe()
        == "plain int8 (no SmoothQuant)"
    )


def test_auto_alpha_measures_every_candidate_on_generated_pairs(tiny_model_dir: Path, tmp_path: Path) -> None:
    from writegate.training import export

    auto = export.export_onnx(tiny_model_dir, tmp_path / "auto")
    assert sorted(auto.alpha_agreement) == list(export.SMOOTH_ALPHAS)
    assert all(0.0 <= v <= 1.0 for v in auto.alpha_agreement.values())
    assert auto.alpha_agreement[auto.smooth_alpha] == max(auto.alpha_agreement.values())
