"""Several labelled sources in one `writegate eval` run: loading them, scoring each, the mean over them.

Real text comes from sources that each hold a few of the five labels (sgd_changes only `supersedes`,
sts only `corroborates`/`unrelated`), so one macro-F1 over the pooled pairs mostly measures the mix.
Each source is scored on its own and the sources are averaged:

* **source macro-F1**: per-label F1 averaged over the labels with gold support in that source
  (a label the source never holds does not count, even when the model predicts it; its false
  positives still lower the recall of the gold label they came from);
* **conflict slice**: exact accuracy on the source's gold `supersedes`/`contradicts` pairs, None
  when it has none;
* **false invalidation rate** (FIR): of the source's *safe* pairs — gold `unrelated`, `elaborates`
  or `corroborates`, where the existing memory stays true —, the share predicted `supersedes` or
  `contradicts`, the labels that retire a true memory or put it in conflict; None without safe
  pairs;
* **retiring precision**: of the pairs predicted `supersedes` or `contradicts`, the share whose gold
  label is that same label; None when none is predicted;
* **mean**: the unweighted mean of the sources' macro-F1, and of the conflict slice over the
  sources that have one; FIR and retiring precision **overall**: pooled over all sources' pairs.

`--data` names files (a file `X.jsonl` is the source `X`) or directories (each `NAME.dev.jsonl` in
it is the source `NAME`, as `python -m writegate.training.real.build` writes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field, computed_field

from writegate.classifier.labels import LABEL2ID, LABELS, Label
from writegate.errors import InputError
from writegate.training.datafile import Example, read_examples
from writegate.training.metrics import macro_f1_score

DEV_SUFFIX = ".dev.jsonl"
CONFLICT_IDS: tuple[int, ...] = (LABEL2ID[Label.SUPERSEDES.value], LABEL2ID[Label.CONTRADICTS.value])
"""The retiring labels: they make the existing memory historical or put it in conflict."""
SAFE_IDS: tuple[int, ...] = tuple(
    LABEL2ID[label.value] for label in (Label.UNRELATED, Label.ELABORATES, Label.CORROBORATES)
)
"""The gold labels under which the existing memory stays true."""


@dataclass(frozen=True)
class Source:
    """One named set of labelled pairs."""

    name: str
    path: Path
    examples: list[Example]


def source_paths(data: Sequence[str | Path]) -> list[tuple[str, Path]]:
    """(name, file) of every source that the `--data` values name, in the order given.

    A file is one source named by its stem (`pairs.jsonl` → `pairs`); a directory gives one source
    per `*.dev.jsonl` in it, sorted, named without `.dev.jsonl` (`snli.dev.jsonl` → `snli`).

    Raises:
        InputError: (`--data`) a path that does not exist, a directory without `*.dev.jsonl`, two
            sources with the same name, or no value at all.
    """
    if not data:
        raise InputError("--data", "name at least one file or directory")
    out: list[tuple[str, Path]] = []
    for value in data:
        path = Path(value)
        if path.is_dir():
            files = sorted(f for f in path.glob(f"*{DEV_SUFFIX}") if f.is_file())
            if not files:
                raise InputError("--data", f"{path} is a directory with no *{DEV_SUFFIX} file")
            out.extend((f.name[: -len(DEV_SUFFIX)], f) for f in files)
        elif path.is_file():
            out.append((path.stem, path))
        else:
            raise InputError("--data", f"{path} does not exist")
    seen: dict[str, Path] = {}
    for name, path in out:
        if name in seen:
            raise InputError("--data", f"two sources named {name!r}: {seen[name]} and {path}")
        seen[name] = path
    return out


def load_sources(data: Sequence[str | Path]) -> list[Source]:
    """Read and validate every source that `data` names (see `source_paths`)."""
    return [Source(name, path, read_examples(path)) for name, path in source_paths(data)]


def stacked_confusion(gold: np.ndarray, pred: np.ndarray, k: int = len(LABELS)) -> np.ndarray:
    """Confusion matrices `[r, k, k]` of `r` rows of label indices (`gold`, `pred`: `[r, n]`): the bootstrap's
    resamples at once (`sklearn.metrics.confusion_matrix` takes one set per call)."""
    g, p = np.atleast_2d(gold).astype(np.int64), np.atleast_2d(pred).astype(np.int64)
    offset = np.arange(g.shape[0], dtype=np.int64)[:, None] * k * k
    return np.bincount((offset + g * k + p).ravel(), minlength=g.shape[0] * k * k).reshape(g.shape[0], k, k)


def conflict_accuracy(gold: Sequence[int] | np.ndarray, pred: Sequence[int] | np.ndarray) -> float | None:
    """Exact accuracy on the gold supersedes/contradicts pairs; None when there is none."""
    g, p = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)
    in_slice = np.isin(g, CONFLICT_IDS)
    return float((g[in_slice] == p[in_slice]).mean()) if in_slice.any() else None


def harm_counts(gold: Sequence[int] | np.ndarray, pred: Sequence[int] | np.ndarray) -> tuple[int, int, int, int]:
    """(safe pairs, safe pairs predicted retiring, pairs predicted retiring, of those the gold label)."""
    g, p = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)
    safe, retiring = np.isin(g, SAFE_IDS), np.isin(p, CONFLICT_IDS)
    return int(safe.sum()), int((safe & retiring).sum()), int(retiring.sum()), int((retiring & (g == p)).sum())


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


class SourceScore(BaseModel):
    """How a model does on one source."""

    name: str
    pairs: int = Field(ge=0)
    labels: dict[str, int] = Field(description="Gold pairs per label the source holds (LABELS order).")
    macro_f1: float = Field(description="Per-label F1 averaged over the labels with gold support in the source.")
    conflict_pairs: int = Field(ge=0, description="Gold supersedes + contradicts pairs.")
    conflict_accuracy: float | None = Field(description="Exact accuracy on those pairs; None without any.")
    safe_pairs: int = Field(default=0, ge=0, description="Gold unrelated + elaborates + corroborates pairs.")
    false_invalidations: int = Field(default=0, ge=0, description="Safe pairs predicted supersedes/contradicts.")
    retiring_predicted: int = Field(default=0, ge=0, description="Pairs predicted supersedes/contradicts.")
    retiring_correct: int = Field(default=0, ge=0, description="Of those, the pairs whose gold is that label.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def false_invalidation_rate(self) -> float | None:
        """Safe pairs predicted retiring ÷ safe pairs; None without safe pairs."""
        return _rate(self.false_invalidations, self.safe_pairs)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def retiring_precision(self) -> float | None:
        """Correct retiring predictions ÷ retiring predictions; None without any."""
        return _rate(self.retiring_correct, self.retiring_predicted)


class MeanScore(BaseModel):
    """The unweighted mean over sources."""

    sources: int
    pairs: int
    macro_f1: float = Field(description="Mean of the sources' macro-F1.")
    conflict_sources: int = Field(description="Sources with at least one conflict pair.")
    conflict_accuracy: float | None = Field(
        description="Mean conflict-slice accuracy over those sources; None without any."
    )
    false_invalidation_rate: float | None = Field(
        default=None, description="Pooled over all sources' safe pairs; None without any."
    )
    retiring_precision: float | None = Field(
        default=None, description="Pooled over all sources' retiring predictions; None without any."
    )


def score_source(name: str, gold: Sequence[int], pred: Sequence[int]) -> SourceScore:
    """Score one source's predicted label indices against its gold ones (LABELS order).

    Raises:
        InputError: lengths differ or a label index is out of range.
    """
    g, p = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64)
    if g.shape != p.shape:
        raise InputError("predicted", f"has {p.size} labels for {g.size} pairs")
    if g.size and (min(g.min(), p.min()) < 0 or max(g.max(), p.max()) >= len(LABELS)):
        raise InputError("predicted", f"label indices must be in [0, {len(LABELS)})")
    counts = np.bincount(g, minlength=len(LABELS))
    safe, false_inv, retiring, retiring_ok = harm_counts(g, p)
    return SourceScore(
        name=name,
        pairs=int(g.size),
        labels={LABELS[i]: int(c) for i, c in enumerate(counts) if c},
        macro_f1=macro_f1_score(g, p, gold_only=True),
        conflict_pairs=int(np.isin(g, CONFLICT_IDS).sum()),
        conflict_accuracy=conflict_accuracy(g, p),
        safe_pairs=safe,
        false_invalidations=false_inv,
        retiring_predicted=retiring,
        retiring_correct=retiring_ok,
    )


def mean_score(scores: Sequence[SourceScore]) -> MeanScore:
    """The mean over `scores` of macro-F1, and of the conflict slice over the sources that have one.

    Raises:
        InputError: no score.
    """
    if not scores:
        raise InputError("sources", "no source to average")
    conflict = [s.conflict_accuracy for s in scores if s.conflict_accuracy is not None]
    return MeanScore(
        sources=len(scores),
        pairs=sum(s.pairs for s in scores),
        macro_f1=float(np.mean([s.macro_f1 for s in scores])),
        conflict_sources=len(conflict),
        conflict_accuracy=float(np.mean(conflict)) if conflict else None,
        false_invalidation_rate=_rate(sum(s.false_invalidations for s in scores), sum(s.safe_pairs for s in scores)),
        retiring_precision=_rate(sum(s.retiring_correct for s in scores), sum(s.retiring_predicted for s in scores)),
    )
