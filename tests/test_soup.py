"""Model soup (training/soup.py): weight averaging, member checkpoints, and `train --soup`."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import quick_train_argv, small_data

from writegate.cli.main import main
from writegate.training.presets import PRESETS, Preset

torch = pytest.importorskip("torch", reason="model soups need torch (the `train` extra)")
soup = pytest.importorskip("writegate.training.soup")


# -- averaging ----------------------------------------------------------------------------------------
def test_average_is_the_fp16_rounded_mean_of_the_fp16_weights() -> None:
    a = {"w": torch.tensor([1.0, 0.1, -2.0]), "ids": torch.tensor([0, 1, 2])}
    b = {"w": torch.tensor([3.0, 0.2, 2.0]), "ids": torch.tensor([0, 1, 2])}
    avg = soup.average_state_dicts([a, b])
    expected = ((a["w"].half().float() + b["w"].half().float()) / 2).half().float()
    assert torch.equal(avg["w"], expected) and avg["w"].dtype == torch.float32
    assert avg["w"].tolist()[0] == 2.0 and avg["w"].tolist()[2] == 0.0
    assert torch.equal(avg["ids"], a["ids"])  # integer buffers are taken as they are


@pytest.mark.parametrize(
    ("states", "message"),
    [
        ([], "no state dicts to average"),
        ([{"w": torch.zeros(2)}, {"v": torch.zeros(2)}], "state dict 1 has other keys than state dict 0"),
        ([{"w": torch.zeros(2)}, {"w": torch.zeros(3)}], "w has different shapes across state dicts"),
    ],
    ids=["none", "other-keys", "other-shapes"],
)
def test_average_refuses_states_that_do_not_match(states: list[dict], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        soup.average_state_dicts(states)


# -- member checkpoints -------------------------------------------------------------------------------
def test_a_member_is_reused_only_when_complete_and_its_fingerprint_matches(tmp_path: Path) -> None:
    where = soup.member_dir(tmp_path, 1)
    assert soup.load_member(where, "abc") is None  # nothing saved
    state = {"w": torch.tensor([0.5, 1.5])}
    soup.save_member(where, state, soup.MemberRecord(fingerprint="abc", data_seed=7, steps=3, train_seconds=1.0))
    assert soup.load_member(where, "other") is None
    loaded, record = soup.load_member(where, "abc")
    assert torch.equal(loaded["w"].float(), state["w"]) and record.reused and record.data_seed == 7
    (where / soup.WEIGHTS_FILE).unlink()
    assert soup.load_member(where, "abc") is None  # a record without weights is not a member


def test_the_fingerprint_follows_recipe_order_data_and_base(tmp_path: Path) -> None:
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"base")
    rows = [{"input_ids": [101, 7, 102], "token_type_ids": [0, 0, 0], "labels": 1}]
    key = soup.fingerprint(Preset(), None, rows, rows, weights)
    assert key == soup.fingerprint(Preset(soup=(7,)), None, rows, rows, weights)  # the soup itself is not the member
    assert key != soup.fingerprint(Preset(), 7, rows, rows, weights)
    assert key != soup.fingerprint(Preset(lr=1e-4), None, rows, rows, weights)
    assert key != soup.fingerprint(Preset(), None, [{**rows[0], "labels": 2}], rows, weights)
    weights.write_bytes(b"other base")
    assert key != soup.fingerprint(Preset(), None, rows, rows, weights)


# -- train --soup ---------------------------------------------------------------------------------------
def _train(tiny_model_dir: Path, tmp_path: Path, out: str, *extra: str) -> Path:
    assert main(quick_train_argv(tiny_model_dir, tmp_path, tmp_path / out, *extra)) == 0
    return tmp_path / out


def test_a_soup_is_the_average_of_its_members_and_a_rerun_reuses_them(tiny_model_dir: Path, tmp_path: Path) -> None:
    from safetensors.torch import load_file

    singles = [
        load_file(str(_train(tiny_model_dir, tmp_path, name, *extra) / "model.safetensors"))
        for name, extra in (("file-order", ()), ("seed7", ("--data-seed", "7")))
    ]
    work = tmp_path / "work"
    souped = _train(tiny_model_dir, tmp_path, "soup", "--soup", "7", "--work-dir", str(work))
    weights = load_file(str(souped / "model.safetensors"))
    expected = soup.average_state_dicts(singles)
    assert all(torch.equal(weights[k].float(), expected[k]) for k in weights)
    assert any(not torch.equal(singles[0][k], singles[1][k]) for k in weights)  # the members differ
    card = (souped / "MODEL_CARD.md").read_text()
    assert "the uniform average (model soup, training/soup.py) of 2 runs" in card
    assert "file order (3 steps" in card and "data seed 7 (3 steps" in card and "reused" not in card

    again = _train(tiny_model_dir, tmp_path, "again", "--soup", "7", "--work-dir", str(work))
    assert (again / "model.safetensors").read_bytes() == (souped / "model.safetensors").read_bytes()
    assert (again / "MODEL_CARD.md").read_text().count("reused from the work dir") == 2


def test_soup_members_need_their_own_data_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = small_data(tmp_path / "train.jsonl", 8)
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "o"), "--data-seed", "7", "--soup", "7"]) == 2
    assert (
        "--soup: value error, every member needs its own data seed, different from data_seed (7)"
        in capsys.readouterr().err
    )
    assert not (tmp_path / "o").exists()  # refused before any work


def test_the_default_preset_is_a_soup_iff_the_shipped_model_is_one() -> None:
    """`writegate train --preset default` reproduces models/default: its card lists the soup's members."""
    card = (Path(__file__).parent.parent / "models" / "default" / "MODEL_CARD.md").read_text(encoding="utf-8")
    n = len(PRESETS["default"].soup) + 1
    assert (f"model soup, training/soup.py) of {n} runs" in card) is (n > 1)
    assert Preset().soup == ()
    assert PRESETS["smoke"].soup == ()


def test_members_trained_apart_make_the_same_soup(tiny_model_dir: Path, tmp_path: Path) -> None:
    """`--member` trains one member into its own work dir; a run whose work dir holds them all reuses both."""
    import json
    import shutil

    together = _train(tiny_model_dir, tmp_path, "together", "--soup", "7", "--work-dir", str(tmp_path / "w0"))
    for index in (0, 1):
        member = ("--soup", "7", "--work-dir", tmp_path / f"apart{index}", "--member", index)
        assert main(quick_train_argv(tiny_model_dir, tmp_path, tmp_path / f"unused{index}", *member)) == 0
        assert not (tmp_path / f"unused{index}").exists()  # a member alone is no model dir
        assert sorted(p.name for p in (tmp_path / f"apart{index}" / "members").iterdir()) == [str(index)]
        record = json.loads((soup.member_dir(tmp_path / f"apart{index}", index) / "member.json").read_text())
        assert record["device"].startswith("cpu (") and record["steps"] == 3
    merged = tmp_path / "merged"
    for index in (0, 1):
        shutil.copytree(soup.member_dir(tmp_path / f"apart{index}", index), soup.member_dir(merged, index))
    souped = _train(tiny_model_dir, tmp_path, "souped", "--soup", "7", "--work-dir", str(merged))
    assert (souped / "model.safetensors").read_bytes() == (together / "model.safetensors").read_bytes()
    assert (souped / "MODEL_CARD.md").read_text().count("reused from the work dir") == 2


def test_the_card_names_where_a_member_was_trained_when_it_was_elsewhere(tmp_path: Path) -> None:
    from writegate.training.model_card import training_provenance
    from writegate.training.train import TrainConfig

    cfg = TrainConfig(data=small_data(tmp_path / "train.jsonl", 8), preset=Preset(soup=(7,)))
    here = soup.MemberRecord(fingerprint="a", data_seed=None, steps=4000, train_seconds=60.0, device="cpu (2 threads)")
    there = soup.MemberRecord(
        fingerprint="b",
        data_seed=7,
        steps=4000,
        train_seconds=90.0,
        reused=True,
        device="cuda (NVIDIA H200, bf16 autocast)",
    )
    lines = "\n".join(training_provenance(cfg, n_train=10, n_dev=2, members=[here, there], device="cpu (2 threads)"))
    assert "file order (4000 steps, 1.0 min (60 s))" in lines
    assert (
        "data seed 7 (4000 steps, 1.5 min (90 s) on cuda (NVIDIA H200, bf16 autocast), reused from the work dir)"
        in lines
    )
    assert "training time: 2.5 min (150 s) on cpu (2 threads) and cuda (NVIDIA H200, bf16 autocast);" in lines
    both_there = [here.model_copy(update={"device": there.device}), there]
    lines = "\n".join(training_provenance(cfg, n_train=10, n_dev=2, members=both_there, device="cpu (2 threads)"))
    assert "training time: 2.5 min (150 s) on cuda (NVIDIA H200, bf16 autocast);" in lines  # none here


def test_member_flag_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = small_data(tmp_path / "train.jsonl", 8)
    base = ["train", "--data", str(data), "--out", str(tmp_path / "o"), "--soup", "7"]
    assert main([*base, "--member", "1"]) == 2
    assert "member: needs --work-dir" in capsys.readouterr().err
    assert main([*base, "--member", "2", "--work-dir", str(tmp_path / "w")]) == 2
    assert "member: 2 is not a member of this run: it has 2" in capsys.readouterr().err
    assert main([*base, "--member", "-1", "--work-dir", str(tmp_path / "w")]) == 2
    assert "member: -1 is not a member of this run: it has 2" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() and not (tmp_path / "w").exists()  # refused before any work


def test_train_and_train_member_refuse_each_others_config(tmp_path: Path) -> None:
    from writegate.errors import InputError
    from writegate.training.train import TrainConfig, train, train_member

    cfg = TrainConfig(data=small_data(tmp_path / "train.jsonl", 8), out=tmp_path / "o", preset=Preset(soup=(7,)))
    with pytest.raises(InputError, match="member: trains one member only: call train_member"):
        train(cfg.model_copy(update={"member": 1, "work_dir": tmp_path / "w"}))
    with pytest.raises(InputError, match=r"member: is missing: train_member trains one soup member"):
        train_member(cfg)
    assert not (tmp_path / "o").exists() and not (tmp_path / "w").exists()
