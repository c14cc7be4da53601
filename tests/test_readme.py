"""The README's test command is exactly what CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci_lines = [ln for ln in (ROOT / ".ci" / "run").read_text().splitlines() if ln and not ln.startswith(("#", "set ", "cd "))]
    assert len(ci_lines) == 1, ci_lines
    readme_head = (ROOT / "README.md").read_text().split("\n## ", 1)[0]
    assert ci_lines[0] in [line.strip() for line in readme_head.splitlines()]
