"""Helpers shared by the test modules (not a test module): CLI argument lists, small training data,
the design examples of labels.md, and word-soup strategies for the never-raise property tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

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
