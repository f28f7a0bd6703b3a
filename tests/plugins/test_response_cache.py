"""response-cache: a model call answered from a cache (memory, SQLite, a real Redis),
replayed through the output processors, never written for a failed, tripped or replayed
step, keyed so that different agents never share an entry, per-call overrides, backend
failures that never fail a run, and concurrent identical calls computed once."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import textwrap

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tripwire
from tests.support.helpers import eventually, run_collected
from tripwire import (
    RESOURCE_ID_KEY,
    Agent,
    Chunk,
    ConfigurationError,
    Processor,
    RequestContext,
    build_response_cache_key,
    hookimpl,
    tool,
)
from tripwire.caches import close_cache, decode_chunks, encode_chunks, open_cache
from tripwire.caches.keys import stable_json
from tripwire.caches.memory import MemoryCache
from tripwire.messages import FilePart, Message, TextPart
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.plugins.response_cache import CONTEXT_KEY, ResponseCache
from tripwire.testing import MockModel, MockResponse

LOGGER = "tripwire.plugins.response_cache"
SECRET = "ZEBRA-7731"


class FromCache(Processor):
    """Records ``from_cache`` of every step (process_llm_response)."""

    id = "from-cache"

    def __init__(self):
        self.seen = []

    @hookimpl
    def process_llm_response(self, from_cache):
        self.seen.append(from_cache)


class CountingCache(MemoryCache):
    """A memory backend that counts writes."""

    def __init__(self):
        super().__init__()
        self.writes = []

    async def set(self, key, value, ttl_seconds):
        self.writes.append((key, ttl_seconds))
        await super().set(key, value, ttl_seconds)


class BrokenCache:
    """A backend whose every operation fails, as an unreachable server's does."""

    async def get(self, key):
        raise ConnectionError("cache server unreachable")

    async def set(self, key, value, ttl_seconds):
        raise ConnectionError("cache server unreachable")

    async def delete(self, key):
        raise ConnectionError("cache server unreachable")

    async def incr(self, key, amount, ttl_seconds):
        raise ConnectionError("cache server unreachable")


async def run(agent, prompt="hi", mode="generate", **options):
    """The text the client gets, in either mode."""
    if mode == "generate":
        return (await agent.generate(prompt, **options)).text
    stream = agent.stream(prompt, **options)
    return "".join([c.payload["text"] async for c in stream if c.type == "text-delta"])


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def cache_url(request, tmp_path):
    if request.param == "memory":
        yield "memory://"
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/responses.db"
    else:
        yield request.getfixturevalue("redis_server").url


# ------------------------------------------------------------------ hits and misses


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_repeated_call_is_answered_from_the_cache(make_bare_agent, cache_url, mode):
    cache = ResponseCache(cache=cache_url)
    seen = FromCache()
    agent = make_bare_agent(["the answer", "never used"], input_processors=[cache, seen])
    assert await run(agent, mode=mode) == "the answer"
    assert await run(agent, mode=mode) == "the answer"
    assert len(agent.model.requests) == 1
    assert seen.seen == [False, True]
    await cache.cache.close()


async def test_a_replay_reports_the_cached_usage_and_finish(make_bare_agent):
    agent = make_bare_agent(
        [MockResponse(text="ok", usage={"input_tokens": 3, "output_tokens": 1, "total_tokens": 4})],
        input_processors=[ResponseCache()],
    )
    first = await agent.generate("hi")
    second = await agent.generate("hi")
    assert (second.text, second.finish_reason, second.usage) == ("ok", "stop", first.usage)
    assert second.steps[0].from_cache and not first.steps[0].from_cache


async def test_a_different_prompt_is_a_miss(make_bare_agent):
    agent = make_bare_agent(["one", "two"], input_processors=[ResponseCache()])
    assert [await run(agent, "a"), await run(agent, "b")] == ["one", "two"]


async def test_each_step_of_a_tool_loop_is_cached(make_bare_agent):
    calls = []

    @tool
    def lookup(city: str) -> str:
        """Weather of a city."""
        calls.append(city)
        return "sunny"

    model = MockModel(
        [
            MockResponse(
                tool_calls=[{"tool_name": "lookup", "args": {"city": "Oslo"}, "tool_call_id": "c1"}]
            ),
            MockResponse(text="It is sunny in Oslo."),
        ]
    )
    agent = make_bare_agent(model=model, tools=[lookup], input_processors=[ResponseCache()])
    assert await run(agent, "weather?") == "It is sunny in Oslo."
    assert await run(agent, "weather?") == "It is sunny in Oslo."
    assert len(model.requests) == 2  # both steps of the second run were replayed
    assert calls == ["Oslo", "Oslo"]  # a replayed tool call runs the tool


# ------------------------------------------------------------------ guardrails on replay


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize("guard", ["pii-detector", "regex-filter"])
async def test_a_replay_goes_through_the_output_guardrails(make_bare_agent, mode, guard):
    output = (
        PIIDetector(strategy="redact", detection_types=("email",))
        if guard == "pii-detector"
        else RegexFilter(presets=["pii"], strategy="redact")
    )
    seen = FromCache()
    agent = make_bare_agent(
        ["Write to jane.doe@example.com today."],
        input_processors=[ResponseCache(), seen],
        output_processors=[output],
    )
    first = await run(agent, mode=mode)
    second = await run(agent, mode=mode)
    assert "jane.doe@example.com" not in first
    assert second == first
    assert seen.seen == [False, True]  # the second answer was the cache's


async def test_a_blocking_guardrail_still_trips_on_a_replay(make_bare_agent):
    cache = ResponseCache()
    agent = make_bare_agent(["card 4111 1111 1111 1111"], input_processors=[cache])
    assert "4111" in await run(agent)  # cached without a guardrail
    guarded = make_bare_agent(
        model=MockModel([]),
        input_processors=[cache],
        output_processors=[RegexFilter(presets=["pii"], strategy="block")],
    )
    result = await guarded.generate("hi")
    assert result.tripwire is not None and "4111" not in result.text
    assert guarded.model.requests == []  # it was the replay that tripped


# ------------------------------------------------------------------ what is never written


async def test_a_failed_step_is_not_cached(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(
        [MockResponse(error=tripwire.APICallError("boom", 500, False)), "ok"],
        input_processors=[ResponseCache(cache=backend)],
    )
    with pytest.raises(tripwire.APICallError):
        await agent.generate("hi")
    assert await run(agent) == "ok"
    assert len(backend.writes) == 1 and len(agent.model.requests) == 2


async def test_a_step_with_an_unsuccessful_finish_reason_is_not_cached(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(
        [MockResponse(text="partial", finish_reason="content-filter"), "full"],
        input_processors=[ResponseCache(cache=backend)],
    )
    await agent.generate("hi")
    assert await run(agent) == "full"
    assert len(agent.model.requests) == 2


@pytest.mark.parametrize("chunk", [
    Chunk("data-weather", {"data": {"t": 21}}),
    Chunk("source", {"url": "https://example.com", "title": "Example"}),
    Chunk("citation", {"text": "quoted"}),
    Chunk("text-delta", {"id": "t", "text": "a", "logprobs": [0.5]}),
], ids=["data", "source", "provider-type", "text-extra-key"])
async def test_a_step_with_a_chunk_a_replay_does_not_carry_is_not_cached(
        make_bare_agent, caplog, chunk):
    """A replay carries only the types and keys tripwire names (``REPLAY_KEYS``): a step
    with any other is not written (an entry every read would refuse), and says why."""
    backend = CountingCache()
    step = [{"type": "text-delta", "id": "t", "text": "answer"}, chunk]
    agent = make_bare_agent([MockResponse(chunks=step), MockResponse(chunks=step)],
                            input_processors=[ResponseCache(cache=backend)])
    with caplog.at_level(logging.INFO, logger=LOGGER):
        await agent.generate("hi")
        await agent.generate("hi")
    assert backend.writes == [] and len(agent.model.requests) == 2
    assert "a replay does not carry" in caplog.text
    assert "read as a miss" not in caplog.text


async def test_a_step_tripped_in_the_stream_is_not_cached(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(
        ["password: hunter2", "clean"],
        input_processors=[ResponseCache(cache=backend)],
        output_processors=[RegexFilter([{"name": "pw", "pattern": "hunter2"}])],
    )
    tripped = await agent.generate("hi")
    assert tripped.tripwire is not None
    assert await run(agent) == "clean"
    assert len(backend.writes) == 1 and len(agent.model.requests) == 2


async def test_a_replayed_step_is_not_written_again(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(["once"], input_processors=[ResponseCache(cache=backend, ttl=60)])
    for _ in range(3):
        assert await run(agent) == "once"
    assert backend.writes == [(backend.writes[0][0], 60.0)]


async def test_the_stored_entry_carries_no_run_id_nor_raw_provider_data(make_bare_agent):
    backend = CountingCache()

    class RawFinish(Processor):
        id = "raw"

        @hookimpl
        def process_llm_request(self, step_number):
            return None

    agent = make_bare_agent(
        [
            MockResponse(
                chunks=[
                    Chunk("text-delta", {"id": "t", "text": "hi"}),
                    Chunk(
                        "finish",
                        {
                            "finish_reason": "stop",
                            "usage": None,
                            "request": {"body": "secret"},
                            "raw_response": {"headers": "x"},
                            "warnings": ["w"],
                        },
                    ),
                ]
            )
        ],
        input_processors=[ResponseCache(cache=backend), RawFinish()],
    )
    await agent.generate("hi")
    ((key, _),) = backend.writes
    chunks = decode_chunks(await backend.get(key))
    assert all(c.run_id is None for c in chunks)
    assert set(chunks[-1].payload) <= {"finish_reason", "usage", "provider_metadata"}


async def test_an_entry_of_another_format_version_is_a_miss(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(
        ["fresh", "fresh again"], input_processors=[ResponseCache(cache=backend)]
    )
    await agent.generate("hi")
    ((key, _),) = backend.writes
    old = encode_chunks([Chunk("text-delta", {"id": "t", "text": "stale"})])
    await backend.set(key, old.replace(b"/1\n", b"/0\n", 1), None)
    assert await run(agent) == "fresh again"


# ------------------------------------------------------------------ poisoned entries

_HEADER = b"tripwire-chunks/%d\n" % tripwire.caches.FORMAT_VERSION
_FINISH = {"type": "finish", "payload": {"finish_reason": "stop"}}


def _entry(*chunks):
    return _HEADER + json.dumps(list(chunks)).encode()


def _text(text):
    return {"type": "text-delta", "payload": {"id": "t", "text": text}}


class Poisoned(MemoryCache):
    """A shared backend someone else wrote to: every read returns ``data``."""

    def __init__(self, data):
        super().__init__()
        self.data = data

    async def get(self, key):
        return self.data


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize(
    "data",
    [
        _HEADER + b"[" * 100_000 + b"]" * 100_000,  # nested too deeply to parse
        _entry({"type": 5, "payload": {}}, _FINISH),
        _entry({"type": "text-delta", "payload": {"text": 5}}, _FINISH),
        _entry(
            {"type": "tool-call", "payload": {"tool_call_id": "c", "tool_name": "t", "args": "x"}},
            _FINISH,
        ),
        _entry(_text("a"), {"type": "finish", "payload": {"finish_reason": "stop", "usage": [1]}}),
        _entry({"type": "tripwire", "payload": {"reason": "x"}}),  # never written: failed steps
        _entry({"type": "error", "payload": {"error": "x"}}, _FINISH),
        _entry(_text("no finish")),
        _entry(_text("a"), {"type": "finish", "payload": {"finish_reason": "error"}}),
        _entry(),
        # never stored: they would become result.steps[i].warnings / .request / .response
        _entry(_text("a"), {"type": "finish", "payload": {"finish_reason": "stop",
                                                          "warnings": [SECRET]}}),
        _entry(_text("a"), {"type": "finish", "payload": {"finish_reason": "stop",
                                                          "request": {"body": SECRET}}}),
        _entry(_text("a"), {"type": "finish", "payload": {"finish_reason": "stop",
                                                          "raw_response": {"id": SECRET}}}),
        # a chunk only the run emits, which no model step writes
        _entry(_text("a"), {"type": "tool-result", "payload": {
            "tool_call_id": "c", "tool_name": "t", "result": SECRET}}, _FINISH),
        # a type or key name no guard reads and tripwire does not give
        _entry(_text("a"), {"type": f"data-{SECRET}", "payload": {"data": 1}}, _FINISH),
        _entry(_text("a"), {"type": SECRET, "payload": {}}, _FINISH),
        _entry(_text("a"), {"type": "source", "payload": {"url": "https://x"}}, _FINISH),
        _entry({"type": "text-delta", "payload": {"id": "t", "text": "a", SECRET: 1}},
               _FINISH),
    ],
    ids=[
        "deep",
        "type",
        "text",
        "args",
        "usage",
        "tripwire",
        "error",
        "no-finish",
        "failed-finish",
        "empty",
        "finish-warnings",
        "finish-request",
        "finish-raw-response",
        "run-chunk",
        "data-type",
        "own-type",
        "source",
        "extra-key",
    ],
)
async def test_a_malformed_entry_is_a_miss_not_a_failed_run(make_bare_agent, caplog, data, mode):
    agent = make_bare_agent(["live"], input_processors=[ResponseCache(cache=Poisoned(data))])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert await run(agent, mode=mode) == "live"
    assert len(agent.model.requests) == 1
    assert "read as a miss" in caplog.text


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.text(max_size=8)
    | st.just(SECRET),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
#: Chunks of a shape the checks accept, with the value where no model step puts it: a
#: chunk only the run emits (a tool's result, a retry's reason), a finish with what a
#: provider call's finish holds but an entry never stores.
_run_chunk = st.fixed_dictionaries({
    "type": st.sampled_from(["tool-result", "tool-error", "step-retry", "step-start",
                             "step-finish", "object-result"]),
    "payload": st.fixed_dictionaries(
        {"tool_call_id": st.just("c"), "tool_name": st.just("t"),
         "finish_reason": st.just("stop"), "step_number": st.just(0)},
        optional={"result": st.just(SECRET), "error": st.just(SECRET),
                  "reason": st.just(SECRET), "object": st.just({"v": SECRET})}),
})
_finish_with_more = st.fixed_dictionaries({
    "type": st.just("finish"),
    "payload": st.fixed_dictionaries({"finish_reason": st.just("stop")}, optional={
        "warnings": st.just([SECRET]), "request": st.just({"body": SECRET}),
        "raw_response": st.just({"id": SECRET})}),
})
_chunk = _run_chunk | _finish_with_more | st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["text-delta", "reasoning-delta", "tool-call", "finish", "error", "tripwire", ""]
        )
        | _json,
        "payload": st.one_of(
            st.fixed_dictionaries(
                {"id": st.sampled_from(["t", SECRET]),
                 "text": st.sampled_from([SECRET, f"a {SECRET} b", "x"])}
            ),
            st.fixed_dictionaries(
                {"tool_call_id": st.just("c"), "tool_name": st.just("t")},
                optional={"args": st.just({"q": SECRET}), "raw_args": st.sampled_from(["{", SECRET]),
                          "args_error": st.just(SECRET)}),
            st.fixed_dictionaries({"finish_reason": st.sampled_from(["stop", "error", 3])}),
            _json,
        ),
    },
    optional={"source": _json, "transient": _json, "run_id": _json},
)


@settings(max_examples=150, deadline=None)
@given(chunks=st.lists(_chunk, max_size=5), finished=st.booleans(),
       mode=st.sampled_from(["generate", "stream"]))
# the fields of a chunk besides its payload, a text's id and a tool call's parse error:
# what a stream consumer reads that no guard checks
@example(chunks=[{**_text("x"), "source": SECRET}], finished=True, mode="stream")
@example(chunks=[{**_text("x"), "run_id": SECRET}], finished=True, mode="stream")
@example(chunks=[{"type": "data-x", "payload": {"data": 1}, "source": SECRET}], finished=True,
         mode="stream")
@example(chunks=[_text("x"), {**_FINISH, "source": SECRET}], finished=False, mode="stream")
@example(chunks=[{"type": "text-delta", "payload": {"id": SECRET, "text": "x"}}], finished=True,
         mode="stream")
@example(chunks=[{"type": "reasoning-delta", "payload": {"id": SECRET, "text": "x"}}],
         finished=True, mode="stream")
@example(chunks=[{"type": "tool-call", "payload": {"tool_call_id": "c", "tool_name": "t",
                                                   "args": {}, "args_error": SECRET}}],
         finished=True, mode="stream")
# a type name or a payload key: strings no guard reads, which the consumer gets as the
# entry spells them
@example(chunks=[{"type": SECRET, "payload": {"finish_reason": "stop"}}], finished=True,
         mode="stream")
@example(chunks=[{"type": f"data-{SECRET}", "payload": {"data": 1}}], finished=True,
         mode="stream")
@example(chunks=[{"type": f"data-{SECRET}", "payload": {"data": 1}}], finished=True,
         mode="generate")
@example(chunks=[{"type": "source", "payload": {SECRET: "x"}}], finished=True, mode="stream")
@example(chunks=[{"type": "text-delta", "payload": {"id": "t", "text": "x", SECRET: 1}}],
         finished=True, mode="stream")
@example(chunks=[{"type": "tool-call", "payload": {"tool_call_id": "c", "tool_name": "t",
                                                   "args": {}, SECRET: None}}],
         finished=True, mode="stream")
@example(chunks=[_text("x"), {"type": "finish", "payload": {"finish_reason": "stop",
                                                            "provider_metadata": {SECRET: 1}}}],
         finished=False, mode="stream")
def test_no_poisoned_entry_fails_a_run_or_escapes_the_guardrails(chunks, finished, mode):
    """Whatever an entry holds: not in the chunks the client gets (any of their fields),
    nor in the result, its steps (their request, response and warnings too) and
    messages."""

    async def go():
        agent = Agent(
            id="a",
            model=MockModel(["live"]),
            default_error_processors=False,
            input_processors=[ResponseCache(cache=Poisoned(
                _entry(*chunks, *[_FINISH] * finished)))],
            output_processors=[RegexFilter([{"name": "s", "pattern": SECRET}], strategy="redact")],
        )
        streamed, result = await run_collected(agent, "hi", mode == "stream")
        steps = [(s.text, s.reasoning, s.tool_calls, s.tool_results, s.provider_metadata,
                  s.warnings, s.request, s.response) for s in result.steps]
        return repr(streamed) + repr(steps) + repr(result.messages) + result.text

    assert SECRET not in asyncio.run(go())


async def test_a_replayed_chunk_carries_only_checked_content_and_fields_tripwire_sets():
    """The entry's run id, source, text ids and a tool call's parse error are not what
    the stream consumer reads: the replay sets them (the deltas of one part still share
    an id), and a tool call's ``args_error`` is its ``raw_args`` parsed again."""
    entry = _entry(
        {**_text("a"), "source": "FORGED", "run_id": "forged-run"},
        {"type": "reasoning-delta", "payload": {"id": "msg_forged", "text": "r"}},
        {"type": "text-delta", "payload": {"id": "msg_other", "text": "b"}},
        _text("c"),
        {"type": "tool-call", "payload": {"tool_call_id": "c1", "tool_name": "t", "args": {},
                                          "raw_args": "{", "args_error": "forged"}},
        {"type": "finish", "payload": {"finish_reason": "tool-calls"}, "source": "FORGED"},
    )
    agent = Agent(id="a", model=MockModel(["unused"]), default_error_processors=False,
                  input_processors=[ResponseCache(cache=Poisoned(entry))], max_steps=1)
    streamed, _ = await run_collected(agent, "hi", True)
    step = [c for c in streamed if c.type not in ("step-start", "tool-error", "finish")]
    assert [(c.type, c.payload.get("id")) for c in step] == [
        ("text-delta", "replay-0"), ("reasoning-delta", "replay-1"),
        ("text-delta", "replay-2"), ("text-delta", "replay-0"),
        ("tool-call", None), ("step-finish", None)]
    run_ids = {c.run_id for c in streamed}
    assert len(run_ids) == 1 and "forged-run" not in run_ids
    assert {c.source for c in streamed} == {"AGENT"}
    assert [c.transient for c in step] == [False] * 6
    call = step[4].payload
    assert call["raw_args"] == "{" and call["args_error"].startswith("arguments are not valid JSON")


# ------------------------------------------------------------------ who shares an entry


@pytest.mark.parametrize("change", ["instructions", "tools", "model", "id", "model_settings"])
async def test_agents_that_differ_never_share_an_entry(make_bare_agent, change):
    cache = ResponseCache()

    @tool
    def search(query: str) -> str:
        """Search."""
        return query

    base = {"id": "a", "instructions": "Be brief.", "tools": [], "model_settings": None}
    other = dict(base)
    other.update(
        {
            "instructions": {"instructions": "Be verbose."},
            "tools": {"tools": [search]},
            "id": {"id": "b"},
            "model_settings": {"model_settings": {"temperature": 0.9}},
            "model": {},
        }[change]
    )
    first = make_bare_agent(model=MockModel(["from a"]), input_processors=[cache], **base)
    second_model = MockModel(
        ["from b"], model_id="other-model" if change == "model" else "mock-model"
    )
    second = make_bare_agent(model=second_model, input_processors=[cache], **other)
    assert await run(first) == "from a"
    assert await run(second) == "from b"
    assert len(second_model.requests) == 1


async def test_users_never_see_each_others_entries(make_bare_agent):
    agent = make_bare_agent(["for alice", "for bob", "unused"], input_processors=[ResponseCache()])

    def as_user(user):
        return {"request_context": RequestContext({RESOURCE_ID_KEY: user})}

    assert await run(agent, **as_user("alice")) == "for alice"
    assert await run(agent, **as_user("bob")) == "for bob"
    assert await run(agent, **as_user("alice")) == "for alice"
    assert len(agent.model.requests) == 2


@pytest.mark.parametrize("scope", [None, False])
async def test_an_unscoped_cache_is_shared_by_every_user(make_bare_agent, scope):
    agent = make_bare_agent(["shared"], input_processors=[ResponseCache(scope=scope)])
    for user in ("alice", "bob"):
        ctx = RequestContext({RESOURCE_ID_KEY: user})
        assert await run(agent, request_context=ctx) == "shared"
    assert len(agent.model.requests) == 1


async def test_an_explicit_scope_shares_between_users_of_one_tenant(make_bare_agent):
    agent = make_bare_agent(["org answer"], input_processors=[ResponseCache(scope="org-1")])
    for user in ("alice", "bob"):
        assert await run(agent, request_context={RESOURCE_ID_KEY: user}) == "org answer"
    assert len(agent.model.requests) == 1


# ------------------------------------------------------------------ keys


async def test_a_fixed_key_answers_any_prompt(make_bare_agent):
    agent = make_bare_agent(["first"], input_processors=[ResponseCache(key="greeting")])
    assert [await run(agent, "hi"), await run(agent, "hello")] == ["first", "first"]


async def test_a_key_function_sees_the_inputs_and_may_be_async(make_bare_agent):
    seen = []

    async def key(inputs):
        seen.append(
            (
                inputs.agent_id,
                inputs.model.model_id,
                inputs.step_number,
                inputs.scope,
                inputs.prompt[-1]["content"][0]["text"].lower(),
            )
        )
        return "k:" + inputs.prompt[-1]["content"][0]["text"].lower()

    agent = make_bare_agent(["answer"], id="helper", input_processors=[ResponseCache(key=key)])
    assert [await run(agent, "HI"), await run(agent, "hi")] == ["answer", "answer"]
    assert seen[0] == ("helper", "mock-model", 0, None, "hi")


async def test_a_failing_key_function_falls_back_to_the_default_key(make_bare_agent, caplog):
    def key(inputs):
        raise RuntimeError("bad key function")

    agent = make_bare_agent(["answer", "other"], input_processors=[ResponseCache(key=key)])
    with caplog.at_level(logging.WARNING, LOGGER):
        assert [await run(agent, "hi"), await run(agent, "hi"), await run(agent, "ho")] == [
            "answer",
            "answer",
            "other",
        ]
    assert "key function failed (RuntimeError: bad key function)" in caplog.text


async def test_a_key_function_can_reuse_the_recipe(make_bare_agent):
    keys = []

    def key(inputs):
        keys.append(build_response_cache_key({**inputs, "scope": "global"}))
        return keys[-1]

    agent = make_bare_agent(["x"], input_processors=[ResponseCache(key=key)])
    for user in ("alice", "bob"):
        await run(agent, request_context={RESOURCE_ID_KEY: user})
    assert keys[0] == keys[1] and len(agent.model.requests) == 1


def test_the_key_recipe():
    prompt = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    key = build_response_cache_key(
        agent_id="a", model="openai/gpt-5", prompt=prompt, step_number=0, scope="alice"
    )
    prefix, agent_id, scope_hash, digest = key.rsplit(":", 3)
    assert (prefix, agent_id) == ("tripwire:response", "a")
    assert len(scope_hash) == 8 and len(digest) == 32
    unscoped = build_response_cache_key(
        agent_id="a", model="openai/gpt-5", prompt=prompt, step_number=0, scope=None
    )
    assert unscoped.count(":") == 3
    for change in (
        {"step_number": 1},
        {"model": "openai/gpt-4"},
        {"agent_id": "b"},
        {"prompt": [{"role": "user", "content": [{"type": "text", "text": "ho"}]}]},
        {"tools": {"f": {"name": "f"}}},
        {"tool_choice": "required"},
    ):
        other = build_response_cache_key(
            **{
                "agent_id": "a",
                "model": "openai/gpt-5",
                "prompt": prompt,
                "step_number": 0,
                "scope": None,
                **change,
            }
        )
        assert other != unscoped, change
    with pytest.raises(TypeError, match="unknown input.*agentId.*valid: agent_id"):
        build_response_cache_key(agentId="a")


def test_binary_prompt_parts_are_keyed_by_their_bytes():
    def key(data):
        return build_response_cache_key(
            prompt=[
                {
                    "role": "user",
                    "content": [{"type": "file", "data": data, "media_type": "image/png"}],
                }
            ]
        )

    assert key(b"\x89PNG one") == key(b"\x89PNG one") != key(b"\x89PNG two")


class _Opaque:
    """An object with no JSON form (keyed by its ``repr``)."""

    def __repr__(self):
        return "opaque"


@attrs.frozen
class _Fields:
    name: str


#: Values with no JSON form of their own, nested in plain data.
_tagged = st.recursive(
    st.binary(max_size=8) | st.builds(_Opaque) | st.builds(_Fields, st.text(max_size=4))
    | st.just(_Fields),
    lambda inner: st.lists(inner, min_size=1, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                min_size=1, max_size=3),
    max_leaves=6,
)


@given(_tagged, st.sampled_from(["prompt", "tool_choice", "model_settings", "provider_options"]))
@settings(max_examples=200)
def test_no_value_passes_for_another_in_the_key(value, field):
    """An attacker sends as plain JSON what the key writes for bytes (an attached file)
    or an object: their requests share no entry."""
    plain = json.loads(stable_json(value))
    assert build_response_cache_key(**{field: value}) != build_response_cache_key(
        **{field: plain})


async def test_a_file_given_as_its_keyed_text_is_not_the_file(make_bare_agent):
    """A shared (unscoped) cache: a prompt whose file is the text the key once wrote for
    an image's bytes is not answered with the image's entry, nor the other way round."""
    image = b"\x89PNG the victim's scan"
    spoof = f"binary:{len(image)}:{hashlib.sha256(image).hexdigest()}"

    def file(data):
        message = Message.user("")
        message.content.parts = [TextPart("What is in this file?"), FilePart(data, "image/png")]
        return [message]

    agent = make_bare_agent(["planted answer", "about the scan"],
                            input_processors=[ResponseCache(scope=None)])
    assert await run(agent, file(spoof)) == "planted answer"
    assert await run(agent, file(image)) == "about the scan"
    assert len(agent.model.requests) == 2


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=10,
)


@given(st.dictionaries(st.text(), _values, max_size=6), st.randoms())
def test_the_key_ignores_mapping_order(settings, rnd):
    shuffled_items = list(settings.items())
    rnd.shuffle(shuffled_items)
    assert build_response_cache_key(model_settings=settings) == build_response_cache_key(
        model_settings=dict(shuffled_items)
    )


# ------------------------------------------------------------------ per-call overrides


async def test_bust_skips_the_read_and_still_writes(make_bare_agent):
    agent = make_bare_agent(["old", "new"], input_processors=[ResponseCache()])
    assert await run(agent) == "old"
    assert await run(agent, request_context=ResponseCache.context(bust=True)) == "new"
    assert await run(agent) == "new"


async def test_per_call_key_and_scope_override_the_instance(make_bare_agent):
    agent = make_bare_agent(["one", "two"], input_processors=[ResponseCache(scope="org")])
    ctx = ResponseCache.context(key="fixed")
    assert await run(agent, "a", request_context=ctx) == "one"
    assert await run(agent, "b", request_context=ResponseCache.context(key="fixed")) == "one"
    assert await run(agent, "a", request_context=ResponseCache.context(scope="other")) == "two"


def test_apply_context_merges_into_an_existing_context():
    ctx = RequestContext({"caller": "u-1"})
    assert ResponseCache.apply_context(ctx, bust=True) is ctx
    ResponseCache.apply_context(ctx, scope=None)
    assert ctx["caller"] == "u-1"
    assert ctx[CONTEXT_KEY] == {"bust": True, "scope": None}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ttl": 5}, "unknown per-call override.*ttl.*valid: key, scope, bust"),
        ({"bust": "yes"}, "bust must be"),
        ({"key": 42}, "key must be a non-empty str"),
        ({"scope": ""}, "scope must be a non-empty str"),
    ],
)
def test_a_bad_override_is_a_clear_error(overrides, message):
    with pytest.raises(ConfigurationError, match=message):
        ResponseCache.context(**overrides)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ttl": 0}, "ttl must be a positive, finite number of seconds, got 0"),
        ({"cache": "nope://x"}, "unknown cache backend 'nope'"),
        ({"cache": 42}, "int lacks get"),
        ({"key": ""}, "key must be a non-empty str"),
        ({"scope": 7}, "scope must be"),
        ({"coalesce": "no"}, "coalesce must be"),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        ResponseCache(**options)


NOT_SECONDS = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=5),
    st.integers(max_value=0),
    st.floats(max_value=0),
    st.sampled_from([math.inf, -math.inf, math.nan, 10**400, [300], {"seconds": 1}, b"5"]),
)


@pytest.mark.parametrize("option", ["ttl", "coalesce_timeout"])
@given(value=NOT_SECONDS)
def test_ttl_and_coalesce_timeout_must_be_positive_finite_seconds(option, value):
    """``None`` included: an entry that never expires would stay in SQLite or Redis for
    good, and a waiter without a bound could wait forever."""
    with pytest.raises(ConfigurationError) as raised:
        ResponseCache(**{option: value})
    assert str(raised.value).startswith(
        f"response-cache: {option} must be a positive, finite number of seconds, got "
    )


@pytest.mark.parametrize("option", ["ttl", "coalesce_timeout"])
@given(value=st.one_of(st.integers(1, 10**9), st.floats(min_value=1e-6, max_value=1e9)))
def test_ttl_and_coalesce_timeout_take_any_positive_number_of_seconds(option, value):
    cache = ResponseCache(**{option: value})
    assert getattr(cache, option) == value and type(getattr(cache, option)) is float


@pytest.mark.parametrize("line", ["ttl = 0", "ttl = inf", "coalesce_timeout = -1.5"])
async def test_bad_seconds_in_a_config_file_name_the_option(tmp_path, line):
    path = tmp_path / "tripwire.toml"
    path.write_text(
        textwrap.dedent(f"""\
            [agents.a]
            model = "models.scripted"
            input_processors = [{{ use = "response-cache", {line} }}]

            [models.scripted]
            use = "mock"
        """),
        encoding="utf-8",
    )
    name = line.split(" = ")[0]
    with pytest.raises(ConfigurationError, match=f"{name} must be a positive, finite number"):
        Agent.from_config(str(path), "a")


# ------------------------------------------------------------------ expiry


async def test_an_entry_expires_after_the_ttl(make_bare_agent, cache_url):
    cache = ResponseCache(cache=cache_url, ttl=0.3)
    agent = make_bare_agent(["first", "second"], input_processors=[cache])
    assert await run(agent) == "first"
    assert await run(agent) == "first"
    await asyncio.sleep(0.6)
    assert await run(agent) == "second"
    await cache.cache.close()


# ------------------------------------------------------------------ failing backends


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_a_failing_backend_never_fails_the_run(make_bare_agent, caplog, mode):
    agent = make_bare_agent(["one", "two"], input_processors=[ResponseCache(cache=BrokenCache())])
    with caplog.at_level(logging.WARNING, LOGGER):
        assert [await run(agent, mode=mode), await run(agent, mode=mode)] == ["one", "two"]
    assert "reading the cache failed (ConnectionError: cache server unreachable)" in caplog.text
    assert "writing to the cache failed" in caplog.text


async def test_runs_go_on_uncached_while_redis_is_down_then_use_it_again(
    make_bare_agent, redis_server, caplog
):
    cache = ResponseCache(cache=redis_server.url)
    agent = make_bare_agent(
        ["cached", "uncached 1", "uncached 2", "fresh", "unused"], input_processors=[cache]
    )
    assert [await run(agent), await run(agent)] == ["cached", "cached"]
    redis_server.stop()
    with caplog.at_level(logging.WARNING, LOGGER):
        assert [await run(agent), await run(agent)] == ["uncached 1", "uncached 2"]
    assert "reading the cache failed" in caplog.text
    redis_server.start()  # empty again
    assert [await run(agent), await run(agent)] == ["fresh", "fresh"]
    assert len(agent.model.requests) == 4
    await cache.cache.close()


# ------------------------------------------------------------------ coalescing


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_concurrent_identical_runs_call_the_model_once(make_bare_agent, mode):
    model = MockModel(["computed once"], chunk_delay=0.01)
    seen = FromCache()
    agent = make_bare_agent(model=model, input_processors=[ResponseCache(), seen])
    texts = await asyncio.gather(*(run(agent, mode=mode) for _ in range(50)))
    assert texts == ["computed once"] * 50
    assert len(model.requests) == 1
    assert seen.seen.count(False) == 1 and seen.seen.count(True) == 49


async def test_concurrent_runs_wait_out_a_failing_leader(make_bare_agent):
    model = MockModel(
        [MockResponse(error=tripwire.APICallError("boom", 500, False)), "second try"],
        chunk_delay=0.01,
    )
    agent = make_bare_agent(model=model, input_processors=[ResponseCache()])
    results = await asyncio.gather(
        *(agent.generate("hi") for _ in range(5)), return_exceptions=True
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], tripwire.APICallError)
    assert [r.text for r in results if not isinstance(r, Exception)] == ["second try"] * 4
    assert len(model.requests) == 2


async def test_concurrent_runs_wait_out_a_tripped_leader(make_bare_agent):
    # The first answer trips the output guardrail: it is neither cached nor shared, and
    # the waiting runs call the model themselves (here: one of them, the rest wait on it).
    model = MockModel(["password hunter2", "clean"], chunk_delay=0.01)
    agent = make_bare_agent(
        model=model,
        input_processors=[ResponseCache()],
        output_processors=[RegexFilter([{"name": "pw", "pattern": "hunter2"}])],
    )
    results = await asyncio.gather(*(agent.generate("hi") for _ in range(5)))
    assert sorted(r.tripwire is not None for r in results) == [False] * 4 + [True]
    assert [r.text for r in results if r.tripwire is None] == ["clean"] * 4
    assert len(model.requests) == 2


class SeesRequests(Processor):
    """Counts the model calls about to be made (put it before the cache)."""

    id = "sees-requests"

    def __init__(self):
        self.calls = 0

    @hookimpl
    def process_llm_request(self):
        self.calls += 1


@pytest.mark.parametrize("held", [False, True], ids=["stream-dropped", "stream-held"])
async def test_a_waiter_goes_on_when_the_leader_breaks_out_of_its_stream(
    make_bare_agent, no_gc, held
):
    """A leader that leaves its stream with ``break`` ends its run there (no garbage
    collection needed, whether or not it still holds the stream): the identical call
    waiting for it calls the model itself instead of waiting out coalesce_timeout."""
    model = MockModel(["one two three four five six", "second"], chunk_delay=0.01)
    sees = SeesRequests()
    agent = make_bare_agent(
        model=model, input_processors=[sees, ResponseCache(coalesce_timeout=60)]
    )
    streams = [agent.stream("hi")]

    async def leader():
        async for chunk in streams[0] if held else streams.pop():
            if chunk.type == "text-delta":
                await eventually(lambda: sees.calls == 2)  # the waiter is on its way
                await asyncio.sleep(0.01)
                break

    async def waiter():
        await eventually(lambda: model.requests)  # the leader holds the lease
        return (await agent.generate("hi")).text

    # (a generous bound that only detects the hang: the waiter waiting 60 s)
    _, text = await asyncio.wait_for(asyncio.gather(leader(), waiter()), 30)
    assert text == "second"  # the leader's answer was cut short: not shared
    assert len(model.requests) == 2
    assert len(streams) == held


async def test_coalescing_can_be_turned_off(make_bare_agent):
    model = MockModel(["a", "b", "c"], chunk_delay=0.01)
    agent = make_bare_agent(model=model, input_processors=[ResponseCache(coalesce=False)])
    await asyncio.gather(*(run(agent) for _ in range(3)))
    assert len(model.requests) == 3


# ------------------------------------------------------------------ configuration


async def test_response_cache_from_toml_by_name(tmp_path):
    db = tmp_path / "responses.db"
    (tmp_path / "tripwire.toml").write_text(
        textwrap.dedent(f"""
        [agents.cached]
        model = "models.scripted"
        input_processors = [{{ use = "response-cache", cache = "sqlite:///{db}", ttl = 60, scope = "public" }}]

        [models.scripted]
        use = "mock"
        responses = [{{ text = "from the model" }}]
    """),
        encoding="utf-8",
    )
    calls = []
    for _ in range(2):  # two agents, as two processes would build them: one SQLite file
        async with Agent.from_config(str(tmp_path / "tripwire.toml"), "cached") as agent:
            (cache,) = agent.input_processors
            assert (cache.id, cache.ttl, cache.scope) == ("response-cache", 60.0, "public")
            assert await run(agent) == "from the model"
            calls.append(len(agent.model.requests))
        await cache.cache.close()
    assert calls == [1, 0]  # the second agent's answer came from the file
    assert db.exists()


def test_response_cache_is_a_registered_processor():
    entry = tripwire.plugins.available()["response-cache"]
    assert entry.cls is ResponseCache
    assert set(entry.hooks) >= {"process_llm_request", "process_llm_response"}
    built = tripwire.plugins.create("response-cache", cache="memory://", ttl=5)
    assert isinstance(built.cache, MemoryCache)


def test_open_cache_accepts_what_the_processor_accepts():
    backend = MemoryCache()
    assert ResponseCache(cache=backend).cache is backend
    assert isinstance(ResponseCache().cache, MemoryCache)
    assert isinstance(open_cache("memory://"), MemoryCache)


_OTHER_PROCESS = textwrap.dedent("""
    import asyncio, sys
    from tripwire import Agent
    from tripwire.plugins.response_cache import ResponseCache
    from tripwire.testing import MockModel

    async def main():
        cache = ResponseCache(cache=sys.argv[1])
        agent = Agent(id="shared", instructions="Be brief.", model=MockModel(["from process A"]),
                      input_processors=[cache], default_error_processors=False)
        print((await agent.generate("hi")).text)
        await cache.cache.close()

    asyncio.run(main())
""")


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
async def test_another_process_answers_from_the_shared_cache(kind, tmp_path, request):
    import subprocess
    import sys

    url = (
        f"sqlite:///{tmp_path}/shared.db"
        if kind == "sqlite"
        else request.getfixturevalue("redis_server").url
    )
    done = subprocess.run(
        [sys.executable, "-c", _OTHER_PROCESS, url], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout) == (0, "from process A\n"), done.stderr
    cache = ResponseCache(cache=url)
    model = MockModel([])
    agent = Agent(
        id="shared",
        instructions="Be brief.",
        model=model,
        input_processors=[cache],
        default_error_processors=False,
    )
    assert (await agent.generate("hi")).text == "from process A"
    assert model.requests == []
    await cache.cache.close()


def test_a_cache_serves_agents_run_with_generate_sync(tmp_path):
    # generate_sync makes an event loop per call: the SQLite backend is bound to none
    cache = ResponseCache(cache=f"sqlite:///{tmp_path}/sync.db")
    model = MockModel(["once"])
    agent = Agent(id="sync", model=model, input_processors=[cache], default_error_processors=False)
    assert [agent.generate_sync("hi").text for _ in range(3)] == ["once"] * 3
    assert len(model.requests) == 1
    asyncio.run(cache.cache.close())


class RejectStep(Processor):
    """Trips process_output_step when the step's text contains ``word``."""

    id = "reject-step"

    def __init__(self, word, retry=False):
        self.word, self.retry = word, retry

    @hookimpl
    def process_output_step(self, text, abort):
        if self.word in text:
            abort(f"{self.word!r} is not allowed", retry=self.retry)


async def test_a_step_tripped_after_it_was_written_is_deleted(make_bare_agent):
    backend = CountingCache()
    agent = make_bare_agent(
        ["bad answer", "fine answer"],
        input_processors=[ResponseCache(cache=backend)],
        output_processors=[RejectStep("bad")],
    )
    first = await agent.generate("hi")
    assert first.tripwire is not None
    assert await run(agent) == "fine answer"  # not a replay of the tripped answer
    assert len(agent.model.requests) == 2


async def test_a_step_rejected_with_a_retry_is_deleted_during_the_run(make_bare_agent):
    agent = make_bare_agent(
        ["bad answer", "good answer", "good again"],
        input_processors=[ResponseCache()],
        output_processors=[RejectStep("bad", retry=True)],
        max_processor_retries=1,
    )
    assert await run(agent) == "good answer"
    assert await run(agent) == "good again"  # the rejected first attempt was not replayed
    assert len(agent.model.requests) == 3


async def test_a_key_function_cannot_leave_the_caches_namespace(make_bare_agent):
    backend = CountingCache()
    await backend.set("cost-guard:resource:u1", b"41", None)
    agent = make_bare_agent(
        ["x"],
        input_processors=[
            ResponseCache(cache=backend, key=lambda inputs: "cost-guard:resource:u1")
        ],
    )
    await agent.generate("hi")
    assert await backend.get("cost-guard:resource:u1") == b"41"
    assert [k for k, _ in backend.writes] == [
        "cost-guard:resource:u1",  # the test's own
        "tripwire:response-key:key:cost-guard:resource:u1",
    ]


async def test_a_fixed_key_never_spells_another_keys_later_step(make_bare_agent):
    """A key chosen per call ("faq:step-1") does not answer step 1 of the key "faq"."""

    @tool
    def lookup(query: str) -> str:
        """Look it up."""
        return "the real data"

    agent = make_bare_agent(
        ["planted answer",
         MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"},
                                   "tool_call_id": "c1"}]),
         "answer from the real data"],
        tools=[lookup], input_processors=[ResponseCache()])
    planted = await agent.generate("hi", request_context=ResponseCache.context(key="faq:step-1"))
    assert planted.text == "planted answer"
    result = await agent.generate("hi", request_context=ResponseCache.context(key="faq"))
    assert result.text == "answer from the real data"
    assert [s.from_cache for s in result.steps] == [False, False]


class Recording:
    """A backend that passes every call on to ``backend`` and records the keys written."""

    def __init__(self, backend):
        self.backend = backend
        self.written = []

    async def get(self, key):
        return await self.backend.get(key)

    async def set(self, key, value, ttl_seconds):
        self.written.append(key)
        await self.backend.set(key, value, ttl_seconds)

    async def delete(self, key):
        await self.backend.delete(key)

    async def incr(self, key, amount, ttl_seconds):
        return await self.backend.incr(key, amount, ttl_seconds)


@pytest.mark.parametrize("how", ["str", "function", "per-call"])
async def test_a_key_of_ones_own_never_spells_a_derived_key(make_bare_agent, cache_url, how):
    """An agent whose id is "key" derives ``tripwire:response:key:<h8>:<h32>``; another
    cache on the same backend, unscoped, with the key ``<h8>:<h32>`` writes its own
    entry, not that one: the tenant is still served its own answer."""
    backend = open_cache(cache_url)  # one backend (one memory:// too) for both caches
    tenant_cache = Recording(backend)
    tenant = make_bare_agent(["the tenant's answer", "never used"], id="key",
                             input_processors=[ResponseCache(cache=tenant_cache)])
    alice = {"request_context": RequestContext({RESOURCE_ID_KEY: "alice"})}
    assert await run(tenant, **alice) == "the tenant's answer"
    (derived,) = tenant_cache.written
    assert derived.startswith("tripwire:response:key:")
    spelt = derived.removeprefix("tripwire:response:key:")
    options = {"str": {"key": spelt}, "function": {"key": lambda inputs: spelt},
               "per-call": {}}[how]
    other = make_bare_agent(["planted"], id="other", input_processors=[
        ResponseCache(cache=backend, scope=None, **options)])
    context = ResponseCache.context(key=spelt) if how == "per-call" else None
    assert await run(other, request_context=context) == "planted"
    assert await run(tenant, **alice) == "the tenant's answer"
    assert len(tenant.model.requests) == 1  # a replay of the tenant's own entry
    await close_cache(backend)


@pytest.mark.parametrize("key", ["faq", lambda inputs: "faq"], ids=["str", "function"])
async def test_a_key_of_ones_own_is_still_the_tenants(make_bare_agent, key):
    """Tenant B never gets tenant A's answer through a fixed key (nor a key function
    that ignores the scope); unscoped, the key is shared on purpose."""
    agent = make_bare_agent(["A's balance is 1234", "B's own answer", "shared"],
                            input_processors=[ResponseCache(key=key)])

    async def ask(tenant):
        ctx = RequestContext({RESOURCE_ID_KEY: tenant}) if tenant else None
        return (await agent.generate("what is my balance?", request_context=ctx)).text

    assert await ask("tenant-a") == "A's balance is 1234"
    assert await ask("tenant-b") == "B's own answer"
    assert await ask("tenant-a") == "A's balance is 1234"  # A's entry, replayed
    assert await ask(None) == "shared"
    assert len(agent.model.requests) == 3
