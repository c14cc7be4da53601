"""Organisational relationships → `edge` records.

The family is split by concern: `edge_rules` registers every rule (one entry per cue: its keys,
gate and reader), `edge_read` holds what each rule reads, `edge_clause` whose fact it is (the left
mention), `edge_words` what the text right of a cue names, and this module runs them.

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
subject's, and unnamed, so nothing; "My mistake earlier, she signs off on hiring" is the subject's).
Negated or past cues ("no longer", "never", "used to", "doesn't": `scope.EDGE_NEGATION`), questions
and clauses over 2,000 characters give nothing.

Whose fact and is it current (has_role, located_in): `scope.irrealis` and `scope.past_state` on the
cue's segment drop plans, wishes and past states ("I want to be a nurse", "I'm moving to Florida",
"when I am in Hong Kong", "I was an engineer", "I grew up in Ohio"); a past event stays current ("was
promoted to", "moved to"). "moved from X" gives X only as an origin: the place after "to", if any.

Roles: the role phrase runs to the first function word ("mechanical engineer so I …") and must end
in a role head noun (`edge_words._ROLE_HEADS`: office titles and everyday jobs, e.g. bartender, cashier,
electrician, student) or be "<head> of <name>"; a judgement, hobby, past or future word
(`edge_words._JUDGEMENT`: "decent writer", "big fan", "retired accountant", "aspiring nurse") gives nothing.
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
(travel): $5k for Lee". A "Q: <question>? A: <answer>" pair whose question is in `edge_rules.QUESTIONS`
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

from writegate.normalizer.context import Context
from writegate.normalizer.edge_clause import Clause
from writegate.normalizer.edge_read import not_current
from writegate.normalizer.edge_rules import PREFILTER, QUESTIONS, REGISTRY, EdgeForm, EdgeRule
from writegate.normalizer.edge_words import EXCL_NEG_RE
from writegate.normalizer.gates import finditer_folded
from writegate.normalizer.schema import SINGLE_VALUED_EDGES, Edge, EdgeType, Record, RecordKind
from writegate.normalizer.scope import EDGE_NEGATION, negated

_CLAUSE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+|\n+")
_QA_RE = re.compile(
    r"(?<!\w)(?:q|question)\s*:\s*(?P<q>[^?\n]{1,200}\?)\s*(?:a|answer)\s*:\s*(?P<a>(?:[^\n.;!?]|\.(?=\d))+)", re.I
)
"""A question/answer note pair ("Q: who is my manager? A: Lee")."""
_QA_NONE = frozenset(
    {"none", "unknown", "n/a", "na", "tbd", "tbc", "nobody", "no", "nothing", "idk", "unsure", "unclear", "?"}
)
_CURRENT_FACTS = frozenset({EdgeType.HAS_ROLE, EdgeType.LOCATED_IN})
"""Edge types a plan, a wish or a past state does not give (`edge_read.not_current`)."""


def _slot(edge: Edge, subject: str) -> str:
    if edge.type in SINGLE_VALUED_EDGES:
        return f"edge.{edge.type.value}" if edge.source == subject else f"edge.{edge.type.value}.{edge.source}"
    return (
        f"edge.{edge.type.value}.{edge.target}"
        if edge.source == subject
        else f"edge.{edge.type.value}.{edge.source}.{edge.target}"
    )


def _form_edges(c: Clause, low: str, forms: list[EdgeForm]) -> tuple[list[Edge], list[tuple[int, int]]]:
    """The edges of the whole-clause `forms` (`edge_rules.FORMS` with a key in the clause) and the spans they took."""
    edges: list[Edge] = []
    taken: list[tuple[int, int]] = []
    for form in forms:
        if not form.admits(low, c.text.isascii()):
            continue
        m = form.cue.search(c.text)
        if m is None or (form.negatable and negated(c.text[: m.start()], EDGE_NEGATION)):
            continue
        found, take = form.read(c, m)
        edges.extend(found)
        if take:
            taken.append(m.span())
    return edges, taken


def _cue_edges(c: Clause, low: str, rules: list[EdgeRule], taken: list[tuple[int, int]]) -> list[Edge]:
    """The edges of the cue `rules` (`edge_rules.RULES` with a key in the clause) outside the spans already
    `taken` (which grow)."""
    edges: list[Edge] = []
    ascii_text = c.text.isascii()
    for rule in rules:
        if not rule.admits(low, ascii_text):
            continue
        for m in finditer_folded(rule.cue, rule.folded, c.text, low):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            left, right = c.text[: m.start()], c.text[m.end() :]
            if negated(left, EDGE_NEGATION) and not (rule.type is EdgeType.APPROVES and EXCL_NEG_RE.search(c.text)):
                continue  # "no longer the sole approver" still states the approval
            if rule.type in _CURRENT_FACTS and not_current(left, m.group(0), right):
                continue
            found = rule.read(c, m)
            if found:
                edges.extend(found)
                taken.append(m.span())
    return edges


def _clause_edges(c: Clause) -> list[Edge]:
    low = c.text.lower()
    keyed = REGISTRY.keyed(low)
    edges, taken = _form_edges(c, low, [rule for rule in keyed if isinstance(rule, EdgeForm)])
    return edges + _cue_edges(c, low, [rule for rule in keyed if isinstance(rule, EdgeRule)], taken)


def _qa_edges(question: str, answer: str, ctx: Context, before: str) -> list[Edge]:
    """Edges from a Q/A pair whose question is in `edge_rules.QUESTIONS` and whose answer fills it in."""
    negation = EDGE_NEGATION.words
    if negation.search(question) or negation.search(answer) or answer.strip(" .").lower() in _QA_NONE:
        return []
    for asked in QUESTIONS:
        m = asked.cue.match(question)
        if m:
            return asked.read(m, answer, ctx, before)
    return []


def extract(text: str, ctx: Context) -> list[Record]:
    """Organisational edge records in `text` (several facts → several records).

    Args:
        text: the memory text.
        ctx: the request context (its subject resolves "I", "the user", "Sam" for `user:sam`…).

    Returns:
        `kind: edge` records; [] when no rule matches.
    """
    if not PREFILTER.search(text.lower()):
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
        for edge in _clause_edges(Clause(clause, ctx, text[:start], text)):
            records.append(ctx.record(RecordKind.EDGE, _slot(edge, ctx.subject), clause, edge=edge))
    return records
