"""``tripwire serve`` in operation: what ``/metrics`` counts and who may read it, the
access log of failed runs, errors nobody planned for, and clients that stop reading."""

from __future__ import annotations

import hashlib
from typing import Any

import aiohttp
import pytest
from fake_llm_server import FakeLLMServer, Reply
from test_serve import KEY, client, make_agent, serving, upstream

from tripwire.config import load_config
from tripwire.serve import Gateway, Keys, digest
from tripwire.serve._keys import ApiKey

__all__ = ["upstream"]  # the fixture


def _gauge(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"{name} "))


async def test_in_flight_counts_chat_completions_not_the_scrape(upstream: FakeLLMServer):
    """An idle gateway's gauge is 0 (the scrape is not a chat completion); a stream
    being served is 1."""
    upstream.script(Reply(text="one two three", delta_size=4, event_delay=0.05))
    gateway = Gateway({"support": make_agent(upstream)})
    async with serving(gateway) as url, aiohttp.ClientSession() as http:
        async with http.get(f"{url}/metrics") as r:
            assert _gauge(await r.text(), "tripwire_serve_in_flight") == (
                "tripwire_serve_in_flight 0")
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        await stream.__anext__()
        async with http.get(f"{url}/metrics") as r:
            assert _gauge(await r.text(), "tripwire_serve_in_flight") == (
                "tripwire_serve_in_flight 1")
        [_ async for _ in stream]
        assert await gateway.drain(timeout=5) is True


@pytest.mark.parametrize("stream", [False, None])
async def test_stream_options_without_stream_is_a_400_as_openai_answers_it(upstream, stream):
    body: dict[str, Any] = {"model": "support", "messages": [{"role": "user", "content": "Hi"}],
                            "stream_options": {"include_usage": True}}
    if stream is not None:
        body["stream"] = stream
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json=body) as r:
            assert r.status == 400
            error = (await r.json())["error"]
    assert error == {"message": "The 'stream_options' parameter is only allowed when 'stream' "
                                "is enabled.", "type": "invalid_request_error",
                     "param": "stream_options", "code": None}
    assert upstream.requests == []


async def test_metrics_key_guards_metrics_and_nothing_else_opens_it(upstream, tmp_path):
    """With ``[serve] metrics_key``, ``/metrics`` takes that key only (an API key is a
    401 too), each 401 OpenAI's error object; without it ``/metrics`` is open even when
    API keys are configured."""
    path = tmp_path / "agents.toml"
    path.write_text(f"""
[agents.support]
model = "models.up"

[models.up]
use = "openai-compatible"
base_url = "{upstream.openai_base_url}"
model = "gpt-test"

[serve]
metrics_key = "scrape-secret-42"

[serve.keys.acme]
key_sha256 = "{hashlib.sha256(KEY.encode()).hexdigest()}"
""")
    guarded = Gateway.from_config(load_config(path))
    open_ = Gateway({"support": make_agent(upstream)},
                    keys=Keys([ApiKey("acme", digest(KEY), "acme")]))
    async with serving(guarded) as url, aiohttp.ClientSession() as http:
        for header, code in ((None, "missing_api_key"), ("Basic scrape-secret-42",
                                                         "missing_api_key"),
                             (f"Bearer {KEY}", "invalid_api_key"),
                             ("Bearer scrape-secret-4", "invalid_api_key")):
            headers = {"Authorization": header} if header else {}
            async with http.get(f"{url}/metrics", headers=headers) as r:
                assert r.status == 401
                error = (await r.json())["error"]
                assert error["code"] == code and error["type"] == "invalid_request_error"
                assert set(error) == {"message", "type", "param", "code"}
        async with http.get(f"{url}/metrics",
                            headers={"Authorization": "Bearer scrape-secret-42"}) as r:
            assert r.status == 200
            assert "# TYPE tripwire_serve_in_flight gauge" in await r.text()
    async with serving(open_) as url, aiohttp.ClientSession() as http:
        async with http.get(f"{url}/metrics") as r:
            assert r.status == 200
