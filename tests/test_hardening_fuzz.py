"""Property tests over request validation, the normalizer and the JSONL commands (hypothesis).

Properties: whatever arrives, the answer is a result or an `InputError` naming a field — never
another exception; over gRPC, OK or INVALID_ARGUMENT naming a field, never INTERNAL/UNKNOWN.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_fakes import running_server

from writegate.errors import InputError
from writegate.normalizer import normalize
from writegate.server import validate
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

NOW = datetime(2026, 6, 1, tzinfo=UTC)
FIELD = re.compile(r"^(request|requests\[\d+\]|memory|candidates)(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*: \S")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- strategies ----------------------------------------------------------------------------------

ODD_TEXT = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "\u200b",
            "\u202eevil",
            "e\u0301" * 30,
            "👩‍👩‍👧" * 10,
            "\x00",
            "a\x7fb",
            "\ufeffhi",
            "9am–5pm EST",
            "between 25:99 and 99:99",
            "every 31st of February",
            "UTC+99:00",
            "since 0000-00-00",
            "1e309 dollars",
        ]
    ),
)
INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)
TIMESTAMP_SECONDS = st.one_of(
    INT64, st.integers(min_value=0, max_value=1_900_000_000), st.sampled_from([0, -1, 253402300799, 253402300800])
)
SUBJECT = st.one_of(
    st.sampled_from(["user:alice", "org:acme", "", "user:", ":x", "User:Alice", "user:a b"]), st.text(max_size=20)
)


@st.composite
def memories(draw: st.DrawFn) -> pb.Memory:
    m = pb.Memory(
        id=draw(st.one_of(st.text(max_size=8), st.just("x" * 201))), subject=draw(SUBJECT), text=draw(ODD_TEXT)
    )
    if draw(st.booleans()):
        m.observed_at.CopyFrom(Timestamp(seconds=draw(TIMESTAMP_SECONDS), nanos=draw(st.one_of(st.just(0), INT32))))
    m.provenance = draw(st.one_of(st.sampled_from([0, 1, 2, 3]), INT32))
    return m


@st.composite
def prepare_requests(draw: st.DrawFn) -> pb.PrepareWriteRequest:
    req = pb.PrepareWriteRequest(candidates=draw(st.lists(memories(), max_size=6)))
    if draw(st.booleans()):
        req.memory.CopyFrom(draw(memories()))
    return req


JSON_JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**40), max_value=10**40),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=30),
    ),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=16,
)
ODD_TIME = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)).map(lambda d: d.isoformat()),
    st.sampled_from(
        [
            "2026-02-30",
            "2026-13-01",
            "99999-01-01",
            "0000-01-01",
            "2026-03-01T25:00:00Z",
            "",
            "now",
            "2026-03-01T10:00:00+99:00",
            "1970-01-01T00:00:00Z",
            "2026-03-01T10:00:00.123456789Z",
        ]
    ),
    JSON_JUNK,
)
RAW_LINES = st.sampled_from(
    [
        "[" * 5000,
        '{"text": ' + "9" * 5000 + "}",
        '{"text": "a", "observed_at": 1e400}',
        "{",
        "null",
        "[]",
        '"text"',
        '{"text": "x", "text": 1}',
        "\ufeff{}",
        '{"text": NaN}',
        '{"text": "hi\\ud800"}',
    ]
)


def normalize_lines() -> st.SearchStrategy[bytes]:
    obj = st.fixed_dictionaries(
        {"text": st.one_of(ODD_TEXT, JSON_JUNK)},
        optional={
            "subject": st.one_of(SUBJECT, JSON_JUNK),
            "observed_at": ODD_TIME,
            "provenance": st.one_of(st.sampled_from(["stated", "inferred", "imported", "rumour"]), JSON_JUNK),
            "id": JSON_JUNK,
            "extra": JSON_JUNK,
        },
    )
    return st.one_of(
        obj.map(lambda o: json.dumps(o, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        JSON_JUNK.map(lambda o: json.dumps(o).encode()),
        RAW_LINES.map(str.encode),
        st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ")),
    )


def classify_lines() -> st.SearchStrategy[bytes]:
    side = st.one_of(
        st.fixed_dictionaries(
            {"text": st.one_of(ODD_TEXT, JSON_JUNK), "observed_at": ODD_TIME},
            optional={"subject": st.one_of(SUBJECT, JSON_JUNK)},
        ),
        JSON_JUNK,
    )
    obj = st.fixed_dictionaries({"existing": side, "new": side}, optional={"extra": JSON_JUNK})
    return st.one_of(
        obj.map(lambda o: json.dumps(o, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        JSON_JUNK.map(lambda o: json.dumps(o).encode()),
        RAW_LINES.map(str.encode),
        st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ")),
    )


# -- validation and the normalizer, in process ---------------------------------------------------


@SETTINGS
@given(req=prepare_requests())
def test_validation_accepts_or_names_a_field(req: pb.PrepareWriteRequest) -> None:
    from writegate.api import convert

    try:
        validate.validate_prepare_write(req, now=NOW, limits=validate.Limits(max_candidates=4))
    except InputError as exc:
        assert FIELD.match(str(exc)), str(exc)
        return
    mem = convert.memory_from_proto(req.memory)  # what passed validation converts and normalizes
    for i, cand in enumerate(req.candidates):
        convert.memory_from_proto(cand, f"candidates[{i}]")
    records = normalize(mem.text, subject=mem.subject, observed_at=mem.observed_at, provenance=mem.provenance)
    assert records and all(r.subject == mem.subject for r in records)


@SETTINGS
@given(
    text=ODD_TEXT,
    subject=st.one_of(SUBJECT, JSON_JUNK),
    observed_at=ODD_TIME,
    provenance=st.one_of(st.sampled_from(["stated", "inferred", "imported"]), JSON_JUNK),
)
def test_normalizer_on_odd_arguments_gives_records_or_names_the_argument(
    text: str, subject: object, observed_at: object, provenance: object
) -> None:
    try:
        records = normalize(text, subject=subject, observed_at=observed_at, provenance=provenance)  # type: ignore[arg-type]
    except InputError as exc:
        assert exc.field in {"text", "subject", "observed_at", "provenance"}, str(exc)
        assert exc.message
        return
    assert records


# -- the JSONL commands, in process with a strict UTF-8 stdout like a terminal's ----------------


@contextlib.contextmanager
def strict_stdio() -> Iterator[tuple[Callable[[], str], io.StringIO]]:
    """stdout as a strict UTF-8 stream (like a terminal's: a lone surrogate would raise); stderr kept."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")
    err = io.StringIO()

    def read() -> str:
        out.flush()
        return raw.getvalue().decode("utf-8")

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield read, err


def run_command(argv: list[str], path: Path, lines: list[bytes]) -> list[dict]:
    from writegate.cli.main import main

    path.write_bytes(b"\n".join(lines) + b"\n")
    expected = path.read_bytes().count(b"\n")  # lines end at "\n" only; every one is answered, blank ones included
    with strict_stdio() as (read, err):
        code = main([*argv, "--input", str(path)])
        text = read()
    out = [json.loads(line) for line in text.splitlines()]
    assert code in (0, 1), err.getvalue()
    assert len(out) == expected, err.getvalue()
    assert "Traceback" not in err.getvalue()
    numbers = []
    for item in out:
        assert set(item) - {"id"} in ({"records"}, {"error", "line"}, {"label", "scores"}), item
        if "error" in item:
            number, _, rest = item["error"].partition(": ")
            assert number == f"line {item['line']}" and ": " in rest, item["error"]
            numbers.append(item["line"])
    assert numbers == sorted(set(numbers))
    assert code == (1 if numbers else 0)
    return out


@SETTINGS
@given(lines=st.lists(normalize_lines(), min_size=1, max_size=6))
def test_normalize_input_jsonl_with_junk(tmp_path_factory: pytest.TempPathFactory, lines: list[bytes]) -> None:
    run_command(["normalize"], tmp_path_factory.mktemp("n") / "in.jsonl", lines)


@pytest.fixture(scope="module")
def tiny_classifier(tiny_model_dir: Path):
    from writegate.classifier.model import Classifier

    return Classifier.load(tiny_model_dir, "onnx", threads=1)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(classify_lines(), min_size=1, max_size=6))
def test_classify_input_jsonl_with_junk(
    tmp_path_factory: pytest.TempPathFactory, tiny_classifier, lines: list[bytes]
) -> None:
    with mock.patch("writegate.classifier.model.Classifier.load", return_value=tiny_classifier):
        out = run_command(["classify", "--model", "unused"], tmp_path_factory.mktemp("c") / "in.jsonl", lines)
    for item in out:
        if "label" in item:
            assert abs(sum(item["scores"].values()) - 1) < 1e-3


# -- over gRPC -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live_target() -> Iterator[str]:
    """The fake-classifier server on a loop of its own thread (hypothesis tests are synchronous)."""
    loop = asyncio.new_event_loop()
    started: list[str] = []
    ready, stop = threading.Event(), asyncio.Event()

    async def main() -> None:
        async with running_server(max_candidates=4) as (_app, target):
            started.append(target)
            ready.set()
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(20)
    yield started[0]
    loop.call_soon_threadsafe(stop.set)
    thread.join(20)


@SETTINGS
@given(req=prepare_requests())
def test_prepare_write_over_grpc_is_ok_or_invalid_argument(live_target: str, req: pb.PrepareWriteRequest) -> None:
    with grpc.insecure_channel(live_target) as channel:
        try:
            resp = pb_grpc.WriteGateStub(channel).PrepareWrite(req, timeout=10)
        except grpc.RpcError as exc:
            assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT, (exc.code(), exc.details())
            assert FIELD.match(exc.details()), exc.details()
            return
    assert [r.candidate_id for r in resp.relations] == [c.id for c in req.candidates]


@pytest.mark.parametrize(
    ("method", "payload", "kind", "expected"),
    [
        (
            "PrepareWrite",
            b"\x0a\x03\x1a\x01\xff",
            "unary",
            "request: is not a valid writegate.v1.PrepareWriteRequest message",
        ),
        ("Normalize", b"\xff\xff\xff\xff", "unary", "request: is not a valid writegate.v1.NormalizeRequest message"),
        (
            "Relabel",
            b"\x12\x05\x1a\x03\xc3\x28\x00",
            "stream",
            "requests[0]: is not a valid writegate.v1.RelabelRequest message",
        ),
    ],
    ids=["bad-utf8-in-text", "corrupt-wire", "stream-bad-utf8"],
)
def test_undecodable_bytes_are_invalid_argument(
    live_target: str, method: str, payload: bytes, kind: str, expected: str
) -> None:
    with grpc.insecure_channel(live_target) as channel:
        path = f"/writegate.v1.WriteGate/{method}"
        with pytest.raises(grpc.RpcError) as info:
            if kind == "unary":
                channel.unary_unary(path)(payload, timeout=5)
            else:
                list(channel.stream_stream(path)(iter([payload]), timeout=5))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details().startswith(expected), info.value.details()
