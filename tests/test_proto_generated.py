"""The checked-in generated protobuf/gRPC code matches `writegate.proto` (never hand-edited)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROTO = ROOT / "proto"
GENERATED = ("writegate_pb2.py", "writegate_pb2.pyi", "writegate_pb2_grpc.py")
_STAMPS = (  # the generator's own version, which a newer grpcio-tools changes without the proto changing
    (re.compile(r"# Protobuf Python Version: [\w.]+"), "# Protobuf Python Version: X"),
    (
        re.compile(r"(ValidateProtobufRuntimeVersion\(\s*_runtime_version\.Domain\.PUBLIC,)\s*\d+,\s*\d+,\s*\d+,"),
        r"\1 X,",
    ),
    (re.compile(r"GRPC_GENERATED_VERSION = '[\w.]+'"), "GRPC_GENERATED_VERSION = 'X'"),
)


def unstamped(text: str) -> str:
    """Generated code without the generator-version stamps."""
    for pattern, replacement in _STAMPS:
        text = pattern.sub(replacement, text)
    return text


def _load_generate():
    spec = importlib.util.spec_from_file_location("writegate_proto_generate", PROTO / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", GENERATED, ids=GENERATED)
def test_generated_code_is_fresh(tmp_path: Path, name: str) -> None:
    pytest.importorskip("grpc_tools", reason="grpcio-tools (dev extra) regenerates the code")
    _load_generate().generate(tmp_path)
    fresh = (tmp_path / "writegate" / "v1" / name).read_text()
    checked_in = (PROTO / "writegate" / "v1" / name).read_text()
    assert unstamped(checked_in) == unstamped(fresh), (
        f"proto/writegate/v1/{name} is stale: run `python proto/generate.py`"
    )


def test_stamps_are_the_only_thing_ignored() -> None:
    text = (PROTO / "writegate" / "v1" / "writegate_pb2.py").read_text()
    assert unstamped(text) != text  # the stamps were found
    assert unstamped(text.replace("writegate.v1.Memory", "writegate.v1.Memo")) != unstamped(text)


def test_generated_module_imports_under_the_package_namespace() -> None:
    from writegate.v1 import writegate_pb2, writegate_pb2_grpc

    assert writegate_pb2.DESCRIPTOR.package == "writegate.v1"
    assert writegate_pb2_grpc.WriteGateServicer.__name__ == "WriteGateServicer"
    service = writegate_pb2.DESCRIPTOR.services_by_name["WriteGate"]
    assert [m.name for m in service.methods] == [
        "Normalize",
        "Classify",
        "PrepareWrite",
        "Relabel",
        "GetModelInfo",
        "Embed",
    ]


def test_buf_lint_is_clean() -> None:
    buf = shutil.which("buf")
    if buf is None:
        pytest.skip("buf CLI not installed (pip install buf-bin)")
    result = subprocess.run([buf, "lint", "proto"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
