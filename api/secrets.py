"""The one redaction of secrets in URLs: what the project prints, logs, stores or renders.

A store URL may carry a password in its userinfo (`postgresql://me:S3cret@host/db`) or in its
query (`?password=S3cret`, `?sslpassword=…`, `?token=…`, `?api_key=…`). `redact_url` replaces
each such value by `***` and leaves the rest of the URL as it was written (no re-encoding), so
the redacted URL still says which database, table and options a run used. Prefer keeping the
password out of the URL altogether: libpq reads `PGPASSWORD` and `~/.pgpass` (docs/stores.md).
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

MASK = "***"

# A query parameter whose name holds one of these words carries a secret (case-insensitive):
# libpq's password and sslpassword, and the usual names of tokens and keys.
_SECRET_NAME = re.compile(r"pass|pwd|secret|token|key|auth|credential|signature", re.IGNORECASE)
_SCHEME_NETLOC = re.compile(r"^(?P<head>[A-Za-z][A-Za-z0-9+.-]*://)(?P<netloc>[^/?#]*)(?P<rest>.*)\Z", re.DOTALL)


def is_secret_name(name: str) -> bool:
    """Whether a URL query parameter (or connection keyword) of this name holds a secret."""
    return _SECRET_NAME.search(unquote_plus(name)) is not None


def _redact_netloc(netloc: str) -> str:
    userinfo, at, hostport = netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return netloc
    return f"{userinfo.split(':', 1)[0]}:{MASK}@{hostport}"


def _redact_query(query: str) -> str:
    fields = []
    for field in query.split("&"):
        name, eq, _ = field.partition("=")
        fields.append(f"{name}={MASK}" if eq and is_secret_name(name) else field)
    return "&".join(fields)


def redact_url(url: str) -> str:
    """`url` with every secret replaced by `***`: the password of its userinfo and the value of each
    query (or fragment) parameter named like a secret (see `is_secret_name`).

    Args:
        url: any URL (`postgresql://…`, `mem0:…`, `ray://…`) or a plain path (returned unchanged
            unless it has a query that names a secret).

    Returns:
        The URL, safe to print, log, store or render.
    """
    m = _SCHEME_NETLOC.match(url)
    head, netloc, rest = (m["head"], _redact_netloc(m["netloc"]), m["rest"]) if m else ("", "", url)
    body, hash_, fragment = rest.partition("#")
    path, question, query = body.partition("?")
    if question:
        body = f"{path}?{_redact_query(query)}"
    return f"{head}{netloc}{body}{hash_}{_redact_query(fragment)}"
