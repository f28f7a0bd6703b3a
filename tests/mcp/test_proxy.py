"""``tripwire mcp-proxy`` with the SDK's own client: over stdio (the command, as a
desktop assistant starts it) and streamable HTTP (in the test's event loop), in front
of the test server (tests/support/mcp_servers.py)."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from tests.mcp.helpers import KEY, Proxied, config, http_client, text_of
from tests.support.mcp_servers import EMAIL, INJECTED, ROOT, SECRET
from tripwire.mcp.proxy import MCPProxy

mcp = pytest.importorskip("mcp")


async def test_an_sdk_client_gets_guarded_tools_over_stdio(tmp_path) -> None:
    path = config(tmp_path, ["search", "contact", "echo", "fetch", "weather"])
    params = mcp.StdioServerParameters(
        command=sys.executable, args=["-m", "tripwire", "mcp-proxy", "guarded", "-c", str(path)],
        cwd=str(ROOT))
    async with mcp.Client(params, mode="legacy") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert sorted(tools) == ["contact", "echo", "fetch", "search", "weather"]
        # a PII value in a schema is redacted before the client's model reads it
        assert EMAIL not in json.dumps(tools["contact"].input_schema)

        echoed = await client.call_tool("echo", {"to": EMAIL, "n": 1})
        assert not echoed.is_error
        assert EMAIL not in text_of(echoed)  # the upstream got the argument redacted

        fetched = await client.call_tool("fetch", {"query": "x"})
        assert fetched.is_error
        assert text_of(fetched) == ("tripwire: the call was blocked by processor "
                                    "'prompt-injection-detector'")
        assert INJECTED not in text_of(fetched) and SECRET not in text_of(fetched)

        weather = await client.call_tool("weather", {})
        assert weather.structured_content == {"temperature": 21.5}
        searched = await client.call_tool("search", {"query": "hooks"})
        assert text_of(searched) == "3 pages match 'hooks'"


async def test_over_http_a_key_is_needed_and_its_tenant_is_logged(tmp_path, monkeypatch,
                                                                   caplog) -> None:
    from tripwire.config import load_config
    from tripwire.serve import load_keys

    monkeypatch.setenv("TRIPWIRE_TEST_PROXY_KEY", KEY)
    loaded = load_config(config(tmp_path, ["search", "echo"], keys=True))
    keys = load_keys(loaded.serve, loaded.path, None)
    async with Proxied(MCPProxy.from_config(loaded, "guarded"), keys) as served:
        http, client = http_client(served.url, KEY)
        async with http, client(http) as session:
            with caplog.at_level(logging.INFO, "tripwire.mcp.access"):
                result = await session.call_tool("echo", {"to": EMAIL})
            assert EMAIL not in text_of(result)
        (line,) = [json.loads(r.getMessage()) for r in caplog.records
                   if '"tools/call"' in r.getMessage()]
        assert line == {**line, "method": "tools/call", "tool": "echo", "key": "alice",
                        "tenant": "acme", "outcome": "ok"}
        assert EMAIL not in caplog.text

        http, client = http_client(served.url, "wrong-key")
        async with http:
            with pytest.raises(Exception):  # noqa: B017 - the SDK's error for a 401
                async with client(http) as session:
                    await session.list_tools()

        import httpx2

        async with httpx2.AsyncClient() as plain:
            metrics = await plain.get(f"http://127.0.0.1:{served.port}/metrics",
                                      headers={"Authorization": f"Bearer {KEY}"})
            health = await plain.get(f"http://127.0.0.1:{served.port}/healthz")
        assert 'tripwire_mcp_requests_total{method="tools/call",outcome="ok"} 1' in metrics.text
        assert health.status_code == 200


async def test_a_poisoned_upstream_listing_is_refused_naming_the_processor(tmp_path) -> None:
    from tripwire.config import load_config

    loaded = load_config(config(tmp_path, ["search", "poisoned"]))
    async with Proxied(MCPProxy.from_config(loaded, "guarded")) as served:
        http, client = http_client(served.url, None)
        async with http, client(http) as session:
            with pytest.raises(mcp.MCPError, match="tripwire: the tool list was blocked by "
                                                   "processor 'prompt-injection-detector'"):
                await session.list_tools()


def test_an_agent_without_mcp_servers_cannot_be_proxied(tmp_path) -> None:
    from tripwire import ConfigurationError

    path = tmp_path / "tripwire.toml"
    path.write_text('[agents.plain]\nmodel = "openai/never-called"\n')
    with pytest.raises(ConfigurationError, match="agent 'plain' has no MCP servers to front"):
        MCPProxy.from_config(path, "plain")
