"""Log privacy: raw memory text never reaches a log line (or a metric label) unless `--log-text`.

The service sees every private memory of every user of the agent it serves. What it logs:

- one line per RPC (`LoggingInterceptor` in `app.py`): method, status, latency and the request's
  *shape* (`describe`: candidate count, text sizes) — the texts themselves only with `--log-text`;
- errors, whose messages may quote input (a library's exception, a backend's error).

For the second kind, `TextRedactor` is a `logging.Filter` put on the root logger's handlers while
the server runs: it knows the texts of the requests in flight (`track`) and replaces any of them
found in a record's message or traceback by `<memory text: N chars>`; it also blanks
`input_value=...` fragments (pydantic quotes the offending input there). Metric labels are the
method and status code only (see `metrics.py`).
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
from collections import deque
from collections.abc import Iterator
from typing import Any

MIN_REDACT_CHARS = 6
"""Texts shorter than this are not searched for (they would blank ordinary words of log lines)."""
LOGGED_TEXT_CHARS = 500
"""With --log-text: characters of each text written per log line."""
_INPUT_VALUE = re.compile(r"input_value=(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")


def request_texts(request: Any) -> list[str]:
    """The memory texts a WriteGate request carries (any message with `memory`/`candidates`/
    `existing`/`new` Memory fields, or an Embed request's `texts`); [] for anything else."""
    texts: list[str] = []
    for name in ("memory", "existing", "new"):
        has = getattr(request, "HasField", None)
        try:
            if has is not None and has(name):
                texts.append(getattr(request, name).text)
        except ValueError:  # the message has no such field
            continue
    for cand in getattr(request, "candidates", ()) or ():
        texts.append(cand.text)
    texts.extend(getattr(request, "texts", ()) or ())
    return [t for t in texts if t]


def describe(request: Any, *, log_text: bool = False) -> str:
    """The request for a log line: its shape, and (only with `log_text`) its texts, truncated."""
    candidates = getattr(request, "candidates", None)
    texts = request_texts(request)
    parts = []
    if candidates is not None:
        parts.append(f"{len(candidates)} candidates")
    embed_texts = getattr(request, "texts", None)
    if embed_texts is not None:
        parts.append(f"{len(embed_texts)} texts")
    if texts:
        parts.append(f"{sum(len(t) for t in texts)} text chars")
    if log_text and texts:
        shown = [t if len(t) <= LOGGED_TEXT_CHARS else t[:LOGGED_TEXT_CHARS] + "…" for t in texts]
        parts.append("texts=" + repr(shown))
    return ", ".join(parts)


def redact(message: str, texts: Iterator[str] | list[str]) -> str:
    """`message` with every occurrence of each text (≥ MIN_REDACT_CHARS chars) and every
    `input_value=…` fragment replaced."""
    for text in texts:
        if len(text) >= MIN_REDACT_CHARS and text in message:
            message = message.replace(text, f"<memory text: {len(text)} chars>")
        elif len(text) >= MIN_REDACT_CHARS and repr(text)[1:-1] in message:  # quoted with escapes
            message = message.replace(repr(text)[1:-1], f"<memory text: {len(text)} chars>")
    return _INPUT_VALUE.sub("input_value=<redacted>", message)


class TextRedactor(logging.Filter):
    """Redacts the texts of in-flight requests from every record its handlers emit.

    Args:
        keep_requests: per tracked call, how many (streamed) requests are remembered.
    """

    def __init__(self, keep_requests: int = 4096) -> None:
        super().__init__("")
        self.keep_requests = keep_requests
        self._calls: dict[int, deque[Any]] = {}
        self._lock = threading.Lock()
        self._next = 0
        self._handlers: list[logging.Handler] = []

    # -- tracking ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def track(self, *requests: Any) -> Iterator[deque[Any]]:
        """While inside, these requests' texts (and any appended to the yielded deque) are redacted."""
        held: deque[Any] = deque(requests, maxlen=self.keep_requests)
        with self._lock:
            key, self._next = self._next, self._next + 1
            self._calls[key] = held
        try:
            yield held
        finally:
            with self._lock:
                self._calls.pop(key, None)

    def texts(self) -> list[str]:
        """The texts of every request in flight."""
        with self._lock:
            calls = [list(q) for q in self._calls.values()]
        return [t for reqs in calls for r in reqs for t in request_texts(r)]

    # -- logging.Filter ----------------------------------------------------------------------------
    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message and traceback without the texts; never drops a record."""
        if getattr(record, "_writegate_redacted", False):
            return True
        texts = self.texts()
        message = redact(record.getMessage(), texts)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, texts)
        record.exc_info = None
        if record.stack_info:
            record.stack_info = redact(record.stack_info, texts)
        record.msg, record.args = message, None
        setattr(record, "_writegate_redacted", True)  # noqa: B010 - a marker attribute logging.LogRecord lacks
        return True

    def install(self, logger: logging.Logger | None = None) -> None:
        """Put the filter on `logger`'s handlers (default: the root logger's) and Python's last resort."""
        logger = logger or logging.getLogger()
        handlers = [*logger.handlers, *([logging.lastResort] if logging.lastResort is not None else [])]
        for handler in handlers:
            if self not in handler.filters:
                handler.addFilter(self)
                self._handlers.append(handler)

    def uninstall(self) -> None:
        """Take the filter off every handler `install` put it on."""
        for handler in self._handlers:
            handler.removeFilter(self)
        self._handlers.clear()
