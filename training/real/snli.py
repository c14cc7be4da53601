"""SNLI dev+test (e-SNLI repo): image-caption premise `a`, hypothesis `b`, `label`. See `nli`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from writegate.training.real import nli
from writegate.training.real.common import Mapped, Row

NAME = "snli"


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map SNLI rows to labelled pairs (rules in `nli`)."""
    return nli.examples(rows, NAME)
