"""`ServerConfig`: one object; defaults < file < env < flags; bad settings name their source; the
`serve` flags, their help and the env names are all derived from its fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from writegate.classifier.modeldir import MODEL_ENV, default_model_dir
from writegate.errors import InputError
from writegate.server.config import FIELDS, SETTINGS, BackendName, ServerConfig, env_name, flag_name, load_config


def test_defaults() -> None:
    cfg = load_config()
    assert (cfg.host, cfg.port, cfg.model, cfg.backend) == ("127.0.0.1", 50051, default_model_dir({}), BackendName.ONNX)
    assert cfg.model.is_absolute() and cfg.model.parts[-2:] == ("models", "default")
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
        ({"port": "abc"}, {}, None, "--port", "valid integer"),
        ({"backend": "tpu"}, {}, None, "--backend", "'onnx', 'torch' or 'vllm'"),
        ({}, {"WRITEGATE_LOG_TEXT": "maybe"}, None, "WRITEGATE_LOG_TEXT", "valid boolean"),
        ({}, {"WRITEGATE_LOG_LEVEL": "loud"}, None, "WRITEGATE_LOG_LEVEL", "'DEBUG', 'INFO'"),
        ({}, {}, "grace_s = -1\n", "c.toml: grace_s", "greater than or equal to 0"),
        ({"normalize_workers": "-1"}, {}, None, "--normalize-workers", "Input should be greater than or equal to 0"),
        (
            {},
            {"WRITEGATE_NORMALIZE_WORKERS": "-2"},
            None,
            "WRITEGATE_NORMALIZE_WORKERS",
            "Input should be greater than or equal to 0",
        ),
        ({}, {}, "normalize_workers = -1\n", "c.toml: normalize_workers", "Input should be greater than or equal to 0"),
        (
            {},
            {"WRITEGATE_NORMALIZE_WORKERS": "some"},
            None,
            "WRITEGATE_NORMALIZE_WORKERS",
            "Input should be a valid integer",
        ),
    ],
    ids=[
        "flag-range",
        "env-type",
        "file-enum",
        "file-unknown-key",
        "file-syntax",
        "unknown-flag",
        "text-limit",
        "flag-text",
        "flag-enum",
        "env-bool",
        "env-literal",
        "file-range",
        "normalize-workers-flag",
        "normalize-workers-env",
        "normalize-workers-file",
        "normalize-workers-env-not-a-number",
    ],
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


def test_a_higher_layer_hides_a_bad_lower_value(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("port = 70000\nmax_candidates = 0\n")
    cfg = load_config({"max_candidates": "8"}, config_file=path, env={"WRITEGATE_PORT": "7"})
    assert (cfg.port, cfg.max_candidates) == (7, 8)
    assert load_config(config_file=path, env={"WRITEGATE_PORT": "", "WRITEGATE_MAX_CANDIDATES": ""}).port == 50051


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_config(config_file=tmp_path / "nope.toml")


def test_address_brackets_ipv6() -> None:
    assert ServerConfig(host="::1", port=1).address == "[::1]:1"
    assert ServerConfig(host="127.0.0.1", port=1).address == "127.0.0.1:1"


def _serve_help() -> str:
    """`writegate serve --help`, whitespace collapsed (argparse wraps lines anywhere between words)."""
    from writegate.cli.main import build_parser

    parser = build_parser(["serve"])
    serve = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices["serve"]  # type: ignore[union-attr]
    return " ".join(serve.format_help().split())


def test_every_setting_is_one_serve_flag() -> None:
    import argparse

    from writegate.server import command as serve

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    flags = {a.dest: a.option_strings for a in parser._actions}
    assert set(flags) - {"help", "config"} == set(FIELDS)
    for name in FIELDS:
        assert flag_name(name) in flags[name]
    assert flags["log_text"] == ["--log-text", "--no-log-text"]


def test_every_field_has_a_description_and_the_model_its_env_name() -> None:
    assert all(field.description for field in ServerConfig.model_fields.values())
    assert env_name("model") == MODEL_ENV == "WRITEGATE_MODEL"
    assert [s.name for s in SETTINGS] == list(FIELDS)


def test_serve_help_shows_every_flag_with_its_default_and_env_name() -> None:
    text = _serve_help()
    for setting in SETTINGS:
        assert f"{setting.description} [default: {setting.default}; env: {setting.env}]" in text, setting.name
        assert setting.flag in text
    assert "--grace-s NUM Seconds to drain in-flight RPCs on shutdown. [default: 10; env: WRITEGATE_GRACE_S]" in text
    assert "--max-queue-pairs INT" in text and "[default: unset; env: WRITEGATE_MAX_QUEUE_PAIRS]" in text
    assert f"[default: {default_model_dir({})}; env: WRITEGATE_MODEL]" in text
    assert "--backend {onnx,torch,vllm}" in text and "--log-level {DEBUG,INFO,WARNING,ERROR,CRITICAL}" in text
    assert "[env: WRITEGATE_CONFIG]" in text


def test_serve_flags_reach_the_config_as_given() -> None:
    import argparse

    from writegate.server import command as serve

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(
        [
            "--port",
            "6002",
            "--backend",
            "torch",
            "--max-wait-ms",
            "0.5",
            "--no-log-text",
            "--auth-tokens",
            "t.txt",
            "--model",
            "m",
        ]
    )
    flags = {s.name: getattr(args, s.name) for s in SETTINGS}
    cfg = load_config(flags, env={"WRITEGATE_LOG_TEXT": "true", "WRITEGATE_PORT": "6001"})
    assert (cfg.port, cfg.backend, cfg.max_wait_ms, cfg.log_text) == (6002, BackendName.TORCH, 0.5, False)
    assert (cfg.auth_tokens, cfg.model) == (Path("t.txt"), Path("m"))
    assert args.max_candidates is None  # not given: the lower layers decide


@pytest.mark.parametrize(
    ("file_model", "env_model", "flag_model", "expected"),
    [
        (None, None, None, None),
        ("from-file", None, None, "from-file"),
        ("from-file", "from-env", None, "from-env"),
        ("from-file", "from-env", "from-flag", "from-flag"),
        (None, "", None, None),
    ],
    ids=["default", "file", "env-beats-file", "flag-beats-env", "empty-env-is-unset"],
)
def test_model_precedence(
    tmp_path: Path, file_model: str | None, env_model: str | None, flag_model: str | None, expected: str | None
) -> None:
    path = None
    if file_model is not None:
        path = tmp_path / "c.json"
        path.write_text(json.dumps({"model": file_model}))
    env = {} if env_model is None else {"WRITEGATE_MODEL": env_model}
    cfg = load_config({"model": flag_model}, config_file=path, env=env)
    assert cfg.model == (default_model_dir({}) if expected is None else Path(expected))


@pytest.mark.parametrize(
    ("settings", "workers", "threads"),
    [
        ({}, 3, 1),
        ({"batch_workers": 1}, 1, None),
        ({"batch_workers": 2, "threads": 4}, 2, 4),
        ({"backend": "torch"}, 1, None),
        ({"backend": "torch", "threads": 2}, 1, 2),
        ({"backend": "torch", "device": "cuda:1"}, 2, 1),
        ({"backend": "vllm", "device": "cuda"}, 1, None),
    ],
    ids=["onnx-default", "one-worker", "both-set", "torch-default", "torch-threads", "torch-cuda", "vllm"],
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
        ({}, {}, 400.0, 525),
        ({"max_queue_wait_ms": 1000}, {}, 400.0, 350),
        ({}, {"WRITEGATE_MAX_QUEUE_WAIT_MS": "500"}, 400.0, 175),
        ({"max_candidates": 64}, {"WRITEGATE_MAX_QUEUE_WAIT_MS": "500"}, 400.0, 175),
        ({"max_queue_pairs": 77}, {}, 400.0, 77),
        ({}, {"WRITEGATE_MAX_QUEUE_PAIRS": "5000"}, 400.0, 5000),
        ({}, {}, None, 1024),
        ({}, {}, 1e9, 65_536),
        ({}, {}, 100.0, 132),
    ],
    ids=[
        "default-1.5s-less-a-batch",
        "flag",
        "env-below-max-candidates",
        "env",
        "explicit-wins",
        "explicit-env-wins",
        "speed-unknown",
        "capped",
        "slow-machine-not-floored",
    ],
)
def test_queue_is_sized_from_the_measured_speed(
    settings: dict[str, object], env: dict[str, str], pairs_per_s: float | None, expected: int
) -> None:
    """The bound is the queue policy's (`ServerConfig.queue_policy`, `QueuePolicy.queue_bound`): what
    the speed runs in `max_queue_wait_ms` less one batch (1/8 of it), even below `max_candidates` (a
    request alone always fits)."""
    cfg = load_config(settings, env=env)
    policy = cfg.queue_policy
    assert policy.queue_bound(pairs_per_s) == expected
    assert policy.batch_ms == cfg.max_queue_wait_ms / 8
    assert (policy.max_batch_tokens, policy.max_wait_ms, policy.workers) == (
        cfg.max_batch_tokens,
        cfg.max_wait_ms,
        cfg.effective_batch_workers,
    )


@pytest.mark.parametrize(
    ("settings", "sized"), [({}, True), ({"max_queue_pairs": 300}, False)], ids=["sized", "explicit"]
)
async def test_the_server_sizes_its_queue_after_the_warm_up_and_logs_it(
    settings: dict[str, int], sized: bool, caplog: pytest.LogCaptureFixture
) -> None:
    from server_fakes import running_server

    caplog.set_level("INFO", logger="writegate.server")
    async with running_server(**settings) as (app, _target):
        batcher = app.batcher
        assert batcher is not None and batcher.pairs_per_s is not None and batcher.pairs_per_s > 0
        if sized:
            from writegate.classifier.batcher.policy import queue_pairs_for

            wait_ms = app.config.max_queue_wait_ms * 7 / 8  # less one batch
            floor, ceiling = batcher.policy.queue_floor, batcher.policy.queue_ceiling
            assert batcher.max_queue_pairs == queue_pairs_for(
                batcher.pairs_per_s, wait_ms, floor=floor, ceiling=ceiling
            )
        else:
            assert batcher.max_queue_pairs == 300
        assert batcher.policy == app.config.queue_policy  # the config's policy, handed over once
        assert batcher.policy.sized is sized
        expected = f"max_queue_pairs {batcher.max_queue_pairs}: " if sized else "max_queue_pairs 300 (set)"
        assert any(expected in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
