"""The vLLM backend's glue, against a fake `vllm` module that follows vLLM's documented interface.

The fake LLM does what vLLM's GPU model runner does with our requests: it rebuilds token types
from `extra_kwargs["compressed_token_type_ids"]` (ids = arange(len) >= k) and runs the model
(here: the torch backend on the tiny model), returning raw logits as `outputs.probs` when
`use_activation=False`. Nothing here ran on a real vLLM.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from writegate.classifier.backends.base import Batch


@dataclass
class FakePoolingParams:
    use_activation: bool | None = None
    extra_kwargs: dict[str, Any] | None = None


@dataclass
class FakeOutput:
    outputs: Any


@dataclass
class FakeLLM:
    model: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    honour_token_types: bool = True
    calls: list[tuple[list[dict], list[FakePoolingParams]]] = field(default_factory=list)

    def classify(self, prompts, *, pooling_params, use_tqdm=True):  # noqa: ANN001, ANN201
        from writegate.classifier.backends.torch import TorchBackend

        self.calls.append((prompts, pooling_params))
        ref = TorchBackend(Path(self.model), device="cpu", precision="fp32")
        out = []
        for prompt, params in zip(prompts, pooling_params, strict=True):
            ids = np.asarray([prompt["prompt_token_ids"]], dtype=np.int64)
            k = params.extra_kwargs["compressed_token_type_ids"] if self.honour_token_types else ids.shape[1]
            tt = (np.arange(ids.shape[1]) >= k).astype(np.int64)[None, :]
            logits = ref.run(Batch(input_ids=ids, attention_mask=np.ones_like(ids), token_type_ids=tt))[0]
            probs = logits if params.use_activation is False else np.exp(logits) / np.exp(logits).sum()
            out.append(FakeOutput(outputs=types.SimpleNamespace(probs=probs.tolist())))
        return out


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    built: dict[str, Any] = {"honour": True}

    def make_llm(model: str, **kwargs: Any) -> FakeLLM:
        llm = FakeLLM(model=model, kwargs=kwargs, honour_token_types=built["honour"])
        built["llm"] = llm
        return llm

    vllm = types.ModuleType("vllm")
    vllm.LLM = make_llm  # type: ignore[attr-defined]
    vllm.PoolingParams = FakePoolingParams  # type: ignore[attr-defined]
    inputs = types.ModuleType("vllm.inputs")
    inputs.TokensPrompt = dict  # type: ignore[attr-defined]  # a TypedDict in vLLM
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.inputs", inputs)
    return built


@pytest.mark.parametrize(
    ("types_", "expected"),
    [([0, 0, 0, 1, 1], 3), ([0, 0], 2), ([1, 1], 0), ([0, 1, 0], None), ([1, 0], None)],
    ids=["pair", "single-segment", "all-one", "three-segments", "reversed"],
)
def test_first_type_one(types_: list[int], expected: int | None) -> None:
    from writegate.classifier.backends.vllm import first_type_one

    if expected is None:
        with pytest.raises(ValueError, match="0…0 1…1"):
            first_type_one(types_)
    else:
        assert first_type_one(types_) == expected


def test_missing_vllm_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from writegate.classifier.backends.vllm import VllmBackend

    monkeypatch.setitem(sys.modules, "vllm", None)  # import fails
    with pytest.raises(RuntimeError, match=r"writegate\[gpu\].*--backend torch"):
        VllmBackend(tmp_path)


def test_requests_strip_padding_and_compress_token_types(fake_vllm: dict, tmp_path: Path) -> None:
    from writegate.classifier.backends.vllm import TOKEN_TYPES_KEY, VllmBackend

    backend = VllmBackend(tmp_path, max_length=64)
    kwargs = fake_vllm["llm"].kwargs
    assert (kwargs["runner"], kwargs["dtype"], kwargs["max_model_len"], kwargs["enable_prefix_caching"]) == (
        "pooling", "bfloat16", 64, False)
    batch = Batch(
        input_ids=np.array([[101, 7, 102, 8, 102, 0], [101, 5, 6, 102, 9, 102]]),
        attention_mask=np.array([[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1]]),
        token_type_ids=np.array([[0, 0, 0, 1, 1, 0], [0, 0, 0, 0, 1, 1]]),
    )
    prompts, params = backend.requests(batch)
    assert prompts == [{"prompt_token_ids": [101, 7, 102, 8, 102]}, {"prompt_token_ids": [101, 5, 6, 102, 9, 102]}]
    assert [p.extra_kwargs[TOKEN_TYPES_KEY] for p in params] == [3, 4]
    assert all(p.use_activation is False for p in params)


def test_vllm_matches_torch_and_passes_the_parity_check(fake_vllm: dict, tiny_model_dir: Path) -> None:
    from writegate.classifier.backends.torch import TorchBackend
    from writegate.classifier.backends.vllm import load_vllm_backend, probe_batch

    backend = load_vllm_backend(
        tiny_model_dir, reference=lambda: TorchBackend(tiny_model_dir, device="cpu", precision="fp32")
    )
    probe = probe_batch(tiny_model_dir, 128)
    got = backend.run(probe)
    want = TorchBackend(tiny_model_dir, device="cpu", precision="fp32").run(probe)
    np.testing.assert_allclose(got, want, atol=1e-5)


@pytest.fixture(scope="module")
def type_sensitive_model_dir(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model with a strong segment-B embedding: its labels depend on the token types."""
    import shutil

    import torch
    from transformers import AutoModelForSequenceClassification

    out = tmp_path_factory.mktemp("type_sensitive")
    for f in tiny_model_dir.iterdir():
        if f.suffix != ".onnx":
            shutil.copy2(f, out / f.name)
    model = AutoModelForSequenceClassification.from_pretrained(str(tiny_model_dir), dtype=torch.float32)
    with torch.no_grad():
        torch.manual_seed(1)
        model.bert.embeddings.token_type_embeddings.weight[1].normal_(0, 3.0)
        model.classifier.weight.mul_(10.0)
    model.save_pretrained(str(out), safe_serialization=True)
    return out


def test_a_vllm_that_ignores_token_types_is_refused(fake_vllm: dict, type_sensitive_model_dir: Path) -> None:
    from writegate.classifier.backends.torch import TorchBackend
    from writegate.classifier.backends.vllm import load_vllm_backend

    def ref() -> TorchBackend:
        return TorchBackend(type_sensitive_model_dir, device="cpu", precision="fp32")

    assert load_vllm_backend(type_sensitive_model_dir, reference=ref).name == "vllm"  # honoured: accepted
    fake_vllm["honour"] = False
    with pytest.raises(RuntimeError, match="refusing to serve it"):
        load_vllm_backend(type_sensitive_model_dir, reference=ref)
