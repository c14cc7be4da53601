"""onnxruntime backend (default, CPU): int8 or fp32 ONNX model."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from writegate.classifier.backends.base import Batch

INPUT_NAMES: tuple[str, ...] = ("input_ids", "attention_mask", "token_type_ids")


class OnnxBackend:
    """onnxruntime InferenceSession on the CPU.

    Args:
        model_path: the `.onnx` file.
        threads: intra-op threads (None = onnxruntime's default: all cores).
    """

    name = "onnx"

    def __init__(self, model_path: Path, *, threads: int | None = None) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads is not None:
            opts.intra_op_num_threads = int(threads)
            opts.inter_op_num_threads = 1
        self.model_path = Path(model_path)
        self._session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32."""
        feeds = {
            "input_ids": batch.input_ids.astype(np.int64, copy=False),
            "attention_mask": batch.attention_mask.astype(np.int64, copy=False),
            "token_type_ids": batch.token_type_ids.astype(np.int64, copy=False),
        }
        (logits,) = self._session.run(["logits"], {k: v for k, v in feeds.items() if k in self._inputs})
        return np.asarray(logits, dtype=np.float32)
