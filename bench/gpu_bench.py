"""One GPU, one run, side by side: sentence-transformers vs writegate relabel vs writegate serve.

    bench/gpu.sh                                   # on the lent GPU machine (installs the carried wheels)
    python bench/gpu_bench.py --smoke --device cpu # here: tiny sizes, end to end on the CPU

Rows, all on the same generated store (`bench/pipeline.py`'s `distinct_store`: distinct memories,
25 a subject) and the shipped model (`models/default`):

- **sentence-transformers**: `CrossEncoder.predict` in bf16 on the relabel's pairs, rendered with
  writegate's input format (`features.render(...).segments`: the texts writegate's model reads),
  at the best batch size of a short sweep (what a user would pick instead of writegate);
- **writegate relabel**: `LocalEngine(model, backend="torch", device=D, batch_size=B, workers=N)`
  through `relabel()` (every pair written), after a warm-up run on a small store;
- **sentence-transformers, serve's pairs**: the same at its best batch on the pairs the served
  requests carry;
- **writegate serve**: a `writegate serve --backend torch --device D --precision bf16` subprocess
  (bench/serve.py's `start_server`), `--clients` closed-loop asyncio gRPC clients (64) sending
  PrepareWrite requests of `--k` candidates (16) built from the store (a memory and 16 others of
  its subject); p50/p99 are PrepareWrite latencies;
- **null-backend pipeline**: the same relabel with `--backend null` (fixed logits): the ceiling
  this machine's CPUs put on any GPU through this code.

Per row: pairs, pairs/s, p50/p99 (serve), mean GPU utilisation sampled with NVML during the row,
top-label agreement with the CPU int8 onnx model on a fixed sample of the same pairs (`--sample`;
computed on this machine's CPU with onnxruntime: sentence-transformers' argmax against the int8
logits' argmax, writegate's labels (fusion and guards) against the int8 model's through the same
`Classifier`), the ratio to sentence-transformers on the same pairs, and the issue's targets
(relabel ≥ 25,000 pairs/s and served ≥ 10,000 pairs/s at 64 × 16 on an H100/H200, both ≥ 2×
sentence-transformers). Prints one table; with `--out DIR` (default `$OUT` when set) writes
`gpu_bench.json` and `gpu_bench.md` there, after every row (a run cut short keeps its rows).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/pipeline.py, bench/serve.py

import pipeline

from writegate.classifier import features, modeldir
from writegate.relabel.plan import Plan, build_plan
from writegate.relabel.run import LocalEngine, RelabelOptions, relabel
from writegate.relabel.stores.jsonl import JsonlSource

ROOT = Path(__file__).resolve().parents[1]
LABELS = ("unrelated", "corroborates", "elaborates", "contradicts", "supersedes")
TARGETS = {"relabel": 25_000.0, "serve": 10_000.0}
"""pairs/s on an H100/H200 (issue 35); and each ≥ 2× sentence-transformers on the same pairs."""
STORE_SEED, WARM_SEED = 11, 97
"""`distinct_store`'s seeds for the measured store and the warm-up store."""
MIN_GRPC, MIN_PROTOBUF = (1, 85, 1), (7, 35, 1)
"""What proto/writegate/v1's generated code checks (GRPC_GENERATED_VERSION, the protobuf runtime)."""
REFERENCE_FORMAT = 1
LIMIT_MIB, TARGET_MIB = 64, 60
"""What a device call may send; what bench/gpu_prepare.sh aims under."""


@dataclass
class Row:
    """One line of the table."""

    system: str
    pairs: int = 0
    pairs_per_s: float | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    gpu_util: float | None = None
    agreement: float | None = None
    agreement_n: int = 0
    vs_st: float | None = None
    target: str = ""
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


# -- GPU utilisation -------------------------------------------------------------------------------


class GpuSampler:
    """Mean GPU utilisation (NVML, %) over a `with` block, sampled every `period` seconds; None without NVML."""

    def __init__(self, index: int = 0, period: float = 0.05) -> None:
        self.period = period
        self.handle: Any = None
        try:
            import pynvml

            pynvml.nvmlInit()
            self.nvml = pynvml
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            self.name = str(pynvml.nvmlDeviceGetName(self.handle))
        except Exception as exc:
            self.name = f"no NVML ({type(exc).__name__})"

    @contextmanager
    def measure(self) -> Iterator[list[float]]:
        samples: list[float] = []
        if self.handle is None:
            yield samples
            return
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(self.period):
                samples.append(float(self.nvml.nvmlDeviceGetUtilizationRates(self.handle).gpu))

        t = threading.Thread(target=loop, daemon=True)
        t.start()
        try:
            yield samples
        finally:
            stop.set()
            t.join()


def mean(samples: Sequence[float]) -> float | None:
    return float(np.mean(samples)) if samples else None


# -- the pairs -------------------------------------------------------------------------------------


def texts_of(plan: Plan, indices: Sequence[int], input_format: int) -> list[tuple[str, str]]:
    """The two segments of plan pairs `indices`, as a model of `input_format` reads them (before truncation)."""
    out = []
    for i in indices:
        e, n = plan.pairs[i]
        re_, rn = plan.records[e], plan.records[n]
        text = features.render(re_.text, re_.observed_at, rn.text, rn.observed_at, plan.comparisons[i], input_format)
        out.append(text.segments)
    return out


def sample_indices(total: int, n: int) -> list[int]:
    """A fixed, evenly spread sample of `n` of `total` indices."""
    if total <= n:
        return list(range(total))
    return sorted({int(round(x)) for x in np.linspace(0, total - 1, n)})


class Reference:
    """The CPU int8 onnx model (this machine's CPU): labels with fusion and guards, and raw argmax."""

    def __init__(self, model: Path) -> None:
        from writegate.classifier.model import Classifier

        self.classifier = Classifier.load(model, "onnx", precision="int8")

    def labels(self, pairs: Sequence[Any]) -> tuple[list[str], list[str]]:
        """(fused labels, raw-logit argmax labels) of `pairs`."""
        from writegate.classifier.columnar import window_logits

        prepared = self.classifier.prepare(list(pairs))
        logits = self.classifier.run(prepared)
        preds = self.classifier.label(prepared, logits).predictions()
        raw = window_logits(prepared, logits)
        return [str(p.label.value) for p in preds], [LABELS[i] for i in np.argmax(raw, axis=1)]


def agreement(got: Sequence[str], want: Sequence[str]) -> float:
    return float(np.mean([a == b for a, b in zip(got, want, strict=True)])) if want else float("nan")


# -- sentence-transformers -------------------------------------------------------------------------


def load_cross_encoder(model: Path, device: str, bf16: bool) -> tuple[Any, str]:
    """A CrossEncoder on the model directory, in bf16 (or fp32); returns (encoder, its dtype)."""
    import torch
    from sentence_transformers import CrossEncoder

    kwargs: dict[str, Any] = {"device": device, "max_length": 128}
    dtype = torch.bfloat16 if bf16 else torch.float32
    try:
        ce = CrossEncoder(str(model), local_files_only=True, model_kwargs={"dtype": dtype}, **kwargs)
    except TypeError:  # an older signature
        ce = CrossEncoder(str(model), **kwargs)
    params = next(ce.parameters()) if hasattr(ce, "parameters") else next(ce.model.parameters())
    if params.dtype != dtype:
        (ce if hasattr(ce, "parameters") else ce.model).to(dtype)
        params = next(ce.parameters()) if hasattr(ce, "parameters") else next(ce.model.parameters())
    return ce, str(params.dtype).replace("torch.", "")


def st_predict(
    ce: Any, texts: Sequence[tuple[str, str]], batch: int, sync: Callable[[], None]
) -> tuple[np.ndarray, float]:
    """Logits of `texts` at `batch`; (logits, seconds)."""
    t0 = time.perf_counter()
    out = ce.predict(list(texts), batch_size=batch, show_progress_bar=False, convert_to_numpy=True)
    sync()
    return np.asarray(out, dtype=np.float32), time.perf_counter() - t0


# -- relabel ---------------------------------------------------------------------------------------


def run_relabel(
    store: Path, model: Path, backend: str, device: str | None, batch: int, workers: int, chunk: int, k: int
) -> tuple[Any, float, Path]:
    """One whole relabel (every pair written); (stats, wall seconds, the edges file)."""
    engine = LocalEngine(model, backend=backend, batch_size=batch, workers=workers, device=device)
    out = Path(tempfile.mkdtemp(prefix="gpu-bench-relabel-")) / "edges.jsonl"
    options = RelabelOptions(input=store, out=out, k=k, chunk_size=chunk, keep_unrelated=True, restart=True)
    t0 = time.perf_counter()
    stats = relabel(options, engine)
    return stats, time.perf_counter() - t0, out


def edge_labels(path: Path) -> dict[tuple[str, str], str]:
    """(existing_id, new_id) → label of an edges file."""
    out = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            out[(row["existing_id"], row["new_id"])] = row["label"]
    return out


# -- serve -----------------------------------------------------------------------------------------


def version_tuple(version: str) -> tuple[int, ...]:
    """(1, 85, 3) of "1.85.3" (the leading numbers; "7.36.2rc1" → (7, 36, 2))."""
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3])


def protobuf_unavailable() -> str | None:
    """Why writegate's protobuf code (PrepareWrite requests, `api.convert`) cannot load here; None when it can."""
    try:
        from google.protobuf import __version__ as version
    except ImportError as exc:
        return f"no protobuf ({exc})"
    if version_tuple(version) < MIN_PROTOBUF:
        return f"protobuf {version} < {'.'.join(map(str, MIN_PROTOBUF))} (proto/writegate/v1)"
    try:
        import writegate.api.convert
        import writegate.v1.writegate_pb2  # noqa: F401
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:100]}"
    return None


def serve_unavailable() -> str | None:
    """Why the serve row cannot run here (grpc missing or older than the generated code needs, the
    server's imports failing); None when it can."""
    if (why := protobuf_unavailable()) is not None:
        return why
    try:
        import grpc
    except ImportError as exc:
        return f"no grpc ({exc})"
    version = str(getattr(grpc, "__version__", "0"))
    if version_tuple(version) < MIN_GRPC:
        return f"grpcio {version} < {'.'.join(map(str, MIN_GRPC))} (writegate_pb2_grpc)"
    try:
        import serve  # noqa: F401 - bench/serve.py: the server subprocess, the metrics scrape

        import writegate.server.app  # noqa: F401 - grpc_health, grpc_reflection, the generated stubs
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:100]}"
    return None


def store_requests(rows: Sequence[dict[str, Any]], k: int, n: int) -> list[Any]:
    """`n` PrepareWrite requests from the store: a memory and `k` other memories of its subject."""
    from writegate.v1 import writegate_pb2 as pb

    by_subject: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_subject.setdefault(r["subject"], []).append(r)
    groups = [g for g in by_subject.values() if len(g) > k]
    if not groups:
        raise SystemExit(f"gpu_bench: no subject has more than {k} memories")

    def memory(r: dict[str, Any]) -> Any:
        m = pb.Memory(id=r["id"], subject=r["subject"], text=r["text"])
        m.observed_at.FromDatetime(datetime.fromisoformat(r["observed_at"]).replace(tzinfo=None))
        return m

    per = min(len(g) for g in groups)  # each memory of a subject is the new one once: few distinct memories
    out = []
    for i in range(n):
        g = groups[(i // per) % len(groups)]
        j = i % per
        others = [g[(j + 1 + c) % len(g)] for c in range(k)]
        out.append(pb.PrepareWriteRequest(memory=memory(g[j]), candidates=[memory(o) for o in others]))
    return out


def memory_side(mem: Any) -> Any:
    """A memory as one side of a pair, normalized here as the server does (`writegate.api.normalizing`,
    which needs no grpc)."""
    from writegate.api.normalizing import Normalizer

    (side,) = Normalizer(size=0).sides([mem])
    return side


def served_pairs(requests: Sequence[Any]) -> list[Any]:
    """Each request's pairs as the server builds them (candidate = EXISTING, the new memory = NEW), normalized here."""
    from writegate.api import convert
    from writegate.classifier.types import Pair

    side = memory_side
    sides: dict[str, Any] = {}

    def cached(m: Any) -> Any:
        if m.id not in sides:
            sides[m.id] = side(convert.memory_from_proto(m))
        return sides[m.id]

    return [Pair(existing=cached(c), new=cached(req.memory)) for req in requests for c in req.candidates]


def served_ids(requests: Sequence[Any]) -> list[tuple[str, str]]:
    """(existing_id, new_id) of each served pair, in `served_pairs`' order."""
    return [(c.id, req.memory.id) for req in requests for c in req.candidates]


async def served_run(target: str, requests: Sequence[Any], clients: int) -> tuple[list[float], list[list[str]], float]:
    """`clients` closed-loop callers send `requests`; (latencies, labels per request in order, wall)."""
    import serve

    grpc = serve.grpc
    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
    labels: list[list[str]] = [[] for _ in requests]
    latencies: list[float] = []
    async with grpc.aio.insecure_channel(target, options=options) as channel:
        stub = serve.pb_grpc.WriteGateStub(channel)
        for req in requests[: min(8, len(requests))]:  # warm: the connection, CUDA kernels for these shapes
            await stub.PrepareWrite(req, timeout=300)
        it = iter(enumerate(requests))

        async def client() -> None:
            for i, req in it:
                t = time.perf_counter()
                resp = await stub.PrepareWrite(req, timeout=300)
                latencies.append(time.perf_counter() - t)
                labels[i] = [serve.pb.Label.Name(r.label).removeprefix("LABEL_").lower() for r in resp.relations]

        t0 = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        return latencies, labels, time.perf_counter() - t0


# -- the run ---------------------------------------------------------------------------------------


@dataclass
class Sizes:
    records: int
    warm_records: int
    sample: int
    st_sweep: tuple[int, ...]
    st_sweep_pairs: int
    st_max_pairs: int
    requests: int
    clients: int


FULL = Sizes(40_000, 2_000, 2_000, (64, 128, 256, 512, 1024), 16_384, 400_000, 3_072, 64)
SMOKE = Sizes(200, 50, 100, (16, 32), 64, 300, 16, 8)


# -- the workload, the carried store and reference -------------------------------------------------


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def make_store(carried: Path, dest: Path, records: int, seed: int, console: Console) -> Path:
    """The store at `dest`: `carried` (gzip, written by `--prepare`) when it holds `records` memories,
    else `pipeline.distinct_store(dest, records, seed)` (needs faker)."""
    if carried.is_file():
        data = gzip.decompress(carried.read_bytes())
        held = data.count(b"\n")
        if held == records:
            dest.write_bytes(data)
            console.log(f"{dest.name}: {records:,} memories from {carried}")
            return dest
        console.log(f"{carried} holds {held:,} memories, this run wants {records:,}: generating")
    try:
        return pipeline.distinct_store(dest, records, seed=seed)
    except ImportError as exc:  # faker: not on the GPU machine
        raise SystemExit(
            f"gpu_bench: no {carried} of {records:,} memories, and no store can be generated here ({exc}): "
            "run bench/gpu_prepare.sh (with --smoke for a smoke run) and carry .whl"
        ) from exc


@dataclass
class Workload:
    """The store, the relabel's pairs (in its order), the served requests, and the two fixed samples
    the agreement column reads."""

    store: Path
    warm_store: Path
    store_sha256: str
    plan: Plan
    sample: list[int]
    requests: list[Any]
    pairs: list[Any]
    served_sample: list[int]
    served_skip: str | None
    """Why there are no served requests (writegate's protobuf code does not load); None when there are."""

    def relabel_keys(self) -> list[tuple[str, str]]:
        """(existing_id, new_id) of the sampled relabel pairs."""
        return [
            (self.plan.records[self.plan.pairs[i][0]].id, self.plan.records[self.plan.pairs[i][1]].id)
            for i in self.sample
        ]

    def served_keys(self) -> list[tuple[str, str]]:
        """(existing_id, new_id) of the sampled served pairs."""
        ids = served_ids(self.requests)
        return [ids[i] for i in self.served_sample]


def workload(args: argparse.Namespace, sizes: Sizes, work: Path, console: Console) -> Workload:
    t0 = time.perf_counter()
    store = make_store(args.carried / "store.jsonl.gz", work / "store.jsonl", sizes.records, STORE_SEED, console)
    warm = make_store(args.carried / "warm.jsonl.gz", work / "warm.jsonl", sizes.warm_records, WARM_SEED, console)
    from writegate.classifier.feeder import Feeder

    with Feeder(args.model, workers=args.workers) as feeder:  # normalize in the workers, as relabel does
        plan = build_plan(JsonlSource(store).rows(), args.k, mapper=feeder.map if args.workers else None)
    sample = sample_indices(len(plan.pairs), sizes.sample)
    requests: list[Any] = []
    pairs: list[Any] = []
    served_sample: list[int] = []
    skip = protobuf_unavailable()
    if skip is None:
        rows = [json.loads(line) for line in store.open(encoding="utf-8")]
        requests = store_requests(rows, args.serve_k, sizes.requests)
        pairs = served_pairs(requests)
        served_sample = sample_indices(len(pairs), sizes.sample)
    console.log(
        f"store {sizes.records:,} memories → {len(plan.pairs):,} relabel pairs, {len(pairs):,} served pairs "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    return Workload(store, warm, sha256_file(store), plan, sample, requests, pairs, served_sample, skip)


@dataclass
class RefLabels:
    """The CPU int8 ONNX model's labels of the two samples: fused (fusion and guards) and raw argmax."""

    fused: list[str]
    raw: list[str]
    served_fused: list[str]
    served_raw: list[str]
    source: str


def compute_reference(model: Path, wl: Workload) -> RefLabels:
    """The int8 labels of the samples, on this machine's CPU (onnxruntime)."""
    ref = Reference(model)
    fused, raw = ref.labels([wl.plan.pair(i) for i in wl.sample])
    sfused, sraw = ref.labels([wl.pairs[i] for i in wl.served_sample]) if wl.served_sample else ([], [])
    return RefLabels(fused, raw, sfused, sraw, f"{model / 'model.int8.onnx'}, computed on this machine's CPU")


def reference_params(args: argparse.Namespace, sizes: Sizes) -> dict[str, Any]:
    return {
        "records": sizes.records,
        "k": args.k,
        "serve_k": args.serve_k,
        "requests": sizes.requests,
        "sample": sizes.sample,
        "mode": "smoke" if args.smoke else "full",
    }


def write_reference(path: Path, model: Path, wl: Workload, labels: RefLabels, params: dict[str, Any]) -> None:
    """The labels, keyed by (existing_id, new_id) and tied to the store's sha256, as JSON."""
    doc = {
        "format": REFERENCE_FORMAT,
        "store_sha256": wl.store_sha256,
        "int8_sha256": sha256_file(model / "model.int8.onnx"),
        "params": params,
        "relabel": [[e, n, f, r] for (e, n), f, r in zip(wl.relabel_keys(), labels.fused, labels.raw, strict=True)],
        "served": [
            [e, n, f, r] for (e, n), f, r in zip(wl.served_keys(), labels.served_fused, labels.served_raw, strict=True)
        ],
    }
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")


def load_reference(path: Path, wl: Workload) -> tuple[RefLabels | None, str]:
    """The labels `write_reference` wrote, when they are this run's: the same store (sha256) and the
    same sampled pairs, in order; else (None, why it is refused)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return None, f"REFUSED {path}: unreadable ({exc})"
    made = doc.get("params", {}) if isinstance(doc, dict) else {}

    def refuse(why: str) -> tuple[None, str]:
        return (
            None,
            f"REFUSED {path}: {why}; it was made for {made}. Run bench/gpu_prepare.sh again for this run's sizes",
        )

    if not isinstance(doc, dict) or doc.get("format") != REFERENCE_FORMAT:
        return refuse(f"not a reference of format {REFERENCE_FORMAT}")
    if doc.get("store_sha256") != wl.store_sha256:
        return refuse(
            f"made for another store (sha256 {str(doc.get('store_sha256'))[:12]}…, this run's {wl.store_sha256[:12]}…)"
        )
    got: dict[str, list[list[str]]] = {}
    for name, keys in (("relabel", wl.relabel_keys()), ("served", wl.served_keys())):
        rows = doc.get(name) or []
        if name == "served" and not keys:  # no served requests here: nothing of it is read
            got[name] = []
            continue
        if [(r[0], r[1]) for r in rows] != keys:
            return refuse(f"its {len(rows):,} {name} pairs are not this run's {len(keys):,} sampled pairs")
        if any(r[2] not in LABELS or r[3] not in LABELS for r in rows):
            return refuse(f"a {name} label is not one of {LABELS}")
        got[name] = rows
    source = f"{path} (int8 ONNX sha256 {str(doc.get('int8_sha256'))[:12]}…, made by bench/gpu_prepare.sh)"
    rel, srv = got["relabel"], got["served"]
    return RefLabels([r[2] for r in rel], [r[3] for r in rel], [r[2] for r in srv], [r[3] for r in srv], source), ""


def prepare(args: argparse.Namespace, console: Console) -> int:
    """`--prepare DIR`: the stores (gzip) and the int8 reference of this run's sizes, into DIR."""
    sizes = SMOKE if args.smoke else FULL
    if args.records:
        sizes = replace(sizes, records=args.records)
    int8 = args.model / "model.int8.onnx"
    if not int8.is_file():
        raise SystemExit(f"gpu_bench --prepare: no {int8}: the reference needs it")
    out: Path = args.prepare
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="gpu-bench-prepare-"))
    for name, records, seed in (("store", sizes.records, STORE_SEED), ("warm", sizes.warm_records, WARM_SEED)):
        path = pipeline.distinct_store(work / f"{name}.jsonl", records, seed=seed)
        (out / f"{name}.jsonl.gz").write_bytes(gzip.compress(path.read_bytes(), mtime=0))
    args.carried = out
    wl = workload(args, sizes, work, console)
    if wl.served_skip is not None:
        raise SystemExit(f"gpu_bench --prepare: the served pairs need writegate's protobuf code: {wl.served_skip}")
    t0 = time.perf_counter()
    labels = compute_reference(args.model, wl)
    write_reference(out / "int8_reference.json", args.model, wl, labels, reference_params(args, sizes))
    console.log(
        f"{out / 'int8_reference.json'}: int8 labels of {len(wl.sample):,} relabel and {len(wl.served_sample):,} "
        f"served pairs ({time.perf_counter() - t0:.1f} s); store sha256 {wl.store_sha256[:12]}…"
    )
    return 0


# -- what a device call sends ----------------------------------------------------------------------


def travel_bytes(root: Path, carry: Sequence[str]) -> dict[str, tuple[int, int]]:
    """What a device call sends from the checkout `root`, as {part: (files, bytes)}: git-tracked files
    present in the working tree, untracked files not ignored, ignored files under shared/, and each
    `carry` path (each file counted once, in the first part that holds it; links as links)."""

    def listed(*args: str) -> list[str]:
        cmd = ["git", "-C", str(root), "ls-files", "-z", *args]
        return [p for p in subprocess.run(cmd, capture_output=True, check=True).stdout.decode().split("\0") if p]

    def walk(rel: str) -> list[str]:
        top = root / rel
        if top.is_symlink() or top.is_file():
            return [rel]
        return [str((Path(d) / f).relative_to(root)) for d, _, files in os.walk(top) for f in files]

    parts = {
        "tracked files present": listed(),
        "untracked, not ignored": listed("--others", "--exclude-standard"),
        "shared/, ignored": listed("--others", "--ignored", "--exclude-standard", "--", "shared")
        if (root / "shared").is_dir()
        else [],
    }
    for rel in carry:
        parts[f"carry {rel}"] = walk(rel)
    seen: set[str] = set()
    out = {}
    for part, paths in parts.items():
        files = size = 0
        for p in paths:
            if p in seen:
                continue
            seen.add(p)
            try:
                size += os.lstat(root / p).st_size
            except FileNotFoundError:  # tracked, deleted from the working tree: it does not travel
                continue
            files += 1
        out[part] = (files, size)
    return out


def print_travel(root: Path, carry: Sequence[str]) -> int:
    """Prints `travel_bytes`; 1 when the total is `LIMIT_MIB` or more."""
    parts = travel_bytes(root, carry)
    mib = 1 << 20
    for part, (files, size) in parts.items():
        print(f"  {part:<26} {files:>6,} files {size / mib:>8.2f} MiB")
    total = sum(size for _, size in parts.values())
    verdict = "fits" if total < LIMIT_MIB * mib else "DOES NOT FIT"
    target = "" if total <= TARGET_MIB * mib else f", over the {TARGET_MIB} MiB target"
    print(f"travels: {total / mib:.2f} MiB ({verdict}: a device call sends less than {LIMIT_MIB} MiB{target})")
    return 0 if total < LIMIT_MIB * mib else 1


class Bench:
    def __init__(self, args: argparse.Namespace, console: Console) -> None:
        self.args = args
        self.console = console
        self.rows: list[Row] = []
        self.meta: dict[str, Any] = {}
        self.out: Path | None = args.out

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        self.console.log(f"{row.system}: {fmt(row.pairs_per_s)} pairs/s {row.note}")
        self.save()
        return row

    def save(self) -> None:
        if self.out is None:
            return
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "gpu_bench.json").write_text(
            json.dumps({"meta": self.meta, "rows": [asdict(r) for r in self.rows]}, indent=2, default=str) + "\n"
        )
        (self.out / "gpu_bench.md").write_text(markdown(self.meta, self.rows))


def fmt(x: float | None, spec: str = ",.0f") -> str:
    return "—" if x is None else format(x, spec)


COLUMNS = ("system", "pairs", "pairs/s", "p50 ms", "p99 ms", "GPU util %", "agree w/ CPU int8", "× ST", "target")


def cells(r: Row) -> list[str]:
    agree = "—" if r.agreement is None else f"{100 * r.agreement:.2f}% ({r.agreement_n:,})"
    return [
        r.system + (f" ({r.note})" if r.note else ""),
        f"{r.pairs:,}" if r.pairs else "—",
        fmt(r.pairs_per_s),
        fmt(r.p50_ms, ".1f"),
        fmt(r.p99_ms, ".1f"),
        fmt(r.gpu_util, ".0f"),
        agree,
        "—" if r.vs_st is None else f"{r.vs_st:.2f}×",
        r.target or "—",
    ]


def markdown(meta: dict[str, Any], rows: Sequence[Row]) -> str:
    lines = [
        f"{meta.get('device_name', '?')}, {meta.get('date', '?')}, {meta.get('cpus', '?')} CPUs, "
        f"torch {meta.get('torch', '?')}, model {meta.get('model', '?')}, {meta.get('mode', '?')} run",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    lines += ["| " + " | ".join(c.replace("|", "/") for c in cells(r)) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def serve_row(
    row: Row, args: argparse.Namespace, sizes: Sizes, wl: Workload, sampler: GpuSampler, ref: RefLabels | None
) -> None:
    """`writegate serve` on the device, `sizes.clients` closed-loop clients sending `wl.requests`; fills `row`."""
    import serve

    cuda = args.device.startswith("cuda")
    ns = argparse.Namespace(
        model=args.model,
        backend="torch",
        threads=None,
        device=args.device,
        precision="bf16" if cuda else "fp32",
        batch_workers=args.batch_workers,
        max_wait_ms=args.max_wait_ms,
        max_batch_tokens=args.max_batch_tokens,
    )
    metrics_port = serve.free_port()
    proc, port = serve.start_server(ns, metrics_port)
    try:
        b0 = serve.scrape_batches(metrics_port)
        srv0 = serve.cpu_seconds(proc.pid)
        with sampler.measure() as util:
            t0 = time.perf_counter()
            latencies, labels, wall = asyncio.run(served_run(f"127.0.0.1:{port}", wl.requests, sizes.clients))
            span = time.perf_counter() - t0
        b1 = serve.scrape_batches(metrics_port)
        server_cores = (serve.cpu_seconds(proc.pid) - srv0) / span
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    lat = np.asarray(latencies) * 1000
    row.pairs = len(wl.requests) * args.serve_k
    row.pairs_per_s = row.pairs / wall
    row.p50_ms, row.p99_ms = float(np.percentile(lat, 50)), float(np.percentile(lat, 99))
    row.gpu_util = mean(util)
    mean_batch = (b1[0] - b0[0]) / max(b1[1] - b0[1], 1)
    row.note = f"{sizes.clients} clients × {args.serve_k}, mean batch {mean_batch:.0f}, server {server_cores:.1f} cores"
    row.target = f"≥ {TARGETS['serve']:,.0f}/s, ≥ 2× ST"
    if ref is not None and ref.served_fused:
        flat = [lab for per in labels for lab in per]
        row.agreement = agreement([flat[i] for i in wl.served_sample], ref.served_fused)
        row.agreement_n = len(wl.served_sample)
    row.extra = {"mean_batch": mean_batch, "server_cores": server_cores}


def run(args: argparse.Namespace, console: Console) -> Bench:
    import torch

    sizes = SMOKE if args.smoke else FULL
    if args.records:
        sizes = replace(sizes, records=args.records)
    cuda = args.device.startswith("cuda")
    sync: Callable[[], None] = torch.cuda.synchronize if cuda else (lambda: None)
    bench = Bench(args, console)
    sampler = GpuSampler()
    bench.meta = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "device": args.device,
        "device_name": torch.cuda.get_device_name(0) if cuda else f"CPU ({os.cpu_count()} cores)",
        "nvml": sampler.name,
        "cpus": os.cpu_count(),
        "torch": torch.__version__,
        "model": str(args.model),
        "mode": "smoke" if args.smoke else "full",
        "workers": args.workers,
        "relabel_batch": args.relabel_batch,
        "k": args.k,
        "sizes": asdict(sizes),
    }
    work = Path(tempfile.mkdtemp(prefix="gpu-bench-"))

    # the store (carried, or generated), the plan (the relabel's pairs, in its order), the samples
    wl = workload(args, sizes, work, console)
    store, warm_store, plan, sample = wl.store, wl.warm_store, wl.plan, wl.sample
    bench.meta["pairs"] = len(plan.pairs)
    bench.meta["store_sha256"] = wl.store_sha256

    # the CPU int8 reference on the samples: computed on this machine's CPU when the model is here,
    # else read from the file bench/gpu_prepare.sh wrote (refused unless it is this run's)
    t0 = time.perf_counter()
    ref: RefLabels | None = None
    int8 = args.model / "model.int8.onnx"
    reference = args.carried / "int8_reference.json"
    if int8.is_file():
        ref = compute_reference(args.model, wl)
    elif reference.is_file():
        ref, why = load_reference(reference, wl)
        if ref is None:
            console.log(f"[bold red]{why}[/]: the agreement column stays empty")
            bench.meta["reference"] = why
    else:
        bench.meta["reference"] = f"none: no {int8}, no {reference}"
        console.log(f"no {int8} and no {reference}: the agreement column stays empty")
    if ref is not None:
        bench.meta["reference"] = ref.source
        console.log(f"CPU int8 reference: {ref.source} ({time.perf_counter() - t0:.1f} s)")

    # 1. sentence-transformers on the relabel's pairs, best batch of a sweep
    st_best: tuple[int, float] | None = None
    st_row = Row("sentence-transformers CrossEncoder.predict")
    ce: Any = None
    try:
        ce, dtype = load_cross_encoder(args.model, args.device, bf16=cuda)
    except Exception as exc:
        st_row.note = f"skipped: {type(exc).__name__}: {str(exc)[:80]}"
        bench.add(st_row)
    if ce is not None:
        st_row.system += f" {dtype}"
        n_st = min(len(plan.pairs), sizes.st_max_pairs)
        texts = texts_of(plan, range(n_st), modeldir.read_meta(args.model).input_format_version)
        sweep_texts = texts[: sizes.st_sweep_pairs]
        st_predict(ce, sweep_texts[: max(sizes.st_sweep)], sizes.st_sweep[0], sync)  # warm
        rates = {}
        for b in sizes.st_sweep:
            _, secs = st_predict(ce, sweep_texts, b, sync)
            rates[b] = len(sweep_texts) / secs
        best = max(rates, key=lambda b: rates[b])
        console.log("sentence-transformers sweep: " + ", ".join(f"{b}: {r:,.0f}/s" for b, r in rates.items()))
        with sampler.measure() as util:
            logits, secs = st_predict(ce, texts, best, sync)
        st_best = (best, len(texts) / secs)
        st_row.pairs, st_row.pairs_per_s, st_row.gpu_util = len(texts), st_best[1], mean(util)
        st_row.note = f"batch {best}, best of {'/'.join(map(str, sizes.st_sweep))}"
        st_row.extra = {"sweep": rates}
        in_st = [i for i in sample if i < n_st]
        if ref is not None and in_st:
            got = [LABELS[int(np.argmax(logits[i]))] for i in in_st]
            st_row.agreement = agreement(got, [ref.raw[sample.index(i)] for i in in_st])
            st_row.agreement_n = len(in_st)
            st_row.extra["agreement_vs"] = "int8 raw argmax"
        bench.add(st_row)

    # 2. writegate relabel on the device
    row = Row(f"writegate relabel (torch {args.device}{', bf16' if cuda else ', fp32'})")
    run_relabel(warm_store, args.model, "torch", args.device, args.relabel_batch, args.workers, args.chunk_size, args.k)
    with sampler.measure() as util:
        stats, wall, edges = run_relabel(
            store, args.model, "torch", args.device, args.relabel_batch, args.workers, args.chunk_size, args.k
        )
    row.pairs, row.pairs_per_s, row.gpu_util = stats.pairs, stats.pairs / wall, mean(util)
    row.note = f"batch {args.relabel_batch}, {args.workers} workers"
    row.target = f"≥ {TARGETS['relabel']:,.0f}/s, ≥ 2× ST"
    row.extra = {"wall_s": wall, "timings": stats.timings}
    if ref is not None:
        got_labels = edge_labels(edges)
        ids = wl.relabel_keys()
        row.agreement, row.agreement_n = agreement([got_labels.get(p, "?") for p in ids], ref.fused), len(ids)
    if st_best:
        row.vs_st = row.pairs_per_s / st_best[1]
    bench.add(row)

    # 3. writegate serve at clients × k, and sentence-transformers on the same pairs
    pairs, served_sample = wl.pairs, wl.served_sample
    st_serve: float | None = None
    if ce is not None and st_best and wl.served_skip is None:
        srow = Row(f"sentence-transformers {dtype}, serve's pairs")
        fmt = modeldir.read_meta(args.model).input_format_version
        stexts = [features.render_pair(p, features.compare_pair(p), fmt).segments for p in pairs]
        with sampler.measure() as util:
            logits, secs = st_predict(ce, stexts, st_best[0], sync)
        st_serve = len(stexts) / secs
        srow.pairs, srow.pairs_per_s, srow.gpu_util, srow.note = (
            len(stexts),
            st_serve,
            mean(util),
            f"batch {st_best[0]}",
        )
        if ref is not None and ref.served_raw:
            got = [LABELS[int(np.argmax(logits[i]))] for i in served_sample]
            srow.agreement, srow.agreement_n = agreement(got, ref.served_raw), len(served_sample)
        bench.add(srow)
    elif wl.served_skip is not None:
        bench.add(Row("sentence-transformers, serve's pairs", note=f"skipped: {wl.served_skip}"))
    del ce
    if cuda:
        torch.cuda.empty_cache()

    row = Row(f"writegate serve (torch {args.device}{', bf16' if cuda else ', fp32'})")
    why = serve_unavailable()
    if why is not None:
        row.note = f"skipped: {why}"
        console.log(f"writegate serve: skipped: {why}")
        bench.add(row)
    else:
        try:
            serve_row(row, args, sizes, wl, sampler, ref)
        except (Exception, SystemExit) as exc:
            row.note = f"failed: {type(exc).__name__}: {str(exc)[:120]}"
        if row.pairs and st_serve:
            row.vs_st = row.pairs_per_s / st_serve if row.pairs_per_s else None
        bench.add(row)

    # 4. the null-backend pipeline ceiling on this CPU
    row = Row("null-backend pipeline (CPU ceiling)")
    stats, wall, _ = run_relabel(
        store, args.model, "null", None, args.relabel_batch, args.workers, args.chunk_size, args.k
    )
    row.pairs, row.pairs_per_s = stats.pairs, stats.pairs / wall
    row.note = f"{args.workers} workers, no model"
    bench.add(row)
    return bench


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="tiny sizes (CPU smoke run)")
    p.add_argument("--device", default="cuda", help="torch device of every row (default cuda)")
    p.add_argument("--model", type=Path, default=ROOT / "models" / "default")
    p.add_argument("--records", type=int, default=None, help="store size (default 40,000; smoke 200)")
    p.add_argument("--workers", type=int, default=None, help="feeder workers (default one per core less one)")
    p.add_argument("--relabel-batch", type=int, default=512, help="relabel's batch size on the device")
    p.add_argument("--chunk-size", type=int, default=4096, help="relabel's window (checkpoint chunk)")
    p.add_argument("-k", type=int, default=8, help="relabel's candidates per memory")
    p.add_argument("--serve-k", type=int, default=16, help="candidates per PrepareWrite")
    p.add_argument("--batch-workers", type=int, default=None, help="the server's batches at once")
    p.add_argument("--max-batch-tokens", type=int, default=65536, help="the server's batch cap")
    p.add_argument("--max-wait-ms", type=float, default=2.0)
    env_out = os.environ.get("OUT")
    p.add_argument("--out", type=Path, default=Path(env_out) if env_out else None, help="gpu_bench.json/.md here")
    p.add_argument(
        "--carried",
        type=Path,
        default=ROOT / ".whl",
        help="where store.jsonl.gz, warm.jsonl.gz and int8_reference.json are read when present (default .whl)",
    )
    p.add_argument("--prepare", type=Path, metavar="DIR", help="only write the stores and the int8 reference into DIR")
    p.add_argument(
        "--travel-size", nargs="*", metavar="CARRY", help="only print what a device call carrying CARRY would send"
    )
    args = p.parse_args(argv)
    if args.travel_size is not None:
        return print_travel(ROOT, args.travel_size)
    if args.workers is None:
        from writegate.classifier.feeder import default_workers

        args.workers = default_workers()
    if args.smoke:
        args.relabel_batch = min(args.relabel_batch, 64)
        args.chunk_size = min(args.chunk_size, 512)
        args.max_batch_tokens = min(args.max_batch_tokens, 8192)
    console = Console(width=200)
    if args.prepare is not None:
        return prepare(args, console)
    bench = run(args, console)
    table = Table(title=f"writegate on {bench.meta['device_name']}: {bench.meta['mode']} run, {bench.meta['date']}")
    for col in COLUMNS:
        table.add_column(col, justify="left" if col == "system" else "right")
    for r in bench.rows:
        table.add_row(*cells(r))
    console.print(table)
    console.print(
        f"{bench.meta['pairs']:,} relabel pairs (K={args.k}); {bench.meta['cpus']} CPUs; torch {bench.meta['torch']}; "
        "agreement: ST's argmax vs the int8 logits' argmax, writegate's labels vs the int8 model's with fusion and guards"
    )
    console.print(f"int8 reference: {bench.meta.get('reference', '—')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
