"""The ``tools/call`` fast path of ``tripwire mcp-proxy``'s transports, its shared part.

A client's well-formed ``tools/call`` is not parsed into the SDK's models and handed to
its server, but answered straight from its JSON: ``call_of`` says whether a message is
one such call, and ``replies`` gives the JSON-RPC messages that answer it (as the SDK's
server would write them). The stdio transport (``_proxy_stdio``) and the streamable
HTTP one (``_proxy_http_calls``) each decide when a message is theirs to take, and
write the replies on their own wire; anything else is the SDK server's to answer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("tripwire")

#: ``answer(name, arguments)`` of a ``tools/call`` (``MCPProxy.answer_call``): the
#: result's JSON, and whether to tell the client first that the tool list changed
Answer = Callable[..., Awaitable[tuple[dict[str, Any], bool]]]

#: The ``notifications/tools/list_changed`` a reply is preceded by when the tools changed
LIST_CHANGED: dict[str, Any] = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


def parsed(data: bytes) -> Any:
    """``data``'s JSON, or None when it is no JSON."""
    try:
        return json.loads(data)
    except ValueError:
        return None


def call_of(message: Any) -> tuple[int | str, str, dict[str, Any]] | None:
    """The id, tool name and arguments of ``message`` when it is a JSON-RPC
    ``tools/call`` request whose parameters are a name and an arguments object (and
    ``_meta``, which the proxy does not use); None for anything else, which the SDK's
    server answers (its errors included)."""
    if not isinstance(message, dict) or message.get("method") != "tools/call" or \
            message.get("jsonrpc") != "2.0" or not message.keys() <= _REQUEST:
        return None
    ident, params = message.get("id"), message.get("params")
    if isinstance(ident, bool) or not isinstance(ident, int | str) or \
            not isinstance(params, dict) or not params.keys() <= _PARAMS:
        return None
    name, arguments = params.get("name"), params.get("arguments")
    if not isinstance(name, str) or not isinstance(arguments, dict | None) or \
            not isinstance(params.get("_meta", {}), dict):
        return None
    return ident, name, arguments or {}


def cancelled_of(message: Any) -> Any:
    """The ``requestId`` of ``message`` when it is a ``notifications/cancelled``, else
    None."""
    params = message.get("params") if isinstance(message, dict) else None
    if not isinstance(params, dict) or message.get("method") != "notifications/cancelled":
        return None
    return params.get("requestId")


_REQUEST = {"jsonrpc", "id", "method", "params"}
_PARAMS = {"name", "arguments", "_meta"}


async def replies(answer: Answer, ident: int | str, name: str, arguments: dict[str, Any],
                  **options: Any) -> list[dict[str, Any]]:
    """The messages answering the call ``ident``: its result (after
    ``notifications/tools/list_changed`` when the upstream's tools changed), or, when
    ``answer`` failed, an internal error naming the exception's type only (the SDK's
    server answers a failed handler so too). ``options`` go to ``answer``."""
    try:
        result, changed = await answer(name, arguments, **options)
    except Exception as e:
        log.exception("tripwire mcp-proxy: tools/call %r failed", name)
        return [{"jsonrpc": "2.0", "id": ident, "error": {
            "code": -32603, "message": f"tripwire: the call failed ({type(e).__name__})"}}]
    reply = {"jsonrpc": "2.0", "id": ident, "result": result}
    return [LIST_CHANGED, reply] if changed else [reply]
