"""Cache short-circuit: process_llm_request returns a response instead of calling the
model; it is replayed through the output processors and its tool calls run."""

from __future__ import annotations

import pytest

from tests.support.helpers import Cache, Shout, delete_account, deleted
from tripwire import Chunk, Processor, hookimpl
from tripwire.testing import MockModel


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_cache_hit_is_replayed_through_output_processors(make_bare_agent, mode):
    cache = Cache()
    model = MockModel(["hello there"])
    agent = make_bare_agent(model=model, input_processors=[cache], output_processors=[Shout()])

    async def run():
        if mode == "generate":
            return (await agent.generate("hi")).text
        stream = agent.stream("hi")
        return "".join([c.payload["text"] async for c in stream if c.type == "text-delta"])

    assert await run() == "HELLO THERE"
    assert await run() == "HELLO THERE"
    assert len(model.requests) == 1
    assert cache.froms == [False, True]


async def test_cached_tool_calls_run_tools_and_process_tool_result(make_bare_agent):
    seen = []

    class Audit(Processor):
        id = "audit"

        @hookimpl
        def process_tool_result(self, tool_name, result):
            seen.append((tool_name, result))

    chunks = [Chunk("tool-call", {"tool_call_id": "c1", "tool_name": "delete_account",
                                  "args": {"user_id": "cached"}}),
              Chunk("finish", {"finish_reason": "tool-calls"})]

    class Canned(Processor):
        id = "canned"

        @hookimpl
        def process_llm_request(self, step_number):
            if step_number == 0:
                return {"response": chunks}
            return None

    deleted.clear()
    model = MockModel(["done"])
    result = await make_bare_agent(model=model, tools=[delete_account], input_processors=[Canned()],
                                   output_processors=[Audit()]).generate("x")
    assert seen == [("delete_account", "deleted")]
    assert result.steps[0].from_cache is True
    assert result.text == "done"


@pytest.mark.parametrize("kind", ["tool-result", "step-retry", "object-result", "step-start"])
async def test_a_cached_answer_cannot_hold_a_chunk_the_run_emits(make_bare_agent, kind):
    """A cached answer stands in for the model's: like a model, it may not send a chunk
    only the run makes (the guards read those as the run's word)."""
    from tripwire import ProcessorError

    class Canned(Processor):
        id = "canned"

        @hookimpl
        def process_llm_request(self):
            return {"response": [{"type": kind, "payload": {
                "tool_call_id": "c1", "tool_name": "t", "result": "secret"}},
                {"type": "finish", "payload": {"finish_reason": "stop"}}]}

    agent = make_bare_agent(["live"], input_processors=[Canned()])
    with pytest.raises(ProcessorError, match=f"cannot be of type '{kind}'"):
        await agent.generate("x")
