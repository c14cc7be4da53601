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
        "~{v} is how {S} [eat].",
        "~Food-wise, {S} [be] {v}.",
        "~Q: any dietary needs for {O}? A: {v}",
        "~{S} [stick] to {v} food.",
        "~lunch orders for {O} should be {v}",
        "~Everything {S} [eat] has to be {v}.",
        "~Meal preference ({O}): {v}",
        "~When booking team dinners, pick {v} options for {O}.",
    ),
    change=(
        "!{S} went {v} in {month}.",
        "{S} [be] {v} now.",
        "{S} switched to a {v} diet.",
        "{S} started eating {v} this year.",
        "~{S} made the switch from {old} to {v}.",
        "~{old} didn't work out, so {S} went {v}.",
        "~{S} [have] moved over to a {v} diet.",
        "~{S} [eat] {v} now instead of {old}.",
        "~New diet for {O}: {v} (was {old}).",
        "~In {month} {S} dropped {old} and became {v}.",
    ),
    stop=(
        "{S} [isn't] {old} anymore; {pr} [be] {v} now.", "{S} gave up being {old} and [eat] {v}.",
        "~{S} [be] done with {old} — {v} from here on.",
        "~No more {old} for {O}; {pr} [be] {v} now.",
        "~{S} stopped being {old} and [be] {v} these days.",
        "~{S} quit {old} in {month} — {v} since then.",
        "~{S} [have] dropped the {old} diet and [follow] a {v} one instead.",
    ),
    neg=(
        "{S} has never been {old}.", "{S} [isn't] {old} — wrong person.", "{S} [eat] everything, not {old}.",
        "~{S} was never {old} — that's a mix-up.",
        "~{old}? Not {O}; {pr} [eat] anything.",
        "~{S} [have] never followed a {old} diet.",
        "~The {old} note is wrong — {S} [have] no dietary restrictions.",
        "~{S} [isn't] and never was {old}.",
    ),
    elab=(
        "{S} [be] {v} {why}.", "{S} [be] {v} but [eat] {food}.", "{S} [eat] {v} and [prefer] {food}.", "{S} [be] {v} and [don't] drink alcohol.",
        "~{S} [be] {v} {why} and [bring] {pp} own lunch to offsites.",
        "~{P} diet is {v}; {pr} [cook] most meals at home.",
        "~{S} [be] {v} — {why}, not as a fad.",
        "~{S} [keep] {v} at home and at restaurants alike, {why}.",
        "~{S} [be] {v} and [avoid] caffeine too.",
    ),
    general=(
        "{S} [have] dietary restrictions.", "{S} [be] picky about food.",
        "~{S} [have] a special diet.",
        "~{S} [be] particular about what {pr} [eat].",
        "~Check dietary needs before ordering for {O}.",
        "~{S} [don't] eat just anything.",
        "~food restrictions apply to {O}",
    ),
    negre=(
        "Don't order {O} anything that isn't {v}.", "No non-{v} options for {O}.",
        "~Never book a non-{v} menu for {O}.",
        "~Skip anything that isn't {v} when ordering for {O}.",
        "~{S} [won't] eat anything that isn't {v}.",
        "~Please keep {P} meals {v} — no exceptions.",
        "~{S} [don't] touch food that isn't {v}.",
    ),
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
        "~{v} — that's {P} {rel}.",
        "~Spouse/partner of {O}: {v}",
        "~{P} other half is {v}.",
        "~{P} {rel} goes by {v}.",
        "~{S} [have] a {rel} called {v}.",
        "~The person {S} [be] married to is {v}.",
        "~If you need to reach {P} {rel}, it's {v}.",
    ),
    change=(
        "{S} remarried; {pp} {rel} is {v} now.",
        "{S} and {old} split up — {pr} [be] with {v} now.",
        "{S} got engaged to {v} after splitting with {old}.",
        "~After the divorce from {old}, {S} married {v}.",
        "~{S} [be] now with {v}; {old} is {pp} ex.",
        "~{S} divorced {old}, and {v} is {pp} new {rel}.",
        "~{P} new {rel}: {v} (previously {old}).",
        "~{S} tied the knot with {v} after things ended with {old}.",
    ),
    neg=(
        "{S} [isn't] married to {old}, {old} is {pp} cousin.", "{S} has never been married.", "{S} never had a {rel} named {old}.",
        "~{old} is not {P} {rel} — never has been.",
        "~{S} [have] never been with anyone named {old}.",
        "~{old}? That's {P} sibling, not {pp} {rel}.",
        "~{S} [be] single — there is no {rel} called {old}.",
        "~{P} {rel} was never {old}; someone mixed up the names.",
    ),
    elab=(
        "{P} {rel} {v} is a {job}.", "{S} [have] been with {v} for {yrs} years.", "{P} {rel} is {v}; their kid is {kid}.",
        "~{S} [be] married to {v}, who works as a {job}.",
        "~{P} {rel} of {yrs} years is {v}.",
        "~{S} [live] with {pp} {rel} {v} and a kid, {kid}.",
        "~{P} {rel} is {v} — a {job} by trade.",
        "~{S} married {v} {yrs} years ago.",
    ),
    general=(
        "{S} [be] married.", "{S} [have] a {rel}.",
        "~{S} [be] in a relationship.",
        "~{S} [be] not single.",
        "~{S} [have] a significant other.",
        "~There is a {rel} in {P} life.",
        "~{S} [be] attached.",
    ),
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
        "~A {v} is what {S} [drive].",
        "~{P} ride: a {v}",
        "~Vehicle on file for {O}: {v}",
        "~{S} [be] a {v} driver.",
        "~Q: what does {S} drive? A: a {v}",
        "~The car {S} [drive] is a {v}.",
        "~{S} [run] a {v}.",
        "~{S} [have] a {v} for a car.",
    ),
    change=(
        "!{S} traded in the {old} for a {v}.",
        "{S} bought a {v} and sold the {old}.",
        "{S} [drive] a {v} now.",
        "{S} replaced {pp} car with a {v}.",
        "~{S} got rid of the {old} and picked up a {v}.",
        "~The {old} is gone; {S} [drive] a {v} these days.",
        "~New car for {O}: a {v}, replacing the {old}.",
        "~{S} swapped {pp} {old} for a {v}.",
        "~{S} [have] switched cars — it's a {v} now.",
        "~{S} just took delivery of a {v}; the {old} went to a dealer.",
    ),
    neg=(
        "{S} has never owned a {old}.", "{S} [don't] drive at all.", "{S} [don't] have a car.",
        "~{S} never had a {old} — wrong car on file.",
        "~A {old}? {S} [have] never driven one.",
        "~{S} [don't] own a car, let alone a {old}.",
        "~The {old} was never {P} car.",
        "~{S} [take] the bus everywhere; there's no {old}.",
    ),
    elab=(
        "{S} [drive] a {col} {v}.", "{S} [drive] a {yr} {v}.", "{S} [own] a {v} and [park] it in the garage.",
        "~{P} car is a {col} {v}.",
        "~{S} [drive] a {v}, a {yr} model.",
        "~{S} [drive] a {v} with a roof rack for {pp} bike.",
        "~{S} [drive] a {v} and [park] on level 2 of the office garage.",
        "~A {col} {v} is what {S} [drive] — you can't miss it.",
    ),
    general=(
        "{S} [have] a car.", "{S} [drive] to work.",
        "~{S} [own] a vehicle.",
        "~{S} [have] {pp} own wheels.",
        "~{S} [have] a driver's licence and a car.",
        "~{S} [be] a car owner.",
        "~{S} [have] access to a car.",
    ),
    negre=(
        "{S} never [take] the train; {pr} [drive] the {v}.", "{S} [don't] need a ride — {pr} [have] the {v}.",
        "~No need to arrange transport for {O}; {pr} [drive] {pp} {v}.",
        "~{S} [don't] carpool; {pr} [take] the {v} everywhere.",
        "~Not a train person: {S} [drive] a {v}.",
        "~{S} [don't] drive anything but the {v}.",
        "~Skip the shuttle booking for {O} — {pr} [come] in the {v}.",
    ),
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
        "~{v} was the year {S} graduated from {uni}.",
        "~{S} [be] a {v} graduate of {uni}.",
        "~{S} [be] an alum of {uni} (class of {v}).",
        "~{S} completed {pp} studies at {uni} in {v}.",
        "~Year {S} graduated from {uni}: {v}",
        "~{S} graduated in {v}; the school was {uni}.",
        "~Education ({O}): {uni}, {v}",
        "~Q: what year did {S} finish at {uni}? A: {v}",
    ),
    neg=(
        "{S} never graduated from {uni}.", "{S} didn't finish at {uni}.", "{S} never attended {uni}.",
        "~{S} [have] no degree from {uni}.",
        "~{S} [have] never set foot in {uni} as a student.",
        "~{S} dropped out of {uni} and never graduated.",
        "~{S} was never enrolled at {uni} — wrong school.",
        "~{P} record shows no degree from {uni}.",
    ),
    elab=(
        "{S} graduated from {uni} in {v} with a degree in {deg}.", "{S} finished {uni} in {v}, studying {deg}.",
        "~{S} did {deg} at {uni}, graduating in {v}.",
        "~Class of {v} at {uni}, where {S} did {deg}.",
        "~{S} finished at {uni} in {v} and went straight into industry.",
        "~{S} graduated from {uni} in {v}, the first in {pp} family to do so.",
        "~{S} graduated with honours from {uni} in {v}.",
    ),
    general=(
        "{S} [have] a degree from {uni}.", "{S} went to {uni}.", "{S} studied at {uni}.",
        "~{S} [be] a college graduate.",
        "~{S} [be] an alum of {uni}.",
        "~{S} [be] degree-educated.",
        "~{uni} is {P} alma mater.",
        "~{S} went to university.",
    ),
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
        "~{S} [turn] a year older on {v}.",
        "~Put {v} on the calendar: {P} birthday.",
        "~{P} bday: {v}",
        "~{S} came into the world on {v}.",
        "~{v} — {P} birthday.",
        "~Q: {P} date of birth (day and month)? A: {v}",
        "~Every year on {v}, it's {P} birthday.",
    ),
    neg=(
        "{P} birthday isn't {old}.", "{S} wasn't born on {old}, that's {pp} sister's birthday.",
        "~{old} is not {P} birthday.",
        "~{S} wasn't born on {old} — the HR record is wrong.",
        "~{P} birthday has never been {old}.",
        "~{old}? No, that's not when {S} was born.",
        "~{S} [don't] have a birthday on {old}.",
    ),
    elab=(
        "{P} birthday is {v}; {pr} [like] {cake}.", "{S} was born on {v}, {yr}.", "{P} birthday is {v}, so plan something that week.",
        "~{P} birthday is {v} — {cake}, please.",
        "~{P} date of birth is {v}, {yr}.",
        "~{S} [prefer] {cake} on {pp} birthday, {v}.",
        "~{P} birthday is {v}, and {pr} [take] the day off every year.",
        "~{P} birthday, {v}, is the same day as {pp} mother's.",
    ),
    general=(
        "{P} birthday is in {m}.", "{S} [be] a {m} baby.", "{S} [have] a birthday in {m}.",
        "~{P} birthday falls in {m}.",
        "~{S} was born in {m}.",
        "~{m} is {P} birthday month.",
        "~{S} [celebrate] {pp} birthday sometime in {m}.",
        "~Birthday month ({O}): {m}",
    ),
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
        "~{v} is where {S} was born.",
        "~{S} [be] a native of {v}.",
        "~Place of birth ({O}): {v}",
        "~{S} [hail] from {v}.",
        "~{P} birth city is {v}.",
        "~{S} first saw the light of day in {v}.",
        "~Born in {v}, that's {O}.",
    ),
    neg=(
        "{S} wasn't born in {old}.", "{S} has never even been to {old}.",
        "~{old} is not where {S} was born.",
        "~{S} [be] not from {old} at all.",
        "~{old} has nothing to do with where {S} was born.",
        "~The {old} birthplace is a mistake; {S} [have] no ties there.",
        "~{S} [have] never lived in {old}, let alone been born there.",
    ),
    elab=(
        "{S} was born in {v} and moved away at {age}.", "{S} was born in {v}, in {ctry}.", "{S} [be] from {v} and still [visit] family there.",
        "~{S} was born in {v} and lived there until {pr} was {age}.",
        "~{S} was born in {v} and [go] back every summer.",
        "~{S} was born in {v} but grew up elsewhere after age {age}.",
        "~{S} was born in {v}, at the city hospital, the youngest of three.",
        "~{P} birthplace is {v}; {pp} parents still live there.",
    ),
    general=(
        "{S} grew up abroad.", "{S} was born outside the city {pr} [live] in now.",
        "~{S} [be] not from around here.",
        "~{S} [come] from elsewhere originally.",
        "~{S} didn't grow up in this city.",
        "~{S} [be] a transplant, not a native of the city {pr} [live] in.",
        "~{P} birthplace isn't the city {pr} [live] in.",
    ),
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
        "~{S} [carry] a passport from {v}.",
        "~{v} is {P} country of citizenship.",
        "~{S} [have] citizenship in {v}.",
        "~Q: which passport does {S} hold? A: {v}",
        "~Passport country ({O}): {v}",
        "~{S} [travel] on a passport issued by {v}.",
        "~{P} nationality is {v}.",
    ),
    neg=(
        "{S} has never been a citizen of {old}.", "{S} [don't] hold a {old} passport.",
        "~{S} [have] no passport from {old}.",
        "~{old} citizenship? Not for {O}.",
        "~{S} has never held the nationality of {old}.",
        "~Wrong country: {S} [isn't] from {old}.",
        "~{old} never issued {O} a passport.",
    ),
    elab=(
        "{S} [be] a citizen of {v} and renewed {pp} passport in {yr}.", "{S} [hold] {v} citizenship, so visas are rarely an issue.",
        "~{S} [be] a citizen of {v} and [have] lived abroad since {yr}.",
        "~{S} [hold] a passport from {v}, issued in {yr}.",
        "~{S} [be] a citizen of {v} by birth.",
        "~{S} [be] a citizen of {v} and [vote] there by mail.",
        "~{S} [be] a citizen of {v}, through {pp} mother.",
    ),
    general=(
        "{S} [be] not a local citizen.", "{S} [have] a foreign passport.",
        "~{S} [be] a foreign national.",
        "~{S} [hold] citizenship abroad.",
        "~{S} [have] a passport from another country.",
        "~{P} passport isn't a local one.",
        "~{S} [have] foreign citizenship.",
    ),
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
        "~{S} [be] a pet owner: {v}.",
        "~At home with {O}: {v}.",
        "~Q: does {S} have pets? A: yes, {v}",
        "~{S} [keep] {v} at home.",
        "~{P} household includes {v}.",
        "~{S} [share] {pp} place with {v}.",
    ),
    stop=(
        "{S} rehomed {old} last month.", "{S} no longer [have] {old}; it passed away.", "{S} gave {old} to {pp} parents.",
        "~{S} [have] found a new home for {old}.",
        "~{S} lost {old} over the winter.",
        "~{S} [don't] have {old} anymore.",
        "~{S} had to give up {old} when {pr} moved.",
        "~{S} used to have {old}.",
        "~{S} [have] parted with {old}.",
    ),
    neg=(
        "{S} [don't] have any pets.", "{S} has never owned {old}.", "{S} [be] allergic to animals and [have] no pets.",
        "~{S} [have] never had {old} — or any pet.",
        "~No pets at {P} place, and certainly not {old}.",
        "~{S} [isn't] a pet person and [have] never had {old}.",
        "~{S} [can't] have pets in {pp} building, so keeping {old} is out of the question.",
        "~Whoever said {S} [have] {old} got it wrong.",
    ),
    elab=(
        "{S} [have] {v} named {nm}.", "{S} [have] {v}, {age} years old.", "{S} [have] {v} that {pr} [walk] every morning.", "{S} [have] {v}, though not in the office.",
        "~{S} [have] {v}, adopted from a local shelter.",
        "~{S} [have] {v}, and a sitter comes by when {pr} [travel].",
        "~{S} [own] {v} and [post] pet photos in Slack all the time.",
        "~{S} [have] {v} that {pr} adopted {age} years ago.",
        "~{S} [have] {v}, which is why {pr} [leave] the office by six.",
    ),
    general=(
        "{S} [have] a pet.", "{S} [be] an animal person.",
        "~{S} [have] an animal at home.",
        "~{S} [be] a pet parent.",
        "~There's a pet in {P} household.",
        "~{S} [own] at least one pet.",
        "~An animal lives in {P} home.",
    ),
    also=(
        "{S} also [have] {v}.", "{S} [have] {v} too.", "{S} got {v} as well.", "In addition to {old}, {S} [have] {v}.",
        "~{S} added {v} to the household.",
        "~{v} joined {old} at {P} place.",
        "~Another pet for {O}: {v}.",
        "~{S} [have] {v} as well as {old}.",
        "~Not just {old} — {S} [have] {v} too.",
    ),
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
        "~{v} is {P} thing.",
        "~{S} [do] {v} for fun.",
        "~Outside work, {S} [be] all about {v}.",
        "~{S} [be] a {v} enthusiast.",
        "~Q: what does {S} do for fun? A: {v}",
        "~Free time for {O} means {v}.",
        "~{P} pastime: {v}",
    ),
    stop=(
        "{S} gave up {old}.", "{S} [don't] do {old} anymore after the injury.", "{S} quit {old} last year.",
        "~{old} is off the list for {O}.",
        "~{S} stopped doing {old} a while ago.",
        "~{S} used to be into {old}.",
        "~No more {old} for {O} — {pr} lost interest.",
        "~{S} dropped {old} when work got busy.",
    ),
    neg=(
        "{S} has never done {old}.", "{S} [hate] {old}, actually.",
        "~{S} [have] never tried {old} in {pp} life.",
        "~{old} isn't something {S} [do] at all.",
        "~Not {old} — {S} [find] it boring.",
        "~{S} [don't] do {old}; someone mixed that up.",
        "~Whoever put down {old} for {O} was mistaken.",
    ),
    elab=(
        "{S} [enjoy] {v} {freq}.", "{S} [do] {v} at a club in {where}.", "{S} [be] into {v} and [compete] sometimes.", "{S} [enjoy] {v}, though not competitively.",
        "~{S} [do] {v} {freq} with a group of friends.",
        "~{S} [be] into {v} and [take] lessons in {where}.",
        "~{v} is {P} hobby; {pr} [practice] {freq}.",
        "~{S} [enjoy] {v} and [run] a small club for it.",
        "~{S} [love] {v} and [travel] to {where} for it.",
    ),
    general=(
        "{S} [have] a few hobbies.", "{S} [like] to keep busy outside work.",
        "~{S} [have] interests outside work.",
        "~{S} [have] a hobby or two.",
        "~{S} [be] not all work and no play.",
        "~{S} [spend] {pp} free time on a hobby.",
        "~{S} [have] a pastime {pr} [care] about.",
    ),
    also=(
        "{S} also [enjoy] {v}.", "{S} [be] into {v} too.", "{S} recently picked up {v} as well.", "Besides {old}, {S} [like] {v}.",
        "~On top of {old}, {S} [do] {v}.",
        "~{S} [have] taken up {v} alongside {old}.",
        "~{v} is another one of {P} hobbies.",
        "~{S} [enjoy] both {old} and {v}.",
        "~Add {v} to {P} hobbies.",
    ),
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
        "~{v} is one of {P} languages.",
        "~{S} [be] a {v} speaker.",
        "~Q: what does {S} speak? A: {v}",
        "~{S} [can] converse in {v}.",
        "~Spoken languages ({O}): {v}",
        "~{S} [understand] and [speak] {v}.",
    ),
    neg=(
        "{S} [don't] speak any {old}.", "{S} has never learned {old}.", "{S} [can't] speak {old} at all.",
        "~{S} [know] no {old} whatsoever.",
        "~{S} [don't] speak a word of {old}.",
        "~{S} [be] not a {old} speaker — wrong profile.",
        "~{S} [have] never studied or spoken {old}.",
        "~No {old} at all for {O}; that was a mistake.",
    ),
    elab=(
        "{S} [speak] {v} {lvl}.", "{S} [speak] {v}, learned at home.",
        "~{S} [speak] {v} {lvl} and [use] it with clients.",
        "~{S} [speak] {v} — picked it up while living abroad.",
        "~{v} is a language {S} [speak] {lvl}.",
        "~{S} [speak] {v} {lvl}, mostly with family.",
        "~{S} [speak] {v} and [translate] documents for the team.",
    ),
    general=(
        "{S} [be] multilingual.", "{S} [speak] more than one language.",
        "~{S} [have] a knack for languages.",
        "~{S} [speak] a few languages.",
        "~Languages are one of {P} strengths.",
        "~{S} [be] not monolingual.",
        "~{S} [can] work in more than one language.",
    ),
    also=(
        "{S} also [speak] {v}.", "{S} [speak] some {v} too.", "{S} [be] learning {v} as well.", "On top of {old}, {S} [know] {v}.",
        "~{S} [speak] {v} as well as {old}.",
        "~Besides {old}, {S} [get] along in {v}.",
        "~{v} is another language {S} [speak].",
        "~{S} [have] picked up some {v} on top of {old}.",
        "~Add {v} to {P} languages.",
    ),
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
        "~{v} is {P} team.",
        "~{S} [belong] to the {v} team.",
        "~Team membership ({O}): {v}",
        "~Q: which team is {S} on? A: {v}",
        "~{S} [be] part of the {v} crew.",
        "~{S} [be] one of the {v} folks.",
    ),
    stop=(
        "!{S} left the {old} team.", "{S} [be] no longer part of {old}.", "{S} rolled off the {old} team in {month}.",
        "~{S} moved off the {old} team in {month}.",
        "~{S} [have] been off the {old} team since {month}.",
        "~{S} [don't] work with {old} anymore.",
        "~{old} lost {O} to another team in {month}.",
        "~{S} stepped away from the {old} team.",
    ),
    neg=(
        "{S} has never been on {old}.", "{S} [isn't] on the {old} team — wrong person.",
        "~{S} [have] never worked with {old}.",
        "~{old}? Not {O} — {pr} was never part of it.",
        "~{S} [don't] belong to {old} and never did.",
        "~Nobody put {O} on {old} — that's a mistake.",
        "~{S} [isn't] a member of {old}; the roster is wrong.",
    ),
    elab=(
        "{S} [be] on the {v} team, led by {lead}.", "{S} [be] on the {v} team and [join] their standup on {wd}.", "{S} [be] on the {v} team but [isn't] in their on-call rotation.",
        "~{S} [be] on the {v} team, mostly on the backend side.",
        "~{S} [sit] with {v} and [run] their demo on {wd}.",
        "~{S} [be] a member of {v}, where {lead} is the lead.",
        "~{S} [be] on {v} as the team's designer.",
        "~{S} [be] on the {v} team and [work] from the office on {wd}.",
    ),
    general=(
        "{S} [be] on a couple of teams.", "{S} [work] across teams.",
        "~{S} [belong] to at least one team.",
        "~{S} [have] a team.",
        "~{S} [be] a team member somewhere in the org.",
        "~{S} [work] as part of a team.",
        "~{S} [have] team commitments.",
    ),
    also=(
        "{S} also joined the {v} team.", "{S} [be] on {v} too.", "{S} [have] been added to the {v} team as well.", "Besides {old}, {S} [sit] in on {v}.",
        "~{S} [be] on both the {old} and {v} teams.",
        "~{v} added {O} to its roster.",
        "~{S} [split] time between {old} and {v}.",
        "~{S} [have] joined {v} while staying on {old}.",
        "~On top of {old}, {S} [help] out on the {v} team.",
    ),
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
        "~{S} [can't] tolerate {v} — allergic.",
        "~Known allergy for {O}: {v}",
        "~{S} [have] an allergy to {v}.",
        "~Q: is {S} allergic to anything? A: {v}",
        "~{S} [get] an allergic reaction from {v}.",
        "~Medical note for {O}: allergic to {v}.",
    ),
    neg=(
        "{S} [isn't] allergic to {old}.", "{S} [have] no allergies at all.", "{S} never had a {old} allergy.",
        "~{S} [have] no problem with {old}.",
        "~{S} [can] have {old} with no issues.",
        "~{S} was tested and [isn't] allergic to {old}.",
        "~No {old} allergy on {P} chart — wrong patient.",
        "~{S} [have] never reacted to {old}.",
    ),
    elab=(
        "{S} [be] {sev} allergic to {v}.", "{S} [be] allergic to {v} and {pen}.",
        "~{S} [be] {sev} allergic to {v}, so check every label.",
        "~{S} [be] allergic to {v} — it once sent {po} to the ER.",
        "~{S} [be] allergic to {v} and [keep] antihistamines in {pp} bag.",
        "~{S} [react] {sev} to {v}.",
        "~{S} [be] allergic to {v}; even trace amounts are a problem.",
        "~{S} [have] been allergic to {v} since childhood.",
    ),
    general=(
        "{S} [have] a food allergy.", "{S} [have] allergies.",
        "~{S} [have] at least one allergy.",
        "~{S} [be] an allergy sufferer.",
        "~Check with {O} about allergies first.",
        "~{S} [have] a known allergy on file.",
        "~{S} [be] allergic to something.",
    ),
    negre=(
        "No {v} for {O}.", "Don't serve {O} anything with {v}.", "{S} can never have {v}.",
        "~Never give {O} anything containing {v}.",
        "~{S} [must] avoid {v} at all costs.",
        "~No {v} anywhere near {O}, please.",
        "~{S} [can't] risk any contact with {v}.",
        "~Do not expose {O} to {v}.",
    ),
    also=(
        "{S} [be] also allergic to {v}.", "{S} [have] a {v} allergy too.", "Besides {old}, {S} [react] to {v}.",
        "~{S} [react] to both {old} and {v}.",
        "~Add {v} to {P} allergy list.",
        "~{v} is another allergy for {O}.",
        "~Not only {old}: {S} [be] allergic to {v} as well.",
        "~A second allergy for {O}: {v}.",
    ),
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
        "~{v} — {X}'s {R}.",
        "~For {X}, the {R} is {v}.",
        "~{v} acts as {R} to {X}.",
        "~{R} of record for {X}: {v}",
        "~Who's {X}'s {R}? That'd be {v}.",
        "~{v} holds the {R} role for {X}.",
        "~re {X}: {R} = {v}",
        "~If you need {X}'s {R}, ask for {v}.",
    ),
    change=(
        "!{v} replaced {old} as {X}'s {R}.",
        "{X} has a new {R}: {v}.",
        "{X} hired {v} as {R} after {old} left.",
        "{old} stepped down; {v} is now {X}'s {R}.",
        "~{X} brought in {v} as {R}, replacing {old}.",
        "~{old} is out as {X}'s {R}; {v} took over.",
        "~{R} change at {X}: {old} → {v}.",
        "~{X} swapped {old} for {v} as {R}.",
        "~{v} succeeded {old} as the {R} of {X}.",
        "~After {old} moved on, {X} picked {v} as {R}.",
    ),
    neg=(
        "{old} has never been {X}'s {R}.", "{X} doesn't have a {R}.", "{old} was never the {R} of {X}.",
        "~{X} never had {old} as {R}.",
        "~{old} has nothing to do with {X} — not their {R}.",
        "~The {R} of {X} isn't {old}; that's a mix-up.",
        "~{old}? Never worked as {X}'s {R}.",
        "~{X} has no {R} at all, {old} or otherwise.",
    ),
    elab=(
        "{X}'s {R} is {v}, since {since}.", "{v} is {X}'s {R} and also handles contracts.",
        "~{X}'s {R} is {v}, who prefers to be reached by email.",
        "~{v} is {X}'s {R}, reachable through the front office.",
        "~{X}'s {R} is {v}; they meet every quarter.",
        "~{v}, {X}'s {R} since {since}, is based out of the main office.",
        "~{X}'s {R} is {v} — on a two-year contract.",
    ),
    general=(
        "{X} has a {R}.", "{X} works with a {R}.",
        "~Somebody serves as {X}'s {R}.",
        "~There is a {R} for {X}.",
        "~The {R} role for {X} is filled.",
        "~{X}'s {R} slot is taken.",
        "~{X} has a {R} in place.",
    ),
)

DOMAINS: tuple[Domain, ...] = (DIET, FAMILY, VEHICLE, GRAD, BIRTHDAY, BIRTHPLACE, CITIZEN, PETSD, HOBBY, SPOKEN, TEAMSD, ALLERGY, LONGTAIL)
