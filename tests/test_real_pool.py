"""The unlabelled pool (training/real/pool.py) on inline source files, not on a copy of the datasets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import write_jsonl

from writegate.training.datafile import read_examples
from writegate.training.real import pool
from writegate.training.real.common import norm, split_of


def _named(split: str, stem: str) -> str:
    """The first `stem N` whose group hash falls in `split`."""
    return next(f"{stem} {i}" for i in range(1000) if split_of(norm(f"{stem} {i}")) == split)


def _sgd_dialogue(split: str) -> str:
    return next(f"9_{i:05d}" for i in range(1000) if split_of(f"train:9_{i:05d}") == split)


def _sources(tmp_path: Path) -> Path:
    train_premise, dev_premise = _named("train", "A dog runs on the beach"), _named("dev", "A man rides a bike")
    nli = [
        {"id": "n1", "a": train_premise, "b": "The dog is outside.", "label": "entailment"},
        {"id": "n2", "a": train_premise, "b": "The dog sleeps on a sofa.", "label": "contradiction"},
        {"id": "n3", "a": train_premise, "b": "The dog chases a ball.", "label": "neutral"},
        {"id": "n4", "a": dev_premise, "b": "A man is outdoors.", "label": "entailment"},
        {"id": "n5", "a": dev_premise, "b": "The dog chases a ball.", "label": "neutral"},  # a dev text
    ]
    train_entity, dev_entity = _named("train", "Club"), _named("dev", "Club")

    def timeqa(entity: str, relation: str, qas: dict[str, str]) -> dict[str, Any]:
        questions = [{"question": q, "answers": [a]} for q, a in qas.items()]
        return {"id": f"{entity}-{relation}", "entity": entity, "relation": relation, "questions": questions}

    tq = [
        timeqa(train_entity, "P286", {f"Who coached {train_entity} from 2001 to 2003?": "Ann Lee"}),
        timeqa(
            train_entity,
            "P115",
            {f"Which stadium was the home ground of {train_entity} from 2005 to 2009?": "Old Park"},
        ),
        timeqa(dev_entity, "P286", {f"Who coached {dev_entity} from 2001 to 2003?": "Bo Ek"}),
    ]
    dialogue, dev_dialogue = _sgd_dialogue("train"), _sgd_dialogue("dev")

    def sgd(rid: str, dia: str, old: str, new: str) -> dict[str, Any]:
        return {"id": rid, "dialogue_id": dia, "split": "train", "old_utterance": old, "new_utterance": new}

    sgd_rows = [
        sgd("g1", dialogue, "Book a table at Sipan for two.", "Actually, make it Rosie's."),
        sgd("g2", dialogue, "Actually, make it Rosie's.", "I also need a cab to the airport."),
        sgd("g3", dev_dialogue, "Find me a hotel in Paris.", "Change it to Lyon."),
    ]
    real = tmp_path / "real"
    real.mkdir()
    write_jsonl(real / "snli.jsonl", nli)
    write_jsonl(real / "oie_nli.jsonl", nli[:2])
    write_jsonl(real / "timeqa.jsonl", tq)
    write_jsonl(real / "sgd_changes.jsonl", sgd_rows)
    return real


def test_the_pool_pairs_train_groups_only_and_no_dev_text(tmp_path: Path) -> None:
    got = list(pool.mine(_sources(tmp_path)))
    texts = {(p["family"], p["existing"]["text"], p["new"]["text"]) for p in got}
    assert ("snli.hypotheses", "The dog is outside.", "The dog sleeps on a sofa.") in texts
    assert not any("chases a ball" in e + n for _, e, n in texts)  # shared with a dev premise
    assert not any("A man is outdoors." in e + n for _, e, n in texts)  # a dev group
    tq = [p for p in got if p["family"] == "timeqa.any_two"]
    assert len(tq) == 1 and {tq[0]["existing"]["text"], tq[0]["new"]["text"]} == {
        f"Ann Lee coached {_named('train', 'Club')}.",
        f"The home ground of {_named('train', 'Club')} was Old Park.",
    }  # two relations of one entity: the build never pairs them
    sgd = sorted((p["existing"]["text"], p["new"]["text"]) for p in got if p["family"] == "sgd_changes.same_dialogue")
    assert len(sgd) == 3 and ("Book a table at Sipan for two.", "I also need a cab to the airport.") in sgd
    assert all("label" not in p and p["id"].startswith("pool:") for p in got)
    assert len({p["id"] for p in got}) == len(got)


def test_the_pool_command_writes_pairs_a_teacher_can_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real, out = _sources(tmp_path), tmp_path / "pool.jsonl"
    assert pool.main(["--real-dir", str(real), "--out", str(out)]) == 0
    first = out.read_bytes()
    assert pool.main(["--real-dir", str(real), "--out", str(out)]) == 0
    assert out.read_bytes() == first  # the same input, the same bytes
    assert "total" in capsys.readouterr().out
    rows = [json.loads(line) for line in first.decode().splitlines()]
    scores = {name: 0.2 for name in ("unrelated", "corroborates", "elaborates", "contradicts", "supersedes")}
    soft = write_jsonl(tmp_path / "scores.jsonl", [{"id": r["id"], "scores": scores} for r in rows])
    examples = read_examples(out, soft)
    assert len(examples) == len(rows) and not any(ex.gold for ex in examples)
    assert pool.main(["--real-dir", str(real), "--out", str(out), "--max-per-source", "1"]) == 0
    assert len(out.read_text().splitlines()) == 4  # one per source


@pytest.mark.parametrize(
    ("extra", "remove", "message"),
    [
        ([], "timeqa.jsonl", "pool: .*timeqa.jsonl: missing \\(the pool needs timeqa, sgd_changes, snli, oie_nli\\)"),
        (["--max-per-source", "0"], None, "--max-per-source: must be at least 1, got 0"),
    ],
    ids=["missing-source", "zero-cap"],
)
def test_the_pool_command_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], remove: str | None, message: str
) -> None:
    import re

    real = _sources(tmp_path)
    if remove:
        (real / remove).unlink()
    assert pool.main(["--real-dir", str(real), "--out", str(tmp_path / "p.jsonl"), *extra]) == 2
    assert re.search(message, capsys.readouterr().err)
