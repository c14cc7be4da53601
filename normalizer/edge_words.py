"""What the text right of an edge cue names: people, a team, a role, a place, a thing, a budget.

The edge family (`edges`) reads the entity right of each cue with one of these; each gives an entity
id (`person:lee`, `team:payments`, `role:vp-of-sales`, `place:austin`, `account:acme`,
`budget:travel`) or nothing. The rules of each reader are in the `edges` module docstring (roles,
places, things, approvals).
"""

from __future__ import annotations

import re

from writegate.normalizer.amounts import find_amounts
from writegate.normalizer.clock import DAY_NAMES, MONTH_NAMES
from writegate.normalizer.context import Context
from writegate.normalizer.entities import (
    FIRST_PERSON,
    THIRD_PERSON,
    entity_id,
    pronoun_antecedent,
    resolve_person,
    slugify,
)
from writegate.normalizer.languages import language_code
from writegate.normalizer.places import lookup_place

Attrs = dict[str, str | float | bool]
"""An edge's attributes (`max_amount`, `currency`, `exclusive`, `scope`)."""

CAP = r"[A-ZÀ-ÖØ-Þ]"
"""A capital letter, accented ones included."""

NAME_STOP = frozenset(
    "a after an anyone as at before ceo crm everyone from here hr if in it its nobody on our per q1 q2 q3"
    " q4 since someone that the their there this we when while".split()
    + [name.lower() for name in DAY_NAMES + MONTH_NAMES if name != "May"]
)
"""Capitalised words that are no name: function words, days and months ("May" is a name), abbreviations."""
WORD_RE = re.compile(r"[\w'’.-]+|[,&]")
"""A word, or a comma or ampersand between names."""

# role heads: office titles and everyday jobs (real persona text: "I work as a bartender", "I'm a farmer")
_ROLE_HEADS = frozenset(
    "accountant actor actress admin administrator adviser advisor advocate agent analyst apprentice"
    " architect artist assistant associate astronaut attendant attorney auditor author babysitter baker"
    " banker barber barista bartender beautician biologist blogger bookkeeper broker builder butcher buyer"
    " captain caregiver caretaker carpenter cashier ceo cfo chair chairman chairperson chairwoman chef"
    " chemist chief chiropractor cio ciso cleaner clerk cmo co-founder coach coder cofounder consultant"
    " contractor controller coo cook coordinator cop counsel counsellor counselor courier cpo cto"
    " custodian dancer dean dentist deputy designer detective developer devops director dispatcher dj"
    " doctor driver economist editor educator electrician em emt engineer entrepreneur evangelist evp"
    " executive farmer fellow firefighter fireman fisherman founder freelancer gardener geologist guide"
    " hairdresser hairstylist head host hostess housekeeper hygienist inspector instructor intern"
    " interpreter janitor journalist judge keeper landscaper lawyer lead lecturer librarian lifeguard"
    " logger machinist mailman manager marketer mason master mathematician mayor mechanic merchant midwife"
    " miner minister musician nanny novelist nurse officer operator optician optometrist owner painter"
    " paralegal paramedic partner pastor pediatrician pharmacist photographer physician physicist"
    " physiotherapist pilot planner plumber pm policeman policewoman politician postman preacher president"
    " priest principal producer professor programmer psychiatrist psychologist rabbi rancher ranger"
    " realtor receptionist recruiter rep reporter representative researcher roofer sailor salesman"
    " salesperson saleswoman scientist seamstress secretary senator sergeant server sheriff shopkeeper"
    " singer soldier specialist sre steward stewardess strategist student stylist supervisor surgeon"
    " surveyor svp tailor teacher technician teller tender therapist tpm trader trainee trainer translator"
    " treasurer trucker tutor typist valet veterinarian vp waiter waitress welder worker writer zookeeper".split()
)
_JUDGEMENT = frozenset(
    "active amateur amazing aspiring average averse avid awesome awful bad best better big born budding"
    " careful confident decent ex excellent failed fan fantastic fast fine former future good great hard"
    " hobby hopeful hopeless horrible huge lazy lousy mediocre messy natural nice ok okay passionate picky"
    " poor pretty proud quite real really recovering retired safe self self-taught slow straight"
    " struggling taught terrible total very wannabe weekend wonderful worst would-be".split()
)
"""Words that make a role phrase a judgement ("decent writer"), a hobby, a past or a future role: no role."""
_ROLE_FUNCTION = frozenset(
    "after and are as at because before but by for from her here his i i'm if in is it its my now of on"
    " or our since so that their then there these this though to until was when where which while who with"
    " your".split()
)
_ROLE_STOP_RE = re.compile(
    r"\s+(?:for|at|on|in|with|since|and|but|who|which|from|to|after|before|until|because|as|of the|of our|"
    r"reporting|working|based|now)\b|[,.;:!?()]"
)
TEAM_WORDS = (
    r"(?:team|squad|group|department|dept|org|organization|organisation|division|unit|guild|chapter|crew|tribe|pod)"
)
_TEAM_RE = re.compile(
    r"^(?:the\s+|a\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?(?P<name>[\w&'’-]+(?:\s+[\w&'’-]+){0,3}?)\s+"
    + TEAM_WORDS
    + r"\b"
    r"|^(?:the\s+)?" + TEAM_WORDS + r"\s+(?P<name2>" + CAP + r"[\w'’-]*(?:\s+" + CAP + r"[\w'’-]*){0,2})",
    re.I,
)
_TEAM_ADJ = frozenset(
    "big core current entire five four global good great large local new old other own remote same"
    " several small three two whole".split()
)
_THING_KINDS: dict[str, str] = {
    "account": "account",
    "client": "account",
    "customer": "account",
    "relationship": "account",
    "deal": "deal",
    "renewal": "deal",
    "opportunity": "deal",
    "contract": "deal",
    "rfp": "deal",
    "project": "project",
    "initiative": "project",
    "program": "project",
    "programme": "project",
}
THING_WORDS = r"(?:" + "|".join(_THING_KINDS) + r")"
_THING_RE = re.compile(
    r"^(?:the\s+)?(?P<name>"
    + CAP
    + r"[\w&'’.-]*(?:\s+"
    + CAP
    + r"[\w&'’.-]*){0,3})(?:'s|’s)?\s+(?P<kind>"
    + THING_WORDS
    + r")s?\b"
    r"|^(?:the\s+)?(?P<kind2>"
    + THING_WORDS
    + r")\s+(?P<name2>"
    + CAP
    + r"[\w&'’.-]*(?:\s+"
    + CAP
    + r"[\w&'’.-]*){0,3})"
    r"|^(?:the\s+|our\s+|their\s+|my\s+)?relationship\s+with\s+(?:the\s+)?(?P<name4>"
    + CAP
    + r"[\w&'’.-]*(?:\s+"
    + CAP
    + r"[\w&'’.-]*){0,3})"
    r"|^(?P<name3>" + CAP + r"[\w&'’.-]*(?:\s+" + CAP + r"[\w&'’.-]*){0,3})",
)
_SPEND_RE = re.compile(
    r"\b(?:spend|spending|expenses?|budgets?|purchases?|costs?|invoices?|requests?|approvals?|expenditures?|"
    r"procurement|outlays?|payments?|reimbursements?|orders?)\b",
    re.I,
)
_CAP_CUE_RE = re.compile(
    r"(?:up to|under|below|less than|max(?:imum)?(?: of)?|limit(?:ed)?(?: of| is| at| to|:)?|cap(?:ped)?(?: at| of)?|"
    r"ceiling(?: of)?|within|not exceeding|no more than|at most|<=?|threshold(?: of| is)?|of)\s*$",
    re.I,
)
THRESH_RE = re.compile(r"(?:over|above|more than|exceeding|greater than|>)\s*$", re.I)
# after a limit cue ("signing limit on capex went down to $500k"): the amount the limit is (now) at
_LIMIT_AT_RE = re.compile(r"\b(?:to|at|is|was|now|of)\s*$|:\s*$", re.I)
_LIMIT_VERB_RE = re.compile(
    r"\b(?:is|was|went|goes|got|gets|has|had|now|raised|lowered|increased|decreased|reduced|cut|dropped|bumped|set|moved|"
    r"changed|rose|fell|doubled|halved)\b",
    re.I,
)
_GENERAL_SCOPE = frozenset({"everything", "anything", "all", "any", "general", "", "it", "them", "things", "stuff"})
EXCLUSIVE_RE = re.compile(
    r"\b(?:sole|only (?:one|person)|the only|exclusive(?:ly)?|final say|decision[- ]?maker)\b", re.I
)
EXCL_NEG_RE = re.compile(
    r"\b(?:no longer|not|isn't|is not|never)\s+(?:the\s+)?(?:sole|only|exclusive|final|decision)", re.I
)


def _people(right: str) -> list[str]:
    """Names at the start of `right`: "Lee", "Grace Hopper", "Lee, Priya and Omar", "me"."""
    out: list[str] = []
    current: list[str] = []
    for word in WORD_RE.findall(right.strip()):
        low = word.lower().strip(".")
        if word in (",", "&") or low == "and":
            if current:
                out.append(" ".join(current))
                current = []
            continue
        if not current and (low in FIRST_PERSON or low in THIRD_PERSON or low == "user"):
            out.append(low)
            continue
        if not current and low == "the":
            continue
        if word[:1].isupper() and low.strip("'’s") not in NAME_STOP:
            current.append(word.rstrip(".").removesuffix("'s").removesuffix("’s"))
            if word.endswith(("'s", "’s", ".")):
                break
            continue
        break
    if current:
        out.append(" ".join(current))
    return [p for p in out if p]


def person_targets(right: str, ctx: Context, before: str) -> list[str]:
    """The ids of the people named at the start of `right` ("Lee and Priya", "me", "her").

    Args:
        right: the text right of the cue.
        ctx: the request (its subject is "me", "the user").
        before: the text before the clause (a pronoun's antecedent).
    """
    out: list[str] = []
    for mention in _people(right):
        if mention == "user" and not right.lower().lstrip().startswith(("the user", "user")):
            continue
        pid = resolve_person(mention, ctx, pronoun_antecedent(before, ctx))
        if pid:
            out.append(pid)
    return out


def team(right: str) -> str | None:
    """`team:<slug>` for "the payments team", "the Platform group", "team Atlas" at the start of `right`."""
    m = _TEAM_RE.match(right.strip())
    if not m:
        return None
    name = m.group("name") or m.group("name2") or ""
    words = [w for w in name.split() if w.lower() not in _TEAM_ADJ]
    if not words or any(w.lower() in {"the", "a", "of", "to", "and", "on", "in"} for w in words):
        return None
    return entity_id("team", " ".join(words))


_ROLE_LEAD_RE = re.compile(
    r"^(?:(?:now|currently|officially|also|just|actually|really|still|basically)\s+|(?:a|an|the|our|their|its|his|her)\s+|new\s+"
    r"|\d+[- ]years?[- ]old\s+)*",
    re.I,
)
"""Adverbs, articles and an age before a role ("an actually a town planner", "a 61 year old gym teacher")."""


_BUSINESS_RE = re.compile(
    r"\bof\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?(?:[\w&'’-]+\s+){0,2}?(?:company|business|firm|shop|store|restaurant|agency"
    r"|startup|bakery|cafe|salon|studio|practice|clinic|franchise|farm|bar)\b",
    re.I,
)


def role(right: str) -> str | None:
    """`role:<slug>` for the role phrase at the start of `right`, or None.

    The phrase runs to the first function word or punctuation ("mechanical engineer so I …" →
    mechanical-engineer) and must end in a role head noun, or be "<head> of <name>" ("head of design",
    "VP of Sales"); a judgement, hobby, past or future word anywhere in it ("decent writer", "retired
    accountant", "aspiring nurse") gives None.
    """
    text = _ROLE_LEAD_RE.sub("", right.strip())
    stop = _ROLE_STOP_RE.search(text)
    phrase = text[: stop.start()] if stop else text
    words: list[str] = []
    for word in phrase.split()[:6]:
        if word.lower().strip("'’") in _ROLE_FUNCTION:
            break
        words.append(word)
    if not words:
        return None
    heads = [w.lower().strip("'’.!?") for w in words]
    if any(h in _JUDGEMENT for h in heads):
        return None
    of = re.match(r"\s+of\s+(?:the\s+)?((?:[\w&'’-]+\s*){1,3})", phrase[len(" ".join(words)) :])
    if (
        heads[-1] == "owner"
        and (of or re.match(r"\s+of\b", phrase[len(" ".join(words)) :]))
        and not _BUSINESS_RE.search(text)
    ):
        return None  # "the owner of a Honda Civic / two cats" owns a thing; no role
    if heads[-1] in _ROLE_HEADS and not (
        of and heads[-1] in {"head", "director", "vp", "chief", "president", "manager", "lead"}
    ):
        return entity_id("role", " ".join(words))
    if of and heads[-1] in _ROLE_HEADS:
        return entity_id("role", " ".join(words) + " of " + of.group(1).strip())
    return None


_NOT_PLACE_HEAD = frozenset(
    "accent area community country countryside culture family food home house neighborhood neighbourhood"
    " part people region restaurant side style suburbs town village".split()
)
"""A lowercase noun right after the name makes the name an adjective: "Amish country", "Italian restaurant"."""
_DIRECTION_RE = re.compile(
    r"^(?:(?:north|south|east|west|central|upstate|downstate|rural|southern|northern|eastern|western)\w*\s+)+", re.I
)
_REGIONS = frozenset(
    "bahamas|balkans|bay area|big apple|bronx|caribbean|deep south|east coast|gulf coast|highlands|"
    "middle east|midlands|midwest|netherlands|north|northeast|northwest|outback|pacific northwest|"
    "philippines|south|southeast|southwest|twin cities|west coast".split("|")
)
_PLACE_SUFFIX_RE = re.compile(
    r"\b(?:county|city|town|village|beach|springs|falls|valley|island|islands|heights|hills|lake|bay|coast|province|"
    r"state|parish|borough|township|park|harbor|harbour|creek|ridge|point|port|fort|mount|mt|saint|st|san|santa|los|las|"
    r"new|north|south|east|west)\b",
    re.I,
)


def place(right: str) -> str | None:
    """`place:<slug>` for the capitalised name at the start of `right` ("Austin", "the Bay Area"), or None.

    A quoted nickname, a name used as an adjective ("Amish country") or a language ("Spanish") is none.
    """
    text = re.sub(r"^(?:the\s+)", "", right.strip(), flags=re.I)
    if text[:1] in "\"“'‘":
        return None  # a quoted name ('I'm in "Parks"') is a nickname, not a place
    words: list[str] = []
    for word in WORD_RE.findall(text):
        low = word.lower()
        if word == "I" or word.startswith(("I'", "I’")):
            break  # "since I live in Arizona I've always…"
        if word[:1].isupper() and low.strip("'’s") not in NAME_STOP:
            words.append(word.removesuffix("'s").removesuffix("’s").rstrip("."))
            if word.endswith(("'s", "’s")):
                break
        elif low in {"de", "del", "da", "do", "of", "upon", "am", "sur", "la", "le"} and words:
            words.append(word)
        else:
            break
    while words and (
        not words[-1][:1].isupper() or words[-1].lower() in {"office", "hq", "headquarters", "area", "campus"}
    ):
        words.pop()
    after = (
        re.match(r"\s*(?:the\s+)?" + r"\s+".join(re.escape(w) for w in words) + r"\s+([a-z]+)", text) if words else None
    )
    if after and after.group(1) in _NOT_PLACE_HEAD:
        return None  # "I live in Amish country"
    if len(words) == 1 and _is_language_not_place(words[0]):
        return None  # "can work in Spanish" is a language, not a place
    return entity_id("place", " ".join(words)) if words else None


def known_place(right: str, place_id: str, strong: bool) -> bool:
    """True when the place phrase right of a located_in cue names a place.

    A gazetteer hit (`places.lookup_place`, also after a direction word: "Southern Georgia") always
    counts. After a strong cue (live, based, located, moved) a capitalised name also counts unless it
    follows "the" (the Olympics) or is a 2-3 letter abbreviation (AA) with no hit, except for a few
    regions ("the Midwest") and names with a place word ("Alpine County", "Fort Lee"). A weak cue
    ("I'm in", "works in") needs the gazetteer: "I'm in AA", "I work in Finance" are no places.
    """
    name = place_id.split(":", 1)[1].replace("-", " ")
    m = re.match(r"\s*(?:the\s+)?([^,.;:!?()]+)", right)
    raw = " ".join(m.group(1).split()[: len(name.split())]) if m else name
    for candidate in (raw, _DIRECTION_RE.sub("", raw)):
        if candidate and lookup_place(candidate) is not None:
            return True
    if not strong:
        return False
    if name in _REGIONS or _PLACE_SUFFIX_RE.search(name):
        return True
    if re.match(r"\s*the\s", right, re.I) or (len(raw) <= 3 and raw.isupper()):
        return False
    return True


def _is_language_not_place(word: str) -> bool:
    return language_code(word) is not None and lookup_place(word) is None


def thing(right: str, explicit: bool = False) -> str | None:
    """`account:acme`, `deal:initech`, `project:phoenix` for the thing named at the start of `right`.

    Args:
        right: the text right of the cue ("the Acme account", "project Phoenix", "Acme").
        explicit: a bare name ("Acme") is no thing; the thing's kind must be said.
    """
    m = _THING_RE.match(right.strip())
    if not m or (explicit and m.group("name3")):
        return None
    if m.group("name"):
        name, kind = m.group("name"), _THING_KINDS[m.group("kind").lower()]
    elif m.group("name2"):
        name, kind = m.group("name2"), _THING_KINDS[m.group("kind2").lower()]
    elif m.group("name4"):
        name, kind = m.group("name4"), "account"
    else:
        name, kind = m.group("name3"), "account"
    words = [w for w in name.split() if w.lower().strip("'’s") not in NAME_STOP]
    if not words or name.split()[0].lower() in NAME_STOP:
        return None
    return entity_id(kind, " ".join(words))


def thing_left(left: str) -> str | None:
    """A thing named at the end of the left text ("The Initech deal", "Acme")."""
    words = left.strip().split()
    for i in range(max(0, len(words) - 5), len(words)):
        phrase = " ".join(words[i:])
        found = thing(phrase)
        whole = _THING_RE.match(phrase) if found else None
        if whole and whole.end() == len(phrase):
            return found
    return None


def budget(right: str, cue_has_limit: bool) -> tuple[str, Attrs]:
    """`budget:<scope>` and the cap attributes from the text right of an approval cue."""
    attrs: Attrs = {}
    amounts = find_amounts(right)
    scope_end = len(right)
    for amount in amounts:
        before = right[: amount.start]
        threshold = THRESH_RE.search(before)
        if threshold:
            scope_end = min(scope_end, threshold.start())
            continue
        cap = _CAP_CUE_RE.search(before) or (_LIMIT_AT_RE.search(before) if cue_has_limit else None)
        if cap or (cue_has_limit and not before.strip()):
            attrs = {"max_amount": amount.value, "currency": amount.currency}
            scope_end = min(scope_end, cap.start() if cap else amount.start)
            break
        scope_end = min(scope_end, amount.start)
    head = right[:scope_end]
    if cue_has_limit:
        head = _LIMIT_VERB_RE.split(head, maxsplit=1)[0]
    head = re.split(
        r"[,.;:!?]|\b(?:up to|under|below|over|above|for|and|but|less|more|within|if|without|when|as)\b",
        head,
        maxsplit=1,
    )[0]
    spend = _SPEND_RE.search(head)
    phrase = head[: spend.start()] if spend else head
    words = [
        w
        for w in re.findall(r"[\w-]+", phrase)
        if w.lower()
        not in {"the", "all", "any", "every", "of", "on", "her", "his", "their", "my", "our", "team", "team's", "s"}
    ]
    words = words[-3:]
    scope = slugify(" ".join(words)) if words else ""
    if scope in _GENERAL_SCOPE or (not spend and len(words) > 3):
        scope = "general"
    return f"budget:{scope}", attrs
