"""Training data validation, calibration, metrics, one training step, and the train/eval/classify CLIs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import cli, quick_train_argv, small_data, write_jsonl

from writegate.classifier.labels import LABEL2ID, LABELS
from writegate.cli.main import main
from writegate.errors import InputError
from writegate.training.calibrate import expected_calibration_error, fit_temperature, nll
from writegate.training.datafile import DataFileError, read_examples
from writegate.training.metrics import report
from writegate.training.train import group_split

GOOD = {
    "existing": {"text": "Michelle owns the Acme account", "observed_at": "2026-03-01"},
    "new": {"text": "Acme was handed off to Marcus in June", "observed_at": "2026-06-20"},
    "label": "supersedes",
}


# -- data file validation --------------------------------------------------------------------------
def test_read_examples_reports_every_bad_line(tmp_path: Path) -> None:
    rows = [
        GOOD,
        "{bad json",
        {**GOOD, "label": "refutes"},
        {**GOOD, "existing": {"observed_at": "2026-03-01"}},
        {**GOOD, "new": {"text": "x y z"}},
        {**GOOD, "new": {"text": "x y z", "observed_at": "yesterday"}},
        [1, 2],
        {k: v for k, v in GOOD.items() if k != "label"},
        {**GOOD, "existing": {"text": "  ", "observed_at": "2026-03-01"}},
        GOOD,
    ]
    with pytest.raises(DataFileError) as info:
        read_examples(write_jsonl(tmp_path / "d.jsonl", rows))
    msg = str(info.value)
    assert [n for n, _ in info.value.problems] == [2, 3, 4, 5, 6, 7, 8, 9]
    for expected in (
        "8 bad line(s) of 10",
        "line 2: bad JSON",
        "line 3: label: unknown label 'refutes'",
        "line 4: existing.text: is missing",
        "line 5: new.observed_at: is missing",
        "line 6: new.observed_at: is not an ISO 8601",
        "line 7: line: must be a JSON object",
        "line 8: label: is missing",
        "line 9: existing.text: is empty",
    ):
        assert expected in msg


@pytest.mark.parametrize(
    ("content", "message"), [(None, "does not exist"), ("\n\n", "has no examples")], ids=["missing", "empty"]
)
def test_read_examples_file_errors(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "d.jsonl"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_examples(path)


def test_read_examples_defaults(tmp_path: Path) -> None:
    [ex] = read_examples(write_jsonl(tmp_path / "d.jsonl", [GOOD]))
    assert ex.id == "line-1" and ex.label.value == "supersedes" and ex.pair.existing.subject == "user:default"
    assert ex.family is None and ex.pair.new.observed_at.tzinfo is not None


def test_group_split_holds_out_whole_groups(tmp_path: Path) -> None:
    examples = read_examples(small_data(tmp_path / "d.jsonl", 40))
    train, dev = group_split(examples, 0.2, seed=1)
    assert len(train) + len(dev) == 40 and dev
    assert not {(e.family, e.slot) for e in train} & {(e.family, e.slot) for e in dev}


# -- calibration and metrics ------------------------------------------------------------------------
def test_temperature_scaling_fixes_overconfidence() -> None:
    pytest.importorskip("scipy", reason="fitting the temperature needs scipy (the `train` extra)")
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 5, 2000)
    logits = rng.normal(0, 1, (2000, 5))
    correct = rng.random(2000) < 0.7
    logits[np.arange(2000), np.where(correct, labels, (labels + 1) % 5)] += 3.0
    logits *= 4.0  # over-confident
    t = fit_temperature(logits, labels)
    assert t > 2.0
    assert nll(logits, labels, t) < nll(logits, labels, 1.0)
    from writegate.classifier.post import softmax

    assert (
        expected_calibration_error(softmax(logits, t), labels) < expected_calibration_error(softmax(logits), labels) / 2
    )


def test_fit_temperature_empty() -> None:
    assert fit_temperature(np.zeros((0, 5)), np.zeros(0, dtype=int)) == 1.0


def test_report_conflict_slice() -> None:
    pytest.importorskip("sklearn", reason="the metrics need scikit-learn (the `train` extra)")
    sup, con, ela, unr = (LABEL2ID[x] for x in ("supersedes", "contradicts", "elaborates", "unrelated"))
    gold = [sup, sup, sup, con, con, ela, unr, unr]
    pred = [sup, con, ela, con, sup, ela, unr, ela]
    rep = report(gold, pred)
    c = rep.conflict
    assert (c.n, c.sup_as_con, c.con_as_sup) == (5, 1, 1)
    assert (
        c.accuracy == pytest.approx(2 / 5) and c.detected == pytest.approx(4 / 5) and c.told_apart == pytest.approx(0.5)
    )
    assert rep.per_label["unrelated"].recall == pytest.approx(0.5) and rep.per_label["unrelated"].precision == 1.0
    assert rep.confusion[sup][con] == 1 and sum(map(sum, rep.confusion)) == 8
    assert rep.macro_f1 == pytest.approx(np.mean([s.f1 for n, s in rep.per_label.items() if n != "corroborates"]))


# -- training ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def trained(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """One short CLI training run from the tiny model (2 optimizer steps on 16 pairs)."""
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    tmp = tmp_path_factory.mktemp("train")
    data = small_data(tmp / "train.jsonl", 16)
    test = small_data(tmp / "test.jsonl", 10)
    out = tmp / "model"
    paths = {"data": data, "test": test, "dev_pairs": test, "base": tiny_model_dir, "out": out}
    rc = cli("train", **paths, max_steps=2, eval_steps=1, batch_size=8, quiet=True, name="tiny-trained")
    return out, test, rc


def test_train_writes_a_complete_model_dir(trained: tuple[Path, Path, int]) -> None:
    out, _, rc = trained
    assert rc == 0
    from writegate.classifier import modeldir
    from writegate.classifier.model import Classifier

    for name in (
        modeldir.ONNX_INT8,
        modeldir.ONNX_FP32,
        modeldir.SAFETENSORS,
        modeldir.CONFIG,
        modeldir.META_FILE,
        modeldir.MODEL_CARD,
        *modeldir.TOKENIZER_FILES,
    ):
        assert (out / name).is_file(), name
    meta = modeldir.read_meta(out)
    from writegate.training.train import TrainConfig

    assert meta.name == "tiny-trained" and meta.temperature > 0
    assert meta.version == TrainConfig.model_fields["version"].default  # no --version: TrainConfig's default
    for key in (
        "test.macro_f1",
        "dev_pairs.macro_f1",
        "dev.ece_before",
        "dev.ece_after",
        "train.steps",
        "test.conflict_accuracy",
        "test.macro_f1_model_only",
        "test.macro_f1_fused",
    ):
        assert key in meta.metrics, key
    assert meta.metrics["train.steps"] == 2
    card = (out / modeldir.MODEL_CARD).read_text()
    for part in ("## How it was made", "sha256", "seed 13", "### test", "### dev_pairs", "conflict slice", "ECE"):
        assert part in card
    config = json.loads((out / "config.json").read_text())
    assert config["id2label"] == {str(i): name for i, name in enumerate(LABELS)}
    clf = Classifier.load(out)
    assert clf.info.name == "tiny-trained"


def test_train_rejects_bad_data_before_training(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_jsonl(tmp_path / "bad.jsonl", [GOOD, {**GOOD, "label": "nope"}, "{"])
    rc = main(["train", "--data", str(data), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "2 bad line(s) of 3" in err and "line 2: label: unknown label 'nope'" in err and "line 3: bad JSON" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train"], "data: is missing"),
        (["train", "--data", "/nonexistent.jsonl"], "data: /nonexistent.jsonl does not exist"),
        (["train", "--preset", "huge", "--data", "x"], "preset: unknown preset 'huge'"),
        (
            ["train", "--data", __file__, "--dev-pairs", "/nonexistent.jsonl"],
            "dev_pairs: /nonexistent.jsonl does not exist",
        ),
    ],
    ids=["no-data", "missing-file", "unknown-preset", "missing-dev-pairs"],
)
def test_train_argument_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_train_init_rejects_a_dir_without_meta(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    d = tmp_path / "init"
    shutil.copytree(tiny_model_dir, d)
    (d / "writegate.json").unlink()
    data = small_data(tmp_path / "d.jsonl", 10)
    assert main(["train", "--data", str(data), "--init", str(d), "--out", str(tmp_path / "o")]) == 2
    assert "writegate.json is missing" in capsys.readouterr().err


# -- eval / classify CLIs ---------------------------------------------------------------------------
def test_eval_cli(trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, test, _ = trained
    png, js = tmp_path / "cm.png", tmp_path / "r.json"
    assert main(["eval", "--data", str(test), "--model", str(out), "--plot", str(png), "--json", str(js)]) == 0
    text = capsys.readouterr().out
    for part in ("macro-F1", "confusion matrix", "conflict slice", "model only vs fused", "supersedes"):
        assert part in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report_json = json.loads(js.read_text())
    assert report_json["model_only"]["n"] == 10 and len(report_json["predicted"]) == 10


def test_eval_cli_compares_with_a_baseline(
    trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, test, _ = trained
    js = tmp_path / "r.json"
    assert cli("eval", data=test, model=out, baseline=out, resamples=100, json=js) == 0
    text = " ".join(capsys.readouterr().out.split())  # rich wraps at the console width
    assert "vs baseline" in text and "not told apart from noise" in text and "McNemar p = 1" in text
    cmp = json.loads(js.read_text())["comparison"]
    assert cmp["n"] == 10 and cmp["resamples"] == 100 and cmp["macro_f1"]["delta"] == 0
    assert cmp["model_only_right"] == cmp["baseline_only_right"] == 0


def test_eval_cli_missing_baseline_fails_before_evaluating(
    trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, test, _ = trained
    assert main(["eval", "--data", str(test), "--model", str(out), "--baseline", str(tmp_path / "nope")]) == 2
    captured = capsys.readouterr()
    assert "nope" in captured.err and "macro-F1" not in captured.out


def test_eval_cli_breaks_errors_down_by_group(
    trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, test, _ = trained
    js = tmp_path / "r.json"
    assert cli("eval", data=test, model=out, by=["slot", "family"], top=3, json=js) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "errors by slot:" in text and "errors by family:" in text
    report_json = json.loads(js.read_text())
    by_slot = report_json["breakdown"]["slot"]
    assert {r["group"] for r in by_slot} == {f"slot{i}" for i in range(5)} and sum(r["pairs"] for r in by_slot) == 10
    wrong = sum(
        g != p
        for g, p in zip(
            (json.loads(x)["label"] for x in test.read_text().splitlines()), report_json["predicted"], strict=True
        )
    )
    assert sum(r["errors"] for r in by_slot) == wrong


def test_eval_cli_by_without_groups_fails_before_loading_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_jsonl(tmp_path / "d.jsonl", [GOOD, GOOD])
    assert main(["eval", "--data", str(data), "--model", str(tmp_path / "absent"), "--by", "family"]) == 2
    assert "--by: family: no pair in the data has a 'family' field" in capsys.readouterr().err


def test_eval_cli_bad_resamples(trained: tuple[Path, Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    out, test, _ = trained
    assert main(["eval", "--data", str(test), "--model", str(out), "--baseline", str(out), "--resamples", "0"]) == 2
    assert "--resamples: must be at least 1, got 0" in capsys.readouterr().err


def test_classify_cli_bad_lines(
    trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _, _ = trained
    pair = {"existing": GOOD["existing"], "new": GOOD["new"]}
    inp = write_jsonl(
        tmp_path / "in.jsonl",
        [
            pair,
            "{oops",
            {"existing": GOOD["existing"]},
            "",
            {**pair, "new": {"text": "", "observed_at": "2026-01-01"}},
            pair,
        ],
    )
    rc = main(["classify", "--input", str(inp), "--model", str(out)])
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines()]
    assert rc == 1 and len(lines) == 6  # one per input line, the blank one included
    assert set(lines[0]) == {"label", "scores"} and set(lines[0]["scores"]) == set(LABELS)
    assert lines[0] == lines[5]
    assert lines[1]["error"].startswith("line 2: line: is not valid JSON")
    assert lines[2] == {"error": "line 3: new: is missing", "line": 3}
    assert lines[3] == {"error": "line 4: line: is blank", "line": 4}
    assert lines[4]["error"] == "line 5: new.text: is empty or whitespace only"
    assert "line 3: new: is missing" in captured.err and "4 line(s) failed" in captured.err


def test_classify_cli_missing_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inp = write_jsonl(tmp_path / "in.jsonl", [{"existing": GOOD["existing"], "new": GOOD["new"]}])
    assert main(["classify", "--input", str(inp), "--model", str(tmp_path / "none")]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_domain_fine_tuning_mixes_default_data(
    trained: tuple[Path, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--init a writegate model + user data: a share of default data is mixed in (here from a file)."""
    init, _, _ = trained
    user = small_data(tmp_path / "user.jsonl", 14)
    default = small_data(tmp_path / "default.jsonl", 30)
    out = tmp_path / "tuned"
    mix = {"data": user, "init": init, "default_data": default, "mix_default_share": 0.5, "out": out}
    rc = cli("train", **mix, max_steps=1, eval_steps=1, batch_size=8, drop_fp32_onnx=True)
    assert rc == 0
    err = capsys.readouterr().err
    from writegate.classifier import modeldir

    meta = modeldir.read_meta(out)
    n_user_train = 14 - int(err.split("dev ")[1].split()[0]) if "dev " in err else None
    assert "mixing in" in err and "(50% share)" in err
    assert n_user_train is not None and meta.metrics["train.pairs"] == 2 * n_user_train
    assert "domain fine-tuning" in (out / modeldir.MODEL_CARD).read_text()
    assert not (out / modeldir.ONNX_FP32).exists() and (out / modeldir.ONNX_INT8).is_file()

    # the review thresholds: chosen on the dev split (the user pairs' held-out groups) with the served model
    from writegate.classifier.model import Classifier
    from writegate.classifier.review import ReviewPolicy
    from writegate.training.presets import Preset
    from writegate.training.review import choose_on_dev
    from writegate.training.train import DEV_SHARE

    dev = group_split(read_examples(user), DEV_SHARE, Preset().seed)[1]
    choice = choose_on_dev(Classifier.load(out), dev, meta.fusion)
    assert [line for line in err.splitlines() if line.startswith("review: ")] == [choice.describe("dev pairs")]
    assert meta.review == (choice.policy or ReviewPolicy())
    assert ("review" in json.loads((out / modeldir.META_FILE).read_text())) == meta.review.active


# -- data order ---------------------------------------------------------------------------------------
def _weights(model_dir: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(model_dir / "model.safetensors"))


def test_a_data_seed_changes_the_run_and_the_same_seeds_repeat_it(tiny_model_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    runs = {}
    for name, extra in (("file-order", []), ("seed7", ["--data-seed", "7"]), ("seed7-again", ["--data-seed", "7"])):
        out = tmp_path / name
        assert main(quick_train_argv(tiny_model_dir, tmp_path, out, *extra)) == 0
        runs[name] = _weights(out)
    assert any(not np.array_equal(runs["file-order"][k], runs["seed7"][k]) for k in runs["seed7"])
    assert all(np.array_equal(runs["seed7"][k], runs["seed7-again"][k]) for k in runs["seed7"])
    assert "(shuffled with data seed 7)" in (tmp_path / "seed7" / "MODEL_CARD.md").read_text()
    assert "(file order)" in (tmp_path / "file-order" / "MODEL_CARD.md").read_text()


def test_package_refuses_dev_logits_that_do_not_match_the_dev_split(tmp_path: Path) -> None:
    from writegate.training.datafile import parse_example
    from writegate.training.package import PackageInputs, package

    row = {
        "existing": {"text": "Tz is EST", "observed_at": "2026-01-01"},
        "new": {"text": "Tz is PST", "observed_at": "2026-02-01"},
        "label": "supersedes",
    }
    dev = [parse_example(row, 1), parse_example(row, 2)]
    inp = PackageInputs(
        out=tmp_path, name="m", version="0", max_length=128, threads=1, dev=dev, provenance=[], started=0.0
    )
    with pytest.raises(ValueError, match=r"dev_logits has shape \(1, 5\), expected \(2, 5\)"):
        package(None, np.zeros((1, 5), dtype=np.float32), inp)
    assert not any(tmp_path.iterdir())  # refused before anything was written


# -- dev logits for the temperature ------------------------------------------------------------------
def test_dev_logits_for_the_temperature_come_back_in_dev_order(tiny_model_dir: Path, tmp_path: Path) -> None:
    """Under group_by_length, Trainer.predict returns its rows permuted (run 0.10.0 fitted T = 20 on them)."""
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    import torch
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        DataCollatorWithPadding,
        Trainer,
        TrainingArguments,
    )

    from writegate.classifier import features
    from writegate.training.fitting import predict_in_order
    from writegate.training.package import encode_examples

    rows = [
        {**GOOD, "existing": {**GOOD["existing"], "text": "Michelle owns the Acme account" + " again" * (i % 9)}}
        for i in range(24)
    ]  # nine lengths, so length grouping has something to reorder
    dev = read_examples(write_jsonl(tmp_path / "dev.jsonl", rows))
    ds = encode_examples(features.PairEncoder.from_file(tiny_model_dir / "tokenizer.json", 128), dev)
    model = AutoModelForSequenceClassification.from_pretrained(str(tiny_model_dir), dtype=torch.float32).eval()
    args = TrainingArguments(
        output_dir=str(tmp_path / "out"),
        per_device_eval_batch_size=4,
        use_cpu=True,
        train_sampling_strategy="group_by_length",
        report_to=[],
        disable_tqdm=True,
    )
    trainer = Trainer(
        model=model,
        args=args,
        data_collator=DataCollatorWithPadding(AutoTokenizer.from_pretrained(str(tiny_model_dir))),
    )
    with torch.no_grad():
        one_by_one = np.stack(
            [
                model(**{k: torch.tensor([v]) for k, v in row.items() if k != "labels"}).logits[0].numpy()
                for row in ds.rows
            ]
        )
    got = predict_in_order(trainer, ds)
    assert got.shape == (24, len(LABELS))
    np.testing.assert_allclose(got, one_by_one, atol=1e-4)
    assert len({round(float(x), 5) for x in one_by_one[:, 0]}) > 1  # distinct rows: a permutation would show


# -- train flags out of range ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--label-smoothing", "1.5", "--label-smoothing: input should be less than 1 (got 1.5)"),
        ("--lr", "0", "--lr: input should be greater than 0 (got 0.0)"),
        ("--input-format", "3", "--input-format: value error, must be one of 1, 2 (got 3)"),
    ],
    ids=["smoothing-above-1", "zero-lr", "unknown-input-format"],
)
def test_train_flags_out_of_range_name_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    data = small_data(tmp_path / "train.jsonl", 8)
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "o"), flag, value]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()  # refused before any work


# -- input formats ------------------------------------------------------------------------------------
def test_a_format_2_run_writes_a_format_2_model_and_fine_tuning_keeps_it(
    tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch", reason="training needs torch (the `train` extra)")
    from writegate.classifier import modeldir
    from writegate.classifier.model import Classifier

    out = tmp_path / "v2"
    assert main(quick_train_argv(tiny_model_dir, tmp_path, out, "--input-format", "2")) == 0
    assert modeldir.read_meta(out).input_format_version == 2
    assert Classifier.load(out).encoder.input_format == 2
    assert "Input format version 2" in (out / modeldir.MODEL_CARD).read_text()

    data = small_data(tmp_path / "d.jsonl", 10)
    argv = ["train", "--data", str(data), "--init", str(out), "--out", str(tmp_path / "o"), "--input-format", "1"]
    assert main(argv) == 2
    assert "input_format: is 1, but the --init model reads format 2" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
