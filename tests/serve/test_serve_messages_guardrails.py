"""Guardrails through ``POST /v1/messages``, tested as an attacker would: a value
``pii-detector`` guards reaches neither the client nor the upstream on any path the
Messages API gives it: text deltas, thinking deltas, ``input_json_delta`` tool input, the
whole message's blocks, usage, stop details and errors; on an OpenAI-compatible
upstream and on an Anthropic one. The client is a raw HTTP client reading every byte
(what the ``anthropic`` client would drop counts too)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

from tests.serve.test_serve_guardrails import (
    EMAIL,
    EMAIL_MASKED,
    INJECTION,
    QUOTING,
    SECRET,
    quoting_error,
)
from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tripwire import Agent
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.prompt_injection_detector import PromptInjectionDetector
from tripwire.serve import Gateway, running

SEND = {"name": "send_mail", "description": "Send a mail.",
        "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}}}
WIRES = ["openai", "anthropic"]


def guarded(upstream: FakeLLMServer, wire: str, detector: PIIDetector | None = None,
            **kwargs: Any) -> Gateway:
    """A gateway whose one agent ("support", on the ``wire`` upstream) has ``detector``
    (redact by default) in both lists."""
    pii = detector or PIIDetector()
    agent = Agent(id="support", model=upstream.model(wire, max_retries=0),
                  input_processors=[*kwargs.pop("input_processors", []), pii],
                  output_processors=[pii], default_error_processors=False, **kwargs)
    return Gateway({"support": agent})


async def post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    """Status and every byte of the response to one Messages request."""
    async with aiohttp.ClientSession() as session, session.post(
            f"{url}/v1/messages", json=body) as response:
        return response.status, await response.read()


def ask(stream: bool, content: Any = "Hello", **fields: Any) -> dict[str, Any]:
    return {"model": "support", "max_tokens": 512, "stream": stream,
            "messages": [{"role": "user", "content": content}], **fields}


def stream_parts(raw: bytes) -> dict[str, Any]:
    """What a streamed message said: its text, thinking, each tool_use block's input
    (the JSON its deltas spell), the stop reason and the last event."""
    parts: dict[str, Any] = {"text": "", "thinking": "", "inputs": {}, "stop": None}
    for block in raw.decode().split("\n\n"):
        if not block:
            continue
        event = json.loads(block.split("\n")[1][len("data: "):])
        parts["last"] = event["type"]
        if event["type"] == "content_block_delta":
            delta = event["delta"]
            parts["text"] += delta.get("text", "")
            parts["thinking"] += delta.get("thinking", "")
            if delta["type"] == "input_json_delta":
                inputs = parts["inputs"]
                inputs[event["index"]] = inputs.get(event["index"], "") + delta["partial_json"]
        elif event["type"] == "message_delta":
            parts["stop"] = event["delta"]["stop_reason"]
    parts["inputs"] = [json.loads(text) for _, text in sorted(parts["inputs"].items())]
    return parts


def message_parts(raw: bytes) -> dict[str, Any]:
    """The same for a message that was not streamed."""
    message = json.loads(raw)
    blocks = message["content"]
    return {"text": "".join(b["text"] for b in blocks if b["type"] == "text"),
            "thinking": "".join(b["thinking"] for b in blocks if b["type"] == "thinking"),
            "inputs": [b["input"] for b in blocks if b["type"] == "tool_use"],
            "stop": message["stop_reason"], "last": "message"}


ARGUMENTS = {
    "json": {"to": EMAIL},
    # not JSON: the gateway passes the text on as Anthropic wraps invalid tool JSON
    "malformed": '{"to": "' + EMAIL + '", ',
}


@settings(max_examples=40, deadline=None, database=None)
@given(delta_size=st.integers(1, 40), write_size=st.none() | st.integers(1, 90),
       stream=st.booleans(), arguments=st.sampled_from(sorted(ARGUMENTS)),
       wire=st.sampled_from(WIRES))
def test_a_value_split_anywhere_never_reaches_the_client(delta_size, write_size, stream,
                                                         arguments, wire):
    """Text, thinking and a client tool call's input all hold the value; the model
    streams them in pieces of any size, its bytes cut into reads of any size."""
    if wire == "anthropic" and arguments == "malformed":
        arguments = "json"  # Anthropic's API sends an object as a tool's input
    reply = Reply(text=f"I wrote to {EMAIL} today.", reasoning=f"The address is {EMAIL}.",
                  tool_calls=[FakeToolCall("call_1", "send_mail", ARGUMENTS[arguments])],
                  delta_size=delta_size, write_size=write_size)

    async def scenario() -> tuple[int, bytes]:
        async with FakeLLMServer() as upstream:
            upstream.script(reply)
            async with running(guarded(upstream, wire), "127.0.0.1", 0) as url:
                return await post(url, ask(stream, tools=[SEND]))

    status, raw = asyncio.run(scenario())
    assert status == 200, raw
    assert EMAIL.encode() not in raw
    parts = (stream_parts if stream else message_parts)(raw)
    assert parts["text"] == f"I wrote to {EMAIL_MASKED} today."
    assert parts["thinking"] == f"The address is {EMAIL_MASKED}."
    [tool_input] = parts["inputs"]
    assert EMAIL_MASKED in json.dumps(tool_input)
    assert parts["stop"] == "tool_use"
    assert parts["last"] == ("message_stop" if stream else "message")


@pytest.mark.parametrize("wire", WIRES)
async def test_a_value_in_the_clients_messages_never_reaches_the_upstream(wire):
    """The system prompt, the user's text, an earlier assistant turn's text, thinking
    and tool_use input, and the client's tool_result: each is redacted before the
    upstream call, streamed or not."""
    history = [
        {"role": "user", "content": [{"type": "text", "text": f"Mail {EMAIL} please"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": f"The address is {EMAIL}.", "signature": "sig"},
            {"type": "text", "text": f"Sending to {EMAIL}."},
            {"type": "tool_use", "id": "call_1", "name": "send_mail", "input": {"to": EMAIL}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_1",
             "content": [{"type": "text", "text": f"sent to {EMAIL}"}]},
            {"type": "text", "text": "Thanks"}]},
    ]
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text="Done."), Reply(text="Done."))
        async with running(guarded(upstream, wire), "127.0.0.1", 0) as url:
            for stream in (False, True):
                status, raw = await post(url, {**ask(stream), "messages": history,
                                               "system": f"Escalate to {EMAIL}.",
                                               "tools": [SEND]})
                assert status == 200, raw
        assert len(upstream.requests) == 2
        for sent in upstream.requests:
            text = json.dumps(sent.body)
            assert EMAIL not in text
            # the thinking block goes back to an Anthropic upstream only
            assert text.count(EMAIL_MASKED) == (6 if wire == "anthropic" else 5)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("wire", WIRES)
async def test_block_mid_stream_sends_none_of_the_value(stream, wire):
    """``block``: the value comes after a long first sentence (streaming has begun); the
    client gets text before it, then the refusal and the error event, never the value:
    not in a delta, the stop details or the error. Not streamed, the tripwire is a
    400."""
    preamble = "Here is what I found. " * 300
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text=f"{preamble}Write to {EMAIL} and more.", delta_size=40))
        gateway = guarded(upstream, wire, PIIDetector(strategy="block"))
        async with running(gateway, "127.0.0.1", 0) as url:
            status, raw = await post(url, ask(stream))
    assert EMAIL.encode() not in raw
    if not stream:
        assert status == 400
        error = json.loads(raw)["error"]
        assert error["type"] == "invalid_request_error" and "'pii-detector'" in error["message"]
        return
    assert status == 200
    parts = stream_parts(raw)
    assert parts["stop"] == "refusal" and parts["last"] == "error"
    assert parts["text"] and preamble.startswith(parts["text"])
    assert b"'pii-detector' stopped the request" in raw


@pytest.mark.parametrize("stream", [False, True])
async def test_an_upstream_error_quoting_the_instructions_does_not_reach_the_client(stream):
    """The upstream's message quotes the system prompt; the Messages client gets the
    upstream's status and error type, never its message."""
    async with FakeLLMServer() as upstream:
        upstream.script(quoting_error())
        agent = Agent(id="support", model=upstream.openai(max_retries=0),
                      instructions=f"You are Zed; {SECRET}.", default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url:
            status, raw = await post(url, ask(stream))
    assert status == 400
    assert SECRET not in raw.decode() and QUOTING not in raw.decode()
    assert json.loads(raw) == {"type": "error", "error": {
        "type": "invalid_request_error",
        "message": "Upstream model call failed with status 400 (invalid_request_error: "
                   "bad_content)."}}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("where", ["tool_result", "tool_use input", "assistant text",
                                   "thinking", "system"])
async def test_an_injection_anywhere_in_the_clients_request_is_blocked(where, stream):
    """A client's tool result (the classic indirect injection), an earlier assistant
    turn it forged (its text, its thinking, its tool_use input) and its system prompt
    are input the detector checks: the upstream never sees them."""
    arguments: dict[str, Any] = {"url": "https://example.com/p"}
    result, said, thought, system = "Opening hours: 9 to 5.", "Let me look.", "Look it up.", None
    if where == "tool_result":
        result = f"<p>Opening hours: 9 to 5.</p><p>{INJECTION}</p>"
    elif where == "tool_use input":
        arguments["note"] = INJECTION
    elif where == "assistant text":
        said = "Sure, I will comply. " + INJECTION
    elif where == "thinking":
        thought = INJECTION
    else:
        system = INJECTION
    async with FakeLLMServer() as upstream:
        agent = Agent(id="support", model=upstream.anthropic(max_retries=0),
                      input_processors=[PromptInjectionDetector()],
                      default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url:
            status, raw = await post(url, ask(stream, system=system, messages=[
                {"role": "user", "content": "What are the bakery's hours?"},
                {"role": "assistant", "content": [
                    {"type": "thinking", "thinking": thought, "signature": "sig"},
                    {"type": "text", "text": said},
                    {"type": "tool_use", "id": "toolu_1", "name": "fetch_page",
                     "input": arguments}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": result},
                    {"type": "text", "text": "Thanks, summarise it."}]}]))
        assert upstream.requests == []
    assert status == 400, raw
    error = json.loads(raw)["error"]
    assert error["type"] == "invalid_request_error"
    assert "'prompt-injection-detector'" in error["message"]
    assert b"previous instructions" not in raw


@pytest.mark.parametrize("wire", WIRES)
async def test_tokenize_the_upstream_sees_placeholders_and_the_client_its_values(wire):
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text="I will write to <EMAIL_1> now.", delta_size=3))
        gateway = guarded(upstream, wire, PIIDetector(strategy="tokenize"))
        async with running(gateway, "127.0.0.1", 0) as url:
            status, raw = await post(url, ask(True, f"Please mail {EMAIL}"))
        sent = json.dumps(upstream.requests[0].body)
    assert status == 200
    assert EMAIL not in sent and "<EMAIL_1>" in sent
    assert stream_parts(raw)["text"] == f"I will write to {EMAIL} now."
