"""The record schema: the contract of `normalize` (see design.md).

Every model validates its own constraints, so a `Record` that exists is a valid record.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from croniter import croniter
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ENTITY_ID_RE = re.compile(r"^[a-z][a-z0-9_]*:[a-z0-9][a-z0-9._-]*$")
MAX_TEXT_BYTES = 16 * 1024

EntityId = Annotated[
    str,
    Field(
        pattern=ENTITY_ID_RE.pattern,
        max_length=200,
        description="Entity id `kind:slug`, e.g. `user:alice`, `person:michelle-chen`.",
    ),
]


class RecordKind(str, Enum):
    """Which value field a record carries."""

    TIME_WINDOW = "time_window"
    ENUM = "enum"
    EDGE = "edge"
    TIMEZONE = "timezone"
    TEXT = "text"


class Polarity(str, Enum):
    """Whether a time window is wanted, to be avoided, or mandatory."""

    PREFER = "prefer"
    AVOID = "avoid"
    REQUIRE = "require"


class ProvenanceKind(str, Enum):
    """Where a record comes from: said by the user, derived, or imported from another store."""

    STATED = "stated"
    INFERRED = "inferred"
    IMPORTED = "imported"


class EnumAttribute(str, Enum):
    """Communication-preference attributes with closed value sets."""

    VERBOSITY = "verbosity"
    CHANNEL = "channel"
    FORMALITY = "formality"
    LANGUAGE = "language"
    FORMAT = "format"


ENUM_VALUES: dict[EnumAttribute, frozenset[str]] = {
    EnumAttribute.VERBOSITY: frozenset({"concise", "detailed"}),
    EnumAttribute.CHANNEL: frozenset({"email", "slack", "phone", "sms", "video", "in_person"}),
    EnumAttribute.FORMALITY: frozenset({"formal", "casual"}),
    EnumAttribute.FORMAT: frozenset({"bullets", "prose", "table"}),
}
"""Closed value sets; `language` is instead any ISO 639-1 code."""

LANGUAGE_CODE_RE = re.compile(r"^[a-z]{2}$")


class EdgeType(str, Enum):
    """Organisational relationship types (design.md, edge table)."""

    REPORTS_TO = "reports_to"
    MANAGES = "manages"
    MEMBER_OF = "member_of"
    HAS_ROLE = "has_role"
    LOCATED_IN = "located_in"
    OWNED_BY = "owned_by"
    APPROVES = "approves"
    DELEGATES_TO = "delegates_to"


SINGLE_VALUED_EDGES: frozenset[EdgeType] = frozenset(
    {EdgeType.REPORTS_TO, EdgeType.HAS_ROLE, EdgeType.LOCATED_IN, EdgeType.OWNED_BY}
)
"""Single-valued types conflict on a different target; the others accumulate."""


@lru_cache(maxsize=1)
def _iana_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def validate_iana(name: str) -> str:
    """Return `name` if it is a real IANA zone, else raise ValueError."""
    if name not in _iana_zones():
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown IANA timezone {name!r}") from exc
    return name


@lru_cache(maxsize=4096)
def _cron_parses(expr: str) -> bool:
    return bool(croniter.is_valid(expr))


def validate_cron(expr: str) -> str:
    """Return `expr` if it is a standard 5-field cron expression, else raise ValueError."""
    if len(expr.split()) != 5:
        raise ValueError(f"cron {expr!r} must have exactly 5 fields")
    if not _cron_parses(expr):
        raise ValueError(f"cron {expr!r} does not parse")
    return expr


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


class TimeWindow(_Strict):
    """A recurring time window: cron start times plus a duration."""

    cron: str = Field(description="5-field cron of the window's start times; day-of-week 0 = Sunday.")
    duration_minutes: int = Field(ge=1, le=10080, description="Length of the window in minutes.")
    timezone: str | None = Field(default=None, description="IANA zone, or null when none is known.")
    polarity: Polarity = Field(default=Polarity.PREFER)

    _cron = field_validator("cron")(classmethod(lambda cls, v: validate_cron(v)))

    @field_validator("timezone")
    @classmethod
    def _tz(cls, v: str | None) -> str | None:
        return None if v is None else validate_iana(v)


class Timezone(_Strict):
    """The subject's timezone."""

    timezone: str = Field(description="IANA zone name.")

    _tz = field_validator("timezone")(classmethod(lambda cls, v: validate_iana(v)))


class EnumValue(_Strict):
    """A communication preference from a closed set."""

    attribute: EnumAttribute
    value: str

    @model_validator(mode="after")
    def _value_in_set(self) -> EnumValue:
        if self.attribute is EnumAttribute.LANGUAGE:
            if not LANGUAGE_CODE_RE.fullmatch(self.value):
                raise ValueError(f"language must be an ISO 639-1 code, got {self.value!r}")
        elif self.value not in ENUM_VALUES[self.attribute]:
            allowed = ", ".join(sorted(ENUM_VALUES[self.attribute]))
            raise ValueError(f"{self.attribute.value} must be one of {allowed}; got {self.value!r}")
        return self


class Edge(_Strict):
    """A typed organisational relationship between two entities."""

    source: EntityId
    type: EdgeType
    target: EntityId
    attributes: dict[str, bool | int | float | str] = Field(
        default_factory=dict,
        description="`max_amount`, `currency` (ISO 4217), `exclusive` (approves); `scope` (delegates_to).",
    )

    @field_validator("attributes")
    @classmethod
    def _attrs(cls, v: dict[str, Any]) -> dict[str, Any]:
        if "currency" in v and not (isinstance(v["currency"], str) and re.fullmatch(r"[A-Z]{3}", v["currency"])):
            raise ValueError(f"currency must be an ISO 4217 code, got {v['currency']!r}")
        if "max_amount" in v and (
            isinstance(v["max_amount"], bool) or not isinstance(v["max_amount"], (int, float)) or v["max_amount"] < 0
        ):
            raise ValueError(f"max_amount must be a non-negative number, got {v['max_amount']!r}")
        if "exclusive" in v and not isinstance(v["exclusive"], bool):
            raise ValueError("exclusive must be a bool")
        return v

    @property
    def single_valued(self) -> bool:
        """True when a different target for the same source conflicts."""
        return self.type in SINGLE_VALUED_EDGES


class Provenance(_Strict):
    """Where a record comes from."""

    kind: ProvenanceKind = ProvenanceKind.STATED
    source: str | None = Field(default=None, max_length=500)
    note: str | None = Field(default=None, max_length=2000)


def _utc(v: datetime) -> datetime:
    return v.replace(tzinfo=UTC) if v.tzinfo is None else v.astimezone(UTC)


def iso_utc(dt: datetime) -> str:
    """`dt` in UTC as `YYYY-MM-DDTHH:MM:SSZ`, the year always four digits (`0066-…`, which strftime drops)."""
    return _utc(dt).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


_VALUE_FIELD: dict[RecordKind, str | None] = {
    RecordKind.TIME_WINDOW: "time_window",
    RecordKind.ENUM: "enum",
    RecordKind.EDGE: "edge",
    RecordKind.TIMEZONE: "timezone",
    RecordKind.TEXT: None,
}


class Record(_Strict):
    """One normalized fact. Exactly the value field matching `kind` is set."""

    subject: EntityId
    kind: RecordKind
    slot: str = Field(min_length=1, max_length=300, description="Conflict key: same subject + slot can conflict.")
    time_window: TimeWindow | None = None
    timezone: Timezone | None = None
    enum: EnumValue | None = None
    edge: Edge | None = None
    provenance: Provenance = Field(default_factory=Provenance)
    observed_at: datetime
    half_life_days: float = Field(gt=0, le=36500)
    confidence: float = Field(ge=0.0, le=1.0)
    text: str = Field(min_length=1, max_length=MAX_TEXT_BYTES)

    @field_validator("observed_at")
    @classmethod
    def _observed_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    @model_validator(mode="after")
    def _one_value(self) -> Record:
        want = _VALUE_FIELD[self.kind]
        for name in ("time_window", "timezone", "enum", "edge"):
            present = getattr(self, name) is not None
            if present and name != want:
                raise ValueError(f"kind {self.kind.value} must not carry {name}")
            if not present and name == want:
                raise ValueError(f"kind {self.kind.value} needs {name}")
        return self

    def decayed_confidence(self, at: datetime) -> float:
        """Confidence at time `at`: `confidence * 0.5 ** (age_days / half_life_days)`."""
        age_days = max(0.0, (_utc(at) - self.observed_at).total_seconds() / 86400.0)
        return self.confidence * 0.5 ** (age_days / self.half_life_days)

    def to_json(self) -> dict[str, Any]:
        """The JSON form of design.md (null value fields omitted)."""
        data = self.model_dump(mode="json", exclude_none=True)
        if self.kind is RecordKind.TIME_WINDOW:
            data["time_window"]["timezone"] = self.time_window.timezone  # type: ignore[union-attr]
        data["observed_at"] = iso_utc(self.observed_at)
        return data


class Memory(_Strict):
    """A memory as the store hands it over: the unit of `normalize` and `classify`."""

    id: str = Field(default="", max_length=200)
    subject: EntityId = "user:default"
    text: str = Field(min_length=1, max_length=MAX_TEXT_BYTES)
    observed_at: datetime
    provenance: ProvenanceKind = ProvenanceKind.STATED

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("text is empty or whitespace only")
        if len(v.encode("utf-8")) > MAX_TEXT_BYTES:
            raise ValueError(f"text is over {MAX_TEXT_BYTES} bytes")
        if any(ord(c) < 32 and c not in "\t\n\r" for c in v):
            raise ValueError("text contains control characters")
        return v

    @field_validator("observed_at")
    @classmethod
    def _observed_utc(cls, v: datetime) -> datetime:
        return _utc(v)
