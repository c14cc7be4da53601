"""Corrections: a `contradicts` pair in which the new memory is its speaker's retraction of the existing one.

The label stays `contradicts` (the old value was never true, so it is no change: labels.md), and the
evidence becomes `correction`: `api/prepare.py` then makes the existing memory `retracted` and leaves
the new one `current`, so the store need not ask the user again. A pair the model labels
`contradicts` is a correction when:

- **one speaker**: both memories have the same subject and both are `stated`. A memory carries no
  speaker of its own; within one subject, a `stated` memory is what that user said. An `inferred`
  memory (the agent's reading) or an `imported` one (another source) neither retracts nor is
  retracted: two sources that disagree stay in conflict;
- **said after**: the new memory is observed no earlier than the existing one (a text cannot take
  back what is said after it);
- **a retraction cue** in the new memory's text (`normalizer.retraction`: "Actually, it's Ellie",
  "I meant", "not Ella but Ellie", "that's wrong", "I misspoke", "Correction:").

Only `contradicts` reads the cue: a change request ("Actually, make it 7pm") is `supersedes` and
stays so. `columnar.encode_window` finds each pair's `may_correct` (the three conditions), and
`columnar.post_rows` applies it after fusion and the guards, so every entry point — the service,
`classify`, `relabel`, `eval` — gives the same evidence. Labels and probabilities never change.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

import numpy as np

from writegate.classifier.labels import LABEL2ID, Label
from writegate.classifier.types import Evidence
from writegate.normalizer.retraction import retracts
from writegate.normalizer.schema import ProvenanceKind

CORRECTION = list(Evidence).index(Evidence.CORRECTION)
"""The evidence code of a correction (its index in `Evidence`)."""
_CONTRADICTS = LABEL2ID[Label.CONTRADICTS.value]


class Spoken(Protocol):
    """What the check reads of a memory (a `columnar.WindowMemory`, a `types.Side`)."""

    @property
    def text(self) -> str: ...

    @property
    def subject(self) -> str: ...

    @property
    def observed_at(self) -> datetime: ...

    @property
    def provenance(self) -> ProvenanceKind: ...


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt


def one_speaker_after(existing: Spoken, new: Spoken) -> bool:
    """Whether `new` may retract `existing`: same subject, both `stated`, `new` observed no earlier."""
    return (
        existing.subject == new.subject
        and existing.provenance is ProvenanceKind.STATED
        and new.provenance is ProvenanceKind.STATED
        and _utc(new.observed_at) >= _utc(existing.observed_at)
    )


def may_correct(memories: Sequence[Spoken], pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """bool [n]: pair i = (existing, new) positions in `memories` would be a correction if labelled
    `contradicts` (one speaker, said after, a retraction cue in the new text; each text read once)."""
    cue: dict[int, bool] = {}
    out = np.zeros(len(pairs), dtype=bool)
    for i, (e, k) in enumerate(pairs):
        if one_speaker_after(memories[e], memories[k]):
            if k not in cue:
                cue[k] = retracts(memories[k].text)
            out[i] = cue[k]
    return out


def apply_corrections(probs: np.ndarray, evidence: np.ndarray, may_correct: np.ndarray) -> None:
    """Set the evidence of each row that may be a correction and is labelled `contradicts` to `correction`,
    in place (after fusion and the guards: a guarded row is `unrelated`)."""
    rows = np.flatnonzero(may_correct)
    if len(rows):
        evidence[rows[np.argmax(probs[rows], axis=1) == _CONTRADICTS]] = CORRECTION
