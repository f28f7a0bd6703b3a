"""The ``client_tools`` call option: tools the caller runs. Their calls end the run
with ``finish_reason == "tool-calls"`` instead of being executed."""

from __future__ import annotations

import pytest

from tripwire import Agent, ConfigurationError, client_tool, tool
from tripwire.testing import MockModel, MockResponse

WEATHER = {"name": "get_weather", "description": "The weather in a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}


def weather_call(i: int = 1) -> MockResponse:
    return MockResponse(tool_calls=[{"tool_name": "get_weather", "args": {"city": "Oslo"},
                                     "tool_call_id": f"c{i}"}])


async def test_a_client_tool_call_ends_the_run_unexecuted():
    model = MockModel([weather_call(), "never reached"])
    agent = Agent(id="a", model=model)
    result = await agent.generate("Weather?", client_tools=[WEATHER])
    assert result.finish_reason == "tool-calls"
    assert [(c.tool_name, c.args) for c in result.tool_calls] == [("get_weather",
                                                                   {"city": "Oslo"})]
    assert len(result.steps) == 1 and result.steps[0].tool_results == []
    sent = model.requests[0].tools
    assert [(t.name, t.parameters) for t in sent] == [("get_weather", WEATHER["parameters"])]


async def test_the_stream_shows_the_call_and_no_result():
    agent = Agent(id="a", model=MockModel([weather_call()]))
    chunks = [c async for c in agent.stream("Weather?", client_tools=[client_tool(**WEATHER)])]
    kinds = [c.type for c in chunks]
    assert "tool-call" in kinds and "tool-result" not in kinds and "tool-error" not in kinds
    assert chunks[-1].type == "finish" and chunks[-1].payload["finish_reason"] == "tool-calls"


async def test_a_name_the_agent_has_a_tool_for_is_run_by_the_agent():
    ran = []

    @tool
    def get_weather(city: str) -> str:
        """The weather."""
        ran.append(city)
        return "sunny"

    agent = Agent(id="a", model=MockModel([weather_call(), "It is sunny."]),
                  tools=[get_weather])
    result = await agent.generate("Weather?", client_tools=[WEATHER])
    assert ran == ["Oslo"] and result.text == "It is sunny."


async def test_without_client_tools_an_unknown_tool_is_still_an_error_result():
    agent = Agent(id="a", model=MockModel([weather_call(), "ok"]))
    result = await agent.generate("Weather?")
    assert result.steps[0].tool_results[0].is_error and result.text == "ok"


@pytest.mark.parametrize(("value", "needle"), [
    ("get_weather", "must be a list"),
    ([{"name": "x", "bogus": 1}], "unknown key"),
    ([{"name": "bad name!"}], "letters, digits"),
    ([{"description": "no name"}], "name must be a string"),
    ([WEATHER, WEATHER], "two tools are named"),
    ([42], "expected client_tool"),
])
async def test_bad_client_tools_fail_the_call_naming_the_problem(value, needle):
    agent = Agent(id="a", model=MockModel(["ok"]))
    with pytest.raises(ConfigurationError, match=needle):
        await agent.generate("Hi", client_tools=value)


async def test_the_caller_answers_with_the_call_and_its_result_in_the_history():
    from tripwire import Message, ToolInvocation, ToolInvocationPart

    model = MockModel(["It is sunny in Oslo."])
    answered = Message.assistant("")
    answered.content.parts.append(ToolInvocationPart(ToolInvocation(
        "result", "c1", "get_weather", {"city": "Oslo"}, result="sunny")))
    agent = Agent(id="a", model=model)
    result = await agent.generate([Message.user("Weather?"), answered],
                                  client_tools=[WEATHER])
    assert result.text == "It is sunny in Oslo."
    prompt = model.requests[0].prompt
    assert prompt[-2]["content"][0] == {"type": "tool-call", "tool_call_id": "c1",
                                        "tool_name": "get_weather", "input": {"city": "Oslo"}}
    assert prompt[-1]["content"][0]["output"] == "sunny"


# ------------------------------------------ caller_system="input": the caller's texts

EMAIL = "ada@example.com"


def poisoned_tool() -> dict[str, object]:
    return {"name": "lookup", "description": f"Find a customer. Mail {EMAIL}.",
            "parameters": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string", "description": f"Or {EMAIL}.",
                         "enum": ["Ada", EMAIL]}}}}


async def test_the_callers_definitions_and_settings_are_input_the_processors_check():
    """``caller_system="input"``: the strings of the caller's tool definitions,
    provider options and model settings reach the model as the input processors left
    them (here redacted); the structure, the names and the agent's own settings stay
    as they are, and the texts are not among the run's messages afterwards."""
    from tripwire.plugins.pii_detector import PIIDetector

    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, input_processors=[PIIDetector()],
                  provider_options={"mock": {"kept": EMAIL}})
    tool = poisoned_tool()
    result = await agent.generate(
        "Hello", client_tools=[tool], caller_system="input",
        provider_options={"mock": {"kept": EMAIL, "user": EMAIL}},
        model_settings={"stop": [EMAIL]})
    request = model.requests[0]
    (sent,) = request.tools
    assert EMAIL not in sent.description and EMAIL not in repr(sent.parameters)
    assert sent.parameters["required"] == ["name"]
    assert sent.parameters["properties"]["name"]["enum"][0] == "Ada"
    assert request.provider_options["mock"]["kept"] == EMAIL  # the agent's own
    assert EMAIL not in request.provider_options["mock"]["user"]
    assert EMAIL not in request.model_settings["stop"][0]
    assert tool == poisoned_tool()  # the caller's own value is not changed
    assert [m.role for m in result.message_list.all] == ["user", "assistant"]


async def test_with_the_default_the_callers_definitions_are_trusted():
    from tripwire.plugins.pii_detector import PIIDetector

    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, input_processors=[PIIDetector()])
    await agent.generate("Hello", client_tools=[poisoned_tool()])
    assert model.requests[0].tools[0].description == f"Find a customer. Mail {EMAIL}."


async def test_a_check_beside_the_run_sees_the_callers_definitions():
    """A ``process_input`` in ``parallel`` mode checks a copy of the input: the
    caller's definition texts are in it, and its abort stops the run."""
    from tripwire import parallel_with_model
    from tripwire.plugins.pii_detector import PIIDetector

    agent = Agent(id="a", model=MockModel(["never reached"]),
                  input_processors=[parallel_with_model(PIIDetector(strategy="block"))])
    result = await agent.generate("Hello", client_tools=[poisoned_tool()],
                                  caller_system="input")
    assert result.tripwire is not None and result.tripwire.processor_id == "pii-detector"


async def test_a_processor_tells_the_callers_texts_apart():
    """``Message.is_caller_text`` marks the caller's texts (system messages after the
    input) and nothing else: the public way for a processor to know them."""
    from tripwire import Processor, hookimpl

    seen: list[tuple[str, bool, str]] = []

    class Look(Processor):
        id = "look"

        @hookimpl
        def process_input(self, messages):
            seen.extend((m.role, m.is_caller_text, m.text) for m in messages)

    agent = Agent(id="a", model=MockModel(["ok"]), input_processors=[Look()])
    await agent.generate([{"role": "system", "content": "Be brief."}, "Hello"],
                         client_tools=[poisoned_tool()], caller_system="input")
    assert ("user", False, "Hello") in seen and ("system", False, "Be brief.") in seen
    texts = {text for _, caller, text in seen if caller}
    assert texts == {f"Find a customer. Mail {EMAIL}.", f"Or {EMAIL}.", "Ada", EMAIL}
    assert all(role == "system" for role, caller, _ in seen if caller)


async def test_many_caller_texts_are_put_back_in_one_pass(monkeypatch):
    """Each mapping and list holding the caller's strings is copied once, not once per
    string it holds: a schema of 4 MiB of enum values took hours of one event loop."""
    from tripwire.plugins.pii_detector import PIIDetector
    from tripwire.run import _caller_texts

    calls = []
    replaced = _caller_texts._replaced

    def counted(*args):
        calls.append(1)
        return replaced(*args)

    monkeypatch.setattr(_caller_texts, "_replaced", counted)
    model = MockModel(["ok"])
    values = [f"value {i}" for i in range(500)]
    agent = Agent(id="a", model=model, input_processors=[PIIDetector()])
    await agent.generate("Hello", caller_system="input",
                         provider_options={"mock": {"choices": values}})
    assert model.requests[0].provider_options["mock"]["choices"] == values
    assert len(calls) <= 5  # one per mapping or list on the way


async def test_a_string_given_many_times_is_one_message():
    """The processors see each distinct string of the caller's once (a judge is asked
    about it once), and every place of it gets what they left of it."""
    from tripwire import Processor, hookimpl

    seen: list[str] = []

    class Look(Processor):
        id = "look"

        @hookimpl
        def process_input(self, messages):
            for m in messages:
                if m.is_caller_text:
                    seen.append(m.text)
                    m.content.content = m.text.upper()
                    m.content.parts = []

    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, input_processors=[Look()])
    await agent.generate("Hello", caller_system="input",
                         provider_options={"mock": {"a": ["x", "y", "x"], "b": "x"}})
    assert sorted(seen) == ["x", "y"]
    assert model.requests[0].provider_options["mock"] == {"a": ["X", "Y", "X"], "b": "X"}
