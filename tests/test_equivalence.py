"""The commands give the outputs recorded before the refactor of issue 43 (see tests/equivalence.py)."""

from __future__ import annotations

import equivalence
import pytest


def test_normalize_classify_and_relabel_outputs_are_unchanged() -> None:
    pytest.importorskip("faker", reason="the generated pairs need the generator (the `train` extra)")
    found = list(equivalence.differences(equivalence.recorded(), equivalence.record_all()))
    assert not found, f"{len(found)} differences, first: " + "\n".join(found[:20])


def test_the_comparison_catches_a_changed_label_score_and_record() -> None:
    before = equivalence.recorded()
    after = equivalence.recorded()
    edge = after["relabel"]["examples/memories.jsonl"]["edges"][0]
    edge["label"] = "unrelated" if edge["label"] != "unrelated" else "supersedes"
    after["classify"]["generated"][3]["scores"] = {
        k: v + 0.01 for k, v in after["classify"]["generated"][3]["scores"].items()
    }
    after["normalize"]["examples/memories.jsonl"][5] = "0" * 16
    found = list(equivalence.differences(before, after))
    assert any("relabel examples/memories.jsonl edges line 1: label" in f for f in found), found
    assert any("classify generated line 4: scores" in f for f in found), found
    assert "normalize examples/memories.jsonl line 6 differs" in found
