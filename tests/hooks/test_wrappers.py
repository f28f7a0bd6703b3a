"""Wrappers: ``@hookimpl(wrapper=True)`` wraps the processors after it in the list."""

from __future__ import annotations

import pytest

from tests.support.helpers import user_text
from tripwire import (
    Chunk,
    Message,
    Processor,
    ProcessorValidationError,
    TextPart,
    hookimpl,
    parallel,
)
from tripwire.testing import MockModel, MockResponse


class Record(Processor):
    def __init__(self, pid, log, suffix=""):
        self.id = pid
        self.log = log
        self.suffix = suffix

    @hookimpl
    def process_input(self, messages):
        self.log.append(self.id)
        if self.suffix:
            messages[-1].content.parts = [TextPart(messages[-1].text + self.suffix)]
            return messages
        return None


class Around(Processor):
    """Logs before and after, and records what the wrapped chain produced."""

    def __init__(self, pid, log, replace_with=None):
        self.id = pid
        self.log = log
        self.replace_with = replace_with
        self.seen = None

    @hookimpl(wrapper=True)
    def process_input(self, messages):
        self.log.append(f"{self.id}:before")
        result = yield
        self.seen = [m.text for m in result]
        self.log.append(f"{self.id}:after")
        if self.replace_with is not None:
            return [Message.user(self.replace_with)]
        return None


async def test_a_wrapper_runs_before_and_after_the_processors_after_it(make_bare_agent):
    log: list = []
    around = Around("around", log)
    agent = make_bare_agent(["ok"], input_processors=[
        Record("first", log), around, Record("inner", log, suffix="!")])
    await agent.generate("hi")
    assert log == ["first", "around:before", "inner", "around:after"]
    assert around.seen == ["hi!"]  # what the rest of the chain produced
    assert user_text(agent.model) == ["hi!"]


async def test_a_wrapper_may_return_a_replacement(make_bare_agent):
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[
        Around("around", log, replace_with="rewritten"), Record("inner", log, suffix="!")])
    await agent.generate("hi")
    assert user_text(agent.model) == ["rewritten"]


async def test_two_wrappers_nest_in_list_order(make_bare_agent):
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[
        Around("outer", log), Around("inner", log), Record("p", log)])
    await agent.generate("hi")
    assert log == ["outer:before", "inner:before", "p", "inner:after", "outer:after"]


async def test_a_wrapper_in_a_parallel_group_wraps_only_its_own_member(make_bare_agent):
    from tripwire import sequence

    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[
        parallel(sequence(Around("around", log), Record("mine", log), id="wrapped"),
                 Record("other", log), id="g"),
        Record("after", log)])
    await agent.generate("hi")
    assert log.index("around:after") < log.index("after")
    assert log.index("around:before") < log.index("mine") < log.index("around:after")
    assert "other" in log


async def test_a_wrapper_may_abort_after_seeing_the_result(make_bare_agent):
    class Judge(Processor):
        id = "judge"

        @hookimpl(wrapper=True)
        def process_input(self, abort):
            result = yield
            if any("!" in m.text for m in result):
                abort("no shouting")

    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[Judge(), Record("inner", log, suffix="!")])
    result = await agent.generate("hi")
    assert result.tripwire.processor_id == "judge"
    assert agent.model.requests == []


async def test_a_wrapper_is_closed_when_the_wrapped_chain_trips(make_bare_agent):
    events = []

    class Timer(Processor):
        id = "timer"

        @hookimpl(wrapper=True)
        def process_input(self):
            try:
                yield
                events.append("after")
            finally:
                events.append("closed")

    class Block(Processor):
        id = "block"

        @hookimpl
        def process_input(self, abort):
            abort("blocked")

    result = await make_bare_agent(["ok"], input_processors=[Timer(), Block()]).generate("hi")
    assert result.tripwire.processor_id == "block"
    assert events == ["closed"]


async def test_a_wrapper_of_process_llm_request_may_replace_the_prompt(make_bare_agent):
    class Append(Processor):
        id = "append"

        @hookimpl(wrapper=True)
        def process_llm_request(self):
            result = yield
            return {"prompt": [*result["prompt"], {"role": "user", "content": [
                {"type": "text", "text": "appended"}]}]}

    agent = make_bare_agent(["ok"], input_processors=[Append()])
    await agent.generate("hi")
    assert user_text(agent.model) == ["hi", "appended"]


def test_an_async_generator_wrapper_is_rejected_with_the_reason(make_bare_agent):
    class AsyncAround(Processor):
        id = "async-around"

        @hookimpl(wrapper=True)
        async def process_llm_request(self):
            yield

    with pytest.raises(ProcessorValidationError, match="is an async generator"):
        make_bare_agent(input_processors=[AsyncAround()])


async def test_a_stream_wrapper_receives_the_chunks_the_rest_emitted(make_bare_agent):
    seen = []

    class Double(Processor):
        id = "double"

        @hookimpl
        def process_output_stream(self, part):
            if part.type == "text-delta":
                return [part, part]
            return part

    class Count(Processor):
        id = "count"

        @hookimpl(wrapper=True)
        def process_output_stream(self, part):
            out = yield
            if part.type == "text-delta":
                seen.append(len(out))
                return [out[0]]  # undo the doubling
            return None

    model = MockModel([MockResponse(chunks=[Chunk("text-delta", {"id": "t", "text": "a"}),
                                            Chunk("text-delta", {"id": "t", "text": "b"})])])
    agent = make_bare_agent(model=model, output_processors=[Count(), Double()])
    assert (await agent.generate("hi")).text == "ab"
    assert seen == [2, 2]


def test_a_wrapper_that_does_not_yield_is_rejected(make_bare_agent):
    class NotAGenerator(Processor):
        id = "bad"

        @hookimpl(wrapper=True)
        def process_input(self):
            return None

    with pytest.raises(ProcessorValidationError, match="wrapper=True but does not yield"):
        make_bare_agent(input_processors=[NotAGenerator()])


def test_old_style_hookwrappers_are_still_rejected(make_bare_agent):
    class Old(Processor):
        id = "old"

        @hookimpl(hookwrapper=True)
        def process_input(self):
            yield

    with pytest.raises(ProcessorValidationError, match="old-style hookwrapper"):
        make_bare_agent(input_processors=[Old()])
