"""Stopping a run: breaking out of a stream or cancelling the task closes the model
stream and runs no further hooks."""

from __future__ import annotations

import asyncio

import pytest

from tripwire import Processor, hookimpl
from tripwire.testing import MockModel


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
