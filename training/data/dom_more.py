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
        "~{v} is what {S} [play].", "~{S} [be] able to play {v}.", "~Q: does {S} play anything? A: yes, {v}",
        "~{S} [practise] {v}.", "~{S} [be] into playing {v}.", "~You'll hear {O} on {v}.", "~{S} [be] handy on {v}.",
    ),
    stop=("{S} sold {pp} instrument and [don't] play {old} anymore.", "{S} gave up {old} after the wrist injury.",
        "~{S} stopped playing {old}.", "~{S} [be] done with {old}.", "~{S} walked away from {old}.",
        "~{S} put {old} down for good.", "~{S} [haven't] touched {old} since the move.",
    ),
    neg=("{S} has never played {old}.", "{S} [don't] play any instrument.", "{S} can't play {old} at all.",
        "~{S} [don't] know the first thing about {old}.", "~Not true that {S} [play] {old}.",
        "~{S} wouldn't know one end of {old} from the other.", "~Whoever said {S} [play] {old} got it wrong.",
        "~Q: does {S} play {old}? A: no, never",
    ),
    elab=("{S} [play] {v} in a band called {band}.", "{S} has played {v} for {yrs} years.", "{S} [play] {v}, mostly jazz.",
          "{S} [play] {v} at open mics in {where}.", "{S} [play] {v}, though only at home.",
        "~{v} is what {S} [play], {yrs} years and counting.", "~{S} [play] {v} and [give] lessons on weekends.",
        "~{S} [be] self-taught on {v}.", "~{S} [play] {v} with {band} at gigs around {where}.",
        "~{S} [play] {v} in the {where} community orchestra.",
    ),
    general=("{S} [play] an instrument.", "{S} [be] musical.", "{S} [make] music in {pp} spare time.",
        "~{S} [have] a musical hobby.", "~Music is one of {P} hobbies.", "~{S} [know] {pp} way around an instrument.",
        "~Q: does {S} play anything? A: yes, an instrument", "~{S} [be] a bit of a musician.",
    ),
    also=("{S} also [play] {v}.", "{S} [play] {v} too.", "{S} recently started learning {v} as well.",
          "Besides {old}, {S} [play] {v}.", "On top of {old}, {S} [play] {v}.",
        "~{S} [play] {v} as well as {old}.", "~In addition to {old}, {S} [have] picked up {v}.",
        "~{v} is another instrument {S} [play].", "~{S} [be] learning {v} on the side, alongside {old}.",
        "~Add {v} to the list of instruments {S} [play].",
    ),
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
        "~{P} credentials include {v}.", "~Q: is {S} {v} certified? A: yes", "~{S} [carry] the {v} credential.",
        "~{S} earned {v} certification.", "~Cert on file for {O}: {v}", "~{S} [be] certified in {v}.",
    ),
    stop=("{P} {old} certification lapsed last month.", "{S} let {pp} {old} cert expire.",
        "~{P} {old} certification expired and wasn't renewed.", "~{S} [be] no longer {old} certified.",
        "~{old}: lapsed — {S} didn't renew.", "~{S} dropped {pp} {old} credential.",
        "~The {old} cert isn't valid for {O} anymore.",
    ),
    neg=("{S} has never taken the {old} exam.", "{S} [isn't] {old} certified.", "{S} failed the {old} exam and never retook it.",
        "~{S} [don't] hold any {old} certification.", "~{S} never got {old} certified.",
        "~No {old} cert for {O} — that's wrong.", "~Q: is {S} {old} certified? A: no",
        "~{S} never even sat the exam for {old}.",
    ),
    elab=("{S} [be] {v} certified since {yr}.", "{S} got the {v} certification through {co}.",
          "{S} [hold] the {v} cert and [mentor] others studying for it.", "{S} [have] the {v} certification, renewed in {yr}.",
        "~While at {co}, {S} earned {v} in {yr}.", "~{S} [be] {v} certified — {co} paid for the course.",
        "~{S} [have] {v}, which {co} requires for {pp} role.", "~{S} passed {v} on the first try in {yr}.",
        "~{S} [be] {v} certified and [run] {co}'s study group for it.",
    ),
    general=("{S} [have] a professional certification.", "{S} [be] certified.",
        "~{S} [have] an industry credential.", "~{S} [have] passed a certification exam.",
        "~{S} [hold] at least one cert.", "~Q: does {S} have any certifications? A: yes",
        "~{S} [be] professionally accredited.",
    ),
    also=("{S} also [hold] the {v} certification.", "{S} passed the {v} exam too.", "{S} added {v} to {pp} certs.",
          "Besides {old}, {S} [be] {v} certified.", "{S} [be] now {v} certified as well.",
        "~{S} [hold] {v} in addition to {old}.", "~{v} is another cert {S} [have].",
        "~{S} [have] added {v} on top of {old}.", "~Alongside {old}, {S} [be] certified in {v}.",
        "~Add {v} to {P} certs.",
    ),
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
        "~{v} is a country {S} [have] been to.", "~{S} [have] set foot in {v}.", "~Q: has {S} been to {v}? A: yes",
        "~{S} spent time in {v}.", "~{S} [have] travelled in {v}.",
    ),
    neg=("{S} has never been to {old}.", "{S} has never set foot in {old}.",
        "~{S} [have] never been anywhere near {old}.", "~Not true that {S} went to {old}.",
        "~{S} [haven't] traveled to {old}, not even once.", "~Q: has {S} been to {old}? A: no, never",
        "~Whoever said {S} visited {old} was wrong.",
    ),
    elab=("{S} has been to {v}, back in {yr}.", "{S} visited {v} for a wedding.", "{S} has been to {v} twice, both times for work.",
          "{S} has visited {v} and loved the food.",
        "~{S} visited {v} in {yr} on a backpacking trip.", "~{S} went to {v} for work in {yr}.",
        "~{S} [have] been to {v} — two weeks, mostly by train.", "~{S} visited {v} on {pp} honeymoon.",
        "~{S} has been to {v} and [speak] fondly of it.",
    ),
    general=("{S} has traveled abroad.", "{S} [have] done some international travel.",
        "~{S} [have] been abroad.", "~{S} [have] a passport with some stamps in it.",
        "~Q: has {S} traveled internationally? A: yes", "~{S} [have] visited at least one other country.",
        "~{S} [have] some travel under {pp} belt.",
    ),
    also=("{S} has also been to {v}.", "{S} visited {v} too.", "{S} just got back from {v} as well.",
          "Besides {old}, {S} has been to {v}.",
        "~{S} [have] been to {v} as well as {old}.", "~Add {v} to the countries {S} [have] visited.",
        "~Beyond {old}, {S} [have] also seen {v}.", "~{v} is another country {S} [have] been to.",
        "~{S} made it to {v} this year too.",
    ),
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
        "~{v} is {P} first language.", "~{S} [speak] {v} natively.", "~{P} L1: {v}",
        "~{S} [be] a {v} speaker from birth.", "~{v} was the language {S} learned first.",
        "~Q: which language did {S} grow up with? A: {v}",
    ),
    neg=("{S} [isn't] a native {old} speaker.", "{S} learned {old} at school; it [isn't] {pp} first language.",
        "~{old} isn't {P} native language.", "~{S} picked up {old} later in life; it's not {pp} mother tongue.",
        "~{S} [don't] speak {old} natively.", "~Not true that {S} grew up with {old}.",
        "~Q: is {old} {P} first language? A: no",
    ),
    elab=("{S} grew up speaking {v} in {ctry}.", "{P} mother tongue is {v}, and {pr} still [dream] in it.",
          "{P} native language is {v}; {pr} [be] happy to chat in it.",
        "~{v} is {P} first language — {pr} grew up in {ctry}.",
        "~{S} [speak] {v} natively and [translate] for the team sometimes.",
        "~{P} native language is {v}; {pr} [read] it but rarely [write] it.",
        "~{S} grew up speaking {v} at home with {pp} grandparents.",
        "~{S} [be] a native {v} speaker and [teach] it on weekends.",
    ),
    general=("{S} [be] not a native English speaker.", "{S} grew up bilingual.",
        "~{S} [speak] at least one language natively.", "~{P} first language is known.",
        "~{P} native language is on record.", "~{S} [be] a native speaker of one language or another.",
        "~{S} [know] at least one language from birth.",
    ),
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
        "~{v} is the year {co} hired {O}.", "~{S} came on board at {co} in {v}.",
        "~{P} start date at {co}: sometime in {v}", "~{co} took {O} on in {v}.", "~{S} [be] one of {co}'s {v} hires.",
        "~{S} signed on with {co} in {v}.", "~{P} tenure at {co} began in {v}.",
    ),
    neg=("{S} didn't join {co} in {old}.", "{S} wasn't even at {co} in {old}.",
        "~{old} isn't when {S} joined {co}.", "~{S} wasn't hired by {co} in {old}.",
        "~Not true that {S} started at {co} in {old}.", "~Q: did {S} join {co} in {old}? A: no",
        "~{S} was not yet at {co} in {old}; {pr} joined later.",
    ),
    elab=("{S} joined {co} in {v} on the {team} team.", "{S} joined {co} in {v}, hired by {mgr}.",
          "{S} started at {co} in {v}, right out of school.",
        "~{S} joined {co} in {v} as part of the {team} group.",
        "~{S} started at {co} in {v}; {mgr} was {pp} first manager.",
        "~{S} joined {co} in {v} through a referral from {mgr}.",
        "~{v} is when {S} joined {co}, as an intern in {team}.",
        "~{S} joined {co} in {v}, after a stint at a startup.",
    ),
    general=("{S} has been at {co} for years.", "{S} [be] a long-time {co} employee.",
        "~{S} joined {co} at some point.", "~{S} [be] a {co} employee.", "~Q: does {S} work at {co}? A: yes",
        "~{S} [be] part of the {co} team.", "~{S} [be] on the {co} payroll.",
    ),
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
        "~{v} is the day {S} got married.", "~{S} tied the knot on {v}.", "~{P} wedding took place on {v}.",
        "~{P} big day was {v}.", "~Q: what's {P} wedding date? A: {v}", "~{S} said \"I do\" on {v}.",
    ),
    neg=("{S} didn't get married on {old}.",
        "~{old} isn't {P} wedding date.", "~{S} wasn't married on {old} — wrong date.",
        "~Not true that {S} got married on {old}.", "~Q: did {S} get married on {old}? A: no",
        "~Nothing happened on {old}; {S} got married on another day.",
    ),
    elab=("{S} got married on {v} in {place}.", "{P} wedding was on {v}, a small ceremony with {sp}'s family.",
          "{S} got married on {v}; the party was in {place}.",
        "~{S} got married on {v}, a beach wedding in {place}.", "~{P} wedding was {v}; about fifty guests came.",
        "~{S} tied the knot on {v} with {sp} in {place}.",
        "~{S} got married on {v}, and the honeymoon was in {place}.",
        "~{S} got married on {v} at the registry office.",
    ),
    general=("{S} [be] married.", "{S} got married a while ago.",
        "~{S} [have] a spouse.", "~{S} had a wedding at some point.", "~Q: is {S} married? A: yes",
        "~{S} [have] tied the knot.", "~{P} marital status: married.",
    ),
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
        "~{v} is where {S} went to high school.", "~{S} attended high school in {v}.",
        "~{S} spent {pp} high school years in {v}.", "~{S} did high school in {v}.",
        "~Q: where was {P} high school? A: {v}", "~{P} secondary school was in {v}.",
    ),
    neg=("{S} didn't go to high school in {old}.",
        "~{S} never attended high school in {old}.", "~{old} isn't where {S} went to high school.",
        "~Not true that {S} finished high school in {old}.", "~Q: did {S} go to high school in {old}? A: no",
        "~{S} [have] never even lived in {old}.",
    ),
    elab=("{S} went to high school in {v}, class of {yr}.", "{S} finished high school in {v} in {yr}.",
        "~{S} went to high school in {v}, where {pr} ran track.",
        "~{v} is where {S} went to high school; {pr} was class president.",
        "~{S} attended high school in {v} on a scholarship.", "~{S} went to high school in {v} — a boarding school.",
        "~{S} finished high school in {v}, top of {pp} class in {yr}.",
    ),
    general=("{S} went to high school abroad.",
        "~{S} finished high school.", "~{S} [have] a high school diploma.", "~{S} completed secondary school.",
        "~Q: did {S} finish high school? A: yes", "~{S} [be] a high school graduate.",
    ),
)

DOMAINS: tuple[Domain, ...] = (INSTRUMENT, CERT, VISITED, NATIVE, JOINED, WEDDING, SCHOOL)
