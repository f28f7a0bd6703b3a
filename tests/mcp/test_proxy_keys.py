"""A key's processor overrides in ``tripwire mcp-proxy`` (``[serve.keys.NAME]``, as
``tripwire serve`` applies them), with the SDK's client over streamable HTTP in front of
the test server (tests/support/mcp_servers.py)."""

from __future__ import annotations

import pytest

from tests.mcp.helpers import KEY, Proxied, config, http_client, text_of
from tests.support.mcp_servers import EMAIL
from tripwire import ConfigurationError
from tripwire.config import load_config
from tripwire.mcp.proxy import MCPProxy
from tripwire.serve import load_keys

mcp = pytest.importorskip("mcp")

BOB, CAROL = "bob-key-0123456789", "carol-key-0123456789"

KEYS = """
[serve.keys.bob]
key_env = "TRIPWIRE_TEST_BOB_KEY"
disable = ["pii-detector"]

[serve.keys.carol]
key_env = "TRIPWIRE_TEST_CAROL_KEY"
output_processors = [{ use = "regex-filter", strategy = "block", rules = [
    { name = "welcome", pattern = "Welcome" }] }]
"""


def loaded(tmp_path, monkeypatch, more: str = KEYS):
    monkeypatch.setenv("TRIPWIRE_TEST_PROXY_KEY", KEY)
    monkeypatch.setenv("TRIPWIRE_TEST_BOB_KEY", BOB)
    monkeypatch.setenv("TRIPWIRE_TEST_CAROL_KEY", CAROL)
    found = load_config(config(tmp_path, ["echo", "hang"], keys=True, notes="resources = true",
                              more=more))
    return found, load_keys(found.serve, found.path, None)


async def answers(served: Proxied, key: str) -> tuple[str, str]:
    """What ``key`` gets for an echo of an e-mail address and for the contact resource."""
    http, client = http_client(served.url, key)
    async with http, client(http) as session:
        echoed = await session.call_tool("echo", {"to": EMAIL})
        contact = await session.read_resource("notes://contact")
    return text_of(echoed), contact.contents[0].text


async def test_a_key_that_disables_a_processor_runs_without_it(tmp_path, monkeypatch) -> None:
    found, keys = loaded(tmp_path, monkeypatch)
    async with Proxied(MCPProxy.from_config(found, "guarded", keys)) as served:
        alice = await answers(served, KEY)
        bob = await answers(served, BOB)
    assert not any(EMAIL in text for text in alice)
    assert bob == (f'{{"to": "{EMAIL}"}}', f"Write to {EMAIL}.")


async def test_a_key_that_adds_a_processor_runs_with_it(tmp_path, monkeypatch) -> None:
    found, keys = loaded(tmp_path, monkeypatch)
    async with Proxied(MCPProxy.from_config(found, "guarded", keys)) as served:
        for key in (KEY, CAROL):
            http, client = http_client(served.url, key)
            async with http, client(http) as session:
                if key == KEY:
                    readme = await session.read_resource("notes://readme")
                    continue
                with pytest.raises(mcp.MCPError) as caught:
                    await session.read_resource("notes://readme")
    assert readme.contents[0].text == "Welcome to the notes."
    assert str(caught.value) == ("tripwire: the resources/read answer was blocked by "
                                 "processor 'regex-filter'")


@pytest.mark.parametrize(("table", "said"), [
    ('[serve.keys.dave]\nkey_env = "TRIPWIRE_TEST_BOB_KEY"\ncaller_system = "instructions"',
     "serve.keys.dave caller_system: 'instructions' means nothing to tripwire mcp-proxy"),
    ('[serve.keys.dave]\nkey_env = "TRIPWIRE_TEST_BOB_KEY"\ndisable = ["cost-guard"]',
     "serve.keys.dave disable: no agent of this key has the processor 'cost-guard'"),
])
def test_an_override_the_proxy_cannot_apply_is_an_error_at_start(
        tmp_path, monkeypatch, table, said) -> None:
    found, keys = loaded(tmp_path, monkeypatch, table)
    with pytest.raises(ConfigurationError) as caught:
        MCPProxy.from_config(found, "guarded", keys)
    assert str(caught.value).startswith(said)


async def test_keys_with_overrides_need_the_proxy_built_with_them(tmp_path,
                                                                  monkeypatch) -> None:
    found, keys = loaded(tmp_path, monkeypatch)
    proxy = MCPProxy.from_config(found, "guarded")
    with pytest.raises(ConfigurationError, match="serve.keys.bob overrides processors, which "
                                                 "the proxy was not built with"):
        await proxy.serve_http(keys)


LIMITED = """
[serve]
max_concurrent = 5

[serve.keys.bob]
key_env = "TRIPWIRE_TEST_BOB_KEY"
max_concurrent = 1
"""


async def test_a_key_past_its_max_concurrent_is_answered_429(tmp_path, monkeypatch) -> None:
    import asyncio

    import httpx2

    found, keys = loaded(tmp_path, monkeypatch, LIMITED)
    assert [keys.limit(k) for k in keys.keys] == [5, 1]  # alice: [serve]'s; bob: its own
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    async with Proxied(MCPProxy.from_config(found, "guarded", keys), keys) as served:
        http, client = http_client(served.url, BOB)

        async def status(key: str) -> int:
            async with httpx2.AsyncClient() as plain:
                answer = await plain.post(served.url, json=ping, headers={
                    "Authorization": f"Bearer {key}", "Accept": "application/json, "
                    "text/event-stream"})
            return answer.status_code

        async with http, client(http) as session, httpx2.AsyncClient() as plain:

            assert await status(BOB) != 429
            hanging = asyncio.ensure_future(session.call_tool("hang", {}))
            for _ in range(500):  # until bob's one slot is taken by the hanging call
                if await status(BOB) == 429:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("bob's second request in flight was not refused")
            refused = await plain.post(served.url, json=ping, headers={
                "Authorization": f"Bearer {BOB}"})
            assert refused.json()["error"]["message"] == (
                "too many concurrent requests for this key (limit 1)")
            assert await status(KEY) != 429  # another key's slots are its own
            hanging.cancel()
            await asyncio.gather(hanging, return_exceptions=True)
        for _ in range(500):  # the cancelled call's request ends, and frees the slot
            if await status(BOB) != 429:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("bob's slot was not freed when its request ended")



async def test_a_key_of_one_slot_gets_its_next_request_once_the_last_is_answered(
        tmp_path, monkeypatch) -> None:
    # (the slot is freed when the answer's last byte is sent, not when the app behind
    # has wound down after it, as the SDK's app winds down its streams: a client that
    # sends its next request at once, as the SDK's does after the handshake, is not
    # refused)
    import asyncio

    import httpx2

    import tripwire.mcp._proxy_http as proxy_http

    winding: list[asyncio.Event] = []

    class Answered:
        """An app that answers, then winds down until told."""

        def __init__(self, inner, *args) -> None:
            self.inner = inner

        async def __call__(self, scope, receive, send) -> None:
            if scope["type"] != "http":
                await self.inner(scope, receive, send)
                return
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b"{}"})
            wound = asyncio.Event()
            winding.append(wound)
            await wound.wait()

    monkeypatch.setattr(proxy_http, "Calls", Answered)
    found, keys = loaded(tmp_path, monkeypatch, LIMITED)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    async with Proxied(MCPProxy.from_config(found, "guarded", keys), keys) as served, \
            httpx2.AsyncClient() as plain:
        try:
            for n in range(1, 4):  # bob's one slot, each request after the last's answer
                answer = await plain.post(served.url, json=ping,
                                          headers={"Authorization": f"Bearer {BOB}"})
                assert answer.status_code == 200
                assert len(winding) == n  # (the earlier ones still winding down)
        finally:
            for wound in winding:
                wound.set()
