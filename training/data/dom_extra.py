"""Value samplers of the meeting-time, contact, favourite, children and out-of-office slots.

Their phrasings are in ``phrases/extra.toml``.
"""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.phrasebook import domains
from writegate.training.data.pools import WEEKDAYS, Pools, date_text

MEETINGS = (
    "weekly sync",
    "standup",
    "retro",
    "sprint planning",
    "team lunch",
    "all-hands",
    "design review",
    "pipeline review",
    "office hours",
    "board prep",
    "1:1 with the CEO",
    "ops review",
)


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
    # compare the time, not its text ("11am" and "11:00" are the same slot)
    while _same_day(d1, d2) and m1 == m2:
        d2, t2, m2 = _slot_time(p)
    base = {
        "mt": p.pick(MEETINGS),
        "room": p.pick(("the big room", "Zoom", "the 4th floor", "room " + str(p.rng.randint(100, 450)))),
    }
    return Ctx(
        base,
        {"v": f"{d1} at {t1}", "d": d1, "t": t1},
        {"v": f"{d2} at {t2}", "d": d2, "t": t2},
        person=p.person(),
        other_base={**base, "mt": p.pick(MEETINGS, base["mt"])},
        extra={"len": p.pick(("30 minutes", "an hour", "45 minutes", "15 minutes")), "host": p.person().first},
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
    what = "email" if kind == "email" else p.pick(("phone number", "cell", "mobile number"))
    return Ctx.of(
        {"what": what}, a, b, person, {"hrs": p.pick(("before 6pm", "on weekdays", "for urgent things only"))}
    )


FAV = {
    "coffee order": (
        "flat white",
        "oat latte",
        "cortado",
        "black coffee",
        "chai latte",
        "espresso",
        "cold brew",
        "cappuccino",
    ),
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
    why = ("since a trip years ago", "it reminds them of home", "no real reason", "after a friend's tip")
    return Ctx.of({"cat": cat}, a, b, p.person(), {"why": p.pick(why)})


def s_kids(p: Pools) -> Ctx:
    words = ("no", "one", "two", "three", "four")
    a = p.rng.randint(1, 3)
    b = a + 1  # change templates describe a new child

    def kids(n: int) -> str:
        return "no kids" if n == 0 else ("one kid" if n == 1 else f"{words[n]} kids")

    return Ctx(
        {},
        {"v": kids(a), "n": str(a)},
        {"v": kids(b), "n": str(b)},
        person=p.person(),
        extra={
            "ages": p.pick(("in primary school", "both teenagers", "under five", "in college")),
            "kid": p.person().first,
        },
    )


def s_ooo(p: Pools) -> Ctx:
    d = p.date(2019, 2026)
    d2 = d + dt.timedelta(days=p.rng.choice((-10, -5, -3, -2, 2, 3, 4, 7, 14)))
    why = ("parental leave", "vacation", "a conference", "medical leave", "a family visit")
    return Ctx.of(
        {"why": p.pick(why)},
        date_text(d, p.rng, with_year=False),
        date_text(d2, p.rng, with_year=False),
        p.person(),
        {"cover": p.person().first, "city": p.city()},
    )


SAMPLERS = {
    "meeting_time": s_meeting,
    "contact": s_contact,
    "favorite": s_fav,
    "children": s_kids,
    "out_of_office": s_ooo,
}
DOMAINS: tuple[Domain, ...] = domains("extra", SAMPLERS)
