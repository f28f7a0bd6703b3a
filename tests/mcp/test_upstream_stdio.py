"""A stdio server's calls on the lean path (tripwire.mcp._upstream_stdio): every way
a hand-written server's reply can go wrong, cancellation, timeouts, a server that
exits mid-call, and what is left when it ends (no process, no task, no waiter)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.mcp.helpers import alive
from tests.support.mcp_servers import stdio_server
from tripwire import ToolError
from tripwire.mcp._upstream_stdio import ID_PREFIX


async def opened(**options):
    toolset = stdio_server(kind="raw", **options).toolset()
    await toolset.open()
    return toolset


async def test_a_call_is_answered_on_the_lean_path_by_its_own_id() -> None:
    toolset = await opened()
    try:
        assert toolset.connection._pipes is not None  # (a stdio server takes the lean path)
        assert await toolset.call("search", {}) == "search answered"
        assert toolset.connection._pipes.pending == {}
    finally:
        await toolset.aclose()


@pytest.mark.parametrize(("tool", "said"), [
    ("rpc_error", "tool 'rpc_error' of MCP server 'notes' failed with protocol error "
                  "-32050: the upstream broke"),
    ("no_result", "tool 'no_result' of MCP server 'notes' sent a malformed message: its "
                  "reply is no valid tools/call result"),
    ("bad_error", "tool 'bad_error' of MCP server 'notes' sent a malformed message: its "
                  "reply is no valid tools/call result"),
    ("malformed", "tool 'malformed' of MCP server 'notes' sent a malformed message: its "
                  "reply is no valid tools/call result"),
    ("typed", "tool 'typed' of MCP server 'notes' failed: RuntimeError: Invalid structured "
              "content returned by tool typed: 'x' is not of type 'integer'"),
])
async def test_a_reply_that_is_no_result_is_a_tool_error_naming_what(tool, said) -> None:
    toolset = await opened()
    try:
        with pytest.raises(ToolError) as raised:
            await toolset.call(tool, {})
        assert str(raised.value).startswith(said)
        # the session goes on
        assert await toolset.call("search", {}) == "search answered"
    finally:
        await toolset.aclose()


async def test_a_reply_to_an_id_never_sent_is_dropped_and_the_call_answered() -> None:
    toolset = await opened()
    try:
        assert await toolset.call("stray", {}) == "stray answered"
        assert toolset.connection.alive
    finally:
        await toolset.aclose()


async def test_a_timeout_cancels_the_request_at_the_server() -> None:
    toolset = await opened(timeout=0.2)
    try:
        with pytest.raises(ToolError, match=r"did not answer within its timeout \(0.2 s\)"):
            await toolset.call("silent", {})
        assert toolset.connection._pipes.pending == {}
        cancelled = json.loads(await toolset.call("cancelled", {}))
        assert len(cancelled) == 1 and cancelled[0].startswith(ID_PREFIX)
    finally:
        await toolset.aclose()


async def test_a_cancelled_caller_cancels_the_request_and_leaves_no_waiter() -> None:
    toolset = await opened()
    try:
        call = asyncio.ensure_future(toolset.call("silent", {}))
        while not toolset.connection._pipes.pending:
            await asyncio.sleep(0.01)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert toolset.connection._pipes.pending == {}
        cancelled = json.loads(await toolset.call("cancelled", {}))
        assert len(cancelled) == 1 and cancelled[0].startswith(ID_PREFIX)
    finally:
        await toolset.aclose()


async def test_a_server_that_exits_mid_call_fails_the_call_and_is_started_again() -> None:
    toolset = await opened()
    try:
        first = toolset.connection
        pipes = first._pipes
        with pytest.raises(ToolError, match="the server closed the connection during the "
                                            "call"):
            await toolset.call("exit", {})
        assert not first.alive and pipes.pending == {}
        assert await toolset.call("search", {}) == "search answered"
        assert toolset.connection is not first
        await asyncio.wait_for(first._task, 10)  # (the old session's task has ended)
        assert not alive(pipes.pid)
    finally:
        await toolset.aclose()


async def test_no_process_is_left_when_a_server_dies_or_the_session_ends() -> None:
    toolset = stdio_server(allow=["pid", "die"]).toolset()
    await toolset.open()
    pid = int(await toolset.call("pid", {}))
    with pytest.raises(ToolError):
        await toolset.call("die", {})
    again = int(await toolset.call("pid", {}))
    await toolset.aclose()
    assert pid != again and not alive(pid) and not alive(again)


async def test_a_session_closed_during_a_call_fails_it_and_ends_the_server() -> None:
    toolset = await opened()
    call = asyncio.ensure_future(toolset.call("silent", {}))
    while not toolset.connection._pipes.pending:
        await asyncio.sleep(0.01)
    pipes = toolset.connection._pipes
    await toolset.aclose()
    with pytest.raises(ToolError, match="closed the connection|went away"):
        await call
    assert pipes.pending == {} and not alive(pipes.pid)
