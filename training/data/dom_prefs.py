"""Preference domains: meeting windows, timezones and locations, communication preferences."""

from __future__ import annotations

import random

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.pools import WEEKDAYS, Pools

# (general plural, "in the X" form, start hour, end hour)
PARTS: tuple[tuple[str, str, int, int], ...] = (
    ("early mornings", "early in the morning", 6, 9),
    ("mornings", "in the morning", 9, 12),
    ("afternoons", "in the afternoon", 13, 17),
    ("evenings", "in the evening", 17, 21),
)
PART_NOUN: tuple[str, ...] = ("early-morning", "morning", "afternoon", "evening")


def _hour(h: int, rng: random.Random) -> str:
    suffix = "am" if h < 12 else "pm"
    h12 = h if h <= 12 else h - 12
    return rng.choice((f"{h12}{suffix}", f"{h12}:00{suffix}", f"{h12} {suffix}", f"{h:02d}:00"))


def _window(i: int, p: Pools) -> dict[str, str]:
    g, gin, a, b = PARTS[i]
    s = p.rng.randint(a, b - 1)
    e = min(b, s + p.rng.choice((1, 1, 2)))
    d1 = p.pick(WEEKDAYS)
    day = p.rng.choice(("", "", f" on {d1}s", " on weekdays", f" on {d1}s and {p.pick(WEEKDAYS, d1)}s"))
    rng_txt = p.rng.choice((f"{_hour(s, p.rng)}–{_hour(e, p.rng)}", f"between {_hour(s, p.rng)} and {_hour(e, p.rng)}",
                            f"from {_hour(s, p.rng)} to {_hour(e, p.rng)}", f"{_hour(s, p.rng)}-{_hour(e, p.rng)}"))
    return {"spec": rng_txt, "day": day, "g": g, "gin": gin, "gn": PART_NOUN[i]}


def s_schedule(p: Pools) -> Ctx:
    i = p.rng.randrange(len(PARTS))
    j = p.rng.choice([k for k in range(len(PARTS)) if k != i])
    A = _window(i, p)
    B = _window(j, p)
    # the value shown in state templates: specific window or the general part of the day
    A["v"] = A["spec"] if p.rng.random() < 0.5 else A["gin"]
    B["v"] = B["spec"] if p.rng.random() < 0.6 else B["gin"]
    return Ctx({"mt": p.pick(("meetings", "calls", "1:1s", "syncs", "check-ins"))}, A, B, person=p.person(),
               extra={"why": p.pick(("school drop-off", "the gym", "deep work", "a standing call with Asia", "childcare",
                                     "commuting")), "cut": _hour(p.rng.randint(8, 11), p.rng)})


SCHEDULE = Domain(
    slot="schedule",
    kind="single",
    sample=s_schedule,
    state=(
        "{S} [prefer] {mt} {v}{day}.",
        "Best time for {mt} with {O}: {v}{day}",
        "{S} [like] to have {mt} {v}{day}.",
        "Book {P} {mt} {v}{day}.",
        "{P} preferred meeting window is {v}{day}.",
        "{S} [want] {mt} scheduled {v}{day}.",
        "Q: when does {S} like to meet? A: {v}{day}",
        "{S} [be] most available {v}{day}.",
        "{mt} with {O} work best {v}{day}.",
        "{S} [do] {mt} {v}{day}.",
        "{P} calendar is open for {mt} {v}{day}.",
        "~{v}{day} is when {S} [like] to have {mt}.",
        "~{P} {mt}: {v}{day}",
        "~Q: best slot for {mt} with {O}? A: {v}{day}",
        "~Scheduling {mt} with {O}? Put them {v}{day}.",
        "~Calendar rule for {O}: {mt} go {v}{day}.",
        "~{S} [schedule] {P} {mt} {v}{day}.",
        "~{mt} {v}{day} suit {O} best.",
        "~{mt} w/ {O} → {v}{day}",
        "~{mt} with {O} are best booked {v}{day}.",
        "~Anyone booking {mt} with {O} should aim for a slot {v}{day}.",
        "~{P} sweet spot for {mt} is {v}{day}.",
    ),
    change=(
        "!{S} now [prefer] {mt} {v}{day}.",
        "{S} switched {P} {mt} to {v}{day}.",
        "!{S} moved {P} meeting block to {v}{day}.",
        "{P} availability changed: {mt} {v}{day} from now on.",
        "{S} [want] {mt} {v}{day} instead of {old}{old_day}.",
        "~{S} [have] reshuffled {P} week — {mt} {v}{day} instead of {old}{old_day}.",
        "~{P} new slot for {mt}: {v}{day}",
        "~Going forward, book {P} {mt} {v}{day}.",
        "~{S} rearranged {P} calendar so {mt} happen {v}{day} rather than {old}{old_day}.",
        "~Schedule change for {O} — {mt} are {v}{day} from here on.",
        "~{S} [have] started doing {mt} {v}{day}.",
    ),
    stop=(
        "{S} no longer [take] {mt} {old}; {v}{day} works now.",
        "{S} [don't] do {old} anymore — {mt} {v}{day}.",
        "~{S} [have] dropped {mt} {old} — {v}{day} only.",
        "~{S} [do] {mt} {v}{day}; {mt} {old} are not happening anymore.",
        "~{mt} {old} are no longer an option for {O}; {v}{day} is what works.",
        "~No more {mt} {old} for {O} — book them {v}{day}.",
        "~{mt} {v}{day} for {O} now, replacing {mt} {old}.",
    ),
    neg=(
        "{S} never said {pr} [prefer] {old}.",
        "{S} [can't] do {mt} {old} at all.",
        "That's not right — {S} [avoid] {mt} {old}.",
        "{S} has never been available {old}.",
        "~Whoever wrote that {S} [like] {mt} {old} got it wrong.",
        "~{mt} {old}? Not for {O} — never were.",
        "~It was never true that {S} [prefer] {mt} {old}.",
        "~No, {S} [do] not want {mt} {old} and never did.",
        "~nobody ever claimed {S} [be] free {old}",
    ),
    elab=(
        "{S} [prefer] {mt} {spec}{day}, ideally not before {cut}.",
        "{S} [like] {mt} {spec}{day} because of {why}.",
        "{S} [prefer] {mt} {gin}, specifically {spec}{day}.",
        "{mt} with {O}: {spec}{day}, and keep them under 30 minutes.",
        "~{mt} with {O}: {spec}{day}, worked around {why}.",
        "~{S} [like] {mt} {spec}{day}, with cameras optional.",
        "~{spec}{day} is {P} slot for {mt}, and {pr} [want] an agenda in advance.",
        "~{S} [take] {mt} {gin} — {spec}{day} to be exact — in 25-minute blocks.",
        "~Book {O} {spec}{day} for {mt}; {pr} [need] a 10-minute buffer after each.",
    ),
    general=(
        "{S} [prefer] {g}.",
        "{S} [like] meeting {gin}.",
        "{g} work best for {O}.",
        "{S} [be] a {gn} person when it comes to {mt}.",
        "~{gn} slots suit {O}.",
        "~{S} [have] a preferred time of day for {mt}.",
        "~{S} [lean] toward {g}.",
        "~Q: what time of day suits {O}? A: {g}",
        "~{S} [like] to keep {mt} to certain hours.",
    ),
    negre=(
        "Don't book {O} outside {v}{day}.",
        "No {mt} for {O} except {v}{day}.",
        "Avoid scheduling {O} anywhere but {v}{day}.",
        "{S} never [take] {mt} outside {v}{day}.",
        "~Only book {O} {v}{day}.",
        "~Keep {P} {mt} {v}{day}, nothing outside that.",
        "~{S} [don't] do {mt} at any other time than {v}{day}.",
        "~Nothing for {O} that isn't {v}{day}, please.",
        "~{S} [won't] accept {mt} unless they fall {v}{day}.",
    ),
)

# (abbreviation or zone phrase, a city in it, region)
ZONES: tuple[tuple[str, str, str], ...] = (
    ("EST", "New York", "the East Coast"), ("ET", "Boston", "the East Coast"), ("PST", "San Francisco", "the West Coast"),
    ("PT", "Seattle", "the West Coast"), ("CST", "Chicago", "the Midwest"), ("MST", "Denver", "the Mountain West"),
    ("GMT", "London", "the UK"), ("CET", "Berlin", "central Europe"), ("CET", "Paris", "central Europe"),
    ("IST", "Bangalore", "India"), ("SGT", "Singapore", "Southeast Asia"), ("JST", "Tokyo", "Japan"),
    ("AEST", "Sydney", "Australia"), ("UTC", "Reykjavik", "Iceland"), ("CET", "Madrid", "Spain"),
    ("ET", "Toronto", "eastern Canada"), ("PT", "Vancouver", "western Canada"), ("CET", "Amsterdam", "the Netherlands"),
    ("GMT", "Dublin", "Ireland"), ("IST", "Mumbai", "India"),
)


def s_tz(p: Pools) -> Ctx:
    a = p.rng.choice(ZONES)
    b = p.rng.choice([z for z in ZONES if z[0] != a[0] and z[2] != a[2]])

    def val(z: tuple[str, str, str]) -> dict[str, str]:
        form = p.rng.random()
        v = z[0] if form < 0.45 else z[1]
        return {"v": v, "tz": z[0], "city": z[1], "reg": z[2]}

    return Ctx({}, val(a), val(b), person=p.person(),
               extra={"hood": p.pick(("downtown", "the suburbs", "near the river", "on the north side")),
                      "hrs": p.pick(("keeps late hours", "starts at 7", "works split shifts"))})


TIMEZONE = Domain(
    slot="timezone",
    kind="single",
    sample=s_tz,
    state=(
        "{S} [work] in {v}.",
        "{S} [be] on {tz} time.",
        "{S} [be] based in {city}.",
        "{S} [live] in {city}.",
        "{P} timezone is {tz}.",
        "Location: {city}",
        "Timezone for {O}: {tz}",
        "{S} [keep] {tz} hours.",
        "Q: where is {S} based? A: {city}",
        "{S} [work] remotely from {city}.",
        "{S} [be] a {city} local.",
        "~{city} is where {S} [be] based.",
        "~{P} clock runs on {tz}.",
        "~Home base for {O}: {city}",
        "~Q: what timezone is {S} in? A: {tz}",
        "~{S} [call] {city} home.",
        "~{P} working hours follow {tz}.",
        "~{S} [reside] in {city}.",
        "~TZ for {O} = {tz}",
        "~{S} [be] in the {tz} timezone.",
        "~{S} [be] {city}-based.",
        "~The calendar for {O} is set to {tz}.",
    ),
    change=(
        "!{S} moved to {city} last month.",
        "{S} relocated to {city}.",
        "!{S} [be] now on {tz}.",
        "{S} switched to {tz} after moving.",
        "{S} [be] living in {city} now, not {old_city}.",
        "{S} left {old_city} for {city} in {month}.",
        "~{S} packed up and left {old_city}; {S} [be] in {city} now.",
        "~{S} [have] been on {tz} time since moving to {city}.",
        "~New base for {O}: {city}",
        "~{S} made the move to {city} in {month}.",
        "~{S} changed {P} timezone to {tz}.",
        "~{S} traded {old_city} for {city}.",
    ),
    stop=(
        "{S} [isn't] in {old_city} anymore; {pr} [be] in {city}.",
        "{S} no longer [work] {old_tz} hours — {tz} now.",
        "~{S} [have] left {old_city} behind and [be] in {city}.",
        "~No more {old_tz} for {O} — {pr} [be] on {tz}.",
        "~{S} [live] in {city}; {old_city} is no longer home.",
        "~{S} gave up the {old_city} flat and [live] in {city}.",
        "~{S} [keep] {tz} hours now instead of {old_tz}.",
    ),
    neg=(
        "{S} has never been on {old_tz}.",
        "Actually {S} [have] always been in {tz}, never {old_tz}.",
        "{S} [don't] live in {old_city}, never has.",
        "{S} [isn't] in {old_city} — that was a typo.",
        "~{old_city}? Not once has {S} lived there.",
        "~Whoever put {old_tz} down for {O} was mistaken.",
        "~{S} [isn't] and never was on {old_tz} — it's {tz}.",
        "~It's not true that {S} [be] based in {old_city}.",
        "~{old_tz} is wrong for {O}; {tz} is correct.",
    ),
    elab=(
        "{S} [live] in {city}, {hood}.",
        "{S} [work] in {tz} but {hrs}.",
        "{S} [be] in {city}, so {tz}.",
        "{S} [be] based in {city} and [travel] to the office monthly.",
        "{S} [be] in {city}, but [don't] keep strict {tz} hours.",
        "~{S} [be] in {city} ({hood}).",
        "~{S} [be] based in {city}, a short walk from the office.",
        "~{P} timezone is {tz}; {pr} [travel] to see clients about once a quarter.",
        "~{S} [be] in {city} — {hood}, specifically.",
        "~{S} [work] {tz} hours from a co-working space in {city}.",
    ),
    general=(
        "{S} [be] somewhere in {reg}.",
        "{S} [live] in {reg}.",
        "{S} [work] from {reg}.",
        "~{S} [be] out {reg} way.",
        "~Region for {O}: {reg}",
        "~{reg} is home for {O}.",
        "~Q: which part of the world is {S} in? A: {reg}",
        "~{S} [be] over in {reg}.",
    ),
    negre=(
        "Don't schedule {O} on anything but {tz} hours.",
        "Use {tz} when booking with {O}.",
        "~Never book {O} outside {tz} working hours.",
        "~All invites for {O} go out in {tz}.",
        "~Quote times to {O} in {tz}.",
        "~{tz} only when scheduling {O}.",
        "~When booking {O}, think {tz}.",
    ),
)

CHANNELS = ("email", "Slack", "a phone call", "text message", "Zoom", "Teams chat", "in-person chats", "WhatsApp")


def s_channel(p: Pools) -> Ctx:
    a = p.pick(CHANNELS)
    b = p.pick(CHANNELS, a)
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(),
               extra={"why": p.pick(("it's easier to search later", "email gets buried", "they're always on mobile",
                                     "they hate notifications", "it leaves a paper trail")),
                      "thing": p.pick(("urgent issues", "quick questions", "anything with attachments", "status updates"))})


CHANNEL = Domain(
    slot="channel",
    kind="single",
    sample=s_channel,
    state=(
        "{S} [prefer] {v}.",
        "Best way to reach {O}: {v}",
        "{S} [like] to be contacted by {v}.",
        "Reach {O} via {v}.",
        "{P} preferred channel is {v}.",
        "{S} [respond] fastest on {v}.",
        "Contact {O} over {v}.",
        "{S} [want] updates by {v}.",
        "Q: how should we contact {O}? A: {v}",
        "~Quickest way to get hold of {O}: {v}",
        "~{P} go-to channel: {v}",
        "~Q: how does {S} like to be reached? A: {v}",
        "~When you need {O}, {v} is the way to go.",
        "~channel for {O} → {v}",
        "~Of all the channels, {S} [favor] {v}.",
        "~Reaching {O}? Go with {v}.",
        "~{v} is how {S} [like] to be reached.",
        "~Communication preference ({O}): {v}",
    ),
    change=(
        "!{S} switched to {v} for everything.",
        "!{S} now [prefer] {v}.",
        "{S} [want] {v} instead of {old} these days.",
        "{S} asked us to move from {old} to {v}.",
        "{S} [have] moved to {v}.",
        "~{S} [have] gone from {old} to {v}.",
        "~{S} ditched {old} in favor of {v}.",
        "~New preferred channel for {O}: {v}",
        "~{S} [want] to be reached over {v} from now on.",
        "~{S} changed {P} contact preference to {v}.",
        "~Going forward, contact {O} through {v}.",
    ),
    stop=(
        "{S} no longer [check] {old}; use {v}.",
        "{S} stopped reading {old} — {v} only.",
        "{S} [don't] want {old} anymore, {v} is better.",
        "~{S} [have] dropped {old} altogether; {v} it is.",
        "~Reach {O} on {v}; {old} no longer gets a response from {O}.",
        "~{S} [have] stopped relying on {old}; {v} reaches {O} faster.",
        "~{v} is {P} channel now, replacing {old}.",
        "~{S} gave up on {old}; use {v} instead.",
    ),
    neg=(
        "{S} never said {pr} [like] {old}.",
        "{S} [hate] {old}.",
        "That's wrong — {S} [don't] use {old}.",
        "{S} has never preferred {old}.",
        "~Whoever claimed {S} [like] {old} got it wrong.",
        "~It's not true that {S} [prefer] {old}.",
        "~{S} [have] no love for {old} and never did.",
        "~{old} was never {P} preference.",
        "~{S} [would] never pick {old}.",
    ),
    elab=(
        "{S} [prefer] {v} for {thing}.",
        "{S} [prefer] {v} because {why}.",
        "{S} [like] {v}, especially for {thing}.",
        "{S} [prefer] {v}, but only during work hours.",
        "{S} [prefer] {v}, but not after 6pm.",
        "~{S} [prefer] {v} for {thing}; expect a reply within a day.",
        "~{S} [like] {v} and usually [answer] within the hour.",
        "~{S} [want] {v} for {thing}, and nothing after 8pm.",
        "~{S} [go] with {v}, mainly because {why}.",
        "~{S} [prefer] {v}, and [ask] that people keep it brief.",
    ),
    general=(
        "{S} [have] strong opinions about how to be contacted.",
        "{S} [have] a preferred way to be contacted.",
        "{S} [be] particular about how to be reached.",
        "~{S} [care] which channel people use to reach {O}.",
        "~There's a right and a wrong way to reach {O}.",
        "~{S} [be] picky about communication channels.",
        "~{S} [have] a go-to contact channel.",
        "~Not every channel works for {O}.",
    ),
    negre=(
        "Don't use anything but {v} with {O}.",
        "Use {v} for {O}, not other channels.",
        "Avoid reaching {O} outside {v}.",
        "{S} never [check] anything but {v}.",
        "Nothing but {v} for {O}, please.",
        "~Stick to {v} with {O}.",
        "~Skip every other channel and go straight to {v} for {O}.",
        "~{S} [won't] answer anything that isn't {v}.",
        "~If it isn't {v}, {S} [won't] see it.",
        "~{v} and only {v} for {O}.",
    ),
)

VERB = (("concise", "short", "brief"), ("detailed", "thorough", "in-depth"))


def s_verbosity(p: Pools) -> Ctx:
    i = p.rng.randrange(2)
    a, b = VERB[i], VERB[1 - i]
    return Ctx({"thing": p.pick(("answers", "replies", "summaries", "updates", "explanations"))},
               {"v": p.rng.choice(a), "w": p.rng.choice(a)}, {"v": p.rng.choice(b), "w": p.rng.choice(b)}, person=p.person(),
               extra={"lim": p.pick(("three bullets", "one paragraph", "a few sentences", "under 100 words")),
                      "ctx": p.pick(("on mobile", "during the week", "for status updates", "in Slack"))})


VERBOSITY = Domain(
    slot="verbosity",
    kind="single",
    sample=s_verbosity,
    state=(
        "{S} [prefer] {v} {thing}.",
        "{S} [like] {thing} to be {v}.",
        "Keep {thing} to {O} {v}.",
        "{S} [want] {v} {thing}.",
        "{P} style: {v} {thing}",
        "Give {O} {v} {thing}.",
        "{S} [appreciate] {thing} that are {v}.",
        "~{v} {thing} are what {S} [like].",
        "~{thing} for {O} should be {v}.",
        "~{S} [be] a fan of {v} {thing}.",
        "~Q: how long should {thing} to {O} be? A: {v}",
        "~{S} [respond] best to {v} {thing}.",
        "~{thing} → {v}, for {O}",
        "~{S} [go] for {v} {thing}.",
    ),
    change=(
        "!{S} now [want] {v} {thing}.",
        "{S} [have] started asking for {v} {thing}.",
        "{S} switched to wanting {v} {thing}.",
        "{S} [prefer] {v} {thing} these days instead of {old} ones.",
        "~{S} [have] gone from {old} to {v} {thing}.",
        "~{S} asked for {v} {thing} from here on, not {old} ones.",
        "~{S} changed {P} mind: {v} {thing} from now on.",
        "~{thing} for {O} are {v} now rather than {old}.",
        "~New rule for {O}: {v} {thing}.",
    ),
    stop=(
        "{S} no longer [want] {old} {thing}; {v} is better.",
        "~{S} stopped wanting {old} {thing}; {v} suits {O} better.",
        "~No more {old} {thing} for {O} — {v} only.",
        "~{S} [have] had enough of {old} {thing} and [want] {v} ones.",
        "~{v} {thing} for {O}, not {old} ones anymore.",
        "~{S} [want] {v} {thing} now, replacing the {old} ones.",
    ),
    neg=(
        "{S} never asked for {old} {thing}.",
        "{S} [dislike] {old} {thing}.",
        "That's not right, {S} [hate] {old} {thing}.",
        "~{old} {thing} were never {P} thing.",
        "~It's simply not true that {S} [like] {old} {thing}.",
        "~{S} [can't] stand {old} {thing} and never could.",
        "~Whoever wrote that {S} [want] {old} {thing} was mistaken.",
        "~{S} [have] never been one for {old} {thing}.",
    ),
    elab=(
        "{S} [prefer] {v} {thing}, about {lim}.",
        "{S} [like] {v} {thing}, especially {ctx}.",
        "{S} [want] {v} {thing} with the key number first.",
        "{S} [prefer] {v} {thing}, no fluff and no jargon.",
        "~{S} [like] {v} {thing} {ctx}, with sources linked.",
        "~{S} [want] {v} {thing} that end with a clear next step.",
        "~{v} {thing} for {O}, and {pr} [like] a summary line up top.",
        "~{S} [prefer] {v} {thing}, written in plain language.",
        "~{S} [like] {v} {thing} with examples.",
    ),
    general=(
        "{S} [have] a clear preference about the length of {thing}.",
        "{S} [care] about how long {thing} are.",
        "~{S} [have] views on how long {thing} should be.",
        "~Length of {thing} matters to {O}.",
        "~{S} [be] particular about {thing}.",
        "~{S} [have] a preferred level of detail for {thing}.",
        "~Q: does {S} care about the length of {thing}? A: yes",
    ),
    negre=(
        "Don't send {O} {thing} that aren't {v}.",
        "~Keep {thing} for {O} {v} — no exceptions.",
        "~{thing} to {O} must be {v}, full stop.",
        "~Don't give {O} anything but {v} {thing}.",
        "~{S} [won't] read {thing} that aren't {v}.",
        "~No {thing} to {O} unless they're {v}.",
    ),
)


def s_format(p: Pools) -> Ctx:
    fm = (("bullet points", "bullets"), ("prose", "full paragraphs"), ("a table", "tables"))
    i = p.rng.randrange(3)
    j = p.rng.choice([k for k in range(3) if k != i])
    return Ctx({"thing": p.pick(("reports", "summaries", "notes", "updates", "answers"))},
               {"v": p.rng.choice(fm[i])}, {"v": p.rng.choice(fm[j])}, person=p.person(),
               extra={"head": p.pick(("a TL;DR on top", "bold headers", "numbered items", "links at the end"))})


FORMAT = Domain(
    slot="format",
    kind="single",
    sample=s_format,
    state=(
        "{S} [prefer] {thing} as {v}.",
        "Format {thing} for {O} in {v}.",
        "{S} [like] {v} for {thing}.",
        "{S} [want] {thing} in {v}.",
        "{P} preferred format for {thing}: {v}",
        "Use {v} when writing {thing} for {O}.",
        "~When {S} [read] {thing}, {S} [want] {v}.",
        "~{thing} for {O} go in {v}.",
        "~Q: what format does {S} want for {thing}? A: {v}",
        "~{S} [read] {thing} best as {v}.",
        "~{P} {thing} → {v}",
        "~{thing} in {v} suit {O} best.",
    ),
    change=(
        "!{S} switched to {v} for {thing}.",
        "{S} now [want] {thing} in {v}.",
        "{S} [prefer] {v} over {old} lately.",
        "~{S} [have] moved from {old} to {v} for {thing}.",
        "~{S} asked that {thing} come as {v} going forward.",
        "~{thing} for {O} come as {v} these days, no longer {old}.",
        "~{P} {thing} have switched from {old} to {v}.",
        "~{S} [be] done with {old}; {thing} should be {v} from here on.",
    ),
    neg=(
        "{S} never wanted {old}.",
        "{S} [can't] stand {old} in {thing}.",
        "~{S} [don't] use {old} in {thing} and never did.",
        "~{old} for {thing}? Not {P} style, never was.",
        "~It's wrong that {S} [want] {thing} as {old}.",
        "~{S} [have] never liked {old} in {thing}.",
        "~Nobody asked for {old} — certainly not {O}.",
    ),
    elab=(
        "{S} [prefer] {thing} as {v} with {head}.",
        "{S} [like] {v} for {thing}, and {head}.",
        "~{S} [want] {thing} as {v}, kept to one page.",
        "~{thing} for {O} go in {v}, plus {head}.",
        "~{S} [prefer] {v} for {thing}, with the source data attached.",
        "~{S} [like] {thing} in {v} and sent as a PDF.",
        "~{v} for {thing}, with {head} — that's what {S} [want].",
    ),
    general=(
        "{S} [care] about how {thing} are formatted.",
        "{S} [have] a format preference for {thing}.",
        "~{S} [have] opinions on the layout of {thing}.",
        "~The format of {thing} matters to {O}.",
        "~{S} [be] fussy about formatting.",
        "~{S} [have] a house style for {thing}.",
        "~Q: does {S} mind how {thing} look? A: yes",
    ),
)


def s_formality(p: Pools) -> Ctx:
    f = (("formal", "professional"), ("casual", "informal", "relaxed"))
    i = p.rng.randrange(2)
    return Ctx({}, {"v": p.rng.choice(f[i])}, {"v": p.rng.choice(f[1 - i])}, person=p.person(),
               extra={"greet": p.pick(("first names", "emoji", "'Dear' openers", "sign-offs")), "aud": p.pick(("clients", "execs", "the team"))})


FORMALITY = Domain(
    slot="formality",
    kind="single",
    sample=s_formality,
    state=(
        "{S} [prefer] a {v} tone.",
        "Keep it {v} with {O}.",
        "{S} [like] {v} communication.",
        "Tone with {O}: {v}",
        "Write to {O} in a {v} style.",
        "{S} [be] {v} in writing and expects the same.",
        "~{S} [go] for a {v} tone.",
        "~A {v} register works for {O}.",
        "~Q: how formal should we be with {O}? A: {v}",
        "~{v} is the way to go with {O}.",
        "~{S} [be] a {v} communicator.",
        "~Messages to {O} should read as {v}.",
    ),
    change=(
        "!{S} now [prefer] a {v} tone.",
        "{S} [have] gotten more {v} since the promotion.",
        "{S} asked us to be {v} from now on.",
        "~{S} [have] shifted to a {v} tone.",
        "~{S} [want] things {v} from here on.",
        "~Tone change for {O}: {v} going forward.",
        "~{S} [have] become a lot more {v} lately.",
        "~{S} switched {P} tone to {v}.",
    ),
    neg=(
        "{S} never wanted a {old} tone.",
        "{S} [dislike] {old} messages.",
        "~{S} [have] never been {old} in writing.",
        "~A {old} tone was never what {S} wanted.",
        "~It's not true that {S} [like] things {old}.",
        "~{old}? Not with {O}, not ever.",
        "~{S} [don't] do {old} and never did.",
    ),
    elab=(
        "{S} [prefer] a {v} tone, with {greet}.",
        "{S} [like] {v} communication, especially with {aud}.",
        "~{S} [prefer] a {v} tone and no exclamation marks.",
        "~Keep it {v} with {O}, but always use full sentences.",
        "~{S} [write] in a {v} style, {greet} included.",
        "~{S} [prefer] {v} messages when writing to {aud}.",
        "~A {v} tone for {O}, with a proper greeting and sign-off.",
    ),
    general=(
        "{S} [be] particular about tone.",
        "{S} [notice] the tone of messages.",
        "~{S} [have] a preferred tone.",
        "~Tone matters to {O}.",
        "~{S} [care] how messages come across.",
        "~{S} [have] views on how formal to be.",
        "~Q: does {S} have a tone preference? A: yes",
    ),
)

LANGS = ("English", "Spanish", "French", "German", "Portuguese", "Italian", "Japanese", "Dutch", "Polish", "Hindi", "Korean", "Mandarin")


def s_lang(p: Pools) -> Ctx:
    a = p.pick(LANGS)
    b = p.pick(LANGS, a)
    return Ctx({"thing": p.pick(("replies", "documents", "emails", "answers", "chats"))}, {"v": a}, {"v": b}, person=p.person(),
               extra={"exc": p.pick(("technical terms", "legal docs", "code comments")), "dialect": p.pick(("European", "Latin American", "formal", "simple"))})


LANGPREF = Domain(
    slot="language",
    kind="single",
    sample=s_lang,
    state=(
        "{S} [prefer] {thing} in {v}.",
        "Write to {O} in {v}.",
        "{P} preferred language is {v}.",
        "{S} [want] {thing} in {v}.",
        "Language for {O}: {v}",
        "Answer {O} in {v}.",
        "~{v} is the language {S} [want] {thing} in.",
        "~{thing} for {O} go out in {v}.",
        "~Q: which language for {O}? A: {v}",
        "~{S} [like] {P} {thing} written in {v}.",
        "~{P} {thing}: {v}",
        "~{S} [would] rather get {thing} in {v}.",
    ),
    change=(
        "!{S} switched to {v} for {thing}.",
        "{S} now [want] {thing} in {v}.",
        "{S} asked to move from {old} to {v}.",
        "~{S} [have] gone from {old} to {v} for {thing}.",
        "~{S} [want] {thing} in {v} from now on rather than {old}.",
        "~New language for {P} {thing}: {v}",
        "~{S} [have] asked that {thing} come in {v} going forward.",
        "~{thing} to {O} are in {v} these days, not {old}.",
    ),
    neg=(
        "{S} [don't] read {old} at all.",
        "{S} never asked for {old}.",
        "~{S} never wanted anything in {old}.",
        "~{old}? Never something {S} asked for.",
        "~It's not true that {S} [prefer] {old}.",
        "~Whoever put {old} down for {O} got it wrong.",
        "~{S} [have] no use for {old} and never did.",
    ),
    elab=(
        "{S} [prefer] {thing} in {v}, but {exc} in English are fine.",
        "{S} [want] {thing} in {v}, {dialect} style.",
        "~{S} [want] {thing} in {v}, though {exc} can stay as they are.",
        "~{S} [prefer] {thing} in {v}, kept to plain vocabulary.",
        "~{v} for {P} {thing}, with {exc} left untranslated.",
        "~{S} [want] {thing} in {v} and dates in day-month-year order.",
        "~{S} [prefer] {thing} in {v}, and {pr} [want] a glossary for {exc}.",
    ),
    general=(
        "{S} [have] a language preference for {thing}.",
        "{S} [be] particular about the language of {thing}.",
        "~{S} [care] which language {thing} are in.",
        "~Language matters to {O} when it comes to {thing}.",
        "~{S} [have] a default language.",
        "~Q: does {S} have a language preference? A: yes",
        "~{S} [be] picky about the language people use with {O}.",
    ),
)

DOMAINS: tuple[Domain, ...] = (SCHEDULE, TIMEZONE, CHANNEL, VERBOSITY, FORMAT, FORMALITY, LANGPREF)
