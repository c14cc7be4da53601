"""The preference family's everyday phrases and language cues, one entry each (`enum_cues.EnumCue`).

Everyday phrasing, in both directions: asking for less is concise ("just the answer", "skip the
preamble", "keep it under three sentences"), asking for more is detailed ("walk me through", "the full
reasoning"); a friendly register is casual; messaging apps are sms, a mobile number is the phone. The
language cues read a language name or code ("replies in Spanish", "preferred language is German",
"switch to Dutch", "move from Portuguese to French"), which must be a language (`languages`).
"""

from __future__ import annotations

import re

from writegate.normalizer.enum_cues import COMM, DEGREE, KEEP_COMM, EnumCue, Found
from writegate.normalizer.gates import factored
from writegate.normalizer.languages import LOWER_LANGS, language_code
from writegate.normalizer.schema import EnumAttribute
from writegate.normalizer.scope import SWITCH_FROM

_SUMMARY_WORDS = (
    r"(?:answer|answers|result|results|bottom\s+line|gist|summary|highlights|headlines?|key\s+points|essentials|facts"
    r"|takeaways?|tl;?dr|short\s+version|conclusion)"
)
_BACKGROUND_WORDS = (
    r"(?:preamble|intros?|introductions?|small\s+talk|fluff|filler|waffle|padding|background|backstory|history|context"
    r"|caveats|disclaimers|explanations?|details|reasoning|lectures?)"
)
_VARIETY = (
    r"(?:(?:British|American|Canadian|Australian|Brazilian|European|Mexican|Castilian|Latin\s+American|Simplified"
    r"|Traditional|Swiss|Austrian|Belgian|Quebec)\s+)?"
)
"""A variety before a language name ("British English", "Brazilian Portuguese"): the language is the preference."""
_LANGUAGE_VERBS = (
    r"repl|respon|answer|writ|wrote|spoke|message|mail|text|doc|summar|chat|update|report|note|memo|correspond|address"
    r"|greet|output|translat|communicat|talk|speak"
)
"""A communication verb or noun before "in <language>" ("replies in Spanish", "write to me in German")."""


def _language(cue: EnumCue, m: re.Match[str]) -> Found | None:
    """The ISO 639-1 code of group `lang`; a switch ("from X to Y") needs X to be a language too."""
    code = language_code(m.group("lang"))
    if "old" in cue.cue.groupindex and language_code(m.group("old")) is None:
        return None
    return (m.start("lang"), m.end("lang"), code) if code else None


PHRASE_CUES: list[EnumCue] = [
    # everyday phrases: asking for less is concise ("just the answer", "skip the preamble"), for more detailed
    EnumCue(
        name="just-the-answer",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:just|only|simply)\s+(?:(?:give|tell|send|show)\s+(?:me|us)\s+|(?:want|need|care\s+about)\s+)?(?:the\s+|a\s+)?"
            + _SUMMARY_WORDS
            + r"\b|\b(?:short|quick|brief|condensed|abridged|tl;?dr)\s+version\b(?!\s+of\b)",
            re.I,
        ),
        keys=("just", "only", "simply", "version"),
        gate=re.compile(
            r"(?:just|only|simply)\s.{0,40}?(?:answer|result|bottom line|gist|summary|highlight|headline|key point|essentials|facts"
            r"|takeaway|tl;?dr|conclusion)|version"
        ),
    ),
    EnumCue(
        name="skip-the-preamble",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:skip|cut|drop|lose|ditch)\s+(?:out\s+)?(?:the\s+|all\s+(?:the\s+)?|any\s+)?"
            + _BACKGROUND_WORDS
            + r"\b"
            r"|\b(?:without|minus)\s+(?:the\s+|any\s+)?(?:preamble|fluff|filler|waffle|padding|small\s+talk)\b"
            r"|\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+)?(?:need|want)\s+(?:the|all\s+the|any|your|a\s+lot\s+of)\s+"
            + _BACKGROUND_WORDS
            + r"\b|\bno\s+need\s+(?:to\s+(?:explain|elaborate|justify|walk)|for\s+(?:the\s+|any\s+)?"
            + _BACKGROUND_WORDS
            + r")\b",
            re.I,
        ),
        keys=("skip", "cut", "drop", "lose", "ditch", "without", "minus", "need", "want"),
        gate=re.compile(
            r"(?:skip|cut|drop|lose|ditch|without|minus|need|want)\s.{0,30}?(?:preamble|intro|small talk|fluff|filler|waffle|padding"
            r"|background|backstory|history|context|caveat|disclaimer|explanation|details|reasoning|lecture)|no need (?:to|for)"
        ),
    ),
    EnumCue(
        name="dont-ramble",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:don['’]?t|do\s+not|never|stop|quit|no\s+more|no)\s+(?:\w+\s+)?(?:over-?explain\w*|elaborat\w*|rambl\w*|waffl\w*"
            r"|essays|novels|walls?\s+of\s+text|lectur\w*)"
            r"|(?:^|[,;:—–]\s*|\b(?:and|please|just|that|to)\s+)(?:get|cut|go|jump)\s+(?:straight\s+|right\s+)?to\s+the\s+point\b"
            r"(?!\s+(?:where|that|of|when))|\bcut\s+to\s+the\s+(?-i:chase)\b(?!\s+\w)",
            re.I,
        ),
        keys=("explain", "elaborat", "rambl", "waffl", "essays", "novels", "wall", "lectur", "point", "chase"),
        gate=re.compile(
            r"(?:dont?|do not|never|stop|quit|no)\b.*?(?:explain|elaborat|rambl|waffl|essays|novels|wall|lectur)|to the point"
            r"|to the chase"
        ),
    ),
    EnumCue(
        name="in-a-few-sentences",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\bkeep\s+(?:it|them|things|(?:(?:your|the|my|all)\s+)?"
            + COMM
            + r")\s+(?:to|under|within|below|at\s+most)\s+"
            r"(?:a\s+)?(?:few|one|two|three|four|five|[0-9]+|a\s+couple(?:\s+of)?)\s+(?:sentences?|lines?|words?|paragraphs?|bullets?)\b"
            r"|\bin\s+(?:a|one)\s+(?:sentence|line)\s+or\s+two\b|\bin\s+(?:just\s+)?(?:one|a\s+single|a\s+few|two|three)\s+"
            r"(?:sentences?|lines?|words)\b|\bone-?liners?\b",
            re.I,
        ),
        keys=("sentence", "line", "word", "paragraph", "bullet"),
        gate=re.compile(r"sentence|line|word|paragraph|bullet"),
    ),
    EnumCue(
        name="less-detail",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:less|fewer)\s+(?:detail|details|text|words|verbiage|explanation|explaining|context|background|rambling)\b"
            r"|\btoo\s+(?:wordy|verbose|long-winded|lengthy|much\s+(?:text|detail))\b|\btrim\s+(?:\w+\s+){0,2}?down\b"
            r"|\bthe\s+shorter\s+the\s+better\b",
            re.I,
        ),
        keys=("less", "fewer", "too", "trim", "shorter"),
        gate=re.compile(r"(?:less|fewer) \w|too (?:wordy|verbose|long-winded|lengthy|much)|trim|shorter the"),
    ),
    EnumCue(
        name="walk-me-through",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(
            r"\bwalk\s+(?:me|us|(?:the\s+)?user)\s+through\b|\bspell\s+(?:it\s+|things\s+|everything\s+)?out\b"
            r"|\b(?:explain\w*|walk\w*|go|take|guide|answers?|instructions?|explanations?|break\s+(?:it|things)\s+down|show)\b"
            r"[^.;!?]{0,30}?\bstep[- ]by[- ]step\b|\bstep[- ]by[- ]step\s+(?:instructions|explanations?|answers?|guides?"
            r"|walkthroughs?|breakdowns?)\b"
            r"|\b(?:the\s+)?(?:full|complete|whole|entire)\s+(?:reasoning|rationale|thought\s+process|picture|story|breakdown"
            r"|explanation|derivation)\b|\b(?:long|full|extended|detailed|unabridged)\s+version\b(?!\s+of\b)"
            r"|\b(?:explain|show|share|include)\s+(?:your|the|all\s+(?:of\s+)?(?:your|the))\s+(?:reasoning|thinking|thought\s+process|logic"
            r"|rationale)\b",
            re.I,
        ),
        keys=(
            "walk",
            "spell",
            "step",
            "full",
            "complete",
            "whole",
            "entire",
            "version",
            "explain",
            "show",
            "share",
            "include",
        ),
        gate=re.compile(
            r"walk (?:me|us|the user)|spell|step.by.step|(?:full|complete|whole|entire) (?:reasoning|rationale|thought|picture|story|breakdown|explanation"
            r"|derivation)|version|(?:explain|show|share|include) .{0,20}?(?:reasoning|thinking|thought|logic|rationale)"
        ),
    ),
    EnumCue(
        name="dont-skip-steps",
        attribute=EnumAttribute.VERBOSITY,
        value="detailed",
        cue=re.compile(
            r"\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+)?(?:over-?simplif\w*|dumb\s+(?:it|things)\s+down|gloss\s+over"
            r"|skip\s+(?:any\s+)?(?:steps|details|anything)|leave\s+(?:anything|stuff|things|details)\s+out|hold\s+back)"
            r"|\bmore\s+(?:detail|details|context|depth|background|explanation|examples)\b(?!\s+(?:about|on|of|regarding|for)\b)"
            r"|(?:\b(?:want|need|include|like|love|prefer\w*)|(?:^|[,;:]\s*|\b(?:please|just)\s+)give\s+(?:me|us))\s+"
            r"(?:all\s+(?:of\s+)?)?the\s+(?:gory\s+)?details\b"
            r"(?=\s*(?:[.;,!)]|$|please))",
            re.I,
        ),
        keys=("simplif", "dumb", "gloss", "skip", "leave", "hold", "more", "details"),
        gate=re.compile(
            r"(?:dont?|do not|never)\b.*?(?:simplif|dumb|gloss|skip|leave|hold back)"
            r"|more (?:detail|context|depth|background|explanation|examples)|details"
        ),
    ),
    EnumCue(
        name="friendly-tone",
        attribute=EnumAttribute.FORMALITY,
        value="casual",
        cue=re.compile(
            r"\b(?:chatty|friendly|warm|breezy|light-?hearted|playful)\s*,?\s+(?:(?:and|but)\s+)?(?:[\w-]+\s*,?\s+)?"
            r"(?:tone|style|register|voice|manner)\b|\b(?:talk|speak|write|chat)\s+(?:to|with)\s+(?:me|us)\s+like\s+(?:a\s+)?"
            r"(?:friend|buddy|mate|pal|normal\s+person|human|peer)\b",
            re.I,
        ),
        keys=("tone", "style", "register", "voice", "manner", "like"),
        gate=re.compile(
            r"tone|style|register|voice|manner|like (?:a )?(?:friend|buddy|mate|pal|normal person|human|peer)"
        ),
    ),
    # a register after "keep <communication word>" ("keep emails to clients polished and formal")
    EnumCue(
        name="keep-replies-formal",
        attribute=EnumAttribute.FORMALITY,
        value="formal",
        cue=re.compile(KEEP_COMM + r"(?:[\w-]+\s+(?:and|but)\s+)?" + DEGREE + r"(?P<v>formal|professional)\b", re.I),
        keys=("formal", "professional"),
        gate=re.compile(r"keep .*(?:formal|professional)"),
    ),
    EnumCue(
        name="keep-replies-casual",
        attribute=EnumAttribute.FORMALITY,
        value="casual",
        cue=re.compile(
            KEEP_COMM + r"(?:[\w-]+\s+(?:and|but)\s+)?" + DEGREE + r"(?P<v>casual|informal|relaxed|laid-back)\b",
            re.I,
        ),
        keys=("casual", "informal", "relaxed", "laid-back"),
        gate=re.compile(r"keep .*(?:casual|informal|relaxed|laid-back)"),
    ),
    # a comparative register or length ("less formal", "more casual", "answer briefly")
    EnumCue(
        name="less-formal",
        attribute=EnumAttribute.FORMALITY,
        value="formal",
        cue=re.compile(r"\b(?:more|less|too|overly)\s+(?P<v>formal|stiff|stuffy)\b", re.I),
        keys=("formal", "stiff", "stuffy"),
        gate=re.compile(r"(?:more|less|too|overly) (?:formal|stiff|stuffy)"),
    ),
    EnumCue(
        name="more-casual",
        attribute=EnumAttribute.FORMALITY,
        value="casual",
        cue=re.compile(r"\b(?:more|less|too|overly)\s+(?P<v>casual|informal|relaxed|laid-back)\b", re.I),
        keys=("casual", "informal", "relaxed", "laid-back"),
        gate=re.compile(r"(?:more|less|too|overly) (?:casual|informal|relaxed|laid-back)"),
    ),
    EnumCue(
        name="answer-briefly",
        attribute=EnumAttribute.VERBOSITY,
        value="concise",
        cue=re.compile(
            r"\b(?:answer|repl(?:y|ies)|respond|write|explain|summari[sz]e)\w*\s+(?:[\w'’]+\s+){0,2}?(?:briefly|in\s+brief)\b",
            re.I,
        ),
        keys=("brief",),
        gate=re.compile(r"briefly|in brief"),
    ),
    # channels by name and contact phrases: messaging apps are sms, a mobile number is the phone
    EnumCue(
        name="messaging-app",
        attribute=EnumAttribute.CHANNEL,
        value="sms",
        cue=re.compile(
            r"\b(?:message|chat|dm|ping|text|im)\s+(?:me|us)\s+(?:on|via|over|through)\s+(?-i:(?:MS\s+|Microsoft\s+)?Teams)\b"
            r"|(?-i:\b(?:Signal|Telegram|Viber|WeChat|Messenger|Threema)\b)|\ba\s+(?:quick\s+)?text\b(?!\s+(?:file|editor|box|book|document))",
            re.I,
        ),
        keys=("teams", "signal", "telegram", "viber", "wechat", "messenger", "threema", "text"),
        gate=re.compile(r"teams|signal|telegram|viber|wechat|messenger|threema|a text|quick text"),
    ),
    EnumCue(
        name="my-mobile",
        attribute=EnumAttribute.CHANNEL,
        value="phone",
        cue=re.compile(
            r"\b(?:call|ring|phone|try)\s+(?:me\s+on\s+)?my\s+(?:mobile|cell(?:phone)?|phone|landline|number)\b"
            r"|\b(?:talk|speak|chat|discuss)\w*\s+(?:\w+\s+)?on\s+the\s+phone\b",
            re.I,
        ),
        keys=("mobile", "cell", "phone", "landline", "number"),
        gate=re.compile(r"my (?:mobile|cell|phone|landline|number)|on the phone"),
    ),
]
"""Everyday phrases, each with its own gate."""

LANGUAGE_CUES: list[EnumCue] = [
    # language: only about how to communicate with the subject ("replies in Spanish", "prefers French")
    EnumCue(
        name="reply-in",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:\b(?:(?:repl(?:y|ies|ied|ying)|respon(?:d|ds|ded|ding|ses?)|answers?|answered|answering|write|writes|wrote|written|writing|"
            r"messages?|e-?mails?|texts?|docs?|documents?|documentation|summar(?:y|ies)|"
            r"chats|updates?|reports?|notes?|memos?|correspond\w*|"
            r"address(?:ed)?|greet(?:ed)?|output|translat\w*)\b|"
            # what someone speaks ("we speak in Spanish on Saturdays") is no preference: speaking to the subject is
            r"(?:communicat\w*|talk\w*|spoke|speak\w*|chat\w*)\s+(?:to|with)\s+(?:me|us|(?:the\s+)?user)\b))\s+(?:[\w'’]+\s+){0,3}?(?i:in)\s+"
            + _VARIETY
            + r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:"
            + LOWER_LANGS
            + r")|[a-z]{2}(?:-[A-Za-z]{2})?)"
            r"(?=\s*(?:[.,;!?)]|$|\s+(?:please|only|if|when|whenever|and|for|to|rather|instead|not|but|from|going|unless|except)\b))"
        ),
        keys=tuple(_LANGUAGE_VERBS.split("|")),
        gate=re.compile("(?:" + factored(_LANGUAGE_VERBS) + r").*\sin\s", re.S),
        read=_language,
    ),
    EnumCue(
        name="prefers-language",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:\bprefer(?:s|red|ring)?)\s+(?:(?i:to\s+(?:speak|talk|write|communicate|correspond|be\s+addressed)\s+(?:in\s+)?))?"
            + _VARIETY
            + r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+)\b(?=\s*(?:[.,;:!?)]|$)|\s+(?:for|over|to|in|when|whenever|if|please|rather|instead|and|but|as|with|or|only|now|these)\b)"
        ),
        keys=("prefer",),
        gate=re.compile(r"prefer"),
        read=_language,
    ),
    EnumCue(
        name="preferred-language",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:\b(?:preferred|working|communication|reply|response)\s+language\s+(?:is|:))\s+(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|[a-z]{2})\b"
        ),
        keys=("language",),
        gate=re.compile(r"language"),
        read=_language,
    ),
    EnumCue(
        name="language-for",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:\blanguage\s+(?:for|with|to)\s+)(?:me|us|(?i:(?:the\s+)?user)|[A-ZÀ-ÖØ-Þ][\w'’-]*)\s*(?i:is|:)\s*"
            r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + LOWER_LANGS + r")|[a-z]{2})\b"
        ),
        keys=("language",),
        gate=re.compile(r"language"),
        read=_language,
    ),
    EnumCue(
        name="switch-to-language",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:\bswitch(?:es|ed|ing)?\s+(?:over\s+|back\s+)?to|\buse)\s+(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:"
            + LOWER_LANGS
            + r"))"
            r"(?=\s*(?:[.,;!]|$)|\s+(?:with|when|for|in|to|please|only|from|if|whenever)\b)"
        ),
        keys=("switch", "use"),
        gate=re.compile(r"switch|use\s"),
        read=_language,
    ),
    EnumCue(
        name="switch-from-language",
        attribute=EnumAttribute.LANGUAGE,
        cue=re.compile(
            r"(?i:" + SWITCH_FROM + r")\s+(?P<old>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + LOWER_LANGS + r"))\s+(?i:to)\s+"
            r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + LOWER_LANGS + r"))\b"
        ),
        keys=("from",),
        gate=re.compile(r"from"),
        read=_language,
    ),
]
"""The language cues: their value is the code of the language the match names."""
