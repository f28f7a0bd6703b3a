"""The judge (tripwire.guards.judge): a structured verdict from a model, validated, cached,
coalesced, limited in concurrency and time, with one error type for every failure;
with MockModel verdicts, through an agent run, and over HTTP against the local server."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.support.fake_llm_server import ErrorReply, Hang, Reply, openai_refusal
from tripwire import (
    APICallError,
    ConfigurationError,
    Judge,
    JudgeError,
    MissingDependencyError,
    ProcessorError,
)
from tripwire.chunks import Chunk, Usage
from tripwire.guards.judge import QUOTE_MIN_CHARS, unquoted_reason
from tripwire.testing import MockModel, MockResponse

SCHEMA = {
    "type": "object",
    "properties": {
        "flagged": {"type": "boolean"},
        "categories": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["flagged"],
}
INSTRUCTIONS = "Decide whether the text is abusive."
FLAGGED = '{"flagged": true, "categories": ["harassment"]}'
CLEAN = '{"flagged": false}'
#: A judged text that must never appear in an error message.
SECRET_TEXT = "Alice Example lives at 12 Private Road and is a jerk"


def make_judge(model, **options):
    return Judge(model, instructions=INSTRUCTIONS, schema=SCHEMA, **options)


def prompt_texts(request) -> list[str]:
    """Every text of a request's prompt, in order (system content and text parts)."""
    out = []
    for message in request.prompt:
        content = message["content"]
        out += [content] if isinstance(content, str) else [p["text"] for p in content]
    return out


class GatedModel:
    """A model whose calls wait for ``release``; it counts calls open at once."""

    provider = "gated"
    model_id = "gate"

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.active = 0
        self.peak = 0
        self.calls = 0

    async def stream(self, request):
        self.calls += 1
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            await self.release.wait()
        finally:
            self.active -= 1
        yield Chunk("text-delta", {"id": "t", "text": CLEAN})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()})


async def spin(until, turns: int = 1000) -> None:
    """Let other tasks run until ``until()`` holds (a deadlock guard, not a timer)."""
    for _ in range(turns):
        if until():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


# ---------------------------------------------------------------- verdicts


async def test_a_valid_verdict_is_returned_as_a_dict():
    judge = make_judge(MockModel([FLAGGED]))
    assert await judge(SECRET_TEXT) == {"flagged": True, "categories": ["harassment"]}
    assert judge.calls == 1


async def test_the_model_gets_instructions_schema_text_native_schema_and_temperature_0():
    model = MockModel([CLEAN])
    await make_judge(model, name="abuse")("some text")

    request = model.requests[0]
    system, user = request.prompt
    assert system["role"] == "system" and system["content"].startswith(INSTRUCTIONS)
    assert json.dumps(SCHEMA, sort_keys=True, separators=(",", ":")) in system["content"]
    assert user == {"role": "user", "content": [{"type": "text", "text": "some text"}]}
    assert request.structured_output == {"schema": SCHEMA, "name": "abuse"}
    assert request.model_settings == {"temperature": 0}
    assert request.tools == []


async def test_temperature_none_sends_no_temperature():
    model = MockModel([CLEAN])
    await make_judge(model, temperature=None)("x")
    assert model.requests[0].model_settings == {}


async def test_context_comes_before_the_text_in_the_user_message():
    model = MockModel([CLEAN])
    await make_judge(model)("the reply", context="the question")
    assert prompt_texts(model.requests[0])[1] == "Context:\nthe question\n\nText to judge:\nthe reply"


@pytest.mark.parametrize(
    "reply",
    [
        f"```json\n{FLAGGED}\n```",
        f"Here is my verdict:\n```\n{FLAGGED}\n```\nLet me know if you need more.",
        f"After careful thought, the verdict is {FLAGGED} as requested.",
    ],
    ids=["fenced", "fenced-with-prose", "prose-around"],
)
async def test_json_in_fences_or_prose_is_found(reply):
    assert (await make_judge(MockModel([reply]))("x"))["flagged"] is True


async def test_an_unparsable_verdict_is_retried_once_with_the_problem_fed_back():
    model = MockModel(["I think it is fine.", CLEAN])
    assert await make_judge(model)("x") == {"flagged": False}

    assert len(model.requests) == 2
    retry = model.requests[1].prompt
    assert retry[:2] == model.requests[0].prompt
    assert retry[2] == {"role": "assistant",
                        "content": [{"type": "text", "text": "I think it is fine."}]}
    assert retry[3]["role"] == "user"
    feedback = retry[3]["content"][0]["text"]
    assert "not a valid verdict" in feedback and "holds no JSON verdict" in feedback


async def test_a_schema_violation_is_retried_with_the_violation_named():
    model = MockModel(['{"flagged": "yes"}', CLEAN])
    assert await make_judge(model)("x") == {"flagged": False}
    feedback = prompt_texts(model.requests[1])[-1]
    assert "$.flagged: 'yes' is not of type 'boolean'" in feedback


async def test_two_unparsable_verdicts_raise_judge_error_quoting_the_reply_not_the_text():
    reply = "Sorry, I cannot produce JSON today. " * 20
    judge = make_judge(MockModel([reply, reply]))
    with pytest.raises(JudgeError) as info:
        await judge(SECRET_TEXT)

    error = info.value
    assert error.kind == "unparsable" and error.model == "mock/mock-model"
    assert str(error).startswith("judge 'verdict' (mock/mock-model): the reply holds no JSON")
    assert repr(reply[:200]) in str(error) and reply[:201] not in str(error)
    assert "(2 attempts)" in str(error)
    assert "Alice" not in str(error) and "Private Road" not in str(error)
    assert judge.calls == 2


async def test_a_schema_violation_on_the_last_attempt_names_the_path():
    judge = make_judge(MockModel(['{"categories": [1]}']), retries=0)
    with pytest.raises(JudgeError) as info:
        await judge("x")
    assert info.value.kind == "invalid"
    assert info.value.errors == ("$: 'flagged' is a required property",
                                 "$.categories[0]: the value is not of type 'string'")
    assert "does not match the schema: $: 'flagged' is a required property" in str(info.value)


async def test_a_schema_violation_error_does_not_quote_the_value_the_model_repeated():
    # A judge that puts the judged text where the schema wants something else: the
    # model is told what it wrote (it saw the text), the JudgeError (logged, raised to
    # a serve operator's log as a ProcessorError) is not.
    bad = json.dumps({"flagged": SECRET_TEXT})
    model = MockModel([bad, bad])
    with pytest.raises(JudgeError) as info:
        await make_judge(model)(SECRET_TEXT)
    assert info.value.errors == ("$.flagged: the value is not of type 'boolean'",)
    assert SECRET_TEXT not in str(info.value) and SECRET_TEXT not in repr(info.value)
    assert "Alice" not in str(info.value)
    feedback = prompt_texts(model.requests[1])[-1]
    assert f"$.flagged: {SECRET_TEXT!r} is not of type 'boolean'" in feedback


async def test_an_empty_reply_is_reported_as_empty():
    with pytest.raises(JudgeError, match="the model's reply is empty") as info:
        await make_judge(MockModel(["", ""]))("x")
    assert info.value.kind == "unparsable"


async def test_a_refusal_is_reported_and_not_retried():
    model = MockModel([MockResponse(text="", finish_reason="content-filter")])
    with pytest.raises(JudgeError, match="refused to give a verdict") as info:
        await make_judge(model)("x")
    assert info.value.kind == "refused" and len(model.requests) == 1


async def test_an_api_error_becomes_a_judge_error_with_its_status():
    failure = APICallError("Rate limit reached", status_code=429, is_retryable=True)
    with pytest.raises(JudgeError) as info:
        await make_judge(MockModel([MockResponse(error=failure)]))("x")
    assert info.value.kind == "api-error" and info.value.status_code == 429
    assert "the model call failed (HTTP 429): Rate limit reached" in str(info.value)
    assert info.value.__cause__ is failure


async def test_another_model_failure_is_a_judge_error_too():
    with pytest.raises(JudgeError, match="the model call failed: RuntimeError: boom") as info:
        await make_judge(MockModel([MockResponse(error=RuntimeError("boom"))]))("x")
    assert info.value.kind == "model-error"


async def test_an_attempt_over_the_timeout_is_a_timeout_error_and_the_call_is_closed():
    model = MockModel([CLEAN], chunk_delay=60)
    with pytest.raises(JudgeError, match="no verdict within the timeout of 0.05 s") as info:
        await make_judge(model, timeout=0.05)("x")
    assert info.value.kind == "timeout"
    assert model.closed_early == 1


# ---------------------------------------------------------------- cache and coalescing


async def test_the_same_text_is_judged_once():
    model = MockModel([FLAGGED, CLEAN])
    judge = make_judge(model)
    first = await judge("same text")
    first["flagged"] = "changed by the caller"
    assert await judge("same text") == {"flagged": True, "categories": ["harassment"]}
    assert (judge.calls, judge.cache_hits) == (1, 1)
    assert await judge("other text") == {"flagged": False}
    assert (judge.calls, judge.cache_hits) == (2, 1)


async def test_the_context_is_part_of_the_cache_key():
    judge = make_judge(MockModel([CLEAN, FLAGGED]))
    await judge("text", context="a")
    assert (await judge("text", context="b"))["flagged"] is True
    assert judge.calls == 2


async def test_cache_size_0_judges_every_time():
    judge = make_judge(MockModel([CLEAN, CLEAN]), cache_size=0)
    await judge("same text")
    await judge("same text")
    assert (judge.calls, judge.cache_hits) == (2, 0)


async def test_failures_are_not_cached():
    judge = make_judge(MockModel(["no", "no", CLEAN]))
    with pytest.raises(JudgeError):
        await judge("x")
    assert await judge("x") == {"flagged": False}
    assert judge.calls == 3


async def test_the_least_recently_used_verdict_is_evicted():
    judge = make_judge(MockModel([CLEAN] * 5), cache_size=2)
    for text in ["a", "b", "a", "c"]:  # "a" was used again, so "c" evicts "b"
        await judge(text)
    assert (judge.calls, judge.cache_hits) == (3, 1)
    await judge("a")
    assert judge.calls == 3
    await judge("b")
    assert judge.calls == 4


async def test_concurrent_identical_requests_make_one_model_call():
    model = GatedModel()
    judge = make_judge(model)
    waiting = asyncio.gather(*(judge("same") for _ in range(3)))
    await spin(lambda: model.active == 1)
    model.release.set()
    verdicts = await waiting

    assert verdicts == [{"flagged": False}] * 3
    assert verdicts[0] is not verdicts[1]
    assert model.calls == 1
    assert (judge.calls, judge.cache_hits, judge.coalesced) == (1, 2, 2)


async def test_a_cancelled_caller_leaves_the_others_their_verdict():
    model = GatedModel()
    judge = make_judge(model)
    first = asyncio.ensure_future(judge("same"))
    second = asyncio.ensure_future(judge("same"))
    await spin(lambda: model.active == 1)
    first.cancel()
    model.release.set()
    assert await second == {"flagged": False}
    assert first.cancelled() and model.calls == 1


async def test_when_every_caller_is_cancelled_the_model_call_is_cancelled():
    model = MockModel([CLEAN, CLEAN], chunk_delay=60)
    judge = make_judge(model)
    caller = asyncio.ensure_future(judge("x"))
    await spin(lambda: len(model.requests) == 1)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    await spin(lambda: model.closed_early == 1)


async def test_no_more_than_max_concurrency_calls_are_open_at_once():
    model = GatedModel()
    judge = make_judge(model, max_concurrency=2)
    waiting = asyncio.gather(*(judge(f"text {i}") for i in range(6)))
    await spin(lambda: model.active == 2)
    for _ in range(50):  # the others stay queued however long the loop runs
        await asyncio.sleep(0)
    assert model.active == 2
    model.release.set()
    await waiting
    assert model.peak == 2 and model.calls == 6


async def test_a_judge_works_in_one_event_loop_after_another():
    judge = make_judge(MockModel([CLEAN, FLAGGED]), cache_size=0)

    def run(text):
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(judge(text))
        finally:
            loop.close()

    assert await asyncio.to_thread(run, "a") == {"flagged": False}
    assert (await asyncio.to_thread(run, "b"))["flagged"] is True


# ---------------------------------------------------------------- configuration


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"schema": {"type": "array"}}, r'schema must be a JSON Schema mapping with "type": "object"'),
        ({"schema": {"type": "object", "properties": {"a": {"type": "nope"}}}},
         r"not a valid JSON Schema at \$.properties.a.type"),
        ({"instructions": "  "}, "instructions must not be empty"),
        ({"name": "has space"}, "name must be 1-64 letters"),
        ({"timeout": 0}, "timeout must be a number >= 0.001"),
        ({"max_concurrency": 0}, "max_concurrency must be"),
        ({"cache_size": -1}, "cache_size must be"),
        ({"retries": True}, "retries must be"),
    ],
)
def test_bad_options_are_configuration_errors(options, message):
    kwargs = {"instructions": INSTRUCTIONS, "schema": SCHEMA, **options}
    with pytest.raises(ConfigurationError, match=message):
        Judge(MockModel(), **kwargs)


def test_a_bad_model_id_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="not of the form 'provider/model'"):
        make_judge("gpt-5-nano")


def test_without_jsonschema_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'tripwire\[structured\]'"):
        make_judge(MockModel())


# ---------------------------------------------------------------- in a processor


def docs_example() -> dict:
    """The processor example of docs/judge.md, run as written."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "judge.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "class NoAbuse" in b)
    namespace: dict = {}
    exec(compile(block, "docs/judge.md", "exec"), namespace)
    return namespace


NoAbuse = docs_example()["NoAbuse"]


async def test_a_processor_aborts_on_the_judges_verdict(make_bare_agent):
    judge_model = MockModel([FLAGGED])
    agent = make_bare_agent(["never sent"], input_processors=[NoAbuse(judge_model)])
    result = await agent.generate("you jerk")
    assert result.tripwire.reason == "Abuse detected"
    assert prompt_texts(judge_model.requests[0])[1] == "you jerk"
    assert agent.model.requests == []


async def test_a_judge_failure_fails_the_processor_closed(make_bare_agent):
    agent = make_bare_agent(["never sent"], input_processors=[NoAbuse(MockModel(["nope", "nope"]))])
    with pytest.raises(ProcessorError) as info:
        await agent.generate(SECRET_TEXT)
    assert info.value.processor_id == "no-abuse" and info.value.hook == "process_input"
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "unparsable"
    assert agent.model.requests == []


async def test_a_fail_open_processor_lets_the_run_go_on_and_the_audit_says_so(make_bare_agent):
    judge_model = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    agent = make_bare_agent(["Hello!"], input_processors=[NoAbuse(judge_model, fail_open=True)],
                            audit=True)
    result = await agent.generate("hi")
    assert result.text == "Hello!"
    outcomes = [(r.processor_id, r.hook, r.outcome) for r in result.audit]
    assert ("no-abuse", "process_input", "fail-open") in outcomes


# ---------------------------------------------------------------- over HTTP


WIRES = ["openai", "anthropic"]


@pytest.mark.parametrize("wire", WIRES)
async def test_the_request_carries_the_json_schema_natively(llm_server, wire):
    llm_server.script(Reply(text=FLAGGED))
    async with llm_server.model(wire) as model:
        assert (await make_judge(model)("x"))["flagged"] is True

    body = llm_server.requests[0].body
    assert body["temperature"] == 0
    if wire == "openai":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "verdict", "schema": SCHEMA, "strict": False},
        }
        assert body["messages"][0]["content"].startswith(INSTRUCTIONS)
    else:
        assert body["output_config"] == {"format": {"type": "json_schema", "schema": SCHEMA}}
        assert body["system"][0]["text"].startswith(INSTRUCTIONS)


@pytest.mark.parametrize("wire", WIRES)
async def test_a_malformed_verdict_is_retried_then_reported(llm_server, wire):
    llm_server.script(Reply(text='{"flagged": tru'), Reply(text=CLEAN),
                      Reply(text="<verdict>yes</verdict>"), Reply(text="<verdict>yes</verdict>"))
    async with llm_server.model(wire) as model:
        judge = make_judge(model)
        assert await judge("first") == {"flagged": False}
        with pytest.raises(JudgeError, match="holds no JSON verdict") as info:
            await judge("second")
    assert info.value.kind == "unparsable"
    assert len(llm_server.requests) == 4


@pytest.mark.parametrize("wire", WIRES)
async def test_a_429_is_retried_by_the_transport_after_retry_after(llm_server, wire):
    llm_server.script(ErrorReply(429, "Rate limit reached", headers={"Retry-After": "0"}),
                      Reply(text=CLEAN))
    # Backoff alone would wait a minute: answering within the judge's timeout shows
    # the server's Retry-After was honoured.
    async with llm_server.model(wire, retry_initial_delay=60, retry_max_delay=60) as model:
        judge = make_judge(model, timeout=20)
        assert await judge("x") == {"flagged": False}
    assert len(llm_server.requests) == 2 and judge.calls == 1


@pytest.mark.parametrize("wire", WIRES)
async def test_a_429_with_no_retries_left_is_an_api_error(llm_server, wire):
    llm_server.script(ErrorReply(429, "Rate limit reached"))
    async with llm_server.model(wire, max_retries=0) as model:
        with pytest.raises(JudgeError) as info:
            await make_judge(model)(SECRET_TEXT)
    assert info.value.kind == "api-error" and info.value.status_code == 429
    assert "(HTTP 429)" in str(info.value) and "Private Road" not in str(info.value)


@pytest.mark.parametrize("wire", WIRES)
async def test_a_hanging_server_is_a_timeout(llm_server, wire):
    llm_server.script(Hang())
    async with llm_server.model(wire) as model:
        with pytest.raises(JudgeError, match="no verdict within the timeout") as info:
            await make_judge(model, timeout=0.2)("x")
    assert info.value.kind == "timeout"


async def test_an_anthropic_refusal_stop_reason_is_a_refusal(llm_server):
    llm_server.script(Reply(text="", finish_reason="content-filter"))
    async with llm_server.anthropic() as model:
        with pytest.raises(JudgeError, match="refused to give a verdict") as info:
            await make_judge(model)("x")
    assert info.value.kind == "refused"
    assert len(llm_server.requests) == 1


async def test_an_openai_refusal_field_is_a_refusal(llm_server):
    # OpenAI ends a refusal with finish_reason "stop"; the provider marks it
    # content-filter, so the judge reports it as refused, without a retry.
    llm_server.script(openai_refusal("I'm sorry, but I can't help with that."))
    async with llm_server.openai() as model:
        with pytest.raises(JudgeError, match="refused to give a verdict") as info:
            await make_judge(model)("x")
    assert info.value.kind == "refused"
    assert len(llm_server.requests) == 1


async def test_a_router_id_builds_a_provider_the_judge_closes(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.script(Reply(text=CLEAN))
    async with make_judge("openai/gpt-test") as judge:
        assert judge.label == "openai/gpt-test"
        assert await judge("x") == {"flagged": False}
    assert judge.model.closed
    assert llm_server.requests[0].body["model"] == "gpt-test"


@given(st.text(min_size=1, max_size=80), st.data())
def test_a_reason_that_quotes_the_judged_text_is_withheld(text, data):
    """Any run of QUOTE_MIN_CHARS characters of the text (or all of a shorter one), in
    any case and spacing, anywhere in the reason."""
    squeezed = " ".join(text.split())
    assume(squeezed)
    size = min(QUOTE_MIN_CHARS, len(squeezed))
    start = data.draw(st.integers(0, len(squeezed) - size))
    quote = squeezed[start:start + size]
    assume(quote == quote.strip())
    quote = data.draw(st.sampled_from([quote, quote.upper(), quote.replace(" ", "\n  ")]))
    reason = data.draw(st.text(max_size=20)) + quote + data.draw(st.text(max_size=20))
    assert unquoted_reason(reason, text) is None


def test_a_reason_that_does_not_quote_is_kept():
    text = "You worthless idiot, I will find where you live."
    assert unquoted_reason("threatens the reader", text) == "threatens the reader"
    assert unquoted_reason("calls the reader an idiot", text) == "calls the reader an idiot"
    assert unquoted_reason(None, text) is None and unquoted_reason(3, text) is None


def _quotes_naively(reason: str, text: str) -> bool:
    said, judged = (" ".join(t.casefold().split()) for t in (reason, text))
    size = min(QUOTE_MIN_CHARS, len(judged))
    return bool(size) and any(said[i:i + size] in judged for i in range(len(said) - size + 1))


@given(st.text("ab c", max_size=300), st.text("ab c", min_size=1, max_size=600))
def test_the_quote_check_finds_exactly_the_common_runs(reason, text):
    """The linear-time search (a 1 MB text and a 2 KB reason took seconds when each of
    the reason's runs was searched for in the text) withholds exactly the reasons that
    share a run with the text; a small alphabet makes near misses common."""
    assume(reason.strip())
    assert (unquoted_reason(reason, text) is None) == _quotes_naively(reason, text)


def test_the_quote_check_on_a_large_repetitive_text():
    text = ("a" * 15 + "c") * 20_000
    near_miss = ("a" * 15 + "b") * 100
    assert unquoted_reason(near_miss, text) == near_miss
    assert unquoted_reason(near_miss + "aac" + "a" * 13, text) is None
