"""Inputs and outputs of the pairwise classifier."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from writegate.classifier.labels import Label
from writegate.normalizer.schema import ProvenanceKind, Record


class Side(BaseModel):
    """One memory of a pair: its text, when it was observed, whose it is, where it comes from, and its
    normalized records.

    The classifier never normalizes: the caller fills `records` (the service from the records it
    computed, `writegate relabel` from its plan, the CLI, eval and training with
    `writegate.api.normalizing.with_records` or `fill_pairs`).
    """

    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    observed_at: datetime
    subject: str = "user:default"
    provenance: ProvenanceKind = Field(
        default=ProvenanceKind.STATED,
        description="Where the memory comes from: two `stated` memories of one subject have one speaker, "
        "so the new one can retract the existing one (`classifier/correction.py`).",
    )
    records: tuple[Record, ...] | None = Field(
        default=None,
        description="`normalize(text, subject=subject, observed_at=observed_at)`; None = not normalized yet "
        "(the classifier refuses such a side: `MissingRecordsError`).",
    )


class Pair(BaseModel):
    """An (EXISTING, NEW) pair; the label says how NEW relates to EXISTING."""

    model_config = ConfigDict(frozen=True)

    existing: Side
    new: Side


class Evidence(str, Enum):
    """Which part decided the label."""

    MODEL = "model"
    STRUCTURE = "structure"
    BOTH = "both"
    CONTENT_FREE = "content_free"
    """A guard: one side has no content words, so the pair is `unrelated`."""
    OTHER_SUBJECT = "other_subject"
    """A guard: the two memories belong to different subjects, so the pair is `unrelated`."""
    CORRECTION = "correction"
    """The label is `contradicts` and the new memory is its speaker's retraction of the existing one
    (`classifier/correction.py`): the existing memory is `retracted`, the new one stays `current`."""


class Prediction(BaseModel):
    """The label of one pair, with a probability per label."""

    model_config = ConfigDict(frozen=True)

    label: Label
    probabilities: dict[str, float]
    slot_match: bool = False
    evidence: Evidence = Evidence.MODEL
    review: bool = False
    """A retiring label that won narrowly or with a low probability (`classifier/review.py`): a person
    should look before the store acts on it."""


class ModelInfo(BaseModel):
    """What a loaded model is (GetModelInfo)."""

    name: str = Field(description="Model name from writegate.json.")
    version: str = Field(description="Model version from writegate.json.")
    labels: list[str] = Field(description="Output index i ↔ labels[i].")
    backend: str = Field(description="The backend running it: onnx, torch, vllm.")
    max_length: int = Field(description="Max tokens per pair.")
    metrics: dict[str, float] = Field(default_factory=dict, description="Metrics from the model card.")

    @classmethod
    def of(cls, model: Any, backend: str) -> ModelInfo:
        """The info of a model run by `backend`, read from anything with its name, version, labels, max_length and
        metrics (a `ModelMeta`, a `GetModelInfoResponse`)."""
        return cls(
            name=model.name,
            version=model.version,
            labels=list(model.labels),
            backend=backend,
            max_length=model.max_length,
            metrics=dict(model.metrics),
        )
