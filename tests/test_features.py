"""The classifier input format (classifier/features.py): gap words, structure text, truncation."""

from __future__ import annotations

from datetime import UTC, date, datetime, timezone

import pytest

from writegate.classifier import features
from writegate.classifier.features import PairEncoder, gap_days, gap_words, render, split_budget
from writegate.normalizer.compare import SlotComparison, ValueRelation


def _dt(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("existing", "new", "days", "words"),
    [
        ("2026-03-01", "2026-03-01", 0, "same day"),
        ("2026-03-01T23:00:00", "2026-03-02T01:00:00", 1, "1 day later"),
        ("2026-03-01", "2026-06-20", 111, "111 days later"),
        ("2026-03-02", "2026-03-01", -1, "1 day earlier"),
        ("2026-06-20", "2026-03-01", -111, "111 days earlier"),
    ],
    ids=["same-day", "one-day-across-midnight", "later", "one-day-earlier", "earlier"],
)
def test_gap(existing: str, new: str, days: int, words: str) -> None:
    assert gap_days(_dt(existing), _dt(new)) == days
    assert gap_words(days) == words


def test_gap_uses_utc_dates() -> None:
    from datetime import timedelta

    tz = timezone(timedelta(hours=-8))
    # 20:00 at UTC-8 is already the next UTC day
    assert gap_days(_dt("2026-03-02"), datetime(2026, 3, 1, 20, tzinfo=tz)) == 0


COMP = SlotComparison(
    same_slot=True, slot="edge.owned_by.account:acme", relation=ValueRelation.INCOMPATIBLE, single_valued=True
)


@pytest.mark.parametrize(
    ("comparison", "segment_b"),
    [
        (None, "new (2026-06-20, 111 days later): Acme was handed off to Marcus in June"),
        (
            COMP,
            "new (2026-06-20, 111 days later): Acme was handed off to Marcus in June "
            "[structure: same slot edge.owned_by.account:acme (single-valued): incompatible]",
        ),
    ],
    ids=["no-structure", "structure"],
)
def test_render_segments(comparison: SlotComparison | None, segment_b: str) -> None:
    text = render(
        "Michelle owns the  Acme account\n",
        _dt("2026-03-01"),
        "Acme was handed off to Marcus in June",
        _dt("2026-06-20"),
        comparison,
    )
    assert text.segments == ("existing (2026-03-01): Michelle owns the Acme account", segment_b)


@pytest.mark.parametrize(
    ("len_a", "len_b", "budget", "kept"),
    [
        (10, 10, 30, (10, 10)),
        (100, 10, 50, (40, 10)),
        (10, 100, 50, (10, 40)),
        (100, 90, 51, (26, 25)),
        (5, 5, 0, (0, 0)),
    ],
    ids=["fits", "a-long", "b-long", "both-long", "no-budget"],
)
def test_split_budget(len_a: int, len_b: int, budget: int, kept: tuple[int, int]) -> None:
    assert split_budget(len_a, len_b, budget) == kept


@pytest.fixture(scope="module")
def encoder(tiny_model_dir) -> PairEncoder:
    return PairEncoder.from_file(tiny_model_dir / "tokenizer.json", max_length=128)


def test_encoding_layout(encoder: PairEncoder) -> None:
    text = render("Michelle owns the Acme account", _dt("2026-03-01"), "Marcus owns it now", _dt("2026-03-05"), COMP)
    [(ids, types)] = encoder.encode([text])
    assert ids[0] == encoder.cls_id and ids[-1] == encoder.sep_id
    first_sep = ids.index(encoder.sep_id)
    assert types == [0] * (first_sep + 1) + [1] * (len(ids) - first_sep - 1)
    # pieces tokenized separately = the joined segments tokenized by the tokenizer itself
    a, b = text.segments
    joined = encoder.tokenizer.encode(a, b, add_special_tokens=False)
    assert ids == [
        encoder.cls_id,
        *joined.ids[: first_sep - 1],
        encoder.sep_id,
        *joined.ids[first_sep - 1 :],
        encoder.sep_id,
    ]


def test_truncation_keeps_headers_and_structure(encoder: PairEncoder) -> None:
    long_a = " ".join(["alpha"] * 300)
    long_b = " ".join(["omega"] * 300)
    text = render(long_a, _dt("2026-03-01"), long_b, _dt("2026-03-05"), COMP)
    [(ids, types)] = encoder.encode([text])
    assert len(ids) == len(types) == 128
    tail = encoder.tokenizer.encode(text.b_tail, add_special_tokens=False).ids
    head = encoder.tokenizer.encode(text.b_head, add_special_tokens=False).ids
    assert ids[-len(tail) - 1 : -1] == tail
    assert ids[ids.index(encoder.sep_id) + 1 :][: len(head)] == head
    n_a = ids.index(encoder.sep_id) - 1
    assert abs(n_a - (len(ids) - n_a - 3)) <= len(tail) + len(head) + 8  # longest-first: both sides kept


def test_short_pairs_are_not_padded(encoder: PairEncoder) -> None:
    text = render("likes tea", _dt("2026-03-01"), "likes coffee", _dt("2026-03-01"), None)
    [(ids, _)] = encoder.encode([text])
    assert len(ids) < 40 and encoder.pad_id not in ids


def test_piece_cache_gives_the_same_ids_and_stays_bounded(tiny_model_dir, monkeypatch) -> None:
    monkeypatch.setattr(features, "PIECE_CACHE_SIZE", 8)
    cached = PairEncoder.from_file(tiny_model_dir / "tokenizer.json", max_length=128)
    texts = [
        render(f"Michelle owns account {i}", _dt("2026-03-01"), "Marcus owns it now", _dt("2026-03-05"), COMP)
        for i in range(6)
    ]
    first = cached.encode(texts)
    again = cached.encode(list(reversed(texts)))  # served from the cache (mostly)
    assert again == list(reversed(first))
    assert len(cached._pieces) == 8  # 6 texts × 5 pieces, 10 distinct: trimmed to the bound
    fresh = PairEncoder.from_file(tiny_model_dir / "tokenizer.json", max_length=128)
    assert [fresh.encode([t])[0] for t in texts] == first


def test_piece_cache_skips_long_pieces(encoder: PairEncoder) -> None:
    long_text = "word " * (features.PIECE_CACHE_MAX_CHARS // 5 + 1)
    encoder.piece_ids([long_text, "short piece"])
    assert long_text not in encoder._pieces and "short piece" in encoder._pieces


def test_encoder_requires_special_tokens(tiny_model_dir) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tiny_model_dir / "tokenizer.json"))
    with pytest.raises(ValueError, match="no <cls> token"):
        PairEncoder(tok, cls_token="<cls>")


def test_compare_pair_reads_the_records_the_pair_carries() -> None:
    from writegate.classifier.types import Pair, Side
    from writegate.errors import MissingRecordsError
    from writegate.normalizer.api import normalize

    est = tuple(normalize("User works in EST", observed_at="2026-01-01"))
    london = tuple(normalize("User moved to London", observed_at="2026-02-01"))
    pair = Pair(
        existing=Side(text="User works in EST", observed_at="2026-01-01", records=est),
        new=Side(text="User moved to London", observed_at="2026-02-01", records=london),
    )
    assert features.compare_pair(pair) == SlotComparison(
        same_slot=True, slot="timezone", relation=ValueRelation.INCOMPATIBLE
    )
    # the records decide, not the text: the same texts with records of no shared slot compare to nothing
    text_only = tuple(normalize("likes tea", observed_at="2026-02-01"))
    assert (
        features.compare_pair(pair.model_copy(update={"new": pair.new.model_copy(update={"records": text_only})}))
        is None
    )
    with pytest.raises(MissingRecordsError, match=r"^pair\.new\.records: missing"):
        features.compare_pair(
            pair.model_copy(update={"new": Side(text="User moved to London", observed_at="2026-02-01")})
        )


def test_input_format_version_is_positive() -> None:
    assert features.INPUT_FORMAT_VERSION in features.INPUT_FORMATS and features.MAX_LENGTH == 128


def test_format_2_says_the_month_and_the_gap() -> None:
    text = render("Michelle owns the Acme account", _dt("2026-03-01"), "Marcus owns it", _dt("2026-06-20"), COMP, 2)
    assert text.segments == (
        "March 2026: Michelle owns the Acme account",
        "June 2026, 111 days later: Marcus owns it "
        "[structure: same slot edge.owned_by.account:acme (single-valued): incompatible]",
    )
    assert features.new_head(date(2026, 1, 2), -3, 2) == "January 2026, 3 days earlier:"
    assert features.existing_head(date(1, 12, 31), 2) == "December 1:"


def test_format_2_halves_the_header_tokens() -> None:
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[1] / "models" / "default" / "tokenizer.json"
    tok = PairEncoder.from_file(shipped).tokenizer  # padding off

    def n(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids)

    day, new_day = date(2026, 3, 1), date(2026, 6, 20)
    v1 = n(features.existing_head(day, 1)) + n(features.new_head(new_day, 111, 1))
    v2 = n(features.existing_head(day, 2)) + n(features.new_head(new_day, 111, 2))
    assert (v1, v2) == (24, 12)


@pytest.mark.parametrize("version", [0, 3])
def test_an_unknown_input_format_is_refused_by_name(version: int, tiny_model_dir) -> None:
    from writegate.errors import InputError

    with pytest.raises(
        InputError, match=rf"^input_format: input format {version} is not one this writegate renders \(1, 2\)"
    ):
        features.existing_head(date(2026, 3, 1), version)
    with pytest.raises(InputError, match=rf"input format {version} is not one"):
        PairEncoder.from_file(tiny_model_dir / "tokenizer.json", 128, version)
