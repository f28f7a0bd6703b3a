"""``tripwire mcp-proxy``'s resources and prompts: passed through where configured,
checked as tool results are.

An upstream's ``resources`` and ``prompts`` options (``MCPServer``) say what the proxy
passes through; with neither on any upstream, the proxy does not serve (nor advertise)
the capability. Each request of a client (``resources/list``,
``resources/templates/list``, ``resources/read``, ``prompts/list``, ``prompts/get``) is
a run of the proxy's agent whose model calls the tool of the method (``TOOLS``, the
agent's own tools while it proxies): its parameters (a URI; a prompt's name and
arguments) pass the output processors as a tool call's arguments do, the tool asks the
upstream, and its answer, as the protocol's JSON, is the tool's result, which
``process_tool_result`` and the output stream check: every string of it (a resource's
text, a prompt's messages, names, titles, URIs, descriptions). Base64 data (a blob, an
image, an audio clip) is kept aside while they check (``Request.binaries``) and passed on
as it is. A block is a JSON-RPC error naming the processor; an upstream's error is one
too, its text checked as a tool's error is.

Lists cover every upstream that passes them (all their pages, as one page); a read
goes to the upstream that listed the URI, else to the one whose template matches it,
else to the only upstream that passes it. Prompts get their upstream's ``prefix``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from tripwire.errors import ToolError
from tripwire.mcp._proxy_model import REQUEST
from tripwire.tools import Tool

if TYPE_CHECKING:
    from tripwire.mcp._toolset import MCPToolset

log = logging.getLogger("tripwire")

#: The tool each method runs as (the name processors and the audit see).
TOOLS = {
    "resources/list": "tripwire_resources_list",
    "resources/templates/list": "tripwire_resource_templates_list",
    "resources/read": "tripwire_resources_read",
    "prompts/list": "tripwire_prompts_list",
    "prompts/get": "tripwire_prompts_get",
}

#: Content types whose ``data`` is base64 (kept aside, passed on as it is).
_BINARY_TYPES = ("image", "audio")


class Catalog:
    """The resources and prompts of the proxy's upstreams that pass through."""

    def __init__(self, toolsets: Sequence[MCPToolset]) -> None:
        self.resource_sets = [t for t in toolsets if t.server.resources is not False]
        self.prompt_sets = [t for t in toolsets if t.server.prompts is not False]
        #: the URI of a listed resource -> the upstream that listed it
        self._owners: dict[str, MCPToolset] = {}
        #: a listed template, as a pattern of the URIs it makes, and its upstream
        self._templates: list[tuple[re.Pattern[str], MCPToolset]] = []

    def __bool__(self) -> bool:
        return bool(self.resource_sets or self.prompt_sets)

    def tools(self) -> dict[str, Tool]:
        """The tools the proxy's runs call for the methods served (``TOOLS``)."""
        none: dict[str, Any] = {"type": "object", "properties": {}}
        string = {"type": "string"}
        made: list[Tool] = []
        if self.resource_sets:
            made += [
                Tool(TOOLS["resources/list"], "The upstreams' resources.", none,
                     self.list_resources),
                Tool(TOOLS["resources/templates/list"], "The upstreams' resource templates.",
                     none, self.list_templates),
                Tool(TOOLS["resources/read"], "Read a resource.",
                     {"type": "object", "properties": {"uri": string}, "required": ["uri"]},
                     self.read),
            ]
        if self.prompt_sets:
            made += [
                Tool(TOOLS["prompts/list"], "The upstreams' prompts.", none, self.list_prompts),
                Tool(TOOLS["prompts/get"], "Get a prompt.",
                     {"type": "object", "properties": {
                         "name": string, "arguments": {"type": "object"}},
                      "required": ["name"]}, self.get_prompt),
            ]
        return {t.name: t for t in made}

    # -- the tools
    async def list_resources(self) -> dict[str, Any]:
        owners: dict[str, MCPToolset] = {}
        listed: list[Any] = []
        for toolset in self.resource_sets:
            for resource in await _pages(toolset, "resources/list"):
                uri = str(resource.uri)
                if toolset.server.passes_resource(uri) and uri not in owners:
                    owners[uri] = toolset
                    listed.append(resource)
        self._owners = owners
        return _hidden({"resources": _dumped(listed)})

    async def list_templates(self) -> dict[str, Any]:
        templates: list[tuple[re.Pattern[str], MCPToolset]] = []
        listed: list[Any] = []
        for toolset in self.resource_sets:
            for template in await _pages(toolset, "resources/templates/list"):
                if toolset.server.passes_resource(template.uri_template):
                    templates.append((_template_pattern(template.uri_template), toolset))
                    listed.append(template)
        self._templates = templates
        return _hidden({"resourceTemplates": _dumped(listed)})

    async def read(self, uri: str) -> dict[str, Any]:
        toolset = self._reader(uri)
        server = toolset.server
        connection = await toolset.session()
        result = await _asked(toolset, "resources/read",
                              connection.client.read_resource(uri, cache_mode="bypass"),
                              server.timeout)
        data = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        size = len(json.dumps(data, ensure_ascii=False))
        if size > server.max_result_bytes:
            raise ToolError(f"resources/read of MCP server {server.name!r} answered with "
                            f"{size} bytes, more than its max_result_bytes "
                            f"({server.max_result_bytes}); the resource is not passed on")
        return _hidden(data)

    async def list_prompts(self) -> dict[str, Any]:
        seen: set[str] = set()
        listed: list[dict[str, Any]] = []
        for toolset in self.prompt_sets:
            for prompt in await _pages(toolset, "prompts/list"):
                name = toolset.server.prefix + prompt.name
                if not toolset.server.passes_prompt(prompt.name):
                    continue
                if name in seen:
                    log.warning("MCP server %r: prompt %r is named as an earlier server's; "
                                "it is not passed on (give one server a prefix)",
                                toolset.server.name, name)
                    continue
                seen.add(name)
                listed.append({**_dumped([prompt])[0], "name": name})
        return _hidden({"prompts": listed})

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None
                         ) -> dict[str, Any]:
        toolset, own = self._prompter(name)
        if arguments is not None and not (isinstance(arguments, dict) and all(
                isinstance(v, str) for v in arguments.values())):
            _not_offered("a prompt's arguments must map names to strings")
        connection = await toolset.session()
        result = await _asked(toolset, "prompts/get",
                              connection.client.get_prompt(own, arguments),
                              toolset.server.timeout)
        return _hidden(result.model_dump(mode="json", by_alias=True, exclude_none=True))

    def _prompter(self, name: str) -> tuple[MCPToolset, str]:
        """The upstream of the prompt ``name`` (as the client sees it) and its own name
        for it; ``ToolError`` when no upstream passes it."""
        for toolset in self.prompt_sets:
            server = toolset.server
            if name.startswith(server.prefix):
                own = name[len(server.prefix):]
                if server.passes_prompt(own):
                    return toolset, own
        return _not_offered(f"no prompt {name!r} is passed through by the proxy")

    def _reader(self, uri: str) -> MCPToolset:
        """The upstream to read ``uri`` from (see the module); ``ToolError`` when no
        upstream passes it."""
        passing = [t for t in self.resource_sets if t.server.passes_resource(uri)]
        owner = self._owners.get(uri)
        if owner in passing:
            return owner
        for pattern, toolset in self._templates:
            if toolset in passing and pattern.fullmatch(uri):
                return toolset
        if len(passing) == 1:
            return passing[0]
        if not passing:
            _not_offered(f"resource {uri!r} is not passed through by the proxy")
        return _not_offered(f"resource {uri!r}: more than one upstream passes it and none "
                            f"listed it: list the resources (or their templates) first")


def _not_offered(message: str) -> NoReturn:
    REQUEST.get().error_code = _invalid_params()
    raise ToolError(message)


def _invalid_params() -> int:
    from mcp_types import INVALID_PARAMS

    return int(INVALID_PARAMS)


async def _pages(toolset: MCPToolset, method: str) -> list[Any]:
    """Every item of a list ``method`` of ``toolset``'s server, all pages, within its
    ``startup_timeout`` (as its tools are listed)."""
    from tripwire.mcp._connection import MAX_PAGES

    connection = await toolset.session()
    client = connection.client
    fetch, field = {
        "resources/list": (client.list_resources, "resources"),
        "resources/templates/list": (client.list_resource_templates, "resource_templates"),
        "prompts/list": (client.list_prompts, "prompts"),
    }[method]
    items: list[Any] = []
    cursor: str | None = None

    async def pages() -> list[Any]:
        nonlocal cursor
        for _ in range(MAX_PAGES):
            page = await fetch(cursor=cursor, cache_mode="bypass")
            items.extend(getattr(page, field))
            cursor = page.next_cursor
            if cursor is None:
                return items
        raise ToolError(f"{connection.label} listed more than {MAX_PAGES} pages of "
                        f"{method.split('/')[0]}")

    result: list[Any] = await _asked(toolset, method, pages(),
                                     toolset.server.startup_timeout)
    return result


async def _asked(toolset: MCPToolset, method: str, request: Awaitable[Any],
                 timeout: float) -> Any:
    """What the upstream answered ``request``; ``ToolError`` for every way it fails
    (its JSON-RPC error's code kept for the client: ``Request.error_code``)."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED
    from pydantic import ValidationError

    where = f"{method} of MCP server {toolset.server.name!r}"
    try:
        async with asyncio.timeout(timeout):
            return await request
    except TimeoutError:
        raise ToolError(f"{where} did not answer within {timeout:g} s") from None
    except MCPError as e:
        if e.code == CONNECTION_CLOSED:
            raise ToolError(f"{where}: the server closed the connection; it is started "
                            f"again for the next request") from None
        REQUEST.get().error_code = e.code
        # the server's own words: a ToolError's text passes process_tool_result
        raise ToolError(f"{where} failed with protocol error {e.code}: {e}") from None
    except ValidationError as e:
        raise ToolError(f"{where} sent a malformed message ({e.error_count()} "
                        f"error(s))") from None


def _dumped(items: list[Any]) -> list[dict[str, Any]]:
    return [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in items]


def _template_pattern(template: str) -> re.Pattern[str]:
    """The URIs an RFC 6570 template makes, roughly: each ``{...}`` any text."""
    return re.compile(".*".join(re.escape(p) for p in re.split(r"\{[^}]*\}", template)),
                      re.DOTALL)


def _hidden(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` with its base64 data (a ``blob``; the ``data`` of an image or audio
    block) replaced by its index in ``Request.binaries``, where it is kept. Whatever
    sits at such a place is kept (an upstream's ``_meta`` is free-form), so every index
    there on the way back is one of these."""
    kept = REQUEST.get().binaries

    def keep(data: Any) -> int:
        kept.append(data)
        return len(kept) - 1

    hidden: dict[str, Any] = _swapped(value, keep, lambda data: True)
    return hidden


def restored(value: Any, binaries: list[Any]) -> Any:
    """``value`` (as the processors left it) with the data ``_hidden`` kept aside back."""
    return _swapped(value, lambda index: binaries[index],
                    lambda index: type(index) is int and 0 <= index < len(binaries))


def _swapped(value: Any, swap: Callable[[Any], Any], swaps: Callable[[Any], bool]) -> Any:
    """``value`` with ``swap(data)`` for each binary place's ``data`` that ``swaps``."""
    if isinstance(value, list):
        return [_swapped(item, swap, swaps) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _swapped(item, swap, swaps) for key, item in value.items()}
    for key in ("blob", "data") if value.get("type") in _BINARY_TYPES else ("blob",):
        if key in value and swaps(value[key]):
            out[key] = swap(value[key])
    return out


def handlers(catalog: Catalog,
             answer: Callable[[str, dict[str, Any], Any], Awaitable[Any]]) -> dict[str, Any]:
    """The ``mcp.server.lowlevel.Server`` handlers of the methods the proxy serves for
    ``catalog`` (none when no upstream passes resources or prompts: the capability is
    then not advertised); ``answer(method, arguments, ctx)`` is the checked answer's JSON
    (``MCPProxy.passthrough``)."""
    import mcp_types as types
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    def handler(method: str, result: Any, arguments: Callable[[Any], dict[str, Any]]
                ) -> Callable[..., Awaitable[Any]]:
        async def handle(ctx: Any, params: Any) -> Any:
            value = await answer(method, arguments(params), ctx)
            try:
                return result.model_validate(value)
            except ValidationError as e:
                raise MCPError(code=types.INTERNAL_ERROR, message=(
                    f"tripwire: the processors left a {method} answer that is no valid "
                    f"result ({e.error_count()} error(s))")) from None

        return handle

    def nothing(params: Any) -> dict[str, Any]:
        return {}

    out: dict[str, Any] = {}
    if catalog.resource_sets:
        out["on_list_resources"] = handler("resources/list", types.ListResourcesResult,
                                           nothing)
        out["on_list_resource_templates"] = handler(
            "resources/templates/list", types.ListResourceTemplatesResult, nothing)
        out["on_read_resource"] = handler("resources/read", types.ReadResourceResult,
                                          lambda params: {"uri": str(params.uri)})
    if catalog.prompt_sets:
        out["on_list_prompts"] = handler("prompts/list", types.ListPromptsResult, nothing)
        out["on_get_prompt"] = handler(
            "prompts/get", types.GetPromptResult,
            lambda params: {"name": params.name, **(
                {"arguments": params.arguments} if params.arguments is not None else {})})
    return out
