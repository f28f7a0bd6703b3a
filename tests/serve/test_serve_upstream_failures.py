"""``tripwire serve`` when the upstream fails in ways a status code does not say: a 200
that is not a model response, text that is not valid Unicode, a scripted model that
ran out of answers. The official ``openai`` client (or raw HTTP, for what that client
cannot send) against the gateway, the gateway against tests/fake_llm_server.py."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import openai
import pytest

from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, RawReply, Reply
from tripwire import Agent, hookimpl
from tripwire.serve import Gateway, running

WIRES = ["openai", "anthropic"]
HI = [{"role": "user", "content": "Hi"}]


@pytest.fixture
async def upstream() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as server:
        yield server


def agent_of(server: FakeLLMServer, wire: str, **kwargs: Any) -> Agent:
    return Agent(id="support", model=server.model(wire, max_retries=0), **kwargs)


@contextlib.asynccontextmanager
async def serving(*agents: Agent, **kwargs: Any) -> AsyncIterator[openai.AsyncOpenAI]:
    """The gateway of ``agents`` on loopback, and the official client pointed at it."""
    async with running(Gateway({a.id: a for a in agents}, **kwargs), "127.0.0.1", 0) as url:
        api = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
        try:
            yield api
        finally:
            await api.close()


async def post(api: openai.AsyncOpenAI, body: bytes) -> tuple[int, str]:
    """``body`` sent as it is (what the ``openai`` client cannot send) to the gateway."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{api.base_url}chat/completions", data=body,
            headers={"Content-Type": "application/json"}) as response:
        return response.status, await response.text()


# ---------------------------------------------------------------- a 200 that is no answer

HTML = RawReply("<!DOCTYPE html><html><body>Sign in to continue</body></html>",
                content_type="text/html; charset=utf-8")




@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("reply", ["html", "not-json-events", "not-json-body"])
async def test_a_200_that_is_not_a_model_response_is_a_502(upstream, wire, stream, reply):
    if reply == "html":
        upstream.script(HTML)
    elif reply == "not-json-events":  # read as events only by a streaming call
        upstream.script(Reply(text="hello", malformed_after=0) if stream else
                        RawReply("data: {not json\n\n", content_type="application/json"))
    else:
        upstream.script(RawReply('{"hello": "world"}', content_type="application/json")
                        if stream else
                        RawReply("<not json>", content_type="application/json"))
    async with serving(agent_of(upstream, wire)) as api:
        with pytest.raises(openai.InternalServerError) as caught:
            await api.chat.completions.create(model="support", stream=stream, messages=HI)
    assert caught.value.status_code == 502
    assert caught.value.body["type"] == "upstream_error"
    assert caught.value.body["code"] is None
    assert "200" in caught.value.body["message"]
    assert "was not a valid model response" in caught.value.body["message"]


@pytest.mark.parametrize("wire", WIRES)
async def test_events_that_are_not_json_after_the_first_byte_end_with_a_502_event(
        upstream, wire):
    # openai: role, "The ", "answ" then the broken line; anthropic: message_start,
    # content_block_start, ping, "The ", "answ" then the broken line
    upstream.script(Reply(text="The answer is long enough.", malformed_after=3 if wire ==
                          "openai" else 5))
    async with serving(agent_of(upstream, wire)) as api:
        stream = await api.chat.completions.create(model="support", stream=True, messages=HI)
        texts = []
        with pytest.raises(openai.APIError) as caught:
            async for event in stream:
                if event.choices and event.choices[0].delta.content:
                    texts.append(event.choices[0].delta.content)
    assert "".join(texts) == "The answ"
    assert caught.value.body["code"] == 502
    assert caught.value.body["type"] == "upstream_error"
    assert "was not a valid model response" in caught.value.body["message"]


async def test_the_upstreams_own_error_status_is_still_passed_on(upstream):
    upstream.script(RawReply('{"error": {"message": "no", "type": "invalid_request_error"}}',
                             status=400, content_type="application/json"))
    async with serving(agent_of(upstream, "openai")) as api:
        with pytest.raises(openai.BadRequestError) as caught:
            await api.chat.completions.create(model="support", messages=HI)
    assert caught.value.status_code == 400
    assert caught.value.body["message"] == (
        "Upstream model call failed with status 400 (invalid_request_error).")


@pytest.mark.parametrize("status", [301, 302, 307])
async def test_a_redirect_from_the_upstream_is_a_502_not_a_redirect(upstream, status):
    upstream.script(RawReply("moved", status=status, content_type="text/plain"))
    async with serving(agent_of(upstream, "openai")) as api:
        with pytest.raises(openai.InternalServerError) as caught:
            await api.chat.completions.create(model="support", messages=HI)
    assert caught.value.status_code == 502
    assert f"status {status}" in caught.value.body["message"]



# ---------------------------------------------------------------- surrogates

EMOJI_TEXT = "Go \U0001F600 now \U0001F680!"  # two characters outside the BMP


def raw_body(**fields: Any) -> bytes:
    """A request body as JSON text with every non-ASCII character escaped (as Python's
    ``json.dumps`` writes it: a lone surrogate as ``\\ud800``)."""
    return json.dumps({"model": "support", **fields}).encode()


TOOL = {"type": "function", "function": {
    "name": "lookup", "description": "Look an order up",
    "parameters": {"type": "object", "properties": {"q": {"type": "string",
                                                          "enum": ["a", "b"]}}}}}


def with_tool(**change: Any) -> dict[str, Any]:
    function = {**TOOL["function"], **change}
    return {"type": "function", "function": function}


LONE = "\ud800"
REQUESTS = {
    "messages[0].content": {"messages": [{"role": "user", "content": f"Hi {LONE}"}]},
    "messages[0].content[0].text": {"messages": [{"role": "user", "content": [
        {"type": "text", "text": f"Hi {LONE}"}]}]},
    "messages[0].content (system)": {"messages": [
        {"role": "system", "content": LONE}, *HI]},
    "messages[0].name": {"messages": [{"role": "user", "content": "Hi", "name": LONE}]},
    "messages[1].tool_calls[0].function.arguments": {"messages": [
        *HI, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
              "function": {"name": "lookup", "arguments": json.dumps({"q": LONE})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]},
    "messages[2].content (tool result)": {"messages": [
        *HI, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
              "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": LONE}]},
    "tools[0].function.description": {"messages": HI, "tools": [
        with_tool(description=f"Look {LONE} up")]},
    "tools[0].function.name": {"messages": HI, "tools": [with_tool(name=f"look{LONE}")]},
    "tools[0].function.parameters.properties.q.enum[1]": {"messages": HI, "tools": [
        with_tool(parameters={"type": "object", "properties": {"q": {
            "type": "string", "enum": ["a", LONE]}}})]},
    "response_format.json_schema.name": {"messages": HI, "response_format": {
        "type": "json_schema", "json_schema": {"name": LONE, "schema": {}}}},
    "stop[0]": {"messages": HI, "stop": [LONE]},
    "user": {"messages": HI, "user": f"u{LONE}"},
    "a key in $": {"messages": HI, LONE: 1},
}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("where", list(REQUESTS))
async def test_a_lone_surrogate_from_the_client_is_a_400_before_anything_runs(
        upstream, where, stream):
    upstream.script(Reply(text="never sent"))
    async with serving(agent_of(upstream, "openai")) as api:
        status, raw = await post(api, raw_body(stream=stream, **REQUESTS[where]))
    assert status == 400, raw
    error = json.loads(raw)["error"]
    assert error["type"] == "invalid_request_error"
    assert f"{where.split(' (')[0]} holds a surrogate" in error["message"]
    assert error["param"] == (None if where.startswith("a key") else where.split(" (")[0])
    assert upstream.requests == []  # the upstream was not called


async def test_a_surrogate_encoded_as_utf8_bytes_is_a_400_too(upstream):
    body = b'{"model": "support", "messages": [{"role": "user", "content": "Hi \xed\xa0\x80"}]}'
    async with serving(agent_of(upstream, "openai")) as api:
        status, raw = await post(api, body)
    assert status == 400 and "messages[0].content holds a surrogate" in raw
    assert upstream.requests == []


@pytest.mark.parametrize("stream", [False, True])
async def test_an_escaped_pair_from_the_client_is_its_character(upstream, stream):
    upstream.script(Reply(text="ok"))
    async with serving(agent_of(upstream, "openai")) as api:
        status, raw = await post(api, raw_body(stream=stream, messages=[
            {"role": "user", "content": EMOJI_TEXT}]))  # escaped: \ud83d\ude00 ...
    assert status == 200, raw
    assert upstream.requests[0].body["messages"][-1]["content"] == EMOJI_TEXT


def client_tool() -> list[dict[str, Any]]:
    return [TOOL]


async def answer(api: openai.AsyncOpenAI, stream: bool) -> tuple[str, str, str]:
    """The content, reasoning and the client tool call's arguments of one answer."""
    if not stream:
        reply = await api.chat.completions.create(model="support", messages=HI,
                                                  tools=client_tool())
        message = reply.choices[0].message
        calls = message.tool_calls or []
        return (message.content or "", getattr(message, "reasoning_content", None) or "",
                "".join(c.function.arguments for c in calls))
    events = await api.chat.completions.create(model="support", messages=HI,
                                               tools=client_tool(), stream=True)
    content, reasoning, arguments = [], [], []
    async for event in events:
        if not event.choices:
            continue
        delta = event.choices[0].delta
        content.append(delta.content or "")
        reasoning.append(getattr(delta, "reasoning_content", None) or "")
        arguments += [c.function.arguments or "" for c in delta.tool_calls or []]
    return "".join(content), "".join(reasoning), "".join(arguments)


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("delta_size", [1, 2, 3, 5])
async def test_surrogate_halves_the_upstream_splits_across_events_are_joined(
        upstream, wire, stream, delta_size):
    """Text, reasoning and tool-call arguments cut into UTF-16 code units: every emoji
    arrives as two escaped halves, in one event or in two, at every boundary."""
    upstream.script(Reply(text=EMOJI_TEXT, reasoning=f"Think {EMOJI_TEXT}",
                          tool_calls=[FakeToolCall("call_1", "lookup",
                                                   f'{{"q": "{EMOJI_TEXT}"}}')],
                          delta_size=delta_size, code_units=True))
    async with serving(agent_of(upstream, wire)) as api:
        content, reasoning, arguments = await answer(api, stream)
    assert content == EMOJI_TEXT
    assert reasoning == f"Think {EMOJI_TEXT}"
    assert json.loads(arguments) == {"q": EMOJI_TEXT}


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("delta_size", [1, 4])
async def test_a_lone_surrogate_from_the_upstream_becomes_the_replacement_character(
        upstream, wire, stream, delta_size):
    upstream.script(Reply(text=f"a{LONE}b \udc00 end \ud83d", reasoning=f"r{LONE}",
                          tool_calls=[FakeToolCall("call_1", "lookup", {"q": f"x{LONE}"})],
                          delta_size=delta_size))
    async with serving(agent_of(upstream, wire)) as api:
        content, reasoning, arguments = await answer(api, stream)
    assert content == "a\ufffdb \ufffd end \ufffd"
    assert reasoning == "r\ufffd"
    assert json.loads(arguments) == {"q": "x\ufffd"}


# ---------------------------------------------------------------- a scripted model served


async def test_the_demo_config_answers_every_request_also_at_once(monkeypatch):
    """``tripwire serve -c examples/demo.toml``: its scripted model starts the script
    again for each run, so every request gets the whole demo (a tool call, then the
    masked answer), one after another and several at a time."""
    import asyncio
    from pathlib import Path

    from tripwire import registry
    from tripwire.config import load_config

    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "unicode-normalizer,keyword-guard,"
                       "token-limiter,batch-parts,prefill-error-handler")
    registry.reset()
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    gateway = Gateway.from_config(load_config("examples/demo.toml"))
    try:
        async with running(gateway, "127.0.0.1", 0) as url:
            api = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)

            async def ask(stream: bool) -> str:
                question = [{"role": "user", "content": "Where is my order 42?"}]
                if not stream:
                    reply = await api.chat.completions.create(model="support",
                                                              messages=question)
                    return reply.choices[0].message.content or ""
                events = await api.chat.completions.create(model="support",
                                                           messages=question, stream=True)
                return "".join([e.choices[0].delta.content or "" async for e in events
                                if e.choices])

            try:
                answers = [await ask(False), await ask(True), await ask(False)]
                answers += await asyncio.gather(*(ask(i % 2 == 0) for i in range(4)))
            finally:
                await api.close()
    finally:
        await gateway.aclose()
        registry.reset()
    assert len(answers) == 7
    for text in answers:
        assert "shipped on Monday" in text and "[REDACTED]" in text
        assert "ACME-INTERNAL-7731" not in text


async def test_a_scripted_model_that_ran_out_is_a_502_not_a_500(upstream):
    from tripwire.testing import MockModel

    agent = Agent(id="support", model=MockModel(["only once"]))
    async with serving(agent) as api:
        first = await api.chat.completions.create(model="support", messages=HI)
        with pytest.raises(openai.InternalServerError) as caught:
            await api.chat.completions.create(model="support", messages=HI)
    assert first.choices[0].message.content == "only once"
    assert caught.value.status_code == 502
    assert caught.value.body["type"] == "upstream_error"


async def test_a_per_run_script_starts_again_for_each_run_even_interleaved():
    import asyncio

    from tripwire.testing import MockModel

    model = MockModel([{"tool_calls": [{"tool_name": "lookup", "args": {"q": "a"}}]},
                       "done"], per_run=True, chunk_delay=0.01)
    seen: list[str] = []

    def lookup(q: str) -> str:
        seen.append(q)
        return "found"

    from tripwire import tool

    agent = Agent(id="a", model=model, tools=[tool(lookup)])
    results = await asyncio.gather(*(agent.generate(f"ask {i}") for i in range(3)))
    assert [r.text for r in results] == ["done"] * 3
    assert seen == ["a"] * 3
    assert len({r.run_id for r in results}) == 3
    assert sorted(req.run_id for req in model.requests) == sorted(
        [r.run_id for r in results] * 2)


# ---------------------------------------------------------------- surrogates the process makes


class Halves:
    """An output processor that cuts each text delta's last character into a lone
    surrogate: what no provider mends, the gateway's own encoding must."""

    id = "halves"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta" and part.payload["text"].endswith("!"):
            text = part.payload["text"][:-1] + "\udc00"
            return part.evolve(payload={**part.payload, "text": text})
        return part


@pytest.mark.parametrize("stream", [False, True])
async def test_a_lone_surrogate_a_model_or_processor_of_the_process_makes_is_never_a_500(stream):
    """A scripted model (no provider mends its text) and a processor both make lone
    surrogates: each reaches the client as U+FFFD, in the text, the reasoning and a
    client tool's arguments, never as a 500 or an error event."""
    from tripwire.testing import MockModel

    model = MockModel([{"text": f"a{LONE} b!", "reasoning": f"r{LONE}",
                        "tool_calls": [{"tool_name": "lookup", "args": {"q": f"x{LONE}"}}]}],
                      per_run=True)
    agent = Agent(id="support", model=model, output_processors=[Halves()])
    async with serving(agent) as api:
        content, reasoning, arguments = await answer(api, stream)
    assert content == "a\ufffd b\ufffd"
    assert reasoning == "r\ufffd"
    assert json.loads(arguments) == {"q": "x\ufffd"}
