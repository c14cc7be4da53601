"""The container image and the compose file, checked where no Docker engine runs.

The image's entry command and health check are read from the Dockerfile (so they cannot drift) and
run here with the environment the Dockerfile sets, from an empty folder, against a real port: the
health check fails before the server is up, passes once it says SERVING and fails again after
SIGTERM. The compose file is checked against writegate's own settings and flags.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from deploy_helpers import (
    ROOT,
    clean_env,
    dockerignore_rules,
    free_port,
    in_build_context,
    read_dockerfile,
    serve_process,
)

DOCKERFILE = read_dockerfile(ROOT / "Dockerfile")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
HEAVY = {"torch", "transformers", "vllm", "ray", "accelerate", "onnx", "onnxscript"}
"""What the image must not install: the training and GPU stacks."""


def _name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return match.group().lower()


# -- the Dockerfile ---------------------------------------------------------------------------------


def test_the_image_is_slim_and_runs_as_a_user() -> None:
    final = DOCKERFILE.final
    assert re.fullmatch(r"python:\$\{PYTHON_VERSION\}-slim|python:3\.\d+-slim(-\w+)?", final.base), final.base
    assert final.last("USER") not in (None, "root", "0", "0:0")
    assert final.all("USER") and final.instructions.index(("USER", final.all("USER")[-1])) > max(
        i for i, (kw, _) in enumerate(final.instructions) if kw == "RUN"
    ), "USER comes after the last RUN: nothing runs as root once the image starts"


def test_the_image_installs_the_core_and_no_torch() -> None:
    extras = {args.partition("=")[0]: args.partition("=")[2] for args in DOCKERFILE.final.all("ARG")}
    chosen = [e for e in extras.get("EXTRAS", "").split(",") if e]
    optional = PYPROJECT["project"]["optional-dependencies"]
    assert all(e in optional for e in chosen), chosen
    installed = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    installed |= {_name(r) for e in chosen for r in optional[e]}
    assert installed & HEAVY == set()
    (install,) = [r for r in DOCKERFILE.final.all("RUN") if "pip install" in r]
    assert "/tmp/wheels/writegate-" in install and "${EXTRAS:+[$EXTRAS]}" in install


def test_the_entry_command_is_the_console_script_in_exec_form() -> None:
    entrypoint, cmd = DOCKERFILE.exec_form("ENTRYPOINT"), DOCKERFILE.exec_form("CMD")
    assert entrypoint == list(PYPROJECT["project"]["scripts"])  # ["writegate"]
    assert cmd[0] == "serve"
    options, check = DOCKERFILE.healthcheck()
    assert {"interval", "timeout", "start-period", "retries"} <= set(options)
    assert check[:2] == ["python", "-c"] and "grpc_health" in check[2]


def test_the_build_context_holds_what_the_wheel_needs_and_nothing_local() -> None:
    rules = dockerignore_rules(ROOT / ".dockerignore")
    kept = [
        "pyproject.toml",
        "README.md",
        "classifier/modeldir.py",
        "proto/writegate/v1/writegate.proto",
        "relabel/report_template.html",
        "training/data/phrases/work.toml",
        "models/default/model.int8.onnx",
        "models/default/writegate.json",
    ]
    dropped = [
        ".git/config",
        ".venv/bin/python",
        ".venv-core/bin/python",
        ".env",
        "classifier/__pycache__/modeldir.cpython-311.pyc",
        "writegate.egg-info/PKG-INFO",
        "build/lib/x.py",
        "tests/test_deploy.py",
        "models/mine/model.int8.onnx",
        "out/edges.jsonl",
        "o/edges.jsonl",
        "relabel/edges.jsonl",
        "relabel/.edges.jsonl.relabel/manifest.json",
        "relabel-data/store.jsonl",
        "data/huge.jsonl",
    ]
    assert [p for p in kept if not in_build_context(p, rules)] == []
    assert [p for p in dropped if in_build_context(p, rules)] == []
    assert in_build_context("training/data/generator.py", rules)  # only the top-level data/ is left out


def _venv_path() -> str:
    """PATH with this interpreter's folder first: `writegate` and `python` resolve to this install,
    as /usr/local/bin's do in the image."""
    return f"{Path(sys.executable).parent}:{clean_env()['PATH']}"


@pytest.mark.slow
@pytest.mark.skipif(
    not (ROOT / "models" / "default" / "writegate.json").is_file(), reason="no shipped model in models/default"
)
def test_the_entry_command_serves_and_the_health_check_follows_it(tmp_path: Path) -> None:
    env = clean_env({**DOCKERFILE.env(), "PATH": _venv_path()})
    assert env["WRITEGATE_HOST"] == "0.0.0.0"  # reachable through the published port
    env["WRITEGATE_PORT"] = str(free_port())  # 50051 may be taken on this machine; the check reads it too
    _, check = DOCKERFILE.healthcheck()

    def healthcheck() -> tuple[int, str]:
        result = subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        return result.returncode, result.stdout.strip()

    assert healthcheck() == (1, "UNAVAILABLE")  # nothing listens yet
    argv = DOCKERFILE.exec_form("ENTRYPOINT") + DOCKERFILE.exec_form("CMD")
    with serve_process(argv, cwd=tmp_path, env=env) as served:
        assert (served.host, served.port) == ("0.0.0.0", int(env["WRITEGATE_PORT"]))
        assert served.model == ROOT / "models" / "default"  # the default: no WRITEGATE_MODEL in the image
        assert healthcheck() == (0, "SERVING")
        assert served.stop() == 0, served.stderr()
    assert healthcheck() == (1, "UNAVAILABLE")
    assert "Traceback" not in served.stderr()
    assert re.search(
        r"WARNING .*0\.0\.0\.0.*TLS", served.stderr()
    )  # docs/deploy.md: why it says so, and when to heed it
    assert list(tmp_path.iterdir()) == []  # nothing written into the working folder


# -- compose.yaml -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict:
    yaml = pytest.importorskip("yaml", reason="pyyaml reads compose.yaml (the dev extra)")
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def _seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)(ms|s|m)", duration)
    assert match, duration
    return int(match[1]) * {"ms": 0.001, "s": 1, "m": 60}[match[2]]


def test_compose_serves_the_image_on_the_hosts_loopback(compose: dict) -> None:
    from writegate.server.config import SETTINGS, load_config

    service = compose["services"]["writegate"]
    assert service["build"] == "." and (ROOT / "Dockerfile").is_file()
    assert all(str(port).startswith("127.0.0.1:") for port in service["ports"]), service["ports"]
    env = {k: str(v) for k, v in service["environment"].items()}
    known = {s.env for s in SETTINGS}
    assert [k for k in env if k.startswith("WRITEGATE_") and k not in known] == []
    config = load_config({}, env={**DOCKERFILE.env(), **env})  # the image's and compose's settings, validated
    published = {int(str(p).rsplit(":", 1)[1]) for p in service["ports"]}
    assert {config.port, config.metrics_port} <= published
    assert _seconds(service["stop_grace_period"]) > config.grace_s + 5  # drained before docker's SIGKILL
    assert "healthcheck" not in service  # the image's HEALTHCHECK applies


def test_compose_relabel_writes_back_to_its_postgres(compose: dict) -> None:
    from writegate.cli.main import build_parser

    services = compose["services"]
    pg_env = services["postgres"]["environment"]
    job = services["relabel"]
    assert job["profiles"] == ["relabel"] and job["depends_on"]["postgres"]["condition"] == "service_healthy"
    args = build_parser(job["command"]).parse_args(job["command"])  # writegate's own parser takes it
    assert args.command == "relabel"
    url = urlsplit(args.write_back)
    assert (url.hostname, url.port, url.username, url.password) == ("postgres", 5432, pg_env["POSTGRES_USER"], None)
    assert url.path == f"/{pg_env['POSTGRES_DB']}"
    assert job["environment"]["PGPASSWORD"] == pg_env["POSTGRES_PASSWORD"]  # one secret, from the environment
    assert pg_env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")  # never a default password
    mounts = [str(v).split(":")[1] for v in job["volumes"]]
    for path in (args.input, str(args.out), str(args.report)):
        assert any(path.startswith(m + "/") for m in mounts), path  # outputs land on the host
    assert "ports" not in services["postgres"]  # the database stays on compose's network
    check = services["postgres"]["healthcheck"]["test"]
    assert (
        check[check.index("-U") + 1] == pg_env["POSTGRES_USER"]
        and check[check.index("-d") + 1] == pg_env["POSTGRES_DB"]
    )
