"""Bad input to `normalize` gets an InputError naming the field; nothing is ever dropped."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from writegate.errors import InputError
from writegate.normalizer import Record, RecordKind, normalize


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"text": ""}, "text", "empty or whitespace"),
        ({"text": " \n\t "}, "text", "empty or whitespace"),
        ({"text": "x" * (16 * 1024 + 1)}, "text", "over 16 KiB"),
        ({"text": "hi\x07there"}, "text", "control character (U+0007)"),
        ({"text": "bad \udcff byte"}, "text", "invalid UTF-8"),
        ({"text": 42}, "text", "must be a string"),
        ({"text": "ok", "observed_at": "last tuesday"}, "observed_at", "not an ISO 8601"),
        ({"text": "ok", "observed_at": "0001-01-01T00:00+01:00"}, "observed_at", "outside years 1-9999 in UTC"),
        ({"text": "ok", "provenance": "rumour"}, "provenance", "stated, inferred, imported"),
        ({"text": "ok", "subject": "Alice"}, "subject", "kind:slug"),
        ({"text": "ok", "subject": "user:"}, "subject", "kind:slug"),
    ],
    ids=[
        "empty",
        "whitespace",
        "too-long",
        "control-char",
        "lone-surrogate",
        "not-a-string",
        "date-words",
        "date-before-year-1",
        "provenance",
        "subject-no-kind",
        "subject-no-slug",
    ],
)
def test_bad_input_names_the_field(kwargs: dict, field: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)) as info:
        normalize(**kwargs)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


def test_unmatched_text_comes_back_as_text_record() -> None:
    [rec] = normalize("Sam has a cat named Miso.", subject="user:sam", observed_at="2026-03-02T10:00:00Z")
    assert rec.kind is RecordKind.TEXT
    assert rec.text == "Sam has a cat named Miso."
    assert rec.subject == "user:sam"
    assert rec.observed_at == datetime(2026, 3, 2, 10, tzinfo=UTC)


def test_exactly_16_kib_is_accepted() -> None:
    assert normalize("a" * (16 * 1024))


def test_inferred_provenance_lowers_confidence_and_half_life() -> None:
    stated = normalize("Sam is on PST.", subject="user:sam", observed_at="2026-03-02")
    inferred = normalize("Sam is on PST.", subject="user:sam", observed_at="2026-03-02", provenance="inferred")
    assert stated[0].confidence > inferred[0].confidence
    assert stated[0].half_life_days > inferred[0].half_life_days
    assert inferred[0].provenance.kind.value == "inferred"


def test_first_error_names_where_what_and_the_input() -> None:
    from pydantic import BaseModel, Field, ValidationError

    from writegate.errors import first_error

    class Inner(BaseModel):
        n: int = Field(ge=1)

    class Outer(BaseModel):
        items: list[Inner]

    with pytest.raises(ValidationError) as caught:
        Outer.model_validate({"items": [{"n": 3}, {"n": 0}]})
    first = first_error(caught.value)
    assert (first.loc, first.dotted, first.head, first.input) == (("items", 1, "n"), "items.1.n", "items", 0)
    assert first.message == "Input should be greater than or equal to 1"


# -- normalize once: `writegate.api.normalizing` ---------------------------------------------------


def _counting(calls: list[str]) -> Callable[..., list[Record]]:
    """`normalize`, noting each text it is called on."""

    def normalizer(text: str, **kwargs: Any) -> list[Record]:
        calls.append(text)
        return normalize(text, **kwargs)

    return normalizer


def test_each_distinct_memory_is_normalized_once_and_failures_name_the_memory() -> None:
    from writegate.api.normalizing import MemoryKey, NormalizeFailure, Normalizer, records_or_error

    at = datetime(2026, 3, 1, tzinfo=UTC)
    calls: list[str] = []
    normalizer = Normalizer(_counting(calls), size=8)
    good, bad = MemoryKey("User works in EST", "user:alice", at), MemoryKey("hi\x07there", "user:alice", at)
    outcomes = normalizer.outcomes([good, bad, good, bad])
    assert calls == [good.text, bad.text]  # once each
    assert outcomes[0] == outcomes[2] == tuple(normalize(good.text, subject="user:alice", observed_at=at))
    assert outcomes[1] == outcomes[3] == NormalizeFailure("text", "contains a control character (U+0007)")
    with pytest.raises(InputError, match=re.escape("candidates[0].text: contains a control character (U+0007)")):
        records_or_error(normalizer.outcomes([good, bad]), ["memory", "candidates[0]"])
    assert calls == [good.text, bad.text]  # both outcomes were kept
    assert len(normalizer.cache) == 2 and len(Normalizer(size=0).cache) == 0


def test_normalize_many_contains_other_errors_only_when_asked() -> None:
    from writegate.api.normalizing import MemoryKey, NormalizeFailure, normalize_many

    def broken(text: str, **_: object) -> list[Record]:
        raise ZeroDivisionError("division by zero")

    key = MemoryKey("User works in EST", "user:alice", datetime(2026, 3, 1, tzinfo=UTC))
    with pytest.raises(ZeroDivisionError):
        normalize_many([key], broken)
    got = normalize_many([key], broken, contain=lambda exc: f"could not be processed ({type(exc).__name__})")
    assert got == [NormalizeFailure("text", "could not be processed (ZeroDivisionError)")]


def test_fill_pairs_names_the_side_and_keeps_given_records() -> None:
    from writegate.api.normalizing import fill_pairs
    from writegate.classifier.types import Pair, Side

    ok = Pair(
        existing=Side(text="User works in EST", observed_at="2026-01-01"), new=Side(text="x", observed_at="2026-01-02")
    )
    bad = Pair(existing=Side(text="fine", observed_at="2026-01-01"), new=Side(text="   ", observed_at="2026-01-01"))
    filled, failed = fill_pairs([ok, bad])
    assert isinstance(filled, Pair) and filled.existing.records and filled.new.records
    assert filled.existing.records == tuple(normalize("User works in EST", observed_at="2026-01-01"))
    assert isinstance(failed, InputError) and str(failed) == "new.text: is empty or whitespace only"
    assert fill_pairs([filled]) == [filled] and fill_pairs([filled])[0] is filled  # nothing redone
