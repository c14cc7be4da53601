"""Climate-FEVER (research presets only): a real claim and a Wikipedia evidence sentence.

Both are observed at one moment (two sources, one time: a refutation is not a change):
- REFUTES → `contradicts` (claim → evidence)
- SUPPORTS → `elaborates` (the evidence adds detail to the claim)
- NOT_ENOUGH_INFO → left out: on a sample most were on the claim's topic (climate) without
  bearing on it, neither clean `unrelated` nor `elaborates`
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, make, moment, norm, present

NAME = "climate_fever"
MAPPING: dict[str, tuple[Label, str]] = {
    "REFUTES": (Label.CONTRADICTS, "refutes"),
    "SUPPORTS": (Label.ELABORATES, "supports"),
}


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map Climate-FEVER rows to labelled pairs; group = the normalised claim."""
    for r in rows:
        if r.get("label") in MAPPING and isinstance(r.get("a"), str) and isinstance(r.get("b"), str):
            label, construction = MAPPING[r["label"]]
            group = norm(r["a"])
            when = moment(group)
            yield from present(
                [
                    make(
                        group,
                        f"{r['id']}:{label.value}",
                        label,
                        f"{NAME}.{construction}",
                        (r["a"], when),
                        (r["b"], when),
                    )
                ]
            )
