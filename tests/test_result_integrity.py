"""What a caller keeps: result.text, result.messages and tool results hold exactly what
the processors allowed, and two processors never run each other's code."""

from __future__ import annotations

import pytest

from tripwire import Processor, ProcessorError, hookimpl, tool
from tripwire.testing import MockModel, MockResponse


@tool
def get_customer(customer_id: str) -> dict:
    """Look a customer up."""
    return {"name": "Ada", "ssn": "078-05-1120"}


def call(name="get_customer", args=None, cid="c1"):
    return {"tool_name": name, "args": args or {"customer_id": "42"}, "tool_call_id": cid}


# ---------------------------------------------------------------- process_output_result tripwire


async def test_a_tripwire_in_process_output_result_keeps_none_of_the_response(make_bare_agent):
    class RejectAll(Processor):
        id = "reject"

        @hookimpl
        def process_output_result(self, abort):
            abort("blocked answer")

    model = MockModel([MockResponse(tool_calls=[call()]),
                       MockResponse(text="The secret is 42")])
    result = await make_bare_agent(model=model, tools=[get_customer],
                                   output_processors=[RejectAll()]).generate("hi")
    assert result.tripwire.reason == "blocked answer"
    assert result.text == ""
    assert result.messages == []
    everything = repr(result.message_list.all.db())
    assert "secret is 42" not in everything and "078-05-1120" not in everything
    # the user's input is still there
    assert [m.role for m in result.message_list.all.db()] == ["user"]


# ---------------------------------------------------------------- process_tool_result returns


class RedactSSN(Processor):
    id = "redact-ssn"

    @hookimpl
    def process_tool_result(self, result):
        return {"result": {**result, "ssn": "***"}}


async def test_process_tool_result_returning_a_result_replaces_it_everywhere(make_bare_agent):
    model = MockModel([MockResponse(tool_calls=[call()]), MockResponse(text="done")])
    agent = make_bare_agent(model=model, tools=[get_customer], output_processors=[RedactSSN()])
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    result = await stream.result
    (tool_result,) = [c for c in chunks if c.type == "tool-result"]
    assert tool_result.payload["result"] == {"name": "Ada", "ssn": "***"}
    assert result.steps[0].tool_results[0].result == {"name": "Ada", "ssn": "***"}
    assert "078-05-1120" not in repr(model.requests[1].prompt)   # the model
    assert "078-05-1120" not in repr(result.messages)            # the stored history
    assert "078-05-1120" not in repr(chunks)                     # the client


async def test_a_later_process_tool_result_sees_the_replaced_result(make_bare_agent):
    seen = []

    class Look(Processor):
        id = "look"

        @hookimpl
        def process_tool_result(self, result):
            seen.append(result)

    model = MockModel([MockResponse(tool_calls=[call()]), MockResponse(text="done")])
    agent = make_bare_agent(model=model, tools=[get_customer],
                            output_processors=[RedactSSN(), Look()])
    await agent.generate("hi")
    assert seen == [{"name": "Ada", "ssn": "***"}]


@pytest.mark.parametrize("returned", [
    "redacted", {"value": 1}, {"result": 1, "extra": 2}, [1, 2], 0,
])
async def test_process_tool_result_rejects_any_other_return(make_bare_agent, returned):
    class Bad(Processor):
        id = "bad"

        @hookimpl
        def process_tool_result(self):
            return returned

    model = MockModel([MockResponse(tool_calls=[call()]), MockResponse(text="done")])
    agent = make_bare_agent(model=model, tools=[get_customer], output_processors=[Bad()])
    with pytest.raises(ProcessorError, match=r"process_tool_result must return None or "
                                             r"\{'result': value\}") as info:
        await agent.generate("hi")
    assert info.value.processor_id == "bad"


async def test_process_tool_result_bad_return_with_fail_open_keeps_the_result(make_bare_agent):
    class Bad(Processor):
        id = "bad"
        fail_open = True

        @hookimpl
        def process_tool_result(self):
            return "nonsense"

    model = MockModel([MockResponse(tool_calls=[call()]), MockResponse(text="done")])
    result = await make_bare_agent(model=model, tools=[get_customer],
                                   output_processors=[Bad()]).generate("hi")
    assert result.steps[0].tool_results[0].result["name"] == "Ada"


# ---------------------------------------------------------------- identity, not equality


async def test_processors_that_compare_equal_each_run_their_own_settings(make_bare_agent):
    class Guard(Processor):
        """Equal (and hashed) by id, as many plugin classes define it."""

        id = "guard"

        def __init__(self, word: str):
            self.word = word

        def __eq__(self, other):
            return isinstance(other, Guard) and other.id == self.id

        def __hash__(self):
            return hash(self.id)

        @hookimpl
        def process_input(self, messages, abort):
            if any(self.word in m.text for m in messages):
                abort(f"blocked {self.word}")

    apple, pear = Guard("apple"), Guard("pear")
    assert apple == pear
    a = make_bare_agent(["ok"], input_processors=[apple])
    b = make_bare_agent(["ok"] * 2, input_processors=[pear])
    assert (await a.generate("an apple")).tripwire.reason == "blocked apple"
    assert (await b.generate("a pear")).tripwire.reason == "blocked pear"
    assert (await b.generate("an apple")).tripwire is None


# ---------------------------------------------------------------- result.text in process_output_result


async def test_assigning_result_text_in_process_output_result_is_a_clear_error(make_bare_agent):
    class Assign(Processor):
        id = "assign"

        @hookimpl
        def process_output_result(self, result):
            result.text = result.text.replace("4111", "****")

    with pytest.raises(ProcessorError, match="result.text is read-only") as info:
        await make_bare_agent(["card 4111"], output_processors=[Assign()]).generate("hi")
    assert info.value.processor_id == "assign"


async def test_editing_the_messages_in_process_output_result_changes_result_text(make_bare_agent):
    from tripwire import TextPart

    class Redact(Processor):
        id = "redact"

        @hookimpl
        def process_output_result(self, messages, result):
            for m in messages:
                m.content.parts = [TextPart(p.text.replace("4111", "****"))
                                   if isinstance(p, TextPart) else p for p in m.content.parts]
            return messages

    result = await make_bare_agent(["card 4111"], output_processors=[Redact()]).generate("hi")
    assert result.text == "card ****"
    assert "4111" not in repr(result.messages)


async def test_result_object_may_be_set_in_process_output_result(make_bare_agent):
    class Parse(Processor):
        id = "parse"

        @hookimpl
        def process_output_result(self, result):
            result.object = {"parsed": result.text}

    result = await make_bare_agent(["x"], output_processors=[Parse()]).generate("hi")
    assert result.object == {"parsed": "x"}


# ---------------------------------------------------------------- `return []` from process_output_step


class ReferenceValidator(Processor):
    """The reference guide's ResponseValidator, word for word in Python."""

    id = "response-validator"

    @hookimpl
    def process_output_step(self, text, abort, retry_count):
        if "valid" not in text and retry_count < 3:
            abort("Response did not meet requirements. Try again.", retry=True)
        return []


async def test_return_empty_list_from_process_output_step_keeps_the_accepted_text(make_bare_agent):
    agent = make_bare_agent(["nope", "a valid answer"], output_processors=[ReferenceValidator()],
                            max_processor_retries=2)
    result = await agent.generate("hi")
    assert result.text == "a valid answer"
    assert [m.role for m in result.message_list.all.db() if not m.is_signal] == [
        "user", "assistant"]


async def test_return_empty_list_from_process_output_step_keeps_tool_steps_working(make_bare_agent):
    model = MockModel([MockResponse(text="valid ", tool_calls=[call()]),
                       MockResponse(text="valid answer")])
    agent = make_bare_agent(model=model, tools=[get_customer],
                            output_processors=[ReferenceValidator()])
    result = await agent.generate("hi")
    assert result.text == "valid valid answer"
    assert result.steps[0].tool_results[0].result["name"] == "Ada"
    assert "Ada" in repr(model.requests[1].prompt)
