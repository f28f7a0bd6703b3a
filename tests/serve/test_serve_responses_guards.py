"""Guardrails through the Responses API, tested as an attacker would: a value
``pii-detector`` guards reaches the client through no Responses event or field (text
deltas, the ``.done`` events' whole texts, reasoning, function-call arguments, the
final response object, a response stopped mid-stream), nor through a stored response
(``GET /v1/responses/{id}``, or the conversation ``previous_response_id`` continues),
nor the upstream through any input item. The client is a raw HTTP client reading every
byte; the upstream the OpenAI-wire test server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import hypothesis.strategies as st
from hypothesis import given, settings

from tests.serve.test_serve_guardrails import ARGUMENTS, EMAIL, guarded
from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tripwire import Memory
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.serve import running

SEND = {"type": "function", "name": "send_mail", "description": "Send a mail.",
        "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}


async def post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.post(
            f"{url}/v1/responses", json=body) as response:
        return response.status, await response.read()


async def get(url: str, response_id: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(
            f"{url}/v1/responses/{response_id}") as response:
        return response.status, await response.read()


def final(raw: bytes, stream: bool) -> dict[str, Any]:
    """The response object: the body, or the last event's."""
    if not stream:
        return json.loads(raw)  # type: ignore[no-any-return]
    last = raw.rstrip(b"\n").split(b"\n\n")[-1]
    return json.loads(last.split(b"\ndata: ", 1)[1])["response"]  # type: ignore[no-any-return]


def leaked(raw: bytes) -> bool:
    """Whether the value is in the bytes, as itself or JSON-escaped in any way a client's
    parser decodes (the whole answer is decoded first)."""
    if EMAIL.encode() in raw:
        return True
    text = raw.decode()
    decoded = [json.loads(part.split("data: ", 1)[1]) for part in text.split("\n\n")
               if "data: " in part] if text.startswith("event:") else [json.loads(text)]
    return EMAIL in json.dumps(decoded, ensure_ascii=False)


@settings(max_examples=30, deadline=None, database=None)
@given(delta_size=st.integers(1, 40), write_size=st.none() | st.integers(1, 90),
       stream=st.booleans(), arguments=st.sampled_from(sorted(ARGUMENTS)))
def test_a_value_split_anywhere_reaches_no_responses_event_or_field(delta_size, write_size,
                                                                     stream, arguments):
    """Text, reasoning and a function call's arguments hold the value, streamed in
    pieces of any size; the response is stored, and read back."""
    reply = Reply(text=f"I wrote to {EMAIL} today.", reasoning=f"The address is {EMAIL}.",
                  tool_calls=[FakeToolCall("call_1", "send_mail", ARGUMENTS[arguments])],
                  delta_size=delta_size, write_size=write_size)

    async def scenario() -> tuple[int, bytes, int, bytes]:
        async with FakeLLMServer() as upstream:
            upstream.script(reply)
            gateway = guarded(upstream, memory=Memory(store="memory://"))
            async with running(gateway, "127.0.0.1", 0) as url:
                status, raw = await post(url, {"model": "support", "input": "Hello",
                                               "tools": [SEND], "stream": stream})
                stored = await get(url, final(raw, stream)["id"]) if status == 200 \
                    else (0, b"")
                return status, raw, *stored

    status, raw, stored_status, stored = asyncio.run(scenario())
    assert status == 200 and stored_status == 200
    assert not leaked(raw) and not leaked(stored)
    response = final(raw, stream)
    types = [item["type"] for item in response["output"]]
    assert "function_call" in types and "message" in types
    assert json.loads(stored)["output"] == response["output"]


async def test_a_blocked_value_mid_stream_reaches_no_event_and_no_stored_response():
    detector = PIIDetector(strategy="block")
    async with FakeLLMServer() as upstream:
        # (after a preamble longer than any detector's hold-back window: streaming began)
        upstream.script(Reply(text="Here is what I found. " * 300 + f"Write to {EMAIL}.",
                              delta_size=40))
        gateway = guarded(upstream, detector, memory=Memory(store="memory://"))
        async with running(gateway, "127.0.0.1", 0) as url:
            status, raw = await post(url, {"model": "support", "input": "Hi", "stream": True})
            response = final(raw, True)
            stored_status, stored = await get(url, response["id"])
    assert status == 200 and stored_status == 200
    assert response["status"] == "incomplete"
    assert response["incomplete_details"]["tripwire"]["code"] == "pii-detector"
    assert json.loads(stored)["status"] == "incomplete"
    assert not leaked(raw) and not leaked(stored)


async def test_a_redacted_value_is_not_in_the_conversation_previous_response_id_continues():
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text=f"Noted: {EMAIL}."), Reply(text="Done."))
        gateway = guarded(upstream, memory=Memory(store="memory://"))
        async with running(gateway, "127.0.0.1", 0) as url:
            _, raw = await post(url, {"model": "support", "input": f"Mail me at {EMAIL}"})
            first = json.loads(raw)
            status, raw = await post(url, {"model": "support", "input": "And now?",
                                           "previous_response_id": first["id"]})
    assert status == 200
    assert not leaked(json.dumps(first).encode())
    assert all(EMAIL not in json.dumps(r.body) for r in upstream.requests)
    history = json.dumps(upstream.requests[1].body["messages"])
    assert "Mail me at" in history and "Noted:" in history


async def test_a_value_in_any_input_item_never_reaches_the_upstream():
    items = [
        {"role": "developer", "content": f"Write to {EMAIL}."},
        {"role": "user", "content": [{"type": "input_text", "text": f"I am {EMAIL}"}]},
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
         "content": [{"type": "output_text", "text": f"Hi {EMAIL}", "annotations": []}]},
        {"type": "function_call", "call_id": "call_1", "name": "send_mail",
         "arguments": json.dumps({"to": EMAIL})},
        {"type": "function_call_output", "call_id": "call_1", "output": f"sent to {EMAIL}"},
    ]
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text="ok"), Reply(text="ok"))
        async with running(guarded(upstream), "127.0.0.1", 0) as url:
            status, raw = await post(url, {"model": "support", "input": items, "tools": [SEND],
                                           "instructions": f"Reply to {EMAIL}."})
    assert status == 200, raw
    assert not leaked(raw)
    assert EMAIL not in json.dumps(upstream.requests[0].body)
