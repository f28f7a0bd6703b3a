"""Wrong shapes from processors and models are clear errors naming who and what, never a
bare KeyError deep in the loop (which would also defeat ``fail_open``)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.support.helpers import HoldUntilBoundary
from tripwire import Chunk, Processor, ProcessorError, hookimpl
from tripwire.errors import APICallError, ConfigurationError
from tripwire.testing import MockModel, MockResponse


def returning(hook: str, value, *, fail_open: bool = False):
    """A processor whose ``hook`` returns ``value``."""

    def impl(self):
        return value

    impl.__name__ = hook
    cls = type("Returning", (Processor,), {"id": "shape", "fail_open": fail_open,
                                           hook: hookimpl(impl)})
    return cls()


CACHE_SHAPES = [
    pytest.param({"response": "text"}, "must be a list of chunks", id="string"),
    pytest.param({"response": {"type": "text-delta"}}, "must be a list of chunks", id="dict"),
    pytest.param({"response": ["text"]}, r"response\[0\] must be a Chunk", id="list-of-str"),
    pytest.param({"response": [{"type": "tool-call", "payload": {"tool_name": "x"}}]},
                 r"response\[0\]: a 'tool-call' chunk needs payload\['tool_call_id'\]",
                 id="tool-call-missing-keys"),
    pytest.param({"response": [{"type": "text-delta", "payload": {"id": "t", "text": None}}]},
                 r"payload\['text'\] of type str, got NoneType", id="text-none"),
    pytest.param({"response": [{"payload": {}}]}, r"response\[0\]", id="no-type"),
    pytest.param({"response": [{"type": "finish", "payload": {
        "finish_reason": "stop", "usage": {"input_tokens": "many"}}}]},
        "non-negative int", id="bad-usage"),
]


@pytest.mark.parametrize(("returned", "message"), CACHE_SHAPES)
async def test_malformed_cache_responses_are_processor_errors(make_bare_agent, returned, message):
    agent = make_bare_agent(["ok"], input_processors=[returning("process_llm_request", returned)])
    with pytest.raises(ProcessorError, match=message) as info:
        await agent.generate("hi")
    assert info.value.processor_id == "shape"
    assert info.value.hook == "process_llm_request"


@pytest.mark.parametrize(("returned", "message"), CACHE_SHAPES)
async def test_malformed_cache_responses_fail_open_to_the_model(
    make_bare_agent, returned, message,
):
    agent = make_bare_agent(["from the model"], input_processors=[
        returning("process_llm_request", returned, fail_open=True)])
    assert (await agent.generate("hi")).text == "from the model"


@pytest.mark.parametrize(("hook", "returned", "message"), [
    ("process_input", {"system_messages": [123]}, "a system message must be a string"),
    ("process_input", {"system_messages": "Be terse."}, "wrap a single one in a list"),
    ("process_input_step", {"system_messages": "Be terse."}, "wrap a single one in a list"),
    ("process_input_step", {"active_tools": "search"}, "wrap a single name in a list"),
    ("process_input_step", {"active_tools": [1]}, "tool names"),
    ("process_input_step", {"tools": "search"}, "tools must be a list of tools"),
])
async def test_wrong_shapes_from_input_hooks_are_processor_errors(
    make_bare_agent, hook, returned, message,
):
    agent = make_bare_agent(["ok"], input_processors=[returning(hook, returned)])
    with pytest.raises(ProcessorError, match=message) as info:
        await agent.generate("hi")
    assert (info.value.processor_id, info.value.hook) == ("shape", hook)


async def test_bare_string_system_messages_never_become_one_message_per_character(
    make_bare_agent,
):
    agent = make_bare_agent(["ok"], input_processors=[returning(
        "process_input", {"system_messages": "Be terse."}, fail_open=True)])
    await agent.generate("hi")
    prompt = agent.model.requests[0].prompt
    assert not [m for m in prompt if m["role"] == "system" and len(m["content"]) == 1]


@pytest.mark.parametrize(("chunk", "message"), [
    (Chunk("tool-call", {"tool_name": "x"}), r"'tool-call' chunk needs payload\['tool_call_id'\]"),
    (Chunk("text-delta", {"id": "t", "text": None}), r"payload\['text'\] of type str"),
    (Chunk("reasoning-delta", {"id": 3, "text": "x"}), r"payload\['id'\] must be a string"),
    (Chunk("tool-call", {"tool_call_id": "c", "tool_name": "x", "args": "{}"}),
     r"payload\['args'\] must be a dict"),
    (Chunk("finish", {"finish_reason": "stop", "usage": {"bogus": 1}}), "unknown usage keys"),
    (Chunk("finish", {"usage": {}}), r"payload\['finish_reason'\]"),
])
async def test_malformed_model_chunks_are_api_call_errors(make_bare_agent, chunk, message):
    model = MockModel([MockResponse(chunks=[chunk])])
    with pytest.raises(APICallError, match=message) as info:
        await make_bare_agent(model=model).generate("hi")
    assert "mock/mock-model sent a malformed chunk" in str(info.value)


async def test_a_call_the_model_cannot_make_is_a_configuration_error_not_a_bad_chunk(
        make_bare_agent):
    """A provider that refuses the call as asked (an unknown model setting, a missing
    key) raises ConfigurationError from its stream: the caller gets it as it is, and no
    error processor is asked to retry it (it was once reported as a malformed chunk)."""
    asked = []

    class Retry(Processor):
        id = "retry"

        @hookimpl
        def process_api_error(self, error):
            asked.append(error)
            return {"retry": True}

    class Refusing:
        provider, model_id = "strict", "m"

        async def stream(self, request):
            raise ConfigurationError("unknown model setting(s) ['presence_penalty']")
            yield  # an async generator, as providers are

    agent = make_bare_agent(model=Refusing(), error_processors=[Retry()])
    with pytest.raises(ConfigurationError, match=r"unknown model setting\(s\)") as info:
        await agent.generate("hi")
    assert "malformed" not in str(info.value) and asked == []
    chunks = []
    with pytest.raises(ConfigurationError):  # streamed: an error chunk, then the error
        async for c in agent.stream("hi"):
            chunks.append(c)
    assert chunks[-1].type == "error"
    assert isinstance(chunks[-1].payload["error"], ConfigurationError)


async def test_a_malformed_model_chunk_goes_to_the_error_processors(make_bare_agent):
    class Retry(Processor):
        id = "retry"

        @hookimpl
        def process_api_error(self, error, retry_count):
            assert isinstance(error, APICallError)
            return {"retry": True} if retry_count == 0 else None

    model = MockModel([MockResponse(chunks=[Chunk("text-delta", {"text": None})]),
                       MockResponse(text="fine")])
    agent = make_bare_agent(model=model, error_processors=[Retry()], max_processor_retries=1)
    assert (await agent.generate("hi")).text == "fine"


@pytest.mark.parametrize(("returned", "message"), [
    (Chunk("text-delta", {"id": "t", "text": None}), r"payload\['text'\] of type str"),
    ("text", "must return a Chunk, None or a list of Chunks, got str"),
    ([Chunk("text-delta", {"id": "t", "text": "a"}), "b"], "expected a Chunk, got str"),
])
async def test_malformed_chunks_from_stream_processors_are_processor_errors(
    make_bare_agent, returned, message,
):
    class Bad(Processor):
        id = "bad"

        @hookimpl
        def process_output_stream(self, part):
            return returned if part.type == "text-delta" else part

    stream = make_bare_agent(["ok"], output_processors=[Bad()]).stream("hi")
    with pytest.raises(ProcessorError, match=message) as info:
        async for _ in stream:
            pass
    assert (info.value.processor_id, info.value.hook) == ("bad", "process_output_stream")


# ---------------------------------------------------------------- friendlier errors


def test_processor_names_in_python_lists_are_built_from_their_plugins(
    make_bare_agent, only_plugins,
):
    only_plugins("unicode-normalizer", "batch-parts")
    agent = make_bare_agent(["ok"], input_processors=["unicode-normalizer"],
                            output_processors=["batch-parts"])
    result = agent.generate_sync("ｈｅｌｌｏ\u200b")
    assert result.text == "ok"
    assert agent.model.requests[0].prompt[-1]["content"][0]["text"] == "hello"
    with pytest.raises(ConfigurationError, match="unicode-normalizer"):
        make_bare_agent(input_processors=["unicode-normaliser"])


async def test_generate_sync_inside_a_running_loop_says_to_await_generate(make_bare_agent):
    agent = make_bare_agent(["ok"])
    with pytest.raises(RuntimeError, match=r"await agent.generate"):
        agent.generate_sync("hi")
    await asyncio.sleep(0)


def test_generate_sync_can_be_called_repeatedly(make_bare_agent):
    agent = make_bare_agent(["one", "two"])
    assert agent.generate_sync("a").text == "one"
    assert agent.generate_sync("b").text == "two"


class ForgotToReturn(Processor):
    id = "forgot"

    @hookimpl
    def process_output_stream(self, part):
        part.payload.get("text")  # inspects, but never returns the part


async def test_a_stream_processor_dropping_every_text_chunk_is_warned_about_once(
    make_bare_agent, caplog,
):
    processor = ForgotToReturn()
    agent = make_bare_agent(["ok", "ok"], output_processors=[processor])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        assert (await agent.generate("a")).text == ""
        await agent.generate("b")
    warned = [r for r in caplog.records if "dropped every text-delta" in r.message]
    assert len(warned) == 1
    assert "'forgot'" in warned[0].message and "Return the part" in warned[0].message


async def test_dropping_some_text_chunks_is_not_warned_about(make_bare_agent, caplog):
    class DropFirst(Processor):
        id = "drop-first"

        @hookimpl
        def process_output_stream(self, part, state):
            if part.type == "text-delta" and not state.get("dropped"):
                state["dropped"] = True
                return None
            return part

    agent = make_bare_agent(["one two"], output_processors=[DropFirst()])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        assert (await agent.generate("a")).text == "two"
    assert not [r for r in caplog.records if "dropped every" in r.message]


async def test_a_processor_that_holds_text_back_and_releases_it_is_not_warned_about(
    make_bare_agent, caplog,
):
    agent = make_bare_agent(["one two"], output_processors=[HoldUntilBoundary()])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        assert (await agent.generate("a")).text == "one two"
    assert not [r for r in caplog.records if "dropped every" in r.message]


def test_a_bare_string_for_tools_is_a_clear_error(make_bare_agent):
    with pytest.raises(TypeError, match="tools must be a list of tools"):
        make_bare_agent(tools="search")
