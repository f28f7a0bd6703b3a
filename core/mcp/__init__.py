"""MCP: tools from Model Context Protocol servers, guarded like any tool.

``MCPServer.stdio(...)`` / ``MCPServer.http(...)`` go in ``Agent(tools=[...])``; each
agent opens its own session to the server (at its first run, or at ``async with
agent``), lists the tools as runs start and again when the server says they changed,
and closes it in ``agent.aclose()``. The definitions are input (the input processors
check them every run), a changed one is refused unless ``allow_updates``, and every
result passes ``process_tool_result``. docs/mcp.md is the guide.

- ``server``: ``MCPServer``, what to connect to and how the tools are filtered (public);
- ``config``: ``[mcp.NAME]`` tables of a configuration file (public);
- ``proxy``: ``MCPProxy``, ``tripwire mcp-proxy``'s server (public), its model
  (``_proxy_model``), its resources and prompts (``_proxy_resources``), a key's
  processor overrides (``_proxy_keys``) and HTTP layer (``_proxy_http``); ``cli``: the
  command (public);
- ``_toolset``: one agent's tools from one server: listing, filtering, pinning, calls;
- ``_connection``: one session, held by a task of its own, restarted when it dies;
- ``_definitions``: a tool's definition, its digest, what changed in it, ``Listing``;
- ``_results``: a ``tools/call`` result as the value the model and the guards read.

The official ``mcp`` SDK is imported when a session opens (the ``tripwire[mcp]`` extra).
"""

from tripwire.errors import ToolError
from tripwire.mcp._definitions import Listing
from tripwire.mcp.server import MCPServer

__all__ = ["Listing", "MCPServer", "ToolError"]
