"""Post-processing, fusion, batching and the Classifier on the tiny model."""

from __future__ import annotations

import ast
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from writegate.api.normalizing import Normalizer, with_records
from writegate.classifier import columnar, features, post
from writegate.classifier.backends import Batch, load_backend
from writegate.classifier.fusion import RULE_LABELS, fuse_rows, rule_for
from writegate.classifier.guard import GUARD_NONE, is_content_free
from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.classifier.model import Classifier
from writegate.classifier.types import Evidence, Pair, Side
from writegate.errors import InputError, MissingRecordsError
from writegate.normalizer.api import normalize
from writegate.normalizer.compare import SlotComparison, ValueRelation, compare_all

SUP, CON, COR, ELA, UNR = (
    LABEL2ID[x] for x in ("supersedes", "contradicts", "corroborates", "elaborates", "unrelated")
)


def _pair(
    e: str = "Michelle owns the Acme account",
    n: str = "Acme was handed off to Marcus in June",
    te: str = "2026-03-01",
    tn: str = "2026-06-20",
) -> Pair:
    return with_records([Pair(existing=Side(text=e, observed_at=te), new=Side(text=n, observed_at=tn))])[0]


# -- post ---------------------------------------------------------------------------------------
def test_softmax_rows_sum_to_one_and_are_stable() -> None:
    p = post.softmax(np.array([[1000.0, 0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0]]))
    assert np.allclose(p.sum(axis=1), 1.0)
    assert p[0, 0] == pytest.approx(1.0)
    assert list(np.argsort(p[1])) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("temperature", "top"), [(1.0, 0.5637), (2.0, 0.3690), (0.5, 0.8401)], ids=["T1", "T2-softer", "T0.5-sharper"]
)
def test_temperature(temperature: float, top: float) -> None:
    # top = e^(2/T) / (e^(2/T) + e^(1/T) + 3)
    p = post.softmax(np.array([2.0, 1.0, 0.0, 0.0, 0.0]), temperature)
    assert p.max() == pytest.approx(top, abs=1e-4)


def test_temperature_must_be_positive() -> None:
    with pytest.raises(ValueError, match="temperature must be > 0"):
        post.softmax(np.zeros(5), 0.0)


def test_as_dict_has_all_labels_in_order() -> None:
    d = post.as_dict(np.array([0.1, 0.2, 0.3, 0.15, 0.25]))
    assert list(d) == list(LABELS)


# -- fusion ---------------------------------------------------------------------------------------
def _cmp(relation: ValueRelation | None, same_slot: bool = True, single: bool | None = None) -> SlotComparison:
    return SlotComparison(
        same_slot=same_slot, slot="timezone" if same_slot else None, relation=relation, single_valued=single
    )


@pytest.mark.parametrize(
    ("comparison", "excluded"),
    [
        (None, set()),
        (_cmp(ValueRelation.EQUAL), {SUP, CON}),
        (_cmp(ValueRelation.NARROWER), {SUP, CON}),
        (_cmp(ValueRelation.BROADER), {SUP, CON}),
        (_cmp(ValueRelation.COMPATIBLE), {SUP, CON}),
        (_cmp(ValueRelation.INCOMPATIBLE), {COR, ELA}),
        (_cmp(None, same_slot=False, single=True), {SUP, CON}),
        (_cmp(None, same_slot=False), set()),
    ],
    ids=["none", "equal", "narrower", "broader", "compatible", "incompatible", "other-slot-single", "other-slot"],
)
def test_excluded_labels(comparison: SlotComparison | None, excluded: set[int]) -> None:
    assert set(RULE_LABELS[rule_for(comparison)]) == excluded


def _fuse(probs: np.ndarray, comparison: SlotComparison | None) -> tuple[np.ndarray, Evidence]:
    """`fuse_rows` on one row, with the rule the comparison imposes."""
    fused, evidence = fuse_rows(probs[None, :], np.array([rule_for(comparison)], dtype=np.int8))
    return fused[0], columnar.EVIDENCE[int(evidence[0])]


SUP_HEAVY = np.array([0.05, 0.05, 0.2, 0.1, 0.6])  # unrelated, corroborates, elaborates, contradicts, supersedes


@pytest.mark.parametrize(
    ("probs", "comparison", "label", "evidence"),
    [
        (SUP_HEAVY, None, "supersedes", Evidence.MODEL),
        (SUP_HEAVY, _cmp(ValueRelation.NARROWER), "elaborates", Evidence.STRUCTURE),
        (SUP_HEAVY, _cmp(ValueRelation.INCOMPATIBLE), "supersedes", Evidence.BOTH),
        (np.array([0.1, 0.6, 0.1, 0.15, 0.05]), _cmp(ValueRelation.INCOMPATIBLE), "contradicts", Evidence.STRUCTURE),
        (np.array([0.0, 0.0, 0.0, 0.5, 0.5]), _cmp(ValueRelation.EQUAL), "unrelated", Evidence.STRUCTURE),
    ],
    ids=["no-structure", "compatible-overrides", "incompatible-agrees", "incompatible-overrides", "all-mass-excluded"],
)
def test_fuse(probs: np.ndarray, comparison: SlotComparison | None, label: str, evidence: Evidence) -> None:
    fused, ev = _fuse(probs, comparison)
    assert fused.sum() == pytest.approx(1.0)
    assert LABELS[int(np.argmax(fused))] == label
    assert ev is evidence
    for i in RULE_LABELS[rule_for(comparison)]:
        assert fused[i] == 0.0


def test_fuse_keeps_relative_order_of_allowed_labels() -> None:
    fused, _ = _fuse(SUP_HEAVY, _cmp(ValueRelation.EQUAL))
    assert fused[ELA] / fused[UNR] == pytest.approx(SUP_HEAVY[ELA] / SUP_HEAVY[UNR])


# -- batches ----------------------------------------------------------------------------------------
def _encoded(rows: list[list[int]], seg_a: list[int], guard: list[int]) -> columnar.EncodedWindow:
    n = len(rows)
    return columnar.EncodedWindow(
        0, rows, seg_a, np.arange(n, dtype=np.int8) % 3, np.array(guard, np.int8), np.arange(n) % 2 == 1
    )


def test_gather_pads_rows_of_several_windows_into_one_batch() -> None:
    a = _encoded([[101, 5, 102], [101, 9, 102, 9, 102]], [3, 3], [GUARD_NONE, 4])
    b = _encoded([[101, 5, 6, 7, 102]], [3], [3])
    prepared = columnar.gather([(b, 0), (a, 1), (a, 0)])
    [only] = prepared.batches
    assert only.rows.tolist() == [0, 1, 2]
    assert only.batch.input_ids.shape == (3, 5) and only.batch.input_ids.dtype == np.int64
    assert only.batch.input_ids.tolist() == [[101, 5, 6, 7, 102], [101, 9, 102, 9, 102], [101, 5, 102, 0, 0]]
    assert only.batch.attention_mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]
    assert only.batch.token_type_ids.tolist() == [[0, 0, 0, 1, 1], [0, 0, 0, 1, 1], [0, 0, 0, 0, 0]]
    assert prepared.rule.tolist() == [0, 1, 0]
    assert prepared.guard.tolist() == [3, 4, GUARD_NONE]
    assert prepared.slot_match.tolist() == [False, True, False]
    with pytest.raises(ValueError, match="at least one row"):
        columnar.gather([])


def test_batch_window_cuts_length_ordered_batches() -> None:
    rows = [[1] * n for n in (5, 2, 4, 2, 3)]
    prepared = columnar.batch_window(_encoded(rows, [1] * 5, [GUARD_NONE] * 5), 2)
    assert [b.rows.tolist() for b in prepared.batches] == [[1, 3], [4, 2], [0]]  # stable: ties keep their order
    assert [b.batch.input_ids.shape for b in prepared.batches] == [(2, 2), (2, 4), (1, 5)]
    with pytest.raises(ValueError, match="batch_size must be ≥ 1"):
        columnar.batch_window(_encoded(rows, [1] * 5, [GUARD_NONE] * 5), 0)


def test_batch_rejects_mismatched_shapes() -> None:
    with pytest.raises(ValueError, match="share one 2-D shape"):
        Batch(np.zeros((2, 3), np.int64), np.zeros((2, 4), np.int64), np.zeros((2, 3), np.int64))


# -- Classifier on the tiny model ------------------------------------------------------------------
@pytest.fixture(scope="module")
def clf(tiny_model_dir: Path) -> Classifier:
    return Classifier.load(tiny_model_dir)


def test_info(clf: Classifier) -> None:
    assert clf.info.labels == list(LABELS)
    assert clf.info.backend == "onnx" and clf.info.max_length == 128 and clf.info.name == "tiny-test"
    assert clf.info.metrics == {"test.macro_f1": 0.2}


def test_predict_restores_input_order(tiny_model_dir: Path) -> None:
    # fp32: int8 dynamic quantization scales activations per batch, so batch mates shift logits slightly
    clf = Classifier.load(tiny_model_dir, precision="fp32")
    pairs = [_pair(n="x " * k + "Marcus owns Acme now") for k in (30, 1, 12, 0, 50, 3)]
    one_by_one = [clf.predict([p])[0] for p in pairs]
    batched = clf.predict(pairs, batch_size=2)
    for a, b in zip(one_by_one, batched, strict=True):
        assert a.label == b.label
        assert a.probabilities == pytest.approx(b.probabilities, abs=1e-4)
        assert set(a.probabilities) == set(LABELS) and sum(a.probabilities.values()) == pytest.approx(1.0)


def test_predict_rejects_bad_batch_size(clf: Classifier) -> None:
    with pytest.raises(InputError, match="batch_size"):
        clf.predict([_pair()], batch_size=0)


def test_fusion_applies_structure(tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    equal = SlotComparison(same_slot=True, slot="timezone", relation=ValueRelation.EQUAL)
    monkeypatch.setattr(columnar, "compare_all", lambda existing, new: equal)
    fused = Classifier.load(tiny_model_dir, fusion=True)
    plain = Classifier.load(tiny_model_dir, fusion=False)
    [f] = fused.predict([_pair()])
    [p] = plain.predict([_pair()])
    assert f.probabilities["supersedes"] == 0.0 and f.probabilities["contradicts"] == 0.0
    assert f.slot_match and p.slot_match
    assert p.evidence is Evidence.MODEL and f.evidence in (Evidence.BOTH, Evidence.STRUCTURE)


def test_torch_backend_matches_onnx_fp32(tiny_model_dir: Path) -> None:
    pytest.importorskip("torch")
    onnx = Classifier.load(tiny_model_dir, "onnx", precision="fp32")
    torch_clf = Classifier.load(tiny_model_dir, "torch", device="cpu")
    pairs = [_pair(), _pair(e="User works in EST", n="User moved to London last month")]
    a, _ = onnx.logits(pairs)
    b, _ = torch_clf.logits(pairs)
    assert np.abs(a - b).max() < 1e-4
    assert torch_clf.info.backend == "torch"


# -- normalize once: the classifier maps records and text to probabilities ---------------------------
CLASSIFIER_DIR = Path(features.__file__).resolve().parent
T_A = datetime(2026, 3, 1, 10, tzinfo=UTC)
T_B = datetime(2026, 6, 20, 8, tzinfo=UTC)
STRUCTURE_PAIRS: list[tuple[str, str]] = [
    ("User works in EST", "User moved to London and works on UK time now"),
    ("User works in EST", "User works in Eastern time"),
    ("User is based in Paris", "User lives in Berlin now"),
    ("User prefers morning meetings", "User prefers meetings 9-10am on Tuesdays"),
    ("User prefers meetings at 4pm", "User prefers meetings at 4:15pm"),
    ("User avoids calls on Fridays", "User prefers calls on Friday afternoons"),
    ("Michelle owns the Acme account", "Acme was handed off to Marcus in June"),
    ("Michelle owns the Acme account", "Marcus owns the Acme account"),
    ("User prefers concise answers", "User wants detailed, long answers"),
    ("User prefers email over phone", "User would rather be contacted by phone"),
    ("User lives in India", "User lives in Mumbai"),
    ("User's manager is Dana", "User now reports to Priya"),
    ("User prefers concise answers", "User's dog is named Biscuit"),
    ("test", "User moved to London"),
    ("I live in Berlin.", "I moved to London last month."),
    ("User can approve expenses up to $500", "User can approve expenses up to $2000"),
]


def _parity_pairs() -> list[Pair]:
    """A few dozen pairs, most with a structure tail: `STRUCTURE_PAIRS` both ways round."""
    pairs = [
        Pair(existing=Side(text=e, observed_at=T_A), new=Side(text=n, observed_at=T_B)) for e, n in STRUCTURE_PAIRS
    ]
    pairs += [
        Pair(
            existing=Side(text=n, observed_at=T_B, subject="user:alice"),  # NEW older, another subject
            new=Side(text=e, observed_at=T_A, subject="user:alice"),
        )
        for e, n in STRUCTURE_PAIRS[:8]
    ]
    return pairs


def _old_comparison(pair: Pair) -> SlotComparison | None:
    """The comparison as the classifier computed it before it stopped normalizing (features.compare_pair)."""
    existing = normalize(pair.existing.text, subject=pair.existing.subject, observed_at=pair.existing.observed_at)
    new = normalize(pair.new.text, subject=pair.new.subject, observed_at=pair.new.observed_at)
    return compare_all(list(existing), list(new))


def _old_guard(pair: Pair) -> int:
    """The guard of a pair (its `EVIDENCE` index), as the classifier found it pair by pair."""
    if pair.existing.subject != pair.new.subject:
        return columnar.EVIDENCE.index(Evidence.OTHER_SUBJECT)
    if is_content_free(pair.new.text) or is_content_free(pair.existing.text):
        return columnar.EVIDENCE.index(Evidence.CONTENT_FREE)
    return GUARD_NONE


def _bare(pair: Pair) -> Pair:
    return Pair(
        existing=pair.existing.model_copy(update={"records": None}), new=pair.new.model_copy(update={"records": None})
    )


def test_records_path_matches_the_old_normalizing_path(tiny_model_dir: Path) -> None:
    """Same records → same comparison → same rendered text → same probabilities, for every caller's records."""
    from writegate.normalizer.schema import Memory, ProvenanceKind

    clf = Classifier.load(tiny_model_dir, precision="fp32")
    pairs = _parity_pairs()
    assert len(pairs) >= 24
    old = [_old_comparison(p) for p in pairs]
    assert sum(c is not None for c in old) >= 10, "the parity pairs must exercise the structure tail"
    old_texts = [features.render_pair(p, c) for p, c in zip(pairs, old, strict=True)]
    old_ids = clf.encoder.encode(old_texts)  # each pair's text tokenized whole
    old_window = columnar.EncodedWindow(
        0,
        [ids for ids, _ in old_ids],
        [types.count(0) for _, types in old_ids],
        np.array([rule_for(c) for c in old], dtype=np.int8),
        np.array([_old_guard(p) for p in pairs], dtype=np.int8),
        np.array([c is not None and c.same_slot for c in old]),
        clf.encoder.pad_id,
    )
    old_prepared = columnar.batch_window(old_window, 64)
    old_preds = clf.label(old_prepared, clf.run(old_prepared)).predictions()

    new_pairs = with_records(pairs)  # writegate classify, eval, training
    assert [features.render_pair(p, features.compare_pair(p)).segments for p in new_pairs] == [
        t.segments for t in old_texts
    ]
    new = clf.encode(new_pairs)
    assert new.rows == old_window.rows
    assert [[0] * a + [1] * (len(row) - a) for row, a in zip(new.rows, new.seg_a, strict=True)] == [
        types for _, types in old_ids
    ]
    for column in ("rule", "guard", "slot_match"):
        np.testing.assert_array_equal(getattr(new, column), getattr(old_window, column))
    assert clf.predict(new_pairs) == old_preds  # bit-identical probabilities, labels, evidence

    # the service: records of each memory with its request's provenance (which no comparison reads)
    for provenance in ProvenanceKind:

        def memory(s: Side, provenance: ProvenanceKind = provenance) -> Memory:
            return Memory(subject=s.subject, text=s.text, observed_at=s.observed_at, provenance=provenance)

        sides = iter(Normalizer().sides([memory(s) for p in pairs for s in (p.existing, p.new)]))
        served = [Pair(existing=next(sides), new=next(sides)) for _ in pairs]
        assert [features.compare_pair(p) for p in served] == old, provenance


def test_relabel_plan_records_match_the_old_normalizing_path() -> None:
    from writegate.relabel.plan import build_plan
    from writegate.relabel.stores.jsonl import jsonl_rows

    pairs = _parity_pairs()
    texts = list(dict.fromkeys([p.existing.text for p in pairs] + [p.new.text for p in pairs]))
    lines = [
        json.dumps(
            {
                "id": f"m{i}",
                "subject": "user:alice",
                "text": t,
                "observed_at": f"2026-{1 + i % 12:02d}-{1 + i % 27:02d}",
            }
        )
        for i, t in enumerate(texts)
    ]
    plan = build_plan(jsonl_rows(lines), k=4)
    assert len(plan.pairs) >= 24
    planned = [plan.pair(i) for i in range(len(plan.pairs))]
    assert all(p.existing.records is not None and p.new.records is not None for p in planned)
    assert [features.compare_pair(p) for p in planned] == [_old_comparison(_bare(p)) for p in planned]


def test_encode_never_calls_the_normalizer(clf: Classifier, monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = with_records([_pair(), _pair(e="User works in EST", n="User moved to London last month")])

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the classifier called the normalizer")

    import writegate.normalizer as normalizer_pkg
    import writegate.normalizer.api as normalizer_api

    monkeypatch.setattr(normalizer_api, "normalize", boom)
    monkeypatch.setattr(normalizer_pkg, "normalize", boom)
    preds = clf.predict(pairs)
    assert len(preds) == 2 and preds[1].slot_match  # the records were compared: EST vs Europe/London


def test_missing_records_is_a_clear_error(clf: Classifier) -> None:
    bare = Pair(
        existing=Side(text="User works in EST", observed_at="2026-01-01"),
        new=Side(text="User moved to London", observed_at="2026-02-01"),
    )
    (filled,) = with_records([bare])
    half = Pair(existing=filled.existing, new=bare.new)
    with pytest.raises(MissingRecordsError, match=r"^pairs\[1\]\.existing\.records: missing") as info:
        clf.predict([filled, bare])
    assert info.value.field == "pairs[1].existing.records"
    with pytest.raises(MissingRecordsError, match=r"^pairs\[0\]\.new\.records: missing"):
        clf.encode([half])


def test_with_records_keeps_given_records_and_names_the_side() -> None:
    pair = _pair()
    assert with_records([pair])[0] is pair  # already normalized: nothing is redone
    assert with_records([pair, pair]) == [pair, pair]
    bad = Pair(
        existing=Side(text="fine text", observed_at="2026-01-01"), new=Side(text="   ", observed_at="2026-01-01")
    )
    with pytest.raises(InputError, match=r"^pairs\[0\]\.new\.text: is empty"):
        with_records([bad])


def test_classifier_modules_do_not_import_the_text_normalizer() -> None:
    """classifier/ may import normalizer.compare and normalizer.schema (records), never normalizer.api."""
    offenders = []
    for path in sorted(CLASSIFIER_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {a.name for a in node.names}
                if node.module == "writegate.normalizer.api" or (
                    node.module == "writegate.normalizer" and names & {"api", "normalize"}
                ):
                    offenders.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Import):
                if any(a.name == "writegate.normalizer.api" for a in node.names):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


# -- load errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "missing", ["writegate.json", "tokenizer.json", "vocab.txt", "model.int8.onnx"], ids=lambda s: s
)
def test_load_names_missing_file(tiny_model_dir: Path, tmp_path: Path, missing: str) -> None:
    d = tmp_path / "m"
    shutil.copytree(tiny_model_dir, d)
    (d / missing).unlink()
    with pytest.raises(InputError, match=missing.replace(".", r"\.") + " is missing"):
        Classifier.load(d)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("writegate.json", "{not json", "writegate.json is not valid JSON"),
        ("writegate.json", json.dumps({"name": "x"}), "writegate.json: field version"),
        ("model.int8.onnx", "garbage", "model.int8.onnx could not be loaded"),
        ("tokenizer.json", "garbage", "tokenizer.json could not be loaded"),
    ],
    ids=["meta-json", "meta-field", "onnx", "tokenizer"],
)
def test_load_names_corrupt_file(tiny_model_dir: Path, tmp_path: Path, name: str, content: str, message: str) -> None:
    d = tmp_path / "m"
    shutil.copytree(tiny_model_dir, d)
    (d / name).write_text(content)
    with pytest.raises(InputError, match=message):
        Classifier.load(d)


def test_load_rejects_other_input_format(tiny_model_dir: Path, tmp_path: Path) -> None:
    d = tmp_path / "m"
    shutil.copytree(tiny_model_dir, d)
    meta = json.loads((d / "writegate.json").read_text())
    (d / "writegate.json").write_text(json.dumps(meta | {"input_format_version": 99}))
    with pytest.raises(InputError, match=r"writegate.json: input format 99 is not one this writegate renders \(1, 2\)"):
        Classifier.load(d)


def test_a_format_2_model_is_fed_format_2(tiny_model_dir: Path, tmp_path: Path) -> None:
    """The window path (serving, relabel) renders the format the model's writegate.json names."""
    d = tmp_path / "m"
    shutil.copytree(tiny_model_dir, d)
    meta = json.loads((d / "writegate.json").read_text())
    (d / "writegate.json").write_text(json.dumps(meta | {"input_format_version": 2}))
    v1, v2 = Classifier.load(tiny_model_dir), Classifier.load(d)
    assert (v1.encoder.input_format, v2.encoder.input_format) == (1, 2)
    pairs = with_records(
        [
            Pair(
                existing=Side(text="User works in EST", observed_at="2025-11-03"),
                new=Side(text="User moved to London", observed_at="2026-05-02"),
            )
        ]
    )
    for clf in (v1, v2):
        [row] = clf.encode(pairs).rows
        text = features.render_pair(pairs[0], features.compare_pair(pairs[0]), clf.encoder.input_format)
        assert row == clf.encoder.encode([text])[0][0]
    assert len(v2.encode(pairs).rows[0]) < len(v1.encode(pairs).rows[0])


def test_load_missing_dir(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is not a directory"):
        Classifier.load(tmp_path / "nope")


def test_fp32_needs_model_onnx(tiny_model_dir: Path, tmp_path: Path) -> None:
    d = tmp_path / "m"
    shutil.copytree(tiny_model_dir, d)
    (d / "model.onnx").unlink()
    assert Classifier.load(d).info.backend == "onnx"  # int8 is enough by default
    with pytest.raises(InputError, match=r"model\.onnx is missing"):
        Classifier.load(d, precision="fp32")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"name": "tpu"}, InputError, "backend: unknown backend 'tpu'"),
        ({"name": "onnx", "precision": "int4"}, InputError, "unknown onnx precision 'int4'"),
        ({"name": "onnx", "device": "cuda"}, InputError, "CPU only"),
        ({"name": "torch", "precision": "int8"}, InputError, "unknown precision 'int8' for torch"),
        ({"name": "vllm"}, RuntimeError, "vllm backend is not available"),
    ],
    ids=["unknown", "onnx-precision", "onnx-device", "torch-precision", "vllm"],
)
def test_load_backend_errors(tiny_model_dir: Path, kwargs: dict, error: type[Exception], message: str) -> None:
    name = kwargs.pop("name")
    if name == "torch":
        pytest.importorskip("torch", reason="the torch backend needs torch (the `train` extra)")
    with pytest.raises(error, match=message):
        load_backend(name, tiny_model_dir, **kwargs)
