"""The hand-labelled store pairs (tests/data/store_pairs/) are exactly the pairs relabel compares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writegate.relabel.plan import DEFAULT_K, build_plan
from writegate.relabel.stores.jsonl import JsonlSource
from writegate.training.datafile import read_examples

ROOT = Path(__file__).resolve().parent.parent
PAIRS = ROOT / "tests" / "data" / "store_pairs" / "store_pairs.jsonl"


@pytest.mark.parametrize("store", ["memories", "legacy_store"])
def test_the_labelled_pairs_are_the_pairs_relabel_compares(store: str) -> None:
    plan = build_plan(JsonlSource(ROOT / "examples" / f"{store}.jsonl").rows(), DEFAULT_K)
    compared = {(plan.records[e].id, plan.records[n].id) for e, n in plan.pairs}
    labelled = {
        tuple(ex.id.split(":", 1)[1].split(">")) for ex in read_examples(PAIRS) if ex.id.startswith(f"{store}:")
    }
    assert labelled == compared
    by_id = {r.id: r for r in plan.records}
    for line in map(json.loads, PAIRS.read_text(encoding="utf-8").splitlines()):
        if line["id"].startswith(f"{store}:"):
            existing, new = line["id"].split(":", 1)[1].split(">")
            assert (line["existing"]["text"], line["new"]["text"]) == (by_id[existing].text, by_id[new].text)
