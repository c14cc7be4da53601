"""Put a JSONL store's memories into a store `writegate relabel --input` reads (the walkthrough's first step).

    python -m writegate.relabel.stores.load examples/memories.jsonl 'postgresql://me@127.0.0.1:5432/demo?table=memories'
    python -m writegate.relabel.stores.load examples/memories.jsonl mem0:///tmp/qdrant

Postgres: creates the table (`id text PRIMARY KEY, subject text, text text, observed_at timestamptz`,
`--replace` drops it first) and copies the records in. mem0: writes the points into the
collection (`?collection=`, default `mem0`) in the layout mem0 writes (`mem0_qdrant.write_store`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from writegate.api.secrets import redact_url
from writegate.errors import InputError
from writegate.relabel.stores import scheme_of
from writegate.relabel.stores.base import read_jsonl


def load(jsonl: Path, target: str, *, replace: bool = False) -> int:
    """Copy the records of `jsonl` into `target` (a postgresql:// table or a mem0: store); returns how many.

    Raises:
        InputError: an unknown scheme (or what the driver raises for a bad URL).
    """
    scheme = scheme_of(target)
    if scheme in ("postgresql", "postgres"):
        from writegate.relabel.stores.postgres import create_table

        return create_table(target, read_jsonl(jsonl), replace=replace)
    if scheme == "mem0":
        from writegate.relabel.stores.mem0_qdrant import parse_url, write_store

        path, collection = parse_url(target)
        if replace and path.exists():
            import shutil

            shutil.rmtree(path)
        return write_store(path, read_jsonl(jsonl), collection)
    raise InputError("target", f"expected postgresql://…?table=T or mem0:///path, got {redact_url(target)!r}")


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    p = argparse.ArgumentParser(prog="python -m writegate.relabel.stores.load", description=__doc__.split("\n\n")[0])
    p.add_argument("jsonl", type=Path, help="a JSONL store (e.g. examples/memories.jsonl)")
    p.add_argument("target", help="postgresql://USER@HOST:PORT/DB?table=T or mem0:///PATH[?collection=mem0]")
    p.add_argument("--replace", action="store_true", help="drop the table (remove the mem0 store) first")
    args = p.parse_args(argv)
    try:
        n = load(args.jsonl, args.target, replace=args.replace)
    except InputError as exc:
        print(f"load: error: {exc}", file=sys.stderr)
        return 2
    print(f"{n} memories → {redact_url(args.target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
