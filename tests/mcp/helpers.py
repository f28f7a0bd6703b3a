"""Helpers of the MCP tests."""

from __future__ import annotations

import asyncio
import json
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.support.mcp_servers import ROOT, command
from tripwire.testing import MockResponse

if TYPE_CHECKING:
    from tripwire.mcp.proxy import MCPProxy

#: The API key of the proxy's tests (``[serve.keys.alice]``'s, from the environment).
KEY = "test-key-0123456789"


def calls(*tools: tuple[str, dict[str, Any]] | str, text: str = "done") -> list[MockResponse]:
    """A model that calls each tool in turn (a step each), then answers ``text``."""
    out = []
    for i, item in enumerate(tools):
        name, args = (item, {}) if isinstance(item, str) else item
        out.append(MockResponse(tool_calls=[{"tool_name": name, "args": args,
                                             "tool_call_id": f"call-{i}"}]))
    return [*out, MockResponse(text=text)]


def alive(pid: int) -> bool:
    """Whether a process with this id exists (and is no zombie of ours)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def tool_text(model: Any, i: int) -> list[Any]:
    """The tool results the model was sent in its ``i``-th request."""
    return [part.get("output") for message in model.requests[i].prompt
            if message["role"] == "tool" for part in message["content"]]


def config(tmp_path: Path, allow: list[str], keys: bool = False, notes: str = "",
           more: str = "") -> Path:
    """A configuration file of the proxy's tests: ``[agents.guarded]`` behind
    prompt-injection-detector and pii-detector, its ``[mcp.notes]`` the test server over
    stdio (``notes``: more keys of that table; ``more``: more tables)."""
    executable, args = command()
    path = tmp_path / "tripwire.toml"
    text = f"""
[mcp.notes]
command = {json.dumps(executable)}
args = {json.dumps(args)}
cwd = {json.dumps(str(ROOT))}
allow = {json.dumps(allow)}
{notes}

[agents.guarded]
model = "openai/never-called"
mcp_servers = ["notes"]
input_processors = ["prompt-injection-detector", "pii-detector"]
output_processors = ["prompt-injection-detector", "pii-detector"]
"""
    if keys:
        text += """
[serve.keys.alice]
key_env = "TRIPWIRE_TEST_PROXY_KEY"
tenant = "acme"
"""
    path.write_text(text + more)
    return path


def text_of(result: Any) -> str:
    """The text of an ``mcp.types.CallToolResult``."""
    return "".join(getattr(block, "text", "") for block in result.content)


class Proxied:
    """The proxy over streamable HTTP in this event loop, on a free loopback port."""

    def __init__(self, proxy: MCPProxy, keys: Any = None, **options: Any) -> None:
        self.proxy = proxy
        self.keys = keys
        self.options = options
        self.stop = asyncio.Event()
        self.port = 0

    async def __aenter__(self) -> Proxied:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        listening = asyncio.Event()

        def started(port: int) -> None:
            self.port = port
            listening.set()

        self.task = asyncio.ensure_future(self.proxy.serve_http(
            self.keys, "127.0.0.1", 0, sock=sock, started=started, stop=self.stop,
            **self.options))
        waiter = asyncio.ensure_future(listening.wait())
        await asyncio.wait([self.task, waiter], return_when=asyncio.FIRST_COMPLETED)
        if self.task.done():
            waiter.cancel()
            await self.task
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.stop.set()
        await self.task

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


def http_client(url: str, key: str | None) -> Any:
    """An HTTP client and a factory of the SDK's ``Client`` on it, for ``url``."""
    import mcp
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {key}"} if key else None
    return create_mcp_http_client(headers=headers), lambda http: mcp.Client(
        streamable_http_client(url, http_client=http), mode="legacy")
