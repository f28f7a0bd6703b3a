"""system-prompt-scrubber on every path besides streamed text by which the agent's
instructions can reach the client or a tool: reasoning deltas (split anywhere, across
reasoning ids), a tool call's arguments (nested, split across strings: the tool must
not get them either), the structured object (``object-result``, ``result.object``),
``data-*`` chunks (the model's, a tool's ``writer.custom``), ``source`` chunks and a
chunk type the framework does not define. For each path, each strategy and both
``stream()`` and ``generate()``, no ``ngram`` window of the system prompt reaches the
client (the streamed chunks), the result (``result.text``, each step's reasoning,
``result.object``, ``result.messages``, the stored history) or the tool.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripwire import Agent, Chunk, tool
from tripwire.plugins.structured_output import StructuredOutput
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber
from tripwire.testing import MockModel, MockResponse

SYSTEM = ("You are Ada, the support assistant of Acme Bank. Never reveal account numbers, "
          "card numbers or internal escalation codes to anyone. Always answer in formal "
          "English and keep every reply under one hundred words. If the customer asks about "
          "loans, point them to the loans desk on the second floor.")
LEAK = "Never reveal account numbers, card numbers or internal escalation codes to anyone"
REASONING = f"The user asks for my rules. They say: {LEAK}. I will not share them."

#: Each strategy (and redaction method) by name.
STRATEGIES: dict[str, dict[str, Any]] = {
    "block": {"strategy": "block"},
    "mask": {"strategy": "redact"},
    "placeholder": {"strategy": "redact", "redaction_method": "placeholder"},
    "remove": {"strategy": "redact", "redaction_method": "remove"},
    "filter": {"strategy": "filter"},
}
#: ``warn`` changes nothing: not in the never-leaks matrix.
WARN = {"warn": {"strategy": "warn"}}

_CHECK = SystemPromptScrubber()


def leaks(text: str) -> bool:
    """Whether ``text`` holds an ``ngram`` window of the system prompt."""
    return bool(_CHECK.find(text, [SYSTEM]))


class Received:
    """What the tools were called with."""

    def __init__(self) -> None:
        self.calls: list[Any] = []


def agent(responses: list[MockResponse], strategy: str, received: Received | None = None,
          structured: bool = False, scrubber: SystemPromptScrubber | None = None) -> Agent:
    received = received if received is not None else Received()

    @tool
    async def send_email(to: str, body: dict[str, Any]) -> str:
        """Send an email."""
        received.calls.append({"to": to, "body": body})
        return "sent"

    @tool
    async def lookup(query: str, writer: Any) -> str:
        """Look something up."""
        received.calls.append({"query": query})
        await writer.custom({"type": "data-progress", "data": {"seen": [{"v": LEAK}]}})
        return "nothing found"

    scrubber = scrubber or SystemPromptScrubber(**{**STRATEGIES, **WARN}[strategy])
    inputs: list[Any] = []
    outputs: list[Any] = [scrubber]
    if structured:
        so = StructuredOutput({"type": "object"}, strategy="warn")
        inputs, outputs = [so], [so, scrubber]
    return Agent(id="a", model=MockModel(responses), instructions=SYSTEM,
                 tools=[send_email, lookup], input_processors=inputs,
                 output_processors=outputs, default_error_processors=False)


def client_view(chunks: list[Chunk]) -> list[str]:
    """What the client can read: the text and the reasoning as it concatenates them,
    every other chunk's payload."""
    out = ["".join(c.payload["text"] for c in chunks if c.type == kind)
           for kind in ("text-delta", "reasoning-delta")]
    out += [repr(c.payload) for c in chunks if c.type not in ("text-delta", "reasoning-delta")]
    return out


def result_view(result: Any) -> list[str]:
    return [result.text, *(s.reasoning for s in result.steps), repr(result.object),
            repr(result.messages), repr(result.message_list.response.db()),
            repr(result.steps)]


async def check(responses: Any, strategy: str, structured: bool = False) -> None:
    """Stream and generate: nothing leaks anywhere; block trips."""
    received = Received()
    stream = agent(responses(), strategy, received, structured).stream("hi")
    chunks = [c async for c in stream]
    result = await stream.result
    seen = client_view(chunks) + result_view(result)
    generated = await agent(responses(), strategy, received, structured).generate("hi")
    seen += result_view(generated) + [repr(c) for c in received.calls]
    assert not [s for s in seen if leaks(s)]
    if strategy == "block":
        assert any(c.type == "tripwire" for c in chunks)
        assert result.tripwire is not None and generated.tripwire is not None
    else:
        assert result.tripwire is None and generated.tripwire is None


# ---------------------------------------------------------------- reasoning


def reasoning(cuts: list[int], ids: list[int]) -> list[MockResponse]:
    bounds = [0, *cuts, len(REASONING)]
    chunks: list[Any] = [
        {"type": "reasoning-delta", "id": f"r{ids[i % len(ids)]}", "text": REASONING[a:b]}
        for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))]
    chunks.append({"type": "text-delta", "id": "t1", "text": "I cannot share that."})
    return [MockResponse(chunks=chunks)]


PROPERTY = settings(max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("strategy", STRATEGIES)
@PROPERTY
@given(cuts=st.sets(st.integers(1, len(REASONING) - 1), max_size=20).map(sorted),
       ids=st.lists(st.integers(1, 3), min_size=1, max_size=4))
def test_property_reasoning_split_anywhere_across_ids_never_leaks(strategy, cuts, ids):
    asyncio.run(check(lambda: reasoning(cuts, ids), strategy))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("cut", range(1, len(REASONING), 3))
async def test_reasoning_cut_in_two_ids_at_any_boundary_never_leaks(strategy, cut):
    await check(lambda: reasoning([cut], [1, 2]), strategy)


async def test_reasoning_interleaved_with_text_never_leaks():
    half = len(LEAK) // 2
    chunks: list[Any] = [
        {"type": "reasoning-delta", "id": "r1", "text": "Rules: " + LEAK[:half]},
        {"type": "text-delta", "id": "t1", "text": "One moment. "},
        {"type": "reasoning-delta", "id": "r2", "text": LEAK[half:] + "."},
        {"type": "text-delta", "id": "t1", "text": "Done."}]
    for strategy in STRATEGIES:
        await check(lambda: [MockResponse(chunks=chunks)], strategy)


async def test_reasoning_is_masked_in_place_and_reported_on_its_channel():
    stream = agent(reasoning([40, 90], [1, 2]), "mask").stream("hi")
    chunks = [c async for c in stream]
    result = await stream.result
    streamed = "".join(c.payload["text"] for c in chunks if c.type == "reasoning-delta")
    assert streamed == REASONING.replace(LEAK, "*" * len(LEAK))
    assert [v.channel for v in result.verdicts] == ["reasoning"]
    assert "".join(c.payload["text"] for c in chunks if c.type == "text-delta") == \
        "I cannot share that."


async def test_clean_reasoning_passes_unchanged():
    text = "Let me think about the customer's question on loans and card numbers."
    stream = agent([MockResponse(chunks=[
        {"type": "reasoning-delta", "id": "r1", "text": text[:20]},
        {"type": "reasoning-delta", "id": "r2", "text": text[20:]},
        {"type": "text-delta", "id": "t1", "text": "ok"}])], "mask").stream("hi")
    chunks = [c async for c in stream]
    assert [(c.payload["id"], c.payload["text"]) for c in chunks
            if c.type == "reasoning-delta"] == [("r1", text[:20]), ("r2", text[20:])]
    assert (await stream.result).verdicts == []


# ---------------------------------------------------------------- tool calls

#: Tool-call arguments carrying the leak: nested, and split word by word across strings.
ARGS = {
    "nested": {"to": "boss@example.com",
               "body": {"paragraphs": ["Hello,", {"quote": [f"My rules: {LEAK}."]}]}},
    "split": {"to": "boss@example.com", "body": {"words": LEAK.split(" ")}},
    "in-a-key": {"to": "boss@example.com", "body": {LEAK: "yes"}},
}


def tool_call(args: dict[str, Any]) -> list[MockResponse]:
    return [MockResponse(tool_calls=[{"tool_name": "send_email", "args": args,
                                      "tool_call_id": "c1"}]),
            MockResponse(text="The email is sent.")]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", ARGS)
async def test_tool_call_arguments_never_leak_to_the_client_or_the_tool(strategy, case):
    await check(lambda: tool_call(ARGS[case]), strategy)


@st.composite
def scattered_args(draw):
    """Tool-call arguments holding the leak's words in order, cut into strings at any
    word boundaries and each string put at some depth (a list item or a dict value;
    its key has no word: a key that is a word is an inserted word, as in text)."""
    words = LEAK.split(" ")
    cuts = sorted(draw(st.sets(st.integers(1, len(words) - 1), max_size=len(words) - 1)))
    bounds = [0, *cuts, len(words)]
    items: list[Any] = []
    for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
        value: Any = " ".join(words[a:b])
        for _ in range(draw(st.integers(0, 3))):
            value = [value] if draw(st.booleans()) else {"_" * (i + 1): value}
        items.append(value)
    return {"to": "boss@example.com", "body": {"parts": items}}


@pytest.mark.parametrize("strategy", STRATEGIES)
@PROPERTY
@given(args=scattered_args())
def test_property_tool_arguments_cut_into_strings_anywhere_never_leak(strategy, args):
    asyncio.run(check(lambda: tool_call(args), strategy))


async def test_redacted_tool_arguments_reach_the_tool_redacted_in_place():
    received = Received()
    result = await agent(tool_call(ARGS["nested"]), "placeholder", received).generate("hi")
    assert received.calls == [{"to": "boss@example.com", "body": {
        "paragraphs": ["Hello,", {"quote": ["My rules: [SYSTEM_PROMPT]."]}]}}]
    assert [v.channel for v in result.verdicts] == ["tool-call"]


async def test_a_filtered_tool_call_does_not_run():
    received = Received()
    await agent(tool_call(ARGS["nested"]), "filter", received).generate("hi")
    assert received.calls == []


async def test_clean_tool_arguments_pass_unchanged():
    received = Received()
    args = {"to": "boss@example.com", "body": {"text": "Your card numbers are safe."}}
    result = await agent(tool_call(args), "mask", received).generate("hi")
    assert received.calls == [args] and result.verdicts == []


# ---------------------------------------------------------------- structured object


def structured() -> list[MockResponse]:
    """An answer whose parsed object holds the leak at depth, each space spelled as a
    JSON escape: the guards see the text with its escapes decoded, so the stream and
    the object are both redacted. (A key between the two quotes: the scrubber merges
    two quotes that close into one replacement, which would take the JSON between.)"""
    hidden = LEAK.replace(" ", "\\u0020")
    return [MockResponse(text=json.dumps({"note": "x", "other": "", "items": [{"deep": ["y"]}]})
                         .replace('"x"', f'"it is {hidden}"').replace('"y"', f'"{hidden}"'))]


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_the_structured_object_never_leaks(strategy):
    await check(structured, strategy, structured=True)


async def test_the_structured_object_is_redacted_in_place():
    result = await agent(structured(), "placeholder", structured=True).generate("hi")
    assert result.object == {"note": "it is [SYSTEM_PROMPT]", "other": "",
                             "items": [{"deep": ["[SYSTEM_PROMPT]"]}]}
    assert json.loads(result.text) == result.object


# ---------------------------------------------------------------- other chunks


def other(case: str) -> list[MockResponse]:
    if case == "tool-writer":
        return [MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"},
                                          "tool_call_id": "c1"}]),
                MockResponse(text="Nothing found.")]
    chunk = {
        "model-data": Chunk("data-lookup", {"data": {"rows": [{"who": ["x", LEAK]}]}}),
        "source": Chunk("source", {"id": "s1", "source_type": "url",
                                   "url": "https://example.org/", "title": f"About {LEAK}"}),
        "unknown-type": Chunk("provider-annotation", {"note": {"text": LEAK}}),
    }[case]
    return [MockResponse(chunks=[Chunk("text-delta", {"id": "t", "text": "See here. "}),
                                 chunk])]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("case", ["model-data", "tool-writer", "source", "unknown-type"])
async def test_data_source_and_unknown_chunks_never_leak(strategy, case):
    await check(lambda: other(case), strategy)


async def test_a_source_is_redacted_in_place_and_passes_the_held_text():
    """A source is checked whole and passes at once: it does not release the text held
    before it (that waits for the end of the step, which could still complete a leak)."""
    stream = agent(other("source"), "placeholder").stream("hi")
    chunks = [c async for c in stream]
    assert [c.type for c in chunks if c.type in ("text-delta", "source", "step-finish")] == \
        ["source", "text-delta", "step-finish"]
    source = next(c for c in chunks if c.type == "source")
    assert source.payload == {"id": "s1", "source_type": "url", "url": "https://example.org/",
                              "title": "About [SYSTEM_PROMPT]"}


# ---------------------------------------------------------------- warn


@pytest.mark.parametrize("case", ["reasoning", "tool-call", "source"])
async def test_warn_reports_each_path_once_and_changes_nothing(case):
    responses = {"reasoning": reasoning([50], [1, 2]), "tool-call": tool_call(ARGS["nested"]),
                 "source": other("source")}[case]
    received = Received()
    result = await agent(responses, "warn", received).generate("hi")
    assert [v.action for v in result.verdicts] == ["warned"]
    if case == "tool-call":
        assert received.calls == [ARGS["nested"]]
    elif case == "reasoning":
        assert result.steps[0].reasoning == REASONING


# ---------------------------------------------------------------- the judge


async def test_the_judge_sees_tool_arguments_as_one_text_and_its_spans_redact_them():
    paraphrase = "In short: I must keep account and card details and codes secret."
    args = {"to": "boss@example.com", "body": {"text": paraphrase}}
    text = "\n".join(["to", "boss@example.com", "body", "text", paraphrase])
    start = text.index(paraphrase)
    leaked = json.dumps({"leaked": True, "types": ["summary"],
                         "spans": [{"start": start, "end": start + len(paraphrase)}]})
    clean = json.dumps({"leaked": False})
    judge = MockModel([leaked, *[clean] * 6])
    received = Received()
    scrubber = SystemPromptScrubber(strategy="redact", redaction_method="placeholder",
                                    model=judge)
    result = await agent(tool_call(args), "mask", received, scrubber=scrubber).generate("hi")
    assert received.calls == [{"to": "boss@example.com",
                               "body": {"text": "[SYSTEM_PROMPT]"}}]
    assert [(v.channel, [d.type for d in v.detections]) for v in result.verdicts] == \
        [("tool-call", ["summary"])]
