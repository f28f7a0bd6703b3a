"""A stdio MCP server's pipes on the event loop, with a lean path for ``tools/call``.

The SDK's ``stdio_client`` bridges the server's pipes to its session with a task and a
memory stream each way, and the session gives each request an id, a memory stream of
its own, its receive loop's hand-off and the result's validation: together most of
the CPU a call through ``tripwire mcp-proxy`` spent outside its guarded run. Here the
server is a subprocess whose stdout the event loop reads (a subprocess protocol that
splits lines) and whose stdin is written by the task that sends.

Two kinds of traffic share the pipes:

- the SDK's ``Client`` session (the handshake, listings, resources, prompts, the
  server's notifications such as ``tools/list_changed``, and every message the session
  sends): its messages are parsed into ``SessionMessage``s for its read stream, and
  what it sends is written as it is sent (``_proxy_stdio``'s streams);
- ``Pipes.request``, the lean path: a JSON-RPC request with an id of its own
  (``tripwire-N``, which the session never uses), written as JSON and answered by a
  future that the reply's line resolves with the reply's ``result`` as parsed JSON (no
  model between), or fails: a JSON-RPC error is an ``MCPError`` with its code, the
  timeout one with ``REQUEST_TIMEOUT`` (and the server is sent
  ``notifications/cancelled``, as it is when the caller is cancelled), the server's end
  one with ``CONNECTION_CLOSED``, as the SDK's session raises them.

The server runs in a process group of its own; ``open`` ends it as the SDK's transport
does: stdin closed, then (each wait bounded) SIGTERM and SIGKILL to its group.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, cast

from tripwire.mcp._proxy_stdio import _Lines, _ReadStream, _Writer, _WriteStream

#: Seconds the server has to exit once its stdin is closed, then after SIGTERM (the
#: SDK's transport waits as long).
EXIT_WAIT = 2.0
#: The prefix of the lean path's request ids (the SDK's session numbers its own).
ID_PREFIX = "tripwire-"


class Pipes(_Lines):
    """The server's stdout as lines (the session's, or a lean request's reply) and its
    stdin (see the module)."""

    def __init__(self, label: str, ended: Callable[[], None]) -> None:
        super().__init__()
        self.label = label
        self._ended = ended
        self.writer = _Writer()
        #: the lean requests waiting for their reply, by id
        self.pending: dict[str, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self.stdin: asyncio.WriteTransport | None = None
        #: the server's process id (once started)
        self.pid: int | None = None
        self.exited: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # -- the server's stdout
    def _take(self, line: bytes) -> None:
        if self.pending and ID_PREFIX.encode() in line:
            try:
                reply = json.loads(line)
            except ValueError:
                reply = None
            if isinstance(reply, dict) and "method" not in reply:
                waiter = self.pending.pop(reply.get("id"), None)  # type: ignore[arg-type]
                if waiter is not None:
                    if self.items:  # (the session reads what came first, first)
                        self.items.append(_Reply(waiter, reply))
                    else:
                        _Reply(waiter, reply).resolve()
                    return
        super()._take(line)

    async def next(self) -> Any:
        while True:
            item = await super().next()
            if not isinstance(item, _Reply):
                return item
            item.resolve()

    def ended_now(self) -> None:
        """The server's stdout closed (it exited): the lean requests fail as the
        session's do, the session's read stream ends, and ``ended`` is called at once
        (before the session sees it: the next call starts the server again)."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        pending, self.pending = self.pending, {}
        for waiter in pending.values():
            if not waiter.done():
                waiter.set_exception(MCPError(code=CONNECTION_CLOSED,
                                              message="Connection closed"))
        self.eof_received()
        for item in self.items:
            if isinstance(item, _Reply):
                item.resolve()
        self._ended()

    # -- the lean path
    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        """The ``result`` of the server's reply to ``method`` (parsed JSON, None when
        the reply has none); see the module for how it fails."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        ident = f"{ID_PREFIX}{next(self._ids)}"
        if self.ended or self.stdin is None or self.stdin.is_closing():
            raise MCPError(code=CONNECTION_CLOSED, message="Connection closed")
        waiter = asyncio.get_running_loop().create_future()
        self.pending[ident] = waiter
        try:
            await self.write({"jsonrpc": "2.0", "id": ident, "method": method,
                              "params": params})
            try:
                async with asyncio.timeout(timeout):
                    reply = await waiter
            except TimeoutError:
                self._cancel(ident, "timed out")
                raise MCPError(code=REQUEST_TIMEOUT, message=(
                    f"Timed out while waiting for response to {method}. Waited "
                    f"{timeout} seconds.")) from None
            except asyncio.CancelledError:
                self._cancel(ident, "cancelled by the caller")
                raise
        finally:
            self.pending.pop(ident, None)
        error = reply.get("error")
        if error is not None:
            if not isinstance(error, dict) or not isinstance(error.get("code"), int):
                return None  # (no valid error: a malformed reply, as no result is)
            raise MCPError(code=error["code"], message=str(error.get("message", "")),
                           data=error.get("data"))
        return reply.get("result")

    def _cancel(self, ident: str, reason: str) -> None:
        """Tell the server a request is abandoned (it need not answer it)."""
        if self.stdin is not None and not self.stdin.is_closing():
            self.stdin.write(json.dumps({
                "jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": ident, "reason": reason}}).encode() + b"\n")

    async def write(self, message: dict[str, Any]) -> None:
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        stdin = self.stdin
        if stdin is None or stdin.is_closing() or self.writer.lost:
            raise MCPError(code=CONNECTION_CLOSED, message="Connection closed")
        stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
        await self.writer.drain()


class _Reply:
    """A lean request's reply that came after messages the session has not read yet:
    its caller resumes once the session has read them (a ``tools/list_changed`` sent
    before the reply is seen before the call returns, as with the SDK's session)."""

    __slots__ = ("reply", "waiter")

    def __init__(self, waiter: asyncio.Future[Any], reply: dict[str, Any]) -> None:
        self.waiter = waiter
        self.reply = reply

    def resolve(self) -> None:
        if not self.waiter.done():
            self.waiter.set_result(self.reply)


class _Process(asyncio.SubprocessProtocol):
    """The subprocess's events, to its ``Pipes``."""

    def __init__(self, pipes: Pipes) -> None:
        self.pipes = pipes

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self.pipes.data_received(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.pipes.ended_now()
        elif fd == 0:
            self.pipes.writer.connection_lost(exc)

    def pause_writing(self) -> None:
        self.pipes.writer.pause_writing()

    def resume_writing(self) -> None:
        self.pipes.writer.resume_writing()

    def process_exited(self) -> None:
        if not self.pipes.exited.done():
            self.pipes.exited.set_result(None)


@asynccontextmanager
async def open_stdio(pipes: Pipes, command: str, args: list[str], env: dict[str, str],
                     cwd: str | None) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``command args`` (``env``: its whole environment) and give the SDK's
    ``Client`` its (read, write) streams over ``pipes``; the process ends with the
    context (see the module)."""
    loop = asyncio.get_running_loop()
    transport, _ = await loop.subprocess_exec(
        lambda: _Process(pipes), command, *args, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=None, env=env, cwd=cwd,
        start_new_session=True)
    pipes.pid = transport.get_pid()
    try:
        # (uvloop's pipe transport is no asyncio.WriteTransport, and has its methods)
        stdin = cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
        pipes.stdin = stdin
        yield _ReadStream(pipes), _WriteStream(pipes.writer, stdin)
    finally:
        import anyio

        with anyio.CancelScope(shield=True):  # (the SDK's client is cancelled by anyio's)
            await _stop(transport, pipes)


async def _stop(transport: asyncio.SubprocessTransport, pipes: Pipes) -> None:
    """Close the server's stdin, then SIGTERM and SIGKILL its process group, each after
    ``EXIT_WAIT`` seconds without its exit."""
    pid = transport.get_pid()
    try:
        if pipes.stdin is not None:
            pipes.stdin.close()
        for sent in (signal.SIGTERM, signal.SIGKILL):
            with suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(pipes.exited), EXIT_WAIT)
            if pipes.exited.done():
                break
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, sent)
        if not pipes.exited.done():
            with suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(pipes.exited), EXIT_WAIT)
    finally:
        transport.close()
        pipes.ended_now()
