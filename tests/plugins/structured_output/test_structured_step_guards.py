"""structured-output beside a guard that checks the stored step only (``pii-detector``
with ``phases=["step"]``): the object is parsed from the streamed text, which that
guard did not change, so the guard checks the object too. What the caller gets as
``result.object``, ``await stream.object`` and the ``object-result`` chunk holds no
more than the stored step does: a value redacted there is redacted in the object, a
value filtered there leaves no object. ``tokenize`` still gives the caller the values.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire import Agent, Chunk
from tripwire.guards.values import strings
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.structured_output import StructuredOutput
from tripwire.testing import MockModel

EMAIL = "jane.doe@example.com"
MASKED = "j******e@*******.com"
SCHEMA = {"type": "object", "properties": {"email": {"type": "string"}},
          "required": ["email"]}


@attrs.frozen
class Contact:
    email: str


def _agent(strategy: str, text: str, *, guard_first: bool, schema: Any = SCHEMA,
           store: str = "placeholders") -> Agent:
    pii = PIIDetector(detection_types=["email"], strategy=strategy,  # type: ignore[arg-type]
                      phases=["step"], store=store)  # type: ignore[arg-type]
    so = StructuredOutput(schema)
    guards = [pii, so] if guard_first else [so, pii]
    return Agent(id="a", model=MockModel([text]), input_processors=[so, pii],
                 output_processors=guards, max_processor_retries=1,
                 default_error_processors=False)


async def _run(strategy: str, text: str, guard_first: bool, schema: Any = SCHEMA
               ) -> tuple[list[Chunk], Any, Any]:
    """The object-result chunks and ``await stream.object`` of a stream, and the
    result of a generate."""
    stream = _agent(strategy, text, guard_first=guard_first, schema=schema).stream("hi")
    chunks = [c async for c in stream if c.type == "object-result"]
    streamed = await stream.object
    result = await _agent(strategy, text, guard_first=guard_first,
                          schema=schema).generate("hi")
    return chunks, streamed, result


@pytest.mark.parametrize("schema", [SCHEMA, Contact], ids=["json-schema", "attrs"])
@pytest.mark.parametrize("guard_first", [True, False])
async def test_redact_at_the_step_redacts_the_object(guard_first: bool, schema: Any) -> None:
    chunks, streamed, result = await _run("redact", json.dumps({"email": EMAIL}),
                                          guard_first, schema)
    expected = {"email": MASKED} if schema is SCHEMA else Contact(MASKED)
    assert [c.payload["object"] for c in chunks] == [expected]
    assert streamed == expected
    assert result.object == expected
    assert EMAIL not in result.text
    # the stored step, then the object (channel "result", as the result phase reports it)
    assert [v.channel for v in result.verdicts] == ["step", "result"]


@pytest.mark.parametrize("guard_first", [True, False])
async def test_filter_at_the_step_leaves_no_object(guard_first: bool) -> None:
    chunks, streamed, result = await _run("filter", json.dumps({"email": EMAIL}),
                                          guard_first)
    assert EMAIL not in repr(chunks)
    assert streamed is None
    assert result.object is None and result.text == ""


@pytest.mark.parametrize("guard_first", [True, False])
async def test_a_clean_object_is_untouched(guard_first: bool) -> None:
    chunks, streamed, result = await _run("filter", '{"email": "none"}', guard_first)
    assert [c.payload["object"] for c in chunks] == [{"email": "none"}]
    assert streamed == result.object == {"email": "none"}


@pytest.mark.parametrize("guard_first", [True, False])
async def test_tokenize_at_the_step_still_gives_the_caller_the_values(guard_first: bool) -> None:
    """The stored step holds placeholders; the object (validated against the text the
    client got) holds the values, as ``result.text`` does."""
    pii = PIIDetector(detection_types=["email"], strategy="tokenize",
                      phases=["input", "output", "step", "result"])
    so = StructuredOutput(Contact)
    model = MockModel(['{"email": "<EMAIL_1>"}'])
    agent = Agent(id="a", model=model, input_processors=[so, pii],
                  output_processors=[pii, so] if guard_first else [so, pii],
                  default_error_processors=False)
    result = await agent.generate(f"my mail is {EMAIL}")
    assert EMAIL not in json.dumps(model.requests[0].prompt)
    assert result.object == Contact(EMAIL)
    assert EMAIL in result.text
    assert EMAIL not in repr(result.messages)


#: JSON values holding the email somewhere: as a value, in a list, as a key, nested.
_json = st.recursive(
    st.one_of(st.sampled_from([EMAIL, "x", "", "a b"]), st.integers(-5, 5), st.booleans()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from([EMAIL, "k", "v"]), inner, max_size=3)),
    max_leaves=6)


@given(value=_json, strategy=st.sampled_from(["redact", "filter"]), guard_first=st.booleans(),
       prose=st.sampled_from(["", "Here it is: ", "```json\n"]))
@settings(max_examples=40, deadline=None)
def test_the_email_never_reaches_the_caller_in_the_object(
        value: Any, strategy: str, guard_first: bool, prose: str) -> None:
    schema: dict[str, Any] = {}
    value = {"v": value}
    text = prose + json.dumps(value)
    chunks, streamed, result = asyncio.run(_run(strategy, text, guard_first, schema))
    for obj in [*(c.payload["object"] for c in chunks), streamed, result.object]:
        assert EMAIL not in strings(obj)
    assert EMAIL not in result.text
    if EMAIL not in strings(value):
        assert result.object == value
