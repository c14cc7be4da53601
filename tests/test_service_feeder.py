"""`--normalize-workers`: a request's cache misses normalized in worker processes (the normalize pool).

Over a real loopback server on the tiny onnx model: the answers are the same as with the thread
(`normalize_workers=0`); one task per request, none for a cached repeat; errors name the field as
before; a worker that dies is replaced; the workers stop with the server. And the setting itself:
flag, environment variable, default per backend, and the errors for negative values.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import grpc
import pytest
from server_fakes import memory, serving

from writegate.api.normalizing import MemoryKey, NormalizeFailure, normalize_many
from writegate.errors import InputError
from writegate.normalizer.api import normalize
from writegate.normalizer.schema import Memory
from writegate.server import config as config_mod
from writegate.server.app import WriteGateServer, load_classifier
from writegate.server.config import ServerConfig, load_config
from writegate.v1 import writegate_pb2 as pb

T_NEW = datetime(2026, 5, 2, 9, 30, tzinfo=timezone(timedelta(hours=-5)))
T_OLD = datetime(2025, 11, 3, 23, 15, tzinfo=timezone(timedelta(hours=9)))


def requests() -> list[pb.PrepareWriteRequest]:
    """Requests whose memories give time windows, timezones and edges, with repeats (cache hits)."""
    return [
        pb.PrepareWriteRequest(
            memory=memory("n1", "User moved to London last month", at=T_NEW),
            candidates=[
                memory("c0", "User works in EST", at=T_OLD),
                memory("c1", "User prefers meetings 9-10am on Tuesdays", at=T_OLD),
                memory("c2", "User is in Tokyo from June 3 to June 10", at=T_OLD),
                memory("c3", "User has a dog", at=T_OLD, subject="user:bob"),
            ],
        ),
        pb.PrepareWriteRequest(
            memory=memory("n2", "User now prefers meetings 2-3pm on Fridays", at=T_NEW),
            candidates=[
                memory("c1", "User prefers meetings 9-10am on Tuesdays", at=T_OLD),  # cached from request 1
                memory("c4", "User never takes calls before 8am", at=datetime(2026, 1, 1, tzinfo=UTC)),
                memory("c5", "User works in EST", at=T_NEW),  # same text, another date: another memory
            ],
        ),
        pb.PrepareWriteRequest(memory=memory("n3", "User lives in Berlin", at=T_NEW)),  # no candidates
    ]


def tiny_server(model: Path, **settings: Any) -> Any:
    """`serving(...)` on the tiny onnx model (one batch worker, one thread)."""
    loader = functools.partial(load_classifier, ServerConfig(port=0, model=model, threads=1))
    return serving(loader=loader, model=model, threads=1, **settings)


def counted(calls: list[Any], fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        calls.append(args)
        return fn(*args)

    return wrapper


async def answers(stub: Any) -> list[Any]:
    out: list[Any] = []
    for req in [*requests(), requests()[0]]:  # the last: a repeat of the first, every memory cached
        out.append(await stub.PrepareWrite(req, timeout=30))
    out.append(await stub.Classify(pb.ClassifyRequest(memory=req.memory, candidates=req.candidates), timeout=30))
    out.append(
        await stub.Normalize(pb.NormalizeRequest(memory=memory("n9", "User works in PST", at=T_NEW)), timeout=30)
    )
    return out


async def test_prepare_write_through_the_pool_answers_as_the_thread_does(
    tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with tiny_server(tiny_model_dir, normalize_workers=0) as (app, _channel, stub):
        assert app.feeder is None and app.service.feeder is None
        expected = await answers(stub)
    kinds = {r.kind for resp in expected[:3] for r in resp.records}
    assert {pb.RECORD_KIND_TIMEZONE, pb.RECORD_KIND_EDGE, pb.RECORD_KIND_TIME_WINDOW} <= kinds
    async with tiny_server(tiny_model_dir, normalize_workers=1) as (app, _channel, stub):
        assert app.feeder is not None and app.service.feeder is app.feeder and app.feeder.workers == 1
        tasks: list[Any] = []
        monkeypatch.setattr(app.feeder, "submit", counted(tasks, app.feeder.submit))
        got = await answers(stub)
    assert got == expected
    # one task per request with cache misses (none for the repeat and the Classify of it), each
    # distinct memory of a request once
    assert [(fn, len(items)) for fn, items in tasks] == [
        (normalize_many, 5),
        (normalize_many, 3),
        (normalize_many, 1),
        (normalize_many, 1),
    ]


async def test_a_bad_candidate_text_is_invalid_argument_naming_the_candidate(tiny_model_dir: Path) -> None:
    async with tiny_server(tiny_model_dir, normalize_workers=1) as (app, _channel, stub):
        req = pb.PrepareWriteRequest(
            memory=memory("n", "User moved to London", at=T_NEW),
            candidates=[memory("c0", "User works in EST", at=T_OLD), memory("c1", "\u200b\u200b", at=T_OLD)],
        )
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await stub.PrepareWrite(req, timeout=30)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert info.value.details() == (
            "candidates[1].text: has no visible content (only whitespace, zero-width or other invisible characters)"
        )
        # past the request validation, the pool's refusal is named the same way
        good = Memory(text="User works in EST", observed_at=T_OLD)
        bad = Memory.model_construct(text="User works\x07 in EST", subject="user:alice", observed_at=T_OLD)
        with pytest.raises(InputError) as raised:
            await app.service._records_of([good, good, bad], ["memory", "candidates[0]", "candidates[1]"])
        assert str(raised.value) == "candidates[1].text: contains a control character (U+0007)"
        assert app.service.normalizing.cache.get(MemoryKey.of(good)) is not None  # the good one is kept


def test_normalize_many_is_pure_and_names_the_field() -> None:
    items = [
        MemoryKey.of(Memory(text="User works in EST", observed_at=T_OLD)),
        MemoryKey("   ", "user:alice", T_OLD),
        MemoryKey("User works in EST", "Alice", T_OLD),
    ]
    ok, blank, subject = normalize_many(items)
    assert ok == tuple(normalize("User works in EST", subject="user:default", observed_at=T_OLD))
    assert blank == NormalizeFailure("text", "is empty or whitespace only")
    assert isinstance(subject, NormalizeFailure) and subject.field == "subject"
    assert normalize_many(items[:1], lambda text, **kw: []) == [()]


def _workers(before: set[multiprocessing.process.BaseProcess]) -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p not in before]


async def test_the_worker_processes_stop_with_the_server(tiny_model_dir: Path) -> None:
    before = set(multiprocessing.active_children())
    async with tiny_server(tiny_model_dir, normalize_workers=2) as (app, _channel, stub):
        workers = _workers(before)  # started before SERVING, one task each
        assert len(workers) == 2 and all(p.is_alive() for p in workers)
        resp = await stub.Normalize(pb.NormalizeRequest(memory=memory("m", "User works in EST")), timeout=30)
        assert [r.kind for r in resp.records] == [pb.RECORD_KIND_TIMEZONE]
    assert app.feeder is None and app.service.feeder is None
    assert all(p.exitcode is not None for p in workers)
    assert _workers(before) == []


async def test_a_dead_worker_is_replaced_and_no_request_fails(
    tiny_model_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("WARNING", logger="writegate.server.service")
    before = set(multiprocessing.active_children())
    async with tiny_server(tiny_model_dir, normalize_workers=1) as (app, _channel, stub):
        (worker,) = _workers(before)
        os.kill(worker.pid, signal.SIGKILL)  # as the OOM killer would
        await asyncio.to_thread(worker.join, 10)
        # dead: -SIGKILL, or 255 when the fork server's status report is lost (seen when this
        # process ran another feeder's workers before)
        assert worker.exitcode in (-signal.SIGKILL, 255)
        for i in range(3):  # the first finds the pool broken (normalized in a thread), the next a new pool
            req = pb.PrepareWriteRequest(
                memory=memory("n", f"User moved to city {i}", at=T_NEW), candidates=[memory("c", f"User has {i} dogs")]
            )
            resp = await stub.PrepareWrite(req, timeout=30)
            assert [r.candidate_id for r in resp.relations] == ["c"]
        (replacement,) = _workers(before | {worker})
        assert replacement.is_alive()
    assert [r.getMessage() for r in caplog.records if r.name == "writegate.server.service"] == [
        "a normalize worker process died: restarting the normalize pool"
    ]
    assert replacement.exitcode is not None


# -- the setting ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "env", "cores", "expected"),
    [
        ({}, {}, 4, 0),
        ({"backend": "torch"}, {}, 4, 3),
        ({"backend": "vllm"}, {}, 4, 3),
        ({"backend": "torch"}, {}, 1, 1),
        ({"backend": "torch", "normalize_workers": "0"}, {}, 4, 0),
        ({}, {"WRITEGATE_NORMALIZE_WORKERS": "2"}, 4, 2),
        ({"normalize_workers": "5"}, {"WRITEGATE_NORMALIZE_WORKERS": "2"}, 4, 5),
        ({"backend": "torch"}, {"WRITEGATE_NORMALIZE_WORKERS": ""}, 4, 3),
    ],
    ids=["onnx", "torch", "vllm", "torch-one-core", "torch-off", "env", "flag-over-env", "env-empty"],
)
def test_normalize_workers_default_and_sources(
    flags: dict[str, str], env: dict[str, str], cores: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config_mod, "available_cores", lambda: cores)
    cfg = load_config(flags, env=env)
    assert cfg.effective_normalize_workers == expected


def test_the_flag_reaches_the_config_and_serve_help_names_it() -> None:
    import argparse

    from writegate.cli.main import build_parser
    from writegate.server import command

    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["--normalize-workers", "3", "--backend", "torch"])
    assert load_config({"normalize_workers": args.normalize_workers, "backend": args.backend}).normalize_workers == 3
    serve = next(a for a in build_parser(["serve"])._subparsers._group_actions if a.dest == "command")  # type: ignore[union-attr]
    text = " ".join(serve.choices["serve"].format_help().split())
    assert "--normalize-workers INT Worker processes that normalize" in text
    assert "[default: unset; env: WRITEGATE_NORMALIZE_WORKERS]" in text


async def test_a_server_with_the_pool_stops_cleanly_when_its_load_fails(tiny_model_dir: Path) -> None:
    def broken() -> None:
        raise InputError("model", "cannot be loaded")

    before = set(multiprocessing.active_children())
    app = WriteGateServer(ServerConfig(port=0, model=tiny_model_dir, normalize_workers=1), loader=broken)
    await app.start()
    with pytest.raises(InputError, match="cannot be loaded"):
        await asyncio.wait_for(app.wait_ready(), 30)
    await app.stop(0.5)
    assert app.feeder is None and _workers(before) == []


async def test_a_request_cancelled_while_its_memories_are_in_the_pool_leaves_no_error(
    tiny_model_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with tiny_server(tiny_model_dir, normalize_workers=1) as (app, _channel, _stub):
        items = [MemoryKey(f"User works in EST {i}", "user:default", T_OLD) for i in range(20)]
        cancelled = asyncio.ensure_future(app.service._normalized(items))
        await asyncio.sleep(0)  # submitted
        cancelled.cancel()
        # one worker runs tasks in order: once the next one is done, the cancelled one's result came back
        assert len(await app.service._normalized(items[:1])) == 1
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []  # concurrent.futures' own
