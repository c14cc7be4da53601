"""The model directory contract (what `models/default/` holds) and its `writegate.json`.

Files:
    model.int8.onnx   dynamically quantized ONNX (served on CPU by default)
    model.onnx        fp32 ONNX (optional in the shipped dir)
    model.safetensors fp16 torch weights + config.json (HF BertForSequenceClassification)
    tokenizer.json, tokenizer_config.json, vocab.txt, special_tokens_map.json
    writegate.json    name, version, input format, max_length, labels, temperature, fusion, review, metrics
    MODEL_CARD.md     how it was made and how well it does
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from writegate.classifier.labels import LABELS
from writegate.classifier.review import ReviewPolicy
from writegate.errors import InputError, first_error

META_FILE = "writegate.json"
ONNX_FP32 = "model.onnx"
ONNX_INT8 = "model.int8.onnx"
SAFETENSORS = "model.safetensors"
CONFIG = "config.json"
TOKENIZER = "tokenizer.json"
TOKENIZER_FILES: tuple[str, ...] = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json")
MODEL_CARD = "MODEL_CARD.md"

ONNX_FILES: dict[str, str] = {"int8": ONNX_INT8, "fp32": ONNX_FP32}
"""ONNX precision → file name."""

MODEL_ENV = "WRITEGATE_MODEL"
"""The environment variable naming the model directory when no `--model` is given."""
POINT_AT_A_MODEL = f"pass --model DIR or set {MODEL_ENV}=DIR"
MODEL_HELP = (
    f"model directory (default %(default)s: ${MODEL_ENV}, else the shipped models/default that the writegate "
    "package carries)"
)
"""The `--model` flag's help (argparse fills in `%(default)s`)."""


def _project_model_dir() -> Path:
    """The shipped model: `models/default` beside the `classifier` package folder.

    Both kinds of install put it there, so the one path serves both: an editable install
    (`pip install -e .`) finds the checkout's `models/default` beside `classifier/`; a wheel or an
    sdist carries the same folder as package data (`writegate.models.default` in pyproject.toml),
    installed as `site-packages/writegate/models/default` beside `writegate/classifier`.
    """
    import writegate.classifier

    return Path(writegate.classifier.__file__).resolve().parents[1] / "models" / "default"


def default_model_dir(env: Mapping[str, str] | None = None) -> Path:
    """The model directory to use when none is given: `$WRITEGATE_MODEL`, else the shipped
    `models/default` (found from the installed package, whatever the working directory).

    It never raises: where the shipped model is missing (a package built without it, a folder
    deleted), loading the returned path fails with one line saying how to point at one (`read_meta`).

    Args:
        env: the environment to read `WRITEGATE_MODEL` from (default `os.environ`; `{}` skips it).
    """
    value = (os.environ if env is None else env).get(MODEL_ENV, "")
    return Path(value) if value else _project_model_dir()


class ModelMeta(BaseModel):
    """`writegate.json`: what serving needs beyond the weights."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, description="Model name, e.g. `writegate-minilm-l6`.")
    version: str = Field(min_length=1, description="Model version.")
    input_format_version: int = Field(ge=1, description="Version of classifier/features.py's input format.")
    max_length: int = Field(default=128, ge=16, le=512, description="Max tokens per pair.")
    labels: list[str] = Field(description="Output index i ↔ labels[i]; must equal LABELS.")
    temperature: float = Field(default=1.0, gt=0, le=100, description="Calibration temperature for the softmax.")
    fusion: bool = Field(default=True, description="Fuse structured evidence into the probabilities.")
    review: ReviewPolicy = Field(
        default_factory=ReviewPolicy,
        description="When a retiring label is flagged for review (`classifier/review.py`); absent: never.",
    )
    metrics: dict[str, float] = Field(default_factory=dict, description="Flat metric name → value.")


def require_file(model_dir: Path, name: str) -> Path:
    """Return `model_dir/name`, raising InputError naming the file when it is missing."""
    path = Path(model_dir) / name
    if not path.is_file():
        raise InputError("model", f"{path} is missing (model directory {model_dir} is incomplete)")
    return path


def read_meta(model_dir: str | Path) -> ModelMeta:
    """Read and validate `writegate.json`.

    Raises:
        InputError: the directory, the file, or a field is missing or wrong; a missing directory's
            message says how to point at a model (`--model DIR` or `WRITEGATE_MODEL`).
    """
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        if model_dir == _project_model_dir():
            raise InputError(
                "model",
                f"the shipped model is missing from this install ({model_dir} does not exist): {POINT_AT_A_MODEL}",
            )
        raise InputError("model", f"{model_dir} is not a directory ({POINT_AT_A_MODEL})")
    path = require_file(model_dir, META_FILE)
    try:
        meta = ModelMeta.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("model", f"{path} is not valid JSON: {exc}") from None
    except ValidationError as exc:
        first = first_error(exc)
        raise InputError("model", f"{path}: field {first.dotted or '(root)'}: {first.message}") from None
    if tuple(meta.labels) != LABELS:
        raise InputError("model", f"{path}: labels {meta.labels} differ from {list(LABELS)}")
    return meta


def write_meta(model_dir: str | Path, meta: ModelMeta) -> Path:
    """Write `writegate.json` (pretty JSON); `review` only when it flags something."""
    path = Path(model_dir) / META_FILE
    data = meta.model_dump(exclude=None if meta.review.active else {"review"})
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path
