"""ProSeCCo: two propositions by one speaker in one debate, self-contradictory or not.

Both sides are observed at the same moment (same speaker, same debate), so a conflict cannot be a
change over time:
- self-contradiction → `contradicts` when the two share at least `MIN_OVERLAP` (Jaccard) of their
  content words: on a 40-row sample most pairs below that showed no conflict without the debate's
  context (26/40 unfiltered, 5/32 kept above it)
- no self-contradiction → `unrelated` only when the two share no content word; the rest is left
  out: on a 50-row sample about half were same-topic, compatible statements (`elaborates`) and half
  had no bearing on each other (`unrelated`), too mixed for either label.
Rows repeated with one id are read once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, content_words, jaccard, later, make, moment, present

NAME = "prosecco"
MIN_OVERLAP = 0.25


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map ProSeCCo rows to labelled pairs; group = corpus and speaker (their texts recur)."""
    seen: set[str] = set()
    for r in rows:
        rid = str(r.get("id"))
        if rid in seen or not isinstance(r.get("a"), str) or not isinstance(r.get("b"), str):
            continue
        seen.add(rid)
        yield from present([pair(r)])


def pair(r: Row) -> Mapped | None:
    """The pair of one row, or None when its label maps to nothing."""
    rid, group = str(r["id"]), f"{r.get('corpus')}:{r.get('speaker')}"
    when = moment(group)
    wa, wb = content_words(r["a"]), content_words(r["b"])
    if r.get("label") == "self-contradiction" and jaccard(wa, wb) >= MIN_OVERLAP:
        return make(
            group, f"{rid}:contradicts", Label.CONTRADICTS, f"{NAME}.self_contradiction", (r["a"], when), (r["b"], when)
        )
    if r.get("label") == "no self-contradiction" and not wa & wb:
        return make(
            group,
            f"{rid}:unrelated",
            Label.UNRELATED,
            f"{NAME}.no_contradiction_disjoint",
            (r["a"], when),
            (r["b"], later(rid, when)),
        )
    return None
