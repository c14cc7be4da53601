"""A training run leaves nothing half-written: its output folder appears whole or not at all, and its
temporary folders go with it.

- `staged_output(out)`: the run writes into a new folder beside `out`
  (`.NAME.partial-XXXX`); only when everything is written is it renamed to `out` (an earlier `out`
  is moved aside first and then deleted). An exception, Ctrl-C or SIGTERM removes the partial
  folder.
- `temp_dir(prefix)`: a temporary folder removed when the block ends, however it ends.
- `STOP`: set by `writegate train` on SIGTERM (which also raises KeyboardInterrupt at once); the
  Trainer checks it at every step (`fitting.stop_callback`), so a signal that arrives where a
  library swallows the KeyboardInterrupt still ends the run at the next step.
- A run killed with SIGKILL cannot clean up: each folder holds `owner.pid`, and the next run
  removes the folders of this kind whose owner is gone (`reap`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OWNER = "owner.pid"
PARTIAL = ".partial-"
TEMP_PREFIXES: tuple[str, ...] = ("writegate-train-", "writegate-data-")
"""The prefixes of the temporary folders a run makes (in the system's temporary directory)."""
STOP = threading.Event()
"""Set when the run has been asked to stop (SIGTERM): the training loop raises KeyboardInterrupt."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def reap(parent: Path, pattern: str) -> list[Path]:
    """Remove the folders in `parent` matching `pattern` whose `owner.pid` names a dead process.

    A folder without a readable owner file is left alone (it is not known to be ours). Returns the
    folders removed.
    """
    removed = []
    for folder in parent.glob(pattern):
        try:
            owner = int((folder / OWNER).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue
        if owner != os.getpid() and not _alive(owner):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _owned_dir(prefix: str, parent: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    (folder / OWNER).write_text(f"{os.getpid()}\n", encoding="ascii")
    return folder


@contextmanager
def temp_dir(prefix: str) -> Iterator[Path]:
    """A new temporary folder (`prefix` + random), removed when the block ends."""
    parent = Path(tempfile.gettempdir())
    reap(parent, f"{prefix}*")
    folder = _owned_dir(prefix, parent)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def staged_output(out: Path) -> Iterator[Path]:
    """A folder to write the run's output into; it becomes `out` when the block ends without error.

    Raises:
        OSError: `out` exists and is not a directory.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"{out} exists and is not a directory")
    reap(out.parent, f".{out.name}{PARTIAL}*")
    stage = _owned_dir(f".{out.name}{PARTIAL}", out.parent)
    try:
        yield stage
        (stage / OWNER).unlink()
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(out, old)
        os.replace(stage, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
