"""OpenAI's Responses API through ``tripwire serve``: the official ``openai`` client
(``client.responses.create``, streamed and not, tools, ``previous_response_id``) against
the gateway on loopback, its agents against tests/support/fake_llm_server.py over HTTP.
Stored responses live in the agent's memory store, per tenant."""

from __future__ import annotations

import json
import logging
from typing import Any

import aiohttp
import openai
import pytest

from tests.serve.test_serve import KEY, BlockWord, Recorder, client, keyed, make_agent, serving
from tests.support.fake_llm_server import ErrorReply, FakeLLMServer, FakeToolCall, Reply
from tripwire import Agent, Memory, tool
from tripwire.serve import Gateway
from tripwire.serve._keys import ApiKey, digest

OTHER_KEY = "tw-other-key-9876543210"


@pytest.fixture
async def upstream():
    async with FakeLLMServer() as server:
        yield server


def remembering(server: FakeLLMServer, id: str = "support", **kwargs: Any) -> Agent:
    """An agent with memory (an in-process store), whose responses are stored."""
    return make_agent(server, id, memory=Memory(store="memory://"), **kwargs)


def tenants() -> Any:
    return keyed(ApiKey("a", digest(KEY), "tenant-a"), ApiKey("b", digest(OTHER_KEY), "tenant-b"))


async def events(url: str, body: dict[str, Any], key: str = KEY) -> list[dict[str, Any]]:
    """The data of each server-sent event of a streamed response, checked against its
    ``event:`` line."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{url}/v1/responses", json={**body, "stream": True},
            headers={"Authorization": f"Bearer {key}"}) as r:
        assert r.status == 200, await r.text()
        assert r.headers["Content-Type"].startswith("text/event-stream")
        text = await r.text()
    out = []
    for block in text.split("\n\n"):
        if not block:
            continue
        kind, data = block.split("\n")
        assert kind.startswith("event: ") and data.startswith("data: ")
        event = json.loads(data[6:])
        assert event["type"] == kind[7:]
        out.append(event)
    return out


def said(request: Any) -> list[tuple[str, str]]:
    """The (role, text) of an upstream chat request's messages (tool calls as
    ``call:NAME``, results as ``result:TEXT``)."""
    out = []
    for m in request.body["messages"]:
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content)
        if m.get("tool_calls"):
            content = ",".join(f"call:{c['function']['name']}" for c in m["tool_calls"])
        if m["role"] == "tool":
            content = f"result:{content}"
        out.append((m["role"], content or ""))
    return out


# ---------------------------------------------------------------- the response


async def test_a_response_has_the_responses_shape_text_usage_and_status(upstream):
    upstream.script(Reply(text="Hello there, friend.", usage=(12, 5)))
    async with serving([make_agent(upstream)]) as url:
        response = await client(url).responses.create(model="support", input="Hi")
    assert response.object == "response" and response.id.startswith("resp_")
    assert response.status == "completed" and response.model == "support"
    assert response.output_text == "Hello there, friend."
    [message] = response.output
    assert message.type == "message" and message.role == "assistant"
    assert message.content[0].type == "output_text"
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens,
            response.usage.total_tokens) == (12, 5, 17)
    assert response.store is False  # the agent has no memory
    assert said(upstream.requests[0]) == [("user", "Hi")]


async def test_a_streamed_response_is_the_event_sequence_clients_parse(upstream):
    upstream.script(Reply(text="Hello there, friend."))
    async with serving([make_agent(upstream)]) as url:
        seen = await events(url, {"model": "support", "input": "Hi"})
    kinds = [e["type"] for e in seen]
    assert kinds[:5] == ["response.created", "response.in_progress",
                         "response.output_item.added", "response.content_part.added",
                         "response.output_text.delta"]
    assert kinds[-4:] == ["response.output_text.done", "response.content_part.done",
                          "response.output_item.done", "response.completed"]
    assert [e["sequence_number"] for e in seen] == list(range(len(seen)))
    deltas = "".join(e["delta"] for e in seen if e["type"] == "response.output_text.delta")
    assert deltas == "Hello there, friend."
    done = seen[-1]["response"]
    assert done["status"] == "completed"
    assert done["output"][0]["content"][0]["text"] == "Hello there, friend."
    assert seen[0]["response"]["status"] == "in_progress"


async def test_the_official_client_streams_a_response(upstream):
    upstream.script(Reply(text="One two three."), Reply(text="Four."))
    async with serving([make_agent(upstream)]) as url:
        api = client(url)
        deltas = []
        async for event in await api.responses.create(model="support", input="Hi",
                                                      stream=True):
            if event.type == "response.output_text.delta":
                deltas.append(event.delta)
            final = event
        async with api.responses.stream(model="support", input="Hi") as stream:
            async for _ in stream:
                pass
            whole = await stream.get_final_response()
    assert "".join(deltas) == "One two three."
    assert final.type == "response.completed" and final.response.output_text == "One two three."
    assert whole.output_text == "Four."


async def test_instructions_are_the_clients_system_message_after_the_agents(upstream):
    upstream.script(Reply(text="ok"))
    agent = make_agent(upstream, instructions="You are the support agent.")
    async with serving([agent]) as url:
        await client(url).responses.create(
            model="support", instructions="Answer briefly.",
            input=[{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}],
            max_output_tokens=50, temperature=0.2, metadata={"ticket": "T-1"})
    sent = upstream.requests[0].body
    assert said(upstream.requests[0]) == [("system", "You are the support agent."),
                                          ("system", "Answer briefly."), ("user", "Hi")]
    assert sent["max_tokens"] == 50 and sent["temperature"] == 0.2
    assert "metadata" not in sent


async def test_the_response_repeats_metadata_and_settings_but_no_checked_text(upstream):
    upstream.script(Reply(text="ok"))
    async with serving([make_agent(upstream)]) as url:
        response = await client(url).responses.create(
            model="support", input="Hi", instructions="secret instructions",
            metadata={"ticket": "T-1"}, temperature=0.5,
            tools=[{"type": "function", "name": "lookup", "description": "private words",
                    "parameters": {"type": "object", "properties": {}}}])
    assert response.metadata == {"ticket": "T-1"} and response.temperature == 0.5
    assert response.instructions is None
    assert [t.name for t in response.tools] == ["lookup"]
    assert "private words" not in response.model_dump_json()


async def test_text_format_is_sent_as_the_upstreams_response_format(upstream):
    upstream.script(Reply(text='{"a": 1}'))
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    async with serving([make_agent(upstream)]) as url:
        response = await client(url).responses.create(
            model="support", input="Hi",
            text={"format": {"type": "json_schema", "name": "thing", "schema": schema}},
            reasoning={"effort": "low"}, parallel_tool_calls=False)
    sent = upstream.requests[0].body
    assert sent["response_format"] == {"type": "json_schema",
                                       "json_schema": {"name": "thing", "schema": schema}}
    assert sent["reasoning_effort"] == "low" and sent["parallel_tool_calls"] is False
    assert response.text.format.type == "json_schema"


@pytest.mark.parametrize(("field", "value", "param"), [
    ("frobnicate", 1, "frobnicate"),
    ("include", ["reasoning.encrypted_content"], "include"),
    ("truncation", "auto", "truncation"),
    ("tools", [{"type": "web_search"}], "tools[0].type"),
    ("text", {"format": {"type": "json_schema", "name": "x", "schema": {}},
              "verbosity": "low"}, "text.verbosity"),
    ("reasoning", {"effort": "low", "summary": "auto"}, "reasoning.summary"),
    ("input", [{"type": "item_reference", "id": "x"}], "input[0].type"),
    ("input", [{"role": "user", "content": [{"type": "input_file", "file_id": "f"}]}],
     "input[0].content[0].type"),
    ("input", [{"type": "function_call_output", "call_id": "c1", "output": "x"}], "input"),
    ("metadata", {"k": 1}, "metadata"),
])
async def test_a_field_the_gateway_does_not_take_is_a_400_naming_it(upstream, field, value, param):
    async with serving([make_agent(upstream)]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).responses.create(model="support", input="Hi",
                                               extra_body={field: value})
    assert caught.value.status_code == 400
    assert caught.value.body["param"] == param
    assert param.split("[")[0].split(".")[0] in caught.value.body["message"]
    assert upstream.requests == []


# ---------------------------------------------------------------- tools


TOOLS = [{"type": "function", "name": "get_weather", "description": "The weather in a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]


async def test_a_client_tool_call_is_a_function_call_item_and_its_output_goes_back(upstream):
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Oslo"})]),
                    Reply(text="It is sunny."))
    async with serving([make_agent(upstream)]) as url:
        api = client(url)
        first = await api.responses.create(model="support", input="Weather in Oslo?",
                                           tools=TOOLS)
        [call] = first.output
        assert call.type == "function_call" and call.name == "get_weather"
        assert json.loads(call.arguments) == {"city": "Oslo"} and call.call_id == "call_1"
        second = await api.responses.create(model="support", tools=TOOLS, input=[
            {"role": "user", "content": "Weather in Oslo?"},
            call.model_dump(exclude_none=True),
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}])
    assert second.output_text == "It is sunny."
    assert said(upstream.requests[1]) == [("user", "Weather in Oslo?"),
                                          ("assistant", "call:get_weather"),
                                          ("tool", "result:sunny")]


async def test_a_streamed_function_call_has_its_argument_events(upstream):
    upstream.script(Reply(text="Let me look.",
                          tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Oslo"})]))
    async with serving([make_agent(upstream)]) as url:
        seen = await events(url, {"model": "support", "input": "Weather?", "tools": TOOLS})
    kinds = [e["type"] for e in seen]
    start = kinds.index("response.function_call_arguments.delta")
    assert kinds[start - 1] == "response.output_item.added"
    assert kinds[start + 1:start + 3] == ["response.function_call_arguments.done",
                                          "response.output_item.done"]
    assert kinds.index("response.output_text.done") < start  # the text item closed first
    final = seen[-1]["response"]
    assert [item["type"] for item in final["output"]] == ["message", "function_call"]
    assert json.loads(seen[start + 1]["arguments"]) == {"city": "Oslo"}


# ---------------------------------------------------------------- stored responses


async def test_previous_response_id_continues_a_stored_conversation(upstream):
    upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        first = await api.responses.create(model="support", input="I am Ann.")
        assert first.store is True
        second = await api.responses.create(model="support", input="Who am I?",
                                            previous_response_id=first.id)
    assert second.previous_response_id == first.id
    assert said(upstream.requests[1]) == [("user", "I am Ann."), ("assistant", "Hello Ann."),
                                          ("user", "Who am I?")]


async def test_a_streamed_response_is_stored_before_its_last_event(upstream):
    upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        async for event in await api.responses.create(model="support", input="I am Ann.",
                                                      stream=True):
            if event.type == "response.completed":
                # continued while the first stream is still open
                await api.responses.create(model="support", input="Who am I?",
                                           previous_response_id=event.response.id)
    assert said(upstream.requests[1])[:2] == [("user", "I am Ann."), ("assistant", "Hello Ann.")]


async def test_a_function_call_output_answers_the_previous_responses_call(upstream):
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Oslo"})]),
                    Reply(text="It is sunny."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        first = await api.responses.create(model="support", input="Weather in Oslo?",
                                           tools=TOOLS)
        second = await api.responses.create(
            model="support", tools=TOOLS, previous_response_id=first.id,
            input=[{"type": "function_call_output", "call_id": "call_1", "output": "sunny"}])
        with pytest.raises(openai.BadRequestError) as caught:
            await api.responses.create(
                model="support", tools=TOOLS, previous_response_id=first.id,
                input=[{"type": "function_call_output", "call_id": "call_9", "output": "x"}])
    assert second.output_text == "It is sunny."
    assert said(upstream.requests[1]) == [("user", "Weather in Oslo?"),
                                          ("assistant", "call:get_weather"),
                                          ("tool", "result:sunny")]
    assert "call_9" in caught.value.body["message"]


async def test_two_responses_continuing_one_branch_apart(upstream):
    upstream.script(Reply(text="A."), Reply(text="B."), Reply(text="C."), Reply(text="D."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        root = await api.responses.create(model="support", input="root")
        left = await api.responses.create(model="support", input="left",
                                          previous_response_id=root.id)
        await api.responses.create(model="support", input="right", previous_response_id=root.id)
        await api.responses.create(model="support", input="after left",
                                   previous_response_id=left.id)
    assert said(upstream.requests[2]) == [("user", "root"), ("assistant", "A."), ("user", "right")]
    assert said(upstream.requests[3]) == [("user", "root"), ("assistant", "A."),
                                          ("user", "left"), ("assistant", "B."),
                                          ("user", "after left")]


async def test_get_and_delete_a_stored_response(upstream):
    upstream.script(Reply(text="Hello."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        made = await api.responses.create(model="support", input="Hi", metadata={"k": "v"})
        got = await api.responses.retrieve(made.id)
        assert got.id == made.id and got.output_text == "Hello." and got.metadata == {"k": "v"}
        assert got.status == "completed"
        await api.responses.delete(made.id)
        with pytest.raises(openai.NotFoundError):
            await api.responses.retrieve(made.id)
        with pytest.raises(openai.NotFoundError):
            await api.responses.create(model="support", input="again",
                                       previous_response_id=made.id)


async def test_another_tenants_response_is_a_404(upstream):
    upstream.script(Reply(text="private to a"))
    async with serving([remembering(upstream)], keys=tenants()) as url:
        mine = await client(url).responses.create(model="support", input="Hi")
        other = client(url, OTHER_KEY)
        with pytest.raises(openai.NotFoundError):
            await other.responses.retrieve(mine.id)
        with pytest.raises(openai.NotFoundError):
            await other.responses.delete(mine.id)
        with pytest.raises(openai.NotFoundError) as caught:
            await other.responses.create(model="support", input="Hi",
                                         previous_response_id=mine.id)
        assert caught.value.body["param"] == "previous_response_id"
        assert (await client(url).responses.retrieve(mine.id)).output_text == "private to a"
    assert len(upstream.requests) == 1


async def test_store_false_answers_without_storing(upstream):
    upstream.script(Reply(text="Hello Ann."), Reply(text="Not kept."), Reply(text="You are Ann."))
    async with serving([remembering(upstream)]) as url:
        api = client(url)
        first = await api.responses.create(model="support", input="I am Ann.")
        unkept = await api.responses.create(model="support", input="Who am I?", store=False,
                                            previous_response_id=first.id)
        assert unkept.store is False
        with pytest.raises(openai.NotFoundError):
            await api.responses.retrieve(unkept.id)
    assert said(upstream.requests[1]) == [("user", "I am Ann."), ("assistant", "Hello Ann."),
                                          ("user", "Who am I?")]


@pytest.mark.parametrize("field", ["store", "previous_response_id"])
async def test_an_agent_without_memory_refuses_store_and_previous_response_id(upstream, field):
    value: Any = True if field == "store" else "resp_0123"
    async with serving([make_agent(upstream)]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).responses.create(model="support", input="Hi", **{field: value})
    body = caught.value.body
    assert body["param"] == field and body["code"] == "model_without_memory"
    assert "no memory" in body["message"]
    assert upstream.requests == []


async def test_a_run_that_ends_before_its_answer_leaves_no_thread(upstream):
    upstream.script(Reply(text="Hello."))
    agent = remembering(upstream, input_processors=[BlockWord("forbidden")])
    async with serving([agent]) as url:
        api = client(url)
        first = await api.responses.create(model="support", input="Hi")
        threads = await agent.memory.store.list_threads()
        with pytest.raises(openai.BadRequestError) as caught:
            await api.responses.create(model="support", input="forbidden",
                                       previous_response_id=first.id)
        assert caught.value.body["code"] == "block-word"
        assert [t.id for t in await agent.memory.store.list_threads()] == [t.id for t in threads]


async def test_the_thread_header_is_refused_on_a_responses_request(upstream):
    async with serving([remembering(upstream)]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).responses.create(model="support", input="Hi",
                                               extra_headers={"X-Tripwire-Thread": "t1"})
    assert caught.value.body["param"] == "previous_response_id"


# ---------------------------------------------------------------- tripwires, errors, metrics


async def test_a_tripwire_before_the_first_byte_is_a_400_with_the_processor_id(upstream):
    upstream.script(Reply(text="the secret is out"))
    agent = make_agent(upstream, input_processors=[BlockWord("secret", "block-input")],
                       output_processors=[BlockWord("secret")])
    async with serving([agent]) as url:
        with pytest.raises(openai.BadRequestError) as caught:
            await client(url).responses.create(model="support", input="Hi")
        with pytest.raises(openai.BadRequestError) as streamed:
            await client(url).responses.create(model="support", input="my secret",
                                               stream=True)
    assert caught.value.body["code"] == "block-word"
    assert streamed.value.body["code"] == "block-input"
    assert {caught.value.body["type"], streamed.value.body["type"]} == {"tripwire"}


async def test_a_tripwire_after_the_first_byte_ends_the_response_incomplete(upstream):
    upstream.script(Reply(text="All fine so far. Then the secret is out.", delta_size=6))
    agent = make_agent(upstream, output_processors=[BlockWord("secret")])
    async with serving([agent]) as url:
        seen = await events(url, {"model": "support", "input": "Hi"})
    last = seen[-1]
    assert last["type"] == "response.incomplete"
    details = last["response"]["incomplete_details"]
    assert details["reason"] == "content_filter"
    assert details["tripwire"]["code"] == "block-word"
    assert last["response"]["output"][0]["status"] == "incomplete"
    sent = json.dumps(seen)
    assert "secret is" not in sent


async def test_an_upstream_failure_after_the_first_byte_is_response_failed(upstream):
    upstream.script(Reply(text="Hello there, this breaks", delta_size=4, error_after=4))
    async with serving([make_agent(upstream)]) as url:
        seen = await events(url, {"model": "support", "input": "Hi"})
        upstream.script(ErrorReply(503, "busy"))
        with pytest.raises(openai.APIStatusError) as caught:
            await client(url).responses.create(model="support", input="Hi")
    assert seen[-1]["type"] == "response.failed"
    assert seen[-1]["response"]["error"]["code"] == "upstream_error"
    assert caught.value.status_code == 503


async def test_metrics_and_the_access_log_name_the_responses_api(upstream, caplog):
    caplog.set_level(logging.INFO, logger="tripwire.serve.access")
    upstream.script(Reply(text="ok"))
    gateway = Gateway({"support": make_agent(upstream)})
    async with serving(gateway) as url:
        await client(url).responses.create(model="support", input="Hi")
    text = gateway.metrics.render()
    assert 'tripwire_serve_requests_total{api="responses",agent="support",key="",status="200"} 1' \
        in text
    lines = [json.loads(r.getMessage()) for r in caplog.records
             if r.name == "tripwire.serve.access"]
    assert [(r["path"], r["api"]) for r in lines] == [("/v1/responses", "responses")]


async def test_an_unknown_model_and_a_forbidden_one_answer_as_chat_does(upstream):
    limited = keyed(ApiKey("a", digest(KEY), "tenant-a", agents=("support",)))
    async with serving([make_agent(upstream), make_agent(upstream, "billing")],
                       keys=limited) as url:
        with pytest.raises(openai.NotFoundError):
            await client(url).responses.create(model="nope", input="Hi")
        with pytest.raises(openai.PermissionDeniedError):
            await client(url).responses.create(model="billing", input="Hi")
        with pytest.raises(openai.AuthenticationError):
            await client(url, "wrong").responses.create(model="support", input="Hi")


async def test_an_agent_tool_runs_in_the_gateway_and_stays_there(upstream):
    @tool
    def lookup(order: str) -> str:
        """Look an order up."""
        return f"order {order}: shipped"

    upstream.script(Reply(tool_calls=[FakeToolCall("c1", "lookup", {"order": "7"})]),
                    Reply(text="It shipped."))
    recorder = Recorder()
    agent = make_agent(upstream, tools=[lookup], output_processors=[recorder])
    async with serving([agent]) as url:
        response = await client(url).responses.create(model="support", input="Order 7?")
    assert [item.type for item in response.output] == ["message"]
    assert response.output_text == "It shipped."


@pytest.mark.parametrize("wire", ["responses", "anthropic"])
async def test_either_api_reaches_an_agent_on_any_upstream(upstream, wire):
    """A Responses client and a chat client, an agent whose upstream speaks the
    Responses API or Anthropic's Messages: the client's tool call comes back either way."""
    call = FakeToolCall("call_1", "get_weather", {"city": "Oslo"})
    upstream.script(Reply(text="Looking.", tool_calls=[call]),
                    Reply(text="Looking.", tool_calls=[call]))
    agent = Agent(id="support", model=upstream.model(wire, max_retries=0))
    async with serving([agent]) as url:
        api = client(url)
        response = await api.responses.create(model="support", input="Weather?", tools=TOOLS)
        chat = await api.chat.completions.create(
            model="support", messages=[{"role": "user", "content": "Weather?"}],
            tools=[{"type": "function", "function": {k: v for k, v in TOOLS[0].items()
                                                     if k != "type"}}])
    assert [item.type for item in response.output] == ["message", "function_call"]
    assert response.output_text == "Looking."
    assert chat.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert upstream.requests[0].path == {"responses": "/v1/responses",
                                         "anthropic": "/v1/messages"}[wire]
