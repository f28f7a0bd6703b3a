"""OpenAI-compatible chat completions against a real local HTTP server: what only
this wire format has (what both providers do alike is in test_providers.py)."""

from __future__ import annotations

import json

import pytest

from tests.support.fake_llm_server import FakeToolCall, RawReply, Reply, openai_refusal
from tests.support.helpers import collect, request, texts, user
from tripwire import APICallError, ConfigurationError, Tool, Usage
from tripwire.models import resolve_model
from tripwire.models._http import encode_body


def weather_tool() -> Tool:
    return Tool(
        name="get_weather",
        description="Weather for a city",
        parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        execute=lambda city: f"sunny in {city}",
    )


async def test_reasoning_field_of_openrouter_and_ollama(llm_server):
    body = (
        'data: {"id":"gen-1","choices":[{"index":0,"delta":{"role":"assistant","reasoning":"Hmm"}}]}\n\n'
        'data: {"id":"gen-1","choices":[{"index":0,"delta":{"content":"Yes"},"finish_reason":"stop"}]}\n\n'
        "data: [DONE]\n\n"
    )
    llm_server.script(RawReply(body))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    assert texts(chunks, "reasoning-delta") == "Hmm"
    assert texts(chunks) == "Yes"


async def test_interleaved_tool_call_deltas_are_kept_apart_by_index(llm_server):
    def delta(tc: str) -> str:
        return f'data: {{"id":"c","choices":[{{"index":0,"delta":{{"tool_calls":[{tc}]}}}}]}}\n\n'

    body = (
        delta('{"index":0,"id":"a","type":"function","function":{"name":"f","arguments":""}}')
        + delta('{"index":1,"id":"b","type":"function","function":{"name":"g","arguments":"{\\"y\\""}}')
        + delta('{"index":0,"function":{"arguments":"{\\"x\\": 1"}}')
        + delta('{"index":1,"function":{"arguments":": 2}"}}')
        + delta('{"index":0,"function":{"arguments":"}"}}')
        + 'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
        + "data: [DONE]\n\n"
    )
    llm_server.script(RawReply(body))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    calls = [(c.payload["tool_name"], c.payload["args"]) for c in chunks if c.type == "tool-call"]
    assert calls == [("f", {"x": 1}), ("g", {"y": 2})]


async def test_tool_call_with_empty_arguments_has_empty_args(llm_server):
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "now", "")]))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call == {"tool_call_id": "call_1", "tool_name": "now", "args": {}}


async def test_prompt_maps_to_chat_completions_messages(llm_server):
    prompt = [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in this image?"},
                {"type": "file", "data": "iVBORw0KGgo=", "media_type": "image/png"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "reasoning", "text": "The user wants weather."},
                {"type": "text", "text": "Checking."},
                {"type": "tool-call", "tool_call_id": "call_1", "tool_name": "get_weather", "input": {"city": "Paris"}},
            ],
        },
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "tool_call_id": "call_1", "tool_name": "get_weather", "output": {"temp": 21}},
            ],
        },
        user("Thanks"),
    ]
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        await collect(model, request(*prompt))

    assert llm_server.requests[0].body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in this image?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
            ],
        },
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"temp": 21}'},
        {"role": "user", "content": "Thanks"},
    ]


async def test_assistant_message_with_only_tool_calls_has_null_content(llm_server):
    prompt = [
        user("Weather?"),
        {"role": "assistant", "content": [{"type": "tool-call", "tool_call_id": "c", "tool_name": "f", "input": {}}]},
        {"role": "tool", "content": [{"type": "tool-result", "tool_call_id": "c", "tool_name": "f", "output": "sunny"}]},
    ]
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        await collect(model, request(*prompt))

    messages = llm_server.requests[0].body["messages"]
    assert messages[1]["content"] is None
    assert messages[2] == {"role": "tool", "tool_call_id": "c", "content": "sunny"}


async def test_unsupported_file_type_is_a_clear_error(llm_server):
    prompt = {"role": "user", "content": [{"type": "file", "data": "AAAA", "media_type": "video/mp4"}]}
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match=r"video/mp4.*valid: image/\*"):
            await collect(model, request(prompt))
    assert llm_server.requests == []


async def test_tool_choice_naming_an_absent_tool_is_a_clear_error(llm_server):
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match="'nope'.*get_weather"):
            await collect(model, request(tools=[weather_tool()], tool_choice={"type": "tool", "tool_name": "nope"}))


async def test_model_settings_pass_through(llm_server):
    llm_server.script(Reply(text="ok"))
    settings = {"temperature": 0.2, "max_output_tokens": 50, "top_p": 0.9, "stop": "END", "seed": 7}
    async with llm_server.openai() as model:
        await collect(model, request(model_settings=settings))

    body = llm_server.requests[0].body
    assert (body["temperature"], body["max_tokens"], body["top_p"], body["stop"], body["seed"]) == (
        0.2, 50, 0.9, ["END"], 7,
    )


async def test_max_tokens_can_be_sent_as_max_completion_tokens(llm_server):
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai(max_tokens_param="max_completion_tokens") as model:
        await collect(model, request(model_settings={"max_tokens": 64}))

    body = llm_server.requests[0].body
    assert body["max_completion_tokens"] == 64 and "max_tokens" not in body


async def test_unknown_model_setting_lists_the_valid_ones(llm_server):
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match=r"\['temprature'\].*valid: temperature, max_tokens"):
            await collect(model, request(model_settings={"temprature": 0.1}))
    assert llm_server.requests == []


async def test_provider_options_cannot_turn_streaming_off(llm_server):
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match=r"cannot set \['stream'\]"):
            await collect(model, request(provider_options={"openai": {"stream": False}}))


@pytest.mark.parametrize("options", ["fast", ["stream"], 3])
async def test_provider_options_of_the_provider_must_be_a_mapping(llm_server, options):
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match=r"provider_options\['openai'\] must be a "
                                                     r"mapping"):
            await collect(model, request(provider_options={"openai": options}))
    assert llm_server.requests == []


async def test_a_body_json_cannot_hold_is_a_configuration_error_before_any_request(llm_server):
    cycle: dict[str, object] = {}
    cycle["again"] = cycle
    async with llm_server.openai() as model:
        for value in (object(), cycle):
            with pytest.raises(ConfigurationError, match="cannot be encoded as JSON"):
                await collect(model, request(provider_options={"openai": {"extra": value}}))
    assert llm_server.requests == []


async def test_the_body_is_sent_as_json_dumps_writes_it(llm_server):
    """Numbers, non-ASCII text (as ASCII escapes), nested options: the upstream gets
    the bytes ``json.dumps`` would write, whatever tripwire encodes them with."""
    llm_server.script(Reply(text="ok"))
    extra = {"n": [1.5, 10**30, -0.0, None, True, float("inf")], "t": "é😀\u2028",
             "o": {"k": {"d": 1e300}}}
    asked = request(model_settings={"temperature": 0.25},
                    provider_options={"openai": {"extra": extra}})
    async with llm_server.openai() as model:
        call = model._prepare(asked, stream=True)
        assert call.data == json.dumps(call.body).encode("ascii")
        assert encode_body(extra) == json.dumps(extra).encode("ascii")
        await collect(model, asked)
    sent = llm_server.requests[0].body
    assert sent["extra"] == extra and sent["temperature"] == 0.25


async def test_recorded_stream_with_keepalive_comments_and_crlf(llm_server):
    body = (
        ": OPENROUTER PROCESSING\r\n\r\n"
        'data: {"id":"chatcmpl-r","object":"chat.completion.chunk","created":1,"model":"m",'
        '"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\r\n\r\n'
        'data: {"id":"chatcmpl-r","object":"chat.completion.chunk","created":1,"model":"m",'
        '"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\r\n\r\n'
        'data: {"id":"chatcmpl-r","object":"chat.completion.chunk","created":1,"model":"m",'
        '"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\r\n\r\n'
        'data: {"id":"chatcmpl-r","object":"chat.completion.chunk","created":1,"model":"m",'
        '"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}\r\n\r\n'
        "data: [DONE]\r\n\r\n"
    )
    llm_server.script(RawReply(body))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    assert texts(chunks) == "Hi"
    assert chunks[-1].payload["usage"] == Usage(3, 1, 4)


async def test_error_object_inside_the_stream_raises(llm_server):
    llm_server.script(
        Reply(text="partial answer", error_after=2, error={"message": "upstream model crashed", "type": "server_error"})
    )
    async with llm_server.openai() as model:
        seen = []
        with pytest.raises(APICallError, match="upstream model crashed") as info:
            async for c in model.stream(request()):
                seen.append(c)
    assert texts(seen) == "part"
    assert '"upstream model crashed"' in info.value.response_body


async def test_provider_option_set_to_none_removes_a_field(llm_server):
    # e.g. an older compatible server that rejects stream_options
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        chunks = await collect(model, request(provider_options={"openai": {"stream_options": None}}))

    assert "stream_options" not in llm_server.requests[0].body
    assert texts(chunks) == "ok"


async def test_text_that_is_not_valid_unicode_is_sent_escaped(llm_server):
    # A lone surrogate (from a broken decode upstream) cannot be UTF-8 encoded;
    # JSON's \u escape carries it, as aiohttp's json= did.
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        await collect(model, request(user("half a pair: \ud83d")))
    assert llm_server.requests[0].body["messages"][0]["content"] == "half a pair: \ud83d"


async def test_router_id_sends_max_tokens_as_max_completion_tokens(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = resolve_model("openai/gpt-5-mini")
    assert model.max_tokens_param == "max_completion_tokens"  # what OpenAI's API wants
    await model.aclose()


# ---------------------------------------------------------------- refusals

REFUSAL = "I'm sorry, but I can't help with that."


async def test_a_streamed_refusal_is_text_with_the_content_filter_finish_reason(llm_server):
    llm_server.script(openai_refusal(REFUSAL, 9))
    async with llm_server.openai() as model:
        chunks = await collect(model)
    assert texts(chunks) == REFUSAL
    finish = chunks[-1].payload
    assert finish["finish_reason"] == "content-filter"
    assert finish["provider_metadata"]["openai"] == {"finish_reason": "stop", "refusal": True}


async def test_a_refusal_without_streaming_has_the_content_filter_finish_reason(llm_server):
    body = {"id": "chatcmpl-r", "object": "chat.completion", "model": "gpt-test",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant", "content": None, "refusal": REFUSAL}}]}
    llm_server.script(RawReply(json.dumps(body), content_type="application/json"))
    async with llm_server.openai() as model:
        chunks = await model.generate(request())
    assert texts(chunks) == REFUSAL
    assert chunks[-1].payload["finish_reason"] == "content-filter"
    assert chunks[-1].payload["provider_metadata"]["openai"]["refusal"] is True


async def test_an_empty_refusal_field_is_no_refusal(llm_server):
    llm_server.script(Reply(text="Paris."))  # the server sends "refusal": null
    async with llm_server.openai() as model:
        chunks = await collect(model)
    assert chunks[-1].payload["finish_reason"] == "stop"
    assert "refusal" not in chunks[-1].payload["provider_metadata"]["openai"]
