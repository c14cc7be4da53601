"""Value samplers of the work slots: ownership, reporting lines, roles, approval limits, budgets,
launch dates, tech stack, tools, policies, office and on-call.

Their phrasings are in ``phrases/work.toml``.
"""

from __future__ import annotations

import datetime as dt

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.phrasebook import domains
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
    return Ctx(
        base,
        {"v": _name(p, a), "vf": a.first},
        {"v": _name(p, b), "vf": b.first},
        person=a,
        other_base=other,
        extra={"why": p.pick(OWN_WHY), "amt": money(p.amount(), p.rng), "q": f"Q{p.rng.randint(1, 4)}"},
    )


TEAMS = (
    "enterprise",
    "mid-market",
    "EMEA",
    "APAC",
    "platform",
    "growth",
    "partnerships",
    "strategic accounts",
    "public sector",
    "SMB",
    "data",
    "infrastructure",
    "payments",
    "mobile",
    "security",
    "design",
)
OWN_WHY = (
    "she knows their CTO",
    "he ran the pilot",
    "the previous owner left",
    "they asked for a single contact",
    "it was part of the territory split",
    "of the renewal in the fall",
)


def s_reports(p: Pools) -> Ctx:
    a = p.person()
    m1 = p.other_person(a)
    m2 = p.other_person(a, m1)
    cadences = ("weekly", "biweekly", "every Monday", "monthly")
    return Ctx.of({"team": p.pick(TEAMS)}, _name(p, m1), _name(p, m2), a, {"cad": p.pick(cadences), "skip": _name(p)})


TITLES = (
    "engineering manager",
    "staff engineer",
    "senior engineer",
    "product manager",
    "director of sales",
    "VP of marketing",
    "head of design",
    "tech lead",
    "data scientist",
    "account executive",
    "customer success manager",
    "CFO",
    "COO",
    "principal engineer",
    "team lead",
    "solutions architect",
    "recruiter",
    "designer",
    "analyst",
    "director of engineering",
    "office manager",
    "QA lead",
)


def _title(p: Pools) -> str:
    return p.pick(TITLES) if p.rng.random() < 0.6 else p.job().lower()


def s_role(p: Pools) -> Ctx:
    a, b = p.two_of(lambda: _title(p))
    base = {"team": p.pick(TEAMS), "co": p.company()}
    return Ctx.of(base, a, b, p.person(), {"n": str(p.rng.randint(2, 14)), "yrs": str(p.rng.randint(2, 9))})


def s_approval(p: Pools) -> Ctx:
    a = p.amount()
    b = p.other_amount(a)
    scope = p.pick(
        (
            "marketing spend",
            "software purchases",
            "travel",
            "vendor contracts",
            "hiring",
            "cloud spend",
            "discounts",
            "refunds",
            "capex",
            "conference budgets",
            "contractor invoices",
        )
    )
    return Ctx.of({"scope": scope}, money(a, p.rng), money(b, p.rng), p.person(), {"deleg": _name(p), "cfo": _name(p)})


def s_budget(p: Pools) -> Ctx:
    a = p.amount()
    b = p.other_amount(a)
    base = {
        "proj": p.codename(),
        "what": p.pick(("project", "initiative", "migration", "launch", "campaign", "program")),
        "yr": str(p.rng.randint(2019, 2027)),
    }
    return Ctx(
        base,
        {"v": money(a, p.rng)},
        {"v": money(b, p.rng)},
        person=p.person(),
        other_base={**base, "proj": p.codename()},
        extra={
            "split": p.pick(
                (
                    "half of it on contractors",
                    "most of it on cloud costs",
                    "about a third on tooling",
                    "the bulk on hiring",
                )
            ),
            "q": f"Q{p.rng.randint(1, 4)}",
        },
    )


def s_launch(p: Pools) -> Ctx:
    d = p.date(2020, 2027)
    delta = p.rng.choice((1, 2, 3, 5, 7, 7, 14, 21, 30, 45, 60))
    d2 = d + dt.timedelta(days=delta * p.rng.choice((1, -1)))
    base = {"proj": p.codename(), "what": p.pick(("launch", "release", "go-live", "beta", "GA", "cutover", "rollout"))}
    return Ctx(
        base,
        {"v": date_text(d, p.rng)},
        {"v": date_text(d2, p.rng)},
        person=p.person(),
        other_base={**base, "proj": p.codename()},
        extra={
            "reg": p.pick(("EU", "US", "APAC", "internal users", "beta customers")),
            "t": p.pick(("9am", "noon", "5pm", "10am")),
        },
    )


STACK = ("Python", "Go", "Rust", "TypeScript", "Java", "Kotlin", "Elixir", "Ruby", "C#", "Scala", "PHP", "Swift")
DB = ("Postgres", "MySQL", "MongoDB", "DynamoDB", "Cassandra", "Snowflake", "BigQuery", "Redis", "ClickHouse", "SQLite")
CLOUD = ("AWS", "GCP", "Azure", "Heroku", "Fly.io", "DigitalOcean", "Vercel", "on-prem servers")
TOOLS = (
    "Jira",
    "Linear",
    "Asana",
    "Trello",
    "Notion",
    "Confluence",
    "GitHub",
    "GitLab",
    "Bitbucket",
    "Figma",
    "Sketch",
    "Datadog",
    "Grafana",
    "PagerDuty",
    "Opsgenie",
    "CircleCI",
    "Jenkins",
    "Buildkite",
    "Airtable",
    "Monday.com",
)


def s_stack(p: Pools) -> Ctx:
    pool, what = p.rng.choice(((STACK, "language"), (DB, "database"), (CLOUD, "cloud")))
    a = p.pick(pool)
    b = p.pick(pool, a)
    base = {
        "svc": p.pick(
            (
                "billing",
                "search",
                "checkout",
                "auth",
                "API",
                "data pipeline",
                "reporting",
                "notifications",
                "mobile backend",
                "ledger",
                "recommendations",
            )
        ),
        "what": what,
        "team": p.pick(TEAMS),
    }
    return Ctx(
        base,
        {"v": a},
        {"v": b},
        person=p.person(),
        other_base={**base, "svc": p.pick(("ingest", "admin panel", "payments", "analytics", "scheduler"))},
        extra={
            "ver": str(p.rng.randint(3, 17)),
            "why": p.pick(("for latency", "to cut costs", "for the hiring pool", "because of the vendor deal")),
        },
    )


def s_tool(p: Pools) -> Ctx:
    a, b = p.pick_two(TOOLS)
    uses = ("tickets", "planning", "docs", "code review", "design", "on-call alerts", "dashboards", "CI")
    return Ctx.of({"for": p.pick(uses)}, a, b, p.person(), {"board": p.codename(), "team": p.pick(TEAMS)})


def s_policy(p: Pools) -> Ctx:
    d = p.date(2021, 2027)
    d2 = d + dt.timedelta(days=p.rng.choice((-7, -5, -3, -2, 2, 3, 5, 7, 10, 14)))
    return Ctx(
        {"team": p.pick(TEAMS)},
        {"v": date_text(d, p.rng, with_year=False), "n": str(p.rng.randint(2, 5))},
        {"v": date_text(d2, p.rng, with_year=False), "n": str(p.rng.randint(6, 10))},
        person=p.person(),
        extra={"exc": p.pick(("hotfixes", "security patches", "config changes", "docs")), "approver": _name(p)},
    )


def s_office(p: Pools) -> Ctx:
    a, b = p.two_of(p.city)
    days = ("Tuesdays and Thursdays", "three days a week", "Mondays", "most days")
    return Ctx.of({}, a, b, p.person(), {"fl": str(p.rng.randint(2, 30)), "days": p.pick(days), "wd": p.pick(WEEKDAYS)})


def s_oncall(p: Pools) -> Ctx:
    a = p.person()
    b = p.other_person(a)
    rotations = ("payments", "platform", "search", "infra", "mobile", "API", "database")
    base = {
        "rot": p.pick(rotations),
        "when": p.pick(
            ("this week", "this weekend", "through Friday", f"the week of {p.pick(MONTHS)} {p.rng.randint(1, 28)}")
        ),
    }
    tools = ("PagerDuty", "Opsgenie", "the phone tree")
    return Ctx.of(base, _name(p, a), _name(p, b), a, {"backup": _name(p), "tool": p.pick(tools)})


SAMPLERS = {
    "ownership": s_ownership,
    "reporting_line": s_reports,
    "role": s_role,
    "approval_limit": s_approval,
    "budget": s_budget,
    "launch_date": s_launch,
    "tech_stack": s_stack,
    "tools": s_tool,
    "policy": s_policy,
    "office": s_office,
    "on_call": s_oncall,
}
DOMAINS: tuple[Domain, ...] = domains("work", SAMPLERS)
