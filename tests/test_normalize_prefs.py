"""The stated-preference normalizer set (`tests/data/normalize_prefs/`): its format, and the normalizer's quality on it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from writegate.normalizer.schema import Edge, EnumValue, RecordKind, TimeWindow, Timezone

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "normalize_prefs"
PARTS = ("tune.jsonl", "heldout.jsonl", "heldout2.jsonl")
VALUE_MODELS = {"time_window": TimeWindow, "timezone": Timezone, "enum": EnumValue, "edge": Edge}
CASE_KEYS = {"id", "source", "field", "text", "subject", "observed_at", "expect"}
CATEGORIES = {"window-zone", "instruction", "correction", "enum", "other", "place", "trap"}


def _cases(*names: str) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for name in names or PARTS
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def _score(cases: list[dict[str, Any]]) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("normalize_real_bench", ROOT / "bench" / "normalize_real.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.score(cases)


def test_set_size_ids_and_parts() -> None:
    cases = _cases()
    assert len(cases) >= 200
    assert len(_cases("heldout.jsonl")) == 100
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    texts = [c["text"] for c in cases]
    assert len(texts) == len(set(texts)), "no text twice, so no held-out text is also a tuning text"
    for c in cases:
        assert set(c) == CASE_KEYS, c["id"]
        assert c["subject"] == "user:sam"
        assert c["field"] in {"fact", "request"}
        kind, category = c["source"].split(":", 1)
        assert kind == "handwritten" and category in CATEGORIES, c["id"]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_expected_records_are_valid(case: dict[str, Any]) -> None:
    expect = case["expect"]
    assert isinstance(expect, list) and expect
    if any(e["kind"] == "text" for e in expect):
        assert expect == [{"kind": "text"}], "text stands alone: no typed record expected"
        return
    for e in expect:
        RecordKind(e["kind"])
        VALUE_MODELS[e["kind"]](**e[e["kind"]])  # valid per the schema (raises otherwise)
        assert set(e) <= {"kind", e["kind"], "provenance"}
        if e["kind"] == "timezone":
            assert e["provenance"]["kind"] in {"stated", "inferred"}
    typed = [json.dumps(e, sort_keys=True) for e in expect]
    assert len(typed) == len(set(typed)), "no record listed twice"


def test_traps_and_other_peoples_preferences_expect_nothing_of_the_subject() -> None:
    for c in _cases():
        if c["source"] == "handwritten:trap":
            assert c["expect"] == [{"kind": "text"}], c["id"]


@pytest.mark.parametrize("part", PARTS)
def test_precision_per_kind(part: str) -> None:
    result = _score(_cases(part))
    low = {k: v for k, v in result["kinds"].items() if v["emitted"] and v["precision"] < 0.95}
    assert not low, json.dumps(low)


def test_recall_per_kind_on_the_whole_set() -> None:
    result = _score(_cases())
    low = {k: v for k, v in result["kinds"].items() if v["expected"] and v["recall"] < 0.90}
    assert not low, json.dumps(low)
