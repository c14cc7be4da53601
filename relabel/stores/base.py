"""What a store reader and a write-back target give `relabel` (see `engine.relabel`'s `source` and `sinks`).

A **source** yields the store as the lines of a JSONL store (`{"id", "subject", "text",
"observed_at"}`), so every check, reject and the canonical order are the JSONL path's own: the same
rows give the same plan, hence the same edges. Its `sha256` (of the lines it yielded) stands in
for the input file's hash in the checkpoint's fingerprint.

A **sink** is told about the run at three points: `begin` (the checkpoint is open: some chunks may
already be committed by an earlier, killed run), `chunk` (one more chunk committed to the
checkpoint) and `finish` (every chunk committed, before the outputs are renamed into place). Each
call must be idempotent: a killed run is rerun and calls them again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from writegate.normalizer.errors import InputError
from writegate.normalizer.schema import ENTITY_ID_RE

if TYPE_CHECKING:
    from writegate.relabel.checkpoint import Checkpoint
    from writegate.relabel.engine import Plan, _Tally

COLUMN_NAMES: tuple[str, ...] = ("id", "subject", "text", "observed_at")


class Source(Protocol):
    """A store read as JSONL store lines."""

    def describe(self) -> str:
        """What was read, for logs and the summary (never a password)."""
        ...

    def lines(self) -> Iterator[str]:
        """The store's lines, in a deterministic order (each one JSON object)."""
        ...

    def sha256(self) -> str:
        """Hex sha256 of the lines `lines()` yielded (valid once it is exhausted)."""
        ...


class Sink(Protocol):
    """Something written from a run besides the JSONL outputs (a database, a report)."""

    def describe(self) -> str:
        """Where it writes, for the log (never a password)."""
        ...

    def files(self) -> list[tuple[Path, str, str]]:
        """The files it writes, as (path, what it is, its flag): checked with the run's outputs first."""
        ...

    def check(self) -> None:
        """Everything that can fail before the run does any work (connection, permissions, schemas).

        Raises:
            InputError: naming the flag and what is wrong.
        """
        ...

    def begin(self, ckpt: Checkpoint, plan: Plan, model: Mapping[str, str]) -> None:
        """The checkpoint is open; `ckpt.committed` chunks are already done."""
        ...

    def chunk(self, index: int, lines: list[str]) -> None:
        """Chunk `index` (its result lines, one per pair) was just committed to the checkpoint."""
        ...

    def finish(self, plan: Plan, tally: _Tally, lines: Callable[[], Iterator[str]]) -> None:
        """Every chunk is committed; `tally` holds the counts and roles, `lines()` every result line."""
        ...

    def close(self) -> None:
        """The run ended (finished or not): release what it holds."""
        ...


class HashingLines:
    """Wraps an iterator of lines; hashes each line (and a newline) as it passes."""

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines
        self._hash = hashlib.sha256()
        self.count = 0

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self._hash.update(line.encode("utf-8", "surrogatepass") + b"\n")
            self.count += 1
            yield line

    def hexdigest(self) -> str:
        """The hash of the lines seen so far."""
        return self._hash.hexdigest()


class HashedSource:
    """A source's `lines()` and `sha256()`: subclasses yield their store lines from `_read()`."""

    _hash: HashingLines | None = None

    def _read(self) -> Iterator[str]:
        raise NotImplementedError

    def lines(self) -> Iterator[str]:
        """The store's lines, hashed as they pass."""
        self._hash = HashingLines(self._read())
        return iter(self._hash)

    def sha256(self) -> str:
        """Hash of the lines read."""
        if self._hash is None:
            raise RuntimeError("sha256() before lines()")
        return self._hash.hexdigest()


def iso(value: object) -> object:
    """A date/datetime as ISO 8601 text (a naive datetime stays naive: read as UTC, as in JSONL)."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def store_line(id_: object, subject: object, text: object, observed_at: object) -> str:
    """One JSONL store line from a row's values (None stays null: `read_store` names the field)."""
    return json.dumps(
        {"id": id_, "subject": subject, "text": text, "observed_at": iso(observed_at)}, ensure_ascii=False
    )


_SLUG_BAD = re.compile(r"[^a-z0-9._-]+")


def entity_subject(kind: str, raw: object) -> str | None:
    """A store's owner id as a writegate subject `kind:slug`.

    An id that is already an entity id (`user:alice`) is kept; one that is a valid slug becomes
    `kind:slug`; anything else is lower-cased, runs of other characters become `-`, and a short hash
    of the exact id is appended, so two ids that differ only in case or punctuation stay two
    subjects (`Alice` → `user:alice-3bc51062`). None or empty: None (the record is rejected).
    """
    if raw is None:
        return None
    text = str(raw).strip()
    if not text:
        return None
    if ENTITY_ID_RE.fullmatch(text):
        return text
    candidate = f"{kind}:{text}"
    if ENTITY_ID_RE.fullmatch(candidate):
        return candidate
    slug = _SLUG_BAD.sub("-", text.lower()).strip("-._") or "id"
    if not slug[0].isalnum():
        slug = "x" + slug
    return f"{kind}:{slug}-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def parse_columns(spec: str | None, allowed: tuple[str, ...] = COLUMN_NAMES) -> dict[str, str]:
    """`--columns id=memory_id,text=body`: the store's name for each of `allowed` (others keep their name).

    Raises:
        InputError: `--columns`: not `name=column` pairs, an unknown name, or a name given twice.
    """
    mapping: dict[str, str] = {}
    if not spec:
        return mapping
    for part in spec.split(","):
        name, sep, column = (s.strip() for s in part.partition("="))
        if not sep or not name or not column:
            raise InputError("--columns", f"expected name=column pairs separated by commas, got {part.strip()!r}")
        if name not in allowed:
            raise InputError("--columns", f"unknown name {name!r}: expected one of {', '.join(allowed)}")
        if name in mapping:
            raise InputError("--columns", f"{name!r} is given twice")
        mapping[name] = column
    return mapping


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSONL store file (blank lines skipped): what the loaders put in a store."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def need(module: str, what: str) -> Any:
    """Import an optional dependency, or say which extra installs it.

    Raises:
        InputError: naming the flag's use (`what`) and `pip install 'writegate[stores]'`.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise InputError(what, f"needs the {module.split('.')[0]} package: pip install 'writegate[stores]'") from None
