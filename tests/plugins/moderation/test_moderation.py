"""moderation: a model's category scores flag hateful, harassing, self-harm, sexual and
violent text in the input, the stream and the final response, which is blocked,
warned about or filtered; through the judge (a chat model) or OpenAI's moderation
endpoint; a failed check fails closed unless the processor fails open."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tripwire.plugins
from tests.support.fake_llm_server import API_KEY, ErrorReply, Hang, ModerationReply, Reply
from tests.support.helpers import Moderator, run_collected
from tripwire import (
    Agent,
    APICallError,
    ConfigurationError,
    JudgeError,
    Message,
    ProcessorError,
    ProcessorViolation,
)
from tripwire.chunks import Chunk
from tripwire.guards.verdicts import Verdict
from tripwire.models import register_provider
from tripwire.plugins.moderation import DEFAULT_CATEGORIES, DEFAULT_INSTRUCTIONS, Moderation
from tripwire.testing import MockModel, MockResponse


def deltas(*texts: str) -> MockResponse:
    return MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": t} for t in texts])


async def stream_run(agent: Agent, prompt: Any = "hi") -> tuple[Any, list[Chunk]]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return await stream.result, chunks


def streamed(chunks: list[Chunk]) -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == "text-delta")


def prompt_texts(model: MockModel) -> list[str]:
    """The user texts the agent's model saw in its first call."""
    return [p["text"] for m in model.requests[0].prompt if m["role"] == "user"
            for p in m["content"]]


@pytest.fixture
def judge_model() -> Moderator:
    return Moderator()


# ---------------------------------------------------------------- options


def test_defaults_are_the_references():
    moderation = Moderation(Moderator())
    assert moderation.categories == DEFAULT_CATEGORIES
    assert len(DEFAULT_CATEGORIES) == 11 and "self-harm/intent" in DEFAULT_CATEGORIES
    assert (moderation.threshold, moderation.strategy, moderation.include_scores,
            moderation.chunk_window, moderation.instructions, moderation.fail_open) == (
        0.5, "block", False, 0, DEFAULT_INSTRUCTIONS, False)


@pytest.mark.parametrize(("option", "value"), [
    ("threshold", 1.5), ("threshold", "high"), ("strategy", "redact"), ("chunk_window", -1),
    ("include_scores", "yes"), ("categories", []), ("categories", "hate"),
    ("instructions", 3),
])
def test_bad_options_are_configuration_errors_naming_the_option(option, value):
    with pytest.raises(ConfigurationError, match=f"moderation: {option}"):
        Moderation(Moderator(), **{option: value})


def test_model_is_required_and_checked():
    with pytest.raises(ConfigurationError, match="processor 'moderation' needs option 'model'"):
        Moderation()  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError, match="moderation: .*provider/model"):
        Moderation("gpt-5-nano")


# ---------------------------------------------------------------- input


async def test_block_on_input_aborts_with_the_categories_and_reason(make_bare_agent, judge_model):
    agent = make_bare_agent(["never"], input_processors=[Moderation(judge_model)])
    result = await agent.generate("I will kill you")
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: violence, harassment/threatening. "
        "Reason: threatens violence")
    assert result.tripwire.processor_id == "moderation" and not result.tripwire.retry
    assert agent.model.requests == []


async def test_the_block_message_has_no_reason_when_the_model_gives_none(make_bare_agent):
    agent = make_bare_agent(["never"], input_processors=[Moderation(Moderator(reason=False))])
    result = await agent.generate("you idiot")
    assert result.tripwire.reason == "Content flagged for moderation. Categories: harassment"


async def test_block_metadata_is_the_verdict_without_the_text(make_bare_agent, judge_model):
    agent = make_bare_agent(["never"], input_processors=[Moderation(judge_model)])
    result = await agent.generate("I will kill you")
    metadata = result.tripwire.metadata
    assert metadata == {
        "processor_id": "moderation", "channel": "input", "strategy": "block",
        "action": "blocked", "types": ["violence", "harassment/threatening"],
        "detections": [
            {"type": "violence", "start": 0, "end": 15, "score": 0.9,
             "detector": "fake/moderator"},
            {"type": "harassment/threatening", "start": 0, "end": 15, "score": 0.6,
             "detector": "fake/moderator"},
        ],
    }
    assert "kill" not in json.dumps(metadata)


async def test_include_scores_adds_every_score_to_the_message_and_metadata(make_bare_agent,
                                                                          judge_model):
    agent = make_bare_agent(["never"], input_processors=[
        Moderation(judge_model, include_scores=True)])
    result = await agent.generate("I will kill you")
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: violence, harassment/threatening. "
        "Reason: threatens violence. Scores: violence: 0.9, harassment/threatening: 0.6, "
        "hate: 0.1")
    assert result.tripwire.metadata["category_scores"] == {
        "violence": 0.9, "harassment/threatening": 0.6, "hate": 0.1}


async def test_text_under_the_threshold_passes(make_bare_agent, judge_model):
    agent = make_bare_agent(["Hello!"], input_processors=[Moderation(judge_model)])
    result = await agent.generate("meh, whatever")
    assert result.tripwire is None and result.text == "Hello!"
    assert judge_model.texts == ["meh, whatever"]


async def test_threshold_decides_what_is_flagged(make_bare_agent, judge_model):
    agent = make_bare_agent(["never"], input_processors=[
        Moderation(judge_model, threshold=0.3)])
    result = await agent.generate("meh, whatever")
    assert result.tripwire.reason == "Content flagged for moderation. Categories: harassment"


async def test_a_score_equal_to_the_threshold_is_flagged(make_bare_agent, judge_model):
    agent = make_bare_agent(["never"], input_processors=[
        Moderation(judge_model, threshold=0.7)])
    result = await agent.generate("you idiot")
    assert result.tripwire.metadata["types"] == ["harassment"]


async def test_categories_limit_what_is_scored_and_flagged(make_bare_agent, judge_model):
    moderation = Moderation(judge_model, categories=["harassment", "hate"])
    agent = make_bare_agent(["Hello!"], input_processors=[moderation])
    result = await agent.generate("I will kill you")  # violence is not a category here
    assert result.tripwire is None
    schema = judge_model.requests[0].structured_output["schema"]
    item = schema["properties"]["category_scores"]["anyOf"][0]["items"]
    assert item["properties"]["category"]["enum"] == ["harassment", "hate"]


async def test_the_judge_gets_the_instructions_schema_and_temperature_0(make_bare_agent,
                                                                       judge_model):
    moderation = Moderation(judge_model, instructions="Flag anything rude.")
    agent = make_bare_agent(["Hello!"], input_processors=[moderation])
    await agent.generate("hello there")
    request = judge_model.requests[0]
    assert request.prompt[0]["content"].startswith("Flag anything rude.\n\nReply with only")
    assert request.structured_output["name"] == "moderation"
    assert set(request.structured_output["schema"]["required"]) == {"category_scores", "reason"}
    assert request.model_settings == {"temperature": 0}


async def test_every_input_message_is_judged_whatever_its_role(make_bare_agent, judge_model):
    """The caller writes every turn it sends: a forged assistant turn is input too."""
    agent = make_bare_agent(["never"], input_processors=[Moderation(judge_model)])
    result = await agent.generate([Message.user("first"), Message.assistant("kill it"),
                                   Message.user("second")])
    assert sorted(judge_model.texts) == ["first", "kill it", "second"]
    assert result.tripwire.metadata["channel"] == "input" and agent.model.requests == []


async def test_a_callers_system_message_sent_as_input_is_judged(make_bare_agent, judge_model):
    """``caller_system="input"`` (tripwire serve's clients): the caller's system
    message is input and is judged; the agent's instructions are not."""
    agent = make_bare_agent(["never"], instructions="Be kind.",
                            input_processors=[Moderation(judge_model)])
    result = await agent.generate([{"role": "system", "content": "I will kill you"}, "hi"],
                                  caller_system="input")
    assert sorted(judge_model.texts) == ["I will kill you", "hi"]
    assert result.tripwire.processor_id == "moderation"
    assert agent.model.requests == []


async def test_input_messages_are_judged_concurrently(make_bare_agent):
    entered: list[str] = []
    release_after = 2

    class Concurrent(Moderator):
        async def stream(self, request):
            import asyncio

            entered.append(request.prompt[1]["content"][0]["text"])
            while len(entered) < release_after:  # the second call must start first
                await asyncio.sleep(0)
            async for chunk in super().stream(request):
                yield chunk

    agent = make_bare_agent(["Hello!"], input_processors=[Moderation(Concurrent())])
    result = await agent.generate([Message.user("one"), Message.user("two")])
    assert result.text == "Hello!" and sorted(entered) == ["one", "two"]


async def test_warn_on_input_reports_and_lets_the_message_through(make_bare_agent, judge_model):
    violations: list[ProcessorViolation] = []
    moderation = Moderation(judge_model, strategy="warn")
    moderation.on_violation = violations.append
    agent = make_bare_agent(["Hello!"], input_processors=[moderation])
    result = await agent.generate("you idiot")
    assert result.tripwire is None and result.text == "Hello!"
    assert prompt_texts(agent.model) == ["you idiot"]
    assert [v.message for v in violations] == [
        "Content flagged for moderation. Categories: harassment. Reason: insults the reader"]
    assert violations[0].detail["action"] == "warned"
    assert result.verdicts == [Verdict("moderation", "input", "warn", "warned", (
        result.verdicts[0].detections))]
    assert result.verdicts[0].types == ["harassment"]


async def test_filter_on_input_drops_only_the_flagged_message(make_bare_agent, judge_model):
    agent = make_bare_agent(["Hello!"], input_processors=[
        Moderation(judge_model, strategy="filter")])
    result = await agent.generate([Message.user("hello"), Message.user("you idiot"),
                                   Message.user("how are you")])
    assert prompt_texts(agent.model) == ["hello", "how are you"]
    assert [(v.channel, v.action, v.types) for v in result.verdicts] == [
        ("input", "filtered", ["harassment"])]


async def test_empty_text_is_not_judged(make_bare_agent, judge_model):
    agent = make_bare_agent(["Hello!"], input_processors=[Moderation(judge_model)])
    await agent.generate([Message.user("   "), Message.user("hi")])
    assert judge_model.texts == ["hi"]


# ---------------------------------------------------------------- stream


async def test_with_judge_stream_chunk_each_text_delta_is_judged_on_its_own(
        make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("Hello ", "you idiot", ", bye")],
                            output_processors=[Moderation(judge_model, strategy="warn",
                                                          judge_stream="chunk")])
    result, chunks = await stream_run(agent)
    # then the final response, as a whole (process_output_result)
    assert judge_model.texts == ["Hello ", "you idiot", ", bye", "Hello you idiot, bye"]
    assert streamed(chunks) == "Hello you idiot, bye"
    assert [(v.channel, v.action) for v in result.verdicts] == [
        ("output", "warned"), ("result", "warned")]


async def test_block_in_the_stream_stops_before_the_chunk_reaches_the_client(make_bare_agent,
                                                                            judge_model):
    agent = make_bare_agent([deltas("Hello ", "I will kill", " you")],
                            output_processors=[Moderation(judge_model, judge_stream="chunk")])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == "Hello "
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["reason"] == (
        "Content flagged for moderation. Categories: violence, harassment/threatening. "
        "Reason: threatens violence")
    assert chunks[-1].payload["metadata"]["channel"] == "output"
    assert result.tripwire.processor_id == "moderation"


async def test_filter_in_the_stream_drops_the_flagged_chunk(make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("Hello ", "you idiot", ", bye")],
                            output_processors=[Moderation(judge_model, strategy="filter",
                                                          judge_stream="chunk")])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == "Hello , bye"
    assert [(v.channel, v.action) for v in result.verdicts] == [("output", "filtered")]


async def test_chunk_window_judges_the_last_n_parts(make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("ki", "ll", " them", " all")],
                            output_processors=[Moderation(judge_model, chunk_window=2,
                                                          strategy="filter")])
    result, chunks = await stream_run(agent)
    assert judge_model.texts[:4] == ["ki", "kill", "ll them", " them all"]
    assert streamed(chunks) == "ki them all"  # the window that completed "kill" is dropped
    assert result.text == "ki them all"


async def test_judged_by_chunk_a_split_word_passes_the_stream_but_not_the_result(
        make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("ki", "ll", " them")],
                            output_processors=[Moderation(judge_model, judge_stream="chunk")])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == "kill them"
    assert result.tripwire.metadata["channel"] == "result"
    assert result.text == ""


async def test_reasoning_is_judged_in_the_stream_on_its_own_channel(make_bare_agent,
                                                                    judge_model):
    response = MockResponse(chunks=[{"type": "reasoning-delta", "id": "r", "text": "kill"},
                                    {"type": "text-delta", "id": "t", "text": "fine"}])
    agent = make_bare_agent([response], output_processors=[Moderation(judge_model)])
    result, chunks = await stream_run(agent)
    assert result.tripwire.metadata["channel"] == "reasoning"
    assert "kill" not in repr(chunks) and "kill" in judge_model.texts


# ---------------------------------------------------------------- the stream, by sentence


async def test_by_default_a_split_word_is_blocked_before_the_client_sees_it(make_bare_agent,
                                                                           judge_model):
    agent = make_bare_agent([deltas("Fine. ", "ki", "ll", " them")],
                            output_processors=[Moderation(judge_model)])
    result, chunks = await stream_run(agent)
    assert "Fine. ".startswith(streamed(chunks))  # judged clean, it may still be in flight
    assert result.tripwire.metadata["channel"] == "output"
    assert judge_model.texts == ["Fine. ", "kill them"]


async def test_each_sentence_is_judged_once_on_its_own(
        make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("Hello there. ", "How are ", "you?\n", "Bye")],
                            output_processors=[Moderation(judge_model)])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == result.text == "Hello there. How are you?\nBye"
    assert judge_model.texts == ["Hello there. ", "How are you?\n", "Bye",
                                 "Hello there. How are you?\nBye"]  # the last: the result


async def test_filter_by_sentence_drops_the_flagged_sentence(make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("Hello. ", "You ", "idiot. ", "Bye.")],
                            output_processors=[Moderation(judge_model, strategy="filter")])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == "Hello. Bye."
    assert [(v.channel, v.action) for v in result.verdicts] == [("output", "filtered")]


@pytest.mark.parametrize("until", ["line", "step"])
async def test_judge_stream_line_and_step(make_bare_agent, judge_model, until):
    agent = make_bare_agent([deltas("A. B.\n", "C. ", "D")],
                            output_processors=[Moderation(judge_model, judge_stream=until)])
    await stream_run(agent)
    expected = {"line": ["A. B.\n", "C. D"], "step": ["A. B.\nC. D"]}[until]
    assert judge_model.texts[:len(expected)] == expected


async def test_warn_does_not_hold_the_stream(make_bare_agent, judge_model):
    agent = make_bare_agent([deltas("you ", "idiot")],
                            output_processors=[Moderation(judge_model, strategy="warn")])
    result, chunks = await stream_run(agent)
    assert streamed(chunks) == "you idiot"
    assert [(v.channel, v.action) for v in result.verdicts] == [("result", "warned")]


def test_chunk_window_means_judge_stream_chunk():
    assert Moderation(Moderator(), chunk_window=2).judge_stream == "chunk"
    assert Moderation(Moderator()).judge_stream == "sentence"
    with pytest.raises(ConfigurationError, match="chunk_window applies to judge_stream 'chunk'"):
        Moderation(Moderator(), chunk_window=2, judge_stream="sentence")


# ---------------------------------------------------------------- result


async def test_block_on_the_result_rejects_the_response(make_bare_agent, judge_model):
    agent = make_bare_agent(["you idiot"], output_processors=[Moderation(judge_model)])
    result = await agent.generate("hi")
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: harassment. Reason: insults the reader")
    assert result.tripwire.metadata["channel"] == "output"  # generate streams too
    assert result.text == ""


async def test_the_result_hook_judges_the_assistant_messages():
    judge_model = Moderator()
    moderation = Moderation(judge_model, strategy="filter")
    keep, drop = Message.assistant("all good"), Message.assistant("you idiot")
    reports: list[Verdict] = []

    class Writer:
        def report(self, verdict: Verdict) -> None:
            reports.append(verdict)

    def abort(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("no abort with filter")

    kept = await moderation.process_output_result(
        messages=[Message.user("you idiot"), keep, drop], abort=abort, writer=Writer())
    assert [m.text for m in kept] == ["you idiot", "all good"]
    assert sorted(judge_model.texts) == ["all good", "you idiot"]
    assert [(v.channel, v.action) for v in reports] == [("result", "filtered")]


async def test_warn_on_the_result_keeps_the_text(make_bare_agent, judge_model):
    violations: list[ProcessorViolation] = []
    moderation = Moderation(judge_model, strategy="warn")
    moderation.on_violation = violations.append
    agent = make_bare_agent(["you idiot"], output_processors=[moderation])
    result = await agent.generate("hi")
    assert result.text == "you idiot"
    assert {v.channel for v in result.verdicts} == {"result"}  # warn: the stream not held
    assert len(violations) == 1


# ---------------------------------------------------------------- failures


async def test_a_judge_failure_fails_closed(make_bare_agent):
    judge_model = MockModel(["not json", "still not json"])
    agent = make_bare_agent(["never"], input_processors=[Moderation(judge_model)])
    with pytest.raises(ProcessorError) as info:
        await agent.generate("I will kill you")
    assert (info.value.processor_id, info.value.hook) == ("moderation", "process_input")
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "unparsable"
    assert "kill" not in str(info.value.__cause__)
    assert agent.model.requests == []


async def test_a_judge_failure_in_the_stream_fails_closed(make_bare_agent):
    judge_model = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    agent = make_bare_agent([deltas("Hello")], output_processors=[Moderation(judge_model)])
    stream = agent.stream("hi")
    with pytest.raises(ProcessorError) as info:
        async for _ in stream:
            pass
    assert info.value.hook == "process_output_stream"
    assert info.value.__cause__.kind == "api-error"


async def test_fail_open_lets_the_input_through_and_the_audit_says_so(only_plugins, tmp_path):
    only_plugins("moderation")
    judge_model = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    register_provider("judges", lambda model_id: judge_model)
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "moderation", model = "judges/down", fail_open = true }]

[models.scripted]
use = "mock"
responses = ["Hello!"]
''')
    agent = Agent.from_config(config, "support", audit=True)
    result = await agent.generate("I will kill you")
    assert result.text == "Hello!" and result.tripwire is None
    outcomes = [(r.processor_id, r.hook, r.outcome) for r in result.audit]
    assert ("moderation", "process_input", "fail-open") in outcomes


# ---------------------------------------------------------------- over HTTP


VERDICT = json.dumps({"category_scores": [{"category": "hate", "score": 0.8}],
                      "reason": "demeans a group"})


async def test_a_chat_judge_over_http_sends_the_schema(llm_server, make_bare_agent):
    llm_server.script(Reply(text=VERDICT))
    async with llm_server.openai(model="judge-test") as model:
        agent = make_bare_agent(["never"], input_processors=[Moderation(model)])
        result = await agent.generate("some hateful text")
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: hate. Reason: demeans a group")
    body = llm_server.requests[0].body
    assert llm_server.requests[0].path == "/v1/chat/completions"
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["category_scores", "reason"]
    assert body["temperature"] == 0
    assert body["messages"][-1]["content"] in ("some hateful text",
                                               [{"type": "text", "text": "some hateful text"}])


@pytest.fixture
def openai_env(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    return llm_server


async def test_a_moderation_model_id_uses_the_moderations_endpoint(openai_env, make_bare_agent):
    openai_env.script(ModerationReply([{"hate": 0.1, "self-harm/intent": 0.93}]))
    async with Moderation("openai/omni-moderation-latest", include_scores=True) as moderation:
        agent = make_bare_agent(["never"], input_processors=[moderation])
        result = await agent.generate("some text")
    request = openai_env.requests[0]
    assert request.path == "/v1/moderations"
    assert request.body == {"model": "omni-moderation-latest", "input": ["some text"]}
    assert request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: self-harm/intent. "
        "Scores: hate: 0.1, self-harm/intent: 0.93")
    assert result.tripwire.metadata["detections"][0]["detector"] == (
        "openai/omni-moderation-latest")


async def test_the_endpoint_judges_all_input_messages_in_one_request(openai_env,
                                                                     make_bare_agent):
    openai_env.script(ModerationReply([{"harassment": 0.0}, {"harassment": 0.8}]))
    async with Moderation("openai/text-moderation-stable", strategy="filter") as moderation:
        agent = make_bare_agent(["Hello!"], input_processors=[moderation])
        await agent.generate([Message.user("hello"), Message.user("you idiot")])
    assert [r.path for r in openai_env.requests] == ["/v1/moderations"]
    assert openai_env.requests[0].body["input"] == ["hello", "you idiot"]
    assert prompt_texts(agent.model) == ["hello"]


async def test_the_endpoint_in_the_stream(openai_env, make_bare_agent):
    openai_env.script(ModerationReply([{"violence": 0.2}]), ModerationReply([{"violence": 0.9}]),
                      ModerationReply([{"violence": 0.1}]))
    async with Moderation("openai/omni-moderation-latest", strategy="filter",
                          judge_stream="chunk") as moderation:
        agent = make_bare_agent([deltas("fine ", "gory")], output_processors=[moderation])
        _, chunks = await stream_run(agent)
    assert streamed(chunks) == "fine "
    assert [r.body["input"] for r in openai_env.requests] == [["fine "], ["gory"], ["fine "]]


async def test_the_endpoint_judges_the_stream_by_sentence(openai_env, make_bare_agent):
    openai_env.script(ModerationReply([{"violence": 0.1}]), ModerationReply([{"violence": 0.9}]),
                      ModerationReply([{"violence": 0.1}]), ModerationReply([{"violence": 0.1}]))
    async with Moderation("openai/omni-moderation-latest", strategy="filter") as moderation:
        agent = make_bare_agent([deltas("Fine. ", "So go", "ry. ", "Bye")],
                                output_processors=[moderation])
        result, chunks = await stream_run(agent)
    assert streamed(chunks) == "Fine. Bye"
    assert [r.body["input"] for r in openai_env.requests] == [
        ["Fine. "], ["So gory. "], ["Bye"], ["Fine. Bye"]]  # the sentences, the result


async def test_the_endpoint_retries_a_429_then_fails_closed(openai_env, make_bare_agent):
    openai_env.script(*[ErrorReply(429, "Rate limit reached", headers={"Retry-After": "0"})] * 3)
    async with Moderation("openai/omni-moderation-latest") as moderation:
        agent = make_bare_agent(["never"], input_processors=[moderation])
        with pytest.raises(ProcessorError) as info:
            await agent.generate("I will kill you")
    error = info.value.__cause__
    assert isinstance(error, JudgeError)
    assert (error.kind, error.status_code) == ("api-error", 429)
    assert "Rate limit reached" in str(error) and "kill" not in str(error)
    assert len(openai_env.requests) == 3


async def test_judge_timeout_bounds_an_endpoint_request(openai_env, make_bare_agent):
    openai_env.script(Hang())
    async with Moderation("openai/omni-moderation-latest", judge_timeout=0.2) as moderation:
        agent = make_bare_agent(["never"], input_processors=[moderation])
        with pytest.raises(ProcessorError) as info:
            await agent.generate("some text")
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "timeout"


async def test_the_endpoint_recovers_after_a_retried_429(openai_env, make_bare_agent):
    openai_env.script(ErrorReply(429, "Rate limit reached", headers={"Retry-After": "0"}),
                      ModerationReply([{"hate": 0.0}]))
    async with Moderation("openai/omni-moderation-latest") as moderation:
        agent = make_bare_agent(["Hello!"], input_processors=[moderation])
        result = await agent.generate("hi")
    assert result.text == "Hello!" and len(openai_env.requests) == 2


async def test_an_endpoint_answer_of_the_wrong_shape_is_a_judge_error(openai_env):
    openai_env.script(ModerationReply([]))
    async with Moderation("openai/omni-moderation-latest") as moderation:
        with pytest.raises(JudgeError) as info:
            await moderation.process_input(messages=[Message.user("x")], abort=None,
                                           writer=None)
    assert info.value.kind == "invalid"


def test_a_moderation_model_object_is_rejected_with_the_router_id_to_use(llm_server):
    with pytest.raises(ConfigurationError, match="openai/omni-moderation-latest"):
        Moderation(llm_server.openai(model="omni-moderation-latest"))


# ---------------------------------------------------------------- discovery


def test_listed_and_created_by_discovery(only_plugins):
    only_plugins("moderation")
    entry = tripwire.plugins.available()["moderation"]
    assert entry.cls is Moderation and entry.distribution == "tripwire"
    assert set(entry.hooks) == {"process_input", "process_output_stream",
                                "process_tool_result", "process_output_result"}
    moderation = tripwire.plugins.create("moderation", model="openai/gpt-5-nano",
                                         strategy="warn", categories=["hate"])
    assert (moderation.strategy, moderation.categories) == ("warn", ("hate",))
    with pytest.raises(ConfigurationError, match="model"):
        tripwire.plugins.create("moderation")


def test_tripwire_plugins_lists_it(only_plugins, cli):
    only_plugins("moderation")
    code, out, _ = cli("plugins")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("moderation "))
    assert "tripwire" in row and "ok" in row


async def test_works_from_toml_by_name(only_plugins, tmp_path):
    only_plugins("moderation")
    judge_model = MockModel([
        '{"category_scores": [{"category": "violence", "score": 0.65}], "reason": null}'])
    register_provider("judges", lambda model_id: judge_model)
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "moderation", model = "judges/any", threshold = 0.6 }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = ["never"]
''')
    agent = Agent.from_config(config, "support")
    result = await agent.generate("I will kill you")
    assert result.tripwire.reason == "Content flagged for moderation. Categories: violence"


class Quoting(Moderator):
    """A judge that puts the text it flags in its reason (as one the text talked into
    it would)."""

    async def stream(self, request):
        async for c in super().stream(request):
            if c.type == "text-delta":
                v = json.loads(c.payload["text"])
                if v["category_scores"]:
                    v["reason"] = f"The text reads: {self.texts[-1]}"
                c = Chunk("text-delta", {"id": "t", "text": json.dumps(v)})
            yield c


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_reason_that_quotes_the_flagged_text_is_not_shown(make_bare_agent, mode):
    """The blocked answer never reaches the client through the tripwire's reason."""
    flagged = "To kill him, meet me at 5 Elm Street at noon."
    agent = make_bare_agent([flagged], output_processors=[Moderation(Quoting())])
    chunks, result = await run_collected(agent, "hi", mode == "stream")
    assert "Elm Street" not in repr(chunks) + repr(result.tripwire)
    assert result.tripwire.reason == (
        "Content flagged for moderation. Categories: violence, harassment/threatening")
