"""Helpers of the packaging and deployment tests: the Dockerfile as data, `.dockerignore`'s rules,
and a `writegate serve` process that is waited for on its SERVING line."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import socket
import subprocess
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVING_LINE = re.compile(
    r"^writegate serve: SERVING on (?P<host>\S+):(?P<port>\d+) \(\w+, model (?P<model>.+?)(; .*)?\)$"
)


# -- the Dockerfile ---------------------------------------------------------------------------------


@dataclass
class Stage:
    """One build stage: its base image and its instructions (keyword upper-cased, arguments as written)."""

    base: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        """The arguments of every `keyword` instruction, in order."""
        return [args for kw, args in self.instructions if kw == keyword]

    def last(self, keyword: str) -> str | None:
        """The arguments of the last `keyword` instruction (the one that counts), or None."""
        found = self.all(keyword)
        return found[-1] if found else None


@dataclass
class Dockerfile:
    """The instructions of a Dockerfile, split into stages; `final` is the image that runs."""

    stages: list[Stage]

    @property
    def final(self) -> Stage:
        """The last stage: what `docker run` starts."""
        return self.stages[-1]

    def env(self) -> dict[str, str]:
        """The variables the final stage's `ENV` instructions set (`ENV K=V K2="V 2"`)."""
        out: dict[str, str] = {}
        for args in self.final.all("ENV"):
            for token in shlex.split(args):
                name, eq, value = token.partition("=")
                assert eq, f"ENV {args!r}: use the KEY=VALUE form"
                out[name] = value
        return out

    def exec_form(self, keyword: str) -> list[str]:
        """The final stage's `ENTRYPOINT` or `CMD` as its exec-form list (a shell form fails: signals
        would go to /bin/sh, not to the server)."""
        args = self.final.last(keyword)
        assert args is not None, f"the final stage has no {keyword}"
        value = json.loads(args)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), f"{keyword} {args}"
        return value

    def healthcheck(self) -> tuple[dict[str, str], list[str]]:
        """The final stage's `HEALTHCHECK`: its options (`--interval=15s` → {"interval": "15s"}) and its
        exec-form command."""
        args = self.final.last("HEALTHCHECK")
        assert args is not None, "the final stage has no HEALTHCHECK"
        options, _, command = args.partition("CMD ")
        opts = dict(opt[2:].partition("=")[::2] for opt in options.split())
        value = json.loads(command)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), f"HEALTHCHECK {args}"
        return opts, value


def read_dockerfile(path: Path) -> Dockerfile:
    """Parse a Dockerfile: comments dropped, `\\` continuations joined, split at each `FROM`."""
    logical: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#") or (not line and not pending):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    assert not pending, "a continuation runs off the end of the file"
    stages: list[Stage] = []
    for line in logical:
        keyword, _, args = line.partition(" ")
        keyword, args = keyword.upper(), args.strip()
        if keyword == "FROM":
            stages.append(Stage(base=args.split()[0]))
        elif stages:
            stages[-1].instructions.append((keyword, args))
    assert stages, f"{path} has no FROM"
    return Dockerfile(stages)


# -- .dockerignore ----------------------------------------------------------------------------------


def _ignore_regex(pattern: str) -> re.Pattern[str]:
    """Docker's pattern syntax as a regex: `*` and `?` stay within one path element, `**` spans any."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def dockerignore_rules(path: Path) -> list[tuple[bool, re.Pattern[str]]]:
    """`.dockerignore`'s rules, in order: (is an exception `!…`, the pattern)."""
    rules = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = os.path.normpath(line.lstrip("!").strip()).lstrip("/")
        rules.append((negate, _ignore_regex(pattern)))
    return rules


def in_build_context(relative: str, rules: Sequence[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether `docker build` sends this file: a rule that matches the path or one of its parent
    folders excludes it (an exception includes it again); the last rule that matches decides."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[:k]) for k in range(1, len(parts) + 1)]
    excluded = False
    for negate, rx in rules:
        if any(rx.match(p) for p in prefixes):
            excluded = not negate
    return not excluded


def project_files(root: Path = ROOT) -> list[str]:
    """The checkout's files, relative: tracked and untracked, without what .gitignore ignores."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    return sorted({p for p in out.decode().split("\0") if p and (root / p).is_file()})


# -- a `writegate serve` process --------------------------------------------------------------------


def free_port(host: str = "0.0.0.0") -> int:
    """A port nothing listens on now (taken back at once: a tiny race, fine for tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This environment without WRITEGATE_* and PYTHONPATH (nothing leaks in from the caller), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WRITEGATE_") and k != "PYTHONPATH"}
    return {**env, **(extra or {})}


@dataclass
class Served:
    """A running `writegate serve`: the process, its SERVING line parsed, and its stderr so far."""

    proc: subprocess.Popen[str]
    host: str
    port: int
    model: Path
    _err: list[str]

    def stderr(self) -> str:
        """What the process has written to stderr so far."""
        return "".join(self._err)

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM, then its exit code."""
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)


def _pump_lines(stream: Iterable[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)  # the end of the stream


def _pump_text(stream: Iterable[str], sink: list[str]) -> None:
    for line in stream:
        sink.append(line)


@contextmanager
def serve_process(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float = 180) -> Iterator[Served]:
    """Start `argv` (a `writegate serve` command), wait for its SERVING line, yield it; kill it on the way out.

    Raises:
        AssertionError: the process ended, or printed something else, before its SERVING line.
    """
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    err: list[str] = []
    pumps = [
        threading.Thread(target=_pump_lines, args=(proc.stdout, lines), daemon=True),
        threading.Thread(target=_pump_text, args=(proc.stderr, err), daemon=True),
    ]
    for pump in pumps:
        pump.start()
    try:
        try:
            first = lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no SERVING line within {timeout} s; stderr:\n{''.join(err)}") from None
        if first is None:
            proc.wait(timeout=30)
            pumps[1].join(timeout=30)
        match = SERVING_LINE.match((first or "").rstrip("\n"))
        assert match, f"expected the SERVING line, got {first!r} (exit {proc.poll()}); stderr:\n{''.join(err)}"
        yield Served(proc, match["host"], int(match["port"]), Path(match["model"]), err)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=60)
        for pump in pumps:
            pump.join(timeout=30)


def health(target: str, timeout: float = 10) -> str:
    """The standard health service's answer for the whole server (`SERVING`, `NOT_SERVING`, …)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(target) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
