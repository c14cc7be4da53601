"""`bench/engines.py`: two model dirs, the same pairs, one table (figures are not asserted: speed is
the benchmark's to measure, not a test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "engines.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_two_models_on_the_same_pairs(tiny_model_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "engines.json"
    res = _run(
        "--model", f"old={tiny_model_dir}", "--model", f"new={tiny_model_dir}",
        "--pairs", "12", "--rounds", "2", "--json", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    rows = json.loads(out.read_text())
    assert [r["model"] for r in rows] == ["old", "new"]
    assert rows[0]["ratio"] == 1.0
    assert rows[0]["tokens_per_pair"] == rows[1]["tokens_per_pair"] > 0
    assert all(r["slowest"] <= r["pairs_per_s"] <= r["fastest"] for r in rows)
    assert "bare engine" in res.stdout and "12 pairs" in res.stdout


def test_bad_arguments_are_named(tiny_model_dir: Path) -> None:
    res = _run("--model", str(tiny_model_dir))
    assert res.returncode == 2 and "--model: expected NAME=DIR" in res.stderr
    res = _run("--model", f"a={tiny_model_dir}", "--model", f"a={tiny_model_dir}")
    assert res.returncode == 2 and "names must differ" in res.stderr
    res = _run("--model", f"a={tiny_model_dir}", "--rounds", "0")
    assert res.returncode == 2 and "--rounds: must be ≥ 1, got 0" in res.stderr
    res = _run("--model", f"a={tiny_model_dir / 'nope'}")
    assert res.returncode == 2 and "nope" in res.stderr and "Traceback" not in res.stderr
