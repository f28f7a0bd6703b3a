"""tool-call-filter: tool calls and results leave the model's prompt, never storage."""

from __future__ import annotations

import pytest

from tripwire import (
    Agent,
    FilePart,
    Message,
    Processor,
    ReasoningPart,
    ToolInvocation,
    ToolInvocationPart,
    hookimpl,
    tool,
)
from tripwire.errors import ConfigurationError
from tripwire.plugins import available, create
from tripwire.plugins.tool_call_filter import ToolCallFilter
from tripwire.testing import MockModel, MockResponse


@tool
def get_weather(city: str) -> dict:
    """The weather in a city."""
    return {"city": city, "sky": "sunny", "celsius": 21}


@tool
def search_docs(query: str) -> str:
    """Search the documentation."""
    return f"results for {query}: " + "lorem ipsum " * 50


def assistant_with_tools(*invocations: ToolInvocation, text: str = "") -> Message:
    message = Message.assistant(text)
    message.content.parts.extend(ToolInvocationPart(inv) for inv in invocations)
    return message


def done(call_id: str, name: str, args: dict, result, *, is_error: bool = False) -> ToolInvocation:
    return ToolInvocation("result", call_id, name, args, result, is_error=is_error)


def history() -> list[Message]:
    """A conversation from an earlier call: one weather lookup, one docs search."""
    return [
        Message.user("What's the weather in Paris, and how do I reset my password?"),
        assistant_with_tools(
            done("h1", "get_weather", {"city": "Paris"}, {"sky": "rain"}),
            done("h2", "search_docs", {"query": "reset password"}, "Settings > Security"),
            text="Let me check.",
        ),
        Message.assistant("It rains in Paris; reset it under Settings > Security."),
        Message.user("Thanks! And in Rome?"),
    ]


def tool_ids(prompt: list[dict]) -> dict[str, set[str]]:
    """The tool_call_ids of the tool-call and tool-result parts in a prompt."""
    out: dict[str, set[str]] = {"tool-call": set(), "tool-result": set()}
    for message in prompt:
        if isinstance(message["content"], list):
            for part in message["content"]:
                if part["type"] in out:
                    out[part["type"]].add(part["tool_call_id"])
    return out


def assert_no_orphans(prompt: list[dict]) -> None:
    ids = tool_ids(prompt)
    assert ids["tool-call"] == ids["tool-result"], ids
    for message in prompt:
        if message["role"] != "system":
            assert message["content"], f"empty message left in the prompt: {message}"


@pytest.fixture
def make_agent_with(make_bare_agent):
    """An agent with the filter as its input processor."""

    def make(model, processor, **kwargs):
        return make_bare_agent(model=model, input_processors=[processor], **kwargs)

    return make


def stored_call_ids(result) -> set[str]:
    return {inv.tool_call_id for m in result.message_list.all.db() for inv in m.tool_invocations}


# ---------------------------------------------------------------- the initial history


async def test_by_default_history_tool_calls_and_results_leave_the_prompt(make_agent_with):
    model = MockModel(["It is sunny in Rome."])
    result = await make_agent_with(model, ToolCallFilter()).generate(history())

    prompt = model.requests[0].prompt
    assert tool_ids(prompt) == {"tool-call": set(), "tool-result": set()}
    assert all(m["role"] != "tool" for m in prompt)
    # The text around the calls is still there.
    texts = [p["text"] for m in prompt if isinstance(m["content"], list)
             for p in m["content"] if p["type"] == "text"]
    assert "Let me check." in texts
    assert "Thanks! And in Rome?" in texts
    assert result.text == "It is sunny in Rome."


async def test_stored_history_keeps_every_call_and_result(make_agent_with):
    model = MockModel(["It is sunny in Rome."])
    result = await make_agent_with(model, ToolCallFilter()).generate(history())

    stored = {inv.tool_call_id: inv for m in result.message_list.all.db()
              for inv in m.tool_invocations}
    assert set(stored) == {"h1", "h2"}
    assert stored["h1"].result == {"sky": "rain"}
    assert stored["h2"].args == {"query": "reset password"}


async def test_this_calls_tool_results_stay_visible_by_default(make_agent_with):
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "get_weather", "args": {"city": "Rome"},
                                  "tool_call_id": "c1"}]),
        "Sunny in Rome.",
    ])
    result = await make_agent_with(model, ToolCallFilter(), tools=[get_weather]).generate(history())

    second = model.requests[1].prompt
    assert tool_ids(second) == {"tool-call": {"c1"}, "tool-result": {"c1"}}
    assert_no_orphans(second)
    assert result.text == "Sunny in Rome."
    assert stored_call_ids(result) == {"h1", "h2", "c1"}


async def test_an_assistant_message_of_only_tool_calls_disappears_from_the_prompt(make_agent_with):
    only_calls = assistant_with_tools(done("h9", "get_weather", {"city": "Oslo"}, {"sky": "snow"}))
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter()).generate(
        [Message.user("Oslo?"), only_calls, Message.user("and now?")])

    prompt = model.requests[0].prompt
    assert [m["role"] for m in prompt] == ["user", "user"]


# ---------------------------------------------------------------- exclude


async def test_exclude_filters_only_the_named_tools_keeping_pairs_whole(make_agent_with):
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter(exclude=["search_docs"])).generate(history())

    prompt = model.requests[0].prompt
    assert tool_ids(prompt) == {"tool-call": {"h1"}, "tool-result": {"h1"}}
    assert_no_orphans(prompt)
    tool_message = next(m for m in prompt if m["role"] == "tool")
    assert [p["tool_name"] for p in tool_message["content"]] == ["get_weather"]


async def test_exclude_naming_no_tool_of_the_prompt_changes_nothing(make_agent_with):
    processor = ToolCallFilter(exclude=["send_email"])
    model = MockModel(["ok"])
    await make_agent_with(model, processor).generate(history())

    assert tool_ids(model.requests[0].prompt) == {"tool-call": {"h1", "h2"},
                                                  "tool-result": {"h1", "h2"}}


# ---------------------------------------------------------------- filter_after_tool_steps


def weather_calls(*ids: str) -> list[MockResponse]:
    return [MockResponse(tool_calls=[{"tool_name": "get_weather", "args": {"city": f"city-{i}"},
                                      "tool_call_id": i}]) for i in ids]


async def test_filter_after_tool_steps_keeps_only_the_most_recent_tool_steps(make_agent_with):
    model = MockModel([*weather_calls("c0", "c1", "c2"), "Done."])
    result = await make_agent_with(model, ToolCallFilter(filter_after_tool_steps=1),
                                   tools=[get_weather]).generate("Weather tour, please")

    seen = [tool_ids(r.prompt)["tool-call"] for r in model.requests]
    assert seen == [set(), {"c0"}, {"c1"}, {"c2"}]
    for request in model.requests:
        assert_no_orphans(request.prompt)
    assert stored_call_ids(result) == {"c0", "c1", "c2"}


async def test_filter_after_tool_steps_two_keeps_two_steps_and_still_hides_history(make_agent_with):
    model = MockModel([*weather_calls("c0", "c1", "c2"), "Done."])
    await make_agent_with(model, ToolCallFilter(filter_after_tool_steps=2),
                          tools=[get_weather]).generate(history())

    seen = [tool_ids(r.prompt)["tool-result"] for r in model.requests]
    assert seen == [set(), {"c0"}, {"c0", "c1"}, {"c1", "c2"}]


async def test_filter_after_tool_steps_zero_hides_even_the_latest_results(make_agent_with):
    model = MockModel([*weather_calls("c0"), "Done."])
    await make_agent_with(model, ToolCallFilter(filter_after_tool_steps=0),
                          tools=[get_weather]).generate("Weather?")

    assert tool_ids(model.requests[1].prompt)["tool-call"] == set()


async def test_filter_after_tool_steps_respects_exclude(make_agent_with):
    model = MockModel([
        MockResponse(tool_calls=[
            {"tool_name": "get_weather", "args": {"city": "Rome"}, "tool_call_id": "w0"},
            {"tool_name": "search_docs", "args": {"query": "umbrella"}, "tool_call_id": "s0"},
        ]),
        *weather_calls("w1"),
        "Done.",
    ])
    await make_agent_with(model, ToolCallFilter(exclude=["search_docs"], filter_after_tool_steps=0),
                          tools=[get_weather, search_docs]).generate("Go")

    last = model.requests[-1].prompt
    assert tool_ids(last) == {"tool-call": {"w0", "w1"}, "tool-result": {"w0", "w1"}}
    assert_no_orphans(last)


class RejectStep(Processor):
    """Rejects (retry) the first step that calls ``delete_all``."""

    id = "reject-step"

    def __init__(self) -> None:
        self.rejected = 0

    @hookimpl
    def process_output_step(self, tool_calls, abort):
        if any(c.tool_name == "delete_all" for c in tool_calls) and not self.rejected:
            self.rejected += 1
            abort("Do not delete anything.", retry=True)


@tool
def delete_all() -> str:
    """Delete everything."""
    raise AssertionError("a rejected step's tools never run")


async def test_a_step_rejected_by_a_retry_does_not_count_as_a_tool_step(make_bare_agent):
    model = MockModel([
        *weather_calls("c0"),
        MockResponse(tool_calls=[{"tool_name": "delete_all", "args": {}, "tool_call_id": "bad"}]),
        "Sunny.",
    ])
    agent = make_bare_agent(model=model, tools=[get_weather, delete_all],
                            input_processors=[ToolCallFilter(filter_after_tool_steps=1)],
                            output_processors=[RejectStep()], max_processor_retries=1)
    result = await agent.generate("Weather?")

    retried = model.requests[2].prompt
    assert tool_ids(retried)["tool-call"] == {"c0"}
    assert "Do not delete anything." in retried[-1]["content"][0]["text"]
    assert result.text == "Sunny."


# ---------------------------------------------------------------- preserve_model_output


async def test_preserve_model_output_leaves_a_short_summary_in_place_of_the_call(make_agent_with):
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter(preserve_model_output=True)).generate(history())

    prompt = model.requests[0].prompt
    assert_no_orphans(prompt)
    assert tool_ids(prompt)["tool-call"] == set()
    first_answer = next(m for m in prompt if m["role"] == "assistant")
    assert [p["text"] for p in first_answer["content"]] == [
        "Let me check.",
        '[tool get_weather returned: {"sky":"rain"}]',
        "[tool search_docs returned: Settings > Security]",
        "It rains in Paris; reset it under Settings > Security.",
    ]
    # The raw arguments are gone.
    assert "reset password" not in str(prompt)


async def test_preserve_model_output_truncates_long_results(make_agent_with):
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "search_docs", "args": {"query": "x"},
                                  "tool_call_id": "s1"}]),
        "Done.",
    ])
    processor = ToolCallFilter(filter_after_tool_steps=0, preserve_model_output=True,
                               max_output_chars=20)
    await make_agent_with(model, processor, tools=[search_docs]).generate("Search")

    summary = next(p["text"] for m in model.requests[1].prompt if m["role"] == "assistant"
                   for p in m["content"])
    assert summary == "[tool search_docs returned: results for x: lorem...]"


async def test_preserve_model_output_marks_errors_as_failed(make_agent_with):
    failed = assistant_with_tools(done("e1", "get_weather", {"city": "?"}, "ValueError: no city",
                                       is_error=True))
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter(preserve_model_output=True)).generate(
        [Message.user("weather?"), failed, Message.user("again")])

    texts = [p["text"] for m in model.requests[0].prompt for p in m["content"]]
    assert "[tool get_weather failed: ValueError: no city]" in texts


async def test_preserve_model_output_merges_assistant_messages_left_side_by_side(make_agent_with):
    # Text + call, the tool message, then the final answer: with the tool message gone
    # the two assistant messages meet and become one.
    model = MockModel([*weather_calls("c0"), "Sunny."])
    first = await make_agent_with(model, ToolCallFilter(), tools=[get_weather]).generate("Weather?")
    model2 = MockModel(["ok"])
    await make_agent_with(model2, ToolCallFilter(preserve_model_output=True)).generate(
        [*first.message_list.all.db(), Message.user("thanks")])

    prompt = model2.requests[0].prompt
    assert [m["role"] for m in prompt] == ["user", "assistant", "user"]
    assert [p["text"] for p in prompt[1]["content"]] == [
        '[tool get_weather returned: {"city":"city-c0","sky":"sunny","celsius":21}]', "Sunny.",
    ]


# ---------------------------------------------------------------- edge cases


def test_an_empty_prompt_is_left_alone():
    assert ToolCallFilter().process_llm_request(prompt=[], steps=[]) is None


async def test_a_call_without_messages_reaches_the_model_unchanged(make_agent_with):
    model = MockModel(["Hello."])
    result = await make_agent_with(model, ToolCallFilter(preserve_model_output=True),
                                   instructions="Greet.").generate([])

    assert model.requests[0].prompt == [{"role": "system", "content": "Greet."}]
    assert result.text == "Hello."


def test_a_prompt_without_tool_parts_is_left_alone():
    prompt = [{"role": "system", "content": "Be brief."},
              {"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert ToolCallFilter().process_llm_request(prompt=prompt, steps=[]) is None


async def test_non_text_parts_survive_filtering(make_agent_with):
    message = assistant_with_tools(done("h1", "get_weather", {"city": "Rome"}, {"sky": "sun"}))
    message.content.parts[:0] = [ReasoningPart("thinking about Rome"),
                                 FilePart("aGVsbG8=", "text/plain")]
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter()).generate([Message.user("Rome?"), message])

    assistant = next(m for m in model.requests[0].prompt if m["role"] == "assistant")
    assert [p["type"] for p in assistant["content"]] == ["reasoning", "file"]


async def test_a_tool_role_message_with_plain_text_is_not_touched(make_agent_with):
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter()).generate(
        [{"role": "tool", "content": "legacy tool output"}, Message.user("go on")])

    assert model.requests[0].prompt[0] == {
        "role": "tool", "content": [{"type": "text", "text": "legacy tool output"}]}


async def test_a_call_still_waiting_for_its_result_is_never_sent(make_agent_with):
    pending = assistant_with_tools(ToolInvocation("call", "p1", "get_weather", {"city": "Rome"}))
    model = MockModel(["ok"])
    await make_agent_with(model, ToolCallFilter(exclude=["search_docs"])).generate(
        [Message.user("Rome?"), pending, Message.user("hello?")])

    prompt = model.requests[0].prompt
    assert_no_orphans(prompt)
    assert [m["role"] for m in prompt] == ["user", "user"]


class CutStream(Processor):
    """Trips the wire on the first text chunk of the answer."""

    id = "cut-stream"

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "text-delta":
            abort("stream cut")
        return part


async def test_a_stream_cut_by_a_tripwire_keeps_the_stored_history_whole(make_bare_agent):
    model = MockModel(["It is sunny in Rome."])
    agent = make_bare_agent(model=model, input_processors=[ToolCallFilter()],
                            output_processors=[CutStream()])
    stream = agent.stream(history())
    chunks = [c async for c in stream]

    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["processor_id"] == "cut-stream"
    assert tool_ids(model.requests[0].prompt)["tool-call"] == set()
    result = await stream.result
    assert stored_call_ids(result) == {"h1", "h2"}


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"exclude": "get_weather"}, "exclude must be a list of tool names"),
        ({"exclude": ["ok", ""]}, "non-empty tool names"),
        ({"filter_after_tool_steps": -1}, "filter_after_tool_steps must be an integer >= 0"),
        ({"filter_after_tool_steps": True}, "filter_after_tool_steps must be an integer >= 0"),
        ({"preserve_model_output": "yes"}, "preserve_model_output must be true or false"),
        ({"max_output_chars": 0}, "max_output_chars must be an integer >= 1"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_error(options, message):
    with pytest.raises(ConfigurationError, match=message):
        ToolCallFilter(**options)


def test_it_is_discovered_through_the_entry_point_group(only_plugins):
    only_plugins("tool-call-filter")
    info = available()["tool-call-filter"]
    assert info.cls is ToolCallFilter
    assert info.distribution == "tripwire"
    assert info.hooks == ("process_llm_request",)


async def test_an_agent_from_toml_filters_history(only_plugins, tmp_path):
    only_plugins("tool-call-filter")
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "tool-call-filter", exclude = ["search_docs"], preserve_model_output = true }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [{ text = "ok" }]
''')
    agent = Agent.from_config(config, "support")
    await agent.generate(history())

    prompt = agent.model.requests[0].prompt
    assert tool_ids(prompt)["tool-call"] == {"h1"}
    assert "[tool search_docs returned: Settings > Security]" in str(prompt)


def test_it_is_built_from_configuration_options(only_plugins):
    only_plugins("tool-call-filter")
    processor = create("tool-call-filter", exclude=["search_docs"], filter_after_tool_steps=2)
    assert processor.exclude == {"search_docs"}
    assert processor.filter_after_tool_steps == 2
    with pytest.raises(ConfigurationError, match="filter_after_tool_steps"):
        create("tool-call-filter", filter_after_tool_steps="two")
