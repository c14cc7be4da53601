"""Schema-Guided Dialogue: a user's request, then a later turn where a booked slot has another value.

Both utterances are kept as written (the user's own words are the point) and observed minutes
apart on one day: old → new is `supersedes` (the user changed the booking). Kept only when the
change is visible and meant:
- the old value is in the old utterance and the new value in the new one;
- the new utterance carries a change cue ("actually", "instead", "change", "rather", "no,",
  "make it", "on second thought"…). Without one many rows browse alternatives ("What about
  Phoenix?", "What's my savings balance?"), which replace nothing.
The source has no "same value repeated" rows, so no `corroborates` pairs come from it.

Hard negatives → `unrelated` (the same person, another attribute, a later time, nothing replaced):
- in a dialogue where the user books two kinds of service (a restaurant, then a cab), each request
  against every later request of another kind, minutes apart;
- for one request in `OTHER_DIALOGUE_SHARE`, a request of another kind of service from another
  dialogue of the same split, 1–400 days later: one store's user asking for a table in March and for
  a rental car in June. Both sides keep the default subject; the label holds whoever spoke.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import timedelta

from writegate.classifier.labels import Label
from writegate.training.real.common import Mapped, Row, make, moment, present, split_of, stable_int

NAME = "sgd_changes"
OTHER_DIALOGUE_SHARE = 5
"""One request in this many gets an `other_dialogue` negative."""
MAX_GAP_DAYS = 400
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
    yield from present(other_dialogue_pairs(dialogues))


def group_of(r: Row) -> str:
    """The split group: the split and the dialogue."""
    return f"{r.get('split')}:{r.get('dialogue_id', r.get('id'))}"


def domain(r: Row) -> str:
    """The kind of service: `Restaurants_2` → `Restaurants`."""
    return str(r.get("service", "")).split("_")[0]


def other_service_pairs(group: str, turns: list[Row]) -> Iterator[Mapped | None]:
    """Each request of one service → every later request of another service in the dialogue."""
    usable = [r for r in turns if value_said(r, "old")]
    for i, first in enumerate(usable):
        when = moment(f"{group}:{first['id']}")
        for later_turn in (r for r in usable[i + 1 :] if domain(r) != domain(first)):
            gap = timedelta(minutes=1 + stable_int("gap", str(later_turn["id"])) % 30)
            yield make(
                group,
                f"{first['id']}:{later_turn['id']}:unrelated",
                Label.UNRELATED,
                f"{NAME}.other_service",
                (first["old_utterance"], when),
                (later_turn["old_utterance"], when + gap),
            )


def other_dialogue_pairs(dialogues: dict[str, list[Row]]) -> Iterator[Mapped | None]:
    """A share of the requests → a request of another kind of service in another dialogue of the
    same split, 1–`MAX_GAP_DAYS` days later."""
    pool: dict[tuple[str, str], list[tuple[str, Row]]] = {}
    for group, turns in sorted(dialogues.items()):
        for r in turns:
            if value_said(r, "old"):
                pool.setdefault((split_of(group), domain(r)), []).append((group, r))
    for (split, kind), requests in sorted(pool.items()):
        others = sorted(k for s, k in pool if s == split and k != kind)
        for group, first in requests:
            rid = str(first["id"])
            if not others or stable_int("other_dialogue", rid) % OTHER_DIALOGUE_SHARE:
                continue
            theirs = pool[(split, others[stable_int("kind", rid) % len(others)])]
            other_group, second = theirs[stable_int("partner", rid) % len(theirs)]
            when = moment(f"{group}:{rid}")
            n = stable_int("days", rid)
            gap = timedelta(days=1 + n % MAX_GAP_DAYS, minutes=(n >> 16) % (24 * 60))
            yield make(
                group,
                f"{rid}:{second['id']}:unrelated",
                Label.UNRELATED,
                f"{NAME}.other_dialogue",
                (first["old_utterance"], when),
                (second["old_utterance"], when + gap),
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
