"""Normalize once: the one way every product turns memories into their records.

A memory is normalized by what `normalize` reads of it, its `MemoryKey` (text, subject,
observed_at, provenance). The key's fields were parsed and checked at the edge (`Memory`,
`api.pairs.parse_side`, relabel's store reader, `server/validate.py` for gRPC): `observed_at` is an
aware UTC datetime there, which `normalize` takes as it is (`parse_observed_at`).

- `normalize_many`: each key's outcome, `Normalized` — its records, or the `NormalizeFailure` of
  its `InputError`. Pure and module-level: a worker process runs it (the service's normalize pool,
  relabel's plan workers).
- `Normalizer`: a normalize function and a `RecordCache` of outcomes keyed by `MemoryKey`, so that
  a memory that recurs (store candidates across writes, a side across pairs) is normalized once.
  `plan` splits a batch into the outcomes known and the distinct keys to normalize (`Batch.todo`),
  which the caller normalizes where it likes (in this thread: `Normalizer.outcomes`; in a pool:
  the service) and hands back to `Batch.resolve`.
- `records_or_error`: the records of a batch, or the `InputError` of its first failure in order,
  named within the memory's own field (`candidates[2]` → `candidates[2].text: …`).
- `side` / `Normalizer.sides`: memories as pair sides carrying their records (the service, benches).
- `fill_pairs` / `with_records`: pairs whose sides carry their records (`Side.records`), as the
  classifier takes them (`writegate classify`, evaluation, training).

The service, `writegate classify`, training and `writegate relabel` all normalize through this
module (ARCHITECTURE.md: the normalizer runs once per text, in the product).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from writegate.classifier.types import Pair, Side
from writegate.errors import InputError
from writegate.normalizer.api import normalize
from writegate.normalizer.schema import Memory, ProvenanceKind, Record

NormalizeFn = Callable[..., list[Record]]
"""`normalize`, or a stand-in with its keyword arguments (tests)."""

RECORD_CACHE_SIZE = 4096
"""Memories whose outcomes a service keeps. Bounded small: keys hold texts up to 16 KiB, and unique
texts must not grow the server's memory."""


class MemoryKey(NamedTuple):
    """What a memory's records depend on; small and picklable (it crosses to worker processes)."""

    text: str
    subject: str
    observed_at: datetime
    """Aware UTC, parsed at the edge."""
    provenance: ProvenanceKind = ProvenanceKind.STATED

    @classmethod
    def of(cls, memory: Memory) -> MemoryKey:
        """`memory`'s key."""
        return cls(memory.text, memory.subject, memory.observed_at, memory.provenance)

    @classmethod
    def of_side(cls, side: Side) -> MemoryKey:
        """A pair side's key (provenance `stated`: the slot comparison never reads provenance)."""
        return cls(side.text, side.subject, side.observed_at)


class NormalizeFailure(NamedTuple):
    """Why a memory has no records: its `InputError`'s field within the memory (`text`) and message."""

    field: str
    message: str

    def error(self, memory_field: str = "") -> InputError:
        """The `InputError`, named within `memory_field` (`candidates[2]` → `candidates[2].text`)."""
        return InputError(f"{memory_field}.{self.field}" if memory_field else self.field, self.message)


Normalized = tuple[Record, ...] | NormalizeFailure
"""One memory's outcome: its records, or why it has none."""


def normalize_many(
    keys: Sequence[MemoryKey],
    normalizer: NormalizeFn = normalize,
    *,
    contain: Callable[[Exception], str] | None = None,
) -> list[Normalized]:
    """Each memory's records, or the `NormalizeFailure` of its `InputError`.

    Args:
        keys: the memories, as normalized.
        normalizer: `normalize`, or a stand-in (tests; only the real one runs in a worker process).
        contain: given, any other error is that memory's `text` failure too, with this message of it
            (`writegate relabel`: one bad record must not end the run); else it raises (the
            service: an internal error).
    """
    out: list[Normalized] = []
    for text, subject, observed_at, provenance in keys:
        try:
            out.append(tuple(normalizer(text, subject=subject, observed_at=observed_at, provenance=provenance)))
        except InputError as exc:
            out.append(NormalizeFailure(exc.field, exc.message))
        except Exception as exc:
            if contain is None:
                raise
            out.append(NormalizeFailure("text", contain(exc)))
    return out


class RecordCache:
    """Outcomes of recently normalized memories, the least recently used dropped first (thread-safe).

    Args:
        size: entries kept at most (0 keeps none; None keeps all: one batch's or one command's).
    """

    def __init__(self, size: int | None = RECORD_CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[MemoryKey, Normalized] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: MemoryKey) -> Normalized | None:
        """The outcome kept under `key`, or None."""
        with self._lock:
            outcome = self._items.get(key)
            if outcome is not None:
                self._items.move_to_end(key)
            return outcome

    def put(self, key: MemoryKey, outcome: Normalized) -> None:
        """Keep `outcome` under `key` (dropping the least recently used beyond `size`)."""
        with self._lock:
            self._items[key] = outcome
            self._items.move_to_end(key)
            while self.size is not None and len(self._items) > self.size:
                self._items.popitem(last=False)


@dataclass(frozen=True)
class Batch:
    """A batch of memories after the cache: the outcomes known, and the distinct keys to normalize.

    Attributes:
        keys: the batch's memories, in order (repeats included).
        known: each one's cached outcome, or None.
        todo: the distinct keys of the misses, each once, in order of first appearance.
    """

    keys: list[MemoryKey]
    known: list[Normalized | None]
    todo: list[MemoryKey]
    cache: RecordCache

    def resolve(self, outcomes: Sequence[Normalized]) -> list[Normalized]:
        """Each memory's outcome, given `todo`'s (`normalize_many(todo)`), which are cached."""
        done = dict(zip(self.todo, outcomes, strict=True))
        for key, outcome in done.items():
            self.cache.put(key, outcome)
        return [done[key] if got is None else got for key, got in zip(self.keys, self.known, strict=True)]


class Normalizer:
    """Normalizes memories once each: a normalize function and the cache of its outcomes.

    Args:
        normalizer: `normalize`, or a stand-in (tests).
        size: memories kept (`RecordCache`); None keeps all.
    """

    def __init__(self, normalizer: NormalizeFn = normalize, size: int | None = RECORD_CACHE_SIZE) -> None:
        self.normalize = normalizer
        self.cache = RecordCache(size)

    def plan(self, keys: Iterable[MemoryKey]) -> Batch:
        """`keys` after the cache: what is known, and what is left to normalize (each distinct key once)."""
        keys = list(keys)
        known = [self.cache.get(key) for key in keys]
        todo = list(dict.fromkeys(key for key, got in zip(keys, known, strict=True) if got is None))
        return Batch(keys, known, todo, self.cache)

    def outcomes(self, keys: Iterable[MemoryKey]) -> list[Normalized]:
        """Each memory's outcome, the misses normalized in this thread."""
        batch = self.plan(keys)
        return batch.resolve(normalize_many(batch.todo, self.normalize) if batch.todo else [])

    def sides(self, memories: Sequence[Memory]) -> list[Side]:
        """Each memory as a pair side carrying its records (normalized here, each distinct one once).

        Raises:
            InputError: of the first memory that failed, named e.g. `memories[2].text`.
        """
        outcomes = self.outcomes(MemoryKey.of(memory) for memory in memories)
        fields = [f"memories[{i}]" for i in range(len(memories))]
        return [side(m, records) for m, records in zip(memories, records_or_error(outcomes, fields), strict=True)]


def records_or_error(outcomes: Sequence[Normalized], fields: Sequence[str]) -> list[tuple[Record, ...]]:
    """The records of each memory of a batch.

    Args:
        outcomes: each memory's outcome.
        fields: each memory's name in errors (`memory`, `candidates[2]`).

    Raises:
        InputError: of the first memory in order that failed, named within its field
            (`candidates[2].text: …`).
    """
    out: list[tuple[Record, ...]] = []
    for outcome, field in zip(outcomes, fields, strict=True):
        if isinstance(outcome, NormalizeFailure):
            raise outcome.error(field)
        out.append(outcome)
    return out


def side(memory: Memory, records: Sequence[Record]) -> Side:
    """`memory` as one side of a pair, carrying its records."""
    return Side(
        text=memory.text,
        observed_at=memory.observed_at,
        subject=memory.subject,
        provenance=memory.provenance,
        records=tuple(records),
    )


def fill_pairs(pairs: Sequence[Pair], normalizer: Normalizer | None = None) -> list[Pair | InputError]:
    """Each pair with both sides' records filled, or the `InputError` of its first side that failed.

    A side that already carries records is kept as it is (a pair with both is returned itself); each
    distinct side of the batch is normalized once.

    Args:
        pairs: (EXISTING, NEW) pairs.
        normalizer: whose cache to share across calls; None = one for this batch alone.

    Returns:
        Per pair: the pair with its sides' records, or the error naming the side (`existing.text`).
    """
    normalizer = normalizer or Normalizer(size=None)
    keys = [MemoryKey.of_side(s) for pair in pairs for s in (pair.existing, pair.new) if s.records is None]
    outcomes = iter(normalizer.outcomes(keys))
    out: list[Pair | InputError] = []
    for pair in pairs:
        got = [None if s.records is not None else next(outcomes) for s in (pair.existing, pair.new)]
        try:
            existing = _filled(pair.existing, got[0], "existing")
            new = _filled(pair.new, got[1], "new")
        except InputError as exc:
            out.append(exc)
            continue
        same = existing is pair.existing and new is pair.new
        out.append(pair if same else pair.model_copy(update={"existing": existing, "new": new}))
    return out


def _filled(given: Side, outcome: Normalized | None, name: str) -> Side:
    """`given` with its records (None: it had them); InputError names the side (`existing.text`)."""
    if outcome is None:
        return given
    if isinstance(outcome, NormalizeFailure):
        raise outcome.error(name)
    return given.model_copy(update={"records": outcome})


def with_records(pairs: Iterable[Pair]) -> list[Pair]:
    """`pairs` with their sides' records filled (`fill_pairs`): what the classifier takes.

    Raises:
        InputError: of the first pair in order that failed, named e.g. `pairs[3].existing.text`.
    """
    out: list[Pair] = []
    for i, got in enumerate(fill_pairs(list(pairs))):
        if isinstance(got, InputError):
            raise InputError(f"pairs[{i}].{got.field}", got.message)
        out.append(got)
    return out
