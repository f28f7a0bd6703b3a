"""What both providers do alike, each test run for the OpenAI chat completions and the
Anthropic Messages wire format against the local server; the expected wire shapes sit
side by side, keyed by format. What only one format has is in test_provider_openai.py
and test_provider_anthropic.py."""

from __future__ import annotations

import asyncio
import gc
import json

import pytest

from tests.support.fake_llm_server import API_KEY, FakeToolCall, Reply
from tests.support.helpers import ALL_WIRES, WIRES, collect, request, texts, user
from tripwire import APICallError, ConfigurationError, Tool, Usage
from tripwire.models import Anthropic, Model, OpenAICompatible, resolve_model

WEATHER_PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}},
                      "required": ["city"]}


def weather_tool() -> Tool:
    return Tool(
        name="get_weather",
        description="Weather for a city",
        parameters=WEATHER_PARAMETERS,
        execute=lambda city: f"sunny in {city}",
    )


TOOLS_ON_THE_WIRE = {
    "openai": [{"type": "function", "function": {"name": "get_weather",
                                                 "description": "Weather for a city",
                                                 "parameters": WEATHER_PARAMETERS}}],
    "anthropic": [{"name": "get_weather", "description": "Weather for a city",
                   "input_schema": WEATHER_PARAMETERS}],
}


# ---------------------------------------------------------------- the stream


@pytest.mark.parametrize("wire", WIRES)
async def test_streams_text_deltas_and_one_finish_with_usage(llm_server, wire):
    llm_server.script(Reply(text="Hello, world!", usage=(12, 5)))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    assert texts(chunks) == "Hello, world!"
    assert len([c for c in chunks if c.type == "text-delta"]) > 1
    assert [c.type for c in chunks].count("finish") == 1 and chunks[-1].type == "finish"
    finish = chunks[-1].payload
    assert finish["finish_reason"] == "stop"
    assert finish["usage"] == {
        "openai": Usage(12, 5, 17, reasoning_tokens=0, cached_input_tokens=0),
        "anthropic": Usage(12, 5, 17, cached_input_tokens=0),
    }[wire]
    assert finish["raw_response"]["id"] == {"openai": "chatcmpl-fake123",
                                            "anthropic": "msg_01FakeXyz"}[wire]
    key, native = {"openai": ("finish_reason", "stop"), "anthropic": ("stop_reason", "end_turn")}[wire]
    assert finish["provider_metadata"][wire][key] == native  # the provider's own word for it


@pytest.mark.parametrize("wire", WIRES)
async def test_request_path_headers_and_body(llm_server, wire):
    llm_server.script(Reply(text="ok"))
    model_id = {"openai": "gpt-5-mini", "anthropic": "claude-sonnet-4-5"}[wire]
    prompt = [{"role": "system", "content": "You are terse."}, user("Hi")]
    async with llm_server.model(wire, model=model_id) as model:
        chunks = await collect(model, request(*prompt))

    sent = llm_server.requests[0]
    assert sent.path == {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}[wire]
    headers = {
        "openai": {"Authorization": f"Bearer {API_KEY}"},
        "anthropic": {"x-api-key": API_KEY, "anthropic-version": "2023-06-01"},
    }[wire]
    for name, value in headers.items():
        assert sent.headers[name] == value
    assert sent.body == {
        "openai": {
            "model": "gpt-5-mini",
            "messages": [{"role": "system", "content": "You are terse."},
                         {"role": "user", "content": "Hi"}],
            "stream": True,
            "stream_options": {"include_usage": True},
        },
        "anthropic": {
            "model": "claude-sonnet-4-5",
            "max_tokens": 4096,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
            "system": [{"type": "text", "text": "You are terse."}],
            "stream": True,
        },
    }[wire]
    assert chunks[-1].payload["request"] == sent.body


@pytest.mark.parametrize("wire", ["openai", "responses", "anthropic"])
async def test_every_call_sends_the_providers_headers_and_none_of_anothers(llm_server, wire):
    """A provider's request headers are built once: each call, streamed or not, sends
    the same ones (the URL's userinfo as basic auth, the extra headers, the wire
    format's own), and what the HTTP client adds to one request (Host, Content-Length)
    is not kept for the next call."""
    llm_server.script(Reply(text="one"), Reply(text="two"), Reply(text="three"))
    root = llm_server.model(wire).base_url.replace("http://", "http://alice:s3cret@")
    async with llm_server.model(wire, base_url=root, api_key=None,
                                headers={"X-Team": "search"}) as model:
        await collect(model)
        await model.generate(request(user("Hi")))
        await collect(model)
        kept = dict(model._request_headers())

    assert len(llm_server.requests) == 3
    for sent in llm_server.requests:
        assert sent.headers["Authorization"] == "Basic YWxpY2U6czNjcmV0"
        assert sent.headers["X-Team"] == "search"
        assert sent.headers["Content-Type"] == "application/json"
        assert int(sent.headers["Content-Length"]) == len(json.dumps(sent.body))
    assert {k.lower() for k in kept} == {"content-type", "accept", "authorization",
                                         "x-team"} | (
        {"anthropic-version"} if wire == "anthropic" else set())


@pytest.mark.parametrize("wire", WIRES)
async def test_reasoning_streams_as_reasoning_deltas_before_the_text(llm_server, wire):
    llm_server.script(Reply(reasoning="Let me think.", text="42"))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    assert texts(chunks, "reasoning-delta") == "Let me think."
    assert texts(chunks) == "42"
    first_text = next(i for i, c in enumerate(chunks) if c.type == "text-delta")
    assert all(c.type == "reasoning-delta" for c in chunks[:first_text])


@pytest.mark.parametrize(
    ("wire", "native", "expected"),
    [
        ("openai", "stop", "stop"),
        ("openai", "length", "length"),
        ("openai", "tool_calls", "tool-calls"),
        ("openai", "function_call", "tool-calls"),
        ("openai", "content_filter", "content-filter"),
        ("openai", "something_new", "other"),
        ("anthropic", "end_turn", "stop"),
        ("anthropic", "stop_sequence", "stop"),
        ("anthropic", "max_tokens", "length"),
        ("anthropic", "tool_use", "tool-calls"),
        ("anthropic", "refusal", "content-filter"),
        ("anthropic", "something_new", "other"),
    ],
)
async def test_finish_reasons_are_mapped(llm_server, wire, native, expected):
    llm_server.script(Reply(text="x", finish_reason=native))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)
    assert chunks[-1].payload["finish_reason"] == expected


# ---------------------------------------------------------------- tool calls


@pytest.mark.parametrize("wire", WIRES)
async def test_parallel_tool_calls_assembled_from_many_argument_deltas(llm_server, wire):
    llm_server.script(
        Reply(
            text="Looking both up.",
            tool_calls=[
                FakeToolCall("call_1", "get_weather", {"city": "Paris", "fields": ["temp", "wind"]}),
                FakeToolCall("call_2", "get_weather", {"city": "Tokyo"}),
            ],
            delta_size=2,
        )
    )
    async with llm_server.model(wire) as model:
        chunks = await collect(model, request(tools=[weather_tool()]))

    calls = [c.payload for c in chunks if c.type == "tool-call"]
    assert calls == [
        {"tool_call_id": "call_1", "tool_name": "get_weather",
         "args": {"city": "Paris", "fields": ["temp", "wind"]}},
        {"tool_call_id": "call_2", "tool_name": "get_weather", "args": {"city": "Tokyo"}},
    ]
    assert chunks[-1].payload["finish_reason"] == "tool-calls"


@pytest.mark.parametrize("wire", WIRES)
async def test_tool_call_with_invalid_json_arguments_keeps_the_raw_text(llm_server, wire):
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", '{"city": "Par')]))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call["args"] == {}
    assert call["raw_args"] == '{"city": "Par'
    assert "not valid JSON" in call["args_error"]


@pytest.mark.parametrize("wire", WIRES)
async def test_tools_are_sent_in_the_wire_format_without_a_tool_choice(llm_server, wire):
    llm_server.script(Reply(text="ok"))
    async with llm_server.model(wire) as model:
        await collect(model, request(tools=[weather_tool()]))

    assert llm_server.requests[0].body["tools"] == TOOLS_ON_THE_WIRE[wire]
    assert "tool_choice" not in llm_server.requests[0].body


@pytest.mark.parametrize(
    ("wire", "choice", "expected"),
    [
        ("openai", "auto", "auto"),
        ("openai", "none", "none"),
        ("openai", "required", "required"),
        ("openai", {"type": "tool", "tool_name": "get_weather"},
         {"type": "function", "function": {"name": "get_weather"}}),
        ("anthropic", "auto", {"type": "auto"}),
        ("anthropic", "none", {"type": "none"}),
        ("anthropic", "required", {"type": "any"}),
        ("anthropic", {"type": "tool", "tool_name": "get_weather"},
         {"type": "tool", "name": "get_weather"}),
    ],
)
async def test_tool_choice_is_mapped(llm_server, wire, choice, expected):
    llm_server.script(Reply(text="ok"))
    async with llm_server.model(wire) as model:
        await collect(model, request(tools=[weather_tool()], tool_choice=choice))

    body = llm_server.requests[0].body
    assert body["tool_choice"] == expected
    assert body["tools"] == TOOLS_ON_THE_WIRE[wire]


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("wire", WIRES)
async def test_provider_options_are_merged_for_their_own_provider_only(llm_server, wire):
    llm_server.script(Reply(text="ok"))
    options = {
        "openai": {"reasoning_effort": "low", "parallel_tool_calls": False},
        "anthropic": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    }
    async with llm_server.model(wire) as model:
        await collect(model, request(provider_options=options))

    body = llm_server.requests[0].body
    other = next(w for w in WIRES if w != wire)
    assert {key: body.get(key) for key in options[wire]} == options[wire]
    assert not set(options[other]) & set(body)


@pytest.mark.parametrize("wire", WIRES)
async def test_structured_output_is_sent_as_the_formats_json_schema(llm_server, wire):
    schema = {"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}
    llm_server.script(Reply(text='{"total": 3}'))
    async with llm_server.model(wire) as model:
        chunks = await collect(model, request(structured_output={"schema": schema,
                                                                 "name": "Invoice total"}))

    body = llm_server.requests[0].body
    if wire == "openai":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "Invoice_total", "schema": schema, "strict": False},
        }
    else:
        assert body["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    assert chunks[-1].payload["warnings"] == []


# ---------------------------------------------------------------- without streaming


@pytest.mark.parametrize("wire", WIRES)
async def test_generate_returns_the_same_chunk_shapes_without_streaming(llm_server, wire):
    llm_server.script(
        Reply(text="Hello", reasoning="Thinking",
              tool_calls=[FakeToolCall("call_9", "get_weather", {"city": "Oslo"})])
    )
    async with llm_server.model(wire) as model:
        chunks = await model.generate(request())

    assert "stream" not in llm_server.requests[0].body
    assert [c.type for c in chunks] == {
        "openai": ["reasoning-delta", "text-delta", "tool-call", "finish"],
        # the second reasoning delta carries the thinking block's signature
        "anthropic": ["reasoning-delta", "reasoning-delta", "text-delta", "tool-call", "finish"],
    }[wire]
    assert texts(chunks, "reasoning-delta") == "Thinking"
    assert texts(chunks) == "Hello"
    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call == {"tool_call_id": "call_9", "tool_name": "get_weather", "args": {"city": "Oslo"}}
    assert chunks[-1].payload["finish_reason"] == "tool-calls"
    assert chunks[-1].payload["usage"].total_tokens == 18


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_every_chunk_carries_the_requests_run_id(llm_server, wire):
    """What the run hands on as it is (a chunk without the run's id is copied)."""
    reply = Reply(text="Hello there", reasoning="Thinking",
                  tool_calls=[FakeToolCall("call_9", "get_weather", {"city": "Oslo"})])
    llm_server.script(reply, reply)
    async with llm_server.model(wire) as model:
        streamed = await collect(model, request(run_id="run-7"))
        whole = await model.generate(request(run_id="run-7"))

    for chunks in (streamed, whole):
        assert {"text-delta", "reasoning-delta", "tool-call", "finish"} <= {c.type for c in chunks}
        assert {c.run_id for c in chunks} == {"run-7"}
    llm_server.script(Reply(text="Hi"))
    async with llm_server.model(wire) as model:
        assert {c.run_id for c in await collect(model)} == {None}  # a call outside a run


# ---------------------------------------------------------------- construction


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        pytest.param(lambda: OpenAICompatible(base_url="http://127.0.0.1:1/v1", api_key=None,
                                              model="m"),
                     ("openai", "m", "http://127.0.0.1:1/v1"), id="openai"),
        pytest.param(lambda: Anthropic(model="claude-x", api_key="k"),
                     ("anthropic", "claude-x", "https://api.anthropic.com"), id="anthropic"),
    ],
)
def test_provider_implements_the_model_protocol(make, expected):
    model = make()
    assert isinstance(model, Model)
    assert (model.provider, model.model_id, model.base_url) == expected


ENVIRONMENT = {  # wire: (key variable, base URL variable, model id)
    "openai": ("OPENAI_API_KEY", "OPENAI_BASE_URL", "gpt-env"),
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "claude-env"),
}


@pytest.mark.parametrize("wire", WIRES)
async def test_router_id_reads_key_and_base_url_from_the_environment(llm_server, monkeypatch,
                                                                      wire):
    key_var, url_var, model_id = ENVIRONMENT[wire]
    monkeypatch.setenv(url_var, {"openai": llm_server.openai_base_url,
                                 "anthropic": llm_server.url}[wire])
    monkeypatch.setenv(key_var, "sk-from-env")
    llm_server.script(Reply(text="from env"))
    async with resolve_model(f"{wire}/{model_id}") as model:
        chunks = await collect(model)

    assert texts(chunks) == "from env"
    sent = llm_server.requests[0]
    if wire == "openai":
        assert sent.headers["Authorization"] == "Bearer sk-from-env"
    else:
        assert sent.headers["x-api-key"] == "sk-from-env"
    assert sent.body["model"] == model_id


@pytest.mark.parametrize("wire", WIRES)
async def test_router_id_without_api_key_fails_at_the_first_call(monkeypatch, wire):
    key_var, url_var, _ = ENVIRONMENT[wire]
    monkeypatch.delenv(key_var, raising=False)
    monkeypatch.delenv(url_var, raising=False)
    model = resolve_model({"openai": "openai/gpt-5-mini",
                           "anthropic": "anthropic/claude-sonnet-4-5"}[wire])
    assert model.base_url == {"openai": "https://api.openai.com/v1",
                              "anthropic": "https://api.anthropic.com"}[wire]
    with pytest.raises(ConfigurationError, match=f"{key_var} is not set"):
        await collect(model)
    await model.aclose()


# ---------------------------------------------------------------- a 404 from base_url


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("wire", "wrong", "fixed"), [
    ("openai", "", "/v1"),                 # the server serves /v1/chat/completions
    ("anthropic", "/v1", ""),              # tripwire adds /v1/messages itself
])
async def test_a_404_names_the_url_and_where_the_api_usually_is(llm_server, wire, wrong,
                                                                fixed, stream):
    root = llm_server.url.replace("http://", "http://user:hunter2@")
    base_url = f"{root}{wrong}"
    if wire == "openai":
        model = OpenAICompatible(base_url=base_url, api_key=None, model="m", max_retries=0)
        path = "/chat/completions"
    else:
        model = Anthropic(base_url=base_url, api_key=API_KEY, model="c", max_retries=0)
        path = "/v1/messages"
    shown = llm_server.url.replace("http://", "http://user:***@")
    async with model:
        with pytest.raises(APICallError) as caught:
            if stream:
                await collect(model)
            else:
                await model.generate(request(user("Hi")))
    message = caught.value.message
    assert caught.value.status_code == 404
    assert f"POST {shown}{wrong}{path} answered 404 Not Found" in message
    assert f"try base_url={shown + fixed!r}" in message
    assert "hunter2" not in message and API_KEY not in message


@pytest.mark.parametrize("wire", WIRES)
async def test_a_404_from_a_base_url_that_looks_right_names_the_url_without_a_hint(
        llm_server, wire):
    base_url = {"openai": f"{llm_server.url}/v2", "anthropic": f"{llm_server.url}/api"}[wire]
    path = {"openai": "/chat/completions", "anthropic": "/v1/messages"}[wire]
    async with llm_server.model(wire, base_url=base_url, max_retries=0) as model:
        with pytest.raises(APICallError) as caught:
            await model.generate(request(user("Hi")))
    assert caught.value.message.endswith(f"(POST {base_url}{path} answered 404 Not Found)")


def test_a_url_is_shown_without_its_query_or_fragment():
    from tripwire.models._errors import shown_url

    assert shown_url("https://u:***@host/v1/chat/completions?key=abc#frag") == (
        "https://u:***@host/v1/chat/completions")


# ---------------------------------------------------------------- background reads


@pytest.mark.parametrize("wire", WIRES)
async def test_closing_a_model_while_the_end_of_a_body_is_read_leaves_no_task_error(
        llm_server, wire):
    """A stream's parser stops at its last event; the end of the body comes later and
    is read in the background. A model closed meanwhile (``async with`` per run) ends
    that read: nothing is left for the event loop to report."""
    reported: list[dict] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    try:
        for _ in range(3):
            llm_server.script(Reply(text="Hello, world!", end_delay=0.2))
            async with llm_server.model(wire) as model:
                assert texts(await collect(model)) == "Hello, world!"
            await asyncio.sleep(0)
        gc.collect()  # a task's unretrieved exception is reported when it is collected
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert reported == []


@pytest.mark.parametrize("wire", WIRES)
async def test_the_end_of_a_body_read_in_the_background_gives_the_connection_back(
        llm_server, wire):
    llm_server.script(Reply(text="one", end_delay=0.05), Reply(text="two"))
    async with llm_server.model(wire) as model:
        assert texts(await collect(model)) == "one"
        await asyncio.sleep(0.2)  # the end of the first body has come
        assert texts(await collect(model)) == "two"
    assert llm_server.requests[0].peer == llm_server.requests[1].peer  # one connection


# ---------------------------------------------------------------- surrogates


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [False, True])
async def test_every_chunk_a_provider_yields_is_valid_unicode(llm_server, wire, stream):
    """Surrogate halves a server cuts an emoji into, in two events, are joined; a half
    alone becomes U+FFFD: in text, reasoning and tool-call arguments alike."""
    emoji = "\U0001F600"
    llm_server.script(Reply(text=f"a{emoji}b\ud800", reasoning=f"r{emoji}\udc00",
                            tool_calls=[FakeToolCall("call_1", "f", f'{{"q": "{emoji}"}}'),
                                        FakeToolCall("call_2", "g", {"q": "\ud800"})],
                            delta_size=1, code_units=True))
    async with llm_server.model(wire) as model:
        chunks = await collect(model) if stream else await model.generate(request(user("Hi")))
    assert texts(chunks) == f"a{emoji}b\ufffd"
    assert texts(chunks, "reasoning-delta") == f"r{emoji}\ufffd"
    calls = [c.payload["args"] for c in chunks if c.type == "tool-call"]
    assert calls == [{"q": emoji}, {"q": "\ufffd"}]
    for chunk in chunks:
        if chunk.type != "finish":
            json.dumps(chunk.payload, ensure_ascii=False).encode("utf-8")  # no surrogate
