"""Whose fact is it, is it a current fact, and is it negated? The checks the rule families share.

A typed record states a current fact about the request's subject. A rule family finds a cue (the
verb phrase it types: "lives in", "works as", "is a") and asks about the words around it, in the
cue's clause. Every such check lives here; where families read a question differently, the one
function takes the difference as an explicit parameter (named below), so the variants sit side by
side:

* segments: `segment_before` / `segment_after` cut the text at a family's breaks (`LIST_BREAKS`,
  `CLAUSE_BREAKS`, `CLAUSE_ENDS`, `PREFERENCE_BREAKS`, `SCHEDULE_BREAKS`);
* negation: `negated(before, negation, after)` with a family's `Negation`: `EDGE_NEGATION` (any
  "not", "no longer", "used to", "if", "would" in the segment before an edge cue),
  `PREFERENCE_NEGATION` (the last 40 characters of the segment before a preference cue, or a stop cue
  right after it: "concise is outdated"), `SWITCHED_FROM` (the old value of "move from X to Y") and
  `REQUEST_NEGATION` (a booking request anywhere in a sentence, "don't book …");
* whose fact: `holder` (the words left of a cue: timezones, the preference frame), `someone_elses`
  (a sentence that opens with another person: time windows, stated zones), `preference_of_other`
  (another person's preference: "Lee prefers Slack", "the best way to reach Lee") and
  `speaks_as_speaker` (an unresolved "he"/"she" beside "I" is someone else: edges). The earlier
  text names another person, for a later pronoun, by `names_someone` with `FACT_ANTECEDENTS` or
  `SCHEDULE_ANTECEDENTS`: the two families read antecedents differently ("one of those guys" names
  someone for a schedule, "Maria" opening a sentence for a fact);
* `irrealis`: a plan, wish, hypothetical or future ("I want to move to Texas", "I'm moving to
  Florida soon", "saving to move", "when I am in Hong Kong", "if I lived in Paris").
* `past_state`: a state that no longer holds ("I was a teacher", "I grew up in Ohio", "I used to
  live in Paris", "I retired from nursing", "years ago").
* `stay`: being somewhere for a while, not living there ("in Paris for a few days", "in Dubai on
  business until Thursday", "in Tokyo for a conference this week").
* `holds_since`: a perfect that lasts until now ("I've lived in Oslo since 2019", "… for ten
  years"), where "I've lived in Japan" alone may be past.

`holder`: who the clause is about. "my brother is a doctor", "her family lives in Spain", "I have a
sister who lives in Spain", "Maria lives in Rome" are about someone else; "I", "we", "the user", the
subject's name, and a subject-less note ("Lives in Austin") are about the subject; a third-person
pronoun is the subject only when no other person was named before it.

Each check is a few precompiled regexes over at most one clause: the families call them only
after a cue matched, so they cost nothing on texts without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from writegate.normalizer.context import Context
from writegate.normalizer.entities import is_pronoun, is_subject_reference, name_mention, pronoun_antecedent
from writegate.normalizer.languages import language_code

PERSON_NOUNS = (
    r"mom|mum|mother|dad|father|parents?|brothers?|sisters?|siblings?|wife|husband|spouse|partner|boyfriend"
    r"|girlfriend|fianc[eé]e?|sons?|daughters?|kids?|child|children|bab(?:y|ies)|family|grand(?:ma|pa|mother|father|"
    r"parents?|kids?|children|sons?|daughters?)|aunts?|uncles?|cousins?|nieces?|nephews?|in-laws?|friends?"
    r"|roommates?|room-mates?|neighbou?rs?|co-?workers?|colleagues?|classmates?|students?|clients?|customers?"
    r"|dogs?|cats?|pets?|twins?|relatives?|folks|people|guys?|men|women|man|woman|boy|girl|teacher|doctor|wife's|"
    r"husband's"
)
"""Nouns for people (and pets) other than the speaker: "my <noun>" is someone else."""

WORK_NOUNS = (
    r"managers?|boss(?:es)?|co-?founders?|assistants?|ceo|cto|cfo|coo|supervisors?|team\s+leads?|teammates?"
    r"|direct\s+reports?|directors?|vp"
)
"""Nouns for the people someone works with, read after a possessive: "my manager prefers …" is the
manager's preference ("I'm a director" is the speaker). "My team" is not among them: "my team's
standup" is the speaker's schedule too; `holder` alone reads "my team prefers …" as someone else."""

_OTHER_RE = re.compile(
    r"\b(?:my|our|his|her|their|your|a|an|the|one\s+of\s+my)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b(?:['’]s)?"
    r"|\b(?:my|our|his|her|their|your)\s+(?:[\w-]+\s+)?(?:" + WORK_NOUNS + r"|team)\b(?:['’]s)?"
    r"|\b\w+['’]s\s+(?:[\w-]+\s+)?(?:" + PERSON_NOUNS + "|" + WORK_NOUNS + r")\b"
    r"|\b(?:he|she|they|it|you|everyone|everybody|someone|somebody|nobody|people)\b",
    re.I,
)
_FIRST_PERSON_RE = re.compile(
    r"\b(?:i|i['’]m|i['’]ve|i['’]d|i['’]ll|we|we['’]re|we['’]ve|me|myself|the\s+user)\b", re.I
)
_RELATIVE_RE = re.compile(r"\b(?:who|that|which|whose)\b\s*(?:\w+\s+){0,2}$", re.I)
_NAME_BEFORE_RE = re.compile(r"(?:^|[\s,(])([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?:['’]s)?\s*(?:\w+\s+){0,2}$")
_NOT_NAMES = frozenset(
    {
        "i",
        "i'm",
        "i've",
        "i'd",
        "i'll",
        "we",
        "my",
        "our",
        "the",
        "a",
        "an",
        "and",
        "but",
        "so",
        "now",
        "currently",
        "also",
        "still",
        "recently",
        "just",
        "actually",
        "then",
        "today",
        "user",
        "he",
        "she",
        "they",
        "it",
        "you",
        "yes",
        "no",
        "well",
        "oh",
        "ah",
        "hi",
        "hello",
        "hey",
        "lol",
        "haha",
        "sure",
        "ok",
        "okay",
        "wow",
        "yeah",
        "lives",
        "live",
        "works",
        "work",
        "is",
        "am",
        "was",
        "based",
        "moved",
        "located",
        "in",
        "at",
        "on",
        "from",
    }
)

_IRREALIS_LEFT_RE = re.compile(
    r"\b(?:wants?\s+to|wanted\s+to|wanna|would|could|might|may|should|shall|will|gonna|going\s+to|['’]d|['’]ll"
    r"|hopes?|hoping|hoped|plans?|planning|planned|intends?|intending|thinking\s+(?:of|about)|think\s+about"
    r"|consider(?:s|ing)?|dreams?|dreaming|dreamed|wish(?:es|ing)?|sav(?:e|es|ing)(?:\s+up)?\s+(?:to|for)"
    r"|trying\s+to|tries\s+to|try\s+to|about\s+to|looking\s+to|looking\s+forward\s+to|can['’]?t\s+wait\s+to"
    r"|need\s+to|needs\s+to|have\s+to|has\s+to|if|unless|when|whenever|once|someday|one\s+day|eventually"
    r"|maybe|perhaps|possibly|probably|interested\s+in|excited\s+to|ready\s+to|decided\s+to|(?:am|are|is|['’]m|['’]re"
    r"|['’]s)\s+(?:\w+\s+)?(?:moving|relocating|heading|going|transferring|getting\s+transferred))\b",
    re.I,
)
_IRREALIS_RIGHT_RE = re.compile(
    r"\b(?:soon|someday|one\s+day|eventually|in\s+the\s+future|next\s+(?:week|month|year|summer|spring|fall|winter)"
    r"|in\s+(?:a\s+few|\d+|two|three|a\s+couple\s+of)\s+(?:days|weeks|months|years)|after\s+(?:i|we)\s+(?:retire|graduate)"
    r"|when\s+i\s+retire|one\s+of\s+these\s+days|if\s+)\b",
    re.I,
)
_PAST_LEFT_RE = re.compile(
    r"\b(?:was|were|used\s+to|grew\s+up|raised|born|previously|formerly|former|ex|retired|had\s+been|back\s+when"
    r"|once|before|until|in\s+the\s+past|years\s+ago|as\s+a\s+(?:kid|child|teen|teenager))\b"
    r"|\b(?:lived|worked)\b(?!\s+(?:here|there)\b)",
    re.I,
)
_PAST_RIGHT_RE = re.compile(
    r"\b(?:years\s+ago|ago|as\s+a\s+(?:kid|child|teen|teenager)|in\s+the\s+past|growing\s+up|when\s+i\s+was"
    r"|before\s+(?:i|we)|until\s+(?:recently|last)|in\s+(?:college|high\s+school))\b",
    re.I,
)


class Holder(str, Enum):
    """Who a clause states a fact about."""

    SUBJECT = "subject"
    OTHER = "other"


def holder(left: str, ctx: Context, earlier: str = "") -> Holder:
    """Who the fact whose cue follows `left` is about.

    Args:
        left: the cue's clause up to the cue ("My wife's family", "I have a sister who", "I").
        ctx: the request (its subject's name counts as the subject).
        earlier: the text before the clause; a third-person pronoun refers to someone else when
            that text names another person ("My mom is a nurse. She lives in Ohio.").

    Returns:
        `Holder.OTHER` when the clause's subject is another person, else `Holder.SUBJECT`
        (first person, "the user", the subject's name, or no subject at all: a note).
    """
    words = left.strip()
    if not words:
        return Holder.SUBJECT
    if _RELATIVE_RE.search(words) and _OTHER_RE.search(words):
        return Holder.OTHER  # "I have a sister who …"
    last_first = _last(_FIRST_PERSON_RE, words)
    last_other = _last(_OTHER_RE, words)
    name = _NAME_BEFORE_RE.search(words)
    if (
        name is not None
        and name.group(1).split()[0].lower() not in _NOT_NAMES
        and not is_subject_reference(name.group(1), ctx)
    ):
        last_other = max(last_other, name.start(1))
    if last_other < 0:
        return Holder.SUBJECT
    if last_first > last_other:
        return Holder.SUBJECT
    pronoun = re.fullmatch(r"(?i:he|she|they)", words[last_other:].split()[0]) is not None
    if pronoun and not names_someone(earlier, ctx, FACT_ANTECEDENTS):
        return Holder.SUBJECT  # a pronoun with no other antecedent is the subject
    return Holder.OTHER


def _last(pattern: re.Pattern[str], text: str) -> int:
    start = -1
    for m in pattern.finditer(text):
        start = m.start()
    return start


@dataclass(frozen=True)
class Antecedents:
    """How a family reads, in the text before a sentence, that it names another person.

    Attributes:
        others: another person as a noun phrase ("my mom", "this guy").
        names: a name opening a sentence (group 1).
        not_name: whether a word that `names` found is no person ("Lunch", "I").
    """

    others: re.Pattern[str]
    names: re.Pattern[str]
    not_name: Callable[[str], bool]


FACT_ANTECEDENTS = Antecedents(
    others=re.compile(r"\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b", re.I),
    names=re.compile(r"(?:^|[.!?;]\s+)([A-Z][a-z]+)\b"),
    not_name=lambda word: word.lower() in _NOT_NAMES,
)
"""For a fact (`holder`): a possessive person noun, or any capitalised word opening a sentence."""


def names_someone(text: str, ctx: Context, antecedents: Antecedents) -> bool:
    """True when `text` names a person other than the subject, read as `antecedents` says.

    Args:
        text: the text before the sentence whose "he"/"she"/"they" is in question.
        ctx: the request (its subject's name is no other person).
        antecedents: the family's reading: `FACT_ANTECEDENTS` or `SCHEDULE_ANTECEDENTS`.
    """
    if antecedents.others.search(text):
        return True
    for m in antecedents.names.finditer(text):
        if not antecedents.not_name(m.group(1)) and not is_subject_reference(m.group(1), ctx):
            return True
    return False


def irrealis(left: str, right: str = "") -> bool:
    """True when the cue's clause states a plan, wish, hypothetical or future, not a current fact.

    Args:
        left: the clause up to and including the cue ("I am thinking of moving to", "I'm moving to",
            "when I am in").
        right: the clause after the cue's object ("soon", "next year").
    """
    return _IRREALIS_LEFT_RE.search(left) is not None or _IRREALIS_RIGHT_RE.search(right) is not None


def past_state(left: str, right: str = "") -> bool:
    """True when the clause states a state that no longer holds ("I was a nurse", "grew up in Ohio").

    A past *move* is a current fact ("I moved to Texas"): families call this only for states
    (live, be, work as).
    """
    return _PAST_LEFT_RE.search(left) is not None or _PAST_RIGHT_RE.search(right) is not None


_STAY_RE = re.compile(
    r"\bfor\s+(?:a|an|the|one|two|three|four|five|six|few|couple|several|[0-9]+)\b[^.;!?]{0,25}?"
    r"\b(?:days?|nights?|weeks?|weekend|months?|summer|winter|holidays?|conference|trip|visit|wedding|meeting|work|business)\b"
    r"|\bfor\s+(?:work|business|pleasure|vacation|holiday|fun|leisure)\b"
    r"|\bon\s+(?:holiday|vacation|business|leave|(?:a|my|the)\s+(?:[\w-]+\s+)?(?:trip|visit|holiday|vacation|break))\b"
    r"|\b(?:until|till|through)\b|\b(?:this|next)\s+(?:week|weekend|month)\b|\bover\s+the\s+(?:weekend|holidays?|break|summer)\b"
    r"|\bvisiting\b",
    re.I,
)
"""After a place, what makes being there a stay, not a home: a length of stay, a holiday or business, an end date."""


def stay(right: str) -> bool:
    """True when what follows a place makes being there a stay, not a home (a trip, a holiday, a visit).

    Args:
        right: the clause after the place ("for a few days on holiday", "on business until Thursday").
    """
    return _STAY_RE.search(right) is not None


_SINCE_RE = re.compile(
    r"^[^.;!?]{0,40}?\b(?:since\b|for\s+(?:the\s+(?:past|last)\s+)?(?:[\w-]+\s+){0,2}(?:years?|months?|decades?)\b|now\b)",
    re.I,
)


def holds_since(right: str) -> bool:
    """True when the clause after a perfect ("I've lived in Oslo") says it lasts until now ("since 2019").

    Args:
        right: the clause after the cue or its place.
    """
    return _SINCE_RE.search(right) is not None


# ---- segments and negation ---------------------------------------------------------------------

LIST_BREAKS = re.compile(r"[,;:]|\b(?:and|but)\b")
"""Where an edge cue's negation stops reaching back: "not", "and", "but" (lower case only: "But" opens a sentence)."""
CLAUSE_BREAKS = re.compile(r"[,;:]|\b(?:and|but|so|because|since|although|though|whereas|or)\b", re.I)
"""Where the clause of a role or place cue starts, for its plan, past and visit checks."""
CLAUSE_ENDS = re.compile(r"[,.;:!?]|\b(?:but|and|so|because)\b", re.I)
"""Where the words after a role or place cue stop counting."""
SCHEDULE_BREAKS = re.compile(r"\s[—–-]\s|;|\(|\)|,\s+(?=(?:but|and|while|though|although|whereas|not)\b)")
"""Where a sentence with a time splits into parts that are past or planned on their own (`standing.is_not_current`)."""
PREFERENCE_BREAKS = re.compile(r"[,:—–()]|\b(?:and|but|or|though|although|instead)\b", re.I)
"""Where a preference cue's segment starts and ends ("prose, not bullet points", "Slack (not email)")."""


def segment_before(text: str, breaks: re.Pattern[str]) -> str:
    """The part of `text` after its last break: the segment a cue that follows `text` is in."""
    return breaks.split(text)[-1]


def segment_after(text: str, breaks: re.Pattern[str]) -> str:
    """The part of `text` before its first break: the segment a cue that precedes `text` is in."""
    return breaks.split(text, maxsplit=1)[0]


@dataclass(frozen=True)
class Negation:
    """How a family reads a negated cue.

    Attributes:
        words: what negates, searched in the segment before the cue.
        breaks: where that segment starts; None: the whole text before the cue.
        reach: only the segment's last `reach` characters count; None: all of it.
        after: a stop word right after the cue's value ("concise is outdated"), matched at the start of
            the segment after the cue; None: nothing after the cue negates it.
    """

    words: re.Pattern[str]
    breaks: re.Pattern[str] | None = None
    reach: int | None = None
    after: re.Pattern[str] | None = None


def negated(before: str, negation: Negation, after: str = "") -> bool:
    """True when the cue between `before` and `after` is negated, read as `negation` says.

    Args:
        before: the text before the cue (its clause, or the whole text before it).
        negation: the family's reading (`EDGE_NEGATION`, `PREFERENCE_NEGATION`, `SWITCHED_FROM`…).
        after: the text after the cue.
    """
    segment = before if negation.breaks is None else segment_before(before, negation.breaks)
    if negation.reach is not None:
        segment = segment[-negation.reach :]
    if negation.words.search(segment):
        return True
    if negation.after is None:
        return False
    return negation.after.match(after if negation.breaks is None else segment_after(after, negation.breaks)) is not None


EDGE_NEGATION = Negation(
    re.compile(
        r"\b(?:not|never|no longer|n't|used to|formerly|previously|once|former|ex|no one|nobody|if|whether|might|"
        r"should|would)\b|n't\b",
        re.I,
    ),
    LIST_BREAKS,
)
"""An edge cue is negated, past or hypothetical: "doesn't report to", "used to manage", "if Lee leads"."""
PREFERENCE_NEGATION = Negation(
    re.compile(
        r"\b(?:not|no|never|don'?t|doesn'?t|didn'?t|won'?t|isn'?t|aren'?t|can'?t stand|cannot stand|hates?|dislikes?|"
        r"avoids?|without|instead of|rather than|than|stop|stopped|no longer|none|nothing|less|fewer|too many|"
        r"anything but|against|frustrated\s+(?:with|by)|annoyed\s+(?:with|by)|irritated\s+by|tired\s+of|sick\s+of|"
        r"fed\s+up\s+with|"
        # a stop cue naming the value after it ("ignore formal now", "done with concise"): the value is the old one
        r"ignore|forget|scratch|drop(?:ped|ping)?|replac(?:e|ed|ing)|swap(?:ped)? out|retire[ds]?|cross(?:ed)? off|"
        r"goodbye to|used to (?:be|want|prefer|like)|previously|moved on from|done with|gone are the days of|out with)"
        r"\b[^,;]*$",
        re.I,
    ),
    PREFERENCE_BREAKS,
    reach=40,
    # a stop cue just after the value ("concise is outdated", "casual no longer applies", "a phone call
    # ended"), or a complaint about it ("finds long replies overwhelming"): the value is the old one
    after=re.compile(
        r"^\s*(?:[\w'-]+\s+){0,2}?(?:"
        r"\b(?:(?:is|are)\s+)?(?:overwhelming|exhausting|tiring|tedious|annoying|frustrating|too\s+much|a\s+chore"
        r"|hard\s+to\s+(?:read|follow)|a\s+waste\s+of\s+time|unbearable)\b|"
        r"\b(?:is|are|was|were|has been|have been|got|'s)\s+(?:now\s+)?(?:out|over|gone|history|done|finished|retired"
        r"|outdated|obsolete|stale|dropped|phased out|replaced|superseded|old news|no more|in the past|behind us"
        r"|a thing of the past|off the table|the old \w+)\b"
        r"|\b(?:no longer|not anymore|not any longer|ended|stopped|doesn'?t apply|isn'?t the case|belongs to the past)\b)",
        re.I,
    ),
)
"""A preference cue is negated: "no bullet points", "rather than Slack", "done with concise", "concise is outdated"."""
SWITCH_FROM = (
    r"\b(?:mov(?:e|es|ed|ing)|switch(?:es|ed|ing)?|chang(?:e|es|ed|ing)|go|goes|going|went|migrat\w*|transition\w*)\s+"
    r"(?:(?:over|back|everything|things|us|them)\s+)?from"
)
"""A switch ("move (over) from"): it names the old value next."""
SWITCHED_FROM = Negation(re.compile(SWITCH_FROM + r"\b(?:(?!\bto\b)[^,;])*$", re.I), PREFERENCE_BREAKS, reach=60)
"""A preference cue after "from" with no "to" since is the old value: "move from Teams chat (to Slack)"."""
REQUEST_NEGATION = Negation(
    re.compile(r"\b(?:no|not|never|don['’]?t|doesn['’]?t|do\s+not|does\s+not|nothing|avoid\w*)\b|n['’]t\b")
)
"""A negated booking request anywhere in a lower-cased sentence ("don't book anything before 10")."""


# ---- whose fact: a sentence that opens with another person (schedules, stated zones) -----------

_LEAD_RE = re.compile(
    r"^(?:\W*(?:[A-Z][\w'’ ()-]{0,30}:|rumou?r\s+has\s+it(?:\s+that)?|someone\s+(?:mentioned|said|told\s+me)(?:\s+that)?"
    r"|apparently|fyi|from\s+the\s+[\w\s-]{1,30}?\s+[—–-]"
    r"|oh|well|yes|yeah|ok|okay|so|and|but|also|lol|haha|now|then|usually|always|normally|typically"
    r"|generally|often|every\s+\w+|each\s+\w+|on\s+\w+|at\s+[\w:.]+(?:\s*[ap]\.?m\.?)?|in\s+the\s+\w+|during\s+\w+"
    r"|q\s*:)[\s,]+)*",
    re.I,
)
_OTHER_START_RE = re.compile(
    r"(?:(?:my|our|his|her|their|your|(?:the\s+)?user['’]s|[A-Z][a-z]+['’]s)\s+(?:[\w-]+\s+){0,2}?(?:"
    + PERSON_NOUNS
    + "|"
    + WORK_NOUNS
    + r")|(?:he|she|they|you))\b",
    re.I,
)
_NAME_START_RE = re.compile(
    r"(?P<name>[A-Z][a-z]+)(?:['’]s\s+\w+\s+(?:is|are)|\s+(?:has|goes|takes|likes|prefers|works|meets|runs|does"
    r"|gets|attends|leaves|starts|picks|drops|needs|wants|is|will|can|always|usually|never))\b"
)
_PRONOUN_RE = re.compile(r"(?:he|she|they)\b", re.I)
_REPORTED_RE = re.compile(
    r"(?:his|her|their|(?:the\s+)?user['’]s)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + "|" + WORK_NOUNS + r")\s+"
    r"(?:says|said|mentioned|reports|reported|notes|noted|confirms|confirmed|tells\s+us|told\s+us)(?:\s+that)?\s+",
    re.I,
)
"""Someone close to the subject reporting the subject's preference: "Her assistant says she …"."""
_KNOWN_WORDS_RE = re.compile(
    r"^(?:lunch|standup|gym|yoga|focus|school|calls?|meetings?|mornings?|afternoons?|evenings?|weekends?|weekdays?"
    r"|nothing|everything|anything|availability|work|dinner|breakfast|retro|review|sync|commute|deploy|email|this"
    r"|that|it|there|here|what|which|who|when|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|noon"
    r"|tz|timezone|zone|time)$",
    re.I,
)
SCHEDULE_ANTECEDENTS = Antecedents(
    others=re.compile(
        r"\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + "|" + WORK_NOUNS + r")\b"
        r"|\b(?:a|one|this|that)\s+(?:[\w-]+\s+)?(?:couple|guy|man|woman|friend|lady|family)\b",
        re.I,
    ),
    names=re.compile(r"(?:^|[.!?;]\s+)([A-Z][a-z]+)\s+(?:is|was|has|had|works|lives|goes|said|says)\b"),
    not_name=lambda word: _KNOWN_WORDS_RE.match(word) is not None,
)
"""For a schedule (`someone_elses`): a possessive person or work noun, "a/this guy|woman|couple…", or a
name opening a sentence before "is", "has", "works"…"""


def someone_elses(sentence: str, ctx: Context, earlier: str = "") -> bool:
    """True when the sentence's subject is another person, not the request's subject.

    Args:
        sentence: one sentence.
        ctx: the request (its subject's name is the subject).
        earlier: the text before the sentence: a leading "he/she/they" is someone else only when
            that text names another person (`SCHEDULE_ANTECEDENTS`; a pronoun with no other
            antecedent is the subject).
    """
    lead = _LEAD_RE.match(sentence)
    rest = sentence[lead.end() :] if lead else sentence
    reported = _REPORTED_RE.match(rest)
    if reported is not None and _PRONOUN_RE.match(rest, reported.end()):
        return False  # "Her assistant says she refuses afternoon calls": the pronoun is the possessor, the subject
    other = _OTHER_START_RE.match(rest)
    if other is not None:
        if _PRONOUN_RE.match(rest):
            return names_someone(earlier, ctx, SCHEDULE_ANTECEDENTS)
        return True
    name = _NAME_START_RE.match(rest)
    if name is not None:
        word = name.group("name")
        return not _KNOWN_WORDS_RE.match(word) and not is_subject_reference(word, ctx)
    return False


# ---- whose fact: another person's preference (enums) -------------------------------------------

_HOLDER_RE = re.compile(
    r"^\s*(?:(?:also|now|still|really|actually)\s+)?(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*){0,2}?)"
    r"(?:(?:'s|’s)\s+(?:preferred|favou?rite|usual|go-to|default)\b|\s+(?:\w+\s+)?(?:prefers|preferred|likes|wants"
    r"|loves|hates|needs|expects|asks|asked|reads|responds|replies|would rather|appreciates|favou?rs|switched|switches"
    r"|moved|moves|is\s+(?:(?:very|quite|always|more)\s+)?(?:relaxed|professional|formal|casual|informal))\b)"
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
    r"\b(?:reach|contact|ping|email|message|call|text|write to|get hold of|get in touch with)\s+"
    r"(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
)
_FOR_RE = re.compile(
    r"(?i:\b(?:language|format|channel|tone)\s+(?:for|with|to)|\bkeep(?:s|ing)?\s+(?:[\w'’]+\s+){0,3}?(?:to|for|with))\s+"
    r"(?P<name>[A-ZÀ-ÖØ-Þ][\w'’-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w'’-]*)?)"
)
"""Another person a preference is for: "language for Lee: French", "keep it professional with Lee"."""
_NOT_HOLDERS = frozenset(
    "keep use send please always never just write reply respond answer email call text ping slack give make be let"
    " avoid don't no only short brief detailed formal casual bullet bullets tables prose zoom teams phone video"
    " everyone nobody".split()
)
"""Capitalised words that open an instruction or name a value ("Keep it short", "Zoom works"): no holder."""


def preference_of_other(clause: str, ctx: Context, before: str) -> bool:
    """True when the clause states another named person's preference, or opens with another person.

    "The CEO wants …", "User's brother prefers …", "Lee prefers Slack", "the best way to reach Lee",
    "language for Lee: French"; a "she" is another person when `before` gives it an antecedent
    (`entities.pronoun_antecedent`), and a capitalised word that opens an instruction, names a value
    or is a language ("Keep", "Zoom", "French") is no person.

    Args:
        clause: the clause (with the question it answers, if any).
        ctx: the request (its subject's name is the subject).
        before: the text before the clause.
    """
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


# ---- whose fact: an unresolved pronoun beside the speaker (edges) ------------------------------

_SPEAKER_RE = re.compile(
    r"(?-i:\bI\b)(?!['’]?\s*(?:mean|guess|think|believe|heard|hear)\b)|\b(?:i['’]m|i['’]ve|i['’]d|i['’]ll)\b"
    r"|\bmy\s+(?:[\w-]+\s+){0,2}?(?:" + PERSON_NOUNS + r")\b",
    re.I,
)


def speaks_as_speaker(text: str) -> bool:
    """True when `text` speaks of the speaker as a person: "I am a librarian", "my mom" ("my mistake" is not).

    A "he"/"she" with no named antecedent in such a text is someone else, whom the text does not name
    ("He is a professor and I am a librarian", "My mom is a nurse. She lives in Ohio").
    """
    return _SPEAKER_RE.search(text) is not None
