"""bench/gpu_prepare.sh and the parts of bench/gpu_bench.py it feeds: what a device call sends, the
int8 reference (tied to the store, refused when it is not this run's), the ONNX stash and restore,
and the serve row's grpc check."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import gpu_bench  # noqa: E402

MIB = 1 << 20


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q")
    git(r, "config", "user.email", "t@example.com")
    git(r, "config", "user.name", "t")
    return r


def test_travel_bytes_counts_what_a_device_call_sends(repo: Path) -> None:
    (repo / "tracked.bin").write_bytes(b"x" * 1000)
    (repo / "gone.bin").write_bytes(b"x" * 5000)
    (repo / ".gitignore").write_text("ignored.bin\n")
    git(repo, "add", "tracked.bin", "gone.bin", ".gitignore")
    git(repo, "commit", "-qm", "init")
    (repo / "gone.bin").unlink()  # tracked, deleted: does not travel
    (repo / "new.txt").write_bytes(b"y" * 300)  # untracked, not ignored: travels
    (repo / "ignored.bin").write_bytes(b"z" * 7000)  # ignored: stays
    (repo / ".whl").mkdir()
    (repo / ".whl" / "site.tar.xz").write_bytes(b"w" * 2000)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("/.whl/\n")
    parts = gpu_bench.travel_bytes(repo, [".whl"])
    assert parts["tracked files present"] == (2, 1000 + len("ignored.bin\n"))
    assert parts["untracked, not ignored"] == (1, 300)
    assert parts["carry .whl"] == (1, 2000)
    assert sum(size for _, size in parts.values()) == 1000 + 12 + 300 + 2000


def test_print_travel_fails_at_the_limit(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "big").mkdir()
    with (repo / "big" / "f").open("wb") as f:
        f.truncate(gpu_bench.LIMIT_MIB * MIB)  # sparse: costs no disk
    assert gpu_bench.print_travel(repo, ["big"]) == 1
    assert "DOES NOT FIT" in capsys.readouterr().out
    (repo / "big" / "f").unlink()
    assert gpu_bench.print_travel(repo, ["big"]) == 0


def fake_workload(store_sha: str = "a" * 64, sample: list[int] | None = None) -> gpu_bench.Workload:
    records = [SimpleNamespace(id=f"m{i}") for i in range(6)]
    plan = SimpleNamespace(records=records, pairs=[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
    mem = [SimpleNamespace(id=f"m{i}") for i in range(6)]
    requests = [
        SimpleNamespace(memory=mem[0], candidates=[mem[1], mem[2]]),
        SimpleNamespace(memory=mem[3], candidates=[mem[4], mem[5]]),
    ]
    return gpu_bench.Workload(
        store=Path("s"),
        warm_store=Path("w"),
        store_sha256=store_sha,
        plan=plan,  # type: ignore[arg-type]
        sample=[0, 2, 4] if sample is None else sample,
        requests=requests,
        pairs=[None] * 4,
        served_sample=[1, 3],
        served_skip=None,
    )


def test_reference_round_trip_and_refusals(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "model.int8.onnx").write_bytes(b"onnx")
    wl = fake_workload()
    labels = gpu_bench.RefLabels(
        ["unrelated", "supersedes", "elaborates"],
        ["unrelated", "contradicts", "elaborates"],
        ["corroborates", "unrelated"],
        ["corroborates", "supersedes"],
        "test",
    )
    path = tmp_path / "int8_reference.json"
    gpu_bench.write_reference(path, model, wl, labels, {"records": 6})
    got, why = gpu_bench.load_reference(path, wl)
    assert why == "" and got is not None
    assert (got.fused, got.raw, got.served_fused, got.served_raw) == (
        labels.fused,
        labels.raw,
        labels.served_fused,
        labels.served_raw,
    )

    got, why = gpu_bench.load_reference(path, fake_workload(store_sha="b" * 64))
    assert got is None and why.startswith("REFUSED") and "another store" in why

    got, why = gpu_bench.load_reference(path, fake_workload(sample=[0, 1, 4]))
    assert got is None and "not this run's 3 sampled pairs" in why

    path.write_text("{not json")
    got, why = gpu_bench.load_reference(path, wl)
    assert got is None and "unreadable" in why


def test_memory_side_without_the_server_is_the_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    from writegate.api.normalizing import Normalizer
    from writegate.normalizer.schema import Memory

    mem = Memory(
        id="m1",
        subject="user:a",
        text="I moved to Lisbon in March and prefer calls after 3pm",
        observed_at=datetime(2026, 1, 5, 9, tzinfo=UTC),
    )
    (want,) = Normalizer().sides([mem])
    monkeypatch.setitem(sys.modules, "writegate.server.service", None)  # importing it raises ImportError
    assert gpu_bench.memory_side(mem) == want


def test_serve_row_is_skipped_without_grpc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "grpc", None)
    assert gpu_bench.serve_unavailable() is not None
    assert "grpc" in (gpu_bench.serve_unavailable() or "")


def test_serve_row_is_skipped_with_an_old_grpc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "grpc", SimpleNamespace(__version__="1.70.0"))
    assert gpu_bench.serve_unavailable() == "grpcio 1.70.0 < 1.85.1 (writegate_pb2_grpc)"


def test_version_tuple() -> None:
    assert gpu_bench.version_tuple("1.85.3") == (1, 85, 3)
    assert gpu_bench.version_tuple("7.36.2rc1") == (7, 36, 2)
    assert gpu_bench.version_tuple("1.85.1") >= gpu_bench.MIN_GRPC > gpu_bench.version_tuple("1.85.0")


@pytest.fixture
def prep_repo(repo: Path, tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A checkout with the prepare script, a tracked stand-in ONNX, and a stash folder."""
    (repo / "bench").mkdir()
    for name in ("gpu_prepare.sh", "gpu_bench.py", "pipeline.py"):
        shutil.copy2(ROOT / "bench" / name, repo / "bench" / name)
    onnx = repo / "models" / "default" / "model.int8.onnx"
    onnx.parent.mkdir(parents=True)
    onnx.write_bytes(b"int8 model bytes")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "init")
    env = {**os.environ, "PYTHON": sys.executable, "GPU_STASH": str(tmp_path / "stash")}
    return repo, onnx, env


def prep(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    cmd = ["bash", str(repo / "bench" / "gpu_prepare.sh"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)


def test_stash_and_restore(prep_repo: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    repo, onnx, env = prep_repo
    stashed = tmp_path / "stash" / "model.int8.onnx"
    r = prep(repo, env, "--no-wheels", "--no-data")
    assert r.returncode == 0, r.stdout + r.stderr
    assert not onnx.exists() and stashed.read_bytes() == b"int8 model bytes"
    assert "travels:" in r.stdout and "fits" in r.stdout
    r = prep(repo, env, "--no-wheels", "--no-data")  # again: already stashed
    assert r.returncode == 0 and "already stashed" in r.stdout
    r = prep(repo, env, "--no-wheels")  # the reference needs the model in place
    assert r.returncode == 1 and "--restore first" in r.stderr
    for _ in range(2):  # idempotent
        r = prep(repo, env, "--restore")
        assert r.returncode == 0, r.stdout + r.stderr
        assert onnx.read_bytes() == b"int8 model bytes" and not stashed.exists()
        assert git(repo, "status", "--porcelain") == ""


def test_restore_refuses_to_overwrite_a_different_file(
    prep_repo: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, onnx, env = prep_repo
    stashed = tmp_path / "stash" / "model.int8.onnx"
    stashed.parent.mkdir()
    stashed.write_bytes(b"another model")
    r = prep(repo, env, "--restore")
    assert r.returncode == 1 and "refusing to restore" in r.stderr
    assert onnx.read_bytes() == b"int8 model bytes" and stashed.read_bytes() == b"another model"
    r = prep(repo, env, "--no-wheels", "--no-data")  # nor stash over a different stashed file
    assert r.returncode == 1 and "refusing to stash" in r.stderr
    assert onnx.read_bytes() == b"int8 model bytes"
