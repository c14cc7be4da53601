"""torch backend: the fp16 safetensors weights on CPU (fp32) or CUDA (bf16 by default).

The model loads with PyTorch's fused attention (`attn_implementation="sdpa"`:
`torch.nn.functional.scaled_dot_product_attention`, which picks FlashAttention or the
memory-efficient kernel on CUDA where the shapes allow); an architecture transformers has no SDPA
path for (MPNet) loads with its own ("eager") attention, and one without token types gets none. On CUDA a batch's three token arrays are
packed into one page-locked (pinned) host buffer, reused per run thread and grown when a batch
needs more room, and copied to the GPU in one asynchronous copy (`non_blocking=True`): the
forward's kernels queue behind the copy without waiting for it on the host. The logits come back
as float32 numpy, which waits for the forward, so the buffer is free again when `run` returns. On
CPU the arrays are used in place, as before.

torch and transformers are imported only when this backend is built, so serving on onnx needs
neither.
"""

from __future__ import annotations

import inspect
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from writegate.classifier.backends.base import Backend, Batch
from writegate.errors import InputError

_PRECISIONS = {
    "fp32": "float32",
    "float32": "float32",
    "bf16": "bfloat16",
    "bfloat16": "bfloat16",
    "fp16": "float16",
    "float16": "float16",
}

ATTENTION = "sdpa"
"""The attention implementation the model is loaded with (transformers' `attn_implementation`)."""

_DEVICE = re.compile(r"cpu|cuda(:\d+)?")


class TorchBackend(Backend):
    """A transformers BertForSequenceClassification run with torch.

    Args:
        model_dir: directory with `config.json` and `model.safetensors`.
        device: `cpu`, `cuda` or `cuda:N` (None = cuda when available, else cpu).
        precision: `fp32`, `bf16` or `fp16` (None = bf16 on cuda, fp32 on cpu).
        threads: torch intra-op threads on CPU (None = torch's default).

    Raises:
        InputError: an unknown device or precision, or a CUDA device torch does not see.
    """

    name = "torch"

    def __init__(
        self, model_dir: Path, *, device: str | None = None, precision: str | None = None, threads: int | None = None
    ) -> None:
        try:
            import torch
            from transformers import AutoModelForSequenceClassification
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise RuntimeError(
                f"the torch backend needs torch and transformers ({exc}); install `writegate[train]` "
                "or use --backend onnx"
            ) from exc
        self._torch = torch
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        if not isinstance(device, str) or not _DEVICE.fullmatch(device):
            raise InputError("device", f"unknown device {device!r} for torch; expected cpu, cuda or cuda:N")
        if device.startswith("cuda"):
            if not torch.cuda.is_available():
                raise InputError("device", f"{device!r} requested but torch sees no CUDA device")
            index = int(device.partition(":")[2] or 0)
            if index >= torch.cuda.device_count():
                raise InputError(
                    "device", f"{device!r} requested but torch sees {torch.cuda.device_count()} CUDA device(s)"
                )
        if precision is None:
            precision = "bf16" if device.startswith("cuda") else "fp32"
        if precision not in _PRECISIONS:
            raise InputError("precision", f"unknown precision {precision!r} for torch; expected fp32, bf16 or fp16")
        if threads is not None and device == "cpu":
            torch.set_num_threads(int(threads))
        self.device = torch.device(device)
        self.dtype = getattr(torch, _PRECISIONS[precision])
        try:
            model = AutoModelForSequenceClassification.from_pretrained(
                str(model_dir), dtype=self.dtype, attn_implementation=ATTENTION, local_files_only=True
            )
        except ValueError as exc:  # an architecture without SDPA (MPNet): its own attention
            if ATTENTION not in str(exc) and "scaled_dot_product_attention" not in str(exc):
                raise
            model = AutoModelForSequenceClassification.from_pretrained(
                str(model_dir), dtype=self.dtype, attn_implementation="eager", local_files_only=True
            )
        self.model: Any = model.to(self.device)
        self.model.eval()
        # MPNet, RoBERTa and their kin have no token types: their forward takes no token_type_ids
        self.takes_token_types = "token_type_ids" in inspect.signature(self.model.forward).parameters
        self.staged = self.device.type == "cuda"
        """Inputs go through the packed (on CUDA: pinned) host buffer; True on CUDA."""
        self._staging = threading.local()  # each run thread's pinned buffer (the server may run several)

    @property
    def attention(self) -> str:
        """The attention implementation the loaded model runs (`sdpa`)."""
        return str(self.model.config._attn_implementation)

    def _staging_buffer(self, n: int) -> Any:
        """This thread's host buffer (pinned on CUDA) of at least `n` int64, grown when a call needs more."""
        buf = getattr(self._staging, "buf", None)
        if buf is None or buf.numel() < n:
            pin = self.device.type == "cuda"
            buf = self._torch.empty(max(n, 3 * 256 * 128), dtype=self._torch.int64, pin_memory=pin)
            self._staging.buf = buf
        return buf

    def _inputs(self, batch: Batch, host: Any) -> tuple[Any, Any, Any]:
        """input_ids, attention_mask, token_type_ids as int64 tensors on the device.

        When staged (CUDA), they are packed into `host` (a slice of the pinned buffer, 3 × n_tokens
        long) and copied in one asynchronous transfer; else `host` is None and they go as they are.
        """
        torch = self._torch
        arrays = (batch.input_ids, batch.attention_mask, batch.token_type_ids)
        if host is None:
            ids, mask, types = (
                torch.from_numpy(np.ascontiguousarray(a, dtype=np.int64)).to(self.device) for a in arrays
            )
            return ids, mask, types
        packed = host.view(3, *batch.input_ids.shape)
        staged = packed.numpy()
        for i, a in enumerate(arrays):
            staged[i] = a  # casts to int64 where needed
        dev = packed.to(self.device, non_blocking=True)
        return dev[0], dev[1], dev[2]

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32."""
        return self.run_many([batch])[0]

    def run_many(self, batches: Sequence[Batch]) -> list[np.ndarray]:
        """Logits [n, 5] float32 of each batch, in order.

        Every batch is queued (on CUDA its inputs in their own slice of the pinned buffer) before
        the first result is read, so the device does not wait for Python between batches.
        """
        torch = self._torch
        sizes = [3 * b.n_tokens for b in batches]
        buf = self._staging_buffer(sum(sizes)) if self.staged else None
        outs = []
        at = 0
        with torch.inference_mode():
            for batch, n in zip(batches, sizes, strict=True):
                host = None if buf is None else buf[at : at + n]
                at += n
                input_ids, attention_mask, token_type_ids = self._inputs(batch, host)
                types = {"token_type_ids": token_type_ids} if self.takes_token_types else {}
                out = self.model(input_ids=input_ids, attention_mask=attention_mask, **types)
                outs.append(out.logits.float())
            # .cpu() waits for its forward (and so for the copy out of the buffer); the buffer is
            # reused only after the last one
            return [o.cpu().numpy() for o in outs]
