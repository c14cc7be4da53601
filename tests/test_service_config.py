"""`ServerConfig`: one object; defaults < file < env < flags; bad settings name their source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writegate.normalizer.errors import InputError
from writegate.server.config import BackendName, ServerConfig, load_config


def test_defaults() -> None:
    cfg = load_config()
    assert (cfg.host, cfg.port, cfg.model, cfg.backend) == ("127.0.0.1", 50051, Path("models/default"), BackendName.ONNX)
    assert cfg.max_candidates == 256 and cfg.metrics_port is None
    assert cfg.limits.max_future.total_seconds() == 86400


@pytest.mark.parametrize("suffix", [".toml", ".json"], ids=["toml", "json"])
def test_precedence_file_env_flags(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"serve{suffix}"
    settings = {"port": 6000, "max_batch_tokens": 2048, "backend": "torch", "max_wait_ms": 7.5}
    if suffix == ".toml":
        path.write_text('port = 6000\nmax_batch_tokens = 2048\nbackend = "torch"\nmax_wait_ms = 7.5\n')
    else:
        path.write_text(json.dumps(settings))
    env = {"WRITEGATE_PORT": "6001", "WRITEGATE_THREADS": "2", "UNRELATED": "x"}
    cfg = load_config({"port": None, "max_wait_ms": 1.0}, config_file=path, env=env)
    assert cfg.port == 6001  # env beats file
    assert cfg.max_wait_ms == 1.0  # flag beats file
    assert cfg.max_batch_tokens == 2048 and cfg.backend is BackendName.TORCH  # from the file
    assert cfg.threads == 2  # from env


def test_config_file_from_env(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("max_candidates = 16\n")
    assert load_config(env={"WRITEGATE_CONFIG": str(path)}).max_candidates == 16


@pytest.mark.parametrize(
    ("flags", "env", "file_text", "field", "message"),
    [
        ({"port": 70000}, {}, None, "--port", "less than or equal to 65535"),
        ({}, {"WRITEGATE_MAX_BATCH_TOKENS": "lots"}, None, "WRITEGATE_MAX_BATCH_TOKENS", "valid integer"),
        ({}, {}, "backend = 'tpu'\n", "c.toml: backend", "'onnx', 'torch' or 'vllm'"),
        ({}, {}, "prot = 1\n", "config", "unknown setting 'prot'"),
        ({}, {}, "port = \n", "config", "does not parse"),
        ({"bogus": 1}, {}, None, "bogus", "is not a server setting"),
        ({"max_text_bytes": 20000}, {}, None, "--max-text-bytes", "less than or equal to 16384"),
    ],
    ids=["flag-range", "env-type", "file-enum", "file-unknown-key", "file-syntax", "unknown-flag", "text-limit"],
)
def test_bad_settings_name_their_source(
    tmp_path: Path, flags: dict, env: dict, file_text: str | None, field: str, message: str
) -> None:
    path = None
    if file_text is not None:
        path = tmp_path / "c.toml"
        path.write_text(file_text)
    with pytest.raises(InputError) as info:
        load_config(flags, config_file=path, env=env)
    assert info.value.field == (field.replace("c.toml", str(path)) if path else field)
    assert message in info.value.message


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_config(config_file=tmp_path / "nope.toml")


def test_address_brackets_ipv6() -> None:
    assert ServerConfig(host="::1", port=1).address == "[::1]:1"
    assert ServerConfig(host="127.0.0.1", port=1).address == "127.0.0.1:1"


def test_every_setting_has_a_serve_flag() -> None:
    import argparse

    from writegate.server import command as serve
    from writegate.server.config import FIELDS

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    flags = {a.dest for a in parser._actions} - {"help", "config"}
    assert set(serve.FLAG_FIELDS) == set(FIELDS) == flags


@pytest.mark.parametrize(
    ("settings", "workers", "threads"),
    [
        ({}, 3, 1),
        ({"batch_workers": 1}, 1, None),
        ({"batch_workers": 2, "threads": 4}, 2, 4),
        ({"backend": "torch"}, 1, None),
        ({"backend": "torch", "threads": 2}, 1, 2),
    ],
    ids=["onnx-default", "one-worker", "both-set", "torch-default", "torch-threads"],
)
def test_batch_workers_and_threads_defaults(
    settings: dict[str, object], workers: int, threads: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from writegate.server import config as config_mod

    monkeypatch.setattr(config_mod, "available_cores", lambda: 3)
    cfg = load_config(settings)
    assert (cfg.effective_batch_workers, cfg.effective_threads) == (workers, threads)


def test_batch_workers_must_be_positive() -> None:
    with pytest.raises(InputError, match="--batch-workers"):
        load_config({"batch_workers": 0})


@pytest.mark.parametrize(
    ("settings", "env", "pairs_per_s", "expected"),
    [
        ({}, {}, 400.0, 600),
        ({"max_queue_wait_ms": 1000}, {}, 400.0, 400),
        ({}, {"WRITEGATE_MAX_QUEUE_WAIT_MS": "500"}, 400.0, 256),
        ({"max_candidates": 64}, {"WRITEGATE_MAX_QUEUE_WAIT_MS": "500"}, 400.0, 200),
        ({"max_queue_pairs": 77}, {}, 400.0, 77),
        ({}, {"WRITEGATE_MAX_QUEUE_PAIRS": "5000"}, 400.0, 5000),
        ({}, {}, None, 1024),
        ({}, {}, 1e9, 65_536),
    ],
    ids=["default-1.5s", "flag", "env-floored-at-max-candidates", "env", "explicit-wins", "explicit-env-wins",
         "speed-unknown", "capped"],
)
def test_queue_is_sized_from_the_measured_speed(
    settings: dict[str, object], env: dict[str, str], pairs_per_s: float | None, expected: int
) -> None:
    cfg = load_config(settings, env=env)
    assert cfg.queue_pairs(pairs_per_s) == expected


@pytest.mark.parametrize(
    ("settings", "sized"), [({}, True), ({"max_queue_pairs": 300}, False)], ids=["sized", "explicit"]
)
async def test_the_server_sizes_its_queue_after_the_warm_up_and_logs_it(
    settings: dict[str, int], sized: bool, caplog: pytest.LogCaptureFixture
) -> None:
    from server_fakes import running_server

    from writegate.server.service import RELABEL_DEPTH

    caplog.set_level("INFO", logger="writegate.server")
    async with running_server(**settings) as (app, _target):
        batcher = app.batcher
        assert batcher is not None and batcher.pairs_per_s is not None and batcher.pairs_per_s > 0
        assert batcher.max_queue_pairs == app.config.queue_pairs(batcher.pairs_per_s)
        # resized under load, it never drops below one request or one Relabel stream's windows in flight
        assert batcher.queue_floor == max(app.config.max_candidates, (RELABEL_DEPTH + 2) * app.service.relabel_window)
        assert batcher.queue_wait_ms == (app.config.max_queue_wait_ms if sized else None)
        expected = f"max_queue_pairs {batcher.max_queue_pairs}: " if sized else "max_queue_pairs 300 (set)"
        assert any(expected in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
