"""Helpers shared by the test modules (not a test module): CLI argument lists, small training data,
the design examples of labels.md, word-soup strategies for the never-raise property tests, and a
rule-based relabel engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from writegate.classifier.columnar import EVIDENCE, Labels, PairWindow
from writegate.classifier.correction import apply_corrections, may_correct
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.review import ReviewPolicy
from writegate.classifier.types import Evidence

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from writegate.relabel.plan import Plan

# -- the command line -------------------------------------------------------------------------------


def argv(command: str, *extra: object, **flags: object) -> list[str]:
    """The argument list `command --flag value … extra…`, every item a string.

    A keyword is a flag: `max_steps=3` → `--max-steps 3`, a one-letter name → `-k 4`; `True` gives the
    bare flag, `False` or `None` leaves it out, a list or tuple repeats the flag once per value. Flags
    come in keyword order, then `extra` as it is.
    """
    out = [command]
    for name, value in flags.items():
        flag = f"-{name}" if len(name) == 1 else "--" + name.replace("_", "-")
        if value is True:
            out.append(flag)
        elif value is not None and value is not False:
            for one in value if isinstance(value, list | tuple) else [value]:
                out += [flag, str(one)]
    return out + [str(x) for x in extra]


def cli(command: str, *extra: object, **flags: object) -> int:
    """`writegate command …` in this process (see `argv`): its exit code."""
    from writegate.cli.main import main

    return main(argv(command, *extra, **flags))


# -- training data ----------------------------------------------------------------------------------


def write_jsonl(path: Path, rows: list[object]) -> Path:
    """One line per row: a string as it is, anything else as JSON."""
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


TEMPLATES = [
    ("{a} owns the {x} account", "{x} was handed off to {b} in June", "2026-06-20", "supersedes"),
    ("{a} owns the {x} account", "{b} owns the {x} account, per the CRM export", "2026-03-01", "contradicts"),
    ("{a} prefers morning meetings", "{a} prefers meetings 9-10am on Tuesdays", "2026-04-01", "elaborates"),
    ("{a} prefers meetings 9-10am", "{a} likes to meet in the morning", "2026-04-01", "corroborates"),
    ("{a} prefers concise answers", "{b}'s dog is named Biscuit", "2026-03-02", "unrelated"),
]


def small_data(path: Path, n: int = 16) -> Path:
    """`n` labelled pairs from five templates (families fam0–fam4)."""
    names = ["Michelle", "Marcus", "Priya", "Tom", "Ana", "Omar"]
    rows: list[object] = []
    for i in range(n):
        e, nw, date, label = TEMPLATES[i % 5]
        a, b, x = names[i % 6], names[(i + 1) % 6], ["Acme", "Globex", "Initech"][i % 3]
        rows.append(
            {
                "id": f"p{i}",
                "existing": {"text": e.format(a=a, b=b, x=x), "observed_at": "2026-03-01"},
                "new": {"text": nw.format(a=a, b=b, x=x), "observed_at": date},
                "label": label,
                "family": f"fam{i % 5}-{i % 2}",
                "slot": f"slot{i % 5}",
            }
        )
    return write_jsonl(path, rows)


# a short run: 3 steps of 4 pairs, one evaluation at the end (the best checkpoint is the last one, not the
# untrained start), no fp32 ONNX
QUICK_TRAIN = {"max_steps": 3, "eval_steps": 3, "batch_size": 4, "lr": "1e-3", "quiet": True, "drop_fp32_onnx": True}


def quick_train_argv(base: Path, tmp_path: Path, out: Path, *extra: object) -> list[str]:
    """`train` on 24 small pairs (dev: 10) from `base` into `out`, QUICK_TRAIN; `extra` last."""
    paths = {"data": small_data(tmp_path / "train.jsonl", 24), "dev": small_data(tmp_path / "dev.jsonl", 10)}
    return argv("train", *extra, **paths, base=base, out=out, **QUICK_TRAIN)


# -- the design examples ----------------------------------------------------------------------------

# labels.md's examples, as (existing text, its date, new text, its date, label)
DESIGN_EXAMPLES = [
    (
        "Michelle owns the Acme account",
        "2026-03-01",
        "Acme was handed off to Marcus in June",
        "2026-06-20",
        "supersedes",
    ),
    ("User was born in Lyon", "2026-01-01", "User was born in Marseille", "2026-04-01", "contradicts"),
    ("User prefers concise answers", "2026-01-01", "User's dog is named Biscuit", "2026-01-02", "unrelated"),
    ("User works in EST", "2025-11-03", "User moved to London last month", "2026-05-02", "supersedes"),
]


def example_ids(examples: list[tuple[str, str, str, str, str]]) -> list[str]:
    """Test ids for (existing, date, new, date, label) examples: the label and the position."""
    return [f"{e[4]}-{i}" for i, e in enumerate(examples)]


# -- word soups -------------------------------------------------------------------------------------


def word_soup(vocabulary: str, max_size: int) -> SearchStrategy[str]:
    """Texts of up to `max_size` words drawn from `vocabulary` (words, or phrases, separated by " | ")."""
    from hypothesis import strategies as st

    return st.lists(st.sampled_from(vocabulary.split(" | ")), max_size=max_size).map(" ".join)


class RuleEngine:
    """A relabel engine that labels pairs by their texts: the pipeline without a model.

    The evidence is `both`, but for a `contradicts` pair that is a correction (the real post step:
    `classifier/correction.py`).

    Args:
        rules: (existing text, new text) → (label, its probability); the other labels share the
            rest equally (rounded to 6 decimals). Pairs without a rule get `default`.
        default: the label and probability of a pair without a rule.
        review: the review thresholds (the real rule: `classifier/review.py`); None flags nothing.
    """

    name = "rules"

    def __init__(
        self,
        rules: Mapping[tuple[str, str], tuple[Label, float]],
        default: tuple[Label, float] = (Label.UNRELATED, 0.6),
        review: ReviewPolicy | None = None,
    ) -> None:
        self.rules = dict(rules)
        self.default = default
        self.review = review
        self.seen: list[int] = []
        """The chunk indices labelled, in order."""

    def fingerprint(self) -> dict[str, Any]:
        return {"rules": sorted(f"{a}|{b}|{c.value}|{p}" for (a, b), (c, p) in self.rules.items())}

    def model_info(self) -> dict[str, str]:
        return {"name": "rules", "version": "1"}

    def plan_mapper(self) -> None:
        return None

    def close(self) -> None:
        return None

    def label_chunks(self, chunks: Iterator[PairWindow], plan: Plan) -> Iterator[Labels]:
        for window in chunks:
            self.seen.append(window.index)
            found = [
                self.rules.get((window.memories[e].text, window.memories[n].text), self.default)
                for e, n in window.pairs
            ]
            label = np.array([LABELS.index(lab.value) for lab, _ in found], dtype=np.int64)
            probs = np.array(
                [
                    [p if i == k else round((1 - p) / 4, 6) for i in range(len(LABELS))]
                    for k, (_, p) in zip(label, found, strict=True)
                ]
            )
            probs = probs.reshape(len(found), len(LABELS))
            evidence = np.full(len(found), EVIDENCE.index(Evidence.BOTH), dtype=np.int8)
            apply_corrections(probs, evidence, may_correct(window.memories, window.pairs))
            yield Labels(
                index=window.index,
                probabilities=probs,
                label=label,
                evidence=evidence,
                slot_match=label != LABELS.index(Label.UNRELATED.value),
                review=None if self.review is None else self.review.flags(probs, label),
            )


# -- relabel outputs --------------------------------------------------------------------------------


def relabel_side(out: Path, kind: str) -> Path:
    """A relabel run's side file beside `out` (`kind`: summary.json, rejects.jsonl, conflicts.jsonl, roles.jsonl)."""
    return out.with_name(f"{out.name.removesuffix('.jsonl')}.{kind}")


def relabel_summary(out: Path) -> dict[str, Any]:
    """The run's summary."""
    return json.loads(relabel_side(out, "summary.json").read_text(encoding="utf-8"))


def relabel_jsonl(out: Path, kind: str) -> list[dict[str, Any]]:
    """The lines of one of the run's JSONL side files (rejects, conflicts, roles)."""
    return [json.loads(x) for x in relabel_side(out, kind).read_text(encoding="utf-8").splitlines()]


def relabel_roles(out: Path) -> dict[str, str]:
    """Each record's state role (from the roles file)."""
    return {line["id"]: line["role"] for line in relabel_jsonl(out, "roles.jsonl")}


def relabel_superseded_by(out: Path) -> dict[str, list[str]]:
    """The records that were superseded, and by which records."""
    return {line["id"]: line["superseded_by"] for line in relabel_jsonl(out, "roles.jsonl") if "superseded_by" in line}
