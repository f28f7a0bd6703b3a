"""Execution modes of input processors: blocking, parallel (beside the model call) and
monitor (beside the run)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from fake_llm_server import Reply

from tripwire import (
    Message,
    Processor,
    ProcessorError,
    ProcessorValidationError,
    hookimpl,
    monitor,
    parallel_with_model,
)
from tripwire.testing import MockModel, MockResponse


class Check(Processor):
    """A check that waits for ``release`` (if given), then aborts on ``word``."""

    def __init__(self, pid="check", word="forbidden", *, release=None, log=None, mode=None):
        self.id = pid
        self.word = word
        self.release = release
        self.log = log if log is not None else []
        self.violations = []
        if mode is not None:
            self.mode = mode

    def on_violation(self, violation):
        self.violations.append(violation)

    @hookimpl
    async def process_input(self, messages, abort):
        if self.release is not None:
            await self.release.wait()
        self.log.append("check-done")
        if any(self.word in m.text for m in messages):
            abort(f"{self.id}: no {self.word}")


class Watch(Processor):
    id = "watch"

    def __init__(self, log):
        self.log = log

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            self.log.append("chunk")
        return part


# ---------------------------------------------------------------- parallel


async def test_a_parallel_check_runs_beside_the_model_call_and_holds_its_chunks(make_bare_agent):
    log: list = []
    release = asyncio.Event()
    model = MockModel([MockResponse(text="hello there")])
    agent = make_bare_agent(model=model,
                            input_processors=[Check(release=release, log=log, mode="parallel")],
                            output_processors=[Watch(log)])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(50):  # the model is called while the check is still waiting
        await asyncio.sleep(0)
        if model.requests:
            break
    assert model.requests and log == []
    release.set()
    result = await asyncio.wait_for(run, timeout=10)
    assert result.text == "hello there"
    assert log[0] == "check-done" and set(log[1:]) == {"chunk"}


async def test_a_parallel_check_that_aborts_cancels_the_http_model_call(
    make_bare_agent, llm_server,
):
    llm_server.script(Reply(endless=True, event_delay=0.01))

    class AbortWhenCalled(Check):
        @hookimpl
        async def process_input(self, messages, abort):
            while not llm_server.requests:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # the model is streaming by now
            abort("not allowed")

    async with llm_server.openai() as model:
        agent = make_bare_agent(model=model,
                                input_processors=[parallel_with_model(AbortWhenCalled())])
        stream = agent.stream("hi")
        chunks = await asyncio.wait_for(_collect(stream), timeout=10)
    assert [c.type for c in chunks if c.type == "text-delta"] == []
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["model_call_cancelled"] is True
    assert stream.tripwire.model_call_cancelled
    await asyncio.wait_for(llm_server.disconnected.wait(), timeout=10)


async def _collect(stream):
    return [c async for c in stream]


async def test_a_parallel_check_that_aborts_before_the_first_chunk_stops_the_model(make_bare_agent):
    model = MockModel([MockResponse(text="never seen")], chunk_delay=0.05)
    agent = make_bare_agent(model=model, input_processors=[Check(word="hi", mode="parallel")])
    result = await agent.generate("hi")
    assert result.tripwire.processor_id == "check"
    assert result.text == ""
    assert model.closed_early == 1


async def test_a_parallel_check_that_passes_changes_nothing(make_bare_agent):
    agent = make_bare_agent(["ok"], input_processors=[Check(mode="parallel")])
    assert (await agent.generate("hi")).text == "ok"


async def test_a_parallel_check_may_not_change_the_input(make_bare_agent):
    class Rewrites(Processor):
        id = "rewrites"
        mode = "parallel"

        @hookimpl
        def process_input(self, messages):
            return [Message.user("changed")]

    agent = make_bare_agent(["ok"], input_processors=[Rewrites()])
    with pytest.raises(ProcessorError, match="may check the input but not change it") as info:
        await agent.generate("hi")
    assert info.value.processor_id == "rewrites"


async def test_a_check_of_a_run_that_trips_before_the_model_call_is_cancelled(make_bare_agent):
    release = asyncio.Event()
    log: list = []

    class BlockStep(Processor):
        id = "block-step"

        @hookimpl
        def process_input_step(self, abort):
            abort("stop here")

    agent = make_bare_agent(["ok"], input_processors=[
        Check(release=release, log=log, mode="parallel"), BlockStep()])
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.tripwire.processor_id == "block-step"
    assert log == []  # the check was cancelled, never finished


# ---------------------------------------------------------------- monitor


async def test_a_monitor_never_delays_or_changes_the_run(make_bare_agent):
    release = asyncio.Event()
    check = Check(word="hi", release=release, mode="monitor")
    agent = make_bare_agent(["ok"], input_processors=[check])
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.text == "ok" and result.tripwire is None
    assert check.violations == []
    release.set()
    for _ in range(50):
        await asyncio.sleep(0)
        if check.violations:
            break
    assert [v.message for v in check.violations] == ["check: no hi"]
    await agent.aclose()


def test_generate_sync_lets_its_monitors_report_before_its_loop_ends(make_bare_agent):
    check = Check(word="hi")
    agent = make_bare_agent(["ok"], input_processors=[monitor(check)])
    assert agent.generate_sync("hi").tripwire is None
    assert [v.message for v in check.violations] == ["check: no hi"]


async def test_aclose_cancels_monitors_still_running(make_bare_agent):
    release = asyncio.Event()
    log: list = []
    agent = make_bare_agent(["ok"], input_processors=[monitor(Check(release=release, log=log))])
    await agent.generate("hi")
    await agent.aclose()
    release.set()
    await asyncio.sleep(0)
    assert log == []


async def test_a_monitor_that_changes_the_input_is_reported_not_applied(make_bare_agent, caplog):
    class Rewrites(Processor):
        id = "rewrites"

        @hookimpl
        def process_input(self, messages):
            return [Message.user("changed")]

    agent = make_bare_agent(["ok"], input_processors=[monitor(Rewrites())])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        result = await agent.generate("hi")
        for _ in range(10):  # the monitor reports after the run
            await asyncio.sleep(0)
        await agent.aclose()
    assert result.text == "ok"
    assert agent.model.requests[0].prompt[-1]["content"][0]["text"] == "hi"
    assert any("may check the input but not change it" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------- where a mode is set


def test_the_processor_object_is_not_changed_by_the_mode_wrappers(make_bare_agent):
    check = Check()
    make_bare_agent(input_processors=[parallel_with_model(check)])
    assert check.mode == "blocking"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"input_processors": [Check(mode="sideways")]}, "mode='sideways' is not a mode"),
    ({"output_processors": [monitor(Watch([]))]}, "modes apply to input processors"),
])
def test_bad_modes_are_rejected_at_construction(make_bare_agent, kwargs, message):
    with pytest.raises(ProcessorValidationError, match=message):
        make_bare_agent(**kwargs)


def test_a_mode_needs_process_input(make_bare_agent):
    class StepOnly(Processor):
        id = "step-only"
        mode = "monitor"

        @hookimpl
        def process_input_step(self):
            pass

    with pytest.raises(ProcessorValidationError, match="has mode='monitor' but no process_input"):
        make_bare_agent(input_processors=[StepOnly()])


async def test_mode_from_toml(tmp_path, only_plugins):
    from tripwire.config import load_config

    only_plugins("unicode-normalizer")
    path = tmp_path / "tripwire.toml"
    path.write_text("""
[models.demo]
use = "mock"
responses = ["ok"]

[agents.a]
model = "models.demo"
input_processors = [{ use = "unicode-normalizer", mode = "monitor" }]
""")
    agent = load_config(path).agent("a")
    await agent.generate("ｈｉ")
    # a monitor cannot change the input: the model saw it as it was
    assert agent.model.requests[0].prompt[-1]["content"][0]["text"] == "ｈｉ"
    await agent.aclose()
    path.write_text(path.read_text().replace('"monitor"', '"loud"'))
    with pytest.raises(Exception, match="mode = 'loud' is not a mode"):
        load_config(path).agent("a")
