"""The package code passes ruff (lint and format) and mypy with the settings in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=cwd, capture_output=True, text=True, check=False)


def test_ruff_lint() -> None:
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def _package_tree(tmp: Path) -> list[str]:
    """A `writegate/` tree of links to the folders pyproject maps (mypy can't follow the editable finder)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    top = tmp / "writegate"
    top.mkdir()
    (top / "__init__.py").write_text("", encoding="utf-8")
    packages = []
    for name, folder in config["tool"]["setuptools"]["package-dir"].items():
        if name.count(".") == 1:
            (top / name.split(".")[1]).symlink_to(ROOT / folder, target_is_directory=True)
            packages.append(name)
    return sorted(packages)


def test_mypy(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the training code type-checks against torch's types (the train extra)")
    packages = _package_tree(tmp_path)
    args = ["mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", os.devnull, "--no-error-summary"]
    for package in packages:
        args += ["-p", package]
    result = _run(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
