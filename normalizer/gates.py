"""Gates: cheap necessary conditions checked before a rule family's costlier regexes.

A gate is derived from the rule's own pattern: a literal (or a short regex) that every match of
the rule contains, so a text without it cannot match and the rule is skipped. Gates only save
time; they never change a result.

A case-insensitive rule is gated on the lower-cased text, which is exact only for ASCII text: beyond
ASCII, Unicode case folding lets `re.I` match what lower-casing does not give ("ſ" matches "s", the
Kelvin sign matches "k", "İ" lower-cases to two characters). So `may_match` lets every non-ASCII
text through.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator


def may_match(text: str, gate: re.Pattern[str]) -> bool:
    """Whether a case-insensitive rule may match `text`.

    Args:
        text: the text the rule will read.
        gate: a lower-case pattern that every match of the rule contains (on ASCII text).

    Returns:
        False only when `text` is ASCII and its lower-cased form does not contain `gate`.
    """
    return not text.isascii() or gate.search(text.lower()) is not None


def one_of(words: Iterable[str], *, grouped: bool = True) -> str:
    """A regex source matching exactly the literal `words`, written as a trie.

    `one_of(["manage", "manager", "made"])` is `ma(?:de|nage(?:r)?)`: the same strings as
    `made|manage|manager`, but `re` tries one branch per distinct letter at each position instead
    of one per word, which makes a yes/no search over a long word list several times faster. Which
    word a match covers may differ from the plain alternation (the order is not kept), so use it
    where only whether (or where first) a word occurs matters.

    With `grouped=False` the first letters are top-level branches (`ma(?:de|nager?)|x…`, no
    enclosing group), to be joined with other branches: when every top-level branch of a pattern
    starts with a literal character, `re` skips ahead to the positions holding one of them.
    """
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    if not grouped and "" not in trie:
        return "|".join(re.escape(char) + _trie_source(child) for char, child in sorted(trie.items()))
    return _trie_source(trie)


def at_word_start(words: Iterable[str], end: str = "") -> str:
    r"""`\b(?:word|…)` + `end`, each word written to start with its literal first character.

    `at_word_start(["on", "in"], r"\b")` is `o(?<!\wo)n\b|i(?<!\wi)n\b`: a word character `c` at a
    word boundary is a `c` with no word character before it, so `\bc` and `c(?<!\wc)` match the
    same, and the branch starts with a literal (see `one_of(grouped=False)`).

    Raises:
        ValueError: a word does not start with a word character.
    """
    out = []
    for word in words:
        if not re.fullmatch(r"\w", word[:1]):
            raise ValueError(f"{word!r} does not start with a word character")
        first = re.escape(word[0])
        out.append(f"{first}(?<!\\w{first}){re.escape(word[1:])}{end}")
    return "|".join(out)


def _trie_source(node: dict[str, dict]) -> str:
    branches = [re.escape(char) + _trie_source(child) for char, child in sorted(node.items()) if char]
    if not branches:
        return ""
    body = "(?:" + "|".join(branches) + ")" if len(branches) > 1 else branches[0]
    if "" not in node:
        return body
    return body + "?" if len(branches) > 1 or len(body) == 1 else "(?:" + body + ")?"


_META_RE = re.compile(r"[\\.^$*+?{}\[\]()|]")


def factored(pattern: str) -> str:
    """`pattern`, a top-level alternation, with its plain-word alternatives merged into one trie.

    `factored(r"report|under|\\bin\\b|manag")` is `manag|report|under|\\bin\\b` with the three words
    as `one_of` writes them: the same strings match, for a yes/no search over many words.
    """
    alternatives = _top_level_alternatives(pattern)
    words = [a for a in alternatives if a and not _META_RE.search(a)]
    if len(words) < 2:
        return pattern
    return "|".join([one_of(words, grouped=False), *(a for a in alternatives if a not in words)])


def _top_level_alternatives(pattern: str) -> list[str]:
    """`pattern` split at each `|` outside groups and character classes."""
    out: list[str] = []
    depth, in_class, escaped, start = 0, False, False, 0
    for i, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]" or i == start
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def finditer_folded(pattern: re.Pattern[str], folded: re.Pattern[str], text: str, low: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, the scan done by `folded` in `low` when `text` is ASCII.

    Args:
        pattern: a case-insensitive pattern whose letters are all lower case, outside escapes.
        folded: the same source compiled without `re.I`.
        text: the text to search.
        low: `text.lower()`.

    On ASCII text `folded` finds in `low` exactly the spans `pattern` finds in `text` (see the module
    docstring), several times faster; each is then matched by `pattern` at its start, which gives
    the very match `pattern.finditer` gives there (the same regex from the same position).
    """
    if not text.isascii():
        yield from pattern.finditer(text)
        return
    for found in folded.finditer(low):
        match = pattern.match(text, found.start())
        if match is not None:  # always: the same spans
            yield match
