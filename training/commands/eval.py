"""`writegate eval`: per-label P/R/F1, macro-F1, confusion matrix, conflict slice, model-only vs fused,
the false invalidation rate and the precision of the retiring labels (`training/sources.py`);
with `--baseline`, a paired comparison with another model on the same pairs; with several sources
(`--data` repeated, or a directory of `*.dev.jsonl`), a per-source table and the mean over sources;
`--errors N`, the most confident mistakes per confusion cell."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from writegate.classifier.model import Classifier
    from writegate.training.evaluate import Evaluation
    from writegate.training.sources import Source, SourceScore


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument(
        "--data",
        required=True,
        action="append",
        metavar="FILE.jsonl|DIR",
        help="labelled pairs (the training format); repeatable. A file X.jsonl is the source X; a directory "
        "gives one source per NAME.dev.jsonl in it. Several sources: a per-source table and their mean",
    )
    from writegate.classifier.modeldir import MODEL_HELP, default_model_dir

    p.add_argument("--model", default=default_model_dir(), help=MODEL_HELP)
    p.add_argument("--backend", default="onnx", choices=["onnx", "torch"], help="inference backend (default onnx)")
    p.add_argument("--precision", default=None, help="onnx: int8 (default) | fp32; torch: fp32 | bf16 | fp16")
    p.add_argument("--plot", metavar="OUT.png", help="write a confusion-matrix PNG (all sources together)")
    p.add_argument("--no-fusion", action="store_true", help="report the model-only predictions as the headline")
    p.add_argument("--json", metavar="OUT.json", help="also write the full report as JSON")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument(
        "--baseline",
        metavar="DIR",
        help="also run this model (same backend) and compare the two on the "
        "same pairs: macro-F1 and conflict-slice differences with bootstrap intervals, McNemar's test",
    )
    p.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples for --baseline (default 2000)")
    from writegate.training.breakdown import GROUP_BYS

    p.add_argument(
        "--by",
        action="append",
        choices=GROUP_BYS,
        default=[],
        help="also print the groups of pairs with the most errors (repeatable): template family, "
        "construction (the family without its slot, e.g. supersedes.stop) or slot",
    )
    p.add_argument("--top", type=int, default=15, help="groups shown per --by (default 15)")
    p.add_argument(
        "--errors",
        type=int,
        metavar="N",
        help="also print the N most confident mistakes per gold → predicted cell, with both texts and dates",
    )


def _check(args: argparse.Namespace) -> None:
    """Fail on bad numbers before any data is read."""
    from writegate.errors import InputError

    for flag, value in (("--resamples", args.resamples), ("--top", args.top), ("--errors", args.errors)):
        if value is not None and value < 1:
            raise InputError(flag, f"must be at least 1, got {value}")


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from writegate.classifier.model import Classifier
    from writegate.training.breakdown import check_groupable, error_breakdown, render_breakdown
    from writegate.training.sources import load_sources

    _check(args)

    def load(model_dir: str) -> Classifier:
        return Classifier.load(
            model_dir, args.backend, precision=args.precision, fusion=False if args.no_fusion else None
        )

    sources = load_sources(args.data)
    examples = [ex for s in sources for ex in s.examples]
    for by in args.by:  # a --by the data cannot answer fails before any model runs
        check_groupable(examples, by)
    clf = load(args.model)
    base = load(args.baseline) if args.baseline else None  # a bad baseline dir fails before any run
    evs = [_evaluate(clf, s, args.batch_size) for s in sources]
    bases = [_evaluate(base, s, args.batch_size) for s in sources] if base is not None else None
    report = (
        _one_source(args, clf, sources[0], evs[0], bases[0] if bases else None)
        if len(sources) == 1
        else _several_sources(args, clf, sources, evs, bases)
    )
    predicted = [p for ev in evs for p in ev.predicted]
    if args.errors is not None:
        from writegate.training.breakdown import confident_errors, render_errors

        names = None if len(sources) == 1 else [s.name for s in sources for _ in s.examples]
        cells = confident_errors(examples, predicted, [c for ev in evs for c in ev.confidence], args.errors, names)
        render_errors(cells, args.errors)
        report["errors"] = [c.model_dump(mode="json") for c in cells]
    if args.by:
        breakdown = {by: error_breakdown(examples, predicted, by) for by in dict.fromkeys(args.by)}
        for by, rows in breakdown.items():
            render_breakdown(rows, by, args.top)
        report["breakdown"] = {by: [r.model_dump(mode="json") for r in rows] for by, rows in breakdown.items()}
    if args.plot:
        _plot(args.plot, clf.fusion, sources, evs)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def _evaluate(clf: Classifier, source: Source, batch_size: int) -> Evaluation:
    from writegate.training.evaluate import evaluate

    return evaluate(clf, source.examples, name=source.name, batch_size=batch_size)


def _one_source(
    args: argparse.Namespace, clf: Classifier, source: Source, ev: Evaluation, ev_base: Evaluation | None
) -> dict[str, object]:
    """Today's single-file report: the full tables, and the paired comparison with `--baseline`."""
    from writegate.classifier.labels import LABEL2ID
    from writegate.training.evaluate import render, render_comparison
    from writegate.training.paired import compare_predictions
    from writegate.training.sources import score_source

    render(ev, clf.fusion)
    score = score_source(
        source.name, [LABEL2ID[ex.label.value] for ex in source.examples], [LABEL2ID[x] for x in ev.predicted]
    )
    print(harm_line(score))
    report: dict[str, object] = ev.model_dump(mode="json") | {"harm": score.model_dump(mode="json")}
    if ev_base is not None:
        families = [ex.family for ex in source.examples if ex.family is not None]
        cmp = compare_predictions(
            [LABEL2ID[ex.label.value] for ex in source.examples],
            [LABEL2ID[x] for x in ev.predicted],
            [LABEL2ID[x] for x in ev_base.predicted],
            groups=families if len(families) == len(source.examples) else None,
            resamples=args.resamples,
        )
        render_comparison(cmp, args.model, args.baseline)
        report |= {"baseline": ev_base.model_dump(mode="json"), "comparison": cmp.model_dump(mode="json")}
    return report


def harm_line(score: SourceScore) -> str:
    """One line: the false invalidation rate and the retiring labels' precision, with their counts."""
    fir, prec = score.false_invalidation_rate, score.retiring_precision
    return (
        "false invalidation rate "
        + ("—" if fir is None else f"{fir:.3f} ({score.false_invalidations} of {score.safe_pairs} safe pairs)")
        + " · supersedes/contradicts precision "
        + ("—" if prec is None else f"{prec:.3f} ({score.retiring_correct} of {score.retiring_predicted})")
    )


def _several_sources(
    args: argparse.Namespace,
    clf: Classifier,
    sources: list[Source],
    evs: list[Evaluation],
    bases: list[Evaluation] | None,
) -> dict[str, object]:
    """The per-source table, the mean over sources and, with `--baseline`, their paired comparison."""
    from writegate.classifier.labels import LABEL2ID
    from writegate.training.evaluate import render_sources
    from writegate.training.paired import compare_sources
    from writegate.training.sources import mean_score, score_source

    gold = [[LABEL2ID[ex.label.value] for ex in s.examples] for s in sources]
    pred = [[LABEL2ID[x] for x in ev.predicted] for ev in evs]
    scores = [score_source(s.name, g, p) for s, g, p in zip(sources, gold, pred, strict=True)]
    mean = mean_score(scores)
    cmp = None
    if bases is not None:
        cmp = compare_sources(
            [s.name for s in sources],
            gold,
            pred,
            [[LABEL2ID[x] for x in ev.predicted] for ev in bases],
            resamples=args.resamples,
        )
    render_sources(scores, mean, clf.fusion, cmp)
    report: dict[str, object] = {
        "sources": [
            {**sc.model_dump(mode="json"), "path": str(s.path), "evaluation": ev.model_dump(mode="json")}
            for s, sc, ev in zip(sources, scores, evs, strict=True)
        ],
        "mean": mean.model_dump(mode="json"),
    }
    if cmp is not None:
        report["comparison"] = cmp.model_dump(mode="json")
    return report


def _plot(path: str, fusion: bool, sources: list[Source], evs: list[Evaluation]) -> None:
    """The confusion matrix of all sources together (the served predictions)."""
    from writegate.classifier.labels import LABEL2ID
    from writegate.training.evaluate import plot_confusion
    from writegate.training.metrics import report

    mode = "fused" if fusion else "model only"
    if len(sources) == 1:
        rep, title = evs[0].served(fusion), f"{evs[0].name} ({mode})"
    else:
        rep = report(
            [LABEL2ID[ex.label.value] for s in sources for ex in s.examples],
            [LABEL2ID[x] for ev in evs for x in ev.predicted],
        )
        title = f"{len(sources)} sources ({mode})"
    print(f"wrote {plot_confusion(rep, path, title=title)}")
