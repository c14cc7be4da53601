"""The pairwise classifier: a window of pairs → prepared batches → the backend → labels.

It maps records and text to probabilities: each `Side` carries its normalized `records` (filled by
the caller), and the classifier never calls the text normalizer. Its steps are the window's
(`classifier/columnar.py`): `encode` (compare, render, tokenize the pairs as one window),
`prepare` (and cut into padded batches), `run` (the backend), `label` (softmax, fusion, guards).
`predict` runs them in turn; the dynamic batcher runs `encode` per request and the rest per batch.

Serving needs only `tokenizers`, numpy and the backend's runtime (onnxruntime by default): no
torch, no transformers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from writegate.classifier import columnar, features, modeldir
from writegate.classifier.backends import Backend, load_backend
from writegate.classifier.types import ModelInfo, Pair, Prediction
from writegate.errors import InputError


class Classifier:
    """Labels (EXISTING, NEW) pairs.

    Build with `Classifier.load(model_dir)`; or directly from parts (tests, training).

    Args:
        meta: the model dir's writegate.json.
        encoder: the tokenizer wrapper.
        backend: what runs the model.
        fusion: fuse structure into the probabilities (None = meta.fusion).
    """

    def __init__(
        self,
        meta: modeldir.ModelMeta,
        encoder: features.PairEncoder,
        backend: Backend,
        *,
        fusion: bool | None = None,
    ) -> None:
        self.meta = meta
        self.encoder = encoder
        self.backend = backend
        self.fusion = meta.fusion if fusion is None else fusion
        self.temperature = meta.temperature
        self.review = meta.review
        self.info = ModelInfo.of(meta, backend.name)

    @classmethod
    def load(
        cls,
        model_dir: str | Path,
        backend: str = "onnx",
        *,
        threads: int | None = None,
        device: str | None = None,
        precision: str | None = None,
        fusion: bool | None = None,
    ) -> Classifier:
        """Load a model directory.

        Raises:
            InputError: the directory or a file it needs is missing or corrupt (the message names it),
                or the model was trained for another input format.
        """
        model_dir = Path(model_dir)
        meta = modeldir.read_meta(model_dir)
        features.check_input_format(meta.input_format_version, "model", str(model_dir / modeldir.META_FILE))
        for name in modeldir.TOKENIZER_FILES:
            modeldir.require_file(model_dir, name)
        tok_path = model_dir / modeldir.TOKENIZER
        try:
            encoder = features.PairEncoder.from_file(tok_path, meta.max_length, meta.input_format_version)
        except Exception as exc:  # tokenizers raises plain Exception on a corrupt file
            raise InputError("model", f"{tok_path} could not be loaded: {exc}") from None
        engine = load_backend(backend, model_dir, threads=threads, device=device, precision=precision)
        return cls(meta, encoder, engine, fusion=fusion)

    # -- the steps -----------------------------------------------------------------------------
    def encode(self, pairs: Sequence[Pair]) -> columnar.EncodedWindow:
        """The pairs as one window (`pairs_window`): records compared, input format rendered, tokenized
        (≤ max_length), guards and fusion rules found (`columnar.encode_window`).

        Raises:
            MissingRecordsError: a side carries no records (`pairs[i].existing.records`): the
                caller normalizes, never the classifier.
        """
        return columnar.encode_window(self.encoder, pairs_window(pairs))

    def prepare(self, pairs: Sequence[Pair], batch_size: int = 64) -> columnar.PreparedWindow:
        """`encode`, then cut into length-ordered padded batches of `batch_size` (`columnar.batch_window`)."""
        return columnar.batch_window(self.encode(pairs), batch_size)

    def run(self, prepared: columnar.PreparedWindow) -> list[np.ndarray]:
        """The backend's logits [rows, 5] of each batch of `prepared`, in order."""
        return self.backend.run_many([b.batch for b in prepared.batches])

    def label(self, prepared: columnar.PreparedWindow, logits: Sequence[np.ndarray]) -> columnar.Labels:
        """Temperature softmax, then (if enabled) fusion with structure, then the guards, then the review
        flags (`columnar.label_window`)."""
        return columnar.label_window(
            prepared, logits, temperature=self.temperature, fusion=self.fusion, review=self.review
        )

    def release_memory(self) -> None:
        """Hand the backend's free working memory back (the batcher calls this when idle)."""
        self.backend.release_memory()

    # -- the whole way -------------------------------------------------------------------------
    def predict(self, pairs: Sequence[Pair], batch_size: int = 64) -> list[Prediction]:
        """Label pairs: prepare, run, label; the predictions in input order.

        Raises:
            InputError: `batch_size` < 1.
            MissingRecordsError: a side carries no records.
        """
        if batch_size < 1:
            raise InputError("batch_size", f"must be ≥ 1, got {batch_size}")
        prepared = self.prepare(pairs, batch_size)
        return self.label(prepared, self.run(prepared)).predictions()

    def logits(self, pairs: Sequence[Pair], batch_size: int = 64) -> tuple[np.ndarray, columnar.PreparedWindow]:
        """Raw logits float32 [n, 5] in input order, with the prepared window (its rules, guards and
        slot matches: evaluation, calibration)."""
        prepared = self.prepare(pairs, batch_size)
        return columnar.window_logits(prepared, self.run(prepared)), prepared


def pairs_window(pairs: Sequence[Pair]) -> columnar.PairWindow:
    """`pairs` as one window: each distinct side object once among the memories (the pairs of one
    write share their new memory: it is tokenized once).

    Raises:
        MissingRecordsError: a side carries no records (naming `pairs[i].existing.records`).
    """
    memories: list[columnar.WindowMemory] = []
    position: dict[int, int] = {}
    refs: list[tuple[int, int]] = []
    for i, pair in enumerate(pairs):
        ref = []
        for name in ("existing", "new"):
            side = getattr(pair, name)
            at = position.get(id(side))
            if at is None:
                records = features.side_records(side, f"pairs[{i}].{name}")
                at = position[id(side)] = len(memories)
                memories.append(
                    columnar.WindowMemory(side.text, side.observed_at, side.subject, records, side.provenance)
                )
            ref.append(at)
        refs.append((ref[0], ref[1]))
    return columnar.PairWindow(0, memories, refs)
