"""stream-error-retry: transient model failures retried by the agent, over real HTTP
(both wire formats) where a user would meet them: a connection dropped mid-answer, a
provider's error event inside the stream, 5xx and 429 answers with Retry-After."""

from __future__ import annotations

import asyncio
import logging
import textwrap

import pytest

from tests.support.fake_llm_server import ErrorReply, Reply
from tripwire import Agent, APICallError, ConfigurationError
from tripwire.plugins.stream_error_retry import (
    StreamErrorRetry,
    cause_chain,
    retry_after_ms,
)
from tripwire.testing import MockModel, MockResponse

WIRES = pytest.mark.parametrize("wire", ["openai", "anthropic"])


def _agent(model, *processors, **options):
    return Agent(
        id="retrying",
        model=model,
        error_processors=list(processors),
        default_error_processors=False,
        **options,
    )


def _waits(caplog) -> list[float]:
    """The waits (ms) the processor decided on, from its log records."""
    return [
        r.args[3]
        for r in caplog.records
        if r.name == "tripwire.plugins.stream_error_retry" and r.msg.startswith("retrying")
    ]


# ------------------------------------------------------------ real failures, both formats


@WIRES
async def test_a_stream_dropped_mid_answer_is_retried_and_only_the_retry_is_kept(llm_server, wire):
    llm_server.script(
        Reply(text="The first answer breaks off here", drop_after=4),
        Reply(text="The second answer arrives whole."),
    )
    async with llm_server.model(wire) as model:
        stream = _agent(model, StreamErrorRetry()).stream("hi")
        chunks = [c async for c in stream]
        result = await stream.result
    assert result.text == "The second answer arrives whole."
    assert len(llm_server.requests) == 2
    kinds = [c.type for c in chunks]
    # the client saw part of the failed attempt, then was told to discard it
    assert kinds.index("text-delta") < kinds.index("step-retry")
    retry = next(c for c in chunks if c.type == "step-retry")
    assert retry.payload["processor_id"] == "stream-error-retry"
    assert [m.text for m in result.messages] == ["The second answer arrives whole."]


@WIRES
async def test_a_provider_error_event_inside_the_stream_is_retried(llm_server, wire):
    llm_server.script(
        Reply(text="partial answer that fails", error_after=3), Reply(text="recovered")
    )
    async with llm_server.model(wire) as model:
        result = await _agent(model, StreamErrorRetry()).generate("hi")
    assert result.text == "recovered"
    assert len(llm_server.requests) == 2


@WIRES
async def test_a_5xx_answer_is_retried_after_its_retry_after(llm_server, wire, caplog):
    caplog.set_level(logging.INFO, "tripwire.plugins.stream_error_retry")
    llm_server.script(
        ErrorReply(503, "Service unavailable", headers={"Retry-After": "0.02"}),
        Reply(text="back again"),
    )
    async with llm_server.model(wire, max_retries=0) as model:
        result = await _agent(model, StreamErrorRetry()).generate("hi")
    assert result.text == "back again"
    assert len(llm_server.requests) == 2
    assert _waits(caplog) == [20.0]


@WIRES
async def test_a_429_retry_after_is_honoured_up_to_max_retry_after_ms(llm_server, wire, caplog):
    caplog.set_level(logging.INFO, "tripwire.plugins.stream_error_retry")
    llm_server.script(
        ErrorReply(429, "Rate limited", headers={"Retry-After": "3600"}),
        Reply(text="after the limit"),
    )
    async with llm_server.model(wire, max_retries=0) as model:
        result = await _agent(model, StreamErrorRetry(max_retry_after_ms=15)).generate("hi")
    assert result.text == "after the limit"
    assert _waits(caplog) == [15.0]


async def test_a_configured_delay_longer_than_retry_after_wins(llm_server, caplog):
    caplog.set_level(logging.INFO, "tripwire.plugins.stream_error_retry")
    llm_server.script(
        ErrorReply(429, "Rate limited", headers={"retry-after-ms": "5"}), Reply(text="ok")
    )
    async with llm_server.openai(max_retries=0) as model:
        await _agent(model, StreamErrorRetry(delay_ms=12)).generate("hi")
    assert _waits(caplog) == [12.0]


@WIRES
@pytest.mark.parametrize("status", [401, 403])
async def test_401_and_403_are_never_retried(llm_server, wire, status):
    llm_server.script(ErrorReply(status, "Invalid API key"), Reply(text="never sent"))
    everything = StreamErrorRetry(
        retry_unknown_errors=True, max_retries=5, matchers=[lambda e: True, {"status": status}]
    )
    async with llm_server.model(wire, max_retries=0) as model:
        with pytest.raises(APICallError) as info:
            await _agent(model, everything).generate("hi")
    assert info.value.status_code == status
    assert len(llm_server.requests) == 1


@WIRES
async def test_max_retries_bounds_the_retries_of_a_step(llm_server, wire):
    llm_server.script(*[ErrorReply(500, "boom")] * 4)
    async with llm_server.model(wire, max_retries=0) as model:
        with pytest.raises(APICallError):
            await _agent(model, StreamErrorRetry(max_retries=2)).generate("hi")
    assert len(llm_server.requests) == 3


@WIRES
async def test_a_400_is_retried_only_through_a_matcher_with_its_own_limit(llm_server, wire):
    llm_server.script(*[ErrorReply(400, "temporarily bad request")] * 3, Reply(text="fine"))
    async with llm_server.model(wire, max_retries=0) as model:
        with pytest.raises(APICallError):
            await _agent(model, StreamErrorRetry()).generate("hi")
        assert len(llm_server.requests) == 1
        retry_400 = StreamErrorRetry(matchers=[{"status": 400, "max_retries": 2}])
        result = await _agent(model, retry_400).generate("hi")
    assert result.text == "fine"
    assert len(llm_server.requests) == 4


# ------------------------------------------------------------ what is matched


async def test_the_cause_chain_is_checked(make_bare_agent):
    def wrapped(use_cause: bool) -> RuntimeError:
        inner = APICallError("overloaded", 529, True)
        outer = RuntimeError("the model client failed")
        if use_cause:
            outer.__cause__ = inner
        else:
            outer.__context__ = inner
        return outer

    for use_cause in (True, False):
        model = MockModel([MockResponse(error=wrapped(use_cause)), "ok"])
        result = await make_bare_agent(model=model, error_processors=[StreamErrorRetry()]).generate(
            "x"
        )
        assert result.text == "ok"


async def test_a_401_anywhere_in_the_chain_is_never_retried(make_bare_agent):
    outer = RuntimeError("wrapper")
    outer.__cause__ = APICallError("bad key", 401, True)
    model = MockModel([MockResponse(error=outer), "never"])
    agent = make_bare_agent(
        model=model,
        error_processors=[StreamErrorRetry(retry_unknown_errors=True, matchers=[lambda e: True])],
    )
    with pytest.raises(RuntimeError):
        await agent.generate("x")
    assert len(model.requests) == 1


async def test_unknown_errors_are_retried_only_when_asked(make_bare_agent):
    def run(**options):
        model = MockModel([MockResponse(error=RuntimeError("socket hang up")), "ok"])
        return make_bare_agent(
            model=model, error_processors=[StreamErrorRetry(**options)]
        ).generate("x")

    with pytest.raises(RuntimeError):
        await run()
    assert (await run(retry_unknown_errors=True)).text == "ok"


async def test_the_first_matching_matcher_sets_the_policy(make_bare_agent):
    seen = []

    def first(error):
        seen.append("first")
        return "hang up" in str(error)

    def second(error):
        seen.append("second")
        return True

    error = ConnectionResetError("socket hang up")
    model = MockModel([MockResponse(error=error)] * 3 + ["ok"])
    retry = StreamErrorRetry(max_retries=0, matchers=[{"match": first, "max_retries": 3}, second])
    result = await make_bare_agent(model=model, error_processors=[retry]).generate("x")
    assert result.text == "ok"
    assert seen == ["first"] * 3


async def test_a_matchers_on_retry_hears_of_each_retry_and_its_wait(llm_server):
    heard = []

    async def on_retry(error, delay_ms):
        heard.append((error.status_code, delay_ms))

    llm_server.script(
        ErrorReply(503, "busy", headers={"Retry-After": "0.01"}),
        ErrorReply(503, "busy"),
        Reply(text="ok"),
    )
    retry = StreamErrorRetry(matchers=[{"status": 503, "max_retries": 2, "on_retry": on_retry}])
    async with llm_server.anthropic(max_retries=0) as model:
        assert (await _agent(model, retry).generate("hi")).text == "ok"
    assert heard == [(503, 10.0), (503, 0.0)]


def test_a_message_matcher_reads_the_response_body_too():
    retry = StreamErrorRetry(matchers=[{"message": "engine_overloaded"}])
    body = '{"error": {"message": "try later", "type": "engine_overloaded_x"}}'
    assert retry.policy(APICallError("openai API error 400: try later", 400, False, body))
    assert retry.policy(APICallError("openai API error 400: other", 400, False, "{}")) is None


def test_a_provider_error_payload_saying_retry_is_matched_whatever_its_status():
    retry = StreamErrorRetry()
    body = (
        '{"error": {"message": "An error occurred. You can retry your request.", '
        '"type": "invalid_request_error"}}'
    )
    assert retry.policy(APICallError("openai stream error", None, False, body)) is not None


def test_cause_chain_stops_at_a_cycle():
    a, b = RuntimeError("a"), RuntimeError("b")
    a.__cause__, b.__cause__ = b, a
    assert list(cause_chain(a)) == [a, b]


def test_retry_after_reads_seconds_milliseconds_and_the_chain():
    outer = RuntimeError("x")
    outer.__cause__ = APICallError("busy", 503, True, response_headers={"Retry-After": "2"})
    assert retry_after_ms(outer) == 2000.0
    assert (
        retry_after_ms(APICallError("b", 429, True, response_headers={"retry-after-ms": "7"})) == 7
    )
    assert retry_after_ms(APICallError("b", 429, True)) is None


async def test_api_call_errors_from_http_carry_masked_headers(llm_server):
    llm_server.script(
        ErrorReply(429, "slow down", headers={"Retry-After": "1", "Set-Cookie": "session=abc"})
    )
    async with llm_server.openai(max_retries=0) as model:
        with pytest.raises(APICallError) as info:
            await Agent(id="a", model=model, default_error_processors=False).generate("x")
    headers = info.value.response_headers
    assert headers["retry-after"] == "1"
    assert headers["set-cookie"] == "***"


# ------------------------------------------------------------ cancellation


async def test_cancelling_the_run_during_the_wait_stops_it_without_a_retry(llm_server):
    waiting = asyncio.Event()

    def long_delay(error):
        waiting.set()
        return 60_000

    llm_server.script(ErrorReply(503, "busy"), Reply(text="never requested"))
    async with llm_server.openai(max_retries=0) as model:
        agent = _agent(model, StreamErrorRetry(delay_ms=long_delay))
        task = asyncio.create_task(agent.generate("hi"))
        await asyncio.wait_for(waiting.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
    assert len(llm_server.requests) == 1


async def test_the_abort_signal_ends_the_wait_and_no_retry_is_asked():
    retry = StreamErrorRetry(delay_ms=60_000)
    signal = asyncio.Event()
    asked = asyncio.create_task(retry.process_api_error(APICallError("busy", 503, True), 0, signal))
    await asyncio.sleep(0)
    assert not asked.done()
    signal.set()
    assert await asyncio.wait_for(asked, 10) is None


async def test_closing_a_stream_during_the_wait_stops_it(llm_server):
    waiting = asyncio.Event()

    def long_delay(error):
        waiting.set()
        return 60_000

    llm_server.script(
        Reply(text="first part and then it fails", drop_after=6), Reply(text="never requested")
    )
    async with llm_server.anthropic() as model:
        stream = _agent(model, StreamErrorRetry(delay_ms=long_delay)).stream("hi")

        async def consume():
            return [c async for c in stream]

        task = asyncio.create_task(consume())
        await asyncio.wait_for(waiting.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        text = await stream.text
    assert text.startswith("first")
    assert len(llm_server.requests) == 1


# ------------------------------------------------------------ options and TOML


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_retries": -1}, "max_retries"),
        ({"max_retries": "2"}, "max_retries"),
        ({"delay_ms": -5}, "delay_ms"),
        ({"delay_ms": float("inf")}, "delay_ms"),
        ({"max_retry_after_ms": "30s"}, "max_retry_after_ms"),
        ({"matchers": "status"}, "matchers must be a list"),
        ({"matchers": [42]}, r"matchers\[0\] must be a function"),
        ({"matchers": [{"status": 99}]}, r"matchers\[0\].status"),
        ({"matchers": [{"max_retries": 2}]}, "at least one of match, status, message"),
        ({"matchers": [{"message": "("}]}, "not a valid regular expression"),
        ({"matchers": [{"status": 400, "retries": 2}]}, r"unknown key\(s\) \['retries'\]"),
        ({"matchers": [{"match": "yes"}]}, r"matchers\[0\].match must be a function"),
        (
            {"matchers": [{"status": 500, "on_retry": 1}]},
            r"matchers\[0\].on_retry must be a function",
        ),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        StreamErrorRetry(**options)


async def test_built_from_toml_by_name(tmp_path, only_plugins):
    only_plugins("stream-error-retry")
    path = tmp_path / "tripwire.toml"
    path.write_text(
        textwrap.dedent("""
        [agents.flaky]
        model = "models.m"
        default_error_processors = false
        error_processors = [
          { use = "stream-error-retry", max_retries = 2, matchers = [{ status = 400, max_retries = 1 }] },
        ]

        [models.m]
        use = "mock"
        responses = [
          { error = { message = "overloaded", status_code = 529, is_retryable = true } },
          { error = { message = "overloaded", status_code = 529, is_retryable = true } },
          { text = "third time" },
        ]
    """)
    )
    async with Agent.from_config(str(path), "flaky") as agent:
        (retry,) = agent.error_processors
        assert retry.max_retries == 2 and retry.matchers[0].status == {400}
        assert (await agent.generate("hi")).text == "third time"
