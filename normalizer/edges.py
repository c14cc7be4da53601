"""Organisational relationships → `edge` records (design.md edge table).

Each rule is a cue (a verb phrase such as "reports to", "is owned by", "took over") plus how to
read the entity left of it (the source, or the target for passive cues) and right of it. The left
mention is the nearest one before the cue in its clause; "and …" / ", …" carries the clause's
first source on ("Sam reports to Lee and manages the payments team"); no mention at all (notes such
as "Reports to Lee.", "Lives in Austin and manages the data team") means the request's subject. A
left phrase that is not a person ("my brother", "the team") gives nothing; a relative clause is
about the noun before it ("I have a sister who lives in Spain" gives nothing, "a doll named Kiwi
that is a singer" is Kiwi's); "mine" is someone else. A third-person pronoun with no named
antecedent is the subject only when the text does not also speak of the speaker as "I" or of "my
<person>" ("He is a professor and I am a librarian", "My mom is a nurse. She lives in Ohio": not the
subject's, and unnamed, so nothing; "My mistake earlier, she signs off on hiring" is the subject's). Negated or past cues ("no longer", "never", "used to", "doesn't"), questions
and clauses over 2,000 characters give nothing.

Whose fact and is it current (has_role, located_in): `scope.irrealis` and `scope.past_state` on the
cue's segment drop plans, wishes and past states ("I want to be a nurse", "I'm moving to Florida",
"when I am in Hong Kong", "I was an engineer", "I grew up in Ohio"); a past event stays current ("was
promoted to", "moved to"). "moved from X" gives X only as an origin: the place after "to", if any.

Roles: the role phrase runs to the first function word ("mechanical engineer so I …") and must end
in a role head noun (`_ROLE_HEADS`: office titles and everyday jobs, e.g. bartender, cashier,
electrician, student) or be "<head> of <name>"; a judgement, hobby, past or future word
(`_JUDGEMENT`: "decent writer", "big fan", "retired accountant", "aspiring nurse") gives nothing.
"My job is running my gas station", "My job is very physical" give nothing.

Places: a gazetteer hit (`places.lookup_place`, also after a direction word: "Southern Georgia")
always counts; after a strong cue (live, based, located, moved) any capitalised name counts too,
except after "the" ("the Olympics"), a 2-3 letter abbreviation ("AA"), a quoted nickname, or a name
used as an adjective ("Amish country"); a weak cue ("I'm in", "works in") needs the gazetteer ("I'm
in AA", "I work in Finance" give nothing) and is a visit after "while" or before "this week".

Slots (decided by the lead): single-valued type → `edge.<type>` when the source is the subject,
else `edge.<type>.<source>`; multi-valued → `edge.<type>.<target>` when the source is the subject,
else `edge.<type>.<source>.<target>`.

Things (owned_by sources): "the Acme account" → `account:acme`, "the Initech deal" →
`deal:initech`, "project Phoenix" → `project:phoenix`; a bare name ("took over Acme") is an account,
except after "own(s)", which needs the thing's kind ("owns the Acme account"; "I own Nike shoes", "my
own PC" give nothing; "owned" is a past state).
Approvals: the scope is the noun before "spend/expenses/budget…" (`budget:travel`), else
`budget:general`; `max_amount`/`currency` only for a cap ("up to", "under", "limit of"), never for a
threshold ("over $10K"); `exclusive` only when stated (sole approver / only one who can approve /
decision-maker → true; "no longer the sole approver" → false).

Label and Q/A forms: "My manager: Lee", "Manager of Ana Ruiz: Lee", "My job: analyst" (a role only
with a role head noun: analyst, manager, head of …), "Main contact for Acme: Lee", "Approval cap
(travel): $5k for Lee". A "Q: <question>? A: <answer>" pair whose question is in `_QA_QUESTIONS`
(who does X report to / who is X's manager / what does X do / how much can X approve / who owns X)
gives the edge its answer fills in (record text: the whole pair); an answer that is negated,
"unknown", or not a name / role / amount gives nothing. Also: "answers to Lee"; "Lee is who I
report to"; "holds / stepped into the <role> position|role" (role head noun required); "needs only
Sam's approval" (a cap left of it becomes `max_amount`); "the relationship with Acme" is
`account:acme`. April, June and August are names when directly left of the cue ("June is Lee's
boss"), not after a time word ("in June").
"""

from __future__ import annotations

import re

from writegate.normalizer.amounts import find_amounts
from writegate.normalizer.clock import DAY_NAMES, MONTH_NAMES
from writegate.normalizer.context import Context
from writegate.normalizer.entities import (
    FIRST_PERSON,
    THIRD_PERSON,
    USER_WORDS,
    entity_id,
    name_mention,
    pronoun_antecedent,
    resolve_person,
    slugify,
    strip_possessive,
)
from writegate.normalizer.gates import at_word_start, factored, finditer_folded, one_of
from writegate.normalizer.schema import SINGLE_VALUED_EDGES, Edge, EdgeType, Record, RecordKind
from writegate.normalizer.scope import PERSON_NOUNS, holds_since, irrealis, past_state, stay

Attrs = dict[str, str | float | bool]

_CAP = r"[A-ZÀ-ÖØ-Þ]"
_SKIP_LEFT = frozenset(
    {
        "now",
        "currently",
        "also",
        "still",
        "directly",
        "officially",
        "formally",
        "has",
        "have",
        "had",
        "will",
        "is",
        "was",
        "are",
        "am",
        "just",
        "recently",
        "already",
        "actually",
        "effectively",
        "then",
        "temporarily",
        "both",
        "finally",
        "been",
        "being",
        "would",
        "should",
        "can",
        "could",
        "may",
        "might",
        "to",
        "be",
        "since",
        "today",
        "the",
        "a",
        "an",
        "no",
        "longer",
        "not",
        "never",
        "got",
        "gets",
        "get",
        "getting",
    }
)
_CONJ = frozenset({"and", ",", "&", "who", "that", "which", "but", "so", "then", "where"})
_NAME_STOP = frozenset(
    {
        "the",
        "a",
        "an",
        "this",
        "that",
        "it",
        "its",
        "our",
        "their",
        "we",
        "there",
        "here",
        "in",
        "on",
        "at",
        "from",
        "per",
        "after",
        "before",
        "since",
        "as",
        "if",
        "when",
        "while",
        "everyone",
        "nobody",
        "someone",
        "anyone",
        *(name.lower() for name in DAY_NAMES + MONTH_NAMES if name != "May"),
        "q1",
        "q2",
        "q3",
        "q4",
        "crm",
        "hr",
        "ceo",
    }
)
_NAME_MONTHS = frozenset({"april", "june", "august"})
"""Months that are also first names: a name when directly left of the cue and not after a time word."""
_TIME_WORDS = frozenset(
    {
        "in",
        "on",
        "since",
        "by",
        "until",
        "till",
        "from",
        "during",
        "before",
        "after",
        "of",
        "this",
        "next",
        "last",
        "early",
        "late",
        "mid",
        "through",
        "to",
        "starting",
        "around",
    }
)
_NEG_RE = re.compile(
    r"\b(?:not|never|no longer|n't|used to|formerly|previously|once|former|ex|no one|nobody|if|whether|might|"
    r"should|would)\b|n't\b",
    re.I,
)
_WORD_RE = re.compile(r"[\w'’.-]+|[,&]")
_CLAUSE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+|\n+")

_ROLE_HEADS = frozenset(
    {
        "engineer",
        "developer",
        "manager",
        "director",
        "designer",
        "analyst",
        "scientist",
        "architect",
        "lead",
        "head",
        "vp",
        "svp",
        "evp",
        "president",
        "ceo",
        "cto",
        "cfo",
        "coo",
        "cio",
        "cmo",
        "ciso",
        "cpo",
        "officer",
        "consultant",
        "intern",
        "recruiter",
        "accountant",
        "lawyer",
        "counsel",
        "administrator",
        "admin",
        "specialist",
        "coordinator",
        "executive",
        "founder",
        "co-founder",
        "cofounder",
        "partner",
        "associate",
        "researcher",
        "owner",
        "pm",
        "tpm",
        "em",
        "writer",
        "editor",
        "marketer",
        "strategist",
        "supervisor",
        "technician",
        "chair",
        "chairman",
        "chairwoman",
        "chairperson",
        "principal",
        "sre",
        "devops",
        "programmer",
        "controller",
        "treasurer",
        "secretary",
        "advisor",
        "adviser",
        "representative",
        "rep",
        "agent",
        "assistant",
        "nurse",
        "doctor",
        "physician",
        "teacher",
        "professor",
        "master",
        "steward",
        "evangelist",
        "advocate",
        "producer",
        "planner",
        "auditor",
        "buyer",
        "clerk",
        "trainee",
        "apprentice",
        "contractor",
        "freelancer",
        "fellow",
        "chief",
    }
)
_ROLE_HEADS |= frozenset(
    # everyday jobs (real persona text: "I work as a bartender", "I'm a farmer")
    {
        "bartender",
        "tender",
        "salesman",
        "saleswoman",
        "salesperson",
        "cashier",
        "mechanic",
        "chef",
        "cook",
        "baker",
        "butcher",
        "farmer",
        "rancher",
        "fisherman",
        "pilot",
        "driver",
        "trucker",
        "plumber",
        "electrician",
        "carpenter",
        "roofer",
        "welder",
        "machinist",
        "mason",
        "firefighter",
        "fireman",
        "policeman",
        "policewoman",
        "cop",
        "detective",
        "sheriff",
        "deputy",
        "soldier",
        "sergeant",
        "sailor",
        "dentist",
        "hygienist",
        "pharmacist",
        "veterinarian",
        "librarian",
        "barista",
        "waiter",
        "waitress",
        "server",
        "host",
        "hostess",
        "student",
        "custodian",
        "janitor",
        "zookeeper",
        "keeper",
        "nanny",
        "babysitter",
        "caregiver",
        "caretaker",
        "paramedic",
        "emt",
        "surgeon",
        "therapist",
        "psychologist",
        "psychiatrist",
        "counselor",
        "counsellor",
        "worker",
        "entrepreneur",
        "artist",
        "painter",
        "musician",
        "singer",
        "dancer",
        "actor",
        "actress",
        "photographer",
        "journalist",
        "reporter",
        "author",
        "novelist",
        "blogger",
        "coach",
        "trainer",
        "instructor",
        "tutor",
        "lecturer",
        "educator",
        "dean",
        "builder",
        "landscaper",
        "gardener",
        "housekeeper",
        "cleaner",
        "hairdresser",
        "hairstylist",
        "stylist",
        "barber",
        "beautician",
        "tailor",
        "seamstress",
        "receptionist",
        "banker",
        "broker",
        "realtor",
        "trader",
        "economist",
        "mathematician",
        "physicist",
        "chemist",
        "biologist",
        "geologist",
        "astronaut",
        "lifeguard",
        "ranger",
        "valet",
        "guide",
        "mailman",
        "postman",
        "courier",
        "midwife",
        "pediatrician",
        "optometrist",
        "chiropractor",
        "physiotherapist",
        "priest",
        "pastor",
        "minister",
        "rabbi",
        "preacher",
        "judge",
        "attorney",
        "paralegal",
        "politician",
        "senator",
        "mayor",
        "translator",
        "interpreter",
        "coder",
        "bookkeeper",
        "merchant",
        "shopkeeper",
        "miner",
        "logger",
        "attendant",
        "stewardess",
        "captain",
        "dispatcher",
        "operator",
        "inspector",
        "dj",
        "typist",
        "teller",
        "surveyor",
        "optician",
    }
)
_JUDGEMENT = frozenset(
    # "I am a decent writer", "a big fan", "a terrible cook": a judgement, not a job
    {
        "decent",
        "good",
        "bad",
        "great",
        "terrible",
        "awful",
        "horrible",
        "excellent",
        "amazing",
        "wonderful",
        "fantastic",
        "big",
        "huge",
        "fast",
        "slow",
        "hard",
        "safe",
        "careful",
        "lousy",
        "poor",
        "natural",
        "avid",
        "passionate",
        "proud",
        "amateur",
        "hobby",
        "weekend",
        "self-taught",
        "self",
        "taught",
        "pretty",
        "really",
        "very",
        "quite",
        "better",
        "best",
        "worst",
        "real",
        "born",
        "total",
        "fan",
        "lazy",
        "messy",
        "picky",
        "wannabe",
        "aspiring",
        "future",
        "would-be",
        "former",
        "ex",
        "retired",
        "recovering",
        "failed",
        "struggling",
        "budding",
        "hopeful",
        "fine",
        "nice",
        "awesome",
        "average",
        "hopeless",
        "mediocre",
        "okay",
        "ok",
        "straight",
        "confident",
        "active",
        "averse",
    }
)
"""Words that make a role phrase a judgement ("decent writer"), a hobby, a past or a future role: no role."""
_ROLE_FUNCTION = frozenset(
    {
        "so",
        "i",
        "i'm",
        "and",
        "but",
        "or",
        "who",
        "which",
        "that",
        "because",
        "since",
        "for",
        "at",
        "on",
        "in",
        "with",
        "from",
        "to",
        "as",
        "is",
        "are",
        "was",
        "when",
        "while",
        "where",
        "if",
        "then",
        "though",
        "now",
        "here",
        "there",
        "by",
        "until",
        "after",
        "before",
        "my",
        "your",
        "his",
        "her",
        "their",
        "our",
        "it",
        "its",
        "this",
        "these",
        "of",
    }
)
_ROLE_STOP_RE = re.compile(
    r"\s+(?:for|at|on|in|with|since|and|but|who|which|from|to|after|before|until|because|as|of the|of our|"
    r"reporting|working|based|now)\b|[,.;:!?()]"
)
_TEAM_WORDS = (
    r"(?:team|squad|group|department|dept|org|organization|organisation|division|unit|guild|chapter|crew|tribe|pod)"
)
_TEAM_RE = re.compile(
    r"^(?:the\s+|a\s+|our\s+|my\s+|their\s+|his\s+|her\s+)?(?P<name>[\w&'’-]+(?:\s+[\w&'’-]+){0,3}?)\s+"
    + _TEAM_WORDS
    + r"\b"
    r"|^(?:the\s+)?" + _TEAM_WORDS + r"\s+(?P<name2>" + _CAP + r"[\w'’-]*(?:\s+" + _CAP + r"[\w'’-]*){0,2})",
    re.I,
)
_TEAM_ADJ = frozenset(
    {
        "new",
        "small",
        "big",
        "large",
        "whole",
        "entire",
        "same",
        "other",
        "remote",
        "global",
        "local",
        "core",
        "great",
        "good",
        "old",
        "own",
        "two",
        "three",
        "four",
        "five",
        "several",
        "current",
    }
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
_THING_WORDS = r"(?:" + "|".join(_THING_KINDS) + r")"
_THING_RE = re.compile(
    r"^(?:the\s+)?(?P<name>"
    + _CAP
    + r"[\w&'’.-]*(?:\s+"
    + _CAP
    + r"[\w&'’.-]*){0,3})(?:'s|’s)?\s+(?P<kind>"
    + _THING_WORDS
    + r")s?\b"
    r"|^(?:the\s+)?(?P<kind2>"
    + _THING_WORDS
    + r")\s+(?P<name2>"
    + _CAP
    + r"[\w&'’.-]*(?:\s+"
    + _CAP
    + r"[\w&'’.-]*){0,3})"
    r"|^(?:the\s+|our\s+|their\s+|my\s+)?relationship\s+with\s+(?:the\s+)?(?P<name4>"
    + _CAP
    + r"[\w&'’.-]*(?:\s+"
    + _CAP
    + r"[\w&'’.-]*){0,3})"
    r"|^(?P<name3>" + _CAP + r"[\w&'’.-]*(?:\s+" + _CAP + r"[\w&'’.-]*){0,3})",
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
_THRESH_RE = re.compile(r"(?:over|above|more than|exceeding|greater than|>)\s*$", re.I)
# after a limit cue ("signing limit on capex went down to $500k"): the amount the limit is (now) at
_LIMIT_AT_RE = re.compile(r"\b(?:to|at|is|was|now|of)\s*$|:\s*$", re.I)
_LIMIT_VERB_RE = re.compile(
    r"\b(?:is|was|went|goes|got|gets|has|had|now|raised|lowered|increased|decreased|reduced|cut|dropped|bumped|set|moved|"
    r"changed|rose|fell|doubled|halved)\b",
    re.I,
)
_GENERAL_SCOPE = frozenset({"everything", "anything", "all", "any", "general", "", "it", "them", "things", "stuff"})
_EXCLUSIVE_RE = re.compile(
    r"\b(?:sole|only (?:one|person)|the only|exclusive(?:ly)?|final say|decision[- ]?maker)\b", re.I
)
_EXCL_NEG_RE = re.compile(
    r"\b(?:no longer|not|isn't|is not|never)\s+(?:the\s+)?(?:sole|only|exclusive|final|decision)", re.I
)


# ---- right-hand readers ------------------------------------------------------------------------


def _people(right: str) -> list[str]:
    """Names at the start of `right`: "Lee", "Grace Hopper", "Lee, Priya and Omar", "me"."""
    out: list[str] = []
    current: list[str] = []
    for word in _WORD_RE.findall(right.strip()):
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
        if word[:1].isupper() and low.strip("'’s") not in _NAME_STOP:
            current.append(word.rstrip(".").removesuffix("'s").removesuffix("’s"))
            if word.endswith(("'s", "’s", ".")):
                break
            continue
        break
    if current:
        out.append(" ".join(current))
    return [p for p in out if p]


def _person_targets(right: str, ctx: Context, before: str) -> list[str]:
    out: list[str] = []
    for mention in _people(right):
        if mention == "user" and not right.lower().lstrip().startswith(("the user", "user")):
            continue
        pid = resolve_person(mention, ctx, pronoun_antecedent(before, ctx))
        if pid:
            out.append(pid)
    return out


def _team(right: str) -> str | None:
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


def _role(right: str, strict: bool = True) -> str | None:
    """`role:<slug>` for the role phrase at the start of `right`, or None.

    The phrase runs to the first function word or punctuation ("mechanical engineer so I …" →
    mechanical-engineer) and must end in a role head noun, or be "<head> of <name>" ("head of design",
    "VP of Sales"); a judgement, hobby, past or future word anywhere in it ("decent writer", "retired
    accountant", "aspiring nurse") gives None. `strict=False` is kept for callers and means the same.
    """
    del strict  # every role needs a head noun (precision first)
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


def _place(right: str) -> str | None:
    text = re.sub(r"^(?:the\s+)", "", right.strip(), flags=re.I)
    if text[:1] in "\"“'‘":
        return None  # a quoted name ('I'm in "Parks"') is a nickname, not a place
    words: list[str] = []
    for word in _WORD_RE.findall(text):
        low = word.lower()
        if word == "I" or word.startswith(("I'", "I’")):
            break  # "since I live in Arizona I've always…"
        if word[:1].isupper() and low.strip("'’s") not in _NAME_STOP:
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


_TEMPORARY_RE = re.compile(
    r"\b(?:while|during|visiting)\b[^|]*\|"
    r"|\|.*\b(?:this\s+(?:week|weekend|month|summer)|today|tonight|for\s+(?:a|the)\s+(?:week|weekend|few\s+days|trip|holiday|vacation)"
    r"|on\s+(?:vacation|holiday|a\s+trip|business))\b",
    re.I,
)
_NOT_PLACE_HEAD = frozenset(
    {
        "country",
        "countryside",
        "area",
        "region",
        "community",
        "neighborhood",
        "neighbourhood",
        "part",
        "side",
        "style",
        "culture",
        "family",
        "house",
        "home",
        "suburbs",
        "accent",
        "restaurant",
        "village",
        "town",
        "food",
        "people",
    }
)
"""A lowercase noun right after the name makes the name an adjective: "Amish country", "Italian restaurant"."""
_DIRECTION_RE = re.compile(
    r"^(?:(?:north|south|east|west|central|upstate|downstate|rural|southern|northern|eastern|western)\w*\s+)+", re.I
)
_REGIONS = frozenset(
    {
        "midwest",
        "south",
        "north",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
        "east coast",
        "west coast",
        "bay area",
        "pacific northwest",
        "bronx",
        "netherlands",
        "philippines",
        "caribbean",
        "middle east",
        "balkans",
        "highlands",
        "midlands",
        "outback",
        "bahamas",
        "gulf coast",
        "deep south",
        "big apple",
        "twin cities",
    }
)
_PLACE_SUFFIX_RE = re.compile(
    r"\b(?:county|city|town|village|beach|springs|falls|valley|island|islands|heights|hills|lake|bay|coast|province|"
    r"state|parish|borough|township|park|harbor|harbour|creek|ridge|point|port|fort|mount|mt|saint|st|san|santa|los|las|"
    r"new|north|south|east|west)\b",
    re.I,
)


def _known_place(right: str, place: str, strong: bool) -> bool:
    """True when the place phrase right of a located_in cue names a place.

    A gazetteer hit (`places.lookup_place`, also after a direction word: "Southern Georgia") always
    counts. After a strong cue (live, based, located, moved) a capitalised name also counts unless it
    follows "the" (the Olympics) or is a 2-3 letter abbreviation (AA) with no hit, except for a few
    regions ("the Midwest") and names with a place word ("Alpine County", "Fort Lee"). A weak cue
    ("I'm in", "works in") needs the gazetteer: "I'm in AA", "I work in Finance" are no places.
    """
    from writegate.normalizer.places import lookup_place

    name = place.split(":", 1)[1].replace("-", " ")
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
    from writegate.normalizer.enums import language_code
    from writegate.normalizer.places import lookup_place

    return language_code(word) is not None and lookup_place(word) is None


def _thing(right: str, explicit: bool = False) -> str | None:
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
    words = [w for w in name.split() if w.lower().strip("'’s") not in _NAME_STOP]
    if not words or name.split()[0].lower() in _NAME_STOP:
        return None
    return entity_id(kind, " ".join(words))


def _thing_left(left: str) -> str | None:
    """A thing named at the end of the left text ("The Initech deal", "Acme")."""
    words = left.strip().split()
    for i in range(max(0, len(words) - 5), len(words)):
        thing = _thing(" ".join(words[i:]))
        if thing and _THING_RE.match(" ".join(words[i:])).end() == len(" ".join(words[i:])):  # type: ignore[union-attr]
            return thing
    return None


def _budget(right: str, cue_has_limit: bool) -> tuple[str, Attrs]:
    """`budget:<scope>` and the cap attributes from the text right of an approval cue."""
    attrs: Attrs = {}
    amounts = find_amounts(right)
    scope_end = len(right)
    for amount in amounts:
        before = right[: amount.start]
        if _THRESH_RE.search(before):
            scope_end = min(scope_end, _THRESH_RE.search(before).start())  # type: ignore[union-attr]
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


# ---- rules -------------------------------------------------------------------------------------


def _r(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_POSS = r"(?P<poss>\b(?:my|her|his|their|(?:the )?user's)|'s|’s)"


_RULES: tuple[tuple[EdgeType, re.Pattern[str], str], ...] = (
    (
        EdgeType.REPORTS_TO,
        _r(
            r"\b(?:reports?|reporting|reported)\s+(?:directly\s+)?(?:in)?to\b|\banswers?\s+(?:directly\s+)?to\b|\bworks?\s+(?:directly\s+)?under\b|\b(?:is|are)\s+(?:now\s+)?managed\s+by\b"
        ),
        "person",
    ),
    (
        EdgeType.REPORTS_TO,
        _r(
            r"(?:"
            + _POSS
            + r")\s+(?:new\s+|current\s+|direct\s+|line\s+)?(?:manager|boss|supervisor|line manager|reporting line)(?:\s+is(?:\s+now)?|\s*:)"
        ),
        "person",
    ),
    (EdgeType.MANAGES, _r(r"(?:" + _POSS + r")\s+(?:direct\s+)?reports\s+(?:are|include)\b"), "people"),
    (
        EdgeType.MANAGES,
        _r(
            r"\b(?:manages|managed|manage|runs|run|ran|leads|lead|led|heads|head|headed|oversees|oversee|oversaw|handles|covers|looks after|is in charge of|is responsible for)\b"
        ),
        "manages",
    ),
    (
        EdgeType.MEMBER_OF,
        _r(
            r"\b(?:a\s+)?member\s+of\b|\bpart\s+of\b|\bjoined\b|\b(?:moved|transferred|switched|moving)\s+(?:over\s+)?to\b|(?:\b(?:is|am|are|was|sits|works|working)|'m|’m|'re|’re)\s+(?:now\s+)?(?:on|in|with)\b"
        ),
        "team",
    ),
    (
        EdgeType.OWNED_BY,
        _r(
            r"(?<!\bmy )(?<!\byour )(?<!\bhis )(?<!\bher )(?<!\bour )(?<!\btheir )(?<!\bits )(?<!\bthe )"
            r"\b(?:owns|own|owned|took over|takes over|has taken over|taking over|inherited|is taking over)\b|\bis\s+(?:now\s+)?(?:(?:the|our|their|its)\s+)?(?:point of contact|poc|main contact|contact|owner|account manager|account owner|account lead|relationship manager)\s+(?:for|on|of)\b"
        ),
        "thing",
    ),
    (
        EdgeType.HAS_ROLE,
        _r(
            r"(?:"
            + _POSS
            + r")\s+(?:new\s+|current\s+|official\s+)?(?:role|title|job title|position|job)\s+is(?:\s+now)?|\bpromoted\s+to\b|\bworks?\s+as\b|\bworking\s+as\b|\b(?:was|got|has been)\s+(?:named|appointed|made|hired as)\b"
        ),
        "role",
    ),
    (
        EdgeType.HAS_ROLE,
        _r(
            r"(?:\b(?:is|am|was|became|becomes|has become)|'m|’m)\s+(?:now\s+)?(?=(?:a|an|the|our|their|now)\s)"
            r"|\b(?:became|becomes|has become)\b|\b(?:is|am)\s+(?:now\s+)?(?=(?:head|vp|director|chief)\s+of\b)"
        ),
        "role-strict",
    ),
    (
        EdgeType.HAS_ROLE,
        _r(_POSS + r"\s+(?:new\s+|current\s+|official\s+)?(?:role|title|job title|position|job)\s*:"),
        "role-label",
    ),
    (
        EdgeType.HAS_ROLE,
        _r(
            r"\b(?:holds?|holding|(?:has\s+)?taken\s+on|took\s+on|takes\s+on|taking\s+on|"
            r"(?:has\s+)?stepped\s+into|steps\s+into|stepping\s+into|moved\s+into|moves\s+into|accepted|accepts|"
            r"assumed|assumes)\s+(?:the|a|an|her|his|their|my|our)\s+"
            r"(?:(?:role|position|title|post)\s+of\s+(?P<role2>[^,.;:!?]{1,60})|"
            r"(?P<role>(?:[\w-]+\s+){0,5}?[\w-]+)\s+(?:role|position|title|post|job)\b)"
        ),
        "role-held",
    ),
    (
        EdgeType.LOCATED_IN,
        _r(
            r"\b(?:based|located|living|lives|live|resides?|residing|moved|relocated|relocating|moving|works?|working)\s+(?:remotely\s+)?(?:in|to|from|out of)\b|(?:\b(?:is|am)|'m|’m)\s+(?:now\s+|currently\s+)?in\b"
            r"|\bback\s+home\s+in\b|(?:['’]ve|\bhave|\bhas)\s+(?:always\s+)?lived\s+in\b"
        ),
        "place",
    ),
    (
        EdgeType.OWNED_BY,
        _r(
            r"\b(?:is|are|was|were|has been|have been|got|gets)?\s*(?:now\s+)?(?:owned|handled|managed|run|covered|looked after|taken over|led)\s+by\b|\b(?:was|were|has been|have been|is being|got|is|are)\s+(?:now\s+)?(?:handed|passed|transferred|reassigned|assigned|given|moved)\s+(?:off\s+|over\s+)?to\b"
        ),
        "passive-owner",
    ),
    (
        EdgeType.APPROVES,
        _r(
            r"\b(?:can\s+)?(?:approves?|approved|approving|signs?\s+off(?:\s+on)?|signed\s+off(?:\s+on)?|authori[sz]es|authori[sz]ed to approve)\b|\b(?:sole|only|final|primary|main)?\s*(?:approver|decision[- ]?maker|signatory)\s*(?:for|on|of)?|\bthe only (?:one|person) who can (?:approve|sign off(?: on)?)\b|\bhas (?:the )?final say (?:on|over)\b"
        ),
        "budget",
    ),
    (
        EdgeType.APPROVES,
        _r(
            r"(?:"
            + _POSS
            + r")?\s*(?:(?:approval|signing|spending|sign-off)\s+(?:limit|authority|threshold)|(?:approval|signing|sign-off)\s+cap)\s*(?:is|of|:)?"
        ),
        "budget-limit",
    ),
    (EdgeType.DELEGATES_TO, _r(r"\bdelegat(?:es|ed|ing|e)\b"), "delegate"),
    (
        EdgeType.MEMBER_OF,
        _r(r"\b(?:on|in)\b(?=\s+(?:the\s+)?[\w&'’-]+(?:\s+[\w&'’-]+)?\s+" + _TEAM_WORDS + r"\b)"),
        "team-on",
    ),
)
_FOLDED_CUES: dict[str, re.Pattern[str]] = {cue.pattern: re.compile(cue.pattern) for _, cue, _ in _RULES}
"""Each cue of `_RULES` (all lower case) without `re.I`, for `gates.finditer_folded`."""
_RULE_KEYS: dict[str, tuple[str, ...]] = {
    "person": ("report", "under", "managed by", "manager", "boss", "supervisor", "answer"),
    "people": ("reports",),
    "manages": (
        "manag",
        "run",
        "ran ",
        "lead",
        "led ",
        "head",
        "overs",
        "handles",
        "covers",
        "looks after",
        "charge",
        "responsible",
    ),
    "team": ("member", "part of", "joined", "moved", "transfer", "switched", "moving", " on ", " in ", " with "),
    "role": ("role", "title", "position", "job", "promoted", " as ", "named", "appointed", "made", "hired"),
    "role-strict": ("is ", "am ", "was ", "'m ", "’m ", "bec"),
    "role-label": (":",),
    "role-held": ("role", "position", "title", "post", "job"),
    "place": ("based", "located", "liv", "moved", "relocat", "moving", "work", " in ", " in"),
    "passive-owner": (" by", " to"),
    "thing": (
        "own",
        "took over",
        "takes over",
        "taken over",
        "taking over",
        "inherited",
        "contact",
        "poc",
        "owner",
        "account",
        "manager",
    ),
    "budget": ("approv", "sign", "authori", "decision", "signatory", "final say"),
    "budget-limit": ("limit", "authority", "threshold", "cap"),
    "delegate": ("delegat",),
    "team-on": ("on ", "in "),
}
"""Substrings (lowercase) one of which a clause must contain before a rule's regex runs."""
_ALL_KEYS = sorted({key for keys in _RULE_KEYS.values() for key in keys})
_KEY_AT_RE = re.compile(f"(?=({one_of(_ALL_KEYS)}))")
"""At each position, the longest key that starts there (a trie takes the longest: `gates.one_of`)."""
_KINDS_BY_KEY: dict[str, frozenset[str]] = {
    longest: frozenset(how for how, keys in _RULE_KEYS.items() if any(longest.startswith(key) for key in keys))
    for longest in _ALL_KEYS
}
"""The rule kinds a key found at a position stands for: those with a key that is a prefix of it
(every key starting at a position is a prefix of the longest one there)."""


def _rule_kinds(low: str) -> frozenset[str]:
    """The rule kinds one of whose `_RULE_KEYS` the lower-cased clause contains, in one scan."""
    kinds: frozenset[str] = frozenset()
    for key in _KEY_AT_RE.findall(low):
        kinds |= _KINDS_BY_KEY[key]
    return kinds


_RULE_GATES: dict[str, re.Pattern[str]] = {
    "team": re.compile(
        factored(r"member|part|joined|moved|transferred|switched|moving")
        + r"|(?:is|am|are|was|sits|works|working|'m|’m|'re|’re)\s+(?:now\s+)?(?:on|in|with)"
    ),
    "role-strict": re.compile(
        r"(?:is|am|was|'m|’m)\s+(?:now\s+)?(?:a|an|the|our|their|now|head|vp|director|chief)\s|became|becomes|has become"
    ),
    "place": re.compile(
        r"based|located|liv|resid|moved|relocat|moving|work|(?:is|am|'m|’m)\s+(?:(?:now|currently)\s+)?in|home\s+in"
    ),
    "passive-owner": re.compile(
        factored(
            r"owned|handled|managed|run|covered|looked after|taken over|led|handed|passed|transferred|reassigned"
            r"|assigned|given|moved"
        )
    ),
    "team-on": re.compile(factored(_TEAM_WORDS[3:-1])),
    "thing": re.compile(
        at_word_start(["owns", "own", "owned"], r"\b")
        + r"|took over|takes over|taken over|taking over|inherited|(?:contact|poc|owner|manager|lead)\s+(?:for|on|of)"
    ),
    "people": re.compile(r"reports\s+(?:are|include)"),
    "role-label": re.compile(r"(?:role|title|position|job)\s*:"),
}
"""For the rule kinds whose keys many clauses contain (" in ", "is ", "own", ":"): what every match of
the rule's cue needs, searched in the lower-cased clause when it is ASCII (`gates`: exact there), before the
case-insensitive cue itself."""
_QUICK_RE = re.compile(  # searched in lower-cased text: re.I makes a long alternation much slower
    factored(
        r"report|under|manag|boss|supervisor|runs|ran\b|lead|led\b|head|oversee|oversaw|handle|cover|look|charge|responsib"
        r"|member|part of|joined|moved|transfer|switch|moving|with|role|title|position|job|promot|work|works|working|named"
        r"|appointed|made|hired|'m\b|’m\b|was|became|becom|based|located|liv|reloc|own|taken|took|takes|inherit|contact"
        r"|poc|approv|sign|authori|decision|signatory|limit|delegat|hand|pass|assign|given|answer|hold|step"
    )
    + "|"
    + at_word_start(["on", "in", "is", "am", "cap"], r"\b")
    + "|"
    + at_word_start(["q", "question"], r"\s*:")
)
r"""Words one of which a text needs before any edge rule runs: `report|under|…|\bon\b|\bin\b|…|\bis\b
|\bam\b|['’]m\b|…|\bcap\b|step|\bq(?:uestion)?\s*:`, written so that every branch starts with a
literal character (`gates`)."""
_GIVE_RE = re.compile(
    r"\b(?:handed|hands|passed|transferred|gave|reassigned|assigned)\s+(?:off\s+|over\s+)?(?P<thing>.+?)\s+(?:off\s+|over\s+)?to\s+(?P<rest>.+)$",
    re.I,
)
_OWNER_IS_RE = re.compile(
    r"\b(?:the\s+)?(?:owner|point of contact|poc|main contact|contact|account manager|account owner|account lead|relationship manager)\s+(?:for|of|on)\s+(?P<thing>.+?)(?:\s+is\s+(?:now\s+)?|\s*:\s*)(?P<rest>.+)$",
    re.I,
)
_INVERSE_MANAGER_RE = re.compile(
    r"\bis\s+(?:now\s+)?(?P<owner>my|her|his|their|the user's|[A-ZÀ-ÖØ-Þ][\w-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w-]*)?(?:'s|’s))\s+(?:new\s+|current\s+|direct\s+|line\s+)?(?:manager|boss|supervisor)\b"
)
_APPROVED_BY_RE = re.compile(
    r"\b(?:must|needs? to|has to|have to|should)?\s*(?:be\s+)?(?:approved|signed off)\s+by\s+(?P<rest>.+)$|\b(?:needs?|requires?)\s+(?:only\s+|just\s+)?(?P<who>my|her|his|their|the user's|[A-ZÀ-ÖØ-Þ][\w-]*(?:'s|’s))\s+(?:sign-?off|approval|ok)\b",
    re.I,
)

_NAME_RX = _CAP + r"[\w'’-]*(?:\s+" + _CAP + r"[\w'’-]*){0,3}"
_MANAGER_OF_RE = re.compile(
    r"^\s*(?i:(?:the\s+)?(?:direct\s+|line\s+)?(?:manager|boss|supervisor)\s+of)\s+(?P<who>(?i:the\s+user|user)|"
    + _NAME_RX
    + r")"
    r"\s*:\s*(?P<rest>.+)$"
)
"""Label form "Manager of Ana Ruiz: Lee" (at the clause start; the named one reports to the value)."""
_CLEFT_REPORTS_RE = re.compile(
    r"\bis\s+(?:now\s+)?(?i:the\s+(?:one|person)\s+(?:(?:who|whom|that)\s+)?|(?:who|whom)\s+)"
    r"(?P<who>(?i:the\s+user|user)|I|he|she|they|"
    + _NAME_RX
    + r")\s+(?:now\s+)?(?:directly\s+)?(?i:reports?|answers?)\s+to\b"
)
"""Cleft form "Lee is who I report to" / "Lee is the person Sam answers to" (the left name is the manager)."""
_CAP_FOR_RE = re.compile(
    r"\b(?:(?:approval|signing|sign-off)\s+(?:cap|limit|authority)|spending\s+(?:limit|authority))\s*(?:\((?P<scope>[^()]{1,80})\))?\s*:\s*"
    r"(?P<amount>[^;:()]{1,40}?)\s+for\s+(?P<rest>.+)$",
    re.I,
)
"""Label form "Approval cap (travel): $5,000 for Lee"."""
_QA_RE = re.compile(
    r"(?<!\w)(?:q|question)\s*:\s*(?P<q>[^?\n]{1,200}\?)\s*(?:a|answer)\s*:\s*(?P<a>(?:[^\n.;!?]|\.(?=\d))+)", re.I
)
"""A question/answer note pair ("Q: who is my manager? A: Lee")."""
_WHO = r"(?P<who>\S+(?:\s+\S+){0,3}?)"
_QA_QUESTIONS: tuple[tuple[EdgeType, re.Pattern[str]], ...] = (
    (
        EdgeType.REPORTS_TO,
        _r(r"^\s*who(?:m)?\s+(?:does|do|did)\s+" + _WHO + r"\s+(?:directly\s+)?(?:report|answer)\s+to\s*\?$"),
    ),
    (
        EdgeType.REPORTS_TO,
        _r(
            r"^\s*who(?:\s+is|'s|’s)\s+"
            + _WHO
            + r"\s+(?:direct\s+|line\s+|current\s+)?(?:manager|boss|supervisor)\s*\?$"
        ),
    ),
    (EdgeType.HAS_ROLE, _r(r"^\s*what\s+(?:does|do)\s+" + _WHO + r"\s+do(?:\s+for\s+(?:a\s+)?(?:living|work))?\s*\?$")),
    (
        EdgeType.HAS_ROLE,
        _r(
            r"^\s*what(?:\s+is|'s|’s)\s+"
            + _WHO
            + r"\s+(?:current\s+|official\s+)?(?:role|title|job title|job|position)\s*\?$"
        ),
    ),
    (
        EdgeType.APPROVES,
        _r(
            r"^\s*how\s+much\s+can\s+" + _WHO + r"\s+(?:approve|sign\s+off(?:\s+on)?|authori[sz]e)"
            r"(?:\s+(?:for|on))?(?:\s+(?P<scope>[^?]{1,80}?))?\s*\?$"
        ),
    ),
    (
        EdgeType.APPROVES,
        _r(
            r"^\s*what(?:\s+is|'s|’s)\s+" + _WHO + r"\s+(?:approval|signing|sign-off)\s+(?:limit|cap|authority)"
            r"(?:\s+(?:for|on)\s+(?P<scope>[^?]{1,80}?))?\s*\?$"
        ),
    ),
    (
        EdgeType.OWNED_BY,
        _r(
            r"^\s*who\s+(?:owns|handles|is\s+the\s+(?:main\s+)?(?:point\s+of\s+contact|contact|owner)\s+(?:for|on|of))\s+"
            r"(?P<thing>[^?]{1,80}?)\s*\?$"
        ),
    ),
)
"""Q/A questions whose answer completes an edge: (type, question pattern with `who` / `scope` / `thing`)."""
_QA_NONE = frozenset(
    {"none", "unknown", "n/a", "na", "tbd", "tbc", "nobody", "no", "nothing", "idk", "unsure", "unclear", "?"}
)


_CONTRACTION_RE = re.compile(r"['’](?:m|ve|d|ll|re|s)$", re.I)
_LEADING_RE = re.compile(
    r"^\s*(?:the\s+user\b|user\b|(?:i|she|he|they|we)\b|[A-ZÀ-ÖØ-Þ][\w-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w-]*)*)", re.I
)


def _words(text: str) -> list[str]:
    out: list[str] = []
    for word in _WORD_RE.findall(text):
        low = word.lower()
        base = _CONTRACTION_RE.sub("", low)
        if base != low and (base in FIRST_PERSON or base in THIRD_PERSON):
            word = base  # "I'm" → "i", "she's" → "she"
        out.append(word)
    return out


def _month_name(words: list[str], i: int) -> bool:
    """True when words[i] ("June") is a first name: the last word left of the cue, not after a time word."""
    return (
        i == len(words) - 1 and words[i].lower() in _NAME_MONTHS and (i == 0 or words[i - 1].lower() not in _TIME_WORDS)
    )


_NOTE_VERBS = frozenset(
    {
        "lives",
        "live",
        "living",
        "works",
        "working",
        "manages",
        "managing",
        "reports",
        "reporting",
        "runs",
        "leads",
        "heads",
        "owns",
        "is",
        "was",
        "based",
        "located",
        "moved",
        "relocated",
        "joined",
        "approves",
        "handles",
        "oversees",
        "has",
        "currently",
        "now",
        "also",
        "recently",
        "just",
        "prefers",
        "started",
        "became",
        "got",
        "sits",
        "covers",
        "holds",
        "signs",
        "delegates",
        "delegated",
        "took",
        "takes",
        "promoted",
    }
)
_FIRST_PERSON_RE = re.compile(
    r"(?-i:\bI\b)(?!['’]?\s*(?:mean|guess|think|believe|heard|hear)\b)|\b(?:i['’]m|i['’]ve|i['’]d|i['’]ll)\b"
    r"|\bmy\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b",
    re.I,
)
"""The speaker as a person beside the pronoun: "I am a librarian", "my mom" ("my mistake" is not)."""
_RELATIVE_END_RE = re.compile(r"(?P<before>[\w'’-]+)\s*,?\s*(?:who|that|which)\s*$", re.I)


def _leading_mention(clause: str) -> list[str]:
    """The clause's leading person mention ("The user switched careers and …" → ["user"])."""
    m = _LEADING_RE.match(clause)
    if not m:
        return []
    if m.group(0).split()[0].lower() in _NOTE_VERBS:
        return ["user"]  # a subject-less note ("Lives in Austin and manages …"): the subject's facts
    kind, mentions = _left_mention(m.group(0))
    return mentions if kind == "people" else []


def _left_mention(left: str) -> tuple[str, list[str]]:
    """Classify the text left of a cue: ("empty"|"conj"|"none"|"people", mentions)."""
    words = _words(left)
    while words and words[-1].lower() in _SKIP_LEFT:
        words.pop()
    if not words:
        return "empty", []
    last = words[-1].lower()
    if last in _CONJ:
        return "conj", []
    if last in FIRST_PERSON or last in THIRD_PERSON or last in {"user", "user's", "user’s"}:
        return "people", [last]
    names: list[str] = []
    current: list[str] = []
    i = len(words) - 1
    while i >= 0:
        word = words[i]
        low = word.lower()
        if word[:1].isupper() and (
            low.removesuffix("'s").removesuffix("’s") not in _NAME_STOP or _month_name(words, i)
        ):
            current.insert(0, word.removesuffix("'s").removesuffix("’s"))
        elif (word in (",", "&") or low == "and") and current:
            names.insert(0, " ".join(current))
            current = []
        else:
            break
        i -= 1
    if current:
        names.insert(0, " ".join(current))
    if not names or words[-1] in (",", "&") or words[-1].lower() == "and":
        return "none", []
    return "people", names


class _Clause:
    """Extraction state for one clause: the first source carries over to "and …"."""

    def __init__(self, text: str, ctx: Context, before: str, whole: str = "") -> None:
        self.text = text
        self.ctx = ctx
        self.before = before
        self.whole = whole or f"{before} {text}"
        self.first_sources: list[str] | None = None

    def person(self, mention: str) -> str | None:
        antecedent = pronoun_antecedent(self.before, self.ctx)
        if mention.lower() in {"mine", "ours"}:
            return None  # "Mine is a lawyer": someone of mine, not me
        if antecedent is None and mention.lower() in THIRD_PERSON and _FIRST_PERSON_RE.search(self.whole):
            # the text speaks of the subject as "I": "he"/"she" is someone else ("He is a professor and I
            # am a librarian", "My mom is a nurse. She lives in Ohio"), whom the text does not name
            return None
        return resolve_person(mention, self.ctx, antecedent)

    def sources(self, left: str, possessive: str | None) -> list[str]:
        if possessive and possessive.lower() not in {"'s", "’s"}:
            pid = self.person(possessive.split("'")[0].split("’")[0].replace("the ", ""))
            return [pid] if pid else []
        kind, mentions = _left_mention(left)
        if kind == "empty":
            out = self.first_sources or [self.ctx.subject]
        elif kind == "conj" and (rel := _RELATIVE_END_RE.search(left)):
            # "I have a sister who lives in Spain", "a doll named Katie that is a dancer": the fact is the
            # noun's or name's before the relative pronoun, never the clause subject's
            named_kind, named = _left_mention(left[: rel.end("before")])
            people = named_kind == "people" and not left.rstrip().lower().endswith("which")
            out = [p for p in (self.person(n) for n in named) if p] if people else []
        elif kind == "conj":
            out = self.first_sources or [p for p in (self.person(m) for m in _leading_mention(self.text)) if p]
        elif kind == "none":
            out = []
        else:
            out = [p for p in (self.person(m) for m in mentions) if p]
        if self.first_sources is None and out:
            self.first_sources = out
        return out


def _slot(edge: Edge, subject: str) -> str:
    if edge.type in SINGLE_VALUED_EDGES:
        return f"edge.{edge.type.value}" if edge.source == subject else f"edge.{edge.type.value}.{edge.source}"
    return (
        f"edge.{edge.type.value}.{edge.target}"
        if edge.source == subject
        else f"edge.{edge.type.value}.{edge.source}.{edge.target}"
    )


_SEGMENT_RE = re.compile(r"[,;:]|\b(?:and|but)\b")
_THING_PHRASE_RE = re.compile(
    r"\s*(?:the\s+)?\S+(?:\s+\S+){0,3}?\s+" + _THING_WORDS + r"|\s*(?:the\s+)?" + _THING_WORDS, re.I
)


_SCOPE_BREAK_RE = re.compile(r"[,;:]|\b(?:and|but|so|because|since|although|though|whereas|or)\b", re.I)
_RIGHT_END_RE = re.compile(r"[,.;:!?]|\b(?:but|and|so|because)\b", re.I)
_EVENT_CUE_RE = re.compile(
    r"promoted|named|appointed|made|hired|bec[oa]me|moved|relocated|took|taken|stepped|accepted|assumed", re.I
)
_PAST_AUX_RE = re.compile(r"\b(?:was|were|got|has\s+been|had\s+been|have\s+been)\s*$", re.I)


def _not_current(left: str, cue: str, right: str) -> bool:
    """True when a role or place cue states a plan, a wish or a past state, not a current fact.

    `scope.irrealis` / `scope.past_state` read the cue's segment (the clause after its last comma,
    "and", "but", "since"…): "I'm moving to Florida", "when I am in Hong Kong", "I want to be a
    nurse", "I was an accountant", "I grew up in Ohio". A past *event* ("was promoted to", "moved to")
    is a current fact: its auxiliary is not a past marker.
    """
    seg_left = _SCOPE_BREAK_RE.split(left)[-1]
    end = _RIGHT_END_RE.search(right)
    seg_right = right[: end.start()] if end else right
    low = cue.lower().strip()
    if low.startswith(("was ", "were ", "moving", "relocating")) or low in {"was", "were"}:
        return True  # "I was an engineer"; a progressive move is a plan ("moving to Denver")
    if irrealis(seg_left + cue, seg_right):
        return True
    past_left = _PAST_AUX_RE.sub("", seg_left) if _EVENT_CUE_RE.search(cue) else seg_left
    return past_state(past_left, seg_right)


def _negated(left: str) -> bool:
    segment = _SEGMENT_RE.split(left)[-1]
    return bool(_NEG_RE.search(segment))


def _clause_edges(c: _Clause) -> list[Edge]:
    text = c.text
    edges: list[Edge] = []
    taken: list[tuple[int, int]] = []

    def add(source: str | None, etype: EdgeType, target: str | None, attrs: Attrs | None = None) -> None:
        if source and target and source != target:
            edges.append(Edge(source=source, type=etype, target=target, attributes=attrs or {}))

    low = text.lower()
    # whole-clause forms first (cheap substring guards before each regex)
    give = (
        _GIVE_RE.search(text)
        if " to " in low and any(k in low for k in ("hand", "pass", "transfer", "gave", "assign"))
        else None
    )
    owner_is = (
        _OWNER_IS_RE.search(text)
        if (" is " in low or ":" in low)
        and any(k in low for k in ("owner", "contact", "poc", "account", "relationship"))
        else None
    )
    for m in (give, owner_is):
        if m and not _negated(text[: m.start()]):
            thing = _thing(m.group("thing"))
            for target in _person_targets(m.group("rest"), c.ctx, c.before):
                add(thing, EdgeType.OWNED_BY, target)
            if thing:
                taken.append((m.start(), m.end()))
    m = _INVERSE_MANAGER_RE.search(text) if any(k in low for k in ("manager", "boss", "supervisor")) else None
    if m and not _negated(text[: m.start()]):
        owner = c.person(re.sub(r"(?:'s|’s)$", "", m.group("owner")).replace("the ", ""))
        for src in c.sources(text[: m.start()], None):
            add(owner, EdgeType.REPORTS_TO, src)
        taken.append((m.start(), m.end()))
    m = _APPROVED_BY_RE.search(text) if "approv" in low or "sign" in low or "ok" in low else None
    if m and not _negated(text[: m.start()]):
        approvers = (
            [c.person(re.sub(r"(?:'s|’s)$", "", m.group("who")).replace("the ", ""))]
            if m.group("who")
            else _person_targets(m.group("rest"), c.ctx, c.before)
        )
        target, attrs = _budget(text[: m.start()], False)
        for approver in approvers:
            if approver:
                add(approver, EdgeType.APPROVES, target, attrs)
        taken.append((m.start(), m.end()))
    m = _MANAGER_OF_RE.search(text) if ":" in low else None
    if m:
        who = c.person(m.group("who"))
        for target in _person_targets(m.group("rest"), c.ctx, c.before):
            add(who, EdgeType.REPORTS_TO, target)
        taken.append((m.start(), m.end()))
    m = _CLEFT_REPORTS_RE.search(text) if " to" in low else None
    if m and not _negated(text[: m.start()]):
        kind, bosses = _left_mention(text[: m.start()])
        reporter = c.person(m.group("who"))
        for boss in bosses if kind == "people" else []:
            add(reporter, EdgeType.REPORTS_TO, c.person(boss))
        taken.append((m.start(), m.end()))
    m = _CAP_FOR_RE.search(text) if ":" in low else None
    amounts = find_amounts(m.group("amount")) if m else []
    if m and amounts and not _negated(text[: m.start()]):
        target = _budget(m.group("scope"), False)[0] if m.group("scope") else "budget:general"
        for src in _person_targets(m.group("rest"), c.ctx, c.before):
            add(src, EdgeType.APPROVES, target, {"max_amount": amounts[0].value, "currency": amounts[0].currency})
            taken.append((m.start(), m.end()))

    ascii_text = text.isascii()
    kinds = _rule_kinds(low)
    for etype, cue, how in _RULES:
        if how not in kinds:
            continue
        if ascii_text and how in _RULE_GATES and not _RULE_GATES[how].search(low):
            continue
        for m in finditer_folded(cue, _FOLDED_CUES[cue.pattern], text, low):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            left, right = text[: m.start()], text[m.end() :]
            if _negated(left) and not (how.startswith("budget") and _EXCL_NEG_RE.search(text)):
                continue
            if etype in (EdgeType.HAS_ROLE, EdgeType.LOCATED_IN) and _not_current(left, m.group(0), right):
                continue
            before_count = len(edges)
            possessive = m.groupdict().get("poss")
            if how == "passive-owner":
                thing = _thing_left(left)
                for target in _person_targets(right, c.ctx, c.before):
                    add(thing, EdgeType.OWNED_BY, target)
            elif how == "thing":
                verb = m.group(0).lower()
                if verb == "owned":
                    continue  # a past state ("I owned a bakery")
                # owning needs a named account / deal / project ("owns the Acme account"): "I own a Jeep",
                # "I own Nike shoes" are possessions, not an organisation's things
                thing = _thing(right, explicit=verb in {"own", "owns"})
                for src in c.sources(left, None) if thing else []:
                    add(thing, EdgeType.OWNED_BY, src)
            elif how == "person":
                targets = _person_targets(right, c.ctx, c.before)
                for src in c.sources(left, possessive) if targets else []:
                    for target in targets:
                        add(src, etype, target)
            elif how == "people":
                targets = _person_targets(right, c.ctx, c.before)
                for src in c.sources(left, possessive) if targets else []:
                    for target in targets:
                        add(src, EdgeType.MANAGES, target)
            elif how == "manages":
                team, thing = _team(right), _thing(right)
                if team:
                    for src in c.sources(left, None):
                        add(src, EdgeType.MANAGES, team)
                elif thing and _THING_PHRASE_RE.match(right):
                    for src in c.sources(left, None):
                        add(thing, EdgeType.OWNED_BY, src)
                elif m.group(0).lower() in {"manages", "managed", "oversees", "oversaw"}:
                    targets = _person_targets(right, c.ctx, c.before)
                    for src in c.sources(left, None) if targets else []:
                        for target in targets:
                            add(src, EdgeType.MANAGES, target)
            elif how in ("team", "team-on"):
                team = _team(right)
                sources = (c.first_sources or c.sources(left, None)) if how == "team-on" else c.sources(left, None)
                for src in sources if team else []:
                    add(src, EdgeType.MEMBER_OF, team)
            elif how in ("role", "role-strict", "role-label"):
                role = _role(right, strict=how != "role")
                for src in c.sources(left, possessive) if role else []:
                    add(src, EdgeType.HAS_ROLE, role)
            elif how == "role-held":
                role = _role(m.group("role") or m.group("role2"), strict=True)
                for src in c.sources(left, None) if role else []:
                    add(src, EdgeType.HAS_ROLE, role)
            elif how == "place":
                if _team(right):
                    continue
                cue_low = m.group(0).lower()
                if cue_low.endswith(("from", "out of")) and any(k in cue_low for k in ("moved", "relocat", "moving")):
                    to = re.search(
                        r"\bto\s+", right
                    )  # "moved from Germany (to Portland)": the origin is no longer home
                    if not to:
                        continue
                    right = right[to.end() :]
                if not any(k in cue_low for k in ("based", "located", "liv", "resid", "moved", "relocat")) and (
                    _TEMPORARY_RE.search(_SCOPE_BREAK_RE.split(left)[-1] + " | " + right[:60]) or stay(right[:60])
                ):
                    continue  # "while I am in France", "I'm in New York this week", "in Dubai until Thursday": a visit
                if "lived" in cue_low and not holds_since(right):
                    continue  # "I've lived in Oslo since 2019" holds now; "I've lived in Japan" need not
                place = _place(right)
                strong = any(k in m.group(0).lower() for k in ("based", "located", "liv", "resid", "moved", "relocat"))
                if place and not _known_place(right, place, strong):
                    continue
                for src in c.sources(left, None) if place else []:
                    add(src, EdgeType.LOCATED_IN, place)
            elif how in ("budget", "budget-limit"):
                target, attrs = _budget(right, how == "budget-limit")
                if _EXCLUSIVE_RE.search(m.group(0)) or _EXCLUSIVE_RE.search(left[-30:]):
                    attrs = {**attrs, "exclusive": not _EXCL_NEG_RE.search(text)}
                for src in c.sources(left, possessive):
                    add(src, EdgeType.APPROVES, target, attrs)
            elif how == "delegate":
                to = re.search(r"\bto\s+", right)
                if not to:
                    continue
                targets = _person_targets(right[to.end() :], c.ctx, c.before)
                scope_text = right[: to.start()].strip()
                passive = re.search(r"(?:\b(?:has|have|had)\s+been|\b(?:was|were|is|are|been|being|got))\s*$", left)
                if passive:  # "<scope> has been delegated to <person>": the subject delegated it
                    scope_text = left[: passive.start()]
                    sources = [c.ctx.subject]
                else:
                    sources = c.sources(left, None)
                scope = re.sub(
                    r"\s+", " ", re.sub(r"^(?:the|all|her|his|their|my)\s+", "", scope_text, flags=re.I)
                ).strip(" ,.")[:80]
                for src in sources if targets else []:
                    for target in targets:
                        add(src, EdgeType.DELEGATES_TO, target, {"scope": scope.lower()} if scope else {})
            if len(edges) > before_count:
                taken.append((m.start(), m.end()))
    return edges


def _qa_person(mention: str, ctx: Context, before: str) -> str | None:
    """The entity a Q/A question is about ("the user", "my", "Lee's"); None for anything else."""
    bare = strip_possessive(mention)
    low = bare.lower()
    if low in FIRST_PERSON or low in THIRD_PERSON or low in USER_WORDS or name_mention(bare) == bare:
        return resolve_person(bare, ctx, pronoun_antecedent(before, ctx))
    return None


def _qa_edges(question: str, answer: str, ctx: Context, before: str) -> list[Edge]:
    """Edges from a Q/A pair whose question is in `_QA_QUESTIONS` and whose answer fills it in."""
    if _NEG_RE.search(question) or _NEG_RE.search(answer) or answer.strip(" .").lower() in _QA_NONE:
        return []
    for etype, pattern in _QA_QUESTIONS:
        m = pattern.match(question)
        if not m:
            continue
        groups = m.groupdict()
        source: str | None = _qa_person(groups["who"], ctx, before) if groups.get("who") else None
        targets: list[str] = []
        attrs: Attrs = {}
        if etype is EdgeType.REPORTS_TO:
            targets = _person_targets(answer, ctx, before)
        elif etype is EdgeType.HAS_ROLE:
            role = _role(answer, strict=True)
            targets = [role] if role else []
        elif etype is EdgeType.APPROVES:
            amounts = find_amounts(answer)
            if amounts and not _THRESH_RE.search(answer[: amounts[0].start]):
                targets = [_budget(groups["scope"], False)[0] if groups.get("scope") else "budget:general"]
                attrs = {"max_amount": amounts[0].value, "currency": amounts[0].currency}
        else:  # owned_by: the thing asked about is owned by the answer
            source = _thing(groups["thing"])
            targets = _person_targets(answer, ctx, before)
        return [Edge(source=source, type=etype, target=t, attributes=attrs) for t in targets if source and t != source]
    return []


def extract(text: str, ctx: Context) -> list[Record]:
    """Organisational edge records in `text` (several facts → several records).

    Args:
        text: the memory text.
        ctx: the request context (its subject resolves "I", "the user", "Sam" for `user:sam`…).

    Returns:
        `kind: edge` records; [] when no rule matches.
    """
    if not _QUICK_RE.search(text.lower()):
        return []
    records: list[Record] = []
    for qa in _QA_RE.finditer(text) if "?" in text else ():
        for edge in _qa_edges(qa.group("q"), qa.group("a"), ctx, text[: qa.start()]):
            records.append(ctx.record(RecordKind.EDGE, _slot(edge, ctx.subject), qa.group(0).strip(), edge=edge))
    offset = 0
    for clause in _CLAUSE_SPLIT_RE.split(text):
        start = text.find(clause, offset)
        offset = max(offset, start)
        if not clause.strip() or clause.rstrip().endswith("?") or len(clause) > 2000:
            continue
        for edge in _clause_edges(_Clause(clause, ctx, text[:start], text)):
            records.append(ctx.record(RecordKind.EDGE, _slot(edge, ctx.subject), clause, edge=edge))
    return records
