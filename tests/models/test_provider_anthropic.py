"""Anthropic Messages API against a real local HTTP server: what only this wire
format has (what both providers do alike is in test_providers.py)."""

from __future__ import annotations

import pytest

from tests.support.fake_llm_server import (
    PREFILL_ERROR_MESSAGE,
    ErrorReply,
    FakeToolCall,
    RawReply,
    Reply,
)
from tests.support.helpers import collect, request, texts, user
from tripwire import APICallError, ConfigurationError, Usage


def assistant(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


async def test_thinking_keeps_its_signature(llm_server):
    # (that it streams as reasoning deltas is in test_providers.py, for both formats)
    llm_server.script(Reply(reasoning="Consider the options.", text="B"))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request())

    thinking = chunks[-1].payload["provider_metadata"]["anthropic"]["thinking"]
    assert thinking == [
        {"type": "thinking", "text": "Consider the options.", "signature": "EqQBCkYIARgCKkA-fake-signature"}
    ]


async def test_prompt_maps_to_messages_with_hoisted_system_and_merged_turns(llm_server):
    prompt = [
        {"role": "system", "content": "Rule one."},
        user("Find customer 7"),
        {
            "role": "assistant",
            "content": [
                {"type": "reasoning", "text": "I should look it up.", "signature": "sig-1"},
                {"type": "text", "text": ""},
                {"type": "tool-call", "tool_call_id": "toolu_1", "tool_name": "lookup", "input": {"id": "7"}},
            ],
        },
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "tool_call_id": "toolu_1", "tool_name": "lookup", "output": {"name": "Ada"}},
            ],
        },
        user("<system-reminder>be kind</system-reminder>"),
        {"role": "system", "content": "Rule two."},
        assistant("Ada it is."),
        assistant("Anything else?"),
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "A photo:"},
                {"type": "file", "data": "iVBORw0KGgo=", "media_type": "image/png"},
            ],
        },
    ]
    llm_server.script(Reply(text="ok"))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request(*prompt))

    body = llm_server.requests[0].body
    assert body["system"] == [{"type": "text", "text": "Rule one."}, {"type": "text", "text": "Rule two."}]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Find customer 7"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I should look it up.", "signature": "sig-1"},
                {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"id": "7"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": '{"name": "Ada"}'},
                {"type": "text", "text": "<system-reminder>be kind</system-reminder>"},
            ],
        },
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Ada it is."}, {"type": "text", "text": "Anything else?"}],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "A photo:"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            ],
        },
    ]
    assert chunks[-1].payload["warnings"] == []


async def test_tool_error_results_are_marked(llm_server):
    prompt = [
        user("Go"),
        {"role": "assistant", "content": [{"type": "tool-call", "tool_call_id": "t", "tool_name": "lookup", "input": {}}]},
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "tool_call_id": "t", "tool_name": "lookup", "output": "KeyError: 7", "is_error": True}
            ],
        },
    ]
    llm_server.script(Reply(text="ok"))
    async with llm_server.anthropic() as model:
        await collect(model, request(*prompt))

    assert llm_server.requests[0].body["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t", "content": "KeyError: 7", "is_error": True}
    ]


async def test_reasoning_without_signature_is_dropped_with_a_warning(llm_server):
    prompt = [
        user("Q"),
        {"role": "assistant", "content": [{"type": "reasoning", "text": "hmm"}, {"type": "text", "text": "A"}]},
        user("Q2"),
    ]
    llm_server.script(Reply(text="ok"))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request(*prompt))

    assert llm_server.requests[0].body["messages"][1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "A"}],
    }
    (warning,) = chunks[-1].payload["warnings"]
    assert "signature" in warning["message"]


async def test_model_settings_map_and_seed_is_reported_as_unsupported(llm_server):
    llm_server.script(Reply(text="ok"))
    settings = {"temperature": 0.5, "max_tokens": 100, "top_p": 0.8, "stop": ["###"], "seed": 1}
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request(model_settings=settings))

    body = llm_server.requests[0].body
    assert (body["temperature"], body["max_tokens"], body["top_p"], body["stop_sequences"]) == (
        0.5, 100, 0.8, ["###"],
    )
    assert "seed" not in body and "stop" not in body
    assert chunks[-1].payload["warnings"] == [
        {"type": "unsupported-setting", "setting": "seed", "details": "the Anthropic Messages API has no seed"}
    ]


async def test_recorded_stream_from_the_api_reference(llm_server):
    # The documented example stream, verbatim (ping included, extra unknown fields).
    body = """event: message_start
data: {"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-4-6", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}

event: content_block_start
data: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}

event: content_block_stop
data: {"type": "content_block_stop", "index": 0}

event: message_delta
data: {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}

event: message_stop
data: {"type": "message_stop"}

"""
    llm_server.script(RawReply(body))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request())

    assert texts(chunks) == "Hello!"
    assert {c.payload["id"] for c in chunks if c.type == "text-delta"} == {"msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY:0"}
    assert chunks[-1].payload["usage"] == Usage(25, 15, 40)


async def test_cache_tokens_count_as_input(llm_server):
    body = (
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":'
        '{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":1}}}\n\n'
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}\n\n'
        'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    llm_server.script(RawReply(body))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request())

    assert chunks[-1].payload["usage"] == Usage(1110, 5, 1115, cached_input_tokens=1000)
    assert chunks[-1].payload["provider_metadata"]["anthropic"]["usage"]["cache_read_input_tokens"] == 1000


async def test_error_event_after_output_raises_with_the_documented_status(llm_server):
    llm_server.script(Reply(text="Some text here", error_after=5))
    async with llm_server.anthropic() as model:
        seen = []
        with pytest.raises(APICallError) as info:
            async for c in model.stream(request()):
                seen.append(c)

    assert texts(seen)  # output had started, so the transport did not retry
    assert info.value.status_code == 529 and info.value.is_retryable
    assert "overloaded_error" in info.value.message
    assert len(llm_server.requests) == 1


async def test_error_event_before_any_output_is_retried_by_the_transport(llm_server):
    llm_server.script(Reply(text="never seen", error_after=1), Reply(text="second try"))
    async with llm_server.anthropic() as model:
        chunks = await collect(model, request())

    assert texts(chunks) == "second try"
    assert len(llm_server.requests) == 2


async def test_prefill_rejection_becomes_a_non_retryable_api_call_error(llm_server):
    llm_server.script(ErrorReply(400, PREFILL_ERROR_MESSAGE))
    async with llm_server.anthropic() as model:
        with pytest.raises(APICallError) as info:
            await collect(model, request(user("Hi"), assistant("Sure,")))

    error = info.value
    assert error.status_code == 400 and not error.is_retryable
    assert PREFILL_ERROR_MESSAGE in error.message
    assert "invalid_request_error" in error.response_body
    assert error.url == f"{llm_server.url}/v1/messages"
    assert len(llm_server.requests) == 1


async def test_generate_keeps_the_thinking_signature_as_streaming_does(llm_server):
    # (the chunk shapes both formats share are in test_providers.py)
    llm_server.script(
        Reply(text="Done.", reasoning="Plan", tool_calls=[FakeToolCall("toolu_9", "lookup", {"id": "9"})])
    )
    async with llm_server.anthropic() as model:
        chunks = await model.generate(request())

    assert [c.type for c in chunks] == [
        "reasoning-delta", "reasoning-delta", "text-delta", "tool-call", "finish"]
    assert chunks[1].payload["provider_metadata"] == {
        "anthropic": {"signature": "EqQBCkYIARgCKkA-fake-signature"}}
    assert chunks[4].payload["provider_metadata"]["anthropic"]["thinking"][0]["signature"]


async def test_bad_structured_output_is_a_clear_error(llm_server):
    async with llm_server.anthropic() as model:
        with pytest.raises(ConfigurationError, match="structured_output must be"):
            await collect(model, request(structured_output="json please"))
