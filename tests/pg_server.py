"""A real PostgreSQL server for tests: Debian's binaries, `initdb` + `postgres` in a temporary
directory, listening on a free loopback port, stopped (and its directory removed) afterwards.

The `postgres` process is a child of the test process with a parent-death signal (Linux
`PR_SET_PDEATHSIG`, SIGQUIT: an immediate shutdown), so a test run killed mid-way — even by
SIGKILL — takes its server with it; a leftover directory is removed by the next run.

    from pg_server import pg_server    # a session fixture: a PgServer (its .url(db) is a postgresql:// URL)

Skips with the reason when no `initdb` is found (`apt-get install -y postgresql`). As root (CI),
the server runs as the `postgres` user that Debian's package creates (`initdb` refuses root).
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SUPERUSER = "writegate"
PREFIX = "writegate-pg-"
OWNER = "owner.pid"
"""The pid of the test process that started a server: a server whose owner is gone is stopped by the next run."""


def find_bin(name: str) -> str | None:
    """`name` from PATH, else from Debian's /usr/lib/postgresql/<newest>/bin."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return candidates[-1] if candidates else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One `postgres` process on 127.0.0.1:`port`, data in a temporary directory; trust auth."""

    def __init__(self) -> None:
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if not initdb or not pg_ctl:
            raise FileNotFoundError("initdb/pg_ctl not found: apt-get install -y postgresql")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.as_user: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None
        user = None
        if os.geteuid() == 0:  # initdb refuses to run as root: run the server as Debian's postgres user
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise FileNotFoundError(
                    "as root, the server needs the postgres user: apt-get install -y postgresql"
                ) from None
            self.as_user = ["runuser", "-u", "postgres", "--"]
        # as root, under /tmp: the postgres user must be able to reach the directory
        self.parent = Path("/tmp" if user else tempfile.gettempdir())
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=self.parent))
        (self.root / OWNER).write_text(str(os.getpid()))
        if user:
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.data = self.root / "data"
        self.user = user
        self.port = 0

    def _run(self, *argv: str, timeout: float = 120) -> None:
        done = subprocess.run([*self.as_user, *argv], capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[:2])} failed ({done.returncode}): {done.stdout}\n{done.stderr}")

    def reap_orphans(self) -> None:
        """Stop the servers of earlier test runs that were killed before they could stop theirs."""
        for root in self.parent.glob(PREFIX + "*"):
            try:
                owner = int((root / OWNER).read_text())
                os.kill(owner, 0)
                continue  # its run is alive
            except ProcessLookupError:
                pass
            except (OSError, ValueError):
                continue  # not ours to judge
            if (root / "data" / "postmaster.pid").exists():
                subprocess.run(
                    [*self.as_user, self.pg_ctl, "stop", "-D", str(root / "data"), "-m", "immediate"],
                    capture_output=True,
                    timeout=60,
                    check=False,
                )
            shutil.rmtree(root, ignore_errors=True)

    def start(self) -> PgServer:
        """initdb, then start on a free port (a few tries: the port may be taken in between)."""
        self.reap_orphans()
        self._run(
            self.initdb, "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"
        )
        last = ""
        for _ in range(5):
            self.port = free_port()
            self.proc = self._spawn()
            if self._wait_ready():
                return self
            last = self.log()
            self._kill()
        raise RuntimeError(f"postgres did not start:\n{last}")

    def _spawn(self) -> subprocess.Popen[bytes]:
        """`postgres` as a child that dies with this process (as Debian's postgres user when root)."""
        argv = [
            str(Path(self.pg_ctl).with_name("postgres")),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-k",
            str(self.root),
            *("-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"),
            *("-c", "synchronous_commit=off", "-c", "full_page_writes=off"),
        ]
        log = open(self.root / "server.log", "ab")
        try:
            return subprocess.Popen(
                argv,
                stdout=log,
                stderr=log,
                stdin=subprocess.DEVNULL,
                user=self.user.pw_uid if self.user else None,
                group=self.user.pw_gid if self.user else None,
                extra_groups=[] if self.user else None,
                preexec_fn=functools.partial(_die_with_parent, os.getpid()),  # after the uid change, which clears it
            )
        finally:
            log.close()

    def _wait_ready(self, timeout: float = 60.0) -> bool:
        """True once the server accepts connections; False if it exits first or the time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                if (self.data / "postmaster.pid").read_text().splitlines()[-1].strip() == "ready":
                    return True
            except (OSError, IndexError):
                pass
            time.sleep(0.1)
        return False

    def _kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # immediate shutdown: the backends go too
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    def log(self) -> str:
        """The server's log."""
        try:
            return (self.root / "server.log").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def url(self, db: str = "postgres", **query: str) -> str:
        """A postgresql:// URL of database `db` (query parameters appended)."""
        q = "&".join(f"{k}={v}" for k, v in query.items())
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{db}" + (f"?{q}" if q else "")

    def create_db(self, name: str) -> str:
        """Create database `name`; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        try:
            if self.proc is not None:
                self._kill()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def _die_with_parent(parent: int) -> None:
    """In the child before exec: get SIGQUIT when the parent dies (PR_SET_PDEATHSIG = 1)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGQUIT), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the call
        os._exit(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole session (skipped when Debian's postgresql is missing)."""
    pytest.importorskip("psycopg", reason="needs psycopg: pip install 'writegate[stores]'")
    try:
        server = PgServer()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    try:
        yield server
    finally:
        server.stop()
