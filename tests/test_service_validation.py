"""Every bad input → INVALID_ARGUMENT with a message naming the field, over a real loopback port."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

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
    return ts(datetime.now(UTC) + timedelta(days=days))


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
    "text-over-limit": (
        lambda: with_memory(text="é" * 8193),
        "memory.text: is over the limit of 16384 bytes (16386 bytes)",
    ),
    "text-control-char": (
        lambda: with_memory(text="hello\x07world"),
        "memory.text: contains a control character (U+0007)",
    ),
    "subject-missing": (lambda: with_memory(subject=""), "memory.subject: is required"),
    "subject-malformed": (lambda: with_memory(subject="Alice"), "memory.subject: must be an entity id"),
    "id-missing": (lambda: with_memory(id=""), "memory.id: is required"),
    "id-too-long": (lambda: with_memory(id="x" * 201), "memory.id: is over 200 characters"),
    "observed-unset": (lambda: with_memory(observed_at=None), "memory.observed_at: is required (unset)"),
    "observed-before-year-1": (
        lambda: with_memory(observed_at=raw_ts(-62135596801)),
        "memory.observed_at: is before 0001-01-01T00:00:00Z",
    ),
    "observed-future": (lambda: with_memory(observed_at=future(2)), "memory.observed_at: is in the future"),
    "observed-year-20000": (
        lambda: with_memory(observed_at=raw_ts(600_000_000_000)),
        "memory.observed_at: is in the future",
    ),
    "provenance-unknown": (lambda: with_memory(provenance=9), "memory.provenance: is not a known ProvenanceKind"),
    "candidate-id-missing": (lambda: cand_with(1, id=""), "candidates[1].id: is required"),
    "candidate-id-duplicate": (dup_ids, "candidates[2].id: duplicates candidates[0].id ('c0')"),
    "candidate-is-memory": (lambda: cand_with(0, id="m1"), "candidates[0].id: is the new memory's own id"),
    "candidate-text-empty": (lambda: cand_with(2, text=" "), "candidates[2].text: is empty or whitespace only"),
    "candidate-subject": (lambda: cand_with(0, subject="user:"), "candidates[0].subject: must be an entity id"),
    "candidate-future": (lambda: cand_with(1, observed_at=future(3)), "candidates[1].observed_at: is in the future"),
    "id-nul": (lambda: with_memory(id="m\x001"), "memory.id: contains a control character (U+0000)"),
    "id-tab": (lambda: with_memory(id="m\t1"), "memory.id: contains a control character (U+0009)"),
    "id-newline": (lambda: with_memory(id="m1\n"), "memory.id: contains a control character (U+000A)"),
    "id-del": (lambda: with_memory(id="m\x7f"), "memory.id: contains a control character (U+007F)"),
    "id-c1": (lambda: with_memory(id="m\x85"), "memory.id: contains a control character (U+0085)"),
    "id-whitespace": (lambda: with_memory(id="   "), "memory.id: is whitespace only"),
    "candidate-id-nul": (lambda: cand_with(2, id="c\x002"), "candidates[2].id: contains a control character (U+0000)"),
    "candidate-id-c1": (lambda: cand_with(0, id="\x9b"), "candidates[0].id: contains a control character (U+009B)"),
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
        (
            "Classify",
            pb.ClassifyRequest(memory=memory("m\x00"), candidates=cands(1)),
            "memory.id: contains a control character (U+0000)",
        ),
        ("Normalize", pb.NormalizeRequest(memory=memory("\x1b")), "memory.id: contains a control character (U+001B)"),
    ],
    ids=[
        "normalize-unset",
        "normalize-empty",
        "classify-candidate-id",
        "classify-subject",
        "classify-optional-id-nul",
        "normalize-optional-id-esc",
    ],
)
async def test_other_rpcs_bad_inputs(stub: pb_grpc.WriteGateStub, rpc: str, request_: object, expected: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await getattr(stub, rpc)(request_, timeout=5)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith(expected)


async def test_classify_accepts_a_memory_without_id(stub: pb_grpc.WriteGateStub) -> None:
    resp = await stub.Classify(pb.ClassifyRequest(memory=memory(""), candidates=cands(2)), timeout=5)
    assert [r.candidate_id for r in resp.relations] == ["c0", "c1"]


def pair(i: int, **fields: object) -> pb.RelabelRequest:
    """A valid RelabelRequest `p<i>` (override pair_id, or `existing`/`new` Memory fields as `existing_id=`...)."""
    req = pb.RelabelRequest(pair_id=f"p{i}", existing=memory(f"e{i}", "old"), new=memory(f"n{i}", "she moved"))
    for name, value in fields.items():
        if name == "pair_id":
            req.pair_id = value  # type: ignore[assignment]
        else:
            side, _, attr = name.partition("_")
            setattr(getattr(req, side), attr, value)
    return req


RELABEL_CASES: dict[str, tuple[pb.RelabelRequest, str, str]] = {
    "new-text-empty": (pair(1, new_text=""), "p1", "requests[1].new.text: is required (empty)"),
    "pair-id-empty": (pair(1, pair_id=""), "", "requests[1].pair_id: is required"),
    "pair-id-duplicate": (pair(1, pair_id="p0"), "p0", "requests[1].pair_id: duplicates requests[0].pair_id ('p0')"),
    "pair-id-nul": (pair(1, pair_id="p\x001"), "p\x001", "requests[1].pair_id: contains a control character (U+0000)"),
    "pair-id-over-limit": (pair(1, pair_id="p" * 201), "p" * 201, "requests[1].pair_id: is over 200 characters (201)"),
    "existing-id-missing": (pair(1, existing_id=""), "p1", "requests[1].existing.id: is required"),
    "existing-id-nul": (
        pair(1, existing_id="e\x00"),
        "p1",
        "requests[1].existing.id: contains a control character (U+0000)",
    ),
    "existing-id-newline": (
        pair(1, existing_id="e\n1"),
        "p1",
        "requests[1].existing.id: contains a control character (U+000A)",
    ),
    "new-id-c1": (pair(1, new_id="n\x85"), "p1", "requests[1].new.id: contains a control character (U+0085)"),
    "existing-subject": (pair(1, existing_subject="Alice"), "p1", "requests[1].existing.subject: must be an entity id"),
    "new-unset": (pb.RelabelRequest(pair_id="p1", existing=memory("e1")), "p1", "requests[1].new: is required (unset)"),
}


@pytest.mark.parametrize(("bad", "pair_id", "expected"), RELABEL_CASES.values(), ids=RELABEL_CASES.keys())
async def test_relabel_bad_pair_gets_its_own_error_and_the_stream_goes_on(
    stub: pb_grpc.WriteGateStub, bad: pb.RelabelRequest, pair_id: str, expected: str
) -> None:
    out = [r async for r in stub.Relabel(iter([pair(0), bad, pair(2)]), timeout=5)]
    assert [r.pair_id for r in out] == ["p0", pair_id, "p2"]
    assert [r.WhichOneof("result") for r in out] == ["relation", "error", "relation"]
    assert out[1].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert out[1].error.message.startswith(expected), out[1].error.message
    assert [(r.relation.candidate_id, r.relation.label) for r in (out[0], out[2])] == [
        ("e0", pb.LABEL_SUPERSEDES),
        ("e2", pb.LABEL_SUPERSEDES),
    ]


# -- candidate counts: the request's own limit, never "server busy" ------------------------------


@pytest.mark.parametrize("rpc", ["PrepareWrite", "Classify"], ids=["prepare-write", "classify"])
async def test_ten_thousand_candidates_on_an_idle_default_server_is_invalid_argument(rpc: str) -> None:
    request_type = pb.PrepareWriteRequest if rpc == "PrepareWrite" else pb.ClassifyRequest
    request_ = request_type(memory=memory("new"), candidates=cands(10_000))
    async with running_server() as (_app, target), grpc.aio.insecure_channel(target) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await getattr(pb_grpc.WriteGateStub(channel), rpc)(request_, timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details() == "candidates: has 10000 candidates; the limit is 256"


async def test_max_candidates_over_the_queue_capacity_is_clamped_to_it() -> None:
    async with (
        running_server(max_candidates=64, max_queue_pairs=16) as (_app, target),
        grpc.aio.insecure_channel(target) as channel,
    ):
        stub = pb_grpc.WriteGateStub(channel)
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.Classify(pb.ClassifyRequest(memory=memory("new"), candidates=cands(17)), timeout=5)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert info.value.details() == "candidates: has 17 candidates; the limit is 16"
        resp = await stub.Classify(pb.ClassifyRequest(memory=memory("new"), candidates=cands(16)), timeout=5)
    assert [r.candidate_id for r in resp.relations] == [f"c{i}" for i in range(16)]
