"""Crash-safe checkpoints for `writegate relabel`: killed at any moment, rerun, same bytes.

Layout, beside the output `OUT` (say `edges.jsonl`)::

    .edges.jsonl.relabel/      the work directory (locked with flock while a run holds it)
        manifest.json          what run this is: a fingerprint of the arguments + the plan
        chunk-000000.jsonl     result lines of pairs [0, C), C = the chunk size
        chunk-000001.jsonl     ...

Every file is written as `name.tmp`, flushed, fsync'ed, renamed over `name` (`os.replace`, atomic
on POSIX), and the directory is fsync'ed: a file that exists under its name is complete. A chunk
is committed by its rename; the committed chunks are the contiguous run `0..n-1` (anything after a
gap, or a leftover `.tmp`, is stale and deleted). The final files are all written as `.tmp` first
and then renamed, after which the work directory is renamed to `….done` and deleted: a run killed
anywhere before that rename redoes the (deterministic) finalization; after it, the outputs are
complete. A manifest whose fingerprint differs from the rerun's is refused, never mixed in.

The lock can be taken before anything else (`lock_work_dir`), so a second run on the same output
is refused before it reads its input; `Checkpoint.open` then takes it over.

**Nothing outside the run is touched.** The work directory is created by the run (mode 0700) or,
left by an earlier run, must be a real directory (not a symbolic link) owned by the same user;
otherwise the run is refused. Every temporary file — chunks, manifest, and the final outputs
before their rename — is created inside it with `O_CREAT | O_EXCL | O_NOFOLLOW` under a fresh
name (`tempfile.mkstemp`), so a link planted anywhere is never followed; a final output is put in
place by `os.replace`, which replaces a link at that name rather than writing through it. Only the
names the run writes (`manifest.json`, `chunk-NNNNNN.jsonl`, `*.tmp`, `lock`) are ever deleted.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from writegate.errors import InputError

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
LOCK = "lock"
_CHUNK_RE = re.compile(r"chunk-(\d{6})\.jsonl")

StepHook = Callable[[str], None]
"""Called at each durable step: `chunk-written:N` (tmp written, not renamed), `chunk:N`
(committed), `final-written:NAME`, `final-renamed:NAME`, `final-done` (work dir retired). Tests
kill the process at one of them."""


def _no_step(step: str) -> None:
    return None


def fsync_dir(path: Path) -> None:
    """fsync a directory, so the renames in it are durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tmp_file(directory: Path, name: str) -> tuple[int, Path]:
    """A new file for `name` in `directory`: a fresh name, `O_EXCL | O_NOFOLLOW` (never an existing file or link)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    os.fchmod(fd, 0o644)
    return fd, Path(tmp)


def write_durable(fd: int, chunks: Iterable[bytes]) -> None:
    """Write `chunks` to the open file `fd`, fsync it and close it."""
    with open(fd, "wb", closefd=True) as fh:
        for chunk in chunks:
            fh.write(chunk)
        fh.flush()
        os.fsync(fh.fileno())


def write_tmp(directory: Path, name: str, chunks: Iterable[bytes]) -> Path:
    """Write `chunks` durably to a new temporary file in `directory` (see `_tmp_file`); its path.

    A failure (a full disk) removes the temporary file before it is raised.
    """
    fd, tmp = _tmp_file(directory, name)
    try:
        write_durable(fd, chunks)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def atomic_write(path: Path, chunks: Iterable[bytes] | bytes) -> None:
    """Write `path` atomically: a new temporary file beside it (`write_tmp`), fsync, `os.replace` (a
    link at `path` is replaced, never followed), fsync of the directory."""
    tmp = write_tmp(path.parent, path.name, [chunks] if isinstance(chunks, bytes) else chunks)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def sha256_file(path: Path, h: Any | None = None) -> str:
    """Hex sha256 of a file's bytes (or feed them into `h` and return its hex digest)."""
    h = h or hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_tree(root: Path) -> str:
    """Hex sha256 of every file under `root`: relative paths and contents, in sorted order."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        sha256_file(path, h)
        h.update(b"\0")
    return h.hexdigest()


def work_dir_for(out: Path) -> Path:
    """The work directory of the run writing `out`."""
    return out.with_name(f".{out.name}.relabel")


def done_dir(directory: Path) -> Path:
    """Where a finished run's work directory is moved before it is deleted."""
    return directory.with_name(directory.name + ".done")


def lock_work_dir(out: Path) -> IO[bytes]:
    """Create the work directory of the run writing `out` and take its lock (before any other work).

    Returns:
        The lock file: the lock is held until it is closed (hand it to `Checkpoint.open`).

    Raises:
        InputError: `--out`: another run holds the lock, or the work directory (or its `.done`
            twin) is not one this user's run made (a link, a file, another owner, foreign files).
    """
    directory = work_dir_for(out)
    _remove_own_dir(done_dir(directory))
    directory.parent.mkdir(parents=True, exist_ok=True)
    try:
        directory.mkdir(mode=0o700)
    except FileExistsError:
        _check_own_dir(directory)
    return _lock(directory)


def _check_own_dir(directory: Path) -> None:
    """Refuse a work directory this user's run did not make: a symbolic link, not a directory, another owner."""
    st = os.lstat(directory)
    if stat.S_ISLNK(st.st_mode):
        raise InputError("--out", f"{directory} is a symbolic link, not relabel's work directory: remove it")
    if not stat.S_ISDIR(st.st_mode):
        raise InputError("--out", f"{directory} is not a directory (relabel keeps its checkpoint there): remove it")
    if st.st_uid != os.geteuid():
        raise InputError(
            "--out",
            f"{directory} belongs to another user (uid {st.st_uid}): relabel only uses a work directory it made",
        )


def _own_name(name: str) -> bool:
    """A name the run writes in its work directory."""
    return name in (MANIFEST, LOCK) or _CHUNK_RE.fullmatch(name) is not None or name.endswith(".tmp")


@dataclass(eq=False)
class Checkpoint:
    """The work directory of one run: manifest, committed chunks, finalization.

    Use `Checkpoint.open(...)`; it takes an exclusive lock (a second run on the same output
    fails at once), or is handed one taken earlier with `lock_work_dir`, held until `close()` or
    `finalize()`.
    """

    out: Path
    dir: Path
    manifest: dict[str, Any]
    _lock: IO[bytes]
    committed: int
    on_step: StepHook = _no_step

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        out: Path,
        fingerprint: Mapping[str, Any],
        *,
        plan_sha256: str,
        total_items: int,
        chunk_size: int,
        restart: bool = False,
        on_step: StepHook = _no_step,
        lock: IO[bytes] | None = None,
    ) -> Checkpoint:
        """Open (resume) or create the work directory of the run writing `out`.

        Args:
            out: the main output file.
            fingerprint: everything the results depend on (input hash, model hash, options).
            plan_sha256: hash of the ordered work list; a resumed run must have the same plan.
            total_items: items (pairs) in the plan.
            chunk_size: items per chunk.
            restart: discard an existing checkpoint instead of resuming it.
            on_step: called at each durable step (see `StepHook`).
            lock: the lock `lock_work_dir(out)` took (None: take it now); closed on failure.

        Raises:
            InputError: `--out` has a checkpoint of a different run (and not `restart`), or
                another run holds it.
        """
        if chunk_size < 1:
            if lock is not None:
                lock.close()
            raise InputError("chunk_size", f"must be ≥ 1, got {chunk_size}")
        if lock is None:
            lock = lock_work_dir(out)
        directory = work_dir_for(out)
        try:
            manifest = {
                "format": FORMAT_VERSION,
                "fingerprint": dict(fingerprint),
                "plan_sha256": plan_sha256,
                "items": total_items,
                "chunk_size": chunk_size,
            }
            old = _read_manifest(directory)
            if old is not None and old != manifest:
                if not restart:
                    raise InputError("--out", _mismatch_message(directory, old, manifest))
                old = None
            if old is None or restart:
                _clear(directory)
                atomic_write(directory / MANIFEST, _dumps(manifest))
            committed = _committed_chunks(directory)
            return cls(out, directory, manifest, lock, committed, on_step)
        except BaseException:
            lock.close()
            raise

    # -- chunks --------------------------------------------------------------------------------
    @property
    def chunk_size(self) -> int:
        """Items per chunk."""
        return int(self.manifest["chunk_size"])

    @property
    def total_chunks(self) -> int:
        """Chunks in the whole plan."""
        items = int(self.manifest["items"])
        return -(-items // self.chunk_size)

    def chunk_path(self, index: int) -> Path:
        """The file of chunk `index`."""
        return self.dir / f"chunk-{index:06d}.jsonl"

    def commit_chunk(self, index: int, lines: Iterable[str]) -> None:
        """Commit chunk `index` (must be the next one) atomically."""
        if index != self.committed:
            raise RuntimeError(f"chunk {index} committed out of order (next is {self.committed})")
        path = self.chunk_path(index)
        tmp = write_tmp(self.dir, path.name, [line.encode("utf-8") + b"\n" for line in lines])
        self.on_step(f"chunk-written:{index}")
        os.replace(tmp, path)
        fsync_dir(self.dir)
        self.committed += 1
        self.on_step(f"chunk:{index}")

    def iter_lines(self) -> Iterator[str]:
        """Every committed line, in chunk order (without the newline)."""
        for index in range(self.committed):
            with open(self.chunk_path(index), encoding="utf-8") as fh:
                for line in fh:
                    yield line.rstrip("\n")

    # -- the end -------------------------------------------------------------------------------
    def finalize(self, outputs: Mapping[Path, Iterable[bytes]]) -> None:
        """Write every output atomically, then delete the work directory.

        All outputs are written in full (temporary files in the work directory, fsync'ed) before
        the first rename; a crash between renames leaves the checkpoint in place, so a rerun redoes
        all of them identically. A failure (a full disk) leaves the checkpoint and no temporary file.
        """
        if self.committed != self.total_chunks:
            raise RuntimeError(f"finalize with {self.committed} of {self.total_chunks} chunks committed")
        written: dict[Path, Path] = {}
        try:
            for path, chunks in outputs.items():
                written[path] = write_tmp(self.dir, path.name, chunks)
                self.on_step(f"final-written:{path.name}")
            for path, tmp in written.items():
                os.replace(tmp, path)
                self.on_step(f"final-renamed:{path.name}")
        except BaseException:
            for tmp in written.values():
                tmp.unlink(missing_ok=True)
            raise
        for parent in {p.parent for p in outputs}:
            fsync_dir(parent)
        done = done_dir(self.dir)
        _remove_own_dir(done)
        os.replace(self.dir, done)
        fsync_dir(done.parent)
        self.close()
        self.on_step("final-done")
        _remove_own_dir(done)

    def close(self) -> None:
        """Release the lock (the checkpoint stays for a later run)."""
        self._lock.close()


def _dumps(obj: Any) -> bytes:
    return (json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _lock(directory: Path) -> IO[bytes]:
    try:
        fd = os.open(directory / LOCK, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:  # ELOOP: a link planted at the lock's name
        raise InputError("--out", f"cannot take the lock {directory / LOCK}: {exc.strerror}") from None
    fh = open(fd, "ab")  # held until close()
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.close()
        raise InputError("--out", f"another relabel run is writing this output (lock held on {directory})") from None
    return fh


def _read_manifest(directory: Path) -> dict[str, Any] | None:
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None  # unreachable with atomic writes; treat as no checkpoint
    return data if isinstance(data, dict) else None


def _mismatch_message(directory: Path, old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    changed = sorted(
        {
            k
            for k in set(old.get("fingerprint", {})) | set(new["fingerprint"])
            if old.get("fingerprint", {}).get(k) != new["fingerprint"].get(k)
        }
        | {k for k in ("format", "plan_sha256", "items", "chunk_size") if old.get(k) != new.get(k)}
    )
    return (
        f"{directory} holds the checkpoint of a different run (changed: {', '.join(changed) or 'manifest'}); "
        "rerun with the same arguments to resume it, or pass --restart to discard it"
    )


def _clear(directory: Path) -> None:
    # the manifest first: a run killed mid-way through leaves no manifest, hence a fresh start
    (directory / MANIFEST).unlink(missing_ok=True)
    fsync_dir(directory)
    for path in directory.iterdir():
        if path.name != LOCK and _own_name(path.name):
            path.unlink()
    fsync_dir(directory)


def _committed_chunks(directory: Path) -> int:
    """Count the contiguous chunks 0..n-1; delete leftovers (`.tmp`, chunks after a gap)."""
    present = {int(m.group(1)) for p in directory.iterdir() if (m := _CHUNK_RE.fullmatch(p.name))}
    n = 0
    while n in present:
        n += 1
    for path in directory.iterdir():
        m = _CHUNK_RE.fullmatch(path.name)
        if path.name.endswith(".tmp") or (m and int(m.group(1)) >= n):
            path.unlink()
    return n


def _remove_own_dir(directory: Path) -> None:
    """Delete a retired work directory: only the names a run writes, then the directory itself.

    Raises:
        InputError: `--out`: it is not a directory this user's run made, or it holds other files
            (they are left as they are).
    """
    if not os.path.lexists(directory):
        return
    _check_own_dir(directory)
    foreign = []
    for path in directory.iterdir():
        if _own_name(path.name) and not path.is_dir():
            path.unlink()
        else:
            foreign.append(path.name)
    if foreign:
        raise InputError(
            "--out", f"{directory} holds files relabel did not write ({', '.join(sorted(foreign)[:3])}): remove them"
        )
    directory.rmdir()
