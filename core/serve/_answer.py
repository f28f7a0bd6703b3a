"""How a run becomes the client's answer, whole or streamed, in its codec's API.

One body (``complete``), or server-sent events written as the chunks pass the output
processors (``stream``); a tripwire or a failed run as an error. The codec's
``Renderer`` says what each is in its API (``tripwire.serve._codec``).

Both read the same ``agent.stream()``, so both paths run the same processors on the
same chunks. Nothing reaches a streaming client before the first chunk that passed the
output processors: a tripwire until then is an HTTP 400 (the codec's error, with the
processor id as its code), after it the renderer's ``tripped`` end of the stream.

The loop in ``stream`` runs once per streamed event, the gateway's latency-critical
path: an event goes from ``Renderer.event`` through ``send`` to the ``_Coalescing``
writer, and nothing more should be called or awaited there.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tripwire.agent import AgentStream
from tripwire.errors import APICallError
from tripwire.models.wire import load_json
from tripwire.processor import TripwireInfo
from tripwire.serve._codec import Exchange, Renderer
from tripwire.serve._metrics import AccessRecord
from tripwire.serve._thread import THREAD_NOT_FOUND, owner_error

__all__ = ["INTERNAL_ERROR", "STARTED", "complete", "stream"]

log = logging.getLogger("tripwire.serve")

#: What a client is told of an error the gateway did not expect (the log has the rest).
INTERNAL_ERROR = "The gateway failed (an internal error; its log has the details)."

#: The streamed response of the request being served once it was prepared (its status
#: and headers are on their way): an error after that cannot be a response of its own
#: (the middleware sets None for each request; set here, not by an
#: ``on_response_prepare`` signal, which would run for every response of the app).
STARTED: contextvars.ContextVar[web.StreamResponse | None] = contextvars.ContextVar(
    "tripwire_serve_started")

_SSE_HEADERS = {"Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


async def complete(exchange: Exchange, run: AgentStream, renderer: Renderer, *,
                   upstream_messages: bool = False) -> web.Response:
    """The whole answer of a run that is not streamed: its body (the codec's
    ``after`` has run by then), or the error response of its tripwire or failure
    (``upstream_messages``: a failed model call's error says the upstream's own
    message, see ``_error_details``)."""
    record = exchange.record
    async for chunk in run:
        if chunk.type == "tripwire":
            return await _ended(exchange, renderer, _tripped(exchange, run.tripwire))
        if chunk.type == "error":
            return await _ended(exchange, renderer,
                                _failed(exchange, chunk.payload["error"], upstream_messages))
        renderer.collect(chunk)
    result = await run.result
    _usage(record, result.usage)
    body = renderer.body(result)
    await exchange.codec.after(exchange, renderer)
    return web.Response(body=body, content_type="application/json", charset="utf-8")


async def stream(exchange: Exchange, run: AgentStream, renderer: Renderer, *,
                 write_timeout: float, upstream_messages: bool = False) -> web.StreamResponse:
    """The streamed answer of a run: its chunks as server-sent events as they pass,
    written through a ``_Coalescing`` writer; a tripwire or failure before the first
    event is an error response, after it the stream's last event (``upstream_messages``
    as for ``complete``). The codec's ``after`` runs before the last event leaves. A
    write the client leaves waiting ``write_timeout`` seconds (it stopped reading)
    drops the connection: see ``give_up``."""
    request, record = exchange.request, exchange.record
    writer: _Coalescing | None = None

    def give_up() -> None:
        """The client read nothing for ``write_timeout`` seconds: drop its connection,
        which cancels the run (its upstream call) and frees its key's slot, as a client
        that goes away does (access log: 499, ``error: "write_timeout"``)."""
        record.error = "write_timeout"
        log.warning("a client read nothing of its stream for %s s: dropped", write_timeout)
        if request.transport is not None:
            request.transport.abort()

    async def send(data: bytes, *, last: bool = False) -> None:
        """Write ``data``; ``last``: with the end of the response, in one write
        (the client's last byte then waits for one system call, not two), after the
        codec's ``after``."""
        nonlocal writer
        if writer is None:
            response = web.StreamResponse(headers=_SSE_HEADERS)
            # The headers go out with this first data, in one write (aiohttp would
            # send a stream's headers in a write of their own: a system call and a
            # packet more per stream); aiohttp before 3.12 ignores the attribute.
            response._send_headers_immediately = False
            STARTED.set(response)
            await response.prepare(request)
            writer = _Coalescing(response, write_timeout, give_up)
            data = renderer.start() + data
        if last:
            await exchange.codec.after(exchange, renderer)
            await writer.close(data)
        else:
            await writer.send(data)

    # The iteration is closed here, when the answer is written, not left to the event
    # loop's finalizer for a dropped async generator after the ``break`` (a
    # thread-safe wake-up of the loop and a task per request).
    chunks = aiter(run)
    try:
        async for chunk in chunks:
            kind = chunk.type
            if kind == "finish":
                usage = chunk.payload["usage"]
                _usage(record, usage)
                await send(renderer.finish(chunk.payload["finish_reason"], usage), last=True)
                break
            if kind == "tripwire":
                if writer is None:
                    return await _ended(exchange, renderer, _tripped(exchange, run.tripwire))
                info = run.tripwire
                assert info is not None
                record.tripped, record.tripwire = True, info.processor_id
                await send(renderer.tripped(info, await run.usage), last=True)
                break
            if kind == "error":
                error = chunk.payload["error"]
                if writer is None:
                    return await _ended(exchange, renderer,
                                        _failed(exchange, error, upstream_messages))
                status, message, kind, code = _error_details(error, record, upstream_messages)
                await send(renderer.failed(status, message, kind, code), last=True)
                break
            data = renderer.event(chunk)
            if data is not None:
                if writer is not None:  # (the common case, without send's coroutine)
                    await writer.send(data)
                else:
                    await send(data)
        else:
            if writer is None:  # the run ended without a finish chunk (closed early)
                return exchange.codec.error(500, "The run ended without a response.",
                                            "server_error")
            await writer.close()
        assert writer is not None
        return writer.response
    except Exception as e:
        if writer is None or isinstance(e, ConnectionResetError):
            raise  # nothing sent yet: the middleware's 500; or the client went away
        log.error("a stream failed after it began: %s", type(e).__name__, exc_info=e)
        record.error = type(e).__name__
        try:  # the error event mid-stream errors end with
            await writer.close(renderer.failed(500, INTERNAL_ERROR, "server_error", 500))
        except Exception:  # the stream cannot be ended: close it instead
            if request.transport is not None:
                request.transport.close()
        return writer.response
    finally:
        if writer is not None:
            writer.cancel()
        closer = getattr(chunks, "aclose", None)
        if closer is not None:
            await closer()


async def _ended(exchange: Exchange, renderer: Renderer, answer: web.Response) -> web.Response:
    """``answer``, the error response of a run that ended before its answer began, once
    the codec's ``after`` has seen the run end (without an answer: the renderer
    rendered nothing)."""
    await exchange.codec.after(exchange, renderer)
    return answer


def _tripped(exchange: Exchange, info: TripwireInfo | None) -> web.Response:
    """The 400 for a run a tripwire ended before anything was sent: the codec's error
    with the processor id as its code."""
    assert info is not None
    record = exchange.record
    record.tripped, record.tripwire = True, info.processor_id
    return exchange.codec.error(400, info.reason, "tripwire", info.processor_id)


def _failed(exchange: Exchange, error: BaseException, upstream_messages: bool) -> web.Response:
    """The error for a run that failed before anything was sent."""
    status, message, kind, code = _error_details(error, exchange.record, upstream_messages)
    return exchange.codec.error(status, message, kind, None if status >= 500 else code)


class _Coalescing:
    """Writes a stream's events: the first of a turn of the event loop at once, the
    ones ready in that same turn (events a processor releases together, or that came
    from the upstream in one read) joined into one write on the next turn, or into the
    response's last write when it ends in that turn. A paced stream's event goes out
    with no wait and no task; a burst reaches the client in two packets instead of one
    each (fewer system calls and wake-ups). At most ``limit``
    bytes wait before ``send`` waits for the client.

    A write the client leaves waiting ``timeout`` seconds calls ``on_timeout``: one
    timer per stream checks, every ``timeout`` seconds, when the write in progress (at
    most one) began; a write itself only notes the time (no timer or task per write)."""

    def __init__(self, response: web.StreamResponse, timeout: float,
                 on_timeout: Callable[[], None], limit: int = 256 * 1024) -> None:
        self.response = response
        self.limit = limit
        self.timeout = timeout
        self._on_timeout = on_timeout
        self._pending: list[bytes] = []
        self._size = 0
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # written in this turn of the loop
        self._loop = asyncio.get_running_loop()
        self._since: float | None = None  # when the write in progress began
        self._watch = self._loop.call_later(timeout, self._check)

    def _next_turn(self) -> None:
        self._busy = False

    def _check(self) -> None:
        since = self._since
        now = self._loop.time()
        if since is not None and now - since >= self.timeout:
            self._on_timeout()
            return
        self._watch = self._loop.call_at((now if since is None else since) + self.timeout,
                                         self._check)

    async def send(self, data: bytes) -> None:
        task = self._task
        if task is not None and task.done():
            self._task = None
            task.result()  # a failed write (the client went away) ends the stream
        if not self._busy and self._task is None:
            self._busy = True
            self._loop.call_soon(self._next_turn)
            self._since = self._loop.time()
            await self.response.write(data)
            self._since = None
            return
        self._pending.append(data)
        self._size += len(data)
        if self._task is None:
            self._task = asyncio.ensure_future(self._flush())
        elif self._size > self.limit:
            await self._task

    async def _flush(self) -> None:
        while self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            self._size = 0
            self._since = self._loop.time()
            await self.response.write(data)
            self._since = None
        self._task = None

    async def close(self, data: bytes = b"") -> None:
        """Write what is pending, then ``data`` with the end of the response: in one
        write, with the events the flush has not taken yet (a burst's last events)."""
        if self._pending:
            data = b"".join((*self._pending, data))
            self._pending.clear()
            self._size = 0
        if self._task is not None:  # a write in progress ends first
            await self._task
        self._since = self._loop.time()
        await self.response.write_eof(data)
        self._since = None

    def cancel(self) -> None:
        self._watch.cancel()
        if self._task is not None:
            self._task.cancel()


def _error_details(error: BaseException, record: AccessRecord,
                   upstream_messages: bool) -> tuple[int, str, str, int | str]:
    """HTTP status, message, OpenAI error type and code of a run's error: an upstream's
    own error status (4xx, 5xx) for a failed model call, 502 when it sent none or a
    status that is not an error (a 200 with an HTML page or events that are not JSON),
    404 ``thread_not_found`` for a memory thread the store holds for another resource
    than the key's tenant (``_thread``; nothing of it is logged, the error's text names
    the thread and the tenant), 500 for anything else.

    An upstream's message often quotes the request it was sent (``Invalid content in
    message 0: 'You are ...'``), and that request holds what the client must not see:
    the agent's instructions, text the input processors redacted, memory. No output
    processor checks an error, so the client's message is built from the upstream's
    status and its error body's ``type`` and ``code`` alone (``_upstream_summary``);
    the upstream's own message goes to the gateway's log, and to the client only with
    ``[serve] upstream_error_messages = true``. The access log gets the error's type
    name (never its text, which may quote the request)."""
    if owner_error(error) is not None:
        record.error = "ThreadOwnerError"
        return 404, THREAD_NOT_FOUND, "invalid_request_error", "thread_not_found"
    record.error = type(error).__name__
    if isinstance(error, APICallError):
        status = error.status_code or 0
        record.upstream_status = status
        log.error("a run failed: the model call failed (upstream status %s): %s",
                  status or "none", error.message)
        # an upstream's error status is passed on; anything else (no status, or a 2xx
        # or 3xx answer that was not a model response: an HTML page, events that are
        # not JSON) is a bad gateway, never a success the client would take it for
        answered = status if 400 <= status <= 599 else 502
        kind = "upstream_error" if answered >= 500 else "invalid_request_error"
        message = (f"Upstream model call failed: {error.message}" if upstream_messages
                   else _upstream_summary(status, error.response_body))
        return answered, message, kind, answered
    log.error("a run failed: %s: %s", type(error).__name__, error)
    return 500, f"The gateway failed: {type(error).__name__}", "server_error", 500


#: What an upstream's error ``type`` or ``code`` must look like to reach the client: an
#: identifier (``invalid_request_error``, ``context_length_exceeded``, ``429``), never
#: free text that could quote the request.
_IDENTIFIER = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def _upstream_summary(status: int, body: str | None) -> str:
    """``Upstream model call failed with status 400 (invalid_request_error:
    context_length_exceeded).``: the status, and the ``type`` and ``code`` of the error
    body (``{"error": {"type", "code", ...}}``, OpenAI's and Anthropic's shape) that
    are identifiers; nothing else of the body."""
    fields: list[str] = []
    try:
        error = load_json(body) if body else None
    except ValueError:
        error = None
    error = error.get("error") if isinstance(error, dict) else None
    if isinstance(error, dict):
        for name in ("type", "code"):
            value = error.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if isinstance(value, str) and _IDENTIFIER.fullmatch(value):
                fields.append(value)
    if status and not 400 <= status <= 599:
        return (f"Upstream model call failed: its answer (status {status}) was not a "
                f"valid model response.")
    message = "Upstream model call failed" + (f" with status {status}" if status else "")
    return message + (f" ({': '.join(fields)})." if fields else ".")


def _usage(record: AccessRecord, usage: Any) -> None:
    record.tokens = (usage.input_tokens, usage.output_tokens)
