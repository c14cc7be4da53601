"""Golden cases for the edge rule family (the edge table of docs/normalizer.md) and entity slugs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import word_soup
from hypothesis import given, settings
from hypothesis import strategies as st

from writegate.normalizer import edges
from writegate.normalizer.amounts import parse_amount
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.entities import resolve_person, slugify
from writegate.normalizer.schema import EdgeValue, ProvenanceKind, Record

CTX = Context("user:sam", datetime(2026, 3, 2, 10, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)

E = tuple[str, str, str, dict]

# (id, text, expected edges as (source, type, target, attributes)); [] = no edge
CASES: list[tuple[str, str, list[E]]] = [
    # dev-set references
    ("dev-reports-to", "Sam reports to Grace Hopper.", [("user:sam", "reports_to", "person:grace-hopper", {})]),
    ("dev-manager-is", "Sam's manager is Lee.", [("user:sam", "reports_to", "person:lee", {})]),
    ("dev-runs-team", "Sam runs the payments team.", [("user:sam", "manages", "team:payments", {})]),
    ("dev-owned-by", "The Initech deal is owned by Sam.", [("deal:initech", "owned_by", "user:sam", {})]),
    (
        "dev-sign-off",
        "Sam can sign off on travel spend up to $2,500.",
        [("user:sam", "approves", "budget:travel", {"max_amount": 2500, "currency": "USD"})],
    ),
    ("dev-cat", "Sam has a cat named Miso.", []),
    # reports_to
    ("rt-first-person", "I report to Dana Scully.", [("user:sam", "reports_to", "person:dana-scully", {})]),
    ("rt-my-manager", "My manager is Priya Natarajan.", [("user:sam", "reports_to", "person:priya-natarajan", {})]),
    ("rt-now", "Sam now reports directly to Hannah.", [("user:sam", "reports_to", "person:hannah", {})]),
    ("rt-works-under", "The user works under Omar.", [("user:sam", "reports_to", "person:omar", {})]),
    ("rt-inverse", "Lee is my manager.", [("user:sam", "reports_to", "person:lee", {})]),
    ("rt-inverse-named", "Victor is Mia's boss.", [("person:mia", "reports_to", "person:victor", {})]),
    ("rt-managed-by", "She is managed by Kofi.", [("user:sam", "reports_to", "person:kofi", {})]),
    (
        "rt-two-sources",
        "Lee and Priya report to Sam.",
        [("person:lee", "reports_to", "user:sam", {}), ("person:priya", "reports_to", "user:sam", {})],
    ),
    ("rt-note-style", "Reports to Ines.", [("user:sam", "reports_to", "person:ines", {})]),
    ("rt-accented", "Sam reports to José Álvarez.", [("user:sam", "reports_to", "person:jose-alvarez", {})]),
    (
        "rt-pronoun-antecedent",
        "Marcus joined last week. He reports to Lee.",
        [("person:marcus", "reports_to", "person:lee", {})],
    ),
    ("rt-neg-used-to", "Sam used to report to Lee.", []),
    ("rt-neg-no-longer", "I no longer report to Lee.", []),
    ("rt-neg-doesnt", "Sam doesn't report to Lee.", []),
    ("rt-question", "Does Sam report to Lee?", []),
    # manages
    ("mg-person", "Victor manages Mia.", [("person:victor", "manages", "person:mia", {})]),
    ("mg-leads-team", "I lead the Platform team.", [("user:sam", "manages", "team:platform", {})]),
    ("mg-heads-dept", "Sam heads the finance department.", [("user:sam", "manages", "team:finance", {})]),
    (
        "mg-direct-reports",
        "Sam's direct reports are Lee, Priya and Omar.",
        [
            ("user:sam", "manages", "person:lee", {}),
            ("user:sam", "manages", "person:priya", {}),
            ("user:sam", "manages", "person:omar", {}),
        ],
    ),
    ("mg-no-name", "Sam leads three people.", []),
    (
        "mg-and-carry",
        "Sam reports to Lee and manages the payments team.",
        [("user:sam", "reports_to", "person:lee", {}), ("user:sam", "manages", "team:payments", {})],
    ),
    # member_of
    ("mo-member-of", "Sam is a member of the security guild.", [("user:sam", "member_of", "team:security", {})]),
    ("mo-on-team", "I'm on the data team.", [("user:sam", "member_of", "team:data", {})]),
    ("mo-joined", "I joined the data science team in May.", [("user:sam", "member_of", "team:data-science", {})]),
    ("mo-moved-team", "Jordan moved to the enterprise team.", [("person:jordan", "member_of", "team:enterprise", {})]),
    ("mo-neg-never", "Mia has never been on Victor's team.", []),
    # has_role
    ("hr-is-a", "The user is a product manager.", [("user:sam", "has_role", "role:product-manager", {})]),
    ("hr-promoted", "Sam was promoted to senior director.", [("user:sam", "has_role", "role:senior-director", {})]),
    (
        "hr-works-as",
        "The user works as a PM on the growth team.",
        [("user:sam", "has_role", "role:pm", {}), ("user:sam", "member_of", "team:growth", {})],
    ),
    ("hr-became-head", "She became head of design.", [("user:sam", "has_role", "role:head-of-design", {})]),
    ("hr-is-the-cto", "Sam is the CTO.", [("user:sam", "has_role", "role:cto", {})]),
    (
        "hr-now-a",
        "The user switched careers and is now a data scientist.",
        [("user:sam", "has_role", "role:data-scientist", {})],
    ),
    ("hr-title-is", "My title is Staff Engineer.", [("user:sam", "has_role", "role:staff-engineer", {})]),
    ("hr-neg-not-job", "Sam is a vegetarian.", []),
    ("hr-neg-became", "Sam became a grandmother.", []),
    # located_in
    ("li-moved", "Sam moved to London.", [("user:sam", "located_in", "place:london", {})]),
    ("li-based", "I'm based in New York.", [("user:sam", "located_in", "place:new-york", {})]),
    ("li-accent", "Sam relocated to São Paulo.", [("user:sam", "located_in", "place:sao-paulo", {})]),
    ("li-works-from", "Priya works from Lisbon.", [("person:priya", "located_in", "place:lisbon", {})]),
    ("li-language-is-no-place", "Sam can work in Spanish.", []),
    ("li-office", "The user moved to the Berlin office.", [("user:sam", "located_in", "place:berlin", {})]),
    ("li-neg-home", "I work from home.", []),
    ("li-neg-relative", "The user's brother lives in Austin.", []),
    ("li-neg-meeting", "Sam is in a meeting.", []),
    # owned_by
    ("ob-handed-off", "Acme was handed off to Marcus.", [("account:acme", "owned_by", "person:marcus", {})]),
    ("ob-took-over", "Marcus took over Acme.", [("account:acme", "owned_by", "person:marcus", {})]),
    (
        "ob-owns-account",
        "Élodie Durand owns the Acme account.",
        [("account:acme", "owned_by", "person:elodie-durand", {})],
    ),
    (
        "ob-poc",
        "Jordan is the point of contact for the Helios deal.",
        [("deal:helios", "owned_by", "person:jordan", {})],
    ),
    ("ob-handled-by", "Helios is now handled by Yuki.", [("account:helios", "owned_by", "person:yuki", {})]),
    (
        "ob-account-manager-is",
        "The account manager for Globex is Marcus.",
        [("account:globex", "owned_by", "person:marcus", {})],
    ),
    ("ob-gave-to", "Sam handed the Acme account off to Priya.", [("account:acme", "owned_by", "person:priya", {})]),
    ("ob-project", "I own project Phoenix.", [("project:phoenix", "owned_by", "user:sam", {})]),
    ("ob-manages-account", "Sam manages the Umbrella account.", [("account:umbrella", "owned_by", "user:sam", {})]),
    ("ob-neg", "Sam no longer owns the Acme account.", []),
    # approves
    (
        "ap-sole-euro",
        "I am the sole approver for marketing budgets under €10,000.",
        [("user:sam", "approves", "budget:marketing", {"max_amount": 10000, "currency": "EUR", "exclusive": True})],
    ),
    (
        "ap-only-one",
        "Sam is the only one who can approve hiring.",
        [("user:sam", "approves", "budget:hiring", {"exclusive": True})],
    ),
    (
        "ap-limit-code",
        "My approval limit is 25k USD.",
        [("user:sam", "approves", "budget:general", {"max_amount": 25000, "currency": "USD"})],
    ),
    (
        "ap-limit-changed-to",
        "My signing limit on capex went down to $500,000 after the audit.",
        [("user:sam", "approves", "budget:capex", {"max_amount": 500000, "currency": "USD"})],
    ),
    (
        "ap-limit-raised-to",
        "My signing limit on software purchases was raised to $800k.",
        [("user:sam", "approves", "budget:software", {"max_amount": 800000, "currency": "USD"})],
    ),
    (
        "ap-no-longer-sole",
        "She is no longer the sole approver.",
        [("user:sam", "approves", "budget:general", {"exclusive": False})],
    ),
    (
        "ap-threshold-not-cap",
        "Spending over $10K needs the user's sign-off.",
        [("user:sam", "approves", "budget:general", {})],
    ),
    (
        "ap-pounds-m",
        "Lee approves capital expenses up to £2.5m.",
        [("person:lee", "approves", "budget:capital", {"max_amount": 2500000, "currency": "GBP"})],
    ),
    (
        "ap-decision-maker",
        "Sam is the decision-maker for vendor budgets.",
        [("user:sam", "approves", "budget:vendor", {"exclusive": True})],
    ),
    # delegates_to
    (
        "dl-scope",
        "Sam delegated travel approvals to Priya.",
        [("user:sam", "delegates_to", "person:priya", {"scope": "travel approvals"})],
    ),
    (
        "dl-passive",
        "Scheduling has been delegated to Omar.",
        [("user:sam", "delegates_to", "person:omar", {"scope": "scheduling"})],
    ),
    ("dl-no-scope", "I delegate to Ana when I'm out.", [("user:sam", "delegates_to", "person:ana", {})]),
    # several facts, other negatives
    (
        "multi-sentences",
        "Helios is now handled by Yuki; Jordan moved to the enterprise team.",
        [("account:helios", "owned_by", "person:yuki", {}), ("person:jordan", "member_of", "team:enterprise", {})],
    ),
    (
        "ap-final-say",
        "The user has final say on hiring.",
        [("user:sam", "approves", "budget:hiring", {"exclusive": True})],
    ),
    (
        "ap-can-approve-under",
        "Sam can approve purchases under $5,000.",
        [("user:sam", "approves", "budget:general", {"max_amount": 5000, "currency": "USD"})],
    ),
    (
        "ob-our-account-manager",
        "Maria is our account manager for Acme.",
        [("account:acme", "owned_by", "person:maria", {})],
    ),
    ("ob-handles-renewal", "Sam handles the Initech renewal.", [("deal:initech", "owned_by", "user:sam", {})]),
    (
        "hr-got-promoted",
        "Sam got promoted to VP of Sales in March.",
        [("user:sam", "has_role", "role:vp-of-sales", {})],
    ),
    ("hr-role-only", "Sam is the account manager.", [("user:sam", "has_role", "role:account-manager", {})]),
    (
        "who-clause",
        "Priya, who manages the risk team, reports to Sam.",
        [("person:priya", "manages", "team:risk", {}), ("person:priya", "reports_to", "user:sam", {})],
    ),
    (
        "two-members",
        "Sam and Lee are on the payments team.",
        [("user:sam", "member_of", "team:payments", {}), ("person:lee", "member_of", "team:payments", {})],
    ),
    ("neg-unrelated", "The payments API runs on Postgres.", []),
    ("neg-offsite", "The Q3 offsite will be in Porto.", []),
    # label ("Manager: X"), Q/A and other everyday phrasings
    ("rt-label-poss-colon", "User's direct manager: Brandon", [("user:sam", "reports_to", "person:brandon", {})]),
    ("rt-label-my-colon", "My manager: Sydney", [("user:sam", "reports_to", "person:sydney", {})]),
    (
        "rt-label-manager-of",
        "Manager of Fortunata Bembo: David",
        [("person:fortunata-bembo", "reports_to", "person:david", {})],
    ),
    (
        "rt-qa-report-to",
        "Q: who does the user report to? A: Hadassa",
        [("user:sam", "reports_to", "person:hadassa", {})],
    ),
    ("rt-qa-who-is-manager", "q: who is my manager? a: Lee", [("user:sam", "reports_to", "person:lee", {})]),
    ("rt-answers-to", "The user answers to Brandon.", [("user:sam", "reports_to", "person:brandon", {})]),
    ("rt-cleft-who", "Ryan is who User answers to.", [("user:sam", "reports_to", "person:ryan", {})]),
    ("rt-cleft-person", "Ryan is the person I report to.", [("user:sam", "reports_to", "person:ryan", {})]),
    ("rt-told-month-name", "I was told June is Jeffrey's boss.", [("person:jeffrey", "reports_to", "person:june", {})]),
    ("rt-neg-qa-unsure", "Q: who does the user report to? A: not sure", []),
    ("rt-neg-qa-no-one", "Q: who is my manager? A: No one yet", []),
    ("rt-neg-cleft-not", "Ryan is not who I report to.", []),
    ("rt-neg-manager-of-team", "Manager of the payments team: Lee", []),
    ("rt-neg-month-prep", "Sam moved teams in June.", []),
    ("mg-neg-doesnt-manage", "Julius doesn't manage the user", []),
    (
        "hr-qa-what-do",
        "Q: what does the user do? A: product manager",
        [("user:sam", "has_role", "role:product-manager", {})],
    ),
    (
        "hr-holds-position",
        "User holds the account executive position",
        [("user:sam", "has_role", "role:account-executive", {})],
    ),
    ("hr-hold-head-of", "I hold the head of design position", [("user:sam", "has_role", "role:head-of-design", {})]),
    (
        "hr-label-official-title",
        "the user's official title: director of engineering",
        [("user:sam", "has_role", "role:director-of-engineering", {})],
    ),
    ("hr-label-my-job", "My job: analyst", [("user:sam", "has_role", "role:analyst", {})]),
    ("hr-label-users-job", "User's job: designer", [("user:sam", "has_role", "role:designer", {})]),
    (
        "hr-stepped-into",
        "Ornella stepped into the account executive role",
        [("person:ornella", "has_role", "role:account-executive", {})],
    ),
    ("hr-role-of", "Sam took on the role of CTO.", [("user:sam", "has_role", "role:cto", {})]),
    ("hr-neg-senior-role", "User has a senior role at Karan Inc.", []),
    ("hr-neg-label-job-task", "My job: clean up the backlog", []),
    ("hr-neg-qa-not-role", "Q: what does the user do? A: mostly meetings", []),
    ("hr-neg-no-longer-holds", "Sam no longer holds the CFO position.", []),
    (
        "ap-qa-sign-off",
        "Q: how much can I sign off on for software purchases? A: $30k",
        [("user:sam", "approves", "budget:software", {"max_amount": 30000, "currency": "USD"})],
    ),
    (
        "ap-qa-approve",
        "q: how much can the user approve for conference budgets? a: $3,000",
        [("user:sam", "approves", "budget:conference", {"max_amount": 3000, "currency": "USD"})],
    ),
    (
        "ap-needs-only-approval",
        "Hiring up to $20,000 needs only User's approval",
        [("user:sam", "approves", "budget:hiring", {"max_amount": 20000, "currency": "USD"})],
    ),
    (
        "ap-needs-only-code",
        "Travel up to 20k USD needs only the user's approval.",
        [("user:sam", "approves", "budget:travel", {"max_amount": 20000, "currency": "USD"})],
    ),
    (
        "ap-cap-label-for",
        "Approval cap (contractor invoices): $80,000 for User",
        [("user:sam", "approves", "budget:contractor", {"max_amount": 80000, "currency": "USD"})],
    ),
    (
        "ap-cap-label-other",
        "Approval cap (travel): €5,000 for Lee",
        [("person:lee", "approves", "budget:travel", {"max_amount": 5000, "currency": "EUR"})],
    ),
    ("ap-neg-vague", "User has some sign-off authority on vendor contracts", []),
    ("ap-neg-qa-unsure", "Q: how much can I approve? A: not sure", []),
    ("ap-neg-qa-threshold", "Q: how much can I approve for travel? A: over $5k", []),
    ("ob-label-main-contact", "Main contact for Sitters: Roger", [("account:sitters", "owned_by", "person:roger", {})]),
    (
        "ob-relationship-with",
        "Michelle manages the relationship with Robertson",
        [("account:robertson", "owned_by", "person:michelle", {})],
    ),
    ("ob-qa-owns", "Q: who owns the Acme account? A: Priya", [("account:acme", "owned_by", "person:priya", {})]),
    ("ob-neg-never-poc", "Isabella was never the point of contact for Jennings-Rivers", []),
    ("ob-neg-label-no-thing", "Contact for billing questions: Roger", []),
]


def _edges(records: list[Record]) -> list[E]:
    found = [r.value.edge for r in records if isinstance(r.value, EdgeValue)]
    return sorted((e.source, e.type.value, e.target, e.attributes) for e in found)  # type: ignore[misc]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in CASES], ids=[i for i, _, _ in CASES])
def test_edge_golden(text: str, expected: list[E]) -> None:
    assert _edges(edges.extract(text, CTX)) == sorted(expected)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("Sam reports to Lee.", "edge.reports_to"),
        ("The Initech deal is owned by Sam.", "edge.owned_by.deal:initech"),
        ("Sam runs the payments team.", "edge.manages.team:payments"),
        ("Victor manages Mia.", "edge.manages.person:victor.person:mia"),
        ("Priya works from Lisbon.", "edge.located_in.person:priya"),
        ("Manager of Fortunata Bembo: David", "edge.reports_to.person:fortunata-bembo"),
    ],
    ids=["single-subject", "single-other", "multi-subject", "multi-other", "single-other-place", "single-other-label"],
)
def test_edge_slot_rule(text: str, slot: str) -> None:
    records = edges.extract(text, CTX)
    assert [r.slot for r in records] == [slot]
    assert all(r.kind.value == "edge" and r.subject == "user:sam" for r in records)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Michelle Chen", "michelle-chen"),
        ("São Paulo", "sao-paulo"),
        ("  O'Brien & Co. ", "o-brien-co"),
        ("Ærø", "r"),
        ("日本", ""),
    ],
    ids=["two-words", "accents", "punctuation", "ligature-dropped", "non-latin-empty"],
)
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


@pytest.mark.parametrize(
    ("mention", "expected"),
    [
        ("I", "user:sam"),
        ("my", "user:sam"),
        ("the user", "user:sam"),
        ("Sam", "user:sam"),
        ("Sam's", "user:sam"),
        ("she", "user:sam"),
        ("Grace Hopper", "person:grace-hopper"),
        ("Samantha", "person:samantha"),
    ],
    ids=["i", "my", "the-user", "name", "possessive", "pronoun", "other", "prefix-is-not-match"],
)
def test_resolve_person(mention: str, expected: str) -> None:
    assert resolve_person(mention, CTX) == expected


def test_qa_record_text_is_the_question_and_answer() -> None:
    text = "Note. Q: who does the user report to? A: Hadassa"
    records = edges.extract(text, CTX)
    assert [(r.text, r.slot) for r in records] == [("Q: who does the user report to? A: Hadassa", "edge.reports_to")]


def test_pronoun_with_antecedent_resolves_to_antecedent() -> None:
    assert resolve_person("he", CTX, antecedent="person:marcus") == "person:marcus"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("up to $50K", (50000, "USD")),
        ("€10,000", (10000, "EUR")),
        ("25k USD", (25000, "USD")),
        ("£2.5m", (2500000, "GBP")),
        ("50,000 dollars", (50000, "USD")),
        ("CHF 1.5k", (1500, "CHF")),
        ("$99.50", (99.5, "USD")),
        ("about 5 XYZ", None),
        ("no amount here", None),
    ],
    ids=["usd-k", "eur-comma", "code-after", "gbp-m", "word", "code-before", "cents-float", "unknown-code", "none"],
)
def test_parse_amount(text: str, expected: tuple[float, str] | None) -> None:
    assert parse_amount(text) == expected


EDGE_WORDS = (
    "Sam | reports to | manager is | owned by | took over | the Acme account | handed off to | approves | "
    "up to $5K | sole approver | delegated | to | Lee | and | the payments team | is a | director | moved to | "
    "London | I | my | she | 's | , | . | ? | no longer | É | 日本 | team | of | by | joined | € | 9k"
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), word_soup(EDGE_WORDS, max_size=30)))
def test_edges_never_raise(text: str) -> None:
    for record in edges.extract(text, CTX):
        assert isinstance(record.value, EdgeValue) and record.slot.startswith(f"edge.{record.value.edge.type.value}")


@pytest.mark.parametrize(
    ("subject", "text", "source"),
    [
        ("user:sam-lee", "Sam reports to Ana.", "user:sam-lee"),
        ("user:default", "The user reports to Ana.", "user:default"),
        ("user:default", "Sam reports to Ana.", "person:sam"),
        ("user:alice", "She reports to Ana.", "user:alice"),
    ],
    ids=["first-word-of-slug", "the-user-default", "name-not-subject", "pronoun-no-antecedent"],
)
def test_subject_resolution(subject: str, text: str, source: str) -> None:
    ctx = Context(subject, CTX.observed_at, ProvenanceKind.STATED, DEFAULT_CONFIG)
    assert _edges(edges.extract(text, ctx)) == [(source, "reports_to", "person:ana", {})]


S = "user:sam"
# Real conversational text (persona chat). has_role needs a role head noun and no judgement, hobby, past
# or future word; a role or place that is past, planned or someone else's gives nothing; owned_by needs an
# organisation's account / deal / project; located_in needs a place.
REAL: list[tuple[str, str, list[E]]] = [
    # has_role: head noun required
    ("role-job-is-gerund", "My job is fixing roofs all day.", []),
    ("role-job-is-amount", "My job is a lot of stress.", []),
    ("role-job-is-adjective", "My job is really tiring.", []),
    ("role-job-is-working", "My job is working on old cars.", []),
    ("role-job-is-head", "My job is school librarian.", [(S, "has_role", "role:school-librarian", {})]),
    ("role-judgement-decent", "I am a decent cook.", []),
    ("role-judgement-terrible", "I'm a terrible singer, sadly.", []),
    ("role-judgement-big-fan", "I am a big fan of hockey.", []),
    ("role-no-head", "I am a morning person.", []),
    ("role-extended-heads", "I work as a cashier at a grocery store.", [(S, "has_role", "role:cashier", {})]),
    ("role-electrician", "I'm an electrician.", [(S, "has_role", "role:electrician", {})]),
    ("role-student", "I am a nursing student.", [(S, "has_role", "role:nursing-student", {})]),
    ("role-stops-at-so", "I work as a pharmacist so I know about meds.", [(S, "has_role", "role:pharmacist", {})]),
    ("role-age-dropped", "I am a 45 year old firefighter.", [(S, "has_role", "role:firefighter", {})]),
    ("role-now-at", "I'm now a supervisor at a warehouse.", [(S, "has_role", "role:supervisor", {})]),
    # has_role: past roles
    ("role-past-was", "I was a nurse for ten years.", []),
    ("role-past-retired-then-was", "I am retired. I was a bank teller.", []),
    ("role-past-retired-adjective", "I am a retired mail carrier driver.", []),
    ("role-past-former", "I'm a former soldier.", []),
    ("role-past-used-to", "I used to be a chef.", []),
    ("role-promoted-is-current", "I was promoted to store manager.", [(S, "has_role", "role:store-manager", {})]),
    # has_role: someone else's
    ("role-other-brother", "My brother is a dentist.", []),
    ("role-other-mom", "My mom is a pharmacist.", []),
    ("role-other-pronoun-after-my", "I called my aunt, she is a pilot.", []),
    ("role-other-pronoun-with-i", "He is a plumber and I am a cashier.", [(S, "has_role", "role:cashier", {})]),
    ("role-other-mine", "Mine is a carpenter.", []),
    ("role-other-relative", "I have a cousin who is a mechanic.", []),
    (
        "role-other-named-relative",
        "We have a parrot named Kiwi that is a singer.",
        [("person:kiwi", "has_role", "role:singer", {})],
    ),
    # has_role: plans
    ("role-plan-want", "I want to be a veterinarian.", []),
    ("role-plan-studying", "I'm studying to become a lawyer.", []),
    ("role-plan-will", "I will be a teacher next year.", []),
    # owned_by: possessions are no accounts
    ("own-adjective", "I'd love to build my own computer.", []),
    ("own-possession", "I own Nike shoes.", []),
    ("own-account-kept", "I own the Globex account.", [("account:globex", "owned_by", S, {})]),
    # located_in: places only
    ("place-not-a-place-the", "I live in the Rockies where there are trails.", []),
    ("place-not-a-place-abbrev", "I'm in NA.", []),
    ("place-quoted-nickname", 'He is "Ping" and I\'m in "Pong".', []),
    ("place-weak-cue-not-place", "I work in Finance.", []),
    ("place-country", "I am in the US.", [(S, "located_in", "place:us", {})]),
    ("place-weak-cue-place", "I'm in Portugal.", [(S, "located_in", "place:portugal", {})]),
    ("place-adjective", "I live in Dutch country.", []),
    (
        "place-stop-at-pronoun",
        "Since I live in Nevada I've seen a lot of desert.",
        [(S, "located_in", "place:nevada", {})],
    ),
    # located_in: plans, visits, past, others
    ("place-plan-moving", "I live in Ohio, but I'm moving to Oregon.", [(S, "located_in", "place:ohio", {})]),
    ("place-plan-when", "I will miss mangoes when I am in Oslo.", []),
    ("place-plan-thinking", "I'm thinking of moving to Denver.", []),
    ("place-visit-while", "I want to see a show while I am in London.", []),
    ("place-past-lived", "I lived in Dallas for years.", []),
    ("place-past-grew-up", "I grew up in Kansas.", []),
    ("place-moved-from-origin", "I just moved from Canada.", []),
    ("place-moved-from-to", "I moved from Boston to Austin.", [(S, "located_in", "place:austin", {})]),
    ("place-other-relative", "I have family that lives in Miami.", []),
    ("place-other-pronoun", "She lives in Rome. I miss her.", []),
    # a subject-less note: both coordinated facts are the subject's
    (
        "note-coordinated",
        "Lives in Austin and manages the data team.",
        [(S, "located_in", "place:austin", {}), (S, "manages", "team:data", {})],
    ),
    (
        "note-coordinated-role",
        "Works as a nurse and lives in Tampa.",
        [(S, "has_role", "role:nurse", {}), (S, "located_in", "place:tampa", {})],
    ),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in REAL], ids=[i for i, _, _ in REAL])
def test_edge_real_text(text: str, expected: list[E]) -> None:
    assert _edges(edges.extract(text, CTX)) == sorted(expected)
