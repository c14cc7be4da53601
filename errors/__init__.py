"""The project's errors that cross a package boundary: raised in one package, handled in another.

The bottom of the import table (ARCHITECTURE.md): it imports nothing of the project, and every
package may import it. The hierarchy:

    ValueError
    ├── InputError                 bad input; `field` names what was wrong. The CLI prints it and
    │   │                          exits non-zero; the server maps it to INVALID_ARGUMENT.
    │   ├── JsonLineError          a line that is no JSON object (`writegate.api.jsonl`)
    │   └── DataFileError          a training file with bad lines (`writegate.training.datafile`)
    └── MissingRecordsError        a pair side without its records: a caller's bug (INTERNAL)
    Exception
    └── BatcherError               the dynamic batcher refused or failed a request
        ├── QueueFull              RESOURCE_EXHAUSTED
        ├── DeadlineExceeded       DEADLINE_EXCEEDED
        ├── BatchFailed            INTERNAL
        └── BatcherClosed          UNAVAILABLE

The two subclasses named with a module live there, beside the formats they describe. Errors raised
and handled inside one package stay in it (training's `SourceError`, `BuildError`,
`PhraseDataError`). `server/service.py`'s `status_for` maps each of these to its gRPC status.
"""

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


class MissingRecordsError(ValueError):
    """A side reached the classifier without its normalized records (a caller's bug, not bad input).

    Args:
        field: the side, e.g. `pairs[3].existing`; the message names `<field>.records`.
    """

    def __init__(self, field: str) -> None:
        self.field = f"{field}.records"
        super().__init__(
            f"{self.field}: missing; the classifier does not normalize: fill Side.records first "
            "(writegate.api.normalizing.with_records / fill_pairs)"
        )


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
