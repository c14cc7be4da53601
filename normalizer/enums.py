"""Communication preferences → `enum` records (slot `preference.<attribute>`).

Attributes and values: verbosity {concise, detailed}, channel {email, slack, phone,
sms, video, in_person}, formality {formal, casual}, language (ISO 639-1 via langcodes), format
{bullets, prose, table}.

An enum is a communication preference of the subject toward the assistant or colleagues, never a
word sense of the same word in an activity: "I like video games", "I dress casually", "my phone
broke", "my friends call me Red", "we speak Spanish at home" give nothing.

Rules:
- A clause gives records only with a preference frame: a preference verb ("prefers", "likes",
  "wants", "hates"…) whose holder is the subject (`scope.holder`: "my husband prefers texting",
  "you said you prefer email" give nothing), an instruction ("keep it short", "please", "email me",
  "reply in Spanish"), a "best way/format" or contact frame, a switch, or a self-standing cue
  ("first-name basis", "tl;dr"). Habits and one-off statements ("I keep it short all the time",
  "I'll email it to you", "I use email") give nothing.
- One record per attribute per text: the first cue that is not negated. A cue is negated when its
  clause, just before it, has a negation ("no bullet points", "not email", "hates long-winded
  replies", "rather than Slack"); "over" negates a cue when a value of the same attribute came
  before it in the clause ("prose over bullet points"). A stop cue negates too, before the value
  ("ignore formal now", "done with concise") or just after it ("concise is outdated", "casual no
  longer applies", "a phone call ended"): the text names the old value. A negated cue gives the
  other value where the set is binary (verbosity, formality) and is skipped otherwise (channel,
  format, language).
- A switch names the old value after "from" and the new one after "to": "move from Teams chat to
  Slack" negates Teams chat and gives slack; "switch from Portuguese to French" gives fr.
- A cue can carry its own negation: "updates that aren't short" is a detailed cue, so "don't send
  updates that aren't short" gives concise.
- Verbosity also from a relative clause or a "keep" frame on a communication word ("updates that
  are brief", "keep explanations to the user thorough"); formality from "keep it professional",
  "relaxed/professional in writing", "relaxed communication"; format from "use a table when writing
  summaries", "preferred format for reports: a table", "tables in answers".
- Channel cues name the channel, not a device or a medium: "phone calls", "by phone", "call me"
  (only with nothing but an adverbial after it: "call me anytime", not "call me Ginger"), "video
  calls", "Zoom", "in-person meetings", "meet in person"; bare "phone", "video" and "in person" are
  no cue. They count only in a sentence about reaching the subject (a preference verb right before
  the channel or a "prefer/rather/best/works best" frame, "reach/contact me", a switch "switched to
  Zoom", a communication word with "by/via" such as "updates by Slack", or an imperative such as
  "text me"): "Sam sent an email", "I emailed you the picture" give nothing.
- Formality needs a register word ("formal tone", "casual emails"), a be/keep frame ("keep it
  casual", "don't be too formal") or a writing verb ("write casually"): "dress casually", "a casual
  fan", "formally adopt" give nothing. Verbosity "in depth/detail" needs a communication word or
  verb before it ("explain in detail"; "we talked in depth" gives nothing). An answer
  clause ("A: Zoom") right after a question ("Q: how should we contact me?") takes the question as
  its context. Messaging apps (WhatsApp, iMessage, Teams chat) count as `sms`; Zoom, Google Meet
  and Teams calls or meetings count as `video`.
- Language only when it is about how to communicate with the subject ("replies in Spanish",
  "documents in Italian", "prefers French", "write to me in German", "speak to me in French",
  "respond in de", "preferred language is German", "language for the user: French"). What someone
  speaks or learns ("I speak Spanish", "we speak in Spanish on Saturdays", "talk to my workers in
  Spanish") is a multi-valued fact, not a preference for replies: left to text. "prefers <Language>"
  counts only when no noun follows ("prefers French reds", "prefer Japanese cars" give nothing).
- A sentence whose preference holder is another named person ("Lee prefers Slack", "the best way
  to reach Lee", "keep it formal with Lee", "language for Lee: French") or that opens with another
  person ("The CEO wants …", "My manager likes …", "User's brother prefers …", "Sam's boss likes …")
  gives nothing: enum records belong to the request's subject. After a contrast the subject may
  speak for themselves ("My team prefers Slack, but email me directly" gives email; "Priya likes
  detailed write-ups, but I just want the summary" gives concise), and "…, and so do I" shares the
  other person's preference.
- Everyday phrasing (`enum_phrases.PHRASE_CUES`), in both directions: asking for less is concise ("just the
  answer", "the short version", "skip the preamble", "no need to explain", "don't over-explain",
  "keep it under three sentences", "less detail", "stop writing essays", "answer briefly", "don't
  give me the long version"); asking for more is detailed ("walk me through", "explain it step by
  step", "the full reasoning", "explain your reasoning", "don't skip steps", "more detail"); a
  complaint after a value negates it ("finds long replies overwhelming" gives concise). Also
  "as a checklist" (bullets), "a text", "message me on Teams" and messaging apps by name (Signal,
  Telegram…: sms), "ring my mobile", "talk on the phone" (phone), "don't be so stiff", "less
  formal", "a friendly, chatty tone", "talk to me like a friend" (casual), "keep emails to clients
  formal", "switch to Dutch", "use Italian with me", "British English" (en).
- Not yet, or not a channel: a plan ("thinking about switching to Slack") gives nothing, and so
  does a request to deliver one thing ("email me the slides") unless it says always, every or
  whenever.
"""

from __future__ import annotations

import re

from writegate.normalizer.context import Context
from writegate.normalizer.entities import pronoun_antecedent
from writegate.normalizer.enum_cues import WORD_CUES, EnumCue
from writegate.normalizer.enum_phrases import LANGUAGE_CUES, PHRASE_CUES
from writegate.normalizer.rules import Registry, prefilter
from writegate.normalizer.schema import EnumAttribute, EnumValue, Record, RecordKind
from writegate.normalizer.scope import (
    PREFERENCE_NEGATION,
    SWITCHED_FROM,
    Holder,
    holder,
    negated,
    preference_of_other,
)

CUES: Registry[EnumCue] = Registry([*WORD_CUES, *PHRASE_CUES, *LANGUAGE_CUES])
"""Every preference cue, in the order its hits are collected (hits at one position keep this order)."""
PREFILTER = prefilter(CUES)
"""Every key of the family, searched in the lower-cased text: without one, the text states no preference."""

_BINARY: dict[EnumAttribute, tuple[str, str]] = {
    EnumAttribute.VERBOSITY: ("concise", "detailed"),
    EnumAttribute.FORMALITY: ("formal", "casual"),
}

_CLAUSE_SPLIT_RE = re.compile(r"(?<=[.!?;])\s+|\n+")
_CONTRAST_RE = re.compile(r",\s*(?=(?:but|while|whereas)\b)|\s+[—–]\s+(?=(?:but|while|whereas)\b)", re.I)
"""Where a clause turns from one holder to another ("My team prefers Slack, but email me directly")."""
_SHARED_RE = re.compile(
    r",?\s+(?:and\s+)?(?:so\s+(?:do|does|am)\s+(?:I|we)|(?:I|we)\s+do\s+too|me\s+too|as\s+do\s+(?:I|we)"
    r"|same\s+(?:here|for\s+me))\b",
    re.I,
)
"""Another person's preference the subject shares: "My manager likes bullet points, and so do I"."""
_DELIVERY_RE = re.compile(
    r"\b(?:send|e-?mail|forward|share|text|slack|message)\s+(?:me|us)\s+(?:the|a|an|this|that|those|these|your|his|her)\s+\w",
    re.I,
)
"""A request to deliver one thing ("email me the slides"): a channel only when it says always, every or whenever."""
_STANDING_RE = re.compile(
    r"\b(?:always|every|each|whenever|any\s*time|from\s+now\s+on|in\s+future|in\s+the\s+future|going\s+forward|daily|weekly"
    r"|monthly|usually|only|instead|rather)\b",
    re.I,
)
_PLAN_RE = re.compile(
    r"\b(?:thinking\s+(?:about|of)|considering|contemplating|wondering\s+(?:about|whether|if)|plan(?:s|ning)?\s+to"
    r"|hoping\s+to|might|may\s+(?:switch|move|start|want))\b",
    re.I,
)
"""A preference not held yet: "thinking about switching to Slack", "might move everything to email"."""
_OVER_RE = re.compile(r"\bover\s+(?:\w+\s+)?$", re.I)
_CHANNEL_CONTEXT_RE = re.compile(
    r"\b(?:prefer\w*|rather|best|favou?rite|go-to|works? best|channel|"
    r"(?:reach(?:es|ed|ing)?|contact(?:s|ed|ing)?|ping(?:s|ed|ing)?|get\s+(?:in\s+touch\s+with|hold\s+of)|reach\s+out\s+to)\s+"
    r"(?:me|us|(?:the\s+)?user|her|him|them|(?-i:[A-ZÀ-ÖØ-Þ]\w*))|hit (?:me|us) up|"
    r"(?:call|ring|phone|text|e-?mail|slack|message|dm|ping|facetime|zoom|skype)\s+(?:me|us)|"
    r"reach\s+out\s+(?:on|via|over|through|by)|(?:talk|speak|chat|discuss)\w*\s+(?:\w+\s+)?on\s+the\s+phone|(?:call|ring|try|text)\s+(?:me\s+on\s+)?my\s+(?:mobile|cell|phone)|"
    # a preference verb right before the channel ("wants emails", "I like Slack", "hates phone calls")
    r"(?:like[sd]?|love[sd]?|wants?|wanted|needs?|hates?|dislikes?|avoids?)\s+(?:[\w-]+\s+){0,1}?"
    r"(?:e-?mails?|slack|phone calls?|texts?|text messages|texting|sms|whatsapp|zoom|video calls?|teams|face[- ]to[- ]face|in[- ]person)|"
    # a switch ("switched to Zoom", "move from Teams chat to Slack")
    r"(?:switch(?:es|ed|ing)?|mov(?:e|es|ed|ing))\s+(?:(?:over|back|everything|things|us|them)\s+)?(?:to|from)|"
    # a communication word delivered by a channel ("updates by Slack")
    r"(?:updates?|repl(?:y|ies)|messages?|notes?|reports?|news|alerts?|notifications?|reminders?|summar(?:y|ies)|"
    r"documents?|docs?|answers?|responses?|check-?ins?|meetings?|syncs?|1:1s?|one-on-ones?|catch-?ups?)\s+(?:by|via|over|through|on))\b",
    re.I,
)
# Every cue needs a preference frame in its clause: a preference verb ("prefers", "likes", "hates"…),
# an instruction (a clause-initial "keep", "use", "write", "reply"…, "please"), a switch, a "best way"
# or a contact frame. "I keep it short all the time", "we speak Spanish on Saturdays", "I never got a
# formal report" state habits or facts, not how the subject wants to be answered.
_PREF_VERB_RE = re.compile(
    r"\b(?:prefer\w*|(?:would|'d|’d)\s+rather|favou?r(?:s|ed)?|likes?|liked|loves?|loved|wants?|wanted|needs?|needed|"
    r"expects?|expected|appreciates?|appreciated|hates?|hated|dislikes?|disliked|can['’]?t stand|cannot stand|"
    r"ask(?:s|ed)?\s+(?:for|to|us|me|that)|requests?(?:ed)?|finds?|gets?\s+(?:frustrated|annoyed|irritated))\b",
    re.I,
)
_INSTRUCTION_RE = re.compile(
    r"(?:^|[,;:—–(]\s*|\b(?:please|pls|just|always|now|and|but|so|then|to|should|must|can you|could you|you can|you could|"
    r"don['’]?t|do not|never|actually|instead)\s+)"
    r"(?:keep|use|write|reply|respond|answer|send|give|make|stick|be|format|put|include|avoid|stop|skip|drop|switch|move|"
    r"go|email|e-mail|text|call|ring|slack|ping|message|dm|reach|contact|address|talk|speak|cut|trim|walk|explain|spell|lay"
    r"|break|tell|show|chat|summari[sz]e|lose|ditch|over-?explain|elaborate|ramble|over-?simplify|dumb|leave|limit)\b"
    r"|^\W*(?:please\s+)?(?:don['’]?t|do\s+not|never)\s+\w"
    r"|\b(?:please|pls)\b|\b(?:best|preferred|ideal|easiest|go-to)\s+(?:way|channel|format|tone|language)\b"
    r"|\b(?:reach|contact)\w*\s+(?:me|us|(?:the\s+)?user|her|him|them|[A-ZÀ-ÖØ-Þ])"
    r"|\b(?:switch(?:es|ed|ing)?|mov(?:e|es|ed|ing))\s+(?:(?:over|back|everything|things|us|them)\s+)?(?:to|from)\b"
    r"|\b(?:language|format|channel|tone)\s+(?:for|with|to)\b|\b(?:work|works|worked)\s+best\b",
    re.I,
)
_POSSESSIVE_PRONOUNS = frozenset({"her", "his", "their", "she", "he", "they"})
_SELF_STANDING_RE = re.compile(
    r"\bfirst[- ]name basis\b|\b(?:no|skip the|drop the) formalities\b|\btl;?dr\b|\bbluf\b", re.I
)


def _framed(source: str, ctx: Context, before: str) -> bool:
    """True when the clause states a preference of the subject: a preference verb whose holder is the
    subject ("I prefer", "Sam wants", not "my wife prefers", "you say you prefer"), an instruction
    ("keep it short", "please", "email me"), or a self-standing cue ("first-name basis")."""
    verb = _PREF_VERB_RE.search(source)
    if verb is not None:
        left = source[: verb.start()]
        if left.strip().lower() in _POSSESSIVE_PRONOUNS:  # "Her preferred language": scope reads "Her" as a name
            return pronoun_antecedent(before, ctx) is None
        return holder(left, ctx, before) is Holder.SUBJECT
    return _INSTRUCTION_RE.search(source) is not None or _SELF_STANDING_RE.search(source) is not None


# an answer right after a question ("Q: how should we contact me? A: Zoom")
_ANSWER_RE = re.compile(r"^\s*(?:A|a|Ans|ans|Answer|answer)\s*[:：]")


_TYPOGRAPHIC = str.maketrans({c: " " for c in "–—‘’“”…\u00a0"})
"""Typographic punctuation: no letter case-folds to or from these, so a clause that is ASCII but for
them is gated as ASCII (`gates`: exact on ASCII letters)."""


def _hits(clause: str) -> list[tuple[int, int, EnumAttribute, str]]:
    """(start, end, attribute, value) of every cue match in the clause, by position (`CUES` order at a tie)."""
    low = clause.lower()
    ascii_clause = clause.isascii() or clause.translate(_TYPOGRAPHIC).isascii()
    hits: list[tuple[int, int, EnumAttribute, str]] = []
    for cue in CUES.keyed(low):
        if not cue.admits(low, ascii_clause):
            continue
        for m in cue.cue.finditer(clause):
            found = cue.read(cue, m)
            if found is not None:
                hits.append((found[0], found[1], cue.attribute, found[2]))
    hits.sort(key=lambda h: (h[0], -h[1]))
    return hits


def _clause_cues(clause: str, context: str = "") -> list[tuple[int, EnumAttribute, str, bool]]:
    """(position, attribute, value, negated) of every cue in a clause, in order.

    Args:
        clause: the clause searched for cues.
        context: a question the clause answers; it counts only as channel context.
    """
    out: list[tuple[int, EnumAttribute, str, bool]] = []
    last_end: dict[EnumAttribute, int] = {}
    seen_attr: set[EnumAttribute] = set()
    for start, end, attribute, value in _hits(clause):
        if start < last_end.get(attribute, -1):
            continue  # a shorter cue inside a longer one of its attribute ("on Teams" in "message me on Teams")
        last_end[attribute] = end
        before = clause[:start]
        off = (
            negated(before, PREFERENCE_NEGATION, clause[end:])
            or negated(before, SWITCHED_FROM)
            or (attribute in seen_attr and _OVER_RE.search(before) is not None)
        )
        if attribute is EnumAttribute.CHANNEL and not off and not _CHANNEL_CONTEXT_RE.search(f"{context} {clause}"):
            continue
        seen_attr.add(attribute)
        out.append((start, attribute, value, off))
    return out


def extract(text: str, ctx: Context) -> list[Record]:
    """Communication-preference enum records in `text` (one per attribute at most).

    Args:
        text: the memory text.
        ctx: the request context (subject, time, provenance, config).

    Returns:
        `kind: enum` records with slot `preference.<attribute>`; [] when none is found.
    """
    if not PREFILTER.search(text.lower()):
        return []
    records: dict[EnumAttribute, Record] = {}
    offset = 0
    question = ""
    for clause in _CLAUSE_SPLIT_RE.split(text):
        start = text.find(clause, offset)
        offset = max(offset, start)
        if not clause.strip() or clause.rstrip().endswith("?"):
            question = clause
            continue
        context = question if question and _ANSWER_RE.match(clause) else ""
        question = ""
        if not PREFILTER.search(clause.lower()) and not (context and PREFILTER.search(context.lower())):
            continue  # no cue word in this clause: skip the per-attribute patterns
        for source, cues in _stated_parts(clause, context, ctx, text[:start]):
            _add_records(records, source, cues, ctx)
    return list(records.values())


def _stated_parts(
    clause: str, context: str, ctx: Context, before: str
) -> list[tuple[str, list[tuple[int, EnumAttribute, str, bool]]]]:
    """(source, cues) of the clause when it states a preference of the subject, else of its parts.

    A clause that is someone else's or states no preference may hold the subject's after a
    contrast: "My team prefers Slack, but email me directly", "Priya likes detailed write-ups, but I
    just want the summary". "…, and so do I" makes the other person's preference the subject's too.
    """
    cues = _clause_cues(clause, context)
    source = f"{context} {clause}".strip()
    if not cues or _PLAN_RE.search(source):
        return []  # no cue, or "thinking about switching to Slack": not yet a preference
    if _DELIVERY_RE.search(source) and not _PREF_VERB_RE.search(source) and not _STANDING_RE.search(source):
        return []  # "email me the slides after the meeting": one delivery, not how to reach the subject
    if _SHARED_RE.search(clause) or (not preference_of_other(source, ctx, before) and _framed(source, ctx, before)):
        return [(source, cues)]
    parts = _CONTRAST_RE.split(clause)
    if len(parts) < 2:
        return []
    out = []
    offset = 0
    for part in parts:
        at = clause.find(part, offset)
        offset = max(offset, at)
        cues = _clause_cues(part)
        earlier = before + clause[:at]
        if cues and not preference_of_other(part, ctx, earlier) and _framed(part, ctx, earlier):
            out.append((part, cues))
    return out


def _add_records(
    records: dict[EnumAttribute, Record],
    source: str,
    cues: list[tuple[int, EnumAttribute, str, bool]],
    ctx: Context,
) -> None:
    """One record per attribute not yet in `records`: the first cue's value (a negated binary cue gives the other)."""
    for _, attribute, value, off in cues:
        if attribute in records:
            continue
        if off:
            pair = _BINARY.get(attribute)
            if pair is None:
                continue
            value = pair[1] if value == pair[0] else pair[0]
        records[attribute] = ctx.record(
            RecordKind.ENUM,
            f"preference.{attribute.value}",
            source,
            enum=EnumValue(attribute=attribute, value=value),
        )
