"""`writegate relabel … --report out.html`: one self-contained page a person reads after a relabel.

What it shows: the totals per label and per state role; the conflicts to review first (every
`contradicts` edge, most probable first: both texts, both dates, the five probabilities); the
subjects (most conflicts first) and, per subject, a timeline in which a superseded memory is struck
through and linked to what replaced it; filters by subject and by label. No external script, style
sheet or font: the data is one JSON block inside the page and a small script renders only what is
on screen (pages of 20 conflicts, 50 subjects, 200 memories), so a report of 100k memories opens as
fast as the browser parses its JSON.

The page depends on the run only (no clock is read): a rerun writes the same bytes. Deep links:
`out.html#s=user:alice&l=supersedes,contradicts`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from writegate.classifier.labels import LABELS, Label
from writegate.relabel import checkpoint

if TYPE_CHECKING:
    from writegate.relabel.checkpoint import Checkpoint
    from writegate.relabel.engine import Plan, StoreRecord, _Tally

TEMPLATE = "report_template.html"
ROLES = ("current", "historical", "in_conflict")
EDGE_LABELS = tuple(label.value for label in Label if label is not Label.UNRELATED)
"""The labels shown as edges (in the order of `LABELS`); unrelated pairs are only counted."""


def short_time(dt: datetime) -> str:
    """`2026-03-01` at midnight UTC, else `2026-03-01 14:05` (UTC)."""
    dt = dt.astimezone(timezone.utc)
    if (dt.hour, dt.minute, dt.second, dt.microsecond) == (0, 0, 0, 0):
        return f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}"
    return f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d} {dt.hour:02d}:{dt.minute:02d}"


def report_data(
    records: Sequence[StoreRecord],
    edges: Iterable[Mapping[str, Any]],
    roles: Callable[[str], str],
    *,
    source: str,
    model: Mapping[str, str],
    pairs: int,
    rejected: int = 0,
) -> dict[str, Any]:
    """The JSON the page renders.

    Args:
        records: the relabelled records in canonical order (subject, observed_at, id).
        edges: the result lines (`{"new_id", "existing_id", "label", "scores", …}`), any labels.
        roles: a record id → its state role.
        source: what was relabelled; model: its name and version; pairs: pairs classified;
        rejected: records not relabelled.

    Returns:
        `{"meta", "labels", "totals", "roles", "subjects": [[name, first, count, conflicts, superseded]],
        "m": [[id, text, time, role]], "e": [[new, existing, label, [p per label]]], "conflicts": [edge…]}`;
        `m` and `e` index memories by position, labels and roles by their index in `labels` and `roles`.
    """
    index = {rec.id: i for i, rec in enumerate(records)}
    memories = [[rec.id, rec.text, short_time(rec.observed_at), ROLES.index(roles(rec.id))] for rec in records]
    totals: Counter[str] = Counter()
    out_edges: list[list[Any]] = []
    for line in edges:
        label = line["label"]
        totals[label] += 1
        if label == Label.UNRELATED.value:
            continue
        scores = line["scores"]
        out_edges.append([index[line["new_id"]], index[line["existing_id"]], LABELS.index(label),
                          [scores.get(name, 0.0) for name in LABELS]])
    contradicts = LABELS.index(Label.CONTRADICTS.value)
    supersedes = LABELS.index(Label.SUPERSEDES.value)
    conflicts = sorted((i for i, e in enumerate(out_edges) if e[2] == contradicts),
                       key=lambda i: (-out_edges[i][3][contradicts], out_edges[i][1], out_edges[i][0]))

    subjects: list[list[Any]] = []
    start = 0
    subject_of = [0] * len(records)
    while start < len(records):
        end = start
        while end < len(records) and records[end].subject == records[start].subject:
            subject_of[end] = len(subjects)
            end += 1
        subjects.append([records[start].subject, start, end - start, 0, 0])
        start = end
    for e in out_edges:
        if e[2] == contradicts:
            subjects[subject_of[e[0]]][3] += 1
        elif e[2] == supersedes:
            subjects[subject_of[e[0]]][4] += 1
    order = sorted(range(len(subjects)), key=lambda s: (-subjects[s][3], -subjects[s][4], subjects[s][0]))
    role_counts = Counter(m[3] for m in memories)
    return {
        "meta": {"source": source, "model": dict(model), "memories": len(records), "subjects": len(subjects),
                 "pairs": pairs, "edges": len(out_edges), "rejected": rejected},
        "labels": list(LABELS),
        "roles": list(ROLES),
        "totals": {name: totals.get(name, 0) for name in LABELS},
        "role_totals": {name: role_counts.get(i, 0) for i, name in enumerate(ROLES)},
        "subjects": [subjects[s] for s in order],
        "m": memories,
        "e": out_edges,
        "conflicts": conflicts,
    }


def _script_json(data: Mapping[str, Any]) -> str:
    # Inside <script type="application/json">: no "<", ">" or "&" can close the element or start markup.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def render(data: Mapping[str, Any]) -> str:
    """The page: the template with the data inlined."""
    template = resources.files("writegate.relabel").joinpath(TEMPLATE).read_text(encoding="utf-8")
    title = f"writegate relabel — {data['meta']['source']}"
    page = template.replace("__TITLE__", _escape(title))
    head, marker, tail = page.partition("__DATA__")
    if not marker:
        raise RuntimeError(f"{TEMPLATE} has no __DATA__ marker")
    return head + _script_json(data) + tail


def write_report(path: Path, data: Mapping[str, Any]) -> None:
    """Render and write the page atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    checkpoint.atomic_write(path, render(data).encode("utf-8"))


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

    def begin(self, ckpt: Checkpoint, plan: Plan, model: Mapping[str, str]) -> None:
        """Keep the model's name and version."""
        self.model = dict(model)

    def chunk(self, index: int, lines: list[str]) -> None:
        """Nothing to do per chunk."""
        return None

    def finish(self, plan: Plan, tally: _Tally, lines: Callable[[], Iterator[str]]) -> None:
        """Write the page from the plan's records and every result line."""
        data = report_data(plan.records, (json.loads(raw) for raw in lines()), lambda rid: tally.role(rid).value,
                           source=self.source, model=self.model, pairs=len(plan.pairs), rejected=len(plan.rejects))
        write_report(self.path, data)

    def close(self) -> None:
        """Nothing held."""
        return None
