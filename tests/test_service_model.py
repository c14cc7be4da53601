"""The server on real models: the tiny random model (always) and the shipped one (when present)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import DESIGN_EXAMPLES, example_ids
from server_fakes import memory, serving

from writegate.server.app import load_classifier
from writegate.server.config import ServerConfig
from writegate.v1 import writegate_pb2 as pb

SHIPPED = Path(__file__).resolve().parents[1] / "models" / "default"
LABEL_NAMES = {1: "unrelated", 2: "corroborates", 3: "elaborates", 4: "contradicts", 5: "supersedes"}


def at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


async def test_prepare_write_on_the_tiny_onnx_model(tiny_model_dir: Path) -> None:
    config = ServerConfig(port=0, model=tiny_model_dir, threads=1, max_wait_ms=0)
    loader = functools.partial(load_classifier, config)
    async with serving(loader=loader, model=tiny_model_dir, threads=1) as (_app, _channel, stub):
        req = pb.PrepareWriteRequest(
            memory=memory("n", "User moved to London last month", at=at("2026-05-02")),
            candidates=[
                memory(f"c{i}", t, at=at("2025-11-03")) for i, t in enumerate(["User works in EST", "User has a dog"])
            ],
        )
        resp = await stub.PrepareWrite(req, timeout=30)
        info = await stub.GetModelInfo(pb.GetModelInfoRequest(), timeout=5)
    assert [r.candidate_id for r in resp.relations] == ["c0", "c1"]
    for rel in resp.relations:
        assert rel.label in LABEL_NAMES
        assert set(rel.scores) == set(LABEL_NAMES.values())
        assert abs(sum(rel.scores.values()) - 1) < 1e-4
        assert max(rel.scores, key=rel.scores.get) == LABEL_NAMES[rel.label]
    assert any(r.kind == pb.RECORD_KIND_TIMEZONE for r in resp.records)  # London → Europe/London
    assert (info.name, info.backend) == ("tiny-test", "onnx")


@pytest.mark.slow
@pytest.mark.skipif(
    not (SHIPPED / "writegate.json").is_file(), reason="the shipped model models/default is not present"
)
@pytest.mark.parametrize(
    ("existing", "e_at", "new", "n_at", "label"), DESIGN_EXAMPLES, ids=example_ids(DESIGN_EXAMPLES)
)
async def test_shipped_model_labels_the_design_examples(
    existing: str, e_at: str, new: str, n_at: str, label: str
) -> None:
    config = ServerConfig(port=0, model=SHIPPED, max_wait_ms=0)
    async with serving(loader=lambda: load_classifier(config), model=SHIPPED) as (_app, _channel, stub):
        req = pb.PrepareWriteRequest(
            memory=memory("n", new, at=at(n_at)), candidates=[memory("c", existing, at=at(e_at))]
        )
        resp = await stub.PrepareWrite(req, timeout=30)
    assert LABEL_NAMES[resp.relations[0].label] == label
