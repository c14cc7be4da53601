"""The README's test command is exactly what CI runs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    """One line runs the tests, the README's; any other line installs system packages (Debian's)."""
    ci_lines = [
        ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln and not ln.startswith(("#", "set ", "cd "))
    ]
    test_lines = [ln for ln in ci_lines if "pytest" in ln]
    assert len(test_lines) == 1, ci_lines
    assert all("apt-get install" in ln for ln in ci_lines if ln not in test_lines), ci_lines
    readme_head = (ROOT / "README.md").read_text().split("\n## ", 1)[0]
    assert test_lines[0] in [line.strip() for line in readme_head.splitlines()]


def test_ci_also_tests_the_core_install() -> None:
    """After the full venv, the suite runs again where only `.[dev]` is installed: no torch, no `train` extra."""
    command = next(
        ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if "pytest" in ln and not ln.startswith("#")
    )
    steps = [step.strip() for step in command.split("&&")]
    core = steps.index("python3 -m venv .venv-core")
    assert steps[core - 1] == "deactivate"
    assert steps[core + 1 :] == [". .venv-core/bin/activate", "pip install -e '.[dev]'", "python -m pytest -q"]
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert not [d for d in dev if re.match(r"[\w.-]+", d).group().lower() in {"torch", "transformers", "writegate"}]
