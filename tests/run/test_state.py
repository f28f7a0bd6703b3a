"""Per-call state and processor lists: each processor's state is its own for one call,
lists may depend on the request context or be replaced per call."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.helpers import Blocker, Shout, eventually
from tripwire import Processor, RequestContext, hookimpl
from tripwire.testing import MockModel


async def test_state_is_per_processor_per_call_and_shared_across_its_hooks(make_bare_agent):
    class Counter(Processor):
        id = "counter"

        @hookimpl
        def process_output_stream(self, part, state):
            state["n"] = state.get("n", 0) + (part.type == "text-delta")
            return part

        @hookimpl
        def process_output_result(self, state):
            totals.append(state["n"])

    class Other(Processor):
        id = "other"

        @hookimpl
        def process_output_result(self, state):
            others.append(dict(state))

    totals, others = [], []
    agent = make_bare_agent(["a b", "c d e"], output_processors=[Counter(), Other()])
    await agent.generate("x")
    await agent.generate("y")
    assert totals == [2, 3]
    assert others == [{}, {}]


async def test_concurrent_calls_never_see_each_others_state(make_bare_agent):
    class Track(Processor):
        id = "track"

        @hookimpl
        async def process_input(self, messages, state):
            state["mine"] = messages[0].text
            await asyncio.sleep(0)

        @hookimpl
        async def process_output_stream(self, part, state):
            await asyncio.sleep(0)
            return part

        @hookimpl
        def process_output_result(self, state, messages):
            results.append((state["mine"], messages[-1].text))

    results = []
    n = 50
    model = MockModel([f"reply {i}" for i in range(n)])
    # One MockModel serves calls in arrival order; what matters is that each call's state
    # holds its own input.
    agent = make_bare_agent(model=model, input_processors=[Track()], output_processors=[Track()])
    await asyncio.gather(*(agent.generate(f"user {i}") for i in range(n)))
    assert sorted(r[0] for r in results) == sorted(f"user {i}" for i in range(n))
    assert len({r[0] for r in results}) == n


async def test_processor_lists_may_be_callables_of_the_request_context(make_bare_agent):
    class Words(Processor):
        id = "words"

        def __init__(self, words):
            self.words = words

        @hookimpl
        def process_input(self, messages, abort):
            if any(w in messages[-1].text for w in self.words):
                abort("blocked word")

    agent = make_bare_agent(["fine"],
                            input_processors=lambda ctx: [Words(ctx.get("blocked", []))])
    ctx = RequestContext({"blocked": ["banana"]})
    assert (await agent.generate("banana split", request_context=ctx)).tripwire is not None
    assert (await agent.generate("banana split")).text == "fine"


async def test_per_call_lists_replace_the_agents(make_bare_agent):
    agent = make_bare_agent(["one", "two"], output_processors=[Shout()])
    assert (await agent.generate("x")).text == "ONE"
    assert (await agent.generate("x", output_processors=[])).text == "two"


async def test_processor_index_is_set_at_runtime(make_bare_agent):
    a, b = Shout(), Blocker("never", pid="b")
    await make_bare_agent(["x"], input_processors=[b], output_processors=[a]).generate("x")
    assert (b.processor_index, a.processor_index) == (0, 1)


class Kept:
    """Something a processor keeps in its state for the run (a cache's lease)."""


class Keeps(Processor):
    """Keeps a ``Kept`` in its state at the model call; remembers the state."""

    id = "keeps"

    def __init__(self):
        self.states = []

    @hookimpl
    def process_llm_request(self, state):
        state["kept"] = Kept()
        self.states.append(state)


@pytest.mark.parametrize("mode", ["generate", "stream", "tripped stream"])
async def test_the_state_is_dropped_when_the_run_ends(make_bare_agent, no_gc, mode):
    """What a processor keeps in ``state`` goes with the run (however it ends), even
    while the caller holds the stream."""
    keeps = Keeps()
    agent = make_bare_agent(["a b"], input_processors=[keeps],
                            output_processors=[Blocker("process_output_stream")]
                            if mode == "tripped stream" else [])
    if mode == "generate":
        await agent.generate("x")
    else:
        stream = agent.stream("x")
        async for _ in stream:
            pass
        assert (stream.tripwire is not None) == (mode == "tripped stream")
    assert keeps.states == [{}]


async def test_a_monitor_still_running_keeps_its_state_until_it_is_done(make_bare_agent):
    started, release = asyncio.Event(), asyncio.Event()
    seen = []

    class Watches(Processor):
        id = "watches"
        mode = "monitor"

        @hookimpl
        async def process_input(self, state):
            state["since"] = "the start"
            self.state = state
            started.set()
            await release.wait()
            seen.append(dict(state))

    watches = Watches()
    agent = make_bare_agent(model=MockModel(["ok"], chunk_delay=0.01), input_processors=[watches])
    run = asyncio.ensure_future(agent.generate("x"))
    await asyncio.wait_for(started.wait(), 30)
    assert (await run).text == "ok"  # the run ended while the monitor still runs
    assert watches.state == {"since": "the start"}
    release.set()
    await eventually(lambda: seen)
    assert seen == [{"since": "the start"}]
    await eventually(lambda: watches.state == {})  # dropped once the monitor is done
