"""A processor that raises, or returns what it may not: the run fails closed with a
ProcessorError naming it (an error chunk when streaming), unless it is fail_open."""

from __future__ import annotations

import logging

import pytest

from tripwire import MessageList, Processor, ProcessorError, hookimpl


class Broken(Processor):
    id = "broken"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            raise KeyError("oops")
        return part


async def test_processor_exception_fails_closed_with_processor_error(make_bare_agent):
    with pytest.raises(ProcessorError) as info:
        await make_bare_agent(["hi"], output_processors=[Broken()]).generate("x")
    assert info.value.processor_id == "broken"
    assert info.value.hook == "process_output_stream"
    assert isinstance(info.value.__cause__, KeyError)


async def test_stream_yields_error_chunk_then_raises(make_bare_agent):
    stream = make_bare_agent(["hi"], output_processors=[Broken()]).stream("x")
    seen = []
    with pytest.raises(ProcessorError):
        async for c in stream:
            seen.append(c.type)
    assert seen == ["step-start", "error"]


async def test_fail_open_processor_passes_input_on_unchanged(make_bare_agent, caplog):
    proc = Broken()
    proc.fail_open = True
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        result = await make_bare_agent(["hi there"], output_processors=[proc]).generate("x")
    assert result.text == "hi there"
    assert "fail_open" in caplog.text


async def test_returning_a_different_message_list_is_an_error(make_bare_agent):
    class Wrong(Processor):
        id = "wrong"

        @hookimpl
        def process_input(self, messages):
            return MessageList(messages)

    with pytest.raises(ProcessorError, match="different MessageList"):
        await make_bare_agent(["x"], input_processors=[Wrong()]).generate("x")
