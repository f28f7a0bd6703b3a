"""A small pooled keep-alive HTTP/1.1 client: the providers' POST to a model API.

A model call is one POST whose headers are the same on every call of a provider, so
the request leaves as pre-built bytes and the body in one write, on a connection kept
alive between calls; the answer's status line and headers are parsed by httptools
(llhttp, the parser Node.js uses; ``tripwire[serve]`` installs it) and its body,
chunked, of a declared length or delimited by the connection's close (gzip and deflate
decoded), is read straight into the SSE parser. What aiohttp's ``ClientSession``
does besides (cookies, redirects, proxies, multipart, a request object per call) a
provider does not use. Without httptools the providers use aiohttp's client.

What the provider's transport keeps on this path, as with aiohttp's:

- at most ``limit`` connections open at once (more calls wait for one), idle ones
  kept ``KEEPALIVE_SECONDS`` and reused, newest first;
- the connect, read and total timeouts of ``Timeout``, as ``TimeoutError``;
- TLS with the system's certificates, verified (``ssl.create_default_context``);
- failures as aiohttp's exceptions (``ClientConnectionError`` to connect,
  ``ServerDisconnectedError`` before the status line, ``ClientPayloadError`` in the
  body), which the transport maps to ``APICallError`` as it maps aiohttp's own;
- a kept-alive connection the server closed before answering (it may close an idle
  connection as the request is on its way) is retried once on a new connection,
  as HTTP clients do: nothing of the request was answered.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys
import zlib
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, cast
from urllib.parse import quote, urlsplit

import aiohttp
import attrs

from tripwire.errors import ConfigurationError

try:
    import httptools
except ImportError:  # (the providers then use aiohttp's client)
    AVAILABLE = False
else:
    #: True when httptools is installed: the providers' calls take this client.
    AVAILABLE = True
#: Seconds an idle connection is kept for reuse (aiohttp's default).
KEEPALIVE_SECONDS = 15.0
#: Bytes of a body read ahead of its reader before the socket's reading pauses.
HIGH_WATER = 256 * 1024
#: Header-like lines sent with every request, as aiohttp sends them.
_STANDARD_HEADERS = b"Accept: */*\r\nAccept-Encoding: gzip, deflate\r\n"
_DECODED = ("gzip", "x-gzip", "deflate")
_USER_AGENT = f"User-Agent: tripwire (Python {sys.version_info[0]}.{sys.version_info[1]})\r\n".encode()


@attrs.frozen
class Origin:
    """Where a provider's calls go: scheme, host and port, and the request line's
    target and the headers every call sends, as bytes (``Origin.of``)."""

    host: str
    port: int
    tls: bool
    #: ``POST <path> HTTP/1.1``, ``Host``, the fixed headers, up to ``Content-Length: ``
    head: bytes

    @classmethod
    def of(cls, url: str, headers: Mapping[str, str]) -> Origin:
        """The origin of ``url`` (no userinfo) with ``headers`` sent on every call.
        ``ConfigurationError`` for a header a request cannot carry (a line break, a
        character no HTTP header may hold)."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        tls = parts.scheme == "https"
        port = parts.port or (443 if tls else 80)
        shown_host = host.encode("idna").decode("ascii") if not host.isascii() else host
        if ":" in shown_host:  # an IPv6 address
            shown_host = f"[{shown_host}]"
        if parts.port is not None and parts.port != (443 if tls else 80):
            shown_host += f":{parts.port}"
        target = quote(parts.path or "/", safe="/%:@!$&'()*+,;=-._~")
        if parts.query:
            target += "?" + quote(parts.query, safe="/%:@!$&'()*+,;=-._~?")
        lines = [f"POST {target} HTTP/1.1\r\nHost: {shown_host}\r\n".encode("ascii"),
                 _STANDARD_HEADERS]
        if not any(name.lower() == "user-agent" for name in headers):
            lines.append(_USER_AGENT)
        for name, value in headers.items():
            lines.append(header_line(name, value))
        lines.append(b"Content-Length: ")
        return cls(host=host, port=port, tls=tls, head=b"".join(lines))


def header_line(name: str, value: str) -> bytes:
    """``name: value`` and its line end, as sent; ``ConfigurationError`` for a header
    no request can carry."""
    if not name or any(c in name for c in "\r\n:\0 \t") or not name.isascii():
        raise ConfigurationError(
            f"HTTP header name {name!r} cannot be sent: a header name is ASCII without "
            f"spaces, colons or line breaks")
    if any(c in value for c in "\r\n\0"):
        raise ConfigurationError(
            f"the value of HTTP header {name!r} holds a line break or NUL, which no HTTP "
            f"header may hold (it would end the header there)")
    return f"{name}: {value}\r\n".encode()


class Body:
    """A response's body as it arrives: ``readany``, ``iter_any`` and ``at_eof``, as
    aiohttp's ``StreamReader`` offers them. A wait for data is bounded by the read
    timeout and the call's deadline (``TimeoutError``)."""

    __slots__ = ("_blocks", "_size", "_eof", "_error", "_waiter", "_read", "_deadline",
                 "_connection")

    def __init__(self, connection: Connection, read: float | None, deadline: float | None
                 ) -> None:
        self._blocks: deque[bytes] = deque()
        self._size = 0
        self._eof = False
        self._error: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._read = read
        self._deadline = deadline
        self._connection: Connection | None = connection

    def feed(self, data: bytes) -> None:
        self._blocks.append(data)
        self._size += len(data)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if self._size > HIGH_WATER and self._connection is not None:
            self._connection.pause()

    def end(self, error: BaseException | None = None) -> None:
        """The body is complete, or (``error``) will never be."""
        if self._eof:
            return
        self._eof = True
        self._error = error
        self._connection = None
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def at_eof(self) -> bool:
        return self._eof and not self._blocks

    async def readany(self) -> bytes:
        """What has arrived since the last read (waiting for some), ``b""`` at the end."""
        if not self._blocks:
            if self._error is not None:
                raise self._error
            if self._eof:
                return b""
            await _wait(self, self._read, self._deadline)
            if not self._blocks:
                if self._error is not None:
                    raise self._error
                return b""
        blocks = self._blocks
        data = blocks.popleft() if len(blocks) == 1 else b"".join(blocks)
        if len(blocks) > 1:
            blocks.clear()
        if self._size > HIGH_WATER and self._connection is not None:
            self._connection.resume()
        self._size = 0
        return data

    def iter_any(self) -> Body:
        return self

    def __aiter__(self) -> Body:
        return self

    async def __anext__(self) -> bytes:
        data = await self.readany()
        if not data:
            raise StopAsyncIteration
        return data

    def _timed_out(self) -> None:
        error = TimeoutError("no data within the read timeout")
        connection = self._connection
        self.end(error)
        if connection is not None:
            connection.abort()


async def _wait(owner: Body | Response, read: float | None, deadline: float | None) -> None:
    """Wait for ``owner._waiter`` to be set, at most ``read`` seconds and not past
    ``deadline`` (the loop's clock); on time-out ``owner._timed_out()`` ends it."""
    loop = asyncio.get_running_loop()
    waiter = owner._waiter = loop.create_future()
    limit = read
    if deadline is not None:
        left = deadline - loop.time()
        limit = left if limit is None or left < limit else limit
    handle = loop.call_later(max(limit, 0.0), owner._timed_out) if limit is not None else None
    try:
        await waiter
    finally:
        owner._waiter = None
        if handle is not None:
            handle.cancel()


class Response:
    """One answer: ``status``, ``reason``, ``headers`` (names in lower case), the
    media type and charset of its ``Content-Type``, ``content_length`` and its body
    as ``content``. ``close()`` gives the connection back when the body has been read
    to its end, and closes it otherwise."""

    __slots__ = ("status", "reason", "headers", "content", "content_type", "charset",
                 "content_length", "_connection", "_waiter", "_error", "_read", "_deadline")

    def __init__(self, connection: Connection, read: float | None, deadline: float | None
                 ) -> None:
        self.status = 0
        self.reason = ""
        self.headers: dict[str, str] = {}
        self.content = Body(connection, read, deadline)
        self.content_type = "application/octet-stream"
        self.charset: str | None = None
        self.content_length: int | None = None
        self._connection: Connection | None = connection
        self._waiter: asyncio.Future[None] | None = None
        self._error: BaseException | None = None
        self._read = read
        self._deadline = deadline

    async def _head(self) -> None:
        """Wait for the status line and headers."""
        if not self.status and self._error is None:
            await _wait(self, self._read, self._deadline)
        if self._error is not None:
            raise self._error

    def _headed(self, error: BaseException | None = None) -> None:
        if error is not None and self._error is None and not self.status:
            self._error = error
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _timed_out(self) -> None:
        self._headed(TimeoutError("no response within the read timeout"))
        self.close()

    def let_go(self) -> None:
        """Forget the connection (its event loop is closed: the pool's owner closes its
        socket), so that ``close()`` does nothing."""
        self._connection = None
        self.content._connection = None

    def close(self) -> None:
        """End this response: its connection goes back to the pool when the body came
        whole (that happened as it ended), and is closed when it has not."""
        connection, self._connection = self._connection, None
        if connection is not None and connection.response is self:
            connection.abort()
            self.content.end(aiohttp.ClientConnectionError("the response was closed"))


class Connection(asyncio.Protocol):
    """One kept-alive connection and the response it is reading (httptools'
    callbacks fill it in)."""

    def __init__(self, pool: Pool, origin: Origin) -> None:
        self.pool = pool
        self.origin = origin
        self.transport: asyncio.Transport | None = None
        self.parser: Any = httptools.HttpResponseParser(self)
        self.response: Response | None = None
        self.idle_since = 0.0
        self.lost: asyncio.Future[None] = pool.loop.create_future()
        self._name = b""
        self._decoder: Any = None
        self._until_close = False
        self._paused = False
        self._data = False  # any byte of the current response arrived

    # -- the request

    def send(self, head: bytes, body: bytes, read: float | None, deadline: float | None
             ) -> Response:
        response = self.response = Response(self, read, deadline)
        self._decoder = None
        self._until_close = self._data = False
        assert self.transport is not None
        self.transport.write(b"".join((head, b"%d\r\n\r\n" % len(body), body)))
        return response

    def pause(self) -> None:
        if not self._paused and self.transport is not None:
            self._paused = True
            self.transport.pause_reading()

    def resume(self) -> None:
        if self._paused and self.transport is not None:
            self._paused = False
            self.transport.resume_reading()

    def abort(self) -> None:
        """Close the connection now (its response, if any, is not read to the end)."""
        if self.transport is not None:
            self.transport.abort()
        self._release(keep=False)

    def _release(self, keep: bool) -> None:
        response, self.response = self.response, None
        self.resume()
        if response is not None:
            response._connection = None
            self.pool._checked_in(self, keep)

    # -- asyncio's callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        response = self.response
        if response is None:  # nothing asked: a server that talks out of turn
            self.abort()
            return
        self._data = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as e:
            error = aiohttp.ClientPayloadError(f"the server's response is not HTTP/1.1: {e}")
            response._headed(error)
            response.content.end(error)
            self.abort()

    def eof_received(self) -> bool:
        return False  # (the transport closes itself: connection_lost follows)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.pool._lost(self)
        if not self.lost.done():
            self.lost.set_result(None)
        response = self.response
        if response is None:
            return
        if not response.status:
            response._headed(aiohttp.ServerDisconnectedError(
                "the server closed the connection before it answered" if exc is None
                else f"the connection was lost before an answer ({exc})"))
        elif self._until_close and exc is None:
            self._finish_decoding(response.content)
            response.content.end()
        else:
            response.content.end(aiohttp.ClientPayloadError(
                "the connection was closed before the end of the response body"
                + (f" ({exc})" if exc is not None else "")))
        self._release(keep=False)

    # -- httptools' callbacks

    def on_status(self, status: bytes) -> None:
        assert self.response is not None
        self.response.reason += status.decode("latin-1")

    def on_header(self, name: bytes, value: bytes) -> None:
        assert self.response is not None
        self.response.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        response = self.response
        assert response is not None
        status = self.parser.get_status_code()
        if status < 200:  # an interim answer (100 Continue): the real one follows
            response.headers = {}
            response.reason = ""
            return
        headers = response.headers
        content_type = headers.get("content-type")
        if content_type is not None:
            media, _, params = content_type.partition(";")
            response.content_type = media.strip().lower()
            for param in params.split(";"):
                key, _, value = param.partition("=")
                if key.strip().lower() == "charset":
                    response.charset = value.strip().strip('"') or None
        length = headers.get("content-length")
        if length is not None and length.isdigit():
            response.content_length = int(length)
        self._until_close = length is None and "chunked" not in headers.get(
            "transfer-encoding", "").lower() and status not in (204, 304)
        encoding = headers.get("content-encoding")
        if encoding is not None and encoding.strip().lower() in _DECODED:
            self._decoder = zlib.decompressobj(47)  # a zlib or gzip header, either
        response.status = status
        response._headed()

    def on_body(self, data: bytes) -> None:
        response = self.response
        assert response is not None
        decoder = self._decoder
        if decoder is not None:
            try:
                data = decoder.decompress(data)
            except zlib.error as e:
                self._decoder = None
                response.content.end(aiohttp.ClientPayloadError(
                    f"the response body cannot be decoded ({e})"))
                self.abort()
                return
            if not data:
                return
        response.content.feed(data)

    def on_message_complete(self) -> None:
        response = self.response
        if response is None or not response.status:
            return
        body = response.content
        self._finish_decoding(body)
        body.end()
        self._release(keep=not self._until_close and self.parser.should_keep_alive())

    def _finish_decoding(self, body: Body) -> None:
        decoder, self._decoder = self._decoder, None
        if decoder is not None:
            rest = decoder.flush()
            if rest:
                body.feed(rest)


class Pool:
    """The connections of one provider in one event loop, at most ``limit`` open."""

    def __init__(self, limit: int = 100) -> None:
        self.loop = asyncio.get_running_loop()
        self.limit = limit
        self.closed = False
        self._busy = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._idle: dict[Origin, list[Connection]] = {}
        self._open: set[Connection] = set()
        self._ssl: ssl.SSLContext | None = None

    async def post(self, origin: Origin, body: bytes, connect: float | None,
                   read: float | None, total: float | None) -> Response:
        """Send ``origin.head`` and ``body`` and wait for the answer's headers."""
        if self.closed:
            raise aiohttp.ClientConnectionError("the provider's connection pool is closed")
        deadline = self.loop.time() + total if total is not None else None
        await self._acquire(deadline)
        # The call holds a slot of ``limit`` until its request is sent; then its
        # response does, until its connection is given back or closed.
        holding = True
        connection: Connection | None = None
        try:
            fresh = False
            while True:
                if not holding:
                    await self._acquire(deadline)
                    holding = True
                connection = None if fresh else self._reuse(origin)
                if connection is None:
                    fresh = True
                    connection = await self._connect(origin, connect, deadline)
                response = connection.send(origin.head, body, read, deadline)
                holding = False
                try:
                    await response._head()
                except aiohttp.ServerDisconnectedError:
                    if fresh or connection._data:
                        raise
                    fresh = True  # a kept-alive connection closed under the request: once more
                    continue
                return response
        except BaseException:
            if holding:
                self._checked_in(None, keep=False)
            elif connection is not None and connection.response is not None:
                connection.abort()
            raise

    async def _acquire(self, deadline: float | None) -> None:
        """Take one of the ``limit`` slots, waiting in line for one if none is free."""
        if self._busy < self.limit and not self._waiters:
            self._busy += 1
            return
        waiter = self.loop.create_future()
        self._waiters.append(waiter)
        try:
            if deadline is None:
                await waiter
            else:
                async with asyncio.timeout_at(deadline):
                    await waiter
        except BaseException:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            elif waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._checked_in(None, keep=False)  # the slot it was given goes on
            raise

    def _reuse(self, origin: Origin) -> Connection | None:
        idle = self._idle.get(origin)
        if not idle:
            return None
        oldest = self.loop.time() - KEEPALIVE_SECONDS
        while idle:
            connection = idle.pop()
            transport = connection.transport
            if transport is None or transport.is_closing():
                continue
            if connection.idle_since > oldest:
                return connection
            transport.close()
        return None

    async def _connect(self, origin: Origin, connect: float | None, deadline: float | None
                       ) -> Connection:
        loop = self.loop
        limit = connect
        if deadline is not None:
            left = max(deadline - loop.time(), 0.0)
            limit = left if limit is None or left < limit else limit
        context = self._context() if origin.tls else None
        try:
            async with asyncio.timeout(limit):
                _, connection = await loop.create_connection(
                    lambda: Connection(self, origin), origin.host, origin.port, ssl=context,
                    server_hostname=origin.host if context is not None else None)
        except OSError as e:  # (ssl.SSLError and certificate errors are OSErrors)
            raise aiohttp.ClientConnectionError(
                f"cannot connect to {origin.host}:{origin.port}"
                f"{' (TLS)' if origin.tls else ''}: {e}") from e
        self._open.add(connection)
        return connection

    def _context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context()
        return self._ssl

    def _wake(self) -> None:
        """Give a free slot to the first call in line (counted for it now, so that no
        call arriving meanwhile takes it)."""
        while self._waiters and self._busy < self.limit:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._busy += 1
                waiter.set_result(None)
                return

    def _checked_in(self, connection: Connection | None, keep: bool) -> None:
        """A call is done with ``connection``: kept for the next (``keep``) or closed."""
        self._busy -= 1
        if connection is not None:
            if keep and not self.closed and connection.transport is not None:
                connection.idle_since = self.loop.time()
                self._idle.setdefault(connection.origin, []).append(connection)
            elif connection.transport is not None:
                connection.transport.close()
        if self._waiters:
            self._wake()

    def _lost(self, connection: Connection) -> None:
        self._open.discard(connection)
        idle = self._idle.get(connection.origin)
        if idle and connection in idle:
            idle.remove(connection)

    def transports(self) -> Iterable[asyncio.Transport]:
        """The transports of the connections open now."""
        return [c.transport for c in self._open if c.transport is not None]

    async def close(self) -> None:
        """Close every connection (idempotent); waiting calls fail."""
        if self.closed:
            return
        self.closed = True
        self._idle.clear()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(aiohttp.ClientConnectionError("the pool was closed"))
        self._waiters.clear()
        connections = list(self._open)
        if self.loop.is_closed():
            return
        for connection in connections:
            connection.abort()
        pending = [c.lost for c in connections if not c.lost.done()]
        if pending:
            await asyncio.wait(pending, timeout=1.0)

