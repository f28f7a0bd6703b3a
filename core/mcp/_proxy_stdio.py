"""``tripwire mcp-proxy``'s stdio transport: JSON-RPC lines on the event loop itself.

The SDK's ``stdio_server`` reads each line of stdin in a worker thread and writes and
flushes each message in two more, behind a memory stream and a task each way: on a
loaded machine those hand-offs were most of the time a call spent in the proxy
outside its guarded run. Here stdin is read by the event loop (a pipe protocol that
splits lines and parses each into the SDK's ``SessionMessage``, which the SDK's
server reads through ``receive``), and a message is written to stdout by the task that
sends it, with no hand-off (the pipe transport buffers what the client does not read
yet, and ``send`` waits while it is full).

While it serves, file descriptors 0 and 1 point at the null device and at stderr (as
the SDK's transport has it): the upstream servers the proxy starts, and any stray
``print``, cannot reach the client's wire; both are restored at the end. Standard
input that is no pipe, socket or terminal (a regular file) is served by the SDK's
``stdio_server``.
"""

from __future__ import annotations

import asyncio
import collections
import fcntl
import json
import logging
import os
import stat
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from tripwire.mcp._proxy_fast import Answer, call_of, cancelled_of, parsed, replies

log = logging.getLogger("tripwire")

#: The longest line (one JSON-RPC message) taken from the client; a longer one is a
#: malformed message (the server answers nothing to it) and is skipped.
MAX_LINE = 64 * 1024 * 1024


@asynccontextmanager
async def stdio_streams(answer: Answer | None = None) -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) streams of the SDK's ``Server.run`` over this process's stdin
    and stdout (see the module); ``answer``: the ``tools/call`` fast path's."""
    if not (_streamable(0) and _streamable(1)):
        from mcp.server.stdio import stdio_server

        async with stdio_server() as streams:
            yield streams
        return
    loop = asyncio.get_running_loop()
    async with AsyncExitStack() as stack:
        wire_in = _claim(0, os.open(os.devnull, os.O_RDONLY))
        stack.callback(_restore, 0, wire_in)
        wire_out = _claim(1, os.dup(2))
        stack.callback(_restore, 1, wire_out)
        writer = _Writer()
        write_transport, _ = await loop.connect_write_pipe(
            lambda: writer, os.fdopen(os.dup(wire_out), "wb", buffering=0))
        stack.callback(write_transport.close)
        write = _WriteStream(writer, write_transport)
        reader = _Lines()
        if answer is not None:  # (before the first line is read: the handshake's)
            reader.calls = calls = _Calls(answer, write)
            stack.push_async_callback(calls.aclose)
        read_transport, _ = await loop.connect_read_pipe(
            lambda: reader, os.fdopen(os.dup(wire_in), "rb", buffering=0))
        stack.callback(read_transport.close)
        yield _ReadStream(reader), write


def _streamable(fd: int) -> bool:
    """Whether the event loop can read or write ``fd`` as a pipe."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def _claim(fd: int, diversion: int) -> int:
    """A private duplicate of ``fd`` (the wire), with ``fd`` pointed at ``diversion``."""
    wire = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    try:
        os.dup2(diversion, fd)
    finally:
        os.close(diversion)
    return wire


def _restore(fd: int, wire: int) -> None:
    try:
        os.dup2(wire, fd)
    finally:
        os.close(wire)


class _Lines(asyncio.Protocol):
    """Stdin's lines, each parsed into a ``SessionMessage`` (or the exception that
    parsing it raised, which the SDK's server logs and skips)."""

    def __init__(self) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types import jsonrpc_message_adapter

        self._message = SessionMessage
        self._parse = jsonrpc_message_adapter.validate_json
        self._buffer = bytearray()
        self._skipping = False
        self.items: collections.deque[Any] = collections.deque()
        self.ended = False
        self._waiter: asyncio.Future[None] | None = None
        #: the ``tools/call`` fast path, when the server has one
        self.calls: _Calls | None = None

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            if self._skipping:
                self._skipping = False
            else:
                self._take(bytes(buffer[start:end]))
            start = end + 1
        del buffer[:start]
        if len(buffer) > MAX_LINE:
            if not self._skipping:
                self.items.append(ValueError(f"a message longer than {MAX_LINE} bytes"))
            self._skipping = True
            buffer.clear()
        if self.items:  # (a line the fast path took wakes nobody)
            self._wake()

    def _take(self, line: bytes) -> None:
        if not line.strip() or (self.calls is not None and self.calls.take(line)):
            return
        try:
            self.items.append(self._message(self._parse(line, by_name=False)))
        except Exception as e:  # (a line that is no JSON-RPC message)
            self.items.append(e)

    def eof_received(self) -> bool:
        if self._buffer and not self._skipping:
            self._take(bytes(self._buffer))
        self._buffer.clear()
        self.ended = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next(self) -> Any:
        while not self.items:
            if self.ended:
                raise StopAsyncIteration
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.items.popleft()


class _ReadStream:
    """The client's messages (the SDK's ``ReadStream`` protocol)."""

    def __init__(self, lines: _Lines) -> None:
        self._lines = lines

    async def receive(self) -> Any:
        import anyio

        try:
            return await self._lines.next()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None

    def __aiter__(self) -> _ReadStream:
        return self

    async def __anext__(self) -> Any:
        return await self._lines.next()

    async def aclose(self) -> None:
        self._lines.ended = True
        self._lines._wake()

    async def __aenter__(self) -> _ReadStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _Writer(asyncio.Protocol):
    """Flow control of the stdout pipe: ``drain`` waits while its buffer is full."""

    def __init__(self) -> None:
        self._resumed: asyncio.Future[None] | None = None
        self.lost = False

    def pause_writing(self) -> None:
        if self._resumed is None:
            self._resumed = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        resumed, self._resumed = self._resumed, None
        if resumed is not None and not resumed.done():
            resumed.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.resume_writing()

    async def drain(self) -> None:
        if self._resumed is not None:
            await asyncio.shield(self._resumed)


class _WriteStream:
    """The server's messages, written as they are sent (the SDK's ``WriteStream``)."""

    def __init__(self, writer: _Writer, transport: asyncio.WriteTransport) -> None:
        self._writer = writer
        self._transport = transport
        self._closed = False

    async def send(self, item: Any) -> None:
        line = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        await self.send_line(line.encode())

    async def send_json(self, message: dict[str, Any]) -> None:
        """Write a JSON-RPC message given as its JSON (the fast path's)."""
        await self.send_line(json.dumps(message, ensure_ascii=False).encode())

    async def send_line(self, line: bytes) -> None:
        import anyio

        if self._closed or self._writer.lost or self._transport.is_closing():
            raise anyio.ClosedResourceError
        self._transport.write(line + b"\n")
        await self._writer.drain()

    async def aclose(self) -> None:
        self._closed = True

    async def __aenter__(self) -> _WriteStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _Calls:
    """The fast path of ``tools/call``: once the client has initialized the session
    with the handshake (its ``initialize``, then ``notifications/initialized``), a well-formed ``tools/call`` request is
    not parsed into the SDK's models and handed to its server but answered here, in a
    task of its own: ``answer`` gives the result's JSON, written as the reply (after
    ``notifications/tools/list_changed`` when the tools changed). A client's
    ``notifications/cancelled`` for it cancels that task, and nothing is answered (the
    SDK's server sees the notification too, and has no such request). Anything else
    (a request before the handshake, one whose parameters are no name and arguments
    object) is the SDK server's to answer, errors included."""

    def __init__(self, answer: Answer, write: _WriteStream) -> None:
        self._answer = answer
        self._write = write
        #: the client began with the handshake (``initialize``; the protocols before
        #: 2026-07-28), and ended it (``notifications/initialized``)
        self.handshake = False
        self.ready = False
        #: the calls being answered, by request id
        self.tasks: dict[Any, asyncio.Task[None]] = {}

    def take(self, line: bytes) -> bool:
        """Whether ``line`` is a call this path answers (the SDK's server never sees
        it)."""
        if not self.ready:
            if b'"initialize"' in line or b'"notifications/initialized"' in line:
                message = parsed(line)
                method = message.get("method") if isinstance(message, dict) else None
                if method == "initialize":
                    self.handshake = True
                self.ready = self.handshake and method == "notifications/initialized"
            return False
        if b'"tools/call"' in line:
            call = call_of(parsed(line))
            if call is None:
                return False
            ident, name, arguments = call
            task = asyncio.get_running_loop().create_task(
                self._call(ident, name, arguments), name=f"tripwire tools/call {name}")
            self.tasks[ident] = task
            return True
        if self.tasks and b'"notifications/cancelled"' in line:
            cancelled = self.tasks.get(cancelled_of(parsed(line)))
            if cancelled is not None:
                cancelled.cancel()
        return False

    async def _call(self, ident: int | str, name: str, arguments: dict[str, Any]) -> None:
        import anyio

        try:
            for message in await replies(self._answer, ident, name, arguments):
                await self._write.send_json(message)
        except anyio.ClosedResourceError:
            pass  # (the client has gone: nobody to answer)
        finally:
            if self.tasks.get(ident) is asyncio.current_task():
                del self.tasks[ident]

    async def aclose(self) -> None:
        """Cancel the calls being answered and wait for them (the client has gone)."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

