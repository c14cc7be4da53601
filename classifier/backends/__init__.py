"""Backends behind one protocol (`backends.base.Backend`: `run(Batch) -> logits`), each imported only when built."""

from __future__ import annotations

from pathlib import Path

from writegate.classifier.backends.base import Backend, Batch
from writegate.errors import InputError

BACKENDS: tuple[str, ...] = ("onnx", "torch", "vllm", "null")


def load_backend(
    name: str,
    model_dir: Path,
    *,
    threads: int | None = None,
    device: str | None = None,
    precision: str | None = None,
) -> Backend:
    """Build a backend for `model_dir`.

    Args:
        name: `onnx` (default; CPU), `torch` (CPU or CUDA), `vllm`, or `null` (fixed logits, no
            model: the labels mean nothing; for measuring the pipeline around the model).
        model_dir: a model directory (see `writegate.classifier.modeldir`).
        threads: intra-op CPU threads (onnx, torch on CPU).
        device: torch only: `cpu`, `cuda`, `cuda:N`.
        precision: onnx: `int8` (default) or `fp32`; torch: `fp32`, `bf16` (CUDA default) or `fp16`.

    Raises:
        InputError: unknown backend/precision, or a needed file is missing.
        RuntimeError: an optional backend's packages are not installed.
    """
    from writegate.classifier import modeldir

    model_dir = Path(model_dir)
    if name == "onnx":
        if device not in (None, "cpu"):
            raise InputError("device", f"the onnx backend runs on the CPU only, got {device!r}")
        precision = precision or "int8"
        if precision not in modeldir.ONNX_FILES:
            raise InputError("precision", f"unknown onnx precision {precision!r}; expected int8 or fp32")
        path = modeldir.require_file(model_dir, modeldir.ONNX_FILES[precision])
        from writegate.classifier.backends.onnx import OnnxBackend

        try:
            return OnnxBackend(path, threads=threads)
        except Exception as exc:  # onnxruntime raises its own types for corrupt files
            if isinstance(exc, InputError):
                raise
            raise InputError("model", f"{path} could not be loaded by onnxruntime: {exc}") from None
    if name == "torch":
        modeldir.require_file(model_dir, modeldir.CONFIG)
        modeldir.require_file(model_dir, modeldir.SAFETENSORS)
        from writegate.classifier.backends.torch import TorchBackend

        return TorchBackend(model_dir, device=device, precision=precision, threads=threads)
    if name == "vllm":
        from writegate.classifier.backends.vllm import load_vllm_backend  # checks itself against torch

        return load_vllm_backend(model_dir, device=device, precision=precision)
    if name == "null":
        if device not in (None, "cpu"):
            raise InputError("device", f"the null backend runs no model, on no device, got {device!r}")
        from writegate.classifier.backends.null import NullBackend

        return NullBackend()
    raise InputError("backend", f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "Backend", "Batch", "load_backend"]
