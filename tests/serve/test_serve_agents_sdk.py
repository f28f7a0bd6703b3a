"""The OpenAI Agents SDK (``openai-agents``) with ``tripwire serve`` as its OpenAI
endpoint: an ``Agent`` with a function tool, run by ``Runner.run`` and
``Runner.run_streamed`` over the Responses API, the gateway's agent on the local fake
upstream. The SDK's tracing is off (it would export to OpenAI)."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

from tests.serve.test_serve import KEY, make_agent, serving
from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tripwire import Memory

agents = pytest.importorskip("agents")


@pytest.fixture
async def upstream():
    async with FakeLLMServer() as server:
        yield server


_clients: list[openai.AsyncOpenAI] = []


@pytest.fixture(autouse=True)
async def _close_clients():
    yield
    while _clients:
        await _clients.pop().close()


def weather_agent(url: str, calls: list[str]) -> Any:
    """An SDK agent whose model is the gateway's agent ``support`` (its client closed
    after the test)."""

    @agents.function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        calls.append(city)
        return f"sunny in {city}"

    api = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=KEY, max_retries=0)
    _clients.append(api)
    model = agents.OpenAIResponsesModel(model="support", openai_client=api)
    return agents.Agent(name="assistant", instructions="Answer with the weather.",
                        tools=[get_weather], model=model)


def _script(upstream: FakeLLMServer) -> None:
    upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "get_weather", {"city": "Oslo"})]),
                    Reply(text="It is sunny in Oslo."))


def _second_request(upstream: FakeLLMServer) -> list[dict[str, Any]]:
    return upstream.requests[1].body["messages"]


CONFIG = agents.RunConfig(tracing_disabled=True)


async def test_runner_run_calls_the_function_tool_through_the_gateway(upstream):
    _script(upstream)
    calls: list[str] = []
    async with serving([make_agent(upstream)]) as url:
        result = await agents.Runner.run(weather_agent(url, calls), "Weather in Oslo?",
                                         run_config=CONFIG)
    assert result.final_output == "It is sunny in Oslo."
    assert calls == ["Oslo"]
    sent = _second_request(upstream)
    assert sent[0] == {"role": "system", "content": "Answer with the weather."}
    assert json.loads(sent[2]["tool_calls"][0]["function"]["arguments"]) == {"city": "Oslo"}
    assert sent[3] == {"role": "tool", "tool_call_id": "call_1", "content": "sunny in Oslo"}


async def test_runner_run_streamed_calls_the_function_tool_through_the_gateway(upstream):
    _script(upstream)
    calls: list[str] = []
    async with serving([make_agent(upstream)]) as url:
        result = agents.Runner.run_streamed(weather_agent(url, calls), "Weather in Oslo?",
                                            run_config=CONFIG)
        deltas = []
        async for event in result.stream_events():
            if event.type == "raw_response_event" and \
                    event.data.type == "response.output_text.delta":
                deltas.append(event.data.delta)
    assert result.final_output == "It is sunny in Oslo."
    assert "".join(deltas) == "It is sunny in Oslo."
    assert calls == ["Oslo"]


async def test_the_sdk_continues_a_stored_response_by_its_id(upstream):
    """With ``previous_response_id`` the SDK sends only the tool's output: the gateway's
    agent with memory supplies the call from the stored response."""
    _script(upstream)
    calls: list[str] = []
    async with serving([make_agent(upstream, memory=Memory(store="memory://"))]) as url:
        result = await agents.Runner.run(weather_agent(url, calls), "Weather in Oslo?",
                                         run_config=CONFIG, auto_previous_response_id=True)
    assert result.final_output == "It is sunny in Oslo."
    sent = _second_request(upstream)
    # (the stored conversation comes first, then the request's instructions and input)
    assert [m["role"] for m in sent] == ["user", "system", "assistant", "tool"]
    assert sent[2]["tool_calls"][0]["id"] == "call_1"
