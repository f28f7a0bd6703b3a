"""Hook implementations (wrappers aside) are bound once and shared by every run, the
call's own values (``state``, ``writer``, ``retry_count``, ...) given at each
invocation; so is a hook's whole chain when all of its processors are: nothing of one
run may reach another, in the same event loop or in other threads, ``retry_count`` is
the current one on every path, and the audit records each run's calls in that run
alone."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest

from tripwire import Chunk, Processor, hookimpl, monitor, parallel
from tripwire.hooks._validation import compile_processor
from tripwire.testing import mock_agent


class Plain(Processor):
    """Declares only its own arguments (and ``abort``): bound once."""

    id = "plain"

    def __init__(self) -> None:
        self.inputs: list[str] = []

    @hookimpl
    async def process_input(self, messages, abort):
        await asyncio.sleep(0)  # another run goes on in between
        self.inputs.append(messages[-1].text)
        if messages[-1].text == "trip":
            abort("tripped")

    @hookimpl
    def process_output_stream(self, part):
        return part

    @hookimpl
    def process_output_result(self, result):
        return None


class Upper(Processor):
    """Changes every chunk: the stages after it get the changed one."""

    id = "upper"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.text.upper()})
        return part


class Stateful(Processor):
    """Declares ``state``: given this call's at each invocation."""

    id = "stateful"

    def __init__(self) -> None:
        self.seen: list[dict] = []

    @hookimpl
    def process_input(self, messages, state):
        self.seen.append(dict(state))
        state["n"] = state.get("n", 0) + 1


def shared_args(processor: Processor) -> dict[str, list]:
    return {hook: list(b.args) for hook, b in compile_processor(processor).shared_bounds.items()}


async def test_a_plain_implementation_is_bound_once_and_its_arguments_never_written():
    plain = Plain()
    agent = mock_agent(["one two three"] * 4, input_processors=[plain],
                       output_processors=[Upper(), plain])
    await agent.generate("first")
    bounds = dict(compile_processor(plain).shared_bounds)
    assert set(bounds) == {"process_input", "process_output_stream", "process_output_result"}
    async for _ in agent.stream("second"):
        pass
    other = mock_agent(["x"], input_processors=[plain], output_processors=[plain])  # another agent shares them too
    await other.generate("third")
    assert compile_processor(plain).shared_bounds == bounds
    assert all(compile_processor(plain).shared_bounds[h] is b for h, b in bounds.items())
    # Only ``abort`` is bound in them; no message, chunk or result of a run is kept.
    args = shared_args(plain)
    assert args["process_output_stream"] == [None]
    assert args["process_output_result"] == [None]
    assert args["process_input"][0] is None and callable(args["process_input"][1])
    assert plain.inputs == ["first", "second", "third"]


async def test_the_fast_path_and_the_general_loop_both_leave_shared_arguments_alone():
    plain = Plain()
    fast = mock_agent(["alpha beta gamma"], output_processors=[plain])
    general = mock_agent(["alpha beta gamma"], output_processors=[Upper(), plain])
    assert (await fast.generate("x")).text == "alpha beta gamma"
    assert (await general.generate("x")).text == "ALPHA BETA GAMMA"
    assert shared_args(plain)["process_output_stream"] == [None]


async def test_an_implementation_that_declares_state_gets_a_fresh_state_per_run():
    stateful = Stateful()
    agent = mock_agent(["a", "b", "c"], input_processors=[stateful])
    for prompt in ("a", "b", "c"):
        await agent.generate(prompt)
    assert stateful.seen == [{}, {}, {}]
    # bound once; the state is given per invocation, never kept in the binding
    assert shared_args(stateful)["process_input"] == [None, None]


class Wrapper(Processor):
    id = "wrapper"

    @hookimpl(wrapper=True)
    def process_input(self, state):
        state["wrapped"] = True
        yield


class RejectFirst(Processor):
    """Asks for the first step to be run again; records the retry counts it sees."""

    id = "reject-first"

    def __init__(self) -> None:
        self.step_counts: list[int] = []
        self.result_counts: list[int] = []

    @hookimpl
    def process_output_step(self, abort, retry_count):
        self.step_counts.append(retry_count)
        if retry_count == 0:
            abort("again", retry=True)

    @hookimpl
    def process_output_result(self, retry_count):
        self.result_counts.append(retry_count)


class StreamCounts(Processor):
    """Records the retry count and state it is given with each text chunk."""

    id = "stream-counts"

    def __init__(self) -> None:
        self.counts: list[tuple[str, int, int]] = []

    @hookimpl
    def process_output_stream(self, part, retry_count, state, stream_parts):
        if part.type == "text-delta":
            state["n"] = state.get("n", 0) + 1
            self.counts.append((part.text.strip(), retry_count, len(stream_parts)))
        return part


@pytest.mark.parametrize("ahead", [[], [Upper]], ids=["fast-path", "general-loop"])
async def test_retry_count_reaches_shared_bindings_on_every_path(ahead):
    reject, counts = RejectFirst(), StreamCounts()
    agent = mock_agent(["first try", "second try"], max_processor_retries=2,
                       output_processors=[p() for p in ahead] + [counts, reject])
    result = await agent.generate("x")
    assert result.text.lower() == "second try"
    assert reject.step_counts == [0, 1]
    assert reject.result_counts == [0]  # the accepted step reset it
    words = [(w.lower(), c) for w, c, _ in counts.counts]
    assert words == [("first", 0), ("try", 0), ("second", 1), ("try", 1)]
    # a second run starts from 0 again, with its own stream parts
    counts.counts.clear()
    await mock_agent(["once"], output_processors=[p() for p in ahead] + [counts]).generate("y")
    assert [(w.lower(), c, n) for w, c, n in counts.counts] == [("once", 0, 2)]
    assert all(a is None for a in shared_args(counts)["process_output_stream"])


async def test_concurrent_runs_each_see_their_own_input_and_abort_alone():
    plain = Plain()
    agent = mock_agent(["ok"] * 40, input_processors=[plain])
    prompts = [f"run {i}" if i % 5 else "trip" for i in range(40)]
    results = await asyncio.gather(*(agent.generate(p) for p in prompts))
    assert sorted(plain.inputs) == sorted(prompts)
    for prompt, result in zip(prompts, results, strict=True):
        assert (result.tripwire is not None) == (prompt == "trip")
        if result.tripwire is not None:
            assert result.tripwire.processor_id == "plain"


def test_runs_in_many_threads_each_see_their_own_input():
    """Shared bindings are read by runs in other threads too (``generate_sync``)."""

    class Echo(Processor):
        id = "echo"

        @hookimpl
        def process_input(self, messages, state):
            text = messages[-1].text
            if text != threading.current_thread().name or state:
                wrong.append((threading.current_thread().name, text, dict(state)))
            state["thread"] = text

        @hookimpl
        def process_output_result(self, state):
            if state.get("thread") != threading.current_thread().name:
                wrong.append((threading.current_thread().name, dict(state)))

        @hookimpl
        def process_output_stream(self, part):
            return part

    wrong: list[tuple[object, ...]] = []
    echo = Echo()
    agent = mock_agent(["ok"] * 800, input_processors=[echo], output_processors=[echo])

    def runs() -> None:
        for _ in range(100):
            agent.generate_sync(threading.current_thread().name)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=runs, name=f"t{i}") for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []
    assert len(agent.model.requests) == 800


async def test_the_audit_of_concurrent_runs_records_each_runs_calls_in_that_run():
    plain = Plain()
    agent = mock_agent(["one two"] * 6, input_processors=[plain], output_processors=[plain],
                       audit=True)
    results = await asyncio.gather(*(agent.generate(f"p{i}") for i in range(6)))
    for result in results:
        assert {r.processor_id for r in result.audit} == {"plain"}
        assert [(r.hook, r.step, r.calls) for r in result.audit] == [
            ("process_input", None, 1),
            ("process_output_stream", 0, 4),  # the step's chunks...
            ("process_output_result", None, 1),
            ("process_output_stream", None, 1),  # ...and the run's finish
        ]
    # The audit binds nothing per run in a shared implementation either.
    assert shared_args(plain)["process_output_stream"] == [None]


def test_chunks_of_a_writer_pass_a_shared_stage_in_the_general_loop():
    """A data chunk written by a hook goes through the stages that take data chunks."""

    class Writes(Processor):
        id = "writes"
        process_data_parts = True

        @hookimpl
        async def process_input(self, messages, writer):
            await writer.custom(Chunk("data-note", {"text": "hello"}))

    class SeesData(Processor):
        id = "sees-data"
        process_data_parts = True

        def __init__(self) -> None:
            self.kinds: list[str] = []

        @hookimpl
        def process_output_stream(self, part):
            self.kinds.append(part.type)
            return part

    sees = SeesData()
    agent = mock_agent(["ok"], input_processors=[Writes()], output_processors=[sees])
    agent.generate_sync("x")
    assert "data-note" in sees.kinds
    assert shared_args(sees)["process_output_stream"] == [None]


async def test_a_chain_of_shared_bindings_is_built_once_for_the_agents_own_lists():
    plain = Plain()
    agent = mock_agent(["a", "b", "c"], input_processors=[plain], output_processors=[plain])
    await agent.generate("one")
    chains, stages = dict(agent._plans.chains), agent._plans.stages
    assert chains[("inputs", "process_input")] == [
        compile_processor(plain).shared_bounds["process_input"]]
    assert stages == [compile_processor(plain).shared_bounds["process_output_stream"]]
    await agent.generate("two")
    assert all(agent._plans.chains[k] is v for k, v in chains.items())
    assert agent._plans.stages is stages
    # A call with lists of its own builds its chains for itself.
    other = Plain()
    await agent.generate("three", input_processors=[other])
    assert all(agent._plans.chains[k] is v for k, v in chains.items())
    assert agent._plans.stages is stages
    assert other.inputs == ["three"] and plain.inputs == ["one", "two"]


async def test_chains_that_bind_per_call_are_built_per_call():
    stateful, plain = Stateful(), Plain()
    agent = mock_agent(["a", "b"], input_processors=[plain, Wrapper(), stateful])
    for prompt in ("a", "b"):
        await agent.generate(prompt)
    assert ("inputs", "process_input") not in agent._plans.chains  # a wrapper is bound per call
    assert stateful.seen == [{}, {}]  # a fresh state each run (its own: not the wrapper's)
    other = Plain()
    other.id = "plain-2"
    grouped = mock_agent(["a", "b"], input_processors=[parallel(Plain(), other, id="g")])
    for prompt in ("a", "b"):
        await grouped.generate(prompt)
    assert ("inputs", "process_input") not in grouped._plans.chains


async def test_a_processor_left_out_by_its_mode_is_recorded_in_every_runs_audit():
    class Check(Processor):
        id = "check"

        @hookimpl
        def process_input(self):
            return None

    agent = mock_agent(["a", "b"], input_processors=[monitor(Check()), Plain()], audit=True)
    for prompt in ("a", "b"):
        result = await agent.generate(prompt)
        assert [r.outcome for r in result.audit
                if r.processor_id == "check"][:1] == ["skipped-by-mode"]
    await agent.aclose()
