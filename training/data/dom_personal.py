"""Value samplers of the personal slots: diet, family, vehicle, immutable facts (birthday,
birthplace, graduation, citizenship), multi-valued attributes (pets, hobbies, languages spoken,
teams, allergies) and long-tail relations ("X's R is Y").

Their phrasings are in ``phrases/personal.toml``.
"""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.dom_work import TEAMS
from writegate.training.data.phrasebook import domains
from writegate.training.data.pools import MONTHS, Pools, date_text

DIETS = ("vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "halal", "kosher", "dairy-free")


def s_diet(p: Pools) -> Ctx:
    a = p.pick(DIETS)
    b = p.pick(DIETS, a, *(("vegan",) if a == "vegetarian" else ()), *(("vegetarian",) if a == "vegan" else ()))
    why = ("for health reasons", "since college", "for ethical reasons", "on doctor's orders")
    food = ("eggs", "fish on Fridays", "cheese", "rice dishes", "spicy food")
    return Ctx.of({}, a, b, p.person(), {"why": p.pick(why), "food": p.pick(food)})


def s_family(p: Pools) -> Ctx:
    rel = p.pick(("wife", "husband", "partner"))
    want = {"wife": "f", "husband": "m"}.get(rel)
    a = p.person()
    while want and a.gender != want:
        a = p.person()
    b = p.other_person(a)
    while want and b.gender != want:
        b = p.other_person(a)
    return Ctx.of(
        {"rel": rel},
        a.first,
        b.first,
        p.person(),
        {"job": p.job().lower(), "yrs": str(p.rng.randint(2, 20)), "kid": p.person().first},
    )


CARS = (
    "Tesla Model 3",
    "Honda Civic",
    "Toyota Prius",
    "Subaru Outback",
    "Ford F-150",
    "VW Golf",
    "BMW 3 Series",
    "Mazda CX-5",
    "Volvo XC60",
    "Kia EV6",
    "Jeep Wrangler",
    "Hyundai Ioniq 5",
    "Toyota RAV4",
)


def s_vehicle(p: Pools) -> Ctx:
    a, b = p.pick_two(CARS)
    colour = ("blue", "white", "black", "red", "silver", "grey")
    return Ctx.of({}, a, b, p.person(), {"col": p.pick(colour), "yr": str(p.rng.randint(2008, 2025))})


def _uni(p: Pools) -> str:
    c = p.city()
    return p.rng.choice((f"the University of {c}", f"{c} State", f"{c} Institute of Technology", f"{c} College"))


def s_grad(p: Pools) -> Ctx:
    y = p.rng.randint(1985, 2022)
    y2 = y + p.rng.choice((-4, -3, -2, -1, 1, 2, 3, 5))
    degrees = ("computer science", "economics", "history", "biology", "mechanical engineering", "an MBA", "physics")
    return Ctx.of({"uni": _uni(p)}, str(y), str(y2), p.person(), {"deg": p.pick(degrees)})


def s_bday(p: Pools) -> Ctx:
    d = p.date(1960, 2000)
    d2 = d + dt.timedelta(days=p.rng.choice((-30, -7, -3, -1, 1, 2, 5, 10, 31, 60)))
    return Ctx(
        {},
        {"v": date_text(d, p.rng, with_year=False), "m": MONTHS[d.month - 1]},
        {"v": date_text(d2, p.rng, with_year=False), "m": MONTHS[d2.month - 1]},
        person=p.person(),
        extra={"yr": str(d.year), "cake": p.pick(("chocolate cake", "no fuss", "a team lunch", "carrot cake"))},
    )


def s_birthplace(p: Pools) -> Ctx:
    a, b = p.two_of(p.city)
    return Ctx.of({}, a, b, p.person(), {"age": str(p.rng.randint(3, 18)), "ctry": p.country()})


def s_citizen(p: Pools) -> Ctx:
    a, b = p.two_of(p.country)
    return Ctx.of({}, a, b, p.person(), {"yr": str(p.rng.randint(1990, 2024))})


# ---------------------------------------------------------------- multi-valued

PETS = (
    "a dog",
    "a cat",
    "a parrot",
    "two cats",
    "a rabbit",
    "a hamster",
    "a tortoise",
    "a golden retriever",
    "a beagle",
    "fish",
)


def s_pets(p: Pools) -> Ctx:
    a, c = p.pick_two(PETS)
    nm = p.rng.choice(("Biscuit", "Luna", "Max", "Pepper", "Milo", "Nala", "Olive", p.person().first))
    return Ctx(
        {},
        {"v": a, "nm": nm},
        {"v": c, "nm": nm},
        C={"v": c},
        person=p.person(),
        extra={"age": str(p.rng.randint(1, 14))},
    )


HOBBIES = (
    "rock climbing",
    "pottery",
    "chess",
    "running",
    "baking",
    "photography",
    "gardening",
    "sailing",
    "woodworking",
    "painting",
    "cycling",
    "birdwatching",
    "knitting",
    "surfing",
    "yoga",
    "board games",
)


def s_hobby(p: Pools) -> Ctx:
    a, c = p.pick_two(HOBBIES)
    often = ("on weekends", "twice a week", "every Sunday", "most evenings")
    return Ctx.of({}, a, c, p.person(), {"where": p.city(), "freq": p.pick(often)}, added=True)


def s_spoken(p: Pools) -> Ctx:
    from writegate.training.data.dom_prefs import LANGS

    a, c = p.pick_two(LANGS)
    level = ("fluently", "at a basic level", "natively", "conversationally")
    return Ctx.of({}, a, c, p.person(), {"lvl": p.pick(level)}, added=True)


def s_teams(p: Pools) -> Ctx:
    a, c = p.pick_two(TEAMS)
    days = ("Mondays", "Thursdays", "Fridays")
    return Ctx.of({}, a, c, p.person(), {"lead": p.person().first, "wd": p.pick(days)}, added=True)


ALLERGIES = (
    "peanuts",
    "shellfish",
    "gluten",
    "dairy",
    "penicillin",
    "cats",
    "pollen",
    "tree nuts",
    "latex",
    "eggs",
    "bee stings",
)


def s_allergy(p: Pools) -> Ctx:
    a, c = p.pick_two(ALLERGIES)
    severity, remedy = ("severely", "mildly", "badly"), ("carries an EpiPen", "takes antihistamines")
    return Ctx.of({}, a, c, p.person(), {"sev": p.pick(severity), "pen": p.pick(remedy)}, added=True)


# ---------------------------------------------------------------- long tail

RELS = (
    "coach",
    "captain",
    "CEO",
    "landlord",
    "dentist",
    "accountant",
    "agent",
    "lawyer",
    "mentor",
    "sponsor",
    "editor",
    "advisor",
    "doctor",
    "tutor",
    "publisher",
    "manager",
)


def s_rel(p: Pools) -> Ctx:
    a = p.person()
    b = p.other_person(a)
    x = p.rng.random()
    subj = (
        p.person().full
        if x < 0.4
        else (
            p.company()
            if x < 0.7
            else f"the {p.city()} {p.pick(('Rovers', 'Hawks', 'United', 'Lions', 'FC', 'Tigers'))}"
        )
    )
    return Ctx(
        {"X": subj, "R": p.pick(RELS)},
        {"v": a.full if p.rng.random() < 0.6 else a.first},
        {"v": b.full if p.rng.random() < 0.6 else b.first},
        person=a,
        other_base={"X": p.person().full, "R": p.pick(RELS)},
        extra={"yr": str(p.rng.randint(2005, 2026)), "since": str(p.rng.randint(2005, 2024))},
    )


SAMPLERS = {
    "diet": s_diet,
    "family": s_family,
    "vehicle": s_vehicle,
    "graduation_year": s_grad,
    "birthday": s_bday,
    "birthplace": s_birthplace,
    "citizenship": s_citizen,
    "pets": s_pets,
    "hobbies": s_hobby,
    "languages_spoken": s_spoken,
    "teams": s_teams,
    "allergies": s_allergy,
    "relation": s_rel,
}
DOMAINS: tuple[Domain, ...] = domains("personal", SAMPLERS)
