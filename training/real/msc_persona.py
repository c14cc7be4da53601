"""Multi-Session Chat (research presets only): a speaker's utterance and the persona summary of it.

Questions to the other speaker are cut from the utterance ("What kind of car do you own? I have
a jeep." → "I have a jeep."). All pairs of one session share one moment.
- utterance → summary: `corroborates` when the summary only restates the utterance (at least
  `COVER` of its content words occur in the utterance); summaries that add what the utterance does
  not say (drawn from the context) are left out
- summary → utterance: `elaborates` when, in addition, the utterance's sentences on the summary's
  topic (sharing a content word with it) add at least `MIN_EXTRA` content words: chit-chat in other
  sentences ("We should get together one weekend") is not detail about the summarised fact
- (half the rows) another summary of the same speaker and session sharing no content word →
  `unrelated` (same person, another topic: the most common pair in a real store)
- (a quarter of the rows) a summary of the other speaker sharing no content word → `unrelated`,
  with another subject (`user:partner`) on NEW, so the pair is unrelated both by subject and by text
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime

from writegate.classifier.labels import Label
from writegate.training.real.common import (
    DEFAULT_SUBJECT,
    Mapped,
    Row,
    content_words,
    make,
    moment,
    present,
    stable_int,
)

NAME = "msc_persona"
COVER = 0.6
MIN_EXTRA = 3
PARTNER = "user:partner"
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def sentences(text: str) -> list[str]:
    """Sentences of `text` (split after `.`, `!`, `?`)."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def statements(utterance: str) -> str:
    """The utterance without its questions (sentences ending in `?`)."""
    return " ".join(s for s in sentences(utterance) if not s.endswith("?"))


def on_topic(utterance: str, summary: str) -> str:
    """The sentences of `utterance` that share a content word with `summary`."""
    words = content_words(summary)
    return " ".join(s for s in sentences(utterance) if words & content_words(s))


def coverage(summary: str, utterance: str) -> float:
    """Share of the summary's content words that occur in the utterance (1 for none)."""
    s = content_words(summary)
    return len(s & content_words(utterance)) / len(s) if s else 1.0


def examples(rows: Iterable[Row]) -> Iterator[Mapped]:
    """Map MSC rows to labelled pairs; group = the episode (one session of one dialogue)."""
    rows = [r for r in rows if isinstance(r.get("utterance"), str) and isinstance(r.get("summary"), str)]
    episodes: dict[str, list[Row]] = {}
    for r in rows:
        episodes.setdefault(str(r.get("episode")), []).append(r)
    for group, members in episodes.items():
        when = moment(group)
        for r in members:
            yield from present(own_pairs(r, group, when))
            yield from present(negatives(r, members, group, when))


def own_pairs(r: Row, group: str, when: datetime) -> Iterator[Mapped | None]:
    """utterance ↔ its summary."""
    rid, utt, summ = str(r["id"]), statements(r["utterance"]), r["summary"]
    if not utt or coverage(summ, utt) < COVER:
        return
    yield make(group, f"{rid}:corroborates", Label.CORROBORATES, f"{NAME}.utterance_summary", (utt, when), (summ, when))
    if len(content_words(on_topic(utt, summ)) - content_words(summ)) >= MIN_EXTRA:
        yield make(group, f"{rid}:elaborates", Label.ELABORATES, f"{NAME}.summary_utterance", (summ, when), (utt, when))


def negatives(r: Row, members: list[Row], group: str, when: datetime) -> Iterator[Mapped | None]:
    """Another topic of the same speaker; another speaker (other subject)."""
    rid, mine = str(r["id"]), content_words(r["summary"])
    draw = stable_int("neg", rid) % 4
    if draw < 2:
        cands = [o for o in members if o.get("speaker") == r.get("speaker") and o is not r]
        suffix, family, subjects = "unrelated", "other_topic", (DEFAULT_SUBJECT, DEFAULT_SUBJECT)
    elif draw == 2:
        cands = [o for o in members if o.get("speaker") != r.get("speaker")]
        suffix, family, subjects = "partner", "other_speaker", (DEFAULT_SUBJECT, PARTNER)
    else:
        return
    other = first_disjoint(rid, mine, cands)
    if other is not None:
        existing, new = (r["summary"], when), (other["summary"], when)
        yield make(group, f"{rid}:{suffix}", Label.UNRELATED, f"{NAME}.{family}", existing, new, subjects=subjects)


def first_disjoint(rid: str, mine: frozenset[str], cands: list[Row]) -> Row | None:
    """The first candidate (hash order) whose summary shares no content word with `mine`."""
    for o in sorted(cands, key=lambda o: stable_int("cand", rid, str(o["id"]))):
        if not mine & content_words(o["summary"]):
            return o
    return None
