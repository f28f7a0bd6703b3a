"""Fixtures of the MCP tests: the test server (tests/support/mcp_servers.py) over
streamable HTTP for the module, and ``mcp_server`` (a factory of tripwire's
``MCPServer`` for it) parametrised over both transports."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("mcp")

from tests.support.mcp_servers import HTTPServer, stdio_server  # noqa: E402


@pytest.fixture(scope="module")
def http_server() -> Iterator[HTTPServer]:
    server = HTTPServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["stdio", "http"])
def mcp_server(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """``mcp_server(**options)``: the test server over each transport (the HTTP one is
    shared by the module's tests: use it for tools whose calls change nothing)."""
    if request.param == "stdio":
        return stdio_server
    http: HTTPServer = request.getfixturevalue("http_server")
    return http.server


@pytest.fixture(autouse=True)
async def no_task_left() -> Any:
    """Every test ends with no task of its own left running (the sessions' tasks
    included: an agent's aclose() ends them)."""
    before = asyncio.all_tasks()
    yield
    left = {t for t in asyncio.all_tasks() - before - {asyncio.current_task()}
            if t.get_coro().__qualname__ != "_shutdown_watcher"}
    # (sse_starlette, under the SDK's HTTP server, keeps one watcher task per event loop
    # for as long as the loop runs: the library's, not a session's)
    assert not left, f"tasks left running: {left}"
