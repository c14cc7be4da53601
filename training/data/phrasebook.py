"""The generator's phrase data: TOML files under ``phrases/``, their loader and their content hash.

``<domain>.toml`` (work, prefs, personal, extra, more) holds one table per slot: ``kind``, ``topic``,
optional ``person_subject`` / ``free_values`` / ``max_gap_days`` and the phrasing lists of
`core.Domain`; the Python module ``dom_<domain>.py`` gives each slot its value sampler.
``generic.toml`` and ``augment.toml`` hold named lists (and tables of lists) that the grammar wraps
around any slot's text. A malformed file raises `PhraseDataError` naming the file and the key.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from writegate.training.data.core import Ctx, Domain
from writegate.training.data.pools import Pools

PHRASES_DIR = Path(__file__).parent / "phrases"
LIST_FIELDS: tuple[str, ...] = ("state", "change", "stop", "neg", "elab", "general", "negre", "also")
KINDS: tuple[str, ...] = ("single", "multi", "immutable")
_SLOT_KEYS = frozenset({"kind", "topic", "person_subject", "free_values", "max_gap_days", *LIST_FIELDS})
_TOKEN = re.compile(r"\{\w+\}|\[[a-z']+\]")


class PhraseDataError(ValueError):
    """A phrase file that cannot be read or does not have the expected shape."""

    def __init__(self, path: Path, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        super().__init__(f"{path}: {key}: {problem}" if key else f"{path}: {problem}")


def read(name: str, directory: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Parse ``<directory>/<name>.toml``.

    Args:
        name: the file's stem ("prefs", "generic"…).
        directory: where the phrase files are (default: the package's ``phrases/``).

    Returns:
        The file's path and its parsed content.

    Raises:
        PhraseDataError: the file is missing or is not valid TOML.
    """
    path = (directory or PHRASES_DIR) / f"{name}.toml"
    try:
        with path.open("rb") as fh:
            return path, tomllib.load(fh)
    except FileNotFoundError:
        raise PhraseDataError(path, "", "no such phrase file") from None
    except tomllib.TOMLDecodeError as exc:
        raise PhraseDataError(path, "", f"not valid TOML: {exc}") from None


def strings(path: Path, key: str, value: object) -> tuple[str, ...]:
    """Check one phrasing list: a non-empty list of distinct, non-blank strings with well-formed tokens.

    Args:
        path: the file the list comes from (for the error message).
        key: the list's key in that file (for the error message).
        value: the parsed value.

    Returns:
        The list as a tuple.

    Raises:
        PhraseDataError: the value is not such a list.
    """
    if not isinstance(value, list) or not value:
        raise PhraseDataError(path, key, "must be a non-empty list of strings")
    seen: set[str] = set()
    for i, item in enumerate(value, start=1):
        if not isinstance(item, str) or not item.strip():
            raise PhraseDataError(path, key, f"item {i} must be a non-blank string, got {item!r}")
        if any(ch in _TOKEN.sub("", item) for ch in "{}[]"):
            raise PhraseDataError(path, key, f"item {i} {item!r}: a brace or bracket outside a {{key}} or [verb] token")
        if item in seen:
            raise PhraseDataError(path, key, f"item {i} {item!r} is listed twice")
        seen.add(item)
    return tuple(value)


class PhraseLists(Mapping[str, tuple[str, ...]]):
    """The named lists of one file (``generic.toml``, ``augment.toml``), checked on load.

    Top-level values are phrasing lists; a table holds more lists (read with `table`). Asking for a
    key the file does not have raises `PhraseDataError`.
    """

    def __init__(self, name: str, directory: Path | None = None) -> None:
        self.path, data = read(name, directory)
        self._lists: dict[str, tuple[str, ...]] = {}
        self._tables: dict[str, dict[str, tuple[str, ...]]] = {}
        for key, value in data.items():
            if isinstance(value, dict):
                self._tables[key] = {k: strings(self.path, f"{key}.{k}", v) for k, v in value.items()}
            else:
                self._lists[key] = strings(self.path, key, value)

    def __getitem__(self, key: str) -> tuple[str, ...]:
        if key not in self._lists:
            raise PhraseDataError(self.path, key, "missing (a list of strings is expected)")
        return self._lists[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lists)

    def __len__(self) -> int:
        return len(self._lists)

    def table(self, key: str) -> dict[str, tuple[str, ...]]:
        """The lists of the table `key` (``[key]`` in the file), by their keys."""
        if key not in self._tables:
            raise PhraseDataError(self.path, key, "missing (a table of lists is expected)")
        return self._tables[key]


def _slot(path: Path, slot: str, spec: object, sample: Callable[[Pools], Ctx]) -> Domain:
    if not isinstance(spec, dict):
        raise PhraseDataError(path, slot, "must be a table (a [slot] header)")
    unknown = sorted(set(spec) - _SLOT_KEYS)
    if unknown:
        raise PhraseDataError(path, f"{slot}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(_SLOT_KEYS))})")
    if spec.get("kind") not in KINDS:
        raise PhraseDataError(path, f"{slot}.kind", f"must be one of {', '.join(KINDS)}, got {spec.get('kind')!r}")
    if "state" not in spec:
        raise PhraseDataError(path, f"{slot}.state", "missing (every slot needs state phrasings)")
    topic = spec.get("topic", slot)
    if not isinstance(topic, str) or not topic:
        raise PhraseDataError(path, f"{slot}.topic", f"must be a non-empty string, got {topic!r}")
    flags: dict[str, bool] = {}
    for flag, default in (("person_subject", True), ("free_values", False)):
        flags[flag] = spec.get(flag, default)
        if not isinstance(flags[flag], bool):
            raise PhraseDataError(path, f"{slot}.{flag}", f"must be true or false, got {flags[flag]!r}")
    gap = spec.get("max_gap_days")
    if gap is not None and (isinstance(gap, bool) or not isinstance(gap, int) or gap < 1):
        raise PhraseDataError(path, f"{slot}.max_gap_days", f"must be a positive integer, got {gap!r}")
    lists = {f: strings(path, f"{slot}.{f}", spec[f]) for f in LIST_FIELDS if f in spec}
    options: dict[str, Any] = {**flags, **lists}
    return Domain(slot=slot, kind=spec["kind"], sample=sample, topic=topic, max_gap_days=gap, **options)


def domains(
    name: str, samplers: Mapping[str, Callable[[Pools], Ctx]], directory: Path | None = None
) -> tuple[Domain, ...]:
    """The slot domains of one domain file, in file order.

    Args:
        name: the file's stem ("work", "prefs", "personal", "extra", "more").
        samplers: each slot's value sampler; the file must have exactly these slots.
        directory: where the phrase files are (default: the package's ``phrases/``).

    Returns:
        One `Domain` per slot table.

    Raises:
        PhraseDataError: the file is malformed or its slots do not match `samplers`.
    """
    path, data = read(name, directory)
    for slot in samplers:
        if slot not in data:
            raise PhraseDataError(path, slot, "missing: the Python module has a sampler for this slot")
    for slot in data:
        if slot not in samplers:
            raise PhraseDataError(path, slot, f"no sampler for this slot (known: {', '.join(samplers)})")
    return tuple(_slot(path, slot, spec, samplers[slot]) for slot, spec in data.items())


def phrases_sha256(directory: Path | None = None) -> str:
    """sha256 of the parsed content of every phrase file (comments and layout do not count).

    Args:
        directory: where the phrase files are (default: the package's ``phrases/``).

    Returns:
        Hex digest over each file's name and its content as canonical JSON.
    """
    h = hashlib.sha256()
    for path in sorted((directory or PHRASES_DIR).glob("*.toml")):
        _, data = read(path.stem, path.parent)
        h.update(path.name.encode() + b"\0")
        h.update(json.dumps(data, sort_keys=True, ensure_ascii=False).encode() + b"\0")
    return h.hexdigest()
