"""Resumable and exact: a REAL `writegate relabel` process is SIGKILLed mid-run, rerun, and its
files are compared byte for byte with an uninterrupted run.

The kill is deterministic: the hidden flag `--_crash-at STEP` makes the process SIGKILL itself at
one durable step of the checkpoint (`checkpoint.StepHook`): after a chunk's `.tmp` is written but
before its rename, after a chunk is committed, between the final renames, after the work directory
is retired.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from helpers import argv

from writegate.relabel.checkpoint import work_dir_for

TEMPLATES = [
    "User works in {tz}",
    "User moved to {city} last month",
    "{name} owns the {acct} account",
    "The {acct} account was handed off to {name}",
    "User prefers {slot} meetings",
    "User prefers concise answers",
    "User has a dog named {pet}",
    "User reports to {name}",
    "User prefers to be contacted by {channel}",
]
VALUES = {
    "tz": ["EST", "PST", "CET", "JST"],
    "city": ["London", "Singapore", "Berlin", "Tokyo"],
    "name": ["Michelle", "Marcus", "Priya", "Tom"],
    "acct": ["Acme", "Globex", "Initech"],
    "slot": ["morning", "afternoon", "evening"],
    "pet": ["Biscuit", "Rex"],
    "channel": ["email", "slack", "phone"],
}
CHUNK = "24"
FLAGS = {"chunk_size": CHUNK, "batch_size": 8, "keep_unrelated": True, "quiet": True}  # every run's


def _store(path: Path, n: int = 150) -> Path:
    lines = []
    for i in range(n):
        text = TEMPLATES[(i * 7) % len(TEMPLATES)].format(
            **{k: v[(i * 5 + len(k)) % len(v)] for k, v in VALUES.items()}
        )
        day = date(2025, 1, 1) + timedelta(days=(i * 37) % 400)
        lines.append(
            json.dumps({"id": f"m{i:04d}", "subject": f"user:u{i % 4}", "text": text, "observed_at": day.isoformat()})
        )
        if i % 50 == 7:
            lines.append("{broken json")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(store: Path, out: Path, model: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = argv("relabel", *extra, input=store, out=out, model=model, **FLAGS)
    cmd = [sys.executable, "-m", "writegate.cli.main", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.parent.iterdir()) if not p.name.startswith(".")}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, tiny_model_dir: Path) -> tuple[Path, dict[str, bytes]]:
    """The store, and the files of an uninterrupted run."""
    root = tmp_path_factory.mktemp("relabel_ref")
    store = _store(root / "store.jsonl")
    out = root / "ref" / "edges.jsonl"
    done = _run(store, out, tiny_model_dir)
    assert done.returncode == 0, done.stderr
    files = _files(out)
    assert sorted(files) == [
        "edges.conflicts.jsonl",
        "edges.jsonl",
        "edges.rejects.jsonl",
        "edges.roles.jsonl",
        "edges.summary.json",
    ]
    assert len(files["edges.jsonl"].splitlines()) > 4 * int(CHUNK)  # enough chunks to crash between
    return store, files


CRASH_POINTS = [
    ["chunk-written:0"],
    ["chunk:0"],
    ["chunk-written:3"],
    ["chunk:4"],
    ["final-written:edges.jsonl"],
    ["final-renamed:edges.rejects.jsonl"],
    ["final-written:edges.roles.jsonl"],
    ["final-renamed:edges.jsonl"],
    ["final-done"],
    ["chunk:1", "chunk-written:2", "chunk:5"],  # killed three times in a row
]


@pytest.mark.parametrize("points", CRASH_POINTS, ids=["+".join(p) for p in CRASH_POINTS])
def test_sigkill_then_rerun_gives_the_same_bytes(
    tmp_path: Path, tiny_model_dir: Path, reference: tuple[Path, dict[str, bytes]], points: list[str]
) -> None:
    store, want = reference
    out = tmp_path / "run" / "edges.jsonl"
    for point in points:
        killed = _run(store, out, tiny_model_dir, "--_crash-at", point)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
    if points[-1] != "final-done":
        assert work_dir_for(out).is_dir()  # a checkpoint was left to resume
    rerun = _run(store, out, tiny_model_dir)
    assert rerun.returncode == 0, rerun.stderr
    resumed = points[-1] not in ("chunk-written:0", "final-done")  # else no chunk was left committed
    assert ("resuming:" in rerun.stderr) == resumed, rerun.stderr
    assert _files(out) == want
    assert not work_dir_for(out).exists()
    assert not list(out.parent.glob("*.tmp")) and not list(out.parent.glob(".*.tmp"))
