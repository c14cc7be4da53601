"""The training mix: weights, repeats, dev caps, content-free negatives, determinism and errors."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from writegate.classifier.guard import is_content_free
from writegate.classifier.labels import Label
from writegate.classifier.types import Pair, Side
from writegate.errors import InputError
from writegate.training.commands import train as train_command
from writegate.training.datafile import Example, read_examples
from writegate.training.presets import PRESETS
from writegate.training.real import SOURCES
from writegate.training.real.mix import build_mix, junk_pairs, junk_text, sample

T = datetime(2026, 1, 1, tzinfo=UTC)


def ex(i: int, label: Label = Label.CORROBORATES, prefix: str = "x") -> Example:
    return Example(
        id=f"{prefix}{i}",
        label=label,
        pair=Pair(
            existing=Side(text=f"Alice lives in town {prefix}{i}", observed_at=T),
            new=Side(text=f"Alice resides in town {prefix}{i}", observed_at=T),
        ),
    )


@pytest.mark.parametrize(
    ("size", "n", "expected"),
    [(5, 3, 3), (5, 5, 5), (2, 5, 5), (3, 0, 0), (0, 4, 0)],
    ids=["fewer", "all", "repeated", "none", "empty-part"],
)
def test_sample_sizes(size: int, n: int, expected: int) -> None:
    items = [ex(i) for i in range(size)]
    got = sample(items, n, random.Random(0))
    assert len(got) == expected
    if size and n >= size:
        assert {e.id for e in got} == {e.id for e in items}  # every example at least once


def test_junk_texts_state_nothing_and_pairs_are_unrelated_either_way_round() -> None:
    rng = random.Random(1)
    assert all(is_content_free(junk_text(rng)) for _ in range(500))
    pairs = junk_pairs(["Alice lives in Berlin", "Bob owns the Acme account"], 200, seed=3)
    assert {p.label for p in pairs} == {Label.UNRELATED}
    junk_new = sum(is_content_free(p.pair.new.text) for p in pairs)
    assert 60 < junk_new < 140  # both orders occur
    assert all(is_content_free(p.pair.new.text) != is_content_free(p.pair.existing.text) for p in pairs)


def test_build_mix_follows_the_weights_caps_dev_and_is_deterministic(tmp_path: Path) -> None:
    parts = {
        "snli": ([ex(i, prefix="s") for i in range(10)], [ex(i, prefix="sd") for i in range(6)]),
        "generated": ([ex(i, Label.SUPERSEDES, "g") for i in range(4)], [ex(0, Label.SUPERSEDES, "gd")]),
    }
    weights = {"snli": 3, "generated": 8}
    one = build_mix(parts, weights, dev_cap=2, junk=5, seed=7, out=tmp_path / "a")
    build_mix(parts, weights, dev_cap=2, junk=5, seed=7, out=tmp_path / "b")
    for name in ("train.jsonl", "dev.jsonl", "mix.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    train = read_examples(tmp_path / "a" / "train.jsonl")
    dev = read_examples(tmp_path / "a" / "dev.jsonl")
    assert (len(train), len(dev), one["train"], one["dev"]) == (3 + 8 + 5, 2 + 1, 16, 3)
    assert sum(e.id.startswith("g") for e in train) == 8 and sum(e.id.startswith("junk-") for e in train) == 5
    assert json.loads((tmp_path / "a" / "mix.json").read_text())["parts"]["generated"]["train"] == {"supersedes": 8}


@pytest.mark.parametrize(
    ("weights", "message"),
    [({"nope": 1}, "name parts that are not there: nope"), ({"snli": -1}, "must be ≥ 0: snli")],
    ids=["unknown", "negative"],
)
def test_build_mix_bad_weights(tmp_path: Path, weights: dict[str, int], message: str) -> None:
    with pytest.raises(InputError, match=message):
        build_mix({"snli": ([ex(0)], [])}, weights, dev_cap=1, junk=0, seed=0, out=tmp_path)


def test_the_default_preset_trains_only_on_sources_that_may_ship() -> None:
    mix = PRESETS["default"].mix
    assert all(SOURCES[name].shippable for name in mix if name != "generated")


def test_a_mix_needs_the_real_dir(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--real-dir: is required"):
        train_command._mix(tmp_path, tmp_path, PRESETS["default"], None)


def test_the_model_card_lists_every_part_with_its_licence_and_rows() -> None:
    from writegate.training.model_card import mix_table

    manifest = {
        "mix": {
            "parts": {
                "snli": {"train": {"unrelated": 2, "contradicts": 1}, "dev": {"unrelated": 1}},
                "junk": {"train": {"unrelated": 3}, "dev": {}},
            }
        },
        "real": {"sources": {"snli": {"licence": "CC BY-SA 4.0", "rows_read": 19645}}},
    }
    rows = mix_table(manifest)[3:-1]  # after the blank line, the head and its rule; before the closing blank
    assert rows == [
        "| snli | CC BY-SA 4.0 | 19645 | unrelated 2, contradicts 1 | 1 |",
        "| junk | content-free negatives (training/real/mix.py) | — | unrelated 3 | 0 |",
    ]
    assert mix_table({"version": "2.13.0"}) == []


def test_the_default_preset_draws_what_the_shipped_model_was_trained_on() -> None:
    """`writegate train --preset default` reproduces models/default: the card's mix table holds the preset's weights."""
    card = (Path(__file__).parent.parent / "models" / "default" / "MODEL_CARD.md").read_text(encoding="utf-8")
    lines = card.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| part | licence"))
    drawn = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        drawn[cells[0]] = sum(int(x.split()[-1]) for x in cells[3].split(","))
    preset = PRESETS["default"]
    assert drawn == {**preset.mix, "junk": preset.junk_pairs}


def test_a_mix_naming_an_unknown_source_is_refused(tmp_path: Path) -> None:
    preset = PRESETS["default"].model_copy(update={"mix": {"generated": 1, "sick": 5}})
    with pytest.raises(InputError, match="preset: mix names unknown source\\(s\\) sick; known: snli"):
        train_command._mix(tmp_path, tmp_path, preset, tmp_path)


def test_a_real_dir_without_the_sources_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        train_command._mix(tmp_path / "w", tmp_path, PRESETS["default"], tmp_path / "nothing")
    assert str(err.value) == f"--real-dir: {tmp_path / 'nothing'} is not a directory"
    with pytest.raises(InputError) as err:
        train_command._mix(tmp_path / "w", tmp_path, PRESETS["default"], tmp_path)
    assert str(err.value).startswith(f"--real-dir: missing in {tmp_path}: snli.jsonl")
