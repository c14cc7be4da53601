"""One JSON Lines record per output line, whatever line splitter reads it."""

from __future__ import annotations

import json
from typing import Any

# json.dumps escapes every C0 control; these three are left raw, yet str.splitlines() and many
# editors treat them as line breaks, which would cut one record in two.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(obj: Any) -> str:
    """`obj` as one JSON line (UTF-8 text kept readable, line-break characters escaped), with "\\n"."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"
