"""``POST /v1/messages`` (Anthropic's Messages API) through ``tripwire serve``: the
official ``anthropic`` client against the gateway on loopback, the gateway's agents
against tests/support/fake_llm_server.py over HTTP, on an OpenAI-compatible upstream
and on an Anthropic one (``wire``). Client -> gateway -> processors -> upstream and
back, all real."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import anthropic
import pytest

from tests.serve.test_serve import BlockWord, Recorder
from tests.serve.test_serve_tenants import tenant_gateway
from tests.serve.test_serve_threads import _memory, _said
from tests.support.fake_llm_server import ErrorReply, FakeLLMServer, FakeToolCall, Reply
from tripwire import Agent
from tripwire.plugins.token_limiter import TokenLimiter
from tripwire.serve import Gateway, Keys, running
from tripwire.serve._keys import ApiKey, digest
from tripwire.serve._thread import THREAD_HEADER

KEY = "tw-test-key-0123456789"
WEATHER = {"name": "get_weather", "description": "The weather in a city.",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                            "required": ["city"]}}
SIGNATURE = "EqQBCkYIARgCKkA-fake-signature"  # the fake upstream's


@pytest.fixture
async def upstream() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as server:
        yield server


@pytest.fixture(params=["openai", "anthropic"])
def wire(request: pytest.FixtureRequest) -> str:
    """The upstream's API: an OpenAI-compatible server or Anthropic's."""
    return str(request.param)


def make_agent(server: FakeLLMServer, wire: str = "openai", id: str = "support",
               **kwargs: Any) -> Agent:
    return Agent(id=id, model=server.model(wire, max_retries=0), **kwargs)


@contextlib.asynccontextmanager
async def serving(agents: list[Agent] | Gateway, **kwargs: Any) -> AsyncIterator[str]:
    gateway = agents if isinstance(agents, Gateway) else Gateway(
        {a.id: a for a in agents}, **kwargs)
    async with running(gateway, "127.0.0.1", 0) as url:
        yield url


@contextlib.asynccontextmanager
async def client(url: str, key: str = KEY, **kwargs: Any
                 ) -> AsyncIterator[anthropic.AsyncAnthropic]:
    """The official client with the gateway as its ``base_url``."""
    api = anthropic.AsyncAnthropic(base_url=url, api_key=key, max_retries=0, **kwargs)
    try:
        yield api
    finally:
        await api.close()


def keyed(*keys: ApiKey) -> Keys:
    return Keys(list(keys))


async def post(url: str, body: dict[str, Any], *, path: str = "/v1/messages",
               headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """Status and every byte of the response to one request."""
    async with aiohttp.ClientSession() as session, session.post(
            f"{url}{path}", json=body, headers=headers or {}) as response:
        return response.status, await response.read()


def events(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    """A stream's ``(event, data)`` pairs; each event's name must be its data's type."""
    out = []
    for block in raw.decode().split("\n\n"):
        if not block:
            continue
        name, data = block.split("\n")
        assert name.startswith("event: ") and data.startswith("data: "), block
        obj = json.loads(data[len("data: "):])
        assert obj["type"] == name[len("event: "):]
        out.append((obj["type"], obj))
    return out


def ask(text: str = "Hi", **fields: Any) -> dict[str, Any]:
    return {"model": "support", "max_tokens": 256,
            "messages": [{"role": "user", "content": text}], **fields}


# ---------------------------------------------------------------- answers


async def test_a_message_has_anthropics_shape_text_usage_and_stop_reason(upstream, wire):
    upstream.script(Reply(text="Hello there, friend.", usage=(12, 5)))
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        reply = await api.messages.create(**ask())
    assert reply.type == "message" and reply.role == "assistant"
    assert reply.id.startswith("msg_")
    assert reply.model == "support"
    assert [(b.type, b.text) for b in reply.content] == [("text", "Hello there, friend.")]
    assert reply.stop_reason == "end_turn" and reply.stop_sequence is None
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (12, 5)


async def test_a_stream_is_the_event_sequence_anthropic_sends(upstream, wire):
    """``message_start``, a ``ping``, one block per kind (thinking, then text), each
    started, filled by deltas and stopped, then ``message_delta`` with the stop reason
    and usage and ``message_stop``."""
    upstream.script(Reply(text="Hello there.", reasoning="Say hi.", usage=(9, 4),
                          delta_size=6))
    async with serving([make_agent(upstream, wire)]) as url:
        status, raw = await post(url, ask(stream=True))
    assert status == 200
    seen = events(raw)
    assert [name for name, _ in seen] == [
        "message_start", "ping",
        "content_block_start", "content_block_delta", "content_block_delta",
        *(["content_block_delta"] if wire == "anthropic" else []),  # its signature
        "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_delta",
        "content_block_stop", "message_delta", "message_stop"]
    start = seen[0][1]["message"]
    assert start["content"] == [] and start["stop_reason"] is None
    assert start["model"] == "support" and start["id"].startswith("msg_")
    blocks = [e for name, e in seen if name == "content_block_start"]
    assert [(b["index"], b["content_block"]["type"]) for b in blocks] == [
        (0, "thinking"), (1, "text")]
    deltas = [e["delta"] for name, e in seen if name == "content_block_delta"]
    assert "".join(d.get("thinking", "") for d in deltas) == "Say hi."
    assert "".join(d.get("text", "") for d in deltas) == "Hello there."
    delta = seen[-2][1]
    assert delta["delta"] == {"stop_reason": "end_turn", "stop_sequence": None}
    assert delta["usage"]["input_tokens"] == 9 and delta["usage"]["output_tokens"] == 4


async def test_the_anthropic_clients_stream_helper_reads_the_whole_message(upstream, wire):
    upstream.script(Reply(text="Hello there, friend.", reasoning="Think.", usage=(12, 5)))
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        async with api.messages.stream(**ask()) as stream:
            texts = [text async for text in stream.text_stream]
            message = await stream.get_final_message()
    assert "".join(texts) == "Hello there, friend."
    assert [b.type for b in message.content] == ["thinking", "text"]
    assert message.content[0].thinking == "Think."
    assert message.content[1].text == "Hello there, friend."
    assert message.stop_reason == "end_turn"
    assert (message.usage.input_tokens, message.usage.output_tokens) == (12, 5)


async def test_the_system_prompt_and_turns_reach_the_upstream_after_the_agents_instructions(
        upstream, wire):
    upstream.script(Reply(text="Fine."))
    agent = make_agent(upstream, wire, instructions="You are the support agent.")
    async with serving([agent]) as url, client(url) as api:
        await api.messages.create(
            model="support", max_tokens=100,
            system=[{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
            messages=[{"role": "user", "content": "Hi"},
                      {"role": "assistant", "content": [{"type": "text", "text": "Hello."}]},
                      {"role": "user", "content": [{"type": "text", "text": "How are you?"}]}])
    body = upstream.requests[0].body
    if wire == "anthropic":
        assert body["system"] == [{"type": "text", "text": "You are the support agent."},
                                  {"type": "text", "text": "Be brief."}]
        said = [(m["role"], m["content"][0]["text"]) for m in body["messages"]]
    else:
        assert body["messages"][:2] == [
            {"role": "system", "content": "You are the support agent."},
            {"role": "system", "content": "Be brief."}]
        said = [(m["role"], m["content"]) for m in body["messages"][2:]]
    assert said == [("user", "Hi"), ("assistant", "Hello."), ("user", "How are you?")]
    assert body["max_tokens"] == 100


async def test_settings_reach_the_upstream_in_its_own_names(upstream):
    """``max_tokens``, ``stop_sequences``, ``temperature``, ``top_p`` are model settings
    (each provider names them); ``top_k`` and ``thinking`` go to the upstream as they
    are."""
    upstream.script(Reply(text="a"), Reply(text="b"))
    agents = [make_agent(upstream, "anthropic", "claude"), make_agent(upstream, "openai", "gpt")]
    settings = {"max_tokens": 64, "stop_sequences": ["END"],
                "thinking": {"type": "enabled", "budget_tokens": 1024}}
    older = {"temperature": 0.2, "top_p": 0.9, "top_k": 5}  # (this client no longer has them)
    async with serving(agents) as url, client(url) as api:
        for name in ("claude", "gpt"):
            await api.messages.create(model=name, messages=[{"role": "user", "content": "Hi"}],
                                      extra_body=older, **settings)
    settings.update(older)
    claude, gpt = (r.body for r in upstream.requests)
    for key in ("max_tokens", "stop_sequences", "temperature", "top_p", "top_k", "thinking"):
        assert claude[key] == settings[key]
    assert gpt["stop"] == ["END"] and gpt["max_tokens"] == 64
    assert (gpt["temperature"], gpt["top_p"], gpt["top_k"]) == (0.2, 0.9, 5)
    assert gpt["thinking"] == settings["thinking"]


@pytest.mark.parametrize("stream", [False, True])
async def test_a_client_tool_call_is_a_tool_use_block_and_its_result_goes_up(
        upstream, wire, stream):
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Paris"})]),
                    Reply(text="It is sunny in Paris."))
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        question = [{"role": "user", "content": "Weather in Paris?"}]
        if stream:
            async with api.messages.stream(model="support", max_tokens=100, tools=[WEATHER],
                                           messages=question) as s:
                first = await s.get_final_message()
        else:
            first = await api.messages.create(model="support", max_tokens=100, tools=[WEATHER],
                                              messages=question)
        assert first.stop_reason == "tool_use"
        [use] = first.content
        assert (use.type, use.id, use.name, use.input) == (
            "tool_use", "call_1", "get_weather", {"city": "Paris"})
        second = await api.messages.create(
            model="support", max_tokens=100, tools=[WEATHER],
            messages=[*question, {"role": "assistant", "content": [use.model_dump(
                include={"type", "id", "name", "input"})]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1",
                                              "content": "sunny"}]}])
    assert second.content[0].text == "It is sunny in Paris."
    body = upstream.requests[1].body
    assert [t.get("name") or t["function"]["name"] for t in body["tools"]] == ["get_weather"]
    if wire == "anthropic":
        assert body["messages"][1]["content"] == [
            {"type": "tool_use", "id": "call_1", "name": "get_weather",
             "input": {"city": "Paris"}}]
        assert body["messages"][2]["content"] == [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "sunny"}]
    else:
        assert body["messages"][1]["tool_calls"][0]["function"] == {
            "name": "get_weather", "arguments": '{"city": "Paris"}'}
        assert body["messages"][2] == {"role": "tool", "tool_call_id": "call_1",
                                       "content": "sunny"}


@pytest.mark.parametrize("stream", [False, True])
async def test_tool_arguments_that_are_no_json_object_are_wrapped_not_dropped(upstream, stream):
    """An OpenAI-compatible model can send any argument text; a tool_use block's input
    is an object, so the text comes as ``{"INVALID_JSON": text}`` (Anthropic's own
    advice for invalid tool JSON)."""
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", '{"city": "Par')]))
    async with serving([make_agent(upstream)]) as url, client(url) as api:
        request = ask("Weather?", tools=[WEATHER])
        if stream:
            async with api.messages.stream(**request) as s:
                message = await s.get_final_message()
        else:
            message = await api.messages.create(**request)
    assert message.content[0].input == {"INVALID_JSON": '{"city": "Par'}


async def test_tool_choice_maps_to_each_upstreams_own(upstream, wire):
    upstream.script(*[Reply(text="ok") for _ in range(4)])
    choices = [{"type": "auto"}, {"type": "any"}, {"type": "tool", "name": "get_weather"},
               {"type": "none"}]
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        for choice in choices:
            await api.messages.create(**ask(tools=[WEATHER], tool_choice=choice))
    sent = [r.body["tool_choice"] for r in upstream.requests]
    if wire == "anthropic":
        assert sent == choices
    else:
        assert sent == ["auto", "required",
                        {"type": "function", "function": {"name": "get_weather"}}, "none"]


async def test_thinking_comes_back_signed_and_goes_back_to_an_anthropic_upstream(upstream):
    """The signature an Anthropic upstream gave a thinking block reaches the client (a
    ``signature_delta``), and the block the client sends back reaches the upstream with
    it, as a tool-use turn with extended thinking needs."""
    upstream.script(Reply(reasoning="Check the weather.",
                          tool_calls=[FakeToolCall("toolu_1", "get_weather", {"city": "Oslo"})]),
                    Reply(text="Cold."))
    async with serving([make_agent(upstream, "anthropic")]) as url, client(url) as api:
        question = [{"role": "user", "content": "Weather in Oslo?"}]
        async with api.messages.stream(model="support", max_tokens=2048, tools=[WEATHER],
                                       messages=question) as s:
            first = await s.get_final_message()
        thinking, use = first.content
        assert (thinking.type, thinking.thinking, thinking.signature) == (
            "thinking", "Check the weather.", SIGNATURE)
        turn = [b.model_dump(exclude_none=True, include={"type", "thinking", "signature", "id",
                                                         "name", "input"})
                for b in first.content]
        await api.messages.create(
            model="support", max_tokens=2048, tools=[WEATHER],
            messages=[*question, {"role": "assistant", "content": turn},
                      {"role": "user", "content": [{"type": "tool_result",
                                                    "tool_use_id": use.id, "content": "-3 C"}]}])
    assert upstream.requests[1].body["messages"][1]["content"][0] == {
        "type": "thinking", "thinking": "Check the weather.", "signature": SIGNATURE}


async def test_thinking_is_not_sent_back_to_an_openai_compatible_upstream(upstream):
    upstream.script(Reply(text="Cold."))
    async with serving([make_agent(upstream, "openai")]) as url, client(url) as api:
        await api.messages.create(model="support", max_tokens=100, messages=[
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Greet.", "signature": ""},
                {"type": "text", "text": "Hello."}]},
            {"role": "user", "content": "Weather?"}])
    assert upstream.requests[0].body["messages"][1] == {"role": "assistant",
                                                        "content": "Hello."}


async def test_an_image_block_reaches_the_upstream(upstream, wire):
    upstream.script(Reply(text="A cat."))
    data = "iVBORw0KGgo="
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        await api.messages.create(model="support", max_tokens=100, messages=[
            {"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                             "data": data}},
                {"type": "text", "text": "What is it?"}]}])
    text = json.dumps(upstream.requests[0].body)
    assert data in text and "What is it?" in text


# ---------------------------------------------------------------- what is refused


@pytest.mark.parametrize(("fields", "named"), [
    ({"service_tier": "auto"}, "service_tier"),
    ({"container": "c1"}, "container"),
    ({"mcp_servers": [{"type": "url", "url": "https://x", "name": "x"}]}, "mcp_servers"),
    ({"metadata": {"user_id": "u1", "team": "a"}}, "metadata.team"),
    ({"tools": [{"type": "web_search_20250305", "name": "web_search"}]}, "tools[0].type"),
    ({"tools": [{**WEATHER, "strict": True}]}, "tools[0].strict"),
    ({"tool_choice": {"type": "auto", "disable_parallel_tool_use": True}},
     "tool_choice.disable_parallel_tool_use"),
    ({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain",
                                        "data": "x"}}]}]}, "messages[0].content[0].type"),
    ({"messages": [{"role": "assistant", "content": [
        {"type": "redacted_thinking", "data": "x"}]}]}, "messages[0].content[0].type"),
    ({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Hi", "citations": [{"type": "char_location"}]}]}]},
     "messages[0].content[0].citations"),
    ({"messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "file", "file_id": "f1"}}]}]},
     "messages[0].content[0].source.type"),
    ({"messages": [{"role": "system", "content": "Be brief."}]}, "messages[0].role"),
    ({"messages": [{"role": "user", "content": "Hi", "name": "ann"}]}, "messages[0].name"),
    ({"messages": [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}]}]},
     "messages[0].content[0].tool_use_id"),
    ({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Hi", "cache_control": {"type": "persistent"}}]}]},
     "messages[0].content[0].cache_control.type"),
    ({"thinking": {"budget_tokens": 1024}}, "thinking.type"),
    ({"output_config": {"format": {"type": "json_schema", "schema": {}}}}, "output_config"),
    ({"cache_control": {"type": "ephemeral", "scope": "all"}}, "cache_control.scope"),
    ({"max_tokens": None}, "max_tokens"),
    ({"max_tokens": 0}, "max_tokens"),
    ({"temperature": "hot"}, "temperature"),
    ({"stop_sequences": "END"}, "stop_sequences"),
    ({"top_k": -1}, "top_k"),
])
async def test_a_field_this_gateway_does_not_take_is_a_400_naming_it(upstream, fields, named):
    body = {**ask(), **fields}
    if body.get("max_tokens") is None:
        del body["max_tokens"]
    async with serving([make_agent(upstream)]) as url:
        status, raw = await post(url, body)
    assert status == 400
    error = json.loads(raw)
    assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
    assert error["error"]["message"].startswith(named), error
    assert upstream.requests == []


async def test_a_tool_choice_of_no_such_tool_is_a_400(upstream):
    async with serving([make_agent(upstream)]) as url, client(url) as api:
        with pytest.raises(anthropic.BadRequestError, match="get_time"):
            await api.messages.create(**ask(tools=[WEATHER], tool_choice={
                "type": "tool", "name": "get_time"}))


async def test_a_body_that_is_not_json_is_a_400_in_anthropics_shape(upstream):
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/messages", data=b"{not json") as response:
            assert response.status == 400
            error = await response.json()
    assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
    assert error["error"]["message"].startswith("The request body is not valid JSON")


async def test_an_unknown_agent_is_a_404_not_found_error(upstream):
    async with serving([make_agent(upstream)]) as url, client(url) as api:
        with pytest.raises(anthropic.NotFoundError) as caught:
            await api.messages.create(**{**ask(), "model": "claude-opus"})
    assert caught.value.body["error"]["type"] == "not_found_error"
    assert "support" in caught.value.body["error"]["message"]


# ---------------------------------------------------------------- keys


@pytest.mark.parametrize("header", ["x-api-key", "Authorization"])
async def test_the_key_comes_in_x_api_key_or_as_a_bearer_key(upstream, header):
    upstream.script(Reply(text="Hi."))
    keys = keyed(ApiKey("acme", digest(KEY), "acme"))
    value = KEY if header == "x-api-key" else f"Bearer {KEY}"
    async with serving([make_agent(upstream)], keys=keys) as url:
        status, raw = await post(url, ask(), headers={header: value})
    assert status == 200, raw


@pytest.mark.parametrize(("headers", "message"), [
    ({}, "You didn't provide an API key. Send it as 'x-api-key: KEY'."),
    ({"x-api-key": "wrong"}, "Incorrect API key provided."),
])
async def test_a_missing_or_wrong_key_is_a_401_authentication_error(upstream, headers, message):
    keys = keyed(ApiKey("acme", digest(KEY), "acme"))
    async with serving([make_agent(upstream)], keys=keys) as url:
        status, raw = await post(url, ask(), headers=headers)
    assert status == 401
    assert json.loads(raw) == {"type": "error", "error": {"type": "authentication_error",
                                                          "message": message}}


async def test_a_key_that_may_not_use_the_agent_is_a_403_permission_error(upstream):
    keys = keyed(ApiKey("acme", digest(KEY), "acme", agents=("billing",)))
    agents = [make_agent(upstream), make_agent(upstream, id="billing")]
    async with serving(agents, keys=keys) as url, client(url) as api:
        with pytest.raises(anthropic.PermissionDeniedError) as caught:
            await api.messages.create(**ask())
    assert caught.value.body["error"]["type"] == "permission_error"


async def test_a_key_over_its_concurrency_is_a_429_rate_limit_error(upstream):
    keys = keyed(ApiKey("acme", digest(KEY), "acme", max_concurrent=1))
    gateway = Gateway({"support": make_agent(upstream)}, keys)
    assert gateway.slots.acquire("acme", 1)  # one request in flight
    async with serving(gateway) as url, client(url) as api:
        with pytest.raises(anthropic.RateLimitError) as caught:
            await api.messages.create(**ask())
    assert caught.value.body["error"]["type"] == "rate_limit_error"


# ---------------------------------------------------------------- count_tokens


async def test_count_tokens_counts_as_the_agents_token_limiter(upstream):
    """The agent's instructions, the request's system prompt, messages and tools, as
    ``token-limiter`` counts a prompt in its encoding; nothing reaches the upstream."""
    limiter = TokenLimiter(limit=100_000, encoding="cl100k_base")
    agents = [make_agent(upstream, instructions="You are support.", input_processors=[limiter]),
              make_agent(upstream, id="plain")]
    request = {"system": "Be brief.", "tools": [WEATHER],
               "messages": [{"role": "user", "content": "What is the weather in Paris?"}]}
    async with serving(agents) as url, client(url) as api:
        counted = await api.messages.count_tokens(model="support", **request)
        plain = await api.messages.count_tokens(model="plain", **request)
    counter = limiter.counter
    prompt = [{"role": "system", "content": "You are support."},
              {"role": "system", "content": "Be brief."},
              {"role": "user", "content": [{"type": "text",
                                            "text": "What is the weather in Paris?"}]}]
    tools = (counter.count("get_weather") + counter.count(WEATHER["description"])
             + counter.count(json.dumps(WEATHER["input_schema"], separators=(",", ":"))))
    assert counted.input_tokens == sum(counter.message(m) for m in prompt) + 3 + tools
    assert 0 < plain.input_tokens != counted.input_tokens  # o200k_base, no instructions
    assert upstream.requests == []


async def test_count_tokens_takes_no_max_tokens_and_needs_an_agent(upstream):
    async with serving([make_agent(upstream)]) as url:
        status, raw = await post(url, ask(), path="/v1/messages/count_tokens")
        assert status == 400
        assert json.loads(raw)["error"]["message"].startswith("max_tokens: ")
        status, raw = await post(url, {**ask(), "model": "nope", "max_tokens": None},
                                 path="/v1/messages/count_tokens")
        assert status == 404 and json.loads(raw)["error"]["type"] == "not_found_error"


# ---------------------------------------------------------------- tripwires and failures


@pytest.mark.parametrize("stream", [False, True])
async def test_a_tripwire_on_the_input_is_an_invalid_request_error_naming_the_processor(
        upstream, stream):
    agent = make_agent(upstream, input_processors=[BlockWord("secret")])
    async with serving([agent]) as url:
        status, raw = await post(url, ask("tell me the secret", stream=stream))
    assert status == 400
    assert json.loads(raw) == {"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "The processor 'block-word' stopped the request: the input mentions "
                   "'secret'"}}
    assert upstream.requests == []


async def test_a_tripwire_after_the_first_byte_ends_the_message_refused_and_names_it(upstream):
    """The text before the block reaches the client; then the open block closes, the
    message ends with ``stop_reason: "refusal"`` (its ``stop_details`` name the
    processor) and an ``error`` event names it, which the ``anthropic`` client raises.
    Nothing of the blocked text."""
    upstream.script(Reply(text="All fine here. The secret word is swordfish.",
                          delta_size=5))
    agent = make_agent(upstream, output_processors=[BlockWord("secret")])
    async with serving([agent]) as url:
        status, raw = await post(url, ask(stream=True))
        async with client(url) as api:
            upstream.script(Reply(text="All fine here. The secret word is swordfish.",
                                  delta_size=5))
            with pytest.raises(anthropic.APIStatusError, match="block-word"):
                async with api.messages.stream(**ask()) as s:
                    await s.get_final_message()
    assert status == 200
    assert b"secret" not in raw.replace(b"'secret'", b"") and b"swordfish" not in raw
    seen = events(raw)
    assert [name for name, _ in seen][-4:] == [
        "content_block_stop", "message_delta", "message_stop", "error"]
    text = "".join(e["delta"].get("text", "") for n, e in seen if n == "content_block_delta")
    assert text and "All fine here. The secret".startswith(text)
    message = "The processor 'block-word' stopped the request: the reply mentions 'secret'"
    assert seen[-3][1]["delta"] == {"stop_reason": "refusal", "stop_sequence": None,
                                    "stop_details": {"type": "refusal", "category": None,
                                                     "explanation": message}}
    assert seen[-1][1] == {"type": "error", "error": {"type": "invalid_request_error",
                                                      "message": message}}


@pytest.mark.parametrize(("status", "kind", "error"), [
    (429, "rate_limit_error", anthropic.RateLimitError),
    (400, "invalid_request_error", anthropic.BadRequestError),
    (500, "api_error", anthropic.InternalServerError),
])
async def test_a_failed_model_call_is_the_upstreams_status_in_anthropics_shape(
        upstream, wire, status, kind, error):
    upstream.script(ErrorReply(status, "You are the support agent: the prompt is bad"))
    async with serving([make_agent(upstream, wire)]) as url, client(url) as api:
        with pytest.raises(error) as caught:
            await api.messages.create(**ask())
    body = caught.value.body
    assert body["error"]["type"] == kind
    assert body["error"]["message"].startswith(f"Upstream model call failed with status {status}")
    assert "support agent" not in json.dumps(body)


async def test_a_model_call_failing_mid_stream_ends_it_with_an_error_event(upstream, wire):
    upstream.script(Reply(text="Hello there, friend.", delta_size=3, error_after=4))
    async with serving([make_agent(upstream, wire)]) as url:
        status, raw = await post(url, ask(stream=True))
    assert status == 200
    name, error = events(raw)[-1]
    # the type of the upstream's status: an Anthropic upstream's error event is a 529
    kind = "overloaded_error" if wire == "anthropic" else "api_error"
    assert name == "error" and error["error"]["type"] == kind
    assert error["error"]["message"].startswith("Upstream model call failed")


# ---------------------------------------------------------------- the one path


@pytest.mark.parametrize("stream", [False, True])
async def test_the_processors_see_the_run_as_for_chat(upstream, stream):
    recorder = Recorder()
    upstream.script(Reply(text="Hello there."))
    agent = make_agent(upstream, input_processors=[recorder], output_processors=[recorder])
    async with serving([agent]) as url:
        status, _ = await post(url, ask("Hi", stream=stream, system="Be brief."))
    assert status == 200
    assert recorder.inputs == [["Be brief.", "Hi"]]
    assert "".join(t for kind, t in recorder.parts if kind == "text-delta") == "Hello there."
    assert recorder.results == ["Hello there."]


async def test_access_log_and_metrics_name_the_messages_api(upstream, caplog):
    upstream.script(Reply(text="Hi.", usage=(7, 2)))
    async with serving([make_agent(upstream)]) as url, client(url) as api:
        with caplog.at_level(logging.INFO, logger="tripwire.serve.access"):
            await api.messages.create(**ask())
            await api.messages.count_tokens(model="support", messages=ask()["messages"])
        async with aiohttp.ClientSession() as http, http.get(f"{url}/metrics") as r:
            metrics = await r.text()
    lines = [json.loads(r.getMessage()) for r in caplog.records
             if r.name == "tripwire.serve.access"]
    assert [(line["api"], line["path"], line["agent"], line["status"]) for line in lines] == [
        ("messages", "/v1/messages", "support", 200),
        ("messages", "/v1/messages/count_tokens", "support", 200)]
    assert (lines[0]["prompt_tokens"], lines[0]["completion_tokens"]) == (7, 2)
    assert ('tripwire_serve_requests_total{api="messages",agent="support",key="",status="200"} 2'
            in metrics)


@pytest.mark.parametrize("stream", [False, True])
async def test_a_memory_thread_remembers_through_messages(tmp_path, monkeypatch, stream):
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
        async with running(served, "127.0.0.1", 0) as url, client(
                url, "b-secret", default_headers={THREAD_HEADER: "t-1"}) as api:
            for text in ("I am Ann", "Who am I?"):
                if stream:
                    async with api.messages.stream(**ask(text)) as s:
                        await s.get_final_message()
                else:
                    await api.messages.create(**ask(text))
    assert _said(upstream.requests[1]) == [
        ("user", "I am Ann"), ("assistant", "Hello Ann."), ("user", "Who am I?")]


async def test_a_thread_for_an_agent_without_memory_is_a_400(upstream):
    async with serving([make_agent(upstream)]) as url:
        status, raw = await post(url, ask(), headers={THREAD_HEADER: "t-1"})
    assert status == 400
    assert "has no memory" in json.loads(raw)["error"]["message"]


async def test_a_thread_turn_that_resends_the_conversation_is_a_400(tmp_path, monkeypatch):
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        async with running(served, "127.0.0.1", 0) as url:
            status, raw = await post(url, {**ask(), "messages": [
                {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"},
                {"role": "user", "content": "Again"}]},
                headers={THREAD_HEADER: "t-1", "x-api-key": "a-secret"})
    assert status == 400
    assert json.loads(raw)["error"]["message"].startswith("messages[2] is a user message")
