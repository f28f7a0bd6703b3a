"""Stopping a run: breaking out of a stream or cancelling the task closes the model
stream and runs no further hooks; a ``break`` ends the run without the garbage
collector's help, and the result afterwards is what the run had produced so far."""

from __future__ import annotations

import asyncio
import weakref

import pytest

from tests.support.helpers import eventually
from tripwire import Processor, hookimpl, tool
from tripwire.chunks import Usage
from tripwire.testing import MockModel, MockResponse


async def test_breaking_out_of_a_stream_closes_the_model_and_runs_no_more_hooks(make_bare_agent):
    calls = []

    class Watch(Processor):
        id = "watch"

        @hookimpl
        def process_output_stream(self, part):
            calls.append(part.type)
            return part

        @hookimpl
        def process_output_result(self):
            calls.append("result")

    model = MockModel(["one two three four five six"], chunk_delay=0.001)
    stream = make_bare_agent(model=model, output_processors=[Watch()]).stream("x")
    async with stream:
        async for chunk in stream:
            if chunk.type == "text-delta":
                break
    assert model.closed_early == 1
    assert "result" not in calls
    n = len(calls)
    await asyncio.sleep(0.02)
    assert len(calls) == n


async def test_cancelling_the_task_stops_the_model_call(make_bare_agent):
    model = MockModel(["a b c d e f g h"], chunk_delay=0.05)
    agent = make_bare_agent(model=model)
    task = asyncio.create_task(agent.generate("x"))
    for _ in range(1000):  # until the model call is streaming (held in chunk_delay)
        if model.requests:
            break
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert model.closed_early == 1


class Kept:
    """Something a processor keeps for the run (a cache's lease on its model call)."""


class KeepsState(Processor):
    """Keeps a ``Kept`` in its per-call ``state`` for each model call, and records the
    chunks it sees."""

    id = "keeps-state"

    def __init__(self):
        self.kept = []  # weak references to what it kept
        self.seen = []

    @hookimpl
    def process_llm_request(self, state):
        state["kept"] = kept = Kept()
        self.kept.append(weakref.ref(kept))

    @hookimpl
    def process_output_stream(self, part):
        self.seen.append(part.type)
        return part


@pytest.mark.parametrize("held", [False, True], ids=["stream-dropped", "stream-held"])
async def test_a_break_ends_the_run_without_the_garbage_collector(make_bare_agent, no_gc, held):
    """The loop's ``break`` drops the iteration; the event loop closes it (the stream
    must not hold it in a reference cycle), which closes the model call, runs no further
    hook and drops the run's per-call state, whether or not the caller still holds the
    stream."""
    keeper = KeepsState()
    model = MockModel(["one two three four five six"], chunk_delay=0.001)
    agent = make_bare_agent(model=model, input_processors=[keeper], output_processors=[keeper])
    streams = [agent.stream("x")]
    async for chunk in streams[0] if held else streams.pop():
        if chunk.type == "text-delta":
            break
    await eventually(lambda: model.closed_early == 1 and keeper.kept[0]() is None)
    seen = len(keeper.seen)
    await asyncio.sleep(0.02)
    assert len(keeper.seen) == seen
    assert len(streams) == held


class SlowToClose(MockModel):
    """A model whose stream takes a while to close (an HTTP response being released)."""

    async def stream(self, request):
        try:
            async for chunk in super().stream(request):
                yield chunk
        finally:
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("turns", [0, 1, 2, 5])
async def test_the_text_right_after_a_break_is_the_text_so_far(make_bare_agent, no_gc, turns):
    """``await stream.text`` after a ``break`` meets the event loop closing the dropped
    iteration (``turns`` later, while the model call is still closing): it waits for
    that close, never reads the result early nor finds the run's generator busy."""
    errors = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    stream = make_bare_agent(model=SlowToClose(["one two three four"], chunk_delay=0.001)).stream(
        "x"
    )
    received = []
    async for chunk in stream:
        if chunk.type == "text-delta":
            received.append(chunk.payload["text"])
            if len(received) == 2:
                break
    for _ in range(turns):
        await asyncio.sleep(0)
    assert await stream.text == "one two "
    assert "".join(received) == "one two "
    await asyncio.sleep(0.05)
    assert errors == []


@tool
def ping() -> str:
    """Ping."""
    return "pong"


async def test_the_result_after_a_break_holds_the_accepted_steps_and_the_text_so_far(
    make_bare_agent, no_gc
):
    usage = Usage(input_tokens=3, output_tokens=2, total_tokens=5)
    model = MockModel(
        [
            MockResponse(
                text="first ", tool_calls=[{"tool_name": "ping", "args": {}}], usage=usage
            ),
            MockResponse(text="second step text"),
        ]
    )
    stream = make_bare_agent(model=model, tools=[ping]).stream("hello")
    async for chunk in stream:
        if chunk.type == "text-delta" and chunk.payload["text"].startswith("second"):
            break
    result = await stream.result
    assert result.text == await stream.text == "first second "
    assert [s.text for s in result.steps] == ["first "]  # the step cut short is not one
    assert result.usage == await stream.usage == usage  # of the accepted steps
    assert result.finish_reason == await stream.finish_reason == "unknown"  # never finished
    assert result.tripwire is None and stream.tripwire is None
