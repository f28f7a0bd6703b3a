"""``tripwire mcp-proxy``'s streamable HTTP transport and its ``tools/call`` fast path
(``tripwire.mcp._proxy_http_calls``): the SDK's client, and a raw HTTP client for what
the SDK's client never sends, against the proxy in front of the test server
(tests/support/mcp_servers.py). A spy on the fast path says which calls it answered:
every other request is the SDK app's, which answers it (and its errors) as ever."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.mcp.helpers import KEY, Proxied, config, http_client, text_of
from tests.support.mcp_servers import EMAIL, INJECTED, SECRET

mcp = pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")

from tripwire.config import load_config  # noqa: E402
from tripwire.mcp import _proxy_http_calls  # noqa: E402
from tripwire.mcp.proxy import MCPProxy  # noqa: E402
from tripwire.serve import load_keys  # noqa: E402

ACCEPT = "application/json, text/event-stream"
VERSION = "2025-06-18"


@pytest.fixture
def fast(monkeypatch) -> list[Any]:
    """The ids of the calls the fast path took."""
    taken: list[Any] = []
    real = _proxy_http_calls.Calls._call

    async def spy(self, session, call, scope, send) -> None:
        taken.append(call[0])
        await real(self, session, call, scope, send)

    monkeypatch.setattr(_proxy_http_calls.Calls, "_call", spy)
    return taken


def served(tmp_path, allow: list[str], keys: bool = False, more: str = "",
           **options: Any) -> Proxied:
    loaded = load_config(config(tmp_path, allow, keys=keys, more=more))
    found = load_keys(loaded.serve, loaded.path, None) if keys else None
    return Proxied(MCPProxy.from_config(loaded, "guarded", found), found, **options)


class Raw:
    """A raw client of the proxy: its session, opened with the handshake."""

    def __init__(self, plain: Any, url: str, key: str | None = None) -> None:
        self.plain = plain
        self.url = url
        self.key = key
        self.sid: str | None = None

    def headers(self, **more: str) -> dict[str, str]:
        headers = {"accept": ACCEPT, "content-type": "application/json",
                   "mcp-protocol-version": VERSION}
        if self.sid is not None:
            headers["mcp-session-id"] = self.sid
        if self.key is not None:
            headers["authorization"] = f"Bearer {self.key}"
        return {**headers, **more}

    async def open(self, initialized: bool = True) -> Raw:
        opened = await self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                  "params": {"protocolVersion": VERSION, "capabilities": {},
                                             "clientInfo": {"name": "raw", "version": "1"}}})
        assert opened.status_code == 200
        self.sid = opened.headers["mcp-session-id"]
        if initialized:
            await self.initialized()
        return self

    async def initialized(self) -> None:
        done = await self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert done.status_code == 202

    async def post(self, body: Any, **headers: str) -> Any:
        content = body if isinstance(body, bytes | str) else json.dumps(body)
        return await self.plain.post(self.url, content=content, headers=self.headers(**headers))

    def stream(self, body: Any, **headers: str) -> Any:
        return self.plain.stream("POST", self.url, content=json.dumps(body),
                                 headers=self.headers(**headers))


def call(ident: Any, name: str, **arguments: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


def events(text: str) -> list[dict[str, Any]]:
    """The messages of an SSE answer's ``event: message`` events."""
    return [json.loads(line.removeprefix("data: ")) for line in text.splitlines()
            if line.startswith("data: ")]


def messages(answer: Any) -> list[dict[str, Any]]:
    """The messages of an answer, JSON or SSE."""
    if answer.headers["content-type"] == "application/json":
        return [answer.json()]
    return events(answer.text)


#: Headers whose values differ between two answers, or that frame the body.
FRAMING = {"date", "content-length", "transfer-encoding"}


async def test_a_call_of_an_initialised_session_is_answered_on_the_fast_path_as_the_sdk_does(
        tmp_path, fast) -> None:
    async with served(tmp_path, ["search", "echo", "mutate"]) as proxy, \
            httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open(initialized=False)
        by_sdk = await raw.post(call(1, "search", query="x"))  # (before the handshake ends)
        await raw.initialized()
        answered = await raw.post(call(2, "search", query="x"))
        assert fast == [2]
        assert answered.status_code == by_sdk.status_code == 200
        assert {k: v for k, v in answered.headers.items() if k not in FRAMING} == \
            {k: v for k, v in by_sdk.headers.items() if k not in FRAMING}
        assert answered.headers["mcp-session-id"] == raw.sid
        assert answered.text.startswith("event: message\r\ndata: ")
        (mine,), (theirs,) = events(answered.text), events(by_sdk.text)
        assert mine == {**theirs, "id": 2}
        assert mine["result"]["content"] == [{"type": "text", "text": "3 pages match 'x'"}]

        # an unknown tool is a tool error; parameters that are no call, the SDK's error
        (unknown,) = messages(await raw.post(call(3, "nope")))
        assert unknown["result"]["isError"] is True
        malformed = await raw.post({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                                    "params": {"name": 5}})
        assert events(malformed.text)[0]["error"]["code"] == -32602

        # the upstream's tools changed: the notification, then the answer, as SSE events
        # with the SDK's headers
        # (the upstream says so before it answers the call that changed them)
        changed = await raw.post(call(5, "mutate"))
        assert {k: v for k, v in changed.headers.items() if k not in FRAMING} == \
            {k: v for k, v in by_sdk.headers.items() if k not in FRAMING}
        assert changed.text.startswith("event: message\r\ndata: ")
        notified, mutated = events(changed.text)
        assert notified == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        assert mutated["id"] == 5 and mutated["result"]["isError"] is False
        assert fast == [2, 3, 5]


async def test_the_sdks_client_gets_guarded_calls_and_the_changed_tools(tmp_path,
                                                                       fast) -> None:
    notified: list[str] = []

    async def message_handler(message: Any) -> None:
        if isinstance(message, mcp.types.ToolListChangedNotification):
            notified.append(message.method)

    async with served(tmp_path, ["echo", "fetch", "weather", "mutate"]) as proxy:
        http = http_client(proxy.url, None)[0]
        async with http, mcp.Client(
                mcp.client.streamable_http.streamable_http_client(proxy.url, http_client=http),
                mode="legacy", message_handler=message_handler) as client:
            # (its handshake says the list changes, as the proxy tells when it does)
            assert client.server_capabilities.tools.list_changed is True
            echoed = await client.call_tool("echo", {"to": EMAIL})
            assert not echoed.is_error and EMAIL not in text_of(echoed)
            fetched = await client.call_tool("fetch", {"query": "x"})
            assert fetched.is_error and text_of(fetched) == (
                "tripwire: the call was blocked by processor 'prompt-injection-detector'")
            assert INJECTED not in text_of(fetched) and SECRET not in text_of(fetched)
            weather = await client.call_tool("weather", {})
            assert weather.structured_content == {"temperature": 21.5}
            await client.call_tool("mutate", {})
            # the upstream's tools changed: the client is told in the next call's answer
            await client.call_tool("echo", {"n": 1})
            assert notified == ["notifications/tools/list_changed"]
    assert len(fast) == 5
    metrics = proxy.proxy.counts
    assert metrics["tools/call", "ok"] == 4 and metrics["tools/call", "blocked"] == 1


async def test_a_failing_call_is_an_internal_error_naming_no_content(tmp_path, fast) -> None:
    proxy = served(tmp_path, ["search"])

    async def failing(name: str, arguments: dict[str, Any], key: Any = None) -> Any:
        raise RuntimeError(f"secret {arguments}")

    proxy.proxy.answer_call = failing  # type: ignore[method-assign]
    async with proxy, httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open()
        (answer,) = messages(await raw.post(call(1, "search", query=EMAIL)))
    assert answer == {"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32603, "message": "tripwire: the call failed (RuntimeError)"}}
    assert fast == [1]


async def test_an_upstream_that_dies_mid_call_is_a_tool_error_and_started_again(
        tmp_path, fast) -> None:
    async with served(tmp_path, ["pid", "die"]) as proxy:
        http, client = http_client(proxy.url, None)
        async with http, client(http) as session:
            before = int(text_of(await session.call_tool("pid", {})))
            died = await session.call_tool("die", {})
            after = int(text_of(await session.call_tool("pid", {})))
    assert died.is_error and "the server closed the connection during the call" in \
        text_of(died)
    assert after != before and len(fast) == 3


@pytest.mark.parametrize(("body", "headers", "status"), [
    (call(1, "search"), {"accept": "application/json"}, 406),
    (call(1, "search"), {"accept": "text/event-stream"}, 406),
    (call(1, "search"), {"mcp-protocol-version": "1999-01-01"}, 400),
    (call(1, "search"), {"content-type": "text/plain"}, 400),
    (call(1, "search"), {"host": "evil.example"}, 421),
    (call(1, "search"), {"origin": "http://evil.example"}, 403),
    (call(1, "search"), {"mcp-session-id": "not-a-session"}, 404),
    ([call(1, "search")], {}, 400),
    ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call"', {}, 400),
    (json.dumps(call(1, "search", query="x" * (4 * 1024 * 1024))), {}, 413),
], ids=["json-only", "sse-only", "unknown-version", "content-type", "host", "origin",
        "unknown-session", "batch", "malformed-json", "too-large"])
async def test_a_call_the_sdk_would_refuse_is_refused_by_the_sdk(tmp_path, fast, body,
                                                                   headers, status) -> None:
    async with served(tmp_path, ["search"]) as proxy, httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open()
        refused = await raw.post(body, **headers)
        assert refused.status_code == status
        if refused.headers.get("content-type") == "application/json":
            assert refused.json()["error"]["code"] in (-32600, -32602, -32700)
        assert (await raw.post(call(2, "search", query="x"))).status_code == 200
    assert fast == [2]


async def test_a_deleted_session_is_no_longer_answered(tmp_path, fast) -> None:
    async with served(tmp_path, ["search"]) as proxy, httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open()
        assert (await raw.post(call(1, "search", query="x"))).status_code == 200
        deleted = await plain.delete(proxy.url, headers=raw.headers())
        assert deleted.status_code == 200
        gone = await raw.post(call(2, "search", query="x"))
        assert gone.status_code == 404
        assert gone.json()["error"]["message"] == "Session not found"
    assert fast == [1]


async def until(condition: Any) -> None:
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never came")


async def test_a_long_call_is_pinged_and_a_cancelled_one_answered_as_cancelled(
        tmp_path, fast, monkeypatch) -> None:
    monkeypatch.setattr(_proxy_http_calls, "PING", 0.01)
    async with served(tmp_path, ["hang", "search"]) as proxy, \
            httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open()
        async with raw.stream(call("h", "hang")) as hanging:
            assert hanging.status_code == 200
            assert hanging.headers["content-type"] == "text/event-stream"
            lines = hanging.aiter_lines()
            async for line in lines:  # the headers came, and a ping keeps the stream alive
                if line.startswith(": ping - "):
                    break
            cancelled = await raw.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                        "params": {"requestId": "h"}})
            assert cancelled.status_code == 202
            rest = [line async for line in lines]
        assert [m for m in events("\n".join(rest))] == [
            {"jsonrpc": "2.0", "id": "h", "error": {"code": -32800,
                                                  "message": "Request cancelled"}}]
        assert (await raw.post(call(1, "search", query="x"))).status_code == 200
    assert fast == ["h", 1]


async def test_a_session_deleted_during_a_call_ends_its_stream_unanswered(tmp_path,
                                                                          fast) -> None:
    async with served(tmp_path, ["hang"]) as proxy, httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url).open()
        hanging = asyncio.ensure_future(raw.post(call(1, "hang")))
        await until(lambda: fast)
        assert (await plain.delete(proxy.url, headers=raw.headers())).status_code == 200
        answer = await hanging
        assert answer.status_code == 200 and events(answer.text) == []


async def test_an_idle_session_is_ended_and_a_busy_one_is_not(tmp_path, fast,
                                                               monkeypatch) -> None:
    layers: list[Any] = []
    built = _proxy_http_calls.Calls.__init__

    def keep(self, *args: Any, **kwargs: Any) -> None:
        built(self, *args, **kwargs)
        layers.append(self)

    monkeypatch.setattr(_proxy_http_calls.Calls, "__init__", keep)
    async with served(tmp_path, ["hang", "search"], idle=3600) as proxy, \
            httpx2.AsyncClient() as plain:
        (layer,) = layers
        busy = await Raw(plain, proxy.url).open()
        hanging = asyncio.ensure_future(busy.post(call(1, "hang")))
        idle = await Raw(plain, proxy.url).open()
        await until(lambda: fast)
        layer.idle = 0.05  # (from the end of the next request of a session)
        assert (await idle.post({"jsonrpc": "2.0", "id": 9, "method": "ping"})).status_code \
            == 200
        await until(lambda: idle.sid not in layer.sessions)
        layer.idle = 3600
        assert (await idle.post(call(2, "search", query="x"))).status_code == 404
        assert busy.sid in layer.sessions  # (its call is in flight)
        await busy.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": 1}})
        assert messages(await hanging)[0]["error"]["code"] == -32800
        assert (await busy.post(call(3, "search", query="x"))).status_code == 200
    assert fast == [1, 3]


KEYS = """
[serve]
max_concurrent = 2

[serve.keys.bob]
key_env = "TRIPWIRE_TEST_BOB_KEY"

[serve.keys.dave]
key_env = "TRIPWIRE_TEST_DAVE_KEY"
agents = ["another"]
"""


async def test_keys_are_checked_and_counted_on_the_fast_path(tmp_path, fast, monkeypatch,
                                                             caplog) -> None:
    import logging

    monkeypatch.setenv("TRIPWIRE_TEST_PROXY_KEY", KEY)
    monkeypatch.setenv("TRIPWIRE_TEST_BOB_KEY", "bob-key-0123456789")
    monkeypatch.setenv("TRIPWIRE_TEST_DAVE_KEY", "dave-key-0123456789")
    async with served(tmp_path, ["hang", "echo"], keys=True, more=KEYS) as proxy, \
            httpx2.AsyncClient() as plain:
        raw = await Raw(plain, proxy.url, KEY).open()
        assert (await raw.post(call(1, "echo"), authorization="")).status_code == 401
        assert (await raw.post(call(2, "echo"), authorization="Bearer wrong")).status_code \
            == 401
        refused = await raw.post(call(3, "echo"), authorization="Bearer dave-key-0123456789")
        assert refused.status_code == 403
        assert refused.json()["error"]["message"] == ("this API key may not use agent "
                                                      "'guarded'")
        with caplog.at_level(logging.INFO, "tripwire.mcp.access"):
            echoed = await raw.post(call(4, "echo", to=EMAIL))
        assert EMAIL not in echoed.text and fast == [4]
        (line,) = [json.loads(r.getMessage()) for r in caplog.records
                   if '"tools/call"' in r.getMessage()]
        assert line == {**line, "method": "tools/call", "tool": "echo", "key": "alice",
                        "tenant": "acme", "outcome": "ok"}
        assert EMAIL not in caplog.text

        hanging = [asyncio.ensure_future(raw.post(call(i, "hang"))) for i in (5, 6)]
        await until(lambda: {5, 6} <= set(fast))
        busy = await raw.post(call(7, "echo"))
        assert busy.status_code == 429
        assert busy.json()["error"]["message"] == ("too many concurrent requests for this "
                                                   "key (limit 2)")
        # (alice's slots are taken; bob's are his own, but her session is not his: it
        # is one he does not know, as the SDK answers it)
        for i in (5, 6):
            cancelled = await raw.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                        "params": {"requestId": i}},
                                       authorization="Bearer bob-key-0123456789")
            assert cancelled.status_code == 404
            assert cancelled.json()["error"]["message"] == "Session not found"
        assert (await raw.post(call(9, "echo"),
                               authorization="Bearer bob-key-0123456789")).status_code == 404
        # (a DELETE takes no slot: alice ends her session, and its calls with it)
        ended = await plain.delete(proxy.url, headers=raw.headers())
        assert ended.status_code == 200
        for answer in hanging:
            assert messages(await answer) == []
        raw.sid = None
        await raw.open()
        assert (await raw.post(call(8, "echo"))).status_code == 200
    assert sorted(fast, key=str) == [4, 5, 6, 8]
