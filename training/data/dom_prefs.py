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
    ),
    change=(
        "!{S} now [prefer] {mt} {v}{day}.",
        "{S} switched {P} {mt} to {v}{day}.",
        "!{S} moved {P} meeting block to {v}{day}.",
        "{P} availability changed: {mt} {v}{day} from now on.",
        "{S} [want] {mt} {v}{day} instead of {old}{old_day}.",
    ),
    stop=(
        "{S} no longer [take] {mt} {old}; {v}{day} works now.",
        "{S} [don't] do {old} anymore — {mt} {v}{day}.",
    ),
    neg=(
        "{S} never said {pr} [prefer] {old}.",
        "{S} [can't] do {mt} {old} at all.",
        "That's not right — {S} [avoid] {mt} {old}.",
        "{S} has never been available {old}.",
    ),
    elab=(
        "{S} [prefer] {mt} {spec}{day}, ideally not before {cut}.",
        "{S} [like] {mt} {spec}{day} because of {why}.",
        "{S} [prefer] {mt} {gin}, specifically {spec}{day}.",
        "{mt} with {O}: {spec}{day}, and keep them under 30 minutes.",
    ),
    general=(
        "{S} [prefer] {g}.",
        "{S} [like] meeting {gin}.",
        "{g} work best for {O}.",
        "{S} [be] a {gn} person when it comes to {mt}.",
    ),
    negre=(
        "Don't book {O} outside {v}{day}.",
        "No {mt} for {O} except {v}{day}.",
        "Avoid scheduling {O} anywhere but {v}{day}.",
        "{S} never [take] {mt} outside {v}{day}.",
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
    ),
    change=(
        "!{S} moved to {city} last month.",
        "{S} relocated to {city}.",
        "!{S} [be] now on {tz}.",
        "{S} switched to {tz} after moving.",
        "{S} [be] living in {city} now, not {old_city}.",
        "{S} left {old_city} for {city} in {month}.",
    ),
    stop=(
        "{S} [isn't] in {old_city} anymore; {pr} [be] in {city}.",
        "{S} no longer [work] {old_tz} hours — {tz} now.",
    ),
    neg=(
        "{S} has never been on {old_tz}.",
        "Actually {S} [have] always been in {tz}, never {old_tz}.",
        "{S} [don't] live in {old_city}, never has.",
        "{S} [isn't] in {old_city} — that was a typo.",
    ),
    elab=(
        "{S} [live] in {city}, {hood}.",
        "{S} [work] in {tz} but {hrs}.",
        "{S} [be] in {city}, so {tz}.",
        "{S} [be] based in {city} and [travel] to the office monthly.",
        "{S} [be] in {city}, but [don't] keep strict {tz} hours.",
    ),
    general=(
        "{S} [be] somewhere in {reg}.",
        "{S} [live] in {reg}.",
        "{S} [work] from {reg}.",
    ),
    negre=(
        "Don't schedule {O} on anything but {tz} hours.",
        "Use {tz} when booking with {O}.",
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
    ),
    change=(
        "!{S} switched to {v} for everything.",
        "!{S} now [prefer] {v}.",
        "{S} [want] {v} instead of {old} these days.",
        "{S} asked us to move from {old} to {v}.",
        "{S} [have] moved to {v}.",
    ),
    stop=(
        "{S} no longer [check] {old}; use {v}.",
        "{S} stopped reading {old} — {v} only.",
        "{S} [don't] want {old} anymore, {v} is better.",
    ),
    neg=(
        "{S} never said {pr} [like] {old}.",
        "{S} [hate] {old}.",
        "That's wrong — {S} [don't] use {old}.",
        "{S} has never preferred {old}.",
    ),
    elab=(
        "{S} [prefer] {v} for {thing}.",
        "{S} [prefer] {v} because {why}.",
        "{S} [like] {v}, especially for {thing}.",
        "{S} [prefer] {v}, but only during work hours.",
        "{S} [prefer] {v}, but not after 6pm.",
    ),
    general=(
        "{S} [have] strong opinions about how to be contacted.",
        "{S} [have] a preferred way to be contacted.",
        "{S} [be] particular about how to be reached.",
    ),
    negre=(
        "Don't use anything but {v} with {O}.",
        "Use {v} for {O}, not other channels.",
        "Avoid reaching {O} outside {v}.",
        "{S} never [check] anything but {v}.",
        "Nothing but {v} for {O}, please.",
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
    ),
    change=(
        "!{S} now [want] {v} {thing}.",
        "{S} [have] started asking for {v} {thing}.",
        "{S} switched to wanting {v} {thing}.",
        "{S} [prefer] {v} {thing} these days instead of {old} ones.",
    ),
    stop=(
        "{S} no longer [want] {old} {thing}; {v} is better.",
    ),
    neg=(
        "{S} never asked for {old} {thing}.",
        "{S} [dislike] {old} {thing}.",
        "That's not right, {S} [hate] {old} {thing}.",
    ),
    elab=(
        "{S} [prefer] {v} {thing}, about {lim}.",
        "{S} [like] {v} {thing}, especially {ctx}.",
        "{S} [want] {v} {thing} with the key number first.",
        "{S} [prefer] {v} {thing}, no fluff and no jargon.",
    ),
    general=(
        "{S} [have] a clear preference about the length of {thing}.",
        "{S} [care] about how long {thing} are.",
    ),
    negre=(
        "Don't send {O} {thing} that aren't {v}.",
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
    ),
    change=(
        "!{S} switched to {v} for {thing}.",
        "{S} now [want] {thing} in {v}.",
        "{S} [prefer] {v} over {old} lately.",
    ),
    neg=(
        "{S} never wanted {old}.",
        "{S} [can't] stand {old} in {thing}.",
    ),
    elab=(
        "{S} [prefer] {thing} as {v} with {head}.",
        "{S} [like] {v} for {thing}, and {head}.",
    ),
    general=(
        "{S} [care] about how {thing} are formatted.",
        "{S} [have] a format preference for {thing}.",
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
    ),
    change=(
        "!{S} now [prefer] a {v} tone.",
        "{S} [have] gotten more {v} since the promotion.",
        "{S} asked us to be {v} from now on.",
    ),
    neg=(
        "{S} never wanted a {old} tone.",
        "{S} [dislike] {old} messages.",
    ),
    elab=(
        "{S} [prefer] a {v} tone, with {greet}.",
        "{S} [like] {v} communication, especially with {aud}.",
    ),
    general=(
        "{S} [be] particular about tone.",
        "{S} [notice] the tone of messages.",
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
    ),
    change=(
        "!{S} switched to {v} for {thing}.",
        "{S} now [want] {thing} in {v}.",
        "{S} asked to move from {old} to {v}.",
    ),
    neg=(
        "{S} [don't] read {old} at all.",
        "{S} never asked for {old}.",
    ),
    elab=(
        "{S} [prefer] {thing} in {v}, but {exc} in English are fine.",
        "{S} [want] {thing} in {v}, {dialect} style.",
    ),
    general=(
        "{S} [have] a language preference for {thing}.",
        "{S} [be] particular about the language of {thing}.",
    ),
)

DOMAINS: tuple[Domain, ...] = (SCHEDULE, TIMEZONE, CHANNEL, VERBOSITY, FORMAT, FORMALITY, LANGPREF)
