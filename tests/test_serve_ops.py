"""``tripwire serve`` in operation: what ``/metrics`` counts and who may read it, the
access log of failed runs, errors nobody planned for, and clients that stop reading."""

from __future__ import annotations

import aiohttp
from fake_llm_server import FakeLLMServer, Reply
from test_serve import client, make_agent, serving, upstream

from tripwire.serve import Gateway

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
