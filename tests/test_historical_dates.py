"""Every real date is accepted in `observed_at`, at every entry point: any year 1-9999, naive = UTC."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from server_fakes import memory, running_server

from writegate.classifier.features import render
from writegate.normalizer.api import normalize, parse_observed_at
from writegate.relabel.stores.jsonl import parse_record
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

DATES = [
    ("0001-01-01", datetime(1, 1, 1, tzinfo=UTC), "0001-01-01T00:00:00Z"),
    ("0066-07-19T12:00:00", datetime(66, 7, 19, 12, tzinfo=UTC), "0066-07-19T12:00:00Z"),
    ("1066-10-14", datetime(1066, 10, 14, tzinfo=UTC), "1066-10-14T00:00:00Z"),
    ("1916-01-01T00:00:00+02:00", datetime(1915, 12, 31, 22, tzinfo=UTC), "1915-12-31T22:00:00Z"),
    ("1970-01-01T00:00:00Z", datetime(1970, 1, 1, tzinfo=UTC), "1970-01-01T00:00:00Z"),
]
IDS = ["year-1", "year-66", "1066", "offset-1916", "unix-epoch"]


@pytest.mark.parametrize(("raw", "parsed", "iso"), DATES, ids=IDS)
def test_normalize_keeps_historical_dates(raw: str, parsed: datetime, iso: str) -> None:
    assert parse_observed_at(raw) == parsed
    (record,) = normalize("User was born in Lyon", observed_at=raw)
    assert record.to_json()["observed_at"] == iso


@pytest.mark.parametrize(("raw", "parsed", "iso"), DATES, ids=IDS)
def test_relabel_store_lines_with_historical_dates_parse(raw: str, parsed: datetime, iso: str) -> None:
    line = json.dumps({"id": "m1", "subject": "user:a", "text": "User was born in Lyon", "observed_at": raw})
    assert parse_record(line, 1).observed_at == parsed


def test_the_input_format_renders_four_digit_years_and_long_gaps() -> None:
    text = render("A", datetime(1, 1, 1, tzinfo=UTC), "B", datetime(1916, 1, 1, tzinfo=UTC), None)
    assert (text.a_head, text.b_head) == ("existing (0001-01-01):", "new (1916-01-01, 699438 days later):")


def _at(dt: datetime) -> Timestamp:
    out = Timestamp()
    out.FromDatetime(dt)
    return out


@pytest.mark.parametrize("when", [d for _, d, _ in DATES], ids=IDS)
async def test_the_service_labels_pairs_with_historical_dates(when: datetime) -> None:
    async with running_server() as (_app, target), grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.WriteGateStub(channel)
        new = memory("n", "User moved to London", at=datetime(2026, 3, 1, tzinfo=UTC))
        old = pb.Memory(id="c", subject="user:alice", text="User lives in Berlin", observed_at=_at(when))
        resp = await stub.PrepareWrite(pb.PrepareWriteRequest(memory=new, candidates=[old]), timeout=10)
        norm = await stub.Normalize(pb.NormalizeRequest(memory=old), timeout=10)
    assert [r.candidate_id for r in resp.relations] == ["c"]
    assert norm.records[0].observed_at.ToDatetime(tzinfo=UTC) == when
