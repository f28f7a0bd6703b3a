"""Every output guard against the chunks that carry content besides text, reasoning and
tool calls: a ``source`` chunk (a citation: url, title), a ``data-*`` chunk (the model's,
a tool's through ``writer.custom``, an input processor's) and a chunk type the framework
does not define. For each guard, each of its strategies and both paths, the value never
reaches the client (the streamed chunks, ``result.text``, the stored messages and their
data parts): the run is blocked, or the value is masked / redacted / dropped.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import keyword_guard

from tripwire import Agent, Chunk, Processor, hookimpl, tool
from tripwire.chunks import carries_other_content
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.testing import MockModel, MockResponse

KeywordGuard = keyword_guard()

EMAIL = "jane.doe@example.com"
ORDER = "ORD-123456"
KEYWORD = "hunter2"

#: Per guard: the value it hides, and a guard for each strategy.
GUARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "pii-detector": (EMAIL, {
        s: (lambda s=s: PIIDetector(detection_types=["email"], strategy=s))
        for s in ("block", "redact", "filter")}),
    "regex-filter": (ORDER, {
        s: (lambda s=s: RegexFilter(rules=[{"name": "order", "pattern": r"ORD-\d{6}"}],
                                    strategy=s))
        for s in ("block", "redact")}),
    "keyword-guard": (KEYWORD, {
        s: (lambda s=s: KeywordGuard(patterns=[KEYWORD], strategy=s))
        for s in ("block", "mask")}),
}

CELLS = [(g, s) for g, (_, strategies) in GUARDS.items() for s in strategies]


class WritesData(Processor):
    """An input processor that writes a data chunk carrying the value."""

    id = "writes-data"

    def __init__(self, value: str) -> None:
        self.value = value

    @hookimpl
    async def process_input(self, messages: Any, writer: Any) -> None:
        await writer.custom({"type": "data-note", "data": {"found": [self.value]}})


def _agent(guard: Processor, case: str, value: str) -> Agent:
    """An agent whose run carries ``value`` in one place (``case``)."""
    tools: list[Any] = []
    inputs: list[Processor] = []
    answer = MockResponse(text="All done here.")
    if case == "source":
        responses = [MockResponse(chunks=[
            Chunk("text-delta", {"id": "t", "text": "See the page. "}),
            Chunk("source", {"id": "s1", "source_type": "url",
                             "url": f"https://example.org/q?{value}",
                             "title": f"About {value}"}),
        ])]
    elif case == "model-data":
        responses = [MockResponse(chunks=[
            Chunk("text-delta", {"id": "t", "text": "Here it is. "}),
            Chunk("data-lookup", {"data": {"rows": [{"who": ["x", value]}]}}),
        ])]
    elif case == "unknown-type":
        responses = [MockResponse(chunks=[
            Chunk("text-delta", {"id": "t", "text": "Here it is. "}),
            Chunk("provider-annotation", {"note": {"text": value}}),
        ])]
    elif case == "tool-writer":
        @tool
        async def lookup(query: str, writer: Any) -> str:
            """Look something up."""
            await writer.custom({"type": "data-progress", "data": {"seen": [{"v": value}]}})
            return "nothing found"

        tools = [lookup]
        responses = [MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"},
                                              "tool_call_id": "c1"}]), answer]
    else:
        assert case == "processor-writer"
        inputs = [WritesData(value)]
        responses = [answer]
    return Agent(id="a", model=MockModel(responses), tools=tools,
                 input_processors=inputs, output_processors=[guard],
                 default_error_processors=False)


CASES = ["source", "model-data", "unknown-type", "tool-writer", "processor-writer"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_the_value_in_another_chunk_never_reaches_the_client(guard: str, strategy: str,
                                                                 case: str) -> None:
    value, strategies = GUARDS[guard]
    chunks = [c async for c in _agent(strategies[strategy](), case, value).stream("hi")]
    assert value not in repr(chunks)
    if strategy == "block":
        assert any(c.type == "tripwire" for c in chunks)
    result = await _agent(strategies[strategy](), case, value).generate("hi")
    seen = (repr(result.messages) + repr(result.message_list.all.db()) + result.text
            + repr(result.steps))
    assert value not in seen
    assert (result.tripwire is not None) == (strategy == "block")


@pytest.mark.parametrize(("guard", "strategy"), [c for c in CELLS if c[1] != "block"])
async def test_a_clean_data_or_source_chunk_passes_unchanged(guard: str, strategy: str) -> None:
    """What carries no value reaches the client as it was, in its place."""
    data = Chunk("data-lookup", {"data": {"rows": [1, "two", None]}})
    source = Chunk("source", {"id": "s1", "source_type": "url", "url": "https://example.org/"})
    model = MockModel([MockResponse(chunks=[
        Chunk("text-delta", {"id": "t", "text": "One. "}), data, source,
        Chunk("text-delta", {"id": "t", "text": "Two."})])])
    agent = Agent(id="a", model=model, output_processors=[GUARDS[guard][1][strategy]()],
                  default_error_processors=False)
    chunks = [c async for c in agent.stream("hi")]
    kinds = [c.type for c in chunks if c.type in ("data-lookup", "source")]
    assert kinds == ["data-lookup", "source"]
    assert [c.payload for c in chunks if c.type in kinds] == [data.payload, source.payload]


def test_which_chunk_types_carry_other_content() -> None:
    for kind in ("source", "data-x", "data-signal", "provider-annotation"):
        assert carries_other_content(kind)
    for kind in ("text-delta", "reasoning-delta", "tool-call", "tool-result", "tool-error",
                 "object-result", "step-start", "step-finish", "finish", "step-retry",
                 "tripwire", "error"):
        assert not carries_other_content(kind)


def _structured_agent(guard: Processor, value: str, guard_first: bool) -> Agent:
    """An agent whose structured answer carries ``value`` (its last character as a JSON
    escape, so the streamed text never shows it) in nested fields."""
    from tripwire.plugins.structured_output import StructuredOutput

    hidden = value[:-1] + f"\\u{ord(value[-1]):04x}"
    text = f'{{"note": "it is {hidden}", "items": [{{"deep": ["{hidden}"]}}]}}'
    so = StructuredOutput({"type": "object"}, strategy="warn")
    outputs = [guard, so] if guard_first else [so, guard]
    return Agent(id="a", model=MockModel([MockResponse(text=text)]), input_processors=[so],
                 output_processors=outputs, default_error_processors=False)


@pytest.mark.parametrize("guard_first", [True, False])
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_the_value_in_the_structured_object_never_reaches_the_caller(
        guard: str, strategy: str, guard_first: bool) -> None:
    """The object is parsed from the text (JSON escapes decoded): the guard checks it
    as it checks a tool call's arguments, and ``result.object`` is what it left."""
    value, strategies = GUARDS[guard]
    chunks = [c async for c in _structured_agent(strategies[strategy](), value,
                                                 guard_first).stream("hi")]
    assert value not in repr([c for c in chunks if c.type == "object-result"])
    result = await _structured_agent(strategies[strategy](), value, guard_first).generate("hi")
    assert value not in repr(result.object)
    assert (result.tripwire is not None) == (strategy == "block")
    if strategy == "block":
        assert any(c.type == "tripwire" for c in chunks) and result.object is None
    elif strategy != "filter":
        assert isinstance(result.object, dict) and set(result.object) == {"note", "items"}
