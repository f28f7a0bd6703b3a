"""``tripwire serve`` in operation: what ``/metrics`` counts and who may read it, the
access log of failed runs, errors nobody planned for, and clients that stop reading."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import socket
from typing import Any

import aiohttp
import openai
import pytest

from tests.serve.test_serve import KEY, client, make_agent, serving, upstream
from tests.support.fake_llm_server import FakeLLMServer, Reply
from tripwire import Processor, hookimpl
from tripwire.config import load_config
from tripwire.serve import Gateway, Keys, digest
from tripwire.serve._answer import INTERNAL_ERROR
from tripwire.serve._keys import ApiKey
from tripwire.serve._response import Completion

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


# ---------------------------------------------------------------- errors nobody planned for

SECRET = "internal detail 7f3a"


def _access(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records
            if r.name == "tripwire.serve.access"]


@pytest.mark.parametrize("stream", [False, True])
async def test_an_unexpected_error_before_the_response_is_openais_500(upstream, caplog,
                                                                      monkeypatch, stream):
    """The workers' shared key counters locked too long (or any bug) before anything was
    sent: OpenAI's error object (aiohttp answered in plain text), nothing of the error
    said to the client, the traceback in the gateway's log."""
    def locked(name: str, limit: int) -> bool:
        raise RuntimeError(f"the workers' shared key counters stayed locked ({SECRET})")

    caplog.set_level(logging.INFO, logger="tripwire.serve")
    gateway = Gateway({"support": make_agent(upstream)},
                      keys=Keys([ApiKey("acme", digest(KEY), "acme")]))
    monkeypatch.setattr(gateway.slots, "acquire", locked)
    async with serving(gateway) as url:
        with pytest.raises(openai.InternalServerError) as caught:
            await client(url).chat.completions.create(
                model="support", stream=stream, messages=[{"role": "user", "content": "Hi"}])
    assert caught.value.status_code == 500
    assert caught.value.body["type"] == "server_error"
    assert set(caught.value.body) == {"message", "type", "param", "code"}
    assert SECRET not in caught.value.response.text and "RuntimeError" not in (
        caught.value.response.text)
    failed = [r for r in caplog.records if r.name == "tripwire.serve" and r.exc_info]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR
    assert SECRET in str(failed[0].exc_info[1])
    assert [(r["status"], r["error"]) for r in _access(caplog)] == [(500, "RuntimeError")]
    assert upstream.requests == []


async def test_an_unexpected_error_mid_stream_ends_it_with_the_error_event(upstream, caplog,
                                                                           monkeypatch):
    """A stream that has begun cannot become a 500: it ends with the error event a
    failed model call's stream ends with, saying nothing of the error."""
    render = Completion.event
    seen = []

    def event(self: Completion, chunk: Any) -> bytes | None:
        if chunk.type == "text-delta":
            seen.append(chunk)
            if len(seen) == 3:
                raise KeyError(SECRET)
        return render(self, chunk)

    monkeypatch.setattr(Completion, "event", event)
    caplog.set_level(logging.INFO, logger="tripwire.serve")
    upstream.script(Reply(text="one two three four five six", delta_size=4))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": True,
                "messages": [{"role": "user", "content": "Hi"}]}) as r:
            assert r.status == 200
            events = [line[6:] for line in (await r.text()).splitlines()
                      if line.startswith("data: ")]
    assert json.loads(events[-1]) == {"error": {
        "message": INTERNAL_ERROR, "type": "server_error", "param": None, "code": 500}}
    assert [json.loads(e)["choices"][0]["delta"].get("content") for e in events[1:-1]] == [
        "one ", "two "]
    assert SECRET not in "".join(events)
    assert any(r.name == "tripwire.serve" and r.exc_info and r.exc_info[0] is KeyError
               for r in caplog.records)
    assert [(r["status"], r["error"]) for r in _access(caplog)] == [(200, "KeyError")]


async def test_an_error_after_a_stream_ended_leaves_the_stream_whole(upstream, caplog,
                                                                     monkeypatch):
    """A key's slot given back with the shared counters locked, after the stream's last
    byte: the client has its whole stream, the log the error."""
    caplog.set_level(logging.INFO, logger="tripwire.serve")
    gateway = Gateway({"support": make_agent(upstream)},
                      keys=Keys([ApiKey("acme", digest(KEY), "acme")]))

    def locked(name: str) -> None:
        raise RuntimeError("the workers' shared key counters stayed locked")

    monkeypatch.setattr(gateway.slots, "release", locked)
    upstream.script(Reply(text="one two three", delta_size=4))
    async with serving(gateway) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        events = [e async for e in stream]
    text = "".join(e.choices[0].delta.content or "" for e in events if e.choices)
    assert text == "one two three" and events[-1].choices[0].finish_reason == "stop"
    assert any(r.name == "tripwire.serve" and r.exc_info for r in caplog.records)
    assert [r["status"] for r in _access(caplog)] == [200]


class Boom(Processor):
    """Raises (with text that must stay out of logs and metrics) on the third text delta."""

    id = "boom"

    @hookimpl
    def process_output_stream(self, part, state):
        if part.type == "text-delta":
            state["n"] = state.get("n", 0) + 1
            if state["n"] == 3:
                raise RuntimeError(SECRET)
        return part


@pytest.mark.parametrize("stream", [False, True])
async def test_a_run_that_failed_has_its_error_in_the_access_log_and_metrics(upstream, caplog,
                                                                            stream):
    """A processor that raises mid-stream was a 200 with no sign of it; now the line
    says the error's type name (never its text) and /metrics counts it."""
    caplog.set_level(logging.INFO, logger="tripwire.serve.access")
    upstream.script(Reply(text="one two three four five", delta_size=4))
    gateway = Gateway({"support": make_agent(upstream, output_processors=[Boom()])})
    async with serving(gateway) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": stream,
                "messages": [{"role": "user", "content": "Hi"}]}) as r:
            assert r.status == (200 if stream else 500)
            body = await r.text()
        async with http.get(f"{url}/metrics") as r:
            metrics = await r.text()
    [line] = [r for r in _access(caplog) if r["path"] == "/v1/chat/completions"]
    assert line["status"] == (200 if stream else 500)
    assert line["error"] == "ProcessorError"
    assert f'tripwire_serve_errors_total{{api="chat",agent="support",error="{line["error"]}"}} 1' in (
        metrics.splitlines())
    assert SECRET not in json.dumps(line) + metrics + body


# ---------------------------------------------------------------- a client that stops reading


async def test_a_client_that_stops_reading_is_dropped_after_write_timeout(upstream, caplog):
    """A client that keeps its stream open but reads nothing (its receive buffer tiny and
    full) held its key's slot and the upstream call for ever: writes had no timeout.
    Now, once a write waited ``write_timeout`` seconds, the connection is dropped, the
    run (its upstream call) cancelled and the slot given back."""
    caplog.set_level(logging.INFO, logger="tripwire.serve.access")
    upstream.script(Reply(text="x" * (32 << 20), delta_size=64 << 10))  # 32 MB
    gateway = Gateway({"support": make_agent(upstream)}, write_timeout=0.5,
                      keys=Keys([ApiKey("acme", digest(KEY), "acme", max_concurrent=1)]))
    loop = asyncio.get_running_loop()
    async with serving(gateway) as url:
        host, port = url.removeprefix("http://").split(":")
        body = json.dumps({"model": "support", "stream": True,
                           "messages": [{"role": "user", "content": "Hi"}]}).encode()
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.setblocking(False)
            await loop.sock_connect(sock, (host, int(port)))
            await loop.sock_sendall(sock, (
                f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer "
                f"{KEY}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"\r\n").encode() + body)  # and never a byte read

            async def released() -> None:
                while not upstream.requests or gateway.slots.in_flight("acme"):
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(released(), timeout=30)  # hang detector
            await asyncio.wait_for(upstream.disconnected.wait(), timeout=30)
    [line] = [r for r in _access(caplog) if r["path"] == "/v1/chat/completions"]
    assert (line["status"], line["error"]) == (499, "write_timeout")


async def test_a_slow_upstream_is_not_a_write_timeout(upstream):
    """Only a write left waiting counts: events further apart than ``write_timeout``
    (a slow upstream, a processor holding text back) reach a client that reads."""
    upstream.script(Reply(text="one two three", delta_size=4, event_delay=0.3))
    async with serving(Gateway({"support": make_agent(upstream)}, write_timeout=0.1)) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        events = [e async for e in stream]
    assert "".join(e.choices[0].delta.content or "" for e in events if e.choices) == (
        "one two three")
