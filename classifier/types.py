"""Inputs and outputs of the pairwise classifier."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from writegate.classifier.labels import Label


class Side(BaseModel):
    """One memory of a pair: its text and when it was observed."""

    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    observed_at: datetime
    subject: str = "user:default"


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


class Prediction(BaseModel):
    """The label of one pair, with a probability per label."""

    model_config = ConfigDict(frozen=True)

    label: Label
    probabilities: dict[str, float]
    slot_match: bool = False
    evidence: Evidence = Evidence.MODEL
