"""``[mcp.NAME]`` tables of a configuration file: MCP servers the agents name.

.. code-block:: toml

    [mcp.docs]
    command = "uvx"
    args = ["mcp-server-docs"]
    env_from = ["DOCS_TOKEN"]          # passed on from tripwire's environment
    allow = ["search", "read_page"]

    [mcp.tickets]
    url = "https://mcp.example.com/mcp"
    headers_env = { Authorization = "TICKETS_AUTH" }   # the value is read from there
    deny = ["delete_ticket"]
    timeout = 20

    [agents.support]
    model = "openai/gpt-5-mini"
    mcp_servers = ["docs", "tickets"]

Each key is an ``MCPServer`` argument of the same name. ``check_table`` checks a
table's shape when the file is loaded (the SDK is not needed for that);
``build`` makes the ``MCPServer`` when an agent that names it is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripwire.errors import ConfigurationError
from tripwire.mcp.server import SERVER_NAME, MCPServer
from tripwire.option_checks import check, unknown_name

__all__ = ["KEYS", "build", "check_table"]

#: The keys of an ``[mcp.NAME]`` table and the types of their values.
KEYS: dict[str, Any] = {
    "command": str,
    "args": list[str],
    "env": dict[str, str],
    "env_from": list[str],
    "cwd": str,
    "url": str,
    "headers": dict[str, str],
    "headers_env": dict[str, str],
    "allow": list[str],
    "deny": list[str],
    "prefix": str,
    "allow_updates": bool,
    "timeout": float,
    "startup_timeout": float,
    "max_result_bytes": int,
    "resources": bool | list[str],
    "deny_resources": list[str],
    "prompts": bool | list[str],
    "deny_prompts": list[str],
}


def check_table(name: str, table: Mapping[str, Any], where: str) -> None:
    """Check the shape of ``[mcp.NAME]`` (``where`` names the file and the table)."""
    if not SERVER_NAME.fullmatch(name):
        raise ConfigurationError(f"{where}: an MCP server's name must be 1-64 letters, "
                                 f"digits, '_', '-' or '.'")
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigurationError(f"{where}: {unknown_name('key', key, KEYS)}")
        if key in ("resources", "prompts") and not isinstance(value, bool | list):
            raise ConfigurationError(f"{where}: {key} must be true, false or a list of "
                                     f"{'URI patterns' if key == 'resources' else 'names'}, "
                                     f"got {value!r:.80}")
        check(key, value, KEYS[key], owner=where, noun="key")
    if ("command" in table) == ("url" in table):
        raise ConfigurationError(f"{where}: give command (a server run over stdio) or url "
                                 f"(streamable HTTP), not both and not neither")


def build(name: str, table: Mapping[str, Any], where: str) -> MCPServer:
    """The ``MCPServer`` of ``[mcp.NAME]``; its errors name ``where``."""
    options: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                               for k, v in table.items()}
    try:
        return MCPServer(name, **options)
    except ConfigurationError as e:
        said = str(e).removeprefix(f"MCP server {name!r}: ")
        raise ConfigurationError(f"{where}: {said}") from e
