"""The rule registries cover their rules: text a cue matches reaches that cue (`normalizer/rules.py`).

Each family's prefilter, keys scan and gates are derived from its registry (`edge_rules`, `enums.CUES`).
A cue whose words its keys (or its gate) miss would silently never fire: for every rule of every
family, text generated from the cue itself must pass the rule's keys, needs and gate, be among the
rules the registry's keys scan gives, and pass the family's prefilter. Gates and some needs spell a
space as one space, so the generated text has single spaces.
"""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from writegate.normalizer import edge_rules, edges, enums, retraction
from writegate.normalizer.config import DEFAULT_CONFIG
from writegate.normalizer.context import Context
from writegate.normalizer.rules import Registry, Rule, prefilter
from writegate.normalizer.schema import EdgeValue, ProvenanceKind

_FAMILIES: list[tuple[Registry, re.Pattern[str]]] = [
    (edge_rules.REGISTRY, edge_rules.PREFILTER),
    (enums.CUES, enums.PREFILTER),
    (retraction.REGISTRY, retraction.PREFILTER),
]
_CASES = [(registry, rule, pre) for registry, pre in _FAMILIES for rule in registry]
_ASCII = st.sampled_from(string.ascii_letters + string.digits + string.punctuation + " ")


def _uncovered(registry: Registry, rule: Rule, pre: re.Pattern[str], text: str) -> str | None:
    """Why `text`, which `rule.cue` matches, would not reach the rule; None when it would."""
    low = text.lower()
    if not any(key in low for key in rule.keys):
        return f"none of its keys {rule.keys}"
    if not rule.admits(low, text.isascii()):
        return "its needs or its gate"
    if rule not in registry.keyed(low):
        return "the registry's keys scan"
    if pre.search(low) is None:
        return "the family's prefilter"
    return None


@pytest.mark.parametrize(("registry", "rule", "pre"), _CASES, ids=[rule.name for _, rule, _ in _CASES])
def test_text_a_cue_matches_reaches_the_cue(registry: Registry, rule: Rule, pre: re.Pattern[str]) -> None:
    @settings(
        max_examples=30,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    )
    @given(st.from_regex(rule.cue, alphabet=_ASCII).map(lambda text: re.sub(" +", " ", text)))
    def reaches(text: str) -> None:
        if rule.cue.search(text) is None:
            return  # one space where the cue wanted more: no sample
        missed = _uncovered(registry, rule, pre, text)
        assert missed is None, f"{rule.name}: {text!r} misses {missed}"

    reaches()


def test_a_cue_missing_from_its_keys_is_caught() -> None:
    # "supersedes" is no key of this rule: the check above must report it, not let it pass
    broken = Rule(name="replaces", cue=re.compile(r"\b(?:replaces|supersedes)\b", re.I), keys=("replac",))
    registry = Registry([broken])
    found = _uncovered(registry, broken, prefilter([broken]), "The new plan supersedes the old one.")
    assert found == "none of its keys ('replac',)"
    assert _uncovered(registry, broken, prefilter([broken]), "The new plan replaces the old one.") is None


def test_the_prefilter_and_keys_scan_are_derived_from_the_registry() -> None:
    extra = Rule(name="supersedes", cue=re.compile(r"\bsupersedes\b", re.I), keys=("supersede",))
    rules = [*edge_rules.RULES, extra]
    text = "the new plan supersedes the old one"
    assert edge_rules.PREFILTER.search("xyz supersede") is None  # not a key of the family yet
    assert prefilter(rules).search(text) is not None
    assert Registry(rules).keyed(text) == [r for r in rules if any(k in text for k in r.keys)]
    assert extra in Registry(rules).keyed(text)


def test_keys_scan_gives_exactly_the_rules_with_a_key_in_order() -> None:
    a = Rule(name="a", cue=re.compile("in"), keys=("in",))
    b = Rule(name="b", cue=re.compile("inherited"), keys=("inherited", "took"))
    c = Rule(name="c", cue=re.compile("x"), keys=("xyz",))
    registry = Registry([a, b, c])
    assert registry.keyed("she inherited it") == [a, b]  # "in" is a prefix of the longest key there
    assert registry.keyed("took it in") == [a, b]
    assert registry.keyed("zero keys") == []
    assert registry.keyed("xyz") == [c]


def test_a_registry_refuses_repeated_names_and_keys_that_cannot_match() -> None:
    rule = Rule(name="a", cue=re.compile("a"), keys=("a",))
    with pytest.raises(ValueError, match="repeat"):
        Registry([rule, rule])
    with pytest.raises(ValueError, match="lower case"):
        Rule(name="b", cue=re.compile("B"), keys=("B",))
    with pytest.raises(ValueError, match="no keys"):
        Rule(name="c", cue=re.compile("c"), keys=())


CTX = Context("user:sam", datetime(2026, 3, 2, 10, tzinfo=UTC), ProvenanceKind.STATED, DEFAULT_CONFIG)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Sam gave the Acme account to Lee.", ("account:acme", "owned_by", "person:lee")),
        ("Lee taking over Acme.", ("account:acme", "owned_by", "person:lee")),
        ("Sam accepted the CTO post.", ("user:sam", "has_role", "role:cto")),
        ("Travel needs only Sam's ok.", ("user:sam", "approves", "budget:travel")),
    ],
)
def test_cues_the_hand_kept_prefilter_missed_now_fire(text: str, edge: tuple[str, str, str]) -> None:
    # before the registry, the family's prefilter was a hand-written union without "gave", "taking",
    # "post" or "ok": these texts gave nothing
    found = [
        (r.value.edge.source, r.value.edge.type.value, r.value.edge.target)
        for r in edges.extract(text, CTX)
        if isinstance(r.value, EdgeValue)
    ]
    assert found == [edge]
