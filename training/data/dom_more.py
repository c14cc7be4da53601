"""More multi-valued and immutable slots (generator v2): instruments, certifications, visited
countries (accumulating); native language and company start year (cannot change)."""

from __future__ import annotations

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.pools import Pools

INSTRUMENTS = ("the piano", "the guitar", "the violin", "the drums", "the cello", "the saxophone", "the flute",
               "the ukulele", "the bass", "the trumpet", "the harmonica", "the accordion")


def s_instrument(p: Pools) -> Ctx:
    a = p.pick(INSTRUMENTS)
    c = p.pick(INSTRUMENTS, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"band": p.codename(), "yrs": str(p.rng.randint(2, 30)), "where": p.city()})


INSTRUMENT = Domain(
    slot="instruments",
    kind="multi",
    sample=s_instrument,
    state=(
        "{S} [play] {v}.",
        "{S} [know] how to play {v}.",
        "Instrument: {v}",
        "{S} [be] a decent player of {v}.",
        "Q: what does {S} play? A: {v}",
        "{P} instrument of choice is {v}.",
        "{S} took up {v} as a kid and still [play].",
    ),
    stop=("{S} sold {pp} instrument and [don't] play {old} anymore.", "{S} gave up {old} after the wrist injury."),
    neg=("{S} has never played {old}.", "{S} [don't] play any instrument.", "{S} can't play {old} at all."),
    elab=("{S} [play] {v} in a band called {band}.", "{S} has played {v} for {yrs} years.", "{S} [play] {v}, mostly jazz.",
          "{S} [play] {v} at open mics in {where}.", "{S} [play] {v}, though only at home."),
    general=("{S} [play] an instrument.", "{S} [be] musical.", "{S} [make] music in {pp} spare time."),
    also=("{S} also [play] {v}.", "{S} [play] {v} too.", "{S} recently started learning {v} as well.",
          "Besides {old}, {S} [play] {v}.", "On top of {old}, {S} [play] {v}."),
)

CERTS = ("AWS Solutions Architect", "PMP", "CISSP", "Google Cloud Professional", "Scrum Master", "CPA", "CFA Level II",
         "Kubernetes CKA", "Six Sigma Green Belt", "ITIL Foundation", "Azure Administrator", "Terraform Associate")


def s_cert(p: Pools) -> Ctx:
    a = p.pick(CERTS)
    c = p.pick(CERTS, a)
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"yr": str(p.rng.randint(2012, 2026)), "co": p.company()})


CERT = Domain(
    slot="certifications",
    kind="multi",
    sample=s_cert,
    state=(
        "{S} [be] {v} certified.",
        "{S} [hold] the {v} certification.",
        "Certifications: {v}",
        "{S} [have] a {v} cert.",
        "{S} passed the {v} exam.",
        "Q: which certs does {S} have? A: {v}",
    ),
    stop=("{P} {old} certification lapsed last month.", "{S} let {pp} {old} cert expire."),
    neg=("{S} has never taken the {old} exam.", "{S} [isn't] {old} certified.", "{S} failed the {old} exam and never retook it."),
    elab=("{S} [be] {v} certified since {yr}.", "{S} got the {v} certification through {co}.",
          "{S} [hold] the {v} cert and [mentor] others studying for it.", "{S} [have] the {v} certification, renewed in {yr}."),
    general=("{S} [have] a professional certification.", "{S} [be] certified."),
    also=("{S} also [hold] the {v} certification.", "{S} passed the {v} exam too.", "{S} added {v} to {pp} certs.",
          "Besides {old}, {S} [be] {v} certified.", "{S} [be] now {v} certified as well."),
)


def s_visited(p: Pools) -> Ctx:
    a, c = p.country(), p.country()
    while c == a:
        c = p.country()
    return Ctx({}, {"v": a}, {"v": c}, C={"v": c}, person=p.person(),
               extra={"yr": str(p.rng.randint(2005, 2026)), "city": p.city()})


VISITED = Domain(
    slot="countries_visited",
    kind="multi",
    sample=s_visited,
    state=(
        "{S} has been to {v}.",
        "{S} has visited {v}.",
        "Countries visited: {v}",
        "{S} traveled to {v} once.",
        "{S} [know] {v} from a trip there.",
    ),
    neg=("{S} has never been to {old}.", "{S} has never set foot in {old}."),
    elab=("{S} has been to {v}, back in {yr}.", "{S} visited {v} for a wedding.", "{S} has been to {v} twice, both times for work.",
          "{S} has visited {v} and loved the food."),
    general=("{S} has traveled abroad.", "{S} [have] done some international travel."),
    also=("{S} has also been to {v}.", "{S} visited {v} too.", "{S} just got back from {v} as well.",
          "Besides {old}, {S} has been to {v}."),
)


def s_native(p: Pools) -> Ctx:
    from writegate.training.data.dom_prefs import LANGS

    a = p.pick(LANGS)
    b = p.pick(LANGS, a)
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(), extra={"ctry": p.country()})


NATIVE = Domain(
    slot="native_language",
    kind="immutable",
    sample=s_native,
    state=(
        "{P} native language is {v}.",
        "{P} mother tongue is {v}.",
        "{S} grew up speaking {v}.",
        "First language: {v}",
        "{S} [be] a native {v} speaker.",
        "Q: what is {P} first language? A: {v}",
    ),
    neg=("{S} [isn't] a native {old} speaker.", "{S} learned {old} at school; it [isn't] {pp} first language."),
    elab=("{S} grew up speaking {v} in {ctry}.", "{P} mother tongue is {v}, and {pr} still [dream] in it.",
          "{P} native language is {v}; {pr} [be] happy to chat in it."),
    general=("{S} [be] not a native English speaker.", "{S} grew up bilingual."),
)


def s_joined(p: Pools) -> Ctx:
    y = p.rng.randint(2005, 2025)
    y2 = y + p.rng.choice((-3, -2, -1, 1, 2, 3))
    return Ctx({"co": p.company()}, {"v": str(y)}, {"v": str(y2)}, person=p.person(),
               extra={"team": p.pick(("sales", "support", "platform", "finance", "design", "research")), "mgr": p.person().first})


JOINED = Domain(
    slot="start_year",
    kind="immutable",
    sample=s_joined,
    state=(
        "{S} joined {co} in {v}.",
        "{S} started at {co} in {v}.",
        "Start year at {co}: {v}",
        "{S} has been with {co} since {v}.",
        "{P} first year at {co} was {v}.",
        "Q: when did {S} join {co}? A: {v}",
        "{S} was hired by {co} in {v}.",
    ),
    neg=("{S} didn't join {co} in {old}.", "{S} wasn't even at {co} in {old}."),
    elab=("{S} joined {co} in {v} on the {team} team.", "{S} joined {co} in {v}, hired by {mgr}.",
          "{S} started at {co} in {v}, right out of school."),
    general=("{S} has been at {co} for years.", "{S} [be] a long-time {co} employee."),
)



def s_wedding(p: Pools) -> Ctx:
    import datetime as dt

    from writegate.training.data.pools import date_text

    d = p.date(2000, 2024)
    d2 = d + dt.timedelta(days=p.rng.choice((-400, -365, -30, -7, -2, 2, 7, 30, 365, 400)))
    return Ctx({}, {"v": date_text(d, p.rng, True)}, {"v": date_text(d2, p.rng, True)}, person=p.person(),
               extra={"place": p.city(), "sp": p.person().first})


WEDDING = Domain(  # v2.1: a past event's date cannot change
    slot="wedding_date",
    kind="immutable",
    sample=s_wedding,
    state=(
        "{S} got married on {v}.",
        "{P} wedding was on {v}.",
        "Wedding date: {v}",
        "{S} [be] married on {v}.",
        "Q: when did {S} get married? A: {v}",
        "{P} wedding day was {v}.",
    ),
    neg=("{S} didn't get married on {old}.",),
    elab=("{S} got married on {v} in {place}.", "{P} wedding was on {v}, a small ceremony with {sp}'s family.",
          "{S} got married on {v}; the party was in {place}."),
    general=("{S} [be] married.", "{S} got married a while ago."),
)


def s_school(p: Pools) -> Ctx:
    a = p.city()
    b = p.city()
    while b == a:
        b = p.city()
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(), extra={"yr": str(p.rng.randint(1980, 2015))})


SCHOOL = Domain(  # v2.1: where someone went to high school cannot change
    slot="high_school",
    kind="immutable",
    sample=s_school,
    state=(
        "{S} went to high school in {v}.",
        "{S} finished high school in {v}.",
        "High school: {v}",
        "{P} high school was in {v}.",
        "Q: where did {S} go to high school? A: {v}",
        "{S} [be] a graduate of a high school in {v}.",
    ),
    neg=("{S} didn't go to high school in {old}.",),
    elab=("{S} went to high school in {v}, class of {yr}.", "{S} finished high school in {v} in {yr}."),
    general=("{S} went to high school abroad.",),
)

DOMAINS: tuple[Domain, ...] = (INSTRUMENT, CERT, VISITED, NATIVE, JOINED, WEDDING, SCHOOL)
