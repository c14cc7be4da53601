"""Unlabelled same-subject pairs from the shippable human-written sources: a pool for a teacher to label.

Run: ``python -m writegate.training.real.pool --real-dir DIR --out pool.jsonl [--max-per-source N]``.

Distillation (`writegate train --soft`, docs/training.md) needs many more pairs than there are gold
labels, of the kind a store holds: two memories about one subject. The sources' own pairs are
labelled by the build (`training/real/build.py`); this pool pairs what they leave unpaired:
- `timeqa.any_two`: any two dated facts of one entity, over all its relations (the build pairs
  consecutive spans of one relation only), each observed at its span's start, in time order, and
  for one pair in four in reverse;
- `sgd_changes.same_dialogue`: any two requests of one user's dialogue, minutes apart, in order
  (the build keeps the changes with a cue and the other-service requests only);
- `snli.hypotheses` and `oie_nli.hypotheses`: two hypotheses written for one premise (one scene
  described by two people), at `common.later`'s gaps.

Only groups of the `train` split are used (`common.split_of`), and no text of a dev group of the
same source, so no dev pair leaks into a student's training. The research-only sources are never
read. Lines are pair lines without a `label` (`training/datafile.py`), ids `pool:<source>:<hash>`,
families `<source>.<kind>`; the output depends only on the input files.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from writegate.training.datafile import pair_json
from writegate.training.real import SOURCES
from writegate.training.real.common import (
    Row,
    SourceError,
    later,
    moment,
    norm,
    pair_of,
    read_jsonl,
    split_of,
    stable_int,
)
from writegate.training.real.sgd_changes import group_of as sgd_group
from writegate.training.real.timeqa import parse_facts, renderings

PoolPair = dict[str, Any]
MAX_PAIRS_PER_GROUP = 20  # a long dialogue or a busy entity does not crowd out the others


def pair_line(
    source: str, kind: str, key: str, existing: tuple[str, datetime], new: tuple[str, datetime]
) -> PoolPair | None:
    """One unlabelled pair line, or None when a text is unusable or both are the same."""
    pair = pair_of(existing, new)
    if pair is None:
        return None
    return {"id": f"pool:{source}:{stable_int('pool-id', key):016x}", **pair_json(pair), "family": f"{source}.{kind}"}


def _capped(key: str, pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """At most MAX_PAIRS_PER_GROUP of a group's index pairs, chosen by hash."""
    every = list(pairs)
    every.sort(key=lambda ij: stable_int("pool", key, str(ij[0]), str(ij[1])))
    return sorted(every[:MAX_PAIRS_PER_GROUP])


def timeqa_pairs(rows: list[Row]) -> Iterator[PoolPair | None]:
    """Any two facts of one entity, over all its relations, in time order (one in four reversed)."""
    by_entity: dict[str, list[tuple[datetime, str]]] = {}
    for r in rows:
        if not isinstance(r.get("entity"), str) or not isinstance(r.get("questions"), list):
            continue
        parsed = parse_facts(r)
        texts = renderings(parsed)
        by_entity.setdefault(norm(r["entity"]), []).extend((f.start, texts[f.index]) for f in parsed)
    for entity, dated in by_entity.items():
        if split_of(entity) != "train":
            continue
        dated.sort()
        for i, j in _capped(entity, itertools.combinations(range(len(dated)), 2)):
            (t1, a), (t2, b) = dated[i], dated[j]
            key = f"{entity}:{i}-{j}"
            if stable_int("reverse", key) % 4 == 0:
                (t1, a), (t2, b) = (t2, b), (t1, a)
            yield pair_line("timeqa", "any_two", key, (a, t1), (b, t2))


def sgd_pairs(rows: list[Row]) -> Iterator[PoolPair | None]:
    """Any two of one dialogue's requests, in order, minutes apart."""
    by_dialogue: dict[str, list[str]] = {}
    for r in rows:
        said = by_dialogue.setdefault(sgd_group(r), [])
        for text in (r.get("old_utterance"), r.get("new_utterance")):
            if isinstance(text, str) and text not in said:
                said.append(text)
    for dialogue, said in by_dialogue.items():
        if split_of(dialogue) != "train":
            continue
        start = moment(dialogue)
        for i, j in _capped(dialogue, itertools.combinations(range(len(said)), 2)):
            a, b = start + timedelta(minutes=2 * i), start + timedelta(minutes=2 * j)
            yield pair_line("sgd_changes", "same_dialogue", f"{dialogue}:{i}-{j}", (said[i], a), (said[j], b))


def hypothesis_pairs(source: str, rows: list[Row]) -> Iterator[PoolPair | None]:
    """Two hypotheses of one premise, at `later`'s gaps."""
    by_premise: dict[str, list[str]] = {}
    for r in rows:
        if isinstance(r.get("a"), str) and isinstance(r.get("b"), str):
            hyps = by_premise.setdefault(norm(r["a"]), [])
            if r["b"] not in hyps:
                hyps.append(r["b"])
    for premise, hyps in by_premise.items():
        if split_of(premise) != "train":
            continue
        when = moment(premise)
        for i, j in _capped(premise, itertools.combinations(range(len(hyps)), 2)):
            key = f"{premise}:{i}-{j}"
            yield pair_line(source, "hypotheses", key, (hyps[i], when), (hyps[j], later(key, when)))


def dev_texts(source: str, rows: list[Row]) -> set[str]:
    """The normalised texts of the source's dev groups (what the build may put in a dev split)."""
    out: set[str] = set()
    for r in rows:
        if source == "timeqa" and isinstance(r.get("entity"), str):
            if split_of(norm(r["entity"])) == "dev":
                out.update(norm(t) for t in renderings(parse_facts(r)).values())
        elif source == "sgd_changes":
            if split_of(sgd_group(r)) == "dev":
                out.update(norm(str(r.get(k, ""))) for k in ("old_utterance", "new_utterance"))
        elif isinstance(r.get("a"), str) and split_of(norm(r["a"])) == "dev":
            out.update(norm(str(r.get(k, ""))) for k in ("a", "b"))
    return out


MINERS = {
    "timeqa": timeqa_pairs,
    "sgd_changes": sgd_pairs,
    "snli": lambda rows: hypothesis_pairs("snli", rows),
    "oie_nli": lambda rows: hypothesis_pairs("oie_nli", rows),
}
"""The shippable sources that give same-subject pairs beyond their labelled ones."""


def mine(real_dir: Path, max_per_source: int | None = None) -> Iterator[PoolPair]:
    """Every source's pool pairs, source by source (at most `max_per_source` each, chosen by hash).

    Raises:
        SourceError: a source file is missing or unreadable.
    """
    for name, miner in MINERS.items():
        assert SOURCES[name].shippable, name  # the research-only sources are never trained on
        path = real_dir / SOURCES[name].file
        if not path.is_file():
            raise SourceError(f"{path}: missing (the pool needs {', '.join(MINERS)})")
        rows = list(read_jsonl(path))
        held_out = dev_texts(name, rows)
        got = [
            p
            for p in miner(rows)
            if p is not None and norm(p["existing"]["text"]) not in held_out and norm(p["new"]["text"]) not in held_out
        ]
        if max_per_source is not None and len(got) > max_per_source:
            got.sort(key=lambda p: stable_int("cap", p["id"]))
            got = sorted(got[:max_per_source], key=lambda p: p["id"])
        yield from got


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    ap = argparse.ArgumentParser(prog="python -m writegate.training.real.pool", description=__doc__.split("\n")[0])
    ap.add_argument("--real-dir", type=Path, required=True, help="the sources, one NAME.jsonl each")
    ap.add_argument("--out", type=Path, required=True, help="the pool (JSONL pair lines without labels)")
    ap.add_argument("--max-per-source", type=int, default=None, help="pairs per source, at most (default: all)")
    args = ap.parse_args(argv)
    if args.max_per_source is not None and args.max_per_source < 1:
        print(f"--max-per-source: must be at least 1, got {args.max_per_source}", file=sys.stderr)
        return 2
    counts: Counter[str] = Counter()
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w", encoding="utf-8") as fh:
            for p in mine(args.real_dir, args.max_per_source):
                counts[p["family"]] += 1
                fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    except (SourceError, OSError) as exc:
        print(f"pool: {exc}", file=sys.stderr)
        return 2
    for family, n in sorted(counts.items()):
        print(f"{family:28} {n:7}")
    print(f"{'total':28} {sum(counts.values()):7} → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
