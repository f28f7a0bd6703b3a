"""The whole agent loop over real HTTP: tools, processors, API-error retries,
cancellation and session ownership, against the fake OpenAI and Anthropic servers."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.support.fake_llm_server import BackgroundLLMServer, ErrorReply, FakeToolCall, Reply
from tripwire import Agent, APICallError, Processor, Usage, hookimpl, tool


@tool
def get_weather(city: str) -> dict:
    """Current weather for a city."""
    return {"city": city, "temp_c": 21}


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_tool_loop_runs_the_tool_and_sends_its_result_back(llm_server, wire):
    llm_server.script(
        Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Paris"})], usage=(20, 5)),
        Reply(text="It is 21 °C in Paris.", usage=(40, 8)),
    )
    async with llm_server.model(wire) as model:
        agent = Agent(id="weather", model=model, instructions="Answer briefly.", tools=[get_weather])
        result = await agent.generate("Weather in Paris?")

    assert result.text == "It is 21 °C in Paris."
    assert result.finish_reason == "stop"
    assert [s.finish_reason for s in result.steps] == ["tool-calls", "stop"]
    assert result.tool_results[0].result == {"city": "Paris", "temp_c": 21}
    assert result.usage.input_tokens == 60 and result.usage.output_tokens == 13
    second = llm_server.requests[1].body
    if wire == "openai":
        assert second["messages"][0] == {"role": "system", "content": "Answer briefly."}
        assert second["messages"][-2]["tool_calls"][0]["function"] == {
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
        }
        assert second["messages"][-1] == {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": '{"city": "Paris", "temp_c": 21}',
        }
    else:
        assert second["system"] == [{"type": "text", "text": "Answer briefly."}]
        assert second["messages"][-2]["content"][-1] == {
            "type": "tool_use",
            "id": "call_1",
            "name": "get_weather",
            "input": {"city": "Paris"},
        }
        assert second["messages"][-1]["content"][0] == {
            "type": "tool_result",
            "tool_use_id": "call_1",
            "content": '{"city": "Paris", "temp_c": 21}',
        }


async def test_tool_call_with_broken_arguments_reaches_the_model_as_a_tool_error(llm_server):
    llm_server.script(
        Reply(tool_calls=[FakeToolCall("call_1", "get_weather", '{"city": ')]),
        Reply(text="Sorry, let me retry that."),
    )
    async with llm_server.openai() as model:
        agent = Agent(id="weather", model=model, tools=[get_weather])
        result = await agent.generate("Weather?")

    assert result.text == "Sorry, let me retry that."
    tool_message = llm_server.requests[1].body["messages"][-1]
    assert tool_message["role"] == "tool" and "city" in tool_message["content"]
    assert "not valid JSON" in tool_message["content"]
    assert result.steps[0].tool_results[0].is_error


async def test_anthropic_thinking_is_sent_back_with_its_signature_on_the_next_step(llm_server):
    llm_server.script(
        Reply(reasoning="Need the weather.", tool_calls=[FakeToolCall("toolu_1", "get_weather", {"city": "Oslo"})]),
        Reply(text="Cold."),
    )
    async with llm_server.anthropic() as model:
        agent = Agent(id="weather", model=model, tools=[get_weather])
        result = await agent.generate("Weather in Oslo?")

    assert result.text == "Cold."
    assistant = llm_server.requests[1].body["messages"][-2]
    assert assistant["content"][0] == {
        "type": "thinking", "thinking": "Need the weather.",
        "signature": "EqQBCkYIARgCKkA-fake-signature",
    }


class Redact(Processor):
    """Output processor: masks a word in every streamed text delta."""

    id = "redact"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.payload["text"].replace("secret", "******")})
        return part


class Tag(Processor):
    """Input processor: adds a system message to every outbound prompt."""

    id = "tag"

    @hookimpl
    def process_llm_request(self, prompt):
        return {"prompt": [{"role": "system", "content": "Tagged."}, *prompt]}


async def test_streamed_run_passes_chunks_through_processors(llm_server):
    llm_server.script(Reply(text="the secret word is swordfish", delta_size=64))
    async with llm_server.anthropic() as model:
        agent = Agent(id="s", model=model, input_processors=[Tag()], output_processors=[Redact()])
        stream = agent.stream("Tell me")
        chunks = [c async for c in stream]

    texts = "".join(c.payload["text"] for c in chunks if c.type == "text-delta")
    assert texts == "the ****** word is swordfish"
    assert [c.type for c in chunks][0] == "step-start"
    assert {"step-finish", "finish"} <= {c.type for c in chunks}
    assert await stream.usage == Usage(11, 7, 18, cached_input_tokens=0)
    assert llm_server.requests[0].body["system"] == [{"type": "text", "text": "Tagged."}]


class DropOldest(Processor):
    """Error processor: on a 422, drops the oldest message and retries once."""

    id = "drop-oldest"

    def __init__(self) -> None:
        self.errors: list[APICallError] = []

    @hookimpl
    def process_api_error(self, error, message_list, retry_count):
        self.errors.append(error)
        if retry_count == 0 and getattr(error, "status_code", None) == 422:
            message_list.remove_by_ids([message_list.all.db()[0].id])
            return {"retry": True}
        return None


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_process_api_error_retries_after_a_real_422(llm_server, wire):
    llm_server.script(ErrorReply(422, "prompt is too long"), Reply(text="short answer"))
    handler = DropOldest()
    async with llm_server.model(wire) as model:
        agent = Agent(id="a", model=model, error_processors=[handler])
        result = await agent.generate(["old context", "the question"])

    assert result.text == "short answer"
    (error,) = handler.errors
    assert (error.status_code, error.is_retryable) == (422, False)
    assert "prompt is too long" in error.message
    first, second = (str(r.body["messages"]) for r in llm_server.requests)
    assert "old context" in first and "the question" in first
    assert "old context" not in second and "the question" in second


async def test_process_api_error_sees_a_real_400_and_can_let_it_end_the_run(llm_server):
    llm_server.script(ErrorReply(400, "messages: text content blocks must be non-empty"))
    handler = DropOldest()
    async with llm_server.anthropic() as model:
        agent = Agent(id="a", model=model, error_processors=[handler])
        with pytest.raises(APICallError, match="must be non-empty"):
            await agent.generate("hi")
    assert [e.status_code for e in handler.errors] == [400]


async def test_transport_retries_happen_before_error_processors_see_anything(llm_server):
    llm_server.script(ErrorReply(500), ErrorReply(429, headers={"Retry-After": "0"}), Reply(text="ok"))
    handler = DropOldest()
    async with llm_server.openai() as model:
        agent = Agent(id="a", model=model, error_processors=[handler])
        result = await agent.generate("hi")

    assert result.text == "ok"
    assert handler.errors == []
    assert len(llm_server.requests) == 3


async def test_exhausted_transport_retries_reach_process_api_error(llm_server):
    llm_server.script(*[ErrorReply(503)] * 2)
    handler = DropOldest()
    async with llm_server.openai(max_retries=1) as model:
        agent = Agent(id="a", model=model, error_processors=[handler])
        with pytest.raises(APICallError):
            await agent.generate("hi")
    assert [(e.status_code, e.is_retryable) for e in handler.errors] == [(503, True)]


async def test_closing_an_agent_stream_closes_the_http_response(llm_server):
    llm_server.script(Reply(endless=True, event_delay=0.005))
    async with llm_server.openai() as model:
        agent = Agent(id="a", model=model)
        stream = agent.stream("talk forever")
        n = 0
        async for chunk in stream:
            n += chunk.type == "text-delta"
            if n == 3:
                break
        await stream.aclose()
        await asyncio.wait_for(llm_server.disconnected.wait(), 5)


async def test_agent_closes_the_models_it_resolved_from_router_ids(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    llm_server.script(Reply(text="hello"))
    async with Agent(id="a", model="openai/gpt-test") as agent:
        result = await agent.generate("hi")
        model = agent.model
        assert not model.closed

    assert result.text == "hello"
    assert model.closed


def test_generate_sync_with_a_model_you_built_does_not_leak_sockets():
    # Each generate_sync call runs its own event loop; the provider's session of a
    # finished loop must not stay open (it used to: one socket per call).
    with BackgroundLLMServer() as server:
        server.script(*[Reply(text="hi")] * 53)
        agent = Agent(id="a", model=server.openai())
        for _ in range(3):
            agent.generate_sync("hi")
        before = len(os.listdir("/proc/self/fd"))
        for _ in range(50):
            assert agent.generate_sync("hi").text == "hi"
        after = len(os.listdir("/proc/self/fd"))
    assert after - before <= 4


def test_generate_sync_raises_the_runs_error_when_closing_fails_too(caplog):
    # The model's session belongs to a loop that is still open: the run fails, and so
    # does closing the model after it; the error raised used to be the closing one
    with BackgroundLLMServer() as server:
        server.script(Reply(text="one"), Reply(text="two"))
        model = server.openai()
        agent = Agent(id="a", model=model)
        first = asyncio.new_event_loop()
        try:
            assert first.run_until_complete(agent.generate("hi")).text == "one"
            with pytest.raises(RuntimeError, match="is used from two event loops") as raised:
                agent.generate_sync("hi")
            assert raised.value.__context__ is None  # not raised while handling another
            assert "closing after this error failed too" in " ".join(raised.value.__notes__)
            assert "closing after a failed generate_sync run failed too" in caplog.text
            first.run_until_complete(model.aclose())
            assert agent.generate_sync("hi").text == "two"
        finally:
            first.close()


def test_generate_sync_raises_the_api_error_not_the_close_error(monkeypatch, caplog):
    async def broken_close() -> None:
        raise RuntimeError("cannot close")

    with BackgroundLLMServer() as server:
        server.script(ErrorReply(400, "bad request"), Reply(text="fine"))
        model = server.openai()
        monkeypatch.setattr(model, "aclose", broken_close)
        agent = Agent(id="a", model=model, default_error_processors=False)
        with pytest.raises(APICallError) as raised:
            agent.generate_sync("hi")
        assert raised.value.status_code == 400
        assert "RuntimeError: cannot close" in caplog.text
        # after a run that succeeded, a failure to close is the error
        with pytest.raises(RuntimeError, match="cannot close"):
            agent.generate_sync("hi")
        monkeypatch.undo()
        asyncio.run(model.aclose())


async def test_tool_arguments_nested_100k_deep_do_not_run_the_tool(llm_server):
    calls = []

    @tool
    def record(x: int) -> str:
        """Records x."""
        calls.append(x)
        return "ok"

    llm_server.script(
        Reply(tool_calls=[FakeToolCall("call_1", "record", "[" * 100_000)], delta_size=8192),
        Reply(text="I could not call the tool."),
    )
    async with llm_server.anthropic() as model:
        result = await Agent(id="a", model=model, tools=[record]).generate("go")

    assert result.text == "I could not call the tool."
    assert calls == []
    assert result.steps[0].tool_results[0].is_error
    tool_turn = llm_server.requests[1].body["messages"][-1]["content"][0]
    assert tool_turn["type"] == "tool_result" and "not valid JSON" in tool_turn["content"]
