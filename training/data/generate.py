"""Generate labelled (existing, new) memory pairs and split them by template family and slot.

Run: ``python -m writegate.training.data.generate --out DIR [--n 48000] [--seed 13]``.

A generated dataset names what produced it: the manifest's ``generator_version`` is a hash of the
phrase data (``phrases/*.toml``) and the generator's code, so the same version, seed and n give
the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path

from writegate.training.data import (
    dom_extra,
    dom_more,
    dom_personal,
    dom_prefs,
    dom_work,
)
from writegate.training.data.build import GROUP_WEIGHT, Builder, groups, twin_ok
from writegate.training.data.core import SPLITS, Domain
from writegate.training.data.phrasebook import phrases_sha256
from writegate.training.data.pools import make_pools

LABELS: tuple[str, ...] = ("supersedes", "contradicts", "elaborates", "corroborates", "unrelated")
MIN_WORDS, MAX_WORDS = 3, 45


def all_domains() -> tuple[Domain, ...]:
    """Every slot domain the generator knows."""
    return dom_work.DOMAINS + dom_prefs.DOMAINS + dom_personal.DOMAINS + dom_extra.DOMAINS + dom_more.DOMAINS


def family_id(slot: str, label: str, group: str) -> str:
    """The template family id of a construction (twin families carry no label)."""
    return f"{slot}.twin" if group == "twin" else f"{slot}.{label}.{group}"


def _h(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()


@lru_cache(maxsize=1)
def family_splits() -> dict[str, str]:
    """Assign every template family to one split.

    Per label, families are ranked by a stable hash; the first ~10% go to test and the next ~10%
    to dev, skipping any family whose (slot, label) would otherwise have no train family left.
    """
    by_label: dict[str, list[tuple[str, str]]] = {}
    for d in all_domains():
        for label in LABELS:
            for g in groups(d, label):
                by_label.setdefault(label, []).append((d.slot, family_id(d.slot, label, g)))
        if twin_ok(d):
            by_label.setdefault("twin", []).append((d.slot, family_id(d.slot, "", "twin")))
    out: dict[str, str] = {}
    for fams in by_label.values():
        fams.sort(key=lambda x: _h(x[1]))
        per_slot = Counter(slot for slot, _ in fams)
        k = max(1, round(len(fams) * 0.1))
        quota = {"test": k, "dev": k}
        for slot, fam in fams:
            target = next((s for s in ("test", "dev") if quota[s] > 0), "train")
            if target != "train" and per_slot[slot] > 1:
                out[fam] = target
                quota[target] -= 1
                per_slot[slot] -= 1
            else:
                out[fam] = "train"
    return out


def _choices() -> dict[str, list[tuple[Domain, str]]]:
    """For each label, the (domain, group) constructions it can be built from (twins included)."""
    out: dict[str, list[tuple[Domain, str]]] = {label: [] for label in LABELS}
    for d in all_domains():
        for label in LABELS:
            out[label] += [(d, g) for g in groups(d, label) for _ in range(GROUP_WEIGHT.get((label, g), 1))]
            if label in ("supersedes", "contradicts") and twin_ok(d):
                out[label].append((d, "twin"))
    return out


def generate(n: int, seed: int) -> list[dict]:
    """Generate `n` deduplicated labelled pairs, deterministically for `seed`.

    Args:
        n: number of pairs to return.
        seed: seed for the random source and the Faker pools.

    Returns:
        Pairs shaped like the eval set: ``{"id", "existing": {"text", "observed_at"}, "new": {...},
        "label", "family", "slot"}``.
    """
    if n <= 0:
        from writegate.errors import InputError

        raise InputError("n", f"must be positive, got {n}")
    pools = make_pools(seed)
    rng = pools.rng
    doms = all_domains()
    builders = {s: Builder(pools, s, doms) for s in SPLITS}
    splits = family_splits()
    choices = _choices()
    # per label, domains first (uniform), then that domain's groups (uniform)
    by_dom: dict[str, dict[str, list[str]]] = {}
    for label, opts in choices.items():
        for d, g in opts:
            by_dom.setdefault(label, {}).setdefault(d.slot, []).append(g)
    dmap = {d.slot: d for d in doms}
    seen: set[tuple[str, str, str, str]] = set()
    out: list[dict] = []
    attempts = 0
    counts: Counter[str] = Counter()
    while len(out) < n:
        attempts += 1
        if attempts > n * 20:
            raise RuntimeError(f"could only build {len(out)} unique pairs out of {n}")
        label = min(LABELS, key=lambda x: counts[x]) if rng.random() < 0.7 else rng.choice(LABELS)
        slot = rng.choice(sorted(by_dom[label]))
        group = rng.choice(by_dom[label][slot])
        fam = family_id(slot, label, group)
        b = builders[splits[fam]]
        decorated: dict[tuple[str, str], str] = {}  # twins reuse the same surface texts under both labels
        shared: tuple | None = None  # contrast pairs share both dates, so only the new text differs
        for built in b.build(dmap[slot], label, group):
            te, tn = shared if shared is not None else b.dates(built.when, dmap[slot].max_gap_days)
            if group == "contrast":
                shared = (te, tn)
            for side, raw, p_attr in (("e", built.existing, 0.12), ("n", built.new, 0.25)):
                if (side, raw) not in decorated:
                    decorated[(side, raw)] = b.decorate(raw, p_attr)
            e = _year(decorated[("e", built.existing)], te.year)
            nw = _year(decorated[("n", built.new)], tn.year)
            if e == nw or not (MIN_WORDS <= len(e.split()) <= MAX_WORDS and MIN_WORDS <= len(nw.split()) <= MAX_WORDS):
                continue
            key = (e, nw, te.isoformat(), tn.isoformat())
            if key in seen:
                continue
            seen.add(key)
            counts[built.label] += 1
            out.append(
                {
                    "id": f"gen-{seed}-{len(out):06d}",
                    "existing": {"text": e, "observed_at": te.isoformat()},
                    "new": {"text": nw, "observed_at": tn.isoformat()},
                    "label": built.label,
                    "family": fam,
                    "slot": slot,
                }
            )
            if len(out) >= n:
                break
    return out


def _year(text: str, year: int) -> str:
    """Resolve the observation-year marker ("As of <YR>: …") to the side's own year."""
    return text.replace("<YR>", str(year)).replace("<yr>", str(year))


def split(pairs: list[dict]) -> dict[str, list[dict]]:
    """Group pairs into train/dev/test by their template family (see `family_splits`)."""
    table = family_splits()
    out: dict[str, list[dict]] = {s: [] for s in SPLITS}
    for p in pairs:
        out[table[p["family"]]].append(p)
    return out


def code_sha256() -> str:
    """sha256 over the generator's own source files (identifies the exact generator code)."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).parent.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def generator_version(phrases_dir: Path | None = None) -> str:
    """The generator's version: a hash of its phrase data and its code.

    Args:
        phrases_dir: the phrase files to hash (default: the package's ``phrases/``).

    Returns:
        The first 16 hex digits of sha256 over `phrasebook.phrases_sha256` and `code_sha256`.
    """
    return _h(f"phrases:{phrases_sha256(phrases_dir)}\ncode:{code_sha256()}")[:16]


def _write(path: Path, rows: list[dict]) -> str:
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def write(out: Path, n: int, seed: int) -> dict:
    """Generate, split and write train/dev/test JSONL plus manifest.json under `out`."""
    t0 = time.perf_counter()
    pairs = generate(n, seed)
    parts = split(pairs)
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict = {
        "generator_version": generator_version(),
        "phrases_sha256": phrases_sha256(),
        "code_sha256": code_sha256(),
        "seed": seed,
        "n": n,
        "files": {},
        "counts": {},
    }
    for s, rows in parts.items():
        manifest["files"][f"{s}.jsonl"] = _write(out / f"{s}.jsonl", rows)
        manifest["counts"][s] = {label: sum(r["label"] == label for r in rows) for label in LABELS}
        manifest["counts"][s]["total"] = len(rows)
    manifest["families"] = {s: sorted({r["family"] for r in rows}) for s, rows in parts.items()}
    manifest["seconds"] = round(time.perf_counter() - t0, 2)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    """The generator's CLI: write train/dev/test JSONL and manifest.json under ``--out``."""
    ap = argparse.ArgumentParser(
        prog="python -m writegate.training.data.generate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--version",
        action="version",
        version=generator_version(),
        help="print the generator version (hash of the phrase data and the code) and exit",
    )
    ap.add_argument("--out", type=Path, required=True, help="output directory")
    ap.add_argument("--n", type=int, default=48000, help="number of pairs (default 48000)")
    ap.add_argument("--seed", type=int, default=13, help="random seed (default 13)")
    args = ap.parse_args(argv)
    if args.n <= 0:
        print(f"error: --n must be positive, got {args.n}", file=sys.stderr)
        return 2
    m = write(args.out, args.n, args.seed)
    for s in SPLITS:
        print(s, m["counts"][s])
    print(f"{args.n} pairs in {m['seconds']}s → {args.out} (generator {m['generator_version']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
