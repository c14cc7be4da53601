"""The batcher's errors: each maps to one gRPC status in the service (`status_for` in `server/service.py`)."""

from __future__ import annotations


class BatcherError(Exception):
    """Base of the batcher's errors."""


class QueueFull(BatcherError):
    """The queue cannot take the request's pairs now (RESOURCE_EXHAUSTED)."""


class DeadlineExceeded(BatcherError):
    """The request's deadline passed before its pairs ran (DEADLINE_EXCEEDED)."""


class BatchFailed(BatcherError):
    """The batch holding the request's pairs raised (INTERNAL)."""


class BatcherClosed(BatcherError):
    """The batcher is not running (UNAVAILABLE)."""
