"""Open value pools for the pair generator: Faker-backed entities plus generated values.

Pools are drawn once per (seed) from several Faker locales, so names, companies and places are
open-ended rather than a closed list the model could memorise. Everything here is deterministic
for a seed.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from faker import Faker

from writegate.normalizer.clock import DAY_NAMES, MONTH_NAMES

LOCALES: tuple[str, ...] = ("en_US", "en_GB", "en_IN", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "en_AU")

# Faker's it_IT city() depends on PYTHONHASHSEED (set iteration), which would break determinism.
UNSTABLE_CITIES: frozenset[str] = frozenset({"it_IT"})

MONTHS: tuple[str, ...] = MONTH_NAMES
WEEKDAYS: tuple[str, ...] = DAY_NAMES[:5]


@dataclass(frozen=True)
class Person:
    """A person who can be a memory's subject or value."""

    first: str
    last: str
    gender: str  # "f" | "m"

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass
class Pools:
    """Entity pools drawn from Faker for one seed, plus a random source for generated values."""

    rng: random.Random
    people: list[Person] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    cities: list[str] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)
    jobs: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    fk: Faker = field(default_factory=Faker)

    def person(self) -> Person:
        return self.rng.choice(self.people)

    def other_person(self, *avoid: Person) -> Person:
        names = {p.first for p in avoid}
        while True:
            p = self.rng.choice(self.people)
            if p.first not in names:
                return p

    def company(self) -> str:
        return self.rng.choice(self.companies)

    def city(self) -> str:
        return self.rng.choice(self.cities)

    def country(self) -> str:
        return self.rng.choice(self.countries)

    def job(self) -> str:
        return self.rng.choice(self.jobs)

    def codename(self) -> str:
        """A project code name (capitalised Faker word)."""
        return self.rng.choice(self.words).capitalize()

    def pick(self, seq: list[str] | tuple[str, ...], *avoid: str) -> str:
        """A random item of `seq` that is not in `avoid`."""
        options = [x for x in seq if x not in avoid]
        return self.rng.choice(options)

    def pick_two(self, seq: list[str] | tuple[str, ...]) -> tuple[str, str]:
        """Two different items of `seq`: a random one, then another."""
        a = self.pick(seq)
        return a, self.pick(seq, a)

    def two_of(self, draw: Callable[[], str]) -> tuple[str, str]:
        """Two different values of `draw()` (the second drawn again until it differs)."""
        a, b = draw(), draw()
        while b == a:
            b = draw()
        return a, b

    def amount(self) -> int:
        """A round money amount between $1K and $5M."""
        base = self.rng.choice(
            (1, 2, 2.5, 3, 5, 7.5, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 80, 100, 120, 150, 200, 250, 300, 500)
        )
        scale = (
            self.rng.choice((1_000, 1_000, 1_000, 10_000, 100_000))
            if base < 10
            else self.rng.choice((1_000, 1_000, 10_000))
        )
        return int(base * scale)

    def other_amount(self, a: int) -> int:
        """A different amount of similar size (conflicts that differ only in a number)."""
        while True:
            b = int(a * self.rng.choice((0.25, 0.4, 0.5, 0.6, 0.75, 1.2, 1.25, 1.5, 2, 3, 4)))
            b = round_money(b)
            if b != a and b > 0:
                return b

    def date(self, start: int = 2018, end: int = 2026) -> dt.date:
        return dt.date(self.rng.randint(start, end), self.rng.randint(1, 12), self.rng.randint(1, 28))


def round_money(x: int) -> int:
    """Round an amount to two significant digits."""
    if x < 100:
        return max(x, 1)
    digits = len(str(x)) - 2
    return int(round(x / 10**digits) * 10**digits)


def money(x: int, rng: random.Random, currency: str = "$") -> str:
    """Render an amount in one of several styles: $50K, $50,000, 50k USD, $1.5M."""
    style = rng.randint(0, 3)
    if x >= 1_000_000 and style != 1:
        m = x / 1_000_000
        num = f"{m:g}"
        return rng.choice(
            (f"{currency}{num}M", f"{currency}{num} million", f"{num}M {'USD' if currency == '$' else currency}")
        )
    if style == 0 and x >= 1000 and x % 1000 == 0:
        return f"{currency}{x // 1000}K" if rng.random() < 0.6 else f"{currency}{x // 1000}k"
    if style == 1:
        return f"{currency}{x:,}"
    if style == 2 and x >= 1000 and x % 1000 == 0:
        return f"{x // 1000}k {'USD' if currency == '$' else currency}"
    return f"{currency}{x:,}"


def date_text(d: dt.date, rng: random.Random, with_year: bool | None = None) -> str:
    """Render a date in one of several human styles."""
    if with_year is None:
        with_year = rng.random() < 0.5
    m = MONTHS[d.month - 1]
    style = rng.randint(0, 3)
    if style == 0:
        s = f"{m} {d.day}"
    elif style == 1:
        s = f"{m[:3]} {d.day}"
    elif style == 2:
        s = f"{d.day} {m}"
    else:
        return d.isoformat() if with_year else f"{m} {d.day}"
    return f"{s}, {d.year}" if with_year and style != 2 else (f"{s} {d.year}" if with_year else s)


@lru_cache(maxsize=8)
def _faker_tables(
    seed: int,
) -> tuple[tuple[Person, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    people: dict[str, Person] = {}
    companies: set[str] = set()
    cities: set[str] = set()
    countries: set[str] = set()
    jobs: set[str] = set()
    words: set[str] = set()
    for i, loc in enumerate(LOCALES):
        fk = Faker(loc)
        fk.seed_instance(seed * 100 + i)
        for _ in range(160):
            for gender, fn in (("f", fk.first_name_female), ("m", fk.first_name_male)):
                p = Person(fn(), fk.last_name(), gender)
                if p.first.isalpha() and " " not in p.last:
                    people.setdefault(p.full, p)
        for _ in range(60):
            c = fk.company().split(",")[0]
            if len(c) <= 32:
                companies.add(c)
            if loc not in UNSTABLE_CITIES:
                cities.add(fk.city())
        if loc.startswith("en"):
            for _ in range(80):
                jobs.add(fk.job().split(",")[0])
                for w in (fk.word(), fk.color_name(), fk.last_name()):
                    if w.isalpha() and 4 <= len(w) <= 9:
                        words.add(w)
            for _ in range(120):
                countries.add(fk.country())
    countries = {c for c in countries if len(c) <= 24 and "(" not in c}
    return (
        tuple(sorted(people.values(), key=lambda p: p.full)),
        tuple(sorted(companies)),
        tuple(sorted(c for c in cities if len(c) <= 24 and c[0].isupper() and "'" not in c)),
        tuple(sorted(countries)),
        tuple(sorted(j for j in jobs if len(j) <= 36)),
        tuple(sorted(words)),
    )


def make_pools(seed: int) -> Pools:
    """Build the pools for a seed (Faker tables are cached per seed)."""
    people, companies, cities, countries, jobs, words = _faker_tables(seed)
    fk = Faker("en_US")
    fk.seed_instance(seed)
    return Pools(
        fk=fk,
        rng=random.Random(seed),
        people=list(people),
        companies=list(companies),
        cities=list(cities),
        countries=list(countries),
        jobs=list(jobs),
        words=list(words),
    )
