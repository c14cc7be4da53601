"""A real PostgreSQL server for tests: Debian's binaries, `initdb` + `pg_ctl` in a temporary
directory, listening on a free loopback port, stopped (and its directory removed) afterwards.

    from pg_server import pg_server    # a session fixture: a PgServer (its .url(db) is a postgresql:// URL)

Skips with the reason when no `initdb` is found (`apt-get install -y postgresql`). As root (CI),
the server runs as the `postgres` user that Debian's package creates (`initdb` refuses root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
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
        last: Exception | None = None
        for _ in range(5):
            self.port = free_port()
            opts = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off"
            )
            try:
                self._run(
                    self.pg_ctl,
                    "start",
                    "-w",
                    "-t",
                    "60",
                    "-D",
                    str(self.data),
                    "-o",
                    opts,
                    "-l",
                    str(self.root / "server.log"),
                )
                return self
            except RuntimeError as exc:
                last = exc
                time.sleep(0.2)
        raise RuntimeError(f"postgres did not start: {last}\n{self.log()}")

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
            if self.port:
                self._run(self.pg_ctl, "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


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
