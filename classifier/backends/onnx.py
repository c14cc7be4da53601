"""onnxruntime backend (default, CPU): int8 or fp32 ONNX model."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from writegate.classifier.backends.base import Backend, Batch

ARENA_SHRINK = ("memory.enable_memory_arena_shrinkage", "cpu:0")
"""Run option: at the end of the run, free the CPU arena's regions no tensor uses."""


class OnnxBackend(Backend):
    """onnxruntime InferenceSession on the CPU.

    Memory: the CPU arena keeps the peak of the largest batches run so far (it never shrinks on
    its own); `release_memory()` hands its free regions back. Memory patterns are off: they
    pre-plan one block per input shape, and with a new [n, L] in nearly every batch they raise
    the peak memory without making the runs faster (`bench/load.py` prints the server's memory;
    docs/serving.md, "Memory").

    Args:
        model_path: the `.onnx` file.
        threads: intra-op threads (None = onnxruntime's default: all cores).
    """

    name = "onnx"

    def __init__(self, model_path: Path, *, threads: int | None = None) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.enable_mem_pattern = False
        if threads is not None:
            opts.intra_op_num_threads = int(threads)
            opts.inter_op_num_threads = 1
        self.model_path = Path(model_path)
        self._session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._shrink = ort.RunOptions()
        self._shrink.add_run_config_entry(*ARENA_SHRINK)

    def run(self, batch: Batch) -> np.ndarray:
        """Logits [n, 5] float32."""
        feeds = {
            "input_ids": batch.input_ids.astype(np.int64, copy=False),
            "attention_mask": batch.attention_mask.astype(np.int64, copy=False),
            "token_type_ids": batch.token_type_ids.astype(np.int64, copy=False),
        }
        (logits,) = self._session.run(["logits"], {k: v for k, v in feeds.items() if k in self._inputs})
        return np.asarray(logits, dtype=np.float32)

    def release_memory(self) -> None:
        """Free the arena's unused regions (a one-token run with arena shrinkage); call when idle."""
        one = np.zeros((1, 1), dtype=np.int64)
        feeds = {"input_ids": one, "attention_mask": np.ones_like(one), "token_type_ids": one}
        self._session.run(["logits"], {k: v for k, v in feeds.items() if k in self._inputs}, self._shrink)
