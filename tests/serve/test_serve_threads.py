"""Memory threads through ``tripwire serve``: ``X-Tripwire-Thread`` names the request's
thread (its resource stays the key's tenant), so the agent's memory remembers the
thread's earlier turns; each tenant has its own namespace of thread ids (the store
keeps tenant T's thread X as ``T/X``); a bad id, or a whole conversation sent with a
thread, is a 400; without the header nothing changes."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

import aiohttp
import openai
import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import given
from hypothesis import strategies as st
from multidict import CIMultiDict

from tests.serve.test_serve_tenants import tenant_gateway
from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tripwire.config import load_config
from tripwire.errors import ProcessorError
from tripwire.memory import ThreadOwnerError, open_store
from tripwire.messages import Message
from tripwire.serve import Gateway, running
from tripwire.serve._answer import _error_details
from tripwire.serve._metrics import AccessRecord
from tripwire.serve._request import BadRequest
from tripwire.serve._thread import THREAD_HEADER, THREAD_ID, check_turn, thread_of

SECRET = "tenant A's private note 5c9e"
THREAD = "thread-4b1f-a7"
B_OVERRIDES = ['', 'disable = ["prefill-error-handler"]']


def _memory(tmp_path) -> str:
    """The agent's memory: message history, working memory and semantic recall, in a
    SQLite store (``memory.db``)."""
    return f"""
[agents.support.memory]
store = "sqlite:///{tmp_path / 'memory.db'}"
working_memory = true
semantic_recall = true
"""


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")


async def _say(url: str, key: str, text: str, *, stream: bool, thread: str | None = THREAD,
               messages: list[dict[str, Any]] | None = None) -> str:
    """One turn through the official client; the answer's text."""
    headers = {THREAD_HEADER: thread} if thread is not None else {}
    messages = messages or [{"role": "user", "content": text}]
    async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0) as api:
        if not stream:
            reply = await api.chat.completions.create(model="support", messages=messages,
                                                      extra_headers=headers)
            return reply.choices[0].message.content or ""
        out = []
        async for chunk in await api.chat.completions.create(
                model="support", messages=messages, stream=True, extra_headers=headers):
            if chunk.choices and chunk.choices[0].delta.content:
                out.append(chunk.choices[0].delta.content)
        return "".join(out)


def _said(request: Any) -> list[tuple[str, str]]:
    """The (role, text) of an upstream request's user and assistant messages."""
    out = []
    for m in request.body["messages"]:
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content)
        if m["role"] in ("user", "assistant"):
            out.append((m["role"], content or ""))
    return out


def _stored(tmp_path) -> str:
    """Everything the memory store holds, as SQL text."""
    with sqlite3.connect(tmp_path / "memory.db") as db:
        return "\n".join(db.iterdump())


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("overrides", B_OVERRIDES)
async def test_two_turns_in_a_thread_remember(tmp_path, keys, stream, overrides):
    """The second turn sends only its new message; the upstream gets the first turn
    too, from the thread (a key with overrides runs the agent's memory as well)."""
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path),
                                overrides)
        upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
        async with running(served, "127.0.0.1", 0) as url:
            assert await _say(url, "b-secret", "I am Ann", stream=stream) == "Hello Ann."
            assert await _say(url, "b-secret", "Who am I?", stream=stream) == "You are Ann."
    assert _said(upstream.requests[0]) == [("user", "I am Ann")]
    assert _said(upstream.requests[1]) == [
        ("user", "I am Ann"), ("assistant", "Hello Ann."), ("user", "Who am I?")]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("overrides", B_OVERRIDES)
async def test_two_tenants_naming_the_same_thread_get_two_threads(
        tmp_path, keys, caplog, stream, overrides):
    """Each tenant has its own namespace of thread ids: B naming A's id gets a thread of
    its own (``tenant-b/ID`` in the store), so nothing of A's reaches B's upstream
    request, answer or thread, nothing of B's reaches A's, and both remember their own
    turns; the store's ids are never logged."""
    caplog.set_level(logging.INFO, "tripwire")
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path),
                                overrides)
        upstream.script(Reply(text=f"Noted: {SECRET}"), Reply(text="B's first answer"),
                        Reply(text="A's second answer"), Reply(text="B's second answer"))
        async with running(served, "127.0.0.1", 0) as url:
            await _say(url, "a-secret", SECRET, stream=stream)
            b_answers = [await _say(url, "b-secret", "B's question: what did A say?",
                                    stream=stream)]
            await _say(url, "a-secret", "and now?", stream=stream)
            b_answers.append(await _say(url, "b-secret", "B again", stream=stream))
            async with aiohttp.ClientSession() as http, http.get(f"{url}/metrics") as r:
                metrics = await r.text()
    assert b_answers == ["B's first answer", "B's second answer"]
    assert _said(upstream.requests[1]) == [("user", "B's question: what did A say?")]
    assert _said(upstream.requests[2]) == [
        ("user", SECRET), ("assistant", f"Noted: {SECRET}"), ("user", "and now?")]
    assert _said(upstream.requests[3]) == [
        ("user", "B's question: what did A say?"), ("assistant", "B's first answer"),
        ("user", "B again")]
    for request in upstream.requests[1], upstream.requests[3]:
        assert SECRET not in str(request.body)
    assert await _threads(tmp_path) == {
        f"tenant-a/{THREAD}": ("tenant-a", [SECRET, f"Noted: {SECRET}", "and now?",
                                            "A's second answer"]),
        f"tenant-b/{THREAD}": ("tenant-b", ["B's question: what did A say?",
                                            "B's first answer", "B again",
                                            "B's second answer"])}
    assert THREAD not in caplog.text + metrics  # client-chosen ids are never logged
    access = [json.loads(r.getMessage()) for r in caplog.records
              if r.name == "tripwire.serve.access" and "chat" in r.getMessage()]
    assert [(r["tenant"], r["status"]) for r in access] == [
        ("tenant-a", 200), ("tenant-b", 200), ("tenant-a", 200), ("tenant-b", 200)]


async def _threads(tmp_path) -> dict[str, tuple[str | None, list[str]]]:
    """The memory store's threads: id -> (resource, the text of its messages)."""
    store = open_store(f"sqlite:///{tmp_path / 'memory.db'}")
    try:
        out = {}
        for thread in await store.list_threads():
            messages = await store.last_messages(thread.id, 100)
            out[thread.id] = (thread.resource_id, [m.text for m in messages])
        return out
    finally:
        await store.close()


async def test_an_in_process_app_continues_a_gateway_thread_as_tenant_slash_id(
        tmp_path, keys):
    """The store keeps a gateway thread as ``TENANT/ID`` with resource TENANT: an
    in-process application naming it so continues the client's conversation."""
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
        async with running(served, "127.0.0.1", 0) as url:
            await _say(url, "a-secret", "I am Ann", stream=False)
        store = open_store(f"sqlite:///{tmp_path / 'memory.db'}")
        try:
            assert [t.id for t in await store.list_threads("tenant-a")] == [
                f"tenant-a/{THREAD}"]
        finally:
            await store.close()
        result = await served.agents["support"].generate(
            "Who am I?", memory={"thread": f"tenant-a/{THREAD}", "resource": "tenant-a"})
    assert result.text == "You are Ann."
    assert _said(upstream.requests[1]) == [
        ("user", "I am Ann"), ("assistant", "Hello Ann."), ("user", "Who am I?")]


@pytest.mark.parametrize("stream", [False, True])
async def test_a_thread_the_store_holds_for_another_resource_is_a_404(
        tmp_path, keys, caplog, stream):
    """An in-process application sharing the store saved ``tenant-a/ID`` for another
    resource: tenant A naming ID gets 404 ``thread_not_found``, with nothing of that
    thread loaded, saved or sent upstream, and neither its id nor its owner said."""
    caplog.set_level(logging.INFO, "tripwire")
    store = open_store(f"sqlite:///{tmp_path / 'memory.db'}")
    try:
        await store.save_messages(f"tenant-a/{THREAD}", "app-user-9d2",
                                  [Message.user(SECRET)])
    finally:
        await store.close()
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.NotFoundError) as refused:
                await _say(url, "a-secret", "A's question", stream=stream)
    error = refused.value.body
    assert isinstance(error, dict)
    assert (error["code"], error["type"]) == ("thread_not_found", "invalid_request_error")
    assert SECRET not in str(error) and "app-user-9d2" not in str(error)
    assert not upstream.requests
    assert await _threads(tmp_path) == {
        f"tenant-a/{THREAD}": ("app-user-9d2", [SECRET])}
    assert THREAD not in caplog.text and "app-user-9d2" not in caplog.text


@pytest.mark.parametrize("stream", [False, True])
async def test_a_guards_redaction_holds_in_the_stored_thread(tmp_path, keys, stream):
    """What ``pii-detector`` redacted, in the client's message and in the answer,
    is stored redacted: the next turn's upstream request and the store hold no value."""
    guard = ('input_processors = [{ use = "pii-detector", strategy = "redact" }]\n'
             'output_processors = [{ use = "pii-detector", strategy = "redact" }]\n')
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url,
                                guard + _memory(tmp_path))
        upstream.script(Reply(text="Write to bob.secret@example.org then."),
                        Reply(text="Done."))
        async with running(served, "127.0.0.1", 0) as url:
            first = await _say(url, "a-secret", "I am ann.private@example.com",
                               stream=stream)
            await _say(url, "a-secret", "What did you say?", stream=stream)
    assert "bob.secret" not in first
    assert [role for role, _ in _said(upstream.requests[1])] == [  # the thread's turn
        "user", "assistant", "user"]
    for text in (str(upstream.requests[0].body), str(upstream.requests[1].body),
                 first, _stored(tmp_path)):
        assert "ann.private" not in text
    assert "bob.secret" not in str(upstream.requests[1].body) + _stored(tmp_path)


async def test_without_the_header_a_request_is_stateless_as_before(tmp_path, keys):
    """No thread: the agent's memory loads and saves nothing, the client sends the
    whole conversation."""
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        upstream.script(Reply(text="Hello."), Reply(text="Hello again."))
        async with running(served, "127.0.0.1", 0) as url:
            await _say(url, "a-secret", SECRET, stream=False, thread=None)
            await _say(url, "a-secret", "", stream=True, thread=None, messages=[
                {"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello."},
                {"role": "user", "content": "again"}])
    assert _said(upstream.requests[1]) == [
        ("user", "hi"), ("assistant", "Hello."), ("user", "again")]
    assert SECRET not in _stored(tmp_path)


async def test_a_cost_guard_scoped_to_the_thread_counts_the_threads_runs(tmp_path, keys):
    """A key's ``cost-guard`` with ``scope = "thread"`` counts every run of the thread
    the header names (before, each request was a thread of its own)."""
    guard = '{ use = "cost-guard", limits = { max_steps = 1 }, scope = "thread" }'
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path),
                                f"input_processors = [{guard}]\n"
                                f"output_processors = [{guard}]\n")
        upstream.script(Reply(text="one"), Reply(text="two"))
        async with running(served, "127.0.0.1", 0) as url:
            assert await _say(url, "b-secret", "hi", stream=False) == "one"
            with pytest.raises(openai.BadRequestError) as spent:
                await _say(url, "b-secret", "hi", stream=True)
            assert await _say(url, "b-secret", "hi", stream=False, thread="t2") == "two"
    assert isinstance(spent.value.body, dict) and spent.value.body["code"] == "cost-guard"


async def test_a_thread_scoped_cost_guard_counts_each_tenants_thread_apart(tmp_path, keys):
    """Tenant B's runs on an id do not spend tenant A's thread budget on that id (nor
    the reverse), even when A's thread was never saved: A's first turn, stopped by a
    guard after its model call, leaves no owner in the store but has spent A's budget."""
    thread = "t-budget-e41"  # its own: memory:// budgets are shared in the process
    guard = '{ use = "cost-guard", limits = { max_steps = 2 }, scope = "thread" }'
    block = '{ use = "pii-detector", strategy = "block" }'
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url,
                                f"input_processors = [{guard}]\n"
                                f"output_processors = [{guard}, {block}]\n"
                                + _memory(tmp_path))
        upstream.script(Reply(text="Write to bob.secret@example.org."), Reply(text="b1"),
                        Reply(text="b2"), Reply(text="a2"))
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as blocked:
                await _say(url, "a-secret", "hi", stream=False, thread=thread)
            assert await _threads(tmp_path) == {}  # A's thread has no owner yet
            assert await _say(url, "b-secret", "hi", stream=True, thread=thread) == "b1"
            assert await _say(url, "b-secret", "hi", stream=False, thread=thread) == "b2"
            with pytest.raises(openai.BadRequestError) as spent:
                await _say(url, "b-secret", "hi", stream=False, thread=thread)
            assert await _say(url, "a-secret", "hi", stream=True, thread=thread) == "a2"
    assert isinstance(blocked.value.body, dict)
    assert blocked.value.body["code"] == "pii-detector"
    assert isinstance(spent.value.body, dict) and spent.value.body["code"] == "cost-guard"
    assert len(upstream.requests) == 4


async def test_without_keys_a_thread_is_remembered_with_no_owner(tmp_path):
    async with FakeLLMServer() as upstream:
        path = tmp_path / "agents.toml"
        path.write_text(f"""
[agents.support]
model = "models.up"
{_memory(tmp_path)}
[models.up]
use = "openai-compatible"
base_url = "{upstream.openai_base_url}"
model = "gpt-test"
max_retries = 0
""")
        upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
        async with running(Gateway.from_config(load_config(path)), "127.0.0.1", 0) as url:
            await _say(url, "no-keys", "I am Ann", stream=True)
            await _say(url, "no-keys", "Who am I?", stream=False)
    assert _said(upstream.requests[1]) == [
        ("user", "I am Ann"), ("assistant", "Hello Ann."), ("user", "Who am I?")]


@pytest.mark.parametrize("stream", [False, True])
async def test_a_thread_for_an_agent_without_memory_is_a_400(tmp_path, keys, stream):
    """Its client would send only the new message and the model would see nothing
    before it: the gateway says so rather than answer without the conversation."""
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url)
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as refused:
                await _say(url, "a-secret", "Who am I?", stream=stream)
            upstream.script(Reply(text="stateless"))
            assert await _say(url, "a-secret", "hi", stream=stream, thread=None) == "stateless"
    error = refused.value.body
    assert isinstance(error, dict) and error["code"] == "model_without_memory"
    assert THREAD_HEADER in error["message"]
    assert len(upstream.requests) == 1


@pytest.mark.parametrize("value", ["", " ", "a" * 129, "a b", "a/b", "t\u00e9", "x;y"])
async def test_a_bad_thread_id_is_a_400_naming_the_header(tmp_path, keys, value):
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        async with running(served, "127.0.0.1", 0) as url:
            async with aiohttp.ClientSession() as http:
                async with http.post(
                        f"{url}/v1/chat/completions",
                        headers={"Authorization": "Bearer a-secret",
                                 THREAD_HEADER: value.encode().decode("latin-1")},
                        json={"model": "support",
                              "messages": [{"role": "user", "content": "hi"}]}) as r:
                    status, error = r.status, (await r.json())["error"]
    assert status == 400 and error["type"] == "invalid_request_error"
    assert THREAD_HEADER in error["message"] and "1-128 letters" in error["message"]
    assert not upstream.requests


async def test_a_whole_conversation_with_a_thread_is_a_400(tmp_path, keys):
    """A client that sends every earlier turn again with a thread would store them all
    again: a user message after an assistant message is refused."""
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as refused:
                await _say(url, "a-secret", "", stream=False, messages=[
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "Hello."},
                    {"role": "user", "content": "again"}])
    error = refused.value.body
    assert isinstance(error, dict) and error["param"] == "messages[2]"
    assert THREAD_HEADER in error["message"] and "new messages" in error["message"]
    assert not upstream.requests


async def test_a_tool_loops_whole_conversation_with_a_thread_is_a_400(tmp_path, keys):
    """A client's usual tool loop sends the conversation again to answer the calls: the
    user message before the assistant's tool calls is the one the thread holds from
    the turn that made the calls, and would be stored twice. It is refused, and the
    upstream never called."""
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_weather", "arguments": "{}"}}
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as refused:
                await _say(url, "a-secret", "", stream=False, messages=[
                    {"role": "user", "content": "Weather?"},
                    {"role": "assistant", "content": None, "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}])
    error = refused.value.body
    assert isinstance(error, dict) and error["param"] == "messages[1]"
    assert THREAD_HEADER in error["message"] and "tool_calls" in error["message"]
    assert not upstream.requests


def test_a_turns_new_messages_pass_the_turn_check():
    """A turn's new messages: user and system messages, or an assistant's tool calls
    and the client's results (a client tool's answer)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    check_turn([{"role": "system", "content": "s"}, {"role": "user", "content": "u"}])
    check_turn([{"role": "assistant", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": "r"}])
    with pytest.raises(BadRequest, match=r"messages\[3\]"):
        check_turn([{"role": "assistant", "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": "call_1", "content": "r"},
                    {"role": "system", "content": "s"}, {"role": "user", "content": "u"}])
    check_turn([{"role": "user", "content": "u"},  # a prefill: the model goes on from it
                {"role": "assistant", "content": "Sure:"}])
    with pytest.raises(BadRequest, match=r"messages\[2\]"):
        check_turn([{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
                    {"role": "assistant", "tool_calls": [call]}])


@given(st.text(max_size=140))
def test_a_thread_id_is_taken_exactly_when_it_fits_the_rule_and_never_echoed(suffix):
    value = "Q9z" + suffix  # a marker the messages never hold
    request = make_mocked_request("POST", "/v1/chat/completions",
                                  headers=CIMultiDict({THREAD_HEADER: value}))
    if THREAD_ID.fullmatch(value):
        assert thread_of(request) == value
        return
    with pytest.raises(BadRequest) as refused:
        thread_of(request)
    assert THREAD_HEADER in str(refused.value) and "Q9z" not in str(refused.value)


def test_a_thread_header_given_twice_is_refused():
    headers = CIMultiDict([(THREAD_HEADER, "t1"), (THREAD_HEADER, "t2")])
    with pytest.raises(BadRequest, match="given 2 times"):
        thread_of(make_mocked_request("POST", "/v1/chat/completions", headers=headers))


def test_a_thread_refused_at_save_is_a_404_that_logs_no_id(caplog):
    """An in-process application sharing the store that saves the tenant's new thread
    (``TENANT/ID``) for another resource at the same moment as the gateway's first turn
    makes the store refuse the turn at save time, after a stream began: its error event
    is the same 404 ``thread_not_found``, and no log holds the thread id or the owner."""
    refused = ThreadOwnerError(f"thread {THREAD!r} belongs to another resource than 'x-co'")
    error = ProcessorError("message-history", "process_output_result", refused)
    error.__cause__ = refused
    record = AccessRecord(0.0, "POST", "/v1/chat/completions")
    with caplog.at_level(logging.DEBUG):
        status, message, kind, code = _error_details(error, record, False)
    assert (status, kind, code) == (404, "invalid_request_error", "thread_not_found")
    assert record == AccessRecord(0.0, "POST", "/v1/chat/completions", error="ThreadOwnerError")
    assert THREAD not in message + caplog.text and "x-co" not in message + caplog.text


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}


@pytest.mark.parametrize("stream", [False, True])
async def test_a_client_tool_turn_is_stored_once(tmp_path, keys, stream):
    """The model says a sentence and calls the client's tool; the client answers, as the
    docs say, with that assistant message and its tool result: the thread holds the
    sentence once (it held it twice, and the model read it twice on every later turn)."""
    said = "Let me look that up for you."
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _memory(tmp_path))
        upstream.script(Reply(text=said, tool_calls=[FakeToolCall("call_1", "get_weather",
                                                                  {"city": "Oslo"})]),
                        Reply(text="It is sunny."), Reply(text="You are welcome."))
        async with running(served, "127.0.0.1", 0) as url:
            async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="a-secret",
                                          max_retries=0) as api:
                first = await api.chat.completions.create(
                    model="support", messages=[{"role": "user", "content": "Weather?"}],
                    tools=[WEATHER], extra_headers={THREAD_HEADER: THREAD})
                assert first.choices[0].finish_reason == "tool_calls"
            assert await _say(url, "a-secret", "", stream=stream, messages=[
                {"role": "assistant", "content": said, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]) == \
                "It is sunny."
            assert await _say(url, "a-secret", "Thanks", stream=stream) == \
                "You are welcome."
    for request in upstream.requests[1:]:
        assert [text for _, text in _said(request)].count(said) == 1, _said(request)
    assert _said(upstream.requests[2]) == [  # the text, then the call with its result
        ("user", "Weather?"), ("assistant", said), ("assistant", ""),
        ("assistant", "It is sunny."), ("user", "Thanks")]
