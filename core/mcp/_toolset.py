"""One agent's tools from one MCP server: listing, filtering, pinning and calls.

``MCPToolset`` is the agent's ``tripwire.tools.Toolset`` for an ``MCPServer``. It
connects on first use (``open()``: ``async with agent``; else the first run), lists
the tools then and whenever the server says they changed (the next run lists again),
and starts the server again when it has gone away. Each listing is filtered (``allow``,
``deny``, names a model takes) and checked against the definitions the agent saw
first (the pins): a changed definition is refused, with what changed, unless the
server ``allow_updates``. A connection belongs to the event loop that opened it
(``generate_sync`` runs each call in a new one and closes it at the end).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.errors import ToolError
from tripwire.mcp import _definitions
from tripwire.mcp._definitions import Listing
from tripwire.observe.audit import AuditRecord
from tripwire.tools import Tool

if TYPE_CHECKING:
    from tripwire.mcp._connection import Connection
    from tripwire.mcp.server import MCPServer
    from tripwire.observe._recorder import Recorder

log = logging.getLogger("tripwire")

#: The fields of a listed definition a model does not read, kept on the ``Tool``
#: (``Tool.listed_fields``): checked as input, and passed on by ``tripwire mcp-proxy``.
LISTED_FIELDS = ("title", "annotations", "outputSchema")


@attrs.define
class _Offered:
    """The tools of the last listing, as the model is offered them."""

    tools: dict[str, Tool]
    #: the model's name -> the server's
    names: dict[str, str]
    listing: Listing
    duration_ms: float


class MCPToolset:
    """One agent's session to ``server`` and the tools it offers."""

    def __init__(self, server: MCPServer) -> None:
        self.server = server
        self._connection: Connection | None = None
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}
        #: the server's tool name -> the definition first listed
        self._pins: dict[str, dict[str, Any]] = {}
        #: the server's tool name -> the paths refused (changed since pinned)
        self._refused: dict[str, tuple[str, ...]] = {}
        self._offered: _Offered | None = None
        #: the server said its tools changed since the last listing
        self._stale = True

    def __repr__(self) -> str:
        return f"<MCPToolset {self.server.name!r}>"

    @property
    def listing(self) -> Listing | None:
        """What the last listing came to (None before the first)."""
        return None if self._offered is None else self._offered.listing

    @property
    def stale(self) -> bool:
        """The server said its tools changed since they were last listed."""
        return self._stale and self._offered is not None

    @property
    def connection(self) -> Connection | None:
        """The live session, if there is one."""
        return self._connection

    async def open(self) -> None:
        await self._connected()

    async def session(self) -> Connection:
        """The live session, started when there is none (``tripwire mcp-proxy``'s
        resources and prompts use it as the tools do)."""
        return await self._connected()

    async def tools(self, recorder: Recorder | None) -> dict[str, Tool]:
        """The tools to offer a run (listing again when the server said they changed);
        the listing goes to ``recorder``'s audit."""
        offered = await self._current()
        if recorder is not None and recorder.keep:
            listing = offered.listing
            recorder.records.append(AuditRecord(
                f"mcp:{self.server.name}", "tools/list", None, "listed",
                offered.duration_ms, calls=len(listing.offered),
                detail=attrs.asdict(listing, recurse=False)))
        return offered.tools

    async def aclose(self) -> None:
        connection, self._connection = self._connection, None
        self._offered = None
        self._stale = True
        if connection is not None and connection.loop is asyncio.get_running_loop():
            await connection.close()

    # -- the session
    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            self._locks = {loop: (lock := asyncio.Lock())}  # (a finished loop's is dropped)
        return lock

    async def _connected(self) -> Connection:
        """The live session, started (and the tools listed) when there is none."""
        connection = self._connection
        loop = asyncio.get_running_loop()
        if connection is not None and connection.alive and connection.loop is loop:
            return connection
        async with self._lock():
            connection = self._connection
            if connection is not None and connection.alive and connection.loop is loop:
                return connection
            self._connection = None
            if connection is not None and connection.loop is loop:
                await connection.close()  # (gone away: its task and process are ended)
            from tripwire.mcp._connection import Connection

            connection = Connection(self.server, self._changed)
            await connection.start()
            self._connection = connection
            self._stale = True
            try:
                await self._list(connection)
            except BaseException:
                self._connection = None
                await connection.close()
                raise
            return connection

    def _changed(self) -> None:
        self._stale = True

    async def _current(self) -> _Offered:
        connection = await self._connected()
        if self._stale or self._offered is None:
            async with self._lock():
                if self._stale or self._offered is None:
                    await self._list(connection)
        assert self._offered is not None
        return self._offered

    # -- listing
    async def _list(self, connection: Connection) -> None:
        self._stale = False  # (a change said during the listing marks it again)
        start = time.perf_counter()
        try:
            listed = await connection.list_tools()
        except ToolError:
            self._stale = True
            raise
        except TimeoutError:
            self._stale = True
            raise ToolError(f"{connection.label} did not list its tools within its "
                            f"startup_timeout ({self.server.startup_timeout:g} s)") from None
        except Exception as e:
            self._stale = True
            raise ToolError(f"{connection.label} could not list its tools: "
                            f"{connection.describe(e)}") from e
        self._offered = self._filtered(listed, (time.perf_counter() - start) * 1000)

    def _filtered(self, listed: list[Any], duration_ms: float) -> _Offered:
        server = self.server
        tools: dict[str, Tool] = {}
        names: dict[str, str] = {}
        digests: dict[str, str] = {}
        withheld: dict[str, str] = {}
        refused: dict[str, tuple[str, ...]] = {}
        seen: set[str] = set()
        for entry in listed:
            name = entry.name
            if name in seen:
                withheld[name] = "duplicate"
                continue
            seen.add(name)
            if name in server.deny:
                withheld[name] = "deny"
                continue
            if server.allow is not None and name not in server.allow:
                withheld[name] = "not in allow"
                continue
            shown = server.model_name(name)
            if shown is None:
                withheld[name] = "name"
                if self.listing is None or name not in self.listing.withheld:
                    log.warning("MCP server %r: tool %r is withheld: a model takes names of "
                                "1-64 letters, digits, '_' or '-' (with the prefix %r)",
                                server.name, name, server.prefix)
                continue
            definition = _definitions.definition(entry)
            pinned = self._pins.get(name)
            if pinned is None or (server.allow_updates and pinned != definition):
                self._pins[name] = pinned = definition
            if pinned != definition:
                paths = tuple(_definitions.changes(pinned, definition))
                refused[name] = paths
                if self._refused.get(name) != paths:
                    log.warning("%s", self._refusal(name, paths))
                continue
            tools[shown] = self._tool(shown, name, definition)
            names[shown] = name
            digests[shown] = _definitions.digest(definition)
        self._refused = refused
        if server.allow is not None:
            missing = [n for n in server.allow if n not in seen]
            if missing:
                log.warning("MCP server %r does not list the allowed tool(s) %s",
                            server.name, ", ".join(missing))
        listing = Listing(server.name, digests, refused, withheld)
        return _Offered(tools, names, listing, duration_ms)

    def _refusal(self, name: str, paths: tuple[str, ...]) -> str:
        return (f"MCP server {self.server.name!r}: the definition of tool {name!r} "
                f"changed since the agent first listed it ({_definitions.said(list(paths))} "
                f"changed), so the tool is refused; allow_updates=True takes updates")

    def _tool(self, shown: str, name: str, definition: dict[str, Any]) -> Tool:
        schema = definition["inputSchema"]
        if not isinstance(schema, dict):
            schema = {"type": "object", "properties": {}}

        async def call(**arguments: Any) -> Any:
            return await self.call(name, arguments)

        description = definition["description"] or definition["title"] or ""
        listed = {key: definition[key] for key in LISTED_FIELDS if definition[key] is not None}
        return Tool(shown, description, schema, call, listed_fields=listed or None)

    # -- calls
    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call the server's tool ``name``: its result's value
        (``tripwire.mcp._results``); ``ToolError`` for an error result and for every
        way the call can fail."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
        from pydantic import ValidationError

        from tripwire.mcp._results import result_value

        connection = await self._connected()
        label = f"tool {name!r} of MCP server {self.server.name!r}"
        if name in self._refused:
            raise ToolError(self._refusal(name, self._refused[name]))
        malformed = connection.malformed
        try:
            result = await connection.call_tool(name, arguments,
                                                self._pins.get(name, {}).get("outputSchema"))
        except MCPError as e:
            if e.code == REQUEST_TIMEOUT:
                more = connection.malformed - malformed
                said = f" (it sent {more} malformed message(s) meanwhile)" if more else ""
                raise ToolError(f"{label} did not answer within its timeout "
                                f"({self.server.timeout:g} s){said}") from None
            if e.code == CONNECTION_CLOSED:
                raise ToolError(f"{label}: the server closed the connection during the call "
                                f"(a stdio server exited); it is started again for the next "
                                f"call") from None
            # the server's own words: a ToolError's text passes process_tool_result
            raise ToolError(f"{label} failed with protocol error {e.code}: {e}") from None
        except ValidationError as e:
            raise ToolError(f"{label} sent a malformed message: its reply is no valid "
                            f"tools/call result ({e.error_count()} error(s))") from None
        except ToolError:
            raise
        except Exception as e:
            if not connection.alive:
                raise ToolError(f"{label}: the server went away during the call "
                                f"({type(e).__name__}); it is started again for the next "
                                f"call") from None
            raise ToolError(f"{label} failed: {connection.describe(e)}") from e
        return result_value(self.server.name, name, result, self.server.max_result_bytes)
