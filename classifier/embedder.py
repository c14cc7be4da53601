"""Sentence embeddings for finding candidates by meaning: all-MiniLM-L6-v2 as an int8 ONNX encoder.

The embedding is sentence-transformers' own for the base: the encoder's last hidden state averaged
over the attention mask, then L2-normalized, so the dot product of two rows is their cosine
similarity. It runs on the core install (onnxruntime, tokenizers, numpy; no torch).

The directory (`models/embedder/`, shipped; `writegate export-embedder` rebuilds it):
    model.int8.onnx   the encoder (inputs input_ids, attention_mask[, token_type_ids];
                      output last_hidden_state [n, L, dim]), dynamically quantized to int8
    tokenizer.json    the base's WordPiece tokenizer
    embedder.json     base name, dim, max_length, pooling, the ONNX file's sha256, and how the
                      int8 embeddings agree with the fp32 torch ones (`EmbedderMeta`)

`Embedder.embed` is three steps, the outer two testable without the model: `tokenize` (pre:
padded ids and mask), `Embedder.run` (core: the session) and `pool` (post: mask-mean-pool, normalize).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from writegate.errors import InputError, first_error

if TYPE_CHECKING:
    from tokenizers import Tokenizer

META_FILE = "embedder.json"
ONNX_FILE = "model.int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
FILES: tuple[str, ...] = (ONNX_FILE, TOKENIZER_FILE, META_FILE)
"""Everything an embedder directory holds."""
TOKENIZE_BATCH = 256
"""Texts per tokenizer call in `embed`."""
EMBEDDER_HELP = "embedder directory (default: the shipped models/embedder that the writegate package carries)"


def default_embedder_dir() -> Path:
    """The shipped embedder: `models/embedder` beside the `classifier` package folder.

    Found like `classifier.modeldir` finds `models/default`: an editable install finds the
    checkout's folder, a wheel carries it as package data (`writegate.models.embedder`),
    installed as `site-packages/writegate/models/embedder` beside `writegate/classifier`.
    """
    import writegate.classifier

    return Path(writegate.classifier.__file__).resolve().parents[1] / "models" / "embedder"


class EmbedderMeta(BaseModel):
    """`embedder.json`: what running the encoder needs besides the weights, and how it was checked."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, description="The embedder's name, e.g. `all-minilm-l6-v2-int8`.")
    base: str = Field(min_length=1, description="The base model the encoder was exported from.")
    dim: int = Field(ge=1, description="Embedding dimension.")
    max_length: int = Field(ge=8, le=512, description="Max tokens per text, [CLS] and [SEP] included.")
    pooling: str = Field(pattern="^mean$", description="How token states become one vector (mean over the mask).")
    normalize: bool = Field(default=True, description="Rows are L2-normalized (always true here).")
    onnx_sha256: str = Field(pattern="^[0-9a-f]{64}$", description=f"sha256 of {ONNX_FILE}.")
    agreement: dict[str, float] = Field(
        default_factory=dict, description="int8 vs torch fp32: cosine, neighbour overlap (flat name → value)."
    )
    agreement_texts: str = Field(default="", description="The texts `agreement` was measured on.")


def read_meta(path: Path) -> EmbedderMeta:
    """Read and validate `path/embedder.json`.

    Raises:
        InputError: `embedder`: the directory, the file or a field is missing or wrong (the message names the path).
    """
    if not path.is_dir():
        shipped = " (the shipped embedder is missing from this install)" if path == default_embedder_dir() else ""
        raise InputError("embedder", f"{path} is not a directory{shipped}; pass --embedder DIR")
    meta_path = _require(path, META_FILE)
    try:
        return EmbedderMeta.model_validate(json.loads(meta_path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("embedder", f"{meta_path} is not valid JSON: {exc}") from None
    except ValidationError as exc:
        first = first_error(exc)
        raise InputError("embedder", f"{meta_path}: field {first.dotted or '(root)'}: {first.message}") from None


def verify(path: Path | None = None) -> EmbedderMeta:
    """Check an embedder directory (None: the shipped one) without loading it: its files, its
    `embedder.json`, and the ONNX file's sha256 against the recorded one.

    Raises:
        InputError: `embedder`: as `Embedder.load`.
    """
    path = Path(path) if path is not None else default_embedder_dir()
    meta = read_meta(path)
    onnx_path = _require(path, ONNX_FILE)
    _require(path, TOKENIZER_FILE)
    digest = file_sha256(onnx_path)
    if digest != meta.onnx_sha256:
        raise InputError(
            "embedder", f"{onnx_path} has sha256 {digest}, {META_FILE} records {meta.onnx_sha256} (corrupt?)"
        )
    return meta


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _require(path: Path, name: str) -> Path:
    file = path / name
    if not file.is_file():
        raise InputError("embedder", f"{file} is missing (embedder directory {path} is incomplete)")
    return file


def load_tokenizer(path: Path, max_length: int) -> Tokenizer:
    """`tokenizer.json` with truncation to `max_length` and no padding (`tokenize` pads).

    Raises:
        InputError: `embedder`: the file is missing or not a tokenizer.
    """
    from tokenizers import Tokenizer

    file = _require(path, TOKENIZER_FILE)
    try:
        tokenizer = Tokenizer.from_file(str(file))
    except Exception as exc:  # tokenizers raises its own Exception subclass for every parse error
        raise InputError("embedder", f"{file} is not a tokenizer: {exc}") from None
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length)
    return tokenizer


def tokenize(tokenizer: Tokenizer, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Pre: ids and attention mask, int64 [n, L], padded with 0 to the longest text of `texts`.

    `tokenizer` adds [CLS]/[SEP] and truncates (as `load_tokenizer` set it up).
    """
    encs = tokenizer.encode_batch(list(texts))
    width = max((len(e.ids) for e in encs), default=0)
    ids = np.zeros((len(encs), width), dtype=np.int64)
    mask = np.zeros((len(encs), width), dtype=np.int64)
    for i, enc in enumerate(encs):
        ids[i, : len(enc.ids)] = enc.ids
        mask[i, : len(enc.ids)] = 1
    return ids, mask


def pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Post: the mean of each row's token states over its mask, L2-normalized; float32 [n, dim].

    A row whose mask is all zero (never produced by `tokenize`) comes out as zeros, not NaN.
    """
    weights = mask.astype(np.float32)[:, :, None]
    summed = (hidden.astype(np.float32) * weights).sum(axis=1)
    mean = summed / np.maximum(weights.sum(axis=1), 1e-9)
    norm = np.linalg.norm(mean, axis=1, keepdims=True)
    return (mean / np.maximum(norm, 1e-12)).astype(np.float32)


class Embedder:
    """The int8 ONNX sentence encoder and its tokenizer; `embed` gives unit-length float32 rows.

    Thread-safe: onnxruntime sessions and `tokenizers` tokenizers may be shared across threads.

    Attributes:
        dim: embedding dimension.
        max_length: max tokens per text; longer texts are truncated.
        name: the embedder's name (`embedder.json`).
        path: the directory it was loaded from.
    """

    def __init__(self, path: Path, meta: EmbedderMeta, tokenizer: Tokenizer, session: Any) -> None:
        self.path = path
        self.meta = meta
        self.dim: int = meta.dim
        self.max_length: int = meta.max_length
        self.name: str = meta.name
        self._tokenizer = tokenizer
        self._session = session
        self._inputs = {i.name for i in session.get_inputs()}

    @classmethod
    def load(cls, path: Path | None = None, threads: int | None = None) -> Embedder:
        """Load an embedder directory (None: the shipped `models/embedder`).

        Args:
            path: the directory.
            threads: onnxruntime intra-op threads (None: its default, all cores).

        Raises:
            InputError: `embedder`: a file is missing, `embedder.json` is wrong, the ONNX file's
                sha256 is not the one recorded, or the file does not load; the message names the path.
        """
        import onnxruntime as ort

        path = Path(path) if path is not None else default_embedder_dir()
        meta = verify(path)
        onnx_path = path / ONNX_FILE
        tokenizer = load_tokenizer(path, meta.max_length)
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.enable_mem_pattern = False  # a new [n, L] nearly every run (as the classifier's backend)
        if threads is not None:
            opts.intra_op_num_threads = int(threads)
            opts.inter_op_num_threads = 1
        try:
            session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own Exception subclasses for a bad graph
            raise InputError("embedder", f"{onnx_path} does not load: {exc}") from None
        return cls(path, meta, tokenizer, session)

    def run(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Core: the encoder's last hidden state, float32 [n, L, dim]."""
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})
        return np.asarray(hidden, dtype=np.float32)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts`: float32 [len(texts), dim], each row of unit length ([] gives [0, dim]).

        Texts are tokenized `TOKENIZE_BATCH` at a time and the session runs on one text at a
        time. The int8 graph quantizes its activations per tensor, with a scale taken from the
        whole batch, so in a batch the other texts (and the padding) would move a text's vector
        (cosine 0.96 to 0.99 with the vector of the text run alone); run alone, a text gets one
        vector wherever it is embedded (relabel's engines, a resumed run, the service), at about
        1.5 times the cost per text of batches of 16.
        """
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), TOKENIZE_BATCH):
            ids, mask = tokenize(self._tokenizer, texts[start : start + TOKENIZE_BATCH])
            for i, n in enumerate(mask.sum(axis=1).tolist()):
                row_ids, row_mask = ids[i : i + 1, :n], mask[i : i + 1, :n]
                out[start + i] = pool(self.run(row_ids, row_mask), row_mask)[0]
        return out
