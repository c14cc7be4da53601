"""Normalizer throughput on one core: texts/s over ≥ 1,000 varied texts.

    python bench/normalize.py [--n 2000] [--repeat 3]

Prints a table: texts/s per family of texts and overall, and µs/text; the target is ≥ 5,000 texts/s.
The families are template texts of each record kind (each holds a fact), `real`: the human-written
texts of `tests/data/normalize_real/` (persona chat, booking turns, third-person facts), where most
texts hold no typed fact, as in a real store, and `prefs`: the stated preferences and instructions
of `tests/data/normalize_prefs/`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from writegate.normalizer import normalize

PEOPLE = ["Michelle Chen", "Marcus", "Grace Hopper", "Lee", "Priya Nair", "Jonas", "Ana Souza", "Kenji"]
THINGS = ["Acme", "Initech", "Globex", "Helios", "Umbrella", "Stark"]
FAMILIES: dict[str, list[str]] = {
    "time": [
        "prefers meetings {a}-{b}am on weekdays",
        "no meetings before {a}am",
        "keep Fridays clear after {p}pm",
        "standup every Monday and Thursday at {a}:15",
        "likes to meet between {p} and {q}pm on Tuesdays",
        "avoid calls on weekends",
        "works best in the early morning",
        "lunch is off limits",
        "Prefers 14:00–15:30 slots, Mon–Thu",
        "only available from {a} to 11 {tz}",
    ],
    "timezone": [
        "is on {tz}",
        "moved to London last month",
        "based in Singapore",
        "works on New York time",
        "relocated to Sydney",
        "timezone is Europe/Paris",
        "lives in Germany now",
    ],
    "enum": [
        "prefers concise answers",
        "ping me on Slack",
        "email is the best way to reach me",
        "wants detailed write-ups",
        "replies in Spanish please",
        "use bullet points",
        "keep it casual",
    ],
    "edge": [
        "reports to {person}",
        "{person} is my manager",
        "runs the payments team",
        "the {thing} account is owned by {person}",
        "{thing} was handed off to {person} in June",
        "can sign off on travel spend up to ${k}K",
        "is the sole approver for budgets",
        "delegated expense approvals to {person}",
        "was promoted to director",
    ],
    "text": [
        "has a dog named Biscuit",
        "is allergic to peanuts",
        "drives a blue Subaru",
        "graduated from MIT in 2011",
        "her sister lives in Boston",
        "thinks the launch went well",
    ],
}
SUBJECTS = ["I", "The user", "Sam", "She", "My team lead"]


def make_texts(n: int, seed: int = 7) -> list[tuple[str, str]]:
    """`n` varied (family, text) items."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        family = list(FAMILIES)[i % len(FAMILIES)]
        template = rng.choice(FAMILIES[family])
        body = template.format(
            a=rng.randint(7, 10),
            b=rng.randint(10, 11),
            p=rng.randint(1, 3),
            q=rng.randint(4, 5),
            tz=rng.choice(["EST", "PT", "CET", "IST", "JST", "UTC"]),
            person=rng.choice(PEOPLE),
            thing=rng.choice(THINGS),
            k=rng.choice([10, 25, 50, 100]),
        )
        out.append((family, f"{rng.choice(SUBJECTS)} {body}{rng.choice(['.', '', '!', ' (per the CRM).'])}"))
    return out


REAL_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "normalize_real"
PREFS_DIR = REAL_DIR.parent / "normalize_prefs"


def real_texts(family: str = "real", folder: Path = REAL_DIR) -> list[tuple[str, str]]:
    """(family, text) for every case of a hand-labelled set (default: the real-text set)."""
    return [
        (family, json.loads(line)["text"])
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    items = make_texts(args.n) + real_texts() + real_texts("prefs", PREFS_DIR)
    for _, text in items[:200]:  # warm caches (place tables, regexes)
        normalize(text, subject="user:sam", observed_at="2026-03-02")
    per_family: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(args.repeat):
        for family, text in items:
            start = time.perf_counter()
            normalize(text, subject="user:sam", observed_at="2026-03-02")
            per_family[family] = per_family.get(family, 0.0) + time.perf_counter() - start
            counts[family] = counts.get(family, 0) + 1
    table = Table(title=f"normalize, one core, {len(items)} texts x {args.repeat}")
    table.add_column("family")
    for col in ("texts", "texts/s", "µs/text", "vs target 5,000/s"):
        table.add_column(col, justify="right")
    rows = [(fam, counts[fam], per_family[fam]) for fam in per_family] + [
        ("all", sum(counts.values()), sum(per_family.values()))
    ]
    for fam, count, seconds in rows:
        rate = count / seconds
        table.add_row(fam, str(count), f"{rate:,.0f}", f"{1e6 / rate:,.1f}", f"{rate / 5000:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
