"""Whatever a server sends, a provider raises ``APICallError`` (or, for tool-call
arguments, yields a tool call with ``args_error``; for a token count that is none, reads
the bound): never a bare RecursionError, KeyError, TypeError or ValueError. Also: a 2xx answer that is not what was asked
for (an HTML page, JSON instead of a stream) is reported as such, not retried."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fake_llm_server import API_KEY, ErrorReply, FakeToolCall, RawReply, Reply
from tests.support.helpers import WIRES, collect, request
from tripwire import APICallError
from tripwire.chunks import MAX_TOKEN_COUNT
from tripwire.models import wire as _wire

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000


def sse(*events: str | dict) -> str:
    return "".join(f"data: {e if isinstance(e, str) else json.dumps(e)}\n\n" for e in events)


async def stream_error(server, wire: str, body: str) -> APICallError:
    server.script(RawReply(body))
    async with server.model(wire) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert len(server.requests) == 1  # not retried: the same request would get the same
    return info.value


# ---------------------------------------------------------------- stream events


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("payload", [DEEP, DEEP_OBJECT], ids=["array", "object"])
async def test_event_nested_100k_deep_is_an_api_call_error(llm_server, wire, payload):
    error = await stream_error(llm_server, wire, sse(payload))
    assert "malformed stream event (JSON nested too deeply to parse)" in error.message
    assert not error.is_retryable and error.status_code == 200
    assert len(error.message) < 600  # the event is quoted, not pasted whole


OPENAI_SHAPES = [
    ({"id": "c", "choices": 5}, "choices must be an array or null, got a number"),
    ({"id": "c", "choices": [7]}, "choices[0] must be an object or null, got a number"),
    ({"id": "c", "choices": [{"index": 0, "delta": ["x"]}]}, "choices[0].delta must be an object"),
    ({"id": "c", "choices": [{"index": 0, "delta": {"content": 42}}]}, "choices[0].delta.content must be a string"),
    ({"id": "c", "choices": [{"index": 0, "delta": {"content": {"t": 1}}}]}, "delta.content must be a string"),
    ({"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": {"a": 1}}}]}, "tool_calls must be an array"),
    ({"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [None, 3]}}]}, "tool_calls[1] must be an object"),
    (
        {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": [0], "function": {}}]}}]},
        "tool_calls[0].index must be a non-negative integer",
    ),
    (
        {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": "f"}]}}]},
        "tool_calls[0].function must be an object",
    ),
    ({"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": ["stop"]}]}, "finish_reason must be a string"),
    ({"id": "c", "choices": [], "usage": ["x"]}, "usage must be an object"),
]


@pytest.mark.parametrize(("event", "expected"), OPENAI_SHAPES, ids=[e for _, e in OPENAI_SHAPES])
async def test_openai_event_of_the_wrong_shape_names_the_field(llm_server, event, expected):
    error = await stream_error(llm_server, "openai", sse(event, "[DONE]"))
    assert "openai sent a malformed stream event" in error.message
    assert expected in error.message
    assert error.response_body == json.dumps(event)


@pytest.mark.parametrize("event,expected", OPENAI_SHAPES)
async def test_openai_event_of_the_wrong_shape_after_good_ones_names_the_field(
    llm_server, event, expected,
):
    """Later text deltas are read on a short path; any other shape still goes the
    checked way (and the error quotes the bad event, not the one before it)."""
    good = {"id": "c", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]}
    error = await stream_error(llm_server, "openai", sse(good, good, event, "[DONE]"))
    assert "openai sent a malformed stream event" in error.message
    assert expected in error.message
    assert error.response_body == json.dumps(event)


async def test_openai_text_deltas_of_every_usual_shape_are_read_alike(llm_server):
    """A text delta with a role, logprobs, a service tier, null usage, an unknown key, a
    null or empty content, a refusal, another choice index or a finish reason: read as
    the checked way reads them."""
    first = {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"role": "assistant",
                                                                          "content": ""}}]}
    events = [
        first,
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "a"}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "b"},
                                 "logprobs": None, "finish_reason": None}]},
        {"id": "c", "service_tier": "default", "choices": [{"delta": {"content": "c"}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"content": None}}]},
        {"id": "c", "choices": [{"index": 1, "delta": {"content": "ignored"}}]},
        {"id": "c", "x-unknown": 1, "choices": [{"index": 0, "delta": {"content": "d"}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "e", "refusal": None}}],
         "usage": None},
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "", "refusal": "no"}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "f"},
                                 "finish_reason": "stop"}]},
        {"id": "c", "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 6}},
    ]
    llm_server.script(RawReply(sse(*events, "[DONE]")))
    async with llm_server.model("openai") as model:
        chunks = await collect(model)
    assert "".join(c.payload["text"] for c in chunks if c.type == "text-delta") == "abcdenof"
    finish = chunks[-1]
    assert finish.payload["finish_reason"] == "content-filter"  # a refusal was streamed
    assert (finish.payload["usage"].input_tokens, finish.payload["usage"].output_tokens) == (3, 6)


@pytest.mark.parametrize("count", ["many", float("inf"), float("nan"), -3, True])
async def test_openai_usage_with_counts_that_are_not_numbers(llm_server, count, caplog):
    """No count a call can have used: read as the bound (a budget charges it there and
    trips), logged, and the answer stands."""
    body = sse(
        {"id": "c", "choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": "stop"}]},
        {"id": "c", "choices": [], "usage": {"prompt_tokens": count, "completion_tokens": 1}},
        "[DONE]",
    )
    llm_server.script(RawReply(body))
    async with llm_server.openai() as model:
        chunks = await collect(model)
    assert [c.payload["text"] for c in chunks if c.type == "text-delta"] == ["hi"]
    assert chunks[-1].payload["usage"].input_tokens == MAX_TOKEN_COUNT
    assert f"usage.prompt_tokens is not a token count (a whole number from 0 to {MAX_TOKEN_COUNT})" in caplog.text


def anthropic_stream(*events: dict) -> str:
    start = {"type": "message_start", "message": {"id": "msg_1", "model": "m", "usage": {"input_tokens": 1}}}
    return "".join(f"event: {e.get('type')}\ndata: {json.dumps(e)}\n\n" for e in (start, *events)) + (
        'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )


ANTHROPIC_SHAPES = [
    ({"type": "content_block_delta", "index": 0, "delta": ["x"]}, "delta must be an object"),
    ({"type": "content_block_delta", "index": "0", "delta": {"type": "text_delta", "text": "x"}}, "index must be a"),
    ({"type": "content_block_delta", "index": [0], "delta": {"type": "text_delta"}}, "index must be a"),
    ({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": 5}}, "delta.text must be"),
    ({"type": "content_block_start", "index": 0, "content_block": "text"}, "content_block must be an object"),
    ({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": []}}, "content_block.text"),
    ({"type": "content_block_stop", "index": {"i": 0}}, "index must be a non-negative integer"),
    ({"type": "message_delta", "delta": {"stop_reason": 1}}, "delta.stop_reason must be a string"),
    ({"type": "message_delta", "delta": {}, "usage": [1]}, "usage must be an object"),
]


@pytest.mark.parametrize(("event", "expected"), ANTHROPIC_SHAPES, ids=[e for _, e in ANTHROPIC_SHAPES])
async def test_anthropic_event_of_the_wrong_shape_names_the_field(llm_server, event, expected):
    error = await stream_error(llm_server, "anthropic", anthropic_stream(event))
    assert "anthropic sent a malformed stream event" in error.message
    assert expected in error.message


async def test_anthropic_message_start_that_is_not_an_object(llm_server):
    body = 'event: message_start\ndata: {"type":"message_start","message":[1,2]}\n\n'
    error = await stream_error(llm_server, "anthropic", body)
    assert "message must be an object or null, got an array" in error.message


async def test_anthropic_thinking_delta_for_a_tool_block_does_not_crash(llm_server):
    # A delta whose type does not match its block is ignored for the block.
    events = [
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "f"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hm"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
        {"type": "content_block_stop", "index": 0},
    ]
    llm_server.script(RawReply(anthropic_stream(*events)))
    async with llm_server.anthropic() as model:
        chunks = await collect(model)
    assert [c.type for c in chunks] == ["reasoning-delta", "tool-call", "finish"]


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("payload", ["[1, 2]", '"text"', "null", "12"])
async def test_event_that_is_not_a_json_object(llm_server, wire, payload):
    error = await stream_error(llm_server, wire, sse(payload))
    assert "an event must be a JSON object" in error.message


@pytest.mark.parametrize("wire", WIRES)
async def test_error_event_whose_fields_have_the_wrong_types(llm_server, wire):
    event = (
        {"error": {"message": ["boom"], "type": ["server_error"]}}
        if wire == "openai"
        else {"type": "error", "error": {"message": {"m": 1}, "type": ["overloaded_error"]}}
    )
    error = await stream_error(llm_server, wire, sse(event))
    assert error.message == f"{wire} stream error: {json.dumps(event)}"  # the raw event, as nothing else is usable
    assert error.status_code is None and not error.is_retryable


# ---------------------------------------------------------------- event_object's fast path
# ``event_object`` reads the usual event (an object with nothing around it) with JSON's
# scanner directly and everything else with ``load_json``: the two give the same value
# or the same error.


def event_outcome(data):
    try:
        return "value", _wire.event_object(data)
    except Exception as e:
        return "error", type(e), str(e)


def outcomes(data, monkeypatch):
    """``event_object(data)``'s value or error, with the fast path and without it."""
    fast = event_outcome(data)
    with monkeypatch.context() as m:
        m.setattr(_wire, "_scan_once", lambda s, i: (_ for _ in ()).throw(StopIteration(i)))
        slow = event_outcome(data)
    return fast, slow


@pytest.mark.parametrize("data", [
    '{"a": 1}', '{}', ' {"a": 1}', '{"a": 1} ', '{"a": 1}\n', '{"a": 1}x', '{"a": 1}{"b": 2}',
    '\ufeff{"a": 1}', "[1]", "1", '"text"', "null", "", "{", '{"a": 1', '{"a": NaN}',
    '{"a": Infinity, "b": -Infinity}', '{"a": 1, "a": 2}', '{"a": "x\ny"}', '{"a": "\\ud800"}',
    '{"a": 1e400}', DEEP, DEEP_OBJECT, '{"a": ' + DEEP + "}",
], ids=repr)
def test_event_object_fast_path_gives_what_load_json_gives(data, monkeypatch):
    fast, slow = outcomes(data, monkeypatch)
    assert fast == slow


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values, before=st.sampled_from(["", " ", "\n", "\ufeff"]),
       after=st.sampled_from(["", " ", "\r\n", "x", "}", "{}"]), text=st.text(max_size=30))
def test_event_object_fast_path_equals_load_json_on_any_text(value, before, after, text,
                                                             monkeypatch):
    data = before + json.dumps(value) + after
    assert outcomes(data, monkeypatch)[0] == outcomes(data, monkeypatch)[1]
    assert outcomes(text, monkeypatch)[0] == outcomes(text, monkeypatch)[1]


def test_a_plain_event_is_read_without_load_json(monkeypatch):
    def not_called(*args, **kwargs):
        raise AssertionError("load_json was called for a plain event")

    monkeypatch.setattr(_wire, "load_json", not_called)
    event = {"id": "c1", "choices": [{"index": 0, "delta": {"content": "hé"}}], "n": 1.5}
    assert _wire.event_object(json.dumps(event)) == event


# ---------------------------------------------------------------- tool-call arguments


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("arguments", [DEEP, '{"a":' * 100_000], ids=["deep", "deep-unclosed"])
async def test_tool_arguments_nested_100k_deep_become_an_args_error(llm_server, wire, arguments):
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "f", arguments)], delta_size=4096))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call["args"] == {} and call["raw_args"] == arguments
    assert "arguments are not valid JSON" in call["args_error"]
    assert chunks[-1].type == "finish"


async def test_tool_arguments_deeper_than_the_limit_become_an_args_error(llm_server):
    arguments = '{"a":' * 150 + "1" + "}" * 150  # valid JSON, but absurdly deep
    llm_server.script(Reply(tool_calls=[FakeToolCall("call_1", "f", arguments)]))
    async with llm_server.openai() as model:
        chunks = await collect(model)
    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call["args"] == {} and call["args_error"] == "arguments nest deeper than 100 levels"


async def test_tool_arguments_that_are_a_json_array_become_an_args_error_without_streaming(llm_server):
    body = {
        "id": "msg_1", "type": "message", "model": "m", "stop_reason": "tool_use", "usage": {},
        "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": [1, 2]}],
    }
    llm_server.script(RawReply(json.dumps(body), content_type="application/json"))
    async with llm_server.anthropic() as model:
        chunks = await model.generate(request())
    (call,) = [c.payload for c in chunks if c.type == "tool-call"]
    assert call["args_error"] == "arguments must be a JSON object, got an array"


# ---------------------------------------------------------------- non-streaming bodies


@pytest.mark.parametrize("wire", WIRES)
async def test_response_nested_100k_deep_is_an_api_call_error(llm_server, wire):
    llm_server.script(RawReply(DEEP, content_type="application/json"))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError, match="malformed response \\(JSON nested too deeply"):
            await model.generate(request())


@pytest.mark.parametrize(
    ("wire", "body", "expected"),
    [
        ("openai", {"choices": [7]}, "choices[0] must be an object or null, got a number"),
        ("openai", {"choices": [{"message": {"content": ["a"]}}]}, "choices[0].message.content must be a string"),
        ("openai", {"choices": [{"message": {"tool_calls": [{"function": []}]}}]}, "function must be an object"),
        ("openai", {"choices": []}, "no choices"),
        ("openai", [1], "the response must be a JSON object, got an array"),
        ("openai", {"choices": [{"message": {}}], "usage": 3}, "usage must be an object"),
        ("anthropic", {"content": [3]}, "content[0] must be an object or null, got a number"),
        ("anthropic", {"content": [{"type": "text", "text": 3}]}, "content[0].text must be a string"),
        ("anthropic", {"content": "hi"}, "content must be an array"),
        ("anthropic", {"id": "m"}, "no 'content'"),
    ],
)
async def test_response_of_the_wrong_shape_names_the_field(llm_server, wire, body, expected):
    llm_server.script(RawReply(json.dumps(body), content_type="application/json"))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError) as info:
            await model.generate(request())
    assert f"{wire} sent a malformed response" in info.value.message
    assert expected in info.value.message
    assert not info.value.is_retryable


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("streamed", [True, False], ids=["stream", "generate"])
async def test_a_body_that_is_not_utf8_is_the_same_error_streamed_or_not(
    llm_server, wire, streamed
):
    # stream() said "openai stream is not valid UTF-8" (and quoted nothing); generate()
    # and the docs: "openai sent a response that is not valid utf-8"
    text = (
        b'{"choices": [{"index": 0, "delta": {"content": "\xff\xfe ' + API_KEY.encode() + b'"}}]}'
    )
    if streamed:
        llm_server.script(RawReply(b"data: " + text + b"\n\n"))
    else:
        llm_server.script(RawReply(text, content_type="application/json"))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError) as info:
            await (collect(model) if streamed else model.generate(request()))
    error = info.value
    assert error.message.startswith(
        f"{wire} sent a response that is not valid utf-8: 'utf-8' codec can't decode byte 0xff"
    )
    assert not error.is_retryable and error.status_code == 200 and len(llm_server.requests) == 1
    assert '"content": "\ufffd\ufffd ***"' in error.response_body  # quoted, the key masked
    assert API_KEY not in error.message + error.response_body


@pytest.mark.parametrize("wire", WIRES)
async def test_error_body_nested_100k_deep_keeps_its_status(llm_server, wire):
    llm_server.script(ErrorReply(400, body=DEEP))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert info.value.status_code == 400 and f"{wire} API error 400" in info.value.message


async def test_error_body_in_an_unknown_charset_is_read_as_utf8(llm_server):
    llm_server.script(RawReply("Gateway says no", status=502, content_type="text/plain; charset=bogus-8"))
    async with llm_server.openai(max_retries=0) as model:
        with pytest.raises(APICallError, match="openai API error 502: Gateway says no"):
            await collect(model)


# ---------------------------------------------------------------- answers that are not the API


HTML = "<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head>\n<body>" + "x" * 500


@pytest.mark.parametrize("wire", WIRES)
async def test_html_page_instead_of_a_stream_is_reported_and_not_retried(llm_server, wire):
    llm_server.script(RawReply(HTML, content_type="text/html"), Reply(text="never reached"))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)

    error = info.value
    assert len(llm_server.requests) == 1
    assert (error.status_code, error.is_retryable) == (200, False)
    assert f"{wire} answered HTTP 200 with 'text/html' where an event stream (text/event-stream) was expected" in (
        error.message
    )
    assert "'<!DOCTYPE html> <html><head><title>Welcome to nginx!</title>" in error.message  # one line
    assert "check base_url" in error.message and error.url in error.message
    assert len(error.response_body) <= 200 and "\n" not in error.response_body


async def test_html_page_instead_of_json_is_reported_by_generate(llm_server):
    llm_server.script(RawReply(HTML, content_type="text/html; charset=utf-8"))
    async with llm_server.anthropic() as model:
        with pytest.raises(APICallError, match=r"'text/html; charset=utf-8' where JSON \(application/json\)") as info:
            await model.generate(request())
    assert not info.value.is_retryable and len(llm_server.requests) == 1


async def test_binary_answer_is_quoted_without_control_characters(llm_server):
    llm_server.script(RawReply(b"\x00\x01binary\x7f", content_type="application/octet-stream"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError, match="'application/octet-stream' where an event stream") as info:
            await collect(model)
    assert "'??binary?'" in info.value.message


async def test_json_error_with_status_200_instead_of_a_stream_is_the_providers_error(llm_server):
    body = {"error": {"message": "model 'gpt-x' not found", "type": "invalid_request_error"}}
    llm_server.script(RawReply(json.dumps(body), content_type="application/json"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError, match="openai stream error \\(invalid_request_error\\): model 'gpt-x' not found"):
            await collect(model)
    assert len(llm_server.requests) == 1


async def test_json_completion_instead_of_a_stream_is_reported(llm_server):
    body = {"id": "c", "choices": [{"message": {"content": "hi"}}]}
    llm_server.script(RawReply(json.dumps(body), content_type="application/json"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError, match="'application/json' where an event stream"):
            await collect(model)


async def test_event_stream_instead_of_json_is_reported_by_generate(llm_server):
    llm_server.script(RawReply(sse({"id": "c", "choices": []}), content_type="text/event-stream"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError, match="'text/event-stream' where JSON"):
            await model.generate(request())


# ---------------------------------------------------------------- ids of parts

FREE_TEXT_ID = "mail ann.lee@example.com"


def _free_text_id_body(wire: str, stream: bool) -> RawReply:
    if wire == "openai" and stream:
        return RawReply(sse(
            {"id": FREE_TEXT_ID, "choices": [{"index": 0, "delta": {"reasoning_content": "r"}}]},
            {"id": FREE_TEXT_ID, "choices": [{"index": 0, "delta": {"content": "hi"},
                                               "finish_reason": "stop"}]},
            "[DONE]"))
    if wire == "openai":
        return RawReply(json.dumps({"id": FREE_TEXT_ID, "choices": [{"message": {
            "content": "hi", "reasoning_content": "r"}, "finish_reason": "stop"}]}),
            content_type="application/json")
    if stream:
        events = [
            {"type": "message_start", "message": {"id": FREE_TEXT_ID, "usage": {}}},
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}},
            {"type": "message_stop"},
        ]
        return RawReply("".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events))
    return RawReply(json.dumps({"id": FREE_TEXT_ID, "type": "message", "stop_reason": "end_turn",
                                "content": [{"type": "text", "text": "hi"}], "usage": {}}),
                    content_type="application/json")


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "generate"])
@pytest.mark.parametrize("wire", WIRES)
async def test_a_response_id_of_free_text_is_not_the_id_of_a_part(llm_server, wire, stream):
    """A stream consumer reads the id of each text and reasoning part, and no guard
    checks it: a server's response id becomes one only when it has the shape of an id."""
    llm_server.script(_free_text_id_body(wire, stream))
    async with llm_server.model(wire) as model:
        chunks = await collect(model) if stream else await model.generate(request())
    parts = [c for c in chunks if c.type in ("text-delta", "reasoning-delta")]
    assert "".join(c.payload["text"] for c in parts if c.type == "text-delta") == "hi"
    assert parts and not any("ann.lee" in c.payload["id"] for c in parts)
