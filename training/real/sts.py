"""SemEval STS 2012–2016 (research use): sentence pairs with a gold similarity 0–5.

- score ≥ 4.5 → `corroborates` (the same fact, paraphrased)
- score ≤ 1.0 → `unrelated`
- the middle (partial overlap, same topic other facts) is left out: too mixed for one label
The labels are time-independent: NEW is observed at EXISTING's moment or later (`common.later`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, later, make, moment, norm, present

NAME = "sts"
SAME_MIN = 4.5
UNRELATED_MAX = 1.0


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map STS rows to labelled pairs; group = the normalised first sentence."""
    for r in rows:
        if isinstance(r.get("a"), str) and isinstance(r.get("b"), str) and isinstance(r.get("score"), int | float):
            yield from present([pair(r)])


def pair(r: Row) -> Mapped | None:
    """The pair of one row, or None for a middle score."""
    rid, group, score = str(r["id"]), norm(r["a"]), float(r["score"])
    when = moment(group)
    if score >= SAME_MIN:
        return make(
            group, f"{rid}:corroborates", Label.CORROBORATES, f"{NAME}.same", (r["a"], when), (r["b"], later(rid, when))
        )
    if score <= UNRELATED_MAX:
        return make(
            group, f"{rid}:unrelated", Label.UNRELATED, f"{NAME}.different", (r["a"], when), (r["b"], later(rid, when))
        )
    return None
