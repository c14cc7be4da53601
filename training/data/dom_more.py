"""Value samplers of the instrument, certification and visited-country slots (accumulating) and
the native-language, start-year, wedding-date and high-school slots (cannot change).

Their phrasings are in ``phrases/more.toml``.
"""

from __future__ import annotations

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.phrasebook import domains
from writegate.training.data.pools import Pools

INSTRUMENTS = (
    "the piano",
    "the guitar",
    "the violin",
    "the drums",
    "the cello",
    "the saxophone",
    "the flute",
    "the ukulele",
    "the bass",
    "the trumpet",
    "the harmonica",
    "the accordion",
)


def s_instrument(p: Pools) -> Ctx:
    a, c = p.pick_two(INSTRUMENTS)
    return Ctx.of(
        {}, a, c, p.person(), {"band": p.codename(), "yrs": str(p.rng.randint(2, 30)), "where": p.city()}, added=True
    )


CERTS = (
    "AWS Solutions Architect",
    "PMP",
    "CISSP",
    "Google Cloud Professional",
    "Scrum Master",
    "CPA",
    "CFA Level II",
    "Kubernetes CKA",
    "Six Sigma Green Belt",
    "ITIL Foundation",
    "Azure Administrator",
    "Terraform Associate",
)


def s_cert(p: Pools) -> Ctx:
    a, c = p.pick_two(CERTS)
    return Ctx.of({}, a, c, p.person(), {"yr": str(p.rng.randint(2012, 2026)), "co": p.company()}, added=True)


def s_visited(p: Pools) -> Ctx:
    a, c = p.two_of(p.country)
    return Ctx.of({}, a, c, p.person(), {"yr": str(p.rng.randint(2005, 2026)), "city": p.city()}, added=True)


def s_native(p: Pools) -> Ctx:
    from writegate.training.data.dom_prefs import LANGS

    a, b = p.pick_two(LANGS)
    return Ctx.of({}, a, b, p.person(), {"ctry": p.country()})


def s_joined(p: Pools) -> Ctx:
    y = p.rng.randint(2005, 2025)
    y2 = y + p.rng.choice((-3, -2, -1, 1, 2, 3))
    return Ctx.of(
        {"co": p.company()},
        str(y),
        str(y2),
        p.person(),
        {"team": p.pick(("sales", "support", "platform", "finance", "design", "research")), "mgr": p.person().first},
    )


def s_wedding(p: Pools) -> Ctx:
    import datetime as dt

    from writegate.training.data.pools import date_text

    d = p.date(2000, 2024)
    d2 = d + dt.timedelta(days=p.rng.choice((-400, -365, -30, -7, -2, 2, 7, 30, 365, 400)))
    return Ctx.of(
        {},
        date_text(d, p.rng, True),
        date_text(d2, p.rng, True),
        p.person(),
        {"place": p.city(), "sp": p.person().first},
    )


def s_school(p: Pools) -> Ctx:
    a, b = p.two_of(p.city)
    return Ctx.of({}, a, b, p.person(), {"yr": str(p.rng.randint(1980, 2015))})


SAMPLERS = {
    "instruments": s_instrument,
    "certifications": s_cert,
    "countries_visited": s_visited,
    "native_language": s_native,
    "start_year": s_joined,
    "wedding_date": s_wedding,
    "high_school": s_school,
}
DOMAINS: tuple[Domain, ...] = domains("more", SAMPLERS)
