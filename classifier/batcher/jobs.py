"""The job kinds the batcher runs: what one request's items are, how they are encoded, how a batch
of them (several requests' items) runs, and what each item's answer is.

A kind has four steps, called by the batcher's machinery (`core.py`, `runner.py`), which is the
same for every kind: `encode` a request's items in the encode thread (once per request, off the
event loop), `lengths` of the encoded items (the tokens each counts in the batch budget), `infer`
a batch in a run thread (the answers in order and the batch's padded tokens), `release_memory`
when idle.

- `PairJobs`: the classifier's (existing, new) pairs → `Prediction`s (Classify, PrepareWrite,
  Relabel): `Classifier.encode`, then `columnar.gather` → `Classifier.run` → `Classifier.label`.
- `TextJobs`: texts → unit-length embeddings (float32 [dim] each; the Embed RPC), through an
  embedder's `embed`. Each text counts `text_tokens(text)` in the batch budget: an estimate,
  since the embedder tokenizes inside its own run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from writegate.classifier import columnar
from writegate.classifier.model import Classifier
from writegate.classifier.types import Pair, Prediction

In = TypeVar("In")
Out = TypeVar("Out")
In_contra = TypeVar("In_contra", contravariant=True)

CHARS_PER_TOKEN = 4
"""`text_tokens`' estimate: about one WordPiece token per 4 characters of English (a little more
than the ~4.5 measured on ordinary sentences, so a batch errs on the small side)."""


@dataclass(frozen=True)
class Ran(Generic[Out]):
    """One batch's result: each item's answer, in the order given, and the batch's padded tokens."""

    answers: list[Out]
    padded_tokens: int


class JobKind(Protocol[In_contra, Out]):
    """One kind of work for the batcher (see the module docstring).

    Attributes:
        unit: what one item is called in messages (`pair`, `text`; plural: + s).
    """

    unit: str

    def encode(self, items: Sequence[In_contra]) -> Any:
        """A request's items, encoded (in the encode thread); `lengths` and `infer` read it."""
        ...

    def lengths(self, encoded: Any) -> list[int]:
        """The tokens each encoded item counts in a batch's budget (n × the longest)."""
        ...

    def infer(self, parts: Sequence[tuple[Any, int]]) -> Ran[Out]:
        """Run one batch (in a run thread): item `row` of each `(encoded, row)`, in this order."""
        ...

    def release_memory(self) -> None:
        """Hand the model's free working memory back (called when the batcher is idle)."""
        ...


class PairJobs:
    """The classifier's pairs: `Classifier.encode` per request; `gather` → `run` → `label` per batch."""

    unit = "pair"

    def __init__(self, model: Classifier) -> None:
        self.model = model

    def encode(self, items: Sequence[Pair]) -> columnar.EncodedWindow:
        """The request's pairs as one window (records compared, rendered, tokenized)."""
        return self.model.encode(items)

    def lengths(self, encoded: columnar.EncodedWindow) -> list[int]:
        """Each pair's token ids."""
        return [len(row) for row in encoded.rows]

    def infer(self, parts: Sequence[tuple[columnar.EncodedWindow, int]]) -> Ran[Prediction]:
        """One padded batch of several requests' rows → their predictions."""
        prepared = columnar.gather(parts)
        labels = self.model.label(prepared, self.model.run(prepared))
        return Ran(labels.predictions(), prepared.n_tokens)

    def release_memory(self) -> None:
        """The backend's free working memory (onnxruntime's arena)."""
        self.model.release_memory()


class TextEmbedder(Protocol):
    """What `TextJobs` and the Embed RPC need of an embedder (`writegate.classifier.embedder.Embedder`)."""

    name: str
    dim: int
    max_length: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def text_tokens(text: str, max_length: int) -> int:
    """The tokens a text is counted as: [CLS] and [SEP] plus one per `CHARS_PER_TOKEN` characters,
    at most `max_length` (the embedder truncates there)."""
    return min(max_length, 2 + math.ceil(len(text) / CHARS_PER_TOKEN))


@dataclass(frozen=True)
class TextWindow:
    """A request's texts, each with its estimated tokens."""

    texts: list[str]
    lengths: list[int]


class TextJobs:
    """Texts → embeddings: `embedder.embed` on each batch (one run for several requests' texts)."""

    unit = "text"

    def __init__(self, embedder: TextEmbedder) -> None:
        self.embedder = embedder

    def encode(self, items: Sequence[str]) -> TextWindow:
        """The texts and their estimated tokens (`text_tokens`)."""
        texts = list(items)
        return TextWindow(texts, [text_tokens(t, self.embedder.max_length) for t in texts])

    def lengths(self, encoded: TextWindow) -> list[int]:
        """Each text's estimated tokens."""
        return encoded.lengths

    def infer(self, parts: Sequence[tuple[TextWindow, int]]) -> Ran[np.ndarray]:
        """One embedder run over the batch's texts → one float32 [dim] row per text."""
        vectors = self.embedder.embed([window.texts[row] for window, row in parts])
        if vectors.shape != (len(parts), self.embedder.dim):
            raise ValueError(
                f"the embedder returned shape {vectors.shape} for {len(parts)} texts of dim {self.embedder.dim}"
            )
        padded = len(parts) * max(window.lengths[row] for window, row in parts)
        return Ran(list(vectors), padded)

    def release_memory(self) -> None:
        """Nothing of the embedder's own: it has no arena to release (the batcher still trims the C heap)."""
