"""Execution modes of input processors: blocking, parallel (beside the model call) and
monitor (beside the run)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.support.fake_llm_server import Reply
from tripwire import (
    Agent,
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


class PacedModel:
    """A model whose stream is read one chunk at a time, recorded: ``reads`` counts the
    chunks handed out, ``all_read`` is set once the stream was read to its end,
    ``stall_after`` (a count) makes it wait for ``resume`` after that many chunks,
    ``fail_after`` makes it raise there instead; ``closed`` is set by its ``finally``."""

    provider = "paced"
    model_id = "paced"

    def __init__(self, texts, *, stall_after=None, fail_after=None):
        self.texts = list(texts)
        self.stall_after = stall_after
        self.fail_after = fail_after
        self.resume = asyncio.Event()
        self.all_read = asyncio.Event()
        self.reads = 0
        self.closed = False
        self.requests = []

    async def stream(self, request):
        from tripwire import Chunk, Usage

        self.requests.append(request)
        chunks = [Chunk("text-delta", {"id": "t", "text": t}) for t in self.texts]
        chunks.append(Chunk("finish", {"finish_reason": "stop", "usage": Usage()}))
        try:
            for i, chunk in enumerate(chunks):
                if i == self.fail_after:
                    raise RuntimeError("the model broke")
                if i == self.stall_after:
                    await self.resume.wait()
                self.reads += 1
                yield chunk
            self.all_read.set()
        finally:
            self.closed = True


class WaitFor(Processor):
    """A check beside the model call that waits for ``event``, then aborts when
    ``aborts`` (else passes); logs when it is done."""

    mode = "parallel"

    def __init__(self, pid, event, *, aborts=False, log=None, then=None):
        self.id = pid
        self.event = event
        self.aborts = aborts
        self.log = log if log is not None else []
        self.then = then

    @hookimpl
    async def process_input(self, abort):
        await self.event.wait()
        for _ in range(20):  # whatever the run does about it meanwhile has happened
            await asyncio.sleep(0)
        self.log.append(f"{self.id}-done")
        if self.then is not None:
            self.then.set()
        if self.aborts:
            abort(f"{self.id} says no")


def _left_tasks():
    return {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}


async def test_a_parallel_check_overlaps_the_whole_model_call(make_bare_agent):
    # The check passes only once the model's whole answer was read: the run reads it
    # ahead while the check runs (holding one chunk there would never end).
    log: list = []
    model = PacedModel(["one ", "two ", "three"])
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("check", model.all_read, log=log)], output_processors=[Watch(log)])
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.text == "one two three"
    assert log == ["check-done", "chunk", "chunk", "chunk"]  # nothing before it passed


async def test_a_check_that_aborts_after_the_whole_answer_was_read_releases_nothing(
    make_bare_agent,
):
    log: list = []
    model = PacedModel(["ann.lee@", "example.com"])
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("check", model.all_read, aborts=True)], output_processors=[Watch(log)])
    stream = agent.stream("hi")
    chunks = await asyncio.wait_for(_collect(stream), timeout=10)
    assert [c.type for c in chunks if c.type not in ("start", "step-start")] == ["tripwire"]
    assert log == []  # not even the output processors saw a chunk
    assert stream.tripwire.processor_id == "check"
    assert stream.tripwire.model_call_cancelled is False  # the model had finished
    assert (await stream.text) == ""
    assert _left_tasks() == set()


async def test_the_read_ahead_is_bounded_and_nothing_reaches_the_client_before_the_check(
    make_bare_agent, monkeypatch,
):
    import tripwire.run._modes

    monkeypatch.setattr(tripwire.run._modes, "READ_AHEAD", 3)
    release = asyncio.Event()
    model = PacedModel([f"w{i} " for i in range(8)])
    agent = make_bare_agent(model=model, input_processors=[WaitFor("check", release)])
    seen: list = []

    async def consume():
        async for c in agent.stream("hi"):
            seen.append(c)

    run = asyncio.ensure_future(consume())
    for _ in range(200):
        await asyncio.sleep(0)
        if model.reads >= 3:
            break
    for _ in range(50):  # time to read further, were it unbounded
        await asyncio.sleep(0)
    assert model.reads == 3
    assert [c for c in seen if c.type == "text-delta"] == []
    release.set()
    await asyncio.wait_for(run, timeout=10)
    assert "".join(c.payload["text"] for c in seen if c.type == "text-delta") == "".join(
        model.texts)
    assert model.all_read.is_set()


async def test_a_check_that_aborts_during_a_read_stops_it_and_leaves_no_task(make_bare_agent):
    model = PacedModel(["a", "b", "c"], stall_after=1)  # a read that never returns
    release = asyncio.Event()
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("check", release, aborts=True)])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(200):
        await asyncio.sleep(0)
        if model.reads == 1:
            break
    release.set()
    result = await asyncio.wait_for(run, timeout=10)
    assert result.tripwire.processor_id == "check"
    assert result.tripwire.model_call_cancelled is True
    assert result.text == ""
    assert model.closed
    assert _left_tasks() == set()


async def test_a_run_cancelled_while_reading_ahead_leaves_no_task(make_bare_agent):
    never = asyncio.Event()
    model = PacedModel(["a", "b", "c"], stall_after=2)
    log: list = []
    agent = make_bare_agent(model=model, input_processors=[WaitFor("check", never, log=log)])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(200):
        await asyncio.sleep(0)
        if model.reads == 2:
            break
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert model.closed and log == []
    assert _left_tasks() == set()


async def test_a_model_error_while_the_check_runs_comes_after_the_check_passed(
    make_bare_agent,
):
    release = asyncio.Event()
    log: list = []
    model = PacedModel(["a", "b", "c"], fail_after=2)
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("check", release, log=log)], output_processors=[Watch(log)])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(200):
        await asyncio.sleep(0)
        if model.closed:  # it failed while the check was still running
            break
    assert model.closed and log == []
    release.set()
    with pytest.raises(RuntimeError, match="the model broke"):
        await asyncio.wait_for(run, timeout=10)
    assert log == ["check-done", "chunk", "chunk"]  # its chunks, then its error
    assert _left_tasks() == set()


async def test_a_check_that_aborts_before_a_model_error_wins(make_bare_agent):
    release = asyncio.Event()
    model = PacedModel(["a", "b"], fail_after=1)
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("check", release, aborts=True)])
    run = asyncio.ensure_future(agent.generate("hi"))
    for _ in range(200):
        await asyncio.sleep(0)
        if model.closed:
            break
    release.set()
    result = await asyncio.wait_for(run, timeout=10)
    assert result.tripwire.processor_id == "check"
    assert result.text == ""


async def test_the_first_parallel_check_in_list_order_that_aborts_wins(make_bare_agent):
    # "second" aborts first in time; "first" aborts after it: "first" ends the run.
    second_done, never = asyncio.Event(), asyncio.Event()
    ready = asyncio.Event()
    ready.set()
    model = PacedModel(["a"], stall_after=0)
    agent = make_bare_agent(model=model, input_processors=[
        WaitFor("first", second_done, aborts=True),
        WaitFor("second", ready, aborts=True, then=second_done),
        WaitFor("third", never, aborts=True)])
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    assert result.tripwire.processor_id == "first"
    assert _left_tasks() == set()


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
    agent = Agent.from_config(path, "a")
    await agent.generate("ｈｉ")
    # a monitor cannot change the input: the model saw it as it was
    assert agent.model.requests[0].prompt[-1]["content"][0]["text"] == "ｈｉ"
    await agent.aclose()
    path.write_text(path.read_text().replace('"monitor"', '"loud"'))
    with pytest.raises(Exception, match="mode = 'loud' is not a mode"):
        Agent.from_config(path, "a")
