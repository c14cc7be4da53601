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
        "~{acct} is {v}'s {kind}.",
        "~The person who owns {acct}: {v}.",
        "~If it's about {acct}, {v} is your person.",
        "~Account owner on {acct} — {v}",
        "~{acct} → {v}",
        "~{v} looks after the {acct} {kind}.",
        "~Re: {acct} — owned by {v}.",
        "~The {acct} {kind} is {v}'s responsibility.",
        "~{v} is the DRI for {acct}.",
        "~Q: who's the contact for the {acct} {kind}? A: {v}",
        "~Responsibility for {acct} rests with {v} on the {team} team.",
        "~{acct} is in {v}'s book of business.",
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
        "~{old} handed {acct} over to {v} in {month}.",
        "~{acct} changed hands in {month}: {old} out, {v} in.",
        "~{v} is taking over {acct} from {old}.",
        "~Reassignment: the {acct} {kind} goes from {old} to {v}.",
        "~After the {team} team reorg, {acct} landed with {v}.",
        "~{acct} was moved off {old}'s plate and onto {v}'s.",
        "~{v} is the new point of contact for {acct}, effective {month}.",
        "~We gave the {acct} {kind} to {v} when {old} changed teams.",
        "~{acct}'s owner changed from {old} to {v}.",
        "~Swapped owners on {acct} — {v} has it as of {month}.",
    ),
    stop=(
        "{old} no longer owns {acct}; it's {v}'s now.",
        "{old} isn't on the {acct} {kind} anymore — {v} has it.",
        "{old} rolled off {acct}, {v} picked it up.",
        "{old} stopped covering {acct} when {v} joined.",
        "{old} is off {acct} as of {month}; {v} is the contact.",
        "~{old} is done with {acct}; {v} owns it from here.",
        "~{old} dropped off the {acct} {kind}; {v} covers it.",
        "~{acct} is not {old}'s anymore — {v} took it.",
        "~{old} no longer handles {acct}. Point of contact: {v}.",
        "~{old} gave up {acct} in {month}, and {v} has it now.",
    ),
    neg=(
        "{old} has never worked on {acct}.",
        "That's not right, {old} doesn't own {acct}.",
        "Nobody is assigned to {acct} at the moment.",
        "{acct} has no owner yet — it is unassigned.",
        "{old} was never the point of contact for {acct}.",
        "{acct} doesn't belong to {old}, whatever the notes say.",
        "~{old} has nothing to do with {acct}.",
        "~{acct} was never {old}'s.",
        "~No, {old} doesn't cover {acct} and never did.",
        "~{old} isn't the owner of {acct} — wrong name in the notes.",
        "~{acct} has never had an owner named {old}.",
        "~Whoever said {old} runs {acct} was mistaken.",
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
        "~{v} is the {acct} owner, and that's because {why}.",
        "~{v} is the contact for the {acct} {kind}, which is up for renewal in {q}.",
        "~{v} owns the {acct} {kind}, valued at around {amt}.",
        "~{v} owns {acct} and sits in on their quarterly business reviews.",
        "~{v} covers {acct}, with someone from the {team} team as backup.",
        "~{v} is point on {acct} and signs off on any discount for them.",
        "~{v} owns {acct} and holds a weekly check-in with their ops lead.",
        "~{v} owns the {acct} {kind}; the {q} QBR is already booked.",
    ),
    general=(
        "Someone on the {team} team owns {acct}.",
        "{acct} is covered by the {team} team.",
        "{vf} is involved with {acct}.",
        "{vf} works on the {acct} {kind} in some capacity.",
        "~{acct} is owned by someone in {team}.",
        "~{vf} has some role on {acct}.",
        "~The {acct} {kind} has an owner on the {team} side.",
        "~{vf} is in the loop on {acct}.",
        "~{acct} is a {team} {kind}.",
    ),
    negre=(
        "Don't route {acct} questions to anyone but {v}.",
        "No one other than {v} should be contacting {acct}.",
        "For {acct}, go to {v} — not the general queue.",
        "Send {acct} issues to {v}.",
        "~{acct} questions: {v}, nobody else.",
        "~Don't go around {v} on anything {acct}.",
        "~Never contact {acct} without checking with {v} first.",
        "~Everything {acct}-related should go through {v}.",
        "~No {acct} calls unless {v} is on them.",
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
        "~{v} is the person {S} [report] to.",
        "~{P} line manager — {v}",
        "~{S} [sit] under {v} in the org chart.",
        "~{v} has {O} as a direct report.",
        "~{S} [be] one of {v}'s direct reports.",
        "~Q: who's {P} manager? A: {v}",
        "~On the {team} team, {S} [report] up through {v}.",
        "~{v} runs the team {S} [be] on.",
        "~{P} reporting line goes to {v}.",
        "~{S} [take] direction from {v}.",
        "~{v} is the one who manages {O} day to day.",
    ),
    change=(
        "!{S} now [report] to {v} after the reorg.",
        "{P} new manager is {v}.",
        "!{S} moved to {v}'s team in {month}.",
        "{v} replaced {old} as {P} manager.",
        "After the reshuffle {S} [roll] up to {v} instead of {old}.",
        "{S} [be] reporting to {v} since the {team} reorg.",
        "{S} switched managers: {v} instead of {old}.",
        "~{S} got moved under {v} in {month}.",
        "~{v} became {P} manager after {old} left.",
        "~{P} manager changed from {old} to {v}.",
        "~{S} [have] been transferred to {v}'s team.",
        "~As part of the {team} reorg, {S} [be] reporting to {v} instead.",
        "~{S} got a new boss in {month}: {v}.",
        "~{old} handed {P} reporting line over to {v}.",
    ),
    stop=(
        "{S} no longer [report] to {old}; {pr} [be] under {v} now.",
        "{old} isn't {P} manager anymore — it's {v}.",
        "{S} stopped reporting to {old} when {v} took over the {team} team.",
        "~{S} [don't] report to {old} anymore; {v} is {P} manager.",
        "~{old} is no longer {P} boss; {S} [report] to {v}.",
        "~{S} left {old}'s team and [report] to {v}.",
        "~{P} time reporting to {old} is over — {pr} [be] on {v}'s team.",
        "~No more 1:1s with {old}: {S} [report] to {v}.",
    ),
    neg=(
        "{S} has never reported to {old}.",
        "{old} isn't {P} manager — never was.",
        "That's wrong, {old} doesn't manage {O}.",
        "{S} [don't] report to {old}, the org chart is off.",
        "~{old} has never been {P} manager.",
        "~{S} [have] never been on {old}'s team.",
        "~The idea that {S} [report] to {old} is wrong.",
        "~{old} doesn't manage anyone, let alone {O}.",
        "~{old} was never in {P} chain of command.",
    ),
    elab=(
        "{S} [report] to {v} and [have] a {cad} 1:1 with {po}.",
        "{S} [report] to {v}; {pp} skip-level is {skip}.",
        "{P} manager is {v}, who runs the {team} team.",
        "{S} [be] on {v}'s team and [handle] the {team} backlog.",
        "{S} [report] to {v} — they sync {cad}.",
        "{S} [report] to {v}, not to the {team} director directly.",
        "~{P} manager is {v}, who also signs off on {pp} expenses.",
        "~{S} [report] to {v}, with 1:1s {cad}.",
        "~{S} [report] to {v}, and {skip} is the next level up.",
        "~{S} [be] on {v}'s team, working mostly on {team} projects.",
        "~{v} is {P} manager and also {pp} mentor.",
        "~{S} [report] to {v}, who writes {pp} performance reviews.",
    ),
    general=(
        "{S} [be] on the {team} team.",
        "{S} [have] a manager on the {team} side.",
        "{S} [work] in {team}.",
        "~{S} [have] a manager.",
        "~{S} [sit] somewhere in the {team} org.",
        "~{S} [report] to someone in {team}.",
        "~{S} [be] part of the {team} group.",
        "~{S} [be] in the {team} reporting chain.",
    ),
    negre=(
        "Escalations for {O} go to {v}, not anyone else.",
        "Don't bypass {v} when escalating about {O}.",
        "Loop in {v} on anything about {P} performance.",
        "~Don't go over {v}'s head on anything about {O}.",
        "~Requests about {P} time off go to {v}, nobody else.",
        "~Nobody but {v} should be giving {O} assignments.",
        "~Never escalate {P} issues past {v} without telling {v} first.",
        "~Raise concerns about {P} work with {v} directly.",
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
        "~{v} is what {S} [do] at {co}.",
        "~{S} [be] employed as a {v}.",
        "~{P} position: {v}, {co}",
        "~{S} [serve] as the {team} team's {v}.",
        "~Job title for {O}: {v}",
        "~Q: what's {P} title? A: {v}",
        "~{S} [be] {co}'s {v}.",
        "~As a {v}, {S} [sit] on the {team} team.",
        "~{S} [fill] the {v} slot at {co}.",
        "~by trade, {S} [be] a {v}.",
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
        "~{S} went from {old} to {v}.",
        "~{S} got bumped up to {v} in {month}.",
        "~{S} [be] the new {v} at {co}.",
        "~{S} took on the {v} title in {month}.",
        "~{S} was moved into a {v} position.",
        "~{S} landed a {v} role at {co}.",
        "~{S} gave up being a {old} to become a {v}.",
        "~{S} was named {v} at {co} in {month}.",
    ),
    stop=(
        "{S} [isn't] a {old} anymore; {pr} [be] {v} now.",
        "{S} stepped down as {old} and [be] a {v} now.",
        "{S} left the {old} role for {v}.",
        "~{S} [be] done being a {old}; {pr} [work] as a {v}.",
        "~{S} no longer [work] as a {old} — {v} these days.",
        "~{S} quit the {old} job and [be] a {v}.",
        "~{S} [have] moved on from {old} to {v}.",
        "~{S} [isn't] doing {old} work anymore; {pr} [be] a {v}.",
    ),
    neg=(
        "{S} has never been a {old}.",
        "{S} [isn't] a {old} — that title is wrong.",
        "{P} title was never {old}.",
        "~{S} [have] never held a {old} title.",
        "~{S} was never a {old} — wrong title on file.",
        "~{P} job has never been {old}.",
        "~{S} [isn't] and never was a {old}.",
        "~No, {old} isn't {P} role.",
    ),
    elab=(
        "{S} [be] a {v} with {n} direct reports.",
        "{S} [work] as a {v} and has been at {co} for {yrs} years.",
        "{S} [be] a {v}, focused on the {team} area.",
        "{S} [be] the {v} at {co} and [lead] hiring for the {team} team.",
        "~{S} [be] a {v} managing a team of {n}.",
        "~{S} [be] a {v} at {co}, {yrs} years in.",
        "~{S} [work] as a {v}, mostly on {team} accounts.",
        "~{S} [be] the {v} for {co}'s {team} group and [run] its weekly planning.",
        "~{S} [be] a {v} who [split] time between {team} work and hiring.",
    ),
    general=(
        "{S} [work] at {co}.",
        "{S} [be] on the {team} team at {co}.",
        "{S} [have] a senior role at {co}.",
        "~{S} [be] employed at {co}.",
        "~{S} [be] on staff at {co}.",
        "~{S} [do] something on the {team} side.",
        "~{S} [be] a {co} employee.",
        "~{S} [work] in the {team} org at {co}.",
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
        "~{v} is the most {S} can approve on {scope}.",
        "~{scope}: {S} can sign up to {v}.",
        "~Spend authority for {O} on {scope} — {v}.",
        "~{S} [be] cleared to approve {scope} as high as {v}.",
        "~Requests for {scope} up to {v} are approved by {O}.",
        "~Q: what's {P} {scope} sign-off limit? A: {v}",
        "~{P} authority on {scope} tops out at {v}.",
        "~Up to {v} of {scope}, {P} OK is enough.",
    ),
    change=(
        "!{P} approval limit for {scope} was raised to {v}.",
        "{P} {scope} cap changed from {old} to {v}.",
        "The {scope} limit for {O} was cut to {v}.",
        "{S} can now approve {scope} up to {v}.",
        "Finance bumped {P} {scope} authority to {v}.",
        "{P} signing limit on {scope} went down to {v} after the audit.",
        "~{P} {scope} approval ceiling went from {old} to {v}.",
        "~Finance changed {P} limit on {scope} to {v}.",
        "~{S} got {P} {scope} cap set to {v}.",
        "~New {scope} limit for {O}: {v} (was {old}).",
        "~The CFO reset {P} sign-off authority for {scope} to {v}.",
        "~{P} {scope} limit was adjusted to {v} in the new policy.",
    ),
    stop=(
        "{S} no longer approves {scope} over {v}; above that it goes to {cfo}.",
        "{S} can't sign off on {scope} up to {old} anymore — the cap is {v}.",
        "~{S} lost the {old} sign-off on {scope}; {v} is the max.",
        "~{S} [don't] get to approve {old} of {scope} anymore; the ceiling is {v}.",
        "~{S} can't go up to {old} on {scope} anymore; {v} is the limit.",
        "~{S} no longer [have] a {old} limit on {scope}. It's {v}.",
        "~The {old} cap {S} had on {scope} is gone; {S} can sign up to {v}.",
    ),
    neg=(
        "{S} has no approval authority for {scope} at all.",
        "{S} can't approve {scope} — {cfo} does all of it.",
        "That's not right: {S} never had a {old} limit on {scope}.",
        "~{S} never had sign-off on {scope}.",
        "~{S} [have] zero approval rights over {scope}; it all goes to {cfo}.",
        "~{S} was never given a {old} limit on {scope}.",
        "~{old}? No — {S} can't approve any {scope}.",
        "~{scope} approval isn't something {S} [do]; {cfo} handles it.",
    ),
    elab=(
        "{S} can approve {scope} up to {v}, and delegates smaller items to {deleg}.",
        "{P} {scope} limit is {v} per quarter, not per purchase.",
        "{S} can sign off on {scope} up to {v}; anything above needs {cfo}.",
        "{S} approves {scope} up to {v}, but only with two quotes attached.",
        "~{S} can approve {scope} up to {v}, but only within the annual plan.",
        "~{P} {scope} limit is {v}; {deleg} covers approvals when {S} [be] out.",
        "~{S} can sign {scope} up to {v} per vendor, with {cfo} countersigning anything bigger.",
        "~{S} [have] {v} of authority on {scope}, and it resets every fiscal year.",
        "~{S} [approve] {scope} up to {v} and [report] the totals to {cfo} monthly.",
    ),
    general=(
        "{S} can approve {scope}.",
        "{S} [have] some sign-off authority on {scope}.",
        "{S} [be] an approver for {scope}.",
        "~{S} [have] a say in {scope} approvals.",
        "~{S} can OK some {scope}.",
        "~{S} [be] in the approval chain for {scope}.",
        "~{S} [hold] some budget authority over {scope}.",
        "~{S} [approve] {scope} in certain cases.",
    ),
    negre=(
        "Don't send {scope} under {v} to anyone but {O}.",
        "No need to escalate {scope} below {v} past {O}.",
        "~{scope} under {v}? Take it to {O}, no one higher.",
        "~Anything in {scope} under {v}: get {O} to approve it, not finance.",
        "~Don't push {scope} under {v} up the chain; it stays with {O}.",
        "~Keep {scope} approvals below {v} with {O}.",
        "~{scope} up to {v} doesn't need anyone above {O}.",
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
        "~{v} is the {proj} budget.",
        "~Funding for the {proj} {what}: {v}.",
        "~The {proj} {what} is budgeted at {v}.",
        "~{proj} operates with a budget of {v}.",
        "~Q: how much money does {proj} have? A: {v}",
        "~{yr} spend envelope for {proj}: {v}",
        "~The ceiling on {proj} spending is {v}.",
        "~Money allocated to the {proj} {what} — {v}.",
    ),
    change=(
        "!The {proj} budget was cut to {v}.",
        "{proj} budget raised from {old} to {v}.",
        "Finance revised the {proj} {what} budget to {v}.",
        "The {proj} {what} now has {v}, down from {old}.",
        "{proj} got extra funding — the budget is {v} now.",
        "{proj}'s budget was reset to {v} in the {q} planning.",
        "~{proj}'s budget went from {old} to {v}.",
        "~The {proj} {what} got a new number: {v}.",
        "~Budget change on {proj}: {old} → {v}.",
        "~In the {q} reforecast, {proj} went to {v}.",
        "~Leadership approved a new {proj} budget of {v}.",
        "~The {proj} {what} was re-budgeted at {v}.",
    ),
    neg=(
        "{proj} has no approved budget yet.",
        "There was never a {old} budget for {proj}.",
        "The {proj} {what} isn't funded at all.",
        "~Nobody ever approved {old} for {proj}.",
        "~{proj} doesn't have any money behind it.",
        "~The {proj} {what} has zero budget.",
        "~{old} was never the {proj} number.",
        "~There's no funding line for the {proj} {what}.",
    ),
    elab=(
        "The {proj} budget is {v}, with {split}.",
        "{proj} has {v}, released in two tranches starting {q}.",
        "The {proj} {what} has {v}; unused funds roll over.",
        "~{proj} has {v} to spend, {split}.",
        "~The {proj} {what} is funded at {v}, and the money has to be committed by {q}.",
        "~The {proj} budget is {v}, with a check-in at the {q} review.",
        "~{proj} has {v}, not counting headcount.",
        "~The {proj} {what} gets {v}; any overrun needs a CFO sign-off.",
    ),
    general=(
        "{proj} has a budget.",
        "The {proj} {what} is funded.",
        "There's money set aside for {proj}.",
        "~{proj} is a funded {what}.",
        "~Some budget is allocated to {proj}.",
        "~There's a budget line for the {proj} {what}.",
        "~{proj} has approved funding.",
        "~Q: does {proj} have a budget? A: yes",
    ),
    negre=(
        "Don't spend more than {v} on {proj}.",
        "No {proj} spending past {v}.",
        "Keep {proj} under {v}.",
        "~{proj} spending must stay within {v}.",
        "~Don't go over {v} on the {proj} work.",
        "~Never let {proj} costs pass {v}.",
        "~Anything beyond {v} for {proj} is off limits.",
        "~Cap {proj} at {v} — no exceptions.",
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
        "~{v} is the {proj} {what} date.",
        "~{proj} goes out on {v}.",
        "~The {what} for {proj} lands {v}.",
        "~{proj}: {what} planned for {v}",
        "~Q: {proj} {what} date? A: {v}",
        "~{proj} is slated for {v}.",
        "~D-day for {proj}: {v}.",
        "~{proj} {what} happens on {v}.",
    ),
    change=(
        "!The {proj} {what} slipped to {v}.",
        "{proj} moved from {old} to {v}.",
        "The {proj} {what} was pushed to {v}.",
        "{proj} was pulled in to {v}.",
        "New date for the {proj} {what}: {v}.",
        "{proj} {what} rescheduled to {v}.",
        "~The {proj} {what} got bumped from {old} to {v}.",
        "~{proj} now targets {v} instead of {old}.",
        "~We moved the {proj} {what} date to {v}.",
        "~{proj} {what}: was {old}, is {v}.",
        "~Schedule change — {proj} lands {v}.",
        "~The {what} for {proj} has been reset to {v}.",
    ),
    neg=(
        "There is no {proj} {what} on {old} — nothing is scheduled.",
        "The {proj} {what} was never planned for {old}.",
        "{proj} has no date yet.",
        "~Nobody ever set {old} as the {proj} date.",
        "~{proj} isn't scheduled — no {what} date exists.",
        "~There's no {proj} {what} planned at all.",
        "~{old} was never on the calendar for {proj}.",
        "~The {proj} {what} hasn't been dated yet.",
    ),
    elab=(
        "The {proj} {what} is on {v}, starting with {reg}.",
        "{proj} ships {v} at {t}.",
        "{proj} ships {v}, but not to {reg} until later.",
        "{proj} {what} is {v}; the code freeze starts a week earlier.",
        "The {proj} {what} is on {v} and marketing wants the blog post the same day.",
        "~{proj} goes live {v}, {reg} first.",
        "~The {proj} {what} is set for {v}, with the announcement at {t}.",
        "~{proj} {what} on {v}, with {reg} following a week after.",
        "~{proj} ships on {v} behind a feature flag.",
        "~The {proj} {what} is {v}, and support is staffed up that day.",
    ),
    general=(
        "{proj} has a ship date.",
        "The {proj} {what} is coming up.",
        "{proj} has a {what} date.",
        "~{proj} is on the roadmap with a date.",
        "~A {what} date for {proj} exists.",
        "~{proj} has been scheduled.",
        "~The {proj} {what} is on the calendar.",
        "~There's a target date for {proj}.",
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
        "~{v} is what {svc} runs on.",
        "~{svc} → {v}",
        "~Under the hood, {svc} uses {v}.",
        "~{svc} sits on {v}.",
        "~Q: {svc} — what's it built on? A: {v}",
        "~{svc} relies on {v}.",
        "~For {svc}, the stack is {v}.",
        "~{svc}: built with {v}",
        "~{v} is the foundation of the {team} team's {svc} service.",
    ),
    change=(
        "!{svc} migrated to {v}.",
        "We moved {svc} from {old} to {v}.",
        "{svc} was rebuilt on {v} last quarter.",
        "!{old} was replaced by {v} for {svc}.",
        "{svc} switched over to {v}.",
        "The {svc} port to {v} finished in {month}.",
        "~{svc} moved off {old} onto {v}.",
        "~We finished migrating {svc} to {v} in {month}.",
        "~{old} got swapped out for {v} in {svc}.",
        "~{svc} is on {v} after the {month} migration.",
        "~The {svc} rewrite replaced {old} with {v}.",
        "~{svc} changed from {old} to {v}.",
    ),
    stop=(
        "{svc} doesn't use {old} anymore; it's on {v}.",
        "We retired {old} for {svc} — {v} now.",
        "~{old} is gone from {svc}; it all runs on {v}.",
        "~{svc} dropped {old} — everything is on {v}.",
        "~No more {old} in {svc}; we're on {v}.",
        "~{svc} stopped using {old} and runs on {v}.",
        "~{old} was decommissioned for {svc}, which uses {v}.",
    ),
    neg=(
        "{svc} has never used {old}.",
        "There's no {old} anywhere in {svc}.",
        "{svc} isn't on {old}, that's a different service.",
        "~{old} was never part of {svc}.",
        "~{svc} doesn't touch {old} at all.",
        "~Whoever said {svc} runs on {old} is wrong.",
        "~{svc} and {old}? Never.",
        "~Nothing in the {svc} codebase uses {old}.",
    ),
    elab=(
        "{svc} runs on {v} version {ver}.",
        "{svc} uses {v}, chosen {why}.",
        "{svc} is built on {v} and deployed by the {team} team.",
        "~{svc} runs {v} (version {ver}), with automated upgrades turned off.",
        "~{svc} uses {v}; we picked it {why}.",
        "~{svc} is built on {v}, and the {team} team is on call for it.",
        "~{svc} runs on {v} across three regions.",
        "~{svc} runs on {v}, and its deploys go through a blue-green setup.",
    ),
    general=(
        "{svc} has a modern stack.",
        "{svc} is maintained by the {team} team.",
        "~{svc} runs on a standard stack.",
        "~The {team} team owns {svc}.",
        "~{svc} has a well-defined tech stack.",
        "~{svc} is a production service with an established stack.",
        "~There's a known platform under {svc}.",
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
        "~{v} is where {S} [handle] {for}.",
        "~For {for}, {S} [rely] on {v}.",
        "~{P} {for} tool: {v}",
        "~{S} [run] {for} through {v}.",
        "~Q: what does {S} use for {for}? A: {v}",
        "~{S} [be] a {v} person when it comes to {for}.",
        "~{S} [manage] {for} with {v}.",
    ),
    change=(
        "!{S} switched from {old} to {v} for {for}.",
        "{S} moved {P} {for} over to {v}.",
        "!{S} migrated {for} to {v} in {month}.",
        "{S} dropped {old} and [use] {v} for {for}.",
        "~{S} ditched {old} for {v} on {for}.",
        "~{S} replaced {old} with {v} for {for}.",
        "~{S} moved {for} off {old} and onto {v} in {month}.",
        "~{P} {for} went from {old} to {v}.",
        "~{S} [have] started using {v} for {for}.",
    ),
    stop=(
        "{S} [don't] use {old} for {for} anymore, it's {v}.",
        "{S} stopped using {old}; {for} are in {v}.",
        "~{S} gave up on {old}; {v} handles {for}.",
        "~{S} [be] off {old} for {for} — {v} is the tool.",
        "~{S} no longer [keep] {for} in {old}; it's all {v}.",
        "~{S} quit {old} and [track] {for} in {v}.",
        "~{S} [don't] touch {old} anymore; {v} covers {for}.",
    ),
    neg=(
        "{S} has never used {old}.",
        "{S} doesn't have a {old} account.",
        "~{S} [have] never had access to {old}.",
        "~{S} [don't] use {old} and never did.",
        "~{old} isn't something {S} [use].",
        "~{S} [have] no {old} login.",
        "~{S} couldn't tell you how {old} works — never used it.",
    ),
    elab=(
        "{S} [use] {v} for {for}, on the {board} board.",
        "{S} [use] {v} for {for} and [share] it with the {team} team.",
        "{S} [use] {v} for {for}, not for personal notes.",
        "~{S} [use] {v} for {for} and [check] it first thing every morning.",
        "~{S} [track] {for} in {v}, under the {board} project.",
        "~{S} [use] {v} for {for}, on a paid seat the {team} team covers.",
        "~{S} [keep] {for} in {v} and [share] the {board} board with contractors.",
        "~{S} [use] {v} for {for}, mostly from the mobile app.",
    ),
    general=(
        "{S} [use] a tool for {for}.",
        "{S} [keep] {for} organized digitally.",
        "~{S} [have] a system for {for}.",
        "~{S} [use] software to manage {for}.",
        "~{S} [track] {for} somewhere online.",
        "~{S} [rely] on an app for {for}.",
        "~{S} [keep] {for} in a tool of some kind.",
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
        "~{v} is when the deploy freeze starts.",
        "~Production is frozen from {v}.",
        "~The freeze window opens {v}.",
        "~Q: {team} code freeze — start date? A: {v}",
        "~Merge freeze kicks off on {v}.",
        "~Prod lockdown begins {v}.",
        "~{team} freeze: {v} onwards",
    ),
    change=(
        "!The deploy freeze moved to {v}.",
        "Freeze now starts {v} instead of {old}.",
        "The code freeze was pushed to {v}.",
        "Change freeze rescheduled: {v}.",
        "~Freeze date changed: {old} → {v}.",
        "~They moved the code freeze to {v}.",
        "~The freeze no longer starts {old}; it starts {v}.",
        "~New freeze start: {v} (was {old}).",
        "~Release management shifted the deploy freeze to {v}.",
    ),
    neg=(
        "There's no deploy freeze this cycle.",
        "No freeze was ever planned for {old}.",
        "Nobody announced a code freeze.",
        "~{old} was never a freeze date.",
        "~No one is freezing deploys, {old} or otherwise.",
        "~There is no code freeze scheduled.",
        "~The freeze on {old} doesn't exist — someone misread the calendar.",
        "~We aren't doing a release freeze this time.",
    ),
    elab=(
        "Deploy freeze starts {v}; {exc} still need {approver}'s sign-off.",
        "Code freeze begins {v} and lasts {n} weeks.",
        "Freeze from {v}, except for {exc}.",
        "~The deploy freeze starts {v} and runs for {n} weeks, {exc} excepted.",
        "~Freeze begins {v}; {approver} is the one who can grant exceptions.",
        "~Code freeze from {v} — {exc} can still go out with a ticket.",
        "~The freeze kicks in {v}, lasting {n} weeks across all services.",
        "~Deploys freeze on {v}, and {approver} runs the daily go/no-go for {exc}.",
    ),
    general=(
        "There's a deploy freeze coming up.",
        "We have a code freeze scheduled.",
        "~A deploy freeze is planned.",
        "~There's a release freeze on the calendar.",
        "~Deploys will pause for a freeze at some point.",
        "~The freeze date is set.",
        "~A change freeze is coming.",
    ),
    negre=(
        "No deploys from {v}.",
        "Don't ship anything to prod after {v}.",
        "Nothing goes out starting {v}.",
        "Hold all releases from {v} on.",
        "Never deploy on or after {v} until the freeze lifts.",
        "~From {v}, nothing ships to production.",
        "~Do not merge to main once {v} hits.",
        "~No prod changes on or after {v}.",
        "~Releases stop at {v} — don't push anything.",
        "~Deploying after {v}? Don't.",
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
        "~{v} is where {S} [work] from.",
        "~{S} [commute] to the {v} office.",
        "~{P} home base: {v}.",
        "~Q: which office is {S} in? A: {v}",
        "~{S} [have] a desk at the {v} location.",
        "~{S} [work] on-site in {v}.",
        "~{v} office — that's where {S} [be].",
    ),
    change=(
        "!{S} moved to the {v} office.",
        "{S} transferred from {old} to {v}.",
        "{S} [work] from the {v} office now.",
        "{S} relocated to our {v} site in {month}.",
        "~{S} switched offices, {old} to {v}.",
        "~{S} got transferred to {v} in {month}.",
        "~{S} [have] moved desks to the {v} office.",
        "~{S} packed up in {old} and [be] at the {v} office.",
        "~{S} relocated from {old} to {v}.",
    ),
    stop=(
        "{S} [isn't] in the {old} office anymore — {v} now.",
        "~{S} [don't] work from {old} anymore; {S} [be] in {v}.",
        "~{S} left the {old} office and [work] out of {v}.",
        "~{S} no longer [sit] in {old} — {v} is {P} office.",
        "~{S} [be] done with the {old} office; {S} [go] into {v}.",
        "~{S} gave up {P} {old} desk for one in {v}.",
    ),
    neg=(
        "{S} has never worked out of {old}.",
        "We don't even have an office in {old}; {S} [be] remote.",
        "~{S} [have] never had a desk in {old}.",
        "~{S} wasn't ever based in {old}.",
        "~{old} isn't {P} office and never was.",
        "~{S} [don't] work out of {old} — never did.",
        "~The {old} office? {S} [have] never set foot there.",
    ),
    elab=(
        "{S} [work] out of the {v} office on floor {fl}.",
        "{S} [be] at the {v} office {days}.",
        "{S} [work] in {v} and [be] remote on {wd}s.",
        "{S} [work] out of the {v} office, though not on {wd}s.",
        "~{S} [work] from the {v} office, desk on floor {fl}.",
        "~{S} [be] based in {v} and [come] in {days}.",
        "~{S} [sit] in {v}, but [work] from home on {wd}s.",
        "~{S} [work] in {v} and [book] a hot desk there {days}.",
        "~{S} [be] at the {v} office {days}, on floor {fl}.",
    ),
    general=(
        "{S} [work] from an office, not remotely.",
        "{S} [come] into the office regularly.",
        "~{S} [work] in an office.",
        "~{S} [have] an office to go to.",
        "~{S} [isn't] fully remote.",
        "~{S} [be] office-based.",
        "~{S} [have] a desk somewhere.",
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
        "~{v} is carrying the {rot} pager {when}.",
        "~On call, {rot}, {when}: {v}",
        "~{rot} alerts go to {v} {when}.",
        "~{v} is the {rot} on-call {when}.",
        "~{when}, {v} covers {rot} on-call.",
        "~If {rot} breaks {when}, {v} gets the page.",
    ),
    change=(
        "!{v} swapped in for {old} on {rot} on-call {when}.",
        "{rot} pager handed over to {v}.",
        "{v} took the {rot} rotation from {old}.",
        "~{old} traded the {rot} on-call shift {when} to {v}.",
        "~{v} is covering {rot} {when} instead of {old}.",
        "~On-call swap: {old} out, {v} in for {rot} {when}.",
        "~{rot} rotation {when} was reassigned to {v}.",
        "~{v} picked up {old}'s {rot} shift {when}.",
    ),
    neg=(
        "Nobody is on call for {rot} {when}.",
        "{old} isn't on the {rot} rotation at all.",
        "{old} is on leave {when}, not on call.",
        "~{old} isn't carrying any pager {when}.",
        "~There's no {rot} on-call {when}.",
        "~{old} doesn't do {rot} on-call, never has.",
        "~{old} was never scheduled for {rot} {when}.",
        "~The {rot} rotation has nobody assigned {when}.",
    ),
    elab=(
        "{v} is on call for {rot} {when}, with {backup} as backup.",
        "{v} has the {rot} pager {when}; alerts go through {tool}.",
        "~{v} is on call for {rot} {when}; escalations go to {backup}.",
        "~{v} has {rot} {when}, paged via {tool}.",
        "~{v} covers {rot} on-call {when} and hands off to {backup} after.",
        "~{v} holds the {rot} pager {when}, with {tool} set to call twice before escalating.",
        "~{v} is {rot} on-call {when}, shadowed by {backup}.",
    ),
    general=(
        "Someone from the {rot} team is on call {when}.",
        "{rot} has on-call coverage {when}.",
        "~{rot} is covered {when}.",
        "~There's an on-call person for {rot} {when}.",
        "~Someone holds the {rot} pager {when}.",
        "~The {rot} rotation is staffed {when}.",
        "~{rot} pages will get answered {when}.",
    ),
)

DOMAINS: tuple[Domain, ...] = (OWNERSHIP, REPORTS, ROLE, APPROVAL, BUDGET, LAUNCH, STACKD, TOOL, FREEZE, OFFICE, ONCALL)
