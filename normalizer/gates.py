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


def may_match(text: str, gate: re.Pattern[str]) -> bool:
    """Whether a case-insensitive rule may match `text`.

    Args:
        text: the text the rule will read.
        gate: a lower-case pattern that every match of the rule contains (on ASCII text).

    Returns:
        False only when `text` is ASCII and its lower-cased form does not contain `gate`.
    """
    return not text.isascii() or gate.search(text.lower()) is not None
