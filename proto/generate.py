"""Regenerate the Python protobuf/gRPC code from `proto/writegate/v1/writegate.proto`.

Usage (from anywhere): `python proto/generate.py [--out DIR]`. Writes `writegate_pb2.py`,
`writegate_pb2.pyi` and `writegate_pb2_grpc.py` under `DIR/writegate/v1/` (default: `proto/`, the
checked-in copy). Never hand-edit the generated files; `tests/test_proto_generated.py` fails when
they are stale.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

PROTO_ROOT = Path(__file__).resolve().parent
PROTO_FILES: tuple[str, ...] = ("writegate/v1/writegate.proto",)
GENERATED: tuple[str, ...] = ("writegate_pb2.py", "writegate_pb2.pyi", "writegate_pb2_grpc.py")


def generate(out: Path = PROTO_ROOT) -> list[Path]:
    """Run grpcio-tools' protoc into `out`; return the generated files.

    Raises:
        RuntimeError: when protoc fails.
    """
    from grpc_tools import protoc  # dev dependency (grpcio-tools)

    include = str(resources.files("grpc_tools") / "_proto")
    out.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *(str(PROTO_ROOT / p) for p in PROTO_FILES),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")
    return [out / "writegate" / "v1" / name for name in GENERATED]


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROTO_ROOT, help="output root (default: proto/)")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
