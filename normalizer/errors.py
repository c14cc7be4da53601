"""The one error type for bad input: it names the offending field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class InputError(ValueError):
    """Bad input. `field` names what was wrong (`text`, `observed_at`, `candidates[3].id`…).

    The CLI prints it and exits non-zero; the server maps it to INVALID_ARGUMENT.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class FirstError:
    """The first error of a pydantic `ValidationError`, for callers that name the field their own way."""

    loc: tuple[str | int, ...]
    message: str
    input: object

    @property
    def dotted(self) -> str:
        """The location as `a.b.0` ("" for the model itself)."""
        return ".".join(str(part) for part in self.loc)

    @property
    def head(self) -> str | None:
        """The top-level field, or None for an error about the whole model."""
        return str(self.loc[0]) if self.loc else None


def first_error(exc: ValidationError) -> FirstError:
    """The first of `exc`'s errors: where, what pydantic said, and the offending input."""
    err = exc.errors()[0]
    return FirstError(tuple(err["loc"]), err["msg"], err.get("input"))
