"""What a caller keeps: result.text, result.messages and tool results hold exactly what
the processors allowed, and two processors never run each other's code."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.helpers import strings
from tripwire import Processor, ProcessorError, hookimpl, tool
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter, Rule
from tripwire.testing import MockModel, MockResponse
from tripwire_keyword_guard import KeywordGuard


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


# ---------------------------------------------------------------- tool errors

EMAIL = "ada@example.com"
PHONE = "(415) 555-2671"
ORDER = "ORD-884213"  # the regex-filter rule's
KEYWORD = "hunter2"   # keyword-guard's
RAW = (EMAIL, PHONE, ORDER, KEYWORD)


@tool
def refund(order: str) -> str:
    """Refund an order."""
    raise LookupError(f"no refund for {ORDER}: mail {EMAIL} or call {PHONE} (pin {KEYWORD})")


def guards() -> list[Processor]:
    """pii-detector (redact), regex-filter (a custom rule) and keyword-guard (mask): each
    redacts a failed tool's error in its ``tool-error`` chunk."""
    return [PIIDetector(strategy="redact", detection_types=["email", "phone"]),
            RegexFilter(rules=[Rule("order", r"ORD-\d{6}", "[ORDER]")], strategy="redact"),
            KeywordGuard(patterns=[KEYWORD], strategy="mask")]


async def tool_run(agent: Any, mode: str) -> tuple[list[Any], Any]:
    """The chunks the client got (none for ``generate``) and the result."""
    if mode == "generate":
        return [], await agent.generate("refund my order")
    stream = agent.stream("refund my order")
    chunks = [c async for c in stream]
    return chunks, await stream.result


def leaks(*values: Any) -> list[str]:
    return [s for s in strings(list(values)) if any(raw in s for raw in RAW)]


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_tool_errors_redacted_text_is_all_any_result_holds(make_bare_agent, mode):
    """The raw error reaches no path: the client's chunks, ``result.tool_results``, every
    step's tool results, the stored messages and the model's next prompt all hold the
    error the output processors let through, and the same one."""
    model = MockModel([MockResponse(tool_calls=[call("refund", {"order": "7"})]),
                       MockResponse(text="Sorry about that.")])
    agent = make_bare_agent(model=model, tools=[refund], output_processors=guards())
    chunks, result = await tool_run(agent, mode)
    assert result.tripwire is None and result.text == "Sorry about that."
    assert not leaks(chunks)
    assert not leaks(result.tool_results, [s.tool_results for s in result.steps])
    assert not leaks(result.messages, result.message_list.all.db())
    assert not leaks(model.requests[1].prompt)
    (stored,) = result.tool_results
    assert stored.is_error and stored.result == (
        "LookupError: no refund for [ORDER]: mail a*a@*******.com or call (XXX) XXX-2671 "
        "(pin [REDACTED])")
    assert result.steps[0].tool_results == [stored]
    assert result.messages[0].tool_invocations[0].result == stored.result
    if mode == "stream":
        (error,) = [c for c in chunks if c.type == "tool-error"]
        assert error.payload["error"] == stored.result


@pytest.mark.parametrize("guard", guards(), ids=lambda g: g.id)
@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_each_guard_alone_keeps_a_tool_errors_value_out_of_every_result(
        make_bare_agent, guard, mode):
    """Each guard on its own: what it matches is gone from the chunk, the results, the
    stored history and the next prompt."""
    raw = {"pii-detector": EMAIL, "regex-filter": ORDER, "keyword-guard": KEYWORD}[guard.id]
    model = MockModel([MockResponse(tool_calls=[call("refund", {"order": "7"})]),
                       MockResponse(text="Sorry.")])
    agent = make_bare_agent(model=model, tools=[refund], output_processors=[guard])
    chunks, result = await tool_run(agent, mode)
    where = strings([chunks, result.tool_results, [s.tool_results for s in result.steps],
                     result.messages, result.message_list.all.db(), model.requests[1].prompt])
    assert not [s for s in where if raw in s]


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_tool_result_in_the_results_is_the_one_the_client_got(make_bare_agent, mode):
    """A tool that succeeded: its chunk after the output processors, ``tool_results`` and
    the stored invocation hold the same processed value."""
    @tool
    def lookup(order: str) -> dict:
        """Look an order up."""
        return {"order": ORDER, "contact": EMAIL}

    model = MockModel([MockResponse(tool_calls=[call("lookup", {"order": "7"})]),
                       MockResponse(text="Found it.")])
    agent = make_bare_agent(model=model, tools=[lookup], output_processors=guards())
    chunks, result = await tool_run(agent, mode)
    expected = {"order": "[ORDER]", "contact": "a*a@*******.com"}
    assert [r.result for r in result.tool_results] == [expected]
    assert result.messages[0].tool_invocations[0].result == expected
    assert not leaks(model.requests[1].prompt)
    if mode == "stream":
        (sent,) = [c for c in chunks if c.type == "tool-result"]
        assert sent.payload["result"] == expected


class DropToolErrors(Processor):
    """Keeps failed tools' errors from the client."""

    id = "drop-tool-errors"

    @hookimpl
    def process_output_stream(self, part):
        return None if part.type == "tool-error" else part


async def test_a_dropped_tool_error_leaves_the_result_the_model_got(make_bare_agent):
    """A processor that drops the ``tool-error`` chunk hides it from the client; the model
    still gets a result for its call, and ``tool_results`` holds that one (redacted by the
    guards before the drop)."""
    model = MockModel([MockResponse(tool_calls=[call("refund", {"order": "7"})]),
                       MockResponse(text="Sorry.")])
    agent = make_bare_agent(model=model, tools=[refund],
                            output_processors=[*guards(), DropToolErrors()])
    chunks, result = await tool_run(agent, "stream")
    assert "tool-error" not in [c.type for c in chunks]
    (stored,) = result.tool_results
    assert stored.is_error and stored.result == result.messages[0].tool_invocations[0].result
    assert stored.result.startswith("LookupError: no refund for [ORDER]")
    assert not leaks(stored, model.requests[1].prompt)


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_tool_error_that_trips_a_guard_is_in_no_step(make_bare_agent, mode):
    """``block``: the run stops at the error; no step keeps it."""
    model = MockModel([MockResponse(tool_calls=[call("refund", {"order": "7"})]), "never"])
    agent = make_bare_agent(model=model, tools=[refund],
                            output_processors=[PIIDetector(strategy="block")])
    chunks, result = await tool_run(agent, mode)
    assert result.tripwire is not None and result.tripwire.processor_id == "pii-detector"
    assert not leaks(chunks, [s.tool_results for s in result.steps], result.messages)
    assert len(model.requests) == 1
