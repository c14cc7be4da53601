"""Retraction cues: does a text take back something its speaker said before? One registry of `rules.Rule`s.

A memory retracts an earlier one when its speaker says the earlier one was a mistake: "Actually, my
daughter's name is Ellie, not Ella", "I meant Tuesday", "it's not Ella but Ellie", "that's wrong",
"I misspoke", "Correction: the flight is at 9". The classifier reads the cue only for a pair it
labelled `contradicts` whose two memories have one speaker (`classifier/correction.py`), so a cue
says *how* the speaker contradicts, never *whether*. It must still stay silent where the words mean
something else; each rule below names what it leaves out:

* `actually` only in the discourse-marker position, opening the text or a sentence (after "oh",
  "no", "sorry", "wait", …): "Actually, it's Ellie". Inside a clause it is emphasis or surprise ("I
  actually like tea", "I'm actually a nurse"), and "Actually yes" is an answer.
* `I meant` but not an intention or emphasis: "I meant to call", "I meant it", "I meant no harm";
  "I mean, …" is a filler.
* `not X but Y` where Y is a name, a number, or a phrase opening with an article or a preposition
  ("not Ella but Ellie", "not a doctor but a nurse"); not "not only … but also", and not a second
  clause or verb ("I'm not rich but I'm happy", "not married, but have two dogs").
* "that's wrong" opening a clause: about what was said, not a relative clause ("an agreement that
  is wrong") or a judgement ("it is wrong to lie", "that was wrong of me"); "I was wrong" but not
  "I'm mistaken for a student"; "my bad" alone, not "my bad knee".
* No rule for "Y, not X" alone: a change says it too ("I live in Utrecht now, not Leeds"), and a
  change is `supersedes`, never a retraction.

A change request ("Actually, make it 7pm") matches `actually` like a correction does: the model
labels it `supersedes` (a booking or a plan changed), and only `contradicts` reads the cue.
"""

from __future__ import annotations

import re

from writegate.normalizer.rules import Registry, Rule, prefilter

_OPENING = r"(?:^|[.!?;:…]\s*|\s[-–—]+\s*|\(\s*)"
"""Where a sentence or an aside opens."""
_INTERJECTION = r"(?:(?:oh|oops|whoops|sorry|wait|no|nope|um+|uh+|erm?|well|hmm+|ah+|ok(?:ay)?|so)\s*[,!.]*\s+)*"
"""Words that may come before a discourse marker ("Oh, actually", "No wait, actually")."""


RULES: tuple[Rule, ...] = (
    Rule(
        name="actually",
        cue=re.compile(
            _OPENING + _INTERJECTION + r"actually\b(?!\s*[,!.]?\s*(?:yes|yeah|yep|yup|sure|i\s+do|i\s+have)\b)", re.I
        ),
        keys=("actually",),
    ),
    Rule(
        name="i_meant",
        cue=re.compile(
            r"\bI\s+(?:actually\s+|really\s+|obviously\s+)?meant\b"
            r"(?!\s+(?:to|it|no|nothing|well|business|every)\b)"
            r"|\bmeant\s+to\s+(?:say|write|type|put)\b",
            re.I,
        ),
        keys=("meant",),
    ),
    Rule(
        name="not_but",
        cue=re.compile(
            r"\bnot\s+(?!(?:only|just|merely|simply|even|because|that|so|too|very|really|sure|yet)\b)"
            r"[\w'’-]+(?:\s+[\w'’-]+){0,3}?\s*,?\s+but\s+"
            r"(?:(?:a|an|the|in|at|on|from|for|with|by)\s+\w|\d|(?-i:[A-Z][A-Za-z]))",
            re.I,
        ),
        keys=("not",),
        needs=("but",),
    ),
    Rule(
        name="that_is_wrong",
        cue=re.compile(
            r"(?:^|[.!?;:,…]\s*|\s[-–—]+\s*|\b(?:and|but|no|oh|sorry|well|um)\s+)(?:that|this)(?:['’]s|\s+is|\s+was)\s+"
            r"(?:wrong|incorrect|untrue|false|not\s+(?:right|correct|true|accurate)|a\s+typo)\b"
            r"(?!\s+(?:to|for|of|with|about)\b)"
            r"|\bwhat\s+I\s+(?:said|told\s+you|wrote)\b[^.!?]{0,30}?\b(?:wrong|incorrect|untrue|false|a\s+mistake"
            r"|not\s+(?:right|correct|true|accurate))\b",
            re.I,
        ),
        keys=("wrong", "incorrect", "untrue", "false", "right", "correct", "true", "accurate", "typo", "mistake"),
    ),
    Rule(
        name="misspoke",
        cue=re.compile(
            r"\bI(?:['’]ve|\s+have|\s+had)?\s+mis-?(?:spoke|spoken|typed|remembered|stated|heard|read)\b", re.I
        ),
        keys=("mis",),
    ),
    Rule(
        name="i_was_wrong",
        cue=re.compile(
            r"\bI(?:\s+was|\s+am|['’]m)\s+(?:wrong|mistaken|incorrect)\b(?!\s+(?:for|as)\b)"
            r"|\bI\s+(?:got|had)\s+(?:it|that|this|them|those)\s+(?:wrong|mixed\s+up|backwards)\b"
            r"|\bI\s+mixed\s+(?:it|that|this|them|those)\s+up\b"
            r"|\bI\s+made\s+a\s+(?:mistake|typo|error)\b"
            r"|\bmy\s+(?:mistake|error)\b(?!\s+(?:was|is|of|in|to|when)\b)|\bmy\s+bad\b\s*(?:[,.!;:)–—-]|$)",
            re.I,
        ),
        keys=("wrong", "mistake", "incorrect", "mixed", "backwards", "typo", "error", "bad"),
    ),
    Rule(
        name="correction",
        cue=re.compile(
            r"\bcorrection\s*[:–—-]"
            r"|\bcorrected(?:\s*:|\s+from\b)"
            r"|\b(?:to|let\s+me|I\s+(?:need|have|want|should|must)\s+to|I['’]d\s+like\s+to)\s+correct\s+"
            r"(?:myself|that|this|what\s+I\s+said|my\s+(?:earlier|previous|last)\b)"
            r"|\b(?:user|I|he|she|they)\s+corrected\s+(?:(?:him|her|them|my)sel(?:f|ves)\b"
            r"|(?:the\s+|an?\s+|my\s+|his\s+|her\s+|their\s+)?(?:earlier|previous|prior|last)\b)",
            re.I,
        ),
        keys=("correct",),
    ),
    Rule(
        name="take_back",
        cue=re.compile(
            _OPENING + r"(?:(?:oh|sorry|wait|no)\s*[,!.]*\s+)*(?:scratch|strike|ignore|disregard)\s+that\b"
            r"|\bI\s+take\s+(?:that|it|this)\s+back\b",
            re.I,
        ),
        keys=("scratch", "strike", "ignore", "disregard", "take"),
    ),
    Rule(
        name="wait_no",
        cue=re.compile(_OPENING + r"(?:no\s*,?\s+wait|wait\s*,?\s+no|oops|whoops)\b", re.I),
        keys=("wait", "oops"),
    ),
)
"""The retraction cues, in the order `retraction_cue` tries them."""

REGISTRY: Registry[Rule] = Registry(RULES)
PREFILTER: re.Pattern[str] = prefilter(RULES)
"""Finds any rule's key in lower-cased text: a text without one retracts nothing."""


def retraction_cue(text: str) -> str | None:
    """The name of the first retraction cue `text` holds (see the module docstring), or None."""
    low = text.lower()
    if PREFILTER.search(low) is None:
        return None
    ascii_text = text.isascii()
    for rule in REGISTRY.keyed(low):
        if rule.admits(low, ascii_text) and rule.cue.search(text):
            return rule.name
    return None


def retracts(text: str) -> bool:
    """Whether `text` holds a retraction cue: its speaker takes back something said before."""
    return retraction_cue(text) is not None
