"""A tool call's name and id, which the model chooses, as an exfiltration path. The
guards check a call's arguments, not its name or id: a name the model was not offered
is never shown (the call is recorded under ``UNOFFERED_TOOL`` and the model's name
reaches only the tool's error, which the output guards check), and an id outside
``TOOL_CALL_ID`` (``call_jane@example.com``) fails the model call as malformed, its
value quoted nowhere. Attack-style: the value must not reach the stream, the result,
the stored thread or the serve client."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tests.support.helpers import run_collected
from tripwire import Agent, APICallError, Memory, tool
from tripwire.chunks import TOOL_CALL_ID
from tripwire.messages.serde import chunk_to_dict, message_to_dict
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.response_cache import ResponseCache
from tripwire.serve import Gateway, running
from tripwire.testing import MockModel, MockResponse
from tripwire.tools import UNOFFERED_TOOL, client_tool

EMAIL = "jane.doe@example.com"
THREAD = {"thread": "t1", "resource": "jane"}


@tool
def lookup(order: str) -> str:
    """Look an order up."""
    return "shipped"


def call(name: str, call_id: str = "c1") -> MockResponse:
    return MockResponse(tool_calls=[{"tool_name": name, "args": {"order": "A7"},
                                     "tool_call_id": call_id}])


async def _run(agent: Agent, stream: bool, **options: Any) -> tuple[Any, str]:
    """The result and every chunk the client got, as text."""
    chunks, result = await run_collected(agent, "Where is my order?", stream, **options)
    return result, json.dumps([chunk_to_dict(c) for c in chunks], default=str) if stream else ""


def _dumped(messages: list[Any]) -> str:
    return json.dumps([message_to_dict(m) for m in messages], default=str)


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("client", [False, True], ids=["agent-tools", "with-client-tools"])
async def test_an_unoffered_name_reaches_only_the_guarded_tool_error(store, stream, client):
    model = MockModel([call(f"send_{EMAIL}"), "Done."])
    pii = PIIDetector()
    options: dict[str, Any] = {"memory": THREAD}
    if client:
        options["client_tools"] = [client_tool("get_weather")]
    async with Agent(id="a", model=model, tools=[lookup], memory=Memory(store),
                     output_processors=[pii], default_error_processors=False) as agent:
        result, streamed = await _run(agent, stream, **options)
    assert result.text == "Done." and result.finish_reason == "stop"
    stored = _dumped(await store.last_messages("t1", 50))
    for seen in (streamed, stored, _dumped(result.messages), repr(result.steps)):
        assert EMAIL not in seen
    [made] = result.tool_calls
    assert made.tool_name == UNOFFERED_TOOL and made.args == {"order": "A7"}
    [answer] = result.tool_results
    assert answer.is_error and answer.tool_name == UNOFFERED_TOOL
    # the model is told which name it used and what it may call (the guard redacted it)
    assert "not one of the tools" in answer.result and "lookup" in answer.result
    assert "@" in answer.result and "example" not in answer.result
    if stream:
        assert '"tool_name": "send_' not in streamed


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_a_cache_replay_of_an_unoffered_name_shows_it_nowhere(stream):
    model = MockModel([call(f"send_{EMAIL}"), "Done."])
    agent = Agent(id="a", model=model, tools=[lookup], input_processors=[ResponseCache()],
                  output_processors=[PIIDetector()], default_error_processors=False)
    first, _ = await _run(agent, stream)
    replay, streamed = await _run(agent, stream)
    assert len(model.requests) == 2 and replay.steps[0].from_cache
    for seen in (streamed, _dumped(replay.messages), repr(replay.steps)):
        assert EMAIL not in seen
    assert replay.tool_calls[0].tool_name == UNOFFERED_TOOL
    assert replay.tool_results[0].result == first.tool_results[0].result


async def test_an_offered_name_is_kept_and_its_tool_runs():
    result = await Agent(id="a", model=MockModel([call("lookup"), "Shipped."]),
                         tools=[lookup]).generate("Where?")
    assert [(c.tool_name, c.tool_call_id) for c in result.tool_calls] == [("lookup", "c1")]
    assert result.tool_results[0].result == "shipped"


async def test_a_name_outside_the_active_tools_is_unoffered():
    @tool
    def refund(order: str) -> str:
        """Refund an order."""
        raise AssertionError("never run")

    result = await Agent(id="a", model=MockModel([call("refund"), "ok"]),
                         tools=[lookup, refund]).generate("Refund?", active_tools=["lookup"])
    assert result.tool_calls[0].tool_name == UNOFFERED_TOOL
    assert "'refund' is not available" in result.tool_results[0].result


def test_the_reserved_name_is_no_tools_name():
    with pytest.raises(ValueError, match="reserved"):
        client_tool(UNOFFERED_TOOL)


@settings(max_examples=30, deadline=None, database=None)
@given(bad=st.text(min_size=1, max_size=20).filter(lambda s: not TOOL_CALL_ID.fullmatch(s))
       | st.just("x" * 4097))
@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
def test_an_id_outside_the_rule_fails_the_call_quoting_nothing(stream, bad):
    call_id = f"call_{bad}"
    model = MockModel([call("lookup", call_id)])
    agent = Agent(id="a", model=model, tools=[lookup], default_error_processors=False)

    async def scenario() -> tuple[Exception, str]:
        if not stream:
            with pytest.raises(APICallError) as info:
                await agent.generate("Where?")
            return info.value, ""
        s = agent.stream("Where?")
        chunks = []
        with pytest.raises(APICallError) as info:
            async for c in s:
                chunks.append(chunk_to_dict(c))
        return info.value, json.dumps(chunks, default=str)

    error, streamed = asyncio.run(scenario())
    assert "tool_call_id" in str(error) and "letters, digits" in str(error)
    assert call_id not in str(error) and repr(call_id)[1:-1] not in streamed
    assert '"tool-call"' not in streamed


# ---------------------------------------------------------------- tripwire serve

SEND = {"type": "function", "function": {
    "name": "send_mail", "description": "Send a mail.",
    "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}}


async def _serve(replies: list[Reply], stream: bool) -> tuple[int, bytes, list[Any]]:
    async with FakeLLMServer() as upstream:
        upstream.script(*replies)
        agent = Agent(id="support", model=upstream.openai(max_retries=0),
                      default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url:
            async with aiohttp.ClientSession() as session, session.post(
                    f"{url}/v1/chat/completions",
                    json={"model": "support", "stream": stream, "tools": [SEND],
                          "messages": [{"role": "user", "content": "Hi"}]}) as response:
                return response.status, await response.read(), upstream.requests


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
async def test_serve_never_returns_an_id_outside_the_rule(stream):
    status, raw, _ = await _serve(
        [Reply(tool_calls=[FakeToolCall(f"call_{EMAIL}", "send_mail", {"to": "x"})])], stream)
    assert EMAIL.encode() not in raw
    assert b"send_mail" not in raw  # the call is not returned
    assert status == 502 and b"upstream_error" in raw


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
async def test_serve_never_returns_an_unoffered_name(stream):
    status, raw, sent = await _serve(
        [Reply(tool_calls=[FakeToolCall("c1", f"send_{EMAIL}", {"to": "x"})]),
         Reply(text="Sorry.")], stream)
    assert status == 200, raw
    assert EMAIL.encode() not in raw
    if stream:
        events = [json.loads(e[len(b"data: "):]) for e in raw.split(b"\n\n")[:-2] if e]
        text = "".join(c["delta"].get("content") or "" for e in events for c in e["choices"])
    else:
        text = json.loads(raw)["choices"][0]["message"]["content"]
    assert text == "Sorry."
    # the upstream (the model) is told its call went nowhere
    assert "not one of the tools" in json.dumps(sent[-1].body)


#: LiteLLM's id for a Gemini 3 call (and agentgateway's): the call's id, then Gemini's
#: thought signature (base64), which Gemini refuses the next request without.
GEMINI_VIA_GATEWAY = ("call_7c0d3b2a9e1f4d6c__thought__" + "CiQBjz1rX+/w9Vq3T8=" * 40)[:-1] + "="


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_a_gateways_id_carrying_a_thought_signature_goes_back_unchanged(stream):
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(tool_calls=[FakeToolCall(GEMINI_VIA_GATEWAY, "lookup",
                                                       {"order": "1"})]),
                        Reply(text="Shipped."))
        agent = Agent(id="a", model=upstream.openai(max_retries=0), tools=[lookup],
                      default_error_processors=False)
        result, _ = await _run(agent, stream)
        sent = upstream.requests[-1].body["messages"]
    assert result.text == "Shipped."
    assert result.tool_calls[0].tool_call_id == GEMINI_VIA_GATEWAY
    assert [m["tool_calls"][0]["id"] for m in sent if m.get("tool_calls")] == [GEMINI_VIA_GATEWAY]
    assert [m["tool_call_id"] for m in sent if m["role"] == "tool"] == [GEMINI_VIA_GATEWAY]
