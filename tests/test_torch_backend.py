"""The torch backend (`classifier/backends/torch.py`): SDPA attention, the staged (pinned on CUDA) input
copy, and its errors. Skips without torch (the core venv); the CUDA tests skip without a CUDA device."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from writegate.classifier.backends.base import Batch
from writegate.errors import InputError

torch = pytest.importorskip("torch", reason="the torch backend needs torch (the `train` extra)")
pytest.importorskip("transformers", reason="the torch backend needs transformers (the `train` extra)")

from writegate.classifier.backends.torch import ATTENTION, TorchBackend  # noqa: E402

cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def padded_batch(model_dir: Path, lengths: list[int], seed: int = 0, dtype: type = np.int64) -> Batch:
    """Random pairs of these lengths, padded to the longest: [CLS] A [SEP] B [SEP] with token types, pad id 0."""
    vocab = json.loads((model_dir / "config.json").read_text())["vocab_size"]
    rng = np.random.default_rng(seed)
    width = max(lengths)
    ids = np.zeros((len(lengths), width), dtype=dtype)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, n in enumerate(lengths):
        ids[row, :n] = rng.integers(5, vocab, n)
        ids[row, 0], ids[row, n - 1] = 2, 3
        mask[row, :n] = 1
        types[row, n // 2 : n] = 1
    return Batch(ids, mask, types)


BATCHES = ([7, 19, 3, 12], [30], [5, 5, 5], [2, 17, 9, 25, 11, 4, 28])


def eager_logits(model_dir: Path, batch: Batch) -> np.ndarray:
    """The previous path: transformers' eager attention, fp32, on CPU."""
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(
        str(model_dir), dtype=torch.float32, attn_implementation="eager", local_files_only=True
    ).eval()
    with torch.inference_mode():
        out = model(
            input_ids=torch.from_numpy(batch.input_ids.astype(np.int64)),
            attention_mask=torch.from_numpy(batch.attention_mask.astype(np.int64)),
            token_type_ids=torch.from_numpy(batch.token_type_ids.astype(np.int64)),
        )
    return out.logits.float().numpy()


def test_loads_with_sdpa(tiny_model_dir: Path) -> None:
    backend = TorchBackend(tiny_model_dir, device="cpu")
    assert ATTENTION == "sdpa"
    assert backend.model.config._attn_implementation == "sdpa"
    assert backend.attention == "sdpa"
    assert backend.dtype == torch.float32 and backend.device.type == "cpu"
    assert not backend.staged  # CPU: the arrays are used in place, as before


@pytest.mark.parametrize("lengths", BATCHES, ids=lambda x: f"{len(x)}x{max(x)}")
def test_cpu_logits_equal_eager_and_onnx_fp32(tiny_model_dir: Path, lengths: list[int]) -> None:
    from writegate.classifier.backends.onnx import OnnxBackend

    batch = padded_batch(tiny_model_dir, lengths, seed=len(lengths))
    got = TorchBackend(tiny_model_dir, device="cpu").run(batch)
    assert got.dtype == np.float32 and got.shape == (len(lengths), 5)
    np.testing.assert_allclose(got, eager_logits(tiny_model_dir, batch), atol=1e-4, rtol=0)
    np.testing.assert_allclose(got, OnnxBackend(tiny_model_dir / "model.onnx").run(batch), atol=1e-4, rtol=0)


def test_padding_does_not_change_a_pair(tiny_model_dir: Path) -> None:
    """A pair's logits are the same alone and padded into a batch with a longer pair (the mask reaches SDPA)."""
    backend = TorchBackend(tiny_model_dir, device="cpu")
    batch = padded_batch(tiny_model_dir, [6, 30], seed=3)
    alone = Batch(batch.input_ids[:1, :6], batch.attention_mask[:1, :6], batch.token_type_ids[:1, :6])
    np.testing.assert_allclose(backend.run(batch)[:1], backend.run(alone), atol=1e-4, rtol=0)


def test_staged_copy_equals_direct(tiny_model_dir: Path) -> None:
    """The packed host buffer (pinned on CUDA) gives the same logits: shapes that shrink and grow past the
    buffer, int32 arrays cast on the way in."""
    direct = TorchBackend(tiny_model_dir, device="cpu")
    staged = TorchBackend(tiny_model_dir, device="cpu")
    staged.staged = True
    big = [128] * 300  # 3 × 300 × 128 int64: more than the first buffer holds
    for i, lengths in enumerate([*BATCHES, big, [4, 9]]):
        batch = padded_batch(tiny_model_dir, lengths, seed=i, dtype=np.int32 if i % 2 else np.int64)
        np.testing.assert_array_equal(staged.run(batch), direct.run(batch))
    assert staged._staging.buf.numel() >= 3 * 300 * 128


def test_run_many_equals_run_per_batch(tiny_model_dir: Path) -> None:
    """All of a window's batches queued before the first result is read (each in its own slice of the
    buffer) give each batch's own logits, and the buffer grows to hold them all."""
    backend = TorchBackend(tiny_model_dir, device="cpu")
    batches = [padded_batch(tiny_model_dir, lengths, seed=i) for i, lengths in enumerate([*BATCHES, [128] * 300])]
    want = [backend.run(b) for b in batches]
    for staged in (False, True):
        backend.staged = staged
        got = backend.run_many(batches)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
    assert backend._staging.buf.numel() >= sum(3 * b.n_tokens for b in batches)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"device": "tpu"}, "device: unknown device 'tpu' for torch; expected cpu, cuda or cuda:N"),
        ({"device": "cuda:x"}, "device: unknown device 'cuda:x'"),
        ({"device": "cpu", "precision": "int8"}, "precision: unknown precision 'int8' for torch"),
        ({"device": "cuda:99"}, "device: 'cuda:99' requested but torch sees"),
    ],
    ids=["tpu", "cuda-index", "int8", "cuda-99"],
)
def test_bad_device_or_precision(tiny_model_dir: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        TorchBackend(tiny_model_dir, **kwargs)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_cuda_without_cuda_is_a_clear_error(tiny_model_dir: Path) -> None:
    with pytest.raises(InputError, match="device: 'cuda' requested but torch sees no CUDA device"):
        TorchBackend(tiny_model_dir, device="cuda")


# -- CUDA ------------------------------------------------------------------------------------------


@cuda
def test_cuda_defaults_to_bf16_sdpa_pinned(tiny_model_dir: Path) -> None:
    backend = TorchBackend(tiny_model_dir, device="cuda")
    assert backend.dtype == torch.bfloat16 and backend.attention == "sdpa" and backend.staged
    out = backend.run(padded_batch(tiny_model_dir, [7, 19, 3]))
    assert out.dtype == np.float32 and out.shape == (3, 5)
    assert backend._staging.buf.is_pinned()


@cuda
@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_cuda_logits_match_cpu(tiny_model_dir: Path, precision: str) -> None:
    cpu = TorchBackend(tiny_model_dir, device="cpu")
    gpu = TorchBackend(tiny_model_dir, device="cuda", precision=precision)
    tol = 1e-3 if precision == "fp32" else 5e-2
    for i, lengths in enumerate(BATCHES):
        batch = padded_batch(tiny_model_dir, lengths, seed=i)
        np.testing.assert_allclose(gpu.run(batch), cpu.run(batch), atol=tol, rtol=0)


@cuda
def test_cuda_run_threads_keep_their_own_buffer(tiny_model_dir: Path) -> None:
    """The server's run threads call one backend at once: each stages its batches in its own buffer."""
    backend = TorchBackend(tiny_model_dir, device="cuda", precision="fp32")
    batches = [padded_batch(tiny_model_dir, [3 + (i % 40), 50, 9], seed=i) for i in range(64)]
    want = [backend.run(b) for b in batches]
    got: dict[int, np.ndarray] = {}

    def work(offset: int) -> None:
        for i in range(offset, len(batches), 4):
            got[i] = backend.run(batches[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, w in enumerate(want):
        np.testing.assert_allclose(got[i], w, atol=1e-5, rtol=0)
