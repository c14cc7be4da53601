"""Labelled pair files (JSONL): reading and validating them before any training starts.

One line per pair::

    {"id": "...", "existing": {"text": "...", "observed_at": "2026-03-01"},
     "new": {"text": "...", "observed_at": "2026-06-20"}, "label": "supersedes",
     "family": "...", "slot": "..."}

`id`, `family`, `slot` are optional (a missing id becomes `line-N`); each side may carry a
`subject` (`kind:slug`, default `user:default`). Every bad line is reported with its line number,
all at once, before training.
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


@dataclass(frozen=True)
class Example:
    """A labelled pair."""

    id: str
    pair: Pair
    label: Label
    family: str | None = None
    slot: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSONL form (inverse of `parse_example`)."""

        def side(s: Side) -> dict[str, str]:
            return {"text": s.text, "observed_at": s.observed_at.isoformat(), "subject": s.subject}

        out: dict[str, Any] = {
            "id": self.id,
            "existing": side(self.pair.existing),
            "new": side(self.pair.new),
            "label": self.label.value,
        }
        if self.family is not None:
            out["family"] = self.family
        if self.slot is not None:
            out["slot"] = self.slot
        return out


class DataFileError(InputError):
    """A data file with bad lines; `problems` holds (line number, message) for each."""

    def __init__(self, path: Path, problems: Sequence[tuple[int, str]], n_lines: int) -> None:
        shown = "\n".join(f"  line {n}: {msg}" for n, msg in problems[:MAX_REPORTED])
        more = f"\n  … and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        super().__init__(str(path), f"{len(problems)} bad line(s) of {n_lines}:\n{shown}{more}")
        self.problems = list(problems)


def parse_example(obj: object, line_no: int) -> Example:
    """Parse one labelled line."""
    pair = parse_pair(obj)
    assert isinstance(obj, dict)
    if "label" not in obj:
        raise InputError("label", f"is missing; expected one of {', '.join(LABELS)}")
    from writegate.classifier.labels import parse_label

    label = parse_label(obj["label"])
    return Example(
        id=str(obj.get("id", f"line-{line_no}")),
        pair=pair,
        label=label,
        family=_opt_str(obj.get("family")),
        slot=_opt_str(obj.get("slot")),
    )


def _problem(error: JsonLineError) -> str:
    # The JSON rung keeps its former "bad JSON: ..." wording here (tests/test_training.py pins it).
    if error.kind == "json":
        return "bad JSON: " + error.message.removeprefix("is not valid JSON: ")
    return str(error)


def read_examples(path: str | Path) -> list[Example]:
    """Read and validate a labelled JSONL file.

    Raises:
        InputError: the file is missing or empty.
        DataFileError: one or more bad lines (each reported with its number).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("data", f"{path} does not exist")
    examples: list[Example] = []
    problems: list[tuple[int, str]] = []
    n_lines = 0
    for line in read_json_lines(open_lines(path, field="data")):
        n_lines += 1
        if line.error is not None:
            problems.append((line.number, _problem(line.error)))
            continue
        try:
            examples.append(parse_example(line.value, line.number))
        except InputError as exc:
            problems.append((line.number, str(exc)))
    if problems:
        raise DataFileError(path, problems, n_lines)
    if not examples:
        raise InputError("data", f"{path} has no examples")
    return examples


def write_examples(path: str | Path, examples: Iterable[Example]) -> Path:
    """Write examples as JSONL."""
    path = Path(path)
    with path.open("w", encoding="utf-8") as fh:
        for ex in examples:
            fh.write(json.dumps(ex.to_json(), ensure_ascii=False) + "\n")
    return path


def _opt_str(v: object) -> str | None:
    return None if v is None else str(v)
