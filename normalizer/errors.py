"""The one error type for bad input: it names the offending field."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input. `field` names what was wrong (`text`, `observed_at`, `candidates[3].id`…).

    The CLI prints it and exits non-zero; the server maps it to INVALID_ARGUMENT.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
