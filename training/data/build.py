"""The grammar: for each label, the template families ("groups") and one small function per family.

A family id is ``<slot>.<label>.<group>`` (``<slot>.twin`` for the pairs whose texts are reused
with two dates and two labels). `FAMILIES` maps ``(label, group)`` to the function that builds its
pair(s) from a `Frame` (one sampled fact and its existing text). Every generic wrapper (attribution,
change cues, "still" markers, corrections) is a phrasing list of ``phrases/generic.toml``, split
between train/dev/test by `core.part` like every other list.

Longer than 600 lines: the grammar reads as one table, each family's few lines beside its
`@family` registration; split, a reader would page between files to compare the families of one
label.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from writegate.training.data.augment import augment
from writegate.training.data.core import (
    Ctx,
    Domain,
    Subj,
    choose,
    common_starts,
    lower_first,
    named,
    relative,
    render,
    third,
    user,
)
from writegate.training.data.core import part as part_of
from writegate.training.data.phrasebook import PhraseLists
from writegate.training.data.pools import MONTHS, WEEKDAYS, Person, Pools

# ---------------------------------------------------------------- generic phrasings (phrases/generic.toml)
_LISTS = PhraseLists("generic")
ATTRIB_PRE, ATTRIB_POST, FILLER_POST = _LISTS["attrib_pre"], _LISTS["attrib_post"], _LISTS["filler_post"]
TEMPORAL_PRE, TEMPORAL_POST = _LISTS["temporal_pre"], _LISTS["temporal_post"]
STOP_PRE, STOP_POST, CONTRAST_POST = _LISTS["stop_pre"], _LISTS["stop_post"], _LISTS["contrast_post"]
MARKER_PRE, IMPLICIT_PRE, IMPLICIT_POST = _LISTS["marker_pre"], _LISTS["implicit_pre"], _LISTS["implicit_post"]
SUBTLE_PRE, SUBTLE_POST = _LISTS["subtle_pre"], _LISTS["subtle_post"]
DENY_PRE, CORRECT_PRE, CORRECT_POST = _LISTS["deny_pre"], _LISTS["correct_pre"], _LISTS["correct_post"]
CORRECT_MULTI_POST = _LISTS["correct_multi_post"]
LATERDENY_PRE, LATERDENY_POST = _LISTS["laterdeny_pre"], _LISTS["laterdeny_post"]
SPOKEN_PRE, SPOKEN_POST = _LISTS["spoken_correct_pre"], _LISTS["spoken_correct_post"]
ADD_PRE, ADD_MARK, ADD_POST = _LISTS["add_pre"], _LISTS["add_mark"], _LISTS["add_post"]
REASON_PRE, REASON_POST = _LISTS["reason_pre"], _LISTS["reason_post"]
STILL_PRE, STILL_POST = _LISTS["still_pre"], _LISTS["still_post"]
NOWSAME_PRE, NOWSAME_POST = _LISTS["nowsame_pre"], _LISTS["nowsame_post"]
NARRATIVE = _LISTS["narrative"]
_SHARED = _LISTS.table("shared")  # drawn in every split
RELATIONS: tuple[tuple[str, str | None], ...] = tuple(
    (rel, gender)
    for key, gender in (("relations_f", "f"), ("relations_m", "m"), ("relations_any", None))
    for rel in _SHARED[key]
)
TOPICS, NOTE_LEAD = _SHARED["topics"], _SHARED["note_lead"]
CONTRAST_SHARE = 0.25  # share of temporal/marker/implicit changes of a single value that end in a contrast_post cue

SAME, LATER, LONG, OLDER, NEUTRAL, SOON, WIDE = "same", "later", "long", "older", "neutral", "soon", "wide"
_SUBJECT_KEYS = frozenset({"S", "P", "O", "pr", "pp", "po"})
_KEY = re.compile(r"\{(\w+)\}")
_DISPUTE = re.compile(r"wrong|not right|That's|typo|whatever|Actually|belongs to someone", re.IGNORECASE)


@dataclass(frozen=True)
class Built:
    """One constructed pair before dating and decoration."""

    existing: str
    new: str
    when: str  # date policy
    label: str


def groups(d: Domain, label: str) -> tuple[str, ...]:
    """The family groups a domain supports for a label."""
    if label == "supersedes":
        if d.kind == "immutable":
            return ()
        if d.kind == "multi":
            return ("verb",) if (d.change or d.stop) else ()
        return ("verb", "temporal", "marker", "implicit", "nocue", "stop", "subtle")
    if label == "contradicts":
        if d.kind == "multi":
            return ("deny", "correct")
        return (
            ("source", "deny", "correct", "older", "laterdeny")
            + (("later", "restate") if d.kind == "immutable" else ())
            + (("spoken",) if d.person_subject and d.topic not in SPOKEN_EXCLUDED_TOPICS else ())
        )
    if label == "elaborates":
        g = ("detail",) + (("reason",) if d.kind != "immutable" else ()) + (("narrow",) if d.general else ())
        g += ("contrast",)  # one paraphrase (corroborates) vs the paraphrase + one extra detail (elaborates)
        g += ("swap",) if d.general else ()  # the same two texts both ways (specific ↔ general)
        g += ("sibling",) if d.person_subject and d.topic in SIBLING_TOPICS else ()
        g += ("chat",) if d.person_subject and d.elab else ()
        return g + (("also", "addplain", "addmarker") if d.kind == "multi" else ())
    if label == "corroborates":
        return (
            ("para", "still", "nowsame")
            + (("general",) if d.general else ())
            + (("negre",) if d.negre else ())
            + (("chat",) if d.person_subject else ())
        )
    if label == "unrelated":
        return ("othersubj", "othertopic", "narrative", "topicchange") + (("chat",) if d.person_subject else ())
    raise ValueError(f"unknown label {label!r}")


# topics whose person slots neither imply nor exclude each other's values: a note on one slot (even a
# change) elaborates a note on another ("prefers concise answers" → "now wants Slack, not email");
# not "place" (a move changes the timezone), "langs" (a native language is also a spoken one) nor
# "org" (a new role at another company moves the reporting line too)
SIBLING_TOPICS = frozenset({"comms", "calendar", "family", "food", "leisure", "bio"})


# plans and preferences: a same-day "actually, …" there is a change of mind (`supersedes`, as in SGD's
# bookings), not an error fixed, so `contradicts.spoken` leaves them out
SPOKEN_EXCLUDED_TOPICS = frozenset({"comms", "calendar"})


# how often a (label, group) is drawn relative to the label's other groups of the same slot
GROUP_WEIGHT: dict[tuple[str, str], int] = {
    ("supersedes", "stop"): 2,
    ("unrelated", "topicchange"): 2,
    ("contradicts", "spoken"): 2,
    ("elaborates", "also"): 2,  # a second value of a multi-valued slot, against its many conflict pairs
}


def twin_ok(d: Domain) -> bool:
    """Whether the domain has twin families (same texts, later ⇒ supersedes, same/older ⇒ contradicts)."""
    return d.kind == "single"


class Builder:
    """Builds pairs for one split from the phrasings assigned to that split."""

    def __init__(self, pools: Pools, split: str, domains: tuple[Domain, ...]) -> None:
        self.p = pools
        self.rng: random.Random = pools.rng
        self.split = split
        self.domains = domains
        self.used_slots: set[str] = set()
        self._cur: tuple[Person | None, Subj, Subj] | None = None
        lists = [
            getattr(d, f)
            for d in domains
            for f in ("state", "change", "stop", "neg", "elab", "general", "negre", "also")
        ]
        generic = [
            ATTRIB_PRE,
            TEMPORAL_PRE,
            MARKER_PRE,
            IMPLICIT_PRE,
            STILL_PRE,
            DENY_PRE,
            CORRECT_PRE,
            STOP_PRE,
            ADD_PRE,
            ADD_MARK,
        ]
        self.common = common_starts(lists + generic + [NARRATIVE])

    # ------------------------------------------------------------ helpers
    def t(self, items: tuple[str, ...]) -> str:
        """A random phrasing of `items` from this builder's split."""
        return choose(self.rng, items, self.split)

    def glob(self) -> dict[str, str]:
        """Fresh generic values: {month}, {q}, {yr}, {wd}, {N}, {city}, {season}, {topic}, {proj}, {co}."""
        r = self.rng
        return {
            "month": r.choice(MONTHS),
            "q": str(r.randint(1, 4)),
            "yr": str(r.randint(2019, 2026)),
            "wd": r.choice(WEEKDAYS),
            "N": self.p.person().first,
            "city": self.p.city(),
            "season": r.choice(("spring", "summer", "fall", "winter")),
            "topic": r.choice(TOPICS),
            "proj": self.p.codename(),
            "co": self.p.company(),
        }

    def subjects(self, c: Ctx) -> tuple[Subj, Subj]:
        """Same subject, referred to independently on each side."""
        assert c.person is not None
        r = self.rng.random()
        if r < 0.5:
            e = named(c.person, "first" if self.rng.random() < 0.8 else "full")
            n = named(c.person, self.rng.choice(("first", "first", "first", "pron", "full")))
        else:
            forms = ("the user", "User", "I", "the user", "User")
            e = user(c.person, self.rng.choice(forms))
            n = user(c.person, self.rng.choice(forms + ("pron",)))
        return e, n

    def other_subject(self, c: Ctx, se: Subj) -> Subj:
        """Another person in the same frame: a relative/colleague of the subject, or another named person."""
        if self.rng.random() < 0.65 or se.S in ("the user", "User", "I"):
            rel, g = self.rng.choice(RELATIONS)
            g = g or self.rng.choice("fm")
            owner = se if se.first or c.person is None or self.rng.random() < 0.5 else named(c.person, "pron")
            sub = relative(owner, rel, g)
            if (
                rel in ("colleague", "manager", "neighbor", "roommate", "teammate", "friend", "mentor")
                and self.rng.random() < 0.4
            ):
                other = self.p.person()
                sub = third(f"{owner.P} {rel} {other.first}", other.gender)
            return sub
        o = self.p.other_person(c.person) if c.person else self.p.person()
        return third(o.first, o.gender)

    def state(self, d: Domain, ctx: dict[str, str], s: Subj, avoid: str | None = None) -> tuple[str, str]:
        """A rendered state assertion and its template."""
        for _ in range(4):
            tpl = self.t(d.state)
            if tpl != avoid:
                break
        return render(tpl, ctx, s), tpl

    def same_info(self, d: Domain, ctx: dict[str, str], s: Subj, etpl: str) -> str:
        """A paraphrase that mentions nothing the existing template did not (corroborates adds no information)."""
        known = set(_KEY.findall(etpl)) | _SUBJECT_KEYS
        ok = [t for t in part_of(d.state, self.split) if t != etpl and set(_KEY.findall(t)) <= known]
        return render(self.rng.choice(ok) if ok else etpl, ctx, s)

    # ------------------------------------------------------------ constructions
    def build(self, d: Domain, label: str, group: str) -> list[Built]:
        """Build the pair(s) of one family; either side may get a second clause about another slot."""
        self.used_slots = {d.slot}
        self._cur = None
        fn = FAMILIES.get((label, group)) or FAMILIES.get(("*", group))
        if fn is None:
            raise ValueError(f"no construction for {d.slot}.{label}.{group}")
        out = fn(self.frame(d))
        if self._cur is None or self._cur[0] is None:
            return out
        person, se, sn = self._cur
        res = []
        ex: dict[str, str] = {}  # pairs of one family that share an existing text keep sharing it
        for b in out:
            e, n = b.existing, b.new
            if e in ex:
                e = ex[e]
            else:
                ex[e] = e = self.compound(e, person, se) if self.rng.random() < 0.12 else e
            if b.label in ("supersedes", "contradicts", "unrelated") and self.rng.random() < 0.1:
                n = self.compound(n, person, sn)
            if (
                b.label == "unrelated"
                and group != "narrative"
                and self.rng.random() < 0.15
                and ":" not in n[:30]
                and "?" not in n
            ):
                # "Update:" / "These days" on another person's or another topic's news is no change of e
                n = render(self.t(MARKER_PRE + IMPLICIT_PRE), self.glob(), sn) + " " + lower_first(n, self.common)
            res.append(Built(e, n, b.when, b.label))
        return res

    def compound(self, text: str, person: Person, s: Subj) -> str:
        """Append a clause about another slot of the same subject ("…; she also prefers Slack")."""
        if "?" in text:
            return text
        options = [x for x in self.domains if x.slot not in self.used_slots and x.person_subject]
        od = self.rng.choice(options)
        oc = od.sample(self.p)
        pron = (
            Subj(s.pr, s.pp, s.po, s.pr, s.pp, s.po, first=s.first)
            if s.S not in ("the user", "User") or self.rng.random() < 0.5
            else s
        )
        clause = render(self.t(od.state), {**self.glob(), **oc.a()}, pron)
        if not clause.lower().startswith((pron.S.lower() + " ", pron.P.lower() + " ")):
            return text  # only clauses that open with the subject read naturally
        joiner = self.rng.choice(("; ", ", and ", ". ", " — "))
        body = (
            clause
            if joiner == ". " or s.first and clause.startswith("I ")
            else lower_first(clause, self.common | {pron.S.lower()})
        )
        return text.rstrip(".") + joiner + body

    def speak_as(self, person: Person, subj: Subj) -> None:
        """Both sides of the family being built speak as `subj` ("I"): the clauses `compound` adds follow it."""
        self._cur = (person, subj, subj)

    def frame(self, d: Domain) -> Frame:
        """Sample one fact of `d`, the two sides' subjects and the existing text (sometimes itself a past change)."""
        rng = self.rng
        c = d.sample(self.p)
        g = self.glob()
        se, sn = self.subjects(c) if c.person else (user(self.p.person(), "User"),) * 2
        if d.person_subject:
            self._cur = (c.person, se, sn)
        elif c.person is not None:
            self._cur = (c.person, named(c.person, "first"), named(c.person, "pron"))
        A, B = {**g, **c.a()}, {**g, **c.b()}
        e, etpl = self.state(d, A, se)
        if d.change and d.kind == "single" and rng.random() < 0.15:
            pc = d.sample(self.p)
            prev = pc.b()
            if prev["old"] != A["v"] and (d.free_values or pc.base == c.base):
                ectx = {**A, **{k: v for k, v in prev.items() if k.startswith("old")}}
                ectx["old"] = prev["v"] if prev["v"] != A["v"] else prev["old"]
                e = render(self.t(d.change), ectx, se)
        return Frame(self, d, c, g, se, sn, A, B, e, etpl)

    # ------------------------------------------------------------ dates and decoration
    def mixed(self) -> str:
        """Date policy for non-conflicts that must not read gap + rewording as a change: half wide gaps."""
        return WIDE if self.rng.random() < 0.45 else NEUTRAL

    def dates(self, when: str, max_gap_days: int | None = None) -> tuple[dt.date, dt.date]:
        """The existing and new observation dates for a date policy."""
        r = self.rng
        if when == WIDE:  # non-conflicts with mostly long gaps
            x = r.random()
            when = SAME if x < 0.2 else (OLDER if x < 0.3 else LONG)
        if when == NEUTRAL:
            x = r.random()
            when = SAME if x < 0.3 else (OLDER if x < 0.42 else LATER)
        if when == SAME:
            gap = 0
        elif when == OLDER:
            gap = -r.randint(1, 700)
        elif when == SOON:
            x = r.random()
            gap = 0 if x < 0.4 else (r.randint(1, 60) if x < 0.75 else r.randint(61, 900))
        elif when == LONG:
            gap = r.randint(14, 180) if r.random() < 0.5 else r.randint(181, 900)
        else:
            x = r.random()
            gap = r.randint(1, 30) if x < 0.35 else (r.randint(31, 365) if x < 0.7 else r.randint(366, 1400))
        if max_gap_days is not None and abs(gap) > max_gap_days:
            gap = r.randint(1, max_gap_days) * (1 if gap > 0 else -1)
        lo, hi = dt.date(2018, 6, 1), dt.date(2026, 11, 30)
        span = (hi - lo).days - abs(gap)
        te = lo + dt.timedelta(days=r.randint(0, span) + max(0, -gap))
        return te, te + dt.timedelta(days=gap)

    def decorate(self, text: str, p_attr: float) -> str:
        """Label-independent surface: attribution, filler, augmentation, contractions, case and note shapes."""
        r = self.rng
        if r.random() < p_attr:
            ctx = self.glob()
            nobody = user(self.p.person(), "User")
            lead = " ".join(text.split()[:5])
            if r.random() < 0.5 and not any(ch in lead for ch in ":—?"):
                pfx = render(self.t(ATTRIB_PRE), ctx, nobody)
                text = f"{pfx} {lower_first(text, self.common)}"
            else:
                sfx = render("x" + self.t(ATTRIB_POST), ctx, nobody)[1:]
                end = "." if text.endswith(".") else ""
                text = text.rstrip(".") + sfx + end
        if r.random() < 0.12 and "?" not in text:
            sfx = render("x" + self.t(FILLER_POST), self.glob(), user(self.p.person(), "User"))[1:]
            text = text.rstrip(".") + sfx + "."
        text = augment(text, r, self.split, self.common, {"topic": r.choice(TOPICS), "N": self.p.person().first})
        if r.random() < 0.3:
            text = contract(text)
        x = r.random()
        if x < 0.08:
            text = text.lower()
        elif x < 0.3:
            text = text.rstrip(".")
        if r.random() < 0.04:
            text = r.choice(NOTE_LEAD) + text
        return _tidy(text)


@dataclass
class Frame:
    """One sampled fact and the existing text that a family's constructions start from."""

    b: Builder
    d: Domain
    c: Ctx
    g: dict[str, str]  # generic values shared by both sides
    se: Subj  # the subject as the existing text names it
    sn: Subj  # the subject as the new text names it
    A: dict[str, str]  # context of the existing value
    B: dict[str, str]  # context of an incompatible value ({old} = the existing one)
    e: str  # the existing text
    etpl: str  # its template

    @property
    def rng(self) -> random.Random:
        """The builder's random source."""
        return self.b.rng

    def t(self, items: tuple[str, ...]) -> str:
        """A random phrasing of `items` from the builder's split."""
        return self.b.t(items)

    def new(self, items: tuple[str, ...], ctx: dict[str, str]) -> str:
        """A phrasing of `items` rendered for the new side."""
        return render(self.t(items), ctx, self.sn)

    def new_state(self, ctx: dict[str, str], same_tpl_p: float = 0.0) -> str:
        """A state assertion on the new side: the existing template with probability `same_tpl_p`, else another."""
        if self.rng.random() < same_tpl_p:
            return render(self.etpl, ctx, self.sn)
        return self.b.state(self.d, ctx, self.sn, avoid=self.etpl)[0]

    def pre(self, prefixes: tuple[str, ...], text: str, ctx: dict[str, str]) -> str:
        """`text` behind a phrasing of `prefixes`."""
        return f"{self.new(prefixes, ctx)} {lower_first(text, self.b.common)}"

    def post(self, suffixes: tuple[str, ...], text: str, ctx: dict[str, str]) -> str:
        """`text` followed by a phrasing of `suffixes` (a question–answer shape takes none)."""
        if "?" in text:
            return text
        sfx = render("x" + self.t(suffixes), ctx, self.sn)[1:]
        return text.rstrip(".") + sfx + ("" if sfx.endswith((".", "!", "?")) else ".")

    def cue(
        self,
        prefixes: tuple[str, ...],
        suffixes: tuple[str, ...],
        text: str,
        ctx: dict[str, str],
        p_pre: float,
        questions_pre: bool = False,
    ) -> str:
        """`text` with a phrasing of `prefixes` before it or of `suffixes` after it.

        Args:
            prefixes: cues that go before the text.
            suffixes: cues that go after it.
            text: the rendered new-side text.
            ctx: the values the cue may name.
            p_pre: probability of a cue before the text.
            questions_pre: a question–answer shape always takes its cue before (`post` adds none to it).

        Returns:
            The cued text.
        """
        if self.rng.random() < p_pre or (questions_pre and "?" in text):
            return self.pre(prefixes, text, ctx)
        return self.post(suffixes, text, ctx)

    def contrast(self, text: str) -> str:
        """ ", not {old}" on some changes of a single value."""
        if self.d.kind != "multi" and self.rng.random() < CONTRAST_SHARE:
            return self.post(CONTRAST_POST, text, self.B)
        return text

    def general_templates(self) -> list[str]:
        """The domain's `general` phrasings of this split that name only what the existing text did."""
        known = set(_KEY.findall(self.etpl)) | set(self.c.A) | _SUBJECT_KEYS
        return [t for t in part_of(self.d.general, self.b.split) if set(_KEY.findall(t)) <= known]

    def one(self, new: str, when: str, label: str) -> list[Built]:
        """The single pair (existing text, `new`)."""
        return [Built(self.e, new, when, label)]


Family = Callable[[Frame], list[Built]]
FAMILIES: dict[tuple[str, str], Family] = {}


def family(label: str, group: str) -> Callable[[Family], Family]:
    """Register the function that builds the pairs of ``(label, group)`` ("*": any label)."""

    def register(fn: Family) -> Family:
        FAMILIES[(label, group)] = fn
        return fn

    return register


# ---------------------------------------------------------------- supersedes (always observed later)
@family("supersedes", "verb")
def _supersedes_verb(f: Frame) -> list[Built]:
    """A domain change verb ("handed off", "switched to"); multi slots: a change or stop of one value."""
    if f.d.kind == "multi":
        return f.one(f.new(f.d.change + f.d.stop, {**f.A, "old": f.A["v"]}), LATER, "supersedes")
    return f.one(f.new(f.d.change, f.B), LATER, "supersedes")


@family("supersedes", "stop")
def _supersedes_stop(f: Frame) -> list[Built]:
    """The old value ended: a domain stop phrasing, or a generic stop cue before or after the new state."""
    if f.d.stop and f.rng.random() < 0.5:
        return f.one(f.new(f.d.stop, f.B), LATER, "supersedes")
    s = f.new_state(f.B, 0.3)
    return f.one(f.cue(STOP_PRE, STOP_POST, s, f.B, 0.6, questions_pre=True), LATER, "supersedes")


# change cues before or after the new state: (prefixes, suffixes, P(before), P(the existing template))
CHANGE_CUES: dict[str, tuple[tuple[str, ...], tuple[str, ...], float, float]] = {
    "temporal": (TEMPORAL_PRE, TEMPORAL_POST, 0.75, 0.3),  # a date cue ("As of June", "In Q1")
    "marker": (MARKER_PRE, (), 1.0, 0.4),  # an update marker ("Update:", "Heads up:"), always before
    "implicit": (IMPLICIT_PRE, IMPLICIT_POST, 0.45, 0.3),  # a present-time word ("these days", "now")
}


def _supersedes_cued(group: str) -> Family:
    """The `CHANGE_CUES` family `group`: a change cue around the new state, sometimes then ", not {old}"."""
    prefixes, suffixes, p_pre, same_tpl_p = CHANGE_CUES[group]

    def build(f: Frame) -> list[Built]:
        n = f.cue(prefixes, suffixes, f.new_state(f.B, same_tpl_p), f.B, p_pre)
        return f.one(f.contrast(n), LATER, "supersedes")

    return build


for _group in CHANGE_CUES:
    family("supersedes", _group)(_supersedes_cued(_group))


@family("supersedes", "nocue")
def _supersedes_nocue(f: Frame) -> list[Built]:
    """A plain present-state assertion of the new value, observed much later."""
    return f.one(f.new_state(f.B, 0.4), LONG, "supersedes")


@family("supersedes", "subtle")
def _supersedes_subtle(f: Frame) -> list[Built]:
    """A weak change cue ("Since her promotion, …", "… (new)")."""
    n = f.cue(SUBTLE_PRE, SUBTLE_POST, f.new_state(f.B, 0.2), f.B, 0.45, questions_pre=True)
    return f.one(n, LATER if f.rng.random() < 0.5 else LONG, "supersedes")


# ---------------------------------------------------------------- contradicts
@family("contradicts", "source")
def _contradicts_source(f: Frame) -> list[Built]:
    """Another source asserts another value on the same date (half the time with the very same template)."""
    return f.one(f.new_state(f.B, 0.5), SAME, "contradicts")


@family("contradicts", "deny")
def _contradicts_deny(f: Frame) -> list[Built]:
    """A denial of the existing value: a domain `neg` phrasing, or a generic denial before another value."""
    if f.d.neg and f.rng.random() < 0.6:
        return f.one(f.new(f.d.neg, f.B), SOON, "contradicts")
    return f.one(f.pre(DENY_PRE, f.new_state(f.B, 0.3), f.B), SOON, "contradicts")


@family("contradicts", "correct")
def _contradicts_correct(f: Frame) -> list[Built]:
    """A correction ("Correction:", "… — always has been"); a multi-valued one names the old value."""
    n = f.cue(CORRECT_PRE, CORRECT_POST, f.new_state(f.B, 0.3), f.B, 0.6)
    if f.d.kind == "multi" and "{old}" not in n:
        n = f.post(CORRECT_MULTI_POST, n, f.B)
    return f.one(n, SOON, "contradicts")


def _first_person(f: Frame) -> Subj:
    """The user as "I" on both sides; the clauses `Builder.compound` may add follow it."""
    person = f.c.person
    assert person is not None  # drawn for person-subject slots only (`groups`)
    me = user(person, "I")
    f.b.speak_as(person, me)
    return me


@family("contradicts", "spoken")
def _contradicts_spoken(f: Frame) -> list[Built]:
    """The user fixes, minutes later and in their own words, a fact just stated ("Actually, my daughter's
    name is Ellie, not Ella"): an error corrected, not a change (labels.md)."""
    me = _first_person(f)
    e = render(f.etpl, f.A, me)
    n = f.b.state(f.d, f.B, me, avoid=f.etpl)[0] if f.rng.random() < 0.6 else render(f.etpl, f.B, me)
    x = f.rng.random()
    if x < 0.75:
        n = f.pre(SPOKEN_PRE, n, f.B)  # the cues name no subject
    if x >= 0.45:
        n = f.post(SPOKEN_POST, n, f.B)
    return [Built(e, n, SAME, "contradicts")]


@family("contradicts", "older")
def _contradicts_older(f: Frame) -> list[Built]:
    """Another value observed before the existing one (sometimes even with change words)."""
    s = f.new_state(f.B, 0.4)
    if f.d.change and f.rng.random() < 0.15:
        s = f.new(f.d.change, f.B)
    return f.one(s, OLDER, "contradicts")


@family("contradicts", "laterdeny")
def _contradicts_laterdeny(f: Frame) -> list[Built]:
    """Much later, but the new record denies or corrects: it reports no change."""
    return f.one(
        f.cue(LATERDENY_PRE, LATERDENY_POST, f.new_state(f.B, 0.3), f.B, 0.55, questions_pre=True), LONG, "contradicts"
    )


@family("contradicts", "later")
def _contradicts_later(f: Frame) -> list[Built]:
    """Immutable slot: a later record with another value is still a conflict."""
    return f.one(f.new_state(f.B, 0.4), LONG if f.rng.random() < 0.7 else LATER, "contradicts")


@family("contradicts", "restate")
def _contradicts_restate(f: Frame) -> list[Built]:
    """Immutable slot: a plain restatement of another value, no denial words, much later."""
    return f.one(f.new_state(f.B, 0.6), LONG, "contradicts")


@family("*", "twin")
def _twin(f: Frame) -> list[Built]:
    """The same two texts twice: later ⇒ supersedes, same date or older ⇒ contradicts."""
    n = f.new_state(f.B, 0.5)
    return [Built(f.e, n, LONG, "supersedes"), Built(f.e, n, SAME if f.rng.random() < 0.6 else OLDER, "contradicts")]


# ---------------------------------------------------------------- elaborates
@family("elaborates", "detail")
def _elaborates_detail(f: Frame) -> list[Built]:
    """The value plus a reason, qualifier or extra fact (a domain `elab` phrasing)."""
    n = f.new(f.d.elab, f.A)
    if f.rng.random() < 0.2:
        n = f.pre(ADD_PRE, n, f.A)
    return f.one(n, f.b.mixed(), "elaborates")


@family("elaborates", "reason")
def _elaborates_reason(f: Frame) -> list[Built]:
    """The same value, reworded, plus a reason, condition or extra detail; often much later."""
    s = f.new_state(f.A, 0.15) if f.rng.random() < 0.7 else f.new(f.d.elab, f.A)
    if "?" in s:  # a question–answer shape takes no trailing detail: the domain's own elaboration
        s = f.new(f.d.elab, f.A)
    n = f.post(REASON_POST, s, f.A)  # a real detail every time (a framing prefix alone adds nothing)
    if f.rng.random() < 0.2:
        n = f.pre(REASON_PRE, n, f.A)
    if f.rng.random() < 0.3:
        n = f.pre(NOWSAME_PRE, n, f.A) if not n[:12].count(":") else n
    return f.one(n, WIDE, "elaborates")


@family("elaborates", "narrow")
def _elaborates_narrow(f: Frame) -> list[Built]:
    """A general existing text ("prefers mornings"), a specific new one ("9–10am on Tuesdays")."""
    eg = render(f.t(f.d.general), f.A, f.se)
    n = f.new(f.d.elab, f.A) if f.rng.random() < 0.3 else f.b.state(f.d, f.A, f.sn)[0]
    return [Built(eg, n, NEUTRAL, "elaborates")]


@family("elaborates", "swap")
def _elaborates_swap(f: Frame) -> list[Built]:
    """The very same two texts both ways: specific → general corroborates, general → specific elaborates."""
    ok = f.general_templates()
    if not ok:
        return []
    gtpl = f.rng.choice(ok)
    return [
        Built(render(f.etpl, f.A, f.se), render(gtpl, f.A, f.sn), NEUTRAL, "corroborates"),
        Built(render(gtpl, f.A, f.se), render(f.etpl, f.A, f.sn), NEUTRAL, "elaborates"),
    ]


@family("elaborates", "contrast")
def _elaborates_contrast(f: Frame) -> list[Built]:
    """Same existing text and dates: a paraphrase ⇒ corroborates, the paraphrase + one detail ⇒ elaborates."""
    p = f.b.same_info(f.d, f.A, f.sn, f.etpl)
    more = f.new(f.d.elab, f.A) if "?" in p or f.rng.random() < 0.35 else f.post(REASON_POST, p, f.A)
    when = f.b.mixed()
    return [Built(f.e, p, when, "corroborates"), Built(f.e, more, when, "elaborates")]


def _added(f: Frame) -> dict[str, str]:
    """Context of a compatible second value of a multi-valued slot ({old} = the existing one)."""
    return {**f.g, **f.c.c()}


@family("elaborates", "also")
def _elaborates_also(f: Frame) -> list[Built]:
    """A second value of a multi-valued slot with the domain's "also" phrasing."""
    return f.one(f.new(f.d.also, _added(f)), NEUTRAL, "elaborates")


@family("elaborates", "addplain")
def _elaborates_addplain(f: Frame) -> list[Built]:
    """A plain second value with no cue ("speaks German" after "speaks French")."""
    return f.one(f.new_state(_added(f), 0.5), NEUTRAL, "elaborates")


@family("elaborates", "addmarker")
def _elaborates_addmarker(f: Frame) -> list[Built]:
    """A second value behind an update marker ("Update: she also …") or with a trailing "too"."""
    C = _added(f)
    s = f.new_state(C, 0.3)
    n = f.pre(ADD_MARK + ADD_PRE, s, C) if f.rng.random() < 0.6 else f.post(ADD_POST, s, C)
    return f.one(n, NEUTRAL, "elaborates")


# ---------------------------------------------------------------- corroborates
@family("corroborates", "para")
def _corroborates_para(f: Frame) -> list[Built]:
    """Another phrasing of the same value that adds nothing, any date gap."""
    return f.one(f.b.same_info(f.d, f.A, f.sn, f.etpl), f.b.mixed(), "corroborates")


@family("corroborates", "still")
def _corroborates_still(f: Frame) -> list[Built]:
    """The same value behind a confirmation ("Still true:", "… — unchanged")."""
    return f.one(f.cue(STILL_PRE, STILL_POST, f.b.same_info(f.d, f.A, f.sn, f.etpl), f.A, 0.5), NEUTRAL, "corroborates")


@family("corroborates", "nowsame")
def _corroborates_nowsame(f: Frame) -> list[Built]:
    """Change-like words around the unchanged value, another wording, mostly long gaps."""
    n = f.cue(NOWSAME_PRE, NOWSAME_POST, f.b.same_info(f.d, f.A, f.sn, f.etpl), f.A, 0.5, questions_pre=True)
    return f.one(n, WIDE if f.rng.random() < 0.5 else LONG, "corroborates")


@family("corroborates", "general")
def _corroborates_general(f: Frame) -> list[Built]:
    """A less specific restatement that only uses what the existing text said."""
    ok = f.general_templates()
    n = render(f.rng.choice(ok), f.A, f.sn) if ok else f.new_state(f.A)
    return f.one(n, NEUTRAL, "corroborates")


@family("corroborates", "negre")
def _corroborates_negre(f: Frame) -> list[Built]:
    """A negated or imperative restatement ("No deploys from the 15th", "Don't email her")."""
    return f.one(f.new(f.d.negre, f.A), NEUTRAL, "corroborates")


@family("elaborates", "sibling")
def _elaborates_sibling(f: Frame) -> list[Built]:
    """The same subject, another slot of the same topic: its state, or its change, mostly long gaps."""
    od, oc = _other_slot(f, same_topic=True)
    octx = {**f.b.glob(), **oc.b()}
    x = f.rng.random()
    if (od.change or od.stop) and od.kind != "multi" and x < 0.4:
        n = render(f.t(od.change + od.stop), octx, f.sn)
    elif x < 0.7 and od.kind != "immutable":  # "As of June, …" on a fact that cannot change reads wrong
        st = f.b.state(od, octx, f.sn)[0]
        n = f.pre(TEMPORAL_PRE + MARKER_PRE + IMPLICIT_PRE, st, octx) if "?" not in st else st
    else:
        n = f.b.state(od, octx, f.sn)[0]
    return f.one(n, LONG if f.rng.random() < 0.6 else f.b.mixed(), "elaborates")


# ---------------------------------------------------------------- unrelated (hard negatives)
@family("unrelated", "othersubj")
def _unrelated_othersubj(f: Frame) -> list[Built]:
    """Another person (or another account/project) in the same frame, same slot and words."""
    return _othersubj_person(f) if f.d.person_subject else _othersubj_entity(f)


def _othersubj_person(f: Frame) -> list[Built]:
    d, A, B = f.d, f.A, f.B
    so = f.b.other_subject(f.c, f.se)
    ctx = B if f.rng.random() < 0.5 else A
    x = f.rng.random()
    if (d.change or d.stop) and x < 0.35:
        n = render(f.t(d.change + d.stop), B if d.kind != "multi" else {**A, "old": A["v"]}, so)
    elif x < 0.5 and (plain := tuple(t for t in d.neg if not _DISPUTE.search(t))):
        n = render(f.rng.choice(plain), {**B, "old": A["v"]}, so)
    else:
        n = f.b.state(d, ctx, so, avoid=f.etpl)[0] if f.rng.random() < 0.5 else render(f.etpl, ctx, so)
    return f.one(n, f.b.mixed(), "unrelated")


def _othersubj_entity(f: Frame) -> list[Built]:
    ob = f.c.other_base or {**f.c.base}
    octx = {**f.B, **ob} if f.rng.random() < 0.5 else {**f.A, **ob}
    if f.d.change and f.rng.random() < 0.35:
        n = render(f.t(f.d.change), {**f.B, **ob, "old": f.b.p.person().first}, f.sn)
    else:
        n = render(f.etpl, octx, f.sn) if f.rng.random() < 0.5 else f.b.state(f.d, octx, f.sn)[0]
    return [] if n == f.e else f.one(n, f.b.mixed(), "unrelated")


def _other_slot(f: Frame, changeable: bool = False, same_topic: bool = False) -> tuple[Domain, Ctx]:
    """Another person slot of the same subject, of another coarse topic (or of the same one, if asked;
    changeable only, if asked), and its fact."""
    od = f.rng.choice(
        [
            x
            for x in f.b.domains
            if x.slot != f.d.slot
            and (x.topic == f.d.topic) == same_topic
            and x.person_subject
            and (not changeable or x.kind != "immutable")
        ]
    )
    f.b.used_slots.add(od.slot)
    oc = od.sample(f.b.p)
    oc.person = f.c.person
    return od, oc


@family("unrelated", "othertopic")
def _unrelated_othertopic(f: Frame) -> list[Built]:
    """The same subject, another slot of another topic (its change, denial or state)."""
    od, oc = _other_slot(f)
    octx = {**f.b.glob(), **oc.a()}
    x = f.rng.random()
    if (od.change or od.stop) and od.kind != "multi" and x < 0.3:
        n = render(f.t(od.change + od.stop), {**f.b.glob(), **oc.b()}, f.sn)
    elif od.neg and x < 0.45:
        n = render(f.t(od.neg), {**f.b.glob(), **oc.b()}, f.sn)
    else:
        n = f.b.state(od, octx, f.sn)[0]
    if not f.d.person_subject and f.c.person is not None:
        n = f.b.state(od, octx, named(f.c.person, "first"))[0]
    return f.one(n, f.b.mixed(), "unrelated")


def _chat_day(f: Frame) -> str:
    """Two things said in one chat: mostly the same day."""
    return SAME if f.rng.random() < 0.7 else f.b.mixed()


@family("unrelated", "chat")
def _unrelated_chat(f: Frame) -> list[Built]:
    """Two things the user says about themself in one chat, on different topics, both in the first
    person and mostly on the same day ("I like soups." → "I'm teaching myself the guitar.")."""
    me = _first_person(f)
    od, oc = _other_slot(f)
    n = f.b.state(od, {**f.b.glob(), **oc.a()}, me)[0]
    return [Built(render(f.etpl, f.A, me), n, _chat_day(f), "unrelated")]


@family("corroborates", "chat")
def _corroborates_chat(f: Frame) -> list[Built]:
    """The user says the same thing again in one chat, in other words (first person, mostly the same
    day): a restatement is not a correction."""
    me = _first_person(f)
    n = f.b.same_info(f.d, f.A, me, f.etpl)
    return [Built(render(f.etpl, f.A, me), n, _chat_day(f), "corroborates")]


@family("elaborates", "chat")
def _elaborates_chat(f: Frame) -> list[Built]:
    """The user says it again in one chat with a detail added (a domain `elab` phrasing; first
    person, mostly the same day); on a multi-valued slot, half the time a second value instead
    ("I have a dog named Biscuit." → "I also have a cat."): one more value, not a correction."""
    me = _first_person(f)
    if f.d.kind == "multi" and f.rng.random() < 0.5:
        e = render(f.t(f.d.elab) if f.rng.random() < 0.5 else f.etpl, f.A, me)
        C = _added(f)
        n = render(f.t(f.d.also), C, me) if f.rng.random() < 0.6 else f.b.state(f.d, C, me, avoid=f.etpl)[0]
        return [Built(e, n, _chat_day(f), "elaborates")]
    return [Built(render(f.etpl, f.A, me), render(f.t(f.d.elab), f.A, me), _chat_day(f), "elaborates")]


@family("unrelated", "topicchange")
def _unrelated_topicchange(f: Frame) -> list[Built]:
    """The same subject, a change cue about another (changeable) topic's slot, mostly long gaps."""
    od, oc = _other_slot(f, changeable=True)
    s = (
        f.sn
        if f.d.person_subject or f.c.person is None
        else named(f.c.person, f.rng.choice(("first", "first", "full")))
    )
    octx = {**f.b.glob(), **oc.b()}
    x = f.rng.random()
    if (od.change or od.stop) and od.kind != "multi" and x < 0.4:
        n = render(f.t(od.change + od.stop), octx, s)
    elif x < 0.55 and od.kind != "multi":  # a generic stop cue about the other slot's old value
        n = f.cue(STOP_PRE, STOP_POST, f.b.state(od, octx, s)[0], octx, 0.6, questions_pre=True)
    elif x < 0.75:
        st = f.b.state(od, octx, s)[0]
        n = f.pre(TEMPORAL_PRE + MARKER_PRE + IMPLICIT_PRE, st, octx) if "?" not in st else st
    else:
        n = f.post(IMPLICIT_POST, f.b.state(od, octx, s)[0], octx)
    # drawn twice as often (GROUP_WEIGHT): 40% take the mixed dates to keep unrelated's date mix
    return f.one(n, LONG if f.rng.random() < 0.6 else f.b.mixed(), "unrelated")


@family("unrelated", "narrative")
def _unrelated_narrative(f: Frame) -> list[Built]:
    """An episodic memory about the same person ("Priya was out sick on Tuesday")."""
    s = f.sn if f.d.person_subject or f.c.person is None else named(f.c.person, "first")
    return f.one(render(f.t(NARRATIVE), {**f.g, **f.c.extra}, s), NEUTRAL, "unrelated")


_CONTRACT = (
    (re.compile(r"\b([Ss]he|[Hh]e|[Ii]t|[Tt]hat|[Tt]here|[Ww]ho|[Ww]hat) is\b"), r"\1's"),
    (re.compile(r"\bI am\b"), "I'm"),
    (
        re.compile(r"\b([Ss]he|[Hh]e|I|[Ww]e) (has|have) (been|got|never|moved|switched|started)\b"),
        lambda m: f"{m.group(1)}'{'s' if m.group(2) == 'has' else 've'} {m.group(3)}",
    ),
    (re.compile(r"\bis not\b"), "isn't"),
    (re.compile(r"\bdoes not\b"), "doesn't"),
    (re.compile(r"\bdo not\b"), "don't"),
)


def contract(text: str) -> str:
    """Informal contractions ("she is" → "she's", "I am" → "I'm")."""
    for rx, rep in _CONTRACT:
        text = rx.sub(rep, text)
    return text


_DOTS = re.compile(r"\.{2,}(?=\s|$)|\.(?=[,;])")


def _tidy(text: str) -> str:
    """Collapse doubled punctuation left by joining clauses ("s.r.l..", "way..")."""
    return _DOTS.sub(".", text).replace(".,", ",").replace(".;", ";")
