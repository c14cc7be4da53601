"""The WriteGate servicer: a thin adapter proto → pydantic → pure functions → proto.

Errors are mapped to gRPC status codes in ONE place, `status_for`:

| exception | status |
| --- | --- |
| `InputError` (bad input, names the field) | INVALID_ARGUMENT |
| `QueueFull` | RESOURCE_EXHAUSTED |
| `DeadlineExceeded` | DEADLINE_EXCEEDED |
| `NotReady`, `BatcherClosed` | UNAVAILABLE |
| `BatchFailed`, anything else | INTERNAL |

Order of work in Classify and PrepareWrite: validate (INVALID_ARGUMENT), then admission
(`Batcher.check_admission`: the server is not shutting down, else UNAVAILABLE; the batcher's queue
must take the candidates now, else RESOURCE_EXHAUSTED "server busy"; the pairs queued ahead must
be done before the deadline, else DEADLINE_EXCEEDED), then normalize and classify — so a request
that can never succeed is never told to retry later, and none that cannot be answered in time is
normalized. A request whose own batch cannot end by its deadline is dropped, before the model
runs it, when its batch is formed (DEADLINE_EXCEEDED).

Normalize once (`writegate.api.normalizing`): the servicer normalizes the new memory and each
candidate once (its `Normalizer` keeps the outcomes of recent memories: store candidates recur
across writes) and hands the classifier pairs that carry those records (`Side.records`); the
classifier never normalizes. Cache misses are normalized off the event loop, all of a request's
misses in ONE task (`normalize_many`): in the normalize pool when the server has one
(`--normalize-workers`, a `Feeder` whose worker processes take that work off this process's GIL)
and the normalizer is the real `normalize`, else in a worker thread. A Relabel stream normalizes
each window's memories in a worker thread, through the same cache. Either way a failure becomes an
error that names the field (`candidates[2].text: …`) by the same code (`records_or_error`).

Each RPC runs its stages through methods of the servicer (`_validate`, `_records_of`, `_labels`,
`_prepared`), which `writegate.server.tracing.TracedWriteGateService` wraps in trace spans; the
servicer itself knows nothing of tracing.

Embed: validate (INVALID_ARGUMENT `texts[2]: …`), then the Embed batcher (`TextJobs`: a second
batcher of the same kind as the classifier's, its own queue under the same policy) admits the
texts and embeds them with other calls' texts, one embedder run per batch; its errors map as
the pairs' do.

Relabel answers every pair: its relation, or a `PairError` with the code and message
`status_for` gives its error (a bad request, a full queue, a failed batch), and the stream goes
on. Only `STREAM_ERRORS` (not ready, shutting down, the deadline) and the request stream itself
(a cancel, undecodable bytes) end it with a status.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import Any, TypeVar

import grpc
import numpy as np

from writegate.api import convert, prepare
from writegate.api.normalizing import (
    RECORD_CACHE_SIZE,
    MemoryKey,
    Normalized,
    NormalizeFn,
    Normalizer,
    normalize_many,
    records_or_error,
    side,
)
from writegate.classifier.batcher import Batcher
from writegate.classifier.feeder import Feeder
from writegate.classifier.types import ModelInfo, Pair, Prediction
from writegate.classifier.windows import alabel_pairs
from writegate.errors import BatcherClosed, BatchFailed, DeadlineExceeded, InputError, QueueFull
from writegate.normalizer.api import normalize
from writegate.normalizer.schema import Memory, Record
from writegate.server import validate
from writegate.v1 import writegate_pb2 as pb
from writegate.v1 import writegate_pb2_grpc as pb_grpc

log = logging.getLogger(__name__)

RelabelItem = tuple[int, Memory, Memory]
"""One valid Relabel request before normalization: (its index in the stream, EXISTING, NEW)."""
RELABEL_DEPTH = 2
"""Relabel windows queued per stream (one more is being answered and one being dispatched)."""
_Resp = TypeVar("_Resp")


class NotReady(Exception):
    """The model is not loaded (or warmed up) yet (UNAVAILABLE)."""


STREAM_ERRORS: tuple[type[Exception], ...] = (NotReady, BatcherClosed, DeadlineExceeded)
"""Errors that end a Relabel stream; any other error of a window is its pairs' own `PairError`."""


def status_for(exc: BaseException) -> tuple[grpc.StatusCode, str]:
    """THE mapping of exceptions to (status code, message)."""
    if isinstance(exc, InputError):
        return grpc.StatusCode.INVALID_ARGUMENT, str(exc)
    if isinstance(exc, QueueFull):
        return grpc.StatusCode.RESOURCE_EXHAUSTED, f"server busy: {exc}"
    if isinstance(exc, DeadlineExceeded):
        return grpc.StatusCode.DEADLINE_EXCEEDED, str(exc)
    if isinstance(exc, (NotReady, BatcherClosed)):
        return grpc.StatusCode.UNAVAILABLE, str(exc)
    if isinstance(exc, BatchFailed):
        return grpc.StatusCode.INTERNAL, str(exc)
    log.exception("unexpected error", exc_info=exc)
    return grpc.StatusCode.INTERNAL, f"internal error: {type(exc).__name__}"


def pair_error(exc: Exception) -> pb.PairError:
    """One Relabel pair's own error: `status_for`'s code (its number) and message."""
    code, message = status_for(exc)
    return pb.PairError(code=code.value[0], message=message)


def relabel_window_for(window: int, max_queue_pairs: int) -> int:
    """`window`, shrunk so that the windows one stream has admitted at once fit the queue together.

    A stream has up to `RELABEL_DEPTH` + 2 windows in the batcher (one being answered,
    `RELABEL_DEPTH` queued, one being dispatched); were they more than `max_queue_pairs` pairs, a
    lone stream would fill the queue itself and its own pairs would be refused as "server busy".
    """
    return max(1, min(window, max_queue_pairs // (RELABEL_DEPTH + 2)))


def _unary(
    fn: Callable[[Any, Any, grpc.aio.ServicerContext], Awaitable[_Resp]],
) -> Callable[[Any, Any, grpc.aio.ServicerContext], Awaitable[_Resp]]:
    @functools.wraps(fn)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> _Resp:
        try:
            return await fn(self, request, context)
        except Exception as exc:  # mapped, never leaked as a traceback
            code, message = status_for(exc)
        await context.abort(code, message)
        raise AssertionError("unreachable: abort raises")

    return wrapper


def _stream(
    fn: Callable[[Any, Any, grpc.aio.ServicerContext], AsyncIterator[_Resp]],
) -> Callable[[Any, Any, grpc.aio.ServicerContext], AsyncIterator[_Resp]]:
    @functools.wraps(fn)
    async def wrapper(self: Any, request_iterator: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[_Resp]:
        try:
            async for item in fn(self, request_iterator, context):
                yield item
            return
        except Exception as exc:
            code, message = status_for(exc)
        await context.abort(code, message)

    return wrapper


class WriteGateService(pb_grpc.WriteGateServicer):
    """The servicer. `attach()` gives it the loaded model; until then every RPC is UNAVAILABLE.

    Args:
        limits: request validation limits.
        relabel_window: Relabel pairs in flight per stream.
        normalizer: `normalize` (injectable for tests); the one place memories are normalized.
        clock: monotonic seconds (deadlines), shared with the batcher.
        now: the wall clock (observed_at bounds).
        record_cache_size: memories whose records are kept (`writegate.api.normalizing.RecordCache`).
        feeder: the normalize pool: when set, and `normalizer` is the real `normalize`, a request's
            cache misses are normalized in its worker processes (one task per request); else in a
            worker thread. The owner closes it (`WriteGateServer.stop`).
    """

    def __init__(
        self,
        *,
        limits: validate.Limits = validate.DEFAULT_LIMITS,
        relabel_window: int = 256,
        normalizer: NormalizeFn = normalize,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        record_cache_size: int = RECORD_CACHE_SIZE,
        feeder: Feeder | None = None,
    ) -> None:
        self.limits = limits
        self.relabel_window = relabel_window
        self.normalizing = Normalizer(normalizer, record_cache_size)
        self.clock = clock
        self.now = now
        self.feeder = feeder
        self._feeder_generation = 0  # bumped each time a broken pool is restarted
        self._feeder_restarting = False
        self._batcher: Batcher[Pair, Prediction] | None = None
        self._info: ModelInfo | None = None
        self._embed_batcher: Batcher[str, np.ndarray] | None = None
        self._embedder: tuple[str, int] | None = None  # (name, dim)

    def attach(self, batcher: Batcher[Pair, Prediction], info: ModelInfo) -> None:
        """Serve with this batcher and model.

        The limits are fitted to its queue: with a set bound (`--max-queue-pairs`), at most
        `max_queue_pairs` candidates per request (`validate.limits_for_queue`); Relabel windows that
        fit it (`relabel_window_for`). A bound that follows the speed takes any request alone
        (`Batcher.check_admission`): no valid request alone is ever "server busy".
        """
        queue = batcher.max_queue_pairs
        limits = self.limits if batcher.policy.sized else validate.limits_for_queue(self.limits, queue)
        if limits.max_candidates != self.limits.max_candidates:
            log.warning(
                "max_candidates %d is more than max_queue_pairs %d can ever hold: requests are limited to %d candidates",
                self.limits.max_candidates,
                queue,
                limits.max_candidates,
            )
        window = relabel_window_for(self.relabel_window, queue)
        if window != self.relabel_window:
            log.info(
                "Relabel windows of %d pairs (not %d): a stream's windows in flight must fit max_queue_pairs %d",
                window,
                self.relabel_window,
                queue,
            )
        self.limits, self.relabel_window = limits, window
        self._batcher, self._info = batcher, info

    def attach_embedder(self, batcher: Batcher[str, np.ndarray], name: str, dim: int) -> None:
        """Serve Embed with this batcher (`TextJobs` of the embedder called `name`, `dim` floats a text).

        As for candidates (`attach`), a set queue bound caps the texts per request
        (`validate.limits_for_queue`).
        """
        limits = self.limits
        if not batcher.policy.sized:
            limits = validate.limits_for_queue(limits, batcher.max_queue_pairs, "max_embed_texts")
        if limits.max_embed_texts != self.limits.max_embed_texts:
            log.warning(
                "max_embed_texts %d is more than max_queue_pairs %d can ever hold: Embed requests are limited to %d texts",
                self.limits.max_embed_texts,
                batcher.max_queue_pairs,
                limits.max_embed_texts,
            )
        self.limits = limits
        self._embed_batcher, self._embedder = batcher, (name, dim)

    @property
    def batcher(self) -> Batcher[Pair, Prediction]:
        """The batcher; NotReady until attached."""
        if self._batcher is None:
            raise NotReady("the model is still loading")
        return self._batcher

    @property
    def embed_batcher(self) -> Batcher[str, np.ndarray]:
        """The Embed batcher; NotReady until attached."""
        if self._embed_batcher is None:
            raise NotReady("the embedder is still loading")
        return self._embed_batcher

    @property
    def embedder(self) -> tuple[str, int]:
        """The embedder's (name, dim); NotReady until attached."""
        if self._embedder is None:
            raise NotReady("the embedder is still loading")
        return self._embedder

    @property
    def info(self) -> ModelInfo:
        """The model info; NotReady until attached."""
        if self._info is None:
            raise NotReady("the model is still loading")
        return self._info

    @property
    def normalizer(self) -> NormalizeFn:
        """The normalize function; setting another one starts an empty cache (never the old one's records)."""
        return self.normalizing.normalize

    @normalizer.setter
    def normalizer(self, normalizer: NormalizeFn) -> None:
        self.normalizing = Normalizer(normalizer, self.normalizing.cache.size)

    # -- helpers ---------------------------------------------------------------------------------
    def _deadline(self, context: grpc.aio.ServicerContext) -> float | None:
        remaining = context.time_remaining()
        return None if remaining is None else self.clock() + remaining

    async def _normalized(self, keys: list[MemoryKey]) -> list[Normalized]:
        """`normalize_many(keys)` off the event loop: in the normalize pool when there is one and the
        normalizer is the real `normalize`, else in a worker thread.

        A pool whose worker died (killed, out of memory) is restarted once, and these items are
        normalized in a thread, so the server goes on.
        """
        feeder = self.feeder
        if feeder is None or self.normalizer is not normalize or self._feeder_restarting:
            return await asyncio.to_thread(normalize_many, keys, self.normalizer)
        generation = self._feeder_generation
        try:
            # shielded: a cancelled RPC must not cancel the feeder's future, which its worker's result
            # would then find cancelled (an error logged by concurrent.futures); the result is dropped
            return await asyncio.shield(asyncio.wrap_future(feeder.submit(normalize_many, keys)))
        except BrokenProcessPool:
            if generation == self._feeder_generation and not self._feeder_restarting:
                log.warning("a normalize worker process died: restarting the normalize pool")
                self._feeder_restarting = True  # meanwhile, requests normalize in threads
                try:
                    await asyncio.to_thread(feeder.close)
                finally:
                    self._feeder_generation += 1
                    self._feeder_restarting = False
            return await asyncio.to_thread(normalize_many, keys, self.normalizer)

    async def _records_of(self, mems: Sequence[Memory], fields: Sequence[str]) -> list[tuple[Record, ...]]:
        """Each memory's records: cache hits at once, the misses (each distinct memory once) normalized
        together in one task (`_normalized`). InputError: the first memory in order that fails, naming
        its field (`fields[i]`, e.g. `candidates[2]` → `candidates[2].text: …`)."""
        batch = self.normalizing.plan(MemoryKey.of(mem) for mem in mems)
        outcomes = batch.resolve(await self._normalized(batch.todo) if batch.todo else [])
        return records_or_error(outcomes, fields)

    async def _pairs(self, mem: Memory, candidates: Sequence[Memory]) -> tuple[tuple[Record, ...], list[Pair]]:
        """The new memory's records and its pair with each candidate, every memory normalized once."""
        fields = ["memory", *(f"candidates[{i}]" for i in range(len(candidates)))]
        new_records, *candidate_records = await self._records_of([mem, *candidates], fields)
        new = side(mem, new_records)
        return new_records, [
            Pair(existing=side(c, r), new=new) for c, r in zip(candidates, candidate_records, strict=True)
        ]

    def _validate(self, check: Callable[..., None], request: Any) -> None:
        """Validate `request` with `check` (one of `validate`'s, against the clock and the limits)."""
        check(request, now=self.now(), limits=self.limits)

    async def _labels(self, pairs: list[Pair], deadline: float | None) -> list[Prediction]:
        """The pairs' predictions, from the batcher."""
        return await self.batcher.submit(pairs, deadline=deadline)

    def _prepared(
        self, new_id: str, records: Sequence[Record], relations: Sequence[prepare.Relation]
    ) -> pb.PrepareWriteResponse:
        """What the store should record: the roles and edges of `prepare.prepare_write`, as a response."""
        return convert.prepare_write_to_proto(prepare.prepare_write(new_id, records, relations))

    def _admit(self, n: int, deadline: float | None) -> None:
        """Admission, after validation and before any work: the batcher's own rule (BatcherClosed,
        QueueFull, DeadlineExceeded)."""
        self.batcher.check_admission(n, deadline)

    async def _classified(
        self, request: pb.ClassifyRequest | pb.PrepareWriteRequest, context: grpc.aio.ServicerContext
    ) -> tuple[Memory, tuple[Record, ...], list[prepare.Relation]]:
        """A validated request, admitted: its new memory, that memory's records and one relation per candidate."""
        deadline = self._deadline(context)
        self._admit(len(request.candidates), deadline)
        mem = convert.memory_from_proto(request.memory)
        candidates = self._candidates(request.candidates)
        records, pairs = await self._pairs(mem, candidates)
        preds = await self._labels(pairs, deadline)
        return mem, records, prepare.relations([c.id for c in candidates], preds)

    async def _embeddings(self, texts: list[str], deadline: float | None) -> list[np.ndarray]:
        """The texts' embeddings, from the Embed batcher (its admission first: closed, full, too late)."""
        return await self.embed_batcher.submit(texts, deadline=deadline)

    @staticmethod
    def _candidates(msgs: Any) -> list[Memory]:
        return [convert.memory_from_proto(m, f"candidates[{i}]") for i, m in enumerate(msgs)]

    # -- RPCs ------------------------------------------------------------------------------------
    @_unary
    async def Normalize(self, request: pb.NormalizeRequest, context: grpc.aio.ServicerContext) -> pb.NormalizeResponse:
        """Raw memory text → typed records."""
        self._validate(validate.validate_normalize, request)
        mem = convert.memory_from_proto(request.memory)
        (records,) = await self._records_of([mem], ["memory"])
        return pb.NormalizeResponse(records=convert.records_to_proto(records))

    @_unary
    async def Classify(self, request: pb.ClassifyRequest, context: grpc.aio.ServicerContext) -> pb.ClassifyResponse:
        """One relation per candidate, in candidate order."""
        self._validate(validate.validate_classify, request)
        _, _, rels = await self._classified(request, context)
        return pb.ClassifyResponse(relations=convert.relations_to_proto(rels))

    @_unary
    async def PrepareWrite(
        self, request: pb.PrepareWriteRequest, context: grpc.aio.ServicerContext
    ) -> pb.PrepareWriteResponse:
        """Normalize + classify + the roles and edges the store should record."""
        self._validate(validate.validate_prepare_write, request)
        mem, records, rels = await self._classified(request, context)
        return self._prepared(mem.id, records, rels)

    @_unary
    async def GetModelInfo(
        self, request: pb.GetModelInfoRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetModelInfoResponse:
        """The served model."""
        return convert.model_info_to_proto(self.info)

    @_unary
    async def Embed(self, request: pb.EmbedRequest, context: grpc.aio.ServicerContext) -> pb.EmbedResponse:
        """One unit-length embedding per text, in order, batched with other calls' texts."""
        self._validate(validate.validate_embed, request)
        name, dim = self.embedder
        vectors = await self._embeddings(list(request.texts), self._deadline(context))
        return convert.embed_response_to_proto(name, dim, vectors)

    def _relabel_item(
        self, req: pb.RelabelRequest, index: int, seen: dict[str, int]
    ) -> tuple[str, RelabelItem | pb.PairError]:
        """(candidate id, the memories to pair) of one Relabel request, or ("", its own error)."""
        try:
            validate.validate_relabel(req, index, now=self.now(), limits=self.limits, seen=seen)
            existing = convert.memory_from_proto(req.existing, f"requests[{index}].existing")
            new = convert.memory_from_proto(req.new, f"requests[{index}].new")
        except InputError as exc:
            return "", pair_error(exc)
        return existing.id, (index, existing, new)

    def _relabel_pairs(self, window: Sequence[RelabelItem | pb.PairError]) -> list[Pair | pb.PairError]:
        """A Relabel window's pairs, or each pair's own error; each distinct memory of the window is
        normalized once, in this thread (a worker thread: off the event loop)."""
        items = [item for item in window if not isinstance(item, pb.PairError)]
        keys = [MemoryKey.of(mem) for _, existing, new in items for mem in (existing, new)]
        outcomes: list[Normalized] | None
        try:
            outcomes = self.normalizing.outcomes(keys)
        except Exception:  # a normalizer bug: each pair on its own below, so that it is that pair's error only
            outcomes = None
        answers = (
            self._relabel_pair(item, None if outcomes is None else outcomes[2 * i : 2 * i + 2])
            for i, item in enumerate(items)
        )
        return [item if isinstance(item, pb.PairError) else next(answers) for item in window]

    def _relabel_pair(self, item: RelabelItem, outcomes: Sequence[Normalized] | None) -> Pair | pb.PairError:
        """One Relabel pair from its memories' outcomes (None: normalize them here), or its own error."""
        index, existing, new = item
        fields = (f"requests[{index}].existing", f"requests[{index}].new")
        try:
            if outcomes is None:
                outcomes = self.normalizing.outcomes([MemoryKey.of(existing), MemoryKey.of(new)])
            existing_records, new_records = records_or_error(outcomes, fields)
            return Pair(existing=side(existing, existing_records), new=side(new, new_records))
        except Exception as exc:  # this pair's own error, not the stream's
            return pair_error(exc)

    @_stream
    async def Relabel(
        self, request_iterator: AsyncIterator[pb.RelabelRequest], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.RelabelResponse]:
        """Pairs in, one answer per pair out in request order: its relation or its own `PairError`.

        Windows of pairs are normalized (each memory once while cached, in a worker thread) and go
        to the batcher, at most `RELABEL_DEPTH` windows of `relabel_window` pairs queued (reading
        pauses: flow control). A bad request, a full queue or a failed batch is an error for those
        pairs only; `STREAM_ERRORS` end the stream.
        """
        batcher = self.batcher
        deadline = self._deadline(context)
        seen: dict[str, int] = {}  # the stream's pair ids (duplicates are errors)

        async def items() -> AsyncIterator[tuple[tuple[str, str], RelabelItem | pb.PairError]]:
            index = 0
            async for req in request_iterator:
                candidate_id, item = self._relabel_item(req, index, seen)
                yield (req.pair_id, candidate_id), item
                index += 1

        async def run_window(entries: list[RelabelItem | pb.PairError]) -> list[Prediction | pb.PairError]:
            if all(isinstance(entry, pb.PairError) for entry in entries):
                return [entry for entry in entries if isinstance(entry, pb.PairError)]
            window = await asyncio.to_thread(self._relabel_pairs, entries)  # normalize off the event loop
            pairs = [item for item in window if isinstance(item, Pair)]
            if not pairs:
                return [item for item in window if not isinstance(item, Pair)]
            try:
                preds = iter(await batcher.submit(pairs, deadline=deadline))
            except STREAM_ERRORS:
                raise
            except Exception as exc:  # the error of this window's pairs, not of the stream
                failed = pair_error(exc)
                return [failed if isinstance(item, Pair) else item for item in window]
            return [next(preds) if isinstance(item, Pair) else item for item in window]

        async for (pair_id, candidate_id), answer in alabel_pairs(
            items(), run_window, self.relabel_window, RELABEL_DEPTH
        ):
            if isinstance(answer, pb.PairError):
                yield pb.RelabelResponse(pair_id=pair_id, error=answer)
            else:
                (rel,) = prepare.relations([candidate_id], [answer])
                yield pb.RelabelResponse(pair_id=pair_id, relation=convert.relation_to_proto(rel))
