"""generate, stream and generate_sync: the stream's awaitables and replay, and both
paths running the same processors on the same chunks."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.helpers import AsyncPass, Cache, Shout, delete_account
from tripwire import Chunk, Processor, hookimpl
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


# -- generate() makes no chunk nobody would see: the same result as a stream either way

class _Script:
    """A model that sends prepared chunks."""

    provider = "test"
    model_id = "script"

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks

    async def stream(self, request):
        for c in self.chunks:
            yield c


class _SyncPass(Processor):
    id = "sync-pass"

    @hookimpl
    def process_output_stream(self, part):
        return part


class _DropReasoning(Processor):
    id = "drop-reasoning"

    @hookimpl
    def process_output_stream(self, part):
        return None if part.type == "reasoning-delta" else part


class _Announce(Processor):
    """Writes a data chunk before the model call (pending when the step starts)."""

    id = "announce"

    @hookimpl
    async def process_input(self, messages, writer):
        await writer.custom({"type": "data-note", "data": {"n": len(messages)}})


_PROCESSORS = {"none": [], "sync": [_SyncPass], "async": [AsyncPass], "shout": [Shout],
               "drop": [_DropReasoning, _SyncPass], "data": [_Announce]}

_parts = st.one_of(
    st.builds(lambda t, i: Chunk("text-delta", {"id": i, "text": t}),
              st.text("ab c.", max_size=4), st.sampled_from(["t1", "t2"])),
    st.builds(lambda t: Chunk("reasoning-delta", {"id": "r", "text": t}),
              st.text("xy ", min_size=1, max_size=3)),
    st.builds(lambda d: Chunk("data-model", {"data": d}), st.integers(0, 9)),
)


def _outcome(result) -> tuple:
    return (result.text, result.finish_reason, result.usage,
            [(s.text, s.reasoning, s.finish_reason, s.usage) for s in result.steps],
            [(m.role, [type(p).__name__ for p in m.content.parts], m.text)
             for m in result.messages])


@given(parts=st.lists(_parts, max_size=12), finish=st.booleans(),
       kind=st.sampled_from(sorted(_PROCESSORS)))
@settings(max_examples=150, deadline=None)
def test_generate_and_stream_give_the_same_result_for_any_chunks(parts, finish, kind):
    from tripwire import Agent

    chunks = list(parts)
    if finish:
        chunks.append(Chunk("finish", {"finish_reason": "stop",
                                       "usage": {"input_tokens": 1, "output_tokens": 2}}))

    def agent() -> Agent:
        procs = [p() for p in _PROCESSORS[kind]]
        return Agent(id="a", model=_Script(chunks), default_error_processors=False,
                     input_processors=[p for p in procs if "process_input" in dir(p)],
                     output_processors=[p for p in procs if "process_input" not in dir(p)])

    async def both() -> tuple[tuple, tuple, list[Chunk]]:
        generated = await agent().generate("hi")
        stream = agent().stream("hi")
        seen = [c async for c in stream]
        return _outcome(generated), _outcome(await stream.result), seen

    generated, streamed, seen = asyncio.run(both())
    assert generated == streamed
    # and the stream carried what the result says
    assert "".join(c.payload["text"] for c in seen if c.type == "text-delta") == streamed[0]
