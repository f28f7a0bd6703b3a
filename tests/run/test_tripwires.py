"""Tripwires: a processor that aborts ends the run with finish reason "other", says who
and why (result, stream chunk, on_violation), and keeps what was accepted before."""

from __future__ import annotations

import logging

from tests.support.helpers import Blocker, delete_account
from tripwire import Processor, TripWire, TripwireInfo, hookimpl
from tripwire.testing import MockModel, MockResponse


async def test_generate_tripwire_sets_finish_reason_other_and_empty_text(make_bare_agent):
    model = MockModel(["never seen"])
    agent = make_bare_agent(model=model, input_processors=[Blocker("process_input", reason="nope")])
    result = await agent.generate("x")
    assert result.finish_reason == "other"
    assert result.text == ""
    assert result.tripwire == TripwireInfo("nope", False, {"hook": "process_input"}, "blocker")
    assert model.requests == []


async def test_default_abort_reason_names_the_processor(make_bare_agent):
    result = await make_bare_agent(input_processors=[Blocker("process_input")]).generate("x")
    assert result.tripwire.reason == "Tripwire triggered by blocker"


async def test_stream_emits_tripwire_chunk_and_ends(make_bare_agent):
    agent = make_bare_agent(["a b c"],
                            output_processors=[Blocker("process_output_stream", reason="stop")])
    stream = agent.stream("x")
    chunks = [c async for c in stream]
    assert [c.type for c in chunks] == ["step-start", "tripwire"]
    assert chunks[-1].payload == {"reason": "stop", "retry": False,
                                  "metadata": {"hook": "process_output_stream"},
                                  "processor_id": "blocker"}
    assert stream.tripwire.processor_id == "blocker"
    assert await stream.finish_reason == "other"


async def test_tripwire_in_output_result_rejects_the_whole_response(make_bare_agent):
    agent = make_bare_agent(["fine"], output_processors=[Blocker("process_output_result")])
    result = await agent.generate("x")
    assert result.text == ""
    assert result.tripwire is not None


async def test_tripwire_after_accepted_steps_keeps_their_text(make_bare_agent):
    class SecondStep(Processor):
        id = "second-step"

        @hookimpl
        def process_input_step(self, step_number, abort):
            if step_number == 1:
                abort("budget exhausted")

    model = MockModel([MockResponse(text="Checking.", tool_calls=[
        {"tool_name": "delete_account", "args": {"user_id": "u1"}}]), "never"])
    result = await make_bare_agent(model=model, tools=[delete_account],
                                   input_processors=[SecondStep()]).generate("x")
    assert result.text == "Checking."
    assert result.tripwire.reason == "budget exhausted"


async def test_on_violation_called_on_abort_and_its_errors_swallowed(make_bare_agent, caplog):
    seen = []

    def on_violation(violation):
        seen.append(violation)
        raise RuntimeError("alerting is down")

    blocker = Blocker("process_input", reason="pii")
    blocker.on_violation = on_violation
    with caplog.at_level(logging.ERROR, logger="tripwire"):
        result = await make_bare_agent(input_processors=[blocker]).generate("x")
    assert result.tripwire.reason == "pii"
    assert [(v.processor_id, v.message, v.detail) for v in seen] == [
        ("blocker", "pii", {"hook": "process_input"})]
    assert "alerting is down" in caplog.text


async def test_tripwire_exception_carries_processor_id():
    tw = TripWire("r", processor_id="p")
    assert (tw.reason, tw.retry, tw.metadata, tw.processor_id) == ("r", False, None, "p")
