"""``MCPServer``: an MCP server an agent takes its tools from, and how.

A frozen description (what to start or where to connect, which tools to offer, the
limits); ``toolset()`` gives an agent its own session to it (``tripwire.mcp._toolset``).
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.tools import TOOL_NAME

if TYPE_CHECKING:
    from tripwire.mcp._toolset import MCPToolset

__all__ = ["MCPServer"]

#: What a server's name must be: it names the server in errors, logs and the audit
#: (``mcp:NAME``) and is the key of its ``[mcp.NAME]`` table.
SERVER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
#: What a prefix may be: it goes in front of every tool name the model sees.
_PREFIX = re.compile(r"[A-Za-z0-9_-]{0,32}")


def _mapping(value: Any) -> dict[str, str]:
    return dict(value) if value else {}


def _names(value: Any) -> tuple[str, ...] | None:
    return None if value is None else _strings_tuple(value)


def _passed(value: Any) -> bool | tuple[str, ...]:
    """``resources`` / ``prompts``: true, false, or a list (of patterns or names)."""
    return value if isinstance(value, bool) else _strings_tuple(value)


def _strings_tuple(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):  # (one name, not its letters)
        raise ConfigurationError(f"expected a list of strings, got the string {value!r}")
    return tuple(value)


@attrs.frozen
class MCPServer:
    """An MCP server to take tools from: a command run as a subprocess that speaks
    over its stdin and stdout (``MCPServer.stdio``) or a streamable HTTP endpoint
    (``MCPServer.http``). Put it in ``Agent(tools=[...])``.

    ``allow`` (the tools to offer, by the server's names; None: all) and ``deny`` (never
    these) filter what the model sees; ``prefix`` goes in front of each name the model
    sees (two servers with a ``search`` tool). A definition that changes after the
    agent first listed it is refused unless ``allow_updates``. ``timeout``: seconds for
    one ``tools/call``; ``startup_timeout``: for starting the server, the handshake and
    a listing; ``max_result_bytes``: the largest result taken (text and data, decoded).
    """

    name: str
    command: str | None = None
    args: tuple[str, ...] = attrs.field(default=(), converter=_strings_tuple)
    #: environment variables for the process, on top of a safe default set (PATH,
    #: HOME, ...); ``env_from``: names of variables of this process passed on
    env: Mapping[str, str] = attrs.field(factory=dict, converter=_mapping, repr=False)
    env_from: tuple[str, ...] = attrs.field(default=(), converter=_strings_tuple)
    cwd: str | None = None
    url: str | None = None
    #: HTTP headers sent to the server; ``headers_env``: header -> the name of the
    #: environment variable holding its value, read when the session opens
    headers: Mapping[str, str] = attrs.field(factory=dict, converter=_mapping, repr=False)
    headers_env: Mapping[str, str] = attrs.field(factory=dict, converter=_mapping)
    allow: tuple[str, ...] | None = attrs.field(default=None, converter=_names)
    deny: tuple[str, ...] = attrs.field(default=(), converter=_strings_tuple)
    prefix: str = ""
    allow_updates: bool = False
    timeout: float = 60.0
    startup_timeout: float = 30.0
    max_result_bytes: int = 4_000_000
    #: ``tripwire mcp-proxy`` passes the server's resources through (true: all; a list:
    #: the URIs matching one of its patterns, ``*`` any text) but never those matching
    #: ``deny_resources``; its prompts likewise (by name). An agent reads neither.
    resources: bool | tuple[str, ...] = attrs.field(default=False, converter=_passed)
    deny_resources: tuple[str, ...] = attrs.field(default=(), converter=_strings_tuple)
    prompts: bool | tuple[str, ...] = attrs.field(default=False, converter=_passed)
    deny_prompts: tuple[str, ...] = attrs.field(default=(), converter=_strings_tuple)

    @classmethod
    def stdio(cls, name: str, command: str, args: Sequence[str] = (), *,
              env: Mapping[str, str] | None = None, env_from: Sequence[str] = (),
              cwd: str | None = None, **options: Any) -> MCPServer:
        """A server started as ``command args...``; options as the class says."""
        return cls(name, command=command, args=args, env=env or {}, env_from=env_from,
                   cwd=cwd, **options)

    @classmethod
    def http(cls, name: str, url: str, *, headers: Mapping[str, str] | None = None,
             headers_env: Mapping[str, str] | None = None, **options: Any) -> MCPServer:
        """A streamable HTTP server at ``url``; options as the class says."""
        return cls(name, url=url, headers=headers or {}, headers_env=headers_env or {},
                   **options)

    def __attrs_post_init__(self) -> None:
        where = f"MCP server {self.name!r}"
        if not isinstance(self.name, str) or not SERVER_NAME.fullmatch(self.name):
            raise ConfigurationError(f"an MCP server's name must be 1-64 letters, digits, "
                                     f"'_', '-' or '.', got {self.name!r}")
        if (self.command is None) == (self.url is None):
            raise ConfigurationError(f"{where}: give a command (stdio) or a url "
                                     f"(streamable HTTP), not both and not neither")
        if self.command is not None:
            if not isinstance(self.command, str) or not self.command:
                raise ConfigurationError(f"{where}: command must be a non-empty string, "
                                         f"got {self.command!r}")
            _strings(where, "args", self.args)
            _strings(where, "env_from", self.env_from)
            _table(where, "env", self.env)
            if self.url is None and (self.headers or self.headers_env):
                raise ConfigurationError(f"{where}: headers are for an HTTP server (url); "
                                         f"a stdio server takes env and env_from")
        else:
            if not isinstance(self.url, str) or not self.url.startswith(("http://",
                                                                           "https://")):
                raise ConfigurationError(f"{where}: url must be an http:// or https:// URL, "
                                         f"got {self.url!r}")
            if self.args or self.env or self.env_from or self.cwd is not None:
                raise ConfigurationError(f"{where}: args, env, env_from and cwd are for a "
                                         f"stdio server (command); an HTTP server takes "
                                         f"headers and headers_env")
            _table(where, "headers", self.headers)
            _table(where, "headers_env", self.headers_env)
        if self.allow is not None:
            _strings(where, "allow", self.allow)
        _strings(where, "deny", self.deny)
        both = set(self.allow or ()) & set(self.deny)
        if both:
            raise ConfigurationError(f"{where}: {', '.join(sorted(both))} is in both allow "
                                     f"and deny")
        if not isinstance(self.prefix, str) or not _PREFIX.fullmatch(self.prefix):
            raise ConfigurationError(f"{where}: prefix must be up to 32 letters, digits, '_' "
                                     f"or '-' (it goes in front of tool names), got "
                                     f"{self.prefix!r}")
        if not isinstance(self.allow_updates, bool):
            raise ConfigurationError(f"{where}: allow_updates must be true or false, got "
                                     f"{self.allow_updates!r}")
        for key in ("timeout", "startup_timeout"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    not math.isfinite(value) or value <= 0:
                raise ConfigurationError(f"{where}: {key} must be a positive number of "
                                         f"seconds, got {value!r}")
        if isinstance(self.max_result_bytes, bool) or not isinstance(
                self.max_result_bytes, int) or self.max_result_bytes <= 0:
            raise ConfigurationError(f"{where}: max_result_bytes must be a positive "
                                     f"integer, got {self.max_result_bytes!r}")
        for key in ("resources", "prompts"):
            passed, denied = getattr(self, key), getattr(self, f"deny_{key}")
            if not isinstance(passed, bool):
                _strings(where, key, passed)
            _strings(where, f"deny_{key}", denied)
            if denied and passed is False:
                raise ConfigurationError(f"{where}: deny_{key} filters the {key} passed "
                                         f"through, and {key} is false: set {key} = true "
                                         f"(or a list) first")
            both = set(passed if not isinstance(passed, bool) else ()) & set(denied)
            if both:
                raise ConfigurationError(f"{where}: {', '.join(sorted(both))} is in both "
                                         f"{key} and deny_{key}")
        if importlib.util.find_spec("mcp") is None:
            raise MissingDependencyError(f"{where}: MCP servers need the official MCP SDK: "
                                         f"pip install 'tripwire[mcp]'")

    @property
    def transport(self) -> str:
        """``"stdio"`` or ``"http"``."""
        return "stdio" if self.command is not None else "http"

    def model_name(self, tool_name: str) -> str | None:
        """The name the model sees for the server's ``tool_name`` (with the prefix);
        None when it is no name a model takes (``tripwire.tools.TOOL_NAME``)."""
        name = self.prefix + tool_name
        return name if TOOL_NAME.fullmatch(name) else None

    def passes_resource(self, uri: str) -> bool:
        """Whether ``tripwire mcp-proxy`` passes the resource ``uri`` (or a template's
        ``uriTemplate``) through: ``resources`` takes it and ``deny_resources`` does not."""
        return _passes(self.resources, self.deny_resources, uri, _pattern)

    def passes_prompt(self, name: str) -> bool:
        """Whether ``tripwire mcp-proxy`` passes the prompt ``name`` (the server's) through."""
        return _passes(self.prompts, self.deny_prompts, name, str.__eq__)

    def toolset(self) -> MCPToolset:
        """A new session of one agent to this server (``tripwire.tools.ToolSource``)."""
        from tripwire.mcp._toolset import MCPToolset

        return MCPToolset(self)


def _passes(passed: bool | tuple[str, ...], denied: tuple[str, ...], value: str,
            match: Any) -> bool:
    if passed is False or any(match(d, value) for d in denied):
        return False
    return passed is True or any(match(p, value) for p in passed)


def _pattern(pattern: str, value: str) -> bool:
    """Whether ``value`` matches ``pattern``, in which ``*`` is any text (and nothing
    else is special: a URI's ``?`` and ``[`` are themselves)."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), value,
                        re.DOTALL) is not None


def _strings(where: str, key: str, value: Any) -> None:
    if not all(isinstance(v, str) for v in value):
        raise ConfigurationError(f"{where}: {key} must be a list of strings, got "
                                 f"{list(value)!r:.120}")


def _table(where: str, key: str, value: Mapping[str, Any]) -> None:
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigurationError(f"{where}: {key} must map strings to strings")
