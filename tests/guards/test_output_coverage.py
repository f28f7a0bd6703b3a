"""Every output guard against the chunks that carry content besides text, reasoning and
tool calls: a ``source`` chunk (a citation: url, title), a ``data-*`` chunk (the model's,
a tool's through ``writer.custom``, an input processor's) and a chunk type the framework
does not define. For each guard, each of its strategies and both paths, the value never
reaches the client (the streamed chunks, ``result.text``, the stored messages and their
data parts): the run is blocked, or the value is masked / redacted / dropped.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import attrs
import cattrs
import pytest

from tests.support.helpers import SYSTEM, keyword_guard, output_guards
from tripwire import Agent, Chunk, Processor, hookimpl, tool
from tripwire.chunks import carries_other_content
from tripwire.guards.values import map_strings
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

KeywordGuard = keyword_guard()

EMAIL, KEYWORD = "jane.doe@example.com", "hunter2"
#: Per guard: the value it hides, and a guard for each strategy.
GUARDS = output_guards()
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
    return Agent(id="a", model=MockModel(responses), tools=tools, instructions=SYSTEM,
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
    agent = Agent(id="a", model=model, instructions=SYSTEM,
                  output_processors=[GUARDS[guard][1][strategy]()],
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


#: What the model's structured answers hold where ``Plant`` puts the value.
MARK = "zqzq"


class Plant(Processor):
    """Puts ``value`` where the parsed object holds ``MARK`` (``process_output_result``):
    an object a processor set, holding a value the streamed text never showed (the text's
    JSON escapes are decoded before the guards see it, so a value the model wrote is
    in the text too)."""

    id = "plant"

    def __init__(self, value: str) -> None:
        self.value = value

    @hookimpl
    def process_output_result(self, result: Any) -> None:
        if result.object is not None:
            result.object = map_strings(result.object, lambda s: s.replace(MARK, self.value))


def _structured_agent(guard: Processor, value: str, guard_first: bool) -> Agent:
    """An agent whose structured answer carries ``value`` in nested fields, put there
    after the text was parsed (``Plant``)."""
    from tripwire.plugins.structured_output import StructuredOutput

    text = f'{{"note": "it is {MARK}", "items": [{{"deep": ["{MARK}"]}}]}}'
    so = StructuredOutput({"type": "object"}, strategy="warn")
    outputs = [guard, so, Plant(value)] if guard_first else [so, Plant(value), guard]
    return Agent(id="a", model=MockModel([MockResponse(text=text)]), instructions=SYSTEM,
                 input_processors=[so],
                 output_processors=outputs, default_error_processors=False)


@pytest.mark.parametrize("guard_first", [True, False])
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_the_value_in_the_structured_object_never_reaches_the_caller(
        guard: str, strategy: str, guard_first: bool) -> None:
    """The object holds a value the streamed text never showed: the guard checks it as
    it checks a tool call's arguments, and ``result.object`` is what it left."""
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


# ------------------------------------------------ the structured object as a class instance
# structured-output with an attrs class gives result.object as an instance of it (cattrs),
# and any processor may set a dataclass: the guards walk their fields (tripwire.guards.values), and
# a masked object keeps the user's classes, frozen ones included.


@attrs.frozen
class _Leaf:
    value: str
    tags: tuple[str, ...] = ()


@attrs.define
class _Group:
    leaves: list[_Leaf]
    notes: dict[str, str]


@attrs.define
class _Answer:
    note: str
    groups: list[_Group]


@attrs.frozen
class _FrozenAnswer:
    note: str
    groups: list[_Group]


@dataclasses.dataclass(frozen=True)
class _DCLeaf:
    value: str
    tags: tuple[str, ...] = ()


@dataclasses.dataclass
class _DCGroup:
    leaves: list[_DCLeaf]
    notes: dict[str, str]


@dataclasses.dataclass
class _DCAnswer:
    note: str
    groups: list[_DCGroup]


#: Per shape: the class result.object is, and the class of its leaves.
SHAPES: dict[str, tuple[type, type]] = {
    "attrs": (_Answer, _Leaf), "frozen-attrs": (_FrozenAnswer, _Leaf),
    "dataclass": (_DCAnswer, _DCLeaf)}


class AsDataclass(Processor):
    """Structures the parsed object into a dataclass (cattrs), as a user's processor might."""

    id = "as-dataclass"

    @hookimpl
    def process_output_result(self, result: Any) -> None:
        if result.object is not None:
            result.object = cattrs.structure(result.object, _DCAnswer)


def _instance_agent(guard: Processor, value: str, shape: str, guard_first: bool) -> Agent:
    """An agent whose structured answer is an instance of ``SHAPES[shape]`` carrying
    ``value`` in a field, in nested instances in lists, a tuple, a dict key and value,
    put there after the text was parsed (``Plant``)."""
    from tripwire.plugins.structured_output import StructuredOutput

    v = MARK
    text = (f'{{"note": "it is {v}", "groups": [{{"leaves": [{{"value": "x"}}, '
            f'{{"value": "{v}", "tags": ["a", "{v}"]}}], "notes": {{"{v}": "{v}"}}}}]}}')
    so: list[Processor] = ([StructuredOutput({"type": "object"}, strategy="warn"), AsDataclass()]
                           if shape == "dataclass" else
                           [StructuredOutput(SHAPES[shape][0], strategy="warn")])
    outputs = [guard, *so, Plant(value)] if guard_first else [*so, Plant(value), guard]
    return Agent(id="a", model=MockModel([MockResponse(text=text)]), instructions=SYSTEM,
                 input_processors=so[:1],
                 output_processors=outputs, default_error_processors=False)


@pytest.mark.parametrize("guard_first", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_the_value_in_a_structured_instance_never_reaches_the_caller(
        guard: str, strategy: str, shape: str, guard_first: bool) -> None:
    """An attrs (frozen or not) or dataclass object, nested instances in lists: the
    guard checks every field at any depth, on the ``object-result`` chunk, ``await
    stream.object`` and ``result.object``; a masked object keeps its classes."""
    value, strategies = GUARDS[guard]
    cls, leaf = SHAPES[shape]
    stream = _instance_agent(strategies[strategy](), value, shape, guard_first).stream("hi")
    chunks = [c async for c in stream]
    assert value not in repr([c for c in chunks if c.type == "object-result"])
    assert value not in repr(await stream.object)
    result = await _instance_agent(strategies[strategy](), value, shape,
                                   guard_first).generate("hi")
    assert value not in repr(result.object)
    assert (result.tripwire is not None) == (strategy == "block")
    if strategy in ("block", "filter"):
        assert result.object is None
    else:
        obj = result.object
        assert isinstance(obj, cls) and isinstance(obj.groups[0].leaves[1], leaf)
        assert obj.groups[0].leaves[0].value == "x" and obj.groups[0].leaves[1].tags[0] == "a"
        assert obj.note.startswith("it is ") and len(obj.groups[0].notes) == 1


def _with_placeholders(token: str) -> _FrozenAnswer:
    return _FrozenAnswer(token, [_Group([_Leaf(token, (token,))], {token: "x"})])


class SetsObject(Processor):
    """Sets result.object from the stored response (placeholders, with tokenize)."""

    id = "sets-object"

    @hookimpl
    def process_output_result(self, messages: Any, result: Any) -> None:
        result.object = _with_placeholders(messages[-1].text)


@pytest.mark.parametrize("sets_first", [True, False])
async def test_tokenize_restores_the_values_in_a_structured_instance(sets_first: bool) -> None:
    """pii-detector's tokenize: placeholders in an attrs object (frozen, nested in a
    list, a tuple, a dict key) are the caller's values again in ``result.object``,
    ``await stream.object`` and the ``object-result`` chunk."""
    def agent() -> Agent:
        pii = PIIDetector(detection_types=["email"], strategy="tokenize")
        outputs = [SetsObject(), pii] if sets_first else [pii, SetsObject()]
        return Agent(id="a", model=MockModel([MockResponse(text="<EMAIL_1>")]),
                     input_processors=[pii], output_processors=outputs,
                     default_error_processors=False)

    expected = _with_placeholders(EMAIL)
    result = await agent().generate(f"I am {EMAIL}")
    assert result.messages[-1].text == "<EMAIL_1>" and result.object == expected
    stream = agent().stream(f"I am {EMAIL}")
    chunks = [c async for c in stream]
    assert [c.payload["object"] for c in chunks if c.type == "object-result"] == [expected]
    assert await stream.object == expected


@attrs.frozen
class _Code:
    code: str = attrs.field(validator=attrs.validators.matches_re(r"[a-z0-9]+"))


async def test_an_instance_whose_validator_rejects_the_masked_value_fails_closed() -> None:
    """Masked, the object no longer validates: the run fails (a ``ProcessorError``) and
    the value reaches neither the caller nor the client."""
    from tripwire.errors import ProcessorError
    from tripwire.plugins.structured_output import StructuredOutput

    def agent() -> Agent:
        so = StructuredOutput(_Code)
        text = f'{{"code": "{MARK}"}}'
        return Agent(id="a", model=MockModel([MockResponse(text=text)]), input_processors=[so],
                     output_processors=[so, Plant(KEYWORD),
                                        KeywordGuard(patterns=[KEYWORD], strategy="mask")],
                     default_error_processors=False)

    with pytest.raises(ProcessorError, match="could not rebuild _Code") as caught:
        await agent().generate("hi")
    assert KEYWORD not in str(caught.value)
    stream = agent().stream("hi")
    chunks: list[Chunk] = []
    with pytest.raises(ProcessorError):
        async for c in stream:
            chunks.append(c)
    assert KEYWORD not in repr(chunks)
