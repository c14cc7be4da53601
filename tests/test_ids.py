"""One id rule for every entry point: `validate_id` (gRPC requests and `writegate relabel`'s store)."""

from __future__ import annotations

import json

import pytest

from writegate.errors import InputError
from writegate.normalizer.api import MAX_ID_CHARS, validate_id
from writegate.relabel.stores.jsonl import parse_record

GOOD = {
    "ascii": "mem-0001",
    "unicode": "mémoire·東京",
    "inner-space": "a b",
    "at-limit": "x" * MAX_ID_CHARS,
    "emoji": "note-🙂",
}

BAD = {
    "not-a-string": (7, "must be a string, got int"),
    "empty": ("", "is empty"),
    "over-limit": ("x" * (MAX_ID_CHARS + 1), f"is over {MAX_ID_CHARS} characters ({MAX_ID_CHARS + 1})"),
    "nul": ("a\x00b", "contains a control character (U+0000)"),
    "tab": ("a\tb", "contains a control character (U+0009)"),
    "newline": ("a\nb", "contains a control character (U+000A)"),
    "carriage-return": ("a\r", "contains a control character (U+000D)"),
    "escape": ("\x1b[31m", "contains a control character (U+001B)"),
    "del": ("a\x7f", "contains a control character (U+007F)"),
    "c1-nel": ("a\x85b", "contains a control character (U+0085)"),
    "c1-last": ("\x9f", "contains a control character (U+009F)"),
    "lone-high-surrogate": ("a\ud800", "contains invalid UTF-8 (a lone surrogate, U+D800)"),
    "lone-low-surrogate": ("\udcc3", "contains invalid UTF-8 (a lone surrogate, U+DCC3)"),
    "spaces-only": ("   ", "is whitespace only"),
    "ideographic-space-only": ("\u3000", "is whitespace only"),
}


@pytest.mark.parametrize("value", GOOD.values(), ids=GOOD.keys())
def test_validate_id_accepts(value: str) -> None:
    assert validate_id(value, "memory.id") == value


@pytest.mark.parametrize(("value", "message"), BAD.values(), ids=BAD.keys())
def test_validate_id_rejects_naming_the_field(value: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        validate_id(value, "candidates[2].id")
    assert (info.value.field, info.value.message) == ("candidates[2].id", message)


RELABEL_IDS = {k: BAD[k] for k in ("tab", "newline", "carriage-return", "c1-nel", "nul", "lone-low-surrogate")}


@pytest.mark.parametrize(("value", "message"), RELABEL_IDS.values(), ids=RELABEL_IDS.keys())
def test_relabel_store_line_uses_the_same_id_rule(value: str, message: str) -> None:
    line = json.dumps({"id": value, "subject": "user:alice", "text": "likes tea", "observed_at": "2026-01-01"})
    with pytest.raises(InputError) as info:
        parse_record(line, 1)
    assert (info.value.field, info.value.message) == ("id", message)
