"""The edge family's rules, one entry each: cue, keys, gate, what it reads (`rules.Rule`).

Three lists of rules, one registry (`REGISTRY`, in this order), run on each clause (`edges`):

* `FORMS`: whole-clause forms ("handed the Acme account to Lee", "Lee is my manager", "Manager of
  Ana Ruiz: Lee", "Approval cap (travel): $5k for Lee"), searched once per clause, each taking the
  span it reads so no cue inside it reads it again;
* `RULES`: cues (a verb phrase such as "reports to", "is owned by", "took over") whose reader reads
  the entity left of it (the source, or the target for passive cues) and right of it;
* `QUESTIONS`: "Q: … ? A: …" pairs whose question completes an edge with its answer.

`PREFILTER` and the keys scan are derived from these entries (`rules`): to add a cue, add its
entry (its keys are the words every match of it contains); `tests/test_rule_registry.py` fails when a
cue can match text its keys miss.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from writegate.normalizer.context import Context
from writegate.normalizer.edge_clause import Clause
from writegate.normalizer.edge_read import (
    answer_limit,
    answer_manager,
    answer_owner,
    answer_role,
    read_approval_limit,
    read_approved_by,
    read_approves,
    read_cap_for,
    read_cleft,
    read_delegates,
    read_given,
    read_inverse_manager,
    read_manager,
    read_manager_of,
    read_manages,
    read_owned_by,
    read_owns,
    read_place,
    read_reports,
    read_role,
    read_role_held,
    read_team,
    read_team_on,
)
from writegate.normalizer.edge_words import CAP, TEAM_WORDS
from writegate.normalizer.gates import at_word_start, factored
from writegate.normalizer.rules import Registry, Rule, prefilter
from writegate.normalizer.schema import Edge, EdgeType


@dataclass(frozen=True, kw_only=True)
class EdgeRule(Rule):
    """A cue rule: every match of `cue` not negated (and, for roles and places, current) is read by `read`.

    Attributes:
        type: the edge type the rule gives (approvals keep a negated exclusivity; roles and places must
            be current facts: `edge_read.not_current`).
        read: the clause and the cue's match → the edges.
    """

    type: EdgeType
    read: Callable[[Clause, re.Match[str]], list[Edge]]


@dataclass(frozen=True, kw_only=True)
class EdgeForm(Rule):
    """A whole-clause form, searched once per clause before the cue rules.

    Attributes:
        read: the clause and the form's match → (the edges, whether the form takes its span).
        negatable: a negation before the form drops it.
    """

    read: Callable[[Clause, re.Match[str]], tuple[list[Edge], bool]]
    negatable: bool = True


@dataclass(frozen=True, kw_only=True)
class Question(Rule):
    """A Q/A question (its `cue`, matched against the whole question) that the answer completes.

    Attributes:
        read: the question's match, the answer, the request, the text before → the edges.
    """

    read: Callable[[re.Match[str], str, Context, str], list[Edge]]


def _r(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_POSS = r"(?P<poss>\b(?:my|her|his|their|(?:the )?user's)|'s|’s)"
_NAME_RX = CAP + r"[\w'’-]*(?:\s+" + CAP + r"[\w'’-]*){0,3}"
_WHO = r"(?P<who>\S+(?:\s+\S+){0,3}?)"

FORMS: list[EdgeForm] = [
    EdgeForm(
        name="handed-to",
        cue=_r(
            r"\b(?:handed|hands|passed|transferred|gave|reassigned|assigned)\s+(?:off\s+|over\s+)?(?P<thing>.+?)\s+"
            r"(?:off\s+|over\s+)?to\s+(?P<rest>.+)$"
        ),
        keys=("hand", "pass", "transfer", "gave", "assign"),
        needs=(" to ",),
        read=read_given,
    ),
    EdgeForm(
        name="owner-is",
        cue=_r(
            r"\b(?:the\s+)?(?:owner|point of contact|poc|main contact|contact|account manager|account owner|account lead"
            r"|relationship manager)\s+(?:for|of|on)\s+(?P<thing>.+?)(?:\s+is\s+(?:now\s+)?|\s*:\s*)(?P<rest>.+)$"
        ),
        keys=("owner", "contact", "poc", "account", "relationship"),
        needs=(" is ", ":"),
        read=read_given,
    ),
    EdgeForm(
        name="is-my-manager",
        cue=re.compile(
            r"\bis\s+(?:now\s+)?(?P<owner>my|her|his|their|the user's|[A-ZÀ-ÖØ-Þ][\w-]*(?:\s+[A-ZÀ-ÖØ-Þ][\w-]*)?(?:'s|’s))"
            r"\s+(?:new\s+|current\s+|direct\s+|line\s+)?(?:manager|boss|supervisor)\b"
        ),
        keys=("manager", "boss", "supervisor"),
        read=read_inverse_manager,
    ),
    EdgeForm(
        name="approved-by",
        cue=_r(
            r"\b(?:must|needs? to|has to|have to|should)?\s*(?:be\s+)?(?:approved|signed off)\s+by\s+(?P<rest>.+)$"
            r"|\b(?:needs?|requires?)\s+(?:only\s+|just\s+)?(?P<who>my|her|his|their|the user's|[A-ZÀ-ÖØ-Þ][\w-]*"
            r"(?:'s|’s))\s+(?:sign-?off|approval|ok)\b"
        ),
        keys=("approv", "sign", "need", "requir"),
        read=read_approved_by,
    ),
    EdgeForm(
        name="manager-of-label",
        cue=re.compile(
            r"^\s*(?i:(?:the\s+)?(?:direct\s+|line\s+)?(?:manager|boss|supervisor)\s+of)\s+(?P<who>(?i:the\s+user|user)|"
            + _NAME_RX
            + r")"
            r"\s*:\s*(?P<rest>.+)$"
        ),
        keys=("manager", "boss", "supervisor"),
        needs=(":",),
        read=read_manager_of,
        negatable=False,
    ),
    EdgeForm(
        name="who-i-report-to",
        cue=re.compile(
            r"\bis\s+(?:now\s+)?(?i:the\s+(?:one|person)\s+(?:(?:who|whom|that)\s+)?|(?:who|whom)\s+)"
            r"(?P<who>(?i:the\s+user|user)|I|he|she|they|"
            + _NAME_RX
            + r")\s+(?:now\s+)?(?:directly\s+)?(?i:reports?|answers?)\s+to\b"
        ),
        keys=("report", "answer"),
        needs=(" to",),
        read=read_cleft,
    ),
    EdgeForm(
        name="cap-for-label",
        cue=_r(
            r"\b(?:(?:approval|signing|sign-off)\s+(?:cap|limit|authority)|spending\s+(?:limit|authority))\s*"
            r"(?:\((?P<scope>[^()]{1,80})\))?\s*:\s*(?P<amount>[^;:()]{1,40}?)\s+for\s+(?P<rest>.+)$"
        ),
        keys=("approv", "sign", "spend"),
        needs=(":",),
        read=read_cap_for,
    ),
]
"""Whole-clause forms, in the order they are read."""

RULES: list[EdgeRule] = [
    EdgeRule(
        name="reports-to",
        type=EdgeType.REPORTS_TO,
        cue=_r(
            r"\b(?:reports?|reporting|reported)\s+(?:directly\s+)?(?:in)?to\b|\banswers?\s+(?:directly\s+)?to\b"
            r"|\bworks?\s+(?:directly\s+)?under\b|\b(?:is|are)\s+(?:now\s+)?managed\s+by\b"
        ),
        keys=("report", "answer", "under", "managed"),
        read=read_manager,
    ),
    EdgeRule(
        name="manager-is",
        type=EdgeType.REPORTS_TO,
        cue=_r(
            r"(?:"
            + _POSS
            + r")\s+(?:new\s+|current\s+|direct\s+|line\s+)?(?:manager|boss|supervisor|line manager|reporting line)"
            r"(?:\s+is(?:\s+now)?|\s*:)"
        ),
        keys=("manager", "boss", "supervisor", "report"),
        read=read_manager,
    ),
    EdgeRule(
        name="reports-are",
        type=EdgeType.MANAGES,
        cue=_r(r"(?:" + _POSS + r")\s+(?:direct\s+)?reports\s+(?:are|include)\b"),
        keys=("reports",),
        gate=re.compile(r"reports\s+(?:are|include)"),
        read=read_reports,
    ),
    EdgeRule(
        name="manages",
        type=EdgeType.MANAGES,
        cue=_r(
            r"\b(?:manages|managed|manage|runs|run|ran|leads|lead|led|heads|head|headed|oversees|oversee|oversaw|handles"
            r"|covers|looks after|is in charge of|is responsible for)\b"
        ),
        keys=(
            "manag",
            "run",
            "ran",
            "lead",
            "led",
            "head",
            "overs",
            "handles",
            "covers",
            "looks",
            "charge",
            "responsible",
        ),
        read=read_manages,
    ),
    EdgeRule(
        name="joined",
        type=EdgeType.MEMBER_OF,
        cue=_r(
            r"\b(?:a\s+)?member\s+of\b|\bpart\s+of\b|\bjoined\b|\b(?:moved|transferred|switched|moving)\s+(?:over\s+)?to\b"
            r"|(?:\b(?:is|am|are|was|sits|works|working)|'m|’m|'re|’re)\s+(?:now\s+)?(?:on|in|with)\b"
        ),
        keys=("member", "part", "joined", "moved", "transferred", "switched", "moving", " on", " in", " with"),
        gate=re.compile(
            factored(r"member|part|joined|moved|transferred|switched|moving")
            + r"|(?:is|am|are|was|sits|works|working|'m|’m|'re|’re)\s+(?:now\s+)?(?:on|in|with)"
        ),
        read=read_team,
    ),
    EdgeRule(
        name="owns",
        type=EdgeType.OWNED_BY,
        cue=_r(
            r"(?<!\bmy )(?<!\byour )(?<!\bhis )(?<!\bher )(?<!\bour )(?<!\btheir )(?<!\bits )(?<!\bthe )"
            r"\b(?:owns|own|owned|took over|takes over|has taken over|taking over|inherited|is taking over)\b"
            r"|\bis\s+(?:now\s+)?(?:(?:the|our|their|its)\s+)?(?:point of contact|poc|main contact|contact|owner"
            r"|account manager|account owner|account lead|relationship manager)\s+(?:for|on|of)\b"
        ),
        keys=("own", "took", "takes", "taken", "taking", "inherited", "contact", "poc", "account", "manager"),
        gate=re.compile(
            at_word_start(["owns", "own", "owned"], r"\b")
            + r"|took over|takes over|taken over|taking over|inherited|(?:contact|poc|owner|manager|lead)\s+(?:for|on|of)"
        ),
        read=read_owns,
    ),
    EdgeRule(
        name="works-as",
        type=EdgeType.HAS_ROLE,
        cue=_r(
            r"(?:"
            + _POSS
            + r")\s+(?:new\s+|current\s+|official\s+)?(?:role|title|job title|position|job)\s+is(?:\s+now)?"
            r"|\bpromoted\s+to\b|\bworks?\s+as\b|\bworking\s+as\b|\b(?:was|got|has been)\s+(?:named|appointed|made|hired as)\b"
        ),
        keys=("role", "title", "position", "job", "promoted", "work", "named", "appointed", "made", "hired"),
        read=read_role,
    ),
    EdgeRule(
        name="is-a",
        type=EdgeType.HAS_ROLE,
        cue=_r(
            r"(?:\b(?:is|am|was|became|becomes|has become)|'m|’m)\s+(?:now\s+)?(?=(?:a|an|the|our|their|now)\s)"
            r"|\b(?:became|becomes|has become)\b|\b(?:is|am)\s+(?:now\s+)?(?=(?:head|vp|director|chief)\s+of\b)"
        ),
        keys=("is ", "am ", "was ", "'m ", "’m ", "bec"),
        gate=re.compile(
            r"(?:is|am|was|'m|’m)\s+(?:now\s+)?(?:a|an|the|our|their|now|head|vp|director|chief)\s|became|becomes|has become"
        ),
        read=read_role,
    ),
    EdgeRule(
        name="role-label",
        type=EdgeType.HAS_ROLE,
        cue=_r(_POSS + r"\s+(?:new\s+|current\s+|official\s+)?(?:role|title|job title|position|job)\s*:"),
        keys=(":",),
        gate=re.compile(r"(?:role|title|position|job)\s*:"),
        read=read_role,
    ),
    EdgeRule(
        name="holds-position",
        type=EdgeType.HAS_ROLE,
        cue=_r(
            r"\b(?:holds?|holding|(?:has\s+)?taken\s+on|took\s+on|takes\s+on|taking\s+on|"
            r"(?:has\s+)?stepped\s+into|steps\s+into|stepping\s+into|moved\s+into|moves\s+into|accepted|accepts|"
            r"assumed|assumes)\s+(?:the|a|an|her|his|their|my|our)\s+"
            r"(?:(?:role|position|title|post)\s+of\s+(?P<role2>[^,.;:!?]{1,60})|"
            r"(?P<role>(?:[\w-]+\s+){0,5}?[\w-]+)\s+(?:role|position|title|post|job)\b)"
        ),
        keys=("role", "position", "title", "post", "job"),
        read=read_role_held,
    ),
    EdgeRule(
        name="lives-in",
        type=EdgeType.LOCATED_IN,
        cue=_r(
            r"\b(?:based|located|living|lives|live|resides?|residing|moved|relocated|relocating|moving|works?|working)\s+"
            r"(?:remotely\s+)?(?:in|to|from|out of)\b|(?:\b(?:is|am)|'m|’m)\s+(?:now\s+|currently\s+)?in\b"
            r"|\bback\s+home\s+in\b|(?:['’]ve|\bhave|\bhas)\s+(?:always\s+)?lived\s+in\b"
        ),
        keys=("based", "located", "liv", "resid", "moved", "relocat", "moving", "work", " in"),
        gate=re.compile(
            r"based|located|liv|resid|moved|relocat|moving|work|(?:is|am|'m|’m)\s+(?:(?:now|currently)\s+)?in|home\s+in"
        ),
        read=read_place,
    ),
    EdgeRule(
        name="owned-by",
        type=EdgeType.OWNED_BY,
        cue=_r(
            r"\b(?:is|are|was|were|has been|have been|got|gets)?\s*(?:now\s+)?(?:owned|handled|managed|run|covered"
            r"|looked after|taken over|led)\s+by\b|\b(?:was|were|has been|have been|is being|got|is|are)\s+(?:now\s+)?"
            r"(?:handed|passed|transferred|reassigned|assigned|given|moved)\s+(?:off\s+|over\s+)?to\b"
        ),
        keys=(
            "owned",
            "handled",
            "managed",
            "run",
            "covered",
            "looked",
            "taken",
            "led",
            "handed",
            "passed",
            "transferred",
            "assigned",
            "given",
            "moved",
        ),
        read=read_owned_by,
    ),
    EdgeRule(
        name="approves",
        type=EdgeType.APPROVES,
        cue=_r(
            r"\b(?:can\s+)?(?:approves?|approved|approving|signs?\s+off(?:\s+on)?|signed\s+off(?:\s+on)?|authori[sz]es"
            r"|authori[sz]ed to approve)\b|\b(?:sole|only|final|primary|main)?\s*(?:approver|decision[- ]?maker"
            r"|signatory)\s*(?:for|on|of)?|\bthe only (?:one|person) who can (?:approve|sign off(?: on)?)\b"
            r"|\bhas (?:the )?final say (?:on|over)\b"
        ),
        keys=("approv", "sign", "authori", "decision", "final"),
        read=read_approves,
    ),
    EdgeRule(
        name="approval-limit",
        type=EdgeType.APPROVES,
        cue=_r(
            r"(?:"
            + _POSS
            + r")?\s*(?:(?:approval|signing|spending|sign-off)\s+(?:limit|authority|threshold)|(?:approval|signing"
            r"|sign-off)\s+cap)\s*(?:is|of|:)?"
        ),
        keys=("limit", "authority", "threshold", "cap"),
        read=read_approval_limit,
    ),
    EdgeRule(
        name="delegates",
        type=EdgeType.DELEGATES_TO,
        cue=_r(r"\bdelegat(?:es|ed|ing|e)\b"),
        keys=("delegat",),
        read=read_delegates,
    ),
    EdgeRule(
        name="on-the-team",
        type=EdgeType.MEMBER_OF,
        cue=_r(r"\b(?:on|in)\b(?=\s+(?:the\s+)?[\w&'’-]+(?:\s+[\w&'’-]+)?\s+" + TEAM_WORDS + r"\b)"),
        keys=("on ", "in "),
        gate=re.compile(factored(TEAM_WORDS[3:-1])),
        read=read_team_on,
    ),
]
"""Cue rules, in the order they run on a clause."""

QUESTIONS: list[Question] = [
    Question(
        name="who-do-they-report-to",
        cue=_r(r"^\s*who(?:m)?\s+(?:does|do|did)\s+" + _WHO + r"\s+(?:directly\s+)?(?:report|answer)\s+to\s*\?$"),
        keys=("report", "answer"),
        read=answer_manager,
    ),
    Question(
        name="who-is-their-manager",
        cue=_r(
            r"^\s*who(?:\s+is|'s|’s)\s+"
            + _WHO
            + r"\s+(?:direct\s+|line\s+|current\s+)?(?:manager|boss|supervisor)\s*\?$"
        ),
        keys=("manager", "boss", "supervisor"),
        read=answer_manager,
    ),
    Question(
        name="what-do-they-do",
        cue=_r(r"^\s*what\s+(?:does|do)\s+" + _WHO + r"\s+do(?:\s+for\s+(?:a\s+)?(?:living|work))?\s*\?$"),
        keys=("what",),
        read=answer_role,
    ),
    Question(
        name="what-is-their-role",
        cue=_r(
            r"^\s*what(?:\s+is|'s|’s)\s+"
            + _WHO
            + r"\s+(?:current\s+|official\s+)?(?:role|title|job title|job|position)\s*\?$"
        ),
        keys=("role", "title", "job", "position"),
        read=answer_role,
    ),
    Question(
        name="how-much-can-they-approve",
        cue=_r(
            r"^\s*how\s+much\s+can\s+" + _WHO + r"\s+(?:approve|sign\s+off(?:\s+on)?|authori[sz]e)"
            r"(?:\s+(?:for|on))?(?:\s+(?P<scope>[^?]{1,80}?))?\s*\?$"
        ),
        keys=("approve", "sign", "authori"),
        read=answer_limit,
    ),
    Question(
        name="what-is-their-limit",
        cue=_r(
            r"^\s*what(?:\s+is|'s|’s)\s+" + _WHO + r"\s+(?:approval|signing|sign-off)\s+(?:limit|cap|authority)"
            r"(?:\s+(?:for|on)\s+(?P<scope>[^?]{1,80}?))?\s*\?$"
        ),
        keys=("approval", "sign"),
        read=answer_limit,
    ),
    Question(
        name="who-owns",
        cue=_r(
            r"^\s*who\s+(?:owns|handles|is\s+the\s+(?:main\s+)?(?:point\s+of\s+contact|contact|owner)\s+(?:for|on|of))\s+"
            r"(?P<thing>[^?]{1,80}?)\s*\?$"
        ),
        keys=("owns", "handles", "contact", "owner"),
        read=answer_owner,
    ),
]
"""Q/A questions whose answer completes an edge; the first that matches a question is read."""

REGISTRY: Registry[Rule] = Registry([*FORMS, *RULES, *QUESTIONS])
"""The family's rules in the order they run: one keys scan per clause gives the forms and cues to try."""
PREFILTER = prefilter(REGISTRY)
"""Every key of the family, searched once in the lower-cased text: without one, the text has no edge."""
