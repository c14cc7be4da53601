"""Several sources in one `writegate eval` run (per-source table, mean, paired bootstrap) and `--errors N`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import cli

from writegate.classifier.labels import LABEL2ID
from writegate.cli.main import main
from writegate.errors import InputError
from writegate.training.breakdown import confident_errors
from writegate.training.datafile import Example, parse_example
from writegate.training.metrics import macro_f1, macro_f1_score, report
from writegate.training.paired import compare_sources
from writegate.training.sources import (
    SourceScore,
    harm_counts,
    mean_score,
    score_source,
    source_paths,
    stacked_confusion,
)

UNR, COR, ELA, CON, SUP = (
    LABEL2ID[x] for x in ("unrelated", "corroborates", "elaborates", "contradicts", "supersedes")
)

PAIRS = {  # label → (existing, new, new date): short texts the guards let through
    "supersedes": ("Michelle owns the Acme account", "Acme was handed off to Marcus in June", "2026-06-20"),
    "contradicts": ("Michelle owns the Acme account", "Marcus owns the Acme account, per the CRM export", "2026-03-01"),
    "elaborates": ("Priya prefers morning meetings", "Priya prefers meetings 9-10am on Tuesdays", "2026-04-01"),
    "corroborates": ("Tom prefers meetings 9-10am", "Tom likes to meet in the morning", "2026-04-01"),
    "unrelated": ("Ana prefers concise answers", "Omar's dog is named Biscuit", "2026-03-02"),
}


def _row(i: int, label: str, existing_date: str = "2026-03-01") -> dict[str, object]:
    e, n, date = PAIRS[label]
    return {
        "id": f"p{i}",
        "existing": {"text": e, "observed_at": existing_date},
        "new": {"text": n, "observed_at": date},
        "label": label,
    }


@pytest.fixture
def stats() -> None:
    """scikit-learn and scipy compute the metrics (the `train` extra): the test is skipped without them."""
    pytest.importorskip("sklearn", reason="the metrics need scikit-learn (the `train` extra)")
    pytest.importorskip("scipy", reason="McNemar's test needs scipy (the `train` extra)")


needs_stats = pytest.mark.usefixtures("stats")


def _write(path: Path, labels: list[str]) -> Path:
    path.write_text("".join(json.dumps(_row(i, lab)) + "\n" for i, lab in enumerate(labels)), encoding="utf-8")
    return path


# -- per-source macro-F1 and conflict slice (pure) --------------------------------------------------
@needs_stats
@pytest.mark.parametrize(
    ("gold", "pred", "labels", "f1", "conflict"),
    [
        # sup F1 2·1/(2+1), unr F1 1; the predicted `contradicts` is not a gold label: not averaged
        ([SUP, SUP, UNR, UNR], [SUP, CON, UNR, UNR], {"unrelated": 2, "supersedes": 2}, (2 / 3 + 1) / 2, 0.5),
        ([SUP, SUP, SUP], [SUP, SUP, SUP], {"supersedes": 3}, 1.0, 1.0),
        ([COR, COR, UNR], [COR, UNR, UNR], {"unrelated": 1, "corroborates": 2}, 2 / 3, None),
        ([SUP, SUP], [CON, CON], {"supersedes": 2}, 0.0, 0.0),
        ([ELA, ELA, ELA, ELA], [ELA, ELA, ELA, SUP], {"elaborates": 4}, 6 / 7, None),
    ],
    ids=["sup-unr-only", "perfect", "no-conflict-pairs", "all-wrong", "false-positive-outside-gold"],
)
def test_score_source(
    gold: list[int], pred: list[int], labels: dict[str, int], f1: float, conflict: float | None
) -> None:
    s = score_source("src", gold, pred)
    assert s.pairs == len(gold) and s.labels == labels
    assert s.macro_f1 == pytest.approx(f1)
    assert s.conflict_accuracy == (None if conflict is None else pytest.approx(conflict))
    assert s.conflict_pairs == sum(g in (SUP, CON) for g in gold)


@needs_stats
def test_source_macro_f1_differs_from_the_pooled_definition() -> None:
    gold, pred = [SUP, SUP, UNR, UNR], [SUP, CON, UNR, UNR]
    assert report(gold, pred).macro_f1 == pytest.approx((2 / 3 + 1 + 0) / 3)  # also counts the predicted `con`
    assert score_source("s", gold, pred).macro_f1 == pytest.approx((2 / 3 + 1) / 2)


@needs_stats
def test_report_of_no_pairs() -> None:
    rep = report([], [])
    assert (rep.n, rep.accuracy, rep.macro_f1, rep.conflict.n, rep.conflict.accuracy) == (0, 0.0, 0.0, 0, 0.0)
    assert rep.confusion == [[0] * 5] * 5 and all(s.f1 == 0.0 and s.support == 0 for s in rep.per_label.values())


@needs_stats
@pytest.mark.parametrize("gold_only", [True, False], ids=["gold-labels", "gold-or-predicted-labels"])
def test_the_bootstrap_statistic_is_sklearns_macro_f1(gold_only: bool) -> None:
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(3)
    gold, pred = rng.integers(0, 5, size=(7, 30)), rng.integers(0, 5, size=(7, 30))
    gold[0], gold[1] = SUP, rng.integers(0, 2, 30)  # one gold label; labels predicted that gold never holds
    stack = stacked_confusion(gold, pred)  # the resamples' confusion matrices at once
    assert [m.tolist() for m in stack] == [
        confusion_matrix(g, p, labels=range(5)).tolist() for g, p in zip(gold, pred, strict=True)
    ]
    one_by_one = [macro_f1_score(g, p, gold_only=gold_only) for g, p in zip(gold, pred, strict=True)]
    assert macro_f1(stack, gold_only=gold_only).tolist() == pytest.approx(one_by_one, abs=1e-12)
    assert len(set(one_by_one)) == len(one_by_one)  # seven different draws
    assert float(macro_f1(np.zeros((5, 5), dtype=int), gold_only=gold_only)) == 0.0


def test_score_source_rejects_mismatched_lengths() -> None:
    with pytest.raises(InputError, match="predicted: has 1 labels for 2 pairs"):
        score_source("s", [SUP, UNR], [SUP])


def _score(name: str, f1: float, conflict: float | None, pairs: int = 10) -> SourceScore:
    return SourceScore(
        name=name,
        pairs=pairs,
        labels={"unrelated": pairs},
        macro_f1=f1,
        conflict_pairs=0 if conflict is None else 1,
        conflict_accuracy=conflict,
    )


@pytest.mark.parametrize(
    ("scores", "f1", "conflict", "conflict_sources"),
    [
        ([_score("a", 0.9, 0.5), _score("b", 0.6, None), _score("c", 0.3, 0.0)], 0.6, 0.25, 2),
        ([_score("a", 0.8, None), _score("b", 0.4, None)], 0.6, None, 0),
        ([_score("a", 0.7, 1.0, pairs=1000), _score("b", 0.1, 0.0, pairs=10)], 0.4, 0.5, 2),
    ],
    ids=["conflict-over-two-of-three", "no-conflict-anywhere", "unweighted-by-size"],
)
def test_mean_score(scores: list[SourceScore], f1: float, conflict: float | None, conflict_sources: int) -> None:
    m = mean_score(scores)
    assert m.sources == len(scores) and m.pairs == sum(s.pairs for s in scores)
    assert m.macro_f1 == pytest.approx(f1) and m.conflict_sources == conflict_sources
    assert m.conflict_accuracy == (None if conflict is None else pytest.approx(conflict))


def test_mean_score_of_nothing() -> None:
    with pytest.raises(InputError, match="sources: no source to average"):
        mean_score([])


# -- paired bootstrap over sources (pure) -----------------------------------------------------------
@needs_stats
def test_compare_sources_resamples_within_each_source() -> None:
    # `a` has one pair: a pooled bootstrap would often leave it out, a per-source one always keeps it
    cmp = compare_sources(
        ["a", "b"],
        gold=[[SUP], [UNR, UNR, COR, COR]],
        model=[[SUP], [UNR, COR, COR, COR]],
        baseline=[[CON], [UNR, COR, COR, COR]],
        resamples=300,
    )
    a, b = cmp.sources
    assert (a.name, a.pairs, b.name, b.pairs, cmp.n) == ("a", 1, "b", 4, 5)
    assert (a.macro_f1.model, a.macro_f1.baseline, a.macro_f1.low, a.macro_f1.high) == (1.0, 0.0, 1.0, 1.0)
    assert a.conflict_accuracy is not None and (a.conflict_accuracy.delta, a.conflict_accuracy.low) == (1.0, 1.0)
    f1_b = (2 * 1 / 3 + 2 * 2 / 5) / 2  # unr: 1 of 2 found, predicted once; cor: 2 of 2, predicted 3 times
    assert b.macro_f1.model == pytest.approx(f1_b) and (b.macro_f1.delta, b.macro_f1.low, b.macro_f1.high) == (0, 0, 0)
    assert b.conflict_accuracy is None
    m = cmp.mean_macro_f1
    assert m.model == pytest.approx((1 + f1_b) / 2) and m.baseline == pytest.approx(f1_b / 2)
    assert (m.delta, m.low, m.high) == (pytest.approx(0.5), pytest.approx(0.5), pytest.approx(0.5))
    mc = cmp.mean_conflict_accuracy  # over `a` only: `b` has no conflict pair
    assert mc is not None and (mc.model, mc.baseline, mc.low, mc.high) == (1.0, 0.0, 1.0, 1.0)
    assert (cmp.model_only_right, cmp.baseline_only_right, cmp.mcnemar_p, cmp.significant) == (1, 0, 1.0, True)


@needs_stats
def test_compare_sources_identical_models() -> None:
    gold, pred = [[SUP, CON, UNR, ELA], [COR, UNR]], [[SUP, SUP, UNR, COR], [COR, COR]]
    cmp = compare_sources(["a", "b"], gold, pred, pred, resamples=200)
    for iv in [cmp.mean_macro_f1, *(s.macro_f1 for s in cmp.sources)]:
        assert (iv.delta, iv.low, iv.high) == (0, 0, 0)
    assert cmp.mean_macro_f1.model == pytest.approx(
        (score_source("a", gold[0], pred[0]).macro_f1 + score_source("b", gold[1], pred[1]).macro_f1) / 2
    )
    assert (cmp.model_only_right, cmp.baseline_only_right, cmp.mcnemar_p, cmp.significant) == (0, 0, 1.0, False)


@needs_stats
def test_compare_sources_is_deterministic_per_seed() -> None:
    rng = np.random.default_rng(0)
    gold = [rng.integers(0, 5, 40).tolist(), rng.integers(0, 5, 25).tolist()]
    model = [rng.integers(0, 5, 40).tolist(), rng.integers(0, 5, 25).tolist()]
    base = [rng.integers(0, 5, 40).tolist(), rng.integers(0, 5, 25).tolist()]
    first, again = (compare_sources(["a", "b"], gold, model, base, resamples=100, seed=1) for _ in range(2))
    other = compare_sources(["a", "b"], gold, model, base, resamples=100, seed=2)
    assert first == again and first.mean_macro_f1.low != other.mean_macro_f1.low
    assert first.mean_macro_f1.low <= first.mean_macro_f1.high


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"names": ["a"], "gold": [[SUP]], "model": [[SUP]], "baseline": [[SUP], [UNR]]},
            "sources: need one name, gold and two predictions per source, got 1, 1, 1 and 2",
        ),
        (
            {"names": ["a"], "gold": [[SUP, UNR]], "model": [[SUP]], "baseline": [[SUP, UNR]]},
            "sources.a: need one prediction per gold label, got 2, 1 and 2",
        ),
        ({"names": ["a"], "gold": [[]], "model": [[]], "baseline": [[]]}, "sources.a: no pairs to compare"),
        ({"names": [], "gold": [], "model": [], "baseline": []}, "sources: no source to compare"),
        (
            {"names": ["a"], "gold": [[SUP]], "model": [[SUP]], "baseline": [[SUP]], "resamples": 0},
            "resamples: must be at least 1, got 0",
        ),
    ],
    ids=["source-count", "pair-count", "empty-source", "no-source", "resamples"],
)
def test_compare_sources_bad_input(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InputError) as info:
        compare_sources(**kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message


# -- sources from --data ------------------------------------------------------------------------------
@pytest.fixture
def real_dir(tmp_path: Path) -> Path:
    """A builder-like directory: two dev files, a train file and a summary that are not sources."""
    d = tmp_path / "real"
    d.mkdir()
    _write(d / "beta.dev.jsonl", ["corroborates", "elaborates", "corroborates", "unrelated"])
    _write(d / "alpha.dev.jsonl", ["supersedes", "unrelated", "supersedes", "unrelated", "unrelated"])
    _write(d / "alpha.train.jsonl", ["supersedes"])
    (d / "summary.json").write_text("{}", encoding="utf-8")
    return d


def test_source_paths_names_and_order(real_dir: Path, tmp_path: Path) -> None:
    plain = _write(tmp_path / "pairs.jsonl", ["contradicts"])
    dev_file = _write(tmp_path / "gamma.dev.jsonl", ["contradicts"])
    assert source_paths([plain, real_dir, dev_file]) == [
        ("pairs", plain),
        ("alpha", real_dir / "alpha.dev.jsonl"),
        ("beta", real_dir / "beta.dev.jsonl"),
        ("gamma.dev", dev_file),  # a file given by name keeps its whole stem
    ]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("empty-dir", "--data: {d} is a directory with no *.dev.jsonl file"),
        ("missing", "--data: {d}/nope.jsonl does not exist"),
        ("same-name-twice", "--data: two sources named 'x': {d}/x.dev.jsonl and {d}/x.jsonl"),
        ("nothing", "--data: name at least one file or directory"),
    ],
    ids=["empty-dir", "missing", "same-name-twice", "nothing"],
)
def test_source_paths_bad(layout: str, message: str, tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "x.train.jsonl").write_text("", encoding="utf-8")
    data = {
        "empty-dir": [d],
        "missing": [d / "nope.jsonl"],
        "nothing": [],
        "same-name-twice": [d, _write(d / "x.jsonl", ["unrelated"])],
    }
    if layout == "same-name-twice":
        _write(d / "x.dev.jsonl", ["unrelated"])
    with pytest.raises(InputError) as info:
        source_paths(data[layout])
    assert str(info.value) == message.format(d=d)


# -- most confident mistakes (pure) -------------------------------------------------------------------
def _examples() -> list[Example]:
    labels = ["supersedes", "supersedes", "supersedes", "unrelated", "unrelated", "corroborates", "supersedes"]
    rows = [_row(i, lab) for i, lab in enumerate(labels)]
    rows[1]["existing"] = {"text": PAIRS["supersedes"][0], "observed_at": "0987-03-04T23:30:00+00:00"}
    return [parse_example(r, i + 1) for i, r in enumerate(rows)]


def test_confident_errors() -> None:
    predicted = ["contradicts", "contradicts", "contradicts", "corroborates", "unrelated", "elaborates", "contradicts"]
    prob = [0.6, 0.9, 0.7, 0.95, 0.99, 0.95, 0.7]
    sources = ["s1", "s2", "s1", "s1", "s2", "s2", "s2"]
    cells = confident_errors(_examples(), predicted, prob, 2, sources)
    # most mistakes first; the two one-mistake cells tie on probability, so gold label order decides
    assert [(c.gold, c.predicted, c.count) for c in cells] == [
        ("supersedes", "contradicts", 4),
        ("unrelated", "corroborates", 1),
        ("corroborates", "elaborates", 1),
    ]
    top = cells[0].mistakes
    assert [(m.id, m.probability, m.source) for m in top] == [("p1", 0.9, "s2"), ("p2", 0.7, "s1")]  # tie: input order
    assert (top[0].existing.date, top[0].new.date) == ("0987-03-04", "2026-06-20")
    assert (top[0].existing.text, top[0].new.text) == PAIRS["supersedes"][:2]
    assert confident_errors(_examples(), predicted, prob, 1)[0].mistakes[0].source is None


def test_confident_errors_none_wrong() -> None:
    exs = _examples()
    assert confident_errors(exs, [e.label.value for e in exs], [0.5] * len(exs), 3) == []


def test_confident_errors_rejects_mismatched_lengths() -> None:
    with pytest.raises(
        InputError,
        match="need one label, probability and source per pair: 7 pairs, 7 labels, 6 probabilities, 7 sources",
    ):
        confident_errors(_examples(), ["unrelated"] * 7, [0.5] * 6, 1)


def test_render_errors_prints_texts_verbatim() -> None:
    from io import StringIO

    from rich.console import Console

    from writegate.training.breakdown import CellErrors, Mistake, MistakeSide, render_errors

    side = MistakeSide(text="[bold]Acme[/bold] moved", date="2026-01-02")
    cell = CellErrors(
        gold="supersedes",
        predicted="contradicts",
        count=3,
        mistakes=[Mistake(source="s[1]", id="p9", probability=0.875, existing=side, new=side)],
    )
    out = StringIO()
    render_errors([cell], 1, Console(file=out, width=200))
    text = out.getvalue()
    assert "supersedes → contradicts: 1 of 3" in text and "2026-01-02  [bold]Acme[/bold] moved" in text
    assert "s[1]" in text and "0.875" in text and "(3 mistakes in 1 cells)" in text


@pytest.mark.parametrize("n", [0, -2], ids=["zero", "negative"])
def test_confident_errors_needs_n_of_at_least_one(n: int) -> None:
    with pytest.raises(InputError) as info:
        confident_errors(_examples(), ["unrelated"] * 7, [0.5] * 7, n)
    assert str(info.value) == f"--errors: must be at least 1, got {n}"


# -- the CLI on the tiny model ------------------------------------------------------------------------
def _flat(text: str) -> str:
    return " ".join(text.split())  # rich wraps at the console width


@needs_stats
def test_eval_cli_several_sources(
    tiny_model_dir: Path, real_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gamma = _write(tmp_path / "gamma.jsonl", ["contradicts", "supersedes", "unrelated"])
    js = tmp_path / "r.json"
    assert cli("eval", data=[real_dir, gamma], model=tiny_model_dir, errors=1, json=js) == 0
    text = _flat(capsys.readouterr().out)
    assert "3 sources, 12 pairs" in text and "confusion matrix" not in text
    out = json.loads(js.read_text())
    assert [s["name"] for s in out["sources"]] == ["alpha", "beta", "gamma"]
    assert [s["labels"] for s in out["sources"]] == [
        {"unrelated": 3, "supersedes": 2},
        {"unrelated": 1, "corroborates": 2, "elaborates": 1},
        {"unrelated": 1, "contradicts": 1, "supersedes": 1},
    ]
    golds = [
        [LABEL2ID[lab] for lab in labels]
        for labels in (
            ["supersedes", "unrelated", "supersedes", "unrelated", "unrelated"],
            ["corroborates", "elaborates", "corroborates", "unrelated"],
            ["contradicts", "supersedes", "unrelated"],
        )
    ]
    preds = [[LABEL2ID[p] for p in s["evaluation"]["predicted"]] for s in out["sources"]]
    expected = [score_source(s["name"], g, p) for s, g, p in zip(out["sources"], golds, preds, strict=True)]
    assert [{k: s[k] for k in expected[0].model_dump()} for s in out["sources"]] == [e.model_dump() for e in expected]
    assert out["sources"][1]["conflict_accuracy"] is None
    assert out["mean"] == mean_score(expected).model_dump() and out["mean"]["conflict_sources"] == 2
    wrong = sum(g != p for gs, ps in zip(golds, preds, strict=True) for g, p in zip(gs, ps, strict=True))
    assert sum(c["count"] for c in out["errors"]) == wrong
    assert all(
        len(c["mistakes"]) == 1 and c["mistakes"][0]["source"] in ("alpha", "beta", "gamma") for c in out["errors"]
    )
    assert "comparison" not in out
    for s in out["sources"]:  # one table row per source, in order
        conflict = "—" if s["conflict_accuracy"] is None else f"{s['conflict_accuracy']:.3f}"
        labels = " ".join(f"{k[:3]} {v}" for k, v in s["labels"].items())
        assert f"{s['name']} {s['pairs']} {labels} {s['macro_f1']:.3f} {conflict}" in text
    mean = out["mean"]
    fir, prec = mean["false_invalidation_rate"], mean["retiring_precision"]
    harm = " ".join("—" if x is None else f"{x:.3f}" for x in (fir, prec))
    assert f"mean of 3 12 {mean['macro_f1']:.3f} {mean['conflict_accuracy']:.3f} {harm}" in text and "of 2" in text


@needs_stats
def test_eval_cli_several_sources_with_a_baseline(
    tiny_model_dir: Path, real_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    js = tmp_path / "r.json"
    assert cli("eval", data=real_dir, model=tiny_model_dir, baseline=tiny_model_dir, resamples=50, json=js) == 0
    text = _flat(capsys.readouterr().out)
    assert "Δ = model − baseline, 95% bootstrap interval below it" in text
    assert "mean macro-F1 Δ +0.0000 [+0.0000, +0.0000]" in text
    assert "not told apart from noise" in text
    cmp = json.loads(js.read_text())["comparison"]
    assert [s["name"] for s in cmp["sources"]] == ["alpha", "beta"] and cmp["resamples"] == 50
    assert [s["macro_f1"]["delta"] for s in cmp["sources"]] == [0, 0] and cmp["mean_macro_f1"]["delta"] == 0


@needs_stats
def test_eval_cli_one_file_keeps_todays_report(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _write(tmp_path / "pairs.jsonl", ["supersedes", "contradicts", "unrelated", "elaborates", "corroborates"])
    js = tmp_path / "r.json"
    assert main(["eval", "--data", str(data), "--model", str(tiny_model_dir), "--errors", "2", "--json", str(js)]) == 0
    text = _flat(capsys.readouterr().out)
    assert "pairs: 5 pairs" in text and "confusion matrix" in text and "mean of" not in text
    out = json.loads(js.read_text())
    assert out["name"] == "pairs" and out["model_only"]["n"] == 5 and "sources" not in out
    wrong = sum(
        g != p
        for g, p in zip(
            ("supersedes", "contradicts", "unrelated", "elaborates", "corroborates"), out["predicted"], strict=True
        )
    )
    assert sum(c["count"] for c in out["errors"]) == wrong
    assert all(m["source"] is None for c in out["errors"] for m in c["mistakes"])
    assert ("most confident mistakes: up to 2 per gold → predicted cell" if wrong else "no mistakes") in text


@needs_stats
def test_eval_cli_a_directory_with_one_source_is_a_single_source(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "one"
    d.mkdir()
    _write(d / "solo.dev.jsonl", ["supersedes", "unrelated"])
    assert main(["eval", "--data", str(d), "--model", str(tiny_model_dir)]) == 0
    assert "solo: 2 pairs" in _flat(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--errors", "0"], "--errors: must be at least 1, got 0"),
        (["--errors", "-1"], "--errors: must be at least 1, got -1"),
        (["--data", "{tmp}/empty"], "--data: {tmp}/empty is a directory with no *.dev.jsonl file"),
    ],
    ids=["errors-zero", "errors-negative", "dir-without-dev-files"],
)
def test_eval_cli_bad_input_fails_before_loading_a_model(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    data = _write(tmp_path / "d.jsonl", ["unrelated"])
    argv = ["eval", "--data", str(data), "--model", str(tmp_path / "absent")] + [x.format(tmp=tmp_path) for x in extra]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert f"writegate eval: error: {message.format(tmp=tmp_path)}" in captured.err and captured.out == ""


# -- harm: the false invalidation rate and the retiring labels' precision -----------------------------

U, COR, ELA, CON, SUP = (LABEL2ID[x] for x in ("unrelated", "corroborates", "elaborates", "contradicts", "supersedes"))


@needs_stats
def test_harm_counts_and_rates() -> None:
    gold = [U, COR, ELA, ELA, CON, SUP, SUP]
    pred = [SUP, COR, CON, ELA, CON, CON, SUP]
    assert harm_counts(gold, pred) == (4, 2, 5, 2)  # 4 safe, 2 of them retired; 5 retiring predictions, 2 right
    score = score_source("s", gold, pred)
    assert (score.false_invalidation_rate, score.retiring_precision) == (0.5, 0.4)
    dumped = score.model_dump()
    assert dumped["false_invalidation_rate"] == 0.5 and dumped["retiring_precision"] == 0.4
    none = score_source("t", [SUP, CON], [U, U])
    assert none.false_invalidation_rate is None and none.retiring_precision is None
    other = score_source("u", [U, U, U, U], [U, U, U, SUP])
    mean = mean_score([score, other])
    assert mean.false_invalidation_rate == 3 / 8 and mean.retiring_precision == 2 / 6  # pooled, not averaged


@needs_stats
def test_compare_sources_harm_intervals() -> None:
    gold = [[U] * 50 + [SUP] * 50, [COR] * 40 + [CON] * 10]
    better = [[U] * 50 + [SUP] * 50, [COR] * 40 + [CON] * 10]
    worse = [[SUP] * 10 + [U] * 40 + [SUP] * 50, [CON] * 8 + [COR] * 32 + [CON] * 10]
    cmp = compare_sources(["a", "b"], gold, better, worse, resamples=500)
    fir = cmp.false_invalidation_rate
    assert fir is not None and (fir.model, fir.baseline) == (0.0, 18 / 90) and fir.high < 0
    prec = cmp.retiring_precision
    assert prec is not None and prec.model == 1.0 and prec.baseline == 60 / 78 and prec.low > 0
    a = cmp.sources[0].false_invalidation_rate
    assert a is not None and a.baseline == 0.2 and a.delta == -0.2
    same = compare_sources(["a", "b"], gold, better, better, resamples=50)
    assert (
        same.false_invalidation_rate is not None
        and same.false_invalidation_rate.low == 0.0 == same.false_invalidation_rate.high
    )
