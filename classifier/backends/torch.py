"""torch backend: the fp16 safetensors weights on CPU (fp32) or CUDA (bf16 by default).

torch and transformers are imported only when this backend is built, so serving on onnx needs
neither.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from writegate.classifier.backends.base import Batch
from writegate.normalizer.errors import InputError

_PRECISIONS = {
    "fp32": "float32",
    "float32": "float32",
    "bf16": "bfloat16",
    "bfloat16": "bfloat16",
    "fp16": "float16",
    "float16": "float16",
}


class TorchBackend:
    """A transformers BertForSequenceClassification run with torch.

    Args:
        model_dir: directory with `config.json` and `model.safetensors`.
        device: `cpu`, `cuda` or `cuda:N` (None = cuda when available, else cpu).
        precision: `fp32`, `bf16` or `fp16` (None = bf16 on cuda, fp32 on cpu).
        threads: torch intra-op threads on CPU (None = torch's default).
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
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise InputError("device", f"{device!r} requested but torch sees no CUDA device")
        if precision is None:
            precision = "bf16" if device.startswith("cuda") else "fp32"
        if precision not in _PRECISIONS:
            raise InputError("precision", f"unknown precision {precision!r} for torch; expected fp32, bf16 or fp16")
        if threads is not None and device == "cpu":
            torch.set_num_threads(int(threads))
        self.device = torch.device(device)
        self.dtype = getattr(torch, _PRECISIONS[precision])
        self.model: Any = AutoModelForSequenceClassification.from_pretrained(
            str(model_dir), dtype=self.dtype, local_files_only=True
        ).to(self.device)
        self.model.eval()

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32."""
        torch = self._torch
        with torch.inference_mode():
            out = self.model(
                input_ids=torch.from_numpy(np.ascontiguousarray(batch.input_ids, dtype=np.int64)).to(self.device),
                attention_mask=torch.from_numpy(np.ascontiguousarray(batch.attention_mask, dtype=np.int64)).to(
                    self.device
                ),
                token_type_ids=torch.from_numpy(np.ascontiguousarray(batch.token_type_ids, dtype=np.int64)).to(
                    self.device
                ),
            )
        return out.logits.float().cpu().numpy()
