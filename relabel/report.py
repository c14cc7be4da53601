"""`writegate relabel … --report out.html`: one self-contained page a person reads after a relabel.

What it shows: the totals per label (pairs) and per state role (memories); the edges to review
(every edge flagged `review`, which changed no role, and every `supersedes` edge, which made a
memory historical: least probable first, both texts, both dates, the five probabilities); the open
conflicts (every other `contradicts` edge but the corrections, most probable first); the
corrections (a `contradicts` edge with evidence `correction`: the later memory's speaker took the
earlier one back, which is `retracted`; nothing to review, listed so a person sees what was
settled); the subjects (most conflicts first) and, per subject, a timeline in which a superseded or
retracted memory is struck through and linked to what replaced or retracted it (each edge is listed
once, under its earlier memory); filters by subject and by label. An id that is a long UUID is
shown by its first 8 characters, the whole id in its tooltip. No external script, style sheet or
font: the data is one JSON block inside the page and a small script renders only what is
on screen (pages of 20 conflicts, 50 subjects, 200 memories), so a report of 100k memories opens as
fast as the browser parses its JSON.

The page depends on the run only (no clock is read): a rerun writes the same bytes. Deep links:
`out.html#s=user:alice&l=supersedes,contradicts`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from writegate.api.prepare import StateRole
from writegate.classifier.labels import LABELS, Label
from writegate.relabel import checkpoint
from writegate.relabel.outputs import is_correction

if TYPE_CHECKING:
    from writegate.relabel.checkpoint import Checkpoint
    from writegate.relabel.outputs import Tally
    from writegate.relabel.plan import Plan
    from writegate.relabel.store import StoreRecord

TEMPLATE = "report_template.html"
ROLES = tuple(role.value for role in StateRole)
EDGE_LABELS = tuple(label.value for label in Label if label is not Label.UNRELATED)
"""The labels shown as edges (in the order of `LABELS`); unrelated pairs are only counted."""


def short_time(dt: datetime) -> str:
    """`2026-03-01` at midnight UTC, else `2026-03-01 14:05` (UTC)."""
    dt = dt.astimezone(UTC)
    if (dt.hour, dt.minute, dt.second, dt.microsecond) == (0, 0, 0, 0):
        return f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}"
    return f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d} {dt.hour:02d}:{dt.minute:02d}"


PIECE = 5000
"""Memories or edges per piece of JSON text: the page is written piece by piece, never held whole."""


def _edge(line: Mapping[str, Any], index: Mapping[str, int]) -> list[Any]:
    scores = line["scores"]
    return [
        index[line["new_id"]],
        index[line["existing_id"]],
        LABELS.index(line["label"]),
        [scores.get(name, 0.0) for name in LABELS],
        1 if line.get("review", False) else 0,
    ]


def report_json(
    records: Sequence[StoreRecord],
    edges: Callable[[], Iterable[Mapping[str, Any]]],
    roles: Callable[[str], str],
    *,
    source: str,
    model: Mapping[str, str],
    pairs: int,
    rejected: int = 0,
) -> Iterator[str]:
    """The JSON the page renders, in pieces (two passes over `edges()`; memory: the records' index,
    the conflicts, one piece).

    Args:
        records: the relabelled records in canonical order (subject, observed_at, id).
        edges: gives the result lines (`{"new_id", "existing_id", "label", "scores", …}`, any labels) anew.
        roles: a record id → its state role.
        source: what was relabelled; model: its name and version; pairs: pairs classified;
        rejected: records not relabelled.

    Yields:
        The text of `{"meta", "labels", "roles", "totals", "role_totals", "subjects": [[name, first,
        count, contradicts, supersedes]], "conflicts": [edge…], "corrections": [edge…], "review":
        [edge…], "m": [[id, text, time, role]], "e": [[new, existing, label, [p per label], review]]}`:
        `m` and `e` index memories by position, labels and roles by their index in `labels` and
        `roles`, `conflicts` (open, most probable first), `corrections` (in the edges' order) and
        `review` (the edges flagged for review and every supersedes edge, least probable first) edges
        by position; `review` in an edge is 1 when it is flagged. No edge is in two of those lists.
    """
    index = {rec.id: i for i, rec in enumerate(records)}
    subjects, subject_of = _subjects(records)
    lists = _EdgeLists.of(edges(), index, subjects, subject_of)
    totals, kept = lists.totals, lists.kept
    subjects.sort(key=lambda s: (-s[3], -s[4], s[0]))
    role_counts = Counter(roles(rec.id) for rec in records)
    head = {
        "meta": {
            "source": source,
            "model": dict(model),
            "memories": len(records),
            "subjects": len(subjects),
            "pairs": pairs,
            "edges": kept,
            "rejected": rejected,
            "flagged": lists.flagged,
        },
        "labels": list(LABELS),
        "roles": list(ROLES),
        "totals": {name: totals.get(name, 0) for name in LABELS},
        "role_totals": {name: role_counts.get(name, 0) for name in ROLES},
        "subjects": subjects,
        "conflicts": [c[3] for c in sorted(lists.conflicts)],
        "corrections": lists.corrections,
        "review": [r[3] for r in sorted(lists.review)],
    }
    yield _dumps(head)[:-1] + ',"m":['
    for lo in range(0, len(records), PIECE):
        piece = [[r.id, r.text, short_time(r.observed_at), ROLES.index(roles(r.id))] for r in records[lo : lo + PIECE]]
        yield ("," if lo else "") + _dumps(piece)[1:-1]
    yield '],"e":['
    yield from _edge_pieces(edges(), index)
    yield "]}"


@dataclass
class _EdgeLists:
    """One pass over the result lines: the totals per label, the edges kept (all but unrelated) and the
    lists of edge positions the page shows; each edge is in at most one list."""

    totals: Counter[str] = field(default_factory=Counter)
    kept: int = 0
    flagged: int = 0
    review: list[tuple[float, int, int, int]] = field(default_factory=list)
    """Flagged edges and every supersedes edge: (p of its label, existing, new, edge position)."""
    conflicts: list[tuple[float, int, int, int]] = field(default_factory=list)
    """The other contradicts edges but corrections: (-p, existing, new, edge position)."""
    corrections: list[int] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        edges: Iterable[Mapping[str, Any]],
        index: Mapping[str, int],
        subjects: list[list[Any]],
        subject_of: list[int],
    ) -> _EdgeLists:
        """Read every line once; count each subject's contradicts and supersedes edges into `subjects`."""
        out = cls()
        for line in edges:
            label = line["label"]
            out.totals[label] += 1
            if label == Label.UNRELATED.value:
                continue
            if label in (Label.CONTRADICTS.value, Label.SUPERSEDES.value):
                new, existing = index[line["new_id"]], index[line["existing_id"]]
                subjects[subject_of[new]][3 if label == Label.CONTRADICTS.value else 4] += 1
                p = line["scores"].get(label, 0.0)
                out.flagged += bool(line.get("review", False))
                if line.get("review", False) or label == Label.SUPERSEDES.value:
                    out.review.append((p, existing, new, out.kept))
                elif is_correction(line):
                    out.corrections.append(out.kept)
                else:
                    out.conflicts.append((-p, existing, new, out.kept))
            out.kept += 1
        return out


def _subjects(records: Sequence[StoreRecord]) -> tuple[list[list[Any]], list[int]]:
    """Each subject's [name, first position, count, 0, 0] (the conflict counts to fill), and each record's subject."""
    subjects: list[list[Any]] = []
    subject_of = [0] * len(records)
    for i, rec in enumerate(records):
        if not subjects or rec.subject != subjects[-1][0]:
            subjects.append([rec.subject, i, 0, 0, 0])
        subjects[-1][2] += 1
        subject_of[i] = len(subjects) - 1
    return subjects, subject_of


def _edge_pieces(edges: Iterable[Mapping[str, Any]], index: Mapping[str, int]) -> Iterator[str]:
    """The `e` array's items (every edge but the unrelated ones), `PIECE` a piece, comma-joined."""
    piece, first = [], True
    for line in edges:
        if line["label"] != Label.UNRELATED.value:
            piece.append(_edge(line, index))
            if len(piece) == PIECE:
                yield ("" if first else ",") + _dumps(piece)[1:-1]
                piece, first = [], False
    if piece:
        yield ("" if first else ",") + _dumps(piece)[1:-1]


def report_data(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """`report_json`'s data as one object (for tests and small reports)."""
    return json.loads("".join(report_json(*args, **kwargs)))


def _dumps(obj: Any) -> str:
    # Inside <script type="application/json">: no "<", ">" or "&" can close the element or start markup.
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render(parts: Iterable[str], source: str) -> Iterator[bytes]:
    """The page, as bytes: the template with the data (`report_json`'s pieces) inlined."""
    template = resources.files("writegate.relabel").joinpath(TEMPLATE).read_text(encoding="utf-8")
    # Split at the data marker before anything is put in: no input string can move the split.
    head, marker, tail = template.partition("__DATA__")
    if not marker:
        raise RuntimeError(f"{TEMPLATE} has no __DATA__ marker")
    yield head.replace("__TITLE__", _escape(f"writegate relabel — {source}")).encode("utf-8")
    for part in parts:
        yield part.encode("utf-8")
    yield tail.encode("utf-8")


def write_report(path: Path, parts: Iterable[str], source: str) -> None:
    """Render and write the page atomically, piece by piece."""
    path.parent.mkdir(parents=True, exist_ok=True)
    checkpoint.atomic_write(path, render(parts, source))


class ReportSink:
    """Writes the report when a relabel run finishes (a `stores.base.Sink`).

    Args:
        path: the HTML file.
        source: what was relabelled (shown on the page).
    """

    def __init__(self, path: Path, *, source: str) -> None:
        self.path = Path(path)
        self.source = source
        self.model: dict[str, str] = {}

    def describe(self) -> str:
        """Where the page goes."""
        return f"report → {self.path}"

    def files(self) -> list[tuple[Path, str, str]]:
        """The page."""
        return [(self.path, "the report", "--report")]

    def check(self) -> None:
        """Nothing beyond the checks of `files()` (its folder takes a new file)."""
        return None

    def begin(self, ckpt: Checkpoint, plan: Plan, model: Mapping[str, str]) -> None:
        """Keep the model's name and version."""
        self.model = dict(model)

    def chunk(self, index: int, lines: list[str]) -> None:
        """Nothing to do per chunk."""
        return None

    def finish(self, plan: Plan, tally: Tally, lines: Callable[[], Iterator[str]]) -> None:
        """Write the page from the plan's records and every result line."""
        parts = report_json(
            plan.records,
            lambda: (json.loads(raw) for raw in lines()),
            lambda rid: tally.role(rid).value,
            source=self.source,
            model=self.model,
            pairs=len(plan.pairs),
            rejected=len(plan.rejects),
        )
        write_report(self.path, parts, self.source)

    def close(self) -> None:
        """Nothing held."""
        return None
