"""Named training settings (`writegate train --preset NAME`; a flag overrides any field).

- `default`: the recipe of `models/default/`: one run over the mix of training/real/mix.py —
  pairs from the human-written sources whose licence allows shipping a model, generated pairs and
  content-free negatives (`writegate train --preset default --real-dir DIR`).
- `generated`: the generated data alone, two runs in two data orders with their weights averaged
  (the recipe of model 0.22.0).
- `smoke`: a short run on a small generated set, to check a setup.

The experiments behind these settings, and their figures: training/EXPERIMENTS.md.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator


class Preset(BaseModel):
    """Hyper-parameters of one training recipe (every field can be overridden on the command line)."""

    model_config = ConfigDict(frozen=True)

    epochs: float = Field(default=2.0, gt=0, description="Epochs (capped by max_steps when > 0).")
    max_steps: int = Field(default=-1, description="Optimizer steps cap; -1 = no cap.")
    batch_size: int = Field(default=32, ge=1, description="Pairs per optimizer step.")
    lr: float = Field(default=5e-5, gt=0, description="Peak learning rate (linear decay after the warm-up).")
    warmup: float = Field(default=0.06, ge=0, lt=1, description="Warm-up ratio of total steps.")
    weight_decay: float = Field(default=0.01, ge=0)
    label_smoothing: float = Field(default=0.0, ge=0, lt=1, description="Label-smoothing factor of the loss.")
    distil_weight: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description=(
            "With a teacher's probabilities (--soft): the loss is this share of the distillation term and the rest "
            "cross-entropy on the gold labels; a pair without a gold label is learnt from the teacher alone."
        ),
    )
    distil_temperature: float = Field(
        default=1.0, gt=0, description="Temperature of both sides of the distillation term (training/distil.py)."
    )
    eval_steps: int = Field(default=100, ge=1, description="Evaluate on the dev subsample every N steps.")
    dev_subsample: int = Field(default=800, ge=1, description="Dev pairs used for the periodic evaluations.")
    patience: int = Field(default=4, ge=1, description="Early-stopping patience, in evaluations.")
    max_length: int = Field(default=128, ge=16, le=512)
    input_format: int | None = Field(
        default=None,
        description=(
            "Input format of the pairs (classifier/features.py: 1 = ISO dates, 2 = month and gap, half the "
            "header tokens); None = the --init model's, else 1. Fine-tuning keeps a model's format."
        ),
    )
    seed: int = Field(default=13, description="Seed of the initialisation, dropout and sampling.")
    data_seed: int | None = Field(
        default=None,
        description=(
            "Shuffles the training pairs before the sampler sees them, so runs with the same `seed` (the same "
            "initialisation and dropout stream) see the data in another order; None keeps the file order."
        ),
    )
    generate_n: int | None = Field(default=None, description="Pairs to generate (None = the generator's default).")
    mix: dict[str, int] = Field(
        default_factory=dict,
        description=(
            "Train pairs per part of the mix (training/real/mix.py): a human-written source of training/real "
            "(`snli`, `timeqa`…) or `generated`; a weight over a source's size repeats it. Empty = the generated "
            "data alone. A research-only source (licence) makes a model that must not ship."
        ),
    )
    mix_dev_cap: int = Field(default=400, ge=1, description="Dev pairs per part of the mix, at most.")
    junk_pairs: int = Field(default=0, ge=0, description="Content-free negatives added to a mix (`unrelated`).")
    smooth_alpha: float | Literal["auto"] | None = Field(
        default="auto",
        description=(
            "SmoothQuant strength of the int8 export: 'auto' picks the best of training.export.SMOOTH_ALPHAS by "
            "agreement with fp32 (five exports), a number uses that one, None exports plain int8."
        ),
    )
    soup: tuple[int, ...] = Field(
        default=(),
        description=(
            "Data seeds of further runs whose weights are averaged with this one's (training/soup.py): the same "
            "recipe and `seed` over other orders of the same pairs; () = a single run."
        ),
    )

    @field_validator("input_format")
    @classmethod
    def _known_format(cls, input_format: int | None) -> int | None:
        from writegate.classifier.features import INPUT_FORMATS

        if input_format is not None and input_format not in INPUT_FORMATS:
            raise ValueError(f"must be one of {', '.join(map(str, INPUT_FORMATS))}")
        return input_format

    @field_validator("soup")
    @classmethod
    def _members_differ(cls, soup: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        orders = [info.data.get("data_seed"), *soup]
        if len(set(orders)) != len(orders):
            raise ValueError(
                f"every member needs its own data seed, different from data_seed "
                f"({info.data.get('data_seed')}) and from each other"
            )
        return soup


_FULL_RUN: dict[str, Any] = {
    "batch_size": 32,
    "lr": 5e-5,
    "label_smoothing": 0.1,
    "eval_steps": 250,
    "dev_subsample": 1200,
    "patience": 6,
    "seed": 13,
    "generate_n": 96000,
}
"""The recipe the full-size presets share; they differ in epochs, steps and data."""

PRESETS: dict[str, Preset] = {
    "generated": Preset(**_FULL_RUN, epochs=4.0, max_steps=4000, soup=(7,)),
    # Human-written sources (shippable licences) + generated pairs + content-free negatives; one run.
    "default": Preset(
        **_FULL_RUN,
        epochs=2.0,
        max_steps=3000,
        mix={
            "generated": 40000,
            "snli": 12000,
            "oie_nli": 12000,
            "timeqa": 5000,
            "sgd_changes": 5000,
            "prosecco": 1200,
        },
        mix_dev_cap=400,
        junk_pairs=3000,
    ),
    # For quick checks of a setup: a short run on a small generated set, one int8 export (under 2 min on 2 cores).
    "smoke": Preset(
        epochs=1.0,
        max_steps=40,
        batch_size=16,
        lr=1e-4,
        eval_steps=40,
        dev_subsample=200,
        patience=2,
        seed=13,
        generate_n=1500,
        smooth_alpha=0.75,
    ),
}


def get_preset(name: str) -> Preset:
    """The preset called `name`; InputError for an unknown one."""
    from writegate.errors import InputError

    try:
        return PRESETS[name]
    except KeyError:
        raise InputError("preset", f"unknown preset {name!r}; expected one of {', '.join(PRESETS)}") from None
