"""`writegate eval`: metrics of a model on labelled pairs, model-only and as served (fused with structure, guarded)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, Field

from writegate.classifier import columnar
from writegate.classifier.guard import GUARD_NONE
from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.classifier.model import Classifier
from writegate.training.calibrate import expected_calibration_error
from writegate.training.datafile import Example
from writegate.training.metrics import Report, report
from writegate.training.paired import Interval, PairedComparison, SourceDelta, SourcesComparison
from writegate.training.sources import MeanScore, SourceScore

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


class Evaluation(BaseModel):
    """Model-only and fused metrics of one model on one labelled set."""

    name: str = Field(description="What was evaluated, e.g. `test` or `dev_pairs`.")
    model_only: Report
    fused: Report
    ece: float = Field(description="Expected calibration error of the (temperature-scaled) model-only probabilities.")
    evidence: dict[str, int] = Field(
        description="Served predictions per deciding evidence (model/structure/both, or a guard)."
    )
    slot_match: int = Field(description="Pairs where both sides normalized to the same slot.")
    predicted: list[str] = Field(
        default_factory=list, description="Label per example as served (fusion per the model)."
    )
    confidence: list[float] = Field(
        default_factory=list,
        exclude=True,
        description="Served probability of each predicted label (not in the JSON report).",
    )

    def served(self, fusion: bool) -> Report:
        """The report for the chosen fusion setting."""
        return self.fused if fusion else self.model_only

    def flat(self, fusion: bool) -> dict[str, float]:
        """Flat metrics: the served setting under `<name>.`, both settings' macro-F1 and ECE too."""
        out = self.served(fusion).flat(self.name)
        out[f"{self.name}.macro_f1_model_only"] = round(self.model_only.macro_f1, 4)
        out[f"{self.name}.macro_f1_fused"] = round(self.fused.macro_f1, 4)
        out[f"{self.name}.ece"] = round(self.ece, 4)
        return out


def decode_all(
    logits: np.ndarray, prepared: columnar.PreparedWindow, temperature: float, fusion: bool, guards: bool = True
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(probabilities [n,5], predicted indices, evidence names) for logits [n, 5] of a prepared window's
    pairs, in pair order (`Classifier.logits`).

    `fusion` fuses structure as the served model does; `guards` applies the guards (content-free
    text, another subject) and marks corrections as serving always does. Model-only metrics use neither.
    """
    guard = prepared.guard if guards else np.full(prepared.size, GUARD_NONE, dtype=np.int8)
    probs, evidence = columnar.post_rows(
        logits,
        prepared.rule,
        guard,
        temperature=temperature,
        fusion=fusion,
        may_correct=prepared.may_correct if guards else None,
    )
    return probs, probs.argmax(axis=1), [columnar.EVIDENCE[i].value for i in evidence.tolist()]


def evaluate(clf: Classifier, examples: Sequence[Example], name: str = "eval", batch_size: int = 64) -> Evaluation:
    """Run `clf` on `examples` once; score model-only and fused."""
    from writegate.api.normalizing import with_records

    logits, prepared = clf.logits(with_records(ex.pair for ex in examples), batch_size=batch_size)
    return evaluate_logits(
        logits, prepared, [LABEL2ID[ex.label.value] for ex in examples], clf.temperature, name, served_fusion=clf.fusion
    )


def evaluate_logits(
    logits: np.ndarray,
    prepared: columnar.PreparedWindow,
    gold: Sequence[int],
    temperature: float,
    name: str,
    served_fusion: bool = True,
) -> Evaluation:
    """`evaluate` from precomputed logits (training reuses them)."""
    gold_arr = np.asarray(gold, dtype=np.int64)
    p_model, pred_model, _ = decode_all(logits, prepared, temperature, fusion=False, guards=False)
    p_fused, pred_fused, evidence = decode_all(logits, prepared, temperature, fusion=True)
    p_served, served, _ = (
        (p_fused, pred_fused, evidence) if served_fusion else decode_all(logits, prepared, temperature, fusion=False)
    )
    return Evaluation(
        name=name,
        model_only=report(gold_arr.tolist(), pred_model.tolist()),
        fused=report(gold_arr.tolist(), pred_fused.tolist()),
        ece=expected_calibration_error(p_model, gold_arr),
        evidence=dict(Counter(evidence)),
        slot_match=int(prepared.slot_match.sum()),
        predicted=[LABELS[i] for i in served],
        confidence=[float(p_served[j, i]) for j, i in enumerate(served)],
    )


def render(ev: Evaluation, fusion: bool, console: object | None = None) -> None:
    """Print per-label P/R/F1, the confusion matrix and the conflict slice as rich tables."""
    from rich.console import Console
    from rich.table import Table

    con: Console = console if isinstance(console, Console) else Console()
    rep = ev.served(fusion)
    mode = "fused with structure" if fusion else "model only"
    t = Table(title=f"{ev.name}: {rep.n} pairs, {mode}")
    for col in ("label", "precision", "recall", "F1", "support"):
        t.add_column(col, justify="left" if col == "label" else "right")
    for name, s in rep.per_label.items():
        t.add_row(name, f"{s.precision:.3f}", f"{s.recall:.3f}", f"{s.f1:.3f}", str(s.support))
    t.add_section()
    t.add_row("macro-F1", "", "", f"{rep.macro_f1:.3f}", str(rep.n))
    t.add_row("accuracy", "", "", f"{rep.accuracy:.3f}", "")
    con.print(t)

    cm = Table(title="confusion matrix (rows gold, columns predicted)")
    cm.add_column("gold \\ pred")
    for name in LABELS:
        cm.add_column(name[:5], justify="right")
    for name, row in zip(LABELS, rep.confusion, strict=True):
        cm.add_row(name, *(str(v) for v in row))
    con.print(cm)

    c = rep.conflict
    ct = Table(title="conflict slice (gold supersedes or contradicts)")
    for col in ("pairs", "accuracy", "detected as conflict", "told apart", "sup→con", "con→sup"):
        ct.add_column(col, justify="right")
    ct.add_row(
        str(c.n), f"{c.accuracy:.3f}", f"{c.detected:.3f}", f"{c.told_apart:.3f}", str(c.sup_as_con), str(c.con_as_sup)
    )
    con.print(ct)

    cmp = Table(title="model only vs fused")
    for col in ("", "macro-F1", "conflict acc.", "accuracy"):
        cmp.add_column(col, justify="right")
    for label, r in (("model only", ev.model_only), ("fused", ev.fused)):
        cmp.add_row(label, f"{r.macro_f1:.3f}", f"{r.conflict.accuracy:.3f}", f"{r.accuracy:.3f}")
    con.print(cmp)
    ev_counts = ", ".join(f"{k}: {v}" for k, v in sorted(ev.evidence.items()))
    con.print(f"ECE {ev.ece:.3f} · same-slot pairs {ev.slot_match} · fused evidence: {ev_counts}")


def render_comparison(cmp: PairedComparison, model: str, baseline: str, console: object | None = None) -> None:
    """Print a paired comparison of `model` against `baseline` as a rich table."""
    from rich.console import Console
    from rich.table import Table

    con: Console = console if isinstance(console, Console) else Console()
    unit = "template families" if cmp.grouped else "pairs"
    t = Table(title=f"{model} vs baseline {baseline}: {cmp.n} pairs, paired")
    for col in ("", "model", "baseline", "Δ", f"{cmp.confidence:.0%} interval of Δ"):
        t.add_column(col, justify="right")
    optional = (
        ("conflict acc.", cmp.conflict_accuracy),
        ("false inval. rate", cmp.false_invalidation_rate),
        ("retiring precision", cmp.retiring_precision),
    )
    rows = [("macro-F1", cmp.macro_f1)] + [(name, iv) for name, iv in optional if iv is not None]
    for name, iv in rows:
        t.add_row(name, f"{iv.model:.4f}", f"{iv.baseline:.4f}", f"{iv.delta:+.4f}", f"[{iv.low:+.4f}, {iv.high:+.4f}]")
    con.print(t)
    verdict = "the interval excludes 0" if cmp.significant else "the interval includes 0: not told apart from noise"
    con.print(
        f"bootstrap over {unit} ({cmp.resamples} resamples): {verdict} · only the model right: "
        f"{cmp.model_only_right}, only the baseline: {cmp.baseline_only_right}, McNemar p = {cmp.mcnemar_p:.3g}"
    )


def _num(x: float | None, fmt: str = ".3f") -> str:
    return "—" if x is None else format(x, fmt)


def _delta(iv: Interval | None, interval: bool = False) -> str:
    """`+0.012`, with `interval` also `[-0.010, +0.031]` on a second line; "—" without a comparison."""
    if iv is None:
        return "—"
    return f"{iv.delta:+.3f}" + (f"\n[{iv.low:+.3f}, {iv.high:+.3f}]" if interval else "")


def wide_enough(con: Console, renderable: RenderableType, cap: int = 1000) -> Console:
    """`con`; or, when it writes to no terminal (a pipe, a file) and is too narrow for `renderable`, a console
    on the same file as wide as `renderable`, at most `cap` columns (a table squeezed to 80 is unreadable)."""
    from rich.console import Console
    from rich.measure import Measurement

    if con.is_terminal:
        return con
    need = min(Measurement.get(con, con.options.update_width(cap), renderable).maximum, cap)
    return con if need <= con.width else Console(width=need, file=con.file, no_color=con.no_color)


def render_sources(
    scores: Sequence[SourceScore],
    mean: MeanScore,
    fusion: bool,
    cmp: SourcesComparison | None = None,
    console: object | None = None,
) -> None:
    """Print the per-source table: pairs, gold labels, macro-F1, conflict slice, and the mean over sources.

    Args:
        scores: one score per source, in the order to print.
        mean: their mean (`sources.mean_score`).
        fusion: whether the predictions were fused with structure (for the title).
        cmp: a paired comparison with a baseline on the same sources: adds the baseline's numbers,
            each delta and, under each macro-F1 delta, its bootstrap interval.
        console: a rich Console (default: a new one on stdout).
    """
    from rich.console import Console

    con: Console = console if isinstance(console, Console) else Console()
    t = _sources_table(mean, fusion, cmp)
    deltas = {d.name: d for d in cmp.sources} if cmp is not None else {}
    for s in scores:
        t.add_row(*_source_row(s, deltas.get(s.name), cmp is not None))
    t.add_section()
    t.add_row(*_mean_row(mean, cmp))
    wide_enough(con, t).print(t)
    if cmp is not None:
        verdict = "the interval excludes 0" if cmp.significant else "the interval includes 0: not told apart from noise"
        m, mc = cmp.mean_macro_f1, cmp.mean_conflict_accuracy
        conflict = f" · mean conflict-slice Δ {mc.delta:+.4f} [{mc.low:+.4f}, {mc.high:+.4f}]" if mc is not None else ""
        con.print(
            f"bootstrap over pairs within each source ({cmp.resamples} resamples): mean macro-F1 Δ "
            f"{m.delta:+.4f} [{m.low:+.4f}, {m.high:+.4f}], {verdict}{conflict} · only the model right: "
            f"{cmp.model_only_right}, only the baseline: {cmp.baseline_only_right}, McNemar p = "
            f"{cmp.mcnemar_p:.3g}",
            markup=False,
            highlight=False,
        )


def _sources_table(mean: MeanScore, fusion: bool, cmp: SourcesComparison | None) -> Any:
    """The empty per-source table: title, caption and columns (a baseline and Δ beside each figure with `cmp`)."""
    from rich import box
    from rich.table import Table

    mode = "fused with structure" if fusion else "model only"
    caption = (
        "macro-F1 over the labels each source holds; conflict: accuracy on gold supersedes/contradicts "
        "(mean over the sources that have any); FIR: false invalidation rate, the share of gold "
        "unrelated/elaborates/corroborates pairs predicted supersedes/contradicts (lower is better); "
        "ret. P: precision of the supersedes/contradicts predictions; both pooled in the last row"
    )
    if cmp is not None:
        caption += f"; Δ = model − baseline, {cmp.confidence:.0%} bootstrap interval below it"
    t = Table(title=f"{mean.sources} sources, {mean.pairs} pairs, {mode}", caption=caption, box=box.SIMPLE_HEAD)
    t.add_column("source", overflow="fold")
    t.add_column("pairs", justify="right", no_wrap=True)
    t.add_column("gold labels")
    for name in ("macro-F1", "conflict", "FIR", "ret. P"):
        t.add_column(name, justify="right", no_wrap=True)
        if cmp is not None:
            t.add_column("baseline", justify="right", no_wrap=True)
            t.add_column("Δ", justify="right", no_wrap=True)
    return t


def _source_row(s: SourceScore, d: SourceDelta | None, compared: bool) -> list[Any]:
    """One source's row; `d`: its comparison with the baseline (None: not compared, or no such source)."""
    from rich.text import Text

    labels = " ".join(f"{name[:3]} {n}" for name, n in s.labels.items())
    row: list[Any] = [Text(s.name), str(s.pairs), labels, f"{s.macro_f1:.3f}"]
    if compared:
        row += [_num(d.macro_f1.baseline if d else None), _delta(d.macro_f1 if d else None, interval=True)]
    row.append(_num(s.conflict_accuracy))
    if compared:
        c = d.conflict_accuracy if d else None
        row += [_num(c.baseline if c else None), _delta(c)]
    for value, iv in (
        (s.false_invalidation_rate, d.false_invalidation_rate if d else None),
        (s.retiring_precision, d.retiring_precision if d else None),
    ):
        row.append(_num(value))
        if compared:
            row += [_num(iv.baseline if iv else None), _delta(iv, interval=True)]
    return row


def _mean_row(mean: MeanScore, cmp: SourcesComparison | None) -> list[Any]:
    """The last row: the mean over sources (FIR and retiring precision pooled)."""
    row: list[Any] = [f"mean of {mean.sources}", str(mean.pairs), "", f"{mean.macro_f1:.3f}"]
    if cmp is not None:
        row += [_num(cmp.mean_macro_f1.baseline), _delta(cmp.mean_macro_f1, interval=True)]
    row.append(
        _num(mean.conflict_accuracy) + ("" if mean.conflict_accuracy is None else f"\nof {mean.conflict_sources}")
    )
    if cmp is not None:
        mc = cmp.mean_conflict_accuracy
        row += [_num(mc.baseline if mc else None), _delta(mc, interval=True)]
    for value, iv in (
        (mean.false_invalidation_rate, cmp.false_invalidation_rate if cmp else None),
        (mean.retiring_precision, cmp.retiring_precision if cmp else None),
    ):
        row.append(_num(value) + ("" if value is None else "\npooled"))
        if cmp is not None:
            row += [_num(iv.baseline if iv else None), _delta(iv, interval=True)]
    return row


def plot_confusion(rep: Report, path: str | Path, title: str = "confusion matrix") -> Path:
    """Write a confusion-matrix PNG (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cm = np.asarray(rep.confusion)
    fig, ax = plt.subplots(figsize=(6, 5), dpi=120)
    ax.imshow(cm, cmap="Blues")
    ax.set_xticks(range(len(LABELS)), LABELS, rotation=30, ha="right")
    ax.set_yticks(range(len(LABELS)), LABELS)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(f"{title} (macro-F1 {rep.macro_f1:.3f})")
    top = cm.max() if cm.size else 0
    for i in range(cm.shape[0]):
        for j in range(cm.shape[1]):
            ax.text(j, i, str(cm[i, j]), ha="center", va="center", color="white" if cm[i, j] > top / 2 else "black")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path
