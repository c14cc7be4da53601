"""The `writegate` console script: it only dispatches; each product owns its commands.

`normalize` and `classify` (the library tools) live here in `writegate.cli`; `serve` is the
service's (`writegate.server.command`), `relabel` batch relabel's (`writegate.relabel.command`),
`train`/`eval`/`export`/`export-embedder` training's (`writegate.training.commands`). Each command module exposes
`HELP: str`, `add_arguments(parser)` and `run(args) -> int`; it is
imported only when its command runs, so `writegate normalize` never loads a model or torch.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

COMMANDS: dict[str, tuple[str, str]] = {
    "normalize": ("writegate.cli.normalize", "Normalize memory text into schema records (JSON)."),
    "classify": ("writegate.cli.classify", "Label (existing, new) memory pairs from a JSONL file."),
    "train": ("writegate.training.commands.train", "Fine-tune the relation classifier."),
    "eval": ("writegate.training.commands.eval", "Evaluate a model on labelled pairs."),
    "export": ("writegate.training.commands.export", "Export a trained model to ONNX (fp32 + int8)."),
    "export-embedder": (
        "writegate.training.commands.export_embedder",
        "Export the sentence embedder relabel finds candidates with (int8 ONNX).",
    ),
    "serve": ("writegate.server.command", "Run the gRPC service."),
    "relabel": ("writegate.relabel.command", "Label every candidate pair of a legacy memory store."),
}


def _load(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name][0])


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The top-level parser; only the chosen command's module is imported."""
    parser = argparse.ArgumentParser(prog="writegate", description="Write-time gate for agent memory.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (_, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            _load(name).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    from writegate.errors import InputError

    try:
        return int(_load(args.command).run(args) or 0)
    except InputError as exc:
        print(f"writegate {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a file that vanished: one line, never a traceback
        where = f" {exc.filename}" if exc.filename else ""
        print(f"writegate {args.command}: error: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
