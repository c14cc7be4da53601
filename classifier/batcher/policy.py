"""The queue policy: one frozen value, read once, that says how the batcher admits pairs, forms
batches and sizes its queue from the measured speed.

The queue bound and the batch size are functions of the policy and the speed (`QueuePolicy.queue_bound`,
`QueuePolicy.batch_pairs`) and of nothing else: the batcher, the server's log line and the service's
request limits all read them here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MIN_BATCH_PAIRS = 4
"""`batch_ms` never cuts batches smaller than this."""


def queue_pairs_for(pairs_per_s: float, max_wait_ms: float, *, floor: int = 1, ceiling: int = 65_536) -> int:
    """The queue bound that `pairs_per_s` drains in about `max_wait_ms`, within [floor, ceiling]. Pure.

    Beyond it a request would wait longer than that before its batch even starts, so it is
    better refused at once (RESOURCE_EXHAUSTED) than answered late (DEADLINE_EXCEEDED).
    """
    if floor > ceiling:
        raise ValueError(f"floor {floor} > ceiling {ceiling}")
    if not math.isfinite(pairs_per_s) or pairs_per_s <= 0:
        return floor
    return max(floor, min(ceiling, math.ceil(pairs_per_s * max_wait_ms / 1000.0)))


@dataclass(frozen=True)
class QueuePolicy:
    """How the batcher admits pairs and forms batches (the server builds it from its config:
    `ServerConfig.queue_policy`).

    Attributes:
        max_batch_tokens: padded tokens (n × L) per batch.
        max_wait_ms: how long the first waiting pair may wait for company.
        lookahead_batches: how many batches' worth of waiting pairs are sorted together.
        workers: batches that may run at once, each in its own run thread.
        max_queue_pairs: pairs admitted but not yet run; beyond it a request is refused (a request
            alone always fits). With `queue_wait_ms`, the bound until a speed is known.
        queue_wait_ms: when set, the queue bound follows the measured speed: the pairs it runs in
            this long less one `batch_ms`, within [`queue_floor`, `queue_ceiling`] (None: the bound
            is `max_queue_pairs`).
        queue_floor: the smallest sized bound.
        queue_ceiling: the largest sized bound (never below `queue_floor`).
        batch_ms: once the speed is known, a batch holds at most the pairs one worker runs in this
            long (at least `MIN_BATCH_PAIRS`), and a window at most that per free slot (None: only
            the token budgets cut).
        idle_release_s: after this long with nothing queued or running (and batches run since the
            last time), release the model's free memory; None = never.

    Raises:
        ValueError: a setting out of range.
    """

    max_batch_tokens: int = 8192
    max_wait_ms: float = 2.0
    lookahead_batches: int = 4
    workers: int = 1
    max_queue_pairs: int = 4096
    queue_wait_ms: float | None = None
    queue_floor: int = 1
    queue_ceiling: int = 65_536
    batch_ms: float | None = None
    idle_release_s: float | None = 1.0

    def __post_init__(self) -> None:
        if self.max_batch_tokens < 1:
            raise ValueError(f"max_batch_tokens must be ≥ 1, got {self.max_batch_tokens}")
        if self.workers < 1:
            raise ValueError(f"workers must be ≥ 1, got {self.workers}")
        if self.batch_ms is not None and self.batch_ms <= 0:
            raise ValueError(f"batch_ms must be > 0, got {self.batch_ms}")
        if self.max_queue_pairs < 1:
            raise ValueError(f"max_queue_pairs must be ≥ 1, got {self.max_queue_pairs}")

    @property
    def sized(self) -> bool:
        """True when the queue bound follows the measured speed (`queue_wait_ms` is set)."""
        return self.queue_wait_ms is not None

    @property
    def max_wait_s(self) -> float:
        """`max_wait_ms` in seconds (never negative)."""
        return max(0.0, self.max_wait_ms) / 1000.0

    @property
    def lookahead_tokens(self) -> int:
        """The most tokens of waiting pairs sorted into one window."""
        return self.max_batch_tokens * max(1, self.lookahead_batches)

    def queue_bound(self, pairs_per_s: float | None) -> int:
        """THE admission bound, in pairs, at the measured speed (None: not known yet).

        Sized (`queue_wait_ms`) with a known speed: what that speed runs in `queue_wait_ms` less one
        `batch_ms` (`queue_pairs_for`, within [`queue_floor`, `queue_ceiling`]) — a request admitted
        to a full queue waits about that long, then its own batch runs. Otherwise `max_queue_pairs`.
        """
        if self.queue_wait_ms is None or not pairs_per_s:
            return self.max_queue_pairs
        wait_ms = max(1.0, self.queue_wait_ms - (self.batch_ms or 0.0))
        ceiling = max(self.queue_floor, self.queue_ceiling)
        return queue_pairs_for(pairs_per_s, wait_ms, floor=self.queue_floor, ceiling=ceiling)

    def batch_pairs(self, pairs_per_s: float | None) -> int | None:
        """The most pairs one batch holds: what one worker runs in `batch_ms` at the measured speed (at
        least `MIN_BATCH_PAIRS`); None without `batch_ms` or a speed."""
        if self.batch_ms is None or not pairs_per_s:
            return None
        return max(MIN_BATCH_PAIRS, int(pairs_per_s / self.workers * self.batch_ms / 1000.0))

    def run_seconds(self, pairs: int, pairs_per_s: float) -> float:
        """How long one worker takes for a batch of `pairs` at the measured speed (all workers busy)."""
        return pairs * self.workers / pairs_per_s
