"""The output pipeline's generated per-chunk path: a chunk leaves the straight line at
any stage (changed, dropped, multiplied, failed) and goes on from the next stage, with
the same result, counts and arguments as a chunk every stage passes; and a run leaves
no reference cycle behind."""

from __future__ import annotations

import gc

import pytest

from tests.support.helpers import AsyncPass
from tripwire import Chunk, Processor, hookimpl
from tripwire.errors import ProcessorError
from tripwire.testing import MockModel

TEXT = "one two three four five six seven eight nine ten eleven twelve"
WORDS = TEXT.split()


class Record(Processor):
    """Passes every chunk on; keeps what it saw, and its arguments."""

    def __init__(self, pid):
        self.id = pid
        self.seen = []
        self.parts_seen = None
        self.retry_counts = []

    @hookimpl
    def process_output_stream(self, part, state, stream_parts, retry_count):
        self.seen.append(part.text)
        state["n"] = state.get("n", 0) + 1
        self.parts_seen = stream_parts
        self.retry_counts.append(retry_count)
        return part


class Change(Processor):
    """Upper-cases the word ``word``, drops ``drop``, splits ``split`` in two."""

    id = "change"

    @hookimpl
    def process_output_stream(self, part):
        word = part.text.strip()
        if word == "three":
            return part.evolve(payload={**part.payload, "text": part.text.upper()})
        if word == "five":
            return None
        if word == "seven":
            return [
                part.evolve(payload={**part.payload, "text": "sev"}),
                part.evolve(payload={**part.payload, "text": "en "}),
            ]
        return part


class FailOn(Processor):
    def __init__(self, word, fail_open):
        self.id = f"fail-{word}"
        self.word = word
        self.fail_open = fail_open

    @hookimpl
    def process_output_stream(self, part):
        if part.text.strip() == self.word:
            raise RuntimeError("boom")
        return part


def texts(chunks):
    return [c.payload["text"] for c in chunks if c.type == "text-delta"]


async def test_chunks_leave_the_fast_path_at_any_stage_and_finish_in_order(make_bare_agent):
    first, last = Record("first"), Record("last")
    agent = make_bare_agent(
        model=MockModel([TEXT]), output_processors=[first, AsyncPass(), Change(), last]
    )
    chunks = [c async for c in agent.stream("hi")]
    got = texts(chunks)
    assert "".join(got) == TEXT.replace("three", "THREE").replace("five ", "")
    assert got[5:7] == ["sev", "en "]  # the two chunks "seven" became, in order
    # the stages before the change saw every chunk once; the one after saw the results
    assert [w.strip() for w in first.seen if w] == WORDS
    assert [w for w in last.seen if w] == got
    # stream_parts holds each chunk the stage saw exactly once (no double append when
    # a chunk leaves the straight line), and the state is the processor's own
    assert [c.text for c in first.parts_seen if c.type == "text-delta"] == [
        w for w in first.seen if w
    ]
    assert first.retry_counts == [0] * len(first.seen)


async def test_a_failing_stage_mid_stream_fails_open_or_ends_the_run(make_bare_agent):
    after = Record("after")
    agent = make_bare_agent(
        model=MockModel([TEXT]), output_processors=[FailOn("four", fail_open=True), after]
    )
    result = await agent.generate("hi")
    assert result.text == TEXT
    assert [w.strip() for w in after.seen if w] == WORDS

    agent = make_bare_agent(
        model=MockModel([TEXT]), output_processors=[FailOn("four", fail_open=False), Record("x")]
    )
    with pytest.raises(ProcessorError, match="fail-four"):
        await agent.generate("hi")


async def test_audit_counts_are_exact_with_the_fast_path(make_bare_agent):
    agent = make_bare_agent(
        model=MockModel([TEXT]),
        output_processors=[Record("first"), Change(), Record("last")],
        audit=True,
    )
    result = await agent.generate("hi")
    stream = {
        r.processor_id: r for r in result.audit if r.hook == "process_output_stream" and r.step == 0
    }
    n = len(WORDS) + 2  # step-start and step-finish pass too
    assert stream["first"].calls == stream["first"].chunks_emitted == n
    assert (
        stream["change"].calls,
        stream["change"].chunks_dropped,
        stream["change"].chunks_modified,
        stream["change"].chunks_emitted,
    ) == (n, 1, 2, n)
    assert stream["last"].calls == stream["last"].chunks_emitted == n


async def test_each_run_of_one_agent_gets_its_own_fast_path(make_bare_agent):
    # The generated functions are planned once per agent (audit on and off apart); each
    # run binds them to its own pipeline, stream_parts and counts.
    first, last = Record("first"), Record("last")
    agent = make_bare_agent(model=MockModel([TEXT] * 4),
                            output_processors=[first, Change(), last])
    n = len(WORDS) + 2  # step-start and step-finish pass too
    parts = []
    for audit in (True, False, True, False):
        result = await agent.generate("hi", audit=audit)
        assert result.text == TEXT.replace("three", "THREE").replace("five ", "")
        stream = {r.processor_id: r for r in result.audit
                  if r.hook == "process_output_stream" and r.step == 0}
        if audit:
            assert stream["first"].calls == stream["first"].chunks_emitted == n
            assert (stream["change"].calls, stream["change"].chunks_dropped,
                    stream["change"].chunks_modified) == (n, 1, 2)
        else:
            assert result.audit == []
        parts.append(first.parts_seen)
        assert [c.text.strip() for c in first.parts_seen if c.type == "text-delta"] == WORDS
    assert len({id(p) for p in parts}) == 4  # a list of its own for every run


@pytest.mark.parametrize("audit", [False, True])
async def test_a_run_leaves_no_reference_cycle(make_bare_agent, audit):
    class Check(Processor):
        id = "check"

        @hookimpl
        def process_input(self, messages, abort, state):
            return None

    agent = make_bare_agent(
        model=MockModel([TEXT, TEXT]),
        input_processors=[Check()],
        output_processors=[Record("a"), AsyncPass(), Change()],
        audit=audit,
    )
    await agent.generate("warm up")
    gc.collect()
    gc.disable()
    try:
        async for _ in agent.stream("hi"):
            pass
        assert gc.collect() == 0
    finally:
        gc.enable()


class Trips(Processor):
    """Trips in one named hook, synchronously or not."""

    id = "trips"

    def __init__(self, hook, is_async):
        self.hook, self.is_async = hook, is_async

    def _maybe(self, hook, abort):
        if hook == self.hook:
            abort("tripped")

    @hookimpl
    def process_input(self, abort):
        return self._trip("process_input", abort)

    @hookimpl
    def process_output_stream(self, part, abort):
        if self.hook == "process_output_stream" and part.type == "text-delta":
            if self.is_async:
                async def later():
                    abort("tripped")

                return later()
            abort("tripped")
        return part

    @hookimpl
    def process_output_step(self, abort):
        return self._trip("process_output_step", abort)

    @hookimpl
    def process_output_result(self, abort):
        return self._trip("process_output_result", abort)

    def _trip(self, hook, abort):
        if not self.is_async:
            return self._maybe(hook, abort)

        async def later():
            self._maybe(hook, abort)

        return later()


@pytest.mark.parametrize("audit", [False, True])
@pytest.mark.parametrize("is_async", [False, True])
@pytest.mark.parametrize("hook", ["process_input", "process_output_stream",
                                  "process_output_step", "process_output_result"])
async def test_a_tripped_run_leaves_no_reference_cycle(make_bare_agent, audit, is_async,
                                                        hook):
    """A tripwire's traceback must not keep the run (its state, messages) alive until
    the garbage collector runs: processors rely on a run's state going with it."""
    guard = Trips(hook, is_async)
    agent = make_bare_agent(model=MockModel([TEXT] * 3), input_processors=[guard],
                            output_processors=[guard], audit=audit)
    await agent.generate("warm up")
    gc.collect()
    gc.disable()
    try:
        result = await agent.generate("hi")
        assert result.tripwire is not None
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()


async def test_data_chunks_written_by_a_processor_reach_the_client(make_bare_agent):
    class Note(Processor):
        id = "note"

        @hookimpl
        async def process_output_stream(self, part, writer):
            if part.text.strip() == "two":
                await writer.custom({"type": "data-note", "data": 2})
            return part

    agent = make_bare_agent(model=MockModel([TEXT]), output_processors=[Note(), Record("r")])
    chunks = [c async for c in agent.stream("hi")]
    kinds = [c.type for c in chunks]
    assert kinds.index("data-note") == kinds.index("text-delta") + 2  # right after "two "
    assert isinstance(chunks[kinds.index("data-note")], Chunk)


class ReleaseLast(Processor):
    """The last stage: returns each text chunk in a list, a data chunk after "two", a
    malformed list after "four", and nothing (an empty list) for "six"."""

    id = "release-last"

    def __init__(self, fail_open: bool = False) -> None:
        self.fail_open = fail_open

    @hookimpl
    def process_output_stream(self, part):
        word = part.text.strip()
        if word == "two":
            return [part, Chunk("data-note", {"data": 2})]
        if word == "four":
            return [part, {"type": "text-delta"}]
        if word == "six":
            return []
        return [part]


@pytest.mark.parametrize("stages", [1, 2])
async def test_a_last_stage_returning_lists_is_the_same_with_or_without_stages_before(
        make_bare_agent, stages):
    """The last stage's list goes out without a coroutine; the result is the general
    loop's: data chunks stored, a malformed chunk the stage's failure, counts kept."""
    before = [Record("before")] if stages == 2 else []
    agent = make_bare_agent(model=MockModel([TEXT]),
                            output_processors=[*before, ReleaseLast(fail_open=True)])
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    result = await stream.result
    # "four" failed open: the chunk went on as it came (the malformed one did not)
    assert "".join(texts(chunks)) == TEXT.replace("six ", "")
    assert [c.type for c in chunks].count("data-note") == 1
    assert [p.type for p in result.messages[-1].content.parts
            if p.type.startswith("data-")] == ["data-note"]
    with pytest.raises(ProcessorError, match="release-last"):
        agent = make_bare_agent(model=MockModel([TEXT]),
                                output_processors=[*before, ReleaseLast()])
        await agent.generate("hi")
