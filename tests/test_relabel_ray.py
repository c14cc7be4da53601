"""`--engine ray` on a local Ray instance with 2 CPUs (two actors, or one actor with a feeder worker):
same bytes as the local engine, and resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writegate.errors import InputError
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.*")  # Ray's own internals

ray = pytest.importorskip("ray", reason="the Ray engine needs the `ray` extra (ray[data])")
pytest.importorskip("ray.data", reason="the Ray engine needs Ray Data (ray[data])")

from writegate.relabel.ray_engine import RayEngine, model_bundle  # noqa: E402

TEXTS = [
    "User works in EST",
    "User moved to London last month",
    "Michelle owns the Acme account",
    "The Acme account was handed off to Marcus",
    "User prefers morning meetings",
    "User prefers concise answers",
    "User has a dog named Biscuit",
    "User prefers meetings 9-10am on Tuesdays",
]


def _store(path: Path, n: int = 48) -> Path:
    rows = [
        {
            "id": f"r{i:03d}",
            "subject": f"user:u{i % 3}",
            "text": TEXTS[(i * 5) % len(TEXTS)],
            "observed_at": f"2026-{1 + i % 12:02d}-{1 + (i * 7) % 28:02d}",
        }
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "oops\n", encoding="utf-8")
    return path


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.parent.iterdir()) if not p.name.startswith(".")}


def test_ray_engine_matches_local_and_resumes(tmp_path: Path, tiny_model_dir: Path) -> None:
    store = _store(tmp_path / "store.jsonl")
    local_out = tmp_path / "local" / "edges.jsonl"
    relabel(RelabelOptions(input=store, out=local_out, chunk_size=16, keep_unrelated=True), LocalEngine(tiny_model_dir))
    want = _files(local_out)

    ray_out = tmp_path / "ray" / "edges.jsonl"
    stats = relabel(
        RelabelOptions(input=store, out=ray_out, chunk_size=16, keep_unrelated=True),
        RayEngine(tiny_model_dir, batch_size=64, num_cpus=2, actors=2),
    )
    assert stats.pairs > 3 * 16
    assert _files(ray_out) == want

    class Stop(Exception):
        pass

    def stop(step: str) -> None:
        if step == "chunk:1":
            raise Stop

    resumed_out = tmp_path / "resumed" / "edges.jsonl"
    options = RelabelOptions(input=store, out=resumed_out, chunk_size=16, keep_unrelated=True)
    with pytest.raises(Stop):
        relabel(options, LocalEngine(tiny_model_dir), on_step=stop)
    # the rest of the chunks on Ray, prepared by the actor's feeder worker
    stats = relabel(options, RayEngine(tiny_model_dir, num_cpus=2, feeder_workers=1))
    assert stats.resumed_chunks == 2
    assert _files(resumed_out) == want
    assert not ray.is_initialized()  # the engine shut down the instance it started


def test_model_bundle_has_the_backends_files(tiny_model_dir: Path) -> None:
    onnx_files = model_bundle(tiny_model_dir, "onnx")
    assert "model.int8.onnx" in onnx_files and "writegate.json" in onnx_files
    assert not any(name.endswith(".safetensors") for name in onnx_files)
    assert not any(name.endswith(".onnx") for name in model_bundle(tiny_model_dir, "torch"))


def test_bad_actor_count(tiny_model_dir: Path) -> None:
    with pytest.raises(InputError, match="--ray-actors: must be ≥ 1, got 0"):
        RayEngine(tiny_model_dir, actors=0)
