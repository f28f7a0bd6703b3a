"""``tripwire serve``: the official ``openai`` client against the gateway on loopback,
the gateway's agents against tests/fake_llm_server.py over HTTP. Client -> gateway ->
processors -> upstream and back, all real."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import hypothesis.strategies as st
import openai
import pytest
from hypothesis import given, settings

from tests.support.fake_llm_server import ErrorReply, FakeLLMServer, FakeToolCall, Reply
from tripwire import RESOURCE_ID_KEY, Agent, Chunk, Processor, hookimpl, tool
from tripwire.serve import Gateway, Keys, running
from tripwire.serve._keys import ApiKey, digest
from tripwire.serve._response import Completion

KEY = "tw-test-key-0123456789"


class Recorder(Processor):
    """Passes everything through and records what each hook saw."""

    def __init__(self, id: str = "recorder") -> None:
        self.id = id
        self.inputs: list[list[str]] = []
        self.parts: list[tuple[str, str]] = []
        self.results: list[str] = []
        self.tenants: list[Any] = []

    @hookimpl
    def process_input(self, messages, request_context):
        self.inputs.append([m.text for m in messages])
        self.tenants.append(request_context.get(RESOURCE_ID_KEY))

    @hookimpl
    def process_output_stream(self, part):
        self.parts.append((part.type, part.text or part.payload.get("tool_name", "")))
        return part

    @hookimpl
    def process_output_result(self, result):
        self.results.append(result.text)


class BlockWord(Processor):
    """Aborts once the streamed text contains ``word`` (input: once a message does)."""

    def __init__(self, word: str, id: str = "block-word") -> None:
        self.id = id
        self.word = word

    @hookimpl
    def process_input(self, messages, abort):
        if any(self.word in m.text for m in messages):
            abort(f"the input mentions {self.word!r}")

    @hookimpl
    def process_output_stream(self, part, state, abort):
        if part.type == "text-delta":
            state["text"] = state.get("text", "") + part.text
            if self.word in state["text"]:
                abort(f"the reply mentions {self.word!r}")
        return part


@pytest.fixture
async def upstream() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as server:
        yield server


def make_agent(server: FakeLLMServer, id: str = "support", **kwargs: Any) -> Agent:
    return Agent(id=id, model=server.openai(max_retries=0), **kwargs)


@contextlib.asynccontextmanager
async def serving(agents: list[Agent] | Gateway, **kwargs: Any) -> AsyncIterator[str]:
    gateway = agents if isinstance(agents, Gateway) else Gateway(
        {a.id: a for a in agents}, **kwargs)
    try:
        async with running(gateway, "127.0.0.1", 0) as url:
            yield url
    finally:
        while _clients:
            await _clients.pop().close()


_clients: list[openai.AsyncOpenAI] = []


def client(url: str, key: str = KEY) -> openai.AsyncOpenAI:
    """The official client pointed at the gateway (closed when ``serving`` ends)."""
    api = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0)
    _clients.append(api)
    return api


def keyed(*keys: ApiKey) -> Keys:
    return Keys(list(keys))


# ---------------------------------------------------------------- endpoints


async def test_models_lists_one_entry_per_agent_and_healthz_answers(upstream):
    agents = [make_agent(upstream, "support"), make_agent(upstream, "billing")]
    async with serving(agents) as url:
        models = await client(url).models.list()
        assert [m.id for m in models.data] == ["support", "billing"]
        assert {m.object for m in models.data} == {"model"}
        async with aiohttp.ClientSession() as http, http.get(f"{url}/healthz") as r:
            assert r.status == 200
            assert (await r.json())["status"] == "ok"


async def test_a_completion_has_the_openai_shape_text_usage_and_finish_reason(upstream):
    upstream.script(Reply(text="Hello there, friend.", usage=(12, 5)))
    async with serving([make_agent(upstream)]) as url:
        reply = await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Hi"}])
    assert reply.object == "chat.completion"
    assert reply.id.startswith("chatcmpl-")
    assert reply.model == "support"
    choice = reply.choices[0]
    assert choice.message.role == "assistant"
    assert choice.message.content == "Hello there, friend."
    assert choice.finish_reason == "stop"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens,
            reply.usage.total_tokens) == (12, 5, 17)
    sent = upstream.requests[0].body
    assert sent["messages"][-1] == {"role": "user", "content": "Hi"}


async def test_a_stream_has_the_openai_shape_and_ends_with_usage_when_asked(upstream):
    upstream.script(Reply(text="Streaming works fine.", usage=(9, 4)))
    async with serving([make_agent(upstream)]) as url:
        stream = await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Hi"}], stream=True,
            stream_options={"include_usage": True})
        events = [e async for e in stream]
    assert all(e.object == "chat.completion.chunk" for e in events)
    assert len({e.id for e in events}) == 1
    assert events[0].choices[0].delta.role == "assistant"
    text = "".join(e.choices[0].delta.content or "" for e in events if e.choices)
    assert text == "Streaming works fine."
    finishes = [e.choices[0].finish_reason for e in events if e.choices]
    assert finishes[-1] == "stop" and set(finishes[:-1]) == {None}
    assert events[-1].choices == [] and events[-1].usage.total_tokens == 13


async def test_the_raw_stream_is_server_sent_events_ending_with_done(upstream):
    upstream.script(Reply(text="abc"))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": True,
                "messages": [{"role": "user", "content": "Hi"}]}) as r:
            assert r.headers["Content-Type"].startswith("text/event-stream")
            raw = (await r.read()).decode()
    events = [e for e in raw.split("\n\n") if e]
    assert all(e.startswith("data: ") for e in events)
    assert events[-1] == "data: [DONE]"
    first = json.loads(events[0][6:])
    assert first["choices"][0]["delta"] == {"role": "assistant", "content": "", "refusal": None}
    assert "usage" not in json.loads(events[-2][6:])  # not asked for


async def test_settings_and_system_messages_reach_the_upstream(upstream):
    upstream.script(Reply(text="ok"))
    agent = make_agent(upstream, instructions="You are terse.")
    async with serving([agent]) as url:
        await client(url).chat.completions.create(
            model="support", temperature=0.2, top_p=0.9, max_completion_tokens=50, seed=7,
            stop=["END"], messages=[{"role": "system", "content": "Answer in French."},
                                    {"role": "user", "content": "Hi"}])
    body = upstream.requests[0].body
    assert body["temperature"] == 0.2 and body["top_p"] == 0.9 and body["seed"] == 7
    assert body["max_tokens"] == 50 and body["stop"] == ["END"]
    assert [m["content"] for m in body["messages"][:2]] == ["You are terse.", "Answer in French."]


@pytest.mark.parametrize("stream", [False, True])
async def test_every_openai_request_field_reaches_the_upstream_as_given(upstream, stream):
    """The fields of OpenAI's API that are no portable setting go into the upstream's
    body as the client sent them (they once failed every request with a 502), over the
    agent's own provider_options."""
    fields = {"presence_penalty": 0.5, "frequency_penalty": -0.25, "logit_bias": {"50256": -100},
              "parallel_tool_calls": False, "reasoning_effort": "low", "service_tier": "auto",
              "user": "user-42", "response_format": {"type": "json_object"}}
    upstream.script(Reply(text="{}"))
    agent = Agent(id="support", model=upstream.openai(max_retries=0),
                  provider_options={"openai": {"user": "operator", "metadata_tag": "x"}})
    async with serving([agent]) as url:
        answer = await client(url).chat.completions.create(
            model="support", stream=stream, messages=[{"role": "user", "content": "Hi"}],
            **fields)
        if stream:
            [e async for e in answer]
    body = upstream.requests[0].body
    assert {k: body.get(k) for k in fields} == fields
    assert body["metadata_tag"] == "x"  # the agent's own, kept beside the client's


# ---------------------------------------------------------------- tools


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}


@pytest.mark.parametrize("stream", [False, True])
async def test_client_tool_calls_are_returned_to_the_client_not_run(upstream, stream):
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Oslo"})]))
    async with serving([make_agent(upstream)]) as url:
        request = dict(model="support", tools=[WEATHER],
                       tool_choice={"type": "function", "function": {"name": "get_weather"}},
                       messages=[{"role": "user", "content": "Weather in Oslo?"}])
        if stream:
            events = [e async for e in await client(url).chat.completions.create(
                **request, stream=True)]
            calls = [c for e in events for c in e.choices[0].delta.tool_calls or []]
            finish = events[-1].choices[0].finish_reason
        else:
            reply = await client(url).chat.completions.create(**request)
            calls = reply.choices[0].message.tool_calls
            finish = reply.choices[0].finish_reason
    assert finish == "tool_calls"
    assert [(c.id, c.function.name, json.loads(c.function.arguments)) for c in calls] == [
        ("call_1", "get_weather", {"city": "Oslo"})]
    assert len(upstream.requests) == 1  # the gateway did not go on without the result
    sent = upstream.requests[0].body
    assert sent["tools"][0]["function"]["name"] == "get_weather"
    assert sent["tools"][0]["function"]["parameters"] == WEATHER["function"]["parameters"]
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}


async def test_the_clients_tool_result_goes_back_to_the_upstream(upstream):
    upstream.script(Reply(text="It is sunny in Oslo."))
    async with serving([make_agent(upstream)]) as url:
        reply = await client(url).chat.completions.create(model="support", tools=[WEATHER],
            messages=[
                {"role": "user", "content": "Weather in Oslo?"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"},
            ])
    assert reply.choices[0].message.content == "It is sunny in Oslo."
    sent = upstream.requests[0].body["messages"]
    assert sent[-2]["tool_calls"][0]["function"] == {"name": "get_weather",
                                                     "arguments": '{"city": "Oslo"}'}
    assert sent[-1] == {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"}


async def test_a_tool_the_agent_defines_is_run_by_the_gateway(upstream):
    ran = []

    @tool
    def lookup(order: str) -> str:
        """Look an order up."""
        ran.append(order)
        return "shipped"

    upstream.script(Reply(tool_calls=[FakeToolCall("c1", "lookup", {"order": "A7"})]),
                    Reply(text="Order A7 has shipped."))
    async with serving([make_agent(upstream, tools=[lookup])]) as url:
        reply = await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Where is A7?"}])
    assert ran == ["A7"]
    assert reply.choices[0].message.content == "Order A7 has shipped."
    assert reply.choices[0].message.tool_calls is None
    assert reply.choices[0].finish_reason == "stop"
    assert upstream.requests[1].body["messages"][-1]["content"] == "shipped"


# ---------------------------------------------------------------- guarantees


async def test_stream_and_non_stream_run_the_same_processors_on_the_same_chunks(upstream):
    recorders = {}
    for stream in (False, True):
        upstream.script(Reply(text="The same reply, piece by piece.", delta_size=3,
                              tool_calls=[FakeToolCall("c1", "get_weather", {"city": "Rome"})]))
        recorders[stream] = recorder = Recorder()
        async with serving([make_agent(upstream, input_processors=[recorder],
                                       output_processors=[recorder])]) as url:
            request = dict(model="support", tools=[WEATHER],
                           messages=[{"role": "user", "content": "Hi there"}])
            if stream:
                [e async for e in await client(url).chat.completions.create(
                    **request, stream=True)]
            else:
                await client(url).chat.completions.create(**request)
    plain, streamed = recorders[False], recorders[True]
    # (the client's tool description is input too, a system message of its own)
    assert plain.inputs == streamed.inputs == [["Hi there", "The weather in a city."]]
    assert plain.parts == streamed.parts
    assert ("text-delta", "The") in plain.parts and ("tool-call", "get_weather") in plain.parts
    assert plain.results == streamed.results == ["The same reply, piece by piece."]


@pytest.mark.parametrize("stream", [False, True])
async def test_an_input_tripwire_is_a_400_with_the_processor_id(upstream, stream):
    async with serving([make_agent(upstream, input_processors=[BlockWord("DROP TABLE")])]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).chat.completions.create(
                model="support", stream=stream,
                messages=[{"role": "user", "content": "please DROP TABLE users"}])
    assert caught.value.status_code == 400
    assert caught.value.body == {"message": "the input mentions 'DROP TABLE'",
                                 "type": "tripwire", "param": None, "code": "block-word"}
    assert upstream.requests == []  # the model was never called


async def test_a_tripwire_before_the_first_byte_of_a_stream_is_a_400(upstream):
    upstream.script(Reply(text="secret right away", delta_size=50))
    async with serving([make_agent(upstream, output_processors=[BlockWord("secret")])]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).chat.completions.create(
                model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
    assert caught.value.body["code"] == "block-word"


async def test_a_tripwire_mid_stream_ends_it_with_content_filter(upstream):
    upstream.script(Reply(text="Here it comes: the secret is 42", delta_size=5))
    async with serving([make_agent(upstream, output_processors=[BlockWord("secret")])]) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, stream_options={"include_usage": True},
            messages=[{"role": "user", "content": "Hi"}])
        events = [e async for e in stream]
    text = "".join(e.choices[0].delta.content or "" for e in events if e.choices)
    assert "secret" not in text and text.startswith("Here it comes")
    last = events[-2]
    assert last.choices[0].finish_reason == "content_filter"
    assert last.model_extra["tripwire"] == {"message": "the reply mentions 'secret'",
                                            "type": "tripwire", "code": "block-word"}
    assert events[-1].usage is not None


async def test_the_same_reply_without_streaming_is_a_400(upstream):
    upstream.script(Reply(text="Here it comes: the secret is 42", delta_size=5))
    async with serving([make_agent(upstream, output_processors=[BlockWord("secret")])]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).chat.completions.create(
                model="support", messages=[{"role": "user", "content": "Hi"}])
    assert caught.value.body["type"] == "tripwire"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("status", "error"), [(429, openai.RateLimitError),
                                                (401, openai.AuthenticationError),
                                                (503, openai.InternalServerError)])
async def test_an_upstream_error_keeps_the_upstreams_status(upstream, stream, status, error):
    upstream.script(ErrorReply(status, "upstream says no"))
    async with serving([make_agent(upstream, default_error_processors=False)]) as url:
        with pytest.raises(error) as caught:
            await client(url).chat.completions.create(
                model="support", stream=stream, messages=[{"role": "user", "content": "Hi"}])
    assert caught.value.status_code == status
    kind = "server_error" if status >= 500 else "invalid_request_error"
    assert caught.value.body["message"] == (
        f"Upstream model call failed with status {status} ({kind}).")


async def test_an_upstream_error_mid_stream_is_an_error_event(upstream):
    upstream.script(Reply(text="partial text here", delta_size=4, error_after=4))
    async with serving([make_agent(upstream, default_error_processors=False)]) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        seen = []
        with pytest.raises(openai.APIError) as caught:
            async for event in stream:
                seen.append(event)
    assert seen and "Upstream model call failed" in caught.value.message


@pytest.mark.parametrize("stream", [False, True])
async def test_a_client_that_disconnects_cancels_the_upstream_call(upstream, stream):
    upstream.script(Reply(text="tick", endless=True, event_delay=0.01))
    async with serving([make_agent(upstream)]) as url:
        async with aiohttp.ClientSession() as http:
            body = {"model": "support", "stream": stream,
                    "messages": [{"role": "user", "content": "Hi"}]}
            if stream:
                response = await http.post(f"{url}/v1/chat/completions", json=body)
                await response.content.readline()  # the stream has begun
                response.close()  # the client goes away
            else:  # no byte comes before the reply is complete: give up waiting
                waiting = asyncio.create_task(http.post(f"{url}/v1/chat/completions",
                                                        json=body))
                while not upstream.requests:
                    await asyncio.sleep(0.01)
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
        await asyncio.wait_for(upstream.disconnected.wait(), timeout=10)


# ---------------------------------------------------------------- bad requests


@pytest.mark.parametrize(("body", "status", "needle"), [
    ({"model": "nope", "messages": [{"role": "user", "content": "Hi"}]}, 404, "does not exist"),
    ({"model": "support"}, 400, "messages"),
    ({"model": "support", "messages": [{"role": "user", "content": "x"}], "frobnicate": 1},
     400, "frobnicate"),
    ({"model": "support", "messages": [{"role": "wizard", "content": "x"}]}, 400, "role"),
    ({"model": "support", "messages": [{"role": "tool", "tool_call_id": "c9", "content": "x"}]},
     400, "answers no tool call"),
    ({"model": "support", "messages": [{"role": "user", "content": "x"}], "n": 3}, 400, "'n'"),
    ({"model": "support", "messages": [{"role": "user", "content": "x"}],
      "tool_choice": {"type": "function", "function": {"name": "ghost"}}}, 400, "ghost"),
    ({"model": "support", "messages": [{"role": "user", "content": 5}]}, 400, "content"),
    (["not", "an", "object"], 400, "JSON object"),
])
async def test_a_bad_request_is_an_openai_error_naming_what_is_wrong(upstream, body, status,
                                                                     needle):
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json=body) as r:
            assert r.status == status
            error = (await r.json())["error"]
    assert needle in error["message"]
    assert set(error) == {"message", "type", "param", "code"}
    assert upstream.requests == []


@pytest.mark.parametrize(("change", "param"), [
    ({"messages": "Hi"}, "messages"),
    ({"messages": [5]}, "messages[0]"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
     "messages[0].content[0].image_url.url"),
    ({"messages": [{"role": "user", "content": [
        {"type": "input_audio", "input_audio": {"format": "ogg", "data": ""}}]}]},
     "messages[0].content[0].input_audio.format"),
    ({"tools": "all"}, "tools"),
    ({"tools": [{"type": "function", "function": {"name": 5}}]}, "tools[0].function.name"),
    ({"tool_choice": "any"}, "tool_choice"),
    ({"stream_options": True}, "stream_options"),
])
async def test_a_field_of_the_wrong_shape_is_the_errors_param(upstream, change, param):
    """OpenAI's ``error.param`` names the field that is wrong, as clients show it."""
    body = {"model": "support", "messages": [{"role": "user", "content": "Hi"}], **change}
    async with serving([make_agent(upstream)]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).chat.completions.create(**body)
    assert caught.value.param == param
    assert caught.value.body["message"].startswith(param)
    assert upstream.requests == []


@pytest.mark.parametrize(("field", "value"), [
    ("stop", 5), ("stop", ["END", 1]), ("temperature", "hot"), ("temperature", True),
    ("top_p", [1]), ("max_tokens", "lots"), ("max_tokens", 1.5), ("max_completion_tokens", "8"),
    ("seed", "abc"), ("n", True), ("temperature", "1e999"), ("top_p", "-1e999"),
])
async def test_a_model_setting_of_the_wrong_type_is_a_400_naming_it(upstream, field, value):
    """Not a 500 (``stop: 5`` failed the run) and not a body the upstream gets: each
    setting has OpenAI's type (a number, finite; an integer; a string or strings)."""
    raw = json.dumps({"model": "support", "messages": [{"role": "user", "content": "x"}],
                      field: value})
    if value in ("1e999", "-1e999"):  # valid JSON that Python reads as an infinity
        raw = raw.replace(f'"{value}"', value)
    upstream.script(Reply(text="never"))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", data=raw) as r:
            assert r.status == 400, await r.text()
            error = (await r.json())["error"]
    assert error["param"] == field and field in error["message"]
    assert error["type"] == "invalid_request_error"
    assert upstream.requests == []


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
async def test_nan_and_infinity_are_not_json(upstream, constant):
    """Python's reader takes them, JSON does not: a field holding one (a setting passed
    on as it came) would reach the upstream as a body that is not JSON."""
    raw = json.dumps({"model": "support", "messages": [{"role": "user", "content": "x"}],
                      "presence_penalty": 0}).replace('"presence_penalty": 0',
                                                      f'"presence_penalty": {constant}')
    upstream.script(Reply(text="never"))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", data=raw) as r:
            assert r.status == 400
            error = (await r.json())["error"]
    assert "not valid JSON" in error["message"] and constant in error["message"]
    assert upstream.requests == []


async def test_a_body_that_is_not_json_or_too_large_is_refused(upstream):
    async with serving([make_agent(upstream)], max_body_bytes=1000) as url, \
            aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", data=b"{nope") as r:
            assert r.status == 400
        big = {"model": "support", "messages": [{"role": "user", "content": "x" * 2000}]}
        async with http.post(f"{url}/v1/chat/completions", json=big) as r:
            assert r.status == 413
            assert (await r.json())["error"]["code"] == "request_too_large"
    assert upstream.requests == []


# ---------------------------------------------------------------- keys and tenants


async def test_a_missing_or_wrong_key_is_a_401(upstream):
    keys = keyed(ApiKey("acme", digest(KEY), "acme"))
    async with serving([make_agent(upstream)], keys=keys) as url:
        for key in ("wrong-key", KEY[:-1], KEY + "x"):
            with pytest.raises(openai.AuthenticationError) as caught:
                await client(url, key).chat.completions.create(
                    model="support", messages=[{"role": "user", "content": "Hi"}])
            assert caught.value.code == "invalid_api_key"
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/v1/chat/completions", json={}) as r:
                assert r.status == 401
                assert (await r.json())["error"]["code"] == "missing_api_key"
            async with http.get(f"{url}/v1/models") as r:
                assert r.status == 401
    assert upstream.requests == []


async def test_the_keys_tenant_is_the_resource_id_and_agents_are_limited(upstream):
    recorder = Recorder()
    keys = keyed(ApiKey("acme", digest(KEY), "tenant-acme", agents=("support",)),
                 ApiKey("globex", digest("other-key"), "tenant-globex"))
    upstream.script(Reply(text="a"), Reply(text="b"))
    agents = [make_agent(upstream, input_processors=[recorder]), make_agent(upstream, "billing")]
    async with serving(agents, keys=keys) as url:
        await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Hi"}])
        await client(url, "other-key").chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Hi"}])
        assert [m.id for m in (await client(url).models.list()).data] == ["support"]
        with pytest.raises(openai.PermissionDeniedError):
            await client(url).chat.completions.create(
                model="billing", messages=[{"role": "user", "content": "Hi"}])
    assert recorder.tenants == ["tenant-acme", "tenant-globex"]


async def test_a_key_over_its_concurrency_limit_gets_a_429(upstream):
    keys = keyed(ApiKey("acme", digest(KEY), "acme", max_concurrent=1))
    upstream.script(Reply(text="tick", endless=True, event_delay=0.01), Reply(text="ok"))
    async with serving([make_agent(upstream)], keys=keys) as url:
        first = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        await first.__anext__()
        with pytest.raises(openai.RateLimitError) as caught:
            await client(url).chat.completions.create(
                model="support", messages=[{"role": "user", "content": "Hi"}])
        assert caught.value.code == "concurrency_limit"
        await first.close()
        await asyncio.wait_for(upstream.disconnected.wait(), timeout=10)
        for _ in range(100):  # the first request's slot is given back as it ends
            try:
                reply = await client(url).chat.completions.create(
                    model="support", messages=[{"role": "user", "content": "Hi"}])
                break
            except openai.RateLimitError:
                await asyncio.sleep(0.02)
        assert reply.choices[0].message.content == "ok"


async def test_an_upstream_429_gives_the_keys_slot_back(upstream):
    keys = keyed(ApiKey("acme", digest(KEY), "acme", max_concurrent=1))
    upstream.script(ErrorReply(429, "slow down"), Reply(text="ok"))
    async with serving([make_agent(upstream, default_error_processors=False)],
                       keys=keys) as url:
        with pytest.raises(openai.RateLimitError) as caught:
            await client(url).chat.completions.create(
                model="support", messages=[{"role": "user", "content": "Hi"}])
        assert caught.value.status_code == 429
        reply = await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Hi"}])
    assert reply.choices[0].message.content == "ok"


async def test_unknown_model_names_are_not_metric_labels(upstream):
    """Clients choose the model text: a 404 is counted without it (no label explosion)."""
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        for name in ("x1", "x2", "x3"):
            body = {"model": name, "messages": [{"role": "user", "content": "Hi"}]}
            async with http.post(f"{url}/v1/chat/completions", json=body) as r:
                assert r.status == 404
        async with http.get(f"{url}/metrics") as r:
            text = await r.text()
    assert 'tripwire_serve_requests_total{api="chat",agent="",key="",status="404"} 3' in text
    assert "x1" not in text


# ---------------------------------------------------------------- operations


async def test_the_access_log_has_one_json_line_per_request_without_text_or_key(upstream,
                                                                                caplog):
    keys = keyed(ApiKey("acme", digest(KEY), "tenant-acme"))
    upstream.script(Reply(text="private reply text", usage=(3, 2)))
    agent = make_agent(upstream, output_processors=[BlockWord("never")],
                       input_processors=[BlockWord("forbidden")])
    caplog.set_level(logging.INFO, logger="tripwire.serve.access")
    async with serving([agent], keys=keys) as url:
        await client(url).chat.completions.create(
            model="support", messages=[{"role": "user", "content": "private prompt text"}])
        with pytest.raises(openai.BadRequestError):
            await client(url).chat.completions.create(
                model="support", messages=[{"role": "user", "content": "forbidden words"}])
    lines = [r.getMessage() for r in caplog.records if r.name == "tripwire.serve.access"]
    records = [json.loads(line) for line in lines]
    assert [(r["agent"], r["tenant"], r["key"], r["status"]) for r in records] == [
        ("support", "tenant-acme", "acme", 200), ("support", "tenant-acme", "acme", 400)]
    assert (records[0]["prompt_tokens"], records[0]["completion_tokens"]) == (3, 2)
    assert records[1]["tripwire"] == "block-word"
    assert all(r["latency_ms"] >= 0 for r in records)
    text = "\n".join(lines)
    for secret in ("private", "forbidden", KEY):
        assert secret not in text


async def test_every_request_has_an_access_log_line_refused_ones_too(upstream, caplog):
    """A wrong key on /v1/models, an unknown path and a request refused while the
    gateway drains each leave a line (a key guessed at /v1/models was invisible, and so
    was every 503 of a shutdown); the drained chat completion is counted too."""
    keys = keyed(ApiKey("acme", digest(KEY), "tenant-acme"))
    caplog.set_level(logging.INFO, logger="tripwire.serve.access")
    gateway = Gateway({"support": make_agent(upstream)}, keys=keys)
    async with serving(gateway) as url, aiohttp.ClientSession() as http:
        async with http.get(f"{url}/v1/models",
                            headers={"Authorization": "Bearer guessed-key"}) as r:
            assert r.status == 401
        async with http.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {KEY}"}):
            pass
        async with http.post(f"{url}/v1/completions", json={}) as r:
            assert r.status == 404
        gateway.draining = True
        async with http.post(f"{url}/v1/chat/completions", json={},
                             headers={"Authorization": f"Bearer {KEY}"}) as r:
            assert r.status == 503
        metrics = gateway.metrics.render()
        gateway.draining = False
    lines = [r.getMessage() for r in caplog.records if r.name == "tripwire.serve.access"]
    records = [json.loads(line) for line in lines]
    assert [(r["method"], r["path"], r["status"], r["key"]) for r in records] == [
        ("GET", "/v1/models", 401, None), ("GET", "/v1/models", 200, "acme"),
        ("POST", "/v1/completions", 404, None), ("POST", "/v1/chat/completions", 503, None)]
    assert all(r["latency_ms"] >= 0 for r in records)
    assert "guessed-key" not in "".join(lines) and KEY not in "".join(lines)
    assert 'tripwire_serve_requests_total{api="chat",agent="",key="",status="503"} 1' in metrics
    assert 'status="401"' not in metrics and 'status="404"' not in metrics  # not chat requests


async def test_metrics_count_requests_latency_tripwires_and_upstream_errors(upstream):
    upstream.script(Reply(text="fine"), ErrorReply(502, "bad gateway"))
    agent = make_agent(upstream, input_processors=[BlockWord("forbidden")],
                       default_error_processors=False)
    async with serving([agent]) as url:
        api = client(url)
        await api.chat.completions.create(model="support",
                                          messages=[{"role": "user", "content": "Hi"}])
        for content in ("forbidden", "Hi"):
            with pytest.raises(openai.APIStatusError):
                await api.chat.completions.create(
                    model="support", messages=[{"role": "user", "content": content}])
        async with aiohttp.ClientSession() as http, http.get(f"{url}/metrics") as r:
            assert r.headers["Content-Type"].startswith("text/plain")
            text = await r.text()
    lines = set(text.splitlines())
    assert 'tripwire_serve_requests_total{api="chat",agent="support",key="",status="200"} 1' in lines
    assert 'tripwire_serve_requests_total{api="chat",agent="support",key="",status="400"} 1' in lines
    assert 'tripwire_serve_requests_total{api="chat",agent="support",key="",status="502"} 1' in lines
    assert 'tripwire_serve_tripwires_total{api="chat",agent="support",processor="block-word"} 1' in lines
    assert 'tripwire_serve_upstream_errors_total{api="chat",agent="support",status="502"} 1' in lines
    assert 'tripwire_serve_request_duration_seconds_count{api="chat",agent="support"} 3' in lines
    assert 'tripwire_serve_request_duration_seconds_bucket{api="chat",agent="support",le="+Inf"} 3' in lines
    assert "# TYPE tripwire_serve_request_duration_seconds histogram" in lines


async def test_draining_lets_in_flight_streams_finish_and_refuses_new_requests(upstream):
    upstream.script(Reply(text="one two three four five six", delta_size=4, event_delay=0.02))
    gateway = Gateway({"support": make_agent(upstream)})
    async with serving(gateway) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        first = await stream.__anext__()
        drained = asyncio.create_task(gateway.drain())
        await asyncio.sleep(0)
        with pytest.raises(openai.InternalServerError) as caught:
            await client(url).chat.completions.create(
                model="support", messages=[{"role": "user", "content": "Hi"}])
        assert caught.value.status_code == 503
        rest = [e async for e in stream]
        assert await drained is True
    text = "".join(e.choices[0].delta.content or "" for e in [first, *rest] if e.choices)
    assert text == "one two three four five six"
    assert rest[-1].choices[0].finish_reason == "stop"


async def test_drain_with_timeout_zero_does_not_wait_for_a_stream_in_flight(upstream):
    """``drain(timeout=0)`` answers at once (False: a stream is still going), not after
    the gateway's ``shutdown_timeout``; the stream still finishes."""
    upstream.script(Reply(text="one two three", delta_size=4, event_delay=0.05))
    gateway = Gateway({"support": make_agent(upstream)}, shutdown_timeout=30)
    async with serving(gateway) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        first = await stream.__anext__()
        assert await asyncio.wait_for(gateway.drain(timeout=0), 5) is False
        rest = [e async for e in stream]
        assert await gateway.drain(timeout=5) is True
        assert await gateway.drain(timeout=0) is True  # idle: True, even with no time to wait
    text = "".join(e.choices[0].delta.content or "" for e in [first, *rest] if e.choices)
    assert text == "one two three"


async def test_shutdown_cancels_what_is_still_in_flight_once_shutdown_timeout_is_up(upstream):
    """A stream that never ends holds the shutdown ``shutdown_timeout`` seconds, then is
    cancelled (about half a second more: ``CANCEL_GRACE`` twice), not three times the
    timeout (the drain's wait, then aiohttp's two waits of the same length)."""
    import time

    from tripwire.serve import CANCEL_GRACE

    upstream.script(Reply(text="tick", endless=True, event_delay=0.01))
    gateway = Gateway({"support": make_agent(upstream)}, shutdown_timeout=2)
    session = aiohttp.ClientSession()
    try:
        async with running(gateway, "127.0.0.1", 0) as url:
            response = await session.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": True,
                "messages": [{"role": "user", "content": "Hi"}]})
            await response.content.readline()  # streaming
            began = time.monotonic()
        took = time.monotonic() - began
        with contextlib.suppress(aiohttp.ClientError):
            await response.read()  # the stream was cut: it ends (no hang)
    finally:
        await session.close()
    assert 2 <= took < 2 + 2 * CANCEL_GRACE + 1.5, took


async def test_an_unknown_path_or_method_is_an_openai_error_object(upstream):
    async with serving([make_agent(upstream)]) as url:
        with pytest.raises(openai.NotFoundError) as caught:  # the legacy completions API
            await client(url).completions.create(model="support", prompt="Hi")
        assert caught.value.body["type"] == "invalid_request_error"
        assert "POST /v1/completions" in caught.value.body["message"]
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{url}/v1/chat/completions") as r:
                assert r.status == 405 and r.headers["Allow"] == "POST"
                error = (await r.json())["error"]
        assert error["type"] == "invalid_request_error"
        assert error["message"].startswith("Method GET is not allowed for /v1/chat/completions")
    assert upstream.requests == []


async def test_events_reach_the_client_as_they_come_not_at_the_end(upstream):
    """An upstream that never ends: the client still gets its events one by one."""
    upstream.script(Reply(text="tick", endless=True, event_delay=0.01))
    async with serving([make_agent(upstream)]) as url:
        stream = await client(url).chat.completions.create(
            model="support", stream=True, messages=[{"role": "user", "content": "Hi"}])
        texts = []
        async for event in stream:
            texts.append(event.choices[0].delta.content)
            if len(texts) == 6:
                break
        await stream.close()
    assert texts[0] == "" and set(texts[2:]) == {"tick "}


@pytest.mark.parametrize("paced", [False, True])
async def test_events_ready_together_leave_in_one_write_and_a_lone_event_at_once(
        upstream, monkeypatch, paced):
    """A burst (the whole upstream stream in one read) reaches the client in a few writes
    (the first event, then the rest joined), not one per event; a paced stream's event is
    written as soon as it has passed the processors, with none held for a later one; the
    last events and the end of the response leave in one write."""
    from aiohttp import web

    writes: list[bytes] = []
    ends: list[int] = []  # which write ended the response
    real, real_eof = web.StreamResponse.write, web.StreamResponse.write_eof

    async def counted(self, data):
        if self.headers.get("X-Accel-Buffering") == "no":  # the gateway's, not the upstream's
            writes.append(bytes(data))
        return await real(self, data)

    async def counted_eof(self, data=b""):
        # (aiohttp calls it again once the handler has returned: a no-op then)
        if self.headers.get("X-Accel-Buffering") == "no" and not ends:
            writes.append(bytes(data))
            ends.append(len(writes) - 1)
        return await real_eof(self, data)

    monkeypatch.setattr(web.StreamResponse, "write", counted)
    monkeypatch.setattr(web.StreamResponse, "write_eof", counted_eof)
    words = [f"w{i} " for i in range(12)]
    upstream.script(Reply(text="".join(words), delta_size=4,
                          event_delay=0.02 if paced else 0.0,
                          write_size=None if paced else 1 << 20))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": True,
                "messages": [{"role": "user", "content": "Hi"}]}) as r:
            raw = (await r.read()).decode()
    texts = [json.loads(e[6:])["choices"][0]["delta"].get("content") or ""
             for e in raw.split("\n\n") if e.startswith("data: {")]
    assert "".join(texts) == "".join(words)
    assert b"".join(writes).decode() == raw
    # the last events go with the end of the response, in one write
    assert ends == [len(writes) - 1] and writes[-1].endswith(b"data: [DONE]\n\n")
    events = len([t for t in texts if t])
    if paced:  # a write per event with text (the role rides with the first); slack for
        # a loaded machine that reads two events at once
        assert events > 6 and len(writes) >= events - 2
    else:  # one read from the upstream (or two, if the kernel split it): not one per event
        assert len(writes) <= 4 < events, [w[:40] for w in writes]


async def test_the_headers_of_a_stream_leave_with_its_first_event(upstream, monkeypatch):
    """One write for the status line, the headers and the first event (not a write, a
    system call and a packet, for the headers alone)."""
    from aiohttp.http_writer import StreamWriter

    sent: list[bytes] = []
    real_write, real_writelines = StreamWriter._write, StreamWriter._writelines

    def write(self, chunk):
        sent.append(bytes(chunk))
        return real_write(self, chunk)

    def writelines(self, chunks):
        chunks = list(chunks)
        sent.append(b"".join(chunks))
        return real_writelines(self, chunks)

    monkeypatch.setattr(StreamWriter, "_write", write)
    monkeypatch.setattr(StreamWriter, "_writelines", writelines)
    upstream.script(Reply(text="Hello there"))
    async with serving([make_agent(upstream)]) as url, aiohttp.ClientSession() as http:
        async with http.post(f"{url}/v1/chat/completions", json={
                "model": "support", "stream": True,
                "messages": [{"role": "user", "content": "Hi"}]}) as r:
            assert r.status == 200
            await r.read()
    heads = [w for w in sent if b"X-Accel-Buffering: no" in w]  # the gateway's response
    assert len(heads) == 1 and heads[0].startswith(b"HTTP/1.1 200")
    assert b'data: {"id":' in heads[0], heads[0]


@pytest.mark.parametrize("end", ["finish", "tripwire"])
async def test_a_streamed_answer_closes_its_iteration_of_the_run(upstream, end):
    """The gateway closes its iteration of the run when the answer is written: none is
    left to the event loop's finalizer for dropped async generators (a thread-safe
    wake-up of the loop and a task per request)."""
    import sys

    dropped: list[str] = []
    first, finalizer = sys.get_asyncgen_hooks()

    def noted(agen):
        dropped.append(agen.ag_code.co_qualname)
        return finalizer(agen)

    upstream.script(Reply(text="Here it comes: the secret is 42", delta_size=5))
    agent = make_agent(upstream, output_processors=[BlockWord("secret")]
                       if end == "tripwire" else [])
    async with serving([agent]) as url, aiohttp.ClientSession() as http:
        sys.set_asyncgen_hooks(first, noted)
        try:
            async with http.post(f"{url}/v1/chat/completions", json={
                    "model": "support", "stream": True,
                    "messages": [{"role": "user", "content": "Hi"}]}) as r:
                raw = await r.read()
        finally:
            sys.set_asyncgen_hooks(first, finalizer)
    assert (b"content_filter" in raw) == (end == "tripwire") and raw.endswith(b"[DONE]\n\n")
    assert "AgentStream._iterate" not in dropped


class Recorded:
    """A response that records its writes; ``gate``: a write waits for it (a client
    that reads slowly)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.end: bytes | None = None
        self.gate: asyncio.Event | None = None

    async def write(self, data: bytes) -> None:
        self.writes.append(data)
        if self.gate is not None:
            await self.gate.wait()

    async def write_eof(self, data: bytes = b"") -> None:
        self.end = data


async def test_the_events_not_yet_written_leave_with_the_end_of_the_response():
    """A burst that ends in the turn it came: the first event at once, the rest and the
    end of the response in one write (not a flush and then the end)."""
    from tripwire.serve._answer import _Coalescing

    response = Recorded()
    writer = _Coalescing(response, 30, lambda: None)  # type: ignore[arg-type]
    try:
        for data in (b"a", b"b", b"c"):
            await writer.send(data)
        await writer.close(b"end")
    finally:
        writer.cancel()
    assert response.writes == [b"a"] and response.end == b"bcend"


async def test_the_end_of_the_response_waits_for_a_write_in_progress():
    """Events that came while a joined write waits for the client follow it, with the
    end of the response, in order."""
    from tripwire.serve._answer import _Coalescing

    response = Recorded()
    writer = _Coalescing(response, 30, lambda: None)  # type: ignore[arg-type]
    try:
        await writer.send(b"a")
        await writer.send(b"b")  # joined, written on the next turn
        response.gate = asyncio.Event()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert response.writes == [b"a", b"b"]  # that write waits for the client
        await writer.send(b"c")
        closing = asyncio.ensure_future(writer.close(b"end"))
        await asyncio.sleep(0)
        assert response.end is None  # not before the write in progress
        response.gate.set()
        await closing
    finally:
        writer.cancel()
    assert response.writes == [b"a", b"b"] and response.end == b"cend"


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1))
def test_a_text_event_from_the_template_is_the_generic_event(text):
    """Text deltas are rendered from a byte template (the hot path): the same bytes as
    the generic rendering, for any text, and valid JSON with the text intact."""
    completion = Completion("support", "run", frozenset())
    fast = completion.event(Chunk("text-delta", {"id": "0", "text": text}))
    assert fast == completion._event({"content": text})
    assert json.loads(fast[6:])["choices"][0]["delta"]["content"] == text
