"""Personal domains: diet, family, vehicles, immutable facts (birthday, birthplace, graduation,
citizenship), multi-valued attributes (pets, hobbies, languages spoken, teams, allergies) and
long-tail relations ("X's R is Y")."""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.dom_work import TEAMS
from writegate.training.data.pools import MONTHS, Pools, date_text

DIETS = ("vegetarian", "vegan", "pescatarian", "gluten-free", "keto", "halal", "kosher", "dairy-free")


def s_diet(p: Pools) -> Ctx:
    a = p.pick(DIETS)
    b = p.pick(DIETS, a, *(("vegan",) if a == "vegetarian" else ()), *(("vegetarian",) if a == "vegan" else ()))
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(),
               extra={"why": p.pick(("for health reasons", "since college", "for ethical reasons", "on doctor's orders")),
                      "food": p.pick(("eggs", "fish on Fridays", "cheese", "rice dishes", "spicy food"))})


DIET = Domain(
    slot="diet",
    kind="single",
    sample=s_diet,
    state=(
        "{S} [be] {v}.",
        "{S} [eat] {v}.",
        "{P} diet: {v}",
        "{S} [keep] a {v} diet.",
        "Order {v} food for {O}.",
        "Dietary note for {O}: {v}",
        "{S} [follow] a {v} diet.",
    ),
    change=(
        "!{S} went {v} in {month}.",
        "{S} [be] {v} now.",
        "{S} switched to a {v} diet.",
        "{S} started eating {v} this year.",
    ),
    stop=("{S} [isn't] {old} anymore; {pr} [be] {v} now.", "{S} gave up being {old} and [eat] {v}."),
    neg=("{S} has never been {old}.", "{S} [isn't] {old} — wrong person.", "{S} [eat] everything, not {old}."),
    elab=("{S} [be] {v} {why}.", "{S} [be] {v} but [eat] {food}.", "{S} [eat] {v} and [prefer] {food}.", "{S} [be] {v} and [don't] drink alcohol."),
    general=("{S} [have] dietary restrictions.", "{S} [be] picky about food."),
    negre=("Don't order {O} anything that isn't {v}.", "No non-{v} options for {O}."),
)


def s_family(p: Pools) -> Ctx:
    rel = p.pick(("wife", "husband", "partner"))
    want = {"wife": "f", "husband": "m"}.get(rel)
    a = p.person()
    while want and a.gender != want:
        a = p.person()
    b = p.other_person(a)
    while want and b.gender != want:
        b = p.other_person(a)
    return Ctx({"rel": rel}, {"v": a.first}, {"v": b.first}, person=p.person(),
               extra={"job": p.job().lower(), "yrs": str(p.rng.randint(2, 20)), "kid": p.person().first})


FAMILY = Domain(
    slot="family",
    kind="single",
    sample=s_family,
    state=(
        "{P} {rel} is {v}.",
        "{S} [be] married to {v}.",
        "{S} [live] with {pp} {rel} {v}.",
        "{P} {rel}'s name is {v}.",
        "{v} is {P} {rel}.",
        "Q: who is {P} {rel}? A: {v}",
    ),
    change=(
        "{S} remarried; {pp} {rel} is {v} now.",
        "{S} and {old} split up — {pr} [be] with {v} now.",
        "{S} got engaged to {v} after splitting with {old}.",
    ),
    neg=("{S} [isn't] married to {old}, {old} is {pp} cousin.", "{S} has never been married.", "{S} never had a {rel} named {old}."),
    elab=("{P} {rel} {v} is a {job}.", "{S} [have] been with {v} for {yrs} years.", "{P} {rel} is {v}; their kid is {kid}."),
    general=("{S} [be] married.", "{S} [have] a {rel}."),
)

CARS = ("Tesla Model 3", "Honda Civic", "Toyota Prius", "Subaru Outback", "Ford F-150", "VW Golf", "BMW 3 Series",
        "Mazda CX-5", "Volvo XC60", "Kia EV6", "Jeep Wrangler", "Hyundai Ioniq 5", "Toyota RAV4")


def s_vehicle(p: Pools) -> Ctx:
    a = p.pick(CARS)
    b = p.pick(CARS, a)
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(),
               extra={"col": p.pick(("blue", "white", "black", "red", "silver", "grey")), "yr": str(p.rng.randint(2008, 2025))})


VEHICLE = Domain(
    slot="vehicle",
    kind="single",
    sample=s_vehicle,
    state=(
        "{S} [drive] a {v}.",
        "{P} car is a {v}.",
        "{S} [get] around in a {v}.",
        "Car: {v}",
        "{S} [own] a {v}.",
        "{S} [commute] in {pp} {v}.",
    ),
    change=(
        "!{S} traded in the {old} for a {v}.",
        "{S} bought a {v} and sold the {old}.",
        "{S} [drive] a {v} now.",
        "{S} replaced {pp} car with a {v}.",
    ),
    neg=("{S} has never owned a {old}.", "{S} [don't] drive at all.", "{S} [don't] have a car."),
    elab=("{S} [drive] a {col} {v}.", "{S} [drive] a {yr} {v}.", "{S} [own] a {v} and [park] it in the garage."),
    general=("{S} [have] a car.", "{S} [drive] to work."),
    negre=("{S} never [take] the train; {pr} [drive] the {v}.", "{S} [don't] need a ride — {pr} [have] the {v}."),
)


def _uni(p: Pools) -> str:
    c = p.city()
    return p.rng.choice((f"the University of {c}", f"{c} State", f"{c} Institute of Technology", f"{c} College"))


def s_grad(p: Pools) -> Ctx:
    y = p.rng.randint(1985, 2022)
    y2 = y + p.rng.choice((-4, -3, -2, -1, 1, 2, 3, 5))
    return Ctx({"uni": _uni(p)}, {"v": str(y)}, {"v": str(y2)}, person=p.person(),
               extra={"deg": p.pick(("computer science", "economics", "history", "biology", "mechanical engineering", "an MBA", "physics"))})


GRAD = Domain(
    slot="graduation_year",
    kind="immutable",
    sample=s_grad,
    state=(
        "{S} graduated from {uni} in {v}.",
        "{S} finished at {uni} in {v}.",
        "Class of {v}, {uni}.",
        "{P} graduation year: {v}",
        "{S} got {pp} degree from {uni} in {v}.",
        "Q: when did {S} graduate? A: {v}",
    ),
    neg=("{S} never graduated from {uni}.", "{S} didn't finish at {uni}.", "{S} never attended {uni}."),
    elab=("{S} graduated from {uni} in {v} with a degree in {deg}.", "{S} finished {uni} in {v}, studying {deg}."),
    general=("{S} [have] a degree from {uni}.", "{S} went to {uni}.", "{S} studied at {uni}."),
)


def s_bday(p: Pools) -> Ctx:
    d = p.date(1960, 2000)
    d2 = d + dt.timedelta(days=p.rng.choice((-30, -7, -3, -1, 1, 2, 5, 10, 31, 60)))
    return Ctx({}, {"v": date_text(d, p.rng, with_year=False), "m": MONTHS[d.month - 1]},
               {"v": date_text(d2, p.rng, with_year=False), "m": MONTHS[d2.month - 1]}, person=p.person(),
               extra={"yr": str(d.year), "cake": p.pick(("chocolate cake", "no fuss", "a team lunch", "carrot cake"))})


BIRTHDAY = Domain(
    slot="birthday",
    kind="immutable",
    sample=s_bday,
    state=(
        "{P} birthday is {v}.",
        "{S} was born on {v}.",
        "Birthday: {v}",
        "{S} [celebrate] {pp} birthday on {v}.",
        "Q: when is {P} birthday? A: {v}",
        "{v} is {P} birthday.",
    ),
    neg=("{P} birthday isn't {old}.", "{S} wasn't born on {old}, that's {pp} sister's birthday."),
    elab=("{P} birthday is {v}; {pr} [like] {cake}.", "{S} was born on {v}, {yr}.", "{P} birthday is {v}, so plan something that week."),
    general=("{P} birthday is in {m}.", "{S} [be] a {m} baby.", "{S} [have] a birthday in {m}."),
)


def s_birthplace(p: Pools) -> Ctx:
    a, b = p.city(), p.city()
    while b == a:
        b = p.city()
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(), extra={"age": str(p.rng.randint(3, 18)), "ctry": p.country()})


BIRTHPLACE = Domain(
    slot="birthplace",
    kind="immutable",
    sample=s_birthplace,
    state=(
        "{S} was born in {v}.",
        "{P} hometown is {v}.",
        "Birthplace: {v}",
        "{S} [be] originally from {v}.",
        "{S} [come] from {v}, where {pr} was born.",
        "Q: where was {S} born? A: {v}",
    ),
    neg=("{S} wasn't born in {old}.", "{S} has never even been to {old}."),
    elab=("{S} was born in {v} and moved away at {age}.", "{S} was born in {v}, in {ctry}.", "{S} [be] from {v} and still [visit] family there."),
    general=("{S} grew up abroad.", "{S} was born outside the city {pr} [live] in now."),
)


def s_citizen(p: Pools) -> Ctx:
    a, b = p.country(), p.country()
    while b == a:
        b = p.country()
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(), extra={"yr": str(p.rng.randint(1990, 2024))})


CITIZEN = Domain(
    slot="citizenship",
    kind="immutable",
    sample=s_citizen,
    state=(
        "{S} [be] a citizen of {v}.",
        "{P} citizenship: {v}",
        "{S} [hold] a {v} passport.",
        "{S} [be] a {v} national.",
        "Nationality of {O}: {v}",
    ),
    neg=("{S} has never been a citizen of {old}.", "{S} [don't] hold a {old} passport."),
    elab=("{S} [be] a citizen of {v} and renewed {pp} passport in {yr}.", "{S} [hold] {v} citizenship, so visas are rarely an issue."),
    general=("{S} [be] not a local citizen.", "{S} [have] a foreign passport."),
)


# ---------------------------------------------------------------- multi-valued

PETS = ("a dog", "a cat", "a parrot", "two cats", "a rabbit", "a hamster", "a tortoise", "a golden retriever", "a beagle", "fish")


def s_pets(p: Pools) -> Ctx:
    a = p.pick(PETS)
    c = p.pick(PETS, a)
    nm = p.rng.choice(("Biscuit", "Luna", "Max", "Pepper", "Milo", "Nala", "Olive", p.person().first))
    return Ctx({}, {"v": a, "nm": nm}, {"v": c, "nm": nm}, C={"v": c}, person=p.person(),
               extra={"age": str(p.rng.randint(1, 14))})


PETSD = Domain(
    slot="pets",
    kind="multi",
    sample=s_pets,
    state=(
        "{S} [have] {v}.",
        "{S} [own] {v}.",
        "Pets: {v}",
        "{S} [live] with {v}.",
        "{S} [be] the owner of {v}.",
    ),
    stop=("{S} rehomed {old} last month.", "{S} no longer [have] {old}; it passed away.", "{S} gave {old} to {pp} parents."),
    neg=("{S} [don't] have any pets.", "{S} has never owned {old}.", "{S} [be] allergic to animals and [have] no pets."),
    elab=("{S} [have] {v} named {nm}.", "{S} [have] {v}, {age} years old.", "{S} [have] {v} that {pr} [walk] every morning.", "{S} [have] {v}, though not in the office."),
    general=("{S} [have] a pet.", "{S} [be] an animal person."),
    also=("{S} also [have] {v}.", "{S} [have] {v} too.", "{S} got {v} as well.", "In addition to {old}, {S} [have] {v}."),
)

HOBBIES = ("rock climbing", "pottery", "chess", "running", "baking", "photography", "gardening", "sailing", "woodworking",
           "painting", "cycling", "birdwatching", "knitting", "surfing", "yoga", "board games")


def s_hobby(p: Pools) -> Ctx:
    a = p.pick(HOBBIES)
    c = p.pick(HOBBIES, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"where": p.city(), "freq": p.pick(("on weekends", "twice a week", "every Sunday", "most evenings"))})


HOBBY = Domain(
    slot="hobbies",
    kind="multi",
    sample=s_hobby,
    state=(
        "{S} [enjoy] {v}.",
        "{S} [be] into {v}.",
        "Hobby: {v}",
        "{S} [love] {v}.",
        "{S} [spend] free time on {v}.",
        "{P} hobby is {v}.",
    ),
    stop=("{S} gave up {old}.", "{S} [don't] do {old} anymore after the injury.", "{S} quit {old} last year."),
    neg=("{S} has never done {old}.", "{S} [hate] {old}, actually."),
    elab=("{S} [enjoy] {v} {freq}.", "{S} [do] {v} at a club in {where}.", "{S} [be] into {v} and [compete] sometimes.", "{S} [enjoy] {v}, though not competitively."),
    general=("{S} [have] a few hobbies.", "{S} [like] to keep busy outside work."),
    also=("{S} also [enjoy] {v}.", "{S} [be] into {v} too.", "{S} recently picked up {v} as well.", "Besides {old}, {S} [like] {v}."),
)


def s_spoken(p: Pools) -> Ctx:
    from writegate.training.data.dom_prefs import LANGS

    a = p.pick(LANGS)
    c = p.pick(LANGS, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"lvl": p.pick(("fluently", "at a basic level", "natively", "conversationally"))})


SPOKEN = Domain(
    slot="languages_spoken",
    kind="multi",
    sample=s_spoken,
    state=(
        "{S} [speak] {v}.",
        "{S} [be] fluent in {v}.",
        "Languages: {v}",
        "{S} [can] work in {v}.",
        "{S} [know] {v}.",
    ),
    neg=("{S} [don't] speak any {old}.", "{S} has never learned {old}.", "{S} [can't] speak {old} at all."),
    elab=("{S} [speak] {v} {lvl}.", "{S} [speak] {v}, learned at home."),
    general=("{S} [be] multilingual.", "{S} [speak] more than one language."),
    also=("{S} also [speak] {v}.", "{S} [speak] some {v} too.", "{S} [be] learning {v} as well.", "On top of {old}, {S} [know] {v}."),
)


def s_teams(p: Pools) -> Ctx:
    a = p.pick(TEAMS)
    c = p.pick(TEAMS, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"lead": p.person().first, "wd": p.pick(("Mondays", "Thursdays", "Fridays"))})


TEAMSD = Domain(
    slot="teams",
    kind="multi",
    sample=s_teams,
    state=(
        "{S} [be] on the {v} team.",
        "{S} [be] a member of {v}.",
        "Teams: {v}",
        "{S} [sit] with the {v} group.",
        "{S} [work] with the {v} squad.",
    ),
    stop=("!{S} left the {old} team.", "{S} [be] no longer part of {old}.", "{S} rolled off the {old} team in {month}."),
    neg=("{S} has never been on {old}.", "{S} [isn't] on the {old} team — wrong person."),
    elab=("{S} [be] on the {v} team, led by {lead}.", "{S} [be] on the {v} team and [join] their standup on {wd}.", "{S} [be] on the {v} team but [isn't] in their on-call rotation."),
    general=("{S} [be] on a couple of teams.", "{S} [work] across teams."),
    also=("{S} also joined the {v} team.", "{S} [be] on {v} too.", "{S} [have] been added to the {v} team as well.", "Besides {old}, {S} [sit] in on {v}."),
)

ALLERGIES = ("peanuts", "shellfish", "gluten", "dairy", "penicillin", "cats", "pollen", "tree nuts", "latex", "eggs", "bee stings")


def s_allergy(p: Pools) -> Ctx:
    a = p.pick(ALLERGIES)
    c = p.pick(ALLERGIES, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"sev": p.pick(("severely", "mildly", "badly")), "pen": p.pick(("carries an EpiPen", "takes antihistamines"))})


ALLERGY = Domain(
    slot="allergies",
    kind="multi",
    sample=s_allergy,
    state=(
        "{S} [be] allergic to {v}.",
        "Allergy: {v}",
        "{S} [have] a {v} allergy.",
        "{S} [react] badly to {v}.",
        "Keep {v} away from {O} — allergy.",
    ),
    neg=("{S} [isn't] allergic to {old}.", "{S} [have] no allergies at all.", "{S} never had a {old} allergy."),
    elab=("{S} [be] {sev} allergic to {v}.", "{S} [be] allergic to {v} and {pen}."),
    general=("{S} [have] a food allergy.", "{S} [have] allergies."),
    negre=("No {v} for {O}.", "Don't serve {O} anything with {v}.", "{S} can never have {v}."),
    also=("{S} [be] also allergic to {v}.", "{S} [have] a {v} allergy too.", "Besides {old}, {S} [react] to {v}."),
)

# ---------------------------------------------------------------- long tail

RELS = ("coach", "captain", "CEO", "landlord", "dentist", "accountant", "agent", "lawyer", "mentor", "sponsor",
        "editor", "advisor", "doctor", "tutor", "publisher", "manager")


def s_rel(p: Pools) -> Ctx:
    a = p.person()
    b = p.other_person(a)
    x = p.rng.random()
    subj = p.person().full if x < 0.4 else (p.company() if x < 0.7 else f"the {p.city()} {p.pick(('Rovers', 'Hawks', 'United', 'Lions', 'FC', 'Tigers'))}")
    return Ctx({"X": subj, "R": p.pick(RELS)}, {"v": a.full if p.rng.random() < 0.6 else a.first}, {"v": b.full if p.rng.random() < 0.6 else b.first},
               person=a, other_base={"X": p.person().full, "R": p.pick(RELS)},
               extra={"yr": str(p.rng.randint(2005, 2026)), "since": str(p.rng.randint(2005, 2024))})


LONGTAIL = Domain(
    free_values=True,
    slot="relation",
    kind="single",
    sample=s_rel,
    person_subject=False,
    state=(
        "{X}'s {R} is {v}.",
        "The {R} of {X} is {v}.",
        "{v} is the {R} for {X}.",
        "As of <YR>: who is {X}'s {R}? {v}",
        "{X} — {R}: {v}",
        "{v} serves as {X}'s {R}.",
        "Q: {X}'s {R}? A: {v}",
        "{X} has {v} as their {R}.",
    ),
    change=(
        "!{v} replaced {old} as {X}'s {R}.",
        "{X} has a new {R}: {v}.",
        "{X} hired {v} as {R} after {old} left.",
        "{old} stepped down; {v} is now {X}'s {R}.",
    ),
    neg=("{old} has never been {X}'s {R}.", "{X} doesn't have a {R}.", "{old} was never the {R} of {X}."),
    elab=("{X}'s {R} is {v}, since {since}.", "{v} is {X}'s {R} and also handles contracts."),
    general=("{X} has a {R}.", "{X} works with a {R}."),
)

DOMAINS: tuple[Domain, ...] = (DIET, FAMILY, VEHICLE, GRAD, BIRTHDAY, BIRTHPLACE, CITIZEN, PETSD, HOBBY, SPOKEN, TEAMSD, ALLERGY, LONGTAIL)
