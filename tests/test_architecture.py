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


# -- no import loops ----------------------------------------------------------------------------------


def _module_files() -> dict[str, Path]:
    """Dotted module name → file, for every module of the package code."""
    modules: dict[str, Path] = {}
    for package, folder in _packages().items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(("writegate", package, *parts))] = path
    return modules


def _file_imports(path: Path) -> list[str]:
    """The `writegate.*` names a file imports anywhere (functions too: a lazy import still ties the two
    files), except under `if TYPE_CHECKING:` (annotations only)."""
    names: list[str] = []
    pending = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
        elif not isinstance(node, ast.Import | ast.ImportFrom):
            pending.extend(ast.iter_child_nodes(node))
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return [n for n in names if n.startswith("writegate.")]


def _import_graph() -> dict[str, set[str]]:
    """Module → the package modules its file imports (`from m import name` counts as m, or m.name
    where that is a module)."""
    modules = _module_files()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in _file_imports(path):
            while imported not in modules and "." in imported:
                imported = imported.rsplit(".", 1)[0]
            if imported in modules and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert _loops(_import_graph()) == []


def test_the_loop_check_finds_a_loop() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _loops(graph) == [["a", "b", "c"]]
    assert _loops({"a": {"b"}, "b": set()}) == []


# -- small modules, short functions -------------------------------------------------------------------

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
LONG_MODULE_REASON = "Longer than 600 lines:"
"""A module over `MAX_MODULE_LINES` says why in its docstring, in a sentence that starts so."""


def _package_sources() -> list[Path]:
    return [p for p in _module_files().values() if not p.name.endswith(("_pb2.py", "_pb2_grpc.py"))]


def test_modules_fit_or_say_why() -> None:
    long = []
    for path in _package_sources():
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if len(text.splitlines()) > MAX_MODULE_LINES and LONG_MODULE_REASON not in doc:
            long.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
    assert long == []


def test_functions_fit_on_a_screen() -> None:
    long = []
    for path in _package_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines")
    assert long == []
