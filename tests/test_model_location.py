"""Where the model is found: `--model`, else `$WRITEGATE_MODEL`, else the project's `models/default`
located from the installed package (whatever the working directory). A missing model fails at
start with one line that says how to point at one, before the server says that it listens."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import writegate.classifier
from writegate.classifier.modeldir import MODEL_ENV, default_model_dir, read_meta
from writegate.errors import InputError

POINT = "pass --model DIR or set WRITEGATE_MODEL=DIR"
PAIR = {
    "existing": {"text": "User works in EST", "observed_at": "2026-01-01"},
    "new": {"text": "User moved to London", "observed_at": "2026-03-01"},
}
MODELLESS_INSTALL = """
import sys
import writegate.classifier
writegate.classifier.__file__ = sys.argv[1]  # an installed package with no models/default beside it
from writegate.cli.main import main
raise SystemExit(main(sys.argv[2:]))
"""
"""Runs `writegate ARGS` as an install that lacks the shipped model would: `python -c MODELLESS_INSTALL FILE ARGS`.
(A built wheel carries the model: tests/test_packaging.py installs one.)"""


def _env(**extra: str) -> dict[str, str]:
    """This environment without any WRITEGATE_* variable, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WRITEGATE_")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def _writegate(*args: str, cwd: Path, env: dict[str, str], modelless_install: Path | None = None) -> subprocess.Popen:
    head = (
        ["-c", MODELLESS_INSTALL, str(modelless_install)]
        if modelless_install is not None
        else ["-m", "writegate.cli.main"]
    )
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen([sys.executable, *head, *args], cwd=cwd, env=env, text=True, **pipes)


def _fake_package_file(tmp_path: Path) -> Path:
    return tmp_path / "site-packages" / "writegate" / "classifier" / "__init__.py"


# -- the one default ------------------------------------------------------------------------------


def test_the_default_is_the_env_variable_else_the_projects_models_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(MODEL_ENV, raising=False)
    project = Path(writegate.classifier.__file__).resolve().parents[1] / "models" / "default"
    assert default_model_dir() == default_model_dir({}) == default_model_dir({MODEL_ENV: ""}) == project
    assert project.is_absolute()
    assert default_model_dir({MODEL_ENV: "some/model"}) == Path("some/model")
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "m"))
    assert default_model_dir() == tmp_path / "m"


@pytest.mark.parametrize("command", ["classify", "relabel", "eval", "export"])
def test_every_model_flag_defaults_to_the_one_default(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from writegate.cli.main import build_parser

    def model_default() -> object:
        parser = build_parser([command])
        sub = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices[command]  # type: ignore[union-attr]
        return next(a for a in sub._actions if a.dest == "model").default

    monkeypatch.delenv(MODEL_ENV, raising=False)
    assert model_default() == default_model_dir({})
    monkeypatch.setenv(MODEL_ENV, "/elsewhere/model")
    assert model_default() == Path("/elsewhere/model")


def test_a_missing_directory_says_how_to_point_at_a_model(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        read_meta(tmp_path / "nope")
    assert str(info.value) == f"model: {tmp_path / 'nope'} is not a directory ({POINT})"


def test_an_install_without_the_shipped_model_says_how_to_point_at_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writegate.classifier, "__file__", str(_fake_package_file(tmp_path)))
    missing = tmp_path / "site-packages" / "writegate" / "models" / "default"
    assert default_model_dir({}) == missing
    with pytest.raises(InputError) as info:
        read_meta(default_model_dir({}))
    assert (
        str(info.value) == f"model: the shipped model is missing from this install ({missing} does not exist): {POINT}"
    )


# -- the commands, run from another directory -------------------------------------------------------


@pytest.mark.parametrize("command", ["serve", "classify"])
def test_an_install_without_the_shipped_model_fails_at_start_with_one_line(tmp_path: Path, command: str) -> None:
    args = ["--port", "0"] if command == "serve" else ["--input", "-"]
    proc = _writegate(command, *args, cwd=tmp_path, env=_env(), modelless_install=_fake_package_file(tmp_path))
    out, err = proc.communicate("", timeout=60)
    missing = tmp_path / "site-packages" / "writegate" / "models" / "default"
    assert proc.returncode == 2
    assert out == ""
    assert err.splitlines() == [
        f"writegate {command}: error: model: the shipped model is missing from this install ({missing} does not exist): "
        f"{POINT}"
    ]


def test_serve_with_a_bad_model_fails_before_it_listens(tmp_path: Path) -> None:
    bad = tmp_path / "no-model"
    proc = _writegate("serve", "--port", "0", cwd=tmp_path, env=_env(WRITEGATE_MODEL=str(bad)))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert out == ""  # no SERVING line
    assert err.splitlines() == [f"writegate serve: error: model: {bad} is not a directory ({POINT})"]  # no "listening"


def test_serve_an_incomplete_model_dir_fails_before_it_listens(tmp_path: Path) -> None:
    proc = _writegate("serve", "--port", "0", "--model", str(tmp_path), cwd=tmp_path, env=_env())
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert err.splitlines() == [
        f"writegate serve: error: model: {tmp_path / 'writegate.json'} is missing (model directory {tmp_path} is incomplete)"
    ]


def test_serve_honours_writegate_model_from_another_directory(tmp_path: Path, tiny_model_dir: Path) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from writegate.client import Client

    proc = _writegate(
        "serve", "--port", "0", "--threads", "1", cwd=tmp_path, env=_env(WRITEGATE_MODEL=str(tiny_model_dir))
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert "SERVING on 127.0.0.1:" in line, line + proc.stderr.read()  # type: ignore[union-attr]
        assert f"model {tiny_model_dir}" in line
        target = f"127.0.0.1:{int(line.split('127.0.0.1:')[1].split()[0])}"
        with grpc.insecure_channel(target) as channel:
            status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING
        with Client(target, timeout=20) as client:
            assert client.model_info().name == "tiny-test"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read()  # type: ignore[union-attr]
        assert "listening on 127.0.0.1:" in err and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_classify_honours_writegate_model_from_another_directory(tmp_path: Path, tiny_model_dir: Path) -> None:
    proc = _writegate("classify", "--input", "-", cwd=tmp_path, env=_env(WRITEGATE_MODEL=str(tiny_model_dir)))
    out, err = proc.communicate(json.dumps(PAIR) + "\n", timeout=120)
    assert proc.returncode == 0, err
    assert list(json.loads(out)) == ["label", "scores"]


@pytest.mark.skipif(
    not (default_model_dir({}) / "writegate.json").is_file(), reason="no models/default in this checkout"
)
def test_classify_finds_the_shipped_model_from_another_directory(tmp_path: Path) -> None:
    proc = _writegate("classify", "--input", "-", cwd=tmp_path, env=_env())
    out, err = proc.communicate(json.dumps(PAIR) + "\n", timeout=120)
    assert proc.returncode == 0, err
    assert list(json.loads(out)) == ["label", "scores"]
