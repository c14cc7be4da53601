"""PostgreSQL: read a memories table (`--input postgresql://…?table=T`), write the results back
(`--write-back postgresql://…`). psycopg 3, imported when used (`pip install 'writegate[stores]'`).

**Reading.** One read-only transaction; a server-side (named) cursor fetches `ITERSIZE` rows at a
time in `observed_at, id` order, so the client holds one batch of rows, never the table (the plan
then keeps what every relabel keeps: each accepted record). Columns default to `id, subject, text,
observed_at`; `--columns id=…,subject=…` maps others. `id`, `subject` and `text` are read as text;
`observed_at` may be `timestamptz`, `timestamp` (read as UTC), `date` or ISO 8601 text. A subject
that is not already `kind:slug` becomes a user's (`entity_subject`). The table is never written.

**Writing back.** The tool creates (if missing) and fills four tables:

- `writegate_runs`: one row per run (`run_id`: a hash of the checkpoint's manifest, so a rerun of
  the same run has the same id), the input, the model's name and version, `complete`;
- `writegate_chunks`: the chunks written (`run_id, chunk`);
- `writegate_edges`: one row per edge (`pair`: its position among the classified pairs, so
  `ORDER BY pair` is the order of the JSONL edges file), with `review` (flagged for a person: it
  changed no state role) and the model;
- `writegate_states`: each memory's state role (`current`, `historical`, `in_conflict`,
  `retracted`: a text column, no list of values to migrate), the memories that superseded it, with
  the model. What retracted a memory is its `writegate_edges` row with evidence `correction`.

Each chunk's edges and its `writegate_chunks` row go in one transaction, right after the chunk is
committed to the file checkpoint; a resumed run first writes the chunks the file checkpoint has and
the database lacks. The states, the run's `complete` flag and the removal of earlier runs of the
same input and model go in one last transaction. A run killed anywhere and rerun leaves the same
rows as an uninterrupted one. Only the `writegate_*` tables are written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from writegate.api.secrets import redact_url
from writegate.errors import InputError
from writegate.relabel.stores.base import HashedSource, StoreValues, entity_subject, need

if TYPE_CHECKING:
    from writegate.relabel.checkpoint import Checkpoint
    from writegate.relabel.outputs import Tally
    from writegate.relabel.plan import Plan

SCHEMES = ("postgresql", "postgres")
ITERSIZE = 2000
UNRELATED = "unrelated"
_RUN_FK = "REFERENCES writegate_runs ON DELETE CASCADE"


@dataclass(frozen=True)
class Table:
    """One `writegate_*` table: its columns as (name, type, constraints), table constraints, and the
    privileges a run uses on it. The DDL and the pre-run check both come from here."""

    name: str
    columns: tuple[tuple[str, str, str], ...]
    constraints: tuple[str, ...]
    privileges: tuple[str, ...]

    def ddl(self) -> str:
        """`CREATE TABLE IF NOT EXISTS …`, then `ALTER TABLE … ADD COLUMN IF NOT EXISTS` for each column
        with a default (a column added in a later version: a table made before it gains it)."""
        items = [" ".join(filter(None, column)) for column in self.columns] + list(self.constraints)
        create = f"CREATE TABLE IF NOT EXISTS {self.name} (\n    " + ",\n    ".join(items) + "\n);"
        added = [
            f"ALTER TABLE {self.name} ADD COLUMN IF NOT EXISTS {' '.join(column)};" for column in self.added_columns()
        ]
        return "\n".join([create, *added])

    def added_columns(self) -> list[tuple[str, str, str]]:
        """The columns a table made by an earlier version may lack: those with a default."""
        return [column for column in self.columns if "DEFAULT" in column[2]]


WRITE_TABLES: tuple[Table, ...] = (
    Table(
        "writegate_runs",
        (
            ("run_id", "text", "PRIMARY KEY"),
            ("source", "text", "NOT NULL"),
            ("model_name", "text", "NOT NULL"),
            ("model_version", "text", "NOT NULL"),
            ("plan_sha256", "text", "NOT NULL"),
            ("pairs", "integer", "NOT NULL"),
            ("chunk_size", "integer", "NOT NULL"),
            ("keep_unrelated", "boolean", "NOT NULL"),
            ("complete", "boolean", "NOT NULL DEFAULT false"),
        ),
        (),
        ("SELECT", "INSERT", "UPDATE", "DELETE"),
    ),
    Table(
        "writegate_chunks",
        (("run_id", "text", f"NOT NULL {_RUN_FK}"), ("chunk", "integer", "NOT NULL")),
        ("PRIMARY KEY (run_id, chunk)",),
        ("SELECT", "INSERT"),
    ),
    Table(
        "writegate_edges",
        (
            ("run_id", "text", f"NOT NULL {_RUN_FK}"),
            ("pair", "integer", "NOT NULL"),
            ("new_id", "text", "NOT NULL"),
            ("existing_id", "text", "NOT NULL"),
            ("label", "text", "NOT NULL"),
            ("scores", "jsonb", "NOT NULL"),
            ("evidence", "text", "NOT NULL"),
            ("slot_match", "boolean", "NOT NULL"),
            ("review", "boolean", "NOT NULL DEFAULT false"),
            ("model_name", "text", "NOT NULL"),
            ("model_version", "text", "NOT NULL"),
        ),
        ("PRIMARY KEY (run_id, new_id, existing_id)",),
        ("INSERT",),
    ),
    Table(
        "writegate_states",
        (
            ("run_id", "text", f"NOT NULL {_RUN_FK}"),
            ("memory_id", "text", "NOT NULL"),
            ("subject", "text", "NOT NULL"),
            ("role", "text", "NOT NULL"),
            ("superseded_by", "text[]", "NOT NULL"),
            ("model_name", "text", "NOT NULL"),
            ("model_version", "text", "NOT NULL"),
        ),
        ("PRIMARY KEY (run_id, memory_id)",),
        ("SELECT", "INSERT", "DELETE"),
    ),
)
TABLES = tuple(t.name for t in WRITE_TABLES)
DDL = "\n".join(t.ddl() for t in WRITE_TABLES) + "\n"

# The columns of the writegate_* tables in the schema they are created in (pg_catalog: a table the
# user has no privilege on is still seen).
_EXISTING_COLUMNS = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = current_schema() AND c.relname = ANY(%s)
ORDER BY c.relname, a.attnum
"""


def _split(url: str, flag: str, params: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The connection URL without our own query parameters, and those parameters.

    The parameters left for libpq are percent-encoded (`quote`: a space is `%20`, never `+`, which
    libpq would keep as a plus sign).
    """
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise InputError(flag, f"expected a postgresql:// URL, got {redact_url(url)!r}")
    ours: dict[str, str] = {}
    rest: list[tuple[str, str]] = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        (ours.__setitem__(key, value) if key in params else rest.append((key, value)))
    return urlunsplit(parts._replace(query=urlencode(rest, quote_via=quote))), ours


def table_parts(name: str, flag: str) -> tuple[str, ...]:
    """`table` or `schema.table`; a part in double quotes may hold dots (`"my.table"`, `"a""b"` for `a"b`).

    Raises:
        InputError: `flag`: an empty part, more than two parts, an unclosed quote.
    """
    parts: list[str] = []
    i, n = 0, len(name)
    while True:
        if i < n and name[i] == '"':
            j, part = i + 1, []
            while True:
                k = name.find('"', j)
                if k < 0:
                    raise InputError(flag, f"unclosed double quote in table name {name!r}")
                part.append(name[j:k])
                if name.startswith('"', k + 1):
                    part.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            parts.append("".join(part))
        else:
            k = name.find(".", i)
            k = n if k < 0 else k
            parts.append(name[i:k])
            i = k
        if i == n:
            break
        if name[i] != ".":
            raise InputError(flag, f"expected a dot after a quoted part of table name {name!r}")
        i += 1
    if not 1 <= len(parts) <= 2 or not all(parts):
        raise InputError(flag, f'expected a table name or schema.table (quote a name with a dot: "a.b"), got {name!r}')
    return tuple(parts)


def _identifier(name: str, flag: str) -> Any:
    sql = need("psycopg.sql", flag)
    return sql.Identifier(*table_parts(name, flag))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def connect(conninfo: str, flag: str, url: str, **kwargs: Any) -> Any:
    """A psycopg connection, or an InputError naming the flag and the (redacted) URL."""
    psycopg = need("psycopg", flag)
    try:
        return psycopg.connect(conninfo, **kwargs)
    except psycopg.Error as exc:
        raise InputError(flag, f"cannot connect to {redact_url(url)}: {_first_line(exc)}") from None


@contextmanager
def database_errors(flag: str, url: str, doing: str) -> Iterator[None]:
    """A database error inside becomes one line: an InputError naming `flag`, what it was `doing`, the URL."""
    psycopg = need("psycopg", flag)
    try:
        yield
    except psycopg.Error as exc:
        raise InputError(flag, f"{doing} at {redact_url(url)} failed: {_first_line(exc)}") from None


# -- reading ---------------------------------------------------------------------------------------


class PostgresSource(HashedSource):
    """A memories table, read once in `observed_at, id` order with a server-side cursor.

    Args:
        url: `postgresql://USER@HOST:PORT/DB?table=T` (other query parameters go to libpq).
        columns: the table's column for each of id, subject, text, observed_at (default: that name).
    """

    def __init__(self, url: str, columns: Mapping[str, str] | None = None) -> None:
        self.url = url
        self.conninfo, ours = _split(url, "--input", ("table",))
        if not ours.get("table"):
            raise InputError("--input", f"name the memories table: {redact_url(url)}?table=memories")
        self.table = ours["table"]
        self.columns = {name: (columns or {}).get(name, name) for name in ("id", "subject", "text", "observed_at")}

    def describe(self) -> str:
        """The URL, password removed."""
        return redact_url(self.url)

    def query(self) -> Any:
        """The SELECT: each column as text except observed_at, in (observed_at, id) order."""
        sql = need("psycopg.sql", "--input")
        c = {name: sql.Identifier(column) for name, column in self.columns.items()}
        return sql.SQL(
            "SELECT {id}::text, {subject}::text, {text}::text, {observed_at} FROM {table} ORDER BY {observed_at}, {id}"
        ).format(table=_identifier(self.table, "--input"), **c)

    def _read(self) -> Iterator[StoreValues]:
        psycopg = need("psycopg", "--input")
        with connect(self.conninfo, "--input", self.url) as conn:
            conn.read_only = True  # the user's table is only ever read
            conn.execute("SET TIME ZONE 'UTC'")
            try:
                with conn.cursor(name="writegate_relabel") as cur:
                    cur.itersize = ITERSIZE
                    cur.execute(self.query())
                    for id_, subject, text, observed_at in cur:
                        yield id_, entity_subject("user", subject), text, observed_at
            except psycopg.errors.UndefinedTable:
                raise InputError("--input", f"no table {self.table!r} in {redact_url(self.url)}") from None
            except psycopg.errors.UndefinedColumn as exc:
                raise InputError(
                    "--columns",
                    f"{str(exc).splitlines()[0]} (table {self.table!r} has: "
                    f"{', '.join(_table_columns(self.conninfo, self.table))}); map them with "
                    "--columns id=…,subject=…,text=…,observed_at=…",
                ) from None


def _table_columns(conninfo: str, table: str) -> list[str]:
    *schemas, name = table_parts(table, "--input")
    schema = schemas[0] if schemas else ""
    psycopg = need("psycopg", "--input")
    with psycopg.connect(conninfo) as conn:
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
            "AND (%s = '' OR table_schema = %s) ORDER BY ordinal_position",
            (name, schema, schema),
        ).fetchall()
    return [r[0] for r in rows]


# -- writing back ----------------------------------------------------------------------------------


def run_id(manifest: Mapping[str, Any], keep_unrelated: bool) -> str:
    """The run's id: a hash of what its results depend on (the checkpoint manifest) and what it writes."""
    text = json.dumps({"manifest": manifest, "keep_unrelated": keep_unrelated}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class PostgresSink:
    """Writes a run's edges and state roles to `writegate_*` tables (see the module docstring).

    Args:
        url: `postgresql://USER@HOST:PORT/DB`.
        source: what was relabelled (stored in `writegate_runs.source`).
        keep_unrelated: also write the pairs labelled unrelated (as `--keep-unrelated` does for the file).
    """

    def __init__(self, url: str, *, source: str, keep_unrelated: bool = False) -> None:
        self.url = url
        self.conninfo, _ = _split(url, "--write-back", ())
        self.source = source
        self.keep_unrelated = keep_unrelated
        self.conn: Any = None
        self.run_id = ""
        self.done: set[int] = set()
        self.model: dict[str, str] = {}
        self.on_step: Callable[[str], None] = lambda step: None
        input_parts = urlsplit(source)
        input_table = dict(parse_qsl(input_parts.query)).get("table", "")
        if input_parts.scheme in SCHEMES and input_table and table_parts(input_table, "--input")[-1] in TABLES:
            raise InputError("--write-back", f"the --input table is one of the tables it writes ({', '.join(TABLES)})")

    def describe(self) -> str:
        """The tables and the database."""
        return f"edges → writegate_edges, state roles → writegate_states (run {self.run_id or '?'}) at {redact_url(self.url)}"

    def files(self) -> list[tuple[Path, str, str]]:
        """No file: it writes to the database."""
        return []

    def check(self) -> None:
        """Before any work: the database answers, each `writegate_*` table that exists has the columns
        and types the run writes and the privileges it uses, and the missing ones can be created.

        Raises:
            InputError: `--write-back`, naming the table and the column or privilege at fault.
        """
        with (
            connect(self.conninfo, "--write-back", self.url) as conn,
            database_errors("--write-back", self.url, "checking the writegate_* tables"),
        ):
            schema = conn.execute("SELECT current_schema()").fetchone()[0]
            if schema is None:
                raise InputError("--write-back", "no schema to create the writegate_* tables in (empty search_path)")
            found: dict[str, dict[str, str]] = {}
            for table, column, type_ in conn.execute(_EXISTING_COLUMNS, (list(TABLES),)):
                found.setdefault(table, {})[column] = type_
            missing = [t.name for t in WRITE_TABLES if t.name not in found]
            for table in WRITE_TABLES:
                if table.name in found:
                    _check_table(conn, schema, table, found[table.name])
            if missing and not conn.execute("SELECT has_schema_privilege(current_schema(), 'CREATE')").fetchone()[0]:
                user = conn.execute("SELECT current_user").fetchone()[0]
                raise InputError(
                    "--write-back",
                    f"user {user} may not create tables in schema {schema} (needed for {', '.join(missing)}): "
                    f"GRANT CREATE ON SCHEMA {schema} TO {user}, or create the tables first (docs/stores.md)",
                )

    def begin(self, ckpt: Checkpoint, plan: Plan, model: Mapping[str, str]) -> None:
        """Create the tables, register the run, write the chunks the file checkpoint has and we lack."""
        with database_errors("--write-back", self.url, "creating the writegate_* tables"):
            self._begin(ckpt, plan, model)

    def _begin(self, ckpt: Checkpoint, plan: Plan, model: Mapping[str, str]) -> None:
        self.conn = connect(self.conninfo, "--write-back", self.url, autocommit=True)
        self.on_step = ckpt.on_step
        self.model = {"name": model["name"], "version": model["version"]}
        self.run_id = run_id(ckpt.manifest, self.keep_unrelated)
        self.plan = plan
        locked = self.conn.execute(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", ("writegate:" + self.run_id,)
        ).fetchone()[0]
        if not locked:
            raise InputError(
                "--write-back", f"another relabel run is writing run {self.run_id} to {redact_url(self.url)}"
            )
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('writegate:ddl', 0))")
            self.conn.execute(DDL)
            self.conn.execute(
                "INSERT INTO writegate_runs (run_id, source, model_name, model_version, plan_sha256, pairs, "
                "chunk_size, keep_unrelated) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (run_id) DO NOTHING",
                (
                    self.run_id,
                    self.source,
                    self.model["name"],
                    self.model["version"],
                    ckpt.manifest["plan_sha256"],
                    ckpt.manifest["items"],
                    ckpt.manifest["chunk_size"],
                    self.keep_unrelated,
                ),
            )
        self.done = {
            r[0] for r in self.conn.execute("SELECT chunk FROM writegate_chunks WHERE run_id = %s", (self.run_id,))
        }
        self.chunk_size = int(ckpt.manifest["chunk_size"])
        for index in range(ckpt.committed):
            if index not in self.done:
                with open(ckpt.chunk_path(index), encoding="utf-8") as fh:
                    self.chunk(index, [line.rstrip("\n") for line in fh])

    def chunk(self, index: int, lines: list[str]) -> None:
        """Write one chunk's edges and its marker in one transaction (nothing if it is there)."""
        if index in self.done:
            return
        with database_errors("--write-back", self.url, f"writing chunk {index} to writegate_edges"):
            self._chunk(index, lines)

    def _chunk(self, index: int, lines: list[str]) -> None:
        rows = []
        for offset, raw in enumerate(lines):
            line = json.loads(raw)
            if self.keep_unrelated or line["label"] != UNRELATED:
                rows.append(
                    (
                        self.run_id,
                        index * self.chunk_size + offset,
                        line["new_id"],
                        line["existing_id"],
                        line["label"],
                        json.dumps(line["scores"]),
                        line["evidence"],
                        line["slot_match"],
                        line.get("review", False),  # absent from a checkpoint written before the flag
                        self.model["name"],
                        self.model["version"],
                    )
                )
        with self.conn.transaction(), self.conn.cursor() as cur:
            with cur.copy(
                "COPY writegate_edges (run_id, pair, new_id, existing_id, label, scores, evidence, "
                "slot_match, review, model_name, model_version) FROM STDIN"
            ) as copy:
                for row in rows:
                    copy.write_row(row)
            cur.execute("INSERT INTO writegate_chunks (run_id, chunk) VALUES (%s, %s)", (self.run_id, index))
            self.on_step(f"db-chunk-written:{index}")  # inside the transaction: a kill here rolls it back
        self.done.add(index)
        self.on_step(f"db-chunk:{index}")

    def finish(self, plan: Plan, tally: Tally, lines: Callable[[], Iterator[str]]) -> None:
        """Write every memory's state role, retire earlier runs of this input and model, mark the run complete."""
        with database_errors("--write-back", self.url, "writing writegate_states"):
            self._finish(plan, tally)
        self.on_step("db-done")
        self.close()

    def _finish(self, plan: Plan, tally: Tally) -> None:
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.execute("DELETE FROM writegate_states WHERE run_id = %s", (self.run_id,))
            with cur.copy(
                "COPY writegate_states (run_id, memory_id, subject, role, superseded_by, model_name, "
                "model_version) FROM STDIN"
            ) as copy:
                for rec in plan.records:
                    copy.write_row(
                        (
                            self.run_id,
                            rec.id,
                            rec.subject,
                            tally.role(rec.id).value,
                            tally.superseded_by.get(rec.id, []),
                            self.model["name"],
                            self.model["version"],
                        )
                    )
            cur.execute(
                "DELETE FROM writegate_runs WHERE source = %s AND model_name = %s AND model_version = %s "
                "AND run_id <> %s",
                (self.source, self.model["name"], self.model["version"], self.run_id),
            )
            cur.execute("UPDATE writegate_runs SET complete = true WHERE run_id = %s", (self.run_id,))
            self.on_step("db-states-written")

    def close(self) -> None:
        """Close the connection (releases the run's advisory lock)."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _check_table(conn: Any, schema: str, table: Table, found: Mapping[str, str]) -> None:
    """An existing `writegate_*` table must have each column with its type, and grant the run's privileges."""
    added = {name for name, _, _ in table.added_columns()}
    if (
        any(name not in found for name in added)
        and not conn.execute(
            "SELECT pg_has_role(c.relowner, 'USAGE') FROM pg_class c WHERE c.oid = format('%%I.%%I', %s::text, %s::text)::regclass",
            (schema, table.name),
        ).fetchone()[0]
    ):
        user = conn.execute("SELECT current_user").fetchone()[0]
        lacking = ", ".join(name for name in sorted(added) if name not in found)
        raise InputError(
            "--write-back",
            f"table {schema}.{table.name} lacks column {lacking} (added in a later writegate) and user {user} does "
            f"not own it: ask its owner to run the ALTER TABLE of docs/stores.md, or write back to another database",
        )
    for name, type_, _ in table.columns:
        if name not in found and name in added:
            continue
        if name not in found:
            raise InputError(
                "--write-back",
                f"table {schema}.{table.name} exists without column {name} ({type_}): it was not made by this "
                "writegate; drop or rename it, or write back to another database",
            )
        if found[name] != type_:
            raise InputError(
                "--write-back",
                f"column {schema}.{table.name}.{name} is {found[name]}, relabel writes {type_}: drop or rename "
                "the table, or write back to another database",
            )
    for privilege in table.privileges:
        if not conn.execute(
            "SELECT has_table_privilege(format('%%I.%%I', %s::text, %s::text), %s)", (schema, table.name, privilege)
        ).fetchone()[0]:
            user = conn.execute("SELECT current_user").fetchone()[0]
            raise InputError(
                "--write-back",
                f"user {user} lacks {privilege} on table {schema}.{table.name}: "
                f"GRANT {', '.join(table.privileges)} ON {schema}.{table.name} TO {user}",
            )


# -- loading a table (the walkthrough, tests, bench) ------------------------------------------------


def create_table(url: str, records: Iterable[Mapping[str, Any]], *, replace: bool = False) -> int:
    """Create the memories table named by `url`'s `table` and fill it (COPY); returns the rows written.

    Columns: `id text PRIMARY KEY, subject text, text text, observed_at timestamptz`, plus an index on
    `observed_at` (the order the reader asks for). `records` are store records (`observed_at` ISO
    8601 text; naive means UTC, as in JSONL).
    """
    from writegate.normalizer.api import parse_observed_at

    conninfo, ours = _split(url, "--input", ("table",))
    table = ours.get("table") or "memories"
    sql = need("psycopg.sql", "--input")
    ident = _identifier(table, "--input")
    index = sql.Identifier(table.replace(".", "_") + "_observed_at")
    n = 0
    with connect(conninfo, "--input", url, autocommit=True) as conn, conn.transaction(), conn.cursor() as cur:
        if replace:
            cur.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(ident))
        cur.execute(
            sql.SQL(
                "CREATE TABLE {} (id text PRIMARY KEY, subject text NOT NULL, text text NOT NULL, "
                "observed_at timestamptz NOT NULL)"
            ).format(ident)
        )
        with cur.copy(sql.SQL("COPY {} (id, subject, text, observed_at) FROM STDIN").format(ident)) as copy:
            for rec in records:
                copy.write_row((rec["id"], rec["subject"], rec["text"], parse_observed_at(rec["observed_at"])))
                n += 1
        cur.execute(sql.SQL("CREATE INDEX {} ON {} (observed_at, id)").format(index, ident))
    return n
