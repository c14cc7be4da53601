"""Property tests: any text → no exception, ≥ 1 record, every record validates."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writegate.errors import InputError
from writegate.normalizer import Record, normalize

_WORDS = [
    "9am",
    "noon",
    "between",
    "and",
    "4pm",
    "weekdays",
    "EST",
    "London",
    "reports",
    "to",
    "Slack",
    "email",
    "$50K",
    "€10,000",
    "sole",
    "approver",
    "owns",
    "Acme",
    "handed",
    "off",
    "Mondays",
    "not",
    "before",
    "-",
    "–",
    ":",
    "14:00",
    "the",
    "user",
    "I",
    "my",
    "manager",
    "is",
    "team",
    "Spanish",
    "bullets",
    "%",
    "0",
]

_texts = st.one_of(
    st.text(min_size=1, max_size=300),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=25).map(" ".join),
    st.lists(st.one_of(st.sampled_from(_WORDS), st.text(max_size=6)), min_size=1, max_size=20).map(" ".join),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_texts)
def test_any_text_gives_valid_records_or_a_clear_input_error(text: str) -> None:
    try:
        records = normalize(text, subject="user:sam", observed_at="2026-03-02T10:00:00Z")
    except InputError as exc:
        assert exc.field == "text"
        return
    assert len(records) >= 1
    for rec in records:
        assert Record.model_validate(rec.model_dump()) == rec
        assert rec.subject == "user:sam"
        assert Record.model_validate(rec.to_json()) == rec
