"""Relabel a PostgreSQL memories table end to end, against the JSONL path on the same data.

    python bench/relabel_store.py --model models/default [--records 100000] [--reader-rows 1000000]
                                  [--workdir DIR] [--json-out FILE]

Starts a PostgreSQL server (Debian's binaries, `tests/pg_server.py`: initdb + pg_ctl on a free
loopback port, in a temporary directory), generates a store (`bench/relabel.py`'s generator, 25
records a subject), writes it as JSONL and as a table, then runs `writegate relabel` twice, each a
process of its own: on the JSONL file, and on the table with `--write-back` and `--report`. Printed:
wall time, rows/s and the peak RSS of each run; whether the edges (and the summary, but for its
`input`) are identical; whether the write-back tables hold the same edges and roles (`edges.roles.jsonl`); the reader
alone (no relabel) streaming the table and a `--reader-rows` table made by `generate_series`, with
its peak RSS (flat in the row count: the server-side cursor holds one batch); the report's size
and how long headless Chromium takes to render it (where `chromium` is installed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import zip_longest
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _module(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HWM = """
import atexit, os, runpy, sys
def _hwm():  # the peak RSS of this process alone (VmHWM; ru_maxrss would count the parent's at fork)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            with open(os.environ["WG_BENCH_HWM"], "w") as fh:
                fh.write(line.split()[1])
atexit.register(_hwm)
sys.argv = [sys.argv[1], *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__") if sys.argv[0].endswith(".py") else runpy.run_module(sys.argv[0], run_name="__main__")
"""

READER = """
import sys, time
from writegate.relabel.stores import open_source
t0 = time.perf_counter(); n = 0
for row in open_source(sys.argv[1]).rows():
    n += 1
print(n, time.perf_counter() - t0)
"""


def timed_child(module: str, args: list[str]) -> dict[str, Any]:
    """Run `python -m module args…` (or a script path); its wall time, peak RSS (MiB) and output."""
    with tempfile.TemporaryDirectory() as tmp:
        hwm = Path(tmp) / "hwm"
        (Path(tmp) / "reader.py").write_text(READER)
        target = str(Path(tmp) / "reader.py") if module == "reader" else module
        env = {**os.environ, "WG_BENCH_HWM": str(hwm)}
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", HWM, target, *args], capture_output=True, text=True, env=env, check=False
        )
        wall = time.perf_counter() - t0
        peak = int(hwm.read_text()) / 1024 if hwm.exists() else float("nan")
    return {"wall_s": wall, "peak_rss_mib": peak, "rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=ROOT / "models" / "default")
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--reader-rows", type=int, default=1_000_000, help="rows of the reader-only table (0: skip)")
    p.add_argument("-k", type=int, default=8)
    p.add_argument("--workdir", type=Path, default=None, help="keep the files here (default: a temporary directory)")
    p.add_argument("--json-out", type=Path, default=None)
    args = p.parse_args()

    pg = _module("pg_server", ROOT / "tests" / "pg_server.py")
    gen = _module("bench_relabel", HERE / "relabel.py")
    from writegate.relabel.stores.postgres import create_table

    work = args.workdir or Path(tempfile.mkdtemp(prefix="relabel-store-"))
    work.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"records": args.records, "k": args.k, "model": str(args.model)}
    server = pg.PgServer().start()
    try:
        # -- the data: JSONL and the same rows as a table --------------------------------------------
        raw = gen.generate_store(work / "generated.jsonl", args.records)
        store = work / "store.jsonl"
        with open(raw, encoding="utf-8") as src, open(store, "w", encoding="utf-8") as dst:
            for line in src:  # the table has no provenance column: drop it here too, the same data
                rec = json.loads(line)
                rec.pop("provenance", None)
                dst.write(json.dumps(rec, ensure_ascii=False) + "\n")
        source_db = server.create_db("memories")
        table = f"{source_db}?table=memories"
        t0 = time.perf_counter()
        with open(store, encoding="utf-8") as fh:
            create_table(table, (json.loads(line) for line in fh))
        results["load_table_s"] = time.perf_counter() - t0
        print(
            f"store: {args.records:,} records → {store} and {table} (COPY {results['load_table_s']:.1f} s)", flush=True
        )

        base = ["relabel", "--model", str(args.model), "-k", str(args.k), "--quiet"]
        # -- the JSONL path ---------------------------------------------------------------------------
        jsonl = timed_child(
            "writegate.cli.main",
            [*base, "--input", str(store), "--out", str(work / "jsonl" / "edges.jsonl"), "--restart"],
        )
        if jsonl["rc"] != 0:
            print(jsonl["stderr"][-3000:], file=sys.stderr)
            return 1
        print(f"jsonl: {jsonl['wall_s']:.0f} s, peak RSS {jsonl['peak_rss_mib']:.0f} MiB", flush=True)
        # -- the Postgres path, with write-back and the report ----------------------------------------
        results_db = server.create_db("results")
        report = work / "pg" / "report.html"
        pgrun = timed_child(
            "writegate.cli.main",
            [
                *base,
                "--input",
                table,
                "--out",
                str(work / "pg" / "edges.jsonl"),
                "--restart",
                "--write-back",
                results_db,
                "--report",
                str(report),
            ],
        )
        if pgrun["rc"] != 0:
            print(pgrun["stderr"][-3000:], file=sys.stderr)
            return 1
        print(f"postgres: {pgrun['wall_s']:.0f} s, peak RSS {pgrun['peak_rss_mib']:.0f} MiB", flush=True)
        for name, run in (("jsonl", jsonl), ("postgres", pgrun)):
            results[name] = {k: v for k, v in run.items() if k not in ("stdout", "stderr")}
            results[name]["rows_per_s"] = args.records / run["wall_s"]
            results[name]["log"] = run["stderr"].strip().splitlines()[-4:]

        # -- the same edges? ---------------------------------------------------------------------------
        edges_same = (work / "jsonl" / "edges.jsonl").read_bytes() == (work / "pg" / "edges.jsonl").read_bytes()
        s1 = json.loads((work / "jsonl" / "edges.summary.json").read_text())
        s2 = json.loads((work / "pg" / "edges.summary.json").read_text())
        s1.pop("input"), s2.pop("input")
        with open(work / "pg" / "edges.roles.jsonl", encoding="utf-8") as fh:
            file_roles = {line["id"]: line["role"] for line in map(json.loads, fh)}
        import psycopg

        db_same = True
        with (
            psycopg.connect(results_db) as conn,
            conn.cursor(name="compare") as cur,
            open(work / "pg" / "edges.jsonl", encoding="utf-8") as fh,
        ):
            cur.execute(
                "SELECT new_id, existing_id, label, scores, evidence, slot_match FROM writegate_edges ORDER BY pair"
            )
            names = ("new_id", "existing_id", "label", "scores", "evidence", "slot_match")
            for row, line in zip_longest(cur, fh):  # streamed: this process stays small
                if row is None or line is None or dict(zip(names, row, strict=True)) != json.loads(line):
                    db_same = False
                    break
            db_roles = dict(conn.execute("SELECT memory_id, role FROM writegate_states").fetchall())
        results.update(
            {
                "edges": s2["pairs"]["written"],
                "pairs": s2["pairs"]["classified"],
                "labels": s2["labels"],
                "edges_identical_to_jsonl": edges_same,
                "summary_identical_but_input": s1 == s2,
                "db_edges_identical_to_file": db_same,
                "db_roles_identical": db_roles == file_roles,
            }
        )
        print(
            f"edges: {results['edges']:,} of {results['pairs']:,} pairs; identical to the JSONL path: {edges_same}; "
            f"summary (but input): {s1 == s2}; writegate_edges = file: {results['db_edges_identical_to_file']}; "
            f"writegate_states = roles: {results['db_roles_identical']}",
            flush=True,
        )

        # -- the reader alone: flat memory in the row count ------------------------------------------
        reader: dict[str, Any] = {}
        tables = [("memories", table)]
        if args.reader_rows:
            with psycopg.connect(source_db, autocommit=True) as conn:
                conn.execute(
                    "CREATE TABLE big AS SELECT 'm' || g AS id, 'user:u' || (g % 40000) AS subject, "
                    "'User prefers meetings at ' || (g % 24) || ':00, note ' || g AS text, "
                    "timestamptz '2020-01-01' + g * interval '1 minute' AS observed_at "
                    f"FROM generate_series(1, {int(args.reader_rows)}) g"
                )
            tables.append(("big", f"{source_db}?table=big"))
        for name, url in tables:
            run = timed_child("reader", [url])
            n, secs = run["stdout"].split()
            reader[name] = {
                "rows": int(n),
                "s": float(secs),
                "rows_per_s": int(n) / float(secs),
                "peak_rss_mib": run["peak_rss_mib"],
            }
            print(
                f"reader only, {int(n):,} rows: {float(secs):.1f} s ({int(n) / float(secs):,.0f} rows/s), "
                f"peak RSS {run['peak_rss_mib']:.0f} MiB",
                flush=True,
            )
        results["reader"] = reader

        # -- the report ---------------------------------------------------------------------------------
        results["report_mib"] = report.stat().st_size / 2**20
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium:
            headless = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
            t0 = time.perf_counter()  # open, run the script, paint: what a person waits for
            subprocess.run(
                [*headless, "--window-size=1280,1400", f"--screenshot={work / 'report.png'}", report.as_uri()],
                capture_output=True,
                timeout=300,
                check=False,
            )
            shot = time.perf_counter() - t0
            dom = subprocess.run(
                [*headless, "--dump-dom", report.as_uri()], capture_output=True, text=True, timeout=300, check=False
            ).stdout
            m = re.search(r'data-ready-ms="(\d+)"', dom)
            results["report_chromium"] = {"screenshot_s": shot, "script_ms": int(m.group(1)) if m else None}
            print(
                f"report: {results['report_mib']:.1f} MiB; headless Chromium starts, opens it and takes a screenshot "
                f"in {shot:.1f} s (the page's script: {results['report_chromium']['script_ms']} ms)",
                flush=True,
            )
    finally:
        server.stop()
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n")
    ok = all(results[k] for k in ("edges_identical_to_jsonl", "db_edges_identical_to_file", "db_roles_identical"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
