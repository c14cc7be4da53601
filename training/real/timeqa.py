"""TimeQA (human-annotated): per entity and Wikidata relation, questions for consecutive time spans.

Each answered question whose span parses becomes a dated memory, observed at the span's start
(month precision where given; many years are before 1970, any year 1-9999 is valid), written as
a statement with the span taken out ("Newton D. Baker owned X.", `statements.statement`). A row
whose questions do not all turn into statements is written as "As of" notes instead ("As of 1916:
Who owned X? Newton D. Baker"), so the two sides of a pair always have one shape (on the snapshot,
60% of the answered questions become statements, and 45% of the pairs are statements).

Spans in time order, consecutive pairs:
- different answers → `supersedes` (NEW is the later span); the same two reversed (NEW is the
  older span, incompatible) → `contradicts`, labels.md's "n is older than e" rule
- answers that overlap but differ (multi-valued answers) → left out
- the same answers → `corroborates`
Relations whose values accumulate (memberships, awards, events, children…) give no change pairs.
Negatives → `unrelated`:
- another entity of the same relation in the same split (a different subject, named in the text);
- another entity of the same relation holding the same value ("Lee Nogan played for Reading." →
  "English footballer Steve Sidwell was part of Reading."): a named other subject with the value
  is not about the first one;
- the same entity, another relation (a different attribute of the same subject: an award against
  a governmental role), each side at its own span's time. Only 4 entities have two relations;
  relation pairs that are one slot or change together are left out (`LINKED`: occupant and owner
  of a house, a ship's registry and its operator), which leaves Helen Clark's awards against her
  positions.
A span is refused when it ends before it starts or lasts over `MAX_SPAN_YEARS` (typos such as "from
105 to 1708").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, make, norm, present, split_of, stable_int
from writegate.training.real.statements import statement

NAME = "timeqa"
ACCUMULATING = frozenset(
    {"P463", "P166", "P1344", "P800", "P40", "P710", "P355", "P793", "P1365", "P1366", "P150", "P1830"}
)
"""Relations whose values add up rather than replace each other (member of, award, participant…)."""
LINKED = frozenset({frozenset({"P466", "P127"}), frozenset({"P8047", "P137"})})
"""Relation pairs that are one slot in this data (occupant/owner) or change together (registry/operator)."""
MAX_SPAN_YEARS = 200
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE = rf"(?:\d{{1,2}}\s+)?(?:({_MONTH})\s+)?(?:\d{{1,2}},?\s+)?(\d{{3,4}})\b"
_RANGE = re.compile(
    rf"\b(?:from|between)\s+(?:the\s+years?\s+)?{_DATE}\s*(?:to|and|until|till|-|–)\s*"
    rf"(?:{_DATE}|present)",
    re.I,
)
_POINT = re.compile(rf"\b(?:in|since|during|after)\s+{_DATE}", re.I)


@dataclass(frozen=True)
class Fact:
    """One answered, dated question."""

    index: int
    start: datetime
    label: str
    """The span's start as written: `1916` or `Mar 1964`."""
    question: str
    """The question without its span."""
    full: str
    """The question as asked."""
    answers: tuple[str, ...]


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map TimeQA rows to labelled pairs; group = the normalised entity."""
    rows = [r for r in rows if isinstance(r.get("entity"), str) and isinstance(r.get("questions"), list)]
    facts = {str(r["id"]): parse_facts(r) for r in rows}
    for r in rows:
        yield from present(change_pairs(r, facts[str(r["id"])]))
    yield from present(negatives(rows, facts))
    yield from present(same_value_negatives(rows, facts))
    yield from present(other_relation_pairs(rows, facts))


def parse_facts(r: Row) -> list[Fact]:
    """The answered questions of a row whose span parses, in time order."""
    out: list[Fact] = []
    for i, q in enumerate(r["questions"]):
        answers = tuple(dict.fromkeys(detok(a) for a in q.get("answers") or [] if isinstance(a, str) and a.strip()))
        span = parse_span(str(q.get("question", "")))
        if answers and span is not None:
            start, label, rest = span
            out.append(Fact(i, start, label, rest, " ".join(str(q["question"]).split()), answers))
    return sorted(out, key=lambda f: (f.start, f.index))


def parse_span(question: str) -> tuple[datetime, str, str] | None:
    """(start as UTC datetime, start as written, question without the span), or None."""
    m = _RANGE.search(question) or _POINT.search(question)
    if m is None:
        return None
    month, year = m.group(1), int(m.group(2))
    end = int(m.group(4)) if m.re is _RANGE and m.group(4) else None
    if year < 1 or (end is not None and not 0 <= end - year <= MAX_SPAN_YEARS):
        return None
    mon = MONTHS.index(month[:3].lower()) + 1 if month else 1
    label = f"{MONTHS[mon - 1].title()} {year}" if month else str(year)
    rest = (question[: m.start()] + question[m.end() :]).strip()
    rest = re.sub(r"\s+([?,.])", r"\1", re.sub(r"\s+", " ", rest)).lstrip(" ,;:")
    rest = re.sub(r",\?$", "?", rest)
    rest = rest[:1].upper() + rest[1:]
    return datetime(year, mon, 1, tzinfo=UTC), label, rest


def detok(text: str) -> str:
    """Undo the source's tokenisation: `Newton D . Baker` → `Newton D. Baker`, `( MP )` → `(MP)`."""
    out = re.sub(r"\s+([.,;:!?)'])", r"\1", " ".join(text.split()))
    return re.sub(r"([(])\s+", r"\1", out)


def join_answers(answers: tuple[str, ...]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return answers[0] if len(answers) == 1 else ", ".join(answers[:-1]) + " and " + answers[-1]


def renderings(facts: list[Fact]) -> dict[int, str]:
    """Each fact's memory text (by `Fact.index`): all statements, or all "As of" notes."""
    said = {f.index: statement(f.question, join_answers(f.answers)) for f in facts}
    if all(said.values()):
        return {i: text for i, text in said.items() if text is not None}
    return {f.index: as_of(f) for f in facts}


def as_of(fact: Fact) -> str:
    """ "As of 1916: Who owned X? Newton D. Baker"."""
    q = fact.question if fact.question.endswith("?") else fact.question + "?"
    return f"As of {fact.label}: {q} {join_answers(fact.answers)}"


def change_pairs(r: Row, facts: list[Fact]) -> Iterator[Mapped | None]:
    """Pairs of consecutive spans of one row (change, older, same)."""
    rid, group = str(r["id"]), norm(r["entity"])
    text = renderings(facts)
    for old, new in itertools.pairwise(facts):
        if new.start <= old.start:
            continue
        a, b = {norm(x) for x in old.answers}, {norm(x) for x in new.answers}
        e, n = (text[old.index], old.start), (text[new.index], new.start)
        key = f"{rid}:{old.index}-{new.index}"
        if a == b:
            yield make(group, f"{key}:corroborates", Label.CORROBORATES, f"{NAME}.same", e, n)
        elif not a & b and r.get("relation") not in ACCUMULATING:
            yield make(group, f"{key}:supersedes", Label.SUPERSEDES, f"{NAME}.change", e, n)
            yield make(group, f"{key}:contradicts", Label.CONTRADICTS, f"{NAME}.older", n, e)


def negatives(rows: list[Row], facts: dict[str, list[Fact]]) -> Iterator[Mapped | None]:
    """`unrelated`: a fact of another entity of the same relation in the same split."""
    usable = [r for r in rows if facts[str(r["id"])]]
    by_rel: dict[tuple[str, str], list[Row]] = {}
    for r in usable:
        by_rel.setdefault((split_of(norm(r["entity"])), str(r.get("relation"))), []).append(r)
    for r in usable:
        group, rid = norm(r["entity"]), str(r["id"])
        mine = facts[rid][0]
        e = (renderings(facts[rid])[mine.index], mine.start)
        peers = [p for p in by_rel[(split_of(group), str(r.get("relation")))] if norm(p["entity"]) != group]
        if peers:
            other = peers[stable_int("peer", rid) % len(peers)]
            theirs = facts[str(other["id"])][stable_int("fact", rid) % len(facts[str(other["id"])])]
            yield make(
                group,
                f"{rid}:{other['id']}:unrelated",
                Label.UNRELATED,
                f"{NAME}.other_entity",
                e,
                (renderings(facts[str(other["id"])])[theirs.index], theirs.start),
            )


def _answers(fact: Fact) -> set[str]:
    return {norm(a) for a in fact.answers}


def same_value_negatives(rows: list[Row], facts: dict[str, list[Fact]]) -> Iterator[Mapped | None]:
    """`unrelated`: a fact and another entity's fact of the same relation with a value in common."""
    by_rel: dict[tuple[str, str], list[Row]] = {}
    for r in rows:
        if facts[str(r["id"])]:
            by_rel.setdefault((split_of(norm(r["entity"])), str(r.get("relation"))), []).append(r)
    for peers in by_rel.values():
        for a, b in itertools.combinations(peers, 2):
            if norm(a["entity"]) == norm(b["entity"]):
                continue
            ta, tb = renderings(facts[str(a["id"])]), renderings(facts[str(b["id"])])
            for fa, fb in itertools.product(facts[str(a["id"])], facts[str(b["id"])]):
                if _answers(fa) & _answers(fb):
                    yield make(
                        norm(a["entity"]),
                        f"{a['id']}:{fa.index}:{b['id']}:{fb.index}:unrelated",
                        Label.UNRELATED,
                        f"{NAME}.same_value",
                        (ta[fa.index], fa.start),
                        (tb[fb.index], fb.start),
                    )


def other_relation_pairs(rows: list[Row], facts: dict[str, list[Fact]]) -> Iterator[Mapped | None]:
    """`unrelated`: two facts of one entity under two relations that are not `LINKED`."""
    by_entity: dict[str, list[Row]] = {}
    for r in rows:
        if facts[str(r["id"])]:
            by_entity.setdefault(norm(r["entity"]), []).append(r)
    for group, mine in by_entity.items():
        for a, b in itertools.combinations(mine, 2):
            if a.get("relation") == b.get("relation") or frozenset({a.get("relation"), b.get("relation")}) in LINKED:
                continue
            ta, tb = renderings(facts[str(a["id"])]), renderings(facts[str(b["id"])])
            for fa, fb in itertools.product(facts[str(a["id"])], facts[str(b["id"])]):
                yield make(
                    group,
                    f"{a['id']}:{fa.index}:{b['id']}:{fb.index}:unrelated",
                    Label.UNRELATED,
                    f"{NAME}.other_relation",
                    (ta[fa.index], fa.start),
                    (tb[fb.index], fb.start),
                )
