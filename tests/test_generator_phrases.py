"""Tests for the generator's phrase data (training/data/phrases) and its loader, splits and version hash."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

import pytest

pytest.importorskip("faker", reason="the pair generator needs faker (the `train` extra)")

from writegate.training.data import (
    augment,
    build,
    dom_extra,
    dom_more,
    dom_personal,
    dom_prefs,
    dom_work,
)
from writegate.training.data import generate as gen
from writegate.training.data.core import SPLITS, partition, share, split_of
from writegate.training.data.phrasebook import (
    LIST_FIELDS,
    PHRASES_DIR,
    PhraseDataError,
    PhraseLists,
    domains,
    phrases_sha256,
)

Edit = Callable[[str], str]  # a change to a phrase file's text
DOMAIN_MODULES = {"work": dom_work, "prefs": dom_prefs, "personal": dom_personal, "extra": dom_extra, "more": dom_more}


@pytest.fixture
def phrases(tmp_path: Path) -> Path:
    """A writable copy of the shipped phrase files."""
    out = tmp_path / "phrases"
    shutil.copytree(PHRASES_DIR, out)
    return out


def _all_lists(directory: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Every split phrasing list of the phrase files, by "file:key"."""
    out: dict[str, tuple[str, ...]] = {}
    for name, mod in DOMAIN_MODULES.items():
        for d in domains(name, mod.SAMPLERS, directory):
            out.update({f"{name}:{d.slot}.{f}": getattr(d, f) for f in LIST_FIELDS if getattr(d, f)})
    for name in ("generic", "augment"):
        out.update({f"{name}:{k}": v for k, v in PhraseLists(name, directory).items()})
    return out


def _add_item(path: Path, key: str, item: str) -> None:
    """Insert `item` as the first element of the list `key` ("[table] key" or "key") in a TOML file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    table, _, name = key.rpartition(" ")
    start = lines.index(table) if table else 0
    i = next(j for j in range(start, len(lines)) if lines[j] == f"{name} = [")
    lines.insert(i + 1, f'    "{item}",')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- splits
@pytest.mark.parametrize(
    ("file", "key", "item"),
    [
        ("prefs", "[schedule] state", "{S} [keep] {mt} for {v}{day}."),
        ("work", "[ownership] change", "{v} inherited the {acct} {kind} from {old}."),
        ("generic", "stop_pre", "{old} got shelved: "),
        ("augment", "frame_pre", "Word on the street is "),
    ],
    ids=["domain-state", "domain-change", "generic", "augment"],
)
def test_adding_an_item_moves_no_other(phrases: Path, file: str, key: str, item: str) -> None:
    before = _all_lists(phrases)
    _add_item(phrases / f"{file}.toml", key, item)
    after = _all_lists(phrases)
    grown = [k for k in after if after[k] != before[k]]
    assert len(grown) == 1 and after[grown[0]] == (item, *before[grown[0]])
    for k, items in before.items():
        homes_before, homes_after = partition(items), partition(after[k])
        for s in SPLITS:
            assert set(homes_before[s]) <= set(homes_after[s]), (k, s)
    assert item in partition(after[grown[0]])[split_of(item)]


def test_no_item_has_two_home_splits() -> None:
    lists = _all_lists()
    for key, items in lists.items():
        homes = partition(items)
        assert sorted(x for s in SPLITS for x in homes[s]) == sorted(items), key
    by_text: dict[str, set[str]] = {}
    for items in lists.values():
        for x in items:
            by_text.setdefault(x, set()).add(split_of(x))
    assert all(len(v) == 1 for v in by_text.values())  # a text has one split in every list it is in


def test_splits_are_roughly_80_10_10() -> None:
    items = {x for v in _all_lists().values() for x in v}
    shares = {s: sum(split_of(x) == s for x in items) / len(items) for s in SPLITS}
    assert 0.75 <= shares["train"] <= 0.85 and 0.07 <= shares["dev"] <= 0.13 and 0.07 <= shares["test"] <= 0.13, shares


@pytest.mark.parametrize(
    ("homes", "split", "want"),
    [
        ({"train": 3, "dev": 1, "test": 1}, "dev", "dev"),
        ({"train": 3, "dev": 0, "test": 1}, "dev", "test"),
        ({"train": 3, "dev": 1, "test": 0}, "test", "dev"),
        ({"train": 3, "dev": 0, "test": 0}, "test", "all"),
        ({"train": 0, "dev": 1, "test": 1}, "train", "all"),
    ],
    ids=["own", "dev-from-test", "test-from-dev", "no-held-out-shared", "no-train-shared"],
)
def test_a_split_with_no_item_of_its_own_draws_another_share(homes: dict[str, int], split: str, want: str) -> None:
    pool: dict[str, list[str]] = {s: [] for s in SPLITS}
    i = 0
    while any(len(pool[s]) < n for s, n in homes.items()):
        x = f"phrasing {i}"
        i += 1
        if len(pool[split_of(x)]) < homes[split_of(x)]:
            pool[split_of(x)].append(x)
    items = tuple(x for s in SPLITS for x in pool[s])
    assert share(items, split) == (items if want == "all" else tuple(pool[want]))


# ---------------------------------------------------------------- loader errors
@pytest.mark.parametrize(
    ("file", "edit", "key", "problem"),
    [
        ("prefs", lambda t: t.replace("[schedule]", "[schedule", 1), "", "not valid TOML"),
        ("prefs", lambda t: t.replace('kind = "single"', 'kind = "several"', 1), "schedule.kind", "must be one of"),
        (
            "prefs",
            lambda t: t.replace('kind = "single"', 'kind = "single"\nflavour = "x"', 1),
            "schedule.flavour",
            "unknown key",
        ),
        ("prefs", lambda t: t.replace("[schedule]", "[scheduled]", 1), "schedule", "missing"),
        (
            "prefs",
            lambda t: t.replace("state = [", "state = [\n    3,", 1),
            "schedule.state",
            "item 1 must be a non-blank string",
        ),
        (
            "prefs",
            lambda t: t.replace("state = [", 'state = [\n    "{S} [prefer] {mt",', 1),
            "schedule.state",
            "brace or bracket",
        ),
        (
            "prefs",
            lambda t: t.replace("state = [", 'state = [\n    "{S} [prefer] {mt} {v}{day}.",', 1),
            "schedule.state",
            "listed twice",
        ),
        (
            "prefs",
            lambda t: t.replace('kind = "single"', 'kind = "single"\nmax_gap_days = 0', 1),
            "schedule.max_gap_days",
            "positive integer",
        ),
        (
            "generic",
            lambda t: t.replace("stop_pre = [", "stop_pre = [\n]\nstop_pre_old = [", 1),
            "stop_pre",
            "non-empty list",
        ),
        (
            "augment",
            lambda t: t.replace('"likes / like", ', '"likes", ', 1),
            "synonyms.prefers / prefer",
            "third person / first person",
        ),
    ],
    ids=[
        "toml-syntax",
        "bad-kind",
        "unknown-key",
        "slot-without-sampler",
        "non-string",
        "unbalanced-brace",
        "duplicate",
        "bad-gap",
        "empty-list",
        "synonym-form",
    ],
)
def test_a_malformed_file_names_the_file_and_key(phrases: Path, file: str, edit: Edit, key: str, problem: str) -> None:
    path = phrases / f"{file}.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(PhraseDataError) as err:
        if file in DOMAIN_MODULES:
            domains(file, DOMAIN_MODULES[file].SAMPLERS, phrases)
        elif file == "augment":
            augment.synonym_table(PhraseLists(file, phrases))
        else:
            PhraseLists(file, phrases)
    assert str(path) in str(err.value) and err.value.path == path
    assert err.value.key == key and problem in str(err.value)


def test_a_missing_list_or_file_is_named(phrases: Path) -> None:
    with pytest.raises(PhraseDataError, match=r"generic\.toml: nope: missing"):
        PhraseLists("generic", phrases)["nope"]
    with pytest.raises(PhraseDataError, match=r"absent\.toml: no such phrase file"):
        PhraseLists("absent", phrases)


# ---------------------------------------------------------------- the grammar and the shipped data
def test_every_group_has_a_family_function() -> None:
    wanted = {(label, g) for d in gen.all_domains() for label in gen.LABELS for g in build.groups(d, label)}
    assert wanted | {("*", "twin")} == set(build.FAMILIES)


def test_every_generic_list_is_used() -> None:
    used = {v for k, v in vars(build).items() if k.isupper() and isinstance(v, tuple)}
    assert all(v in used for v in PhraseLists("generic").values())


def test_phrase_files_ship_as_package_data() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["writegate.training.data"]
    files = sorted(p.relative_to(PHRASES_DIR.parent).as_posix() for p in PHRASES_DIR.glob("*.toml"))
    assert len(files) == 7 and all(any(fnmatch(f, pat) for pat in patterns) for f in files)


# ---------------------------------------------------------------- dataset versions
@pytest.mark.parametrize(
    ("edit", "changes"),
    [
        (lambda t: t.replace('"{S} [prefer] {mt} {v}{day}."', '"{S} [prefer] {mt} {v}{day}!"', 1), True),
        (lambda t: t.replace("state = [", 'state = [\n    "{S} [keep] {mt} for {v}{day}.",', 1), True),
        (lambda t: t.replace('kind = "single"', 'kind = "single"\nmax_gap_days = 9', 1), True),
        (lambda t: "# a comment\n" + t.replace("    ", "  "), False),
    ],
    ids=["phrase-edited", "phrase-added", "slot-option", "comment-and-layout"],
)
def test_the_generator_version_follows_the_phrase_data(phrases: Path, edit: Edit, changes: bool) -> None:
    before = (phrases_sha256(phrases), gen.generator_version(phrases))
    assert before == (phrases_sha256(), gen.generator_version())
    path = phrases / "prefs.toml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    after = (phrases_sha256(phrases), gen.generator_version(phrases))
    assert (after[0] != before[0], after[1] != before[1]) == (changes, changes)


def test_generation_is_deterministic_for_a_seed_and_named_by_its_version(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    ma, mb = gen.write(a, 400, 21), gen.write(b, 400, 21)
    assert ma["generator_version"] == mb["generator_version"] == gen.generator_version()
    assert ma["files"] == mb["files"]
    for s in SPLITS:
        assert (a / f"{s}.jsonl").read_bytes() == (b / f"{s}.jsonl").read_bytes()
    assert gen.write(tmp_path / "c", 400, 22)["files"] != ma["files"]
