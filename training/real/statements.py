"""TimeQA questions and their answers as the statements a memory would hold.

"Who owned the Newton D. Baker House?" + "George Peter" → "George Peter owned the Newton D. Baker
House." Four question shapes turn into statements; any other shape gives None (the caller keeps
its question-and-answer rendering) rather than a garbled sentence:
- a wh-word, an optional noun and a form of "be": "Who was the head of X?" → "A was the head of X.";
  "What was the name of X?" → "The name of X was A." (the noun phrase first when there is no noun
  after the wh-word);
- a wh-word (with a noun for what/which) and a past-tense verb: "Which company made X?" → "A made X.";
- the subject first, "what"/"which" and a noun later: "Lee Nogan played for what football team?" →
  "Lee Nogan played for Grimsby Town."; or "by whom" at the end: "X was coached by whom?" → "X was
  coached by A."
Refused: questions with do-support ("did", "does"), two wh-words, a "be" question ending in a
preposition or a participle ("Who was X married to?", "What was X named?"), and "what … event …
occur". In a "be" question with a noun ("What nationality was X?") the answer comes last unless the
rest is passive ("Which team was managed by X?" → "A was managed by X.").
"""

from __future__ import annotations

import re

_BE = r"(?:was|were|is|are|has been|had been)"
_WH = r"(?:who|what|which)"
_PREPOSITION = frozenset(
    "to for by with of in at from on as into onto about after before since until under over".split()
)
_STOP = frozenset(_PREPOSITION | {"that", "who", "which", "when", "where", "while", "and", "or"})
_IRREGULAR_PAST = frozenset(
    """led held had won made ran took became built bought sold wrote taught gave left met kept found drove
    flew fought""".split()
)
_REFUSED = re.compile(
    r"\b(?:did|does|do|event|occur|occurred|happen|happened)\b|\b(?:and|or)\s+(?:who|what|which)\b", re.I
)
_BE_QUESTION = re.compile(rf"^({_WH})((?:\s+[\w'’.-]+){{0,3}}?)\s+({_BE})\s+(.+)$", re.I)
_BY_WHOM = re.compile(r"^(?!(?:who|what|which|where|when|how|why)\b)(.+\s(?:by|to|with|for))\s+(?:who|whom)$", re.I)
_LATE_WH = re.compile(r"^(?!(?:who|what|which|where|when|how|why)\b)(.+?)\s+(?:which|what)\s+(.+)$", re.I)


def statement(question: str, answer: str) -> str | None:
    """The statement of `question` answered by `answer`, or None when its shape is not one of the three.

    Args:
        question: the question without its time span ("Who owned X?").
        answer: the answer text ("George Peter", "A and B").
    """
    q = " ".join(question.split()).rstrip(" ?").strip()
    if not q or not answer.strip() or _REFUSED.search(q):
        return None
    for shape in (_be_shape, _verb_shape, _by_whom_shape, _late_wh_shape):
        found = shape(q, answer)
        if found is not None:
            return _sentence(found)
    return None


def _be_shape(q: str, answer: str) -> str | None:
    m = _BE_QUESTION.match(q)
    if m is None:
        return None
    wh, noun, verb, rest = m.group(1).lower(), m.group(2).strip(), m.group(3), m.group(4)
    last = rest.split()[-1].lower()
    if last in _PREPOSITION or last.endswith("ed") or last in {"called", "known"}:
        return None
    passive = any(w.endswith("ed") or w in {"known", "held", "led", "run", "owned"} for w in rest.lower().split())
    if wh == "who" or (noun and passive):
        return f"{answer} {verb} {rest}"  # "Who was the head of X", "Which team was managed by X"
    first = rest.split()[0].lower()
    if first.endswith(("ed", "ing", "en")):
        return None  # "What was given to X", "What was controlling X": no noun phrase to lead with
    return f"{rest} {verb} {answer}"  # "What was X's job", "What nationality was X"


def _verb_shape(q: str, answer: str) -> str | None:
    words = q.split()
    wh = words[0].lower()
    nouns = (0,) if wh == "who" else (1, 2, 3) if wh in {"which", "what"} else ()
    for n in nouns:
        if len(words) > n + 2 and _is_past(words[n + 1]):
            return " ".join([answer, *words[n + 1 :]])
    return None


def _by_whom_shape(q: str, answer: str) -> str | None:
    m = _BY_WHOM.match(q)
    return None if m is None else f"{m.group(1)} {answer}"


def _late_wh_shape(q: str, answer: str) -> str | None:
    m = _LATE_WH.match(q)
    if m is None:
        return None
    head, tail = m.group(1), m.group(2).split()
    if len(head.split()) < 2:
        return None  # "At which camp was X held": the wh-phrase fronted after a preposition
    noun = 0  # the wh-word's noun: up to two words, stopping at a function word or an -ing verb
    while noun < min(2, len(tail)) and tail[noun].lower() not in _STOP and not tail[noun].endswith("ing"):
        noun += 1
    rest = tail[max(noun, 1) :]
    if rest and (rest[0].endswith("ing") or rest[0].lower() not in _STOP):
        return None  # "had which person heading it": the wh-phrase is not a plain noun
    return " ".join([head, answer, *rest])


def _is_past(word: str) -> bool:
    w = word.lower()
    return w in _IRREGULAR_PAST or (w.endswith("ed") and len(w) > 4)


def _sentence(text: str) -> str:
    text = re.sub(r"\s+([,.;:])", r"\1", " ".join(text.split())).rstrip(" ,;:")
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")
