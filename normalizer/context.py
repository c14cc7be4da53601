"""What every rule family gets besides the text: subject, time, provenance, config."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from writegate.normalizer.config import NormalizerConfig
from writegate.normalizer.schema import RECORD_VALUE, Provenance, ProvenanceKind, Record, RecordKind

_HEDGE_RE = re.compile(r"\b(i think|maybe|perhaps|probably|usually|i guess|might|not sure)\b", re.I)


@dataclass(frozen=True)
class Context:
    """The request a rule family extracts records for."""

    subject: str
    observed_at: datetime
    provenance: ProvenanceKind
    config: NormalizerConfig
    source: str | None = None

    @property
    def subject_slug(self) -> str:
        """`alice` for `user:alice`."""
        return self.subject.split(":", 1)[1]

    def record(
        self,
        kind: RecordKind,
        slot: str,
        text: str,
        *,
        provenance: ProvenanceKind | None = None,
        note: str | None = None,
        **value: Any,
    ) -> Record:
        """Build a record with this context's subject and time, half-life and confidence from config.

        Args:
            kind: the record kind.
            slot: the conflict key.
            text: the (part of the) text the record was read from.
            provenance: overrides the request's provenance (e.g. `inferred` for a place → zone).
            note: a provenance note (what the rule inferred from).
            **value: the value field for `kind` (`time_window=`, `timezone=`, `enum=`, `edge=`; none
                for `text`), as in the record's JSON form.
        """
        prov = provenance or self.provenance
        record_value = RECORD_VALUE.validate_python({"kind": kind, **value})
        if not record_value.typed:
            confidence = self.config.text_confidence
        else:
            confidence = self.config.confidence[prov]
            if prov is ProvenanceKind.INFERRED and self.provenance is ProvenanceKind.INFERRED:
                confidence *= self.config.confidence[ProvenanceKind.INFERRED]
            if _HEDGE_RE.search(text):
                confidence *= self.config.hedge_factor
        return Record(
            subject=self.subject,
            slot=slot,
            value=record_value,
            provenance=Provenance(kind=prov, source=self.source, note=note),
            observed_at=self.observed_at,
            half_life_days=self.config.half_life(record_value.kind, prov),
            confidence=round(confidence, 4),
            text=text.strip() or text,
        )
