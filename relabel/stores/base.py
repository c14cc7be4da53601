"""What a store reader and a write-back target give `relabel` (see `run.relabel` and `run.RelabelOptions.input`).

A **source** yields the store's entries as `store.StoreRow`s (the values of `{"id", "subject",
"text", "observed_at", "provenance"?}`, not yet checked), so every check, reject and the canonical
order are the same whichever store was read: the same rows give the same plan, hence the same
edges. A row also carries its values as a JSONL store line (`StoreRow.raw`: what a reject shows). Its
`sha256` stands in for the input file's hash in the checkpoint's fingerprint (a database source
hashes the rows' `raw` lines).

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

from writegate.errors import InputError
from writegate.normalizer.schema import ENTITY_ID_RE
from writegate.relabel.store import StoreEntry, StoreRow

if TYPE_CHECKING:
    from writegate.relabel.checkpoint import Checkpoint
    from writegate.relabel.outputs import Tally
    from writegate.relabel.plan import Plan

COLUMN_NAMES: tuple[str, ...] = ("id", "subject", "text", "observed_at")


class Source(Protocol):
    """A store read as `StoreRow`s."""

    @property
    def file(self) -> Path | None:
        """The file the store is (checked against the run's outputs first); None for a database or a mem0 store."""
        ...

    def describe(self) -> str:
        """What was read, for logs and the summary (never a password)."""
        ...

    def rows(self) -> Iterator[StoreEntry]:
        """The store's entries, in a deterministic order, numbered from 1."""
        ...

    def sha256(self) -> str:
        """Hex sha256 of what `rows()` read (valid once it is exhausted)."""
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

    def finish(self, plan: Plan, tally: Tally, lines: Callable[[], Iterator[str]]) -> None:
        """Every chunk is committed; `tally` holds the counts and roles, `lines()` every result line."""
        ...

    def close(self) -> None:
        """The run ended (finished or not): release what it holds."""
        ...


StoreValues = tuple[object, object, object, object]
"""One entry's (id, subject, text, observed_at) as a database or mem0 store holds them."""


class HashedSource:
    """A source's `rows()` and `sha256()`: subclasses yield each entry's values from `_read()`; each
    becomes a numbered `StoreRow` and its `raw` line (and a newline) is hashed as it passes."""

    file: Path | None = None
    _hash: Any = None

    def _read(self) -> Iterator[StoreValues]:
        raise NotImplementedError

    def rows(self) -> Iterator[StoreRow]:
        """The store's rows, hashed as they pass."""
        digest = self._hash = hashlib.sha256()
        return self._hashed(digest)

    def _hashed(self, digest: Any) -> Iterator[StoreRow]:
        for number, (id_, subject, text, observed_at) in enumerate(self._read(), start=1):
            row = store_row(number, id_, subject, text, observed_at)
            digest.update(row.raw.encode("utf-8", "surrogatepass") + b"\n")
            yield row

    def sha256(self) -> str:
        """Hash of the rows read."""
        if self._hash is None:
            raise RuntimeError("sha256() before rows()")
        return str(self._hash.hexdigest())


def iso(value: object) -> object:
    """A date/datetime as ISO 8601 text (a naive datetime stays naive: read as UTC, as in JSONL)."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def store_row(line: int, id_: object, subject: object, text: object, observed_at: object) -> StoreRow:
    """Entry `line` of a store from its values (None stays None: `StoreRow.record` names the field); its
    `raw` is the JSONL store line of those values, and `observed_at` a date as ISO 8601 text, as there."""
    observed_at = iso(observed_at)
    raw = json.dumps({"id": id_, "subject": subject, "text": text, "observed_at": observed_at}, ensure_ascii=False)
    return StoreRow(line, raw, id_, subject, text, observed_at)


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
