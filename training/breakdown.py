"""Errors per group of pairs — template family, construction, or slot — to find where a model fails systematically.

One macro-F1 hides that a model's errors come in blocks: a held-out phrasing that one whole
family shares (a change phrased ", not {old} like before" read as a correction), or one slot
whose values look like subjects (on-call rotations); training/EXPERIMENTS.md, "Evaluation
breakdowns", has the cases. `writegate eval --by family|construction|slot` prints the groups with
the most errors and each one's commonest confusions; the generated splits carry `family`
("slot.label.construction") and `slot` on every line.

`writegate eval --errors N` shows the mistakes themselves: per confusion cell (gold → predicted),
the N the model was surest of, with both texts and dates (`confident_errors`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from writegate.classifier.labels import LABELS
from writegate.errors import InputError
from writegate.training.datafile import Example

GroupBy = Literal["family", "construction", "slot"]
GROUP_BYS: tuple[str, ...] = ("family", "construction", "slot")
NO_GROUP = "(none)"


class Confusion(BaseModel):
    """One kind of error in a group."""

    gold: str
    predicted: str
    count: int = Field(ge=1)


class GroupErrors(BaseModel):
    """How a model does on one group of pairs."""

    group: str
    pairs: int = Field(ge=1)
    errors: int = Field(ge=0)
    error_rate: float = Field(ge=0, le=1)
    confusions: list[Confusion] = Field(description="Gold → predicted counts, commonest first.")


def group_of(ex: Example, by: GroupBy) -> str | None:
    """The pair's group: its family, its construction (the family without its slot: `supersedes.stop`), or its slot."""
    if by == "slot":
        return ex.slot
    if ex.family is None or by == "family":
        return ex.family
    prefix = f"{ex.slot}."
    return ex.family[len(prefix) :] if ex.slot and ex.family.startswith(prefix) else ex.family


def check_groupable(examples: Sequence[Example], by: GroupBy) -> None:
    """Raise InputError unless some pair names the field that `by` groups on (none needed for no pairs)."""
    if examples and all(group_of(ex, by) is None for ex in examples):
        field = "slot" if by == "slot" else "family"
        raise InputError("--by", f"{by}: no pair in the data has a {field!r} field (the generated splits do)")


def error_breakdown(examples: Sequence[Example], predicted: Sequence[str], by: GroupBy) -> list[GroupErrors]:
    """Per-group errors, the groups with the most errors first (ties: higher rate, then name).

    Raises:
        InputError: lengths differ, or no pair names the field that `by` needs.
    """
    if len(examples) != len(predicted):
        raise InputError("predicted", f"has {len(predicted)} labels for {len(examples)} pairs")
    check_groupable(examples, by)
    keys = [group_of(ex, by) for ex in examples]
    pairs: Counter[str] = Counter()
    confusions: defaultdict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for ex, key, pred in zip(examples, keys, predicted, strict=True):
        group = key if key is not None else NO_GROUP
        pairs[group] += 1
        if pred != ex.label.value:
            confusions[group][(ex.label.value, pred)] += 1
    rows = []
    for group, n in pairs.items():
        conf = confusions[group]
        errors = sum(conf.values())
        rows.append(
            GroupErrors(
                group=group,
                pairs=n,
                errors=errors,
                error_rate=errors / n,
                confusions=[
                    Confusion(gold=g, predicted=p, count=c)
                    for (g, p), c in sorted(conf.items(), key=lambda kv: (-kv[1], kv[0]))
                ],
            )
        )
    return sorted(rows, key=lambda r: (-r.errors, -r.error_rate, r.group))


def render_breakdown(rows: Sequence[GroupErrors], by: GroupBy, top: int, console: object | None = None) -> None:
    """Print the `top` groups with the most errors as a rich table (each with its two commonest confusions)."""
    from rich.console import Console
    from rich.table import Table

    con: Console = console if isinstance(console, Console) else Console()
    total = sum(r.errors for r in rows)
    shown = [r for r in rows if r.errors][:top]
    t = Table(
        title=f"errors by {by}: the {len(shown)} of {len(rows)} groups with the most ({total} errors in all)",
        caption="confusions: gold→predicted, labels by their first three letters (unr cor ela con sup)",
    )
    t.add_column("group", no_wrap=True)
    for col in ("errors", "pairs", "rate", "share"):
        t.add_column(col, justify="right")
    t.add_column("commonest confusions")
    for r in shown:
        conf = ", ".join(f"{c.gold[:3]}→{c.predicted[:3]} {c.count}" for c in r.confusions[:2])
        t.add_row(r.group, str(r.errors), str(r.pairs), f"{r.error_rate:.0%}", f"{r.errors / total:.0%}", conf)
    con.print(t)


class MistakeSide(BaseModel):
    """One memory of a mistaken pair, as printed."""

    text: str
    date: str = Field(description="observed_at as YYYY-MM-DD (the data files hold UTC times).")


class Mistake(BaseModel):
    """One pair the model got wrong."""

    source: str | None = Field(description="The source's name when several were evaluated, else None.")
    id: str
    probability: float = Field(description="Served probability of the predicted label.")
    existing: MistakeSide
    new: MistakeSide


class CellErrors(BaseModel):
    """The most confident mistakes of one confusion cell (gold → predicted, gold ≠ predicted)."""

    gold: str
    predicted: str
    count: int = Field(ge=1, description="All mistakes in the cell.")
    mistakes: list[Mistake] = Field(description="The most confident ones, highest probability first.")


def iso_date(when: datetime) -> str:
    """YYYY-MM-DD, the year always four digits (0987-03-04)."""
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d}"


def confident_errors(
    examples: Sequence[Example],
    predicted: Sequence[str],
    probability: Sequence[float],
    n: int,
    sources: Sequence[str] | None = None,
) -> list[CellErrors]:
    """The `n` most confident mistakes per confusion cell.

    Args:
        examples: the labelled pairs.
        predicted: the served label per pair.
        probability: the served probability of that label per pair.
        n: mistakes kept per cell (at least 1).
        sources: the source name per pair, or None with a single source.

    Returns:
        One entry per cell with a mistake, the cells with the most mistakes first (ties: the more
        confident top mistake, then gold and predicted label order); in each, mistakes by probability,
        highest first (ties: input order).

    Raises:
        InputError: `n` < 1 (named `--errors`), or lengths differ.
    """
    if n < 1:
        raise InputError("--errors", f"must be at least 1, got {n}")
    n_sources = len(examples) if sources is None else len(sources)
    if not len(examples) == len(predicted) == len(probability) == n_sources:
        raise InputError(
            "predicted",
            f"need one label, probability and source per pair: {len(examples)} pairs, "
            f"{len(predicted)} labels, {len(probability)} probabilities, {n_sources} sources",
        )
    cells: defaultdict[tuple[str, str], list[tuple[float, int]]] = defaultdict(list)
    for i, (ex, pred, prob) in enumerate(zip(examples, predicted, probability, strict=True)):
        if pred != ex.label.value:
            cells[(ex.label.value, pred)].append((float(prob), i))

    def mistake(prob: float, i: int) -> Mistake:
        pair = examples[i].pair
        return Mistake(
            source=None if sources is None else sources[i],
            id=examples[i].id,
            probability=prob,
            existing=MistakeSide(text=pair.existing.text, date=iso_date(pair.existing.observed_at)),
            new=MistakeSide(text=pair.new.text, date=iso_date(pair.new.observed_at)),
        )

    order = {name: k for k, name in enumerate(LABELS)}
    out = []
    for (gold, pred), hits in cells.items():
        ranked = sorted(hits, key=lambda h: (-h[0], h[1]))
        out.append(
            CellErrors(gold=gold, predicted=pred, count=len(hits), mistakes=[mistake(p, i) for p, i in ranked[:n]])
        )
    return sorted(out, key=lambda c: (-c.count, -c.mistakes[0].probability, order[c.gold], order[c.predicted]))


def render_errors(cells: Sequence[CellErrors], n: int, console: object | None = None) -> None:
    """Print each cell's most confident mistakes as a rich table (texts printed verbatim, never as markup)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from writegate.training.evaluate import wide_enough

    con: Console = console if isinstance(console, Console) else Console()
    if not cells:
        con.print("no mistakes")
        return
    total = sum(c.count for c in cells)
    con.print(
        f"most confident mistakes: up to {n} per gold → predicted cell ({total} mistakes in {len(cells)} cells)",
        markup=False,
    )
    several = any(m.source is not None for c in cells for m in c.mistakes)
    for c in cells:
        t = Table(title=f"{c.gold} → {c.predicted}: {len(c.mistakes)} of {c.count}", title_justify="left")
        t.add_column("p", justify="right", no_wrap=True)
        if several:
            t.add_column("source", overflow="fold")
        t.add_column("id", overflow="fold")
        t.add_column("existing")
        t.add_column("new")
        for m in c.mistakes:
            row = (
                [f"{m.probability:.3f}"]
                + ([Text(m.source or "")] if several else [])
                + [Text(m.id), Text(f"{m.existing.date}  {m.existing.text}"), Text(f"{m.new.date}  {m.new.text}")]
            )
            t.add_row(*row)
        wide_enough(con, t, cap=160).print(t)
