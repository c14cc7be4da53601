"""Relabel's candidates by meaning: the blocked top-K, the merge with same-slot partners, the planted store."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import RuleEngine, argv, relabel_summary

from writegate.cli.main import main
from writegate.errors import InputError
from writegate.relabel import candidates
from writegate.relabel.candidates import DEFAULT_RETRIEVAL, Retrieval, nearest, subject_pairs, subject_vectors
from writegate.relabel.plan import DEFAULT_K, Plan, build_plan
from writegate.relabel.run import RelabelOptions, relabel
from writegate.relabel.stores.jsonl import JsonlSource, jsonl_rows

ROOT = Path(__file__).resolve().parents[1]
PLANTED = ROOT / "tests" / "data" / "planted"


def _unit(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _brute(v: np.ndarray, k: int) -> np.ndarray:
    sims = v @ v.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1, kind="stable")[:, : min(k, len(v) - 1)]


# -- the blocked top-K ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "block", "k"), [(2, 64, 8), (9, 4, 3), (300, 7, 8), (300, 64, 1), (1000, 128, 8)])
def test_nearest_is_the_exact_top_k_whatever_the_block(n: int, block: int, k: int) -> None:
    v = _unit(n)
    got = nearest(v, k, block=block)
    assert got.shape == (n, min(k, n - 1)) and got.dtype == np.int64
    np.testing.assert_array_equal(got, _brute(v, k))
    assert not np.any(got == np.arange(n)[:, None])  # never a row itself


def test_nearest_of_nothing_and_of_one() -> None:
    assert nearest(np.zeros((0, 4), dtype=np.float32), 8).shape == (0, 0)
    assert nearest(_unit(1), 8).shape == (1, 0)


def test_nearest_with_duplicate_rows_is_deterministic_and_keeps_the_duplicates_first() -> None:
    v = np.repeat(_unit(20), 3, axis=0)  # each vector three times: exact ties
    first = nearest(v, 4, block=8)
    np.testing.assert_array_equal(first, nearest(v.copy(), 4, block=8))
    for i in range(len(v)):
        twins = {3 * (i // 3) + t for t in range(3)} - {i}
        assert set(first[i, :2].tolist()) == twins


def test_subject_vectors_spill_to_a_temporary_file_above_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(candidates, "SPILL_VECTORS", 10)
    monkeypatch.setattr(candidates, "EMBED_CHUNK", 4)
    v = _unit(25)
    calls: list[int] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(len(texts))
        return v[[int(t) for t in texts]]

    with subject_vectors(embed, [str(i) for i in range(25)], 16) as vectors:
        assert isinstance(vectors, np.memmap)
        path = Path(vectors.filename)
        np.testing.assert_array_equal(nearest(vectors, 5, block=8), _brute(v, 5))
    assert calls == [4, 4, 4, 4, 4, 4, 1]  # never more than EMBED_CHUNK texts at once
    assert not path.exists()
    with subject_vectors(embed, ["1", "2"], 16) as small:
        assert not isinstance(small, np.memmap)


# -- the merge with same-slot partners ------------------------------------------------------------------


def test_meaning_fills_after_the_same_slot_partners() -> None:
    # 0..3 share a slot; 4 and 5 share nothing, but 5 is nearest to 4 by meaning
    texts = ["tz a", "tz b", "tz c", "tz d", "no words in common", "other text entirely"]
    slots = [("timezone",)] * 4 + [(), ()]
    similar = np.array([[1, 2], [0, 2], [1, 3], [4, 5], [5, 0], [4, 0]])
    pairs = subject_pairs([float(i) for i in range(6)], slots, texts, k=2, retrieval=Retrieval.MEANING, similar=similar)
    assert (4, 5) in pairs and (0, 4) in pairs  # 4's two nearest by meaning
    assert [p for p in pairs if 3 in p] == [(1, 3), (2, 3)]  # 3's slot partners fill its K: no meaning partner
    words = subject_pairs([float(i) for i in range(6)], slots, texts, k=2)
    assert (4, 5) not in words  # no shared term


def test_both_takes_the_two_rankings_in_turn() -> None:
    texts = ["apple pie", "apple tart", "fruit dessert", "something else"]
    similar = np.array([[2, 3, 1], [0, 2, 3], [0, 1, 3], [2, 0, 1]])
    pairs = subject_pairs([0.0, 1.0, 2.0, 3.0], [()] * 4, texts, k=2, retrieval=Retrieval.BOTH, similar=similar)
    partners_of_0 = {b for a, b in pairs if a == 0}
    assert {1, 2} <= partners_of_0  # 2 by meaning first, then 1 by words ("apple")


def test_meaning_needs_each_records_neighbours() -> None:
    with pytest.raises(ValueError, match="retrieval meaning needs each record's nearest records by meaning"):
        subject_pairs([0.0, 1.0], [(), ()], ["a", "b"], k=2, retrieval=Retrieval.MEANING)


# -- stores -----------------------------------------------------------------------------------------------


def _compared(plan: Plan) -> set[tuple[str, str]]:
    return {(plan.records[e].id, plan.records[n].id) for e, n in plan.pairs}


def test_vegetarian_and_steak_are_compared_in_the_example_store() -> None:
    rows = JsonlSource(ROOT / "examples" / "memories.jsonl").rows()
    plan = build_plan(rows, DEFAULT_K)
    by_id = {r.id: r.text for r in plan.records}
    assert (by_id["a16"], by_id["a17"]) == ("I am vegetarian", "I eat steak every Friday")
    assert ("a16", "a17") in _compared(plan)
    words = build_plan(JsonlSource(ROOT / "examples" / "memories.jsonl").rows(), DEFAULT_K, retrieval=Retrieval.WORDS)
    assert ("a16", "a17") not in _compared(words)  # they share no word


def _planted(name: str) -> list[tuple[str, str]]:
    lines = (PLANTED / name).read_text(encoding="utf-8").splitlines()
    return [(f"{p['id']}o", f"{p['id']}n") for p in map(json.loads, lines)]


def test_the_default_finds_the_planted_conflicts() -> None:
    """docs/relabel.md, "Candidates": the default retrieval and K find ≥ 0.95 of the planted pairs."""
    plan = build_plan(JsonlSource(PLANTED / "store.jsonl").rows(), DEFAULT_K, retrieval=DEFAULT_RETRIEVAL)
    pairs = _planted("pairs.jsonl")
    found = sum(p in _compared(plan) for p in pairs)
    assert len(pairs) == 50 and found / len(pairs) >= 0.95
    words = build_plan(JsonlSource(PLANTED / "store.jsonl").rows(), DEFAULT_K, retrieval=Retrieval.WORDS)
    assert sum(p in _compared(words) for p in pairs) / len(pairs) < 0.2


def test_the_plan_is_the_same_in_worker_processes(tiny_model_dir: Path) -> None:
    from writegate.classifier.feeder import Feeder

    lines = (PLANTED / "store.jsonl").read_text(encoding="utf-8").splitlines()[:60]
    here = build_plan(jsonl_rows(lines), 4)
    feeder = Feeder(tiny_model_dir, workers=1)
    try:
        there = build_plan(jsonl_rows(lines), 4, mapper=feeder.map)
    finally:
        feeder.close()
    assert there.sha256 == here.sha256 and there.pairs == here.pairs


def test_a_missing_embedder_fails_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=f"embedder: {tmp_path / 'none'} is not a directory; pass --embedder DIR"):
        build_plan(jsonl_rows([]), 4, embedder=tmp_path / "none")
    assert build_plan(jsonl_rows([]), 4, retrieval=Retrieval.WORDS, embedder=tmp_path / "none").pairs == []


# -- the CLI ----------------------------------------------------------------------------------------------


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "store.jsonl"
    store.write_text((ROOT / "examples" / "memories.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    return store


def test_cli_refuses_an_embedder_with_words(
    tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture
) -> None:
    args = argv("relabel", input=_store(tmp_path), out=tmp_path / "o" / "e.jsonl", model=tiny_model_dir, quiet=True)
    assert main([*args, "--candidates", "words", "--embedder", str(tmp_path)]) == 2
    assert "--embedder: --candidates words uses no embedder" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_candidates_are_in_the_summary_and_a_changed_one_is_refused_on_resume(tmp_path: Path) -> None:
    store, out = _store(tmp_path), tmp_path / "edges.jsonl"

    class Stop(Exception):
        pass

    def stop_after_first_chunk(step: str) -> None:
        if step == "chunk:0":
            raise Stop

    words = RelabelOptions(input=store, out=out, chunk_size=8, candidates=Retrieval.WORDS)
    with pytest.raises(Stop):
        relabel(words, RuleEngine({}), on_step=stop_after_first_chunk)
    with pytest.raises(InputError, match=r"\(changed: candidates, embedder_sha256, "):
        relabel(RelabelOptions(input=store, out=out, chunk_size=8), RuleEngine({}))
    words_pairs = relabel(words, RuleEngine({})).pairs  # the same options: resumes
    assert relabel_summary(out)["options"]["candidates"] == "words"
    default = relabel(RelabelOptions(input=store, out=out, chunk_size=8), RuleEngine({}))
    assert relabel_summary(out)["options"]["candidates"] == DEFAULT_RETRIEVAL.value
    assert default.pairs > words_pairs
