"""The window path (classifier/columnar.py, classifier/feeder.py): the same ids, batches and labels
from `Classifier.predict`, the feeder and the batcher's batches, whatever the number of worker processes."""

from __future__ import annotations

import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from writegate.api.jsonl import json_text
from writegate.api.normalizing import with_records
from writegate.classifier import columnar, features
from writegate.classifier.backends.null import FIXED_LOGITS, NullBackend
from writegate.classifier.feeder import Feeder
from writegate.classifier.fusion import RULE_LABELS, fuse_rows
from writegate.classifier.labels import LABELS, Label
from writegate.classifier.model import Classifier, pairs_window
from writegate.classifier.types import Evidence, Pair, Side
from writegate.relabel.outputs import edge_texts, label_of
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
TEXTS = [
    "User works in EST",
    "User moved to London last month and now works in GMT",
    "Michelle owns the Acme account",
    "The Acme account was handed off to Marcus in June",
    "User prefers meetings 9-10am on Tuesdays",
    "User prefers meetings 2-4pm on Tuesdays",
    "User prefers email over phone calls",
    "ok thanks",
    "User has a dog named Biscuit " * 30,  # truncated to max_length
]


def _pairs() -> list[Pair]:
    sides = [Side(text=t, observed_at=T0 + timedelta(days=11 * i), subject="user:a") for i, t in enumerate(TEXTS)]
    other = Side(text="Bob prefers tea", observed_at=T0, subject="user:b")
    raw = [Pair(existing=sides[i], new=sides[j]) for i in range(len(sides)) for j in range(len(sides)) if i != j]
    raw += [Pair(existing=other, new=sides[0]), Pair(existing=sides[5], new=sides[4])]  # other subject; older new
    return with_records(raw)


@pytest.fixture(scope="module")
def clf(tiny_model_dir: Path) -> Classifier:
    return Classifier.load(tiny_model_dir)


def test_window_batches_equal_the_batchers_batches(clf: Classifier) -> None:
    """The batches of a window (`prepare_window`) hold the same arrays as the batcher's batch of the
    same rows (`gather`), and its rows are the pairs in length order."""
    pairs = _pairs()
    encoded = clf.encode(pairs)
    prepared = columnar.prepare_window(clf.encoder, pairs_window(pairs), batch_size=8)
    chunks = list(columnar.length_chunks([len(row) for row in encoded.rows], 8))
    assert [b.rows.tolist() for b in prepared.batches] == chunks
    for b, idx in zip(prepared.batches, chunks, strict=True):
        [gathered] = columnar.gather([(encoded, i) for i in idx]).batches
        want = gathered.batch
        for got_array, want_array in zip(
            (b.batch.input_ids, b.batch.attention_mask, b.batch.token_type_ids),
            (want.input_ids, want.attention_mask, want.token_type_ids),
            strict=True,
        ):
            assert got_array.dtype == want_array.dtype == np.int64
            np.testing.assert_array_equal(got_array, want_array)
    assert max(len(row) for row in encoded.rows) == clf.encoder.max_length  # the long text was truncated


@pytest.mark.parametrize("fusion", [True, False], ids=["fusion", "no-fusion"])
def test_window_labels_equal_predict(clf: Classifier, fusion: bool) -> None:
    pairs = _pairs()
    clf.fusion = fusion
    try:
        want = clf.predict(pairs, batch_size=8)
        prepared = columnar.prepare_window(clf.encoder, pairs_window(pairs), batch_size=8)
        logits = [clf.backend.run(b.batch) for b in prepared.batches]
        got = columnar.label_window(prepared, logits, temperature=clf.temperature, fusion=fusion)
    finally:
        clf.fusion = clf.meta.fusion
    assert got.predictions() == want
    evidence = {p.evidence for p in want}
    assert {Evidence.OTHER_SUBJECT, Evidence.CONTENT_FREE} <= evidence
    assert any(p.slot_match for p in want)


def test_a_batch_of_several_requests_labels_each_pair_as_predict(tiny_model_dir: Path) -> None:
    """The batcher's way: each request encoded alone, one batch gathered from rows of both, labelled."""
    clf = Classifier.load(tiny_model_dir, precision="fp32")  # int8 scales activations per batch
    pairs = _pairs()
    first, second = clf.encode(pairs[:20]), clf.encode(pairs[20:40])
    parts = [(second, 3), (first, 0), (first, 7), (second, 19), (first, 19)]
    prepared = columnar.gather(parts)
    got = clf.label(prepared, clf.run(prepared)).predictions()
    want = clf.predict([pairs[i] for i in (23, 0, 7, 39, 19)])
    for g, w in zip(got, want, strict=True):
        assert (g.label, g.evidence, g.slot_match) == (w.label, w.evidence, w.slot_match)
        assert g.probabilities == pytest.approx(w.probabilities, abs=1e-5)


def test_label_window_checks_its_logits(clf: Classifier) -> None:
    prepared = columnar.prepare_window(clf.encoder, pairs_window(_pairs()[:3]), batch_size=2)
    with pytest.raises(ValueError, match="2 batches but 1 logits arrays"):
        columnar.label_window(prepared, [np.zeros((2, 5))], temperature=1.0, fusion=True)
    with pytest.raises(ValueError, match="a batch of 2 rows got 1 logits"):
        columnar.label_window(prepared, [np.zeros((1, 5)), np.zeros((1, 5))], temperature=1.0, fusion=True)


def test_a_window_without_records_needs_its_comparisons(clf: Classifier) -> None:
    memory = columnar.WindowMemory("User works in EST", T0, "user:a", None)
    window = columnar.PairWindow(0, [memory, memory], [(0, 1)])
    with pytest.raises(ValueError, match="pair 0: a memory without records"):
        columnar.prepare_window(clf.encoder, window, 4)
    with_comparisons = columnar.PairWindow(0, [memory, memory], [(0, 1)], [None])
    assert columnar.prepare_window(clf.encoder, with_comparisons, 4).size == 1


def _fuse_one(probs: np.ndarray, excluded: tuple[int, ...]) -> tuple[np.ndarray, str]:
    """The structure rule on one row, written out (the reference for `fuse_rows`)."""
    if not excluded:
        return probs, "model"
    fused = np.maximum(probs, 1e-12)
    fused[list(excluded)] = 0.0
    fused = fused / fused.sum()
    return fused, "structure" if int(np.argmax(fused)) != int(np.argmax(probs)) else "both"


def test_fuse_rows_equals_the_rule_row_by_row() -> None:
    rng = np.random.default_rng(7)
    probs = rng.dirichlet(np.full(5, 0.4), size=400)
    probs[:5] = np.eye(5)  # mass on one label, excluded or not
    rules = rng.integers(0, 3, size=400)
    fused, evidence = fuse_rows(probs, rules)
    for row, rule, got_row, got_evidence in zip(probs, rules, fused, evidence, strict=True):
        want_row, want_evidence = _fuse_one(row.copy(), RULE_LABELS[int(rule)])
        assert got_row.tolist() == want_row.tolist()  # bit for bit
        assert list(Evidence)[got_evidence].value == want_evidence


def test_collate_rows_pads_and_types() -> None:
    batch = columnar.collate_rows([[1, 2, 3, 4], [5, 6]], [3, 1], pad_id=0)
    np.testing.assert_array_equal(batch.input_ids, [[1, 2, 3, 4], [5, 6, 0, 0]])
    np.testing.assert_array_equal(batch.attention_mask, [[1, 1, 1, 1], [1, 1, 0, 0]])
    np.testing.assert_array_equal(batch.token_type_ids, [[0, 0, 0, 1], [0, 1, 0, 0]])


@pytest.mark.parametrize("input_format", features.INPUT_FORMATS)
def test_new_head_parts_tokenize_as_the_whole_header(clf: Classifier, input_format: int) -> None:
    start = date(1999, 12, 25)
    cases = [(start + timedelta(days=d), gap) for d in (0, 1, 400, 9000) for gap in (0, 1, -1, 2, 111, -3650, 40000)]
    for day, gap in cases:
        whole = clf.encoder.tokenizer.encode(features.new_head(day, gap, input_format), add_special_tokens=False).ids
        parts = [
            clf.encoder.tokenizer.encode(p, add_special_tokens=False).ids
            for p in features.new_head_parts(day, gap, input_format)
        ]
        assert whole == parts[0] + parts[1], (day, gap)


def test_null_backend_returns_its_fixed_logits() -> None:
    batch = columnar.collate_rows([[1, 2], [3]], [1, 1])
    logits = NullBackend().run(batch)
    assert logits.shape == (2, len(LABELS)) and logits.dtype == np.float32
    assert (logits == FIXED_LOGITS).all()
    assert LABELS[int(np.argmax(FIXED_LOGITS))] == Label.UNRELATED.value


# -- the feeder ----------------------------------------------------------------------------------


def _windows(n: int) -> list[columnar.PairWindow]:
    window = pairs_window(_pairs())
    return [columnar.PairWindow(i, window.memories, window.pairs[i::n]) for i in range(n)]


@pytest.mark.parametrize("workers", [0, 2], ids=["in-process", "two-workers"])
def test_feeder_labels_equal_predict_in_order(tiny_model_dir: Path, clf: Classifier, workers: int) -> None:
    windows = _windows(5)
    with Feeder(tiny_model_dir, batch_size=4, workers=workers, depth=1) as feeder:
        got = list(feeder.label(clf.backend, windows))
        assert [labels.index for labels in got] == list(range(5))
        for window, labels in zip(windows, got, strict=True):
            pairs = _pairs()[window.index :: 5]
            assert labels.predictions() == clf.predict(pairs, batch_size=4)


def _square(x: int) -> int:
    if x < 0:
        raise ValueError(f"negative: {x}")
    return x * x


def _pid(_: object) -> int:
    return os.getpid()


def test_feeder_map_and_submit_keep_order_and_raise(tiny_model_dir: Path) -> None:
    feeder = Feeder(tiny_model_dir, workers=2, depth=1)
    try:
        assert list(feeder.map(_square, range(9))) == [i * i for i in range(9)]
        assert os.getpid() not in set(feeder.map(_pid, range(4)))  # the work ran in the workers
        assert feeder.submit(_square, 7).result() == 49
        with pytest.raises(ValueError, match="negative: -2"):
            list(feeder.map(_square, [1, -2, 3]))
        with pytest.raises(ValueError, match="negative: -1"):
            feeder.submit(_square, -1).result()
        feeder.close()
        assert list(feeder.map(_square, [3])) == [9]  # a closed feeder starts new workers
    finally:
        feeder.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch_size": 0}, "batch_size: must be an integer ≥ 1, got 0"),
        ({"workers": -1}, "workers: must be an integer ≥ 0, got -1"),
        ({"depth": 0}, "depth: must be ≥ 1, got 0"),
    ],
    ids=["batch-size", "workers", "depth"],
)
def test_feeder_rejects_bad_settings(tiny_model_dir: Path, kwargs: dict[str, int], message: str) -> None:
    from writegate.errors import InputError

    with pytest.raises(InputError, match=message):
        Feeder(tiny_model_dir, **kwargs)


# -- relabel on the feeder ----------------------------------------------------------------------


def _store(path: Path) -> Path:
    rows = [
        {
            "id": f"m{i:03d}",
            "subject": f"user:u{i % 3}",
            "text": t,
            "observed_at": (T0 + timedelta(days=5 * i)).isoformat(),
        }
        for i, t in enumerate(TEXTS * 4)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.parent.iterdir()) if p.is_file()}


def test_relabel_output_is_the_same_whatever_the_workers(tmp_path: Path, tiny_model_dir: Path) -> None:
    store = _store(tmp_path / "store.jsonl")
    outputs = []
    for workers in (0, 2):
        out = tmp_path / f"w{workers}" / "edges.jsonl"
        engine = LocalEngine(tiny_model_dir, batch_size=4, workers=workers)
        relabel(RelabelOptions(input=store, out=out, k=4, chunk_size=16, keep_unrelated=True), engine)
        outputs.append(_files(out))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]["edges.jsonl"].splitlines()) > 16


def _labels(n: int) -> columnar.Labels:
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.full(5, 0.3), size=n)
    probs[:2] = [[1, 0, 0, 0, 0], [0.2] * 5]
    return columnar.Labels(
        0,
        probs,
        np.argmax(probs, axis=1),
        rng.integers(0, 5, n).astype(np.int8),
        rng.integers(0, 2, n).astype(bool),
        rng.integers(0, 2, n).astype(bool),
    )


def test_edge_texts_are_the_edge_lines_as_json() -> None:
    labels = _labels(50)
    ids = [(f'n"\\{i}\u2028é\x01', f"e{i}\x85 {{}}") for i in range(50)]
    got = edge_texts([(json_text(n), json_text(e)) for n, e in ids], labels)
    want = [
        {
            "new_id": n,
            "existing_id": e,
            "label": labels.prediction(i).label.value,
            "scores": {name: round(p, 6) for name, p in labels.prediction(i).probabilities.items()},
            "evidence": labels.prediction(i).evidence.value,
            "slot_match": labels.prediction(i).slot_match,
            "review": labels.prediction(i).review,
        }
        for i, (n, e) in enumerate(ids)
    ]
    assert got == [json_text(line) for line in want]
    assert [label_of(line) for line in got] == [json.loads(line)["label"] for line in got]


def test_label_of_is_not_fooled_by_an_id() -> None:
    labels = _labels(2)
    lines = edge_texts([(json_text('x", "label": "contradicts'), json_text("y"))] * 2, labels)
    assert [label_of(line) for line in lines] == [json.loads(line)["label"] for line in lines]
    with pytest.raises(ValueError, match="1 id pairs for 2 labels"):
        edge_texts([("a", "b")], labels)
