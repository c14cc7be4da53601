"""`writegate eval`: per-label P/R/F1, macro-F1, confusion matrix, conflict slice, model-only vs fused;
with `--baseline`, a paired comparison with another model on the same pairs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DEFAULT_MODEL = "models/default"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's flags."""
    p.add_argument("--data", required=True, metavar="FILE.jsonl", help="labelled pairs (the training format)")
    p.add_argument("--model", default=DEFAULT_MODEL, help=f"model directory (default {DEFAULT_MODEL})")
    p.add_argument("--backend", default="onnx", choices=["onnx", "torch"], help="inference backend (default onnx)")
    p.add_argument("--precision", default=None, help="onnx: int8 (default) | fp32; torch: fp32 | bf16 | fp16")
    p.add_argument("--plot", metavar="OUT.png", help="write a confusion-matrix PNG")
    p.add_argument("--no-fusion", action="store_true", help="report the model-only predictions as the headline")
    p.add_argument("--json", metavar="OUT.json", help="also write the full report as JSON")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--baseline", metavar="DIR", help="also run this model (same backend) and compare the two on the "
                   "same pairs: macro-F1 and conflict-slice differences with bootstrap intervals, McNemar's test")
    p.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples for --baseline (default 2000)")
    from writegate.training.breakdown import GROUP_BYS

    p.add_argument("--by", action="append", choices=GROUP_BYS, default=[],
                   help="also print the groups of pairs with the most errors (repeatable): template family, "
                        "construction (the family without its slot, e.g. supersedes.stop) or slot")
    p.add_argument("--top", type=int, default=15, help="groups shown per --by (default 15)")


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from writegate.classifier.labels import LABEL2ID
    from writegate.classifier.model import Classifier
    from writegate.normalizer.errors import InputError
    from writegate.training.breakdown import check_groupable, error_breakdown, render_breakdown
    from writegate.training.datafile import read_examples
    from writegate.training.evaluate import evaluate, plot_confusion, render, render_comparison
    from writegate.training.paired import compare_predictions

    if args.resamples < 1:
        raise InputError("--resamples", f"must be at least 1, got {args.resamples}")
    if args.top < 1:
        raise InputError("--top", f"must be at least 1, got {args.top}")

    def load(model_dir: str) -> Classifier:
        return Classifier.load(model_dir, args.backend, precision=args.precision,
                               fusion=False if args.no_fusion else None)

    examples = read_examples(args.data)
    for by in args.by:  # a --by the data cannot answer fails before any model runs
        check_groupable(examples, by)
    clf = load(args.model)
    base = load(args.baseline) if args.baseline else None  # a bad baseline dir fails before any run
    ev = evaluate(clf, examples, name=Path(args.data).stem, batch_size=args.batch_size)
    render(ev, clf.fusion)
    extra: dict[str, object] = {}
    if base is not None:
        ev_base = evaluate(base, examples, name=ev.name, batch_size=args.batch_size)
        families = [ex.family for ex in examples]
        cmp = compare_predictions([LABEL2ID[ex.label.value] for ex in examples],
                                  [LABEL2ID[x] for x in ev.predicted], [LABEL2ID[x] for x in ev_base.predicted],
                                  groups=None if None in families else families, resamples=args.resamples)
        render_comparison(cmp, args.model, args.baseline)
        extra = {"baseline": ev_base.model_dump(mode="json"), "comparison": cmp.model_dump(mode="json")}
    if args.by:
        breakdown = {by: error_breakdown(examples, ev.predicted, by) for by in dict.fromkeys(args.by)}
        for by, rows in breakdown.items():
            render_breakdown(rows, by, args.top)
        extra["breakdown"] = {by: [r.model_dump(mode="json") for r in rows] for by, rows in breakdown.items()}
    if args.plot:
        path = plot_confusion(ev.served(clf.fusion), args.plot, title=f"{ev.name} ({'fused' if clf.fusion else 'model only'})")
        print(f"wrote {path}")
    if args.json:
        Path(args.json).write_text(json.dumps({**ev.model_dump(mode="json"), **extra}, indent=2) + "\n", encoding="utf-8")
    return 0
