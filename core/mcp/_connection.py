"""One MCP session, held by a task of its own.

The SDK's client is a stack of anyio task groups and cancel scopes, which must be
left in the task that entered them; a run, the next run and ``agent.aclose()`` are
different tasks. So a ``Connection`` enters the client in a task it owns
(``_hold``), and runs call into the session from theirs. ``close()`` cancels that task's
scope: the SDK closes the session, a stdio server is ended (stdin closed, then SIGTERM,
then SIGKILL to its process group, each wait bounded) and an HTTP session is ended.

A stdio server's pipes are tripwire's (``_upstream_stdio``: read on the event loop),
under the SDK's session for the handshake, listings and notifications; its
``tools/call`` takes the lean path there, with no session machinery between. An HTTP
server's calls go through the SDK's client (and its streamable HTTP transport).

The server's end is seen where it happens: the transport's read stream ends (a stdio
server exited, the HTTP transport closed) and the connection is no longer ``alive``;
the toolset starts a new one on its next use. The notification that the tool list
changed (``notifications/tools/list_changed``) calls ``changed``; a flood of them costs
a flag each.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tripwire.errors import ConfigurationError, ToolError
from tripwire.mcp._upstream_stdio import Pipes, open_stdio
from tripwire.models import mask_url

if TYPE_CHECKING:
    from tripwire.mcp.server import MCPServer

log = logging.getLogger("tripwire")

#: How many pages of ``tools/list`` a listing reads before it gives up (a server that
#: paginates for ever cannot hang a run).
MAX_PAGES = 100
#: How the session starts: the initialize handshake (protocol 2025-11-25), which
#: servers of every protocol version speak, the SDK's 2026-07-28 servers included.
#: (Their 2026-07-28 exchange over streamable HTTP took 50 ms a call on loopback
#: where the handshake protocol takes 4: bench/README.md, "MCP".)
PROTOCOL = "legacy"


class Connection:
    """A live session to ``server``; ``start()`` opens it, ``close()`` ends it."""

    def __init__(self, server: MCPServer, changed: Callable[[], None]) -> None:
        self.server = server
        self._changed = changed
        #: the session is open and the server has not gone away
        self.alive = False
        #: malformed messages the server sent (lines that are no JSON-RPC message)
        self.malformed = 0
        self.loop = asyncio.get_running_loop()
        self._client: Client | None = None
        self._scope: anyio.CancelScope | None = None
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        #: a stdio server's pipes (``_upstream_stdio``): its calls take the lean path
        self._pipes: Pipes | None = None
        #: the compiled output schemas of the lean path's checks, by tool name
        self._output_checks: dict[str, tuple[Any, Any]] = {}

    @property
    def label(self) -> str:
        return f"MCP server {self.server.name!r}"

    async def start(self) -> None:
        """Start the server (stdio) or connect (HTTP), shake hands; ``ToolError`` when
        that fails or takes longer than ``startup_timeout`` (nothing is left running)."""
        ready: asyncio.Future[BaseException | None] = self.loop.create_future()
        self._task = self.loop.create_task(self._hold(ready),
                                           name=f"tripwire MCP {self.server.name}")
        timeout = self.server.startup_timeout
        try:
            async with asyncio.timeout(timeout):
                failed = await asyncio.shield(ready)
        except TimeoutError:
            await self.close()
            raise ToolError(f"{self.label} did not start within its startup_timeout "
                            f"({timeout:g} s)") from None
        except BaseException:
            await self.close()
            raise
        if failed is not None:
            await self.close()
            if isinstance(failed, ConfigurationError):
                raise failed
            raise ToolError(f"{self.label} could not be started: {self.describe(failed)}") \
                from failed

    async def close(self) -> None:
        """End the session and the task that holds it (a stdio server's process too)."""
        self._closing = True
        self.alive = False
        if self._scope is not None:
            self._scope.cancel()
        task = self._task
        if task is not None and not task.done():
            await asyncio.shield(task)

    async def _hold(self, ready: asyncio.Future[BaseException | None]) -> None:
        failed: BaseException | None = None
        try:
            with anyio.CancelScope() as scope:
                self._scope = scope
                if self._closing:
                    scope.cancel()
                async with AsyncExitStack() as stack:
                    client = Client(await self._transport(stack), mode=PROTOCOL, cache=None,
                                    message_handler=self._message,
                                    client_info=types.Implementation(name="tripwire",
                                                                     version="1"))
                    await stack.enter_async_context(client)
                    self._client = client
                    self.alive = True
                    ready.set_result(None)
                    await anyio.sleep_forever()
        except Exception as e:
            failed = e
            if ready.done():
                log.warning("%s: the session ended: %s", self.label, self.describe(e))
        finally:
            self.alive = False
            self._client = None
            if not ready.done():
                ready.set_result(failed or ToolError(f"{self.label} was closed as it started"))

    async def _transport(self, stack: AsyncExitStack) -> Any:
        """The transport's context manager, its read stream watched for the end."""
        server = self.server
        if server.command is not None:
            missing = [n for n in server.env_from if n not in os.environ]
            if missing:
                raise ConfigurationError(f"{self.label}: env_from names environment "
                                         f"variable(s) that are not set: {', '.join(missing)}")
            env = {**{n: os.environ[n] for n in server.env_from}, **server.env}
            if sys.platform == "win32":  # (process groups and signals are POSIX's)
                return self._watched(stdio_client(StdioServerParameters(
                    command=server.command, args=list(server.args), env=env or None,
                    cwd=server.cwd)))
            self._pipes = pipes = Pipes(self.label, self._ended)
            return self._watched(open_stdio(pipes, server.command, list(server.args),
                                            get_default_environment() | env, server.cwd))
        headers = dict(server.headers)
        for header, variable in server.headers_env.items():
            value = os.environ.get(variable)
            if value is None:
                raise ConfigurationError(f"{self.label}: header {header!r} is to come from "
                                         f"the environment variable {variable}, which is "
                                         f"not set")
            headers[header] = value
        http = await stack.enter_async_context(create_mcp_http_client(headers=headers))
        assert server.url is not None
        return self._watched(streamable_http_client(server.url, http_client=http))

    @asynccontextmanager
    async def _watched(self, transport: Any) -> AsyncIterator[Any]:
        async with transport as (read_stream, write_stream):
            yield _Watched(read_stream, self._ended), write_stream

    def _ended(self) -> None:
        """The transport's read stream ended: the server has gone away."""
        if self.alive and not self._closing:
            log.warning("%s closed the connection (a stdio server exited); it is started "
                        "again on next use", self.label)
        self.alive = False
        if self._scope is not None:
            self._scope.cancel()

    async def _message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.malformed += 1
            log.warning("%s sent a malformed message (%s)", self.label,
                        type(message).__name__)
        elif isinstance(message, types.ToolListChangedNotification):
            self._changed()

    # -- requests
    @property
    def client(self) -> Client:
        client = self._client
        if client is None or not self.alive:
            raise ToolError(f"{self.label} is not connected")
        return client

    async def list_tools(self) -> list[Any]:
        """Every tool the server lists, all pages, within ``startup_timeout``."""
        client = self.client
        tools: list[Any] = []
        cursor: str | None = None
        async with asyncio.timeout(self.server.startup_timeout):
            for _ in range(MAX_PAGES):
                page = await client.list_tools(cursor=cursor, cache_mode="bypass")
                tools.extend(page.tools)
                cursor = page.next_cursor
                if cursor is None:
                    return tools
        raise ToolError(f"{self.label} listed more than {MAX_PAGES} pages of tools")

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        output_schema: Any = None) -> Any:
        """The server's ``CallToolResult`` within ``timeout``. A stdio server's call
        takes the lean path (``_upstream_stdio``) and its structured content is checked
        against ``output_schema`` (the tool's, as listed) here, as the SDK's client
        checks it; an HTTP server's goes through the SDK's client."""
        client = self.client
        pipes = self._pipes
        if pipes is None:
            return await client.call_tool(name, arguments,
                                          read_timeout_seconds=self.server.timeout)
        result = types.CallToolResult.model_validate(await pipes.request(
            "tools/call", {"name": name, "arguments": arguments}, self.server.timeout))
        if output_schema is not None and not result.is_error:
            self._check_output(name, output_schema, result)
        return result

    def _check_output(self, name: str, schema: Any, result: Any) -> None:
        """``RuntimeError`` (the SDK client's words) for structured content missing or
        not valid against the tool's output schema."""
        if result.structured_content is None:
            raise RuntimeError(f"Tool {name} has an output schema but did not return "
                               f"structured content")
        known = self._output_checks.get(name)
        if known is None or known[0] is not schema:
            from jsonschema import validators

            known = self._output_checks[name] = (
                schema, validators.validator_for(schema)(schema))
        from jsonschema import exceptions

        error = exceptions.best_match(known[1].iter_errors(result.structured_content))
        if error is not None:
            raise RuntimeError(f"Invalid structured content returned by tool {name}: "
                               f"{error}")

    def describe(self, error: BaseException) -> str:
        """An exception as an error message may show it: its type and text, from the
        innermost of a group, with a URL's credentials masked."""
        while isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        text = str(error)
        if self.server.url is not None:
            text = text.replace(self.server.url, mask_url(self.server.url))
        return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _Watched:
    """A transport's read stream that says when it ends (``ReadStream`` protocol)."""

    def __init__(self, stream: Any, ended: Callable[[], None]) -> None:
        self._stream = stream
        self._ended = ended

    @property
    def last_context(self) -> Any:
        return getattr(self._stream, "last_context", None)

    async def receive(self) -> Any:
        try:
            return await self._stream.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            self._ended()
            raise

    async def aclose(self) -> None:
        await self._stream.aclose()

    def __aiter__(self) -> _Watched:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self._stream.__anext__()
        except (StopAsyncIteration, anyio.ClosedResourceError):
            self._ended()
            raise

    async def __aenter__(self) -> _Watched:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._stream.__aexit__(*exc)  # type: ignore[no-any-return]
