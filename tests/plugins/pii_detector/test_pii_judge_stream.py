"""pii-detector's judge tier on the stream (``judge_stream``): text is held a sentence,
a line or a step at a time until the judge has seen it, so a name it finds never reaches
the client, whatever the chunking; and through every other path a value can take
(reasoning, result.text, stored messages, the next prompt, retries, over HTTP)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fake_llm_server import Reply
from tests.support.helpers import KNOWN, Finder, RejectFirst, strings
from tripwire import Agent, APICallError, Chunk, JudgeError, Processor, ProcessorError, hookimpl
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

NAMES = [v for v, kind in KNOWN.items() if kind == "name"]


def text(t: str, id: str = "t1") -> dict[str, Any]:
    return {"type": "text-delta", "id": id, "text": t}


def thought(t: str, id: str = "r1") -> dict[str, Any]:
    return {"type": "reasoning-delta", "id": id, "text": t}


def deltas(*texts: str) -> MockResponse:
    return MockResponse(chunks=[text(t) for t in texts])


def pii(finder: Any, types: tuple[str, ...] = ("email", "name"), **options: Any
        ) -> PIIDetector:
    return PIIDetector(model=finder, detection_types=list(types),
                       redaction_method="placeholder", **options)


#: Without deterministic types the deterministic window holds nothing back: what the
#: client gets, and when, is the judge gate's doing alone.
NAME_ONLY = ("name",)


async def stream_run(agent: Agent, prompt: Any = "hi") -> tuple[Any, list[Chunk]]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return await stream.result, chunks


def said(chunks: list[Chunk], kind: str = "text-delta") -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == kind)


def leaks(value: Any) -> list[str]:
    """The parts of names found in ``value`` (any string in it)."""
    words = {w for name in NAMES for w in name.split()}
    return [w for s in strings(value) for w in words if re.search(rf"\b{w}\b", s)]


class Recording(Processor):
    """Records every chunk that reaches it (after the guard), with the judge's calls
    made until then: what the client could have seen, and when."""

    id = "recording"

    def __init__(self, finder: Finder) -> None:
        self.finder = finder
        self.seen: list[tuple[str, int]] = []

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            self.seen.append((part.payload["text"], len(self.finder.requests)))
        return part


# ---------------------------------------------------------------- the stream


async def test_a_name_split_across_deltas_never_reaches_the_client(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([deltas("Dear Ada ", "Lovelace, ", "how are you?")],
                            output_processors=[pii(finder)])
    result, chunks = await stream_run(agent, "write a letter")
    assert said(chunks) == "Dear [NAME], how are you?"
    assert result.text == "Dear [NAME], how are you?"
    assert [v.channel for v in result.verdicts][:1] == ["output"]
    assert not leaks([m.text for m in result.messages])


async def test_each_sentence_is_released_once_the_judge_has_seen_it(make_bare_agent):
    finder = Finder()
    record = Recording(finder)
    agent = make_bare_agent([deltas("Hello. ", "I am ", "Charles. ", "Bye")],
                            output_processors=[pii(finder, NAME_ONLY), record])
    await stream_run(agent)
    # "Hello. " after the first judgement, "I am " and "Charles. " after the second,
    # "Bye" at the end of the text (a third); judgements run while the stream goes on,
    # so a sentence may go out later, never earlier.
    segment = [1, 2, 2, 3]
    assert [t for t, _ in record.seen] == ["Hello. ", "I am ", "[NAME]. ", "Bye"]
    assert all(calls >= k for (_, calls), k in zip(record.seen, segment, strict=True))
    assert finder.texts[:2] == ["Hello. ", "Hello. I am Charles. "]  # with context


@pytest.mark.parametrize(("until", "calls"), [("sentence", 3), ("line", 2), ("step", 1)])
async def test_judge_stream_sets_the_segment(make_bare_agent, until, calls):
    finder = Finder()
    agent = make_bare_agent([deltas("One. ", "Two.\n", "Ada ", "Lovelace")],
                            output_processors=[pii(finder, NAME_ONLY, judge_stream=until)])
    result, chunks = await stream_run(agent)
    assert said(chunks) == "One. Two.\n[NAME]"
    stream_calls = [t for t in finder.texts if t != result.text]
    assert len(stream_calls) == calls


async def test_judge_stream_off_streams_without_waiting(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([deltas("Ada ", "Lovelace")],
                            output_processors=[pii(finder, judge_stream="off")])
    result, chunks = await stream_run(agent)
    assert said(chunks) == "Ada Lovelace" and result.text == "[NAME]"


async def test_reasoning_is_judged_before_it_is_released(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([MockResponse(chunks=[
        thought("The user is Ada "), text("Hi "), thought("Lovelace."), text("there.")])],
        output_processors=[pii(finder)])
    result, chunks = await stream_run(agent)
    assert said(chunks, "reasoning-delta") == "The user is [NAME]."
    assert said(chunks) == "Hi there."
    assert not leaks([c.payload for c in chunks]) and not leaks(
        [p for m in result.messages for p in m.content.parts])


async def test_block_stops_before_the_sentence_reaches_the_client(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([deltas("Fine. ", "Ada ", "Lovelace is ", "here.")],
                            output_processors=[pii(finder, NAME_ONLY, strategy="block")])
    result, chunks = await stream_run(agent)
    assert result.tripwire is not None
    assert result.tripwire.reason == "PII detected. Types: name"
    assert "Fine. ".startswith(said(chunks))  # judged clean, it may still be in flight
    assert not leaks([c.payload for c in chunks])


async def test_filter_drops_the_chunks_holding_the_name(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([deltas("Fine. ", "Dear Ada ", "Lovelace", ". Bye.")],
                            output_processors=[pii(finder, NAME_ONLY, strategy="filter")])
    _, chunks = await stream_run(agent)
    assert said(chunks) == "Fine. . Bye."


async def test_warn_does_not_hold_the_stream(make_bare_agent):
    finder = Finder()
    agent = make_bare_agent([deltas("Ada ", "Lovelace")],
                            output_processors=[pii(finder, strategy="warn")])
    result, chunks = await stream_run(agent)
    assert said(chunks) == "Ada Lovelace"
    assert [v.action for v in result.verdicts] == ["warned"]


async def test_the_tool_call_flushes_and_the_tool_sees_a_judged_name_redacted(
        make_bare_agent):
    finder = Finder()
    seen: list[str] = []
    from tripwire import tool

    @tool
    def lookup(query: str) -> str:
        """Look up."""
        seen.append(query)
        return "found"

    model = MockModel([
        MockResponse(chunks=[text("Looking up Ada "), text("Lovelace"),
                             {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                              "args": {"query": "Charles"}}], finish_reason="tool-calls"),
        "Done."])
    guard = pii(finder)
    agent = make_bare_agent([], model=model, tools=[lookup], input_processors=[guard],
                            output_processors=[guard])
    result, chunks = await stream_run(agent)
    assert said(chunks) == "Looking up [NAME]Done."
    assert seen == ["[NAME]"]
    assert not leaks(model.requests[1].prompt)


async def test_a_judge_failure_in_the_stream_fails_closed_with_nothing_sent(make_bare_agent):
    judge = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    agent = make_bare_agent([deltas("Ada ", "Lovelace. ", "more")],
                            output_processors=[pii(judge)])
    stream = agent.stream("hi")
    chunks: list[Chunk] = []
    with pytest.raises(ProcessorError) as info:
        async for c in stream:
            chunks.append(c)
    assert isinstance(info.value.__cause__, JudgeError)
    assert said(chunks) == ""


async def test_fail_open_releases_the_held_text_unjudged_in_order(make_bare_agent, caplog):
    judge = MockModel([MockResponse(error=APICallError("down", status_code=503))] * 4)
    guard = pii(judge)
    guard.fail_open = True
    agent = make_bare_agent([deltas("Hi ", "there. ", "Bye")], output_processors=[guard])
    result, chunks = await stream_run(agent)
    assert said(chunks) == "Hi there. Bye" and result.text == "Hi there. Bye"
    assert "released unchecked" in caplog.text


async def test_a_rejected_step_leaves_no_name_in_the_retry(make_bare_agent):
    finder = Finder()
    model = MockModel([deltas("Dear Ada ", "Lovelace."), deltas("Dear Charles.")])
    agent = Agent(id="a", model=model, output_processors=[pii(finder), RejectFirst()],
                  max_processor_retries=1, default_error_processors=False)
    result, chunks = await stream_run(agent)
    assert not leaks([c.payload for c in chunks])
    assert not leaks(model.requests[1].prompt)
    assert result.text == "Dear [NAME]."


async def test_a_cache_replay_is_judged_before_it_is_released():
    from tests.support.helpers import Cache

    finder = Finder()
    cache = Cache()
    guard = pii(finder)
    model = MockModel([deltas("Dear Ada ", "Lovelace.")])
    agent = Agent(id="a", model=model, input_processors=[cache], output_processors=[guard],
                  default_error_processors=False)
    first, _ = await stream_run(agent)
    again, chunks = await stream_run(agent)
    assert again.steps[0].from_cache
    assert said(chunks) == "Dear [NAME]."
    assert not leaks([c.payload for c in chunks])


# ---------------------------------------------------------------- over HTTP


async def test_the_stream_judge_over_http(llm_server, make_bare_agent):
    verdict = {"findings": [{"type": "name", "text": "Ada Lovelace"}]}
    llm_server.script(Reply(text=json.dumps(verdict)), Reply(text='{"findings": []}'))
    async with llm_server.anthropic(model="judge-test") as model:
        agent = make_bare_agent([deltas("I am Ada ", "Lovelace.")],
                                output_processors=[pii(model)])
        result, chunks = await stream_run(agent)
    assert said(chunks) == "I am [NAME]." and result.text == "I am [NAME]."
    assert llm_server.requests[0].path == "/v1/messages"
    assert "I am Ada Lovelace." in json.dumps(llm_server.requests[0].body)


# ---------------------------------------------------------------- every split

WORDS = st.sampled_from(["the", "Dr.", "said", ".", "!", "?\n", ",", "ok", *NAMES])


@st.composite
def replies(draw):
    """A reply: text and reasoning of random words and names, each cut at random
    points, on random text ids, interleaved."""
    queues = []
    for kind in ("text", "reasoning"):
        words = draw(st.lists(WORDS, max_size=10))
        full = "".join(w + draw(st.sampled_from([" ", "  ", "\n"])) for w in words)
        cuts = sorted({c % (len(full) + 1) for c in draw(st.lists(st.integers(0, 300),
                                                                 max_size=10))}
                      | {0, len(full)})
        pieces = [full[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]
        ids = ["t1", "t2"] if kind == "text" else ["r1", "r2"]
        queues.append([(text if kind == "text" else thought)(p, draw(st.sampled_from(ids)))
                       for p in pieces])
    chunks = []
    a, b = queues
    while a or b:
        chunks.append((a if a and (not b or draw(st.booleans())) else b).pop(0))
    return chunks


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chunks=replies(), until=st.sampled_from(["sentence", "line", "step"]),
       mode=st.sampled_from(["stream", "generate"]))
async def test_no_name_escapes_at_any_split(make_bare_agent, chunks, until, mode):
    finder = Finder()
    guard = pii(finder, judge_stream=until)
    model = MockModel([MockResponse(chunks=chunks), "again"])
    agent = make_bare_agent([], model=model, input_processors=[guard],
                            output_processors=[guard])
    if mode == "stream":
        result, sent = await stream_run(agent)
        assert not leaks([c.payload for c in sent])
    else:
        result = await agent.generate("hi")
    assert not leaks(result.text)
    assert not leaks([p for m in result.messages for p in m.content.parts])
    again = await agent.generate([*result.message_list.all.db()])
    assert again.text == "again"
    assert not leaks(model.requests[1].prompt)
