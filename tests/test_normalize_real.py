"""The real-text normalizer set (`tests/data/normalize_real/`): its format, and the normalizer's precision on it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from writegate.normalizer.schema import Edge, EnumValue, Provenance, RecordKind, TimeWindow, Timezone

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "normalize_real"
FILES = ("msc.jsonl", "sgd.jsonl", "other.jsonl", "recurring.jsonl")
VALUE_MODELS = {"time_window": TimeWindow, "timezone": Timezone, "enum": EnumValue, "edge": Edge}
CASE_KEYS = {"id", "source", "field", "text", "subject", "observed_at", "expect"}


def _cases() -> list[dict[str, Any]]:
    out = []
    for name in FILES:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            out.append(json.loads(line))
    return out


def _bench():
    spec = importlib.util.spec_from_file_location("normalize_real_bench", ROOT / "bench" / "normalize_real.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_set_size_and_ids() -> None:
    cases = _cases()
    assert len(cases) >= 300
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    texts = [c["text"] for c in cases]
    assert len(texts) == len(set(texts))
    for c in cases:
        assert set(c) == CASE_KEYS, c["id"]
        assert c["subject"] == "user:sam"
        assert c["text"].strip()
        assert c["source"].split(":", 1)[0] in {"msc_persona", "sgd_changes", "timeqa", "prosecco", "sgd_time_phrase"}


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_expected_records_are_valid(case: dict[str, Any]) -> None:
    expect = case["expect"]
    assert isinstance(expect, list) and expect, "every case lists its records; [{'kind': 'text'}] when none is typed"
    kinds = [e["kind"] for e in expect]
    if "text" in kinds:
        assert expect == [{"kind": "text"}], "text stands alone: no typed record expected"
    for e in expect:
        RecordKind(e["kind"])
        assert not {"slot", "confidence", "half_life_days"} & set(e), "labels list no slot/confidence"
        if e["kind"] == "text":
            continue
        value = e[e["kind"]]
        VALUE_MODELS[e["kind"]](**value)  # valid per the schema (raises otherwise)
        assert set(e) <= {"kind", e["kind"], "provenance"}
        if e["kind"] == "timezone":
            assert e["provenance"]["kind"] in {"stated", "inferred"}
        if "provenance" in e:
            Provenance(**e["provenance"])
    typed = [json.dumps(e, sort_keys=True) for e in expect if e["kind"] != "text"]
    assert len(typed) == len(set(typed)), "no record listed twice"


def test_third_person_and_booking_sources_expect_no_typed_record() -> None:
    for c in _cases():
        if c["source"].startswith(("timeqa:", "prosecco:", "sgd_changes:")):
            assert c["expect"] == [{"kind": "text"}], c["id"]


def test_score_counts_false_and_missed_records() -> None:
    bench = _bench()
    case = {
        "id": "x",
        "source": "t:1",
        "text": "I live in Boston.",
        "subject": "user:sam",
        "observed_at": "2026-03-02T10:00:00Z",
        "expect": [
            {"kind": "timezone", "timezone": {"timezone": "America/New_York"}, "provenance": {"kind": "inferred"}}
        ],
    }

    class _R:
        def __init__(self, d: dict[str, Any]) -> None:
            self.d = d

        def to_json(self) -> dict[str, Any]:
            return self.d

    tz_ok = {"kind": "timezone", "timezone": {"timezone": "America/New_York"}, "provenance": {"kind": "inferred"}}
    tw_bad = {
        "kind": "time_window",
        "time_window": {"cron": "0 9 * * *", "duration_minutes": 60, "timezone": None, "polarity": "prefer"},
    }
    result = bench.score([case], normalize_fn=lambda *a, **k: [_R(tz_ok), _R(tw_bad)])
    assert result["kinds"]["timezone"] == {
        "emitted": 1,
        "correct": 1,
        "expected": 1,
        "found": 1,
        "precision": 1.0,
        "recall": 1.0,
    }
    assert result["kinds"]["time_window"]["emitted"] == 1 and result["kinds"]["time_window"]["precision"] == 0.0
    assert result["passed"] == 0
    assert [e["error"] for e in result["errors"]] == ["false"]
    result = bench.score([case], normalize_fn=lambda *a, **k: [])
    assert result["kinds"]["timezone"]["recall"] == 0.0 and result["kinds"]["timezone"]["precision"] is None
    assert [e["error"] for e in result["errors"]] == ["missed"]


def test_precision_on_real_text() -> None:
    result = _bench().score(_cases())
    low = {k: v for k, v in result["kinds"].items() if v["emitted"] and v["precision"] < 0.95}
    assert not low, json.dumps(low)
