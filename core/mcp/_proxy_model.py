"""The model of ``tripwire mcp-proxy``'s agent: what the client asked for, as a model's.

The proxy runs each request through its agent's loop, so the processors see it where
they see a model's: a ``tools/call`` is the model's tool call (its arguments pass the
output processors as a tool call's do; the tool runs; its result passes
``process_tool_result``), a ``tools/list`` a model call whose tools the input
processors checked first. ``Request`` (a context variable the proxy sets for the run)
says which; the model answers it and records what it was offered.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from typing import Any

import attrs

from tripwire.chunks import Chunk, Usage


@attrs.define
class Request:
    """One request of a client, as the run's model answers it."""

    #: the tool call to make (the name the model sees) and its arguments; None for a
    #: listing
    tool_name: str | None = None
    arguments: dict[str, Any] = attrs.field(factory=dict)
    call_id: str = "mcp-call"
    #: the tools the model was offered, as the input processors left them (a listing)
    offered: list[Any] = attrs.field(factory=list)
    #: resources and prompts (``tripwire.mcp._proxy_resources``): the base64 data the
    #: processors do not read, kept aside while they check the rest; the code of an
    #: upstream's JSON-RPC error
    binaries: list[Any] = attrs.field(factory=list)
    error_code: int | None = None


#: The request the current run answers (set by the proxy around ``agent.generate``).
REQUEST: contextvars.ContextVar[Request] = contextvars.ContextVar("tripwire_mcp_request")


class ProxyModel:
    """Answers the proxy's runs (``Request``); never calls a model."""

    provider = "mcp-proxy"
    model_id = "client"

    async def stream(self, request: Any) -> AsyncIterator[Chunk]:
        job = REQUEST.get()
        run_id = request.run_id  # (every chunk carries the run's id)
        if job.tool_name is None:
            job.offered = list(request.tools)
            yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()}, run_id)
            return
        yield Chunk("tool-call", {"tool_call_id": job.call_id, "tool_name": job.tool_name,
                                  "args": job.arguments}, run_id)
        yield Chunk("finish", {"finish_reason": "tool-calls", "usage": Usage()}, run_id)
