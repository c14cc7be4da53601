"""Communication preferences → `enum` records (slot `preference.<attribute>`).

Attributes and values (design.md): verbosity {concise, detailed}, channel {email, slack, phone,
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
- Everyday phrasing (`_PHRASE_CUES`), in both directions: asking for less is concise ("just the
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
from functools import lru_cache

from writegate.normalizer.context import Context
from writegate.normalizer.entities import is_pronoun, is_subject_reference, name_mention, pronoun_antecedent
from writegate.normalizer.gates import factored
from writegate.normalizer.schema import EnumAttribute, EnumValue, Record, RecordKind
from writegate.normalizer.scope import PERSON_NOUNS, WORK_NOUNS, Holder, holder

_BINARY: dict[EnumAttribute, tuple[str, str]] = {
    EnumAttribute.VERBOSITY: ("concise", "detailed"),
    EnumAttribute.FORMALITY: ("formal", "casual"),
}

_COMM = (
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
_THAT_IS = r"\b" + _COMM + r"\s+(?:that|which)\s+(?:are|is)\s+(?:always\s+|kept\s+)?"
_THAT_IS_NOT = r"\b" + _COMM + r"\s+(?:that|which)\s+(?:are\s+not|is\s+not|aren['’]?t|isn['’]?t)\s+"
# "keep explanations to the user thorough", "keep summaries for me short"
_KEEP_COMM = (
    r"\bkeep\s+(?:(?:the|your|all|any|my|his|her|their)\s+)?"
    + _COMM
    + r"\s+(?:(?:to|for|with)\s+(?:me|us|him|her|them|(?:the\s+)?user|(?:my\s+|our\s+|the\s+)?(?:clients?|customers?|team"
    r"|colleagues|everyone|people)|[A-ZÀ-ÖØ-Þ][\w'’-]*)\s+)?"
)
# "my preferred format for reports: a table"
_FORMAT_IS = r"\b(?:preferred|favou?rite|default|go-to|usual|ideal|best)\s+format\b[^.;!?]{0,40}?(?::|\bis\b)\s*"
_WANT = r"(?:be|keep\s+(?:it|things|them)|prefers?\s+(?:it|things)?|likes?\s+(?:it|things)?|wants?\s+(?:it|things)?|loves?\s+(?:it|things)?)"

# A verb or noun that ties a cue to communication (the adverb forms "write casually", the "in depth" forms)
_COMM_VERB = (
    r"(?:writ(?:e|es|ing|ten)|repl(?:y|ies)|respond|answer|explain|describe|cover|address|communicate|talk|speak|chat)"
)
# a register word after a formality adjective ("formal tone", "casual emails")
_REGISTER = r"(?:tone|language|register|style|voice|manner|wording|writing|correspondence|" + _COMM[3:-1] + r")"
_DEGREE = r"(?:(?:very|more|too|so|quite|strictly|a\s+bit|a\s+little|less|extra)\s+)?"
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

# (attribute, value, pattern); case-insensitive unless the pattern says otherwise.
_CUES: tuple[tuple[EnumAttribute, str, str], ...] = (
    # verbosity
    (EnumAttribute.VERBOSITY, "concise", r"\b(?:concise(?:ly|ness)?|succinct(?:ly)?|terse|pithy|brevity)\b"),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:short|shorter|brief|briefer|quick|crisp|one-line|tight)(?:\s+and\s+\w+|,\s*[\w-]+)?\s+(?:"
        + _FORMAT_WORD
        + r"\s+)?"
        + _COMM
        + r"\b(?!\s*:)",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:short and sweet|tl;?dr|no fluff|bottom line up front|bluf)\b"
        r"|\bto the point\b(?<!\bget to the point)(?<!\bgot to the point)(?<!\bgets to the point)(?<!getting to the point)"
        r"(?<!\breach to the point)(?<!reached to the point)(?<!\bcame to the point)(?<!\bcome to the point)(?<!\bup to the point)"
        r"(?!\s+(?:where|that|of|when))",
    ),
    (EnumAttribute.VERBOSITY, "concise", r"\b" + _BE_KEEP + r"\s+" + _DEGREE + r"(?P<v>short|brief|concise)\b"),
    (EnumAttribute.VERBOSITY, "concise", _THAT_IS + _SHORT + r"\b"),
    (EnumAttribute.VERBOSITY, "concise", _THAT_IS_NOT + _LONG + r"\b"),
    (EnumAttribute.VERBOSITY, "concise", _KEEP_COMM + _SHORT + r"\b"),
    (EnumAttribute.VERBOSITY, "detailed", _THAT_IS + _LONG + r"\b"),
    (EnumAttribute.VERBOSITY, "detailed", _THAT_IS_NOT + _SHORT + r"\b"),
    (EnumAttribute.VERBOSITY, "detailed", _KEEP_COMM + _LONG + r"\b"),
    (
        EnumAttribute.VERBOSITY,
        "detailed",
        r"\b(?:detailed|thorough|in-depth|in depth|comprehensive|exhaustive|long-?form|lengthy|long|extensive|full|deep-dive)\s+(?:\w+\s+)?"
        + _COMM
        + r"\b(?!\s*:)",
    ),
    (
        EnumAttribute.VERBOSITY,
        "detailed",
        r"\b(?:"
        + _COMM[3:-1]
        + r"|"
        + _COMM_VERB
        + r"\w*)\s+(?:\w+\s+)?in (?:great |full |more |much )?(?:depth|detail)\b",
    ),
    (EnumAttribute.VERBOSITY, "detailed", r"\b(?:lots of|plenty of) (?:detail|details|context)\b"),
    (EnumAttribute.VERBOSITY, "detailed", r"\b(?:long-winded|verbose|walls? of text)\b"),
    (EnumAttribute.VERBOSITY, "detailed", r"\b" + _BE_KEEP + r"\s+" + _DEGREE + r"(?P<v>detailed|thorough|in-depth)\b"),
    # channel: the channel itself, never a device or a medium ("my phone broke", "video games")
    (EnumAttribute.CHANNEL, "email", r"\be-?mail(?:s|ed|ing)?\b"),
    (
        EnumAttribute.CHANNEL,
        "slack",
        r"(?-i:\bSlack(?:s|ed|ing)?\b)|\bslack\s+(?:me|him|her|them|dms?|messages?)\b|\b(?:on|via|over|through)\s+slack\b",
    ),
    (
        EnumAttribute.CHANNEL,
        "phone",
        r"\b(?:call|ring|phone)\s+(?:me|us)\b"
        + _CONTACT_TAIL
        + r"|\bphone\s+calls?\b|\b(?:by|via|over)\s+(?:the\s+)?phone\b(?!\s+(?:number|app|screen))"
        r"|\bvoice\s*(?:calls?|mail)\b|\bgive\s+(?:me|us)\s+a\s+(?:call|ring)\b"
        r"|\b(?:prefer\w*|rather)\s+(?:the\s+)?phone\b(?!\s+(?:number|app|screen|case|bill))",
    ),
    (
        EnumAttribute.CHANNEL,
        "sms",
        r"\btext(?:s|ing)?\s+(?:me|us)\b"
        + _CONTACT_TAIL
        + r"|\b(?:sms|text messages?|texting|imessages?|whatsapp)\b|\b(?:by|via|over)\s+text\b"
        r"|(?-i:\b(?:(?:MS|Microsoft)\s+)?Teams\s+(?:chats?|messages?|DMs?)\b)",
    ),
    (
        EnumAttribute.CHANNEL,
        "video",
        r"\bzoom(?!\s+(?:in|out|around|past|by|off))\b|\bgoogle meet\b|\bhangouts\b|\bwebex\b|\bfacetime\b"
        r"|\bvideo\s+(?:calls?|chats?|conferenc\w*|meetings?)\b|\b(?:by|via|over)\s+video\b(?!\s+games?)"
        r"|(?-i:\b(?:on|via|over|through|using)\s+(?:MS\s+|Microsoft\s+)?Teams\b|\b(?:MS|Microsoft)\s+Teams\b|\bTeams\s+(?:calls?|meetings?)\b)",
    ),
    (
        EnumAttribute.CHANNEL,
        "in_person",
        r"\bface[- ]to[- ]face\b(?!\s+with\s+(?:a|an|the)\b)"
        r"|\b(?:meet\w*|talk\w*|speak\w*|chat\w*|discuss\w*|catch(?:ing)?\s+up|check(?:ing)?\s+in)\s+(?:\w+\s+){0,2}?in[- ]person\b"
        r"|\bin[- ]person\s+(?:meetings?|conversations?|chats?|check-?ins?|catch-?ups?|communication|contact|discussions?|1:1s?|one-on-ones?)\b"
        r"|\b(?:prefer\w*|rather)\s+(?:to\s+(?:meet|talk|be)\s+)?in[- ]person\b|\birl\b",
    ),
    # formality: a register word, a be/keep frame or a writing verb, never an activity ("dress casually")
    (
        EnumAttribute.FORMALITY,
        "formal",
        r"\bformal(?=\s+(?:and\s+\w+\s+)?"
        + _REGISTER
        + r"\b)|\b"
        + _BE_KEEP
        + r"\s+"
        + _DEGREE
        + r"(?P<v>formal|stiff|stuffy)\b"
        r"|\b(?:writ(?:e|es|ing)|repl(?:y|ies)|respond|answer|address(?:ed)?|communicate|talk|speak)\s+(?:[\w'’]+\s+){0,3}?formally\b"
        r"|\bprofessional\s+(?:tone|language|register|style|voice|manner|communications?|correspondence)\b"
        r"|\bkeep(?:s|ing)?\s+(?:it|things|everything)\s+(?:strictly\s+|very\s+)?professional\b"
        r"|\bprofessional\s+(?:in|when)\s+(?:writing|written\s+\w+|" + _COMM + r")\b",
    ),
    (
        EnumAttribute.FORMALITY,
        "formal",
        r"\b(?:tone|style|register)\s+(?:(?:is|should\s+be|stays?)\s+)?" + _DEGREE + r"(?P<v>formal)\b",
    ),
    (
        EnumAttribute.FORMALITY,
        "casual",
        r"\b(?:tone|style|register)\s+(?:(?:is|should\s+be|stays?)\s+)?"
        + _DEGREE
        + r"(?P<v>casual|informal|relaxed)\b",
    ),
    (
        EnumAttribute.FORMALITY,
        "casual",
        r"\b(?:casual|informal|laid-back|conversational|relaxed)(?=\s+(?:and\s+\w+\s+)?" + _REGISTER + r"\b)"
        r"|\b" + _BE_KEEP + r"\s+" + _DEGREE + r"(?P<v>casual|informal|laid-back|relaxed)\b"
        r"|\b(?:writ(?:e|es|ing)|repl(?:y|ies)|respond|answer|address(?:ed)?|communicate|talk|speak)\s+(?:[\w'’]+\s+){0,3}?(?:casually|informally)\b"
        r"|\brelaxed\s+(?:in|when)\s+(?:writing|written\s+\w+|"
        + _COMM
        + r")\b|\bfirst[- ]name basis\b|\b(?:no|skip the|drop the) formalities\b",
    ),
    # format
    (
        EnumAttribute.FORMAT,
        "bullets",
        _FORMAT_IS + r"(?:bullet(?:ed)?(?:[- ]?points?|[- ]lists?|s)|(?:a\s+)?(?:bulleted\s+|numbered\s+)?list)\b",
    ),
    (EnumAttribute.FORMAT, "prose", _FORMAT_IS + r"(?:prose|paragraphs|full sentences)\b"),
    (EnumAttribute.FORMAT, "table", _FORMAT_IS + r"(?:(?:a\s+)?(?:markdown\s+)?tables?)\b"),
    (
        EnumAttribute.FORMAT,
        "table",
        r"\buse\s+(?:a\s+)?tables?\s+(?:when|for|in)\s+(?:[\w'’]+\s+){0,2}?"
        + _COMM
        + r"\b|\btables?\s+in\s+(?:(?:my|the|your|all)\s+)?"
        + _COMM
        + r"\b",
    ),
    (
        EnumAttribute.FORMAT,
        "bullets",
        r"\bbullet(?:ed)?(?:[- ]?points?|[- ]lists?|s|\s+form)\b|\b(?:numbered|bulleted) lists?\b|\bas a list\b|\bin list form\b"
        r"|\b(?:as|in|into)\s+(?:a\s+)?check-?lists?\b",
    ),
    (
        EnumAttribute.FORMAT,
        "prose",
        r"\b(?:in|as)\s+(?:full\s+|flowing\s+|plain\s+)?(?:prose|paragraphs)\b|\b(?:flowing|plain)\s+prose\b|\bprose\s+(?:over|instead|rather|format|style)\b"
        r"|\b(?:prefer\w*|like[sd]?|want\w*|love[sd]?)\s+(?:\w+\s+)?prose\b"
        r"|\b(?:full|complete) sentences\b|\bparagraph form\b|\bnarrative (?:form|style)\b",
    ),
    (
        EnumAttribute.FORMAT,
        "table",
        r"\b(?:in|as|into|using)\s+(?:a\s+)?tables?\b(?!\s+(?:saw|tennis|top|cloth|spoon|lamp|leg|salt|manners|by|at|for\s+(?:two|four|\d)))"
        r"|\btabular\b|\b(?:comparison|markdown)\s+tables?\b|\b(?:prefers?|likes?|wants?|loves?|use)\s+tables\b|\btables\s+(?:over|instead|rather)\b",
    ),
)
_SUMMARY_WORDS = (
    r"(?:answer|answers|result|results|bottom\s+line|gist|summary|highlights|headlines?|key\s+points|essentials|facts"
    r"|takeaways?|tl;?dr|short\s+version|conclusion)"
)
_BACKGROUND_WORDS = (
    r"(?:preamble|intros?|introductions?|small\s+talk|fluff|filler|waffle|padding|background|backstory|history|context"
    r"|caveats|disclaimers|explanations?|details|reasoning|lectures?)"
)
_PHRASE_CUES: tuple[tuple[EnumAttribute, str, str, str], ...] = (
    # asking for less is concise: "just the answer", "the short version", "skip the preamble", "no need to
    # explain", "keep it under three sentences", "less detail", "stop writing essays", "too wordy"
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:just|only|simply)\s+(?:(?:give|tell|send|show)\s+(?:me|us)\s+|(?:want|need|care\s+about)\s+)?(?:the\s+|a\s+)?"
        + _SUMMARY_WORDS
        + r"\b|\b(?:short|quick|brief|condensed|abridged|tl;?dr)\s+version\b(?!\s+of\b)",
        r"(?:just|only|simply)\s.{0,40}?(?:answer|result|bottom line|gist|summary|highlight|headline|key point|essentials|facts"
        r"|takeaway|tl;?dr|conclusion)|version",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:skip|cut|drop|lose|ditch)\s+(?:out\s+)?(?:the\s+|all\s+(?:the\s+)?|any\s+)?" + _BACKGROUND_WORDS + r"\b"
        r"|\b(?:without|minus)\s+(?:the\s+|any\s+)?(?:preamble|fluff|filler|waffle|padding|small\s+talk)\b"
        r"|\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+)?(?:need|want)\s+(?:the|all\s+the|any|your|a\s+lot\s+of)\s+"
        + _BACKGROUND_WORDS
        + r"\b|\bno\s+need\s+(?:to\s+(?:explain|elaborate|justify|walk)|for\s+(?:the\s+|any\s+)?"
        + _BACKGROUND_WORDS
        + r")\b",
        r"(?:skip|cut|drop|lose|ditch|without|minus|need|want)\s.{0,30}?(?:preamble|intro|small talk|fluff|filler|waffle|padding"
        r"|background|backstory|history|context|caveat|disclaimer|explanation|details|reasoning|lecture)|no need (?:to|for)",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:don['’]?t|do\s+not|never|stop|quit|no\s+more|no)\s+(?:\w+\s+)?(?:over-?explain\w*|elaborat\w*|rambl\w*|waffl\w*"
        r"|essays|novels|walls?\s+of\s+text|lectur\w*)"
        r"|(?:^|[,;:—–]\s*|\b(?:and|please|just|that|to)\s+)(?:get|cut|go|jump)\s+(?:straight\s+|right\s+)?to\s+the\s+point\b"
        r"(?!\s+(?:where|that|of|when))|\bcut\s+to\s+the\s+(?-i:chase)\b(?!\s+\w)",
        r"(?:don|do not|never|stop|quit|no)\b.{0,20}?(?:explain|elaborat|rambl|waffl|essays|novels|wall|lectur)|to the point"
        r"|to the chase",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\bkeep\s+(?:it|them|things|(?:(?:your|the|my|all)\s+)?"
        + _COMM
        + r")\s+(?:to|under|within|below|at\s+most)\s+"
        r"(?:a\s+)?(?:few|one|two|three|four|five|[0-9]+|a\s+couple(?:\s+of)?)\s+(?:sentences?|lines?|words?|paragraphs?|bullets?)\b"
        r"|\bin\s+(?:a|one)\s+(?:sentence|line)\s+or\s+two\b|\bin\s+(?:just\s+)?(?:one|a\s+single|a\s+few|two|three)\s+"
        r"(?:sentences?|lines?|words)\b|\bone-?liners?\b",
        r"sentence|lines|one line|single line|liner|words",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:less|fewer)\s+(?:detail|details|text|words|verbiage|explanation|explaining|context|background|rambling)\b"
        r"|\btoo\s+(?:wordy|verbose|long-winded|lengthy|much\s+(?:text|detail))\b|\btrim\s+(?:\w+\s+){0,2}?down\b"
        r"|\bthe\s+shorter\s+the\s+better\b",
        r"(?:less|fewer) \w|too (?:wordy|verbose|long-winded|lengthy|much)|trim|shorter the",
    ),
    # asking for more is detailed: "walk me through", "step by step", "the full reasoning", "don't skip steps"
    (
        EnumAttribute.VERBOSITY,
        "detailed",
        r"\bwalk\s+(?:me|us|(?:the\s+)?user)\s+through\b|\bspell\s+(?:it\s+|things\s+|everything\s+)?out\b"
        r"|\b(?:explain\w*|walk\w*|go|take|guide|answers?|instructions?|explanations?|break\s+(?:it|things)\s+down|show)\b"
        r"[^.;!?]{0,30}?\bstep[- ]by[- ]step\b|\bstep[- ]by[- ]step\s+(?:instructions|explanations?|answers?|guides?"
        r"|walkthroughs?|breakdowns?)\b"
        r"|\b(?:the\s+)?(?:full|complete|whole|entire)\s+(?:reasoning|rationale|thought\s+process|picture|story|breakdown"
        r"|explanation|derivation)\b|\b(?:long|full|extended|detailed|unabridged)\s+version\b(?!\s+of\b)"
        r"|\b(?:explain|show|share|include)\s+(?:your|the|all\s+(?:of\s+)?(?:your|the))\s+(?:reasoning|thinking|thought\s+process|logic"
        r"|rationale)\b",
        r"walk (?:me|us|the user)|spell|step.by.step|(?:full|complete|whole|entire) (?:reasoning|rationale|thought|picture|story|breakdown|explanation"
        r"|derivation)|version|(?:explain|show|share|include) .{0,20}?(?:reasoning|thinking|thought|logic|rationale)",
    ),
    (
        EnumAttribute.VERBOSITY,
        "detailed",
        r"\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+)?(?:over-?simplif\w*|dumb\s+(?:it|things)\s+down|gloss\s+over"
        r"|skip\s+(?:any\s+)?(?:steps|details|anything)|leave\s+(?:anything|stuff|things|details)\s+out|hold\s+back)"
        r"|\bmore\s+(?:detail|details|context|depth|background|explanation|examples)\b(?!\s+(?:about|on|of|regarding|for)\b)"
        r"|(?:\b(?:want|need|include|like|love|prefer\w*)|(?:^|[,;:]\s*|\b(?:please|just)\s+)give\s+(?:me|us))\s+"
        r"(?:all\s+(?:of\s+)?)?the\s+(?:gory\s+)?details\b"
        r"(?=\s*(?:[.;,!)]|$|please))",
        r"(?:don|do not|never)\b.{0,20}?(?:simplif|dumb|gloss|skip|leave|hold back)"
        r"|more (?:detail|context|depth|background|explanation|examples)|details",
    ),
    (
        EnumAttribute.FORMALITY,
        "casual",
        r"\b(?:chatty|friendly|warm|breezy|light-?hearted|playful)\s*,?\s+(?:(?:and|but)\s+)?(?:[\w-]+\s*,?\s+)?"
        r"(?:tone|style|register|voice|manner)\b|\b(?:talk|speak|write|chat)\s+(?:to|with)\s+(?:me|us)\s+like\s+(?:a\s+)?"
        r"(?:friend|buddy|mate|pal|normal\s+person|human|peer)\b",
        r"tone|style|register|voice|manner|like (?:a )?(?:friend|buddy|mate|pal|normal person|human|peer)",
    ),
    # a register after "keep <communication word>" ("keep emails to clients polished and formal")
    (
        EnumAttribute.FORMALITY,
        "formal",
        _KEEP_COMM + r"(?:[\w-]+\s+(?:and|but)\s+)?" + _DEGREE + r"(?P<v>formal|professional)\b",
        r"keep .*(?:formal|professional)",
    ),
    (
        EnumAttribute.FORMALITY,
        "casual",
        _KEEP_COMM + r"(?:[\w-]+\s+(?:and|but)\s+)?" + _DEGREE + r"(?P<v>casual|informal|relaxed|laid-back)\b",
        r"keep .*(?:casual|informal|relaxed|laid-back)",
    ),
    # a comparative register or length ("less formal", "more casual", "answer briefly")
    (
        EnumAttribute.FORMALITY,
        "formal",
        r"\b(?:more|less|too|overly)\s+(?P<v>formal|stiff|stuffy)\b",
        r"(?:more|less|too|overly) (?:formal|stiff|stuffy)",
    ),
    (
        EnumAttribute.FORMALITY,
        "casual",
        r"\b(?:more|less|too|overly)\s+(?P<v>casual|informal|relaxed|laid-back)\b",
        r"(?:more|less|too|overly) (?:casual|informal|relaxed|laid-back)",
    ),
    (
        EnumAttribute.VERBOSITY,
        "concise",
        r"\b(?:answer|repl(?:y|ies)|respond|write|explain|summari[sz]e)\w*\s+(?:[\w'’]+\s+){0,2}?(?:briefly|in\s+brief)\b",
        r"briefly|in brief",
    ),
    # channels by name and contact phrases: messaging apps are sms, a mobile number is the phone
    (
        EnumAttribute.CHANNEL,
        "sms",
        r"\b(?:message|chat|dm|ping|text|im)\s+(?:me|us)\s+(?:on|via|over|through)\s+(?-i:(?:MS\s+|Microsoft\s+)?Teams)\b"
        r"|(?-i:\b(?:Signal|Telegram|Viber|WeChat|Messenger|Threema)\b)|\ba\s+(?:quick\s+)?text\b(?!\s+(?:file|editor|box|book|document))",
        r"teams|signal|telegram|viber|wechat|messenger|threema|a text|quick text",
    ),
    (
        EnumAttribute.CHANNEL,
        "phone",
        r"\b(?:call|ring|phone|try)\s+(?:me\s+on\s+)?my\s+(?:mobile|cell(?:phone)?|phone|landline|number)\b"
        r"|\b(?:talk|speak|chat|discuss)\w*\s+(?:\w+\s+)?on\s+the\s+phone\b",
        r"my (?:mobile|cell|phone|landline|number)|on the phone",
    ),
)
_COMPILED: tuple[tuple[EnumAttribute, str, re.Pattern[str]], ...] = tuple(
    (a, v, re.compile(p, re.I)) for a, v, p in _CUES
)
_CHANNEL_GATES: dict[str, re.Pattern[str]] = {
    "slack": re.compile(r"slack"),
    "phone": re.compile(r"phone|voice|(?:call|ring)\s+(?:me|us)|a\s+(?:call|ring)"),
    "sms": re.compile(r"text|sms|imessage|whatsapp|teams"),
    "video": re.compile(r"zoom|google meet|hangouts|webex|facetime|video|teams"),
    "in_person": re.compile(r"face.to.face|in.person|irl"),
}
_AFFIX_GATES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("prefix", r"\b" + _COMM + r"\s+(?:that|which)\s+", re.compile(r"that\s+(?:are|is)|which\s+(?:are|is)")),
    ("prefix", _KEEP_COMM, re.compile(r"keep")),
    (
        "suffix",
        r"in (?:great |full |more |much )?(?:depth|detail)\b",
        re.compile(r"in (?:great |full |more |much )?(?:depth|detail)"),
    ),
)


def _cue_gate(attribute: EnumAttribute, value: str, source: str) -> re.Pattern[str] | None:
    """What every match of a cue contains, for the cues that often run for nothing: the channel cues,
    whose attribute words ("call", "ring", "text", "person") many clauses hold, and those built on
    "<noun> that is/are", "keep <noun>", "… in depth"; None for the others."""
    if attribute is EnumAttribute.CHANNEL:
        return _CHANNEL_GATES.get(value)
    for where, affix, gate in _AFFIX_GATES:
        if source.startswith(affix) if where == "prefix" else source.endswith(affix):
            return gate
    return None


_CUE_GATES: tuple[re.Pattern[str] | None, ...] = tuple(_cue_gate(a, v, p) for a, v, p in _CUES)
"""`_cue_gate` of each cue of `_COMPILED`, searched in the lower-cased clause when it is ASCII
(`gates`: exact there)."""
GatedCue = tuple[EnumAttribute, str, re.Pattern[str], re.Pattern[str] | None]
_WORD_CUES: tuple[GatedCue, ...] = tuple((a, v, p, g) for (a, v, p), g in zip(_COMPILED, _CUE_GATES, strict=True))
"""The cues of `_CUES` with their gates: each runs only when its attribute's words are in the clause (`_ATTRIBUTE_WORDS`)."""
_PHRASE_CUES_GATED: tuple[GatedCue, ...] = tuple(
    (a, v, re.compile(p, re.I), re.compile(g)) for a, v, p, g in _PHRASE_CUES
)
"""The cues of `_PHRASE_CUES` with their gates: they run when the clause has a word of `_PHRASE_WORDS`."""
# widely used language names also matched in lower case ("emails in korean"); any other name must be
# capitalised, so "talk in person" is never Persian
_LOWER_LANGS = (
    r"(?:english|spanish|french|german|italian|portuguese|dutch|polish|russian|japanese|chinese|mandarin|cantonese|korean|"
    r"arabic|hindi|turkish|swedish|norwegian|danish|finnish|greek|hebrew|czech|hungarian|romanian|ukrainian|vietnamese|"
    r"thai|indonesian|malay|tagalog|bengali|urdu|persian|farsi|swahili|catalan|croatian|serbian|bulgarian|slovak)"
)
_PHRASE_WORDS = (
    r"|version|gist|summary|highlight|headline|key point|essentials|facts|takeaway|conclusion|result|preamble|intro"
    r"|small talk|filler|waffle|padding|background|backstory|history|caveat|disclaimer|explanation|reasoning|lecture"
    r"|no need|explain|elaborat|rambl|essays|novels|chase|sentence|lines|one line|single line|liner|words|less |fewer|wordy|trim|shorter"
    r"|walk me|walk us|walk the user|spell|step by|step-by|rationale|thought process|picture|story|breakdown|derivation|thinking"
    r"|logic|simplif|dumb|gloss|skip|leave anything|leave stuff|leave things|leave details|hold back|more detail"
    r"|more context|more depth|more background|more explanation|more examples|tone|style|register|manner|me like|signal"
    r"|telegram|viber|wechat|messenger|threema|mobile|cell|landline|number|on the phone|a text|quick text|teams|answer"
    r"|bottom line|tl;dr|tldr|fluff|context|details|to the point|wall of text|walls of text|verbose|long-winded|lengthy"
    r"|too much|thought|us like|my phone|more formal|less formal|too formal|overly formal|more casual|less casual"
    r"|too casual|more relaxed|less relaxed|more informal|less informal|stiff|stuffy|briefly|in brief|formal|professional|casual|relaxed|laid-back"
)
"""Words without which no cue of `_PHRASE_CUES` matches and that the other cues' words miss: part of `_QUICK_RE`."""
_PHRASE_QUICK_RE = re.compile(factored(_PHRASE_WORDS[1:]))
"""A clause without one of these words runs no cue of `_PHRASE_CUES`."""
_ATTRIBUTE_WORDS: dict[EnumAttribute, re.Pattern[str]] = {
    EnumAttribute.VERBOSITY: re.compile(
        factored(
            r"concise|succinct|terse|pithy|brevity|short|brief|quick|crisp|one-line|tight|point|tl;?dr|fluff|bluf|bottom line"
            r"|snappy|detail|thorough|depth|comprehensive|exhaustive|long|lengthy|extensive|full|deep-dive|verbose|wall|context"
        )
    ),
    EnumAttribute.CHANNEL: re.compile(
        factored(
            r"mail|slack|call|ring|phone|voice|text|sms|imessage|whatsapp|zoom|meet|hangouts|webex|facetime|video|teams|face"
            r"|person|irl"
        )
    ),
    EnumAttribute.FORMALITY: re.compile(
        factored(
            r"formal|professional|casual|laid-back|conversational|relaxed|first.name|tone|style|register|stiff|stuffy"
        )
    ),
    EnumAttribute.FORMAT: re.compile(
        factored(r"bullet|list|prose|sentences|paragraph|narrative|table|tabular|checklist")
    ),
}
"""Per attribute, words one of its cues in `_CUES` must contain (searched in lower-cased text): a clause runs
only the cue patterns of the attributes it can hold. A cue of `_PHRASE_CUES` runs on its own gate alone."""

_QUICK_RE = re.compile(  # searched in lower-cased text: re.I makes a long alternation much slower
    factored(
        r"concise|succinct|terse|pithy|brevity|short|brief|quick|crisp|one-line|tight|point|tl;?dr|fluff|bluf|bottom line|snappy|"
        r"detail|thorough|depth|comprehensive|exhaustive|long|lengthy|extensive|full|deep-dive|verbose|wall|context|"
        r"mail|slack|call|ring|phone|voice|text|sms|imessage|whatsapp|zoom|meet|hangouts|webex|facetime|video|teams|face|person|irl|"
        r"formal|professional|casual|laid-back|conversational|relaxed|first.name|bullet|list|prose|sentences|paragraph|narrative|"
        r"table|tabular|language|in [a-z]{2}\b|prefer|reply|replies|respon|answer|write|written|wrote|speak|spoke|talk|communicat|"
        r"document|chat|switch|mov(?:e|ed|es|ing) |migrat|transition|stiff|stuffy|use " + _LOWER_LANGS + _PHRASE_WORDS
    ),
)

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
_SEGMENT_BREAK_RE = re.compile(r"[,:—–()]|\b(?:and|but|or|though|although|instead)\b", re.I)
_NEGATION_RE = re.compile(
    r"\b(?:not|no|never|don'?t|doesn'?t|didn'?t|won'?t|isn'?t|aren'?t|can'?t stand|cannot stand|hates?|dislikes?|"
    r"avoids?|without|instead of|rather than|than|stop|stopped|no longer|none|nothing|less|fewer|too many|"
    r"anything but|against|frustrated\s+(?:with|by)|annoyed\s+(?:with|by)|irritated\s+by|tired\s+of|sick\s+of|fed\s+up\s+with|"
    # a stop cue naming the value after it ("ignore formal now", "done with concise"): the value is the old one
    r"ignore|forget|scratch|drop(?:ped|ping)?|replac(?:e|ed|ing)|swap(?:ped)? out|retire[ds]?|cross(?:ed)? off|"
    r"goodbye to|used to (?:be|want|prefer|like)|previously|moved on from|done with|gone are the days of|out with)\b[^,;]*$",
    re.I,
)
# "move (over) from": a switch names the old value next
_SWITCH_FROM = (
    r"\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|chang(?:e|es|ed|ing)|go|goes|going|went|migrat\w*|transition\w*)\s+"
    r"(?:(?:over|back|everything|things|us|them)\s+)?from"
)
# "move from X to Y": X is the old value, so a cue after "from" with no "to" before it is negated
_FROM_RE = re.compile(_SWITCH_FROM + r"\b(?:(?!\bto\b)[^,;])*$", re.I)
_OVER_RE = re.compile(r"\bover\s+(?:\w+\s+)?$", re.I)
# A stop cue just after the value ("concise is outdated", "casual no longer applies", "a phone call
# ended"): the value is the old one.
_STOP_AFTER_RE = re.compile(
    r"^\s*(?:[\w'-]+\s+){0,2}?(?:"
    # a complaint about the value ("finds long replies overwhelming"): the subject wants the other
    r"\b(?:(?:is|are)\s+)?(?:overwhelming|exhausting|tiring|tedious|annoying|frustrating|too\s+much|a\s+chore|hard\s+to\s+(?:read|follow)"
    r"|a\s+waste\s+of\s+time|unbearable)\b|"
    r"\b(?:is|are|was|were|has been|have been|got|'s)\s+(?:now\s+)?(?:out|over|gone|history|done|finished|retired|outdated|obsolete|stale|"
    r"dropped|phased out|replaced|superseded|old news|no more|in the past|behind us|a thing of the past|off the table|the old \w+)\b"
    r"|\b(?:no longer|not anymore|not any longer|ended|stopped|doesn'?t apply|isn'?t the case|belongs to the past)\b)",
    re.I,
)
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
_HOLDER_RE = re.compile(
    r"^\s*(?:(?:also|now|still|really|actually)\s+)?(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*){0,2}?)"
    r"(?:(?:'s|’s)\s+(?:preferred|favou?rite|usual|go-to|default)\b|\s+(?:\w+\s+)?(?:prefers|preferred|likes|wants|loves|hates|needs|expects|asks|asked|reads|responds|replies|would rather|"
    r"appreciates|favou?rs|switched|switches|moved|moves|is\s+(?:(?:very|quite|always|more)\s+)?(?:relaxed|professional|formal|casual|informal))\b)"
)
_OTHER_SUBJECT_RE = re.compile(
    r"\s*(?:(?:also|now|still|really|actually|and|but)\s+)?(?:(?:the|our|my|his|her|their|your)\s+(?:[\w-]+\s+)?(?:"
    + PERSON_NOUNS
    + "|"
    + WORK_NOUNS
    + r"|team|clients?|customers?|company|department|board|ceo|cto|cfo|coo|vp|president|founder)"
    r"|(?:the\s+)?\w+['’]s\s+(?:[\w-]+\s+)?(?:" + PERSON_NOUNS + "|" + WORK_NOUNS + r"))\b(?!['’]s)",
    re.I,
)
"""A clause whose subject is another person: "The CEO wants …", "My team prefers …", "User's brother prefers …"."""
_REACH_RE = re.compile(
    r"\b(?:reach|contact|ping|email|message|call|text|write to|get hold of|get in touch with)\s+(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
)

# "language for Lee: French", "keep summaries to Lee detailed", "keep it professional with Lee"
_FOR_RE = re.compile(
    r"(?i:\b(?:language|format|channel|tone)\s+(?:for|with|to)|\bkeep(?:s|ing)?\s+(?:[\w'’]+\s+){0,3}?(?:to|for|with))\s+"
    r"(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
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

_NOT_HOLDERS = frozenset(
    {
        "keep",
        "use",
        "send",
        "please",
        "always",
        "never",
        "just",
        "write",
        "reply",
        "respond",
        "answer",
        "email",
        "call",
        "text",
        "ping",
        "slack",
        "give",
        "make",
        "be",
        "let",
        "avoid",
        "don't",
        "no",
        "only",
        "short",
        "brief",
        "detailed",
        "formal",
        "casual",
        "bullet",
        "bullets",
        "tables",
        "prose",
        "zoom",
        "teams",
        "phone",
        "video",
        "everyone",
        "nobody",
    }
)
_PROGRAMMING = frozenset(
    {"java", "python", "rust", "go", "ruby", "swift", "kotlin", "scala", "perl", "julia", "dart", "elixir"}
)
_CODE_STOP = frozenset(
    {
        "it",
        "on",
        "an",
        "as",
        "at",
        "be",
        "by",
        "do",
        "go",
        "he",
        "if",
        "is",
        "me",
        "my",
        "no",
        "of",
        "or",
        "so",
        "to",
        "up",
        "us",
        "we",
        "am",
        "hi",
        "id",
        "la",
        "ok",
        "pm",
        "tv",
        "ai",
        "uk",
        "eu",
    }
)
_VARIETY = (
    r"(?:(?:British|American|Canadian|Australian|Brazilian|European|Mexican|Castilian|Latin\s+American|Simplified"
    r"|Traditional|Swiss|Austrian|Belgian|Quebec)\s+)?"
)
"""A variety before a language name ("British English", "Brazilian Portuguese"): the language is the preference."""
_LANG_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        r"(?i:\b(?:(?:repl(?:y|ies|ied|ying)|respon(?:d|ds|ded|ding|ses?)|answers?|answered|answering|write|writes|wrote|written|writing|"
        r"messages?|e-?mails?|texts?|docs?|documents?|documentation|summar(?:y|ies)|"
        r"chats|updates?|reports?|notes?|memos?|correspond\w*|"
        r"address(?:ed)?|greet(?:ed)?|output|translat\w*)\b|"
        # what someone speaks ("we speak in Spanish on Saturdays") is no preference: speaking to the subject is
        r"(?:communicat\w*|talk\w*|spoke|speak\w*|chat\w*)\s+(?:to|with)\s+(?:me|us|(?:the\s+)?user)\b))\s+(?:[\w'’]+\s+){0,3}?(?i:in)\s+"
        + _VARIETY
        + r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:"
        + _LOWER_LANGS
        + r")|[a-z]{2}(?:-[A-Za-z]{2})?)"
        r"(?=\s*(?:[.,;!?)]|$|\s+(?:please|only|if|when|whenever|and|for|to|rather|instead|not|but|from|going|unless|except)\b))",
        r"(?i:\bprefer(?:s|red|ring)?)\s+(?:(?i:to\s+(?:speak|talk|write|communicate|correspond|be\s+addressed)\s+(?:in\s+)?))?"
        + _VARIETY
        + r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+)\b(?=\s*(?:[.,;:!?)]|$)|\s+(?:for|over|to|in|when|whenever|if|please|rather|instead|and|but|as|with|or|only|now|these)\b)",
        r"(?i:\b(?:preferred|working|communication|reply|response)\s+language\s+(?:is|:))\s+(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|[a-z]{2})\b",
        # "language for the user: French"
        r"(?i:\blanguage\s+(?:for|with|to)\s+)(?:me|us|(?i:(?:the\s+)?user)|[A-ZÀ-ÖØ-Þ][\w'’-]*)\s*(?i:is|:)\s*"
        r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + _LOWER_LANGS + r")|[a-z]{2})\b",
        # "switch to Dutch when you reply", "use Italian with me": the name must be a language (`language_code`)
        r"(?i:\bswitch(?:es|ed|ing)?\s+(?:over\s+|back\s+)?to|\buse)\s+(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:"
        + _LOWER_LANGS
        + r"))"
        r"(?=\s*(?:[.,;!]|$)|\s+(?:with|when|for|in|to|please|only|from|if|whenever)\b)",
        # "move from Portuguese to French": both must be languages (see _clause_cues); the new one counts
        r"(?i:" + _SWITCH_FROM + r")\s+(?P<old>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + _LOWER_LANGS + r"))\s+(?i:to)\s+"
        r"(?P<lang>[A-ZÀ-Ý][a-zà-ÿ]+|(?i:" + _LOWER_LANGS + r"))\b",
    )
)
_LANG_GATES: tuple[re.Pattern[str], ...] = (
    re.compile(
        "(?:"
        + factored(
            r"repl|respon|answer|writ|wrote|spoke|message|mail|text|doc|summar|chat|update|report|note|memo|correspond|address|greet"
            r"|output|translat|communicat|talk|speak"
        )
        + r").*\sin\s",
        re.S,
    ),
    re.compile(r"prefer"),
    re.compile(r"language"),
    re.compile(r"language"),
    re.compile(r"switch|use " + _LOWER_LANGS),
    re.compile(r"from"),
)
"""Per pattern of `_LANG_PATTERNS`, what every match of it contains (its verbs or nouns then " in ",
"prefer", "language", "from"), searched in the lower-cased clause when it is ASCII (`gates`)."""


@lru_cache(maxsize=4096)
def language_code(word: str) -> str | None:
    """ISO 639-1 code for a language name ("Spanish", "Deutsch") or code ("de"), else None."""
    import langcodes  # lazy: its name tables load on first use

    low = word.lower()
    if low in _PROGRAMMING:
        return None
    if len(word) == 2 or (len(word) == 5 and word[2] == "-"):
        code = low[:2]
        return code if code not in _CODE_STOP and word[:2].islower() and langcodes.tag_is_valid(code) else None
    try:  # an English name ("Spanish"), else the language's own name ("Deutsch", "français")
        found = langcodes.find(word, language="en")
    except LookupError:
        try:
            found = langcodes.find(word)
        except LookupError:
            return None
        if found.autonym().casefold() != low.casefold():
            return None  # a name in some other language, e.g. "Paris" is Pali somewhere: not a language here
    code = langcodes.standardize_tag(found.language or "", macro=True) if found.language else ""
    return code if len(code) == 2 and code.isalpha() else None


def _negated(before: str, after: str) -> bool:
    segment = _SEGMENT_BREAK_RE.split(before)[-1] if before else ""
    return bool(
        _NEGATION_RE.search(segment[-40:])
        or _FROM_RE.search(segment[-60:])
        or _STOP_AFTER_RE.match(_SEGMENT_BREAK_RE.split(after)[0])
    )


def _holder_is_other(clause: str, ctx: Context, before: str) -> bool:
    """True when the clause states another named person's preference, or opens with another person
    ("The CEO wants …", "User's brother prefers …", "Sam's boss likes …")."""
    if _OTHER_SUBJECT_RE.match(clause):
        return True
    for m in (_HOLDER_RE.match(clause), *_REACH_RE.finditer(clause), *_FOR_RE.finditer(clause)):
        if m is None:
            continue
        name = name_mention(m.group("name"))
        if not name:
            continue
        if is_pronoun(name):
            if pronoun_antecedent(before, ctx) is not None:
                return True
            continue
        if name.split()[0].lower() in _NOT_HOLDERS:
            continue
        if not is_subject_reference(name, ctx) and language_code(name) is None:
            return True
    return False


_TYPOGRAPHIC = str.maketrans({c: " " for c in "–—‘’“”…\u00a0"})
"""Typographic punctuation: no letter case-folds to or from these, so a clause that is ASCII but for
them is gated as ASCII (`gates`: exact on ASCII letters)."""


def _clause_cues(clause: str, context: str = "") -> list[tuple[int, EnumAttribute, str, bool]]:
    """(position, attribute, value, negated) of every cue in a clause, in order.

    Args:
        clause: the clause searched for cues.
        context: a question the clause answers; it counts only as channel context.
    """
    hits: list[tuple[int, int, EnumAttribute, str]] = []
    low = clause.lower()
    possible = {a for a, words in _ATTRIBUTE_WORDS.items() if words.search(low)}
    ascii_clause = clause.isascii() or clause.translate(_TYPOGRAPHIC).isascii()
    cues = [c for c in _WORD_CUES if c[0] in possible]
    if not ascii_clause or _PHRASE_QUICK_RE.search(low) is not None:
        cues.extend(_PHRASE_CUES_GATED)
    for attribute, value, pattern, gate in cues:
        if ascii_clause and gate is not None and gate.search(low) is None:
            continue
        # a frame before the value ("be formal") is not part of the cue: "used to be formal" negates it
        hits.extend(
            (m.start("v") if "v" in pattern.groupindex and m.start("v") >= 0 else m.start(), m.end(), attribute, value)
            for m in pattern.finditer(clause)
        )
    for pattern, gate in zip(_LANG_PATTERNS, _LANG_GATES, strict=True):
        if ascii_clause and gate.search(low) is None:
            continue
        for m in pattern.finditer(clause):
            code = language_code(m.group("lang"))
            if "old" in pattern.groupindex and language_code(m.group("old")) is None:
                continue
            if code:
                hits.append((m.start("lang"), m.end("lang"), EnumAttribute.LANGUAGE, code))
    hits.sort(key=lambda h: (h[0], -h[1]))
    out: list[tuple[int, EnumAttribute, str, bool]] = []
    last_end: dict[EnumAttribute, int] = {}
    seen_attr: set[EnumAttribute] = set()
    for start, end, attribute, value in hits:
        if start < last_end.get(attribute, -1):
            continue  # a shorter cue inside a longer one of its attribute ("on Teams" in "message me on Teams")
        last_end[attribute] = end
        before = clause[:start]
        negated = _negated(before, clause[end:]) or (attribute in seen_attr and bool(_OVER_RE.search(before)))
        if attribute is EnumAttribute.CHANNEL and not negated and not _CHANNEL_CONTEXT_RE.search(f"{context} {clause}"):
            continue
        seen_attr.add(attribute)
        out.append((start, attribute, value, negated))
    return out


def extract(text: str, ctx: Context) -> list[Record]:
    """Communication-preference enum records in `text` (one per attribute at most).

    Args:
        text: the memory text.
        ctx: the request context (subject, time, provenance, config).

    Returns:
        `kind: enum` records with slot `preference.<attribute>`; [] when none is found.
    """
    if not _QUICK_RE.search(text.lower()):
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
        if not _QUICK_RE.search(clause.lower()) and not (context and _QUICK_RE.search(context.lower())):
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
    if _SHARED_RE.search(clause) or (not _holder_is_other(source, ctx, before) and _framed(source, ctx, before)):
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
        if cues and not _holder_is_other(part, ctx, earlier) and _framed(part, ctx, earlier):
            out.append((part, cues))
    return out


def _add_records(
    records: dict[EnumAttribute, Record],
    source: str,
    cues: list[tuple[int, EnumAttribute, str, bool]],
    ctx: Context,
) -> None:
    """One record per attribute not yet in `records`: the first cue's value (a negated binary cue gives the other)."""
    for _, attribute, value, negated in cues:
        if attribute in records:
            continue
        if negated:
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
