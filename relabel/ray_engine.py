"""`--engine ray`: the relabel chunks classified on Ray Data, one model per actor.

The driver does what must be global (read, validate, order, normalize, candidate search with
the same `plan.plan_subjects` as the local engine, embeddings included, checkpointing); Ray does
the classification. Each checkpoint chunk is one row of a Ray dataset
(the pickled `columnar.PairWindow`); `map_batches` runs `ChunkLabeler` — an actor pool, each
actor holding one backend and one `classifier.feeder.Feeder` — which labels the chunks exactly as
the local engine does (`Feeder.label`: the same batches, so the same numbers whichever engine ran a
chunk; `feeder_workers` worker processes per actor prepare them). Results stream back in chunk
order (`preserve_order`) and are committed one by one, so a killed Ray run resumes too.

The model directory is read by the driver and shipped through the object store (only the files the
backend needs), so worker nodes need no shared filesystem. On a cluster with GPUs each actor takes
one GPU and runs the torch backend on CUDA (bf16); without GPUs, actors run onnxruntime with
`threads` CPU threads each (default 1), as many actors as the cluster's CPUs allow; each actor
also asks for one CPU per feeder worker.

Ray is optional (`pip install 'writegate[ray]'`): it is imported only when this engine runs.
"""

from __future__ import annotations

import logging
import pickle
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from writegate.api.secrets import redact_url
from writegate.classifier.columnar import Labels, PairWindow
from writegate.classifier.windows import DEFAULT_BATCH_SIZE
from writegate.errors import InputError
from writegate.relabel.plan import Plan
from writegate.relabel.run import model_fingerprint

_SKIP_SUFFIXES: dict[str, tuple[str, ...]] = {"onnx": (".safetensors", ".bin"), "torch": (".onnx",)}


def require_ray() -> ModuleType:
    """Import ray (with Ray Data), or raise InputError saying how to install it."""
    try:
        import ray
        import ray.data  # the Data library is a separate extra
    except ImportError:
        raise InputError("--engine", "ray is not installed: pip install 'writegate[ray]' (or 'ray[data]')") from None
    return ray


def model_bundle(model_dir: Path, backend: str) -> dict[str, bytes]:
    """The model directory's top-level files that `backend` needs, by name."""
    skip = _SKIP_SUFFIXES.get(backend, ())
    return {p.name: p.read_bytes() for p in sorted(model_dir.iterdir()) if p.is_file() and not p.name.endswith(skip)}


class ChunkLabeler:
    """The actor class of `map_batches`: one backend and one feeder per actor.

    Args:
        bundle: `[ObjectRef]` of `model_bundle(...)` (in a list, so Ray passes the ref itself).
        backend: `onnx` or `torch`.
        batch_size: pairs per backend call.
        threads: intra-op threads (CPU).
        device: torch device (`cuda` on GPU actors).
        feeder_workers: worker processes that prepare the chunks (0 = in the actor).
    """

    def __init__(
        self,
        bundle: list[Any],
        backend: str,
        batch_size: int,
        threads: int | None,
        device: str | None,
        feeder_workers: int = 0,
    ) -> None:
        import ray

        from writegate.classifier.backends import load_backend
        from writegate.classifier.feeder import Feeder

        files: dict[str, bytes] = ray.get(bundle[0])
        self.dir = Path(tempfile.mkdtemp(prefix="writegate-model-"))
        for name, data in files.items():
            (self.dir / name).write_bytes(data)
        self.backend = load_backend(backend, self.dir, threads=threads, device=device)
        self.feeder = Feeder(self.dir, batch_size=batch_size, workers=feeder_workers)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        windows = [pickle.loads(payload) for payload in batch["payload"]]
        results = [pickle.dumps(labels, protocol=5) for labels in self.feeder.label(self.backend, windows)]
        return {"chunk": np.asarray(batch["chunk"]), "result": np.asarray(results, dtype=object)}

    def __del__(self) -> None:
        feeder = getattr(self, "feeder", None)
        if feeder is not None:
            feeder.close()
        shutil.rmtree(getattr(self, "dir", ""), ignore_errors=True)


class RayEngine:
    """Classify the chunks on Ray (see the module docstring).

    Args:
        model_dir: the model directory (on the driver).
        backend: `onnx` or `torch`; None = torch on CUDA when the cluster has GPUs, else onnx.
        batch_size: pairs per backend call.
        threads: CPU threads per actor (default 1).
        address: the cluster (`ray://host:10001`, `auto`); None = Ray's own default (RAY_ADDRESS,
            else a new local instance).
        actors: actor pool size; None = one per GPU, else CPUs // threads.
        num_cpus: CPUs of a new local instance (None = all).
        feeder_workers: worker processes per actor that prepare the chunks (0 = in the actor).
    """

    name = "ray"

    def __init__(
        self,
        model_dir: Path,
        backend: str | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        threads: int | None = None,
        address: str | None = None,
        actors: int | None = None,
        num_cpus: int | None = None,
        feeder_workers: int = 0,
    ) -> None:
        from writegate.classifier import modeldir

        self.ray = require_ray()
        if actors is not None and actors < 1:
            raise InputError("--ray-actors", f"must be ≥ 1, got {actors}")
        self.model_dir = Path(model_dir)
        self.meta = modeldir.read_meta(self.model_dir)
        self.requested_backend = backend
        self.batch_size = batch_size
        self.threads = threads
        self.address = address
        self.actors = actors
        self.num_cpus = num_cpus
        if feeder_workers < 0:
            raise InputError("--workers", f"must be ≥ 0, got {feeder_workers}")
        self.feeder_workers = feeder_workers
        self._started = False
        self._gpus = 0.0
        self._cpus = 1.0

    # -- cluster -------------------------------------------------------------------------------
    def _connect(self) -> None:
        logging.getLogger("ray.data").setLevel(logging.WARNING)  # our progress bar says it already
        if self.ray.is_initialized():
            resources = self.ray.cluster_resources()
        else:
            kwargs: dict[str, Any] = {"logging_level": logging.WARNING, "include_dashboard": False}
            if self.num_cpus is not None:
                kwargs["num_cpus"] = self.num_cpus
            try:
                self.ray.init(address=self.address, **kwargs)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise InputError(
                    "--ray-address",
                    f"cannot start or reach Ray ({redact_url(self.address) if self.address else 'local'}): {exc}",
                ) from None
            self._started = True
            resources = self.ray.cluster_resources()
        self._gpus = float(resources.get("GPU", 0.0))
        self._cpus = float(resources.get("CPU", 1.0))

    @property
    def backend(self) -> str:
        """The backend the actors run."""
        if self.requested_backend is not None:
            return self.requested_backend
        return "torch" if self._gpus >= 1 else "onnx"

    def _pool(self) -> tuple[int, float, float, int | None, str | None]:
        """(actors, CPUs per actor, GPUs per actor, threads, device)."""
        feeders = self.feeder_workers
        if self._gpus >= 1 and self.backend == "torch":
            return self.actors or int(self._gpus), 1.0 + feeders, 1.0, self.threads, "cuda"
        threads = self.threads or 1
        per_actor = threads + feeders
        return self.actors or max(1, int(self._cpus // per_actor)), float(per_actor), 0.0, threads, None

    # -- Engine --------------------------------------------------------------------------------
    def fingerprint(self) -> dict[str, Any]:
        """Model tree hash, resolved backend and batch size (connects to Ray)."""
        self._connect()
        return model_fingerprint(self.model_dir, self.backend, self.batch_size)

    def model_info(self) -> dict[str, str]:
        """Name and version from writegate.json."""
        return {"name": self.meta.name, "version": self.meta.version}

    def plan_mapper(self) -> None:
        """The plan runs on the driver."""
        return None

    def close(self) -> None:
        """Nothing to release: `label_chunks` shuts down the Ray instance it started."""
        return None

    def label_chunks(self, chunks: Iterator[PairWindow], plan: Plan) -> Iterator[Labels]:
        """Run every remaining chunk through the actor pool; yield results in chunk order."""
        ray = self.ray
        rows = [{"chunk": w.index, "payload": pickle.dumps(w, protocol=5)} for w in chunks]
        try:
            if not rows:
                return
            if not ray.is_initialized():
                self._connect()
            actors, cpus, gpus, threads, device = self._pool()
            ctx = ray.data.DataContext.get_current()
            ctx.execution_options.preserve_order = True
            ctx.enable_progress_bars = False
            bundle = ray.put(model_bundle(self.model_dir, self.backend))
            per_call = 2 * self.feeder_workers or 1  # chunks per actor call: the feeder's workers run ahead
            ds = ray.data.from_items(rows, override_num_blocks=-(-len(rows) // per_call))
            labelled = ds.map_batches(
                ChunkLabeler,
                fn_constructor_kwargs={
                    "bundle": [bundle],
                    "backend": self.backend,
                    "batch_size": self.batch_size,
                    "threads": threads,
                    "device": device,
                    "feeder_workers": self.feeder_workers,
                },
                batch_size=per_call,
                batch_format="numpy",
                compute=ray.data.ActorPoolStrategy(size=min(actors, len(rows))),
                num_cpus=cpus,
                num_gpus=gpus,
            )
            expected = iter(row["chunk"] for row in rows)
            for row in labelled.iter_rows():
                index = int(row["chunk"])
                if index != next(expected):
                    raise RuntimeError(f"Ray returned chunk {index} out of order")
                labels: Labels = pickle.loads(row["result"])
                yield labels
        finally:
            if self._started:
                ray.shutdown()
                self._started = False
