"""More open-ended domains: recurring meeting times, contact details, favourites, number of
children, out-of-office dates."""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.pools import WEEKDAYS, Pools, date_text

MEETINGS = ("weekly sync", "standup", "retro", "sprint planning", "team lunch", "all-hands", "design review",
            "pipeline review", "office hours", "board prep", "1:1 with the CEO", "ops review")


def _slot_time(p: Pools) -> tuple[str, str, int]:
    """(day, time text, minutes after midnight): the text is "11am", "11:30am" or "11:00"."""
    h = p.rng.randint(8, 17)
    m = p.rng.choice(("", "", ":30", ":15"))
    suffix = "am" if h < 12 else "pm"
    h12 = h if h <= 12 else h - 12
    text = f"{h12}{m}{suffix}" if p.rng.random() < 0.7 else f"{h:02d}{m or ':00'}"
    return p.pick(WEEKDAYS + ("Mondays", "Thursdays", "Fridays")), text, h * 60 + int(m[1:] or 0)


def _same_day(a: str, b: str) -> bool:
    return a.rstrip("s") == b.rstrip("s")


def s_meeting(p: Pools) -> Ctx:
    d1, t1, m1 = _slot_time(p)
    d2, t2, m2 = _slot_time(p)
    if p.rng.random() < 0.5:
        d2 = d1  # differs only in the time
    # v2.4: compare the time, not its text ("11am" and "11:00" are the same slot)
    while _same_day(d1, d2) and m1 == m2:
        d2, t2, m2 = _slot_time(p)
    base = {"mt": p.pick(MEETINGS), "room": p.pick(("the big room", "Zoom", "the 4th floor", "room " + str(p.rng.randint(100, 450))))}
    return Ctx(base, {"v": f"{d1} at {t1}", "d": d1, "t": t1}, {"v": f"{d2} at {t2}", "d": d2, "t": t2}, person=p.person(),
               other_base={**base, "mt": p.pick(MEETINGS, base["mt"])},
               extra={"len": p.pick(("30 minutes", "an hour", "45 minutes", "15 minutes")), "host": p.person().first})


MEETING = Domain(
    free_values=True,
    slot="meeting_time",
    kind="single",
    sample=s_meeting,
    person_subject=False,
    state=(
        "The {mt} is on {v}.",
        "{mt}: {v}",
        "We hold the {mt} {d} at {t}.",
        "Our {mt} happens {v}.",
        "The {mt} is scheduled for {v}.",
        "Q: when is the {mt}? A: {v}",
        "{mt} every {d}, {t}.",
        "The team meets for the {mt} on {v}.",
        "~{v} is when the {mt} takes place.", "~The {mt} takes place on {d} at {t}.", "~We meet on {v} for the {mt}.",
        "~Q: what time is the {mt}? A: {t} on {d}", "~Calendar: {mt} — {d}, {t}", "~{mt} slot = {v}",
        "~If you're looking for the {mt}, it's {v}.", "~The {mt} is held {d} at {t}.",
    ),
    change=(
        "!We moved the {mt} to {v}.",
        "!The {mt} moved to {v}.",
        "{mt} is now on {v}.",
        "The {mt} got rescheduled to {v}.",
        "{mt} shifted from {old} to {v}.",
        "The {mt} is {v} starting next week.",
        "~The {mt} has been rescheduled for {v}.", "~Calendar change: the {mt} moves to {v}.",
        "~We switched the {mt} over to {v}.", "~Rebooked the {mt} for {v}.", "~New slot for the {mt}: {v}.",
        "~Q: did the {mt} move? A: yes, to {v}",
    ),
    stop=("The {mt} is no longer on {old}; it's {v}.", "No more {mt} on {old} — {v} from now on.",
        "~We dropped the {old} slot for the {mt}; it's {v} instead.", "~{mt} on {old}? Not anymore — {v}.",
        "~The {mt} stopped meeting on {old} and happens {v} instead.", "~{old} is out for the {mt}; {v} replaces it.",
        "~Scrapped the {mt} on {old} — it's {v} from here on.",
    ),
    neg=("There is no {mt} on {old}.", "Nobody runs a {mt} on {old}.",
         "The {mt} was never on {old}.",
        "~{old} was never the {mt} slot.", "~No one has ever scheduled a {mt} for {old}.",
        "~Whoever put the {mt} on {old} got it wrong.", "~That's not right — the {mt} doesn't happen on {old}.",
        "~Q: is the {mt} on {old}? A: no, it never has been",
    ),
    elab=("The {mt} is on {v} in {room}.", "The {mt} is {v}, runs {len}, hosted by {host}.", "{mt} on {v}; {host} takes notes.",
        "~{mt}: {v}, {len}, in {room}.", "~The {mt} on {v} lasts {len}.", "~{host} runs the {mt}, {v}, in {room}.",
        "~We hold the {mt} on {v} — location: {room}.", "~{v} is the {mt} — {len}, led by {host}.",
    ),
    general=("We have a regular {mt}.", "The {mt} is a recurring meeting.", "There's a recurring {mt}.",
        "~There's a standing {mt} on the calendar.", "~We do a {mt}.", "~The {mt} has a fixed slot.",
        "~{mt}: it's a regular thing.", "~Q: is there a {mt}? A: yes, a recurring one",
    ),
    negre=("Don't book anything over the {mt} ({v}).", "Keep {v} free for the {mt}.",
        "~Please don't put calls on {v} — that's the {mt}.", "~Nothing else goes on {v}: {mt}.",
        "~Avoid scheduling against the {mt} on {v}.", "~{v} is off-limits for other meetings ({mt}).",
        "~Never double-book {v}; the {mt} is then.", "~Block {v} for the {mt}.",
    ),
)


def s_contact(p: Pools) -> Ctx:
    fk = p.fk
    person = p.person()
    kind = p.rng.choice(("email", "phone"))
    if kind == "email":
        dom = p.pick(("gmail.com", "outlook.com", "proton.me", "icloud.com", fk.domain_name()))
        a = f"{person.first.lower()}.{person.last.lower()}@{dom}"
        b = f"{person.first[0].lower()}{person.last.lower()}@{fk.domain_name()}"
    else:
        a, b = fk.phone_number(), fk.phone_number()
    return Ctx({"what": "email" if kind == "email" else p.pick(("phone number", "cell", "mobile number"))}, {"v": a}, {"v": b},
               person=person, extra={"hrs": p.pick(("before 6pm", "on weekdays", "for urgent things only"))})


CONTACT = Domain(
    slot="contact",
    kind="single",
    sample=s_contact,
    state=(
        "{P} {what} is {v}.",
        "{what} for {O}: {v}",
        "Reach {O} at {v}.",
        "{S} can be reached at {v}.",
        "Contact: {v}",
        "{P} {what}: {v}",
        "Q: what's {P} {what}? A: {v}",
        "~The {what} to use for {O} is {v}.", "~To contact {O}, use {v}.", "~{S} [list] {v} as {pp} {what}.",
        "~{what} on file for {O}: {v}", "~Q: how to reach {O}? A: {v}", "~You can get hold of {O} at {v}.",
        "~Ping {O} at {v}.",
    ),
    change=(
        "!{P} new {what} is {v}.",
        "{S} changed {pp} {what} to {v}.",
        "{P} {what} moved to {v}.",
        "Use {v} now; the old {what} is dead.",
        "~{S} updated {pp} {what} to {v}.", "~{P} {what} has changed — it's {v} now.", "~New {what} for {O}: {v}",
        "~{S} got a new {what}: {v}.", "~Please update {P} {what} to {v}.", "~{S} switched to {v} for {pp} {what}.",
    ),
    stop=("{S} [don't] use {old} anymore, write to {v}.",
        "~Forget {old}; reach {O} at {v}.", "~{S} retired {old} — use {v}.",
        "~Anything sent to {old} no longer reaches {O}; try {v}.", "~{S} stopped checking {old}, so use {v} instead.",
        "~Don't use {old} for {O} anymore — it's {v}.",
    ),
    neg=("{old} isn't {P} {what}.", "{S} has never used {old}.", "That {what} ({old}) belongs to someone else.",
        "~{P} {what} has never been {old}.", "~{S} [have] nothing to do with {old}.",
        "~Not true that {old} is {P} {what}.", "~Q: is {old} {P} {what}? A: no",
        "~Whoever listed {old} for {O} got it wrong.",
    ),
    elab=("{P} {what} is {v}, {hrs}.", "Reach {O} at {v} — {pr} [answer] {hrs}.",
        "~Use {v} for {O}; {pr} [reply] {hrs}.", "~{what}: {v} ({hrs}).", "~Use {v} to reach {O} — {hrs}.",
        "~{S} [check] {v} {hrs}.", "~{P} {what} is {v} and {pr} [prefer] it to Slack.",
    ),
    general=("{S} shared {pp} {what} with us.", "We have {P} {what} on file.",
        "~{S} [have] a {what} we can use.", "~{S} [be] reachable by {what}.", "~{P} contact details are in the system.",
        "~Q: is {P} {what} on file? A: yes", "~{S} shared contact details with the team.",
    ),
)

FAV = {
    "coffee order": ("flat white", "oat latte", "cortado", "black coffee", "chai latte", "espresso", "cold brew", "cappuccino"),
    "color": None,
    "restaurant": None,
    "sports team": None,
    "book genre": ("sci-fi", "history", "thrillers", "biographies", "poetry", "fantasy", "romance", "business books"),
    "snack": ("almonds", "dark chocolate", "popcorn", "fruit", "pretzels", "granola bars"),
}


def s_fav(p: Pools) -> Ctx:
    cat = p.pick(tuple(FAV))
    pool = FAV[cat]
    if pool is None:
        fk = p.fk
        if cat == "color":
            a, b = fk.color_name().lower(), fk.color_name().lower()
        elif cat == "restaurant":
            a, b = f"{p.person().last}'s", f"{p.city()} Kitchen"
        else:
            a = f"the {p.city()} {p.pick(('Rovers', 'Hawks', 'United', 'Lions', 'Tigers', 'Giants'))}"
            b = f"the {p.city()} {p.pick(('Rovers', 'Hawks', 'United', 'Lions', 'Tigers', 'Giants'))}"
    else:
        a = p.pick(pool)
        b = p.pick(pool, a)
    if a == b:
        b = b + " (decaf)" if cat == "coffee order" else "something else entirely"
    return Ctx({"cat": cat}, {"v": a}, {"v": b}, person=p.person(),
               extra={"why": p.pick(("since a trip years ago", "it reminds them of home", "no real reason", "after a friend's tip"))})


FAVORITE = Domain(
    slot="favorite",
    kind="single",
    sample=s_fav,
    state=(
        "{P} favorite {cat} is {v}.",
        "{S} [love] {v} — favorite {cat}.",
        "Favorite {cat}: {v}",
        "{S} always [pick] {v} ({cat}).",
        "{v} is {P} go-to {cat}.",
        "Q: {P} favorite {cat}? A: {v}",
        "~When it comes to {cat}, {S} [go] for {v}.", "~{v} — that's {P} favorite {cat}.",
        "~{S} [rate] {v} above any other {cat}.", "~If {S} had to pick one {cat}, it'd be {v}.",
        "~Q: what {cat} does {S} like best? A: {v}", "~{v} is the {cat} {S} [like] most.",
    ),
    change=(
        "!{P} favorite {cat} is now {v}.",
        "{S} switched {pp} favorite {cat} to {v}.",
        "{S} [be] into {v} these days, not {old}.",
        "{S} moved on from {old}; {v} is the new favorite {cat}.",
        "~{P} favorite {cat} changed from {old} to {v}.", "~{S} [have] a new favorite {cat}: {v}.",
        "~{v} has replaced {old} as {P} favorite {cat}.", "~{S} went off {old} and [be] all about {v} now.",
        "~{S} [have] traded {old} for {v} as {pp} favorite {cat}.",
    ),
    neg=("{S} [hate] {old}.", "{old} was never {P} favorite {cat}.", "{S} [can't] stand {old}, whoever said that.",
        "~{S} [would] never pick {old}.", "~Not {old} — {S} [don't] even like that.",
        "~Whoever noted {old} as {P} favorite {cat} got it wrong.", "~{old} is the one {cat} {S} [won't] touch.",
        "~Q: is {old} {P} favorite {cat}? A: no, never was",
    ),
    elab=("{P} favorite {cat} is {v}, {why}.", "{S} [love] {v}, especially on Fridays.",
        "~{v} is {P} favorite {cat} — {why}.", "~Favorite {cat}: {v} ({why}).",
        "~{S} [love] {v} and [recommend] it to everyone.", "~{S} [swear] by {v} — {why}.",
        "~{P} favorite {cat} has been {v} since childhood.",
    ),
    general=("{S} [have] a favorite {cat}.", "{S} [be] picky about {cat}.",
        "~When it comes to {cat}, {S} [have] a clear favorite.", "~There's a {cat} {S} [like] best.", "~{S} [have] a go-to {cat}.",
        "~Q: does {S} have a favorite {cat}? A: yes", "~One {cat} stands out for {O}.",
    ),
)


def s_kids(p: Pools) -> Ctx:
    words = ("no", "one", "two", "three", "four")
    a = p.rng.randint(1, 3)
    b = a + 1  # change templates describe a new child

    def kids(n: int) -> str:
        return "no kids" if n == 0 else ("one kid" if n == 1 else f"{words[n]} kids")

    return Ctx({}, {"v": kids(a), "n": str(a)}, {"v": kids(b), "n": str(b)}, person=p.person(),
               extra={"ages": p.pick(("in primary school", "both teenagers", "under five", "in college")), "kid": p.person().first})


KIDS = Domain(
    slot="children",
    kind="single",
    sample=s_kids,
    state=(
        "{S} [have] {v}.",
        "Number of kids: {n}",
        "{P} household: {v}.",
        "Family: {v}",
        "Q: does {S} have kids? A: {v}",
        "~{S} [be] raising {v}.", "~Q: how many kids does {S} have? A: {n}", "~{S} [be] a parent — {v}.",
        "~Kids in {P} family: {n}", "~Family-wise, {S} [have] {v}.",
    ),
    change=("{S} just had a baby, so {v} now.", "{S} [have] {v} now after the adoption.", "With the new baby {S} [have] {v}.",
        "~{S} welcomed a new baby and [have] {v} now.", "~Another one arrived — {S} [be] up to {v}.",
        "~Baby news: {S} [have] {v} as of last month.", "~{S} adopted again, which makes {v}.",
        "~{P} family grew; {pr} [have] {v} now.",
    ),
    neg=("{S} [don't] have kids.", "{S} has never had {old}.",
        "~{S} [be] childless, actually.", "~Not true that {S} [have] {old}.", "~{S} [have] no children at all.",
        "~Q: does {S} have {old}? A: no", "~Whoever said {S} [have] {old} was mistaken.",
    ),
    elab=("{S} [have] {v}, {ages}.", "{S} [have] {v}; the oldest is {kid}.",
        "~{S} [have] {v}, and {kid} is the youngest.", "~{S} [be] raising {v}, {ages}.",
        "~{S} [have] {v} and [do] the school run most mornings.",
        "~{S} [have] {v}, so {pr} [log] off early on Fridays.", "~{S} [have] {v} ({ages}) and a very busy house.",
    ),
    general=("{S} [be] a parent.", "{S} [have] a family.",
        "~{S} [have] kids.", "~Q: is {S} a parent? A: yes", "~{S} [have] at least one child.",
        "~{P} family includes children.", "~{S} [be] raising a family.",
    ),
)


def s_ooo(p: Pools) -> Ctx:
    d = p.date(2019, 2026)
    d2 = d + dt.timedelta(days=p.rng.choice((-10, -5, -3, -2, 2, 3, 4, 7, 14)))
    return Ctx({"why": p.pick(("parental leave", "vacation", "a conference", "medical leave", "a family visit"))},
               {"v": date_text(d, p.rng, with_year=False)}, {"v": date_text(d2, p.rng, with_year=False)}, person=p.person(),
               extra={"cover": p.person().first, "city": p.city()})


OOO = Domain(
    slot="out_of_office",
    kind="single",
    sample=s_ooo,
    max_gap_days=30,
    state=(
        "{S} [be] out of office until {v}.",
        "{S} [be] OOO through {v}.",
        "{S} [be] back on {v}.",
        "{S} returns {v} from {why}.",
        "Away until {v}: {S}",
        "Q: when is {S} back? A: {v}",
        "~{P} return date is {v}.", "~{S} [be] off until {v}.", "~{v} is when {S} [be] back.",
        "~Q: when does {S} return? A: {v}", "~Expect {O} back on {v}.", "~{S} [be] unavailable through {v}.",
    ),
    change=("!{S} changed {pp} return date to {v}.", "{S} [be] now coming back on {v}.", "{P} return moved to {v}.",
        "~{S} [have] a different return date: {v}.", "~{S} [be] back on {v} instead, plans changed.",
        "~New return date for {O}: {v}.", "~{P} OOO now ends on {v}.", "~{S} rescheduled {pp} return for {v}.",
    ),
    neg=("{S} [isn't] out at all — {pr} [be] working this week.", "{S} has no time off booked around {old}.",
        "~There's no OOO for {O} around {old}.", "~{S} never booked leave for {old}.",
        "~Wrong — {S} [be] around on {old} and all that week.",
        "~Q: is {S} out until {old}? A: no, {pr} [isn't] out at all", "~No leave on record for {O} near {old}.",
    ),
    elab=("{S} [be] out until {v} for {why}; {cover} is covering.", "{S} [be] OOO until {v}, visiting {city}.",
        "~{S} [be] away until {v}; ping {cover} for anything urgent.", "~{S} [be] back on {v} after {why} in {city}.",
        "~{P} return is {v}; until then {cover} handles {pp} accounts.", "~{S} [be] out until {v} and fully offline.",
        "~{S} [be] OOO through {v} with patchy signal in {city}.",
    ),
    general=("{S} [be] away for a bit.", "{S} [be] out of office for a while.",
        "~{S} [be] taking some time off.", "~{S} [have] time off booked.", "~{S} [be] on a break from work.",
        "~{P} calendar shows time away.", "~Q: is {S} around? A: no, out of office",
    ),
    negre=("Don't expect replies from {O} before {v}.", "No meetings with {O} until {v}.",
        "~Don't book {O} for anything before {v}.", "~Hold off on pinging {O} until {v}.",
        "~Nothing for {O} until {v}, please.", "~Wait until {v} before sending {O} anything.",
        "~Don't count on {O} before {v}.",
    ),
)

DOMAINS: tuple[Domain, ...] = (MEETING, CONTACT, FAVORITE, KIDS, OOO)
