"""Bad input to `normalize` gets an InputError naming the field; nothing is ever dropped."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from writegate.normalizer import InputError, RecordKind, normalize


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

    from writegate.normalizer.errors import first_error

    class Inner(BaseModel):
        n: int = Field(ge=1)

    class Outer(BaseModel):
        items: list[Inner]

    with pytest.raises(ValidationError) as caught:
        Outer.model_validate({"items": [{"n": 3}, {"n": 0}]})
    first = first_error(caught.value)
    assert (first.loc, first.dotted, first.head, first.input) == (("items", 1, "n"), "items.1.n", "items", 0)
    assert first.message == "Input should be greater than or equal to 1"
