"""The first token of a stream: the gateway writes the first content delta to the
client as soon as it has passed the output processors, before the upstream sends its
next event, in every client API and from every upstream wire format.

The upstream (``Reply.release``) stops after its first event with text and sends the
rest only once the client has decoded that text: a gateway that held the first content
until another event came would never get the rest (the guard timeout ends such a test;
no test here asserts how long anything takes). A processor that holds text back still
holds it: the same stop, with ``pii-detector``'s window, sends nothing of the text
before the upstream goes on, and never the address."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from tests.serve.test_serve_apis import APIS
from tests.serve.test_serve_guardrails import EMAIL
from tests.support.fake_llm_server import FakeLLMServer, Reply
from tests.support.helpers import ALL_WIRES
from tripwire import Agent, Processor, hookimpl
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.serve import Gateway, running

#: The longest a test waits for a line that must come (a hang guard, not a measure).
GUARD_SECONDS = 30


class PassThrough(Processor):
    """An input and output processor that changes nothing (as ``bench/serve.py``'s)."""

    def __init__(self, i: int) -> None:
        self.id = f"pass-{i}"

    @hookimpl
    def process_input(self, messages: Any) -> None:
        return None

    @hookimpl
    def process_output_stream(self, part: Any) -> Any:
        return part


def delta_text(api: str, line: bytes) -> str:
    """The content text a line of a stream in ``api`` carries (empty: none)."""
    if not line.startswith(b"data: {"):
        return ""
    event = json.loads(line[6:])
    if api == "chat":
        return "".join(c["delta"].get("content") or "" for c in event.get("choices", ()))
    if api == "responses":
        return event["delta"] if event["type"] == "response.output_text.delta" else ""
    delta = event.get("delta", {}) if event["type"] == "content_block_delta" else {}
    return delta.get("text", "")  # type: ignore[no-any-return]


async def first_text_then_rest(url: str, api: str, release: asyncio.Event) -> tuple[str, str]:
    """``_first_text_then_rest``, failing (with the upstream let go) when the stream
    stops for good: the gateway held what it got."""
    try:
        return await asyncio.wait_for(_first_text_then_rest(url, api, release),
                                      GUARD_SECONDS)
    except TimeoutError:
        raise AssertionError(f"the stream stopped: the client got no content delta while "
                             f"the upstream waited for it ({GUARD_SECONDS} s)") from None
    finally:
        release.set()


async def _first_text_then_rest(url: str, api: str, release: asyncio.Event
                                ) -> tuple[str, str]:
    """Stream one request in ``api``: the text the client decodes before it sets
    ``release`` (it sets it at its first content delta, or when the stream has sent
    everything it will without it), and the whole text."""
    body = APIS[api].body([("user", "Hi")], True)
    before = ""
    text = ""
    async with aiohttp.ClientSession() as http, http.post(url + APIS[api].path,
                                                          json=body) as response:
        assert response.status == 200, await response.text()
        async for line in response.content:
            piece = delta_text(api, line)
            text += piece
            if piece and not release.is_set():
                before = text
                release.set()
    return before, text


@pytest.mark.parametrize("wire", ALL_WIRES)
@pytest.mark.parametrize("api", list(APIS))
async def test_the_first_delta_reaches_the_client_before_the_upstream_sends_more(api, wire):
    release = asyncio.Event()
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text="Hello there, how are you", delta_size=6, release=release))
        processors = [PassThrough(i) for i in range(5)]
        agent = Agent(id="support", model=upstream.model(wire, max_retries=0),
                      input_processors=processors, output_processors=processors,
                      default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url:
            before, text = await first_text_then_rest(url, api, release)
    assert before == "Hello "  # decoded while the upstream waited for the client
    assert text == "Hello there, how are you"


@pytest.mark.parametrize("api", list(APIS))
async def test_a_processor_that_holds_text_back_still_holds_it_at_the_first_token(api):
    """``pii-detector``'s window holds the start of the answer (which may be the start
    of an address) until more comes: the client gets no text while the upstream
    waits, then the answer with the address redacted."""
    release = asyncio.Event()
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text=f"Write {EMAIL} soon", delta_size=6, release=release))
        pii = PIIDetector(strategy="redact")
        agent = Agent(id="support", model=upstream.model("openai", max_retries=0),
                      output_processors=[pii], default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url:
            task = asyncio.ensure_future(first_text_then_rest(url, api, release))
            # the upstream stopped after its first text: the client has nothing to
            # decode until the test lets it go on (a while later, for a gateway that
            # wrongly sent the text to have sent it by then)
            await asyncio.wait_for(upstream.held.wait(), GUARD_SECONDS)
            await asyncio.wait({task}, timeout=0.2)
            assert not release.is_set() and not task.done()
            release.set()
            before, text = await task
    assert before == ""  # nothing reached the client before the upstream went on
    assert EMAIL not in text and text.startswith("Write ") and text.endswith(" soon")
