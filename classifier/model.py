"""The pairwise classifier: pre (compare the pair's records, format, tokenize) → core (backend) → post.

It maps records and text to probabilities: each `Side` carries its normalized `records` (filled by
the caller), and the classifier never calls the text normalizer.

Serving needs only `tokenizers`, numpy and the backend's runtime (onnxruntime by default): no
torch, no transformers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from writegate.classifier import columnar, features, modeldir, post
from writegate.classifier.backends import Backend, Batch, load_backend
from writegate.classifier.fusion import RULE_NONE, fuse_rows, rule_for
from writegate.classifier.guard import GUARD_NONE, apply_guards, guard_code
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, ModelInfo, Pair, Prediction
from writegate.normalizer.compare import SlotComparison
from writegate.normalizer.errors import InputError


@dataclass(frozen=True)
class Encoded:
    """One pair, tokenized, with the structured comparison that fusion uses."""

    input_ids: list[int]
    token_type_ids: list[int]
    comparison: SlotComparison | None
    guard: Evidence | None = None
    """The guard that makes this pair `unrelated` whatever the model says (`guard_for`)."""

    @property
    def n_tokens(self) -> int:
        """Tokens in this pair, special tokens included."""
        return len(self.input_ids)


class PairSteps(Protocol):
    """The core and post steps that `predict_in_length_order` drives (a `Classifier` has them)."""

    def collate(self, items: Sequence[Any]) -> Batch: ...

    def run(self, batch: Batch) -> np.ndarray: ...

    def decode(self, items: Sequence[Any], logits: np.ndarray) -> list[Prediction]: ...


def length_ordered_chunks(items: Sequence[Any], batch_size: int) -> Iterator[list[int]]:
    """Indices of `items` sorted by `n_tokens` (stable: deterministic batches), `batch_size` at a time."""
    return columnar.length_chunks([it.n_tokens for it in items], batch_size)


def predict_in_length_order(steps: PairSteps, items: Sequence[Any], batch_size: int) -> list[Prediction]:
    """Run encoded pairs in batches of similar length, decode, and return the predictions in input order."""
    out: list[Prediction | None] = [None] * len(items)
    for idx in length_ordered_chunks(items, batch_size):
        chunk = [items[i] for i in idx]
        for i, pred in zip(idx, steps.decode(chunk, steps.run(steps.collate(chunk))), strict=True):
            out[i] = pred
    return [p for p in out if p is not None]


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
        if meta.input_format_version != features.INPUT_FORMAT_VERSION:
            raise InputError(
                "model",
                f"{model_dir / modeldir.META_FILE}: input_format_version {meta.input_format_version} "
                f"but this writegate builds format {features.INPUT_FORMAT_VERSION}; retrain or upgrade",
            )
        for name in modeldir.TOKENIZER_FILES:
            modeldir.require_file(model_dir, name)
        tok_path = model_dir / modeldir.TOKENIZER
        try:
            encoder = features.PairEncoder.from_file(tok_path, meta.max_length)
        except Exception as exc:  # tokenizers raises plain Exception on a corrupt file
            raise InputError("model", f"{tok_path} could not be loaded: {exc}") from None
        engine = load_backend(backend, model_dir, threads=threads, device=device, precision=precision)
        return cls(meta, encoder, engine, fusion=fusion)

    # -- pre -----------------------------------------------------------------------------------
    def encode(self, pairs: Sequence[Pair]) -> list[Encoded]:
        """Compare the sides' records, render the input format, tokenize (≤ max_length), find the guard.

        Each distinct side (by identity: the pairs of one write share their new memory) is
        tokenized once (`columnar.encode_rows`).

        Raises:
            MissingRecordsError: a side carries no records (`pairs[i].existing.records`): the
                caller normalizes, never the classifier.
        """
        window = pairs_window(pairs)
        enc = columnar.encode_rows(self.encoder, window)
        return [
            Encoded(row, [0] * n_a + [1] * (len(row) - n_a), comparison, guard_evidence(int(code)))
            for row, n_a, comparison, code in zip(enc.rows, enc.seg_a, enc.comparisons, enc.guard.tolist(), strict=True)
        ]

    def collate(self, items: Sequence[Encoded]) -> Batch:
        """Pad to the longest item."""
        return collate(items, self.encoder.pad_id)

    # -- core ----------------------------------------------------------------------------------
    def run(self, batch: Batch) -> np.ndarray:
        """Backend logits [n, 5]."""
        return self.backend.run(batch)

    def release_memory(self) -> None:
        """Hand the backend's free working memory back, when it can (the batcher calls this when idle)."""
        release = getattr(self.backend, "release_memory", None)
        if release is not None:
            release()

    # -- post ----------------------------------------------------------------------------------
    def decode(self, items: Sequence[Encoded], logits: np.ndarray) -> list[Prediction]:
        """Temperature softmax, then (if enabled) fusion with structure, then the guards."""
        rules = np.fromiter((rule_for(it.comparison) for it in items), dtype=np.int8, count=len(items))
        guards = np.fromiter((guard_code(it.guard) for it in items), dtype=np.int8, count=len(items))
        probs, evidence = columnar.post_rows(logits, rules, guards, temperature=self.temperature, fusion=self.fusion)
        return [
            Prediction(
                label=Label(post.argmax_label(row)),
                probabilities=post.as_dict(row),
                slot_match=bool(item.comparison is not None and item.comparison.same_slot),
                evidence=columnar.EVIDENCE[code],
            )
            for item, row, code in zip(items, probs, evidence.tolist(), strict=True)
        ]

    def predict(self, pairs: Sequence[Pair], batch_size: int = 64) -> list[Prediction]:
        """Label pairs: encode, sort by length, run in chunks, decode, restore input order."""
        if batch_size < 1:
            raise InputError("batch_size", f"must be ≥ 1, got {batch_size}")
        return predict_in_length_order(self, self.encode(pairs), batch_size)

    def logits(self, pairs: Sequence[Pair], batch_size: int = 64) -> tuple[np.ndarray, list[Encoded]]:
        """Raw logits [n, 5] in input order, with the encoded items (evaluation, calibration)."""
        items = self.encode(pairs)
        out = np.zeros((len(items), len(self.meta.labels)), dtype=np.float32)
        for idx in length_ordered_chunks(items, batch_size):
            out[idx] = self.run(self.collate([items[i] for i in idx]))
        return out, items


def post_process(probs: np.ndarray, item: Encoded, *, fusion: bool, guards: bool = True) -> tuple[np.ndarray, Evidence]:
    """One pair's probabilities as served: fused with structure (when `fusion`), then its guard (when `guards`).

    Returns:
        The probabilities and the evidence that decided them.
    """
    rows = np.asarray(probs, dtype=np.float64)[None, :]
    rules = np.array([rule_for(item.comparison) if fusion else RULE_NONE], dtype=np.int8)
    guard = np.array([guard_code(item.guard) if guards else GUARD_NONE], dtype=np.int8)
    fused, evidence = fuse_rows(rows, rules)
    apply_guards(fused, evidence, guard)
    return fused[0], columnar.EVIDENCE[int(evidence[0])]


def guard_evidence(code: int) -> Evidence | None:
    """The guard of a guard code (`guard.guard_code`), None for `GUARD_NONE`."""
    return None if code == GUARD_NONE else columnar.EVIDENCE[code]


def pairs_window(pairs: Sequence[Pair]) -> columnar.PairWindow:
    """`pairs` as one window: each distinct side object once among the memories.

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
                memories.append(columnar.WindowMemory(side.text, side.observed_at, side.subject, records))
            ref.append(at)
        refs.append((ref[0], ref[1]))
    return columnar.PairWindow(0, memories, refs)


def collate(items: Sequence[Encoded], pad_id: int = 0) -> Batch:
    """Pad encoded pairs to the longest one: int64 [n, L] arrays."""
    return columnar.collate_rows([it.input_ids for it in items], [it.token_type_ids.count(0) for it in items], pad_id)
