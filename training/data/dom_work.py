"""Work domains: ownership, reporting lines, roles, approval limits, budgets, launch dates,
tech stack, tools, policies, office and on-call."""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.pools import (
    MONTHS,
    WEEKDAYS,
    Person,
    Pools,
    date_text,
    money,
)

KINDS = ("account", "deal", "project", "renewal", "client", "partnership", "contract")


def _name(p: Pools, person: Person | None = None) -> str:
    person = person or p.person()
    return person.first if p.rng.random() < 0.7 else person.full


def _acct(p: Pools) -> str:
    r = p.rng.random()
    if r < 0.55:
        c = p.company()
        return c.split(" ")[0].rstrip(",") if p.rng.random() < 0.6 else c
    if r < 0.8:
        return p.codename()
    return p.city()


def s_ownership(p: Pools) -> Ctx:
    a = p.person()
    b = p.other_person(a)
    base = {"acct": _acct(p), "kind": p.rng.choice(KINDS), "team": p.pick(TEAMS)}
    other = {**base, "acct": _acct(p)}
    return Ctx(base, {"v": _name(p, a), "vf": a.first}, {"v": _name(p, b), "vf": b.first}, person=a, other_base=other,
               extra={"why": p.pick(OWN_WHY), "amt": money(p.amount(), p.rng), "q": f"Q{p.rng.randint(1, 4)}"})


TEAMS = ("enterprise", "mid-market", "EMEA", "APAC", "platform", "growth", "partnerships", "strategic accounts",
         "public sector", "SMB", "data", "infrastructure", "payments", "mobile", "security", "design")
OWN_WHY = ("she knows their CTO", "he ran the pilot", "the previous owner left", "they asked for a single contact",
           "it was part of the territory split", "of the renewal in the fall")

OWNERSHIP = Domain(
    free_values=True,
    slot="ownership",
    kind="single",
    sample=s_ownership,
    person_subject=False,
    state=(
        "{v} owns the {acct} {kind}.",
        "{v} is the point of contact for the {acct} {kind}.",
        "The {acct} {kind} is handled by {v}.",
        "{acct} {kind} owner: {v}",
        "{v} manages the relationship with {acct}.",
        "Talk to {v} about anything {acct}-related.",
        "{acct} sits with {v}.",
        "Q: who owns {acct}? A: {v}",
        "{acct}'s account manager is {v}.",
        "{v} runs point on {acct}",
        "Main contact for {acct}: {v}.",
        "The {acct} {kind} belongs to {v} on the {team} team.",
        "{v} is on the hook for the {acct} {kind}",
        "Who covers {acct}? {v}.",
    ),
    change=(
        "!{acct} was handed off to {v} in {month}.",
        "!{v} took over the {acct} {kind} from {old}.",
        "{acct} is now handled by {v}; {old} moved to the {team} team.",
        "!{old} left, so {acct} moved to {v}.",
        "The {acct} {kind} was reassigned to {v}.",
        "{v} inherited {acct} after the territory reshuffle.",
        "{old} passed the {acct} {kind} to {v}.",
        "{acct} has a new owner: {v}.",
        "{v} replaced {old} as the contact for {acct}.",
        "Ownership of {acct} transferred to {v} this quarter.",
    ),
    stop=(
        "{old} no longer owns {acct}; it's {v}'s now.",
        "{old} isn't on the {acct} {kind} anymore — {v} has it.",
        "{old} rolled off {acct}, {v} picked it up.",
        "{old} stopped covering {acct} when {v} joined.",
        "{old} is off {acct} as of {month}; {v} is the contact.",
    ),
    neg=(
        "{old} has never worked on {acct}.",
        "That's not right, {old} doesn't own {acct}.",
        "Nobody is assigned to {acct} at the moment.",
        "{acct} has no owner yet — it is unassigned.",
        "{old} was never the point of contact for {acct}.",
        "{acct} doesn't belong to {old}, whatever the notes say.",
    ),
    elab=(
        "{v} owns the {acct} {kind}, mostly because {why}.",
        "{v} is the contact for {acct} and handles the {q} renewal too.",
        "{v} owns {acct}; the {kind} is worth about {amt}.",
        "{acct} sits with {v}, who also loops in legal for contract changes.",
        "{v} handles {acct} and prefers that all {acct} requests go through the shared channel.",
        "{v} owns {acct} — expect a renewal call in {q}.",
        "{v} owns {acct}, but doesn't handle their billing questions.",
        "For {acct}, {v} is the owner and the exec sponsor is on the {team} team.",
    ),
    general=(
        "Someone on the {team} team owns {acct}.",
        "{acct} is covered by the {team} team.",
        "{vf} is involved with {acct}.",
        "{vf} works on the {acct} {kind} in some capacity.",
    ),
    negre=(
        "Don't route {acct} questions to anyone but {v}.",
        "No one other than {v} should be contacting {acct}.",
        "For {acct}, go to {v} — not the general queue.",
        "Send {acct} issues to {v}.",
    ),
)


def s_reports(p: Pools) -> Ctx:
    a = p.person()
    m1 = p.other_person(a)
    m2 = p.other_person(a, m1)
    return Ctx({"team": p.pick(TEAMS)}, {"v": _name(p, m1)}, {"v": _name(p, m2)}, person=a,
               extra={"cad": p.pick(("weekly", "biweekly", "every Monday", "monthly")), "skip": _name(p)})


REPORTS = Domain(
    free_values=True,
    slot="reporting_line",
    kind="single",
    sample=s_reports,
    state=(
        "{S} [report] to {v}.",
        "{P} manager is {v}.",
        "{v} is {P} boss.",
        "{S} [be] on {v}'s team.",
        "{S} [roll] up to {v}.",
        "Manager of {O}: {v}",
        "{v} manages {O}.",
        "Q: who does {S} report to? A: {v}",
        "{P} direct manager: {v}",
        "{S} [work] under {v} on the {team} team.",
        "{v} is who {S} [answer] to.",
    ),
    change=(
        "!{S} now [report] to {v} after the reorg.",
        "{P} new manager is {v}.",
        "!{S} moved to {v}'s team in {month}.",
        "{v} replaced {old} as {P} manager.",
        "After the reshuffle {S} [roll] up to {v} instead of {old}.",
        "{S} [be] reporting to {v} since the {team} reorg.",
        "{S} switched managers: {v} instead of {old}.",
    ),
    stop=(
        "{S} no longer [report] to {old}; {pr} [be] under {v} now.",
        "{old} isn't {P} manager anymore — it's {v}.",
        "{S} stopped reporting to {old} when {v} took over the {team} team.",
    ),
    neg=(
        "{S} has never reported to {old}.",
        "{old} isn't {P} manager — never was.",
        "That's wrong, {old} doesn't manage {O}.",
        "{S} [don't] report to {old}, the org chart is off.",
    ),
    elab=(
        "{S} [report] to {v} and [have] a {cad} 1:1 with {po}.",
        "{S} [report] to {v}; {pp} skip-level is {skip}.",
        "{P} manager is {v}, who runs the {team} team.",
        "{S} [be] on {v}'s team and [handle] the {team} backlog.",
        "{S} [report] to {v} — they sync {cad}.",
        "{S} [report] to {v}, not to the {team} director directly.",
    ),
    general=(
        "{S} [be] on the {team} team.",
        "{S} [have] a manager on the {team} side.",
        "{S} [work] in {team}.",
    ),
    negre=(
        "Escalations for {O} go to {v}, not anyone else.",
        "Don't bypass {v} when escalating about {O}.",
        "Loop in {v} on anything about {P} performance.",
    ),
)

TITLES = ("engineering manager", "staff engineer", "senior engineer", "product manager", "director of sales",
          "VP of marketing", "head of design", "tech lead", "data scientist", "account executive",
          "customer success manager", "CFO", "COO", "principal engineer", "team lead", "solutions architect",
          "recruiter", "designer", "analyst", "director of engineering", "office manager", "QA lead")


def _title(p: Pools) -> str:
    return p.pick(TITLES) if p.rng.random() < 0.6 else p.job().lower()


def s_role(p: Pools) -> Ctx:
    a = _title(p)
    b = _title(p)
    while b == a:
        b = _title(p)
    return Ctx({"team": p.pick(TEAMS), "co": p.company()}, {"v": a}, {"v": b}, person=p.person(),
               extra={"n": str(p.rng.randint(2, 14)), "yrs": str(p.rng.randint(2, 9))})


ROLE = Domain(
    free_values=True,
    slot="role",
    kind="single",
    sample=s_role,
    state=(
        "{S} [be] a {v}.",
        "{S} [work] as a {v}.",
        "{P} title is {v}.",
        "{S} [be] the {v} at {co}.",
        "Role: {v}",
        "{S} — {v}, {team} team",
        "{P} job: {v}.",
        "Q: what does {S} do? A: {v}",
        "{S} [hold] the {v} position.",
        "{P} official title: {v}",
    ),
    change=(
        "!{S} was promoted to {v}.",
        "{S} [be] now a {v}.",
        "{S} moved from {old} to {v} in {month}.",
        "{S} stepped into the {v} role.",
        "{S} started a new job as a {v} at {co}.",
        "{S} [have] a new title: {v}.",
        "{S} changed roles — {v} now, previously {old}.",
        "{S} took the {v} job.",
    ),
    stop=(
        "{S} [isn't] a {old} anymore; {pr} [be] {v} now.",
        "{S} stepped down as {old} and [be] a {v} now.",
        "{S} left the {old} role for {v}.",
    ),
    neg=(
        "{S} has never been a {old}.",
        "{S} [isn't] a {old} — that title is wrong.",
        "{P} title was never {old}.",
    ),
    elab=(
        "{S} [be] a {v} with {n} direct reports.",
        "{S} [work] as a {v} and has been at {co} for {yrs} years.",
        "{S} [be] a {v}, focused on the {team} area.",
        "{S} [be] the {v} at {co} and [lead] hiring for the {team} team.",
    ),
    general=(
        "{S} [work] at {co}.",
        "{S} [be] on the {team} team at {co}.",
        "{S} [have] a senior role at {co}.",
    ),
)


def s_approval(p: Pools) -> Ctx:
    a = p.amount()
    b = p.other_amount(a)
    scope = p.pick(("marketing spend", "software purchases", "travel", "vendor contracts", "hiring", "cloud spend",
                    "discounts", "refunds", "capex", "conference budgets", "contractor invoices"))
    return Ctx({"scope": scope}, {"v": money(a, p.rng)}, {"v": money(b, p.rng)}, person=p.person(),
               extra={"deleg": _name(p), "cfo": _name(p)})


APPROVAL = Domain(
    free_values=True,
    slot="approval_limit",
    kind="single",
    sample=s_approval,
    state=(
        "{S} can approve {scope} up to {v}.",
        "{P} approval limit for {scope} is {v}.",
        "{S} [sign] off on {scope} under {v}.",
        "{scope} up to {v} needs only {P} approval.",
        "Approval cap ({scope}): {v} for {O}.",
        "{S} [have] signing authority up to {v} on {scope}.",
        "Q: how much can {S} approve for {scope}? A: {v}",
        "Anything over {v} in {scope} goes above {O}.",
    ),
    change=(
        "!{P} approval limit for {scope} was raised to {v}.",
        "{P} {scope} cap changed from {old} to {v}.",
        "The {scope} limit for {O} was cut to {v}.",
        "{S} can now approve {scope} up to {v}.",
        "Finance bumped {P} {scope} authority to {v}.",
        "{P} signing limit on {scope} went down to {v} after the audit.",
    ),
    stop=(
        "{S} no longer approves {scope} over {v}; above that it goes to {cfo}.",
        "{S} can't sign off on {scope} up to {old} anymore — the cap is {v}.",
    ),
    neg=(
        "{S} has no approval authority for {scope} at all.",
        "{S} can't approve {scope} — {cfo} does all of it.",
        "That's not right: {S} never had a {old} limit on {scope}.",
    ),
    elab=(
        "{S} can approve {scope} up to {v}, and delegates smaller items to {deleg}.",
        "{P} {scope} limit is {v} per quarter, not per purchase.",
        "{S} can sign off on {scope} up to {v}; anything above needs {cfo}.",
        "{S} approves {scope} up to {v}, but only with two quotes attached.",
    ),
    general=(
        "{S} can approve {scope}.",
        "{S} [have] some sign-off authority on {scope}.",
        "{S} [be] an approver for {scope}.",
    ),
    negre=(
        "Don't send {scope} under {v} to anyone but {O}.",
        "No need to escalate {scope} below {v} past {O}.",
    ),
)


def s_budget(p: Pools) -> Ctx:
    a = p.amount()
    b = p.other_amount(a)
    base = {"proj": p.codename(), "what": p.pick(("project", "initiative", "migration", "launch", "campaign", "program")),
            "yr": str(p.rng.randint(2019, 2027))}
    return Ctx(base, {"v": money(a, p.rng)}, {"v": money(b, p.rng)}, person=p.person(),
               other_base={**base, "proj": p.codename()},
               extra={"split": p.pick(("half of it on contractors", "most of it on cloud costs", "about a third on tooling",
                                       "the bulk on hiring")), "q": f"Q{p.rng.randint(1, 4)}"})


BUDGET = Domain(
    free_values=True,
    slot="budget",
    kind="single",
    sample=s_budget,
    person_subject=False,
    state=(
        "The {proj} {what} has a budget of {v}.",
        "{proj} budget: {v}",
        "Budget for {proj} is {v} for {yr}.",
        "We have {v} to spend on the {proj} {what}.",
        "{proj} is funded at {v}.",
        "Q: what's the {proj} budget? A: {v}",
        "The {proj} {what} was allotted {v}.",
        "Total spend on {proj} is capped at {v}.",
    ),
    change=(
        "!The {proj} budget was cut to {v}.",
        "{proj} budget raised from {old} to {v}.",
        "Finance revised the {proj} {what} budget to {v}.",
        "The {proj} {what} now has {v}, down from {old}.",
        "{proj} got extra funding — the budget is {v} now.",
        "{proj}'s budget was reset to {v} in the {q} planning.",
    ),
    neg=(
        "{proj} has no approved budget yet.",
        "There was never a {old} budget for {proj}.",
        "The {proj} {what} isn't funded at all.",
    ),
    elab=(
        "The {proj} budget is {v}, with {split}.",
        "{proj} has {v}, released in two tranches starting {q}.",
        "The {proj} {what} has {v}; unused funds roll over.",
    ),
    general=(
        "{proj} has a budget.",
        "The {proj} {what} is funded.",
        "There's money set aside for {proj}.",
    ),
    negre=(
        "Don't spend more than {v} on {proj}.",
        "No {proj} spending past {v}.",
        "Keep {proj} under {v}.",
    ),
)


def s_launch(p: Pools) -> Ctx:
    d = p.date(2020, 2027)
    delta = p.rng.choice((1, 2, 3, 5, 7, 7, 14, 21, 30, 45, 60))
    d2 = d + dt.timedelta(days=delta * p.rng.choice((1, -1)))
    base = {"proj": p.codename(), "what": p.pick(("launch", "release", "go-live", "beta", "GA", "cutover", "rollout"))}
    return Ctx(base, {"v": date_text(d, p.rng)}, {"v": date_text(d2, p.rng)}, person=p.person(),
               other_base={**base, "proj": p.codename()},
               extra={"reg": p.pick(("EU", "US", "APAC", "internal users", "beta customers")), "t": p.pick(("9am", "noon", "5pm", "10am"))})


LAUNCH = Domain(
    free_values=True,
    slot="launch_date",
    kind="single",
    sample=s_launch,
    person_subject=False,
    state=(
        "{proj} {what} is on {v}.",
        "The {proj} {what} is scheduled for {v}.",
        "{proj} ships {v}.",
        "Target date for {proj}: {v}",
        "We go live with {proj} on {v}.",
        "Q: when is the {proj} {what}? A: {v}",
        "{proj} {what} date — {v}.",
        "The {what} of {proj} is planned for {v}.",
    ),
    change=(
        "!The {proj} {what} slipped to {v}.",
        "{proj} moved from {old} to {v}.",
        "The {proj} {what} was pushed to {v}.",
        "{proj} was pulled in to {v}.",
        "New date for the {proj} {what}: {v}.",
        "{proj} {what} rescheduled to {v}.",
    ),
    neg=(
        "There is no {proj} {what} on {old} — nothing is scheduled.",
        "The {proj} {what} was never planned for {old}.",
        "{proj} has no date yet.",
    ),
    elab=(
        "The {proj} {what} is on {v}, starting with {reg}.",
        "{proj} ships {v} at {t}.",
        "{proj} ships {v}, but not to {reg} until later.",
        "{proj} {what} is {v}; the code freeze starts a week earlier.",
        "The {proj} {what} is on {v} and marketing wants the blog post the same day.",
    ),
    general=(
        "{proj} has a ship date.",
        "The {proj} {what} is coming up.",
        "{proj} has a {what} date.",
    ),
)

STACK = ("Python", "Go", "Rust", "TypeScript", "Java", "Kotlin", "Elixir", "Ruby", "C#", "Scala", "PHP", "Swift")
DB = ("Postgres", "MySQL", "MongoDB", "DynamoDB", "Cassandra", "Snowflake", "BigQuery", "Redis", "ClickHouse", "SQLite")
CLOUD = ("AWS", "GCP", "Azure", "Heroku", "Fly.io", "DigitalOcean", "Vercel", "on-prem servers")
TOOLS = ("Jira", "Linear", "Asana", "Trello", "Notion", "Confluence", "GitHub", "GitLab", "Bitbucket", "Figma", "Sketch",
         "Datadog", "Grafana", "PagerDuty", "Opsgenie", "CircleCI", "Jenkins", "Buildkite", "Airtable", "Monday.com")


def s_stack(p: Pools) -> Ctx:
    pool, what = p.rng.choice(((STACK, "language"), (DB, "database"), (CLOUD, "cloud")))
    a = p.pick(pool)
    b = p.pick(pool, a)
    base = {"svc": p.pick(("billing", "search", "checkout", "auth", "API", "data pipeline", "reporting",
                           "notifications", "mobile backend", "ledger", "recommendations")), "what": what, "team": p.pick(TEAMS)}
    return Ctx(base, {"v": a}, {"v": b}, person=p.person(), other_base={**base, "svc": p.pick(("ingest", "admin panel", "payments", "analytics", "scheduler"))},
               extra={"ver": str(p.rng.randint(3, 17)), "why": p.pick(("for latency", "to cut costs", "for the hiring pool", "because of the vendor deal"))})


STACKD = Domain(
    slot="tech_stack",
    kind="single",
    sample=s_stack,
    person_subject=False,
    state=(
        "The {svc} service runs on {v}.",
        "{svc} is built on {v}.",
        "{svc} stack: {v}",
        "We use {v} for {svc}.",
        "The {team} team built {svc} on {v}.",
        "Q: what does {svc} use? A: {v}",
        "{svc} depends on {v}.",
        "Our {svc} system uses {v}.",
        "{v} powers {svc}.",
    ),
    change=(
        "!{svc} migrated to {v}.",
        "We moved {svc} from {old} to {v}.",
        "{svc} was rebuilt on {v} last quarter.",
        "!{old} was replaced by {v} for {svc}.",
        "{svc} switched over to {v}.",
        "The {svc} port to {v} finished in {month}.",
    ),
    stop=(
        "{svc} doesn't use {old} anymore; it's on {v}.",
        "We retired {old} for {svc} — {v} now.",
    ),
    neg=(
        "{svc} has never used {old}.",
        "There's no {old} anywhere in {svc}.",
        "{svc} isn't on {old}, that's a different service.",
    ),
    elab=(
        "{svc} runs on {v} version {ver}.",
        "{svc} uses {v}, chosen {why}.",
        "{svc} is built on {v} and deployed by the {team} team.",
    ),
    general=(
        "{svc} has a modern stack.",
        "{svc} is maintained by the {team} team.",
    ),
)


def s_tool(p: Pools) -> Ctx:
    a = p.pick(TOOLS)
    b = p.pick(TOOLS, a)
    return Ctx({"for": p.pick(("tickets", "planning", "docs", "code review", "design", "on-call alerts", "dashboards", "CI"))},
               {"v": a}, {"v": b}, person=p.person(),
               extra={"board": p.codename(), "team": p.pick(TEAMS)})


TOOL = Domain(
    free_values=True,
    slot="tools",
    kind="single",
    sample=s_tool,
    state=(
        "{S} [use] {v} for {for}.",
        "{S} [track] {for} in {v}.",
        "{P} {for} live in {v}.",
        "{S} [prefer] {v} for {for}.",
        "Tool for {for}: {v}",
        "{S} [keep] everything about {for} in {v}.",
        "{v} is {P} tool of choice for {for}.",
    ),
    change=(
        "!{S} switched from {old} to {v} for {for}.",
        "{S} moved {P} {for} over to {v}.",
        "!{S} migrated {for} to {v} in {month}.",
        "{S} dropped {old} and [use] {v} for {for}.",
    ),
    stop=(
        "{S} [don't] use {old} for {for} anymore, it's {v}.",
        "{S} stopped using {old}; {for} are in {v}.",
    ),
    neg=(
        "{S} has never used {old}.",
        "{S} doesn't have a {old} account.",
    ),
    elab=(
        "{S} [use] {v} for {for}, on the {board} board.",
        "{S} [use] {v} for {for} and [share] it with the {team} team.",
        "{S} [use] {v} for {for}, not for personal notes.",
    ),
    general=(
        "{S} [use] a tool for {for}.",
        "{S} [keep] {for} organized digitally.",
    ),
)


def s_policy(p: Pools) -> Ctx:
    d = p.date(2021, 2027)
    d2 = d + dt.timedelta(days=p.rng.choice((-7, -5, -3, -2, 2, 3, 5, 7, 10, 14)))
    return Ctx({"team": p.pick(TEAMS)}, {"v": date_text(d, p.rng, with_year=False), "n": str(p.rng.randint(2, 5))},
               {"v": date_text(d2, p.rng, with_year=False), "n": str(p.rng.randint(6, 10))}, person=p.person(),
               extra={"exc": p.pick(("hotfixes", "security patches", "config changes", "docs")), "approver": _name(p)})


FREEZE = Domain(
    free_values=True,
    slot="policy",
    kind="single",
    sample=s_policy,
    person_subject=False,
    state=(
        "Deploy freeze starts on {v}.",
        "Code freeze begins {v}.",
        "The {team} change freeze kicks in {v}.",
        "Release freeze from {v} onward.",
        "We freeze production deploys starting {v}.",
        "Freeze date: {v}",
        "Q: when does the freeze start? A: {v}",
    ),
    change=(
        "!The deploy freeze moved to {v}.",
        "Freeze now starts {v} instead of {old}.",
        "The code freeze was pushed to {v}.",
        "Change freeze rescheduled: {v}.",
    ),
    neg=(
        "There's no deploy freeze this cycle.",
        "No freeze was ever planned for {old}.",
        "Nobody announced a code freeze.",
    ),
    elab=(
        "Deploy freeze starts {v}; {exc} still need {approver}'s sign-off.",
        "Code freeze begins {v} and lasts {n} weeks.",
        "Freeze from {v}, except for {exc}.",
    ),
    general=(
        "There's a deploy freeze coming up.",
        "We have a code freeze scheduled.",
    ),
    negre=(
        "No deploys from {v}.",
        "Don't ship anything to prod after {v}.",
        "Nothing goes out starting {v}.",
        "Hold all releases from {v} on.",
        "Never deploy on or after {v} until the freeze lifts.",
    ),
)


def s_office(p: Pools) -> Ctx:
    a, b = p.city(), p.city()
    while b == a:
        b = p.city()
    return Ctx({}, {"v": a}, {"v": b}, person=p.person(),
               extra={"fl": str(p.rng.randint(2, 30)), "days": p.pick(("Tuesdays and Thursdays", "three days a week", "Mondays", "most days")),
                      "wd": p.pick(WEEKDAYS)})


OFFICE = Domain(
    slot="office",
    kind="single",
    sample=s_office,
    state=(
        "{S} [work] out of the {v} office.",
        "{P} desk is in {v}.",
        "{S} [be] based at the {v} office.",
        "Office: {v}",
        "{S} [go] into the {v} office.",
        "{S} [sit] in the {v} hub.",
        "Home office for {O}: {v}",
    ),
    change=(
        "!{S} moved to the {v} office.",
        "{S} transferred from {old} to {v}.",
        "{S} [work] from the {v} office now.",
        "{S} relocated to our {v} site in {month}.",
    ),
    stop=(
        "{S} [isn't] in the {old} office anymore — {v} now.",
    ),
    neg=(
        "{S} has never worked out of {old}.",
        "We don't even have an office in {old}; {S} [be] remote.",
    ),
    elab=(
        "{S} [work] out of the {v} office on floor {fl}.",
        "{S} [be] at the {v} office {days}.",
        "{S} [work] in {v} and [be] remote on {wd}s.",
        "{S} [work] out of the {v} office, though not on {wd}s.",
    ),
    general=(
        "{S} [work] from an office, not remotely.",
        "{S} [come] into the office regularly.",
    ),
)


def s_oncall(p: Pools) -> Ctx:
    a = p.person()
    b = p.other_person(a)
    return Ctx({"rot": p.pick(("payments", "platform", "search", "infra", "mobile", "API", "database")),
                "when": p.pick(("this week", "this weekend", "through Friday", f"the week of {p.pick(MONTHS)} {p.rng.randint(1, 28)}"))},
               {"v": _name(p, a)}, {"v": _name(p, b)}, person=a,
               extra={"backup": _name(p), "tool": p.pick(("PagerDuty", "Opsgenie", "the phone tree"))})


ONCALL = Domain(
    free_values=True,
    slot="on_call",
    kind="single",
    sample=s_oncall,
    person_subject=False,
    max_gap_days=2,
    state=(
        "{v} is on call for {rot} {when}.",
        "{rot} on-call {when}: {v}",
        "{v} holds the {rot} pager {when}.",
        "Page {v} for {rot} issues {when}.",
        "Q: who is on call for {rot} {when}? A: {v}",
        "{v} has {rot} on-call duty {when}.",
    ),
    change=(
        "!{v} swapped in for {old} on {rot} on-call {when}.",
        "{rot} pager handed over to {v}.",
        "{v} took the {rot} rotation from {old}.",
    ),
    neg=(
        "Nobody is on call for {rot} {when}.",
        "{old} isn't on the {rot} rotation at all.",
        "{old} is on leave {when}, not on call.",
    ),
    elab=(
        "{v} is on call for {rot} {when}, with {backup} as backup.",
        "{v} has the {rot} pager {when}; alerts go through {tool}.",
    ),
    general=(
        "Someone from the {rot} team is on call {when}.",
        "{rot} has on-call coverage {when}.",
    ),
)

DOMAINS: tuple[Domain, ...] = (OWNERSHIP, REPORTS, ROLE, APPROVAL, BUDGET, LAUNCH, STACKD, TOOL, FREEZE, OFFICE, ONCALL)
