"""Outputs recorded from the command line, to prove a refactor changes no behaviour (not a test module).

Three products are recorded on text that is in the repository (the hand-labelled and real-text test
sets, the examples, and pairs from the generator at a fixed seed):
- `normalize --explain`: every record and its rendering, per text (a digest per input line);
- `classify --details`: label, probabilities (rounded to 4 decimals), slot match and evidence, per pair;
- `relabel --keep-unrelated` on three stores: every edge, role and conflict.

`python tests/equivalence.py` writes `tests/data/golden/outputs.json.gz` (do it only on purpose: it is
what the code is compared against); `tests/test_equivalence.py` compares. The int8 model's
probabilities can differ in the last digits between CPUs (integer kernels differ by instruction
set), so probabilities are compared within `TOLERANCE` and a label only where its margin is clear.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden" / "outputs.json.gz"
TOLERANCE = 0.003
"""Largest difference allowed between a recorded and a new probability."""
CLEAR_MARGIN = 0.02
"""A label must match where its recorded probability leads the runner-up by at least this much."""

_NORMALIZE_SETS = (
    "tests/data/normalize_real/msc.jsonl",
    "tests/data/normalize_real/other.jsonl",
    "tests/data/normalize_real/recurring.jsonl",
    "tests/data/normalize_real/sgd.jsonl",
    "tests/data/normalize_prefs/tune.jsonl",
    "tests/data/normalize_prefs/heldout.jsonl",
    "tests/data/normalize_prefs/heldout2.jsonl",
    "examples/memories.jsonl",
    "examples/legacy_store.jsonl",
)
_GENERATED_PAIRS = 600
_GENERATED_SEED = 11


def _read(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of `path`; a line that is not JSON (the legacy store has one on purpose) is left out."""
    rows = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _writegate(*args: str, failing: bool = False) -> str:
    """The command's output; with `failing`, a run that reports bad lines (exit 1) gives them too."""
    done = subprocess.run(
        [sys.executable, "-m", "writegate.cli.main", *args], capture_output=True, text=True, check=False, cwd=ROOT
    )
    if done.returncode != 0 and not (failing and done.returncode == 1):
        raise RuntimeError(f"writegate {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout + done.stderr if failing else done.stdout


def _digest(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()[:16]


def generated_pairs(work: Path) -> list[dict[str, Any]]:
    """Pairs from the generator at a fixed seed (its train split)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "writegate.training.data.generate",
            "--out",
            str(work / "gen"),
            "--n",
            str(_GENERATED_PAIRS),
            "--seed",
            str(_GENERATED_SEED),
        ],
        capture_output=True,
        check=True,
        cwd=ROOT,
    )
    return _read(work / "gen" / "train.jsonl")


def _side(side: dict[str, Any]) -> dict[str, Any]:
    return {k: side[k] for k in ("text", "observed_at", "subject") if k in side}


def classify_pairs(work: Path) -> dict[str, list[dict[str, Any]]]:
    """The pair sets: the examples, the hand-labelled store pairs, generated pairs."""
    sets = {
        "examples/pairs.jsonl": _read(ROOT / "examples/pairs.jsonl"),
        "tests/data/store_pairs/store_pairs.jsonl": _read(ROOT / "tests/data/store_pairs/store_pairs.jsonl"),
        "generated": generated_pairs(work),
    }
    return {
        name: [{"existing": _side(p["existing"]), "new": _side(p["new"])} for p in pairs]
        for name, pairs in sets.items()
    }


def normalize_inputs(pairs: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Each set's texts as `normalize --input` lines (with subject and date where the set has them)."""
    keep = ("text", "subject", "observed_at", "provenance")
    sets = {name: [{k: r[k] for k in keep if k in r} for r in _read(ROOT / name)] for name in _NORMALIZE_SETS}
    for name, rows in pairs.items():
        sets[f"pairs:{name}"] = [
            {"observed_at": "2026-01-01T00:00:00Z", **p[side]} for p in rows for side in ("existing", "new")
        ]
    return sets


def built_store() -> list[dict[str, Any]]:
    """A store of real text: the real-text sets' memories, 24 to a person, a day apart."""
    texts = [r["text"] for name in _NORMALIZE_SETS[:4] for r in _read(ROOT / name) if len(r["text"]) <= 300]
    start = datetime(2025, 1, 1, 9, tzinfo=UTC)
    return [
        {
            "id": f"r{i:04d}",
            "subject": "user:sam" if i % 24 < 12 else f"user:p{i // 24}",
            "text": text,
            "observed_at": (start + timedelta(days=i)).isoformat().replace("+00:00", "Z"),
        }
        for i, text in enumerate(texts)
    ]


def record_all() -> dict[str, Any]:
    """Run the three commands on every set: the outputs to record or compare."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pairs = classify_pairs(work)
        out: dict[str, Any] = {"normalize": {}, "classify": {}, "relabel": {}}
        for name, rows in normalize_inputs(pairs).items():
            path = _write(work / "n.jsonl", rows)
            lines = _writegate("normalize", "--input", str(path), "--explain", failing=True).split("\n")[:-1]
            out["normalize"][name] = [_digest(line) for line in lines]
        for name, rows in pairs.items():
            path = _write(work / "c.jsonl", rows)
            out["classify"][name] = [
                _prediction(x)
                for x in _writegate("classify", "--input", str(path), "--details", failing=True).split("\n")[:-1]
            ]
        stores = {
            "examples/memories.jsonl": ROOT / "examples/memories.jsonl",
            "examples/legacy_store.jsonl": ROOT / "examples/legacy_store.jsonl",
            "built": _write(work / "store.jsonl", built_store()),
        }
        for name, path in stores.items():
            run = work / f"r{len(out['relabel'])}"
            run.mkdir()
            _writegate("relabel", "--input", str(path), "--out", str(run / "e.jsonl"), "--keep-unrelated", "--quiet")
            out["relabel"][name] = {
                "edges": [_edge(json.loads(x)) for x in (run / "e.jsonl").read_text(encoding="utf-8").split("\n")[:-1]],
                "roles": (run / "e.roles.jsonl").read_text(encoding="utf-8").split("\n")[:-1],
                "conflicts": (run / "e.conflicts.jsonl").read_text(encoding="utf-8").split("\n")[:-1],
            }
        return out


def _rounded(scores: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in scores.items()}


def _prediction(raw: str) -> dict[str, Any]:
    """A prediction line with its scores rounded; a reported bad line as {"error": …}, scored evenly."""
    line = json.loads(raw) if raw.startswith("{") else {"message": raw}
    if "scores" not in line:
        return {**line, "label": "", "scores": {"unrelated": 1.0, "other": 0.0}}
    line["scores"] = _rounded(line["scores"])
    return line


def _edge(line: dict[str, Any]) -> dict[str, Any]:
    line = dict(line)
    line["scores"] = _rounded(line["scores"])
    return line


def differences(recorded: dict[str, Any], now: dict[str, Any]) -> Iterator[str]:
    """Each way `now` differs from `recorded`, one line each."""
    for name, digests in recorded["normalize"].items():
        got = now["normalize"].get(name, [])
        if len(got) != len(digests):
            yield f"normalize {name}: {len(got)} lines, recorded {len(digests)}"
        yield from (
            f"normalize {name} line {i + 1} differs"
            for i, (a, b) in enumerate(zip(digests, got, strict=False))
            if a != b
        )
    for name, preds in recorded["classify"].items():
        yield from _labelled(f"classify {name}", preds, now["classify"].get(name, []))
    for name, run in recorded["relabel"].items():
        got = now["relabel"][name]
        mismatched = list(_labelled(f"relabel {name} edges", run["edges"], got["edges"]))
        yield from mismatched
        if not mismatched and not _near_ties(run["edges"]):
            for kind in ("roles", "conflicts"):
                if run[kind] != got[kind]:
                    yield f"relabel {name}: {kind} differ"


def _near_ties(rows: list[dict[str, Any]]) -> bool:
    return any(_margin(r["scores"]) < CLEAR_MARGIN for r in rows)


def _margin(scores: dict[str, float]) -> float:
    top = sorted(scores.values(), reverse=True)
    return top[0] - top[1]


def _labelled(where: str, recorded: list[dict[str, Any]], now: list[dict[str, Any]]) -> Iterator[str]:
    if len(now) != len(recorded):
        yield f"{where}: {len(now)} lines, recorded {len(recorded)}"
        return
    for i, (a, b) in enumerate(zip(recorded, now, strict=True)):
        fixed_a = {k: v for k, v in a.items() if k not in ("scores", "label")}
        fixed_b = {k: v for k, v in b.items() if k not in ("scores", "label")}
        if fixed_a != fixed_b and _margin(a["scores"]) >= CLEAR_MARGIN:
            yield f"{where} line {i + 1}: {fixed_b} != recorded {fixed_a}"
        if a["label"] != b["label"] and _margin(a["scores"]) >= CLEAR_MARGIN:
            yield f"{where} line {i + 1}: label {b['label']} != recorded {a['label']}"
        far = [k for k in a["scores"] if abs(a["scores"][k] - b["scores"].get(k, -1.0)) > TOLERANCE]
        if far:
            yield f"{where} line {i + 1}: scores {b['scores']} != recorded {a['scores']}"


if __name__ == "__main__":
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_bytes(gzip.compress(json.dumps(record_all(), ensure_ascii=False).encode("utf-8"), mtime=0))
    print(f"recorded → {GOLDEN.relative_to(ROOT)}")


def recorded() -> dict[str, Any]:
    """The outputs recorded in `GOLDEN`."""
    return json.loads(gzip.decompress(GOLDEN.read_bytes()))
