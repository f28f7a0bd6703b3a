"""contrib/keyword-guard, the separately published processor, imported from source and
run inside real agent runs (its wheel is installed in a venv in test_packaging.py)."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tripwire.plugins
from tests.support.helpers import CountsText, first_release, keyword_guard, strings, texts
from tripwire import (
    Chunk,
    ConfigurationError,
    Message,
    ProcessorViolation,
    monitor,
    parallel_with_model,
    tool,
)
from tripwire.agent import Agent
from tripwire.testing import MockModel, MockResponse

KeywordGuard = keyword_guard()


def deltas(*texts: str, id: str = "t1") -> MockResponse:
    return MockResponse(chunks=[{"type": "text-delta", "id": id, "text": t} for t in texts])


def text_chunk(text: str, id: str = "t1") -> dict[str, str]:
    return {"type": "text-delta", "id": id, "text": text}


def reasoning_chunk(text: str, id: str = "r1") -> dict[str, str]:
    return {"type": "reasoning-delta", "id": id, "text": text}


async def run(agent: Agent, prompt: str = "hi") -> tuple[list[Chunk], Any]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return chunks, await stream.result






@pytest.fixture
def make_agent_with(make_bare_agent):
    """An agent around ``model`` with these input / output processors (the guard)."""

    def make(model, *, inputs=(), outputs=(), tools=None):
        return make_bare_agent(model=model, input_processors=list(inputs),
                               output_processors=list(outputs), tools=tools)

    return make


def recording_lookup(calls: list[dict[str, Any]], result: Any):
    @tool
    def lookup(query: str, tags: list[str], filters: dict[str, str]) -> Any:
        """Look something up."""
        calls.append({"query": query, "tags": tags, "filters": filters})
        return result

    return lookup


# -------------------------------------------------------- published as a plugin


def test_it_is_created_by_name_through_its_entry_point(fake_distributions):
    fake_distributions.add("tripwire-keyword-guard", "0.1.0").entry_point(
        "keyword-guard", KeywordGuard, value="tripwire_keyword_guard:KeywordGuard"
    )
    entry = tripwire.plugins.available()["keyword-guard"]
    assert entry.hooks == ("process_input", "process_output_stream", "process_tool_result")
    guard = tripwire.plugins.create("keyword-guard", patterns=["x"], strategy="mask",
                                    names=["ex"])
    assert (guard.patterns, guard.strategy, guard.mask, guard.names) == (
        ["x"], "redact", "[REDACTED]", ["ex"])  # "mask" is the alias of "redact"


def test_its_options_are_checked_by_name(fake_distributions):
    fake_distributions.add("tripwire-keyword-guard").entry_point("keyword-guard", KeywordGuard)
    with pytest.raises(ConfigurationError,
                       match="option 'strategy' must be one of 'block', 'redact', 'mask'"):
        tripwire.plugins.create("keyword-guard", patterns=["x"], strategy="redcat")
    with pytest.raises(ConfigurationError, match=r"option 'patterns' expects list\[str\]"):
        tripwire.plugins.create("keyword-guard", patterns="x")
    with pytest.raises(ConfigurationError, match=r"pattern 0 \('\('\) is not a valid regular expr"):
        tripwire.plugins.create("keyword-guard", patterns=["("], regex=True, max_match_length=1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"patterns": []}, "patterns must be a non-empty list of strings, got"),
        ({"patterns": ["a*"], "regex": True, "max_match_length": 5}, "matches the empty string"),
        ({"patterns": [""]}, "each pattern must be a non-empty string, got '' at index 0"),
        ({"patterns": ["a"], "max_match_length": 0}, "max_match_length must be an integer >= 1"),
        ({"patterns": [r"\d+"], "regex": True}, "max_match_length is required with regex"),
        ({"patterns": ["a", "b"], "names": ["x"]}, "names must be a list of 2 different non-emp"),
        ({"patterns": ["a", "b"], "names": ["x", "x"]}, "names must be a list of 2 different"),
        ({"patterns": ["red"], "strategy": "mask"}, "mask '\\[REDACTED\\]' is matched by the pat"),
    ],
)
def test_bad_options_are_rejected_at_construction(options, message):
    with pytest.raises(ValueError, match=message):
        KeywordGuard(**options)


# -------------------------------------------------------- input


async def test_block_stops_the_run_before_the_model_sees_the_input(make_agent_with):
    model = MockModel(["never"])
    agent = make_agent_with(model, inputs=[KeywordGuard(patterns=["password", "hunter2"])])
    result = await agent.generate("my PassWord is hunter2, password!")
    assert result.tripwire.processor_id == "keyword-guard"
    assert result.tripwire.reason == "Blocked content detected in input"
    assert result.tripwire.metadata == {
        "processor_id": "keyword-guard", "strategy": "block", "where": "input",
        "matches": [{"rule": 0, "count": 2}, {"rule": 1, "count": 1}],
    }
    assert model.requests == []


async def test_mask_rewrites_the_input_the_model_sees_and_reports_counts_not_text(make_agent_with):
    seen: list[ProcessorViolation] = []
    guard = KeywordGuard(patterns=["password", "hunter\\d"], regex=True, strategy="mask",
                         max_match_length=8, names=["word", "secret"])
    guard.on_violation = seen.append
    model = MockModel(["ok"])
    result = await make_agent_with(model, inputs=[guard]).generate("my password is hunter2")
    assert result.tripwire is None
    user = [m for m in model.requests[0].prompt if m["role"] == "user"][0]
    assert user["content"] == [{"type": "text", "text": "my [REDACTED] is [REDACTED]"}]
    assert seen == [
        ProcessorViolation(
            "keyword-guard", "Masked 2 match(es) in input",
            {"processor_id": "keyword-guard", "strategy": "redact", "where": "input",
             "matches": [{"rule": "word", "count": 1}, {"rule": "secret", "count": 1}]},
        )
    ]


async def test_input_without_matches_passes_unchanged(make_agent_with):
    model = MockModel(["ok"])
    await make_agent_with(model, inputs=[KeywordGuard(patterns=["secret"])]).generate("hello there")
    user = [m for m in model.requests[0].prompt if m["role"] == "user"][0]
    assert user["content"] == [{"type": "text", "text": "hello there"}]


@pytest.mark.parametrize("strategy", ["block", "mask"])
@pytest.mark.parametrize("mode", ["parallel", "monitor"])
async def test_a_check_beside_the_run_passes_clean_input(make_agent_with, caplog, mode, strategy):
    # (in parallel or monitor mode a check may not change the input: with nothing
    # found it must say so, not hand back the messages as if it had changed them)
    wrap = {"parallel": parallel_with_model, "monitor": monitor}[mode]
    guard = KeywordGuard(patterns=["hunter2"], strategy=strategy)
    agent = make_agent_with(MockModel(["ok"]), inputs=[wrap(guard)])
    with caplog.at_level(logging.WARNING, logger="tripwire"):
        result = await agent.generate("hello there")
        for _ in range(10):  # a monitor reports beside the run
            await asyncio.sleep(0)
        await agent.aclose()
    assert result.text == "ok" and result.tripwire is None
    assert not caplog.records


@pytest.mark.parametrize("mode", ["parallel", "monitor"])
async def test_a_blocking_check_beside_the_run_catches_a_match(make_agent_with, mode):
    wrap = {"parallel": parallel_with_model, "monitor": monitor}[mode]
    guard = KeywordGuard(patterns=["hunter2"])
    seen: list[ProcessorViolation] = []
    guard.on_violation = seen.append
    agent = make_agent_with(MockModel(["ok"]), inputs=[wrap(guard)])
    result = await agent.generate("my password is hunter2")
    for _ in range(10):  # a monitor reports beside the run
        await asyncio.sleep(0)
    await agent.aclose()
    assert [v.processor_id for v in seen] == ["keyword-guard"]
    assert (result.tripwire is None) == (mode == "monitor")


async def test_case_sensitive_matches_case_exactly(make_agent_with):
    guard = KeywordGuard(patterns=["Secret"], case_sensitive=True)
    model = MockModel(["ok"])
    result = await make_agent_with(model, inputs=[guard]).generate("a SECRET, a secret")
    assert result.tripwire is None
    result = await make_agent_with(MockModel(["ok"]), inputs=[guard]).generate("the Secret")
    assert result.tripwire is not None


async def test_masking_a_message_content_string():
    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    message = Message.user("")
    message.content.parts = []
    message.content.content = "a secret"
    out = await guard.process_input([message], abort=None)
    assert out[0].content.content == "a [REDACTED]"


# -------------------------------------------------------- streamed text


async def test_text_of_two_ids_arrives_whole_and_in_order(make_agent_with):
    model = MockModel([MockResponse(chunks=[text_chunk("Hello wor", "t1"),
                                            text_chunk("ld. Second block", "t2")])])
    guard = KeywordGuard(patterns=["password"])
    chunks, result = await run(make_agent_with(model, outputs=[guard]))
    assert [(c.payload["id"], c.payload["text"]) for c in chunks if c.type == "text-delta"] == [
        ("t1", "Hello wor"), ("t2", "ld. Second block")]
    assert result.text == "Hello world. Second block"


async def test_a_keyword_split_across_chunks_is_masked(make_agent_with):
    model = MockModel([deltas("the sec", "ret is", " out")])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["secret"], strategy="mask")])
    chunks, result = await run(agent)
    assert texts(chunks) == "the [REDACTED] is out"
    assert result.text == "the [REDACTED] is out"


async def test_a_keyword_split_across_two_text_ids_is_masked(make_agent_with):
    model = MockModel([MockResponse(chunks=[text_chunk("my pass", "t1"),
                                            text_chunk("word is out", "t2")])])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["password"], strategy="mask")])
    chunks, result = await run(agent)
    assert texts(chunks) == result.text == "my [REDACTED] is out"


async def test_a_keyword_across_interleaved_ids_is_blocked_before_any_of_it_streams(
    make_agent_with,
):
    model = MockModel([MockResponse(chunks=[
        text_chunk("my pa", "t1"), text_chunk("ss", "t2"), text_chunk("word!", "t1")])])
    guard = KeywordGuard(patterns=["password"])
    chunks, result = await run(make_agent_with(model, outputs=[guard]))
    assert "pa" not in texts(chunks)
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["reason"] == "Blocked content detected in output"
    assert result.tripwire.metadata["matches"] == [{"rule": 0, "count": 1}]


async def test_a_keyword_split_across_chunks_is_blocked_before_any_of_it_streams(make_agent_with):
    model = MockModel([deltas("the sec", "ret is", " out")])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["secret"])])
    chunks, result = await run(agent)
    assert "sec" not in texts(chunks)
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["reason"] == "Blocked content detected in output"
    assert result.tripwire.processor_id == "keyword-guard"


async def test_held_text_is_released_at_step_finish_in_its_chunks(make_agent_with):
    model = MockModel([deltas("abc", "de")])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["xyzxyzxyz"])])
    chunks, _ = await run(agent)
    assert [c.payload["text"] for c in chunks if c.type == "text-delta"] == ["abc", "de"]
    kinds = [c.type for c in chunks]
    assert kinds.index("text-delta") < kinds.index("step-finish")


async def test_a_regex_match_split_across_chunks_is_masked(make_agent_with):
    model = MockModel([deltas("call 555-", "12", "34 now")])
    guard = KeywordGuard(patterns=[r"\d{3}-\d{4}"], regex=True, strategy="mask",
                         max_match_length=8)
    chunks, _ = await run(make_agent_with(model, outputs=[guard]))
    assert texts(chunks) == "call [REDACTED] now"


async def test_a_pattern_within_one_word_holds_back_a_word_not_max_match_length(
        make_agent_with):
    """``ACME-\\d{1,400}`` lies within one word: the stream waits for the end of a word,
    not for 400 characters, and a match cut anywhere is still masked."""
    words = [f"w{i} " for i in range(60)]
    model = MockModel([deltas(*words, "ACME-12", "34567 ", "done")])
    guard = KeywordGuard(patterns=[r"ACME-\d{1,400}"], regex=True, strategy="mask",
                         max_match_length=405)
    counted = CountsText()
    first, chunks = await first_release(
        make_agent_with(model, outputs=[counted, guard]).stream("hi"), counted)
    assert first is not None and first <= len("w0 w1 ")
    assert texts(chunks) == "".join(words) + "[REDACTED] done"


async def test_overlapping_matches_become_one_mask(make_agent_with):
    model = MockModel([deltas("xabcdx")])
    guard = KeywordGuard(patterns=["abc", "bcd"], strategy="mask", mask="*")
    chunks, _ = await run(make_agent_with(model, outputs=[guard]))
    assert texts(chunks) == "x*x"


# -------------------------------------------------------- reasoning


async def test_reasoning_is_masked_across_its_chunks(make_agent_with):
    model = MockModel([MockResponse(chunks=[
        reasoning_chunk("the user's pass"), reasoning_chunk("word is"), text_chunk("ok")])])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["password"], strategy="mask")])
    chunks, result = await run(agent)
    assert texts(chunks, "reasoning-delta") == "the user's [REDACTED] is"
    assert result.steps[0].reasoning == "the user's [REDACTED] is"
    assert "password" not in " ".join(strings(result.messages))


async def test_reasoning_is_blocked(make_agent_with):
    model = MockModel([MockResponse(reasoning="I will reveal the password", text="no")])
    guard = KeywordGuard(patterns=["password"])
    chunks, result = await run(make_agent_with(model, outputs=[guard]))
    assert result.tripwire.reason == "Blocked content detected in reasoning"
    assert "password" not in texts(chunks, "reasoning-delta")


async def test_a_match_never_spans_text_and_reasoning(make_agent_with):
    model = MockModel([MockResponse(chunks=[text_chunk("pass"), reasoning_chunk("word")])])
    guard = KeywordGuard(patterns=["password"])
    chunks, result = await run(make_agent_with(model, outputs=[guard]))
    assert result.tripwire is None
    assert (texts(chunks), texts(chunks, "reasoning-delta")) == ("pass", "word")


# -------------------------------------------------------- tool calls and results


async def test_masked_tool_call_arguments_are_what_the_tool_runs_with(make_agent_with):
    calls: list[dict[str, Any]] = []
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1", "args": {
            "query": "the password", "tags": ["a", "password"],
            "filters": {"password": "x", "kind": "PASSWORD reset"}}}]),
        MockResponse(text="done"),
    ])
    guard = KeywordGuard(patterns=["password"], strategy="mask", mask="***")
    chunks, result = await run(make_agent_with(model, outputs=[guard],
                                               tools=[recording_lookup(calls, "ok")]))
    masked = {"query": "the ***", "tags": ["a", "***"], "filters": {"***": "x", "kind": "*** reset"}}
    assert calls == [masked]                                                    # the tool
    (call,) = [c for c in chunks if c.type == "tool-call"]
    assert call.payload["args"] == masked                                       # the client
    assert result.tool_calls[0].args == masked                                  # the history
    assistant = [m for m in model.requests[1].prompt if m["role"] == "assistant"][0]
    assert assistant["content"][-1]["input"] == masked                          # the model
    assert "password" not in " ".join(strings(result.messages)).lower()


async def test_a_blocked_tool_call_never_runs(make_agent_with):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                                 "args": {"query": "q", "tags": [],
                                                          "filters": {"f": "my password"}}}])])
    chunks, result = await run(make_agent_with(model, outputs=[KeywordGuard(patterns=["password"])],
                                               tools=[recording_lookup(calls, "ok")]))
    assert calls == []
    assert result.tripwire.reason == "Blocked content detected in tool call arguments"
    assert "tool-call" not in [c.type for c in chunks]


async def test_a_masked_tool_result_is_what_the_model_the_client_and_the_history_see(
    make_agent_with,
):
    result_value = {"user": "ann", "password": "hunter2", "notes": ["password: hunter2", 3]}
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "ann", "tags": [], "filters": {}}}]),
        MockResponse(text="done"),
    ])
    guard = KeywordGuard(patterns=["password", "hunter2"], strategy="mask", mask="#")
    chunks, result = await run(make_agent_with(model, outputs=[guard],
                                               tools=[recording_lookup([], result_value)]))
    masked = {"user": "ann", "#": "#", "notes": ["#: #", 3]}
    (sent,) = [c for c in chunks if c.type == "tool-result"]
    assert sent.payload["result"] == masked                                     # the client
    tool_message = [m for m in model.requests[1].prompt if m["role"] == "tool"][0]
    assert tool_message["content"][0]["output"] == masked                       # the model
    assert result.tool_results[0].result == masked                              # the history
    assert "hunter2" not in " ".join(strings(result.messages))


async def test_a_blocked_tool_result_stops_the_run_before_anyone_sees_it(make_agent_with):
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "ann", "tags": [], "filters": {}}}]),
        MockResponse(text="never"),
    ])
    agent = make_agent_with(model, outputs=[KeywordGuard(patterns=["hunter2"])],
                            tools=[recording_lookup([], {"password": "hunter2"})])
    chunks, result = await run(agent)
    assert result.tripwire.reason == "Blocked content detected in tool result"
    assert result.tripwire.metadata["matches"] == [{"rule": 0, "count": 1}]
    assert "tool-result" not in [c.type for c in chunks]
    assert len(model.requests) == 1


async def test_a_tool_error_is_masked_for_the_client(make_agent_with):
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        raise ValueError("wrong password for ann")

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "ann"}}]),
        MockResponse(text="sorry"),
    ])
    guard = KeywordGuard(patterns=["password"], strategy="mask")
    chunks, _ = await run(make_agent_with(model, outputs=[guard], tools=[lookup]))
    (error,) = [c for c in chunks if c.type == "tool-error"]
    assert error.payload["error"] == "ValueError: wrong [REDACTED] for ann"


async def test_a_tool_call_passes_and_the_end_of_the_step_releases_the_held_text(
        make_agent_with):
    model = MockModel([
        MockResponse(text="let me check", tool_calls=[{"tool_name": "lookup", "args": {
            "query": "a", "tags": [], "filters": {}}}]),
        MockResponse(text="done"),
    ])
    guard = KeywordGuard(patterns=["password"], strategy="mask")
    chunks, result = await run(make_agent_with(model, outputs=[guard],
                                               tools=[recording_lookup([], "found")]))
    kinds = [c.type for c in chunks]
    # "check" could still be the start of a keyword when the call comes: it waits.
    assert texts(chunks[: kinds.index("tool-call")]) == "let me "
    assert texts(chunks[: kinds.index("step-finish")]) == "let me check"
    assert result.text == "let me checkdone"


async def test_a_keyword_cut_by_a_tool_call_never_reaches_the_client_whole(make_agent_with):
    model = MockModel([
        MockResponse(chunks=[text_chunk("my pass"),
                             {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                              "args": {"query": "a", "tags": [], "filters": {}}}],
                     finish_reason="tool-calls"),
        deltas("word is out"),
    ])
    guard = KeywordGuard(patterns=["password"], strategy="mask")
    chunks, result = await run(make_agent_with(model, outputs=[guard],
                                               tools=[recording_lookup([], "x")]))
    assert texts(chunks) == result.text == "my pass[REDACTED] is out"


# -------------------------------------------------------- reports


async def test_tripwire_metadata_and_reports_never_hold_the_pattern_or_the_match(make_agent_with):
    seen: list[ProcessorViolation] = []
    guard = KeywordGuard(patterns=[r"ACME-\d{4}"], regex=True, max_match_length=9)
    guard.on_violation = seen.append
    model = MockModel([deltas("ref ACME-", "7731 ok")])
    chunks, result = await run(make_agent_with(model, outputs=[guard]))
    tripped = chunks[-1]
    assert tripped.payload["metadata"] == {
        "processor_id": "keyword-guard", "strategy": "block", "where": "output",
        "matches": [{"rule": 0, "count": 1}],
    }
    for text in [*strings(tripped.payload), *strings(seen), result.tripwire.reason]:
        assert "ACME" not in text and "7731" not in text


async def test_a_failing_on_violation_is_swallowed(make_agent_with):
    def explode(violation):
        raise RuntimeError("monitoring is down")

    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    guard.on_violation = explode
    chunks, result = await run(make_agent_with(MockModel([deltas("a secret")]), outputs=[guard]))
    assert texts(chunks) == "a [REDACTED]"
    assert result.tripwire is None


async def test_async_on_violation_is_awaited(make_agent_with):
    seen = []

    async def record(violation):
        seen.append((violation.detail["where"], violation.detail["matches"]))

    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    guard.on_violation = record
    await run(make_agent_with(MockModel([deltas("a secret")]), outputs=[guard]))
    assert seen == [("output", [{"rule": 0, "count": 1}])]


# -------------------------------------------------------- properties: any split, any ids

LETTERS = "gkmqvj"        # no two of them side by side in ids, keys or fixed strings
FILLER = "xyz .,!"
MASK = "<#>"


@st.composite
def replies(draw, *, tool_call: bool | None = None):
    """A keyword of distinct letters (so two occurrences never overlap) and one or two
    scripted model replies: text and reasoning holding the keyword, cut at random
    places into deltas of several ids, interleaved with each other and with other
    chunks; optionally a tool call (whose arguments and result hold the keyword)
    before a second reply."""
    keyword = "".join(draw(st.lists(st.sampled_from(LETTERS), min_size=2, max_size=6,
                                    unique=True)))

    def channel_text(min_keywords: int) -> str:
        filler = st.text(FILLER, min_size=1, max_size=8)
        parts = draw(st.lists(st.one_of(st.just(keyword), filler), max_size=6))
        for _ in range(min_keywords):
            parts.insert(draw(st.integers(0, len(parts))), keyword)
        return "".join(parts)

    def cut(kind: str, full: str, ids: list[str]) -> list[dict[str, str]]:
        points = sorted(draw(st.lists(st.integers(0, len(full)), max_size=10)))
        bounds = [0, *points, len(full)]
        return [{"type": kind, "id": draw(st.sampled_from(ids)), "text": full[a:b]}
                for a, b in zip(bounds, bounds[1:], strict=False)]

    def chunk_sequence(text: str, reasoning: str) -> list[dict[str, Any]]:
        queues = [cut("text-delta", text, ["t1", "t2", "t3"]),
                  cut("reasoning-delta", reasoning, ["r1", "r2"])]
        out: list[dict[str, Any]] = []
        while any(queues):
            take = draw(st.sampled_from([q for q in queues if q] + [None]))
            out.append(take.pop(0) if take is not None
                       else {"type": "source", "url": "https://example.org"})
        return out

    with_tool = draw(st.booleans()) if tool_call is None else tool_call
    texts = [channel_text(1), channel_text(0)]
    first = chunk_sequence(*texts)
    responses = [MockResponse(chunks=first)]
    if with_tool:
        call = {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                "args": {"query": f"x {keyword}", "tags": [keyword, "z"],
                         "filters": {keyword: "y"}}}
        first.insert(draw(st.integers(0, len(first))), call)
        responses[0].finish_reason = "tool-calls"
        more = [channel_text(0), channel_text(0)]
        responses.append(MockResponse(chunks=chunk_sequence(*more)))
        texts = [texts[0] + more[0], texts[1] + more[1]]
    return keyword, texts, responses, with_tool


def expected_pattern(keyword: str, original: str) -> re.Pattern[str]:
    """``original`` with each keyword masked: all of it, or all but a proper prefix
    that was released before a flush (a tool call, a reasoning delta) cut it."""
    prefixes = "|".join(re.escape(keyword[:i]) for i in range(len(keyword)))
    return re.compile(f"(?:{prefixes}){re.escape(MASK)}".join(
        map(re.escape, original.split(keyword))))


def property_run(make_agent_with, keyword: str, responses, strategy: str):
    calls: list[dict[str, Any]] = []
    model = MockModel(responses)
    guard = KeywordGuard(patterns=[keyword], strategy=strategy, mask=MASK)
    agent = make_agent_with(model, outputs=[guard],
                            tools=[recording_lookup(calls, {"found": f"the {keyword}",
                                                            "items": [keyword]})])
    chunks, result = asyncio.run(run(agent))
    return chunks, result, calls, model


# make_agent_with is a stateless factory: sharing it between examples is safe.
PROPERTY = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(replies())
def test_property_mask_keyword_never_reaches_the_client_and_the_rest_arrives_intact(
    make_agent_with, case,
):
    keyword, (text, reasoning), responses, with_tool = case
    chunks, result, calls, model = property_run(make_agent_with, keyword, responses, "mask")
    assert result.tripwire is None
    client = texts(chunks)
    assert expected_pattern(keyword, text).fullmatch(client), (client, text)
    assert expected_pattern(keyword, reasoning).fullmatch(texts(chunks, "reasoning-delta"))
    assert result.text == client
    # Deltas keep their ids, in the order they came.
    ids = iter(c["id"] for r in responses for c in r.chunks if c["type"] == "text-delta")
    assert all(c.payload["id"] in ids for c in chunks if c.type == "text-delta")
    for where in (strings([c.payload for c in chunks]), strings(result.messages),
                  strings(calls), strings([r.prompt for r in model.requests])):
        assert not [s for s in where if keyword in s]
    assert len(calls) == int(with_tool)


@PROPERTY
@given(replies())
def test_property_block_trips_before_the_keyword_reaches_the_client(make_agent_with, case):
    keyword, (text, reasoning), responses, _ = case
    chunks, result, calls, _ = property_run(make_agent_with, keyword, responses, "block")
    assert result.tripwire is not None and result.tripwire.processor_id == "keyword-guard"
    assert chunks[-1].type == "tripwire"
    assert not [s for s in strings([c.payload for c in chunks]) if keyword in s]
    assert not [s for s in strings(result.messages) if keyword in s]
    assert keyword not in result.text
    # What did stream is the start of the text, unchanged.
    assert text.startswith(texts(chunks))
    assert reasoning.startswith(texts(chunks, "reasoning-delta"))
    assert calls == []


@PROPERTY
@given(replies(tool_call=False))
def test_property_mask_without_flushes_masks_every_keyword_whole(make_agent_with, case):
    """Text deltas only (nothing between them to flush), any split, any ids: each
    keyword becomes one mask."""
    keyword, (text, _), responses, _ = case
    only_text = [MockResponse(chunks=[c for c in r.chunks if c["type"] == "text-delta"])
                 for r in responses]
    chunks, result, _, _ = property_run(make_agent_with, keyword, only_text, "mask")
    assert texts(chunks) == result.text == text.replace(keyword, MASK)
