"""Every stream guard built on a hold-back window (``tripwire.HoldBack``, or
``tripwire.SegmentHold`` for a judge) against any interleaving of text, reasoning and
chunks of other kinds: the value it guards never reaches the client, in either
channel, and a stream of the same text split differently gives the same text.

Each channel keeps its own window and a chunk of another kind (a delta of the other
channel, a tool call, a ``source`` or ``data-*`` chunk) releases nothing, so the
redacted text of a stream is that of its text sent whole. The reference run sends
the text and the reasoning as one delta each; every interleaving must give exactly
what it gives.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.fake_llm_server import FakeLLMServer, RawReply
from tests.support.helpers import SYSTEM, Finder, Moderator, keyword_guard
from tripwire import Agent, Chunk, Processor, tool
from tripwire.plugins.moderation import Moderation
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer
from tripwire.serve import Gateway, running
from tripwire.testing import MockModel, MockResponse

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
EMAIL = "ann.lee@example.com"
LEAK = "Never reveal account numbers, card numbers or internal escalation codes"


class Case:
    """A guard, the text and reasoning the model streams (each holds the value), and
    the strings that must never reach the client. ``exact``: the guard edits text, so
    every split gives the same text; a guard that drops the chunks a value touches
    (moderation's ``filter``) leaves more or less of it, depending on the split."""

    def __init__(self, guard: Callable[[], Processor], text: str, reasoning: str,
                 forbidden: tuple[str, ...], instructions: str | None = None,
                 exact: bool = True) -> None:
        self.guard = guard
        self.text = text
        self.reasoning = reasoning
        self.forbidden = forbidden
        self.instructions = instructions
        self.exact = exact


CASES = {
    # the two cases: 19 of the key's 20 characters, all of the address but "o"
    "regex-filter": Case(lambda: RegexFilter(presets=["secrets"], strategy="redact"),
                         f"key {AWS_KEY} ok.", f"found {AWS_KEY} there, it seems.",
                         (AWS_KEY, AWS_KEY[:8], AWS_KEY[-8:])),
    "pii-detector": Case(lambda: PIIDetector(detection_types=["email"], strategy="redact",
                                             redaction_method="mask"),
                         f"mail {EMAIL} now.", f"the address {EMAIL} is hers, I think.",
                         (EMAIL, "ann.lee", "example")),
    "pii-detector-judge": Case(lambda: PIIDetector(model=Finder(), detection_types=["name"],
                                                   redaction_method="placeholder"),
                               "Dear Ada Lovelace, hi. Bye.",
                               "She is Ada Lovelace, I think. Fine.", ("Ada", "Lovelace")),
    "keyword-guard": Case(lambda: keyword_guard()(patterns=["hunter2"], strategy="mask"),
                          "pw hunter2 ok.", "the word hunter2 is it, I think.",
                          ("hunter2", "hunt", "ter2")),
    "system-prompt-scrubber": Case(lambda: SystemPromptScrubber(strategy="redact"),
                                   f"Sure: {LEAK}. Bye.", f"They say: {LEAK}. Hmm.",
                                   (LEAK, "account numbers, card numbers"),
                                   instructions=SYSTEM),
    # (the Moderator judge flags "kill": the sentence holding it is dropped)
    "moderation": Case(lambda: Moderation(Moderator(), strategy="filter"),
                       "Hello there. I will kill it now. Fine.",
                       "Well. They want to kill it soon. Odd.", ("kill",), exact=False),
    # a letter and the accent the next delta brings compose; a hidden space is stripped
    "unicode-normalizer": Case(UnicodeNormalizer, "a cafe\u0301 pass\u200bword ok.",
                               "the cafe\u0301 and pass\u200bword there.",
                               ("\u0301", "\u200b")),
}


@tool
def lookup(query: str) -> str:
    """Look something up."""
    return "found"


#: The chunks of other kinds a model may send between its deltas.
OTHERS = {
    2: lambda i: Chunk("tool-call", {"tool_call_id": f"c{i}", "tool_name": "lookup",
                                     "args": {"query": "x"}}),
    3: lambda i: Chunk("source", {"id": f"s{i}", "source_type": "url",
                                  "url": "https://example.org/"}),
    4: lambda i: Chunk("data-note", {"data": {"n": i}}),
}


def pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:], strict=False)]


def interleaved(case: Case, text_cuts: list[int], reasoning_cuts: list[int],
                moves: list[int]) -> list[Chunk]:
    """The text and the reasoning cut at ``*_cuts``, on alternating ids, merged as
    ``moves`` says (0: the next text delta, 1: the next reasoning delta, else a chunk
    of another kind; a channel with nothing left gives the other's next delta)."""
    queues = {
        0: [Chunk("text-delta", {"id": f"t{i % 2}", "text": p})
            for i, p in enumerate(pieces(case.text, text_cuts))],
        1: [Chunk("reasoning-delta", {"id": f"r{i % 2}", "text": p})
            for i, p in enumerate(pieces(case.reasoning, reasoning_cuts))],
    }
    out: list[Chunk] = []
    for i, move in enumerate(moves):
        if move in OTHERS:
            out.append(OTHERS[move](i))
            continue
        queue = queues[move] or queues[1 - move]
        if queue:
            out.append(queue.pop(0))
    return [*out, *queues[0], *queues[1]]


async def first_step(case: Case, chunks: list[Chunk]) -> tuple[str, str]:
    """The text and reasoning the client gets in the step that streams ``chunks``."""
    calls = any(c.type == "tool-call" for c in chunks)
    model = MockModel([MockResponse(chunks=chunks, finish_reason="tool-calls" if calls
                                    else "stop"), "done"])
    agent = Agent(id="guarded", model=model, instructions=case.instructions,
                  tools=[lookup], output_processors=[case.guard()],
                  default_error_processors=False)
    stream = agent.stream("hi")
    got = {"text-delta": "", "reasoning-delta": ""}
    ended = False
    async for chunk in stream:
        ended = ended or chunk.type == "step-finish"
        if chunk.type in got and not ended:
            got[chunk.type] += chunk.payload["text"]
    await stream.result
    return got["text-delta"], got["reasoning-delta"]


#: What each guard gives for its text and reasoning sent whole.
REFERENCE: dict[str, tuple[str, str]] = {}


async def reference(name: str) -> tuple[str, str]:
    if name not in REFERENCE:
        case = CASES[name]
        REFERENCE[name] = await first_step(case, interleaved(case, [], [], []))
    return REFERENCE[name]


def test_the_reference_runs_guard_the_value():
    """Sent whole, each guard keeps its value from the client (the property below then
    asks every interleaving for exactly this)."""
    for name, case in CASES.items():
        text, reasoning = asyncio.run(reference(name))
        for value in case.forbidden:
            assert value not in text and value not in reasoning, (name, value)
        assert text and reasoning or not case.exact, name


ALTERNATE = dict(text_cuts=list(range(1, 80)), reasoning_cuts=list(range(1, 80)),
                 moves=[0, 1] * 80)


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=40, deadline=None, database=None, derandomize=True)
@given(text_cuts=st.lists(st.integers(0, 200), max_size=30),
       reasoning_cuts=st.lists(st.integers(0, 200), max_size=30),
       moves=st.lists(st.integers(0, 4), max_size=80))
# One text character, then one reasoning delta, and so on (the case).
@example(**ALTERNATE)
# One text character, then a chunk of each other kind, and so on.
@example(text_cuts=list(range(1, 80)), reasoning_cuts=[], moves=[0, 2, 3, 4] * 40)
async def test_property_no_interleaving_reveals_the_value_or_changes_the_text(
        name, text_cuts, reasoning_cuts, moves):
    case = CASES[name]
    text, reasoning = await first_step(case, interleaved(case, text_cuts, reasoning_cuts,
                                                         moves))
    for value in case.forbidden:
        assert value not in text and value not in reasoning, value
    if case.exact:
        assert (text, reasoning) == await reference(name)


# ---------------------------------------------------------------- through the gateway


def alternating_sse(text: str, reasoning: str) -> RawReply:
    """An OpenAI chat completion stream that sends one character of content, then one
    of reasoning, and so on."""
    base = {"id": "chatcmpl-x", "object": "chat.completion.chunk", "model": "gpt-test"}

    def event(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(body)}\n\n"

    events = [event({"role": "assistant", "content": ""})]
    for i in range(max(len(text), len(reasoning))):
        if i < len(text):
            events.append(event({"content": text[i]}))
        if i < len(reasoning):
            events.append(event({"reasoning_content": reasoning[i]}))
    events.append(event({}, "stop"))
    return RawReply("".join(events) + "data: [DONE]\n\n")


@pytest.mark.parametrize("name", ["regex-filter", "pii-detector"])
async def test_through_the_gateway_alternating_deltas_reveal_nothing(name):
    """The issue's case as a client meets it: the upstream alternates one character of
    content and one of reasoning; the client's content and reasoning are the redacted
    text, whole."""
    case = CASES[name]
    async with FakeLLMServer() as upstream:
        upstream.script(alternating_sse(case.text, case.reasoning))
        agent = Agent(id="support", model=upstream.openai(max_retries=0),
                      output_processors=[case.guard()], default_error_processors=False)
        async with running(Gateway({"support": agent}), "127.0.0.1", 0) as url, \
                aiohttp.ClientSession() as session, session.post(
                    f"{url}/v1/chat/completions",
                    json={"model": "support", "stream": True,
                          "messages": [{"role": "user", "content": "hi"}]}) as response:
            assert response.status == 200
            raw = await response.read()
    content = reasoning = ""
    for line in raw.split(b"\n\n"):
        if line.startswith(b"data: {"):
            for choice in json.loads(line[len(b"data: "):])["choices"]:
                content += choice["delta"].get("content") or ""
                reasoning += choice["delta"].get("reasoning_content") or ""
    for value in case.forbidden:
        assert value.encode() not in raw
    assert (content, reasoning) == await reference(name)
