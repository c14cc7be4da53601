"""Every bad input → INVALID_ARGUMENT with a message naming the field, over a real loopback port."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import grpc
import pytest
import pytest_asyncio
from server_fakes import memory, running_server, ts

from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

MAX_CANDIDATES = 4


def cands(n: int) -> list[pb.Memory]:
    return [memory(f"c{i}", f"candidate {i}") for i in range(n)]


def with_memory(**fields: object) -> pb.PrepareWriteRequest:
    m = memory()
    for name, value in fields.items():
        if name == "observed_at" and value is None:
            m.ClearField("observed_at")
        elif name == "observed_at":
            m.observed_at.CopyFrom(value)  # type: ignore[arg-type]
        else:
            setattr(m, name, value)
    return pb.PrepareWriteRequest(memory=m, candidates=cands(2))


def raw_ts(seconds: int, nanos: int = 0) -> object:
    from google.protobuf.timestamp_pb2 import Timestamp

    return Timestamp(seconds=seconds, nanos=nanos)


def future(days: float) -> object:
    return ts(datetime.now(timezone.utc) + timedelta(days=days))


def dup_ids() -> pb.PrepareWriteRequest:
    c = cands(3)
    c[2].id = "c0"
    return pb.PrepareWriteRequest(memory=memory(), candidates=c)


def cand_with(index: int, **fields: object) -> pb.PrepareWriteRequest:
    c = cands(3)
    for name, value in fields.items():
        if name == "observed_at":
            c[index].observed_at.CopyFrom(value)  # type: ignore[arg-type]
        else:
            setattr(c[index], name, value)
    return pb.PrepareWriteRequest(memory=memory(), candidates=c)


CASES: dict[str, tuple[Callable[[], pb.PrepareWriteRequest], str]] = {
    "memory-unset": (lambda: pb.PrepareWriteRequest(candidates=cands(1)), "memory: is required"),
    "text-empty": (lambda: with_memory(text=""), "memory.text: is required (empty)"),
    "text-whitespace": (lambda: with_memory(text="  \n\t "), "memory.text: is empty or whitespace only"),
    "text-over-limit": (lambda: with_memory(text="é" * 8193), "memory.text: is over the limit of 16384 bytes (16386 bytes)"),
    "text-control-char": (lambda: with_memory(text="hello\x07world"), "memory.text: contains a control character (U+0007)"),
    "subject-missing": (lambda: with_memory(subject=""), "memory.subject: is required"),
    "subject-malformed": (lambda: with_memory(subject="Alice"), "memory.subject: must be an entity id"),
    "id-missing": (lambda: with_memory(id=""), "memory.id: is required"),
    "id-too-long": (lambda: with_memory(id="x" * 201), "memory.id: is over 200 characters"),
    "observed-unset": (lambda: with_memory(observed_at=None), "memory.observed_at: is required (unset)"),
    "observed-epoch": (lambda: with_memory(observed_at=raw_ts(0)), "memory.observed_at: is the Unix epoch"),
    "observed-before-1970": (lambda: with_memory(observed_at=raw_ts(-86400)), "memory.observed_at: is before 1970-01-01"),
    "observed-future": (lambda: with_memory(observed_at=future(2)), "memory.observed_at: is in the future"),
    "observed-year-20000": (lambda: with_memory(observed_at=raw_ts(600_000_000_000)), "memory.observed_at: is in the future"),
    "provenance-unknown": (lambda: with_memory(provenance=9), "memory.provenance: is not a known ProvenanceKind"),
    "candidate-id-missing": (lambda: cand_with(1, id=""), "candidates[1].id: is required"),
    "candidate-id-duplicate": (dup_ids, "candidates[2].id: duplicates candidates[0].id ('c0')"),
    "candidate-is-memory": (lambda: cand_with(0, id="m1"), "candidates[0].id: is the new memory's own id"),
    "candidate-text-empty": (lambda: cand_with(2, text=" "), "candidates[2].text: is empty or whitespace only"),
    "candidate-subject": (lambda: cand_with(0, subject="user:"), "candidates[0].subject: must be an entity id"),
    "candidate-future": (lambda: cand_with(1, observed_at=future(3)), "candidates[1].observed_at: is in the future"),
    "too-many-candidates": (
        lambda: pb.PrepareWriteRequest(memory=memory(), candidates=cands(MAX_CANDIDATES + 1)),
        f"candidates: has {MAX_CANDIDATES + 1} candidates; the limit is {MAX_CANDIDATES}",
    ),
}


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stub():
    async with running_server(max_candidates=MAX_CANDIDATES) as (_app, target):
        async with grpc.aio.insecure_channel(target) as channel:
            yield pb_grpc.WriteGateStub(channel)


@pytest.mark.parametrize(("build", "expected"), CASES.values(), ids=CASES.keys())
async def test_prepare_write_bad_inputs(
    stub: pb_grpc.WriteGateStub, build: Callable[[], pb.PrepareWriteRequest], expected: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await stub.PrepareWrite(build(), timeout=5)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith(expected), info.value.details()


@pytest.mark.parametrize(
    ("rpc", "request_", "expected"),
    [
        ("Normalize", pb.NormalizeRequest(), "memory: is required"),
        ("Normalize", pb.NormalizeRequest(memory=memory(text="")), "memory.text: is required (empty)"),
        ("Classify", pb.ClassifyRequest(memory=memory(), candidates=[memory("")]), "candidates[0].id: is required"),
        ("Classify", pb.ClassifyRequest(memory=memory(subject="")), "memory.subject: is required"),
    ],
    ids=["normalize-unset", "normalize-empty", "classify-candidate-id", "classify-subject"],
)
async def test_other_rpcs_bad_inputs(stub: pb_grpc.WriteGateStub, rpc: str, request_: object, expected: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await getattr(stub, rpc)(request_, timeout=5)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith(expected)


async def test_classify_accepts_a_memory_without_id(stub: pb_grpc.WriteGateStub) -> None:
    resp = await stub.Classify(pb.ClassifyRequest(memory=memory(""), candidates=cands(2)), timeout=5)
    assert [r.candidate_id for r in resp.relations] == ["c0", "c1"]


async def test_relabel_bad_pair_names_its_index(stub: pb_grpc.WriteGateStub) -> None:
    requests = [
        pb.RelabelRequest(pair_id="p0", existing=memory("e0"), new=memory("n0")),
        pb.RelabelRequest(pair_id="p1", existing=memory("e1"), new=memory("n1", text="")),
    ]
    call = stub.Relabel(iter(requests), timeout=5)
    with pytest.raises(grpc.aio.AioRpcError) as info:
        async for _ in call:
            pass
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details() == "requests[1].new.text: is required (empty)"
