"""Choose the review thresholds (`writegate.json`'s `review`, `classifier/review.py`) on labelled dev pairs.

Run: ``python -m writegate.training.review --data DIR|FILE [--data …] [--model DIR] [--max-load 0.1] [--write]``.

The model labels every pair once (as served: its temperature, its fusion setting, the guards).
Of the pairs it labels `supersedes` or `contradicts` (the retiring labels), the *wrong* ones have
another gold label and the *right* ones that label. For each (margin, confidence) pair of the grid
the table gives how many wrong ones the rule flags (what review is for) and how many right ones
(the load a person checks for nothing). The chosen point flags the most wrong ones while flagging
at most `--max-load` of the right ones (ties: fewer right ones, then the smaller thresholds).
`--data` takes what `writegate eval --data` takes: files, or directories of `NAME.dev.jsonl`.
`--write` writes the chosen point into the model directory's `writegate.json` (`review`); data
without a wrong retiring label chooses nothing and writes nothing. `writegate train` makes the same
choice on its dev split (`choose_on_dev`, from `training/package.py`) and writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from writegate.classifier import modeldir
from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.classifier.review import RETIRING_IDS, ReviewPolicy
from writegate.errors import InputError

if TYPE_CHECKING:
    from writegate.classifier.model import Classifier
    from writegate.training.datafile import Example

MARGINS: tuple[float, ...] = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
CONFIDENCES: tuple[float, ...] = (0.0, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9)
MAX_LOAD = 0.1
"""The default largest share of the right retiring labels the chosen point may flag (`train` uses it too)."""


@dataclass(frozen=True)
class Point:
    """One (margin, confidence) pair and what it flags among the predicted retiring labels."""

    margin: float
    confidence: float
    wrong_flagged: int
    right_flagged: int
    flagged_by_label: dict[str, int]


def sweep(
    probabilities: np.ndarray,
    gold: np.ndarray,
    margins: Sequence[float] = MARGINS,
    confidences: Sequence[float] = CONFIDENCES,
) -> list[Point]:
    """Every grid point's counts, margins outer, confidences inner.

    Args:
        probabilities: float [n, 5] as served, in `LABELS` order.
        gold: int [n] gold label indices.
    """
    pred = probabilities.argmax(axis=1)
    wrong = pred != gold
    out = []
    for margin in margins:
        for confidence in confidences:
            flags = ReviewPolicy(margin=margin, confidence=confidence).flags(probabilities, pred)
            out.append(
                Point(
                    margin,
                    confidence,
                    int((flags & wrong).sum()),
                    int((flags & ~wrong).sum()),
                    {LABELS[i]: int((flags & (pred == i)).sum()) for i in RETIRING_IDS},
                )
            )
    return out


def choose(points: Sequence[Point], right_total: int, max_load: float) -> Point:
    """The point flagging the most wrong retiring labels with at most `max_load` of the right ones flagged."""
    fits = [p for p in points if p.right_flagged <= max_load * right_total]
    return min(fits, key=lambda p: (-p.wrong_flagged, p.right_flagged, p.margin + p.confidence))


@dataclass(frozen=True)
class Choice:
    """The chosen point on some labelled pairs, and what it was chosen among."""

    point: Point
    wrong_total: int
    right_total: int
    pairs: int

    @property
    def policy(self) -> ReviewPolicy | None:
        """The thresholds to write; None when the pairs hold no wrong retiring label (nothing to choose on)."""
        if self.wrong_total == 0:
            return None
        return ReviewPolicy(margin=self.point.margin, confidence=self.point.confidence)

    def describe(self, what: str = "pairs") -> str:
        """One line: the chosen point and what it flags, or that there was nothing to choose on."""
        if self.policy is None:
            right = f"{self.right_total} right one{'' if self.right_total == 1 else 's'}"
            return f"review: no wrong retiring label on {self.pairs} {what} ({right}): no thresholds chosen or written"
        p = self.point
        return (
            f"review: margin {p.margin}, confidence {p.confidence} flags {p.wrong_flagged} of {self.wrong_total} "
            f"wrong and {p.right_flagged} of {self.right_total} right retiring labels on {self.pairs} {what}"
        )


def choose_on(probabilities: np.ndarray, gold: np.ndarray, max_load: float = MAX_LOAD) -> tuple[Choice, list[Point]]:
    """`sweep` the grid on served probabilities [n, 5] and gold labels [n], then `choose`; also the sweep."""
    pred = probabilities.argmax(axis=1)
    retiring = np.isin(pred, RETIRING_IDS)
    wrong_total = int((retiring & (pred != gold)).sum())
    right_total = int((retiring & (pred == gold)).sum())
    points = sweep(probabilities, gold)
    return Choice(choose(points, right_total, max_load), wrong_total, right_total, len(gold)), points


def choose_on_dev(clf: Classifier, dev: Sequence[Example], fusion: bool, batch_size: int = 64) -> Choice:
    """`choose_on` the probabilities `clf` serves (with `fusion`) on the labelled pairs `dev` (`writegate train`)."""
    probs, gold = _served(clf, dev, fusion, batch_size)
    return choose_on(probs, gold)[0]


def write_review(model_dir: Path, policy: ReviewPolicy) -> Path:
    """Set the `review` entry of `model_dir`'s `writegate.json` to `policy` (no entry when it flags nothing).

    It reads, validates and writes the file with `classifier.modeldir` (`read_meta`, `write_meta`), so
    the rest of a file writegate wrote stays as it was, byte for byte.

    Raises:
        InputError: `model_dir` is not a model directory (no valid `writegate.json`), or its
            `writegate.json` holds fields writegate does not read (rewriting it would drop them).
    """
    meta = _rewritable_meta(model_dir)
    return modeldir.write_meta(model_dir, meta.model_copy(update={"review": policy}))


def _rewritable_meta(model_dir: Path) -> modeldir.ModelMeta:
    """`model_dir`'s validated `writegate.json`, refused where rewriting it would drop a field."""
    meta = modeldir.read_meta(model_dir)
    path = Path(model_dir) / modeldir.META_FILE
    unknown = sorted(set(json.loads(path.read_text(encoding="utf-8"))) - set(modeldir.ModelMeta.model_fields))
    if unknown:
        raise InputError("model", f"{path} has fields writegate does not read ({', '.join(unknown)}): not rewritten")
    return meta


def served_probabilities(model: Path, data: Sequence[str], batch_size: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(probabilities [n, 5] as served, gold [n], source name [n]) of every pair of the sources `data` names."""
    from writegate.classifier.model import Classifier
    from writegate.training.sources import load_sources

    sources = load_sources(data)
    examples = [ex for source in sources for ex in source.examples]
    clf = Classifier.load(model)
    probs, gold = _served(clf, examples, clf.fusion, batch_size)
    return probs, gold, [source.name for source in sources for _ in source.examples]


def _served(
    clf: Classifier, examples: Sequence[Example], fusion: bool, batch_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities [n, 5] as served with `fusion`, gold [n]) of `examples`."""
    from writegate.api.normalizing import with_records
    from writegate.training.evaluate import decode_all

    logits, prepared = clf.logits(with_records(ex.pair for ex in examples), batch_size=batch_size)
    probs, _, _ = decode_all(logits, prepared, clf.temperature, fusion=fusion)
    return probs, np.array([LABEL2ID[ex.label.value] for ex in examples], dtype=np.int64)


def by_source(probabilities: np.ndarray, gold: np.ndarray, names: Sequence[str], policy: ReviewPolicy) -> str:
    """Per source: wrong and right retiring labels, and how many of each `policy` flags."""
    pred = probabilities.argmax(axis=1)
    flags = policy.flags(probabilities, pred)
    retiring, wrong = np.isin(pred, RETIRING_IDS), pred != gold
    lines = [f"{'source':>16} | {'wrong flagged':>13} | {'right flagged':>13}"]
    for name in dict.fromkeys(names):
        at = np.array([n == name for n in names])
        w, r = at & retiring & wrong, at & retiring & ~wrong
        lines.append(
            f"{name:>16} | {int((flags & w).sum()):>5} of {int(w.sum()):>5} | {int((flags & r).sum()):>5} of {int(r.sum()):>5}"
        )
    return "\n".join(lines)


def table(points: Sequence[Point], wrong_total: int, right_total: int) -> str:
    """The sweep as text: one line per grid point."""
    lines = [
        f"retiring labels predicted: {wrong_total + right_total} ({wrong_total} wrong, {right_total} right)",
        f"{'margin':>6} {'conf':>5} | {'wrong flagged':>15} | {'right flagged (load)':>20} | by label",
    ]
    for p in points:
        by_label = ", ".join(f"{k} {v}" for k, v in p.flagged_by_label.items())
        lines.append(
            f"{p.margin:>6.2f} {p.confidence:>5.2f} | {p.wrong_flagged:>5} ({_pct(p.wrong_flagged, wrong_total)}) "
            f"| {p.right_flagged:>10} ({_pct(p.right_flagged, right_total)}) | {by_label}"
        )
    return "\n".join(lines)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    —"


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the exit status (2 for a bad invocation)."""
    ap = argparse.ArgumentParser(
        prog="python -m writegate.training.review",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--data", action="append", required=True, metavar="FILE.jsonl|DIR", help="labelled pairs")
    ap.add_argument("--model", type=Path, default=modeldir.default_model_dir(), help=modeldir.MODEL_HELP)
    ap.add_argument("--max-load", type=float, default=MAX_LOAD, help="largest share of right retiring labels flagged")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--write", action="store_true", help="write the chosen point into the model's writegate.json")
    args = ap.parse_args(argv)
    try:
        if not 0 <= args.max_load <= 1:
            raise InputError("--max-load", f"must be between 0 and 1, got {args.max_load}")
        if args.write:
            _rewritable_meta(args.model)  # before the model runs
        probs, gold, names = served_probabilities(args.model, args.data, args.batch_size)
        choice, points = choose_on(probs, gold, args.max_load)
        best = choice.point
        print(f"{len(gold)} pairs")
        print(table(points, choice.wrong_total, choice.right_total))
        print(
            f"chosen (at most {args.max_load:.0%} of the right ones flagged): margin {best.margin}, confidence "
            f"{best.confidence}: flags {best.wrong_flagged} of {choice.wrong_total} wrong and {best.right_flagged} "
            f"of {choice.right_total} right retiring labels"
        )
        print(by_source(probs, gold, names, ReviewPolicy(margin=best.margin, confidence=best.confidence)))
        if args.write:
            print(_write(args.model, choice))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _write(model_dir: Path, choice: Choice) -> str:
    """`--write`: write the choice into `model_dir`; what was done, in a line."""
    path = model_dir / modeldir.META_FILE
    if choice.policy is None:
        return f"not written: the data holds no wrong retiring label; {path} is unchanged"
    write_review(model_dir, choice.policy)
    if not choice.policy.active:
        return f"wrote {path}: no review entry (the chosen point flags nothing)"
    return f"wrote {path}: review margin {choice.policy.margin}, confidence {choice.policy.confidence}"


if __name__ == "__main__":
    raise SystemExit(main())
