"""The built package carries the shipped model.

An sdist is built from the files `docker build` would send (the checkout less `.dockerignore`), a
wheel from that sdist, and the wheel is installed into a fresh virtualenv; `writegate serve`, run
there from an empty folder with no WRITEGATE_* variable, reaches SERVING on the `models/default`
inside the install. The wheel goes in with `--no-index --no-deps`; its dependencies are the ones
this test runs on (the fresh venv reads this environment's site-packages through a `.pth` file, and
`pip check` proves they satisfy what the wheel requires), so the test needs no registry.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from deploy_helpers import ROOT, clean_env, dockerignore_rules, health, in_build_context, project_files, serve_process

MODEL = "models/default"
EMBEDDER = "models/embedder"


def _version(distribution: str) -> tuple[int, ...] | None:
    """The installed distribution's (major, minor), or None (read from its metadata: nothing is imported)."""
    try:
        return tuple(int(p) for p in importlib.metadata.version(distribution).split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


def _cannot_build() -> str | None:
    """Why this environment cannot build and install the package here, or None."""
    if (_version("setuptools") or (0,)) < (77, 0):
        return "needs setuptools >= 77 (pip install -e '.[dev]')"
    if (_version("pip") or (0,)) < (22, 3):
        return "needs pip >= 22.3 (for pip --python)"
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return "not a git checkout"
    return None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.package,
    pytest.mark.skipif(_cannot_build() is not None, reason=str(_cannot_build())),
    pytest.mark.skipif(not (ROOT / MODEL / "writegate.json").is_file(), reason=f"no shipped model in {MODEL}"),
]


def _run(*cmd: str | Path, cwd: Path, timeout: float = 300) -> str:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{cmd}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the sdist, the wheel built from it), from a copy of the Docker build context."""
    work = tmp_path_factory.mktemp("package")
    src = work / "context"
    rules = dockerignore_rules(ROOT / ".dockerignore")
    for name in project_files():
        if in_build_context(name, rules):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    build_sdist = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    sdist = work / "dist" / _run(sys.executable, "-c", build_sdist, work / "dist", cwd=src).splitlines()[-1]
    with tarfile.open(sdist) as tar:
        tar.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    pip_wheel = ["-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--no-cache-dir"]
    _run(sys.executable, *pip_wheel, "--wheel-dir", work / "wheels", unpacked, cwd=work)
    (wheel,) = (work / "wheels").glob("writegate-*.whl")
    return sdist, wheel


@pytest.mark.parametrize(
    ("folder", "needed"),
    [
        (MODEL, {"writegate.json", "model.int8.onnx", "tokenizer.json"}),
        (EMBEDDER, {"embedder.json", "model.int8.onnx", "tokenizer.json"}),
    ],
)
def test_the_sdist_and_the_wheel_carry_the_shipped_models(
    built: tuple[Path, Path], folder: str, needed: set[str]
) -> None:
    sdist, wheel = built
    shipped = {p.name: p.stat().st_size for p in (ROOT / folder).iterdir() if p.is_file()}
    assert needed <= set(shipped)
    with tarfile.open(sdist) as tar:
        in_sdist = {
            Path(m.name).name: m.size
            for m in tar.getmembers()
            if m.isfile() and Path(m.name).parent.as_posix().endswith("/" + folder)
        }
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = {
            Path(i.filename).name: i.file_size for i in whl.infolist() if i.filename.startswith(f"writegate/{folder}/")
        }
        names = whl.namelist()
    assert in_sdist == shipped
    assert in_wheel == shipped
    assert not [n for n in names if n.startswith(("tests/", "writegate/tests/", "models/"))]  # only the package


def test_git_holds_one_copy_of_the_model() -> None:
    weights = [p for p in project_files() if p.endswith((".onnx", ".safetensors"))]
    assert [
        p for p in weights if not p.startswith(("models/default/", "models/embedder/", "tests/fixtures/tiny_model/"))
    ] == []


def test_the_installed_wheel_serves_the_shipped_model_from_an_empty_folder(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python]
    _run(*pip, "install", "--no-index", "--no-deps", "--no-cache-dir", wheel, cwd=tmp_path)
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    assert (site / "writegate" / "models" / "default" / "writegate.json").is_file()
    assert (site / "writegate" / "models" / "embedder" / "embedder.json").is_file()
    # the dependencies: this environment's, added after the install so that pip saw an empty venv
    ours = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "_writegate_test_dependencies.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    check = subprocess.run([*map(str, pip), "check"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert [ln for ln in check.stdout.splitlines() if ln.lower().startswith("writegate ")] == [], check.stdout

    empty = tmp_path / "empty"
    empty.mkdir()
    env = clean_env({"PATH": f"{venv / 'bin'}:{clean_env()['PATH']}"})
    with serve_process([str(venv / "bin" / "writegate"), "serve", "--port", "0"], cwd=empty, env=env) as served:
        assert served.model.resolve() == (site / "writegate" / "models" / "default").resolve()
        target = f"127.0.0.1:{served.port}"
        assert health(target) == "SERVING"
        from writegate.client import Client

        with Client(target, timeout=30) as client:
            info = client.model_info()
        meta = json.loads((ROOT / MODEL / "writegate.json").read_text(encoding="utf-8"))
        assert (info.name, info.version) == (meta["name"], meta["version"])
        assert served.stop() == 0, served.stderr()
    assert "Traceback" not in served.stderr()
    assert list(empty.iterdir()) == []  # serving writes nothing into its working folder
