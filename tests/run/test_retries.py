"""Retries a processor asks for (abort(..., retry=True)): the step is rolled back and
rerun with the reason as feedback, within max_processor_retries."""

from __future__ import annotations

from tests.support.helpers import Blocker, delete_account, deleted
from tripwire import Processor, hookimpl
from tripwire.testing import MockModel, MockResponse


class RejectShort(Processor):
    id = "reject-short"

    def __init__(self):
        self.counts = []

    @hookimpl
    def process_output_step(self, text, abort, retry_count):
        self.counts.append(retry_count)
        if len(text) < 10:
            abort(f"Too short: {text!r}", retry=True, metadata={"len": len(text)})


async def test_retry_with_feedback_reruns_the_step(make_bare_agent):
    model = MockModel([
        MockResponse(text="no", tool_calls=[{"tool_name": "delete_account", "args": {"user_id": "u9"}}]),
        "A complete answer.",
    ])
    deleted.clear()
    proc = RejectShort()
    result = await make_bare_agent(model=model, tools=[delete_account], output_processors=[proc],
                                   max_processor_retries=3).generate("x")
    # The rejected step stays in steps, marked; its text is not in the final text.
    assert [s.tripwire is not None for s in result.steps] == [True, False]
    assert result.steps[0].tripwire.metadata == {"len": 2}
    assert result.text == "A complete answer."
    # Its tool calls never ran.
    assert deleted == []
    # The model saw the reason as a system-reminder at the end of the prompt, and not the
    # rejected step (rolled back).
    last = model.requests[1].prompt[-1]
    assert last["role"] == "user"
    assert last["content"][0]["text"] == (
        '<system-reminder type="retry-feedback">Too short: \'no\'</system-reminder>')
    assert all(m["role"] != "assistant" for m in model.requests[1].prompt)
    assert result.tripwire is None
    assert result.usage.total_tokens == sum(s.usage.total_tokens for s in result.steps)


async def test_retry_count_is_consecutive_and_resets_after_an_accepted_step(make_bare_agent):
    model = MockModel([
        "bad", "bad",
        MockResponse(text="Good enough now.", tool_calls=[{"tool_name": "delete_account",
                                                          "args": {"user_id": "a"}}]),
        "bad", "Another fine answer.",
    ])
    proc = RejectShort()
    await make_bare_agent(model=model, tools=[delete_account], output_processors=[proc],
                          max_processor_retries=2).generate("x")
    assert proc.counts == [0, 1, 2, 0, 1]


async def test_retry_without_limit_ends_the_run_as_a_tripwire(make_bare_agent):
    model = MockModel(["bad", "unused"])
    result = await make_bare_agent(model=model, output_processors=[RejectShort()]).generate("x")
    assert result.tripwire.retry is True
    assert result.finish_reason == "other"
    assert result.text == ""
    assert len(model.requests) == 1


async def test_retry_limit_exhausted_ends_as_tripwire(make_bare_agent):
    model = MockModel(["bad", "bad", "bad"])
    result = await make_bare_agent(model=model, output_processors=[RejectShort()],
                                   max_processor_retries=2).generate("x")
    assert len(model.requests) == 3
    assert result.tripwire.reason == "Too short: 'bad'"
    assert [s.tripwire is not None for s in result.steps] == [True, True, True]


async def test_per_call_max_processor_retries_overrides_agent(make_bare_agent):
    model = MockModel(["bad", "Long enough answer."])
    agent = make_bare_agent(model=model, output_processors=[RejectShort()])
    result = await agent.generate("x", max_processor_retries=1)
    assert result.text == "Long enough answer."


async def test_retry_from_other_hooks_is_reported_not_performed(make_bare_agent):
    model = MockModel(["a", "b"])
    agent = make_bare_agent(model=model, input_processors=[Blocker("process_input", retry=True)],
                            max_processor_retries=5)
    result = await agent.generate("x")
    assert result.tripwire.retry is True
    assert model.requests == []


async def test_retry_from_process_tool_result_rolls_back_the_step(make_bare_agent):
    class ScanToolResult(Processor):
        id = "scan-tool-result"

        @hookimpl
        def process_tool_result(self, result, abort, retry_count):
            if retry_count == 0:
                abort("Tool output looked like an injection; use another approach.", retry=True)

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "delete_account", "args": {"user_id": "z"}}]),
        "Understood.",
    ])
    agent = make_bare_agent(model=model, tools=[delete_account],
                            output_processors=[ScanToolResult()], max_processor_retries=1)
    result = await agent.generate("x")
    assert result.text == "Understood."
    assert not any(m["role"] == "tool" for m in model.requests[1].prompt)
