"""The classifier's input format: ONE definition, used by training and serving alike.

A pair becomes two BERT segments. Format 1::

    A: existing (2026-03-01): Michelle owns the Acme account
    B: new (2026-06-20, 111 days later): Acme was handed off to Marcus in June
       [structure: same slot edge.owned_by.account:acme (single-valued): incompatible]

Format 2 says the same with half the header tokens (12 instead of 24 here): the month of each
date, and the gap::

    A: March 2026: Michelle owns the Acme account
    B: June 2026, 111 days later: Acme was handed off to Marcus in June
       [structure: same slot edge.owned_by.account:acme (single-valued): incompatible]

- dates are the UTC calendar dates of `observed_at`; the gap is said in words a small model can
  use: "same day", "1 day later", "N days later", "N days earlier" (NEW older than EXISTING);
- the `[structure: …]` tail is `SlotComparison.as_text()` when `compare_all` found a comparison
  of the two sides' normalized records, and absent otherwise. The records are the ones the pair
  carries (`Side.records`, filled by the caller): this module compares records and never calls
  the text normalizer;
- the whole pair is at most `max_length` (128) tokens: the headers and the structure tail are
  kept, the two texts are truncated longest-first.

A model is only valid for the format it was trained on: `writegate.json` records it, and the
encoder of a loaded model renders that format. A change to the rendered text is a new format in
`INPUT_FORMATS`; the old ones stay, so that older models still load.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from writegate.errors import InputError, MissingRecordsError
from writegate.normalizer.compare import compare_all

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from writegate.classifier.types import Pair, Side
    from writegate.normalizer.compare import SlotComparison
    from writegate.normalizer.schema import Record

INPUT_FORMATS: tuple[int, ...] = (1, 2)
"""The input formats this writegate renders (and so the models it loads)."""
INPUT_FORMAT_VERSION = 1
"""The format `writegate train` writes unless told another (`--input-format`): the shipped model's."""
MAX_LENGTH = 128
N_SPECIAL = 3  # [CLS] A [SEP] B [SEP]
PIECE_CACHE_SIZE = 16384
"""Token ids of this many recent pieces are kept (store candidates and date headers recur)."""
PIECE_CACHE_MAX_CHARS = 1024
"""Longer pieces are tokenized every time (bounds the cache's memory to ~16 MiB of keys)."""


def gap_days(existing_at: datetime, new_at: datetime) -> int:
    """Calendar days from EXISTING's date to NEW's date (UTC); negative when NEW is older."""
    return (utc_date(new_at) - utc_date(existing_at)).days


def gap_words(days: int) -> str:
    """The gap in words: `same day`, `1 day later`, `12 days later`, `3 days earlier`."""
    if days == 0:
        return "same day"
    n = abs(days)
    unit = "day" if n == 1 else "days"
    return f"{n} {unit} {'later' if days > 0 else 'earlier'}"


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


def check_input_format(version: int, field: str = "input_format", where: str = "") -> int:
    """`version` if it is one of `INPUT_FORMATS`.

    Args:
        version: the format asked for.
        field: the field the error names.
        where: where the version was read (a file), put before the message when given.

    Raises:
        InputError: another version (naming `field`).
    """
    if version not in INPUT_FORMATS:
        known = ", ".join(map(str, INPUT_FORMATS))
        prefix = f"{where}: " if where else ""
        raise InputError(
            field, f"{prefix}input format {version} is not one this writegate renders ({known}); upgrade or retrain"
        )
    return version


def structure_text(comparison: SlotComparison | None) -> str:
    """The `[structure: …]` tail, or "" when there is no comparison."""
    if comparison is None:
        return ""
    return f"[structure: {comparison.as_text()}]"


@dataclass(frozen=True)
class PairText:
    """A pair rendered as text pieces; only `a_text` and `b_text` may be truncated."""

    a_head: str
    a_text: str
    b_head: str
    b_text: str
    b_tail: str

    @property
    def segments(self) -> tuple[str, str]:
        """The two full segments, as the model reads them (before truncation)."""
        a = f"{self.a_head} {self.a_text}"
        b = f"{self.b_head} {self.b_text}" + (f" {self.b_tail}" if self.b_tail else "")
        return a, b


def render(
    existing_text: str,
    existing_at: datetime,
    new_text: str,
    new_at: datetime,
    comparison: SlotComparison | None,
    input_format: int = INPUT_FORMAT_VERSION,
) -> PairText:
    """Render one pair in an input format (see the module docstring)."""
    existing_date, new_date = utc_date(existing_at), utc_date(new_at)
    return PairText(
        a_head=existing_head(existing_date, input_format),
        a_text=clean_text(existing_text),
        b_head=new_head(new_date, (new_date - existing_date).days, input_format),
        b_text=clean_text(new_text),
        b_tail=structure_text(comparison),
    )


def clean_text(text: str) -> str:
    """A memory's text as the model reads it: whitespace runs as one space, no leading or trailing space."""
    return " ".join(text.split())


def _month(d: date) -> str:
    return f"{_MONTHS[d.month - 1]} {d.year}"


def existing_head(existing_date: date, input_format: int = INPUT_FORMAT_VERSION) -> str:
    """Segment A's header: `existing (2026-03-01):` (format 1), `March 2026:` (format 2)."""
    if check_input_format(input_format) == 1:
        return f"existing ({existing_date.isoformat()}):"
    return f"{_month(existing_date)}:"


def new_head(new_date: date, days: int, input_format: int = INPUT_FORMAT_VERSION) -> str:
    """Segment B's header (`days`: the gap, `gap_days`): `new (2026-06-20, 111 days later):` (format 1),
    `June 2026, 111 days later:` (format 2)."""
    return " ".join(new_head_parts(new_date, days, input_format))


def new_head_parts(new_date: date, days: int, input_format: int = INPUT_FORMAT_VERSION) -> tuple[str, str]:
    """`new_head` in two parts split at a space, the date and the gap (`new (2026-06-20,` and
    `111 days later):`): each recurs far more often than the whole, and the tokenizer splits at
    spaces, so their tokens joined are the header's tokens."""
    if check_input_format(input_format) == 1:
        return f"new ({new_date.isoformat()},", f"{gap_words(days)}):"
    return f"{_month(new_date)},", f"{gap_words(days)}:"


def render_pair(pair: Pair, comparison: SlotComparison | None, input_format: int = INPUT_FORMAT_VERSION) -> PairText:
    """`render` for a `Pair`."""
    return render(
        pair.existing.text, pair.existing.observed_at, pair.new.text, pair.new.observed_at, comparison, input_format
    )


def side_records(side: Side, field: str) -> tuple[Record, ...]:
    """The normalized records `side` carries.

    Args:
        side: one side of a pair.
        field: the side's name in errors, e.g. `pairs[3].existing`.

    Raises:
        MissingRecordsError: `side.records` is None (naming `<field>.records`).
    """
    if side.records is None:
        raise MissingRecordsError(field)
    return side.records


def compare_pair(pair: Pair, field: str = "pair") -> SlotComparison | None:
    """Compare the records the two sides carry (`compare_all`); no text is normalized here.

    Args:
        pair: an (EXISTING, NEW) pair whose sides carry their `records`.
        field: the pair's name in errors, e.g. `pairs[3]`.

    Returns:
        The most informative same-slot comparison, or None.

    Raises:
        MissingRecordsError: a side has no records.
    """
    return compare_all(side_records(pair.existing, f"{field}.existing"), side_records(pair.new, f"{field}.new"))


def utc_date(dt: datetime) -> date:
    """The UTC calendar date of `dt` (a naive datetime is taken as UTC)."""
    return (dt if dt.tzinfo is None else dt.astimezone(UTC)).date()


def split_budget(len_a: int, len_b: int, budget: int) -> tuple[int, int]:
    """Longest-first truncation: how many tokens of each text to keep within `budget`."""
    budget = max(budget, 0)
    if len_a + len_b <= budget:
        return len_a, len_b
    half = budget // 2
    if len_a <= half:
        return len_a, budget - len_a
    if len_b <= budget - half:
        return budget - len_b, len_b
    return half + (budget - 2 * half), half


class PairEncoder:
    """Tokenizes `PairText`s with a `tokenizers.Tokenizer` (no transformers, no torch).

    BERT layout: `[CLS] A [SEP] B [SEP]`, token types 0 for `[CLS] A [SEP]`, 1 for `B [SEP]`.
    Pieces are tokenized separately; BERT's pre-tokenizer splits on whitespace, so this gives the
    same tokens as tokenizing the joined segment.

    Args:
        tokenizer: a WordPiece tokenizer (`tokenizer.json`); its own truncation/padding are disabled.
        max_length: max tokens per pair, special tokens included.
        input_format: the input format its callers render (`INPUT_FORMATS`): the model's.
        cls_token / sep_token / pad_token: the special tokens' strings.

    Raises:
        InputError: an input format this writegate does not render.
    """

    def __init__(
        self,
        tokenizer: Tokenizer,
        max_length: int = MAX_LENGTH,
        *,
        input_format: int = INPUT_FORMAT_VERSION,
        cls_token: str = "[CLS]",
        sep_token: str = "[SEP]",
        pad_token: str = "[PAD]",
    ) -> None:
        self.tokenizer = tokenizer
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self.max_length = max_length
        self.input_format = check_input_format(input_format)
        found = {t: tokenizer.token_to_id(t) for t in (cls_token, sep_token, pad_token)}
        missing = [t for t, i in found.items() if i is None]
        if missing:
            raise ValueError(f"tokenizer has no {', '.join(missing)} token")
        ids = {t: i for t, i in found.items() if i is not None}
        self.cls_id: int = ids[cls_token]
        self.sep_id: int = ids[sep_token]
        self.pad_id: int = ids[pad_token]
        self._pieces: OrderedDict[str, tuple[int, ...]] = OrderedDict()
        self._pieces_lock = threading.Lock()

    @classmethod
    def from_file(
        cls, path: str | Path, max_length: int = MAX_LENGTH, input_format: int = INPUT_FORMAT_VERSION
    ) -> PairEncoder:
        """Load `tokenizer.json` (special tokens from `special_tokens_map.json` beside it, if any)."""
        import json

        from tokenizers import Tokenizer

        path = Path(path)
        special: dict[str, str] = {}
        smap = path.parent / "special_tokens_map.json"
        if smap.is_file():
            raw = json.loads(smap.read_text(encoding="utf-8"))
            special = {
                k: (v["content"] if isinstance(v, dict) else v) for k, v in raw.items() if isinstance(v, (str, dict))
            }
        return cls(
            Tokenizer.from_file(str(path)),
            max_length,
            input_format=input_format,
            cls_token=special.get("cls_token", "[CLS]"),
            sep_token=special.get("sep_token", "[SEP]"),
            pad_token=special.get("pad_token", "[PAD]"),
        )

    def encode(self, texts: Sequence[PairText]) -> list[tuple[list[int], list[int]]]:
        """(input_ids, token_type_ids) per pair, each ≤ max_length tokens."""
        pieces: list[str] = []
        for t in texts:
            pieces.extend((t.a_head, t.a_text, t.b_head, t.b_text, t.b_tail))
        encs = self.piece_ids(pieces)
        out: list[tuple[list[int], list[int]]] = []
        for i in range(len(texts)):
            ids, n_a = self.assemble(*encs[5 * i : 5 * i + 5])
            out.append((ids, [0] * n_a + [1] * (len(ids) - n_a)))
        return out

    def assemble(
        self,
        a_head: Sequence[int],
        a_text: Sequence[int],
        b_head: Sequence[int],
        b_text: Sequence[int],
        b_tail: Sequence[int],
    ) -> tuple[list[int], int]:
        """One pair's token ids from its pieces' ids: `[CLS] A [SEP] B [SEP]`, ≤ max_length tokens.

        The headers and the structure tail are kept, the texts truncated longest-first.

        Returns:
            The ids and how many of them are segment A's (`[CLS] A [SEP]`: token type 0; the rest 1).
        """
        fixed = N_SPECIAL + len(a_head) + len(b_head) + len(b_tail)
        if fixed > self.max_length:  # pathological structure text: keep what fits of it
            b_tail = b_tail[: max(0, self.max_length - N_SPECIAL - len(a_head) - len(b_head))]
            fixed = N_SPECIAL + len(a_head) + len(b_head) + len(b_tail)
        keep_a, keep_b = split_budget(len(a_text), len(b_text), self.max_length - fixed)
        ids = [self.cls_id, *a_head, *a_text[:keep_a], self.sep_id, *b_head, *b_text[:keep_b], *b_tail, self.sep_id]
        n_a = min(keep_a + len(a_head) + 2, self.max_length)
        return ids[: self.max_length], n_a

    def piece_ids(self, pieces: Sequence[str]) -> list[tuple[int, ...]]:
        """Token ids of each piece (no special tokens), from a bounded LRU cache where possible.

        Candidate texts and date headers recur across writes, so most pieces of a PrepareWrite
        were tokenized before; the misses go to the tokenizer in one batch.
        """
        out: list[tuple[int, ...] | None] = [None] * len(pieces)
        misses: list[int] = []
        with self._pieces_lock:
            for i, piece in enumerate(pieces):
                ids = self._pieces.get(piece)
                if ids is None:
                    misses.append(i)
                else:
                    self._pieces.move_to_end(piece)
                    out[i] = ids
        if misses:
            encs = self.tokenizer.encode_batch([pieces[i] for i in misses], add_special_tokens=False)
            with self._pieces_lock:
                for i, enc in zip(misses, encs, strict=True):
                    out[i] = ids = tuple(enc.ids)
                    if len(pieces[i]) <= PIECE_CACHE_MAX_CHARS:
                        self._pieces[pieces[i]] = ids
                while len(self._pieces) > PIECE_CACHE_SIZE:
                    self._pieces.popitem(last=False)
        return out  # type: ignore[return-value]
