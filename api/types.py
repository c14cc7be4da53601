"""The request and response types on both sides of the wire: what the server and the client share.

The client imports these (and `api.convert` for the proto mapping) and nothing else of the
package: it never loads a model, a backend or the service.
"""

from __future__ import annotations

from writegate.api.prepare import CandidateState, PrepareWriteResult, Relation, StateRole, WriteEdge
from writegate.classifier.labels import Label
from writegate.classifier.types import Evidence, ModelInfo
from writegate.errors import InputError
from writegate.normalizer.schema import Memory, ProvenanceKind, Record, RecordKind

__all__ = [
    "CandidateState",
    "Evidence",
    "InputError",
    "Label",
    "Memory",
    "ModelInfo",
    "PrepareWriteResult",
    "ProvenanceKind",
    "Record",
    "RecordKind",
    "Relation",
    "StateRole",
    "WriteEdge",
]
