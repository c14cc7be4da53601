"""Write-time half-lives and confidences: one config object, by record kind and provenance."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from writegate.normalizer.schema import ProvenanceKind, RecordKind


class NormalizerConfig(BaseModel):
    """Defaults for `half_life_days` and `confidence` of each record.

    `half_life_days[kind][provenance]`: how fast a record's confidence decays.
    `confidence[provenance]`: the write-time confidence; a rule may lower it (`hedge_factor`)
    when the text hedges ("I think", "maybe", "usually").
    """

    model_config = ConfigDict(frozen=True)

    half_life_days: dict[RecordKind, dict[ProvenanceKind, float]] = Field(
        default_factory=lambda: {
            RecordKind.TIME_WINDOW: {
                ProvenanceKind.STATED: 30.0,
                ProvenanceKind.INFERRED: 1.0,
                ProvenanceKind.IMPORTED: 14.0,
            },
            RecordKind.ENUM: {ProvenanceKind.STATED: 60.0, ProvenanceKind.INFERRED: 7.0, ProvenanceKind.IMPORTED: 30.0},
            RecordKind.EDGE: {
                ProvenanceKind.STATED: 180.0,
                ProvenanceKind.INFERRED: 30.0,
                ProvenanceKind.IMPORTED: 90.0,
            },
            RecordKind.TIMEZONE: {
                ProvenanceKind.STATED: 180.0,
                ProvenanceKind.INFERRED: 60.0,
                ProvenanceKind.IMPORTED: 90.0,
            },
            RecordKind.TEXT: {ProvenanceKind.STATED: 7.0, ProvenanceKind.INFERRED: 1.0, ProvenanceKind.IMPORTED: 7.0},
        }
    )
    confidence: dict[ProvenanceKind, float] = Field(
        default_factory=lambda: {
            ProvenanceKind.STATED: 0.95,
            ProvenanceKind.INFERRED: 0.7,
            ProvenanceKind.IMPORTED: 0.8,
        }
    )
    text_confidence: float = Field(default=0.5, ge=0, le=1, description="Confidence of a `kind: text` fallback.")
    hedge_factor: float = Field(default=0.75, gt=0, le=1, description="Multiplier when the text hedges.")

    def half_life(self, kind: RecordKind, provenance: ProvenanceKind) -> float:
        """Half-life in days for a record of `kind` with `provenance`."""
        return float(self.half_life_days[kind][provenance])


DEFAULT_CONFIG = NormalizerConfig()
