"""The audit trail: one record per processor per hook invocation, per-chunk hooks per
step; and OpenTelemetry spans when a tracer provider is set up."""

from __future__ import annotations

import asyncio
import gc

import pytest

from tests.support.helpers import Shout
from tripwire import Chunk, Processor, hookimpl, monitor, parallel, tool
from tripwire.observe.audit import OUTCOMES, AuditRecord, format_audit
from tripwire.testing import MockModel, MockResponse


class Pass(Processor):
    def __init__(self, pid="pass"):
        self.id = pid

    @hookimpl
    def process_input(self):
        return None

    @hookimpl
    def process_output_stream(self, part):
        return part


class DropSpaces(Processor):
    id = "drop-spaces"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta" and not part.payload["text"].strip():
            return None
        return part


@tool
def ping() -> str:
    """Ping."""
    return "pong"


def by(records, hook, pid=None):
    return [r for r in records if r.hook == hook and (pid is None or r.processor_id == pid)]


async def test_the_audit_is_off_by_default(make_bare_agent):
    result = await make_bare_agent(["ok"], input_processors=[Pass()]).generate("hi")
    assert result.audit == []


async def test_one_record_per_processor_per_hook_invocation(make_bare_agent):
    model = MockModel([MockResponse(text="a", tool_calls=[{"tool_name": "ping", "args": {}}]),
                       MockResponse(text="b")])
    agent = make_bare_agent(model=model, tools=[ping], input_processors=[Pass("in")],
                            output_processors=[Pass("out")], audit=True)
    result = await agent.generate("hi")
    records = result.audit
    assert all(isinstance(r, AuditRecord) and r.outcome in OUTCOMES for r in records)
    (inp,) = by(records, "process_input")
    assert (inp.processor_id, inp.step, inp.outcome, inp.calls) == ("in", None, "passed", 1)
    stream = by(records, "process_output_stream", "out")
    # aggregated per step; the run's own chunks (finish) after the steps: step None
    assert [r.step for r in stream] == [0, 1, None]
    assert all(r.outcome == "passed" and r.chunks_dropped == 0 for r in stream)
    # step 0: step-start, text, tool-call, step-finish, tool-result
    assert stream[0].calls == 5 and stream[0].chunks_emitted == 5
    assert stream[1].calls == 3  # step-start, text, step-finish
    assert stream[2].calls == 1  # finish
    assert all(r.duration_ms >= 0 for r in records)


class Slow(Processor):
    """Takes 3 ms per chunk: its share of the stream's time is measurable."""

    id = "slow"

    @hookimpl
    def process_output_stream(self, part):
        import time

        time.sleep(0.003)
        return part


async def test_the_per_chunk_time_is_estimated_stage_by_stage(make_bare_agent):
    """The pipeline times one chunk in 32 (the run's first always) stage by stage: the
    slow stage's estimate is its calls times 2 ms, the pass-through stages' far less."""
    model = MockModel([MockResponse(chunks=[
        Chunk("text-delta", {"id": "t", "text": f"w{i} "}) for i in range(40)])])
    agent = make_bare_agent(model=model, output_processors=[Pass("a"), Slow(), Pass("b")],
                            audit=True)
    gc.disable()  # a collection inside a timed pass-through call would be counted 20 times
    try:
        result = await agent.generate("hi")
    finally:
        gc.enable()
    (slow,) = [r for r in by(result.audit, "process_output_stream", "slow") if r.step == 0]
    assert slow.calls >= 40
    assert slow.duration_ms >= 3 * slow.calls * 0.9
    for pid in ("a", "b"):
        (fast,) = [r for r in by(result.audit, "process_output_stream", pid) if r.step == 0]
        assert fast.calls == slow.calls
        assert fast.duration_ms < slow.duration_ms / 3


async def test_later_steps_and_the_final_chunks_are_estimated_from_the_runs_timings(
    make_bare_agent,
):
    """One chunk in 32 over the whole run is timed (the run's first always): a step
    with no timed chunk of its own, and the run's final chunks (step None), get the
    stage's average over the run, never 0."""

    @tool
    def ping() -> str:
        """Ping."""
        return "pong"

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "ping", "args": {},
                                                 "tool_call_id": "c"}]),
                       MockResponse(text="a b c")])
    agent = make_bare_agent(model=model, tools=[ping], output_processors=[Slow()],
                            audit=True)
    result = await agent.generate("hi")
    records = by(result.audit, "process_output_stream", "slow")
    assert [r.step for r in records] == [0, 1, None]
    for r in records:
        assert r.calls >= 1 and r.duration_ms >= 3 * r.calls * 0.9, r


async def test_records_are_built_when_first_read_and_then_kept(make_bare_agent):
    result = await make_bare_agent(["ok"], input_processors=[Pass()], audit=True).generate("hi")
    first = result.audit
    assert [(r.processor_id, r.hook) for r in first][:1] == [("pass", "process_input")]
    assert result.audit is first


async def test_per_chunk_counts_say_what_was_dropped_and_modified(make_bare_agent):
    model = MockModel([MockResponse(chunks=[
        Chunk("text-delta", {"id": "t", "text": w}) for w in ("one", " ", "two", " ", "x")])])
    agent = make_bare_agent(model=model, output_processors=[DropSpaces(), Shout()], audit=True)
    result = await agent.generate("hi")
    assert result.text == "ONETWOX"
    shout, _finish = by(result.audit, "process_output_stream", "shout")
    assert shout.outcome == "modified" and shout.chunks_modified == 3
    drop, _finish = by(result.audit, "process_output_stream", "drop-spaces")
    assert (drop.chunks_dropped, drop.outcome, drop.calls) == (2, "dropped", 7)


async def test_outcomes_of_aborts_retries_errors_and_fail_open(make_bare_agent):
    class Reject(Processor):
        id = "reject"

        @hookimpl
        def process_output_step(self, text, abort, retry_count):
            if retry_count == 0:
                abort("again", retry=True)

    class Broken(Processor):
        id = "broken"
        fail_open = True

        @hookimpl
        def process_input(self):
            raise RuntimeError("boom")

    agent = make_bare_agent(["a", "b"], input_processors=[Broken()], output_processors=[Reject()],
                            max_processor_retries=1, audit=True)
    result = await agent.generate("hi")
    assert [r.outcome for r in by(result.audit, "process_output_step")] == [
        "retry-requested", "passed"]
    assert by(result.audit, "process_input", "broken")[0].outcome == "fail-open"

    class Block(Processor):
        id = "block"

        @hookimpl
        def process_input(self, abort):
            abort("no")

    result = await make_bare_agent(["ok"], input_processors=[Block()], audit=True).generate("hi")
    assert by(result.audit, "process_input", "block")[0].outcome == "aborted"


async def test_a_processor_error_is_recorded_before_the_run_fails(make_bare_agent):
    from tripwire import ProcessorError

    class Broken(Processor):
        id = "broken"

        @hookimpl
        def process_input(self):
            raise RuntimeError("boom")

    stream = make_bare_agent(["ok"], input_processors=[Broken()], audit=True).stream("hi")
    with pytest.raises(ProcessorError):
        async for _ in stream:
            pass
    assert [r.outcome for r in await stream.audit] == ["error"]


async def test_parallel_members_cancelled_by_an_abort_are_recorded_as_cancelled(make_bare_agent):
    class Slow(Processor):
        id = "slow"

        @hookimpl
        async def process_input(self):
            await asyncio.sleep(30)

    class Fast(Processor):
        id = "fast"

        @hookimpl
        def process_input(self, abort):
            abort("no")

    # (a member after the one that aborted: one before it would be waited for)
    agent = make_bare_agent(["ok"], input_processors=[parallel(Fast(), Slow(), id="g")],
                            audit=True)
    result = await asyncio.wait_for(agent.generate("hi"), timeout=10)
    outcomes = {r.processor_id: r.outcome for r in result.audit}
    assert outcomes == {"slow": "cancelled", "fast": "aborted"}


async def test_checks_beside_the_run_are_recorded_with_their_mode(make_bare_agent):
    class Check(Processor):
        id = "check"

        @hookimpl
        def process_input(self):
            return None

    agent = make_bare_agent(["ok"], input_processors=[monitor(Check())], audit=True)
    result = await agent.generate("hi")
    for _ in range(10):
        await asyncio.sleep(0)
    await agent.aclose()
    records = by(result.audit, "process_input", "check")
    assert [(r.outcome, r.mode) for r in records] == [
        ("skipped-by-mode", "monitor"), ("passed", "monitor")]


async def test_the_stream_gives_the_audit_once_done(make_bare_agent):
    agent = make_bare_agent(["ok"], output_processors=[Shout()])
    stream = agent.stream("hi", audit=True)
    chunks = [c async for c in stream]
    assert chunks[-1].type == "finish"
    records = await stream.audit
    assert {r.processor_id for r in records} == {"shout"}


async def test_records_hold_no_text_or_reasons(make_bare_agent):
    class Block(Processor):
        id = "block"

        @hookimpl
        def process_output_stream(self, part, abort):
            if part.type == "text-delta" and "secret" in part.payload["text"]:
                abort("found secret-value-123")
            return part

    agent = make_bare_agent(["the secret-value-123"], output_processors=[Block()], audit=True)
    result = await agent.generate("hi")
    assert "secret" not in repr(result.audit)
    assert "secret" not in format_audit(result.audit)


def test_format_audit_is_a_table():
    table = format_audit([
        AuditRecord("pii", "process_input", None, "modified", 0.25),
        AuditRecord("pii", "process_output_stream", 0, "dropped", 1.5, calls=12,
                    chunks_dropped=2, chunks_emitted=10),
        AuditRecord("judge", "process_input", None, "passed", 40.0, mode="parallel"),
    ])
    lines = table.splitlines()
    assert lines[0].split() == ["step", "processor", "hook", "outcome", "ms", "calls",
                                "chunks", "d/m/e"]
    assert lines[2].split() == ["0", "pii", "process_output_stream", "dropped", "1.500", "12",
                                "2/0/10"]
    assert "judge (parallel)" in lines[3]


@pytest.mark.parametrize("value", ["yes", 1])
def test_audit_must_be_a_bool(make_bare_agent, value):
    from tripwire import ConfigurationError

    with pytest.raises(ConfigurationError, match="audit must be True or False"):
        make_bare_agent(audit=value)


# ---------------------------------------------------------------- OpenTelemetry


@pytest.fixture
def spans(monkeypatch):
    """An SDK tracer provider with an in-memory exporter, as the global provider."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    yield exporter
    provider.shutdown()


async def test_spans_per_run_step_model_call_and_processor(make_bare_agent, spans):
    seen_span = []

    class Look(Processor):
        id = "look"

        @hookimpl
        def process_input_step(self, tracing_context):
            seen_span.append(tracing_context.span)

    model = MockModel([MockResponse(text="a", tool_calls=[{"tool_name": "ping", "args": {}}],
                                    usage={"input_tokens": 5, "output_tokens": 2}),
                       MockResponse(text="b")])
    agent = make_bare_agent(model=model, id="audited", tools=[ping], input_processors=[Look()],
                            output_processors=[Shout()])
    result = await agent.generate("hi")
    assert result.audit == []  # spans do not need the audit on
    finished = {s.name: s for s in spans.get_finished_spans()}
    run = finished["invoke_agent audited"]
    assert run.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert run.attributes["tripwire.finish_reason"] == "stop"
    step0, step1 = finished["step 0"], finished["step 1"]
    assert step0.parent.span_id == run.context.span_id
    assert step1.parent.span_id == run.context.span_id
    chat = [s for s in spans.get_finished_spans() if s.name == "chat mock-model"]
    assert len(chat) == 2
    assert chat[0].attributes["gen_ai.usage.input_tokens"] == 5
    assert chat[0].attributes["gen_ai.response.finish_reasons"] == ("tool-calls",)
    assert chat[0].parent.span_id == step0.context.span_id
    stream_spans = [s for s in spans.get_finished_spans()
                    if s.name == "process_output_stream shout"]
    assert [s.attributes.get("tripwire.step") for s in stream_spans] == [0, 1, None]
    assert stream_spans[0].attributes["tripwire.chunks.modified"] == 1
    assert seen_span[0].get_span_context().span_id == step0.context.span_id


async def test_span_attributes_hold_no_text_or_reasons(make_bare_agent, spans):
    class Block(Processor):
        id = "block"

        @hookimpl
        def process_input(self, abort):
            abort("the secret-value-123 was found")

    result = await make_bare_agent(["ok"], input_processors=[Block()]).generate("secret-value-123")
    assert result.tripwire is not None
    everything = [dict(s.attributes) for s in spans.get_finished_spans()]
    assert "secret" not in repr(everything)
    run = next(s for s in spans.get_finished_spans() if s.name.startswith("invoke_agent"))
    assert run.attributes["tripwire.tripwire.processor_id"] == "block"


async def test_a_failed_run_marks_its_span_as_an_error(make_bare_agent, spans):
    from tripwire.errors import APICallError

    model = MockModel([MockResponse(error=APICallError("bad request", 400, False))])
    with pytest.raises(APICallError):
        await make_bare_agent(model=model).generate("hi")
    run = next(s for s in spans.get_finished_spans() if s.name.startswith("invoke_agent"))
    assert run.status.status_code.name == "ERROR"
    assert run.attributes["error.type"] == "APICallError"


def test_nothing_of_opentelemetry_is_imported_without_a_run():
    import subprocess
    import sys

    code = ("import sys, tripwire; "
            "print(any(m.startswith('opentelemetry') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


async def test_without_opentelemetry_installed_runs_need_no_tracer(make_bare_agent, monkeypatch):
    import importlib.util

    from tripwire.observe import _recorder as _observe

    monkeypatch.setattr(_observe, "_looked", False)
    monkeypatch.setattr(_observe, "_otel", None)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "opentelemetry" else real(name, *a))
    assert _observe.tracer() is None
    result = await make_bare_agent(["ok"], output_processors=[Shout()], audit=True).generate("hi")
    assert by(result.audit, "process_output_stream", "shout")


# ---------------------------------------------------------------- modified means changed


class SameAgain(Processor):
    """Returns, from every hook, what it was given (an equal copy where it can): a
    change in form only, which the audit must not call ``modified``."""

    id = "same-again"

    @hookimpl
    def process_input(self, messages):
        return messages

    @hookimpl
    def process_input_step(self, model_settings, messages):
        return {"model_settings": dict(model_settings), "messages": list(messages)}

    @hookimpl
    def process_llm_request(self, prompt):
        import copy

        return {"prompt": copy.deepcopy(prompt)}

    @hookimpl
    def process_output_stream(self, part):
        return [part.evolve()] if part.type == "text-delta" else part.evolve()

    @hookimpl
    def process_output_step(self, messages):
        return messages

    @hookimpl
    def process_tool_result(self, result):
        return {"result": result}

    @hookimpl
    def process_output_result(self, messages):
        return list(messages)


class EditInPlace(Processor):
    """Changes the input in place and returns the same list: a change all the same."""

    id = "edit-in-place"

    @hookimpl
    def process_input(self, messages):
        messages[-1].content.parts[0].text += "!"
        return messages


class WrapSame(Processor):
    id = "wrap-same"

    @hookimpl(wrapper=True)
    def process_input(self, messages):
        result = yield
        return result


def _outcomes(records, pid):
    return {(r.hook, r.outcome) for r in records if r.processor_id == pid}


async def test_a_processor_that_returns_what_it_was_given_passed(make_bare_agent):
    model = MockModel([MockResponse(text="a", tool_calls=[{"tool_name": "ping", "args": {}}]),
                       MockResponse(text="done here")])
    agent = make_bare_agent(model=model, tools=[ping], input_processors=[SameAgain()],
                            output_processors=[SameAgain()], audit=True)
    result = await agent.generate("hi")
    assert result.text == "adone here"
    records = [r for r in result.audit if r.processor_id == "same-again"]
    assert {r.hook for r in records} == {
        "process_input", "process_input_step", "process_llm_request", "process_output_stream",
        "process_output_step", "process_tool_result", "process_output_result"}
    assert {r.outcome for r in records} == {"passed"}
    assert all(r.chunks_modified == 0 for r in records if r.hook == "process_output_stream")


async def test_the_same_return_that_changes_something_is_modified(make_bare_agent):
    from tripwire.plugins.unicode_normalizer import UnicodeNormalizer

    agent = make_bare_agent(["ok", "ok"], input_processors=[UnicodeNormalizer(), WrapSame()],
                            audit=True)
    plain = await agent.generate("plain ascii text")
    assert _outcomes(plain.audit, "unicode-normalizer") == {("process_input", "passed")}
    assert _outcomes(plain.audit, "wrap-same") == {("process_input", "passed")}
    wide = await agent.generate("ｆｕｌｌｗｉｄｔｈ")
    assert _outcomes(wide.audit, "unicode-normalizer") == {("process_input", "modified")}
    edited = await make_bare_agent(["ok"], input_processors=[EditInPlace()],
                                   audit=True).generate("hi")
    assert _outcomes(edited.audit, "edit-in-place") == {("process_input", "modified")}


async def test_span_outcomes_say_passed_for_a_return_that_changed_nothing(make_bare_agent, spans):
    from tripwire.plugins.unicode_normalizer import UnicodeNormalizer

    agent = make_bare_agent(["ok", "ok"], input_processors=[UnicodeNormalizer()])
    await agent.generate("plain")
    await agent.generate("ｗｉｄｅ")
    outcomes = [s.attributes["tripwire.outcome"] for s in spans.get_finished_spans()
                if s.name == "process_input unicode-normalizer"]
    assert outcomes == ["passed", "modified"]


async def test_a_bad_return_is_recorded_as_an_error(make_bare_agent):
    from tripwire import ProcessorError

    class Bad(Processor):
        id = "bad"

        @hookimpl
        def process_input(self):
            return 42

    stream = make_bare_agent(["ok"], input_processors=[Bad()], audit=True).stream("hi")
    with pytest.raises(ProcessorError):
        async for _ in stream:
            pass
    assert [r.outcome for r in await stream.audit] == ["error"]
