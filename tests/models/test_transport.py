"""The shared HTTP transport: retries, timeouts, faults, cancellation, sessions and
secrets, exercised through both providers against a real local server."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import warnings
from contextlib import aclosing
from email.utils import formatdate

import pytest

from tests.support.fake_llm_server import (
    API_KEY,
    BackgroundLLMServer,
    ErrorReply,
    FakeLLMServer,
    Hang,
    Reply,
)
from tests.support.helpers import ALL_WIRES, collect, request, texts
from tripwire import APICallError, ConfigurationError
from tripwire.models import Anthropic, OpenAICompatible, Timeout
from tripwire.models.retry import parse_retry_after, retry_delay

# ---------------------------------------------------------------- retries


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_server_error_is_retried_then_succeeds(llm_server, wire):
    llm_server.script(ErrorReply(500, "boom"), Reply(text="recovered"))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    assert texts(chunks) == "recovered"
    assert len(llm_server.requests) == 2
    assert llm_server.requests[0].body == llm_server.requests[1].body


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_retries_stop_at_max_retries(llm_server, wire):
    llm_server.script(*[ErrorReply(503, "unavailable")] * 3)
    async with llm_server.model(wire, max_retries=2) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)

    assert info.value.status_code == 503 and info.value.is_retryable
    assert "unavailable" in info.value.message
    assert len(llm_server.requests) == 3


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 529])
async def test_retryable_statuses(llm_server, status):
    llm_server.script(ErrorReply(status), Reply(text="ok"))
    async with llm_server.openai(max_retries=1) as model:
        assert texts(await collect(model)) == "ok"
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
async def test_client_errors_are_not_retried(llm_server, status):
    llm_server.script(ErrorReply(status, "bad request body"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError) as info:
            await collect(model)

    error = info.value
    assert (error.status_code, error.is_retryable) == (status, False)
    assert "bad request body" in error.message and "bad request body" in error.response_body
    assert error.url == f"{llm_server.openai_base_url}/chat/completions"
    assert len(llm_server.requests) == 1


async def test_x_should_retry_header_overrides_the_status(llm_server):
    llm_server.script(ErrorReply(500, headers={"x-should-retry": "false"}))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert not info.value.is_retryable
    assert len(llm_server.requests) == 1


async def test_rate_limit_waits_as_long_as_retry_after_says(llm_server, caplog):
    llm_server.script(ErrorReply(429, "slow down", headers={"Retry-After": "0"}), Reply(text="ok"))
    caplog.set_level(logging.INFO, logger="tripwire.models")
    async with llm_server.anthropic(retry_initial_delay=5.0) as model:
        assert texts(await collect(model)) == "ok"

    (record,) = [r for r in caplog.records if "retry 1 of 2" in r.getMessage()]
    assert "in 0.00 s" in record.getMessage() and "slow down" in record.getMessage()


async def test_generate_retries_too(llm_server):
    llm_server.script(ErrorReply(500), Reply(text="fine"))
    async with llm_server.openai() as model:
        chunks = await model.generate(request())
    assert chunks[0].payload["text"] == "fine"
    assert len(llm_server.requests) == 2


def test_retry_after_seconds_date_and_milliseconds():
    now = 1_700_000_000.0
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after": formatdate(now + 7, usegmt=True)}, now=now) == 7.0
    assert parse_retry_after({"retry-after": formatdate(now - 30, usegmt=True)}, now=now) == 0.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_backoff_is_exponential_with_jitter_and_capped():
    for n, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (6, 8.0), (10, 8.0)]:
        delays = {retry_delay(n, {}, initial_delay=0.5, max_delay=8.0) for _ in range(50)}
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(delays) > 1  # jittered


def test_retry_after_wins_unless_it_is_unreasonably_long():
    assert retry_delay(1, {"retry-after": "12"}, initial_delay=0.5, max_delay=8.0) == 12.0
    assert retry_delay(1, {"retry-after": "3600"}, initial_delay=0.5, max_delay=8.0) <= 0.5


# ---------------------------------------------------------------- network faults


async def test_connection_refused_is_retryable_with_no_status():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with OpenAICompatible(
        base_url=f"http://127.0.0.1:{port}/v1", api_key=API_KEY, model="m", max_retries=1,
        retry_initial_delay=0.001,
    ) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert info.value.status_code is None and info.value.is_retryable
    assert "cannot reach openai" in info.value.message


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_connection_dropped_mid_stream_raises_after_the_chunks_already_given(llm_server, wire):
    llm_server.script(Reply(text="abcdefghijklmnop", delta_size=2, drop_after=5))
    async with llm_server.model(wire) as model:
        seen = []
        with pytest.raises(APICallError) as info:
            async for c in model.stream(request()):
                seen.append(c)

    assert texts(seen)  # the chunks before the drop reached the caller ...
    assert info.value.is_retryable  # ... so the transport does not resend, the agent decides
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_connection_dropped_before_any_chunk_is_retried(llm_server, wire):
    llm_server.script(Reply(text="lost", drop_after=0), Reply(text="again"))
    async with llm_server.model(wire) as model:
        assert texts(await collect(model)) == "again"
    assert len(llm_server.requests) == 2


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_malformed_sse_data_is_a_clear_error(llm_server, wire):
    llm_server.script(Reply(text="hello world", malformed_after=3))
    async with llm_server.model(wire) as model:
        with pytest.raises(APICallError, match="malformed stream event") as info:
            await collect(model)
    assert not info.value.is_retryable
    assert info.value.response_body.startswith('{"id": "broken"')


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_stream_that_stops_sending_times_out(llm_server, wire):
    # (after some text: a Responses stream opens with four events before its first delta)
    stall = 6 if wire == "responses" else 4
    llm_server.script(Reply(text="abcdefgh", delta_size=1, stall_after=stall))
    async with llm_server.model(wire, timeout=Timeout(connect=5, read=0.3)) as model:
        seen = []
        with pytest.raises(APICallError, match="stalled") as info:
            async for c in model.stream(request()):
                seen.append(c)
    assert seen and info.value.is_retryable and info.value.status_code == 200


async def test_server_that_never_answers_times_out(llm_server):
    llm_server.script(Hang())
    async with llm_server.openai(timeout=0.3, max_retries=0) as model:
        with pytest.raises(APICallError, match="no response") as info:
            await collect(model)
    assert info.value.is_retryable and info.value.status_code is None


async def test_sse_split_across_reads_mid_line_and_mid_character(llm_server):
    text = "Grüße, 世界! " * 20
    llm_server.script(Reply(text=text, write_size=7), Reply(text=text, write_size=5))
    async with llm_server.openai() as model:
        assert texts(await collect(model)) == text
    async with llm_server.anthropic() as model:
        assert texts(await collect(model)) == text


# ---------------------------------------------------------------- cancellation


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_closing_the_stream_early_closes_the_http_response(llm_server, wire):
    llm_server.script(Reply(endless=True, event_delay=0.005))
    async with llm_server.model(wire) as model:
        async with aclosing(model.stream(request())) as stream:
            n = 0
            async for _ in stream:
                n += 1
                if n == 3:
                    break
        await asyncio.wait_for(llm_server.disconnected.wait(), 5)


async def test_cancelling_the_task_closes_the_http_response(llm_server):
    llm_server.script(Reply(endless=True, event_delay=0.005))
    started = asyncio.Event()

    async def consume(model) -> None:
        async for _ in model.stream(request()):
            started.set()

    async with llm_server.openai() as model:
        task = asyncio.create_task(consume(model))
        await asyncio.wait_for(started.wait(), 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(llm_server.disconnected.wait(), 5)


# ---------------------------------------------------------------- sessions


async def test_one_session_per_provider_created_lazily_and_reused(llm_server):
    llm_server.script(Reply(text="a"), Reply(text="b"))
    model = llm_server.openai()
    assert model.closed  # no session before the first call
    await collect(model)
    await collect(model)
    assert not model.closed
    first, second = llm_server.requests
    assert second.peer == first.peer  # the same kept-alive connection: one session
    await model.aclose()
    assert model.closed
    await model.aclose()  # idempotent


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_a_cookie_one_response_sets_is_not_sent_on_later_calls(llm_server, wire):
    # A provider is shared by every run (and every tenant of tripwire serve): no call
    # may carry state an earlier call's response left, such as a session cookie.
    llm_server.script(Reply(text="one", headers={"Set-Cookie": "session=tenant-a; Path=/"}),
                      Reply(text="two"))
    # by host name: aiohttp's default jar ignores cookies of servers named by address
    base = llm_server.url.replace("127.0.0.1", "localhost")
    if wire == "openai":
        model = OpenAICompatible(f"{base}/v1", API_KEY, "gpt-test")
    else:
        model = Anthropic(base_url=base, api_key=API_KEY, model="claude-test")
    async with model:
        assert texts(await collect(model)) == "one"
        assert texts(await collect(model)) == "two"
    assert [r.headers.get("Cookie") for r in llm_server.requests] == [None, None]


async def test_provider_is_usable_again_after_aclose(llm_server):
    llm_server.script(Reply(text="one"), Reply(text="two"))
    async with llm_server.anthropic() as model:
        await collect(model)
    async with model:
        assert texts(await collect(model)) == "two"


def test_provider_survives_one_event_loop_per_call():
    # generate_sync-style use: each call runs its own loop with asyncio.run.
    async def call(model) -> str:
        async with FakeLLMServer() as server:
            server.script(Reply(text="hi"))
            model.base_url = server.openai_base_url
            return texts(await collect(model))

    model = OpenAICompatible(base_url="http://127.0.0.1:1/v1", api_key=API_KEY, model="m")
    assert asyncio.run(call(model)) == "hi"
    assert asyncio.run(call(model)) == "hi"

    async def close() -> None:
        await model.aclose()

    asyncio.run(close())


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_the_session_is_closed_when_its_event_loop_ends():
    # asyncio.run shuts the loop down (shutdown_asyncgens): the provider closes its
    # session then, though nobody called aclose(), and is usable in the next loop.
    with BackgroundLLMServer() as server:
        server.script(Reply(text="one"), Reply(text="two"))
        model = server.openai()
        assert asyncio.run(collect(model)) and model.closed
        assert texts(asyncio.run(collect(model))) == "two" and model.closed


def test_a_session_orphaned_by_a_closed_loop_gets_its_sockets_closed():
    # A hand-made loop closed without shutdown_asyncgens() leaves the session behind;
    # the next call (in another loop) closes its sockets, without ResourceWarnings.
    def call_in_bare_loop(model) -> list:
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(collect(model))
        finally:
            loop.close()

    with BackgroundLLMServer() as server:
        server.script(*[Reply(text="hi")] * 23)
        model = server.openai()
        call_in_bare_loop(model)
        call_in_bare_loop(model)
        before = open_fds()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(20):
                assert texts(call_in_bare_loop(model)) == "hi"
            asyncio.run(model.aclose())
            gc.collect()
        assert model.closed
        assert open_fds() - before <= 3
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_an_orphaned_session_still_reading_a_body_is_closed_without_its_loop():
    # The end of the body comes after the last event (end_delay), so when the bare
    # loop closes, its session's background task is still reading it. The next call
    # (in another loop) closes that session: ending its response must not call into
    # the closed loop (RuntimeError: Event loop is closed), nor leave a connection
    # for aiohttp to warn about when it is collected.
    def call_in_bare_loop(model) -> list:
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(collect(model))
        finally:
            loop.close()

    with BackgroundLLMServer() as server, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        server.script(Reply(text="one", end_delay=0.5), Reply(text="two"))
        model = server.openai()
        assert texts(call_in_bare_loop(model)) == "one"
        before = open_fds()
        assert texts(call_in_bare_loop(model)) == "two"
        asyncio.run(model.aclose())
        assert model.closed
        gc.collect()
        assert open_fds() - before <= 0
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_a_provider_used_from_a_second_loop_while_the_first_is_open_says_what_to_do():
    # A hand-made loop left open (idle, not running) still owns the session: a call
    # from another loop said "in use on another running event loop"
    with BackgroundLLMServer() as server:
        server.script(Reply(text="one"), Reply(text="two"))
        model = server.openai()
        first = asyncio.new_event_loop()
        try:
            assert texts(first.run_until_complete(collect(model))) == "one"
            with pytest.raises(RuntimeError) as raised:
                asyncio.run(collect(model))
            message = str(raised.value)
            assert "is used from two event loops" in message
            assert "which is still open, though not running" in message
            assert "await model.aclose() there" in message and "running event loop" not in message
            # closing it from the other loop is refused, and leaves it to its own loop
            with pytest.raises(RuntimeError, match="can be neither used nor closed from this"):
                asyncio.run(model.aclose())
            assert not model.closed
            first.run_until_complete(model.aclose())  # what the message says to do
            assert model.closed
            assert texts(asyncio.run(collect(model))) == "two"
        finally:
            first.close()


# ---------------------------------------------------------------- secrets


async def test_api_key_never_appears_in_errors_logs_or_reprs(llm_server, caplog):
    echo = f"Incorrect API key provided: {API_KEY}"
    llm_server.script(ErrorReply(500, echo), ErrorReply(401, echo))
    caplog.set_level(logging.DEBUG)
    async with llm_server.openai(max_retries=1) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
        shown = [repr(model), str(model)]

    error = info.value
    shown += [str(error), repr(error), error.response_body, error.message, caplog.text]
    assert "Incorrect API key provided: ***" in error.message
    for text in shown:
        assert API_KEY not in text


async def test_api_key_is_not_in_the_finish_chunk(llm_server):
    llm_server.script(Reply(text="ok"))
    async with llm_server.anthropic() as model:
        chunks = await collect(model)
    assert API_KEY not in repr(chunks[-1].payload)


def test_bad_transport_settings_are_clear_errors():
    with pytest.raises(ConfigurationError, match="max_retries"):
        OpenAICompatible(base_url="http://x/v1", api_key=None, model="m", max_retries=-1)
    with pytest.raises(ConfigurationError, match="timeout"):
        OpenAICompatible(base_url="http://x/v1", api_key=None, model="m", timeout="fast")
    with pytest.raises(ConfigurationError, match="base_url"):
        OpenAICompatible(base_url="api.openai.com", api_key=None, model="m")
    assert Timeout.coerce(2) == Timeout(connect=2.0, read=2.0)


async def test_stream_needs_a_model_request(llm_server):
    async with llm_server.openai() as model:
        with pytest.raises(TypeError, match="ModelRequest"):
            await collect_raw(model, {"prompt": []})


async def collect_raw(model, req) -> list:
    return [c async for c in model.stream(req)]


@pytest.mark.parametrize("wire", ALL_WIRES)
async def test_a_stream_whose_end_comes_after_its_last_event_keeps_its_connection(
        llm_server, wire):
    # The server sends the end of the chunked body 30 ms after the last event (as a
    # real one may, in a read of its own): the parser is done at the last event, and
    # closing the response then would close the connection and cost every later call
    # a new TCP (and TLS) handshake.
    llm_server.script(*[Reply(text=f"call {i}", event_delay=0.03) for i in range(3)])
    async with llm_server.model(wire) as model:
        for i in range(3):
            assert texts(await collect(model)) == f"call {i}"
            await asyncio.sleep(0.1)  # the end has come meanwhile
    peers = {r.peer for r in llm_server.requests}
    assert len(peers) == 1, peers


async def test_a_stream_that_never_ends_after_its_last_event_is_closed_in_the_background(
        llm_server, monkeypatch, caplog):
    from tests.support.fake_llm_server import Flood, openai_events
    from tripwire.models import _response

    monkeypatch.setattr(_response, "FINISH_SECONDS", 0.1)
    caplog.set_level(logging.DEBUG, logger="tripwire.models")
    stream = b"".join(openai_events(Reply(text="held"), "m"))  # then held open, no end
    llm_server.script(Flood(block=stream, total=len(stream)), Reply(text="next"))
    async with llm_server.openai() as model:
        assert texts(await asyncio.wait_for(collect(model), 5)) == "held"  # not kept waiting
        assert model._sessions._tasks  # the rest of the body is waited for ...
        await asyncio.sleep(0.3)
        assert not model._sessions._tasks  # ... no longer than FINISH_SECONDS
        assert texts(await collect(model)) == "next"
    first, second = llm_server.requests
    assert first.peer != second.peer  # the held connection was closed, not reused
    assert "the end of a stream from 127.0.0.1 did not come (TimeoutError" in caplog.text
