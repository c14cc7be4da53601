"""What each edge rule reads from a match of its cue: the read functions `edge_rules` registers.

A cue rule's reader gets the clause (`edge_clause.Clause`: whose fact it is) and the cue's match, and
gives the edges the words around the cue state (`edge_words` reads the entity right of it); a
whole-clause form's reader also says whether the form took its span; a Q/A question's reader gets the
question's match and the answer. A reader gives an edge only with both ends and never a self-loop.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from writegate.normalizer.amounts import find_amounts
from writegate.normalizer.context import Context
from writegate.normalizer.edge_clause import Clause, left_mention
from writegate.normalizer.edge_words import (
    EXCL_NEG_RE,
    EXCLUSIVE_RE,
    THING_WORDS,
    THRESH_RE,
    Attrs,
    budget,
    known_place,
    person_targets,
    place,
    role,
    team,
    thing,
    thing_left,
)
from writegate.normalizer.entities import (
    FIRST_PERSON,
    THIRD_PERSON,
    USER_WORDS,
    name_mention,
    pronoun_antecedent,
    resolve_person,
    strip_possessive,
)
from writegate.normalizer.schema import Edge, EdgeType
from writegate.normalizer.scope import (
    CLAUSE_BREAKS,
    CLAUSE_ENDS,
    holds_since,
    irrealis,
    past_state,
    segment_after,
    segment_before,
    stay,
)


def _edges(etype: EdgeType, pairs: Iterable[tuple[str | None, str | None]], attrs: Attrs | None = None) -> list[Edge]:
    """An edge of `etype` per (source, target) pair that has both ends and is no self-loop."""
    return [
        Edge(source=source, type=etype, target=target, attributes=attrs or {})
        for source, target in pairs
        if source and target and source != target
    ]


def _sides(c: Clause, m: re.Match[str]) -> tuple[str, str]:
    return c.text[: m.start()], c.text[m.end() :]


def _possessive(m: re.Match[str]) -> str | None:
    return m.groupdict().get("poss")


# ---- is a role or place cue a current fact ------------------------------------------------------

_EVENT_CUE_RE = re.compile(
    r"promoted|named|appointed|made|hired|bec[oa]me|moved|relocated|took|taken|stepped|accepted|assumed", re.I
)
_PAST_AUX_RE = re.compile(r"\b(?:was|were|got|has\s+been|had\s+been|have\s+been)\s*$", re.I)


def not_current(left: str, cue: str, right: str) -> bool:
    """True when a role or place cue states a plan, a wish or a past state, not a current fact.

    `scope.irrealis` / `scope.past_state` read the cue's segment (the clause after its last comma,
    "and", "but", "since"…: `scope.CLAUSE_BREAKS`): "I'm moving to Florida", "when I am in Hong Kong",
    "I want to be a nurse", "I was an accountant", "I grew up in Ohio". A past *event* ("was promoted
    to", "moved to") is a current fact: its auxiliary is not a past marker.
    """
    seg_left = segment_before(left, CLAUSE_BREAKS)
    seg_right = segment_after(right, CLAUSE_ENDS)
    low = cue.lower().strip()
    if low.startswith(("was ", "were ", "moving", "relocating")) or low in {"was", "were"}:
        return True  # "I was an engineer"; a progressive move is a plan ("moving to Denver")
    if irrealis(seg_left + cue, seg_right):
        return True
    past_left = _PAST_AUX_RE.sub("", seg_left) if _EVENT_CUE_RE.search(cue) else seg_left
    return past_state(past_left, seg_right)


# ---- cue rules ---------------------------------------------------------------------------------


def read_manager(c: Clause, m: re.Match[str]) -> list[Edge]:
    """reports_to the people right of the cue ("reports to Lee", "my manager is Lee")."""
    left, right = _sides(c, m)
    targets = person_targets(right, c.ctx, c.before)
    sources = c.sources(left, _possessive(m)) if targets else []
    return _edges(EdgeType.REPORTS_TO, ((source, target) for source in sources for target in targets))


def read_reports(c: Clause, m: re.Match[str]) -> list[Edge]:
    """manages the people right of the cue ("my direct reports are Lee and Priya")."""
    left, right = _sides(c, m)
    targets = person_targets(right, c.ctx, c.before)
    sources = c.sources(left, _possessive(m)) if targets else []
    return _edges(EdgeType.MANAGES, ((source, target) for source in sources for target in targets))


_THING_PHRASE_RE = re.compile(
    r"\s*(?:the\s+)?\S+(?:\s+\S+){0,3}?\s+" + THING_WORDS + r"|\s*(?:the\s+)?" + THING_WORDS, re.I
)
_MANAGES_PEOPLE = frozenset({"manages", "managed", "oversees", "oversaw"})


def read_manages(c: Clause, m: re.Match[str]) -> list[Edge]:
    """manages a team ("runs the payments team"), owns a thing ("handles the Acme account"), or manages people."""
    left, right = _sides(c, m)
    team_id, thing_id = team(right), thing(right)
    if team_id:
        return _edges(EdgeType.MANAGES, ((source, team_id) for source in c.sources(left, None)))
    if thing_id and _THING_PHRASE_RE.match(right):
        return _edges(EdgeType.OWNED_BY, ((thing_id, source) for source in c.sources(left, None)))
    if m.group(0).lower() not in _MANAGES_PEOPLE:
        return []
    targets = person_targets(right, c.ctx, c.before)
    sources = c.sources(left, None) if targets else []
    return _edges(EdgeType.MANAGES, ((source, target) for source in sources for target in targets))


def read_team(c: Clause, m: re.Match[str]) -> list[Edge]:
    """member_of the team right of the cue ("joined the data team")."""
    left, right = _sides(c, m)
    team_id = team(right)
    sources = c.sources(left, None)
    return _edges(EdgeType.MEMBER_OF, ((source, team_id) for source in sources)) if team_id else []


def read_team_on(c: Clause, m: re.Match[str]) -> list[Edge]:
    """member_of the team after "on"/"in", whose source is the clause's first one ("Sam is now on the data team")."""
    left, right = _sides(c, m)
    team_id = team(right)
    sources = c.first_sources or c.sources(left, None)
    return _edges(EdgeType.MEMBER_OF, ((source, team_id) for source in sources)) if team_id else []


def read_role(c: Clause, m: re.Match[str]) -> list[Edge]:
    """has_role the role right of the cue ("works as a nurse", "my title is VP of Sales")."""
    left, right = _sides(c, m)
    role_id = role(right)
    sources = c.sources(left, _possessive(m)) if role_id else []
    return _edges(EdgeType.HAS_ROLE, ((source, role_id) for source in sources))


def read_role_held(c: Clause, m: re.Match[str]) -> list[Edge]:
    """has_role the role the cue names ("holds the CFO position", "stepped into the role of CTO")."""
    left, _ = _sides(c, m)
    role_id = role(m.group("role") or m.group("role2"))
    sources = c.sources(left, None) if role_id else []
    return _edges(EdgeType.HAS_ROLE, ((source, role_id) for source in sources))


_STRONG_PLACE_CUES = ("based", "located", "liv", "resid", "moved", "relocat")
_TEMPORARY_RE = re.compile(
    r"\b(?:while|during|visiting)\b[^|]*\|"
    r"|\|.*\b(?:this\s+(?:week|weekend|month|summer)|today|tonight|for\s+(?:a|the)\s+(?:week|weekend|few\s+days|trip"
    r"|holiday|vacation)|on\s+(?:vacation|holiday|a\s+trip|business))\b",
    re.I,
)
"""A visit, not a home: "while I am in France", "I'm in New York this week" (left segment | right of the cue)."""


def read_place(c: Clause, m: re.Match[str]) -> list[Edge]:
    """located_in the place right of the cue ("lives in Austin", "moved from Germany to Portland")."""
    left, right = _sides(c, m)
    if team(right):
        return []
    cue = m.group(0).lower()
    if cue.endswith(("from", "out of")) and any(k in cue for k in ("moved", "relocat", "moving")):
        to = re.search(r"\bto\s+", right)  # "moved from Germany (to Portland)": the origin is no longer home
        if not to:
            return []
        right = right[to.end() :]
    strong = any(k in cue for k in _STRONG_PLACE_CUES)
    if not strong and (
        _TEMPORARY_RE.search(segment_before(left, CLAUSE_BREAKS) + " | " + right[:60]) or stay(right[:60])
    ):
        return []  # "while I am in France", "I'm in New York this week", "in Dubai until Thursday": a visit
    if "lived" in cue and not holds_since(right):
        return []  # "I've lived in Oslo since 2019" holds now; "I've lived in Japan" need not
    place_id = place(right)
    if place_id and not known_place(right, place_id, strong):
        return []
    sources = c.sources(left, None) if place_id else []
    return _edges(EdgeType.LOCATED_IN, ((source, place_id) for source in sources))


def read_owns(c: Clause, m: re.Match[str]) -> list[Edge]:
    """owned_by: the thing right of "owns", "took over", "is the main contact for" is the left one's."""
    left, right = _sides(c, m)
    verb = m.group(0).lower()
    if verb == "owned":
        return []  # a past state ("I owned a bakery")
    # owning needs a named account / deal / project ("owns the Acme account"): "I own a Jeep", "I own
    # Nike shoes" are possessions, not an organisation's things
    thing_id = thing(right, explicit=verb in {"own", "owns"})
    sources = c.sources(left, None) if thing_id else []
    return _edges(EdgeType.OWNED_BY, ((thing_id, source) for source in sources))


def read_owned_by(c: Clause, m: re.Match[str]) -> list[Edge]:
    """owned_by: the thing left of "is owned by", "was handed over to" is the right one's."""
    left, right = _sides(c, m)
    thing_id = thing_left(left)
    return _edges(EdgeType.OWNED_BY, ((thing_id, target) for target in person_targets(right, c.ctx, c.before)))


def _approves(c: Clause, m: re.Match[str], limit: bool) -> list[Edge]:
    left, right = _sides(c, m)
    target, attrs = budget(right, limit)
    if EXCLUSIVE_RE.search(m.group(0)) or EXCLUSIVE_RE.search(left[-30:]):
        attrs = {**attrs, "exclusive": not EXCL_NEG_RE.search(c.text)}
    return _edges(EdgeType.APPROVES, ((source, target) for source in c.sources(left, _possessive(m))), attrs)


def read_approves(c: Clause, m: re.Match[str]) -> list[Edge]:
    """approves the budget right of the cue, with a cap ("can sign off on travel up to $2,500")."""
    return _approves(c, m, limit=False)


def read_approval_limit(c: Clause, m: re.Match[str]) -> list[Edge]:
    """approves with the cap a limit cue is at ("Lee's approval limit is $10k")."""
    return _approves(c, m, limit=True)


def read_delegates(c: Clause, m: re.Match[str]) -> list[Edge]:
    """delegates_to the people after "to", with the scope between ("delegated hiring to Lee")."""
    left, right = _sides(c, m)
    to = re.search(r"\bto\s+", right)
    if not to:
        return []
    targets = person_targets(right[to.end() :], c.ctx, c.before)
    scope_text = right[: to.start()].strip()
    passive = re.search(r"(?:\b(?:has|have|had)\s+been|\b(?:was|were|is|are|been|being|got))\s*$", left)
    if passive:  # "<scope> has been delegated to <person>": the subject delegated it
        scope_text = left[: passive.start()]
        sources = [c.ctx.subject]
    else:
        sources = c.sources(left, None)
    scope = re.sub(r"\s+", " ", re.sub(r"^(?:the|all|her|his|their|my)\s+", "", scope_text, flags=re.I)).strip(" ,.")
    scope = scope[:80]
    attrs: Attrs = {"scope": scope.lower()} if scope else {}
    pairs = ((source, target) for source in (sources if targets else []) for target in targets)
    return _edges(EdgeType.DELEGATES_TO, pairs, attrs)


# ---- whole-clause forms: (edges, whether the form takes its span) ------------------------------


def read_given(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """The thing handed to / owned by the people after it ("handed the Acme account to Lee")."""
    thing_id = thing(m.group("thing"))
    targets = person_targets(m.group("rest"), c.ctx, c.before)
    return _edges(EdgeType.OWNED_BY, ((thing_id, target) for target in targets)), bool(thing_id)


def read_inverse_manager(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """ "Lee is my manager": the possessor reports to the one left of the cue."""
    owner = c.person(re.sub(r"(?:'s|’s)$", "", m.group("owner")).replace("the ", ""))
    sources = c.sources(c.text[: m.start()], None)
    return _edges(EdgeType.REPORTS_TO, ((owner, source) for source in sources)), True


def read_approved_by(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """ "Travel over $5k must be approved by Lee", "needs only Sam's approval": the approver approves the left."""
    approvers = (
        [c.person(re.sub(r"(?:'s|’s)$", "", m.group("who")).replace("the ", ""))]
        if m.group("who")
        else person_targets(m.group("rest"), c.ctx, c.before)
    )
    target, attrs = budget(c.text[: m.start()], False)
    return _edges(EdgeType.APPROVES, ((approver, target) for approver in approvers if approver), attrs), True


def read_manager_of(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """ "Manager of Ana Ruiz: Lee": the named one reports to the value."""
    who = c.person(m.group("who"))
    targets = person_targets(m.group("rest"), c.ctx, c.before)
    return _edges(EdgeType.REPORTS_TO, ((who, target) for target in targets)), True


def read_cleft(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """ "Lee is who I report to": the one after "who" reports to the name left of it."""
    kind, bosses = left_mention(c.text[: m.start()])
    reporter = c.person(m.group("who"))
    pairs = ((reporter, c.person(boss)) for boss in (bosses if kind == "people" else []))
    return _edges(EdgeType.REPORTS_TO, pairs), True


def read_cap_for(c: Clause, m: re.Match[str]) -> tuple[list[Edge], bool]:
    """ "Approval cap (travel): $5,000 for Lee": Lee approves travel up to the amount."""
    amounts = find_amounts(m.group("amount"))
    if not amounts:
        return [], False
    target = budget(m.group("scope"), False)[0] if m.group("scope") else "budget:general"
    sources = person_targets(m.group("rest"), c.ctx, c.before)
    attrs: Attrs = {"max_amount": amounts[0].value, "currency": amounts[0].currency}
    return _edges(EdgeType.APPROVES, ((source, target) for source in sources), attrs), bool(sources)


# ---- Q/A questions: the answer completes the edge ----------------------------------------------


def _asked_about(m: re.Match[str], ctx: Context, before: str) -> str | None:
    """The entity a Q/A question is about ("the user", "my", "Lee's"); None for anything else."""
    if not m.groupdict().get("who"):
        return None
    bare = strip_possessive(m.group("who"))
    low = bare.lower()
    if low in FIRST_PERSON or low in THIRD_PERSON or low in USER_WORDS or name_mention(bare) == bare:
        return resolve_person(bare, ctx, pronoun_antecedent(before, ctx))
    return None


def _answered(etype: EdgeType, source: str | None, targets: list[str], attrs: Attrs | None = None) -> list[Edge]:
    return [
        Edge(source=source, type=etype, target=target, attributes=attrs or {})
        for target in targets
        if source and target != source
    ]


def answer_manager(m: re.Match[str], answer: str, ctx: Context, before: str) -> list[Edge]:
    """ "Q: who does Lee report to? A: Priya"."""
    source = _asked_about(m, ctx, before)
    return _answered(EdgeType.REPORTS_TO, source, person_targets(answer, ctx, before))


def answer_role(m: re.Match[str], answer: str, ctx: Context, before: str) -> list[Edge]:
    """ "Q: what is my role? A: analyst" (a role head noun only)."""
    source = _asked_about(m, ctx, before)
    role_id = role(answer)
    return _answered(EdgeType.HAS_ROLE, source, [role_id] if role_id else [])


def answer_limit(m: re.Match[str], answer: str, ctx: Context, before: str) -> list[Edge]:
    """ "Q: how much can Lee approve for travel? A: $5k" (a cap, never a threshold)."""
    source = _asked_about(m, ctx, before)
    amounts = find_amounts(answer)
    if not amounts or THRESH_RE.search(answer[: amounts[0].start]):
        return []
    target = budget(m.group("scope"), False)[0] if m.groupdict().get("scope") else "budget:general"
    attrs: Attrs = {"max_amount": amounts[0].value, "currency": amounts[0].currency}
    return _answered(EdgeType.APPROVES, source, [target], attrs)


def answer_owner(m: re.Match[str], answer: str, ctx: Context, before: str) -> list[Edge]:
    """ "Q: who owns the Acme account? A: Lee": the thing asked about is owned by the answer."""
    return _answered(EdgeType.OWNED_BY, thing(m.group("thing")), person_targets(answer, ctx, before))
