"""Text → schema records (pure functions, one module per rule family), and `compare`."""

from writegate.normalizer.api import normalize, parse_observed_at, parse_provenance, validate_subject, validate_text
from writegate.normalizer.compare import SlotComparison, compare, compare_all
from writegate.normalizer.schema import Edge, EnumValue, Memory, Provenance, Record, RecordKind, TimeWindow, Timezone

__all__ = [
    "Edge",
    "EnumValue",
    "Memory",
    "Provenance",
    "Record",
    "RecordKind",
    "SlotComparison",
    "TimeWindow",
    "Timezone",
    "compare",
    "compare_all",
    "normalize",
    "parse_observed_at",
    "parse_provenance",
    "validate_subject",
    "validate_text",
]
