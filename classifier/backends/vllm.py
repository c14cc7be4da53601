"""vLLM backend (extra `gpu`): our BertForSequenceClassification through vLLM's pooling runner.

How it serves a 5-label sentence-pair classifier correctly (docs/serving.md, "vLLM"; what has
been run where: docs/backends.md):

- `LLM(model=dir, runner="pooling")` loads vLLM's own `BertForSequenceClassification`, whose
  `classify` pooler is CLS → BertPooler (dense + tanh) → classifier, as in transformers;
- prompts go in pre-tokenized (`TokensPrompt(prompt_token_ids=...)`), so the tokenizer and the
  input format stay ours;
- token types: vLLM has no token_type_ids field on a prompt. Its GPU model runner rebuilds them
  from `PoolingParams.extra_kwargs["compressed_token_type_ids"]` = the index of the first type-1
  token (its own cross-encoder scoring path sets this key). Our layout `[CLS] A [SEP] B [SEP]` has
  types 0…0 1…1, exactly that shape; any other shape is refused, never approximated;
- `use_activation=False` returns raw logits (we apply our temperature softmax and fusion).

Because `extra_kwargs` is documented by vLLM as internal, the backend does not trust it blindly:
at load it runs a probe batch (our real input format) through vLLM and through the torch
backend on the same device and refuses to start unless every argmax matches, the
probabilities agree within `PARITY_TOLERANCE`, and the token types change the logits as they
do in torch (real types vs all-zero types). A vLLM that dropped or misread the token types
fails that check instead of serving wrong labels.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from datetime import UTC
from pathlib import Path
from typing import Any

import numpy as np

from writegate.classifier.backends.base import Backend, Batch
from writegate.errors import InputError

TOKEN_TYPES_KEY = "compressed_token_type_ids"
PARITY_TOLERANCE = 0.02
"""Max |p_vllm − p_torch| per label on the probe batch.

Loose enough for bf16 rounding, tight enough that a misread input fails.
"""
LOGIT_TOLERANCE = 0.1
"""Max error (logits) of the token types' effect on the probe batch: loose enough for bf16 rounding of the logits."""
_DTYPES = {
    "bf16": "bfloat16",
    "bfloat16": "bfloat16",
    "fp16": "float16",
    "float16": "float16",
    "fp32": "float32",
    "float32": "float32",
}


def import_vllm() -> Any:
    """Import vllm or raise a RuntimeError saying how to get it."""
    try:
        return importlib.import_module("vllm")
    except ImportError as exc:
        raise RuntimeError(
            f"the vllm backend is not available: it needs the `vllm` package ({exc}), which the `gpu` extra "
            "installs: pip install 'writegate[gpu]' on a CUDA host (vLLM pins its own CUDA torch and transformers); "
            "or use --backend torch --device cuda"
        ) from None


def first_type_one(token_types: Sequence[int]) -> int:
    """Index of the first type-1 token when the types are 0…0 1…1 (len when all 0).

    Raises:
        ValueError: any other shape (vLLM can carry only this one).
    """
    types = np.asarray(token_types)
    ones = np.flatnonzero(types == 1)
    k = int(ones[0]) if ones.size else len(types)
    if not (np.all(types[:k] == 0) and np.all(types[k:] == 1)):
        raise ValueError("vLLM carries token types only as 0…0 1…1; got another pattern")
    return k


class VllmBackend(Backend):
    """Runs batches through `vllm.LLM.classify` with pre-tokenized prompts.

    Args:
        model_dir: the model directory (config.json + model.safetensors + tokenizer files).
        precision: bf16 (default), fp16 or fp32.
        max_length: max tokens per pair (the model's `max_length`).
        gpu_memory_utilization: share of GPU memory vLLM may take (the encoder needs little).
        llm: an already built `vllm.LLM` (tests pass a fake).
    """

    name = "vllm"

    def __init__(
        self,
        model_dir: Path,
        *,
        precision: str | None = None,
        max_length: int = 128,
        gpu_memory_utilization: float = 0.3,
        llm: Any = None,
    ) -> None:
        vllm = import_vllm()
        precision = precision or "bf16"
        if precision not in _DTYPES:
            raise InputError("precision", f"unknown precision {precision!r} for vllm; expected bf16, fp16 or fp32")
        self._pooling_params = vllm.PoolingParams
        self._tokens_prompt = importlib.import_module("vllm.inputs").TokensPrompt
        self.llm = llm or vllm.LLM(
            model=str(model_dir),
            runner="pooling",
            dtype=_DTYPES[precision],
            max_model_len=max_length,
            enable_prefix_caching=False,  # same ids with other token types must never share a cache
            gpu_memory_utilization=gpu_memory_utilization,
        )

    def requests(self, batch: Batch) -> tuple[list[Any], list[Any]]:
        """One TokensPrompt and one PoolingParams per row (padding stripped)."""
        prompts, params = [], []
        for ids, mask, types in zip(batch.input_ids, batch.attention_mask, batch.token_type_ids, strict=True):
            n = int(mask.sum())
            prompts.append(self._tokens_prompt(prompt_token_ids=[int(t) for t in ids[:n]]))
            params.append(
                self._pooling_params(use_activation=False, extra_kwargs={TOKEN_TYPES_KEY: first_type_one(types[:n])})
            )
        return prompts, params

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32, in row order."""
        prompts, params = self.requests(batch)
        outputs = self.llm.classify(prompts, pooling_params=params, use_tqdm=False)
        logits = np.asarray([np.asarray(o.outputs.probs, dtype=np.float32) for o in outputs], dtype=np.float32)
        if logits.shape != (batch.size, 5):
            raise RuntimeError(f"vllm returned logits of shape {logits.shape}, expected ({batch.size}, 5)")
        return logits


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def check_parity(
    candidate: Backend,
    reference: Backend,
    probe: Batch,
    tolerance: float = PARITY_TOLERANCE,
    logit_tolerance: float = LOGIT_TOLERANCE,
) -> float:
    """Raise RuntimeError unless `candidate` labels `probe` like `reference`; return the max prob diff.

    Two checks: (1) same argmax and probabilities within `tolerance`; (2) the effect of the token
    types (logits with the real types minus logits with all-zero types) matches the reference's
    within max(`logit_tolerance`, 25 %) — a backend that drops the types has no effect at all.
    """
    zeroed = Batch(probe.input_ids, probe.attention_mask, np.zeros_like(probe.token_type_ids))
    got, want = candidate.run(probe), reference.run(probe)
    p_got, p_want = _softmax(got), _softmax(want)
    diff = float(np.abs(p_got - p_want).max())
    same = bool((p_got.argmax(axis=1) == p_want.argmax(axis=1)).all())
    if not same or diff > tolerance:
        raise RuntimeError(
            f"the {candidate.name} backend disagrees with {reference.name} on the probe batch "
            f"(labels equal: {same}, max probability difference {diff:.4f} > {tolerance}); refusing to serve it"
        )
    effect_want = want - reference.run(zeroed)
    effect_got = got - candidate.run(zeroed)
    err, scale = float(np.abs(effect_got - effect_want).max()), float(np.abs(effect_want).max())
    if err > max(logit_tolerance, 0.25 * scale):
        raise RuntimeError(
            f"the {candidate.name} backend does not apply the token types like {reference.name} "
            f"(type effect off by {err:.4f} of {scale:.4f} logits); refusing to serve it"
        )
    return diff


def probe_batch(model_dir: Path, max_length: int) -> Batch:
    """A batch in our real input format (dates, gaps, both segments) to check a backend with."""
    from datetime import datetime

    from writegate.classifier import columnar, features, modeldir

    meta_file = Path(model_dir) / modeldir.META_FILE
    input_format = (
        modeldir.read_meta(model_dir).input_format_version if meta_file.is_file() else features.INPUT_FORMAT_VERSION
    )
    encoder = features.PairEncoder.from_file(Path(model_dir) / "tokenizer.json", max_length, input_format)
    t0, t1 = datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 6, 20, tzinfo=UTC)
    pairs = [
        ("Michelle owns the Acme account", "Acme was handed off to Marcus in June"),
        ("User prefers morning meetings", "User prefers meetings 9-10am on Tuesdays"),
        ("User works in EST", "User has never been on Eastern time, she's always been in PST"),
        ("User prefers concise answers", "User's dog is named Biscuit"),
        ("User was born in Lyon", "User was born in Marseille"),
    ]
    texts = [features.render(a, t0, b, t1, None, encoder.input_format) for a, b in pairs]
    encoded = encoder.encode(texts)
    return columnar.collate_rows([ids for ids, _ in encoded], [types.count(0) for _, types in encoded], encoder.pad_id)


def load_vllm_backend(
    model_dir: Path,
    *,
    device: str | None = None,
    precision: str | None = None,
    max_length: int | None = None,
    reference: Callable[[], Backend] | None = None,
) -> VllmBackend:
    """Build the vLLM backend and check it against the torch backend before serving with it.

    Raises:
        RuntimeError: vllm is missing, or it disagrees with torch on the probe batch.
    """
    from writegate.classifier import modeldir

    model_dir = Path(model_dir)
    meta = modeldir.read_meta(model_dir)
    modeldir.require_file(model_dir, modeldir.CONFIG)
    modeldir.require_file(model_dir, modeldir.SAFETENSORS)
    length = max_length or meta.max_length
    backend = VllmBackend(model_dir, precision=precision, max_length=length)
    if reference is None:
        from writegate.classifier.backends.torch import TorchBackend

        def reference() -> Backend:
            return TorchBackend(model_dir, device=device or "cuda", precision="fp32")

    check_parity(backend, reference(), probe_batch(model_dir, length))
    return backend
