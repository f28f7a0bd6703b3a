"""Tools in the agent loop: errors and unknown tools are reported to the model, calls
of one step run concurrently, max_steps ends the loop."""

from __future__ import annotations

import asyncio

from tests.support.helpers import delete_account
from tripwire import Processor, hookimpl, tool
from tripwire.testing import MockModel, MockResponse


async def test_tool_that_raises_gives_the_model_the_error_and_skips_process_tool_result(
    make_bare_agent,
):
    @tool
    def flaky(n: int) -> int:
        """Fails."""
        raise ValueError("service down")

    seen = []

    class Audit(Processor):
        id = "audit"

        @hookimpl
        def process_tool_result(self, tool_name):
            seen.append(tool_name)

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "flaky", "args": {"n": 1}}]), "sorry"])
    stream = make_bare_agent(model=model, tools=[flaky], output_processors=[Audit()]).stream("x")
    chunks = [c async for c in stream]
    err = next(c for c in chunks if c.type == "tool-error")
    assert err.payload["error"] == "ValueError: service down"
    tool_msg = next(m for m in model.requests[1].prompt if m["role"] == "tool")
    assert tool_msg["content"][0]["output"] == "ValueError: service down"
    assert tool_msg["content"][0]["is_error"] is True
    assert seen == []


async def test_several_tool_calls_run_concurrently(make_bare_agent):
    running = []
    peak = []

    @tool
    async def slow(i: int) -> int:
        """Slow."""
        running.append(i)
        peak.append(len(running))
        await asyncio.sleep(0.01)
        running.remove(i)
        return i

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "slow", "args": {"i": i}}
                                                for i in range(3)]), "done"])
    result = await make_bare_agent(model=model, tools=[slow]).generate("x")
    assert max(peak) == 3
    assert [r.result for r in result.tool_results] == [0, 1, 2]


async def test_unknown_tool_and_bad_arguments_are_reported_to_the_model(make_bare_agent):
    model = MockModel([MockResponse(tool_calls=[
        {"tool_name": "nope", "args": {}, "tool_call_id": "a"},
        {"tool_name": "delete_account", "args": {"user_id": 5}, "tool_call_id": "b"},
    ]), "ok"])
    result = await make_bare_agent(model=model, tools=[delete_account]).generate("x")
    errors = {r.tool_call_id: r.result for r in result.tool_results}
    assert "not available" in errors["a"] and "delete_account" in errors["a"]
    assert "user_id" in errors["b"] and "string" in errors["b"]


async def test_max_steps_stops_the_loop(make_bare_agent):
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "delete_account",
                                                 "args": {"user_id": str(i)}}]) for i in range(5)])
    result = await make_bare_agent(model=model, tools=[delete_account]).generate("x", max_steps=2)
    assert len(model.requests) == 2
    assert result.finish_reason == "tool-calls"


async def test_results_of_earlier_calls_reach_the_client_before_a_later_one_trips(
    make_bare_agent,
):
    """Tool results are passed through the output processors call by call; when the
    second call's result trips, the first call's result chunk still reaches the client,
    before the tripwire (and the stream's text and stored messages keep neither)."""

    @tool
    def lookup(i: int) -> str:
        """Look up."""
        return f"value {i}"

    class Block(Processor):
        id = "block"

        @hookimpl
        def process_tool_result(self, args, abort):
            if args["i"] == 1:
                abort("second result blocked")

    calls = [{"tool_name": "lookup", "args": {"i": i}, "tool_call_id": f"c{i}"}
             for i in range(2)]
    def agent():
        return make_bare_agent(model=MockModel([MockResponse(tool_calls=calls), "done"]),
                               tools=[lookup], output_processors=[Block()])

    stream = agent().stream("x")
    kinds = [(c.type, c.payload.get("tool_call_id")) async for c in stream]
    assert kinds[-2:] == [("tool-result", "c0"), ("tripwire", None)]
    assert ("tool-result", "c1") not in kinds
    assert stream.tripwire.processor_id == "block"
    result = await agent().generate("x")
    assert result.tripwire.processor_id == "block" and result.messages == []
