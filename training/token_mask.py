"""Train-time token masking: each ordinary token of a training batch becomes [MASK] with probability p.

A template-trained cross-encoder learns the one surface cue that decides most of its training pairs
(", not {old}" ⇒ contradicts) and then misreads a held-out phrasing that carries the same cue for
another reason ("…, not {old} like before" is a change). Hiding a random tenth of the tokens now and
then removes that cue from some pairs, so the loss also rewards the other evidence they carry (the
change words, the dates, the gap). BERT was pre-trained to read [MASK], so the masked pairs stay in
its input distribution. Only training forward passes are masked: the hook does nothing in eval mode,
and it is removed before the model is saved or exported.

Measured (training/presets.py): at p = 0.1 on the default recipe the dev curve trailed the unmasked
run by ~0.04 for 1000 steps, so every preset leaves it off.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class TokenMasking:
    """A forward pre-hook on the model's embeddings that masks tokens while the model trains.

    Args:
        p: probability that one ordinary token is replaced (0 disables masking).
        mask_id: the tokenizer's [MASK] id.
        keep_ids: ids never replaced ([CLS], [SEP], [PAD]).
        seed: seeds the hook's own generator, so runs are repeatable.
    """

    def __init__(self, p: float, mask_id: int, keep_ids: Iterable[int], seed: int) -> None:
        if not 0 <= p < 1:
            raise ValueError(f"token mask probability must be in [0, 1), got {p}")
        import torch

        self.p = p
        self.mask_id = mask_id
        self.keep = torch.tensor(sorted(set(keep_ids)), dtype=torch.long)
        self.gen = torch.Generator().manual_seed(seed)

    @classmethod
    def for_tokenizer(cls, p: float, tokenizer: Any, seed: int) -> TokenMasking:
        """Masking with `tokenizer`'s [MASK] id, keeping its special tokens.

        Raises:
            InputError: the tokenizer has no mask token (a base model that was not pre-trained with one).
        """
        from writegate.normalizer.errors import InputError

        if tokenizer.mask_token_id is None:
            raise InputError("token_mask", f"the tokenizer {tokenizer.name_or_path!r} has no mask token; "
                                           "train without --token-mask")
        return cls(p, tokenizer.mask_token_id, tokenizer.all_special_ids, seed)

    def mask(self, input_ids: Any) -> Any:
        """`input_ids` (a LongTensor) with each ordinary token replaced by [MASK] with probability p."""
        import torch

        draw = torch.rand(input_ids.shape, generator=self.gen).to(input_ids.device)
        hit = (draw < self.p) & ~torch.isin(input_ids, self.keep.to(input_ids.device))
        return torch.where(hit, torch.full_like(input_ids, self.mask_id), input_ids)

    def attach(self, model: Any) -> Any:
        """Register the hook on `model.get_input_embeddings()`; returns the handle (call `.remove()`)."""

        def hook(module: Any, args: tuple) -> tuple | None:
            if not module.training or self.p == 0:
                return None
            return (self.mask(args[0]), *args[1:])

        return model.get_input_embeddings().register_forward_pre_hook(hook)
