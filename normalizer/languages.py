"""Language names and codes: "Spanish", "Deutsch", "de" → ISO 639-1 (via langcodes).

Shared by the preference family (`enums`: "replies in Spanish"), the place reader of `edge_words` ("can
work in Spanish" is a language, not a place) and `scope.preference_of_other` ("French" is no person).
"""

from __future__ import annotations

from functools import lru_cache

_PROGRAMMING = frozenset("java python rust go ruby swift kotlin scala perl julia dart elixir".split())
"""Programming languages langcodes would read as natural ones ("Go", "Swift")."""
_CODE_STOP = frozenset(
    "it on an as at be by do go he if is me my no of or so to up us we am hi id la ok pm tv ai uk eu".split()
)
"""Two-letter words that are also language codes: no code in running text."""
LOWER_LANGS = (
    r"(?:english|spanish|french|german|italian|portuguese|dutch|polish|russian|japanese|chinese|mandarin|cantonese|korean|"
    r"arabic|hindi|turkish|swedish|norwegian|danish|finnish|greek|hebrew|czech|hungarian|romanian|ukrainian|vietnamese|"
    r"thai|indonesian|malay|tagalog|bengali|urdu|persian|farsi|swahili|catalan|croatian|serbian|bulgarian|slovak)"
)
"""Widely used language names also matched in lower case ("emails in korean"); any other name must be
capitalised, so "talk in person" is never Persian."""


@lru_cache(maxsize=4096)
def language_code(word: str) -> str | None:
    """ISO 639-1 code for a language name ("Spanish", "Deutsch") or code ("de"), else None."""
    import langcodes  # lazy: its name tables load on first use

    low = word.lower()
    if low in _PROGRAMMING:
        return None
    if len(word) == 2 or (len(word) == 5 and word[2] == "-"):
        code = low[:2]
        return code if code not in _CODE_STOP and word[:2].islower() and langcodes.tag_is_valid(code) else None
    try:  # an English name ("Spanish"), else the language's own name ("Deutsch", "français")
        found = langcodes.find(word, language="en")
    except LookupError:
        try:
            found = langcodes.find(word)
        except LookupError:
            return None
        if found.autonym().casefold() != low.casefold():
            return None  # a name in some other language, e.g. "Paris" is Pali somewhere: not a language here
    code = langcodes.standardize_tag(found.language or "", macro=True) if found.language else ""
    return code if len(code) == 2 and code.isalpha() else None
