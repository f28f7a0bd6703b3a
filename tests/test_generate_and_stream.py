"""generate, stream and generate_sync: the stream's awaitables and replay, and both
paths running the same processors on the same chunks."""

from __future__ import annotations

import pytest
from helpers import Cache, delete_account

from tripwire import Processor, hookimpl
from tripwire.testing import MockResponse


async def test_stream_awaitables_finish_the_run_and_iteration_replays(make_bare_agent):
    stream = make_bare_agent(["hello world"]).stream("x")
    assert await stream.text == "hello world"
    assert (await stream.usage).output_tokens == 2
    assert await stream.finish_reason == "stop"
    replay = [c.type async for c in stream]
    assert replay[0] == "step-start" and replay[-1] == "finish"


def test_generate_sync_for_scripts(make_bare_agent):
    result = make_bare_agent(["sync works"]).generate_sync("x")
    assert result.text == "sync works"


@pytest.mark.parametrize("cached", [False, True])
async def test_generate_and_stream_run_the_same_processors_on_the_same_chunks(
    make_bare_agent, cached,
):
    seen: dict[str, list] = {}

    class Record(Processor):
        id = "record"

        @hookimpl
        def process_output_stream(self, part, state):
            seen.setdefault(current, []).append((part.type, part.payload.get("tool_name")))
            return part

    responses = [
        MockResponse(text="Checking.", tool_calls=[{"tool_name": "delete_account",
                                                    "args": {"user_id": "u"}, "tool_call_id": "c"}]),
        MockResponse(text="Done."),
    ]
    cache = Cache()
    if cached:  # prime the cache: both paths below are then served from it
        await make_bare_agent(responses, tools=[delete_account],
                              input_processors=[cache]).generate("x")
    for current in ("generate", "stream"):
        agent = make_bare_agent([] if cached else responses, tools=[delete_account],
                                input_processors=[cache] if cached else [],
                                output_processors=[Record()])
        if current == "generate":
            await agent.generate("x")
        else:
            [c async for c in agent.stream("x")]
    assert seen["generate"] == seen["stream"]
    assert ("tool-result", "delete_account") in seen["stream"]
    assert seen["stream"][-1] == ("finish", None)
