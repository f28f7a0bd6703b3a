"""moderation against every place content reaches the model or the client besides a
user's text and the response's text (the matrices of test_input_coverage.py and
test_output_coverage.py hold block and filter for the input places and for data,
source, unknown and object-result chunks): the output's reasoning, a tool call's
arguments (before the tool runs) and a tool's result, for each strategy, both ways of
judging the stream and both paths; warn on every input place; the system messages
memory recalls; the moderation endpoint asked once for all the texts of a hook.

The ``Moderator`` judge flags "kill" (violence); nothing else in these runs holds it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.guards.test_input_coverage import PLACES, conversation
from tests.guards.test_output_coverage import CASES, _agent, _structured_agent
from tests.support.fake_llm_server import API_KEY, ModerationReply
from tests.support.helpers import Moderator
from tripwire import Agent, Memory, Message, tool
from tripwire.memory import open_store
from tripwire.plugins.moderation import Moderation
from tripwire.testing import MockModel, MockResponse

FLAGGED = "kill"
ANSWER = MockResponse(text="All done here.")

# ------------------------------------------------------------------- the output


def _reasoning(split: bool) -> list[MockResponse]:
    said = ["I will ki", "ll them. "] if split else ["I will kill them. "]
    return [MockResponse(chunks=[
        *({"type": "reasoning-delta", "id": "r", "text": t} for t in ["Let me think. ", *said]),
        {"type": "text-delta", "id": "t", "text": "Here is the plan."},
    ])]


class Case:
    """One run whose output carries the flagged word in one place: the agent, and what
    its tool was called with."""

    def __init__(self, place: str, guard: Moderation, split: bool) -> None:
        self.calls: list[Any] = []
        calls = self.calls

        @tool
        async def lookup(query: Any) -> Any:
            """Look something up."""
            calls.append(query)
            if place == "tool error":
                raise ValueError(f"cannot {FLAGGED} them")
            return {"rows": [{"text": f"they will {FLAGGED} them"}]} if place == "tool result" \
                else "nothing found"

        query: Any = {"q": ["recent", f"how to {FLAGGED} them"]} if place == "tool-call" else "x"
        if place == "reasoning":
            responses = _reasoning(split)
        else:
            responses = [MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": query},
                                                   "tool_call_id": "c1"}]), ANSWER]
        self.model = MockModel(responses)
        self.agent = Agent(id="a", model=self.model, tools=[lookup], output_processors=[guard],
                           default_error_processors=False)


#: The verdict's channel of each place, by strategy (warn does not hold the stream: the
#: response's reasoning is judged with its text at the end).
CHANNEL = {"reasoning": "reasoning", "tool-call": "tool-call", "tool result": "tool-result",
           "tool error": "tool-result"}


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("judge_stream", ["sentence", "chunk"])
@pytest.mark.parametrize("strategy", ["block", "filter", "warn"])
@pytest.mark.parametrize("place", ["reasoning", "tool-call", "tool result", "tool error"])
async def test_flagged_output_never_reaches_the_client_the_tool_or_the_model(
        place: str, strategy: str, judge_stream: str, stream: bool) -> None:
    guard = Moderation(Moderator(), strategy=strategy, judge_stream=judge_stream)
    case = Case(place, guard, split=judge_stream != "chunk")  # "chunk" is blind to a cut word
    chunks: list[Any] = []
    if stream:
        handle = case.agent.stream("hi")
        chunks = [c async for c in handle]
        result = await handle.result
    else:
        result = await case.agent.generate("hi")
    verdicts = [(v.channel, v.action) for v in result.verdicts]
    if strategy == "warn":
        # Nothing changed: the tool ran with its arguments, the model got its result.
        assert result.tripwire is None and result.text
        channel = "result" if place == "reasoning" and judge_stream == "sentence" \
            else CHANNEL[place]
        assert (channel, "warned") in verdicts
        return
    seen = {
        "the client": repr(chunks) + result.text + repr(result.object),
        "the stored messages": repr(result.messages) + repr(result.message_list.all.db()),
        "the steps": repr(result.steps),
        "the tool": repr(case.calls),
        "the model": json.dumps([r.prompt for r in case.model.requests], default=str),
    }
    leaked = [where for where, text in seen.items() if FLAGGED in text]
    assert not leaked, f"the flagged text reached {leaked}"
    if strategy == "block":
        assert result.tripwire is not None
        assert result.tripwire.metadata["channel"] == CHANNEL[place]
        assert not stream or any(c.type == "tripwire" for c in chunks)
    else:
        assert result.tripwire is None
        assert (CHANNEL[place], "filtered") in verdicts
    if place == "tool-call":
        assert case.calls == []  # the tool never ran


@pytest.mark.parametrize("case", [*CASES, "object"])
async def test_warn_reports_flagged_content_in_another_chunk(case: str) -> None:
    """warn on the chunks of test_output_coverage (block and filter are in its matrix):
    the content passes, a verdict says so."""
    guard = Moderation(Moderator(), strategy="warn")
    agent = (_structured_agent(guard, FLAGGED, True) if case == "object"
             else _agent(guard, case, FLAGGED))
    result = await agent.generate("hi")
    channel = "result" if case == "object" else "output"
    assert result.tripwire is None
    assert [(v.channel, v.action) for v in result.verdicts] == [(channel, "warned")]


@pytest.mark.parametrize("place", ["tool result", "tool error"])
async def test_filter_gives_the_model_a_notice_for_a_flagged_tool_result(place: str) -> None:
    case = Case(place, Moderation(Moderator(), strategy="filter"), split=False)
    result = await case.agent.generate("hi")
    assert result.text == "All done here." and case.calls == ["x"]
    notice = "[moderation: the result of lookup was withheld: flagged for moderation]"
    assert [r.result for r in result.tool_results] == [notice]
    assert notice in json.dumps(case.model.requests[1].prompt)


async def test_filter_drops_only_the_flagged_reasoning_sentence() -> None:
    case = Case("reasoning", Moderation(Moderator(), strategy="filter"), split=True)
    handle = case.agent.stream("hi")
    chunks = [c async for c in handle]
    result = await handle.result
    reasoning = "".join(c.payload["text"] for c in chunks if c.type == "reasoning-delta")
    assert reasoning == "Let me think. " and result.text == "Here is the plan."


async def test_a_clean_tool_call_runs_and_is_judged_once() -> None:
    judge = Moderator()

    @tool
    async def lookup(query: str) -> str:
        """Look something up."""
        return "nothing found"

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup",
                                                 "args": {"query": "bakery hours"},
                                                 "tool_call_id": "c1"}]), ANSWER])
    agent = Agent(id="a", model=model, tools=[lookup],
                  output_processors=[Moderation(judge, strategy="filter")],
                  default_error_processors=False)
    result = await agent.generate("hi")
    assert result.text == "All done here." and result.tool_results[0].result == "nothing found"
    # every string of the arguments, keys too (the walk the other guards use), one a line
    assert judge.texts.count("query\nbakery hours") == 1 and "nothing found" in judge.texts


# ------------------------------------------------------------------- the input


@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
@pytest.mark.parametrize("place", sorted(PLACES))
async def test_warn_reports_flagged_input_in_every_place(place: str, stream: bool) -> None:
    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, input_processors=[Moderation(Moderator(),
                                                                     strategy="warn")],
                  default_error_processors=False)
    messages = conversation(PLACES[place](f"I will {FLAGGED} them all tonight."))
    if stream:
        handle = agent.stream(messages, caller_system="input")
        _ = [c async for c in handle]
        result = await handle.result
    else:
        result = await agent.generate(messages, caller_system="input")
    assert result.tripwire is None and result.text == "ok"
    assert [v.action for v in result.verdicts] == ["warned"]
    assert FLAGGED in json.dumps([r.prompt for r in model.requests])  # warn changes nothing


async def test_every_text_of_the_input_is_judged_in_one_batch() -> None:
    """Judge calls cost money: the texts of one hook go out together (concurrently),
    each once, empty ones not at all."""
    judge = Moderator()
    called = Message.assistant("")
    called.content.parts = PLACES["tool-call arguments"]("some args").content.parts
    messages = [Message.user("hello"), PLACES["reasoning part"]("a thought"), called,
                PLACES["document"]("the notes"), {"role": "tool", "content": "a result"},
                Message.user("  ")]
    agent = Agent(id="a", model=MockModel(["ok"]), input_processors=[Moderation(judge)],
                  default_error_processors=False)
    await agent.generate(messages)
    assert sorted(judge.texts) == sorted([
        "hello", "a thought", "Here is what I found.", "query\nfilters\nrecent\nsome args", "fine",
        "Summarise the attached notes.", "the notes", "a result"])


@pytest.fixture
def openai_env(llm_server: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    return llm_server


async def test_the_endpoint_gets_every_input_place_in_one_request(openai_env: Any) -> None:
    texts = ["hello", "a thought", "Here is what I found.", "the notes", "a result"]
    openai_env.script(ModerationReply([{"violence": 0.0}] * 4 + [{"violence": 0.9}]))
    messages = [Message.user("hello"), PLACES["reasoning part"]("a thought"),
                Message.user("the notes"), {"role": "tool", "content": "a result"}]
    model = MockModel(["ok"])
    async with Moderation("openai/omni-moderation-latest", strategy="filter") as guard:
        agent = Agent(id="a", model=model, input_processors=[guard],
                      default_error_processors=False)
        result = await agent.generate(messages)
    assert [r.path for r in openai_env.requests] == ["/v1/moderations"]
    assert sorted(openai_env.requests[0].body["input"]) == sorted(texts)
    assert [(v.channel, v.action) for v in result.verdicts] == [("tool-result", "filtered")]
    assert "a result" not in json.dumps(model.requests[0].prompt)


@pytest.mark.parametrize("strategy", ["block", "filter", "warn"])
async def test_a_recalled_system_message_is_judged(tmp_path: Any, strategy: str) -> None:
    """Working memory's document comes back as a system message: judged as input."""
    url = f"sqlite:///{tmp_path}/m.db"
    async with open_store(url) as store:
        await store.update_working_memory("resource:ann",
                                          lambda _old: f"- note: wants to {FLAGGED} them")
    model = MockModel(["ok"])
    async with Agent(id="a", model=model, memory=Memory(url, last_messages=0,
                                                         working_memory=True),
                     input_processors=[Moderation(Moderator(), strategy=strategy)],
                     default_error_processors=False) as agent:
        result = await agent.generate("hi", memory={"thread": "t1", "resource": "ann"})
    prompts = json.dumps([r.prompt for r in model.requests])
    if strategy == "warn":
        assert FLAGGED in prompts and [v.action for v in result.verdicts] == ["warned"]
    else:
        assert FLAGGED not in prompts
        assert (result.tripwire is not None) == (strategy == "block")


async def test_a_data_chunk_does_not_cut_the_sentence_held() -> None:
    """A data chunk is judged whole and passed on at once (as before moderation read
    data chunks), not after a judgement of half a sentence."""
    judge = Moderator()
    model = MockModel([MockResponse(chunks=[
        {"type": "text-delta", "id": "t", "text": "We will "},
        {"type": "data-lookup", "data": {"rows": ["a row"]}},
        {"type": "text-delta", "id": "t", "text": "go home."}])])
    agent = Agent(id="a", model=model, output_processors=[Moderation(judge)],
                  default_error_processors=False)
    chunks = [c async for c in agent.stream("hi")]
    kinds = [c.type for c in chunks if c.type in ("text-delta", "data-lookup")]
    assert kinds[0] == "data-lookup" and "We will " not in judge.texts
    assert judge.texts[:2] == ["data\nrows\na row", "We will go home."]


def _cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:], strict=False) if b > a]


@settings(max_examples=25, deadline=None, database=None)
@given(reasoning_cuts=st.lists(st.integers(0, 60), max_size=8),
       text_cuts=st.lists(st.integers(0, 60), max_size=8),
       strategy=st.sampled_from(["block", "filter"]),
       stream=st.booleans())
def test_however_the_model_chunks_it_flagged_reasoning_and_text_stay_out(
        reasoning_cuts: list[int], text_cuts: list[int], strategy: str, stream: bool) -> None:
    """The stream held by sentence: a flagged sentence of reasoning or text never
    reaches the client, whatever the model's deltas cut (``filter`` drops every delta
    the flagged sentence touches, so a clean sentence in the same delta goes too)."""
    chunks_in = [
        *({"type": "reasoning-delta", "id": "r", "text": t}
          for t in _cut(f"Let me think. I will {FLAGGED} them. Done.", reasoning_cuts)),
        *({"type": "text-delta", "id": "t", "text": t}
          for t in _cut(f"Fine. You {FLAGGED}ers. Bye.", text_cuts)),
    ]

    async def go() -> tuple[list[Any], Any]:
        agent = Agent(id="a", model=MockModel([MockResponse(chunks=chunks_in)]),
                      output_processors=[Moderation(Moderator(), strategy=strategy)],
                      default_error_processors=False)
        if not stream:
            return [], await agent.generate("hi")
        handle = agent.stream("hi")
        return [c async for c in handle], await handle.result

    chunks, result = asyncio.run(go())
    seen = repr(chunks) + result.text + repr(result.messages) + repr(result.steps)
    assert FLAGGED not in seen
    assert (result.tripwire is not None) == (strategy == "block")
