"""Distillation: learning a teacher's probabilities beside the gold labels (`writegate train --soft`).

The loss of a batch is `w · T² · KL(teacher_T ‖ student_T) + (1 − w) · CE(student, gold)`, with `w`
the preset's `distil_weight` and `T` its `distil_temperature` (Hinton et al., 2015): `teacher_T`
is the teacher's distribution sharpened or flattened by `T` (`p^(1/T)`, renormalized), `student_T`
the softmax of the student's logits over `T`, and `T²` keeps the term's gradients at the scale of
the cross-entropy's. The KL term averages over the pairs that have teacher probabilities, the
cross-entropy over those with a gold label (`labels` ≠ `NO_GOLD`, with the preset's label
smoothing); a batch without one of the two is the other term alone.
"""

from __future__ import annotations

from typing import Any

from writegate.training.package import NO_GOLD


def distil_loss(
    logits: Any,
    labels: Any,
    soft: Any | None,
    *,
    weight: float,
    temperature: float,
    label_smoothing: float = 0.0,
) -> Any:
    """The batch loss (a scalar tensor).

    Args:
        logits: the student's logits, (batch, labels).
        labels: gold label ids, `NO_GOLD` where a pair has none, (batch,).
        soft: the teacher's probabilities, (batch, labels); a row of zeros where a pair has none; None: no teacher.
        weight: the distillation term's share, in [0, 1].
        temperature: > 0.
        label_smoothing: of the cross-entropy term.
    """
    import torch
    import torch.nn.functional as F

    gold = labels != NO_GOLD
    ce = F.cross_entropy(logits[gold], labels[gold], label_smoothing=label_smoothing) if bool(gold.any()) else None
    taught = soft.sum(-1) > 0 if soft is not None else torch.zeros_like(gold)
    kd = None
    if bool(taught.any()):
        assert soft is not None
        teacher = torch.log(soft[taught].clamp_min(1e-12)) / temperature
        student = F.log_softmax(logits[taught] / temperature, dim=-1)
        kd = F.kl_div(student, F.log_softmax(teacher, dim=-1), log_target=True, reduction="batchmean")
        kd = kd * temperature**2
    if ce is None and kd is None:
        return logits.sum() * 0.0  # nothing to learn from: a zero that keeps the graph
    if kd is None:
        return ce
    if ce is None:
        return kd
    return weight * kd + (1 - weight) * ce


def distil_trainer_class() -> type:
    """A transformers `Trainer` whose loss is `distil_loss` over the batch's `labels` and `soft`."""
    from transformers import Trainer

    class DistilTrainer(Trainer):
        def __init__(self, *args: Any, distil_weight: float, distil_temperature: float, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.distil_weight = distil_weight
            self.distil_temperature = distil_temperature

        def compute_loss(
            self, model: Any, inputs: dict[str, Any], return_outputs: bool = False, num_items_in_batch: Any = None
        ) -> Any:
            inputs = dict(inputs)  # the caller's batch stays whole
            labels = inputs.pop("labels")
            soft = inputs.pop("soft", None)
            outputs = model(**inputs)
            loss = distil_loss(
                outputs.logits,
                labels,
                soft,
                weight=self.distil_weight,
                temperature=self.distil_temperature,
                label_smoothing=self.args.label_smoothing_factor,
            )
            return (loss, outputs) if return_outputs else loss

    return DistilTrainer
