"""The ``openai-responses`` provider against the local server speaking OpenAI's
Responses API (``POST /v1/responses``: its events, its response object, its errors).
What the transport does for every wire format (retries, timeouts, dropped and stalled
streams) is tests/models/test_transport.py's, with this wire among the others."""

from __future__ import annotations

import json

import pytest

from tests.support.fake_llm_server import API_KEY, ErrorReply, FakeToolCall, RawReply, Reply
from tests.support.helpers import collect, request, texts, user
from tripwire import Agent, APICallError, Tool, Usage
from tripwire.config import load_config
from tripwire.models import ModelRequest, OpenAIResponses


async def test_streams_text_deltas_and_one_finish_with_usage(llm_server):
    llm_server.script(Reply(text="Hello, world!", usage=(12, 5)))
    async with llm_server.responses() as model:
        chunks = await collect(model)
    assert texts(chunks) == "Hello, world!"
    assert len([c for c in chunks if c.type == "text-delta"]) > 1
    assert [c.type for c in chunks].count("finish") == 1 and chunks[-1].type == "finish"
    finish = chunks[-1].payload
    assert finish["finish_reason"] == "stop"
    assert finish["usage"] == Usage(12, 5, 17, reasoning_tokens=0, cached_input_tokens=0)
    assert finish["raw_response"]["id"] == "resp_fake123"
    assert finish["provider_metadata"]["openai"]["status"] == "completed"


async def test_request_path_headers_and_body(llm_server):
    llm_server.script(Reply(text="ok"))
    prompt = [{"role": "system", "content": "You are terse."}, user("Hi")]
    async with llm_server.responses(model="gpt-5-mini") as model:
        chunks = await collect(model, request(*prompt, model_settings={
            "max_tokens": 20, "temperature": 0.5}))
    sent = llm_server.requests[0]
    assert sent.path == "/v1/responses"
    assert sent.headers["Authorization"] == f"Bearer {API_KEY}"
    assert sent.body == {
        "model": "gpt-5-mini", "store": False, "stream": True,
        "input": [{"role": "system", "content": "You are terse."},
                  {"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}],
        "max_output_tokens": 20, "temperature": 0.5,
    }
    assert chunks[-1].payload["request"] == sent.body


async def test_a_whole_answer_reads_the_response_object(llm_server):
    llm_server.script(Reply(text="Hello.", reasoning="Think.",
                            tool_calls=[FakeToolCall("call_1", "lookup", {"q": "x"})],
                            usage=(3, 4)))
    async with llm_server.responses() as model:
        chunks = await model.generate(request(user("Hi")))
    assert [c.type for c in chunks] == ["reasoning-delta", "text-delta", "tool-call", "finish"]
    assert chunks[0].payload["text"] == "Think." and chunks[1].payload["text"] == "Hello."
    assert chunks[2].payload["args"] == {"q": "x"}
    assert chunks[-1].payload["finish_reason"] == "tool-calls"
    assert chunks[-1].payload["usage"].total_tokens == 7
    assert "stream" not in llm_server.requests[0].body


async def test_reasoning_and_function_calls_stream_from_their_events(llm_server):
    calls = [FakeToolCall("call_1", "get_weather", {"city": "Oslo"}),
             FakeToolCall("call_2", "get_time", "{\"tz\": \"CET\"}")]
    llm_server.script(Reply(text="Let me see.", reasoning="The user wants two things.",
                            tool_calls=calls, delta_size=3))
    async with llm_server.responses() as model:
        chunks = await collect(model)
    kinds = [c.type for c in chunks]
    assert kinds.index("reasoning-delta") < kinds.index("text-delta") < kinds.index("tool-call")
    assert texts(chunks, "reasoning-delta") == "The user wants two things."
    made = [c.payload for c in chunks if c.type == "tool-call"]
    assert [(c["tool_call_id"], c["tool_name"], c["args"]) for c in made] == [
        ("call_1", "get_weather", {"city": "Oslo"}), ("call_2", "get_time", {"tz": "CET"})]
    assert chunks[-1].payload["finish_reason"] == "tool-calls"


@pytest.mark.parametrize(("finish", "expected"), [
    ("length", "length"), ("content-filter", "content-filter"), ("stop", "stop")])
@pytest.mark.parametrize("stream", [True, False])
async def test_an_incomplete_response_maps_its_reason(llm_server, finish, expected, stream):
    llm_server.script(Reply(text="cut", finish_reason=finish))
    async with llm_server.responses() as model:
        chunks = await (collect(model) if stream else model.generate(request(user("Hi"))))
    assert chunks[-1].payload["finish_reason"] == expected


async def test_tools_tool_choice_and_the_history_go_out_as_items(llm_server):
    llm_server.script(Reply(text="ok"))
    weather = Tool("get_weather", "The weather.", {"type": "object", "properties": {}},
                   lambda: "sunny")
    prompt = [
        user("Weather?"),
        {"role": "assistant", "content": [
            {"type": "text", "text": "Looking."},
            {"type": "reasoning", "text": "hidden"},
            {"type": "tool-call", "tool_call_id": "call_1", "tool_name": "get_weather",
             "input": {"city": "Oslo"}}]},
        {"role": "tool", "content": [{"type": "tool-result", "tool_call_id": "call_1",
                                      "tool_name": "get_weather", "output": "sunny"}]},
    ]
    async with llm_server.responses() as model:
        await collect(model, ModelRequest(prompt=prompt, tools=[weather],
                                          tool_choice={"type": "tool",
                                                       "tool_name": "get_weather"}))
    body = llm_server.requests[0].body
    assert body["input"][1:] == [
        {"role": "assistant", "content": "Looking."},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather",
         "arguments": json.dumps({"city": "Oslo"})},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}]
    assert body["tools"] == [{"type": "function", "name": "get_weather",
                              "description": "The weather.",
                              "parameters": {"type": "object", "properties": {}}}]
    assert body["tool_choice"] == {"type": "function", "name": "get_weather"}


async def test_chat_completions_options_are_sent_in_the_responses_terms(llm_server):
    """``tripwire serve`` passes a client's fields in chat completions' terms: the
    provider sends them as the Responses API names them; stop and seed, which it has
    not, are dropped with a warning on the finish."""
    llm_server.script(Reply(text="{}"))
    schema = {"type": "object", "properties": {}}
    options = {"openai": {"response_format": {"type": "json_schema",
                                              "json_schema": {"name": "x", "schema": schema}},
                          "reasoning_effort": "low", "parallel_tool_calls": False}}
    async with llm_server.responses() as model:
        chunks = await collect(model, ModelRequest(prompt=[user("Hi")], provider_options=options,
                                                   model_settings={"stop": ["END"], "seed": 1}))
    body = llm_server.requests[0].body
    assert body["text"] == {"format": {"type": "json_schema", "name": "x", "schema": schema}}
    assert body["reasoning"] == {"effort": "low"} and body["parallel_tool_calls"] is False
    assert "response_format" not in body and "stop" not in body and "seed" not in body
    assert [w["setting"] for w in chunks[-1].payload["warnings"]] == ["stop", "seed"]


async def test_an_error_status_is_an_api_call_error_with_the_servers_message(llm_server):
    llm_server.script(ErrorReply(400, "Invalid 'input[0]'.", type="invalid_request_error"))
    async with llm_server.responses(max_retries=0) as model:
        with pytest.raises(APICallError) as caught:
            await collect(model)
    assert caught.value.status_code == 400 and not caught.value.is_retryable
    assert "Invalid 'input[0]'." in caught.value.message


@pytest.mark.parametrize("event", [
    {"type": "response.failed", "response": {"id": "r", "status": "failed",
                                             "error": {"code": "server_error",
                                                       "message": "it broke"}}},
    {"type": "error", "code": "server_error", "message": "it broke"},
])
async def test_a_failure_event_in_the_stream_is_an_api_call_error(llm_server, event):
    opening = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in (opening, event))
    llm_server.script(RawReply(body))
    async with llm_server.responses(max_retries=0) as model:
        with pytest.raises(APICallError, match="it broke") as caught:
            await collect(model)
    assert "server_error" in caught.value.message


async def test_a_stream_without_its_last_event_is_truncated(llm_server):
    opening = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}
    llm_server.script(RawReply(f"event: response.created\ndata: {json.dumps(opening)}\n\n"))
    async with llm_server.responses(max_retries=0) as model:
        with pytest.raises(APICallError, match="ended"):
            await collect(model)


async def test_an_agent_runs_its_own_tool_over_the_responses_wire(llm_server):
    def lookup(order: str) -> str:
        return f"order {order}: shipped"

    tool = Tool("lookup", "Look an order up.", {"type": "object", "properties": {
        "order": {"type": "string"}}}, lookup)
    llm_server.script(Reply(tool_calls=[FakeToolCall("c1", "lookup", {"order": "7"})]),
                      Reply(text="It shipped."))
    agent = Agent(id="a", model=llm_server.responses(), tools=[tool])
    result = await agent.generate("Order 7?")
    await agent.aclose()
    assert result.text == "It shipped."
    second = llm_server.requests[1].body["input"]
    assert second[-1] == {"type": "function_call_output", "call_id": "c1",
                          "output": "order 7: shipped"}


def test_a_models_table_uses_openai_responses(tmp_path, monkeypatch):
    monkeypatch.setenv("UPSTREAM_KEY", "k")
    path = tmp_path / "agents.toml"
    path.write_text("""
[agents.support]
model = "models.upstream"

[models.upstream]
use = "openai-responses"
base_url = "http://127.0.0.1:9/v1"
model = "gpt-5-mini"
api_key_env = "UPSTREAM_KEY"
max_retries = 1
""")
    agent = Agent.from_config(load_config(path), "support")
    assert isinstance(agent.model, OpenAIResponses)
    assert agent.model.model_id == "gpt-5-mini" and agent.model.max_retries == 1
