"""``tripwire mcp-proxy --http``: the proxy over streamable HTTP, with keys and metrics.

The SDK's streamable HTTP app (``/mcp``) inside an ASGI layer of tripwire's: with keys
configured (``[serve.keys.NAME]`` tables, or a keys file, as ``tripwire serve`` has
them: docs/serve.md), every request but ``GET /healthz`` needs ``Authorization: Bearer
KEY``; the key's tenant is the runs' ``RESOURCE_ID_KEY``, and a key whose ``agents``
leave out the proxy's agent is refused, and a key with its ``max_concurrent`` POSTs in
flight is answered 429 (the session's ``GET`` stream of server messages, open as long as
the session, and a ``DELETE`` do not count); a session is its opening key's
(``_proxy_http_calls``). ``GET /metrics``: Prometheus text of the
requests by method and outcome. Answers to refused requests are JSON-RPC errors. A
``tools/call`` of a known session is answered by ``_proxy_http_calls`` (inside the
keys' layer, so it is counted and refused as any request is), which also keeps the
sessions' idle timeout.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from tripwire.mcp._proxy_http_calls import Calls

if TYPE_CHECKING:
    from tripwire.mcp.proxy import MCPProxy
    from tripwire.serve import Keys

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Where the MCP endpoint is.
PATH = "/mcp"

#: The seconds a session with no request in flight lives on (the SDK's default).
IDLE = 30 * 60.0


def http_app(proxy: MCPProxy, keys: Keys | None, host: str = "127.0.0.1",
             idle: float | None = IDLE) -> App:
    """The proxy's ASGI application (see the module); ``idle``: the seconds a session
    with no request in flight lives on."""
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    server = proxy.server()
    #: requests in flight by key name (``max_concurrent``)
    flying: dict[str, int] = {}

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def metrics(request: Request) -> Response:
        return PlainTextResponse(prometheus(proxy), media_type="text/plain; version=0.0.4")

    sdk = server.streamable_http_app(
        streamable_http_path=PATH, host=host, session_idle_timeout=None,
        custom_starlette_routes=[Route("/healthz", healthz), Route("/metrics", metrics)])
    inner = Calls(sdk, proxy.answer_call, server.session_manager, PATH, idle)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or keys is None or scope.get("path") == "/healthz":
            await inner(scope, receive, send)
            return
        presented = _bearer(scope)
        key = keys.lookup(presented) if presented is not None else None
        if key is None:
            await _refuse(send, 401, "missing or unknown API key: send 'Authorization: "
                                     "Bearer KEY'")
            return
        if not key.may_use(proxy.agent.id):
            await _refuse(send, 403, f"this API key may not use agent {proxy.agent.id!r}")
            return
        scope.setdefault("state", {})["tripwire_key"] = key
        if scope.get("method") != "POST":  # (the GET stream; a DELETE ends a session)
            await inner(scope, receive, send)
            return
        limit = keys.limit(key)
        if flying.get(key.name, 0) >= limit:
            await _refuse(send, 429, f"too many concurrent requests for this key (limit "
                                     f"{limit})")
            return
        flying[key.name] = flying.get(key.name, 0) + 1
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                flying[key.name] -= 1

        async def sending(message: MutableMapping[str, Any]) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                release()  # (answered: the SDK's app may still wind down its streams)

        try:
            await inner(scope, receive, sending)
        finally:
            release()

    return app


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            kind, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if kind.lower() == "bearer" and token.strip() else None
    return None


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32001, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def prometheus(proxy: MCPProxy) -> str:
    """The proxy's counters in Prometheus' text format."""
    lines = ["# HELP tripwire_mcp_requests_total Requests of the proxy's clients, by method "
             "and outcome (ok, blocked, error).",
             "# TYPE tripwire_mcp_requests_total counter"]
    for (method, outcome), count in sorted(proxy.counts.items()):
        lines.append(f'tripwire_mcp_requests_total{{method="{method}",outcome="{outcome}"}} '
                     f"{count}")
    lines += ["# HELP tripwire_mcp_request_seconds_total Time spent answering, by method.",
              "# TYPE tripwire_mcp_request_seconds_total counter"]
    for method, seconds in sorted(proxy.seconds.items()):
        lines.append(f'tripwire_mcp_request_seconds_total{{method="{method}"}} {seconds:.6f}')
    return "\n".join(lines) + "\n"


async def serve_http(proxy: MCPProxy, keys: Keys | None, host: str, port: int, *,
                     sock: socket.socket | None = None,
                     started: Callable[[int], None] | None = None,
                     stop: asyncio.Event | None = None, idle: float | None = IDLE) -> None:
    """Serve until a signal (or ``stop`` is set) ends uvicorn; the upstream sessions are
    opened first and closed at the end. ``sock``: a bound socket to serve on;
    ``started(port)`` is called once it listens; ``idle``: the seconds a session with no
    request in flight lives on."""
    import uvicorn

    if sock is None:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    # (no access log of uvicorn's: the proxy's own, tripwire.mcp.access, has one line a
    # request; no X-Forwarded-For: nothing reads the client's address)
    config = uvicorn.Config(http_app(proxy, keys, host, idle), log_level="warning",
                            lifespan="on", access_log=False, proxy_headers=False)
    server = uvicorn.Server(config)

    async def stopper() -> None:
        assert stop is not None
        await stop.wait()
        server.should_exit = True

    watcher = asyncio.ensure_future(stopper()) if stop is not None else None
    await proxy.open()
    try:
        sock.listen(128)  # (a client that connects before uvicorn serves waits in line)
        if started is not None:
            started(sock.getsockname()[1])
        await server.serve(sockets=[sock])
    finally:
        if watcher is not None:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
        sock.close()
        await proxy.aclose()
