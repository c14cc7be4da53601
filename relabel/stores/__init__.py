"""Where `writegate relabel` reads a memory store from and writes its results to.

`--input` is a path (a JSONL store, `jsonl.JsonlSource`) or a URL whose scheme picks the reader:
`postgresql://…?table=T` (`postgres.PostgresSource`), `mem0:///path` (mem0's embedded Qdrant,
`mem0_qdrant.Mem0Source`). Each yields the store as `store.StoreRow`s (`base.Source`). `--write-back postgresql://…` writes the results to tables
(`postgres.PostgresSink`). The drivers are optional: `pip install 'writegate[stores]'`.
"""

from __future__ import annotations

import re
from pathlib import Path

from writegate.api.secrets import redact_url
from writegate.errors import InputError
from writegate.relabel.stores.base import Sink, Source, parse_columns
from writegate.relabel.stores.jsonl import JsonlSource

__all__ = ["Sink", "Source", "open_sink", "open_source", "scheme_of"]

_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")


def scheme_of(spec: str) -> str:
    """The URL scheme of `spec` ('' for a plain path; a one-letter 'scheme' is a Windows drive)."""
    m = _SCHEME_RE.match(spec)
    return m.group(1).lower() if m and len(m.group(1)) > 1 else ""


def open_source(spec: str, columns: str | None = None) -> Source:
    """The reader for `--input`: a JSONL file's for a path (or a file:// URL), else the URL scheme's.

    Raises:
        InputError: an unknown scheme, `--columns` with a JSONL file, a mem0 store given as a bare
            directory, a bad URL.
    """
    scheme = scheme_of(spec)
    if scheme in ("", "file"):
        path = Path(spec[len("file://") :] if scheme == "file" else spec)
        if columns:
            raise InputError(
                "--columns",
                "maps the columns of a postgresql:// table or a mem0: store's payload; "
                "a JSONL store has fixed field names",
            )
        if path.is_dir() and (path / "meta.json").is_file():
            raise InputError("--input", f"{path} is a Qdrant local store: read it as mem0://{path.resolve()}")
        return JsonlSource(path)
    if scheme in ("postgresql", "postgres"):
        from writegate.relabel.stores.postgres import PostgresSource

        return PostgresSource(spec, parse_columns(columns))
    if scheme == "mem0":
        from writegate.relabel.stores.mem0_qdrant import MAPPABLE, Mem0Source

        return Mem0Source(spec, parse_columns(columns, MAPPABLE))
    raise InputError("--input", f"unknown store scheme {scheme!r}: expected a JSONL path, postgresql://… or mem0:…")


def open_sink(url: str, *, source: str, keep_unrelated: bool) -> Sink:
    """The writer for `--write-back` (a postgresql:// URL).

    Raises:
        InputError: another scheme.
    """
    if scheme_of(url) not in ("postgresql", "postgres"):
        raise InputError("--write-back", f"expected a postgresql:// URL, got {redact_url(url)!r}")
    from writegate.relabel.stores.postgres import PostgresSink

    return PostgresSink(url, source=source, keep_unrelated=keep_unrelated)
