"""The WriteGate service's interceptors and the observers they hand each call to.

`wrap_handler` lets an observer (`CallObserver`) see a WriteGate call, and each message of a
stream, end to end; `WriteGateInterceptor` applies it to the WriteGate methods only (not health or
reflection). The server (`server/app.py`) installs, outermost first: tracing (`server/tracing.py`,
only when on), `MetricsInterceptor`, `LoggingInterceptor`, `DrainInterceptor` (the shutdown's
refusals and its count of accepted calls), then the security ones (`server/security.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import grpc

from writegate.server.metrics import Metrics
from writegate.server.privacy import TextRedactor, describe
from writegate.server.security import (
    Behaviour,
    Continuation,
    ServiceInterceptor,
    method_of,
    rebuild_handler,
    refusing_handler,
    service_of,
)
from writegate.v1 import writegate_pb2 as pb

log = logging.getLogger("writegate.server")

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["WriteGate"].full_name
"""`writegate.v1.WriteGate`."""
FINAL_GRACE_S = 1.0
"""After the drain: the most it lingers for calls still arriving, then how long gRPC's own stop
waits for what is left (refusals being answered, health watches)."""
QUIET_S = 0.05
"""After the drain, gRPC is stopped only once no call has arrived for this long: calls a client
sent before the signal but gRPC had not handed over yet are refused UNAVAILABLE (retried
elsewhere), not killed unanswered (CANCELLED) by gRPC's stop."""
HOLD_S = 2 * FINAL_GRACE_S + QUIET_S
"""The longest `DrainInterceptor.hold_new` holds a call before its UNAVAILABLE (the lingering and
gRPC's stop take at most 2 × `FINAL_GRACE_S`)."""
SHUTTING_DOWN = "the server is shutting down"
"""UNAVAILABLE's message for a call that arrives once the drain began."""


def _status_name(context: grpc.aio.ServicerContext, exc: BaseException | None) -> str:
    if exc is None:
        code = context.code()
        return "OK" if code is None else getattr(code, "name", str(code))
    if isinstance(exc, (asyncio.CancelledError, GeneratorExit)):  # GeneratorExit: closed while writing a response
        remaining = context.time_remaining()
        return "DEADLINE_EXCEEDED" if remaining is not None and remaining <= 0 else "CANCELLED"
    code = context.code()
    return getattr(code, "name", "UNKNOWN") if code is not None else "UNKNOWN"


class CallObserver(Protocol):
    """Watches one RPC: each streamed request message, then its end."""

    def message(self, request: Any) -> None: ...

    def done(self, status: str, seconds: float) -> None: ...


Begin = Callable[[str, Any], CallObserver]
"""`begin(method, request)` (request None for a stream) → the call's observer."""


def wrap_handler(handler: grpc.RpcMethodHandler, method: str, begin: Begin) -> grpc.RpcMethodHandler:
    """Wrap a WriteGate handler so an observer sees the call (and its streamed requests) end to end."""

    @contextlib.contextmanager
    def observed_call(request: Any, context: grpc.aio.ServicerContext) -> Iterator[CallObserver]:
        """`begin`'s observer of the call, told how it ended and how long it took (from before `begin`)."""
        start, error = time.perf_counter(), None
        call = begin(method, request)
        try:
            yield call
        except BaseException as exc:
            error = exc
            raise
        finally:
            call.done(_status_name(context, error), time.perf_counter() - start)

    def unary(inner: Behaviour) -> Behaviour:
        async def unary_unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            with observed_call(request, context):
                return await inner(request, context)

        return unary_unary

    def stream(inner: Behaviour) -> Behaviour:
        async def stream_stream(request_iterator: Any, context: grpc.aio.ServicerContext) -> Any:
            with observed_call(None, context) as call:

                async def observed() -> Any:
                    async for request in request_iterator:
                        call.message(request)
                        yield request

                async for response in inner(observed(), context):
                    yield response

        return stream_stream

    return rebuild_handler(handler, {"unary_unary": unary, "stream_stream": stream})


class WriteGateInterceptor(ServiceInterceptor):
    """Wraps the WriteGate methods (not health or reflection) with `begin`'s observers."""

    def begin(self, method: str, request: Any) -> CallObserver:
        raise NotImplementedError

    def applies(self, service: str) -> bool:
        return service == SERVICE_NAME

    def intercept(self, handler: grpc.RpcMethodHandler, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        return wrap_handler(handler, method_of(details.method), self.begin)


@dataclass
class _MetricsCall:
    metrics: Metrics
    method: str

    def message(self, request: Any) -> None:
        pass

    def done(self, status: str, seconds: float) -> None:
        self.metrics.rpc_done(self.method, status, seconds)


class MetricsInterceptor(WriteGateInterceptor):
    """Request counts by status and latency histograms per RPC (labels: method, code — never text)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def begin(self, method: str, request: Any) -> CallObserver:
        return _MetricsCall(self.metrics, method)


class _LoggedCall:
    def __init__(self, interceptor: LoggingInterceptor, method: str, request: Any) -> None:
        self.owner, self.method, self.request = interceptor, method, request
        self.messages = 0
        self._stack = contextlib.ExitStack()
        redactor = interceptor.redactor
        self._held = self._stack.enter_context(redactor.track(request)) if redactor is not None else None
        self._last: Any = None

    def message(self, request: Any) -> None:
        self.messages += 1
        self._last = request
        if self._held is not None:
            self._held.append(request)

    def done(self, status: str, seconds: float) -> None:
        try:
            if self.request is not None:
                shape = describe(self.request, log_text=self.owner.log_text)
            else:
                shape = f"{self.messages} messages"
                if self.owner.log_text and self._last is not None:
                    shape += f", last: {describe(self._last, log_text=True)}"
            level = (
                logging.DEBUG
                if status == "OK"
                else logging.WARNING
                if status in {"INTERNAL", "UNKNOWN"}
                else logging.INFO
            )
            self.owner.logger.log(level, "%s %s %.1f ms (%s)", self.method, status, seconds * 1000, shape)
        finally:
            self._stack.close()


class LoggingInterceptor(WriteGateInterceptor):
    """One log line per RPC: DEBUG when OK, WARNING for server-side failures, INFO otherwise.

    The line holds the request's shape; its memory texts only when `log_text`. While the RPC runs,
    its texts are registered with `redactor` (so error logs cannot quote them).
    """

    def __init__(
        self, logger: logging.Logger = log, *, log_text: bool = False, redactor: TextRedactor | None = None
    ) -> None:
        self.logger = logger
        self.log_text = log_text
        self.redactor = redactor

    def begin(self, method: str, request: Any) -> CallObserver:
        return _LoggedCall(self, method, request)


class _Accepted:
    """One accepted WriteGate RPC, counted in flight until its handler ends — or, when gRPC never
    runs the handler (the client went away while its request was being read), until the handler
    is dropped (`weakref.finalize`)."""

    def __init__(self, owner: DrainInterceptor) -> None:
        owner._enter()
        self._leave = weakref.finalize(self, owner._leave)

    def message(self, request: Any) -> None:
        pass

    def done(self, status: str = "", seconds: float = 0.0) -> None:
        self._leave()  # once: a finalizer runs at most once


class DrainInterceptor(grpc.aio.ServerInterceptor):
    """Counts the accepted WriteGate RPCs in flight; once `refuse_new()` ran, every new RPC (any
    service) gets UNAVAILABLE "shutting down" — a code clients retry elsewhere — while every
    accepted one is answered.

    After `hold_new()`, a new RPC is held before its UNAVAILABLE until `release_held()` (at most
    `HOLD_S`): a client that sends again as soon as it is refused then has its call waiting here,
    where it is answered, and not inside gRPC, where gRPC's stop would drop it (CANCELLED).

    An RPC is accepted when its call passes this interceptor before `refuse_new()`: it is counted
    from that moment, before gRPC has even read its request (for a unary call, gRPC awaits the
    request message between the interceptors and the handler; an RPC counted only once its
    handler started would be missed by a drain that begins in that gap, and then cancelled by
    the server's stop).
    """

    def __init__(self) -> None:
        self.draining = False
        self.holding = False
        """True after `hold_new()`: new RPCs wait for `release_held()` before their UNAVAILABLE."""
        self.in_flight = 0
        self.accepted = 0
        """WriteGate RPCs accepted so far."""
        self.refused = 0
        """RPCs refused since `refuse_new()`."""
        self._idle = asyncio.Event()
        self._idle.set()
        self._released = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def refuse_new(self) -> None:
        """From now on, refuse every new RPC."""
        self.draining = True

    def hold_new(self) -> None:
        """From now on, hold every new RPC until `release_held()` (at most `HOLD_S`), then refuse it."""
        self.refuse_new()
        self.holding = True

    def release_held(self) -> None:
        """Answer the held RPCs (UNAVAILABLE), and every later one at once."""
        self._released.set()

    def _enter(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.in_flight += 1
        self.accepted += 1
        self._idle.clear()

    def _leave(self) -> None:
        loop = self._loop
        if loop is not None and _running_loop() is not loop:  # a finalizer run by gc in another thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(self._leave)
            return
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no WriteGate RPC is in flight (or `timeout` s); True when idle."""
        try:
            await asyncio.wait_for(self._idle.wait(), max(0.0, timeout))
        except TimeoutError:
            return False
        return True

    async def wait_quiet(self, quiet: float, timeout: float) -> bool:
        """Wait until no RPC has been refused for `quiet` s (or `timeout` s); True when quiet.

        gRPC hands calls over one by one: when the drain begins, calls that clients sent before
        it may still wait inside gRPC. Were gRPC stopped now, it would drop them unanswered
        (CANCELLED); lingering until they stop arriving refuses each of them UNAVAILABLE.
        """
        end = time.monotonic() + max(0.0, timeout)
        while True:
            seen = self.refused
            await asyncio.sleep(max(0.0, min(quiet, end - time.monotonic())))
            if self.refused == seen:
                return True
            if time.monotonic() >= end:
                return False

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler | None:
        """gRPC's hook: count an accepted WriteGate call (before awaiting its handler), or refuse it."""
        name = handler_call_details.method
        if self.draining:
            self.refused += 1
            if self.holding and not self._released.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._released.wait(), HOLD_S)
            handler = await continuation(handler_call_details)
            if handler is None:
                return handler
            return refusing_handler(handler, grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        if service_of(name) != SERVICE_NAME:
            return await continuation(handler_call_details)
        call = _Accepted(self)  # before any await: accepted = seen here before refuse_new()
        try:
            handler = await continuation(handler_call_details)
        except BaseException:
            call.done()
            raise
        if handler is None:
            call.done()
            return handler
        return wrap_handler(handler, method_of(name), lambda _method, _request: call)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
