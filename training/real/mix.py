"""The training mix: human-written pairs, generated pairs and content-free negatives, by preset weights.

`build_mix` writes `train.jsonl` and `dev.jsonl` (the pair format `writegate train` reads) and
`mix.json` (pairs per part and label) into a directory:

- **real sources** (`training/real/`): each source's train pairs sampled to its weight (all of
  them, repeated, when the weight is larger than the source); its dev split, capped per source,
  goes to dev (the fixed dev split of `common.split_of`, never trained on);
- **generated** pairs (the template generator: schedule windows, org edges, communication
  preferences, staff and ownership changes — shapes public data lacks): sampled from its train
  split; a capped sample of its dev split goes to dev;
- **content-free negatives**: a real text against a text that states nothing ("test", ".",
  "lorem ipsum", "{}", "fact number 3"), either order, labelled `unrelated` — what the serving
  guard (`classifier/guard.py`) enforces, taught to the model as well.

Deterministic: the same inputs and weights give the same bytes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from writegate.classifier.labels import LABELS, Label
from writegate.classifier.types import Pair, Side
from writegate.errors import InputError
from writegate.training.datafile import Example, read_examples, write_examples

GENERATED = "generated"
JUNK = "junk"
MIX_FILE = "mix.json"

_JUNK_WORDS = (
    "test",
    "testing",
    "null",
    "none",
    "undefined",
    "n/a",
    "todo",
    "tbd",
    "placeholder",
    "dummy",
    "asdf",
    "qwerty",
    "foo",
    "bar",
    "ok",
    "okay",
    "thanks",
    "hello",
    "hi",
    "sample",
    "example",
    "lorem ipsum",
    "lorem ipsum dolor sit amet",
    "hello world",
    "fact number",
    "memory",
    "note",
    "item",
)
_JUNK_SYMBOLS = (
    ".",
    "..",
    "...",
    "…",
    "-",
    "?",
    "!",
    "{}",
    "[]",
    "()",
    '""',
    "#",
    "*",
    "🙂",
    "👍",
    "—",
    "//",
    "<p></p>",
)


def junk_text(rng: random.Random) -> str:
    """One text that states nothing: filler words, symbols and numbers in some shape."""
    shape = rng.randrange(5)
    if shape == 0:
        return rng.choice(_JUNK_SYMBOLS)
    if shape == 1:
        return str(rng.randrange(10_000))
    word = rng.choice(_JUNK_WORDS)
    word = word.upper() if rng.random() < 0.2 else word.capitalize() if rng.random() < 0.4 else word
    if shape == 2:
        return word
    if shape == 3:
        return f"{word} {rng.randrange(1, 100)}"
    return f"{word}{rng.choice(['.', '!', '?', ':', ' ' + rng.choice(_JUNK_SYMBOLS)])}"


def junk_pairs(texts: Sequence[str], n: int, seed: int) -> list[Example]:
    """`n` pairs of a real text and a content-free one (either order, any dates), all `unrelated`."""
    if n > 0 and not texts:
        raise InputError("junk", "needs real texts to pair with")
    rng = random.Random(seed)
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        real, junk = rng.choice(texts), junk_text(rng)
        a = Side(text=real, observed_at=t0 + timedelta(days=rng.randrange(700)))
        b = Side(text=junk, observed_at=t0 + timedelta(days=rng.randrange(700)))
        existing, new = (a, b) if rng.random() < 0.5 else (b, a)
        out.append(
            Example(
                id=f"junk-{i}", pair=Pair(existing=existing, new=new), label=Label.UNRELATED, family="junk.content_free"
            )
        )
    return out


def sample(examples: Sequence[Example], n: int, rng: random.Random) -> list[Example]:
    """`n` examples: a sample without replacement, or every example (repeated) and a sample of the rest."""
    if n <= 0 or not examples:
        return []
    whole, rest = divmod(n, len(examples))
    return [*list(examples) * whole, *rng.sample(list(examples), rest)]


def build_mix(
    parts: Mapping[str, tuple[Sequence[Example], Sequence[Example]]],
    weights: Mapping[str, int],
    dev_cap: int,
    junk: int,
    seed: int,
    out: Path,
) -> dict[str, object]:
    """Sample each part to its weight, add junk negatives, write train/dev JSONL and mix.json.

    Args:
        parts: name → (train examples, dev examples); the generator's is `generated`.
        weights: name → train pairs to draw (a part without a weight is left out).
        dev_cap: at most this many dev pairs per part (a seeded sample).
        junk: content-free negatives to add to train (their real texts come from the train parts).
        seed: the sampling seed.
        out: the directory to write.

    Returns:
        The mix summary (also written to `out/mix.json`): pairs per part and label, per split.

    Raises:
        InputError: a weight names a part that is not there, or a weight is negative.
    """
    unknown = sorted(set(weights) - set(parts))
    if unknown:
        raise InputError("weights", f"name parts that are not there: {', '.join(unknown)} (have {', '.join(parts)})")
    bad = sorted(k for k, v in weights.items() if v < 0)
    if bad:
        raise InputError("weights", f"must be ≥ 0: {', '.join(bad)}")
    rng = random.Random(seed)
    train: list[Example] = []
    dev: list[Example] = []
    summary: dict[str, dict[str, dict[str, int]]] = {}
    for name in sorted(weights):
        tr, dv = parts[name]
        drawn = sample(tr, weights[name], rng)
        held = sample(dv, min(dev_cap, len(dv)), rng)
        train += drawn
        dev += held
        summary[name] = {"train": _labels(drawn), "dev": _labels(held)}
    texts = sorted({s.text for ex in train for s in (ex.pair.existing, ex.pair.new)})
    negatives = junk_pairs(texts, junk, seed)
    train += negatives
    summary[JUNK] = {"train": _labels(negatives), "dev": _labels([])}
    rng.shuffle(train)
    out.mkdir(parents=True, exist_ok=True)
    write_examples(out / "train.jsonl", train)
    write_examples(out / "dev.jsonl", dev)
    result: dict[str, object] = {
        "seed": seed,
        "weights": dict(sorted(weights.items())),
        "dev_cap": dev_cap,
        "junk": junk,
        "parts": summary,
        "train": len(train),
        "dev": len(dev),
    }
    (out / MIX_FILE).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


def _labels(items: Sequence[Example]) -> dict[str, int]:
    counts = Counter(ex.label.value for ex in items)
    return {label: counts.get(label, 0) for label in LABELS if counts.get(label, 0)}


def read_parts(
    real_build: Path, names: Sequence[str], generated: Path | None
) -> dict[str, tuple[list[Example], list[Example]]]:
    """Read `<name>.train.jsonl` / `<name>.dev.jsonl` of each real source, and the generator's train/dev."""
    parts = {
        name: (read_examples(real_build / f"{name}.train.jsonl"), _maybe(real_build / f"{name}.dev.jsonl"))
        for name in names
    }
    if generated is not None:
        parts[GENERATED] = (read_examples(generated / "train.jsonl"), read_examples(generated / "dev.jsonl"))
    return parts


def _maybe(path: Path) -> list[Example]:
    return read_examples(path) if path.is_file() and path.stat().st_size else []
