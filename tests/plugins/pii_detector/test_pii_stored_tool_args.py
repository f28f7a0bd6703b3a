"""``pii-detector`` ``tokenize`` with ``store="placeholders"`` and tools that persist
their arguments (``Tool.stores_arguments``: working memory's ``update_working_memory``,
or a tool of the user's). Tool-call arguments are restored to the real values before a
tool runs, so a tool that stores them would put the personal data at rest: such a tool
gets the placeholders instead, and so does its store. Attack-style: the value must not
reach the working-memory document, the stored thread, ``result.messages`` or the model,
on ``generate`` and ``stream``; ``store="values"`` still restores."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.helpers import run_collected
from tripwire import Agent, Memory, Processor, hookimpl
from tripwire.messages.serde import message_to_dict
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.working_memory import TOOL_NAME
from tripwire.testing import MockModel, MockResponse
from tripwire.tools import Tool, tool

ANN = {"thread": "t1", "resource": "ann"}
EMAIL = "ada.lovelace@example.com"
PHONE = "+1 415 555 2671"
PROPERTY = settings(max_examples=10, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
emails = st.builds("{}.{}@{}.com".format,
                   st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=10),
                   st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=6),
                   st.sampled_from(["example", "mail", "corp"]))


def call(name: str, args: dict[str, Any], call_id: str = "c1") -> MockResponse:
    return MockResponse(tool_calls=[{"tool_name": name, "args": args, "tool_call_id": call_id}])


async def _run(agent: Agent, text: str, stream: bool, **options: Any) -> tuple[Any, list[Any]]:
    chunks, result = await run_collected(agent, text, stream, **options)
    return result, chunks


def _dumped(messages: list[Any]) -> str:
    return json.dumps([message_to_dict(m) for m in messages])


def _model_saw(model: MockModel) -> str:
    return json.dumps([r.prompt for r in model.requests], default=str)


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_working_memory_keeps_placeholders_never_the_value(store, stream):
    model = MockModel([call(TOOL_NAME, {"memory": "- **Email**: <EMAIL_1>\n- **Phone**: "
                                                 "<PHONE_1>"}),
                       "Noted, I will write to <EMAIL_1>."])
    pii = PIIDetector(strategy="tokenize")
    async with Agent(id="a", model=model, memory=Memory(store, working_memory=True),
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        result, chunks = await _run(
            agent, f"I am Ada, mail me at {EMAIL} or call {PHONE}", stream, memory=ANN)
    document = await store.get_working_memory("resource:ann")
    assert document == "- **Email**: <EMAIL_1>\n- **Phone**: <PHONE_1>"
    stored = _dumped(await store.last_messages("t1", 50))
    for value in (EMAIL, PHONE, "555 2671"):
        assert value not in document
        assert value not in stored
        assert value not in _dumped(result.messages)
        assert value not in json.dumps([r.args for r in result.tool_results])
        assert value not in _model_saw(model)
    # the tool, its call and its store got the placeholders ...
    assert result.tool_calls[0].args == {"memory": "- **Email**: <EMAIL_1>\n- **Phone**: "
                                                   "<PHONE_1>"}
    # ... the client still gets the values in the answer
    assert result.text == f"Noted, I will write to {EMAIL}."
    if stream:
        sent = [c for c in chunks if c.type == "tool-call"]
        assert sent[0].payload["args"]["memory"].startswith("- **Email**: <EMAIL_1>")
        assert EMAIL in "".join(c.payload.get("text", "") for c in chunks
                                if c.type == "text-delta")


async def test_the_next_call_recalls_placeholders_and_numbers_new_values_past_them(store):
    """The mapping dies with the call: the recalled document holds ``<EMAIL_1>``, which
    the next call cannot restore, and a new email becomes ``<EMAIL_2>`` (never the old
    placeholder, so the model cannot confuse the two)."""
    model = MockModel([call(TOOL_NAME, {"memory": "- **Email**: <EMAIL_1>"}), "Noted.",
                       "Your old address is <EMAIL_1>, the new one <EMAIL_2>."])
    pii = PIIDetector(strategy="tokenize")
    async with Agent(id="a", model=model, memory=Memory(store, working_memory=True),
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        await agent.generate(f"mail me at {EMAIL}", memory=ANN)
        result = await agent.generate("I moved to bob@example.org",
                                      memory={"thread": "t2", "resource": "ann"})
    recalled = [p for p in model.requests[2].prompt if p.get("tag") == "memory"]
    assert "- **Email**: <EMAIL_1>" in recalled[0]["content"]
    assert "I moved to <EMAIL_2>" in _model_saw(model)
    assert result.text == "Your old address is <EMAIL_1>, the new one bob@example.org."
    assert EMAIL not in _model_saw(model)


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_a_users_storing_tool_gets_placeholders_a_plain_tool_values(stream):
    saved: list[str] = []
    sent: list[str] = []

    @tool(stores_arguments=True)
    def save_note(note: str) -> str:
        """Save a note about the user."""
        saved.append(note)
        return "saved"

    @tool
    def send_mail(to: str) -> str:
        """Send a mail."""
        sent.append(to)
        return "sent"

    model = MockModel([
        MockResponse(tool_calls=[
            {"tool_name": "save_note", "args": {"note": "mail: <EMAIL_1>"}, "tool_call_id": "c1"},
            {"tool_name": "send_mail", "args": {"to": "<EMAIL_1>"}, "tool_call_id": "c2"}]),
        "Done."])
    pii = PIIDetector(strategy="tokenize")
    async with Agent(id="a", model=model, tools=[save_note, send_mail],
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        result, chunks = await _run(agent, f"mail {EMAIL} and note it", stream)
    assert saved == ["mail: <EMAIL_1>"]
    assert sent == [EMAIL]
    assert [c.args for c in result.tool_calls] == [{"note": "mail: <EMAIL_1>"}, {"to": EMAIL}]
    assert EMAIL not in _dumped(result.messages)
    assert EMAIL not in _model_saw(model)
    if stream:
        assert [c.payload["args"] for c in chunks if c.type == "tool-call"] == \
            [{"note": "mail: <EMAIL_1>"}, {"to": EMAIL}]


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_store_values_restores_the_arguments_of_a_storing_tool(store, stream):
    model = MockModel([call(TOOL_NAME, {"memory": "- **Email**: <EMAIL_1>"}), "Noted."])
    pii = PIIDetector(strategy="tokenize", store="values")
    async with Agent(id="a", model=model, memory=Memory(store, working_memory=True),
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        result, _ = await _run(agent, f"mail me at {EMAIL}", stream, memory=ANN)
    assert await store.get_working_memory("resource:ann") == f"- **Email**: {EMAIL}"
    assert result.tool_calls[0].args == {"memory": f"- **Email**: {EMAIL}"}
    assert EMAIL not in _model_saw(model)


@PROPERTY
@given(email=emails, stream=st.booleans(), json_format=st.booleans())
def test_no_email_reaches_the_working_memory_store(tmp_path_factory, email, stream,
                                                   json_format):
    import asyncio

    url = f"sqlite:///{tmp_path_factory.mktemp('wm')}/chat.db"
    memory_arg = (json.dumps({"contact": {"email": "<EMAIL_1>"}}) if json_format
                  else "- **Email**: <EMAIL_1>")
    working = {"template": {"format": "json", "content": "{}"}} if json_format else True

    async def main() -> None:
        model = MockModel([call(TOOL_NAME, {"memory": memory_arg}), "Noted <EMAIL_1>."])
        pii = PIIDetector(strategy="tokenize")
        memory = Memory(url, working_memory=working)
        async with Agent(id="a", model=model, memory=memory, input_processors=[pii],
                         output_processors=[pii], default_error_processors=False) as agent:
            result, _ = await _run(agent, f"remember {email} please", stream, memory=ANN)
            store = memory.store
            document = await store.get_working_memory("resource:ann")
            assert document is not None and "<EMAIL_1>" in document
            assert email not in document
            assert email not in _dumped(await store.last_messages("t1", 50))
            assert email not in _dumped(result.messages)
            assert result.text == f"Noted {email}."

    asyncio.run(main())


def test_the_flag_is_checked_and_defaults_off():
    def f(x: str) -> str:
        return x

    assert tool(f).stores_arguments is False
    assert tool(f, stores_arguments=True).stores_arguments is True
    assert Tool("t", "", {"type": "object"}, f, stores_arguments=True).stores_arguments
    with pytest.raises(ValueError, match="stores_arguments must be a bool"):
        tool(f, stores_arguments="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_a_value_the_model_writes_into_working_memory_itself_is_tokenized(store, stream):
    """The model never saw the value (it wrote it from what it knows): it is stored as
    a placeholder all the same (phase ``step``), and the client gets it back."""
    model = MockModel([call(TOOL_NAME, {"memory": "- **Email**: grace.hopper@navy.mil"}),
                       "Noted."])
    pii = PIIDetector(strategy="tokenize")
    async with Agent(id="a", model=model, memory=Memory(store, working_memory=True),
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        result, _ = await _run(agent, "remember Grace's mail", stream, memory=ANN)
    assert await store.get_working_memory("resource:ann") == "- **Email**: <EMAIL_1>"
    assert "grace.hopper" not in _dumped(await store.last_messages("t1", 50))
    assert "grace.hopper" not in _dumped(result.messages)


class Replay(Processor):
    """An input processor before the guard that answers the first model call itself (a
    cache hit): the guard's ``process_llm_request`` does not run for it."""

    id = "replay"

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def process_llm_request(self) -> dict[str, Any] | None:
        self.calls += 1
        if self.calls > 1:
            return None
        return {"response": [
            {"type": "tool-call", "payload": {"tool_call_id": "c1", "tool_name": TOOL_NAME,
                                              "args": {"memory": "- **Email**: <EMAIL_1>"}}},
            {"type": "finish", "payload": {"finish_reason": "tool-calls"}}]}


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_a_replayed_call_of_a_storing_tool_keeps_its_placeholders(store, stream):
    pii = PIIDetector(strategy="tokenize")
    async with Agent(id="a", model=MockModel(["Noted."]),
                     memory=Memory(store, working_memory=True),
                     input_processors=[Replay(), pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        result, _ = await _run(agent, f"mail me at {EMAIL}", stream, memory=ANN)
    assert await store.get_working_memory("resource:ann") == "- **Email**: <EMAIL_1>"
    assert EMAIL not in _dumped(result.messages)


async def test_with_output_off_a_value_the_model_writes_is_still_not_stored(store):
    model = MockModel([call(TOOL_NAME, {"memory": "- **Email**: grace.hopper@navy.mil"}),
                       "Noted."])
    pii = PIIDetector(strategy="tokenize", phases=("input", "step", "tool-results", "result"))
    async with Agent(id="a", model=model, memory=Memory(store, working_memory=True),
                     input_processors=[pii], output_processors=[pii],
                     default_error_processors=False) as agent:
        await agent.generate("remember Grace's mail", memory=ANN)
    assert await store.get_working_memory("resource:ann") == "- **Email**: <EMAIL_1>"
