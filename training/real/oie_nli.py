"""Short single-clause SNLI and MultiNLI pairs (`a`, `b`, `label`, `origin`). See `nli`.

Negatives are all "easy" (no shared content word): with texts this short, a shared word is the
scene itself, and a 20-row sample of "hard" ones had 5 that read as the same scene ("Two dogs bound
across the grass." / "A black poodle is running through the grass.").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from writegate.training.real import nli
from writegate.training.real.common import Mapped, Row

NAME = "oie_nli"


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map oie_nli rows to labelled pairs (rules in `nli`)."""
    return nli.examples(rows, NAME, hard=False)
