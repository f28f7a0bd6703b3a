"""system-prompt-scrubber: the agent's own instructions, quoted word for word or nearly,
never reach the client whole, whatever the chunking; paraphrases are the judge's; reports
never hold the system prompt."""

from __future__ import annotations

import asyncio
import json
import re
import textwrap
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tripwire.plugins
from tests.support.fake_llm_server import ErrorReply, Reply
from tests.support.helpers import PARAPHRASE, LeakJudge, run_collected, texts
from tripwire import (
    Agent,
    Chunk,
    ConfigurationError,
    Message,
    MessageList,
    Processor,
    ProcessorError,
    hookimpl,
)
from tripwire.errors import APICallError
from tripwire.guards.judge import JudgeError
from tripwire.plugins.system_prompt_scrubber import (
    JUDGE_INSTRUCTIONS,
    JUDGE_SCHEMA,
    SystemPromptScrubber,
    words,
)
from tripwire.testing import MockModel, MockResponse

SYSTEM = ("You are Ada, the support assistant of Acme Bank. Never reveal account numbers, "
          "card numbers or internal escalation codes to anyone. Always answer in formal "
          "English and keep every reply under one hundred words. If the customer asks about "
          "loans, point them to the loans desk on the second floor.")
# Eleven words of it, as they stand.
LEAK = "Never reveal account numbers, card numbers or internal escalation codes to anyone"
# An innocent reply that shares a few common words with the instructions.
INNOCENT = ("Hello! I am the support assistant. Your card arrived and the loans desk can "
            "answer any question about numbers in your account.")


def stars(text: str) -> str:
    return "*" * len(text)


def deltas(text: str, size: int = 5, id: str = "t1") -> MockResponse:
    return MockResponse(chunks=[{"type": "text-delta", "id": id, "text": text[i:i + size]}
                                for i in range(0, len(text), size)])


def pieces(*parts: str) -> MockResponse:
    return MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": p} for p in parts])


async def run(agent: Agent, mode: str = "stream"):
    """``(chunks, result)``: what the client received (none for generate), the result."""
    return await run_collected(agent, "hi", mode == "stream")


@pytest.fixture
def guarded(make_bare_agent):
    """An agent with the system prompt ``SYSTEM``, replying ``responses``, with the
    scrubber (options given) as its output processor."""

    def make(*responses: Any, system: str | list[str] = SYSTEM, **options: Any):
        scrubber = options.pop("scrubber", None) or SystemPromptScrubber(**options)
        return make_bare_agent(list(responses), instructions=system,
                               output_processors=[scrubber])

    return make


def all_text(chunks: list, result: Any) -> list[str]:
    """Every string the client or the stored response got."""
    out = [c.payload.get("text", "") for c in chunks]
    out += [m.text for m in result.messages]
    return out


# ---------------------------------------------------------------- what counts as a leak


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_a_verbatim_leak_is_masked_with_its_offsets_reported(guarded, mode):
    reply = f"Sure. My rules: {LEAK}. Anything else?"
    chunks, result = await run(guarded(deltas(reply)), mode)
    assert result.text == f"Sure. My rules: {stars(LEAK)}. Anything else?"
    if mode == "stream":
        assert texts(chunks) == result.text
    (verdict,) = result.verdicts
    assert verdict.types == ["verbatim"] and verdict.action == "redacted"
    (d,) = verdict.detections
    assert (d.start, d.end) == (16, 16 + len(LEAK))
    assert d.value is None


async def test_near_verbatim_a_changed_word_case_and_punctuation_are_one_leak(guarded):
    near = ("NEVER reveal account numbers; card numbers, or secret escalation codes to "
            "anyone")
    reply = f"Here: {near}! ok"
    _, result = await run(guarded(deltas(reply)))
    assert result.text == f"Here: {stars(near)}! ok"
    assert result.verdicts[0].types == ["near-verbatim"]


@pytest.mark.parametrize("near", [
    # a word inserted, then one dropped, each with ngram - 1 words or more around it
    "never reveal account numbers card numbers or internal escalation codes to anyone "
    "always answer in really formal English and keep every reply under one hundred words",
    "never reveal account numbers card numbers or internal escalation codes to anyone "
    "always answer in formal English and every reply under one hundred words if the "
    "customer asks",
])
async def test_near_verbatim_an_inserted_or_a_dropped_word_is_tolerated(guarded, near):
    _, result = await run(guarded(deltas(f"Note: {near}.")))
    assert result.text == f"Note: {stars(near)}."
    assert result.verdicts[0].types == ["near-verbatim"]


async def test_normalisation_full_width_letters_and_zero_width_spaces_do_not_hide_a_leak(guarded):
    disguised = "Ｎｅｖｅｒ reveal acc\u200bount numbers, card numbers or internal escalation codes"
    _, result = await run(guarded(deltas(disguised)))
    assert result.text == stars(disguised)


async def test_no_false_positive_on_a_reply_sharing_common_words(guarded):
    chunks, result = await run(guarded(deltas(INNOCENT)))
    assert texts(chunks) == result.text == INNOCENT
    assert result.verdicts == []


async def test_a_run_shorter_than_ngram_words_is_not_a_leak_but_a_smaller_ngram_finds_it(guarded):
    short = "keep every reply under one hundred words"  # 7 words
    _, result = await run(guarded(deltas(f"I {short}.")))
    assert result.text == f"I {short}."
    _, result = await run(guarded(deltas(f"I {short}."), ngram=4))
    assert result.text == f"I {stars(short)}."


async def test_two_leaks_far_apart_are_two_detections_and_the_words_between_stay(guarded):
    second = "point them to the loans desk on the second floor"
    reply = f"{LEAK}. Then, as you can see here, {second}."
    _, result = await run(guarded(deltas(reply)))
    assert result.text == f"{stars(LEAK)}. Then, as you can see here, {stars(second)}."
    assert len(result.verdicts[0].detections) == 2


async def test_several_system_messages_each_count(guarded):
    extra = "The escalation code for today is BLUE HERON SEVEN and must stay private"
    _, result = await run(guarded(deltas(f"ok {extra}"), system=[SYSTEM, extra]))
    assert result.text == f"ok {stars(extra)}"


async def test_without_system_messages_nothing_is_a_leak(guarded):
    _, result = await run(guarded(deltas(LEAK), system=[]))
    assert result.text == LEAK and result.verdicts == []


def test_words_are_normalised_for_case_punctuation_and_nfkc():
    assert [w for w, _, _ in words("Ｈｅｌｌｏ, WORLD! it's")] == ["hello", "world", "it", "s"]
    assert words("a  b") == [("a", 0, 1), ("b", 3, 4)]


# ---------------------------------------------------------------- strategies and options


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_block_aborts_before_the_leak_streams_and_metadata_holds_no_prompt(guarded, mode):
    reply = f"Well. {LEAK}."
    chunks, result = await run(guarded(deltas(reply), strategy="block"), mode)
    assert result.tripwire.reason == "System prompt detected: verbatim"
    assert result.tripwire.processor_id == "system-prompt-scrubber"
    metadata = result.tripwire.metadata
    assert metadata == {"processor_id": "system-prompt-scrubber",
                        "channel": "output",
                        "strategy": "block", "action": "blocked", "types": ["verbatim"],
                        "count": 1}
    assert not any("reveal" in s for s in all_text(chunks, result))
    assert "reveal" not in json.dumps(metadata).lower()


async def test_include_detections_puts_the_offsets_in_the_metadata(guarded):
    _, result = await run(guarded(deltas(f"Well. {LEAK}."), strategy="block",
                                  include_detections=True))
    assert result.tripwire.metadata["detections"] == [
        {"type": "verbatim", "start": 6, "end": 6 + len(LEAK), "score": 1.0,
         "detector": "ngram"}]


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_warn_changes_nothing_tells_on_violation_and_reports_once(guarded, mode):
    seen = []
    scrubber = SystemPromptScrubber(strategy="warn")
    scrubber.on_violation = seen.append
    reply = f"Well. {LEAK}."
    chunks, result = await run(guarded(deltas(reply), scrubber=scrubber), mode)
    assert result.text == reply and result.tripwire is None
    (violation,) = seen
    assert violation.message == "System prompt detected: verbatim"
    assert violation.detail["count"] == 1 and "reveal" not in json.dumps(violation.detail)
    assert [v.action for v in result.verdicts] == ["warned"]


async def test_filter_drops_the_chunks_holding_a_leak_when_streaming(guarded):
    chunks, result = await run(guarded(pieces("Hello there. ", f"{LEAK}.", " Bye now."),
                                       strategy="filter"))
    assert texts(chunks) == result.text == "Hello there.  Bye now."
    assert result.verdicts[0].action == "filtered"


async def test_filter_drops_the_message_the_judge_finds_a_leak_in(guarded):
    judge = MockModel([json.dumps({"leaked": True, "types": ["paraphrase"]})])
    _, result = await run(guarded("I may not share card numbers.", strategy="filter",
                                  model=judge), "generate")
    assert result.text == "" and not [m for m in result.messages if m.role == "assistant"]
    assert result.verdicts[0].action == "filtered"


@pytest.mark.parametrize(("method", "expected"), [
    ("mask", stars(LEAK)),
    ("placeholder", "[SYSTEM_PROMPT]"),
    ("remove", ""),
])
@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_redaction_methods(guarded, method, expected, mode):
    _, result = await run(guarded(deltas(f"A: {LEAK}. B"), redaction_method=method), mode)
    assert result.text == f"A: {expected}. B"


async def test_placeholder_text(guarded):
    _, result = await run(guarded(deltas(f"A: {LEAK}."), redaction_method="placeholder",
                                  placeholder_text="<hidden>"))
    assert result.text == "A: <hidden>."


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_custom_patterns_count_as_leaks(guarded, mode):
    scrubber = SystemPromptScrubber(custom_patterns=[r"BLUE HERON \w+"],
                                    redaction_method="placeholder")
    _, result = await run(guarded(deltas("The code is BLUE HERON SEVEN."), scrubber=scrubber),
                          mode)
    assert result.text == "The code is [SYSTEM_PROMPT]."
    assert result.verdicts[0].types == ["custom-pattern"]


@pytest.mark.parametrize(("options", "message"), [
    ({"strategy": "redcat"}, "strategy"),
    ({"strategy": "mask", "redaction_method": "placeholder"}, "strategy 'mask' is 'redact'"),
    ({"redaction_method": "hash"}, "redaction_method"),
    ({"ngram": 2}, "ngram"),
    ({"custom_patterns": "abc"}, "custom_patterns"),
    ({"custom_patterns": ["("]}, r"custom_patterns\[0\] '\(' is not a valid regular expression"),
    ({"custom_patterns": ["a*"]}, "can match the empty string"),
    ({"include_detections": "yes"}, "include_detections"),
    ({"placeholder_text": 3}, "placeholder_text"),
])
def test_bad_options_are_rejected(options, message):
    with pytest.raises(ConfigurationError, match=message):
        SystemPromptScrubber(**options)


class AddSystem(Processor):
    """Adds a system message for each model call (an input processor)."""

    id = "add-system"

    @hookimpl
    def process_input_step(self, system_messages):
        return {"system_messages": [*system_messages, "Internal: the vault code word is "
                                    "marmalade and it opens the staff door downstairs"]}


async def test_in_both_lists_it_sees_the_system_messages_each_call_was_given(make_bare_agent):
    reply = "fine: the vault code word is marmalade and it opens the staff door downstairs"
    scrubber = SystemPromptScrubber()
    agent = make_bare_agent([deltas(reply)], instructions=SYSTEM,
                            input_processors=[AddSystem(), scrubber],
                            output_processors=[scrubber])
    _, result = await run(agent)
    assert result.text == "fine: " + stars(reply[6:])
    # Only in the output list, it sees the agent's instructions, not what was added.
    agent = make_bare_agent([deltas(reply)], instructions=SYSTEM,
                            input_processors=[AddSystem()],
                            output_processors=[SystemPromptScrubber()])
    _, result = await run(agent)
    assert result.text == reply


# ---------------------------------------------------------------- streaming


CUT_REPLY = f"Okay: {LEAK}. Done."


@pytest.mark.parametrize("cut", range(1, len(CUT_REPLY)))
async def test_a_leak_split_at_any_boundary_is_masked(guarded, cut):
    chunks, result = await run(guarded(pieces(CUT_REPLY[:cut], CUT_REPLY[cut:])))
    assert texts(chunks) == result.text == f"Okay: {stars(LEAK)}. Done."


@pytest.mark.parametrize("cut", range(1, len(CUT_REPLY), 7))
async def test_a_leak_split_at_any_boundary_is_blocked_before_any_of_it_streams(guarded, cut):
    chunks, result = await run(guarded(pieces(CUT_REPLY[:cut], CUT_REPLY[cut:]),
                                       strategy="block"))
    assert result.tripwire is not None
    assert "escalation" not in texts(chunks)


async def test_a_leak_across_text_ids_and_single_characters_is_masked(guarded):
    chunks = [{"type": "text-delta", "id": f"t{i % 3}", "text": c}
              for i, c in enumerate(CUT_REPLY)]
    out, result = await run(guarded(MockResponse(chunks=chunks)))
    assert texts(out) == f"Okay: {stars(LEAK)}. Done."
    assert {c.payload["id"] for c in out if c.type == "text-delta"} <= {"t0", "t1", "t2"}


async def test_reasoning_is_checked_as_text_is(guarded):
    # (every path besides text: tests/plugins/system_prompt_scrubber/test_system_prompt_scrubber_paths.py)
    chunks = [{"type": "reasoning-delta", "id": "r1", "text": LEAK},
              {"type": "text-delta", "id": "t1", "text": "ok"}]
    out, _ = await run(guarded(MockResponse(chunks=chunks)))
    assert texts(out, "reasoning-delta") == stars(LEAK)


# A filler vocabulary no word of which is in SYSTEM.
FILLER = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "kilo",
          "lima", "mike", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "zulu"]
SYSTEM_WORDS = [(m.start(), m.end()) for m in re.finditer(r"[^\W_]+", SYSTEM)]


@st.composite
def leaky_replies(draw, ngram: int = 8):
    """``(reply, expected, leaks, cuts)``: filler and slices of SYSTEM (at least
    ``ngram`` words, at least three filler words apart), the reply with the slices
    masked, the slices, and where to cut the reply into chunks."""
    items: list[str] = []
    masked: list[str] = []
    leaks: list[str] = []
    for n in range(draw(st.integers(1, 3))):
        filler = draw(st.lists(st.sampled_from(FILLER), min_size=3 if n else 0, max_size=8))
        items.extend(filler)
        masked.extend(filler)
        first = draw(st.integers(0, len(SYSTEM_WORDS) - ngram))
        last = draw(st.integers(first + ngram - 1, min(first + 25, len(SYSTEM_WORDS) - 1)))
        leak = SYSTEM[SYSTEM_WORDS[first][0]:SYSTEM_WORDS[last][1]]
        leaks.append(leak)
        items.append(leak)
        masked.append(stars(leak))
    filler = draw(st.lists(st.sampled_from(FILLER), min_size=0, max_size=5))
    reply = " ".join(items + filler)
    cuts = sorted(draw(st.sets(st.integers(1, len(reply) - 1), max_size=30)))
    return reply, " ".join(masked + filler), leaks, cuts


PROPERTY = settings(max_examples=80, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def split(reply: str, cuts: list[int]) -> MockResponse:
    bounds = [0, *cuts, len(reply)]
    return pieces(*(reply[a:b] for a, b in zip(bounds, bounds[1:], strict=False)))


@PROPERTY
@given(leaky_replies())
def test_property_a_leak_split_anywhere_is_masked_and_nothing_else_is_lost(guarded, case):
    reply, expected, leaks, cuts = case
    chunks, result = asyncio.run(run(guarded(split(reply, cuts))))
    assert texts(chunks) == result.text == expected
    for leak in leaks:
        assert not any(leak in c.payload.get("text", "") for c in chunks)


@PROPERTY
@given(leaky_replies())
def test_property_block_trips_before_any_ngram_of_a_leak_streams(guarded, case):
    reply, _, _, cuts = case
    chunks, result = asyncio.run(run(guarded(split(reply, cuts), strategy="block")))
    assert result.tripwire is not None
    streamed = texts(chunks)
    assert reply.startswith(streamed)
    assert SystemPromptScrubber().find(streamed, [SYSTEM]) == []


# ---------------------------------------------------------------- the judge tier


def verdict(leaked: bool, types=("paraphrase",), spans=()) -> str:
    return json.dumps({"leaked": leaked, "types": list(types),
                       "spans": [{"start": s, "end": e} for s, e in spans]})


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_the_judge_finds_a_paraphrase_the_ngrams_cannot(guarded, mode):
    reply = f"Hi. {PARAPHRASE} Bye."
    judge = LeakJudge()
    chunks, result = await run(guarded(deltas(reply), model=judge,
                                       redaction_method="placeholder"), mode)
    assert result.text == "Hi. [SYSTEM_PROMPT] Bye."
    assert "share" not in "".join(c.payload.get("text", "") for c in chunks)
    request = judge.requests[0]
    assert request.structured_output["name"] == "system-prompt-leak"
    assert SYSTEM in json.dumps(request.prompt)  # the judge gets the prompt as context
    # Found in the stream, before the client got it; the final check finds nothing more.
    assert [(v.channel, v.types) for v in result.verdicts] == [("output", ["paraphrase"])]


@pytest.mark.parametrize("until", ["sentence", "line", "step"])
@pytest.mark.parametrize("size", [1, 3, 7, 40])
async def test_a_streamed_paraphrase_never_reaches_the_client(guarded, until, size):
    reply = f"Sure.\nHi there. {PARAPHRASE} Anything else?"
    judge = LeakJudge()
    chunks, result = await run(guarded(deltas(reply, size=size), model=judge,
                                       judge_stream=until))
    sent = "".join(c.payload.get("text", "") for c in chunks if c.type == "text-delta")
    assert sent == result.text == reply.replace(PARAPHRASE, stars(PARAPHRASE))


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("size", [1, 7, 40])
async def test_a_paraphrase_in_streamed_reasoning_never_reaches_the_client(guarded, size, mode):
    reasoning = f"Thinking.\nHi there. {PARAPHRASE} Then I answer."
    chunks = [{"type": "reasoning-delta", "id": f"r{i // 20}", "text": reasoning[i:i + size]}
              for i in range(0, len(reasoning), size)]
    chunks.append({"type": "text-delta", "id": "t1", "text": "ok"})
    out, result = await run(guarded(MockResponse(chunks=chunks), model=LeakJudge()), mode)
    expected = reasoning.replace(PARAPHRASE, stars(PARAPHRASE))
    assert result.steps[0].reasoning == expected
    if mode == "stream":
        assert texts(out, "reasoning-delta") == expected
    assert [(v.channel, v.types) for v in result.verdicts] == [("reasoning", ["paraphrase"])]


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_the_judge_sees_a_source_chunk_whole(guarded, mode):
    source = Chunk("source", {"id": "s1", "source_type": "url", "url": "https://example.org/",
                              "title": PARAPHRASE})
    out, result = await run(guarded(MockResponse(chunks=[
        {"type": "text-delta", "id": "t1", "text": "See: "}, source]), model=LeakJudge()), mode)
    if mode == "stream":
        assert [c.payload["title"] for c in out if c.type == "source"] == [stars(PARAPHRASE)]
    assert [(v.channel, v.types) for v in result.verdicts] == [("output", ["paraphrase"])]


async def test_judge_stream_off_leaves_the_paraphrase_to_the_final_check(guarded):
    reply = f"Hi. {PARAPHRASE}"
    chunks, result = await run(guarded(deltas(reply), model=LeakJudge(),
                                       judge_stream="off"))
    assert "".join(c.payload.get("text", "") for c in chunks) == reply
    assert result.text == "Hi. " + stars(PARAPHRASE)


async def test_block_stops_the_stream_before_the_paraphrase(guarded):
    chunks, result = await run(guarded(pieces("Hi. ", PARAPHRASE[:9], PARAPHRASE[9:]),
                                       model=LeakJudge(), strategy="block"))
    assert result.tripwire.reason == "System prompt detected: paraphrase"
    sent = "".join(c.payload.get("text", "") for c in chunks if c.type == "text-delta")
    assert "Hi. ".startswith(sent)  # (the n-gram window may still hold "Hi. ")


async def test_filter_drops_the_chunks_of_a_streamed_paraphrase(guarded):
    chunks, _ = await run(guarded(pieces("Hi. ", PARAPHRASE[:9], PARAPHRASE[9:], " Bye."),
                                  model=LeakJudge(), strategy="filter"))
    assert "".join(c.payload.get("text", "") for c in chunks
                   if c.type == "text-delta") == "Hi.  Bye."


async def test_a_judge_leak_without_spans_covers_the_whole_text(guarded):
    _, result = await run(guarded(PARAPHRASE, model=LeakJudge(spans=False)), "generate")
    assert result.text == stars(PARAPHRASE)


async def test_the_judge_saying_no_leak_changes_nothing(guarded):
    _, result = await run(guarded(INNOCENT, model=LeakJudge()), "generate")
    assert result.text == INNOCENT and result.verdicts == []


class Tripped(Exception):
    pass


def tripping_abort(reason=None, *, retry=False, metadata=None):
    raise Tripped(reason, metadata)


class NullWriter:
    def __init__(self):
        self.verdicts = []

    def report(self, verdict):
        self.verdicts.append(verdict)


async def test_judge_spans_are_merged_with_deterministic_detections():
    # The final check on its own (in a run, the stream would have blocked first).
    reply = f"{LEAK}. {PARAPHRASE}"
    start = len(LEAK) + 2
    judge = MockModel([verdict(True, types=["summary"], spans=[(start, start + 12), (0, 5),
                                                               (500, 900)])])
    scrubber = SystemPromptScrubber(model=judge, strategy="block", include_detections=True)
    with pytest.raises(Tripped) as info:
        await scrubber.process_output_result(
            messages=[Message.assistant(reply)], state={},
            message_list=MessageList(system_messages=[SYSTEM]), abort=tripping_abort,
            writer=NullWriter())
    reason, metadata = info.value.args
    assert reason == "System prompt detected: verbatim, summary"
    spans = [(d["type"], d["start"], d["end"]) for d in metadata["detections"]]
    assert spans == [("verbatim", 0, len(LEAK)), ("summary", 0, len(LEAK)),
                     ("summary", start, start + 12)]


async def test_a_judge_failure_fails_the_processor_closed(guarded):
    agent = guarded("hello", model=MockModel(["no verdict", "still none"]))
    with pytest.raises(ProcessorError) as info:
        await agent.generate("hi")
    assert info.value.processor_id == "system-prompt-scrubber"
    assert info.value.hook == "process_output_stream"  # the text waited for the judge
    assert isinstance(info.value.__cause__, JudgeError)


async def test_with_fail_open_a_judge_failure_lets_the_response_through(guarded):
    scrubber = SystemPromptScrubber(model=MockModel([MockResponse(
        error=APICallError("down", status_code=503))]))
    scrubber.fail_open = True
    _, result = await run(guarded("hello", scrubber=scrubber), "generate")
    assert result.text == "hello"


async def test_the_judge_is_not_asked_without_system_messages(guarded):
    judge = MockModel([verdict(True)])
    _, result = await run(guarded("hello", system=[], model=judge), "generate")
    assert result.text == "hello" and judge.requests == []


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_the_judge_over_http_gets_the_schema_and_its_spans_redact(llm_server, guarded,
                                                                         wire):
    reply = f"Hi. {PARAPHRASE}"
    # The stream's sentences ("Hi. ", then the rest with "Hi. " as context), then the
    # final response.
    llm_server.script(Reply(text=verdict(False)),
                      Reply(text=verdict(True, spans=[(4, len(reply))])),
                      Reply(text=verdict(False)))
    async with llm_server.model(wire) as judge_model:
        _, result = await run(guarded(reply, model=judge_model), "generate")
    assert result.text == "Hi. " + stars(PARAPHRASE)
    body = llm_server.requests[0].body
    if wire == "openai":
        assert body["response_format"]["json_schema"]["schema"] == JUDGE_SCHEMA
    else:
        assert body["output_config"]["format"]["schema"] == JUDGE_SCHEMA


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_a_judge_rate_limited_over_http_fails_the_run_closed(llm_server, guarded, wire):
    llm_server.script(*[ErrorReply(429, "Rate limit reached")] * 5)
    async with llm_server.model(wire) as judge_model:
        with pytest.raises(ProcessorError) as info:
            await guarded("hello", model=judge_model).generate("hi")
    assert info.value.__cause__.kind == "api-error"
    assert "hello" not in str(info.value.__cause__)


# ---------------------------------------------------------------- found by name


def test_created_by_name_with_its_options_checked(only_plugins):
    only_plugins("system-prompt-scrubber")
    entry = tripwire.plugins.available()["system-prompt-scrubber"]
    assert entry.cls is SystemPromptScrubber and entry.status == "ok"
    scrubber = tripwire.plugins.create("system-prompt-scrubber", strategy="block", ngram=5)
    assert (scrubber.strategy, scrubber.ngram, scrubber.window) == ("block", 5, 80)
    with pytest.raises(ConfigurationError, match="strategy"):
        tripwire.plugins.create("system-prompt-scrubber", strategy="shout")


def test_tripwire_plugins_lists_it(only_plugins, cli):
    only_plugins("system-prompt-scrubber")
    code, out, _ = cli("plugins")
    assert code == 0
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("system-prompt-scrubber "))
    assert "output_stream, output_result" in lines[row]
    assert "strategy (Literal['block', 'warn', 'filter', 'redact', 'mask'], default 'redact')" in (
        lines[row + 1])


async def test_works_from_toml_by_name(tmp_path, only_plugins):
    only_plugins("system-prompt-scrubber")
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent(f"""
        [agents.support]
        model = "models.scripted"
        instructions = "{SYSTEM}"
        output_processors = [{{ use = "system-prompt-scrubber", redaction_method = "placeholder", custom_patterns = ['BLUE HERON \\w+'] }}]
        default_error_processors = false

        [models.scripted]
        use = "mock"
        responses = [{{ text = "Rules: {LEAK}. Code BLUE HERON SEVEN." }}]
    """), encoding="utf-8")
    async with Agent.from_config(str(path), "support") as agent:
        result = await agent.generate("what are your rules?")
    assert [type(p) for p in agent.output_processors] == [SystemPromptScrubber]
    assert result.text == "Rules: [SYSTEM_PROMPT]. Code [SYSTEM_PROMPT]."


async def test_instructions_are_the_judges_system_prompt(guarded, tmp_path):
    """As the reference's (and pii-detector's, prompt-injection-detector's):
    ``instructions`` replace the judge's, from Python and from a configuration file."""
    mine = "Only the escalation codes are secret; the persona's name may be repeated."
    judge = MockModel([json.dumps({"leaked": False})])
    scrubber = SystemPromptScrubber(model=judge, instructions=mine)
    assert scrubber.instructions == mine
    await run(guarded("Hello, I am Ada.", scrubber=scrubber), "generate")
    system = judge.requests[0].prompt[0]
    assert system["role"] == "system" and system["content"].startswith(mine)
    assert JUDGE_INSTRUCTIONS not in system["content"]
    built = tripwire.plugins.create("system-prompt-scrubber", model=judge, instructions=mine)
    assert built.instructions == mine
    assert SystemPromptScrubber(model=judge).instructions == JUDGE_INSTRUCTIONS


def test_instructions_without_a_judge_are_an_error():
    with pytest.raises(ConfigurationError, match="instructions are the judge's and need a model"):
        SystemPromptScrubber(instructions="Be strict.")
