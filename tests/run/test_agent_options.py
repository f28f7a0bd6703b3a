"""Agent construction and per-call options: clear errors for bad ones, what reaches
the model, the structured_output option, the default error processors."""

from __future__ import annotations

import pytest

from tests.support.helpers import delete_account
from tripwire import Agent, Message, Processor, hookimpl
from tripwire.errors import ConfigurationError
from tripwire.testing import MockModel, MockResponse


def test_unknown_call_option_is_a_clear_error(make_bare_agent):
    agent = make_bare_agent()
    with pytest.raises(TypeError, match="max_step.*valid"):
        agent.stream("x", max_step=3)


def test_unknown_agent_option_names_it_and_the_valid_ones():
    with pytest.raises(ConfigurationError, match=r"Agent has no option 'input_processor' \(did "
                       r"you mean 'input_processors'\?\); valid options: id, model, .*"
                       r"input_processors"):
        Agent(id="a", model=MockModel(["x"]), input_processor=[])


def test_missing_agent_option_names_it_and_the_valid_ones():
    with pytest.raises(ConfigurationError, match=r"Agent needs option 'model'; "
                                                 r"valid options: id, model, "):
        Agent(id="a")


@pytest.mark.parametrize("messages", [42, ("a", "b"), ["ok", None]])
async def test_messages_that_are_not_messages_are_a_clear_error(make_bare_agent, messages):
    """A string, a Message, a dict or a list of them; anything else is named, before
    the model is called (a tuple is not a list of messages)."""
    agent = make_bare_agent(["never"])
    with pytest.raises(TypeError, match="expected a Message, a str or a dict, got"):
        await agent.generate(messages)
    with pytest.raises(TypeError, match="expected a Message, a str or a dict, got"):
        agent.stream(messages)
    assert agent.model.requests == []


@pytest.mark.parametrize("value", [-1, "3", 1.5])
def test_bad_max_processor_retries(make_bare_agent, value):
    with pytest.raises(ConfigurationError, match="max_processor_retries"):
        make_bare_agent(max_processor_retries=value)


def test_unknown_model_provider_lists_known_ones():
    with pytest.raises(ConfigurationError, match="unknown model provider 'nope'"):
        Agent(id="a", model="nope/model")


def test_mock_model_running_out_of_responses_is_a_clear_error(make_bare_agent):
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "delete_account",
                                                 "args": {"user_id": "u"}}])])
    with pytest.raises(AssertionError, match="called 2 times but has only 1 response"):
        make_bare_agent(model=model, tools=[delete_account]).generate_sync("x")


async def test_mock_model_records_requests(make_bare_agent):
    model = MockModel(["ok"])
    await make_bare_agent(model=model, tools=[delete_account]).generate(
        "x", model_settings={"temperature": 0.2}, tool_choice="auto")
    request = model.requests[0]
    assert request.model_settings == {"temperature": 0.2}
    assert request.tool_choice == "auto"
    assert [t.name for t in request.tools] == ["delete_account"]


async def test_structured_output_option_adds_the_processor_to_both_lists(make_bare_agent):
    import attrs as _attrs

    @_attrs.define
    class Answer:
        city: str
        temperature: float

    model = MockModel(['not json', '{"city": "Oslo", "temperature": 3.5}'])
    stream = make_bare_agent(model=model).stream("weather?", structured_output=Answer,
                                                 max_processor_retries=1)
    chunks = [c async for c in stream]
    assert await stream.object == Answer("Oslo", 3.5)
    assert any(c.type == "object-result" for c in chunks)
    # The model was told the schema (input side) and asked again after the bad answer (output side).
    assert model.requests[0].structured_output["schema"]["required"] == ["city", "temperature"]
    assert len(model.requests) == 2


async def test_structured_output_option_accepts_a_schema_mapping_with_options(make_bare_agent):
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    model = MockModel(["nope"])
    result = await make_bare_agent(model=model).generate(
        "x", structured_output={"schema": schema, "name": "verdict", "strategy": "fallback",
                                "fallback": {"ok": False}})
    assert result.object == {"ok": False}
    assert model.requests[0].structured_output["name"] == "verdict"


def test_every_agent_gets_the_default_error_processor(make_agent):
    # make_agent (tripwire's public fixture) keeps the default error processors.
    assert [p.id for p in make_agent().list_processors("error")] == ["prefill-error-handler"]


def test_default_error_processors_false_leaves_it_out(make_agent):
    assert make_agent(default_error_processors=False).list_processors("error") == []


def test_tripwire_disable_plugins_leaves_the_default_error_processor_out(make_agent, only_plugins,
                                                                         monkeypatch):
    only_plugins("prefill-error-handler")  # discovery scans afresh, after this:
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "prefill-error-handler")
    assert make_agent().list_processors("error") == []


# ---------------------------------------------------------------- caller_system


class SeesInput(Processor):
    """Records the roles and texts of the input messages and the system messages."""

    id = "sees-input"

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []
        self.system: list[str] = []

    @hookimpl
    def process_input(self, messages, system_messages):
        self.messages = [(m.role, m.text) for m in messages]
        self.system = [s["content"] for s in system_messages]


CONVERSATION = [{"role": "system", "content": "Be brief."}, "Hi",
                {"role": "system", "content": "Answer in French."}, "Why?"]


async def test_a_callers_system_messages_join_the_instructions_by_default(make_bare_agent):
    """The reference's way: after the agent's instructions, out of ``messages``."""
    seen = SeesInput()
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, instructions="You are support.",
                            input_processors=[seen])
    await agent.generate(CONVERSATION)
    assert seen.messages == [("user", "Hi"), ("user", "Why?")]
    assert seen.system == ["You are support.", "Be brief.", "Answer in French."]
    assert [m["role"] for m in model.requests[0].prompt] == ["system"] * 3 + ["user"] * 2


async def test_caller_system_input_makes_them_input_where_the_caller_put_them(
        make_bare_agent):
    """``caller_system="input"``: input processors check them with the rest of the
    input; the model gets them at their place; the instructions stay apart."""
    seen = SeesInput()
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, instructions="You are support.",
                            input_processors=[seen])
    await agent.generate(CONVERSATION, caller_system="input")
    assert seen.messages == [("system", "Be brief."), ("user", "Hi"),
                             ("system", "Answer in French."), ("user", "Why?")]
    assert seen.system == ["You are support."]
    prompt = model.requests[0].prompt
    assert [m["role"] for m in prompt] == ["system", "system", "user", "system", "user"]
    assert prompt[3] == {"role": "system", "content": "Answer in French."}


async def test_caller_system_input_is_redacted_by_a_guardrail(make_bare_agent):
    from tripwire.plugins.pii_detector import PIIDetector

    model = MockModel(["ok"])
    pii = PIIDetector()
    agent = make_bare_agent(model=model, input_processors=[pii], output_processors=[pii])
    await agent.generate([{"role": "system", "content": "Mail ada@example.com."}, "Hi"],
                         caller_system="input")
    assert "ada@example.com" not in str(model.requests[0].prompt)


@pytest.mark.parametrize("value", ["user", None, True])
def test_a_bad_caller_system_is_named_with_what_is_valid(make_bare_agent, value):
    with pytest.raises(ConfigurationError,
                       match="caller_system must be 'instructions' or 'input', got"):
        make_bare_agent().stream("x", caller_system=value)


async def test_caller_system_input_stays_in_place_when_a_processor_returns_the_list(
        make_bare_agent):
    """A processor that returns the messages it was given keeps a caller's system
    message in the conversation (the processors after it still see it); a system
    message a processor adds joins the system messages, as in the reference."""

    class Returns(Processor):
        id = "returns"

        @hookimpl
        def process_input(self, messages):
            return [*messages, Message.system("Added by a processor.")]

    seen = SeesInput()
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, instructions="You are support.",
                            input_processors=[Returns(), seen])
    await agent.generate(CONVERSATION, caller_system="input")
    assert seen.messages == [("system", "Be brief."), ("user", "Hi"),
                             ("system", "Answer in French."), ("user", "Why?")]
    assert seen.system == ["You are support.", "Added by a processor."]


def test_adding_a_system_message_already_in_the_conversation_updates_it_in_place():
    from tripwire.messages import MessageList

    ml = MessageList(system_messages=["Instructions."])
    (kept,) = ml.add([{"role": "system", "content": "Be brief."}], keep_system=True)
    kept.content.parts[0].text = "Be very brief."
    ml.add(kept)
    assert [(m.role, m.text) for m in ml.all.db()] == [("system", "Be very brief.")]
    assert ml.system_messages == [{"role": "system", "content": "Instructions."}]
