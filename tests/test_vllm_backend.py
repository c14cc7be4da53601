"""The vLLM backend's glue, against a fake `vllm` module that follows vLLM's documented interface.

The fake LLM does what vLLM's GPU model runner does with our requests: it rebuilds token types
from `extra_kwargs["compressed_token_type_ids"]` (ids = arange(len) >= k) and runs the model
(here: the torch backend on the tiny model), returning raw logits as `outputs.probs` when
`use_activation=False`. Nothing here ran on a real vLLM.

`test_installed_vllm_has_what_the_backend_calls` checks the backend's calls against the installed
`vllm` (signatures, fields, the token-types key); it is skipped where vllm is not installed (CI:
the `gpu` extra is not installed there), and is itself checked on a stand-in package that mirrors
vLLM's API, plus broken variants of it (see docs/backends.md).
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from writegate.classifier.backends.base import Batch


@dataclass
class FakePoolingParams:
    use_activation: bool | None = None
    extra_kwargs: dict[str, Any] | None = None


@dataclass
class FakeOutput:
    outputs: Any


@dataclass
class FakeLLM:
    model: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    honour_token_types: bool = True
    calls: list[tuple[list[dict], list[FakePoolingParams]]] = field(default_factory=list)

    def classify(self, prompts, *, pooling_params, use_tqdm=True):
        from writegate.classifier.backends.torch import TorchBackend

        self.calls.append((prompts, pooling_params))
        ref = TorchBackend(Path(self.model), device="cpu", precision="fp32")
        out = []
        for prompt, params in zip(prompts, pooling_params, strict=True):
            ids = np.asarray([prompt["prompt_token_ids"]], dtype=np.int64)
            k = params.extra_kwargs["compressed_token_type_ids"] if self.honour_token_types else ids.shape[1]
            tt = (np.arange(ids.shape[1]) >= k).astype(np.int64)[None, :]
            logits = ref.run(Batch(input_ids=ids, attention_mask=np.ones_like(ids), token_type_ids=tt))[0]
            probs = logits if params.use_activation is False else np.exp(logits) / np.exp(logits).sum()
            out.append(FakeOutput(outputs=types.SimpleNamespace(probs=probs.tolist())))
        return out


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    built: dict[str, Any] = {"honour": True}

    def make_llm(model: str, **kwargs: Any) -> FakeLLM:
        llm = FakeLLM(model=model, kwargs=kwargs, honour_token_types=built["honour"])
        built["llm"] = llm
        return llm

    vllm = types.ModuleType("vllm")
    vllm.LLM = make_llm  # type: ignore[attr-defined]
    vllm.PoolingParams = FakePoolingParams  # type: ignore[attr-defined]
    inputs = types.ModuleType("vllm.inputs")
    inputs.TokensPrompt = dict  # type: ignore[attr-defined]  # a TypedDict in vLLM
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.inputs", inputs)
    return built


@pytest.mark.parametrize(
    ("types_", "expected"),
    [([0, 0, 0, 1, 1], 3), ([0, 0], 2), ([1, 1], 0), ([0, 1, 0], None), ([1, 0], None)],
    ids=["pair", "single-segment", "all-one", "three-segments", "reversed"],
)
def test_first_type_one(types_: list[int], expected: int | None) -> None:
    from writegate.classifier.backends.vllm import first_type_one

    if expected is None:
        with pytest.raises(ValueError, match="0…0 1…1"):
            first_type_one(types_)
    else:
        assert first_type_one(types_) == expected


def test_missing_vllm_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from writegate.classifier.backends.vllm import VllmBackend

    monkeypatch.setitem(sys.modules, "vllm", None)  # import fails
    with pytest.raises(
        RuntimeError, match=r"the `gpu` extra installs: pip install 'writegate\[gpu\]'.*--backend torch"
    ):
        VllmBackend(tmp_path)


def test_requests_strip_padding_and_compress_token_types(fake_vllm: dict, tmp_path: Path) -> None:
    from writegate.classifier.backends.vllm import TOKEN_TYPES_KEY, VllmBackend

    backend = VllmBackend(tmp_path, max_length=64)
    kwargs = fake_vllm["llm"].kwargs
    assert (kwargs["runner"], kwargs["dtype"], kwargs["max_model_len"], kwargs["enable_prefix_caching"]) == (
        "pooling",
        "bfloat16",
        64,
        False,
    )
    batch = Batch(
        input_ids=np.array([[101, 7, 102, 8, 102, 0], [101, 5, 6, 102, 9, 102]]),
        attention_mask=np.array([[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1]]),
        token_type_ids=np.array([[0, 0, 0, 1, 1, 0], [0, 0, 0, 0, 1, 1]]),
    )
    prompts, params = backend.requests(batch)
    assert prompts == [{"prompt_token_ids": [101, 7, 102, 8, 102]}, {"prompt_token_ids": [101, 5, 6, 102, 9, 102]}]
    assert [p.extra_kwargs[TOKEN_TYPES_KEY] for p in params] == [3, 4]
    assert all(p.use_activation is False for p in params)


def test_vllm_matches_torch_and_passes_the_parity_check(fake_vllm: dict, tiny_model_dir: Path) -> None:
    pytest.importorskip("torch", reason="the fake vLLM runs the torch backend (the `train` extra)")
    from writegate.classifier.backends.torch import TorchBackend
    from writegate.classifier.backends.vllm import load_vllm_backend, probe_batch

    backend = load_vllm_backend(
        tiny_model_dir, reference=lambda: TorchBackend(tiny_model_dir, device="cpu", precision="fp32")
    )
    probe = probe_batch(tiny_model_dir, 128)
    got = backend.run(probe)
    want = TorchBackend(tiny_model_dir, device="cpu", precision="fp32").run(probe)
    np.testing.assert_allclose(got, want, atol=1e-5)


@pytest.fixture(scope="module")
def type_sensitive_model_dir(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model with a strong segment-B embedding: its outputs depend on the token types.

    [CLS] is always type 0, so the types reach the pooled output only through attention: the value
    and output projections and the pooler are scaled up too, or the random tiny model would mix
    almost nothing from segment B into [CLS].
    """
    pytest.importorskip("torch", reason="the fake vLLM runs the torch backend (the `train` extra)")
    pytest.importorskip("transformers", reason="the fake vLLM runs the torch backend (the `train` extra)")
    import shutil

    import torch
    from transformers import AutoModelForSequenceClassification

    from writegate.classifier.backends.vllm import PARITY_TOLERANCE, probe_batch

    out = tmp_path_factory.mktemp("type_sensitive")
    for f in tiny_model_dir.iterdir():
        if f.suffix != ".onnx":
            shutil.copy2(f, out / f.name)
    model = AutoModelForSequenceClassification.from_pretrained(str(tiny_model_dir), dtype=torch.float32).eval()
    probe = probe_batch(tiny_model_dir, 128)
    ids, mask, tt = (torch.tensor(a) for a in (probe.input_ids, probe.attention_mask, probe.token_type_ids))
    with torch.no_grad():
        torch.manual_seed(1)
        model.bert.embeddings.token_type_embeddings.weight[1].normal_(0, 3.0)
        for layer in model.bert.encoder.layer:
            layer.attention.self.value.weight.mul_(10.0)
            layer.attention.output.dense.weight.mul_(10.0)
        model.bert.pooler.dense.weight.mul_(10.0)
        model.classifier.weight.mul_(10.0)
        typed = model(input_ids=ids, attention_mask=mask, token_type_ids=tt).logits.softmax(-1)
        untyped = model(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(tt)).logits.softmax(-1)
    effect = float((typed - untyped).abs().max())
    assert effect > 5 * PARITY_TOLERANCE, f"the token types move the probe's probabilities by {effect:.4f} only"
    model.save_pretrained(str(out), safe_serialization=True)
    return out


def test_a_vllm_that_ignores_token_types_is_refused(fake_vllm: dict, type_sensitive_model_dir: Path) -> None:
    from writegate.classifier.backends.torch import TorchBackend
    from writegate.classifier.backends.vllm import load_vllm_backend

    def ref() -> TorchBackend:
        return TorchBackend(type_sensitive_model_dir, device="cpu", precision="fp32")

    assert load_vllm_backend(type_sensitive_model_dir, reference=ref).name == "vllm"  # honoured: accepted
    fake_vllm["honour"] = False
    with pytest.raises(RuntimeError, match="refusing to serve it"):
        load_vllm_backend(type_sensitive_model_dir, reference=ref)


# -- the backend's calls against an installed vllm ---------------------------------------------------
CHECK_BATCH = Batch(
    input_ids=np.array([[101, 7, 102, 8, 102, 0]]),
    attention_mask=np.array([[1, 1, 1, 1, 1, 0]]),
    token_type_ids=np.array([[0, 0, 0, 1, 1, 0]]),
)


def _keywords(obj: Any) -> tuple[set[str], bool]:
    """The keyword names `obj` (a callable or a class) takes, and whether it also takes **kwargs."""
    try:
        params = list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):  # no signature (e.g. a msgspec Struct): its declared fields
        names = getattr(obj, "__struct_fields__", None)
        if names is None and dataclasses.is_dataclass(obj):
            names = [f.name for f in dataclasses.fields(obj)]
        return set(names or ()), False
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return named, any(p.kind is p.VAR_KEYWORD for p in params)


def _bind(where: str, func: Any, args: tuple, kwargs: dict[str, Any]) -> list[str]:
    """[] when `func` accepts this call (by its signature), else the reason."""
    try:
        inspect.signature(func).bind(*args, **kwargs)
    except TypeError as exc:
        return [f"{where}: {exc}"]
    except ValueError:
        return [f"{where}: no signature to check the call against"]
    return []


def vllm_api_problems(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """What the backend uses that the importable `vllm` lacks or would refuse ([] when all is there).

    Drives `VllmBackend` with a recorder in place of `vllm.LLM` (nothing loads, no GPU) and checks the
    calls it makes: `vllm.LLM(...)` against `LLM`'s signature (keywords it leaves to **kwargs must be
    fields of `vllm.EngineArgs`); `vllm.PoolingParams(use_activation=False, extra_kwargs=...)` built
    for real, read back and `verify("classify")`-ed; the `prompt_token_ids` key of
    `vllm.inputs.TokensPrompt`; `LLM.classify(prompts, pooling_params=..., use_tqdm=...)` against its
    signature; the output fields read (`ClassificationRequestOutput.outputs`,
    `ClassificationOutput.probs`); and that a module of vllm's workers reads
    `extra_kwargs["compressed_token_type_ids"]`.
    """
    import importlib

    from writegate.classifier.backends.vllm import TOKEN_TYPES_KEY, VllmBackend

    problems: list[str] = []

    def attr(module: str, name: str) -> Any:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            problems.append(f"{module}.{name} is missing ({exc})")
            return None

    vllm = importlib.import_module("vllm")
    llm_cls, tokens_prompt = attr("vllm", "LLM"), attr("vllm.inputs", "TokensPrompt")
    out_cls, request_out_cls = (
        attr("vllm.outputs", "ClassificationOutput"),
        attr("vllm.outputs", "ClassificationRequestOutput"),
    )
    attr("vllm", "PoolingParams")
    if problems:
        return problems

    made: dict[str, Any] = {}

    class Recorder:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made["init"] = (args, kwargs)

        def classify(self, *args: Any, **kwargs: Any) -> list[Any]:
            made["classify"] = (args, kwargs)
            return [types.SimpleNamespace(outputs=types.SimpleNamespace(probs=[0.0] * 5)) for _ in args[0]]

    monkeypatch.setattr(vllm, "LLM", Recorder)
    try:
        backend = VllmBackend(tmp_path / "model", max_length=64)
    finally:
        monkeypatch.setattr(vllm, "LLM", llm_cls)
    args, kwargs = made["init"]
    problems += _bind("vllm.LLM(...)", llm_cls, args, kwargs)
    named, takes_more = _keywords(llm_cls)
    engine = getattr(vllm, "EngineArgs", None)
    fields = {f.name for f in dataclasses.fields(engine)} if dataclasses.is_dataclass(engine) else set()
    if takes_more:
        problems += [
            f"vllm.LLM(...): {k}= is neither a parameter of LLM nor a field of vllm.EngineArgs"
            for k in sorted(set(kwargs) - named - fields)
        ]

    try:
        prompts, params = backend.requests(CHECK_BATCH)
    except Exception as exc:
        return [*problems, f"building the requests failed: {type(exc).__name__}: {exc}"]
    if getattr(params[0], "use_activation", None) is not False:
        problems.append("PoolingParams(use_activation=False) does not keep use_activation=False")
    if getattr(params[0], "extra_kwargs", None) != {TOKEN_TYPES_KEY: 3}:
        problems.append(f"PoolingParams(extra_kwargs=...) does not keep {{{TOKEN_TYPES_KEY!r}: 3}}")
    verify = getattr(params[0], "verify", None)
    if verify is not None and not _bind("verify", verify, ("classify",), {}):
        try:
            verify("classify")
        except Exception as exc:
            problems.append(f"PoolingParams.verify('classify') refuses the backend's params: {exc}")
    keys = set(getattr(tokens_prompt, "__required_keys__", ())) | set(getattr(tokens_prompt, "__optional_keys__", ()))
    if "prompt_token_ids" not in (keys or set(getattr(tokens_prompt, "__annotations__", {}))):
        problems.append("vllm.inputs.TokensPrompt has no prompt_token_ids key")
    if prompts[0] != {"prompt_token_ids": [101, 7, 102, 8, 102]}:
        problems.append(f"TokensPrompt(prompt_token_ids=...) gave {prompts[0]!r}")

    backend.run(CHECK_BATCH)  # the recorder's outputs have the shape the backend reads
    classify = getattr(llm_cls, "classify", None)
    if classify is None:
        problems.append("vllm.LLM has no classify method")
    else:
        args, kwargs = made["classify"]
        problems += _bind("vllm.LLM.classify(...)", classify, (object(), *args), kwargs)
    if "probs" not in _keywords(out_cls)[0]:
        problems.append("vllm.outputs.ClassificationOutput has no probs field")
    if "outputs" not in _keywords(request_out_cls)[0]:
        problems.append("vllm.outputs.ClassificationRequestOutput has no outputs field")

    root = Path(vllm.__file__).parent if getattr(vllm, "__file__", None) else None
    readers = (
        []
        if root is None
        else [
            f
            for f in root.rglob("*.py")
            if "worker" in f.relative_to(root).parts
            and TOKEN_TYPES_KEY in f.read_text(encoding="utf-8", errors="replace")
        ]
    )
    if not readers:
        problems.append(
            f"no module of vllm's workers reads extra_kwargs[{TOKEN_TYPES_KEY!r}]: the token types "
            "would be dropped (the load-time parity check would then refuse to serve)"
        )
    return problems


def test_installed_vllm_has_what_the_backend_calls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Runs only where vllm is installed (the `gpu` extra); loads no model and needs no GPU."""
    pytest.importorskip(
        "vllm",
        reason="vllm is not installed (extra `gpu`): the backend's calls are checked only against the stand-in below",
    )
    assert vllm_api_problems(monkeypatch, tmp_path) == []


# A stand-in `vllm` package with the signatures of vLLM's source as read for the backend
# (vllm/entrypoints/llm.py, pooling_params.py, inputs, outputs.py, v1/worker/gpu_model_runner.py): it
# checks the check above, which CI can run on no real vllm.
STANDIN = {
    "vllm/__init__.py": """
        from __future__ import annotations

        from dataclasses import dataclass

        from vllm.pooling_params import PoolingParams


        @dataclass
        class EngineArgs:
            model: str = ""
            runner: str = "auto"
            dtype: str = "auto"
            max_model_len: int | None = None
            enable_prefix_caching: bool | None = None
            gpu_memory_utilization: float = 0.9


        class LLM:
            def __init__(self, model, *, runner="auto", convert="auto", tokenizer=None, dtype="auto",
                         gpu_memory_utilization=0.9, **kwargs):
                raise RuntimeError("the stand-in loads no model")

            def classify(self, prompts, *, pooling_params=None, use_tqdm=True, lora_request=None,
                         tokenization_kwargs=None):
                raise RuntimeError("the stand-in runs no model")
    """,
    "vllm/pooling_params.py": """
        from __future__ import annotations

        from dataclasses import dataclass
        from typing import Any


        @dataclass
        class PoolingParams:
            truncate_prompt_tokens: int | None = None
            dimensions: int | None = None
            normalize: bool | None = None
            use_activation: bool | None = None
            task: str | None = None
            extra_kwargs: dict[str, Any] | None = None

            def verify(self, task, model_config=None):
                valid = {"embed": ["dimensions", "normalize"], "classify": ["use_activation"]}[task]
                bad = [k for k in ("dimensions", "normalize", "use_activation") if k not in valid and getattr(self, k) is not None]
                if bad:
                    raise ValueError(f"Task {task} does not support {bad} parameters")
    """,
    "vllm/inputs/__init__.py": """
        from typing import NotRequired, TypedDict


        class TokensPrompt(TypedDict):
            prompt_token_ids: list[int]
            cache_salt: NotRequired[str]
    """,
    "vllm/outputs.py": """
        from __future__ import annotations

        from dataclasses import dataclass
        from typing import Generic, TypeVar

        _O = TypeVar("_O")


        @dataclass
        class ClassificationOutput:
            probs: list[float]


        class PoolingRequestOutput(Generic[_O]):
            def __init__(self, request_id, outputs, prompt_token_ids, finished):
                self.request_id, self.outputs = request_id, outputs


        class ClassificationRequestOutput(PoolingRequestOutput[ClassificationOutput]):
            pass
    """,
    "vllm/v1/worker/gpu_model_runner.py": """
        def token_type_ids(pooling_params, seq_len):
            k = pooling_params.extra_kwargs.get("compressed_token_type_ids")
            return [int(i >= k) for i in range(seq_len)]
    """,
}


@pytest.fixture
def install_standin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """install(edits): write the stand-in (each edit: file, old, new) and make `import vllm` find it."""
    root = tmp_path / "site"

    def install(*edits: tuple[str, str, str]) -> None:
        for rel, text in STANDIN.items():
            text = textwrap.dedent(text).lstrip()
            for file, old, new in edits:
                if file == rel:
                    assert old in text, (file, old)
                    text = text.replace(old, new)
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        for name in [n for n in sys.modules if n == "vllm" or n.startswith("vllm.")]:
            monkeypatch.delitem(sys.modules, name)  # a real one comes back at teardown
        monkeypatch.syspath_prepend(str(root))

    yield install
    for name in [n for n in sys.modules if n == "vllm" or n.startswith("vllm.")]:
        if str(root) in str(getattr(sys.modules[name], "__file__", None) or ""):
            del sys.modules[name]


def test_the_api_check_passes_on_a_standin_with_vllms_signatures(
    install_standin: Callable[..., None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    install_standin()
    assert vllm_api_problems(monkeypatch, tmp_path) == []


@pytest.mark.parametrize(
    ("edits", "problem"),
    [
        (
            [
                ("vllm/__init__.py", 'runner: str = "auto"', 'task: str = "auto"'),
                ("vllm/__init__.py", 'runner="auto", convert="auto"', 'task="auto"'),
            ],
            "vllm.LLM(...): runner= is neither",
        ),
        (
            [("vllm/pooling_params.py", "use_activation: bool | None = None", "activation: bool | None = None")],
            "building the requests failed: TypeError",
        ),
        (
            [("vllm/pooling_params.py", '"classify": ["use_activation"]', '"classify": ["activation"]')],
            "PoolingParams.verify('classify') refuses",
        ),
        (
            [("vllm/inputs/__init__.py", "class TokensPrompt", "class TokenIdsPrompt")],
            "vllm.inputs.TokensPrompt is missing",
        ),
        (
            [("vllm/inputs/__init__.py", "prompt_token_ids: list[int]", "token_ids: list[int]")],
            "no prompt_token_ids key",
        ),
        (
            [
                (
                    "vllm/__init__.py",
                    "def classify(self, prompts, *, pooling_params=None,",
                    "def classify(self, prompts, /, *,",
                )
            ],
            "vllm.LLM.classify(...): got an unexpected keyword argument 'pooling_params'",
        ),
        ([("vllm/__init__.py", "def classify(", "def encode(")], "vllm.LLM has no classify method"),
        ([("vllm/outputs.py", "probs: list[float]", "data: list[float]")], "ClassificationOutput has no probs field"),
        (
            [("vllm/v1/worker/gpu_model_runner.py", '"compressed_token_type_ids"', '"token_type_ids"')],
            "no module of vllm's workers reads",
        ),
    ],
    ids=[
        "task-not-runner",
        "no-use-activation",
        "use-activation-invalid",
        "no-tokens-prompt",
        "prompt-key",
        "classify-without-pooling-params",
        "no-classify",
        "no-probs",
        "token-types-not-read",
    ],
)
def test_the_api_check_names_what_a_vllm_lacks(
    install_standin: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    edits: list[tuple[str, str, str]],
    problem: str,
) -> None:
    """A stand-in changed where vLLM versions differ (file, old, new): the check reports the difference."""
    install_standin(*edits)
    problems = vllm_api_problems(monkeypatch, tmp_path)
    assert any(problem in p for p in problems), problems
