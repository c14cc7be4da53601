"""`writegate soup`: a uniform weight average ("model soup") of fine-tuning runs that share an initialisation.

Runs fine-tuned from the same pretrained weights with the same classifier-head initialisation
(the same `seed`) but another data order (`data_seed`) end in the same loss basin, so the average
of their weights is itself a good model — and usually a better one than its members, because the
run-to-run noise (which moves this model's dev macro-F1 by ±0.02, see presets.py) averages out
(Wortsman et al. 2022, "Model soups"; Neyshabur et al. 2020, "What is being transferred in transfer
learning?"). Serving cost is one model's. Members must agree on labels, input format, max length,
tokenizer and every weight's name and shape; the average is then packaged like a trained model
(`training/package.py`: temperature on dev, export, evaluation, card), and the card carries each
member's own provenance and scores.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from writegate.classifier import features, modeldir
from writegate.normalizer.errors import InputError
from writegate.training.datafile import read_examples
from writegate.training.model_card import card_section
from writegate.training.package import FusionChoice, PackageInputs, Packaged, encode_examples, package

WEIGHTS = "model.safetensors"


class SoupConfig(BaseModel):
    """Everything a soup depends on (recorded in the model card)."""

    members: list[Path] = Field(description="Model dirs to average (at least two, same initialisation).")
    dev: Path = Field(description="Dev pairs: the temperature and the fusion choice are fitted on them.")
    test: Path | None = Field(default=None, description="Test split, evaluated.")
    dev_pairs: Path | None = Field(default=None, description="Hand-written pairs, evaluated only (never tuned on).")
    out: Path = Field(description="Output model dir.")
    fusion: FusionChoice = "auto"
    threads: int | None = Field(default=None, ge=1, description="torch threads (default: all cores).")
    name: str | None = Field(default=None, description="Model name (default: the first member's).")
    version: str | None = Field(default=None, description="Model version (default: the first member's + '-soup').")
    command: str = Field(default="", description="The command line, for the model card.")
    drop_fp32_onnx: bool = False
    quiet: bool = False


def check_members(members: Sequence[Path]) -> list[modeldir.ModelMeta]:
    """Each member's writegate.json, after checking that the members can be averaged.

    Raises:
        InputError: a missing file, or a member that differs from the first in labels, input format,
            max length or tokenizer (naming both dirs and what differs).
    """
    if len(members) < 2:
        raise InputError("models", f"a soup needs at least two model dirs, got {len(members)}")
    if len({Path(m).resolve() for m in members}) < len(members):
        raise InputError("models", "the same model dir is given twice")
    metas = []
    for m in members:
        if not Path(m).is_dir():
            raise InputError("models", f"{m} is not a directory")
        for name in (modeldir.CONFIG, WEIGHTS, modeldir.TOKENIZER):
            modeldir.require_file(Path(m), name)
        metas.append(modeldir.read_meta(m))
    first, ref = members[0], metas[0]
    for m, meta in zip(members[1:], metas[1:], strict=True):
        for field in ("labels", "input_format_version", "max_length"):
            if getattr(meta, field) != getattr(ref, field):
                raise InputError("models", f"{m} has {field} {getattr(meta, field)!r}, {first} has {getattr(ref, field)!r}")
        if _vocabulary(Path(m)) != _vocabulary(Path(first)):
            raise InputError("models", f"{m} has another tokenizer vocabulary than {first}: members must share a tokenizer")
    return metas


def _vocabulary(model_dir: Path) -> dict[str, int]:
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(model_dir / modeldir.TOKENIZER)).get_vocab()


def average_weights(members: Sequence[Path]) -> dict[str, Any]:
    """The uniform average (fp32) of the members' model.safetensors.

    Raises:
        InputError: a member whose weight names or shapes differ from the first's.
    """
    import torch
    from safetensors.torch import load_file

    total: dict[str, torch.Tensor] = {}
    for i, m in enumerate(members):
        weights = load_file(str(Path(m) / WEIGHTS))
        if i == 0:
            total = {k: v.to(torch.float32).clone() for k, v in weights.items()}
            continue
        missing, extra = sorted(set(total) - set(weights)), sorted(set(weights) - set(total))
        if missing or extra:
            raise InputError("models", f"{m} has other weights than {members[0]} "
                                       f"(missing {missing[:3]}, extra {extra[:3]}): not the same architecture")
        for k, v in weights.items():
            if tuple(v.shape) != tuple(total[k].shape):
                raise InputError("models", f"{m}: weight {k} has shape {tuple(v.shape)}, "
                                           f"{members[0]} has {tuple(total[k].shape)}")
            total[k] += v.to(torch.float32)
    return {k: v / len(members) for k, v in total.items()}


def member_lines(i: int, member: Path, meta: modeldir.ModelMeta) -> list[str]:
    """A member's 'How it was made' lines for the soup's card: its own card's lines and its scores."""
    scores = ", ".join(f"{split} {meta.metrics[f'{split}.macro_f1']:.3f}" for split in ("dev", "test", "dev_pairs")
                       if f"{split}.macro_f1" in meta.metrics)
    own = card_section(Path(member) / modeldir.MODEL_CARD, "## How it was made")
    lines = [f"- member {i}: `{meta.name} {meta.version}` from `{member}`; its own macro-F1 (int8): {scores or 'n/a'}"]
    return lines + [f"  {line}" for line in own]


def soup(cfg: SoupConfig) -> Packaged:
    """Average the members, then calibrate, export, evaluate and document the average in `cfg.out`.

    Raises:
        InputError / DataFileError: bad data files or member dirs, before any model is loaded.
    """
    t0 = time.monotonic()
    import os
    import shutil

    dev_ex = read_examples(cfg.dev)
    test_ex = read_examples(cfg.test) if cfg.test else None
    dev_pairs = read_examples(cfg.dev_pairs) if cfg.dev_pairs and cfg.dev_pairs.is_file() else None
    metas = check_members(cfg.members)
    if any(Path(m).resolve() == cfg.out.resolve() for m in cfg.members):
        raise InputError("out", f"{cfg.out} is one of the members; write the soup to another dir")

    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    threads = cfg.threads or os.cpu_count() or 1
    torch.set_num_threads(threads)
    averaged = average_weights(cfg.members)
    model = AutoModelForSequenceClassification.from_pretrained(str(cfg.members[0]), dtype=torch.float32,
                                                               local_files_only=True)
    model.load_state_dict(averaged, strict=True)

    out = cfg.out
    out.mkdir(parents=True, exist_ok=True)
    first = Path(cfg.members[0])
    for f in first.iterdir():  # tokenizer files, as the members have them
        if f.name.startswith(("tokenizer", "vocab", "special_tokens")):
            shutil.copy2(f, out / f.name)
    max_length = metas[0].max_length
    encoder = features.PairEncoder.from_file(out / modeldir.TOKENIZER, max_length)
    dev_ds = encode_examples(encoder, dev_ex)
    pad_id = AutoTokenizer.from_pretrained(str(out), local_files_only=True).pad_token_id

    train_seconds = sum(meta.metrics.get("train.seconds", 0.0) for meta in metas)
    provenance = [f"- uniform weight average (model soup) of {len(cfg.members)} fine-tuning runs with the same "
                  f"initialisation; members' training time together: {train_seconds / 60:.1f} min",
                  f"- command: `{cfg.command or '(library call)'}`"]
    for i, (m, meta) in enumerate(zip(cfg.members, metas, strict=True), start=1):
        provenance += member_lines(i, m, meta)
    return package(model, dev_ds, pad_id, PackageInputs(
        out=out, name=cfg.name or metas[0].name, version=cfg.version or f"{metas[0].version}-soup",
        max_length=max_length, fusion=cfg.fusion, threads=threads, dev=dev_ex, test=test_ex,
        dev_pairs=dev_pairs, provenance=provenance,
        metrics={"train.seconds": round(train_seconds, 1), "soup.members": float(len(cfg.members))},
        started=t0, drop_fp32_onnx=cfg.drop_fp32_onnx, quiet=cfg.quiet))
