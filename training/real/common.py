"""Shared pieces of the human-written source mappings: pair construction, times, splits, text tests.

Every source module maps its own rows to `Mapped` items: a labelled `Example` plus the group key
that decides its split (all pairs of one premise / entity / dialogue / claim share a group).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from writegate.api.jsonl import open_lines, read_json_lines
from writegate.classifier.labels import Label
from writegate.classifier.types import Pair, Side
from writegate.errors import InputError
from writegate.training.datafile import Example

Split = Literal["train", "dev"]
DEV_PER_MILLE = 50
"""~5% of groups go to dev."""
MAX_WORDS = 48
"""Longer texts are left out: the model sees 128 tokens for both sides and their dates."""
DEFAULT_SUBJECT = "user:default"
EPOCH = datetime(2016, 1, 1, tzinfo=UTC)

Row = dict[str, Any]


@dataclass(frozen=True)
class Mapped:
    """One labelled pair and the group whose hash decides its split."""

    group: str
    example: Example


class SourceError(ValueError):
    """A source file that cannot be read: bad JSON or a line that is not an object."""


def read_jsonl(path: str | Path) -> Iterator[Row]:
    """The JSON objects of a JSONL file, one per non-blank line.

    Raises:
        SourceError: the file cannot be opened, or a line is not valid UTF-8, not JSON or not an
            object (the message names file and line: "x.jsonl: line 2: is not valid JSON: ...").
    """
    try:
        lines = open_lines(path)
    except InputError as exc:
        raise SourceError(f"{path}: {exc.message}") from None
    for line in read_json_lines(lines):
        if line.error is not None:
            raise SourceError(f"{path}: line {line.number}: {line.error.message}")
        yield line.value


def stable_int(*parts: str) -> int:
    """A 64-bit integer from sha256 of the parts (stable across runs and machines)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def split_of(group: str) -> Split:
    """`dev` for ~5% of group keys (sha256, not Python's salted hash), else `train`."""
    return "dev" if stable_int("split", group) % 1000 < DEV_PER_MILLE else "train"


def moment(key: str) -> datetime:
    """A fixed UTC time in 2016–2025 derived from `key` (one observation moment)."""
    n = stable_int("moment", key)
    return EPOCH + timedelta(days=n % 3650, minutes=(n >> 16) % (24 * 60))


def later(key: str, when: datetime) -> datetime:
    """NEW's time in a pair whose label holds at any time (corroborates, elaborates, unrelated).

    The same moment as EXISTING for half the keys, else 1–400 days later: a gap alone must never
    read as a change (only `supersedes` sources have one otherwise).
    """
    n = stable_int("later", key)
    return when if n % 2 == 0 else when + timedelta(days=1 + (n >> 8) % 400, minutes=(n >> 20) % (24 * 60))


def norm(text: str) -> str:
    """Case- and whitespace-insensitive form, for grouping and overlap checks."""
    return " ".join(text.casefold().split())


def clean(text: object) -> str | None:
    """`text` with whitespace collapsed, or None when it is unusable as a memory.

    Unusable: not a string, empty, over `MAX_WORDS` words, or refused by `validate_text`.
    """
    from writegate.errors import InputError
    from writegate.normalizer.api import validate_text

    if not isinstance(text, str):
        return None
    out = " ".join(text.split())
    if not out or len(out.split()) > MAX_WORDS:
        return None
    try:
        return validate_text(out)
    except InputError:
        return None


def make(
    group: str,
    ex_id: str,
    label: Label,
    family: str,
    existing: tuple[str, datetime],
    new: tuple[str, datetime],
    subjects: tuple[str, str] = (DEFAULT_SUBJECT, DEFAULT_SUBJECT),
) -> Mapped | None:
    """A `Mapped` pair, or None when a text is unusable or both texts are the same.

    Args:
        group: split group key.
        ex_id: example id (unique within the source).
        label: the writegate label.
        family: `<source>.<construction>`.
        existing: (text, observed_at) of EXISTING.
        new: (text, observed_at) of NEW.
        subjects: subjects of EXISTING and NEW.
    """
    pair = pair_of(existing, new, subjects)
    return (
        None if pair is None else Mapped(group=group, example=Example(id=ex_id, pair=pair, label=label, family=family))
    )


def pair_of(
    existing: tuple[str, datetime],
    new: tuple[str, datetime],
    subjects: tuple[str, str] = (DEFAULT_SUBJECT, DEFAULT_SUBJECT),
) -> Pair | None:
    """The pair of two (text, observed_at) sides, or None when a text is unusable or both texts are the same."""
    e_text, n_text = clean(existing[0]), clean(new[0])
    if e_text is None or n_text is None or norm(e_text) == norm(n_text):
        return None
    return Pair(
        existing=Side(text=e_text, observed_at=existing[1], subject=subjects[0]),
        new=Side(text=n_text, observed_at=new[1], subject=subjects[1]),
    )


def present(items: Iterable[Mapped | None]) -> Iterator[Mapped]:
    """The items that are not None."""
    return (m for m in items if m is not None)


# Function words and very generic verbs; what is left says what a text is about.
STOPWORDS = frozenset(
    """
a an the and or but if then than so of to in on at by for with from into onto over under about as is are was
were be been being am do does did doing have has had having i me my mine we us our you your he him his she her
it its they them their this that these those there here what which who whom whose when where why how not no
nor all any some each every both few more most other such only own same too very can could will would shall
should may might must just also still now up down out off again once very s t don isn aren wasn weren didn
doesn hasn haven won one two three get got go going gone went make made like really yes yeah oh well lol
thing things something anything nothing someone anyone way lot lots much many think know sure great good
sounds sound maybe probably actually definitely pretty kind bit around during time haha ok okay wow
""".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A crude suffix strip (plural, -ing, -ed) so that `dogs`/`dog`, `cuts`/`cutting` meet."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            doubled = len(base) >= 4 and base[-1] == base[-2] and base[-1] in "bdgmnprt"
            return base[:-1] if doubled and suffix in ("ing", "ed") else base
    return word


def content_list(text: str) -> list[str]:
    """Stemmed lower-case words of `text` other than `STOPWORDS`, in text order."""
    return [stem(w) for w in _WORD.findall(text.casefold()) if w not in STOPWORDS]


def content_words(text: str) -> frozenset[str]:
    """The set of `content_list(text)`."""
    return frozenset(content_list(text))


def jaccard(x: frozenset[str], y: frozenset[str]) -> float:
    """|x ∩ y| / |x ∪ y| (0 for two empty sets)."""
    return len(x & y) / len(x | y) if x | y else 0.0


def texts_of(m: Mapped) -> tuple[str, str]:
    """Normalised texts of both sides."""
    return norm(m.example.pair.existing.text), norm(m.example.pair.new.text)


def assign_splits(items: Iterable[Mapped]) -> tuple[list[Mapped], list[Mapped], int]:
    """Split by group hash, dedupe, and keep every text in one split only.

    Dev is exactly the dev groups' pairs; a train pair that shares a text with a dev pair (the
    same hypothesis under two premises, one evidence sentence for two claims) is dropped.

    Returns:
        (train, dev, number of train pairs dropped for sharing a text with dev).
    """
    seen: set[tuple[str, str, str]] = set()
    train: list[Mapped] = []
    dev: list[Mapped] = []
    for m in items:
        key = (*texts_of(m), m.example.label.value)
        if key in seen:
            continue
        seen.add(key)
        (dev if split_of(m.group) == "dev" else train).append(m)
    dev_texts = {t for m in dev for t in texts_of(m)}
    kept = [m for m in train if not dev_texts.intersection(texts_of(m))]
    return kept, dev, len(train) - len(kept)


def pick(key: str, options: Sequence[str]) -> str:
    """A deterministic choice from `options` by the hash of `key`."""
    return options[stable_int("pick", key) % len(options)]
