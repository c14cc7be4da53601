"""One JSON Lines record per output line, whatever line splitter reads it."""

from __future__ import annotations

import json
from typing import Any

# json.dumps escapes every C0 control; these three are left raw, yet str.splitlines() and many
# editors treat them as line breaks, which would cut one record in two.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_text(obj: Any) -> str:
    """`obj` as JSON on one line, without the trailing newline (UTF-8 kept, line-break characters escaped)."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS)


def json_line(obj: Any) -> str:
    """`json_text(obj)` with its "\\n": one JSON Lines record."""
    return json_text(obj) + "\n"
