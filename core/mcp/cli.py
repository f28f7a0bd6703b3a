"""``tripwire mcp-proxy``: the command that serves an agent's MCP servers, guarded.

.. code-block:: sh

    tripwire mcp-proxy AGENT -c tripwire.toml              # stdio, for one client
    tripwire mcp-proxy AGENT -c tripwire.toml --http --port 8765

The SDK is imported when the command runs, not when the command line is built.
"""

from __future__ import annotations

import argparse
from typing import Any

from tripwire.cli.common import add_config_option


def register(subparsers: Any) -> None:
    """Add ``tripwire mcp-proxy`` to the command line."""
    parser = subparsers.add_parser(
        "mcp-proxy",
        help="serve an agent's MCP servers as one MCP server, behind its processors",
        description=(
            "Serve the MCP servers of [agents.AGENT] (its mcp_servers) as one MCP server: "
            "the tool list passes the agent's input processors, each call's arguments its "
            "output processors, each result process_tool_result. Over stdio (one client: "
            "the process that started this one) or, with --http, streamable HTTP at "
            "http://HOST:PORT/mcp with the keys of [serve.keys.NAME] (docs/mcp.md)."),
    )
    parser.add_argument("agent", metavar="AGENT", help="the [agents.AGENT] table")
    add_config_option(parser)
    parser.add_argument("--http", action="store_true",
                        help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="(--http) default 127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="(--http) default 8765")
    parser.add_argument("--keys-file", default=None,
                        help="(--http) a TOML file of [keys.NAME] tables, as tripwire serve "
                             "takes")
    parser.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from tripwire.config import load_config
    from tripwire.mcp.proxy import MCPProxy

    config = load_config(args.config)
    if not args.http:
        await MCPProxy.from_config(config, args.agent).serve_stdio()
        return 0
    from tripwire.serve import load_keys

    keys = load_keys(config.serve, config.path, args.keys_file)
    proxy = MCPProxy.from_config(config, args.agent, keys if keys.keys else None)
    await proxy.serve_http(None, args.host, args.port)
    return 0
