"""Value samplers of the preference slots: meeting windows, timezones and locations, communication
preferences.

Their phrasings are in ``phrases/prefs.toml``.
"""

from __future__ import annotations

import random

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.phrasebook import domains
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
    rng_txt = p.rng.choice(
        (
            f"{_hour(s, p.rng)}–{_hour(e, p.rng)}",
            f"between {_hour(s, p.rng)} and {_hour(e, p.rng)}",
            f"from {_hour(s, p.rng)} to {_hour(e, p.rng)}",
            f"{_hour(s, p.rng)}-{_hour(e, p.rng)}",
        )
    )
    return {"spec": rng_txt, "day": day, "g": g, "gin": gin, "gn": PART_NOUN[i]}


def s_schedule(p: Pools) -> Ctx:
    i = p.rng.randrange(len(PARTS))
    j = p.rng.choice([k for k in range(len(PARTS)) if k != i])
    A = _window(i, p)
    B = _window(j, p)
    # the value shown in state templates: specific window or the general part of the day
    A["v"] = A["spec"] if p.rng.random() < 0.5 else A["gin"]
    B["v"] = B["spec"] if p.rng.random() < 0.6 else B["gin"]
    return Ctx(
        {"mt": p.pick(("meetings", "calls", "1:1s", "syncs", "check-ins"))},
        A,
        B,
        person=p.person(),
        extra={
            "why": p.pick(
                ("school drop-off", "the gym", "deep work", "a standing call with Asia", "childcare", "commuting")
            ),
            "cut": _hour(p.rng.randint(8, 11), p.rng),
        },
    )


# (abbreviation or zone phrase, a city in it, region)
ZONES: tuple[tuple[str, str, str], ...] = (
    ("EST", "New York", "the East Coast"),
    ("ET", "Boston", "the East Coast"),
    ("PST", "San Francisco", "the West Coast"),
    ("PT", "Seattle", "the West Coast"),
    ("CST", "Chicago", "the Midwest"),
    ("MST", "Denver", "the Mountain West"),
    ("GMT", "London", "the UK"),
    ("CET", "Berlin", "central Europe"),
    ("CET", "Paris", "central Europe"),
    ("IST", "Bangalore", "India"),
    ("SGT", "Singapore", "Southeast Asia"),
    ("JST", "Tokyo", "Japan"),
    ("AEST", "Sydney", "Australia"),
    ("UTC", "Reykjavik", "Iceland"),
    ("CET", "Madrid", "Spain"),
    ("ET", "Toronto", "eastern Canada"),
    ("PT", "Vancouver", "western Canada"),
    ("CET", "Amsterdam", "the Netherlands"),
    ("GMT", "Dublin", "Ireland"),
    ("IST", "Mumbai", "India"),
)


def s_tz(p: Pools) -> Ctx:
    a = p.rng.choice(ZONES)
    b = p.rng.choice([z for z in ZONES if z[0] != a[0] and z[2] != a[2]])

    def val(z: tuple[str, str, str]) -> dict[str, str]:
        form = p.rng.random()
        v = z[0] if form < 0.45 else z[1]
        return {"v": v, "tz": z[0], "city": z[1], "reg": z[2]}

    return Ctx(
        {},
        val(a),
        val(b),
        person=p.person(),
        extra={
            "hood": p.pick(("downtown", "the suburbs", "near the river", "on the north side")),
            "hrs": p.pick(("keeps late hours", "starts at 7", "works split shifts")),
        },
    )


CHANNELS = ("email", "Slack", "a phone call", "text message", "Zoom", "Teams chat", "in-person chats", "WhatsApp")


def s_channel(p: Pools) -> Ctx:
    a, b = p.pick_two(CHANNELS)
    why = (
        "it's easier to search later",
        "email gets buried",
        "they're always on mobile",
        "they hate notifications",
        "it leaves a paper trail",
    )
    things = ("urgent issues", "quick questions", "anything with attachments", "status updates")
    return Ctx.of({}, a, b, p.person(), {"why": p.pick(why), "thing": p.pick(things)})


VERB = (("concise", "short", "brief"), ("detailed", "thorough", "in-depth"))


def s_verbosity(p: Pools) -> Ctx:
    i = p.rng.randrange(2)
    a, b = VERB[i], VERB[1 - i]
    return Ctx(
        {"thing": p.pick(("answers", "replies", "summaries", "updates", "explanations"))},
        {"v": p.rng.choice(a), "w": p.rng.choice(a)},
        {"v": p.rng.choice(b), "w": p.rng.choice(b)},
        person=p.person(),
        extra={
            "lim": p.pick(("three bullets", "one paragraph", "a few sentences", "under 100 words")),
            "ctx": p.pick(("on mobile", "during the week", "for status updates", "in Slack")),
        },
    )


def s_format(p: Pools) -> Ctx:
    fm = (("bullet points", "bullets"), ("prose", "full paragraphs"), ("a table", "tables"))
    i = p.rng.randrange(3)
    j = p.rng.choice([k for k in range(3) if k != i])
    things = ("reports", "summaries", "notes", "updates", "answers")
    heads = ("a TL;DR on top", "bold headers", "numbered items", "links at the end")
    return Ctx.of(
        {"thing": p.pick(things)}, p.rng.choice(fm[i]), p.rng.choice(fm[j]), p.person(), {"head": p.pick(heads)}
    )


def s_formality(p: Pools) -> Ctx:
    f = (("formal", "professional"), ("casual", "informal", "relaxed"))
    i = p.rng.randrange(2)
    greetings, audiences = ("first names", "emoji", "'Dear' openers", "sign-offs"), ("clients", "execs", "the team")
    return Ctx.of(
        {},
        p.rng.choice(f[i]),
        p.rng.choice(f[1 - i]),
        p.person(),
        {"greet": p.pick(greetings), "aud": p.pick(audiences)},
    )


LANGS = (
    "English",
    "Spanish",
    "French",
    "German",
    "Portuguese",
    "Italian",
    "Japanese",
    "Dutch",
    "Polish",
    "Hindi",
    "Korean",
    "Mandarin",
)


def s_lang(p: Pools) -> Ctx:
    a, b = p.pick_two(LANGS)
    things = ("replies", "documents", "emails", "answers", "chats")
    exceptions = ("technical terms", "legal docs", "code comments")
    dialects = ("European", "Latin American", "formal", "simple")
    return Ctx.of({"thing": p.pick(things)}, a, b, p.person(), {"exc": p.pick(exceptions), "dialect": p.pick(dialects)})


SAMPLERS = {
    "schedule": s_schedule,
    "timezone": s_tz,
    "channel": s_channel,
    "verbosity": s_verbosity,
    "format": s_format,
    "formality": s_formality,
    "language": s_lang,
}
DOMAINS: tuple[Domain, ...] = domains("prefs", SAMPLERS)
