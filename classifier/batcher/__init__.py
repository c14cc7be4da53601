"""The dynamic batcher: pairs from all concurrent requests share one bounded queue and one worker.

Flow of one request (`await batcher.submit(pairs, deadline=...)`, `core.py`):

1. admission (`Batcher.check_admission`, `queue.py`): if the queue cannot take all its pairs,
   `QueueFull` at once (RESOURCE_EXHAUSTED); if its deadline is sooner than the pairs queued ahead
   of it can be run, `DeadlineExceeded` at once; once `shed()` ran, `BatcherClosed`;
2. pre: `Classifier.encode(pairs)` (the pairs as one window: compare their records, render,
   tokenize; the pairs carry their normalized records) in the encode thread, off the loop;
3. the window's rows join the queue together (a request's pairs run together or not at all), each
   with its own future.

The worker (one asyncio task, `Batcher._work`) waits for a free run slot, then for the first pair,
then up to `max_wait_ms` after that pair arrived for more (or until a batch's worth of tokens is
waiting), and takes a window of whole requests from the head of the queue: at most
`lookahead_batches` batches' worth of tokens and, once the speed is known and `batch_ms` is set, at
most what the free slots run in `batch_ms`. It drops cancelled and expired requests, sorts the
window's pairs by length and cuts them into batches whose padded size n × L stays within
`max_batch_tokens` (text-embeddings-inference's budget) and, with `batch_ms`, whose pairs one
worker runs in about `batch_ms` (`forming.py`). **When the window is formed**, the batches are laid
out on the run slots at the measured speed (`forming.plan_finish`): a request whose last pair would
end after its deadline is dropped whole (`DeadlineExceeded`) and never reaches the model; each
batch is checked again when it gets its slot. Each batch runs in a run thread (`runner.py`):
`columnar.gather` → `Classifier.run` → `Classifier.label`. Up to `workers` batches run at once:
the worker waits for a free run slot *before* it forms the next window, so the queue fills while
every slot is busy, and a window that makes fewer batches than there are idle slots is split so
that no slot idles (a lone request's pairs run on every slot). On the CPU, `workers` = cores with
one intra-op thread each matches one batch on all cores under load and cuts a lone request's
latency (`bench/serve.py --batch-workers N --threads T` compares them; results:
training/EXPERIMENTS.md, "Serving speed"). An exception in a batch fails only that batch's pairs
(`BatchFailed`); the worker carries on.

The policy, the speed and memory: every setting above is one frozen `QueuePolicy` (`policy.py`),
handed to the batcher once (the server builds it from its config). `measure()` times a load of
pairs through the whole pipeline (pairs/s; the server runs it as its warm-up); under load, every
saturated stretch of at least `runner.SPEED_WINDOW_S` measures the speed again. With
`queue_wait_ms` set, the queue bound follows that speed (`QueuePolicy.queue_bound`): the pairs it
runs in `queue_wait_ms` less one batch (`batch_ms`), so that a request admitted to a full queue
finishes about `queue_wait_ms` later. `shed()` (the server's SIGTERM) refuses new requests and
fails every request none of whose pairs has started with `BatcherClosed`, at once; batches already
running finish. Once nothing has been queued or running for `idle_release_s`, the model's free
working memory is handed back to the OS (`Classifier.release_memory` — onnxruntime's arena — then
glibc's `malloc_trim`): the peak of a load does not stay resident after it.

`submit(..., timeline=Timeline())` also records when the request's pairs joined the queue and when
each of its batches ran (wall clock, for the server's trace spans).

Job kinds (`jobs.py`): all of the above is the same whatever a batcher runs; what differs is its
`JobKind`: how a request's items are encoded, how many tokens each counts and how a batch of them
runs. `Batcher(classifier)` runs the classifier's pairs (`PairJobs`, the steps named above);
`Batcher(TextJobs(embedder))` runs texts to embed (the Embed RPC: one embedder run per batch,
several requests' texts in it), with the same policy, admission, deadlines and shedding; its
"pairs" are texts.
"""

from __future__ import annotations

from writegate.classifier.batcher.core import Batcher
from writegate.classifier.batcher.jobs import JobKind, PairJobs, TextEmbedder, TextJobs
from writegate.classifier.batcher.policy import QueuePolicy
from writegate.classifier.batcher.queue import BatchObserver, BatchRun, Timeline

__all__ = [
    "BatchObserver",
    "BatchRun",
    "Batcher",
    "JobKind",
    "PairJobs",
    "QueuePolicy",
    "TextEmbedder",
    "TextJobs",
    "Timeline",
]
