"""Rules as registries: a rule family is a list of `Rule`s, and what runs before a rule is derived from it.

A rule is one entry: its cue (the regex that finds it), its keys (literal lower-case substrings one of
which every match of the cue contains), an optional gate (a stricter regex that every match contains,
searched in the lower-cased text when it is ASCII: `gates`) and, in the family's subclass, what it reads
from a match. Adding a cue is adding one entry; nothing else is kept in step by hand:

* `prefilter(rules)`: every key of a family in one trie (`gates.one_of`), searched once per text in the
  lower-cased text; a text with none of them runs no rule of the family;
* `Registry.keyed(low)`: the rules one of whose keys the lower-cased clause contains, in registry order,
  from one scan of the clause;
* `Rule.admits(low, ascii_text)`: the rule's keys, its `needs` and (on ASCII text) its gate;
* `Rule.folded`: the cue without `re.I`, for `gates.finditer_folded`.

`tests/test_rule_registry.py` checks, for every rule of every family, that text its cue matches passes
the rule's keys, needs and gate and the family's prefilter, so a cue whose words are missing from its
keys fails there instead of silently never firing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, TypeVar

from writegate.normalizer.gates import one_of


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One cue of a rule family.

    Attributes:
        name: the rule's name, unique in its family (tests and messages name rules by it).
        cue: the regex that finds the cue (case-insensitive unless its flags say otherwise).
        keys: lower-case literal substrings one of which every match of `cue` contains.
        gate: a lower-case regex every match contains, searched only in ASCII text (`gates`).
        needs: lower-case literal substrings one of which the text must also contain.
    """

    name: str
    cue: re.Pattern[str]
    keys: tuple[str, ...]
    gate: re.Pattern[str] | None = None
    needs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.keys:
            raise ValueError(f"rule {self.name!r} has no keys")
        for key in (*self.keys, *self.needs):
            if not key or key != key.lower():
                raise ValueError(f"rule {self.name!r}: key {key!r} must be non-empty and lower case")

    @cached_property
    def folded(self) -> re.Pattern[str]:
        """The cue compiled without `re.I`, for `gates.finditer_folded` (its letters are all lower case)."""
        return re.compile(self.cue.pattern)

    def admits(self, low: str, ascii_text: bool) -> bool:
        """Whether the rule may match a text whose lower-cased form is `low`, beyond its keys.

        Args:
            low: the lower-cased text.
            ascii_text: whether the text is ASCII; the gate is exact only there (`gates`).
        """
        if self.needs and not any(need in low for need in self.needs):
            return False
        return not ascii_text or self.gate is None or self.gate.search(low) is not None


R = TypeVar("R", bound=Rule)


def all_keys(rules: Iterable[Rule]) -> list[str]:
    """Every key of `rules`, sorted and without repeats."""
    return sorted({key for rule in rules for key in rule.keys})


def prefilter(rules: Iterable[Rule]) -> re.Pattern[str]:
    """A pattern that finds, in lower-cased text, any key of `rules`: without one, no rule can match."""
    return re.compile(one_of(all_keys(rules), grouped=False))


class Registry(Generic[R]):
    """A family's rules in order, with the key scan derived from them.

    Args:
        rules: the family's rules, in the order they run.

    Raises:
        ValueError: two rules share a name.
    """

    def __init__(self, rules: Sequence[R]) -> None:
        names = [rule.name for rule in rules]
        if len(set(names)) != len(names):
            raise ValueError(f"rule names repeat: {sorted(n for n in names if names.count(n) > 1)}")
        self.rules: tuple[R, ...] = tuple(rules)
        keys = all_keys(self.rules)
        self._key_at = re.compile(f"(?=({one_of(keys)}))")
        # every key that starts at a position is a prefix of the longest one there (`gates.one_of` takes
        # the longest): the rules a longest key stands for are those with a key that is a prefix of it
        self._rules_by_key: dict[str, frozenset[int]] = {
            longest: frozenset(i for i, rule in enumerate(self.rules) if any(longest.startswith(k) for k in rule.keys))
            for longest in keys
        }

    def __iter__(self) -> Iterator[R]:
        return iter(self.rules)

    def keyed(self, low: str) -> list[R]:
        """The rules one of whose keys the lower-cased text `low` contains, in registry order."""
        found: set[int] = set()
        for key in set(self._key_at.findall(low)):
            found |= self._rules_by_key[key]
        return [self.rules[i] for i in sorted(found)]
