"""Uniform weight averaging ("model soup") of runs that share an initialisation, and member checkpoints.

`Preset.soup` names the data seeds of further runs: each member is the same recipe with the same
`seed` (the same initial weights and dropout stream) over another order of the same pairs, and the
packaged model's weights are the element-wise mean of the members' weights. Serving costs what one
model costs. The weights are taken as they are saved (fp16), averaged in fp32 and rounded to fp16
again, so averaging saved member dirs and averaging in the training process give the same bytes.

A multi-member run takes a member's time each, so every finished member is saved in the work dir
(`members/<index>/`: fp16 safetensors + `member.json`) with a fingerprint of everything its weights
depend on; a rerun with the same work dir reuses a member whose fingerprint matches instead of
training it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

MEMBER_FILE = "member.json"
WEIGHTS_FILE = "model.safetensors"


class MemberRecord(BaseModel):
    """One finished member run (saved beside its weights)."""

    fingerprint: str = Field(description="sha256 of what the member's weights depend on (see `fingerprint`).")
    data_seed: int | None = Field(description="Its data order; None = file order.")
    steps: int = Field(ge=0, description="Optimizer steps run.")
    train_seconds: float = Field(ge=0)
    device: str | None = Field(
        default=None, description="Where it was trained, e.g. 'cpu (2 threads)' (None: not recorded)."
    )
    reused: bool = Field(default=False, description="Loaded from the work dir instead of trained in this run.")


def order_name(data_seed: int | None) -> str:
    """A member's data order in words ("file order", "data seed 7")."""
    return "file order" if data_seed is None else f"data seed {data_seed}"


def average_state_dicts(states: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The element-wise mean of `states` (torch tensors), computed from their fp16 values, rounded to fp16.

    Returns fp32 tensors (for a model in fp32) holding fp16 values.

    Raises:
        ValueError: no states, or states with different keys or shapes.
    """
    import torch

    if not states:
        raise ValueError("no state dicts to average")
    keys = list(states[0])
    for i, sd in enumerate(states[1:], start=1):
        if set(sd) != set(keys):
            raise ValueError(f"state dict {i} has other keys than state dict 0: {sorted(set(sd) ^ set(keys))[:3]}")
    out: dict[str, Any] = {}
    for k in keys:
        shapes = {tuple(sd[k].shape) for sd in states}
        if len(shapes) != 1:
            raise ValueError(f"{k} has different shapes across state dicts: {sorted(shapes)}")
        if not states[0][k].is_floating_point():  # e.g. position_ids: equal in every member
            out[k] = states[0][k].clone()
            continue
        mean = sum(sd[k].detach().to("cpu", torch.float16).float() for sd in states) / len(states)
        out[k] = mean.half().float()
    return out


def fingerprint(
    preset: Any,
    data_seed: int | None,
    train_rows: Sequence[Mapping[str, Any]],
    dev_rows: Sequence[Mapping[str, Any]],
    source_weights: Path,
) -> str:
    """sha256 over a member's recipe, its data order, the encoded train/dev pairs and the starting weights."""
    h = hashlib.sha256()
    recipe = preset.model_dump(mode="json", exclude={"soup", "data_seed"})
    h.update(json.dumps({"recipe": recipe, "data_seed": data_seed}, sort_keys=True).encode())
    for rows in (train_rows, dev_rows):
        h.update(b"|")
        for row in rows:
            h.update(json.dumps([row["input_ids"], row["token_type_ids"], row["labels"]]).encode())
    with source_weights.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def member_dir(work: Path, index: int) -> Path:
    """Where member `index` of a run with work dir `work` is saved."""
    return work / "members" / str(index)


def save_member(path: Path, state: Mapping[str, Any], record: MemberRecord) -> None:
    """Write a member's weights (fp16) and record; the record last, so a half-written member is never reused."""
    import torch
    from safetensors.torch import save_file

    path.mkdir(parents=True, exist_ok=True)
    (path / MEMBER_FILE).unlink(missing_ok=True)
    tensors = {
        k: (v.detach().to("cpu", torch.float16) if v.is_floating_point() else v.detach().cpu()).contiguous()
        for k, v in state.items()
    }
    save_file(tensors, str(path / WEIGHTS_FILE), metadata={"format": "pt"})
    (path / MEMBER_FILE).write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")


def load_member(path: Path, expected_fingerprint: str) -> tuple[dict[str, Any], MemberRecord] | None:
    """The member saved at `path` if it is complete and its fingerprint matches, else None."""
    if not (path / MEMBER_FILE).is_file() or not (path / WEIGHTS_FILE).is_file():
        return None
    record = MemberRecord.model_validate_json((path / MEMBER_FILE).read_text(encoding="utf-8"))
    if record.fingerprint != expected_fingerprint:
        return None
    from safetensors.torch import load_file

    return load_file(str(path / WEIGHTS_FILE)), record.model_copy(update={"reused": True})
