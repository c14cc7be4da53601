"""What a relabel run writes (the edges lines, the tally, the side files), and the checks made on
those paths before any work.

A run with `--out DIR/NAME.jsonl` writes, all in `DIR`, all named after `NAME` (the `--out` name
without its `.jsonl`), so two runs with different `--out` in one folder never share a file:

| file | holds |
| --- | --- |
| `NAME.jsonl` | the edges |
| `NAME.summary.json` | counts: records, rejects, pairs, labels, pairs to review, roles (its size does not grow with the store) |
| `NAME.rejects.jsonl` | the lines not relabelled |
| `NAME.conflicts.jsonl` | the open conflicts: the pairs labelled `contradicts` but for corrections, with both texts and dates (in the edges' order) |
| `NAME.roles.jsonl` | each memory's state role, what superseded it and what retracted it |
| `.NAME.jsonl.relabel/` | the checkpoint (the run's own work directory, deleted at the end) |

plus `--report` where it says. `check_outputs` refuses, before the store is read, any of these that
would be the `--input` file, lie in the work directory, be another of them, or be a directory,
and an output folder where a file cannot be created.

The checkpoint holds each pair's edges line (`edge_texts`); at the end `output_files` turns them into
the files above, while a `Tally` counts the labels and gathers each memory's state role (the
summary, the roles file and every `stores.base.Sink` read it). A `contradicts` line with evidence
`correction` (the later memory's speaker took the earlier one back: `classifier/correction.py`)
makes the existing memory `retracted` and leaves the new one as it is: it is no open conflict.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from writegate.api.prepare import StateRole
from writegate.classifier.columnar import Labels
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.types import Evidence
from writegate.classifier.windows import SCORE_DIGITS
from writegate.errors import InputError
from writegate.normalizer.schema import iso_utc
from writegate.relabel import checkpoint

if TYPE_CHECKING:
    from writegate.relabel.plan import Plan
    from writegate.relabel.store import Reject

SIDE_KINDS: tuple[str, ...] = ("summary.json", "rejects.jsonl", "conflicts.jsonl", "roles.jsonl")
"""The files written beside the edges, each as `NAME.<kind>`."""

EDGE_LINE_BYTES = 320
"""About what one edges line takes (two ids, five scores), for the free-space estimate."""


@dataclass(frozen=True)
class OutputPaths:
    """Every path a run writing `edges` uses (see the module docstring)."""

    edges: Path
    summary: Path
    rejects: Path
    conflicts: Path
    roles: Path

    @classmethod
    def of(cls, out: Path) -> OutputPaths:
        """The paths of the run writing the edges to `out`.

        Raises:
            InputError: `--out` names one of another run's side files (`….summary.json`,
                `….rejects.jsonl`, …), which would make two runs share a file.
        """
        for kind in SIDE_KINDS:
            if out.name.endswith("." + kind):
                raise InputError(
                    "--out", f"{out.name!r} ends like a relabel side file (.{kind}): name the edges file otherwise"
                )
        base = out.name.removesuffix(".jsonl") or out.name
        side = {kind.split(".")[0]: out.with_name(f"{base}.{kind}") for kind in SIDE_KINDS}
        return cls(edges=out, **side)

    @property
    def work_dir(self) -> Path:
        """The run's checkpoint directory."""
        return checkpoint.work_dir_for(self.edges)

    def files(self) -> Iterator[tuple[Path, str]]:
        """Each file the run writes, with what it is (for messages)."""
        yield self.edges, "the edges"
        yield self.summary, "the summary"
        yield self.rejects, "the rejects"
        yield self.conflicts, "the conflicts"
        yield self.roles, "the state roles"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare what can be compared
        return path.absolute()


def same_file(a: Path, b: Path) -> bool:
    """`a` and `b` name one file: the same resolved path, or (existing) the same inode (links)."""
    if _resolved(a) == _resolved(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def _entry(path: Path) -> Path:
    """The directory entry a write to `path` replaces: `os.replace` swaps a link at that name, never its target."""
    return _resolved(path.parent) / path.name


def _inside(path: Path, directory: Path) -> bool:
    return _resolved(path).is_relative_to(_resolved(directory)) or (
        directory.is_dir() and any(same_file(p, path) for p in directory.iterdir())
    )


def check_writable(directory: Path, flag: str) -> None:
    """Create `directory` if needed and prove a file can be created in it (a temporary one, removed).

    Raises:
        InputError: `flag`, naming the directory and why (read-only, no permission, not a directory).
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise InputError(flag, f"cannot write in {directory}: {exc.strerror or exc}") from None


def check_outputs(paths: OutputPaths, *, input_path: Path | None, others: Sequence[tuple[Path, str, str]] = ()) -> None:
    """Refuse, before any work, outputs that clash (see the module docstring).

    Args:
        paths: the run's files.
        input_path: the `--input` file (None when the store is a database or a mem0 store).
        others: more files the run writes, as (path, what it is, its flag): the `--report`.

    Raises:
        InputError: naming the flag and the path at fault.
    """
    outputs = [(path, what, "--out") for path, what in paths.files()] + list(others)
    work = paths.work_dir
    for i, (path, what, flag) in enumerate(outputs):
        if path.is_dir():
            raise InputError(flag, f"{path} ({what}) is a directory")
        if input_path is not None and same_file(path, input_path):
            raise InputError(
                flag, f"relabel would write {what} to {path}, which is the --input file: choose another {flag}"
            )
        for directory in (work, checkpoint.done_dir(work)):
            if _inside(path, directory):
                raise InputError(flag, f"{path} ({what}) is inside relabel's work directory {directory}")
        for other, other_what, _ in outputs[:i]:
            if _entry(path) == _entry(other):
                raise InputError(flag, f"{path} would hold both {other_what} and {what}: choose another path")
    if input_path is not None:
        for directory in (work, checkpoint.done_dir(work)):
            if _inside(input_path, directory):
                raise InputError(
                    "--out",
                    f"relabel keeps its checkpoint in {directory}, which holds the --input file: choose another --out",
                )
    for directory, flag in dict.fromkeys((path.parent, flag) for path, _, flag in outputs):
        check_writable(directory, flag)


def free_space_warning(paths: OutputPaths, pairs: int, records: int) -> str | None:
    """A warning when the output folder's free space looks short for `pairs` and `records`, else None.

    The estimate: each pair's line twice (checkpoint and final edges coexist until the end) plus
    ~200 bytes a record (roles, summary). It is a warning, not a refusal: edges of `unrelated`
    pairs are not kept by default, so the run usually needs less.
    """
    need = 2 * pairs * EDGE_LINE_BYTES + 200 * records
    try:
        free = shutil.disk_usage(paths.edges.parent).free
    except OSError:
        return None
    if free >= need:
        return None
    return (
        f"{paths.edges.parent} has {free / 1e6:,.0f} MB free; this run may need up to {need / 1e6:,.0f} MB "
        "(a full disk stops it; rerun to resume from the last committed chunk)"
    )


# -- the edges lines and the tally -------------------------------------------------------------------

_CONFLICTS = frozenset({Label.SUPERSEDES.value, Label.CONTRADICTS.value})
_LABEL_KEY = '"label": "'
_CORRECTION = Evidence.CORRECTION.value


def is_correction(line: Mapping[str, Any]) -> bool:
    """An edges line (parsed) in which the new memory retracts the existing one: `contradicts`, evidence
    `correction`."""
    return bool(line["label"] == Label.CONTRADICTS.value and line.get("evidence") == _CORRECTION)


def label_of(raw: str) -> str:
    """The label of an edges-file line (as `edge_texts` writes it) without parsing the rest.

    Inside a JSON string every `"` is escaped, so the first `"label": "` is the key's.
    """
    at = raw.index(_LABEL_KEY) + len(_LABEL_KEY)
    return raw[at : raw.index('"', at)]


_SCORES = "{{" + ", ".join(f'"{name}": {{}}' for name in LABELS) + "}}"


def edge_texts(ids_json: Sequence[tuple[str, str]], labels: Labels) -> list[str]:
    """Each labelled pair of a window as its edges-file line: the JSON text (`api.jsonl.json_text`) of
    `{"new_id", "existing_id", "label", "scores", "evidence", "slot_match", "review"}`, the scores rounded
    to `SCORE_DIGITS` places, formatted directly (the label says how NEW relates to EXISTING).

    Args:
        ids_json: (new_id, existing_id) per pair, in the window's pair order, each already as JSON
            text (`json_text(id)`: a store's ids recur in many pairs, `Plan.id_json` encodes each once).
        labels: the window's labels.
    """
    if len(ids_json) != len(labels):
        raise ValueError(f"{len(ids_json)} id pairs for {len(labels)} labels")
    digits = repeat(SCORE_DIGITS)
    return [
        f'{{"new_id": {new_id}, "existing_id": {existing_id}, "label": "{label}", '
        f'"scores": {_SCORES.format(*map(repr, map(round, probabilities, digits)))}, "evidence": "{evidence}", '
        f'"slot_match": {"true" if slot_match else "false"}, "review": {"true" if review else "false"}}}'
        for (new_id, existing_id), (label, probabilities, evidence, slot_match, review) in zip(
            ids_json, labels.rows(), strict=True
        )
    ]


class Tally:
    """The counts and state roles of a run's edges lines: the summary, the roles file and the sinks read it.

    Attributes:
        labels: edges lines per label (every line counted, written or not).
        written: lines written to the edges file (`output_files` counts them).
        superseded_by: a record id → the ids of the records that superseded it, in the edges' order.
        retracted_by: a record id → the ids of the records that retracted it (corrections), in the edges' order.
        in_conflict: the ids of the records in a `contradicts` pair that is not a correction.
        corrections: `contradicts` lines that are corrections.
        review: lines flagged `review` per label: they change no role (a person decides).
    """

    def __init__(self) -> None:
        self.labels: Counter[str] = Counter()
        self.written = 0
        self.superseded_by: dict[str, list[str]] = defaultdict(list)
        self.retracted_by: dict[str, list[str]] = defaultdict(list)
        self.in_conflict: set[str] = set()
        self.corrections = 0
        self.review: Counter[str] = Counter()

    @classmethod
    def of(cls, lines: Iterable[str]) -> Tally:
        """The tally of every edges line in `lines`."""
        tally = cls()
        for raw in lines:
            tally.add_line(raw)
        return tally

    def add_line(self, raw: str) -> str:
        """Count one edges-file line; returns its label (only a conflict's line is parsed whole)."""
        label = label_of(raw)
        if label in _CONFLICTS:
            self.add(json.loads(raw))
        else:
            self.labels[label] += 1
        return label

    def add(self, line: Mapping[str, Any]) -> None:
        """Count one edges line, parsed (`{"label", "existing_id", "new_id", …}`)."""
        label = line["label"]
        self.labels[label] += 1
        if line.get("review", False):  # absent from lines written before the review flag
            self.review[label] += 1
            return
        if label == Label.SUPERSEDES.value:
            self.superseded_by[line["existing_id"]].append(line["new_id"])
        elif is_correction(line):
            self.retracted_by[line["existing_id"]].append(line["new_id"])
            self.corrections += 1
        elif label == Label.CONTRADICTS.value:
            self.in_conflict.update((line["existing_id"], line["new_id"]))

    def role(self, record_id: str) -> StateRole:
        """A record's state role: retracted once its speaker took it back (it was never true), else
        historical once superseded, else in conflict, else current."""
        if record_id in self.retracted_by:
            return StateRole.RETRACTED
        if record_id in self.superseded_by:
            return StateRole.HISTORICAL
        if record_id in self.in_conflict:
            return StateRole.IN_CONFLICT
        return StateRole.CURRENT


# -- the files ---------------------------------------------------------------------------------------


def output_files(
    paths: OutputPaths,
    plan: Plan,
    lines: Callable[[], Iterator[str]],
    tally: Tally,
    *,
    keep_unrelated: bool,
    summary: Mapping[str, Any],
) -> dict[Path, Iterator[bytes]]:
    """Each file of the run and its bytes, made as they are written (`Checkpoint.finalize`), in the
    order they must be written: the roles and the summary read the tally the edges fill.

    Args:
        paths: the run's files.
        plan: the run's plan.
        lines: gives every edges line anew (the checkpoint's).
        tally: empty; filled as the edges file is written.
        keep_unrelated: write the pairs labelled unrelated to the edges file too.
        summary: the summary's head: `input`, `model` and `options` (written first, as given).
    """
    return {
        paths.rejects: _rejects_bytes(plan.rejects),
        paths.edges: _edges_bytes(lines(), tally, keep_unrelated),
        paths.conflicts: _conflicts_bytes(plan, lines()),
        paths.roles: _roles_bytes(plan, tally),
        paths.summary: _summary_bytes(plan, tally, paths, summary),
    }


def _edges_bytes(lines: Iterable[str], tally: Tally, keep_unrelated: bool) -> Iterator[bytes]:
    for raw in lines:
        if tally.add_line(raw) != Label.UNRELATED.value or keep_unrelated:
            tally.written += 1
            yield raw.encode("utf-8") + b"\n"


def _summary_bytes(plan: Plan, tally: Tally, paths: OutputPaths, head: Mapping[str, Any]) -> Iterator[bytes]:
    # A generator: it runs after the edges generator is exhausted, when the tally is complete.
    role_counts = Counter(tally.role(r.id).value for r in plan.records)
    by_field = Counter(r.field for r in plan.rejects)
    summary = {
        **head,
        "records": {
            "lines": plan.lines,
            "accepted": len(plan.records),
            "rejected": len(plan.rejects),
            "subjects": len({r.subject for r in plan.records}),
        },
        "rejects": {"file": paths.rejects.name, "count": len(plan.rejects), "by_field": dict(sorted(by_field.items()))},
        "pairs": {
            "classified": len(plan.pairs),
            "written": tally.written,
            "corrections": tally.corrections,
            "review": sum(tally.review.values()),
        },
        "labels": {label.value: tally.labels.get(label.value, 0) for label in Label},
        "roles": {role.value: role_counts.get(role.value, 0) for role in StateRole},
        "files": {
            "edges": paths.edges.name,
            "rejects": paths.rejects.name,
            "conflicts": paths.conflicts.name,
            "roles": paths.roles.name,
        },
    }
    yield (json.dumps(summary, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _rejects_bytes(rejects: Sequence[Reject]) -> Iterator[bytes]:
    for r in rejects:
        # ASCII escapes: a rejected line may hold invalid UTF-8 (kept as lone surrogates).
        yield (json.dumps(r.model_dump(exclude_none=True), ensure_ascii=True) + "\n").encode("ascii")


def _conflicts_bytes(plan: Plan, lines: Iterable[str]) -> Iterator[bytes]:
    """The open conflicts (contradicts pairs but for corrections), in the edges' order, with both texts
    and dates (one line each)."""
    by_id = {r.id: r for r in plan.records}
    for raw in lines:
        if label_of(raw) != Label.CONTRADICTS.value:
            continue
        line = json.loads(raw)
        if is_correction(line):
            continue
        e, n = by_id[line["existing_id"]], by_id[line["new_id"]]
        conflict = {
            "subject": e.subject,
            "existing_id": e.id,
            "existing_text": e.text,
            "existing_observed_at": iso_utc(e.observed_at),
            "new_id": n.id,
            "new_text": n.text,
            "new_observed_at": iso_utc(n.observed_at),
            "scores": line["scores"],
        }
        yield (json.dumps(conflict, ensure_ascii=False) + "\n").encode("utf-8")


def _roles_bytes(plan: Plan, tally: Tally) -> Iterator[bytes]:
    """Each record's state role and the records that superseded or retracted it (canonical order, one
    line each)."""
    for r in plan.records:
        line: dict[str, str | list[str]] = {"id": r.id, "subject": r.subject, "role": tally.role(r.id).value}
        if r.id in tally.superseded_by:
            line["superseded_by"] = tally.superseded_by[r.id]
        if r.id in tally.retracted_by:
            line["retracted_by"] = tally.retracted_by[r.id]
        yield (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
