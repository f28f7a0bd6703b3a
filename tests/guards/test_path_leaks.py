"""A value the output guards hide, on the paths less travelled. For each guard and
strategy, stream and generate: the value reaches neither the client (the chunks) nor the
caller (the result, its steps and messages) nor the memory store.

A retried step: the ``step-retry`` chunk, the feedback the model gets, the tripwire a
run that ran out of retries ends with, ``result.steps[i].tripwire``, with the model
spelling the value with JSON escapes (``"jane.doe\\u0040example.com"``), which
``structured-output`` parses and would quote back in its errors: the guards see the
text with its escapes decoded and hide the value there too.

A tool's result as bytes (``b"found ..."``; the model gets its text).
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.helpers import SYSTEM, DroppedOnce, Moderator, output_guards, run_collected
from tripwire import Agent, Chunk, tool
from tripwire.caches import encode_chunks
from tripwire.caches.memory import MemoryCache
from tripwire.guards.values import strings
from tripwire.memory import Memory
from tripwire.plugins.moderation import Moderation
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.response_cache import ResponseCache
from tripwire.plugins.structured_output import StructuredOutput
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber
from tripwire.testing import MockModel, MockResponse

EMAIL = "jane.doe@example.com"

#: Every output guard: the value it hides, a guard for each strategy (moderation's
#: value is a word its judge flags, system-prompt-scrubber's a quote of ``SYSTEM``).
ALL_GUARDS = output_guards()
ALL_CELLS = [(g, s) for g, (_, strategies) in ALL_GUARDS.items() for s in strategies]
#: The guards the retry, bytes and run-emitted-chunk tests below cover.
GUARDS = {g: ALL_GUARDS[g] for g in ("pii-detector", "regex-filter", "keyword-guard")}
CELLS = [(g, s) for g, (_, strategies) in GUARDS.items() for s in strategies]

SCHEMA = {
    "type": "object",
    "properties": {"age": {"type": "integer"}, "kind": {"enum": ["a", "b"]},
                   "code": {"type": "string", "pattern": "^[0-9]+$"},
                   "extra": {"type": "object", "additionalProperties": {"type": "integer"}}},
    "additionalProperties": False,
}


@attrs.frozen
class _Code:
    code: str = attrs.field(validator=attrs.validators.matches_re(r"[0-9]+"))
    notes: dict[str, int] = attrs.Factory(dict)


def _escaped(value: str, at: frozenset[int]) -> str:
    """``value`` in a JSON string with the characters at ``at`` as ``\\uXXXX``."""
    return "".join(f"\\u{ord(c):04x}" if i in at else c for i, c in enumerate(value))


#: Where the answer puts the value (``V``), and the schema it answers.
SHAPES: dict[str, tuple[str, Any]] = {
    "wrong-type": ('{"age": "V"}', SCHEMA),
    "not-in-enum": ('{"kind": "V"}', SCHEMA),
    "pattern": ('{"code": "V"}', SCHEMA),
    "unexpected-key": ('{"V": 1}', SCHEMA),
    "key-on-the-path": ('{"extra": {"V": "x"}}', SCHEMA),
    "class-validator": ('{"code": "V"}', _Code),
    "class-dict-key": ('{"code": "1", "notes": {"V": "x"}}', _Code),
}


def _agent(guard: Any, shape: str, value: str, at: frozenset[int]) -> tuple[Agent, MockModel]:
    """An agent whose model answers twice with ``value`` escaped at ``at``, once more
    than ``max_processor_retries`` allows."""
    template, schema = SHAPES[shape]
    text = template.replace("V", _escaped(value, at))
    model = MockModel([MockResponse(text=text), MockResponse(text=text)])
    so = StructuredOutput(schema)
    return Agent(id="a", model=model, input_processors=[so], output_processors=[guard, so],
                 max_processor_retries=1, default_error_processors=False), model


async def _check(guard: str, strategy: str, shape: str, at: frozenset[int]) -> None:
    value, strategies = GUARDS[guard]
    agent, model = _agent(strategies[strategy](), shape, value, at)
    stream = agent.stream("hi")
    chunks: list[Chunk] = [c async for c in stream]
    assert value not in repr(chunks)
    assert any(c.type == "tripwire" for c in chunks)
    assert value not in repr(await stream.steps)
    agent, model = _agent(strategies[strategy](), shape, value, at)
    result = await agent.generate("hi")
    assert result.tripwire is not None
    seen = (repr(result.tripwire) + repr(result.steps) + repr(result.messages)
            + repr(result.message_list.all.db()) + result.text)
    assert value not in seen
    # the feedback the model got (when the guards let the first answer through)
    for request in model.requests[1:]:
        assert value not in json.dumps(request.prompt, default=repr)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_a_value_spelled_with_escapes_is_not_quoted_back_by_a_retry(
        guard: str, strategy: str, shape: str) -> None:
    """Every character escaped."""
    await _check(guard, strategy, shape, frozenset(range(len(GUARDS[guard][0]))))


@given(cell=st.sampled_from(CELLS), shape=st.sampled_from(sorted(SHAPES)),
       at=st.sets(st.integers(0, len(EMAIL) - 1), min_size=1))
@settings(max_examples=60, deadline=None)
def test_any_escaped_character_keeps_the_value_out_of_a_retry(
        cell: tuple[str, str], shape: str, at: set[int]) -> None:
    """Any characters escaped."""
    guard, strategy = cell
    value = GUARDS[guard][0]
    asyncio.run(_check(guard, strategy, shape, frozenset(i % len(value) for i in at)))


#: pii-detector checking the stored step only (no stream phase), listed before
#: structured-output: the response the caller gets is the stored one.
STEP_GUARDS = {s: (lambda s=s: PIIDetector(detection_types=["email"], strategy=s,
                                           phases=["step"]))
               for s in ("redact", "filter")}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("strategy", STEP_GUARDS)
async def test_a_value_a_step_guard_hid_is_not_quoted_back_by_a_retry(
        strategy: str, shape: str) -> None:
    """The guard redacted (or removed) the stored step before structured-output read
    it: the retry's reason (the step-retry and tripwire chunks, ``result.tripwire``,
    each step's tripwire, the feedback kept in the messages) does not bring it back."""
    agent, model = _agent(STEP_GUARDS[strategy](), shape, EMAIL, frozenset())
    stream = agent.stream("hi")
    told = [c async for c in stream if c.type in ("step-retry", "tripwire")]
    assert [c.type for c in told] == ["step-retry", "tripwire"]
    assert EMAIL not in repr(told)
    agent, model = _agent(STEP_GUARDS[strategy](), shape, EMAIL, frozenset())
    result = await agent.generate("hi")
    assert result.tripwire is not None
    seen = (repr(result.tripwire) + repr([s.tripwire for s in result.steps])
            + repr(result.messages) + repr(result.message_list.all.db()) + result.text)
    assert EMAIL not in seen
    for request in model.requests[1:]:
        assert EMAIL not in json.dumps(request.prompt, default=repr)


async def test_what_the_answer_shows_as_written_is_still_quoted() -> None:
    """Strings the text shows as written (the guards saw them) stay in the feedback:
    the model is told which key was unexpected and which value is wrong."""
    model = MockModel(['{"age": "old", "zone": 1}', '{"age": 3}'])
    so = StructuredOutput(SCHEMA)
    agent = Agent(id="a", model=model, input_processors=[so], output_processors=[so],
                  max_processor_retries=1, default_error_processors=False)
    result = await agent.generate("hi")
    assert result.object == {"age": 3}
    feedback = json.dumps(model.requests[1].prompt)
    assert "$.age: 'old' is not of type 'integer'" in feedback
    assert "('zone' was unexpected)" in feedback


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_a_retried_attempt_is_not_read_as_the_end_of_the_discarded_one(
        guard: str, strategy: str, mode: str) -> None:
    """The stream broke with half of a value held; the retried answer starts with the
    other half. The guard reads it on its own (the client never saw the first half):
    it passes as the model wrote it, neither redacted nor blocked."""
    from tripwire.plugins.stream_error_retry import StreamErrorRetry

    value, strategies = GUARDS[guard]
    half = len(value) // 2
    retried = value[half:] + " is the rest."
    agent = Agent(id="a", model=DroppedOnce(["Hello ", value[:half]], [retried]),
                  output_processors=[strategies[strategy]()],
                  error_processors=[StreamErrorRetry(max_retries=1, delay_ms=0)],
                  default_error_processors=False)
    chunks, result = await run_collected(agent, "hi", mode == "stream")
    assert result.tripwire is None and result.text == retried
    retry = next(i for i, c in enumerate(chunks) if c.type == "step-retry") if chunks else 0
    assert "".join(c.payload["text"] for c in chunks[retry:] if c.type == "text-delta") == (
        retried if mode == "stream" else "")


# ---------------------------------------------------------------- a tool's result as bytes


@attrs.define
class _Found:
    who: str
    raw: bytes


#: How the tool returns the value ``V``.
RESULTS: dict[str, Any] = {
    "bytes": lambda v: f"found {v}".encode(),
    "bytes-in-a-dict": lambda v: {"rows": [f"{v}".encode()]},
    "bytes-in-an-attrs-object": lambda v: _Found("x", f"<{v}>".encode()),
}


def _tool_agent(guard: Any, result: Any, memory: Memory) -> Agent:
    @tool
    def lookup(query: str) -> Any:
        """Look a user up."""
        return result

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"},
                                                "tool_call_id": "c1"}]), "Done."])
    return Agent(id="a", model=model, tools=[lookup], output_processors=[guard],
                 memory=memory, default_error_processors=False)


def _stored(messages: list[Any]) -> str:
    """The stored messages as text, bytes included: the store keeps bytes as base85
    text (tripwire's converter), decoded here."""
    texts = [repr(messages)]
    for text in strings([m.content for m in messages]):
        try:
            texts.append(base64.b85decode(text).decode("utf-8", errors="replace"))
        except ValueError:
            pass
    return "\n".join(texts)


@pytest.mark.parametrize("shape", RESULTS)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_a_tool_result_as_bytes_is_checked_as_its_text(
        guard: str, strategy: str, shape: str) -> None:
    value, strategies = GUARDS[guard]
    result_value = RESULTS[shape](value)
    memory = Memory(store="memory://")
    stream = _tool_agent(strategies[strategy](), result_value, memory).stream(
        "hi", memory={"thread": "t1", "resource": "r"})
    chunks = [c async for c in stream]
    assert value not in repr(chunks)
    assert (any(c.type == "tripwire" for c in chunks)) == (strategy == "block")
    result = await _tool_agent(strategies[strategy](), result_value, memory).generate(
        "hi", memory={"thread": "t2", "resource": "r"})
    seen = (repr(result.steps) + repr(result.messages) + repr(result.tool_results)
            + repr(result.message_list.all.db()) + result.text)
    assert value not in seen
    for thread in ("t1", "t2"):
        assert value not in _stored(await memory.store.last_messages(thread, 100))
    if strategy not in ("block", "filter"):  # masked in place, the type kept
        assert type(result.tool_results[0].result) is type(result_value)


# ------------------------------------------------ a model's chunk of a type the run emits


#: A chunk of each type only the run emits, as a model (a provider plugin, a replayed
#: stream) might send it, carrying ``V``.
RUN_CHUNKS: dict[str, Any] = {
    "step-start": lambda v: Chunk("step-start", {"step_number": 0, "note": v}),
    "step-finish": lambda v: Chunk("step-finish", {"finish_reason": "stop", "note": v}),
    "step-retry": lambda v: Chunk("step-retry", {"step_number": 0, "reason": v,
                                                 "processor_id": None, "retry_count": 1}),
    "tripwire": lambda v: Chunk("tripwire", {"reason": v, "retry": False, "metadata": None,
                                             "processor_id": "guard"}),
    "error": lambda v: Chunk("error", {"error": f"failed on {v}"}),
    "object-result": lambda v: Chunk("object-result", {"object": {"who": v}}),
    "tool-result": lambda v: Chunk("tool-result", {"tool_call_id": "c9", "tool_name": "search",
                                                   "result": {"hits": [v]}}),
    "tool-error": lambda v: Chunk("tool-error", {"tool_call_id": "c9", "tool_name": "search",
                                                 "error": f"no page for {v}"}),
}


@pytest.mark.parametrize("kind", RUN_CHUNKS)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_a_model_cannot_send_a_chunk_of_a_type_the_run_emits(
        guard: str, strategy: str, kind: str) -> None:
    """The guards read those by their keys as the run's own word (a tripwire's reason,
    a retry that tells the client to discard what it showed): one from the model is a
    malformed chunk, an ``APICallError`` naming the type, and reaches nobody."""
    from tripwire import APICallError

    value, strategies = GUARDS[guard]

    def agent() -> Agent:
        model = MockModel([MockResponse(chunks=[
            Chunk("text-delta", {"id": "t", "text": "Fine. "}), RUN_CHUNKS[kind](value),
            Chunk("finish", {"finish_reason": "stop"})])])
        return Agent(id="a", model=model, output_processors=[strategies[strategy]()],
                     default_error_processors=False)

    chunks: list[Chunk] = []
    with pytest.raises(APICallError, match=f"cannot be of type '{kind}'") as caught:
        async for c in agent().stream("hi"):
            chunks.append(c)
    assert value not in repr(chunks) + str(caught.value)
    assert chunks[-1].type == "error" and chunks[-1].payload["error"] is caught.value
    with pytest.raises(APICallError, match="sent a malformed chunk") as caught:
        await agent().generate("hi")
    assert value not in str(caught.value)


class _Shared(MemoryCache):
    """A shared cache backend someone else wrote ``entry`` to: every read returns it."""

    def __init__(self, entry: bytes) -> None:
        super().__init__()
        self.entry = entry

    async def get(self, key: str) -> bytes | None:
        return self.entry


@pytest.mark.parametrize("kind", RUN_CHUNKS)
@pytest.mark.parametrize(("guard", "strategy"), CELLS)
async def test_a_cache_entry_cannot_carry_a_chunk_of_a_type_the_run_emits(
        guard: str, strategy: str, kind: str) -> None:
    """``response-cache`` replays what a model sent: an entry holding a chunk only the
    run emits (which no model step can have written) is a miss, and the model answers;
    the chunk never passes for the run's own word (a ``tool-result``, a ``step-retry``)
    past the guards that read those by their keys."""
    value, strategies = GUARDS[guard]
    entry = encode_chunks([Chunk("text-delta", {"id": "t", "text": "Fine. "}),
                           RUN_CHUNKS[kind](value), Chunk("finish", {"finish_reason": "stop"})])

    def agent() -> Agent:
        return Agent(id="a", model=MockModel(["live"]),
                     input_processors=[ResponseCache(cache=_Shared(entry))],
                     output_processors=[strategies[strategy]()],
                     default_error_processors=False)

    streamed = agent()
    stream = streamed.stream("hi")
    chunks = [c async for c in stream]
    assert value not in repr(chunks) + repr(await stream.steps)
    assert len(streamed.model.requests) == 1
    generated = agent()
    result = await generated.generate("hi")
    assert result.text == "live" and len(generated.model.requests) == 1
    assert value not in repr(result.steps) + repr(result.messages)


# ------------------------------------- what a provider adds to a text or tool-call chunk


#: A model's chunks with the value in a key besides the ones the run defines: a
#: provider's ``provider_metadata`` (a citation's quoted text), a key a plugin added.
EXTRAS: dict[str, Any] = {
    "text-metadata": lambda v: [Chunk("text-delta", {"id": "t", "text": "See. ",
                                                     "provider_metadata": {"cite": [v]}})],
    "text-extra-key": lambda v: [Chunk("text-delta", {"id": "t", "text": "See. ",
                                                      "annotation": {v: 1}})],
    "reasoning-metadata": lambda v: [
        Chunk("reasoning-delta", {"id": "r", "text": "hm",
                                  "provider_metadata": {"x": {"note": v}}}),
        Chunk("text-delta", {"id": "t", "text": "See. "})],
    "tool-call-metadata": lambda v: [Chunk("tool-call", {
        "tool_call_id": "c1", "tool_name": "lookup", "args": {"query": "q"},
        "provider_metadata": {"why": v}})],
    "finish-metadata": lambda v: [Chunk("text-delta", {"id": "t", "text": "See. "})],
}


def _extras_agent(guard: Any, case: str, value: str, memory: Memory) -> Agent:
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return "nothing"

    finish: dict[str, Any] = {"finish_reason": "stop"}
    if case == "finish-metadata":
        finish["provider_metadata"] = {"citations": [{"cited_text": f"by {value}"}]}
    chunks = EXTRAS[case](value)
    if chunks[-1].type == "tool-call":
        finish["finish_reason"] = "tool-calls"
    model = MockModel([MockResponse(chunks=[*chunks, Chunk("finish", finish)]), "Done."])
    return Agent(id="a", model=model, tools=[lookup], output_processors=[guard],
                 instructions=SYSTEM, memory=memory, default_error_processors=False)


@pytest.mark.parametrize("case", EXTRAS)
@pytest.mark.parametrize(("guard", "strategy"), ALL_CELLS)
async def test_what_a_provider_adds_to_a_chunk_is_checked(
        guard: str, strategy: str, case: str) -> None:
    """The chunk (and ``result.steps[i].provider_metadata``, the stored reasoning's)
    carries it checked: masked, dropped (``filter``: that key's value) or blocked."""
    value, strategies = ALL_GUARDS[guard]
    memory = Memory(store="memory://")
    stream = _extras_agent(strategies[strategy](), case, value, memory).stream(
        "hi", memory={"thread": "t1", "resource": "r"})
    chunks = [c async for c in stream]
    assert value not in repr(chunks)
    assert (any(c.type == "tripwire" for c in chunks)) == (strategy == "block")
    assert value not in repr(await stream.steps)
    result = await _extras_agent(strategies[strategy](), case, value, memory).generate(
        "hi", memory={"thread": "t2", "resource": "r"})
    seen = (repr(result.steps) + repr(result.messages) + repr(result.message_list.all.db())
            + result.text)
    assert value not in seen
    for thread in ("t1", "t2"):
        assert value not in repr(await memory.store.last_messages(thread, 100))


@pytest.mark.parametrize(("guard", "strategy"), [c for c in ALL_CELLS if c[1] != "block"])
async def test_clean_provider_metadata_passes_unchanged(guard: str, strategy: str) -> None:
    """A reasoning signature and the step's metadata, clean, reach the client, the
    stored reasoning part and ``result.steps`` as they were."""
    signature = {"anthropic": {"signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDYFi"}}
    usage = {"anthropic": {"cache_read_input_tokens": 12}}
    model = MockModel([MockResponse(chunks=[
        Chunk("reasoning-delta", {"id": "r", "text": "hm", "provider_metadata": signature}),
        Chunk("text-delta", {"id": "t", "text": "Fine."}),
        Chunk("finish", {"finish_reason": "stop", "provider_metadata": usage})])])
    agent = Agent(id="a", model=model, output_processors=[ALL_GUARDS[guard][1][strategy]()],
                  instructions=SYSTEM, default_error_processors=False)
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    assert [c.payload.get("provider_metadata") for c in chunks
            if c.type in ("reasoning-delta", "step-finish")] == [signature, usage]
    result = await stream.result
    assert result.steps[0].provider_metadata == usage
    reasoning = result.messages[-1].content.parts[0]
    assert reasoning.provider_metadata == signature


@pytest.mark.parametrize("case", ["text-metadata", "finish-metadata"])
@pytest.mark.parametrize("guard", ["pii-detector", "moderation", "system-prompt-scrubber"])
async def test_filter_drops_what_a_provider_adds_and_keeps_the_chunk(
        guard: str, case: str) -> None:
    """``filter`` drops the added key's value, not the text the chunk carries."""
    value, strategies = ALL_GUARDS[guard]
    memory = Memory(store="memory://")
    result = await _extras_agent(strategies["filter"](), case, value, memory).generate("hi")
    assert result.text.startswith("See.")
    if case == "finish-metadata":
        assert result.steps[0].provider_metadata is None
    else:
        assert [v.channel for v in result.verdicts] == ["output"]


@pytest.mark.parametrize("case", ["text-metadata", "tool-call-metadata", "finish-metadata"])
@pytest.mark.parametrize("guard", ["moderation", "system-prompt-scrubber"])
async def test_warn_reports_what_a_provider_adds(guard: str, case: str) -> None:
    """``warn`` changes nothing and reports a verdict on it."""
    value = ALL_GUARDS[guard][0]
    warn = (Moderation(Moderator(), strategy="warn") if guard == "moderation"
            else SystemPromptScrubber(strategy="warn"))
    stream = _extras_agent(warn, case, value, Memory(store="memory://")).stream("hi")
    assert value in repr([c async for c in stream])
    result = await stream.result
    assert [(v.processor_id, v.channel, v.action) for v in result.verdicts] == [
        (guard, "output", "warned")]
