"""What reaches a streaming client: nothing leaks, nothing is lost, nothing arrives twice.

Hardening of the chunk pipeline: step-finish payloads, API-error retries mid-stream,
chunks released together, error and finish chunks, signals, and a stream abandoned
half-way.
"""

from __future__ import annotations

import logging

import pytest

from tests.support.helpers import HoldUntilBoundary, texts
from tripwire import Chunk, Processor, hookimpl
from tripwire.errors import APICallError
from tripwire.testing import MockModel, MockResponse

# ---------------------------------------------------------------- step-finish


SECRET_REQUEST = {"messages": [{"role": "tool", "content": "ssn 078-05-1120"}]}
SECRET_RESPONSE = {"status": 200, "headers": {"authorization": "Bearer sk-live-123"}}


def finish_with_raw(**extra):
    return Chunk("finish", {
        "finish_reason": "stop", "usage": {"input_tokens": 3, "output_tokens": 2},
        "provider_metadata": {"openai": {"response_id": "r1"}},
        "warnings": [{"type": "unsupported-setting", "setting": "seed"}],
        "request": SECRET_REQUEST, "raw_response": SECRET_RESPONSE, **extra,
    })


async def test_step_finish_carries_no_raw_request_response_or_headers(make_bare_agent):
    model = MockModel([MockResponse(chunks=[
        Chunk("text-delta", {"id": "t", "text": "hi"}), finish_with_raw()])])
    agent = make_bare_agent(model=model)
    chunks = [c async for c in agent.stream("hello")]
    (step_finish,) = [c for c in chunks if c.type == "step-finish"]
    assert set(step_finish.payload) == {"finish_reason", "usage", "provider_metadata"}
    assert "sk-live-123" not in repr(chunks)
    assert "078-05-1120" not in repr(chunks)


async def test_raw_request_and_response_stay_on_the_step_result_and_process_llm_response(
    make_bare_agent,
):
    seen = {}

    class Recorder(Processor):
        id = "rec"

        @hookimpl
        def process_llm_response(self, request, raw_response, warnings):
            seen.update(request=request, raw_response=raw_response, warnings=warnings)

    model = MockModel([MockResponse(chunks=[finish_with_raw()])])
    result = await make_bare_agent(model=model, input_processors=[Recorder()]).generate("hello")
    assert result.steps[0].request == SECRET_REQUEST
    # a third-party provider's credential headers are masked on the step result too
    assert result.steps[0].response == {"status": 200, "headers": {"authorization": "***"}}
    assert seen["request"] == SECRET_REQUEST
    assert seen["raw_response"] == SECRET_RESPONSE
    assert seen["warnings"] == [{"type": "unsupported-setting", "setting": "seed"}]


async def test_stream_guard_masking_tool_results_is_not_bypassed_by_the_next_step_finish(
    make_bare_agent,
):
    """The request of step 2 holds step 1's tool result: it must not reach the client."""
    from tripwire import tool

    @tool
    def lookup() -> str:
        """Look the customer up."""
        return "ssn 078-05-1120"

    class MaskToolResults(Processor):
        id = "mask"

        @hookimpl
        def process_tool_result(self, result):
            return {"result": result.replace("078-05-1120", "***")}

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "args": {}, "tool_call_id": "c1"}]),
        MockResponse(chunks=[Chunk("text-delta", {"id": "t", "text": "done"}), finish_with_raw(
            request={"messages": [{"role": "tool", "content": "ssn 078-05-1120"}]})]),
    ])
    agent = make_bare_agent(model=model, tools=[lookup], output_processors=[MaskToolResults()])
    chunks = [c async for c in agent.stream("hello")]
    assert "078-05-1120" not in repr(chunks)


# ---------------------------------------------------------------- API-error retry mid-stream


class RetryOnce(Processor):
    id = "retry-once"

    @hookimpl
    def process_api_error(self, retry_count):
        return {"retry": True} if retry_count == 0 else None


class MidStreamFailure:
    """A model whose first call streams some text and then fails; the second answers."""

    provider = "mock"
    model_id = "mid-stream-failure"

    def __init__(self, partial: list[str], answer: list[str]):
        self.partial = partial
        self.answer = answer
        self.requests: list = []

    async def stream(self, request):
        self.requests.append(request)
        if len(self.requests) == 1:
            for w in self.partial:
                yield Chunk("text-delta", {"id": "t1", "text": w})
            raise APICallError("connection reset", None, True)
        for w in self.answer:
            yield Chunk("text-delta", {"id": "t2", "text": w})
        yield Chunk("finish", {"finish_reason": "stop", "usage": {}})


@pytest.mark.parametrize("held_back", [False, True], ids=["plain", "held-back"])
async def test_a_failed_attempt_retried_by_an_error_processor_is_discarded(
    make_bare_agent, held_back,
):
    model = MidStreamFailure(["partial ", "answer "], ["clean ", "answer"])
    outputs = [HoldUntilBoundary()] if held_back else []
    agent = make_bare_agent(model=model, output_processors=outputs,
                            error_processors=[RetryOnce()])
    stream = agent.stream("hello")
    chunks = [c async for c in stream]
    result = await stream.result
    assert result.text == "clean answer"
    (retry,) = [c for c in chunks if c.type == "step-retry"]
    assert retry.payload["processor_id"] == "retry-once"
    assert "connection reset" in retry.payload["reason"]
    after_retry = chunks[chunks.index(retry):]
    assert texts(after_retry) == "clean answer"  # nothing of the failed attempt follows
    if held_back:
        assert texts(chunks) == "clean answer"  # held text of the failed attempt never left
    # the next prompt does not contain the failed attempt
    assert "partial" not in repr(model.requests[1].prompt)
    assert "partial" not in repr(result.messages)


# ---------------------------------------------------------------- chunks released together


class SplitInTwo(Processor):
    """Releases each text delta as two chunks."""

    id = "split"

    @hookimpl
    def process_output_stream(self, part):
        if part.type != "text-delta" or len(part.payload["text"]) < 2:
            return part
        text = part.payload["text"]
        half = len(text) // 2
        return [part.evolve(payload={**part.payload, "text": text[:half]}),
                part.evolve(payload={**part.payload, "text": text[half:]})]


class AbortOnWord(Processor):
    id = "abort-on-word"

    def __init__(self, word: str):
        self.word = word

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "text-delta" and self.word in part.payload["text"]:
            abort("blocked word")
        return part


async def test_chunks_released_together_before_the_one_that_trips_still_reach_the_client(
    make_bare_agent,
):
    model = MockModel([MockResponse(chunks=[Chunk("text-delta", {"id": "t", "text": "okBAD"})])])
    agent = make_bare_agent(model=model, output_processors=[SplitInTwo(), AbortOnWord("BAD")])
    chunks = [c async for c in agent.stream("hello")]
    kinds = [c.type for c in chunks]
    assert kinds[-1] == "tripwire"
    assert texts(chunks) == "ok"
    assert kinds.index("text-delta") < kinds.index("tripwire")


async def test_nested_releases_keep_their_order_before_a_tripwire(make_bare_agent):
    model = MockModel([MockResponse(chunks=[
        Chunk("text-delta", {"id": "t", "text": "abcdBAD!"})])])
    # "abcdBAD!" -> "abcd" + "BAD!" -> ("ab", "cd") + ("BA", "D!"): trips on "BA"
    agent = make_bare_agent(model=model, output_processors=[
        SplitInTwo(), type("Split2", (SplitInTwo,), {"id": "split2"})(), AbortOnWord("BA")])
    chunks = [c async for c in agent.stream("hello")]
    assert texts(chunks) == "abcd"
    assert chunks[-1].type == "tripwire"


# ---------------------------------------------------------------- error and finish chunks


async def test_a_terminal_error_chunk_passes_the_output_processors_once(make_bare_agent):
    seen = []

    class Rewrite(Processor):
        id = "rewrite"

        @hookimpl
        def process_output_stream(self, part):
            seen.append(part.type)
            if part.type == "error":
                return part.evolve(payload={"error": part.payload["error"], "shown": "sorry"})
            return part

    model = MockModel([MockResponse(error=APICallError("bad request", 400, False))])
    stream = make_bare_agent(model=model, output_processors=[Rewrite()]).stream("hello")
    chunks = []
    with pytest.raises(APICallError):
        async for c in stream:
            chunks.append(c)
    assert seen.count("error") == 1
    assert chunks[-1].type == "error" and chunks[-1].payload["shown"] == "sorry"


@pytest.mark.parametrize("behaviour", ["drop", "abort", "raise"])
async def test_a_processor_cannot_swallow_the_error_chunk(make_bare_agent, behaviour):
    class Swallow(Processor):
        id = "swallow"

        @hookimpl
        def process_output_stream(self, part, abort):
            if part.type != "error":
                return part
            if behaviour == "abort":
                abort("no errors here")
            if behaviour == "raise":
                raise RuntimeError("oops")
            return None

    model = MockModel([MockResponse(error=APICallError("bad request", 400, False))])
    stream = make_bare_agent(model=model, output_processors=[Swallow()]).stream("hello")
    chunks = []
    with pytest.raises(APICallError):
        async for c in stream:
            chunks.append(c)
    assert chunks[-1].type == "error"
    assert isinstance(chunks[-1].payload["error"], APICallError)


async def test_state_written_on_the_finish_chunk_is_visible_in_process_output_result(
    make_bare_agent,
):
    class CountOnFinish(Processor):
        id = "count"

        @hookimpl
        def process_output_stream(self, part, state):
            state["deltas"] = state.get("deltas", 0) + (part.type == "text-delta")
            if part.type == "finish":
                state["final"] = state["deltas"]
            return part

        @hookimpl
        def process_output_result(self, state, abort):
            if state.get("final") != 2:
                abort(f"finish not seen first: {state}")

    stream = make_bare_agent(["two words"], output_processors=[CountOnFinish()]).stream("hello")
    chunks = [c async for c in stream]
    assert stream.tripwire is None
    assert chunks[-1].type == "finish"  # still last for the client


async def test_finish_reaches_the_client_after_the_object_result(make_bare_agent):
    from tripwire.plugins.structured_output import StructuredOutput

    so = StructuredOutput({"type": "object"})
    agent = make_bare_agent(['{"a": 1}'], input_processors=[so], output_processors=[so])
    kinds = [c.type async for c in agent.stream("hello")]
    assert kinds[-2:] == ["object-result", "finish"]


# ---------------------------------------------------------------- signals


async def test_send_signal_streams_a_transient_data_signal_chunk(make_bare_agent):
    class Signal(Processor):
        id = "signal"

        @hookimpl
        async def process_input_step(self, send_signal, step_number):
            if step_number == 0:
                await send_signal({"contents": "Be concise.", "attributes": {"k": "v"}})

    stream = make_bare_agent(["ok"], input_processors=[Signal()]).stream("hello")
    chunks = [c async for c in stream]
    (signal,) = [c for c in chunks if c.type == "data-signal"]
    assert signal.transient
    assert signal.payload["data"] == {"type": "reactive", "contents": "Be concise.",
                                      "attributes": {"k": "v"}, "tag_name": "system-reminder",
                                      "transient": False}
    result = await stream.result
    assert all(p.type != "data-signal" for m in result.messages for p in m.content.parts)


class AlwaysRetry(Processor):
    id = "always"

    @hookimpl
    def process_api_error(self):
        return {"retry": True}


async def test_implicit_api_error_retry_budget_is_warned_about_once_per_agent(
    make_bare_agent, caplog,
):
    model = MockModel([MockResponse(error=APICallError("overloaded", 529, True)),
                       MockResponse(text="ok"),
                       MockResponse(error=APICallError("overloaded", 529, True)),
                       MockResponse(text="ok")])
    agent = make_bare_agent(model=model, error_processors=[AlwaysRetry()])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        await agent.generate("a")
        await agent.generate("b")
    warned = [r for r in caplog.records if "max_processor_retries is not set" in r.message]
    assert len(warned) == 1
    assert "10" in warned[0].message


async def test_no_implicit_budget_warning_with_an_explicit_limit(make_bare_agent, caplog):
    model = MockModel([MockResponse(error=APICallError("overloaded", 529, True)),
                       MockResponse(text="ok")])
    agent = make_bare_agent(model=model, error_processors=[AlwaysRetry()],
                            max_processor_retries=2)
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        await agent.generate("a")
    assert not [r for r in caplog.records if "max_processor_retries" in r.message]


# ---------------------------------------------------------------- a stream abandoned half-way


async def test_text_after_breaking_out_of_the_stream_is_the_text_so_far(make_bare_agent):
    stream = make_bare_agent(["one two three four"]).stream("hello")
    received = []
    async for c in stream:
        if c.type == "text-delta":
            received.append(c.payload["text"])
            if len(received) == 2:
                break
    assert await stream.text == "".join(received)
    assert (await stream.result).text == "".join(received)


async def test_text_after_aclose_of_a_multi_step_stream_keeps_the_accepted_steps(make_bare_agent):
    from tripwire import tool

    @tool
    def ping() -> str:
        """Ping."""
        return "pong"

    model = MockModel([
        MockResponse(text="first ", tool_calls=[{"tool_name": "ping", "args": {}}]),
        MockResponse(text="second step text"),
    ])
    stream = make_bare_agent(model=model, tools=[ping]).stream("hello")
    async for c in stream:
        if c.type == "text-delta" and c.payload["text"].startswith("second"):
            break
    await stream.aclose()
    assert await stream.text == "first second "


async def test_iterating_a_stream_twice_at_once_is_a_clear_error(make_bare_agent):
    stream = make_bare_agent(["one two three"]).stream("hello")
    it = stream.__aiter__()
    await it.__anext__()
    with pytest.raises(RuntimeError, match="already being consumed"):
        stream.__aiter__()
    await stream.aclose()


async def test_stored_reasoning_reads_as_the_stream_did_even_with_interleaved_ids(
        make_bare_agent):
    """Guards check reasoning in arrival order; the stored parts must not regroup it by
    id into something no guard saw (a value assembled from pieces of two)."""
    chunks = [Chunk("reasoning-delta", {"id": i, "text": t})
              for i, t in (("r1", "a1"), ("r2", "b1"), ("r1", "a2"), ("r1", "a3"))]
    agent = make_bare_agent([MockResponse(chunks=chunks)])
    result = await agent.generate("hi")
    parts = [p.text for p in result.messages[-1].content.parts]
    assert parts == ["a1", "b1", "a2a3"]
    assert "".join(parts) == "a1b1a2a3"


async def test_a_reasoning_blocks_signature_stays_on_its_block(make_bare_agent):
    chunks = [Chunk("reasoning-delta", {"id": "r1", "text": "think"}),
              Chunk("reasoning-delta", {"id": "r1", "text": "",
                                        "provider_metadata": {"anthropic": {"signature": "s"}}}),
              Chunk("reasoning-delta", {"id": "r2", "text": "more"})]
    result = await make_bare_agent([MockResponse(chunks=chunks)]).generate("hi")
    first, second = result.messages[-1].content.parts
    assert (first.text, first.provider_metadata) == ("think", {"anthropic": {"signature": "s"}})
    assert (second.text, second.provider_metadata) == ("more", None)
