"""What a relabel run writes, and the checks made on those paths before any work.

A run with `--out DIR/NAME.jsonl` writes, all in `DIR`, all named after `NAME` (the `--out` name
without its `.jsonl`), so two runs with different `--out` in one folder never share a file:

| file | holds |
| --- | --- |
| `NAME.jsonl` | the edges |
| `NAME.summary.json` | counts: records, rejects, pairs, labels, roles (its size does not grow with the store) |
| `NAME.rejects.jsonl` | the lines not relabelled |
| `NAME.conflicts.jsonl` | the pairs labelled `contradicts`, with both texts and dates (in the edges' order) |
| `NAME.roles.jsonl` | each memory's state role and what superseded it |
| `.NAME.jsonl.relabel/` | the checkpoint (the run's own work directory, deleted at the end) |

plus `--report` where it says. `check_outputs` refuses, before the store is read, any of these that
would be the `--input` file, lie in the work directory, be another of them, or be a directory,
and an output folder where a file cannot be created.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from writegate.normalizer.errors import InputError
from writegate.relabel import checkpoint

SIDE_KINDS: tuple[str, ...] = ("summary.json", "rejects.jsonl", "conflicts.jsonl", "roles.jsonl")
"""The files written beside the edges, each as `NAME.<kind>`."""

EDGE_LINE_BYTES = 320
"""About what one edges line takes (two ids, five scores), for the free-space estimate."""


@dataclass(frozen=True)
class OutputPaths:
    """Every path a run writing `edges` uses (see the module docstring)."""

    edges: Path
    summary: Path
    rejects: Path
    conflicts: Path
    roles: Path

    @classmethod
    def of(cls, out: Path) -> OutputPaths:
        """The paths of the run writing the edges to `out`.

        Raises:
            InputError: `--out` names one of another run's side files (`….summary.json`,
                `….rejects.jsonl`, …), which would make two runs share a file.
        """
        for kind in SIDE_KINDS:
            if out.name.endswith("." + kind):
                raise InputError(
                    "--out", f"{out.name!r} ends like a relabel side file (.{kind}): name the edges file otherwise"
                )
        base = out.name.removesuffix(".jsonl") or out.name
        side = {kind.split(".")[0]: out.with_name(f"{base}.{kind}") for kind in SIDE_KINDS}
        return cls(edges=out, **side)

    @property
    def work_dir(self) -> Path:
        """The run's checkpoint directory."""
        return checkpoint.work_dir_for(self.edges)

    def files(self) -> Iterator[tuple[Path, str]]:
        """Each file the run writes, with what it is (for messages)."""
        yield self.edges, "the edges"
        yield self.summary, "the summary"
        yield self.rejects, "the rejects"
        yield self.conflicts, "the conflicts"
        yield self.roles, "the state roles"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare what can be compared
        return path.absolute()


def same_file(a: Path, b: Path) -> bool:
    """`a` and `b` name one file: the same resolved path, or (existing) the same inode (links)."""
    if _resolved(a) == _resolved(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def _entry(path: Path) -> Path:
    """The directory entry a write to `path` replaces: `os.replace` swaps a link at that name, never its target."""
    return _resolved(path.parent) / path.name


def _inside(path: Path, directory: Path) -> bool:
    return _resolved(path).is_relative_to(_resolved(directory)) or (
        directory.is_dir() and any(same_file(p, path) for p in directory.iterdir())
    )


def check_writable(directory: Path, flag: str) -> None:
    """Create `directory` if needed and prove a file can be created in it (a temporary one, removed).

    Raises:
        InputError: `flag`, naming the directory and why (read-only, no permission, not a directory).
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise InputError(flag, f"cannot write in {directory}: {exc.strerror or exc}") from None


def check_outputs(paths: OutputPaths, *, input_path: Path | None, others: Sequence[tuple[Path, str, str]] = ()) -> None:
    """Refuse, before any work, outputs that clash (see the module docstring).

    Args:
        paths: the run's files.
        input_path: the `--input` file (None when the store is a database or a mem0 store).
        others: more files the run writes, as (path, what it is, its flag): the `--report`.

    Raises:
        InputError: naming the flag and the path at fault.
    """
    outputs = [(path, what, "--out") for path, what in paths.files()] + list(others)
    work = paths.work_dir
    for i, (path, what, flag) in enumerate(outputs):
        if path.is_dir():
            raise InputError(flag, f"{path} ({what}) is a directory")
        if input_path is not None and same_file(path, input_path):
            raise InputError(
                flag, f"relabel would write {what} to {path}, which is the --input file: choose another {flag}"
            )
        for directory in (work, checkpoint.done_dir(work)):
            if _inside(path, directory):
                raise InputError(flag, f"{path} ({what}) is inside relabel's work directory {directory}")
        for other, other_what, _ in outputs[:i]:
            if _entry(path) == _entry(other):
                raise InputError(flag, f"{path} would hold both {other_what} and {what}: choose another path")
    if input_path is not None:
        for directory in (work, checkpoint.done_dir(work)):
            if _inside(input_path, directory):
                raise InputError(
                    "--out",
                    f"relabel keeps its checkpoint in {directory}, which holds the --input file: choose another --out",
                )
    for directory, flag in dict.fromkeys((path.parent, flag) for path, _, flag in outputs):
        check_writable(directory, flag)


def free_space_warning(paths: OutputPaths, pairs: int, records: int) -> str | None:
    """A warning when the output folder's free space looks short for `pairs` and `records`, else None.

    The estimate: each pair's line twice (checkpoint and final edges coexist until the end) plus
    ~200 bytes a record (roles, summary). It is a warning, not a refusal: edges of `unrelated`
    pairs are not kept by default, so the run usually needs less.
    """
    need = 2 * pairs * EDGE_LINE_BYTES + 200 * records
    try:
        free = shutil.disk_usage(paths.edges.parent).free
    except OSError:
        return None
    if free >= need:
        return None
    return (
        f"{paths.edges.parent} has {free / 1e6:,.0f} MB free; this run may need up to {need / 1e6:,.0f} MB "
        "(a full disk stops it; rerun to resume from the last committed chunk)"
    )
