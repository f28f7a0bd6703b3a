"""The server-sent events reader: linear in the size of the body whatever the shape
of its lines, and bounded: an event (or a non-streaming body) larger than the
provider option ``max_event_bytes`` is a clear ``APICallError``."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.support.fake_llm_server import ErrorReply, FakeToolCall, Flood, RawReply, Reply
from tests.support.helpers import request, texts
from tripwire import APICallError, ConfigurationError
from tripwire.models import OpenAICompatible, Timeout
from tripwire.models._sse import DEFAULT_MAX_EVENT_BYTES, iter_sse
from tripwire.models.wire import TooLarge

MiB = 1024 * 1024


class Blocks:
    """A body delivered in blocks of ``size`` bytes (what ``iter_any`` gives)."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data = data
        self.size = size

    async def iter_any(self):
        for i in range(0, len(self.data), self.size):
            yield self.data[i : i + self.size]


async def events(data: bytes, size: int = 7, **options) -> list[tuple[str, str]]:
    return [e async for e in iter_sse(Blocks(data, size), **options)]


# ---------------------------------------------------------------- the reader


@pytest.mark.parametrize("size", [1, 2, 7, 64, 100_000])
async def test_events_are_the_same_whatever_the_block_size(size):
    body = (
        b": keep-alive\r\n\r\n"
        b"event: message_start\ndata: {\"a\": 1}\n\n"
        b"data: line one\ndata: line two\r\n\r\n"
        b"id: 7\nretry: 10\nunknown: x\ndata:no-space\n\n"
        b"data: \xc3\xa9t\xc3\xa9 \xe4\xb8\x96\xe7\x95\x8c\n\n"
        b"data: last, without the blank line"
    )
    assert await events(body, size) == [
        ("message_start", '{"a": 1}'),
        ("message", "line one\nline two"),
        ("message", "no-space"),
        ("message", "été 世界"),
        ("message", "last, without the blank line"),
    ]


async def test_a_long_line_in_many_small_blocks_is_joined_once():
    # 8 MiB in 512-byte blocks: 16,384 blocks. Re-scanning the whole line at every
    # block, as the old reader did, takes minutes for this; joining once is instant.
    text = "y" * (8 * MiB)
    ((name, data),) = await events(f"data: {text}\n\n".encode(), size=512)
    assert name == "message" and data == text


async def test_an_event_past_the_limit_raises_too_large():
    with pytest.raises(TooLarge) as info:
        await events(b"data: " + b"z" * 5000 + b"\n\n", size=100, max_event_bytes=1000)
    assert info.value.what == "a stream event"
    assert info.value.limit == 1000 and 1000 < info.value.size <= 1100


async def test_the_limit_counts_all_lines_of_one_event_and_restarts_after_it():
    line = b"data: " + b"a" * 594 + b"\n"  # 601 bytes with its newline
    assert len(await events(line + b"\n" + line + b"\n", max_event_bytes=1000)) == 2
    with pytest.raises(TooLarge):
        await events(line + line + b"\n", max_event_bytes=1000)
    with pytest.raises(TooLarge):  # comments count too: a flood of them is no escape
        await events(b":" + b"c" * 2000 + b"\n\ndata: x\n\n", max_event_bytes=1000)


# ---------------------------------------------------------------- through a provider


async def test_a_32_mib_event_is_parsed(llm_server):
    text = "x" * (32 * MiB)
    llm_server.script(Reply(text=text, delta_size=len(text), write_size=64 * 1024))
    async with llm_server.openai(max_event_bytes=48 * MiB) as model:
        chunks = [c async for c in model.stream(request())]
    assert texts(chunks) == text
    assert chunks[-1].type == "finish"


async def test_an_event_past_the_default_limit_names_the_limit_and_the_option(llm_server):
    assert DEFAULT_MAX_EVENT_BYTES == 16 * MiB
    llm_server.script(Reply(text="x" * (17 * MiB), delta_size=17 * MiB, write_size=64 * 1024))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError) as info:
            await model.stream(request()).__anext__()

    message = info.value.message
    assert "openai sent a stream event larger than max_event_bytes=16777216 (16 MiB" in message
    assert "raise the provider option max_event_bytes" in message
    assert "OpenAICompatible(..., max_event_bytes=67108864)" in message
    assert not info.value.is_retryable and len(llm_server.requests) == 1


async def test_a_line_that_never_ends_is_cut_at_the_limit(llm_server):
    llm_server.script(Flood(total=8 * MiB))
    async with llm_server.anthropic(max_event_bytes=2 * MiB, timeout=Timeout(connect=5, read=5)) as model:
        with pytest.raises(APICallError, match=r"anthropic sent a stream event larger than max_event_bytes=2097152"):
            await model.stream(request()).__anext__()
    await asyncio.wait_for(llm_server.disconnected.wait(), 5)  # and the connection was closed


async def test_a_non_streaming_body_past_the_limit_raises(llm_server):
    body = json.dumps({"id": "c", "choices": [{"message": {"content": "x" * (2 * MiB)}}]})
    llm_server.script(RawReply(body, content_type="application/json"))
    async with llm_server.openai(max_event_bytes=MiB) as model:
        with pytest.raises(APICallError, match=r"sent a response body larger than max_event_bytes=1048576 \(1 MiB"):
            await model.generate(request())


async def test_a_non_streaming_body_without_content_length_is_bounded_too(llm_server):
    llm_server.script(Flood(content_type="application/json", total=4 * MiB))
    async with llm_server.openai(max_event_bytes=MiB, max_retries=0, timeout=Timeout(connect=5, read=5)) as model:
        with pytest.raises(APICallError, match="response body larger than max_event_bytes=1048576"):
            await model.generate(request())


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_tool_arguments_assembled_past_the_limit_raise(llm_server, wire):
    # Each event is small, but the arguments they add up to are not.
    arguments = json.dumps({"blob": "b" * (200 * 1024)})
    llm_server.script(Reply(tool_calls=[FakeToolCall("c1", "f", arguments)], delta_size=4096))
    model = llm_server.openai if wire == "openai" else llm_server.anthropic
    async with model(max_event_bytes=64 * 1024) as model:
        with pytest.raises(APICallError, match=f"{wire} sent tool-call arguments larger than max_event_bytes=65536"):
            [c async for c in model.stream(request())]


async def test_a_thinking_block_assembled_past_the_limit_raises(llm_server):
    llm_server.script(Reply(reasoning="r" * (100 * 1024), text="ok", delta_size=1024))
    async with llm_server.anthropic(max_event_bytes=64 * 1024) as model:
        with pytest.raises(APICallError, match="anthropic sent a thinking block larger than max_event_bytes"):
            [c async for c in model.stream(request())]


async def test_a_huge_error_body_is_read_only_as_far_as_needed(llm_server):
    llm_server.script(ErrorReply(400, body="e" * (4 * MiB)))
    async with llm_server.anthropic() as model:
        with pytest.raises(APICallError) as info:
            [c async for c in model.stream(request())]
    assert info.value.status_code == 400
    assert len(info.value.response_body) == 64 * 1024


@pytest.mark.parametrize("value", [0, -1, 1.5, "16MiB", None, True])
def test_max_event_bytes_must_be_a_positive_integer(value):
    with pytest.raises(ConfigurationError, match=f"max_event_bytes must be an integer >= 1, got {value!r}"):
        OpenAICompatible(base_url="http://127.0.0.1:1/v1", api_key=None, model="m", max_event_bytes=value)
