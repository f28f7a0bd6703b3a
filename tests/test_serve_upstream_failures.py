"""``tripwire serve`` when the upstream fails in ways a status code does not say: a 200
that is not a model response, text that is not valid Unicode, a scripted model that
ran out of answers. The official ``openai`` client (or raw HTTP, for what that client
cannot send) against the gateway, the gateway against tests/fake_llm_server.py."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import openai
import pytest
from fake_llm_server import FakeLLMServer, RawReply, Reply

from tripwire import Agent
from tripwire.serve import Gateway, running

WIRES = ["openai", "anthropic"]
HI = [{"role": "user", "content": "Hi"}]


@pytest.fixture
async def upstream() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as server:
        yield server


def agent_of(server: FakeLLMServer, wire: str, **kwargs: Any) -> Agent:
    return Agent(id="support", model=server.model(wire, max_retries=0), **kwargs)


@contextlib.asynccontextmanager
async def serving(*agents: Agent, **kwargs: Any) -> AsyncIterator[openai.AsyncOpenAI]:
    """The gateway of ``agents`` on loopback, and the official client pointed at it."""
    async with running(Gateway({a.id: a for a in agents}, **kwargs), "127.0.0.1", 0) as url:
        api = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
        try:
            yield api
        finally:
            await api.close()


async def post(api: openai.AsyncOpenAI, body: bytes) -> tuple[int, str]:
    """``body`` sent as it is (what the ``openai`` client cannot send) to the gateway."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{api.base_url}chat/completions", data=body,
            headers={"Content-Type": "application/json"}) as response:
        return response.status, await response.text()


# ---------------------------------------------------------------- a 200 that is no answer

HTML = RawReply("<!DOCTYPE html><html><body>Sign in to continue</body></html>",
                content_type="text/html; charset=utf-8")




@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("reply", ["html", "not-json-events", "not-json-body"])
async def test_a_200_that_is_not_a_model_response_is_a_502(upstream, wire, stream, reply):
    if reply == "html":
        upstream.script(HTML)
    elif reply == "not-json-events":  # read as events only by a streaming call
        upstream.script(Reply(text="hello", malformed_after=0) if stream else
                        RawReply("data: {not json\n\n", content_type="application/json"))
    else:
        upstream.script(RawReply('{"hello": "world"}', content_type="application/json")
                        if stream else
                        RawReply("<not json>", content_type="application/json"))
    async with serving(agent_of(upstream, wire)) as api:
        with pytest.raises(openai.InternalServerError) as caught:
            await api.chat.completions.create(model="support", stream=stream, messages=HI)
    assert caught.value.status_code == 502
    assert caught.value.body["type"] == "upstream_error"
    assert caught.value.body["code"] is None
    assert "200" in caught.value.body["message"]
    assert "was not a valid model response" in caught.value.body["message"]


@pytest.mark.parametrize("wire", WIRES)
async def test_events_that_are_not_json_after_the_first_byte_end_with_a_502_event(
        upstream, wire):
    # openai: role, "The ", "answ" then the broken line; anthropic: message_start,
    # content_block_start, ping, "The ", "answ" then the broken line
    upstream.script(Reply(text="The answer is long enough.", malformed_after=3 if wire ==
                          "openai" else 5))
    async with serving(agent_of(upstream, wire)) as api:
        stream = await api.chat.completions.create(model="support", stream=True, messages=HI)
        texts = []
        with pytest.raises(openai.APIError) as caught:
            async for event in stream:
                if event.choices and event.choices[0].delta.content:
                    texts.append(event.choices[0].delta.content)
    assert "".join(texts) == "The answ"
    assert caught.value.body["code"] == 502
    assert caught.value.body["type"] == "upstream_error"
    assert "was not a valid model response" in caught.value.body["message"]


async def test_the_upstreams_own_error_status_is_still_passed_on(upstream):
    upstream.script(RawReply('{"error": {"message": "no", "type": "invalid_request_error"}}',
                             status=400, content_type="application/json"))
    async with serving(agent_of(upstream, "openai")) as api:
        with pytest.raises(openai.BadRequestError) as caught:
            await api.chat.completions.create(model="support", messages=HI)
    assert caught.value.status_code == 400
    assert caught.value.body["message"] == (
        "Upstream model call failed with status 400 (invalid_request_error).")


@pytest.mark.parametrize("status", [301, 302, 307])
async def test_a_redirect_from_the_upstream_is_a_502_not_a_redirect(upstream, status):
    upstream.script(RawReply("moved", status=status, content_type="text/plain"))
    async with serving(agent_of(upstream, "openai")) as api:
        with pytest.raises(openai.InternalServerError) as caught:
            await api.chat.completions.create(model="support", messages=HI)
    assert caught.value.status_code == 502
    assert f"status {status}" in caught.value.body["message"]

