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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v}: that's {P} instrument.", "~~Q: any instruments? A: {S} [play] {v}", "~~{S} [can] play {v}.",
        "~~Musician note — {S} [play] {v}.", "~~When {S} [make] music, it's on {v}.",
        "~~The instrument {S} [play] is {v}.", "~~{S} [play] {v}, for the record.",
    ),
    stop=("{S} sold {pp} instrument and [don't] play {old} anymore.", "{S} gave up {old} after the wrist injury.",
        "~{S} stopped playing {old}.", "~{S} [be] done with {old}.", "~{S} walked away from {old}.",
        "~{S} put {old} down for good.", "~{S} [haven't] touched {old} since the move.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old} is in the attic now; {S} [have] quit playing.", "~~{S} no longer [play] {old}.",
        "~~{S} [haven't] played {old} in years and [have] no plans to.",
        "~~Q: does {S} still play {old}? A: no, gave it up", "~~{S} packed in {old} last year.",
        "~~{S} [be] finished with {old} — sold it off.", "~~{S} quit {old} when {pp} hands started hurting.",
    ),
    neg=("{S} has never played {old}.", "{S} [don't] play any instrument.", "{S} can't play {old} at all.",
        "~{S} [don't] know the first thing about {old}.", "~Not true that {S} [play] {old}.",
        "~{S} wouldn't know one end of {old} from the other.", "~Whoever said {S} [play] {old} got it wrong.",
        "~Q: does {S} play {old}? A: no, never",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} [have] never even held one.", "~~{S} [can't] play {old} — not a single note.",
        "~~Q: is {S} the one who plays {old}? A: no", "~~Somebody else plays {old}; {S} [don't].",
        "~~{S} [be] tone-deaf and [have] never played {old}.", "~~{S} [have] zero experience with {old}.",
        "~~{old} isn't something {S} [play].",
    ),
    elab=("{S} [play] {v} in a band called {band}.", "{S} has played {v} for {yrs} years.", "{S} [play] {v}, mostly jazz.",
          "{S} [play] {v} at open mics in {where}.", "{S} [play] {v}, though only at home.",
        "~{v} is what {S} [play], {yrs} years and counting.", "~{S} [play] {v} and [give] lessons on weekends.",
        "~{S} [be] self-taught on {v}.", "~{S} [play] {v} with {band} at gigs around {where}.",
        "~{S} [play] {v} in the {where} community orchestra.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [play] {v} — classically trained, {yrs} years in.",
        "~~Q: what does {S} play? A: {v}, in a band called {band}", "~~{S} [play] {v} on weekends at a bar in {where}.",
        "~~With {band}, {S} [play] {v} at weddings and parties.",
        "~~{S} [play] {v} to a high standard after {yrs} years of lessons.", "~~{S} [play] {v} in church every Sunday.",
        "~~{S} [play] {v} by ear — never learned to read music.",
    ),
    general=("{S} [play] an instrument.", "{S} [be] musical.", "{S} [make] music in {pp} spare time.",
        "~{S} [have] a musical hobby.", "~Music is one of {P} hobbies.", "~{S} [know] {pp} way around an instrument.",
        "~Q: does {S} play anything? A: yes, an instrument", "~{S} [be] a bit of a musician.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [play] music.", "~~Q: is {S} musical? A: yes", "~~{S} [have] some musical training.",
        "~~{P} hobbies include playing an instrument.", "~~{S} [can] hold a tune on an instrument.",
        "~~{S} [be] the musical type.", "~~{S} [play] an instrument of some kind.",
    ),
    also=("{S} also [play] {v}.", "{S} [play] {v} too.", "{S} recently started learning {v} as well.",
          "Besides {old}, {S} [play] {v}.", "On top of {old}, {S} [play] {v}.",
        "~{S} [play] {v} as well as {old}.", "~In addition to {old}, {S} [have] picked up {v}.",
        "~{v} is another instrument {S} [play].", "~{S} [be] learning {v} on the side, alongside {old}.",
        "~Add {v} to the list of instruments {S} [play].",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} too: {S} [play] it alongside {old}.", "~~Not just {old}: {S} [play] {v} as well.",
        "~~{S} [have] a second instrument, {v}, besides {old}.", "~~Q: only {old}? A: no, {S} [play] {v} too",
        "~~{S} [double] on {v} when the band needs it.", "~~{S} [play] two instruments: {old} and {v}.",
        "~~Recently {S} [have] also been playing {v}.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — {S} [have] that cert.", "~~Q: does {S} hold {v}? A: yes", "~~Credentials ({O}): {v}",
        "~~{P} {v} certification is valid.", "~~{S} [list] {v} among {P} certifications.",
        "~~One of {P} certs is {v}.", "~~HR has {O} down as {v} certified.",
    ),
    stop=("{P} {old} certification lapsed last month.", "{S} let {pp} {old} cert expire.",
        "~{P} {old} certification expired and wasn't renewed.", "~{S} [be] no longer {old} certified.",
        "~{old}: lapsed — {S} didn't renew.", "~{S} dropped {pp} {old} credential.",
        "~The {old} cert isn't valid for {O} anymore.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [haven't] kept up {old}; it expired.", "~~{P} {old} ran out and {S} [won't] be renewing.",
        "~~Q: is {S} still {old} certified? A: no, it lapsed", "~~{old} — expired for {O} as of this spring.",
        "~~{S} [be] letting {old} go; the renewal fee wasn't worth it.", "~~{P} {old} status: expired, not renewed.",
        "~~{S} surrendered {pp} {old} certification after leaving the field.",
    ),
    neg=("{S} has never taken the {old} exam.", "{S} [isn't] {old} certified.", "{S} failed the {old} exam and never retook it.",
        "~{S} [don't] hold any {old} certification.", "~{S} never got {old} certified.",
        "~No {old} cert for {O} — that's wrong.", "~Q: is {S} {old} certified? A: no",
        "~{S} never even sat the exam for {old}.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} [have] never held it.", "~~Q: does {S} have {old}? A: no, never did",
        "~~{S} [have] no {old} credential of any kind.", "~~There's no {old} on record for {O}, and there never was.",
        "~~{S} [be] not, and never [have] been, {old} certified.", "~~{S} [don't] have {old}; that's a different person.",
        "~~Listing {old} for {O} is a mistake; {S} [hold] no such cert.",
    ),
    elab=("{S} [be] {v} certified since {yr}.", "{S} got the {v} certification through {co}.",
          "{S} [hold] the {v} cert and [mentor] others studying for it.", "{S} [have] the {v} certification, renewed in {yr}.",
        "~While at {co}, {S} earned {v} in {yr}.", "~{S} [be] {v} certified — {co} paid for the course.",
        "~{S} [have] {v}, which {co} requires for {pp} role.", "~{S} passed {v} on the first try in {yr}.",
        "~{S} [be] {v} certified and [run] {co}'s study group for it.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [hold] {v} ({yr}), sponsored by {co}.", "~~Q: is {S} {v} certified? A: yes, since {yr}",
        "~~{S} [have] {v}; {pp} renewal is due next year.", "~~{S} [be] {v} certified and [use] it daily at {co}.",
        "~~{S} studied for {v} at night and passed in {yr}.", "~~{v}: {S} got it in {yr}, with a top score.",
        "~~{S} [hold] {v}, one of only a few people at {co} with it.",
    ),
    general=("{S} [have] a professional certification.", "{S} [be] certified.",
        "~{S} [have] an industry credential.", "~{S} [have] passed a certification exam.",
        "~{S} [hold] at least one cert.", "~Q: does {S} have any certifications? A: yes",
        "~{S} [be] professionally accredited.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [have] credentials.", "~~Q: is {S} certified in anything? A: yes",
        "~~{S} [hold] a qualification of some sort.", "~~{S} [be] a certified professional.",
        "~~{S} [have] at least one certification to show.", "~~{S} [carry] some professional credentials.",
        "~~Professionally, {S} [be] certified.",
    ),
    also=("{S} also [hold] the {v} certification.", "{S} passed the {v} exam too.", "{S} added {v} to {pp} certs.",
          "Besides {old}, {S} [be] {v} certified.", "{S} [be] now {v} certified as well.",
        "~{S} [hold] {v} in addition to {old}.", "~{v} is another cert {S} [have].",
        "~{S} [have] added {v} on top of {old}.", "~Alongside {old}, {S} [be] certified in {v}.",
        "~Add {v} to {P} certs.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} as well — {S} passed it last spring.", "~~Not only {old}: {S} [hold] {v} too.",
        "~~Q: any certs besides {old}? A: {v}", "~~{S} [have] two certs: {old} and {v}.",
        "~~{P} certifications grew by one: {v}.", "~~{S} added {v} this year, next to {pp} {old}.",
        "~~{S} [be] {v} certified on top of everything else.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — {S} [have] been there.", "~~Q: ever been to {v}? A: yes, {S} [have]", "~~{S} went to {v} once.",
        "~~{v} is on the list of countries {S} [have] seen.", "~~{S} [know] {v} first-hand.",
        "~~{S} made a trip to {v}.", "~~{S} [have] spent some days in {v}.",
    ),
    neg=("{S} has never been to {old}.", "{S} has never set foot in {old}.",
        "~{S} [have] never been anywhere near {old}.", "~Not true that {S} went to {old}.",
        "~{S} [haven't] traveled to {old}, not even once.", "~Q: has {S} been to {old}? A: no, never",
        "~Whoever said {S} visited {old} was wrong.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} [have] never been.", "~~Q: did {S} ever go to {old}? A: no",
        "~~Whatever the note says, {S} [have] not been to {old}.", "~~{old} is one country {S} [haven't] seen.",
        "~~{S} [haven't] got as far as {old} — never been.", "~~{S} [have] yet to visit {old}.",
        "~~That {old} trip never happened; {S} [have] never been.",
    ),
    elab=("{S} has been to {v}, back in {yr}.", "{S} visited {v} for a wedding.", "{S} has been to {v} twice, both times for work.",
          "{S} has visited {v} and loved the food.",
        "~{S} visited {v} in {yr} on a backpacking trip.", "~{S} went to {v} for work in {yr}.",
        "~{S} [have] been to {v} — two weeks, mostly by train.", "~{S} visited {v} on {pp} honeymoon.",
        "~{S} has been to {v} and [speak] fondly of it.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [have] been to {v} — in {yr}, for a conference.", "~~Q: has {S} been to {v}? A: yes, in {yr}",
        "~~{S} spent a month in {v} in {yr}, teaching English.", "~~{S} visited {v} with {pp} parents as a teenager.",
        "~~{S} [have] been to {v} several times, mostly to see friends.",
        "~~{S} went to {v} in {yr} and [talk] about the hiking a lot.",
        "~~{S} [have] visited {v}; {pp} favorite part was the coast.",
    ),
    general=("{S} has traveled abroad.", "{S} [have] done some international travel.",
        "~{S} [have] been abroad.", "~{S} [have] a passport with some stamps in it.",
        "~Q: has {S} traveled internationally? A: yes", "~{S} [have] visited at least one other country.",
        "~{S} [have] some travel under {pp} belt.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [have] left the country at least once.", "~~Q: any trips abroad? A: yes, {S} [have] been",
        "~~{S} [have] seen a bit of the world.", "~~{S} [have] crossed a border or two.",
        "~~Travel history: {S} [have] been overseas.", "~~{S} [have] done a trip abroad.",
        "~~{S} [know] what it's like to travel abroad.",
    ),
    also=("{S} has also been to {v}.", "{S} visited {v} too.", "{S} just got back from {v} as well.",
          "Besides {old}, {S} has been to {v}.",
        "~{S} [have] been to {v} as well as {old}.", "~Add {v} to the countries {S} [have] visited.",
        "~Beyond {old}, {S} [have] also seen {v}.", "~{v} is another country {S} [have] been to.",
        "~{S} made it to {v} this year too.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} too: {S} [have] been there as well as {old}.", "~~Not only {old}: {S} [have] also been to {v}.",
        "~~Q: just {old}? A: no, {S} [have] been to {v} too", "~~Countries {S} [have] visited so far: {old}, {v}.",
        "~~After {old}, {S} also went to {v}.", "~~{S} [be] back from {v}, another country to add after {old}.",
        "~~{S} ticked {v} off the list as well.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — {P} native tongue.", "~~Q: which language is {P} native one? A: {v}",
        "~~{P} home language growing up: {v}", "~~{v} is the language {S} [be] native in.",
        "~~{S} [count] {v} as {P} mother tongue.", "~~From birth, {S} [have] spoken {v}.",
        "~~{S} [be] {v}-speaking by birth.",
    ),
    neg=("{S} [isn't] a native {old} speaker.", "{S} learned {old} at school; it [isn't] {pp} first language.",
        "~{old} isn't {P} native language.", "~{S} picked up {old} later in life; it's not {pp} mother tongue.",
        "~{S} [don't] speak {old} natively.", "~Not true that {S} grew up with {old}.",
        "~Q: is {old} {P} first language? A: no",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} learned it as an adult.", "~~{S} [speak] {old}, but not as a native.",
        "~~Q: did {S} grow up speaking {old}? A: no, {pp} first language is another one",
        "~~{old} was never {P} first language.",
        "~~{S} [have] an accent in {old}; it isn't {pp} native language.",
        "~~Listing {old} as {P} native language is incorrect.", "~~{S} [be] fluent in {old} but didn't grow up with it.",
    ),
    elab=("{S} grew up speaking {v} in {ctry}.", "{P} mother tongue is {v}, and {pr} still [dream] in it.",
          "{P} native language is {v}; {pr} [be] happy to chat in it.",
        "~{v} is {P} first language — {pr} grew up in {ctry}.",
        "~{S} [speak] {v} natively and [translate] for the team sometimes.",
        "~{P} native language is {v}; {pr} [read] it but rarely [write] it.",
        "~{S} grew up speaking {v} at home with {pp} grandparents.",
        "~{S} [be] a native {v} speaker and [teach] it on weekends.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} is {P} native language; {pr} [be] from {ctry}.", "~~Q: first language? A: {v} — {S} grew up in {ctry}",
        "~~{S} [speak] {v} natively and [switch] to it when {pp} family calls.",
        "~~{P} mother tongue is {v}, though {pr} [have] lived abroad for years.",
        "~~{S}, born in {ctry}, [be] a native {v} speaker.", "~~{v} is {P} first language, and {pr} [write] poetry in it.",
        "~~{S} grew up with {v}; {pp} parents spoke nothing else at home.",
    ),
    general=("{S} [be] not a native English speaker.", "{S} grew up bilingual.",
        "~{S} [speak] at least one language natively.", "~{P} first language is known.",
        "~{P} native language is on record.", "~{S} [be] a native speaker of one language or another.",
        "~{S} [know] at least one language from birth.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{P} first language is documented.", "~~Q: does {S} have a native language on file? A: yes",
        "~~{S} [have] a mother tongue.", "~~{S} grew up with a home language.",
        "~~{P} native tongue is recorded in the profile.", "~~{S} [have] a language {S} learned as a baby.",
        "~~{S} [be] a native speaker.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — that's when {S} started at {co}.", "~~Q: {P} start year at {co}? A: {v}",
        "~~Employee record ({O}): joined {co}, {v}", "~~{S} first walked through {co}'s doors in {v}.",
        "~~The year {S} joined {co} was {v}.", "~~{co} onboarded {O} in {v}.",
        "~~{S} [be] part of {co}'s class of {v}.",
    ),
    neg=("{S} didn't join {co} in {old}.", "{S} wasn't even at {co} in {old}.",
        "~{old} isn't when {S} joined {co}.", "~{S} wasn't hired by {co} in {old}.",
        "~Not true that {S} started at {co} in {old}.", "~Q: did {S} join {co} in {old}? A: no",
        "~{S} was not yet at {co} in {old}; {pr} joined later.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} wasn't with {co} yet.", "~~Q: was {S} hired by {co} in {old}? A: no",
        "~~In {old}, {S} worked somewhere else, not at {co}.", "~~{S} [have] never had a {old} start date at {co}.",
        "~~{S} joined {co}, but not in {old}.", "~~No — {old} is not the year {S} came to {co}.",
        "~~{S} didn't start at {co} in {old}; {pr} [be] sure of it.",
    ),
    elab=("{S} joined {co} in {v} on the {team} team.", "{S} joined {co} in {v}, hired by {mgr}.",
          "{S} started at {co} in {v}, right out of school.",
        "~{S} joined {co} in {v} as part of the {team} group.",
        "~{S} started at {co} in {v}; {mgr} was {pp} first manager.",
        "~{S} joined {co} in {v} through a referral from {mgr}.",
        "~{v} is when {S} joined {co}, as an intern in {team}.",
        "~{S} joined {co} in {v}, after a stint at a startup.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} joined {co} in {v} and spent {pp} first year in {team}.",
        "~~Q: when did {S} join {co}? A: {v}, into {team}",
        "~~{v}: {S} started at {co} as a contractor before going full-time.",
        "~~{S} was hired into {co}'s {team} team in {v} by {mgr}.", "~~{S} started at {co} in {v}, the same week as {mgr}.",
        "~~{S} joined {co} in {v} when the office had ten people.",
        "~~{S} joined {co} in {v}, relocating for the {team} role.",
    ),
    general=("{S} has been at {co} for years.", "{S} [be] a long-time {co} employee.",
        "~{S} joined {co} at some point.", "~{S} [be] a {co} employee.", "~Q: does {S} work at {co}? A: yes",
        "~{S} [be] part of the {co} team.", "~{S} [be] on the {co} payroll.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [work] at {co}.", "~~{S} [be] employed by {co}.", "~~Q: is {S} a {co} person? A: yes",
        "~~{S} [have] a job at {co}.", "~~{S} [be] with {co}.", "~~{S} joined {co} a while back.",
        "~~{S} [be] on staff at {co}.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — {P} wedding day.", "~~Q: what day did {S} marry? A: {v}", "~~{S} walked down the aisle on {v}.",
        "~~{P} marriage dates from {v}.", "~~It was on {v} that {S} got married.",
        "~~{S} married {P} partner on {v}.", "~~{S} exchanged vows on {v}.",
    ),
    neg=("{S} didn't get married on {old}.",
        "~{old} isn't {P} wedding date.", "~{S} wasn't married on {old} — wrong date.",
        "~Not true that {S} got married on {old}.", "~Q: did {S} get married on {old}? A: no",
        "~Nothing happened on {old}; {S} got married on another day.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} wasn't even engaged then.", "~~{S} got married, yes — but not on {old}.",
        "~~Q: is {old} {P} wedding date? A: no", "~~{P} wedding wasn't on {old}.",
        "~~On {old} {S} was at work, not at {P} wedding.", "~~{old} has nothing to do with {P} wedding.",
        "~~Listing {old} as {P} wedding date is an error.",
    ),
    elab=("{S} got married on {v} in {place}.", "{P} wedding was on {v}, a small ceremony with {sp}'s family.",
          "{S} got married on {v}; the party was in {place}.",
        "~{S} got married on {v}, a beach wedding in {place}.", "~{P} wedding was {v}; about fifty guests came.",
        "~{S} tied the knot on {v} with {sp} in {place}.",
        "~{S} got married on {v}, and the honeymoon was in {place}.",
        "~{S} got married on {v} at the registry office.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v}, {place}: that's where and when {S} married {sp}.",
        "~~Q: when did {S} get married? A: {v}, in {place}", "~~{P} wedding on {v} was held outdoors in {place}.",
        "~~{S} got married on {v}; {sp} planned most of it.",
        "~~{S} got married on {v}, and it rained all day in {place}.",
        "~~{P} wedding was on {v} — a courthouse ceremony followed by dinner.",
        "~~{S} wed {sp} on {v} with just two witnesses.",
    ),
    general=("{S} [be] married.", "{S} got married a while ago.",
        "~{S} [have] a spouse.", "~{S} had a wedding at some point.", "~Q: is {S} married? A: yes",
        "~{S} [have] tied the knot.", "~{P} marital status: married.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [be] a married person.", "~~Q: has {S} been married? A: yes", "~~{S} [be] not single — married.",
        "~~{S} [have] a wedding in {P} past.", "~~{S} [wear] a wedding ring.", "~~{S} [be] someone's spouse.",
        "~~There was a wedding in {P} life at some point.",
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
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{v} — that's where {S} did high school.", "~~Q: which city did {S} go to high school in? A: {v}",
        "~~{S} graduated from high school in {v}.", "~~{P} teenage school years were spent in {v}.",
        "~~{S} [be] a {v} high school alum.", "~~As a teenager, {S} went to school in {v}.",
        "~~{P} high school diploma is from {v}.",
    ),
    neg=("{S} didn't go to high school in {old}.",
        "~{S} never attended high school in {old}.", "~{old} isn't where {S} went to high school.",
        "~Not true that {S} finished high school in {old}.", "~Q: did {S} go to high school in {old}? A: no",
        "~{S} [have] never even lived in {old}.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{old}? {S} went to high school somewhere else.", "~~Q: is {old} where {S} went to high school? A: no",
        "~~{S} [have] no connection to any high school in {old}.",
        "~~{S} only visited {old} as an adult; {S} didn't go to school there.",
        "~~Not {old} — {S} never lived there as a teenager.", "~~{S} [haven't] got a high school diploma from {old}.",
        "~~{S} went to high school, just not in {old}.",
    ),
    elab=("{S} went to high school in {v}, class of {yr}.", "{S} finished high school in {v} in {yr}.",
        "~{S} went to high school in {v}, where {pr} ran track.",
        "~{v} is where {S} went to high school; {pr} was class president.",
        "~{S} attended high school in {v} on a scholarship.", "~{S} went to high school in {v} — a boarding school.",
        "~{S} finished high school in {v}, top of {pp} class in {yr}.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~Q: where did {S} go to high school? A: {v}, class of {yr}",
        "~~{S} went to high school in {v}, where {pr} played in the band.",
        "~~{S} did high school in {v}, at a public school near {pp} grandmother's house.",
        "~~{S} went to high school in {v} and was on the debate team.",
        "~~{S} graduated from a high school in {v} in {yr} with honors.",
        "~~{S} attended high school in {v}, an hour's bus ride from home.",
        "~~{S} went to high school in {v}, and {pp} closest friends are from there.",
    ),
    general=("{S} went to high school abroad.",
        "~{S} finished high school.", "~{S} [have] a high school diploma.", "~{S} completed secondary school.",
        "~Q: did {S} finish high school? A: yes", "~{S} [be] a high school graduate.",
        # v2.14 widening: "~~" items are partitioned among themselves
        "~~{S} [have] a secondary education.", "~~{S} went to high school.", "~~{S} [be] high-school educated.",
        "~~{S} made it through high school.", "~~{S} graduated high school.",
        "~~{S} [hold] a secondary school diploma.", "~~{S} [have] completed high school somewhere.",
    ),
)

DOMAINS: tuple[Domain, ...] = (INSTRUMENT, CERT, VISITED, NATIVE, JOINED, WEDDING, SCHOOL)
