"""Human-written training pairs from public datasets, one module per source.

The input is a local copy of the public datasets listed in docs/training.md ("The human-written
sources"), one `NAME.jsonl` per source, passed as `--real-dir DIR`.

Each module maps the source's own rows to labelled `(EXISTING, NEW)` pairs (`Mapped`: an `Example`
and its split group); `SOURCES` lists them with the licence as the source states it and
whether a model trained on them may ship. Build the pair files with
``python -m writegate.training.real.build``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from writegate.training.real import (
    climate_fever,
    msc_persona,
    oie_nli,
    prosecco,
    sgd_changes,
    snli,
    sts,
    timeqa,
)
from writegate.training.real.common import Mapped, Row


@dataclass(frozen=True)
class Source:
    """A source: its mapping, its licence as stated, and whether a trained model may ship."""

    name: str
    examples: Callable[[Iterable[Row]], Iterator[Mapped]]
    licence: str
    shippable: bool

    @property
    def file(self) -> str:
        """The source's file name in the real-data directory."""
        return f"{self.name}.jsonl"


class _Module(Protocol):
    NAME: str

    def examples(self, rows: Iterable[Row]) -> Iterator[Mapped]: ...


def _source(module: _Module, licence: str, shippable: bool) -> Source:
    return Source(module.NAME, module.examples, licence, shippable)


SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        _source(snli, "SNLI: CC BY-SA 4.0 (e-SNLI repo: MIT)", True),
        _source(oie_nli, "SNLI (CC BY-SA 4.0) and MultiNLI pairs; repo states no licence", True),
        _source(timeqa, "BSD-3-Clause", True),
        _source(sgd_changes, "CC BY-SA 4.0", True),
        _source(prosecco, "CC BY-SA 4.0", True),
        _source(
            sts, "SemEval STS 2012-2016 (MSRpar left out); licences per subset in the snapshot; research use", False
        ),
        _source(msc_persona, "Multi-Session Chat persona summaries; licence not stated in this copy", False),
        _source(climate_fever, "licence not stated in the snapshot", False),
    )
}
"""Every source, in build order. SICK, SituatedQA, MQuAKE/CounterFact and LoCoMo are evaluation-only."""

PRESETS: dict[str, tuple[str, ...]] = {
    "default": tuple(n for n, s in SOURCES.items() if s.shippable),
    "research": tuple(SOURCES),
}
"""`default`: sources whose licence allows shipping a model; `research`: all of them."""

__all__ = ["PRESETS", "SOURCES", "Mapped", "Source"]
