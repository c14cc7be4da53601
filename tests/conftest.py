"""Shared fixtures. `tiny_model_dir`: a complete model directory with a tiny random BERT.

The model is the committed `tests/fixtures/tiny_model/` (hidden 32, 2 layers, 2 heads, a small
generated WordPiece vocabulary; ~330 KiB), built by `python tests/fixtures/build_tiny_model.py`.
It holds everything every loader and backend reads: tokenizer files, writegate.json, ONNX fp32 +
int8 (served with onnxruntime + tokenizers alone: the core install, no torch) and fp16 safetensors
+ config.json (for the torch backend, training and export, which skip without the `train` extra).
`tests/fixtures/test_tiny_model.py` checks that the script still builds exactly this model.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TINY_MODEL = Path(__file__).resolve().parent / "fixtures" / "tiny_model"


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session copy of the committed tiny model (tests may write next to it without touching the repo)."""
    return Path(shutil.copytree(TINY_MODEL, tmp_path_factory.mktemp("tiny") / "tiny_model"))
