"""OpenAI-compatible chat completions against a real local HTTP server."""

from __future__ import annotations

import pytest
from fake_llm_server import API_KEY, FakeToolCall, RawReply, Reply

from tripwire import APICallError, ConfigurationError, Tool, Usage
from tripwire.models import Model, ModelRequest, OpenAICompatible, resolve_model


def user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def request(*prompt: dict, **options) -> ModelRequest:
    return ModelRequest(prompt=list(prompt) or [user("Hi")], **options)


async def collect(model, req: ModelRequest) -> list:
    return [c async for c in model.stream(req)]


def weather_tool() -> Tool:
    return Tool(
        name="get_weather",
        description="Weather for a city",
        parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        execute=lambda city: f"sunny in {city}",
    )


def texts(chunks: list, kind: str = "text-delta") -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == kind)


async def test_streams_text_deltas_and_one_finish_with_usage(llm_server):
    llm_server.script(Reply(text="Hello, world!", usage=(12, 5)))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    assert texts(chunks) == "Hello, world!"
    assert len([c for c in chunks if c.type == "text-delta"]) > 1
    assert [c.type for c in chunks].count("finish") == 1 and chunks[-1].type == "finish"
    finish = chunks[-1].payload
    assert finish["finish_reason"] == "stop"
    assert finish["usage"] == Usage(12, 5, 17, reasoning_tokens=0, cached_input_tokens=0)
    assert finish["raw_response"]["id"] == "chatcmpl-fake123"
    assert finish["provider_metadata"]["openai"]["finish_reason"] == "stop"


async def test_request_body_streams_with_include_usage(llm_server):
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai(model="gpt-5-mini") as model:
        chunks = await collect(model, request(user("Hi")))

    sent = llm_server.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.body == {
        "model": "gpt-5-mini",
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert sent.headers["Authorization"] == f"Bearer {API_KEY}"
    assert chunks[-1].payload["request"] == sent.body


async def test_reasoning_deltas_from_reasoning_content(llm_server):
    llm_server.script(Reply(reasoning="Let me think.", text="42"))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    assert texts(chunks, "reasoning-delta") == "Let me think."
    assert texts(chunks) == "42"
    first_text = next(i for i, c in enumerate(chunks) if c.type == "text-delta")
    assert all(c.type == "reasoning-delta" for c in chunks[:first_text])


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


async def test_parallel_tool_calls_assembled_from_many_argument_deltas(llm_server):
    llm_server.script(
        Reply(
            tool_calls=[
                FakeToolCall("call_1", "get_weather", {"city": "Paris", "units": "celsius"}),
                FakeToolCall("call_2", "get_weather", {"city": "Tokyo"}),
            ],
            delta_size=3,
        )
    )
    async with llm_server.openai() as model:
        chunks = await collect(model, request(tools=[weather_tool()]))

    calls = [c.payload for c in chunks if c.type == "tool-call"]
    assert calls == [
        {"tool_call_id": "call_1", "tool_name": "get_weather", "args": {"city": "Paris", "units": "celsius"}},
        {"tool_call_id": "call_2", "tool_name": "get_weather", "args": {"city": "Tokyo"}},
    ]
    assert chunks[-1].payload["finish_reason"] == "tool-calls"


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


async def test_tool_call_with_invalid_json_arguments_keeps_the_raw_text(llm_server):
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", '{"city": "Par')]))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call["args"] == {}
    assert call["raw_args"] == '{"city": "Par'
    assert "not valid JSON" in call["args_error"]


async def test_tool_call_with_empty_arguments_has_empty_args(llm_server):
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "now", "")]))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())

    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call == {"tool_call_id": "call_1", "tool_name": "now", "args": {}}


@pytest.mark.parametrize(
    ("native", "expected"),
    [
        ("stop", "stop"),
        ("length", "length"),
        ("tool_calls", "tool-calls"),
        ("function_call", "tool-calls"),
        ("content_filter", "content-filter"),
        ("something_new", "other"),
    ],
)
async def test_finish_reasons_are_mapped(llm_server, native, expected):
    llm_server.script(Reply(text="x", finish_reason=native))
    async with llm_server.openai() as model:
        chunks = await collect(model, request())
    assert chunks[-1].payload["finish_reason"] == expected


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


async def test_tools_are_sent_as_functions(llm_server):
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        await collect(model, request(tools=[weather_tool()]))

    assert llm_server.requests[0].body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ]
    assert "tool_choice" not in llm_server.requests[0].body


@pytest.mark.parametrize(
    ("choice", "wire"),
    [
        ("auto", "auto"),
        ("none", "none"),
        ("required", "required"),
        ({"type": "tool", "tool_name": "get_weather"}, {"type": "function", "function": {"name": "get_weather"}}),
    ],
)
async def test_tool_choice_is_mapped(llm_server, choice, wire):
    llm_server.script(Reply(text="ok"))
    async with llm_server.openai() as model:
        await collect(model, request(tools=[weather_tool()], tool_choice=choice))
    assert llm_server.requests[0].body["tool_choice"] == wire


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


async def test_provider_options_are_merged_into_the_body(llm_server):
    llm_server.script(Reply(text="ok"))
    options = {"openai": {"reasoning_effort": "low", "parallel_tool_calls": False}, "anthropic": {"x": 1}}
    async with llm_server.openai() as model:
        await collect(model, request(provider_options=options))

    body = llm_server.requests[0].body
    assert body["reasoning_effort"] == "low" and body["parallel_tool_calls"] is False
    assert "x" not in body


async def test_provider_options_cannot_turn_streaming_off(llm_server):
    async with llm_server.openai() as model:
        with pytest.raises(ConfigurationError, match=r"cannot set \['stream'\]"):
            await collect(model, request(provider_options={"openai": {"stream": False}}))


async def test_generate_returns_the_same_chunk_shapes_without_streaming(llm_server):
    llm_server.script(
        Reply(text="Hello", reasoning="Thinking", tool_calls=[FakeToolCall("call_9", "get_weather", {"city": "Oslo"})])
    )
    async with llm_server.openai() as model:
        chunks = await model.generate(request())

    assert llm_server.requests[0].body.get("stream") is None
    assert [c.type for c in chunks] == ["reasoning-delta", "text-delta", "tool-call", "finish"]
    assert chunks[1].payload["text"] == "Hello"
    assert chunks[2].payload["args"] == {"city": "Oslo"}
    assert chunks[3].payload["finish_reason"] == "tool-calls"
    assert chunks[3].payload["usage"].total_tokens == 18


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


def test_provider_implements_the_model_protocol():
    model = OpenAICompatible(base_url="http://127.0.0.1:1/v1", api_key=None, model="m")
    assert isinstance(model, Model)
    assert (model.provider, model.model_id) == ("openai", "m")


async def test_router_id_reads_key_and_base_url_from_the_environment(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    llm_server.script(Reply(text="from env"))
    async with resolve_model("openai/gpt-env") as model:
        chunks = await collect(model, request())

    assert texts(chunks) == "from env"
    assert llm_server.requests[0].headers["Authorization"] == "Bearer sk-from-env"
    assert llm_server.requests[0].body["model"] == "gpt-env"


async def test_router_id_without_api_key_fails_at_the_first_call(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = resolve_model("openai/gpt-5-mini")
    assert model.base_url == "https://api.openai.com/v1"
    assert model.max_tokens_param == "max_completion_tokens"  # what OpenAI's API wants
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY is not set"):
        await collect(model, request())
    await model.aclose()


async def test_structured_output_becomes_a_json_schema_response_format(llm_server):
    schema = {"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}
    llm_server.script(Reply(text='{"total": 3}'))
    async with llm_server.openai() as model:
        chunks = await collect(model, request(structured_output={"schema": schema, "name": "Invoice total"}))

    assert llm_server.requests[0].body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Invoice_total", "schema": schema, "strict": False},
    }
    assert chunks[-1].payload["warnings"] == []


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
