"""The (existing, new) pair as JSON, shared by `writegate classify`, evaluation and training data.

`{"existing": side, "new": side}` where a side is `{"text", "observed_at", ["subject"]}`; every
error names the field (`new.observed_at`).
"""

from __future__ import annotations

from writegate.classifier.types import Pair, Side
from writegate.errors import InputError


def json_kind(v: object) -> str:
    """The JSON name of a value's type, for error messages."""
    return "null" if v is None else type(v).__name__


def parse_side(obj: object, field: str) -> Side:
    """Parse `{"text", "observed_at", ["subject"]}`; InputError names e.g. `new.observed_at`."""
    from writegate.normalizer.api import parse_observed_at, validate_subject, validate_text

    if not isinstance(obj, dict):
        raise InputError(field, f"must be an object with text and observed_at, got {json_kind(obj)}")
    if "text" not in obj:
        raise InputError(f"{field}.text", "is missing")
    if "observed_at" not in obj:
        raise InputError(f"{field}.observed_at", "is missing")
    text = validate_text(obj["text"], f"{field}.text")
    when = parse_observed_at(obj["observed_at"], f"{field}.observed_at")
    subject = validate_subject(obj.get("subject", "user:default"), f"{field}.subject")
    return Side(text=text, observed_at=when, subject=subject)


def parse_pair(obj: object) -> Pair:
    """Parse a `{"existing": side, "new": side}` object."""
    if not isinstance(obj, dict):
        raise InputError("line", f"must be a JSON object, got {json_kind(obj)}")
    for key in ("existing", "new"):
        if key not in obj:
            raise InputError(key, "is missing")
    return Pair(existing=parse_side(obj["existing"], "existing"), new=parse_side(obj["new"], "new"))
