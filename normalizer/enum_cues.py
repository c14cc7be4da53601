"""The preference family's word cues, one entry each: attribute, value, cue, keys, gate (`rules.Rule`).

A word cue is a value word in a frame: "short replies", "keep it casual", "by phone", "as a table".
`enums` runs `WORD_CUES`, then `enum_phrases.PHRASE_CUES` and `enum_phrases.LANGUAGE_CUES`, as one
registry (`enums.CUES`) from which its prefilter and keys scan are derived (`rules`): to add a cue, add
its entry; its keys are the words every match of it contains, and `tests/test_rule_registry.py` fails
when a cue can match text its keys or its gate miss.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from writegate.normalizer.rules import Rule
from writegate.normalizer.schema import EnumAttribute

Found = tuple[int, int, str]
"""Where a cue's value starts and ends in the clause, and the value."""


def _stated(cue: EnumCue, m: re.Match[str]) -> Found:
    """The cue's value; it starts at group `v` when the cue has one ("be formal": a frame before it is no part)."""
    start = m.start("v") if "v" in cue.cue.groupindex and m.start("v") >= 0 else m.start()
    return start, m.end(), cue.value


@dataclass(frozen=True, kw_only=True)
class EnumCue(Rule):
    """A preference cue: each match states `attribute` (`value`, or what `read` makes of the match).

    Attributes:
        attribute: the preference the cue states.
        value: the value it states (language cues read theirs from the match).
        read: the cue and a match → where the value is and what it is, or None.
    """

    attribute: EnumAttribute
    value: str = ""
    read: Callable[[EnumCue, re.Match[str]], Found | None] = _stated


COMM = (
    r"(?:answers?|repl(?:y|ies)|responses?|write-?ups?|explanations?|reports?|updates?|summar(?:y|ies)|"
    r"e-?mails?|messages?|notes?|docs?|documentation|feedback|breakdowns?|analys[ie]s|walkthroughs?|"
    r"briefings?|communications?|comments?|reviews?|overviews?|context|details?|writing|prose|texts?|"
    r"info(?:rmation)?|memos?|status(?:\s+updates?)?)"
)
_SHORT = r"(?:short|brief|concise|succinct|terse|quick|crisp|snappy|tight)"
_LONG = r"(?:detailed|thorough|in-depth|in depth|comprehensive|exhaustive|long|lengthy|extensive)"
# a format or channel word between a length and what it qualifies ("short bullet-point summaries")
_FORMAT_WORD = r"(?:bullet(?:ed)?[- ]?points?|bulleted|numbered|written|e-?mail|slack|text|status|weekly|daily)"
# "updates that are brief" / "updates that aren't short" (the cue carries its own negation)
_THAT_IS = r"\b" + COMM + r"\s+(?:that|which)\s+(?:are|is)\s+(?:always\s+|kept\s+)?"
_THAT_IS_NOT = r"\b" + COMM + r"\s+(?:that|which)\s+(?:are\s+not|is\s+not|aren['’]?t|isn['’]?t)\s+"
# "keep explanations to the user thorough", "keep summaries for me short"
KEEP_COMM = (
    r"\bkeep\s+(?:(?:the|your|all|any|my|his|her|their)\s+)?"
    + COMM
    + r"\s+(?:(?:to|for|with)\s+(?:me|us|him|her|them|(?:the\s+)?user|(?:my\s+|our\s+|the\s+)?(?:clients?|customers?|team"
    r"|colleagues|everyone|people)|[A-ZÀ-ÖØ-Þ][\w'’-]*)\s+)?"
)
# "my preferred format for reports: a table"
_FORMAT_IS = r"\b(?:preferred|favou?rite|default|go-to|usual|ideal|best)\s+format\b[^.;!?]{0,40}?(?::|\bis\b)\s*"

# A verb or noun that ties a cue to communication (the adverb forms "write casually", the "in depth" forms)
_COMM_VERB = (
    r"(?:writ(?:e|es|ing|ten)|repl(?:y|ies)|respond|answer|explain|describe|cover|address|communicate|talk|speak|chat)"
)
# a register word after a formality adjective ("formal tone", "casual emails")
_REGISTER = r"(?:tone|language|register|style|voice|manner|wording|writing|correspondence|" + COMM[3:-1] + r")"
DEGREE = r"(?:(?:very|more|too|so|quite|strictly|a\s+bit|a\s+little|less|extra)\s+)?"
_BE_KEEP = (
    r"(?:be|being|stay|sound|keep(?:s|ing)?\s+(?:it|things|everything|them)|(?:prefer|like|want|love)s?\s+(?:it|things))"
    r"(?:\s+[\w-]+\s+(?:and|but))?"
)
"""A be/keep frame; a second value may follow another ("keep it casual and short")."""
# "call me" / "text me" is a request to be contacted only when nothing but an adverbial follows
# ("call me anytime", "text me if it's urgent"); "call me Ginger", "call me crazy" name the speaker
_CONTACT_TAIL = (
    r"(?=\s*(?:[.,;:!?)—–-]|$)|\s+(?:at|on|if|when|whenever|anytime|any\s+time|instead|rather|first|directly|please|"
    r"later|back|after|before|between|during|tomorrow|today|tonight|or|and|about|for|only|asap|once|in\s+(?:the|an?)|"
    r"with\s+(?:questions|updates|news|anything))\b)"
)

_THAT_GATE = re.compile(r"that\s+(?:are|is)|which\s+(?:are|is)")
"""Every match of a cue built on `_THAT_IS` / `_THAT_IS_NOT` ("updates that are brief")."""
_KEEP_GATE = re.compile(r"keep")
_DEPTH_GATE = re.compile(r"in (?:great |full |more |much )?(?:depth|detail)")
_SLACK_GATE = re.compile(r"slack")
_PHONE_GATE = re.compile(r"phone|voice|(?:call|ring)\s+(?:me|us)|a\s+(?:call|ring)")
_SMS_GATE = re.compile(r"text|sms|imessage|whatsapp|teams")
_VIDEO_GATE = re.compile(r"zoom|google meet|hangouts|webex|facetime|video|teams")
_IN_PERSON_GATE = re.compile(r"face.to.face|in.person|irl")

WORD_CUES: list[EnumCue] = [
    # verbosity
    EnumCue(
        name="concise-word",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(r"\b(?:concise(?:ly|ness)?|succinct(?:ly)?|terse|pithy|brevity)\b", re.I),
        keys=("concise", "succinct", "terse", "pithy", "brevity"),
    ),
    EnumCue(
        name="short-replies",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:short|shorter|brief|briefer|quick|crisp|one-line|tight)(?:\s+and\s+\w+|,\s*[\w-]+)?\s+(?:"
            + _FORMAT_WORD
            + r"\s+)?"
            + COMM
            + r"\b(?!\s*:)",
            re.I,
        ),
        keys=("short", "brief", "quick", "crisp", "one-line", "tight"),
    ),
    EnumCue(
        name="to-the-point",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:short and sweet|tl;?dr|no fluff|bottom line up front|bluf)\b"
            r"|\bto the point\b(?<!\bget to the point)(?<!\bgot to the point)(?<!\bgets to the point)(?<!getting to the point)"
            r"(?<!\breach to the point)(?<!reached to the point)(?<!\bcame to the point)(?<!\bcome to the point)(?<!\bup to the point)"
            r"(?!\s+(?:where|that|of|when))",
            re.I,
        ),
        keys=("sweet", "tl;dr", "tldr", "fluff", "bottom", "bluf", "point"),
    ),
    EnumCue(
        name="be-short",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(r"\b" + _BE_KEEP + r"\s+" + DEGREE + r"(?P<v>short|brief|concise)\b", re.I),
        keys=("short", "brief", "concise"),
    ),
    EnumCue(
        name="replies-that-are-short",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(_THAT_IS + _SHORT + r"\b", re.I),
        keys=("short", "brief", "concise", "succinct", "terse", "quick", "crisp", "snappy", "tight"),
        gate=_THAT_GATE,
    ),
    EnumCue(
        name="replies-that-are-not-long",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(_THAT_IS_NOT + _LONG + r"\b", re.I),
        keys=("detailed", "thorough", "depth", "comprehensive", "exhaustive", "long", "lengthy", "extensive"),
        gate=_THAT_GATE,
    ),
    EnumCue(
        name="keep-replies-short",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(KEEP_COMM + _SHORT + r"\b", re.I),
        keys=("short", "brief", "concise", "succinct", "terse", "quick", "crisp", "snappy", "tight"),
        gate=_KEEP_GATE,
    ),
    EnumCue(
        name="replies-that-are-long",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(_THAT_IS + _LONG + r"\b", re.I),
        keys=("detailed", "thorough", "depth", "comprehensive", "exhaustive", "long", "lengthy", "extensive"),
        gate=_THAT_GATE,
    ),
    EnumCue(
        name="replies-that-are-not-short",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(_THAT_IS_NOT + _SHORT + r"\b", re.I),
        keys=("short", "brief", "concise", "succinct", "terse", "quick", "crisp", "snappy", "tight"),
        gate=_THAT_GATE,
    ),
    EnumCue(
        name="keep-replies-long",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(KEEP_COMM + _LONG + r"\b", re.I),
        keys=("detailed", "thorough", "depth", "comprehensive", "exhaustive", "long", "lengthy", "extensive"),
        gate=_KEEP_GATE,
    ),
    EnumCue(
        name="detailed-replies",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(
            r"\b(?:detailed|thorough|in-depth|in depth|comprehensive|exhaustive|long-?form|lengthy|long|extensive|full|deep-dive)\s+(?:\w+\s+)?"
            + COMM
            + r"\b(?!\s*:)",
            re.I,
        ),
        keys=(
            "detailed",
            "thorough",
            "depth",
            "comprehensive",
            "exhaustive",
            "long",
            "lengthy",
            "extensive",
            "full",
            "deep-dive",
        ),
    ),
    EnumCue(
        name="explain-in-depth",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(
            r"\b(?:"
            + COMM[3:-1]
            + r"|"
            + _COMM_VERB
            + r"\w*)\s+(?:\w+\s+)?in (?:great |full |more |much )?(?:depth|detail)\b",
            re.I,
        ),
        keys=("depth", "detail"),
        gate=_DEPTH_GATE,
    ),
    EnumCue(
        name="lots-of-detail",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(r"\b(?:lots of|plenty of) (?:detail|details|context)\b", re.I),
        keys=("detail", "context"),
    ),
    EnumCue(
        name="verbose",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(r"\b(?:long-winded|verbose|walls? of text)\b", re.I),
        keys=("long", "verbose", "wall"),
    ),
    EnumCue(
        name="be-detailed",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(r"\b" + _BE_KEEP + r"\s+" + DEGREE + r"(?P<v>detailed|thorough|in-depth)\b", re.I),
        keys=("detailed", "thorough", "depth"),
    ),
    # channel: the channel itself, never a device or a medium ("my phone broke", "video games")
    EnumCue(
        name="email",
        attribute=EnumAttribute.CHANNEL,
        value="email",
        cue=re.compile(r"\be-?mail(?:s|ed|ing)?\b", re.I),
        keys=("mail",),
    ),
    EnumCue(
        name="slack",
        attribute=EnumAttribute.CHANNEL,
        value="slack",
        cue=re.compile(
            r"(?-i:\bSlack(?:s|ed|ing)?\b)|\bslack\s+(?:me|him|her|them|dms?|messages?)\b|\b(?:on|via|over|through)\s+slack\b",
            re.I,
        ),
        keys=("slack",),
        gate=_SLACK_GATE,
    ),
    EnumCue(
        name="phone",
        attribute=EnumAttribute.CHANNEL,
        value="phone",
        cue=re.compile(
            r"\b(?:call|ring|phone)\s+(?:me|us)\b"
            + _CONTACT_TAIL
            + r"|\bphone\s+calls?\b|\b(?:by|via|over)\s+(?:the\s+)?phone\b(?!\s+(?:number|app|screen))"
            r"|\bvoice\s*(?:calls?|mail)\b|\bgive\s+(?:me|us)\s+a\s+(?:call|ring)\b"
            r"|\b(?:prefer\w*|rather)\s+(?:the\s+)?phone\b(?!\s+(?:number|app|screen|case|bill))",
            re.I,
        ),
        keys=("call", "ring", "phone", "voice"),
        gate=_PHONE_GATE,
    ),
    EnumCue(
        name="sms",
        attribute=EnumAttribute.CHANNEL,
        value="sms",
        cue=re.compile(
            r"\btext(?:s|ing)?\s+(?:me|us)\b"
            + _CONTACT_TAIL
            + r"|\b(?:sms|text messages?|texting|imessages?|whatsapp)\b|\b(?:by|via|over)\s+text\b"
            r"|(?-i:\b(?:(?:MS|Microsoft)\s+)?Teams\s+(?:chats?|messages?|DMs?)\b)",
            re.I,
        ),
        keys=("text", "sms", "imessage", "whatsapp", "teams"),
        gate=_SMS_GATE,
    ),
    EnumCue(
        name="video",
        attribute=EnumAttribute.CHANNEL,
        value="video",
        cue=re.compile(
            r"\bzoom(?!\s+(?:in|out|around|past|by|off))\b|\bgoogle meet\b|\bhangouts\b|\bwebex\b|\bfacetime\b"
            r"|\bvideo\s+(?:calls?|chats?|conferenc\w*|meetings?)\b|\b(?:by|via|over)\s+video\b(?!\s+games?)"
            r"|(?-i:\b(?:on|via|over|through|using)\s+(?:MS\s+|Microsoft\s+)?Teams\b|\b(?:MS|Microsoft)\s+Teams\b|\bTeams\s+(?:calls?|meetings?)\b)",
            re.I,
        ),
        keys=("zoom", "meet", "hangouts", "webex", "facetime", "video", "teams"),
        gate=_VIDEO_GATE,
    ),
    EnumCue(
        name="in-person",
        attribute=EnumAttribute.CHANNEL,
        value="in_person",
        cue=re.compile(
            r"\bface[- ]to[- ]face\b(?!\s+with\s+(?:a|an|the)\b)"
            r"|\b(?:meet\w*|talk\w*|speak\w*|chat\w*|discuss\w*|catch(?:ing)?\s+up|check(?:ing)?\s+in)\s+(?:\w+\s+){0,2}?in[- ]person\b"
            r"|\bin[- ]person\s+(?:meetings?|conversations?|chats?|check-?ins?|catch-?ups?|communication|contact|discussions?|1:1s?|one-on-ones?)\b"
            r"|\b(?:prefer\w*|rather)\s+(?:to\s+(?:meet|talk|be)\s+)?in[- ]person\b|\birl\b",
            re.I,
        ),
        keys=("face", "person", "irl"),
        gate=_IN_PERSON_GATE,
    ),
    # formality: a register word, a be/keep frame or a writing verb, never an activity ("dress casually")
    EnumCue(
        name="formal",
        attribute=EnumAttribute.FORMALITY,
        value="formal",
        cue=re.compile(
            r"\bformal(?=\s+(?:and\s+\w+\s+)?"
            + _REGISTER
            + r"\b)|\b"
            + _BE_KEEP
            + r"\s+"
            + DEGREE
            + r"(?P<v>formal|stiff|stuffy)\b"
            r"|\b(?:writ(?:e|es|ing)|repl(?:y|ies)|respond|answer|address(?:ed)?|communicate|talk|speak)\s+(?:[\w'’]+\s+){0,3}?formally\b"
            r"|\bprofessional\s+(?:tone|language|register|style|voice|manner|communications?|correspondence)\b"
            r"|\bkeep(?:s|ing)?\s+(?:it|things|everything)\s+(?:strictly\s+|very\s+)?professional\b"
            r"|\bprofessional\s+(?:in|when)\s+(?:writing|written\s+\w+|" + COMM + r")\b",
            re.I,
        ),
        keys=("formal", "stiff", "stuffy", "professional"),
    ),
    EnumCue(
        name="formal-tone",
        attribute=EnumAttribute.FORMALITY,
        value="formal",
        cue=re.compile(
            r"\b(?:tone|style|register)\s+(?:(?:is|should\s+be|stays?)\s+)?" + DEGREE + r"(?P<v>formal)\b", re.I
        ),
        keys=("formal",),
    ),
    EnumCue(
        name="casual-tone",
        attribute=EnumAttribute.FORMALITY,
        value="casual",
        cue=re.compile(
            r"\b(?:tone|style|register)\s+(?:(?:is|should\s+be|stays?)\s+)?"
            + DEGREE
            + r"(?P<v>casual|informal|relaxed)\b",
            re.I,
        ),
        keys=("casual", "informal", "relaxed"),
    ),
    EnumCue(
        name="casual",
        attribute=EnumAttribute.FORMALITY,
        value="casual",
        cue=re.compile(
            r"\b(?:casual|informal|laid-back|conversational|relaxed)(?=\s+(?:and\s+\w+\s+)?" + _REGISTER + r"\b)"
            r"|\b" + _BE_KEEP + r"\s+" + DEGREE + r"(?P<v>casual|informal|laid-back|relaxed)\b"
            r"|\b(?:writ(?:e|es|ing)|repl(?:y|ies)|respond|answer|address(?:ed)?|communicate|talk|speak)\s+(?:[\w'’]+\s+){0,3}?(?:casually|informally)\b"
            r"|\brelaxed\s+(?:in|when)\s+(?:writing|written\s+\w+|"
            + COMM
            + r")\b|\bfirst[- ]name basis\b|\b(?:no|skip the|drop the) formalities\b",
            re.I,
        ),
        keys=("casual", "formal", "laid-back", "conversational", "relaxed", "first"),
    ),
    # format
    EnumCue(
        name="format-is-bullets",
        attribute=EnumAttribute.FORMAT,
        value="bullets",
        cue=re.compile(
            _FORMAT_IS + r"(?:bullet(?:ed)?(?:[- ]?points?|[- ]lists?|s)|(?:a\s+)?(?:bulleted\s+|numbered\s+)?list)\b",
            re.I,
        ),
        keys=("bullet", "list"),
    ),
    EnumCue(
        name="format-is-prose",
        attribute=EnumAttribute.FORMAT,
        value="prose",
        cue=re.compile(_FORMAT_IS + r"(?:prose|paragraphs|full sentences)\b", re.I),
        keys=("prose", "paragraphs", "sentences"),
    ),
    EnumCue(
        name="format-is-table",
        attribute=EnumAttribute.FORMAT,
        value="table",
        cue=re.compile(_FORMAT_IS + r"(?:(?:a\s+)?(?:markdown\s+)?tables?)\b", re.I),
        keys=("table",),
    ),
    EnumCue(
        name="use-tables",
        attribute=EnumAttribute.FORMAT,
        value="table",
        cue=re.compile(
            r"\buse\s+(?:a\s+)?tables?\s+(?:when|for|in)\s+(?:[\w'’]+\s+){0,2}?"
            + COMM
            + r"\b|\btables?\s+in\s+(?:(?:my|the|your|all)\s+)?"
            + COMM
            + r"\b",
            re.I,
        ),
        keys=("table",),
    ),
    EnumCue(
        name="bullets",
        attribute=EnumAttribute.FORMAT,
        value="bullets",
        cue=re.compile(
            r"\bbullet(?:ed)?(?:[- ]?points?|[- ]lists?|s|\s+form)\b|\b(?:numbered|bulleted) lists?\b|\bas a list\b|\bin list form\b"
            r"|\b(?:as|in|into)\s+(?:a\s+)?check-?lists?\b",
            re.I,
        ),
        keys=("bullet", "list"),
    ),
    EnumCue(
        name="prose",
        attribute=EnumAttribute.FORMAT,
        value="prose",
        cue=re.compile(
            r"\b(?:in|as)\s+(?:full\s+|flowing\s+|plain\s+)?(?:prose|paragraphs)\b|\b(?:flowing|plain)\s+prose\b|\bprose\s+(?:over|instead|rather|format|style)\b"
            r"|\b(?:prefer\w*|like[sd]?|want\w*|love[sd]?)\s+(?:\w+\s+)?prose\b"
            r"|\b(?:full|complete) sentences\b|\bparagraph form\b|\bnarrative (?:form|style)\b",
            re.I,
        ),
        keys=("prose", "paragraph", "sentences", "narrative"),
    ),
    EnumCue(
        name="tables",
        attribute=EnumAttribute.FORMAT,
        value="table",
        cue=re.compile(
            r"\b(?:in|as|into|using)\s+(?:a\s+)?tables?\b(?!\s+(?:saw|tennis|top|cloth|spoon|lamp|leg|salt|manners|by|at|for\s+(?:two|four|\d)))"
            r"|\btabular\b|\b(?:comparison|markdown)\s+tables?\b|\b(?:prefers?|likes?|wants?|loves?|use)\s+tables\b|\btables\s+(?:over|instead|rather)\b",
            re.I,
        ),
        keys=("table", "tabular"),
    ),
]
"""The word cues: a value word in a frame ("short replies", "keep it casual", "by phone", "as a table")."""
