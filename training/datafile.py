"""Labelled pair files (JSONL): reading and validating them before any training starts.

One line per pair::

    {"id": "...", "existing": {"text": "...", "observed_at": "2026-03-01"},
     "new": {"text": "...", "observed_at": "2026-06-20"}, "label": "supersedes",
     "family": "...", "slot": "..."}

`id`, `family`, `slot` are optional (a missing id becomes `line-N`); each side may carry a
`subject` (`kind:slug`, default `user:default`). Every bad line is reported with its line number,
all at once, before training.

A teacher's probabilities for the pairs of a file (distillation, `writegate train --soft`) are
`writegate classify`'s output for that file: line N's `scores` belong to line N's pair. With them a
pair needs no `label`: it is learnt from the teacher alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from writegate.api.jsonl import JsonLineError, open_lines, read_json_lines
from writegate.api.pairs import parse_pair
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.types import Pair, Side
from writegate.errors import InputError

MAX_REPORTED = 50
SUM_TOLERANCE = 1e-3  # classify rounds each probability to 6 decimals


@dataclass(frozen=True)
class Example:
    """A labelled pair; with a teacher, its probabilities too.

    `label` is the gold label, or, for a pair that has none (`gold` False), the teacher's top label.
    `soft` holds the teacher's probabilities in `LABELS` order.
    """

    id: str
    pair: Pair
    label: Label
    family: str | None = None
    slot: str | None = None
    soft: tuple[float, ...] | None = None
    gold: bool = True

    def to_json(self) -> dict[str, Any]:
        """The JSONL form (inverse of `parse_example`)."""
        out: dict[str, Any] = {"id": self.id, **pair_json(self.pair)}
        if self.gold:
            out["label"] = self.label.value
        if self.family is not None:
            out["family"] = self.family
        if self.slot is not None:
            out["slot"] = self.slot
        return out


def pair_json(pair: Pair) -> dict[str, dict[str, str]]:
    """A pair's `existing` and `new` as a pair line writes them."""

    def side(s: Side) -> dict[str, str]:
        return {"text": s.text, "observed_at": s.observed_at.isoformat(), "subject": s.subject}

    return {"existing": side(pair.existing), "new": side(pair.new)}


class DataFileError(InputError):
    """A data file with bad lines; `problems` holds (line number, message) for each."""

    def __init__(self, path: Path, problems: Sequence[tuple[int, str]], n_lines: int) -> None:
        shown = "\n".join(f"  line {n}: {msg}" for n, msg in problems[:MAX_REPORTED])
        more = f"\n  … and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        super().__init__(str(path), f"{len(problems)} bad line(s) of {n_lines}:\n{shown}{more}")
        self.problems = list(problems)


def parse_example(obj: object, line_no: int, soft: tuple[float, ...] | None = None) -> Example:
    """Parse one labelled line; with the teacher's probabilities `soft`, the label may be missing."""
    pair = parse_pair(obj)
    assert isinstance(obj, dict)
    from writegate.classifier.labels import parse_label

    if "label" in obj:
        label, gold = parse_label(obj["label"]), True
    elif soft is not None:
        label, gold = Label(LABELS[max(range(len(LABELS)), key=soft.__getitem__)]), False
    else:
        raise InputError("label", f"is missing; expected one of {', '.join(LABELS)}")
    return Example(
        id=str(obj.get("id", f"line-{line_no}")),
        pair=pair,
        label=label,
        family=_opt_str(obj.get("family")),
        slot=_opt_str(obj.get("slot")),
        soft=soft,
        gold=gold,
    )


def parse_scores(obj: object) -> tuple[float, ...]:
    """A `writegate classify` output line's `scores`: the five probabilities, in `LABELS` order.

    Raises:
        InputError: an error line, or `scores` without the five labels as probabilities summing to 1.
    """
    if not isinstance(obj, dict):
        raise InputError("scores", "the line is not a JSON object")
    if "error" in obj:
        raise InputError("scores", f"the teacher failed on this pair: {obj['error']}")
    scores = obj.get("scores")
    if not isinstance(scores, dict) or sorted(scores) != sorted(LABELS):
        raise InputError("scores", f"must map each of {', '.join(LABELS)} to a probability")
    values = tuple(scores[name] for name in LABELS)
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1 for v in values):
        raise InputError("scores", "each probability must be a number in [0, 1]")
    if abs(sum(values) - 1) > SUM_TOLERANCE:
        raise InputError("scores", f"the probabilities sum to {sum(values):.4f}, not 1")
    return tuple(float(v) for v in values)


def _problem(error: JsonLineError) -> str:
    # The JSON rung keeps its former "bad JSON: ..." wording here (tests/test_training.py pins it).
    if error.kind == "json":
        return "bad JSON: " + error.message.removeprefix("is not valid JSON: ")
    return str(error)


def read_examples(path: str | Path, soft: str | Path | None = None) -> list[Example]:
    """Read and validate a labelled JSONL file; `soft`: the teacher's probabilities for it (see the module).

    Raises:
        InputError: a file is missing or empty, or `soft` does not have one line per pair.
        DataFileError: one or more bad lines (each reported with its number).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("data", f"{path} does not exist")
    teacher = _read_scores(Path(soft)) if soft is not None else None
    examples: list[Example] = []
    problems: list[tuple[int, str]] = []
    n_lines = last = 0
    for line in read_json_lines(open_lines(path, field="data")):
        n_lines, last = n_lines + 1, line.number
        if line.error is not None:
            problems.append((line.number, _problem(line.error)))
            continue
        try:
            if teacher is None:
                examples.append(parse_example(line.value, line.number))
                continue
            if line.number > len(teacher):
                raise InputError("soft", f"{soft} has no line {line.number}")
            scores, echo = teacher[line.number - 1]
            if isinstance(scores, InputError):
                raise InputError("soft", f"line {line.number} of {soft}: {scores}")
            if isinstance(line.value, dict) and echo is not None and echo != line.value.get("id"):
                raise InputError(
                    "soft", f"line {line.number} of {soft} is for id {echo!r}, not {line.value.get('id')!r}"
                )
            examples.append(parse_example(line.value, line.number, scores))
        except InputError as exc:
            problems.append((line.number, str(exc)))
    if teacher is not None and len(teacher) != last and not problems:
        raise InputError("soft", f"{soft} has {len(teacher)} lines for the {last} of {path}")
    if problems:
        raise DataFileError(path, problems, n_lines)
    if not examples:
        raise InputError("data", f"{path} has no examples")
    return examples


def _read_scores(path: Path) -> list[tuple[tuple[float, ...] | InputError, str | None]]:
    """Each line's probabilities (or what is wrong with them) and the id it echoes."""
    if not path.is_file():
        raise InputError("soft", f"{path} does not exist")
    out: list[tuple[tuple[float, ...] | InputError, str | None]] = []
    for line in read_json_lines(open_lines(path, field="soft"), skip_blank=False):
        echo = line.value.get("id") if isinstance(line.value, dict) else None
        try:
            if line.error is not None:
                raise InputError("scores", _problem(line.error))
            out.append((parse_scores(line.value), echo if isinstance(echo, str) else None))
        except InputError as exc:
            out.append((exc, None))
    return out


def write_examples(path: str | Path, examples: Iterable[Example]) -> Path:
    """Write examples as JSONL."""
    path = Path(path)
    with path.open("w", encoding="utf-8") as fh:
        for ex in examples:
            fh.write(json.dumps(ex.to_json(), ensure_ascii=False) + "\n")
    return path


def _opt_str(v: object) -> str | None:
    return None if v is None else str(v)
