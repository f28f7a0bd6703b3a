"""``tripwire mcp-proxy``: an agent's MCP servers as one MCP server, guarded.

Any MCP client (a desktop assistant, an IDE) connects to the proxy as to any MCP
server, over stdio or streamable HTTP; the proxy fronts the upstream servers the agent
names (``mcp_servers``) with the agent's processors. Each request is a run of the agent
whose model is the client (``tripwire.mcp._proxy_model``), so the processors see it
where they see a model's:

- ``tools/list``: the upstream tools, filtered (``allow``, ``deny``) and pinned as for
  any agent, their definitions checked by the input processors (``process_input``) as
  input, and given to the client as the processors left them;
- ``tools/call``: the client's call is the model's tool call, its arguments pass the
  output processors (``process_output_stream``, ``process_output_step``) as a tool
  call's do (a redactor redacts them before the upstream gets them, a block stops the
  call), and the upstream's result passes ``process_tool_result`` and the stream;
- ``resources/*`` and ``prompts/*``, where an upstream passes them: a tool call of the
  proxy's own whose result is the upstream's answer (``_proxy_resources``).

A block is an MCP tool error (a JSON-RPC error for a listing, a resource or a prompt)
whose text names the processor, never what it blocked. A key of the HTTP transport
runs with its processor overrides (``_proxy_keys``).
``serve_stdio`` serves it over stdio, ``tripwire.mcp._proxy_http`` over streamable
HTTP; the access log (``tripwire.mcp.access``) has one JSON line per request: method,
tool, key name, tenant, outcome and milliseconds, never arguments or results.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tripwire.config import Config
from tripwire.context import RESOURCE_ID_KEY
from tripwire.errors import ConfigurationError
from tripwire.mcp._proxy_model import REQUEST, ProxyModel, Request
from tripwire.mcp._proxy_resources import TOOLS, Catalog, handlers, restored
from tripwire.mcp._results import call_result

if TYPE_CHECKING:
    from tripwire.agent import Agent
    from tripwire.serve import Keys

__all__ = ["MCPProxy", "access_log"]

#: One JSON line per request of a client (never its arguments or results).
access_log = logging.getLogger("tripwire.mcp.access")


class Blocked(Exception):
    """A processor stopped a request; ``processor_id`` names it."""

    def __init__(self, processor_id: str | None) -> None:
        super().__init__(f"blocked by processor {processor_id!r}")
        self.processor_id = processor_id


class MCPProxy:
    """The MCP servers of ``agent`` as one, behind its processors (see the module)."""

    def __init__(self, agent: Agent,
                 key_lists: Mapping[str, Mapping[str, list[Any]]] | None = None) -> None:
        if not agent._toolsets:
            raise ConfigurationError(f"agent {agent.id!r} has no MCP servers to front: give it "
                                     f"mcp_servers (docs/mcp.md)")
        if not isinstance(agent.model, ProxyModel):
            raise ConfigurationError("an MCPProxy's agent answers with the proxy's model: "
                                     "build it with MCPProxy.from_config, or "
                                     "Agent(model=ProxyModel(), max_steps=1, ...)")
        self.agent = agent
        #: the processor lists of the keys that override them, by key name
        #: (``_proxy_keys``); a key's runs use them instead of the agent's
        self.key_lists = dict(key_lists or {})
        #: the keys of the HTTP transport (``from_config``)
        self.keys: Keys | None = None
        #: the upstreams' resources and prompts that pass through, as the tools of the
        #: runs that answer those methods (``_proxy_resources``)
        self.catalog = Catalog(agent._toolsets)  # type: ignore[arg-type]
        agent.tools = {**agent.tools, **self.catalog.tools()}
        #: requests by (method, outcome), and their seconds, for /metrics
        self.counts: dict[tuple[str, str], int] = {}
        self.seconds: dict[str, float] = {}

    @classmethod
    def from_config(cls, config: str | Path | Config, agent: str,
                    keys: Keys | None = None) -> MCPProxy:
        """The proxy of ``[agents.AGENT]`` of a configuration file (its model is never
        built: the proxy's stands in). ``keys``: the HTTP transport's, whose processor
        overrides are built now (``_proxy_keys``: an override the proxy cannot apply is
        a ``ConfigurationError`` naming the key and the option)."""
        from tripwire.agent import Agent
        from tripwire.config import load_config
        from tripwire.mcp._proxy_keys import key_lists

        loaded = config if isinstance(config, Config) else load_config(config)
        built = Agent.from_config(loaded, agent, model=ProxyModel(), max_steps=1)
        proxy = cls(built, key_lists(loaded, built, keys) if keys is not None else None)
        proxy.keys = keys
        return proxy

    async def open(self) -> None:
        """Start the upstream servers (and list their tools) now."""
        await self.agent.__aenter__()

    async def aclose(self) -> None:
        await self.agent.aclose()

    # -- requests
    async def list_tools(self, key: Any = None) -> list[Any]:
        """The tools a client sees: ``mcp.types.Tool`` entries with the definitions as
        the input processors left them; ``Blocked`` when one stopped the listing."""
        import mcp_types as types

        job = Request()
        await self._run(job, "tools/list", key, output_processors=[])
        own = self.agent.tools
        return [listed_tool(types, t) for t in job.offered if t.name not in own]

    async def call_tool(self, name: str, arguments: Mapping[str, Any], key: Any = None) -> Any:
        """The client's call of ``name``, run as the agent's tool call: an
        ``mcp.types.CallToolResult`` (a tool error for a block, naming the
        processor). ``key``: the client's API key (``tripwire.serve.ApiKey``), whose
        tenant is the run's ``RESOURCE_ID_KEY``."""
        if name in self.agent.tools:  # (the agent's own: the client was not offered it)
            return call_result(f"tripwire: there is no tool {name!r}", is_error=True)
        job = Request(tool_name=name, arguments=dict(arguments))
        try:
            result = await self._run(job, "tools/call", key, input_processors=[])
        except Blocked as blocked:
            return call_result(f"tripwire: the call was blocked by processor "
                               f"{blocked.processor_id!r}", is_error=True)
        results = result.steps[0].tool_results if result.steps else []
        if not results:
            return call_result(f"tripwire: tool {name!r} did not run", is_error=True)
        outcome = results[0]
        return call_result(outcome.result, is_error=outcome.is_error)

    async def answer_call(self, name: str, arguments: dict[str, Any],
                          key: Any = None) -> tuple[dict[str, Any], bool]:
        """A ``tools/call`` of a client of the transports' fast path (``_proxy_fast``):
        ``call_tool``'s result as its JSON, and whether the upstream's tools changed
        (the client is told before it gets the result)."""
        result = await self.call_tool(name, arguments, key)
        # (as the SDK's server writes it to a client of the handshake's protocols, which
        # have no resultType)
        return result.model_dump(by_alias=True, mode="json", exclude_none=True,
                                 exclude={"result_type"}), self.changed

    async def passthrough(self, method: str, arguments: Mapping[str, Any],
                          key: Any = None) -> Any:
        """The answer to a client's ``resources/list``, ``resources/templates/list``,
        ``resources/read``, ``prompts/list`` or ``prompts/get`` (``arguments``: its
        parameters), as the protocol's JSON, checked as a tool's result is
        (``tripwire.mcp._proxy_resources``); ``Blocked`` when a processor stopped it, an
        ``mcp.MCPError`` when the upstream failed or does not pass it through."""
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        if method not in TOOLS:
            raise ValueError(f"the proxy passes through {', '.join(TOOLS)}; got {method!r}")
        if TOOLS[method] not in self.agent.tools:
            raise MCPError(code=types.METHOD_NOT_FOUND, message=(
                f"tripwire: no upstream passes {method.split('/')[0]} through (the "
                f"[mcp.NAME] option {method.split('/')[0]})"))
        job = Request(tool_name=TOOLS[method], arguments=dict(arguments))
        result = await self._run(job, method, key, input_processors=[])
        outcome = result.steps[0].tool_results[0] if result.tool_results else None
        if outcome is None or outcome.is_error:
            text = str(outcome.result) if outcome is not None else "it did not run"
            raise MCPError(code=job.error_code or types.INTERNAL_ERROR,
                           message=f"tripwire: {text.removeprefix('ToolError: ')}")
        return restored(outcome.result, job.binaries)

    async def _run(self, job: Request, method: str, key: Any, **lists: Any) -> Any:
        tenant = getattr(key, "tenant", None)
        context = {RESOURCE_ID_KEY: tenant} if tenant is not None else None
        own = self.key_lists.get(getattr(key, "name", None))  # type: ignore[arg-type]
        if own is not None:  # (the key's lists; a method's empty one stays empty)
            lists = {**own, **lists}
        token = REQUEST.set(job)
        start = time.perf_counter()
        outcome = "error"
        try:
            result = await self.agent.generate(method, request_context=context, **lists)
            if result.tripwire is not None:
                outcome = "blocked"
                raise Blocked(result.tripwire.processor_id)
            outcome = "ok"
            return result
        finally:
            REQUEST.reset(token)
            seconds = time.perf_counter() - start
            self.counts[method, outcome] = self.counts.get((method, outcome), 0) + 1
            self.seconds[method] = self.seconds.get(method, 0.0) + seconds
            if access_log.isEnabledFor(logging.INFO):  # (no line is made for nobody)
                access_log.info(json.dumps({
                    "method": method,
                    "tool": job.tool_name if method == "tools/call" else None,
                    "key": getattr(key, "name", None), "tenant": tenant,
                    "outcome": outcome, "ms": round(seconds * 1000, 3)}))

    @property
    def changed(self) -> bool:
        """An upstream said its tools changed since they were last listed."""
        return any(getattr(toolset, "stale", False) for toolset in self.agent._toolsets)

    # -- serving
    def server(self) -> Any:
        """The proxy as an MCP server (``mcp.server.lowlevel.Server``)."""
        import mcp_types as types
        from mcp.shared.exceptions import MCPError

        async def list_tools(ctx: Any, params: Any) -> Any:
            try:
                tools = await self.list_tools(key_of(ctx))
            except Blocked as blocked:
                raise MCPError(code=types.INTERNAL_ERROR, message=(
                    f"tripwire: the tool list was blocked by processor "
                    f"{blocked.processor_id!r}")) from None
            return types.ListToolsResult(tools=tools)

        async def call_tool(ctx: Any, params: Any) -> Any:
            result = await self.call_tool(params.name, params.arguments or {}, key_of(ctx))
            if self.changed:  # (the upstream's tools changed: the client lists again)
                await ctx.session.send_tool_list_changed()
            return result

        async def passthrough(method: str, arguments: dict[str, Any], ctx: Any) -> Any:
            try:
                return await self.passthrough(method, arguments, key_of(ctx))
            except Blocked as blocked:
                raise MCPError(code=types.INTERNAL_ERROR, message=(
                    f"tripwire: the {method} answer was blocked by processor "
                    f"{blocked.processor_id!r}")) from None

        return _server_class()("tripwire-mcp-proxy", on_list_tools=list_tools,
                               on_call_tool=call_tool, **handlers(self.catalog, passthrough))

    def initialization_options(self, server: Any) -> Any:
        return server.create_initialization_options()

    async def serve_http(self, keys: Any = None, host: str = "127.0.0.1", port: int = 8765,
                         **options: Any) -> None:
        """Serve over streamable HTTP at ``http://HOST:PORT/mcp`` (``_proxy_http``);
        ``keys``: default the ones given to ``from_config``."""
        from tripwire.mcp._proxy_http import serve_http

        keys = keys if keys is not None else self.keys
        missing = [k.name for k in (keys.keys if keys is not None else ())
                   if k.overrides and k.may_use(self.agent.id) and k.name not in self.key_lists]
        if missing:
            raise ConfigurationError(f"serve.keys.{missing[0]} overrides processors, which "
                                     f"the proxy was not built with: build it with "
                                     f"MCPProxy.from_config(config, agent, keys)")
        await serve_http(self, keys, host, port, **options)

    async def serve_stdio(self) -> None:
        """Serve one client over this process's stdin and stdout until it leaves."""
        from tripwire.mcp._proxy_stdio import stdio_streams

        server = self.server()
        await self.open()
        try:
            async with stdio_streams(self.answer_call) as (read, write):
                await server.run(read, write, self.initialization_options(server))
        finally:
            await self.aclose()


def listed_tool(types: Any, tool: Any) -> Any:
    """The ``mcp.types.Tool`` a client is given for a run's ``Tool``: its name,
    description and input schema, and the title, annotations and output schema its
    server listed (``Tool.listed_fields``), all as the input processors left them (a
    string a processor filtered out is empty: an empty title is left out)."""
    fields = tool.listed_fields or {}
    return types.Tool.model_validate({
        "name": tool.name, "description": tool.description or None,
        "inputSchema": tool.parameters, "title": fields.get("title") or None,
        "annotations": fields.get("annotations"), "outputSchema": fields.get("outputSchema")})


def key_of(ctx: Any) -> Any:
    """The API key of a request (streamable HTTP with keys: ``_proxy_http``), else None."""
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None)
    if not isinstance(scope, Mapping):
        return None
    return scope.get("state", {}).get("tripwire_key")


def _server_class() -> type:
    """The SDK's low-level ``Server`` whose capabilities say the tool list changes
    (``tools.listChanged``: the proxy sends ``notifications/tools/list_changed``): by
    default, as the SDK's streamable HTTP session manager builds them with no options."""
    from mcp.server.lowlevel import Server
    from mcp.server.lowlevel.server import NotificationOptions

    class ProxyServer(Server):
        def create_initialization_options(self, notification_options: Any = None,
                                          *args: Any, **kwargs: Any) -> Any:
            return super().create_initialization_options(
                notification_options or NotificationOptions(tools_changed=True),
                *args, **kwargs)

    return ProxyServer
