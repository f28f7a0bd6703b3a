"""Agent-loop semantics: tripwires, retries, state, errors, caching, cancellation, tools."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tripwire import (
    Agent,
    Chunk,
    MessageList,
    Processor,
    ProcessorError,
    RequestContext,
    TripWire,
    TripwireInfo,
    hookimpl,
    tool,
)
from tripwire.errors import APICallError, ConfigurationError
from tripwire.testing import MockModel, MockResponse


def make_agent(model, **kwargs):
    kwargs.setdefault("default_error_processors", False)
    return Agent(id="test", model=model, **kwargs)


@tool
def delete_account(user_id: str) -> str:
    """Delete an account."""
    deleted.append(user_id)
    return "deleted"


deleted: list[str] = []


class Blocker(Processor):
    """Aborts in the named hook."""

    def __init__(self, hook: str, *, reason: str | None = None, retry: bool = False, pid: str = "blocker"):
        self.id = pid
        self.hook = hook
        self.reason = reason
        self.retry = retry

    def _maybe(self, hook, abort):
        if hook == self.hook:
            abort(self.reason, retry=self.retry, metadata={"hook": hook})

    @hookimpl
    def process_input(self, abort):
        self._maybe("process_input", abort)

    @hookimpl
    def process_llm_request(self, abort):
        self._maybe("process_llm_request", abort)

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "text-delta":
            self._maybe("process_output_stream", abort)
        return part

    @hookimpl
    def process_output_step(self, abort):
        self._maybe("process_output_step", abort)

    @hookimpl
    def process_output_result(self, abort):
        self._maybe("process_output_result", abort)


# ---------------------------------------------------------------- tripwires


async def test_generate_tripwire_sets_finish_reason_other_and_empty_text():
    model = MockModel(["never seen"])
    result = await make_agent(model, input_processors=[Blocker("process_input", reason="nope")]).generate("x")
    assert result.finish_reason == "other"
    assert result.text == ""
    assert result.tripwire == TripwireInfo("nope", False, {"hook": "process_input"}, "blocker")
    assert model.requests == []


async def test_default_abort_reason_names_the_processor():
    result = await make_agent(MockModel([]), input_processors=[Blocker("process_input")]).generate("x")
    assert result.tripwire.reason == "Tripwire triggered by blocker"


async def test_stream_emits_tripwire_chunk_and_ends():
    agent = make_agent(MockModel(["a b c"]),
                       output_processors=[Blocker("process_output_stream", reason="stop")])
    stream = agent.stream("x")
    chunks = [c async for c in stream]
    assert [c.type for c in chunks] == ["step-start", "tripwire"]
    assert chunks[-1].payload == {"reason": "stop", "retry": False,
                                  "metadata": {"hook": "process_output_stream"},
                                  "processor_id": "blocker"}
    assert stream.tripwire.processor_id == "blocker"
    assert await stream.finish_reason == "other"


async def test_tripwire_in_output_result_rejects_the_whole_response():
    result = await make_agent(MockModel(["fine"]),
                              output_processors=[Blocker("process_output_result")]).generate("x")
    assert result.text == ""
    assert result.tripwire is not None


async def test_tripwire_after_accepted_steps_keeps_their_text():
    class SecondStep(Processor):
        id = "second-step"

        @hookimpl
        def process_input_step(self, step_number, abort):
            if step_number == 1:
                abort("budget exhausted")

    model = MockModel([MockResponse(text="Checking.", tool_calls=[
        {"tool_name": "delete_account", "args": {"user_id": "u1"}}]), "never"])
    result = await make_agent(model, tools=[delete_account],
                              input_processors=[SecondStep()]).generate("x")
    assert result.text == "Checking."
    assert result.tripwire.reason == "budget exhausted"


async def test_on_violation_called_on_abort_and_its_errors_swallowed(caplog):
    seen = []

    def on_violation(violation):
        seen.append(violation)
        raise RuntimeError("alerting is down")

    blocker = Blocker("process_input", reason="pii")
    blocker.on_violation = on_violation
    with caplog.at_level(logging.ERROR, logger="tripwire"):
        result = await make_agent(MockModel([]), input_processors=[blocker]).generate("x")
    assert result.tripwire.reason == "pii"
    assert [(v.processor_id, v.message, v.detail) for v in seen] == [
        ("blocker", "pii", {"hook": "process_input"})]
    assert "alerting is down" in caplog.text


# ---------------------------------------------------------------- retries


class RejectShort(Processor):
    id = "reject-short"

    def __init__(self):
        self.counts = []

    @hookimpl
    def process_output_step(self, text, abort, retry_count):
        self.counts.append(retry_count)
        if len(text) < 10:
            abort(f"Too short: {text!r}", retry=True, metadata={"len": len(text)})


async def test_retry_with_feedback_reruns_the_step():
    model = MockModel([
        MockResponse(text="no", tool_calls=[{"tool_name": "delete_account", "args": {"user_id": "u9"}}]),
        "A complete answer.",
    ])
    deleted.clear()
    proc = RejectShort()
    result = await make_agent(model, tools=[delete_account], output_processors=[proc],
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


async def test_retry_count_is_consecutive_and_resets_after_an_accepted_step():
    model = MockModel([
        "bad", "bad",
        MockResponse(text="Good enough now.", tool_calls=[{"tool_name": "delete_account",
                                                          "args": {"user_id": "a"}}]),
        "bad", "Another fine answer.",
    ])
    proc = RejectShort()
    await make_agent(model, tools=[delete_account], output_processors=[proc],
                     max_processor_retries=2).generate("x")
    assert proc.counts == [0, 1, 2, 0, 1]


async def test_retry_without_limit_ends_the_run_as_a_tripwire():
    model = MockModel(["bad", "unused"])
    result = await make_agent(model, output_processors=[RejectShort()]).generate("x")
    assert result.tripwire.retry is True
    assert result.finish_reason == "other"
    assert result.text == ""
    assert len(model.requests) == 1


async def test_retry_limit_exhausted_ends_as_tripwire():
    model = MockModel(["bad", "bad", "bad"])
    result = await make_agent(model, output_processors=[RejectShort()],
                              max_processor_retries=2).generate("x")
    assert len(model.requests) == 3
    assert result.tripwire.reason == "Too short: 'bad'"
    assert [s.tripwire is not None for s in result.steps] == [True, True, True]


async def test_per_call_max_processor_retries_overrides_agent():
    model = MockModel(["bad", "Long enough answer."])
    agent = make_agent(model, output_processors=[RejectShort()])
    result = await agent.generate("x", max_processor_retries=1)
    assert result.text == "Long enough answer."


async def test_retry_from_other_hooks_is_reported_not_performed():
    model = MockModel(["a", "b"])
    result = await make_agent(model, input_processors=[Blocker("process_input", retry=True)],
                              max_processor_retries=5).generate("x")
    assert result.tripwire.retry is True
    assert model.requests == []


async def test_retry_from_process_tool_result_rolls_back_the_step():
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
    result = await make_agent(model, tools=[delete_account], output_processors=[ScanToolResult()],
                              max_processor_retries=1).generate("x")
    assert result.text == "Understood."
    assert not any(m["role"] == "tool" for m in model.requests[1].prompt)


# ---------------------------------------------------------------- api errors


async def test_api_error_processors_run_input_then_output_then_error_and_first_retry_wins():
    order = []

    def proc(pid, retry):
        class P(Processor):
            id = pid

            @hookimpl
            def process_api_error(self, error):
                order.append(pid)
                return {"retry": True} if retry else None

            @hookimpl
            def process_input(self):
                pass

            @hookimpl
            def process_output_result(self):
                pass

        return P()

    model = MockModel([MockResponse(error=APICallError("bad request", 400, False)), "ok"])
    agent = make_agent(model, input_processors=[proc("in", False)],
                       output_processors=[proc("out", True)], error_processors=[proc("err", True)])
    result = await agent.generate("x")
    assert order == ["in", "out"]
    assert result.text == "ok"


async def test_api_error_without_retry_raises_the_original_error():
    error = APICallError("invalid key", 401, False)
    with pytest.raises(APICallError) as info:
        await make_agent(MockModel([MockResponse(error=error)])).generate("x")
    assert info.value is error


async def test_api_error_retries_default_to_ten_with_error_processors():
    class AlwaysRetry(Processor):
        id = "always-retry"

        @hookimpl
        def process_api_error(self):
            return {"retry": True}

    model = MockModel([MockResponse(error=APICallError("busy", 503, True))] * 12)
    with pytest.raises(APICallError):
        await make_agent(model, error_processors=[AlwaysRetry()]).generate("x")
    assert len(model.requests) == 11


# ---------------------------------------------------------------- errors in processors


class Broken(Processor):
    id = "broken"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            raise KeyError("oops")
        return part


async def test_processor_exception_fails_closed_with_processor_error():
    with pytest.raises(ProcessorError) as info:
        await make_agent(MockModel(["hi"]), output_processors=[Broken()]).generate("x")
    assert info.value.processor_id == "broken"
    assert info.value.hook == "process_output_stream"
    assert isinstance(info.value.__cause__, KeyError)


async def test_stream_yields_error_chunk_then_raises():
    stream = make_agent(MockModel(["hi"]), output_processors=[Broken()]).stream("x")
    seen = []
    with pytest.raises(ProcessorError):
        async for c in stream:
            seen.append(c.type)
    assert seen == ["step-start", "error"]


async def test_fail_open_processor_passes_input_on_unchanged(caplog):
    proc = Broken()
    proc.fail_open = True
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        result = await make_agent(MockModel(["hi there"]), output_processors=[proc]).generate("x")
    assert result.text == "hi there"
    assert "fail_open" in caplog.text


async def test_returning_a_different_message_list_is_an_error():
    class Wrong(Processor):
        id = "wrong"

        @hookimpl
        def process_input(self, messages):
            return MessageList(messages)

    with pytest.raises(ProcessorError, match="different MessageList"):
        await make_agent(MockModel(["x"]), input_processors=[Wrong()]).generate("x")


# ---------------------------------------------------------------- cache short-circuit


class Cache(Processor):
    """A tiny response cache keyed on the prompt."""

    id = "cache"

    def __init__(self):
        self.store = {}

    @hookimpl
    def process_llm_request(self, prompt, state):
        state["key"] = repr(prompt)
        if state["key"] in self.store:
            return {"response": self.store[state["key"]]}
        return None

    @hookimpl
    def process_llm_response(self, chunks, from_cache, state):
        self.froms.append(from_cache)
        if not from_cache:
            self.store[state["key"]] = chunks

    froms: list


class Shout(Processor):
    id = "shout"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.payload["text"].upper()})
        return part


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_cache_hit_is_replayed_through_output_processors(mode):
    cache = Cache()
    cache.froms = []
    model = MockModel(["hello there"])
    agent = make_agent(model, input_processors=[cache], output_processors=[Shout()])

    async def run():
        if mode == "generate":
            return (await agent.generate("hi")).text
        stream = agent.stream("hi")
        return "".join([c.payload["text"] async for c in stream if c.type == "text-delta"])

    assert await run() == "HELLO THERE"
    assert await run() == "HELLO THERE"
    assert len(model.requests) == 1
    assert cache.froms == [False, True]


async def test_cached_tool_calls_run_tools_and_process_tool_result():
    seen = []

    class Audit(Processor):
        id = "audit"

        @hookimpl
        def process_tool_result(self, tool_name, result):
            seen.append((tool_name, result))

    chunks = [Chunk("tool-call", {"tool_call_id": "c1", "tool_name": "delete_account",
                                  "args": {"user_id": "cached"}}),
              Chunk("finish", {"finish_reason": "tool-calls"})]

    class Canned(Processor):
        id = "canned"

        @hookimpl
        def process_llm_request(self, step_number):
            if step_number == 0:
                return {"response": chunks}
            return None

    deleted.clear()
    model = MockModel(["done"])
    result = await make_agent(model, tools=[delete_account], input_processors=[Canned()],
                              output_processors=[Audit()]).generate("x")
    assert seen == [("delete_account", "deleted")]
    assert result.steps[0].from_cache is True
    assert result.text == "done"


# ---------------------------------------------------------------- state and context


async def test_state_is_per_processor_per_call_and_shared_across_its_hooks():
    class Counter(Processor):
        id = "counter"

        @hookimpl
        def process_output_stream(self, part, state):
            state["n"] = state.get("n", 0) + (part.type == "text-delta")
            return part

        @hookimpl
        def process_output_result(self, state):
            totals.append(state["n"])

    class Other(Processor):
        id = "other"

        @hookimpl
        def process_output_result(self, state):
            others.append(dict(state))

    totals, others = [], []
    agent = make_agent(MockModel(["a b", "c d e"]), output_processors=[Counter(), Other()])
    await agent.generate("x")
    await agent.generate("y")
    assert totals == [2, 3]
    assert others == [{}, {}]


async def test_concurrent_calls_never_see_each_others_state():
    class Track(Processor):
        id = "track"

        @hookimpl
        async def process_input(self, messages, state):
            state["mine"] = messages[0].text
            await asyncio.sleep(0)

        @hookimpl
        async def process_output_stream(self, part, state):
            await asyncio.sleep(0)
            return part

        @hookimpl
        def process_output_result(self, state, messages):
            results.append((state["mine"], messages[-1].text))

    results = []
    n = 50
    model = MockModel([f"reply {i}" for i in range(n)])
    # One MockModel serves calls in arrival order; what matters is that each call's state
    # holds its own input.
    agent = make_agent(model, input_processors=[Track()], output_processors=[Track()])
    await asyncio.gather(*(agent.generate(f"user {i}") for i in range(n)))
    assert sorted(r[0] for r in results) == sorted(f"user {i}" for i in range(n))
    assert len({r[0] for r in results}) == n


async def test_processor_lists_may_be_callables_of_the_request_context():
    class Words(Processor):
        id = "words"

        def __init__(self, words):
            self.words = words

        @hookimpl
        def process_input(self, messages, abort):
            if any(w in messages[-1].text for w in self.words):
                abort("blocked word")

    agent = make_agent(MockModel(["fine"]),
                       input_processors=lambda ctx: [Words(ctx.get("blocked", []))])
    ctx = RequestContext({"blocked": ["banana"]})
    assert (await agent.generate("banana split", request_context=ctx)).tripwire is not None
    assert (await agent.generate("banana split")).text == "fine"


async def test_per_call_lists_replace_the_agents():
    agent = make_agent(MockModel(["one", "two"]), output_processors=[Shout()])
    assert (await agent.generate("x")).text == "ONE"
    assert (await agent.generate("x", output_processors=[])).text == "two"


async def test_processor_index_is_set_at_runtime():
    a, b = Shout(), Blocker("never", pid="b")
    await make_agent(MockModel(["x"]), input_processors=[b], output_processors=[a]).generate("x")
    assert (b.processor_index, a.processor_index) == (0, 1)


async def test_writer_custom_chunks_keep_transient_flag_and_are_stored_unless_transient():
    class Progress(Processor):
        id = "progress"

        @hookimpl
        async def process_output_step(self, writer):
            await writer.custom({"type": "data-score", "data": {"score": 0.9}})
            await writer.custom({"type": "data-progress", "data": "done", "transient": True})

    stream = make_agent(MockModel(["ok"]), output_processors=[Progress()]).stream("x")
    chunks = [c async for c in stream]
    data = [(c.type, c.transient) for c in chunks if c.type.startswith("data-")]
    assert data == [("data-score", False), ("data-progress", True)]
    result = await stream.result
    kinds = [p.type for m in result.messages for p in m.content.parts]
    assert "data-score" in kinds and "data-progress" not in kinds


async def test_writer_rejects_non_data_chunks():
    class Bad(Processor):
        id = "bad"

        @hookimpl
        async def process_input(self, writer):
            await writer.custom({"type": "text-delta", "data": "x"})

    with pytest.raises(ProcessorError, match="data-"):
        await make_agent(MockModel([]), input_processors=[Bad()]).generate("x")


# ---------------------------------------------------------------- signals and prepare_step


async def test_send_signal_adds_system_reminder_and_transient_ones_are_not_stored():
    class Remind(Processor):
        id = "remind"

        @hookimpl
        async def process_input_step(self, send_signal, step_number):
            await send_signal({"type": "reactive", "contents": "Be concise.",
                               "attributes": {"reason": "style", "step": step_number}})
            await send_signal({"contents": "Stay on task.", "transient": True})

    model = MockModel(["ok"])
    result = await make_agent(model, input_processors=[Remind()]).generate("x")
    texts = [m["content"][0]["text"] for m in model.requests[0].prompt if m["role"] == "user"]
    assert texts == ["x", '<system-reminder reason="style" step="0">Be concise.</system-reminder>',
                     "<system-reminder>Stay on task.</system-reminder>"]
    stored = [m.text for m in result.message_list.all.db()]
    assert '<system-reminder reason="style" step="0">Be concise.</system-reminder>' in stored
    assert "<system-reminder>Stay on task.</system-reminder>" not in stored
    # Signals are hidden from UI messages.
    assert [m["role"] for m in result.message_list.all.ui()] == ["user", "assistant"]


async def test_prepare_step_runs_after_input_processors_with_declared_args():
    order = []

    class First(Processor):
        id = "first"

        @hookimpl
        def process_input_step(self, step_number):
            order.append("processor")
            return {"tool_choice": "required"}

    def prepare_step(step_number, tool_choice):
        order.append(("prepare_step", step_number, tool_choice))
        return {"tool_choice": "none"}

    model = MockModel(["ok"])
    await make_agent(model, input_processors=[First()]).generate("x", prepare_step=prepare_step)
    assert order == ["processor", ("prepare_step", 0, "required")]
    assert model.requests[0].tool_choice == "none"


async def test_async_prepare_step_with_kwargs_gets_all_arguments():
    seen = {}

    async def prepare_step(**kwargs):
        seen.update(kwargs)

    await make_agent(MockModel(["ok"])).generate("x", prepare_step=prepare_step)
    assert {"step_number", "model", "tools", "send_signal", "abort"} <= set(seen)


# ---------------------------------------------------------------- tools


async def test_tool_that_raises_gives_the_model_the_error_and_skips_process_tool_result():
    @tool
    def flaky(n: int) -> int:
        """Fails."""
        raise ValueError("service down")

    seen = []

    class Audit(Processor):
        id = "audit"

        @hookimpl
        def process_tool_result(self, tool_name):
            seen.append(tool_name)

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "flaky", "args": {"n": 1}}]), "sorry"])
    stream = make_agent(model, tools=[flaky], output_processors=[Audit()]).stream("x")
    chunks = [c async for c in stream]
    err = next(c for c in chunks if c.type == "tool-error")
    assert err.payload["error"] == "ValueError: service down"
    tool_msg = next(m for m in model.requests[1].prompt if m["role"] == "tool")
    assert tool_msg["content"][0]["output"] == "ValueError: service down"
    assert tool_msg["content"][0]["is_error"] is True
    assert seen == []


async def test_several_tool_calls_run_concurrently():
    running = []
    peak = []

    @tool
    async def slow(i: int) -> int:
        """Slow."""
        running.append(i)
        peak.append(len(running))
        await asyncio.sleep(0.01)
        running.remove(i)
        return i

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "slow", "args": {"i": i}}
                                                for i in range(3)]), "done"])
    result = await make_agent(model, tools=[slow]).generate("x")
    assert max(peak) == 3
    assert [r.result for r in result.tool_results] == [0, 1, 2]


async def test_unknown_tool_and_bad_arguments_are_reported_to_the_model():
    model = MockModel([MockResponse(tool_calls=[
        {"tool_name": "nope", "args": {}, "tool_call_id": "a"},
        {"tool_name": "delete_account", "args": {"user_id": 5}, "tool_call_id": "b"},
    ]), "ok"])
    result = await make_agent(model, tools=[delete_account]).generate("x")
    errors = {r.tool_call_id: r.result for r in result.tool_results}
    assert "not available" in errors["a"] and "delete_account" in errors["a"]
    assert "user_id" in errors["b"] and "string" in errors["b"]


async def test_max_steps_stops_the_loop():
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "delete_account",
                                                 "args": {"user_id": str(i)}}]) for i in range(5)])
    result = await make_agent(model, tools=[delete_account]).generate("x", max_steps=2)
    assert len(model.requests) == 2
    assert result.finish_reason == "tool-calls"


# ---------------------------------------------------------------- stream object and cancellation


async def test_stream_awaitables_finish_the_run_and_iteration_replays():
    stream = make_agent(MockModel(["hello world"])).stream("x")
    assert await stream.text == "hello world"
    assert (await stream.usage).output_tokens == 2
    assert await stream.finish_reason == "stop"
    replay = [c.type async for c in stream]
    assert replay[0] == "step-start" and replay[-1] == "finish"


async def test_breaking_out_of_a_stream_closes_the_model_and_runs_no_more_hooks():
    calls = []

    class Watch(Processor):
        id = "watch"

        @hookimpl
        def process_output_stream(self, part):
            calls.append(part.type)
            return part

        @hookimpl
        def process_output_result(self):
            calls.append("result")

    model = MockModel(["one two three four five six"], chunk_delay=0.001)
    stream = make_agent(model, output_processors=[Watch()]).stream("x")
    async with stream:
        async for chunk in stream:
            if chunk.type == "text-delta":
                break
    assert model.closed_early == 1
    assert "result" not in calls
    n = len(calls)
    await asyncio.sleep(0.02)
    assert len(calls) == n


async def test_cancelling_the_task_stops_the_model_call():
    model = MockModel(["a b c d e f g h"], chunk_delay=0.05)
    agent = make_agent(model)
    task = asyncio.create_task(agent.generate("x"))
    await asyncio.sleep(0.08)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert model.closed_early == 1


def test_generate_sync_for_scripts():
    result = make_agent(MockModel(["sync works"])).generate_sync("x")
    assert result.text == "sync works"


# ---------------------------------------------------------------- construction and options


def test_unknown_call_option_is_a_clear_error():
    agent = make_agent(MockModel([]))
    with pytest.raises(TypeError, match="max_step.*valid"):
        agent.stream("x", max_step=3)


@pytest.mark.parametrize("value", [-1, "3", 1.5])
def test_bad_max_processor_retries(value):
    with pytest.raises(ConfigurationError, match="max_processor_retries"):
        make_agent(MockModel([]), max_processor_retries=value)


def test_unknown_model_provider_lists_known_ones():
    with pytest.raises(ConfigurationError, match="unknown model provider 'nope'"):
        Agent(id="a", model="nope/model")


def test_mock_model_running_out_of_responses_is_a_clear_error():
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "delete_account",
                                                 "args": {"user_id": "u"}}])])
    with pytest.raises(AssertionError, match="called 2 times but has only 1 response"):
        make_agent(model, tools=[delete_account]).generate_sync("x")


async def test_mock_model_records_requests():
    model = MockModel(["ok"])
    await make_agent(model, tools=[delete_account]).generate(
        "x", model_settings={"temperature": 0.2}, tool_choice="auto")
    request = model.requests[0]
    assert request.model_settings == {"temperature": 0.2}
    assert request.tool_choice == "auto"
    assert [t.name for t in request.tools] == ["delete_account"]


async def test_tripwire_exception_carries_processor_id():
    tw = TripWire("r", processor_id="p")
    assert (tw.reason, tw.retry, tw.metadata, tw.processor_id) == ("r", False, None, "p")


# ---------------------------------------------------------------- structured_output option


async def test_structured_output_option_adds_the_processor_to_both_lists():
    import attrs as _attrs

    @_attrs.define
    class Answer:
        city: str
        temperature: float

    model = MockModel(['not json', '{"city": "Oslo", "temperature": 3.5}'])
    stream = make_agent(model).stream("weather?", structured_output=Answer, max_processor_retries=1)
    chunks = [c async for c in stream]
    assert await stream.object == Answer("Oslo", 3.5)
    assert any(c.type == "object-result" for c in chunks)
    # The model was told the schema (input side) and asked again after the bad answer (output side).
    assert model.requests[0].structured_output["schema"]["required"] == ["city", "temperature"]
    assert len(model.requests) == 2


async def test_structured_output_option_accepts_a_schema_mapping_with_options():
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    model = MockModel(["nope"])
    result = await make_agent(model).generate(
        "x", structured_output={"schema": schema, "name": "verdict", "strategy": "fallback",
                                "fallback": {"ok": False}})
    assert result.object == {"ok": False}
    assert model.requests[0].structured_output["name"] == "verdict"


def test_default_error_processor_is_added_and_can_be_disabled(monkeypatch):
    from tripwire import _discovery

    agent = Agent(id="a", model=MockModel([]))
    assert [cp.id for cp in agent._defaults] == ["prefill-error-handler"]
    assert Agent(id="a", model=MockModel([]), default_error_processors=False)._defaults == []
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "prefill-error-handler")
    _discovery.reset()
    try:
        assert Agent(id="a", model=MockModel([]))._defaults == []
    finally:
        monkeypatch.delenv("TRIPWIRE_DISABLE_PLUGINS")
        _discovery.reset()


@pytest.mark.parametrize("cached", [False, True])
async def test_generate_and_stream_run_the_same_processors_on_the_same_chunks(cached):
    seen: dict[str, list] = {}

    class Record(Processor):
        id = "record"

        @hookimpl
        def process_output_stream(self, part, state):
            seen.setdefault(current, []).append((part.type, part.payload.get("tool_name")))
            return part

    responses = [
        MockResponse(text="Checking.", tool_calls=[{"tool_name": "delete_account",
                                                    "args": {"user_id": "u"}, "tool_call_id": "c"}]),
        MockResponse(text="Done."),
    ]
    cache = Cache()
    cache.froms = []
    if cached:  # prime the cache: both paths below are then served from it
        await make_agent(MockModel(responses), tools=[delete_account],
                         input_processors=[cache]).generate("x")
    for current in ("generate", "stream"):
        agent = make_agent(MockModel([] if cached else responses), tools=[delete_account],
                           input_processors=[cache] if cached else [],
                           output_processors=[Record()])
        if current == "generate":
            await agent.generate("x")
        else:
            [c async for c in agent.stream("x")]
    assert seen["generate"] == seen["stream"]
    assert ("tool-result", "delete_account") in seen["stream"]
    assert seen["stream"][-1] == ("finish", None)
