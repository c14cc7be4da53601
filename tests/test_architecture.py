"""ARCHITECTURE.md's dependency table holds for every import in the package code."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _packages() -> dict[str, Path]:
    """Top-level package name → folder, from pyproject's package-dir."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name.split(".")[1]: ROOT / folder for name, folder in mapping.items() if name.count(".") == 1}


def _allowed() -> dict[str, set[str]]:
    """ARCHITECTURE.md's table: package → what it may import."""
    allowed: dict[str, set[str]] = {}
    for line in (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `writegate\.(\w+)` \| `[^`]+` \| ([^|]+) \|", line)
        if m:
            deps = m.group(2).strip()
            allowed[m.group(1)] = set() if deps == "nothing" else {d.strip() for d in deps.split(",")}
    return allowed


def _imports(folder: Path) -> set[tuple[str, str]]:
    """(imported top-level package, file) for every `writegate.*` import under `folder`."""
    found: set[tuple[str, str]] = set()
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "writegate" and len(parts) > 1:
                    found.add((parts[1], str(path.relative_to(ROOT))))
    return found


def test_the_table_names_every_package() -> None:
    assert set(_allowed()) == set(_packages())


@pytest.mark.parametrize("package", sorted(_packages()))
def test_imports_follow_the_table(package: str) -> None:
    allowed = _allowed()[package] | {package}
    broken = sorted(
        f"{path} imports writegate.{dep}" for dep, path in _imports(_packages()[package]) if dep not in allowed
    )
    assert broken == []


def test_the_service_never_imports_training() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "server").rglob("*.py"))
    assert "writegate.training" not in text
