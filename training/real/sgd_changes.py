"""Schema-Guided Dialogue: a user's request, then a later turn where a booked slot has another value.

Both utterances are kept as written (the user's own words are the point) and observed minutes
apart on one day: old → new is `supersedes` (the user changed the booking). Kept only when the
change is visible and meant:
- the old value is in the old utterance and the new value in the new one;
- the new utterance carries a change cue ("actually", "instead", "change", "rather", "no,",
  "make it", "on second thought"…). Without one many rows browse alternatives ("What about
  Phoenix?", "What's my savings balance?"), which replace nothing.
The source has no "same value repeated" rows, so no `corroborates` pairs come from it.

Hard negatives → `unrelated`: in a dialogue where the user books two kinds of service (a restaurant,
then a cab), the request of the first service against the later request of the other, minutes
apart: the same person, another attribute, a later time, and nothing replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import timedelta

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, make, moment, present, stable_int

NAME = "sgd_changes"
CHANGE_CUE = re.compile(
    r"\b(actually|instead|change|changed|changing|rather|switch|modify|on second thought|make it|make that|"
    r"scratch that|not correct|that's wrong|that is wrong|i meant|mistake|sorry|wait|nope|no)\b",
    re.I,
)


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map SGD change rows to `supersedes` pairs and other-service `unrelated` pairs; group = the split
    and dialogue id."""
    dialogues: dict[str, list[Row]] = {}
    for r in rows:
        if is_change(r):
            yield from present([pair(r)])
        dialogues.setdefault(group_of(r), []).append(r)
    for group, turns in dialogues.items():
        yield from present(other_service_pairs(group, turns))


def group_of(r: Row) -> str:
    """The split group: the split and the dialogue."""
    return f"{r.get('split')}:{r.get('dialogue_id', r.get('id'))}"


def domain(r: Row) -> str:
    """The kind of service: `Restaurants_2` → `Restaurants`."""
    return str(r.get("service", "")).split("_")[0]


def other_service_pairs(group: str, turns: list[Row]) -> Iterator[Mapped | None]:
    """Each request of one service → the first later request of another service in the dialogue."""
    usable = [r for r in turns if value_said(r, "old")]
    for i, first in enumerate(usable):
        later_turn = next((r for r in usable[i + 1 :] if domain(r) != domain(first)), None)
        if later_turn is None:
            continue
        when = moment(f"{group}:{first['id']}")
        yield make(
            group,
            f"{first['id']}:{later_turn['id']}:unrelated",
            Label.UNRELATED,
            f"{NAME}.other_service",
            (first["old_utterance"], when),
            (later_turn["old_utterance"], when + timedelta(minutes=1 + stable_int("gap", str(later_turn["id"])) % 30)),
        )


def value_said(r: Row, side: str) -> bool:
    """The `side` ("old" or "new") value is a non-empty string visible in its non-empty utterance."""
    value, said = r.get(f"{side}_value"), r.get(f"{side}_utterance")
    return (
        isinstance(value, str)
        and isinstance(said, str)
        and bool(value.strip() and said.strip())
        and value.casefold() in said.casefold()
    )


def is_change(r: Row) -> bool:
    """Both values visible in their utterances and a change cue in the new one."""
    return (
        value_said(r, "old")
        and value_said(r, "new")
        and r["old_value"].casefold() != r["new_value"].casefold()
        and CHANGE_CUE.search(r["new_utterance"]) is not None
    )


def pair(r: Row) -> Mapped | None:
    """old utterance → new utterance, NEW 1–9 minutes later."""
    group = group_of(r)
    rid = str(r["id"])
    t_old = moment(f"{group}:{rid}")
    t_new = t_old + timedelta(minutes=1 + stable_int("gap", rid) % 9)
    return make(
        group,
        f"{rid}:supersedes",
        Label.SUPERSEDES,
        f"{NAME}.change",
        (r["old_utterance"], t_old),
        (r["new_utterance"], t_new),
    )
