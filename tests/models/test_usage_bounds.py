"""Token usage from the wire: checked in one place for both providers, streamed or
not. A figure that is not a whole number from 0 to ``MAX_TOKEN_COUNT`` (``1e20``,
``-3``, ``2.5``, ``true``, ``"12"``) is logged and read as that bound; ``cost-guard``
charges such a call at the bound and trips, on every budget store (memory, an SQLite
file, a real redis-server), instead of overflowing its counters after the answer
streamed and leaving the call uncharged."""

from __future__ import annotations

import logging

import pytest

from tests.support.fake_llm_server import Reply
from tests.support.helpers import WIRES, collect, request
from tripwire import RESOURCE_ID_KEY, Agent
from tripwire.caches import close_cache, open_cache
from tripwire.chunks import MAX_TOKEN_COUNT, Usage, out_of_range
from tripwire.plugins.cost_guard import CostGuard

#: What a server may send where a token count belongs, and is no count.
ABSURD = [1e20, 10**20, MAX_TOKEN_COUNT + 1, -3, 2.5, True, "12", [1], {"n": 1}]


async def _usage(llm_server, wire: str, stream: bool, prompt, completion=7) -> Usage:
    llm_server.script(Reply(text="hi", usage=(prompt, completion)))
    async with llm_server.model(wire) as model:
        chunks = await collect(model) if stream else await model.generate(request())
    assert "".join(c.payload["text"] for c in chunks if c.type == "text-delta") == "hi"
    (finish,) = [c for c in chunks if c.type == "finish"]
    return finish.payload["usage"]


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "generate"])
@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("count", ABSURD, ids=repr)
async def test_a_count_out_of_range_is_read_as_the_bound_and_logged(
    llm_server, wire, stream, count, caplog
):
    with caplog.at_level(logging.WARNING, logger="tripwire.models"):
        usage = await _usage(llm_server, wire, stream, count)
    assert usage.input_tokens >= MAX_TOKEN_COUNT
    assert usage.output_tokens == 7
    assert "input_tokens" in out_of_range(usage)
    assert f"is not a token count (a whole number from 0 to {MAX_TOKEN_COUNT})" in caplog.text


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("count", [0, 12, 12.0, MAX_TOKEN_COUNT // 2])
async def test_a_count_in_range_is_read_as_it_is(llm_server, wire, count, caplog):
    with caplog.at_level(logging.WARNING, logger="tripwire.models"):
        usage = await _usage(llm_server, wire, True, count)
    assert usage.input_tokens == int(count) and type(usage.input_tokens) is int
    assert out_of_range(usage) == {}
    assert "token count" not in caplog.text


def test_a_usage_can_be_counted_only_below_the_bound():
    assert out_of_range(Usage(3, 4, 7)) == {}
    assert out_of_range(Usage(MAX_TOKEN_COUNT, 4)) == {"input_tokens": MAX_TOKEN_COUNT}
    assert out_of_range(Usage(10**30, -1, 0)) == {"input_tokens": 10**30, "output_tokens": -1}


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request, tmp_path):
    if request.param == "memory":
        backend = open_cache("memory://")
    elif request.param == "sqlite":
        backend = open_cache(f"sqlite:///{tmp_path}/budget.db")
    else:
        backend = open_cache(request.getfixturevalue("redis_server").url)
    yield backend
    await close_cache(backend)


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "generate"])
@pytest.mark.parametrize("wire", WIRES)
async def test_an_absurd_usage_is_charged_at_the_bound_and_trips_a_shared_budget(
    llm_server, store, wire, stream, caplog
):
    """The issue's case: ``prompt_tokens: 1e20``. The run ends as it would (the answer
    is not followed by an error), the budget is charged the bound, and the next run of
    the same user is stopped before its model call, though the limit is far above the
    bound."""
    guard = CostGuard(limits={"max_total_tokens": 10**15}, scope="resource", cache=store,
                      charge_every=0)
    llm_server.script(Reply(text="first answer", usage=(1e20, 7)), Reply(text="never sent"))
    async with llm_server.model(wire) as model:
        agent = Agent(id="budgeted", model=model, input_processors=[guard],
                      output_processors=[guard], default_error_processors=False)
        ctx = {RESOURCE_ID_KEY: "u1"}

        async def ask():
            if not stream:
                return await agent.generate("hi", request_context=ctx)
            run = agent.stream("hi", request_context=ctx)
            async for _ in run:
                pass
            return await run.result

        with caplog.at_level(logging.WARNING):
            first = await ask()
            second = await ask()
    assert (first.text, first.finish_reason) == ("first answer", "stop")
    assert await store.get("cost-guard:resource:u1:input_tokens") == str(MAX_TOKEN_COUNT).encode()
    assert await store.get("cost-guard:resource:u1:output_tokens") == b"7"
    assert await store.get("cost-guard:resource:u1:usage_out_of_range") == b"1"
    assert second.tripwire is not None
    assert second.tripwire.reason == (
        f"Cost guard: max_total_tokens limit exceeded ({10**15}/{10**15})")
    assert len(llm_server.requests) == 1
    assert "reported a token usage out of range (input_tokens=" in caplog.text


async def test_a_run_budget_stops_the_run_after_the_step_that_reported_it(llm_server):
    """A run's own budget: the step after the one whose usage was out of range is
    never sent, however high the limits."""
    from tests.support.fake_llm_server import FakeToolCall
    from tripwire import tool

    @tool
    def lookup(q: str) -> str:
        """Look something up."""
        return "found"

    guard = CostGuard(limits={"max_input_tokens": 10**12, "max_cost_usd": 10**6},
                      prices={"*": {"input": 1, "output": 1}})
    llm_server.script(Reply(tool_calls=[FakeToolCall("c1", "lookup", {"q": "x"})],
                            usage=(5, "lots")),
                      Reply(text="never sent"))
    async with llm_server.openai() as model:
        agent = Agent(id="budgeted", model=model, tools=[lookup], input_processors=[guard],
                      output_processors=[guard], default_error_processors=False)
        result = await agent.generate("hi")
    assert result.tripwire is not None
    assert result.tripwire.reason.startswith("Cost guard: max_input_tokens limit exceeded")
    assert len(llm_server.requests) == 1
