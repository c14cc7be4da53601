"""Errors per family / construction / slot (`writegate eval --by`)."""

from __future__ import annotations

import pytest

from writegate.errors import InputError
from writegate.training.breakdown import error_breakdown, group_of
from writegate.training.datafile import parse_example

PAIR = {
    "existing": {"text": "Ana owns Acme", "observed_at": "2026-01-01"},
    "new": {"text": "Tom owns Acme", "observed_at": "2026-02-01"},
}


def ex(label: str, family: str | None = None, slot: str | None = None):
    row = {**PAIR, "label": label, **({"family": family} if family else {}), **({"slot": slot} if slot else {})}
    return parse_example(row, 1)


@pytest.mark.parametrize(
    ("family", "slot", "by", "expected"),
    [
        ("on_call.supersedes.stop", "on_call", "family", "on_call.supersedes.stop"),
        ("on_call.supersedes.stop", "on_call", "construction", "supersedes.stop"),
        ("on_call.supersedes.stop", "on_call", "slot", "on_call"),
        ("custom-family", "on_call", "construction", "custom-family"),
        ("on_call.supersedes.stop", None, "construction", "on_call.supersedes.stop"),
        (None, "on_call", "family", None),
        (None, None, "slot", None),
    ],
    ids=[
        "family",
        "construction-strips-the-slot",
        "slot",
        "construction-of-a-family-without-the-slot-prefix",
        "construction-without-a-slot",
        "no-family",
        "no-slot",
    ],
)
def test_group_of(family: str | None, slot: str | None, by: str, expected: str | None) -> None:
    assert group_of(ex("supersedes", family, slot), by) == expected  # type: ignore[arg-type]


def test_breakdown_counts_errors_and_sorts_by_them() -> None:
    examples = [
        ex("supersedes", "a.supersedes.stop", "a"),
        ex("supersedes", "b.supersedes.stop", "b"),
        ex("supersedes", "a.supersedes.stop", "a"),
        ex("unrelated", "a.unrelated.othersubj", "a"),
        ex("contradicts", "b.contradicts.deny", "b"),
        ex("contradicts"),
    ]
    predicted = ["contradicts", "contradicts", "elaborates", "unrelated", "supersedes", "contradicts"]
    rows = error_breakdown(examples, predicted, "construction")
    assert [(r.group, r.errors, r.pairs) for r in rows] == [
        ("supersedes.stop", 3, 3),
        ("contradicts.deny", 1, 1),
        ("(none)", 0, 1),
        ("unrelated.othersubj", 0, 1),
    ]
    assert [(c.gold, c.predicted, c.count) for c in rows[0].confusions] == [
        ("supersedes", "contradicts", 2),
        ("supersedes", "elaborates", 1),
    ]
    assert rows[0].error_rate == 1.0 and rows[2].confusions == []
    by_slot = error_breakdown(examples, predicted, "slot")
    assert [(r.group, r.errors) for r in by_slot] == [("b", 2), ("a", 2), ("(none)", 0)]  # tie: b has the higher rate


@pytest.mark.parametrize(
    ("examples", "predicted", "by", "message"),
    [
        ([ex("supersedes")], ["supersedes", "unrelated"], "family", "predicted: has 2 labels for 1 pairs"),
        (
            [ex("supersedes"), ex("unrelated")],
            ["supersedes", "unrelated"],
            "construction",
            "--by: construction: no pair in the data has a 'family' field",
        ),
        ([ex("supersedes", "f")], ["supersedes"], "slot", "--by: slot: no pair in the data has a 'slot' field"),
    ],
    ids=["length-mismatch", "no-family-anywhere", "no-slot-anywhere"],
)
def test_breakdown_errors(examples: list, predicted: list[str], by: str, message: str) -> None:
    with pytest.raises(InputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        error_breakdown(examples, predicted, by)  # type: ignore[arg-type]
