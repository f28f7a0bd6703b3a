"""What a tool returns: a generator (sync or async) is read into a list; a value with no
JSON form is the tool's error where it returned (as for a tool that raised), never a
failure of a later processor nor its ``repr`` shown to the model; bytes and bytearrays
come back from every store as such, and the model reads the same text for a result on
the turn the tool ran and on a later turn that loads it from memory."""

from __future__ import annotations

import dataclasses
import json
import math
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tripwire import (
    Agent,
    Memory,
    Message,
    MessageContent,
    ToolInvocation,
    ToolInvocationPart,
    tool,
)
from tripwire.messages.serde import message_from_dict, message_to_dict
from tripwire.models.wire import tool_output_text
from tripwire.testing import MockModel, MockResponse
from tripwire.tools import ToolResultError, check_result

T1 = {"thread": "t1", "resource": "ann"}


def gen_rows():
    yield {"id": 1}
    yield {"id": 2}


async def agen_rows():
    yield {"id": 1}
    yield {"id": 2}


@attrs.define
class Point:
    x: int
    when: date = date(2020, 1, 2)


@dataclasses.dataclass
class Row:
    id: int
    raw: bytes = b"r"


async def run(fn: Any, *, stream: bool, memory: str | None, turns: int = 1) -> tuple[Any, list, MockModel]:
    """One agent whose model calls tool ``t`` (running ``fn``) once, then answers; the
    result of the first run, its chunks (stream only) and the model."""
    t = tool(name="t", description="the tool")(fn)
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "t", "args": {}, "tool_call_id": "c1"}]),
                       *[f"done {i}" for i in range(turns)]])
    options: dict[str, Any] = {"memory": Memory(memory)} if memory else {}
    call: dict[str, Any] = {"memory": T1} if memory else {}
    async with Agent(id="a", model=model, tools=[t], default_error_processors=False,
                     **options) as agent:
        chunks: list = []
        if stream:
            handle = agent.stream("go", **call)
            chunks = [c async for c in handle]
            result = await handle.result
        else:
            result = await agent.generate("go", **call)
        for i in range(1, turns):
            await agent.generate(f"more {i}", **call)
    return result, chunks, model


def outputs(model: MockModel, i: int) -> list[Any]:
    """The tool results in the model's ``i``-th prompt."""
    return [p["output"] for m in model.requests[i].prompt if m["role"] == "tool"
            for p in m["content"]]


@pytest.fixture(params=[False, True], ids=["generate", "stream"])
def stream(request):
    return request.param


@pytest.fixture(params=[None, "sqlite"], ids=["no-memory", "memory"])
def memory(request, tmp_path):
    return None if request.param is None else f"sqlite:///{tmp_path}/chat.db"


@pytest.mark.parametrize("fn", [gen_rows, agen_rows], ids=["generator", "async-generator"])
async def test_a_generator_tool_result_is_read_into_a_list(fn, stream, memory):
    result, chunks, model = await run(fn, stream=stream, memory=memory, turns=2)
    rows = [{"id": 1}, {"id": 2}]
    assert result.tool_results[0].result == rows
    assert result.tool_results[0].is_error is False
    assert outputs(model, 1) == [rows]
    if stream:
        assert next(c for c in chunks if c.type == "tool-result").payload["result"] == rows
    if memory:
        assert outputs(model, 2) == [rows]  # read back from the store


class Opaque:
    def __repr__(self) -> str:
        return "<Opaque at 0x1>"


@pytest.mark.parametrize("value, kind", [
    (Opaque(), "Opaque"),
    ({"rows": [Opaque()]}, "dict"),
    (math.nan, "float"),
    ({"n": math.inf}, "dict"),
    (iter([1, 2]), "list_iterator"),
    # keys JSON would turn into text: the model would read {"1": "a", "1": "b"} on the
    # turn the tool ran and {"1": "b"} from memory on every later one
    ({1: "a", "1": "b"}, "dict"),
    ({"rows": [{True: 1}]}, "dict"),
    (Point({None: 2}), "Point"),
])
async def test_a_tool_result_with_no_json_form_is_the_tools_error(value, kind, stream, memory):
    result, chunks, model = await run(lambda: value, stream=stream, memory=memory, turns=2)
    error = result.tool_results[0].result
    assert result.tool_results[0].is_error is True
    assert error.startswith(f"ToolResultError: tool 't' returned a value of type {kind} ")
    assert "a tool returns str, int" in error and "<Opaque" not in error
    assert outputs(model, 1) == [error]
    assert result.text == "done 0"  # the run goes on, as after a tool that raised
    if stream:
        assert [c.payload["error"] for c in chunks if c.type == "tool-error"] == [error]
        assert not [c for c in chunks if c.type == "tool-result"]
    if memory:
        assert outputs(model, 2) == [error]


def test_a_tool_that_returns_a_generator_of_bad_values_names_what_is_wrong():
    from tripwire.tools import ToolResultError, check_result

    with pytest.raises(ToolResultError, match=r"tool 'lookup' returned a value of type list "
                                              r".*Object of type Opaque is not JSON serializable"):
        check_result("lookup", [1, Opaque()])


@pytest.mark.parametrize("value", [b"found it", bytearray(b"found it"), b"\xff\x00png",
                                   {"blob": b"\x00\x01", "$bytes": "not a tag"},
                                   {"$bytes": "QQ=="}, [bytearray(b"a"), b"b"]],
                         ids=["bytes", "bytearray", "binary", "nested", "tag-shaped", "list"])
async def test_bytes_come_back_from_memory_as_bytes_and_the_model_reads_the_same(value, stream, tmp_path):
    result, _, model = await run(lambda: value, stream=stream, memory=f"sqlite:///{tmp_path}/c.db",
                                 turns=2)
    assert repr(result.tool_results[0].result) == repr(value)
    first, later = outputs(model, 1), outputs(model, 2)
    assert repr(later) == repr(first) == repr([value])
    assert tool_output_text(later[0]) == tool_output_text(first[0])


def test_the_model_reads_bytes_as_their_text_and_objects_as_their_fields():
    assert tool_output_text(b"found jane") == "found jane"
    assert tool_output_text(bytearray(b"found")) == "found"
    assert tool_output_text(b"\xff\x00") == "/wA="  # not text: base64
    assert json.loads(tool_output_text({"blob": b"hi"})) == {"blob": "hi"}
    assert json.loads(tool_output_text(Point(1))) == {"x": 1, "when": "2020-01-02"}
    assert json.loads(tool_output_text(Row(3))) == {"id": 3, "raw": "r"}


@pytest.mark.parametrize("value, stored", [
    (Point(1), {"x": 1, "when": "2020-01-02"}),
    (Row(3, b"\x00"), {"id": 3, "raw": b"\x00"}),
    ((1, 2), [1, 2]),
    (datetime(2020, 1, 2, tzinfo=UTC), "2020-01-02T00:00:00+00:00"),
    (Path("/srv/data/report.csv"), "/srv/data/report.csv"),
    ({3, 1, 2}, [1, 2, 3]),
])
async def test_attrs_dataclass_and_other_results_keep_their_stored_form(value, stored, stream, tmp_path):
    result, _, model = await run(lambda: value, stream=stream, memory=f"sqlite:///{tmp_path}/c.db",
                                 turns=2)
    assert result.tool_results[0].result == value  # the object, for the caller
    assert outputs(model, 2) == [stored]           # read back from the store
    assert tool_output_text(outputs(model, 1)[0]) == tool_output_text(outputs(model, 2)[0])


def _invocation_message(result: Any) -> Message:
    return Message(id="m1", role="assistant", created_at=datetime(2024, 1, 1, tzinfo=UTC),
                   content=MessageContent(parts=[ToolInvocationPart(
                       ToolInvocation("result", "c1", "t", {}, result))]))


tag_keys = st.sampled_from(["$bytes", "$bytearray", "$dict"]) | st.text(max_size=4)
tool_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=6)
    | st.binary(max_size=6) | st.binary(max_size=6).map(bytearray),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tag_keys, inner, max_size=2),
    max_leaves=8,
)


@given(value=tool_values)
def test_a_tool_result_round_trips_through_the_stored_form(value):
    body = json.loads(json.dumps(message_to_dict(_invocation_message(value)), allow_nan=False))
    back = message_from_dict(body).content.parts[0].tool_invocation.result
    assert repr(back) == repr(value)


# (keys whose JSON text is another key's: 1 and "1", True and "true", None and "null")
any_keys = st.sampled_from(["a", "1", 1, "true", True, "null", None, 1.5, "1.5", "false"])
any_values = st.recursive(
    st.none() | st.booleans() | st.integers(-9, 9) | st.text(max_size=4)
    | st.binary(max_size=4) | st.dates() | st.just(Path("/tmp/x")),
    lambda inner: (st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
                   | st.frozensets(st.integers(-9, 9) | st.text(max_size=3), max_size=3)
                   | st.dictionaries(any_keys, inner, max_size=3)),
    max_leaves=8,
)


@given(value=any_values)
@example({1: "a", "1": "b"})
@example({"rows": [{None: 1, "null": 2}]})
def test_a_result_the_tool_check_takes_reads_the_same_from_memory(value):
    """A value a tool may return (``check_result`` takes it) reads the same to the
    model on the turn the tool ran as after the store gave it back; any other is the
    tool's ``ToolResultError``."""
    try:
        check_result("t", value)
    except ToolResultError:
        return
    body = json.loads(json.dumps(message_to_dict(_invocation_message(value)), allow_nan=False))
    back = message_from_dict(body).content.parts[0].tool_invocation.result
    assert tool_output_text(back) == tool_output_text(value)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=tool_values)
async def test_a_tool_result_round_trips_through_every_store(make_store, value):
    async with make_store() as store:
        await store.save_messages("t-bytes", "ann", [_invocation_message(value)])
        (loaded,) = await store.last_messages("t-bytes", 5)
    assert repr(loaded.content.parts[0].tool_invocation.result) == repr(value)
