"""The streamable HTTP transport's ``tools/call`` fast path, and the sessions it serves.

The SDK's streamable HTTP app answers a call through its session manager, its
transport (the body parsed and validated into its models, memory streams and a task
group per request, an SSE response of sse_starlette's) and its server: most of the
CPU a call costs the proxy outside its guarded run. ``Calls`` wraps that app (``/mcp``)
and answers a ``tools/call`` POST itself, straight from its JSON (``_proxy_fast``), as
the SDK answers it: an SSE stream with the SDK's headers (``mcp-session-id`` among
them) of one ``event: message``, the JSON-RPC response, after
``notifications/tools/list_changed`` when the upstream's tools changed (which the SDK
sends on the session's GET stream, when the client has one open).

It takes only a POST the SDK would take to its server's ``tools/call`` handler: of a
session it knows and whose client has ended the handshake (``notifications/initialized``),
with a handshake protocol version (or none), the DNS-rebinding checks of the SDK's
``TransportSecurityMiddleware`` passed, an ``Accept`` of JSON and SSE, a JSON content
type, a body within the SDK's limit that is one well-formed call. Everything else
(initialize, the GET stream, listings, pings, DELETE, batches, malformed bodies,
unknown or ended sessions, other protocol versions) goes to the SDK's app, which
answers it and its errors as ever.

The SDK's sessions are not public, so they are learnt at this boundary: a POST without
a session id that the SDK answers with a new ``mcp-session-id`` opens one; a DELETE it
answers 200, or a 404 to a request of it, ends one. The idle timeout is kept here (the
SDK's is turned off, as it cannot see the calls answered here): a session with no
request in flight (an open GET stream is one) for ``idle`` seconds is ended with a
DELETE of its own through the SDK's app. A client's ``notifications/cancelled`` for a
call in flight here cancels it and answers ``-32800 Request cancelled``, as the SDK's
transport answers a cancelled request; a session ended while a call is in flight ends
that call's stream with no answer. A call longer than ``PING`` seconds has its
headers sent and a ping comment every ``PING`` seconds, as sse_starlette keeps a
stream alive for the SDK.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any

import attrs

from tripwire.mcp._proxy_fast import Answer, call_of, cancelled_of, parsed, replies

log = logging.getLogger("tripwire")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Seconds between the ping comments of a call still being answered (sse_starlette's).
PING = 15.0

#: The error the SDK's transport answers a cancelled request with.
CANCELLED = {"code": -32800, "message": "Request cancelled"}

#: The headers whose values decide whether the SDK takes a POST (``Calls._takes``).
_CHECKED = frozenset((b"host", b"origin", b"content-type", b"accept"))

_SSE_HEADERS = [(b"cache-control", b"no-cache, no-transform"), (b"connection", b"keep-alive"),
                (b"content-type", b"text/event-stream"), (b"x-accel-buffering", b"no")]


@attrs.define(eq=False)
class Session:
    """A session of the SDK's app, as this layer learnt it."""

    #: its ``mcp-session-id``
    id: str
    #: the ``host`` and ``origin`` headers of its initialize (its idle DELETE's)
    headers: list[tuple[bytes, bytes]]
    #: the name of the API key that opened it (None: the proxy has no keys); no other
    #: key may use it
    key: str | None = None
    #: the client has sent ``notifications/initialized``
    ready: bool = False
    #: requests of it being served (by the SDK's app or here)
    in_flight: int = 0
    idle_timer: asyncio.TimerHandle | None = None
    #: the calls being answered here, by request id
    calls: dict[Any, asyncio.Task[Any]] = attrs.field(factory=dict)
    #: the ids of those the client cancelled
    cancelled: set[Any] = attrs.field(factory=set)
    ended: bool = False


class Calls:
    """The ASGI app of ``/mcp``: ``inner`` (the SDK's), with ``tools/call`` answered by
    ``answer`` (``MCPProxy.answer_call``) here (see the module). ``manager``: the SDK's
    ``StreamableHTTPSessionManager`` of ``inner``, built with no idle timeout."""

    def __init__(self, inner: App, answer: Answer, manager: Any, path: str,
                 idle: float | None) -> None:
        from mcp.server.transport_security import TransportSecurityMiddleware

        if manager.json_response or manager.stateless or manager.session_idle_timeout:
            raise ValueError("the fast path serves the SDK's stateful SSE sessions, whose "
                             "idle timeout it keeps itself")
        self._inner = inner
        self._answer = answer
        self._security = TransportSecurityMiddleware(manager.security_settings)
        self._max_body = manager.max_request_body_size
        self._path = path
        self.idle = idle
        #: the sessions by id
        self.sessions: dict[str, Session] = {}
        self._deleting: set[asyncio.Task[None]] = set()
        #: ``_takes``'s verdicts by the headers it reads
        self._verdicts: dict[tuple[tuple[bytes, bytes], ...], bool] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._inner(scope, self._lifespan(receive), send)
            return
        if scope["type"] != "http" or scope.get("path") != self._path:
            await self._inner(scope, receive, send)
            return
        sid = version = None
        for name, value in scope["headers"]:
            if name == b"mcp-session-id":
                sid = value.decode("latin-1")
            elif name == b"mcp-protocol-version":
                version = value.decode("latin-1")
        session = self.sessions.get(sid) if sid is not None else None
        if session is not None and session.key != _key_name(scope):
            # (another key's session: answered as the SDK answers an unknown one)
            await _not_found(send)
            return
        if session is None:
            await self._inner(scope, receive, self._opening(scope, send) if sid is None and
                              scope.get("method") == "POST" else send)
            return
        session.in_flight += 1
        if session.idle_timer is not None:
            session.idle_timer.cancel()
            session.idle_timer = None
        try:
            if scope.get("method") == "POST":
                await self._post(session, version, scope, receive, send)
            else:
                await self._inner(scope, receive, self._watching(session, scope, send))
        finally:
            session.in_flight -= 1
            if not session.in_flight and not session.ended:
                self._idle(session)

    # -- the fast path
    async def _post(self, session: Session, version: str | None, scope: Scope,
                    receive: Receive, send: Send) -> None:
        """A POST of a known session: a call taken here, anything else the SDK's."""
        read, body = await self._body(receive)
        replay = _replaying(read, receive)
        if session.ready:
            if b'"tools/call"' in body and await self._takes(version, scope):
                call = call_of(parsed(body))
                if call is not None:
                    await self._call(session, call, scope, send)
                    return
            if session.calls and b'"notifications/cancelled"' in body:
                self._cancel(session, cancelled_of(parsed(body)))
        await self._inner(scope, replay, self._watching(session, scope, send, body))

    async def _body(self, receive: Receive) -> tuple[list[Message], bytes]:
        """The messages of the request's body read (up to the SDK's limit, the message
        past it included), and the body when it was read whole within the limit."""
        read: list[Message] = []
        size = 0
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                return read, b""
            size += len(message.get("body", b""))
            if size > self._max_body:
                return read, b""
            if not message.get("more_body", False):
                break
        if len(read) == 1:
            return read, read[0].get("body", b"")
        return read, b"".join(m.get("body", b"") for m in read)

    async def _takes(self, version: str | None, scope: Scope) -> bool:
        """Whether the SDK would hand this POST to its server: its headers checked as
        the SDK's manager and transport check them (the verdict on a set of the
        headers they read is kept)."""
        from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

        if (version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS) or \
                "user" in scope:
            return False
        seen = tuple((name, value) for name, value in scope["headers"] if name in _CHECKED)
        verdict = self._verdicts.get(seen)
        if verdict is None:
            if len(self._verdicts) >= 256:  # (a client that varies them keeps no more)
                self._verdicts.clear()
            verdict = self._verdicts[seen] = await self._verdict(scope)
        return verdict

    async def _verdict(self, scope: Scope) -> bool:
        from mcp.server.streamable_http import check_accept_headers
        from starlette.requests import Request

        request = Request(scope)
        if await self._security.validate_request(request, is_post=True) is not None:
            return False
        content_type = request.headers.get("content-type", "")
        if not any(part.strip() == "application/json"
                   for part in content_type.split(";")[0].split(",")):
            return False
        return all(check_accept_headers(request))

    async def _call(self, session: Session, call: tuple[int | str, str, dict[str, Any]],
                    scope: Scope, send: Send) -> None:
        ident, name, arguments = call
        task = asyncio.current_task()
        assert task is not None
        session.calls[ident] = task
        stream = _Stream(send, session.id.encode())
        messages: list[dict[str, Any]] = []
        try:
            key = scope.get("state", {}).get("tripwire_key")
            messages = await replies(self._answer, ident, name, arguments, key=key)
        except asyncio.CancelledError:
            if ident not in session.cancelled and not session.ended:
                stream.abort()
                raise
            task.uncancel()
            if not session.ended:  # (the client cancelled it: the SDK answers so)
                messages = [{"jsonrpc": "2.0", "id": ident, "error": CANCELLED}]
        except BaseException:
            stream.abort()
            raise
        finally:
            if session.calls.get(ident) is task:
                del session.calls[ident]
            session.cancelled.discard(ident)
            stream.stop()
        await stream.end(messages)

    def _cancel(self, session: Session, ident: Any) -> None:
        task = session.calls.get(ident) if isinstance(ident, int | str) else None
        if task is not None:
            session.cancelled.add(ident)
            task.cancel()

    # -- what the SDK answered
    def _opening(self, scope: Scope, send: Send) -> Send:
        """``send`` of a POST without a session id: a session the SDK opens with it is
        learnt."""
        async def opening(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                for name, value in message.get("headers", ()):
                    if name == b"mcp-session-id":
                        self._open(value.decode("latin-1"), scope)
            await send(message)

        return opening

    def _open(self, sid: str, scope: Scope) -> None:
        kept = [(name, value) for name, value in scope["headers"]
                if name in (b"host", b"origin")]
        session = self.sessions[sid] = Session(sid, kept, _key_name(scope))
        self._idle(session)

    def _watching(self, session: Session, scope: Scope, send: Send,
                  body: bytes = b"") -> Send:
        """``send`` of a request of ``session`` the SDK answers: a 404 ends the session,
        and so does a DELETE answered 200; ``notifications/initialized`` answered 202
        readies it."""
        method = scope.get("method")

        async def watching(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                if status == 404 or (method == "DELETE" and status == 200):
                    self._end(session)
                elif status == 202 and not session.ready and \
                        b'"notifications/initialized"' in body:
                    message_ = parsed(body)
                    session.ready = isinstance(message_, dict) and \
                        message_.get("method") == "notifications/initialized"
            await send(message)

        return watching

    def _end(self, session: Session) -> None:
        """Forget ``session`` and end the calls of it in flight here."""
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]
        session.ended = True
        if session.idle_timer is not None:
            session.idle_timer.cancel()
            session.idle_timer = None
        for task in session.calls.values():
            task.cancel()

    # -- the idle timeout
    def _idle(self, session: Session) -> None:
        if self.idle is not None:
            session.idle_timer = asyncio.get_running_loop().call_later(
                self.idle, self._expire, session)

    def _expire(self, session: Session) -> None:
        session.idle_timer = None
        if session.in_flight or session.ended:
            return
        task = asyncio.get_running_loop().create_task(self._delete(session))
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    async def _delete(self, session: Session) -> None:
        """End an idle session with a DELETE of its own through the SDK's app."""
        log.info("tripwire mcp-proxy: session %s idle for %ss: ended", session.id, self.idle)
        scope: Scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "DELETE", "scheme": "http", "path": self._path,
            "raw_path": self._path.encode(), "query_string": b"", "root_path": "",
            "headers": [*session.headers, (b"mcp-session-id", session.id.encode())],
            "client": None, "server": None, "state": {}}

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            return None

        try:
            await self._inner(scope, receive, self._watching(session, scope, send))
        finally:
            self._end(session)

    def _lifespan(self, receive: Receive) -> Receive:
        """``receive`` of the lifespan: at shutdown the idle timers stop (the SDK's
        manager ends every session)."""
        async def lifespan() -> Message:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                for session in list(self.sessions.values()):
                    self._end(session)
            return message

        return lifespan


class _Stream:
    """One call's answer, an SSE stream as the SDK's: sent whole when the answer comes
    within ``PING`` seconds; else its headers and a ping comment every ``PING`` seconds
    until it does (sse_starlette's keep-alive, which the SDK's streams have).

    (One JSON body, as the SDK's transport answers in its JSON mode, would let the
    SDK's client keep its connection, which it closes after an SSE answer: but a client
    on asyncio then waits about 40 ms for each next request to reach the proxy.)"""

    def __init__(self, send: Send, session: bytes) -> None:
        self._send = send
        self._session = session
        self._started = False
        self._pinging: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(
            PING, self._due)

    def _due(self) -> None:
        self._timer = None
        self._pinging = asyncio.get_running_loop().create_task(self._ping())

    async def _ping(self) -> None:
        try:
            await self._start_events()
            comment = f": ping - {datetime.now(UTC)}\r\n\r\n".encode()
            await self._send({"type": "http.response.body", "body": comment,
                              "more_body": True})
        except Exception:  # (the client has gone: the answer finds it so too)
            return
        if self._pinging is not None:
            self._timer = asyncio.get_running_loop().call_later(PING, self._due)

    async def _start_events(self) -> None:
        if not self._started:
            self._started = True
            await self._send({"type": "http.response.start", "status": 200, "headers": [
                *_SSE_HEADERS, (b"mcp-session-id", self._session)]})

    def stop(self) -> None:
        """No more pings."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def abort(self) -> None:
        """No answer comes: no more pings."""
        self.stop()
        pinging, self._pinging = self._pinging, None
        if pinging is not None:
            pinging.cancel()

    async def end(self, messages: list[dict[str, Any]]) -> None:
        """Send ``messages`` (none: the stream ends unanswered), and end the response."""
        pinging, self._pinging = self._pinging, None
        if pinging is not None:
            await pinging
        self.stop()
        body = b"".join(b"event: message\r\ndata: " + _dumps(m) + b"\r\n\r\n"
                        for m in messages)
        if not self._started:
            self._started = True
            await self._send({"type": "http.response.start", "status": 200, "headers": [
                *_SSE_HEADERS, (b"mcp-session-id", self._session),
                (b"content-length", str(len(body)).encode())]})
        await self._send({"type": "http.response.body", "body": body, "more_body": False})


def _key_name(scope: Scope) -> str | None:
    key = scope.get("state", {}).get("tripwire_key")
    return key.name if key is not None else None


async def _not_found(send: Send) -> None:
    """The SDK's answer to a request of a session it does not know."""
    body = _dumps({"jsonrpc": "2.0", "id": None,
                   "error": {"code": -32600, "message": "Session not found"}})
    await send({"type": "http.response.start", "status": 404,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _dumps(message: dict[str, Any]) -> bytes:
    """A message's JSON as the SDK writes it (compact)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def _replaying(read: list[Message], receive: Receive) -> Receive:
    """``receive`` giving the messages already ``read`` again, then the rest."""
    pending = collections.deque(read)

    async def replay() -> Message:
        if pending:
            return pending.popleft()
        return await receive()

    return replay
