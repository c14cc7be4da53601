"""examples/README.md's "In code" snippet runs as written and prints what its comments say.

The snippet is taken from the README, saved as a script and run from the checkout's root (where
the README says to run it) against `writegate serve` on the shipped model; only its target address
is changed, to the test server's port. Each `print(...)  # VALUE` line must print VALUE.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from deploy_helpers import ROOT, clean_env, serve_process

README = ROOT / "examples" / "README.md"
TARGET = "127.0.0.1:50051"


def in_code_snippet() -> str:
    """The first python block after "In code" in examples/README.md."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"^In code\b.*?^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert match, f"{README} has no python block after 'In code'"
    return match.group(1)


def promised_outputs(snippet: str) -> list[object]:
    """The value each `print(...)  # VALUE` line promises, in order."""
    promised = []
    for line in snippet.splitlines():
        if line.strip().startswith("print(") and "  # " in line:
            promised.append(ast.literal_eval(line.rsplit("  # ", 1)[1]))
    return promised


def test_the_snippet_promises_something() -> None:
    snippet = in_code_snippet()
    assert snippet.count(TARGET) == 1
    assert promised_outputs(snippet) == [
        ["User moved to London last month"],
        [("m1", "historical", "supersedes", "m2")],
    ]


@pytest.mark.slow
@pytest.mark.skipif(
    not (ROOT / "models" / "default" / "writegate.json").is_file(), reason="no shipped model in models/default"
)
def test_the_in_code_snippet_runs_as_written(tmp_path: Path) -> None:
    snippet = in_code_snippet()
    argv = [sys.executable, "-m", "writegate.cli.main", "serve", "--port", "0"]
    with serve_process(argv, cwd=tmp_path, env=clean_env()) as served:
        script = tmp_path / "snippet.py"
        script.write_text(snippet.replace(TARGET, f"127.0.0.1:{served.port}"), encoding="utf-8")
        result = subprocess.run(
            [sys.executable, str(script)], cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=120
        )
        assert served.stop() == 0, served.stderr()
    assert result.returncode == 0, result.stderr
    printed = [ast.literal_eval(line) for line in result.stdout.splitlines()]
    assert printed == promised_outputs(snippet)
