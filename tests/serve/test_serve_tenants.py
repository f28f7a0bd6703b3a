"""Tenant isolation of ``tripwire serve``: a key's tenant is its requests'
``RESOURCE_ID_KEY``, so what is scoped per resource (response-cache entries, cost
budgets, memory threads: test_serve_threads.py) is one tenant's, whatever another
tenant's key sends."""

from __future__ import annotations

import asyncio

import openai
import pytest

from tests.support.fake_llm_server import FakeLLMServer, Reply
from tripwire import ConfigurationError
from tripwire.config import load_config
from tripwire.serve import Gateway, running

SECRET = "tenant A's private answer 7f3a"


def tenant_gateway(tmp_path, base_url: str, agent: str = "", overrides: str = "") -> Gateway:
    """The agent ``support`` (``agent``: more of its table) on the upstream at
    ``base_url``, behind the keys of tenants A and B (``overrides``: more of B's)."""
    path = tmp_path / "agents.toml"
    path.write_text(f"""
[agents.support]
model = "models.up"
{agent}

[models.up]
use = "openai-compatible"
base_url = "{base_url}"
model = "gpt-test"
max_retries = 0

[serve.keys.a]
key_env = "A_KEY"
tenant = "tenant-a"

[serve.keys.b]
key_env = "B_KEY"
tenant = "tenant-b"
{overrides}
""")
    return Gateway.from_config(load_config(path))


def _cached(cache: str) -> str:
    return f'input_processors = [{{ use = "response-cache", cache = "{cache}" }}]'


async def _ask(url: str, key: str, stream: bool) -> str:
    async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0) as api:
        messages = [{"role": "user", "content": "what is my account's secret?"}]
        if not stream:
            reply = await api.chat.completions.create(model="support", messages=messages)
            return reply.choices[0].message.content or ""
        out = []
        async for chunk in await api.chat.completions.create(model="support",
                                                            messages=messages, stream=True):
            if chunk.choices and chunk.choices[0].delta.content:
                out.append(chunk.choices[0].delta.content)
        return "".join(out)


@pytest.mark.parametrize("backend", ["memory", "sqlite", "redis"])
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("overrides", ["", 'disable = ["prefill-error-handler"]'])
async def test_one_tenants_cached_answer_is_never_anothers(tmp_path, monkeypatch, request,
                                                           backend, stream, overrides):
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    if backend == "redis":
        cache = request.getfixturevalue("redis_server").url
    elif backend == "sqlite":
        cache = f"sqlite:///{tmp_path / 'cache.db'}"
    else:
        cache = "memory://"
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _cached(cache), overrides)
        upstream.script(Reply(text=SECRET), Reply(text="tenant B's own answer"),
                        Reply(text="unused"))
        async with running(served, "127.0.0.1", 0) as url:
            assert await _ask(url, "a-secret", stream) == SECRET
            assert await _ask(url, "a-secret", stream) == SECRET  # A's own entry hits
            assert await _ask(url, "b-secret", stream) == "tenant B's own answer"
            assert await _ask(url, "b-secret", stream) == "tenant B's own answer"
    assert len(upstream.requests) == 2


async def test_concurrent_identical_requests_of_two_tenants_are_not_coalesced(
        tmp_path, monkeypatch):
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, _cached("memory://"))
        upstream.script(Reply(text=SECRET), Reply(text=SECRET))
        async with running(served, "127.0.0.1", 0) as url:
            await asyncio.gather(_ask(url, "a-secret", True), _ask(url, "b-secret", True))
    assert len(upstream.requests) == 2


def test_an_empty_tenant_is_an_error_not_a_key_without_a_budget(tmp_path, monkeypatch):
    """A cost-guard scoped to an empty resource id counts every run on its own: a key
    with ``tenant = ""`` would have no budget at all. The gateway refuses to start."""
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    guard = ('{ use = "cost-guard", limits = { max_total_tokens = 10 }, scope = "resource", '
             'cache = "memory://" }')
    path = tmp_path / "agents.toml"
    path.write_text(f"""
[agents.support]
model = "models.up"

[models.up]
use = "openai-compatible"
base_url = "http://127.0.0.1:9/v1"
model = "gpt-test"

[serve.keys.b]
key_env = "B_KEY"
tenant = ""
input_processors = [{guard}]
output_processors = [{guard}]
""")
    with pytest.raises(ConfigurationError, match=r"serve\.keys\.b\] tenant: expects a "
                                                 r"non-empty name"):
        Gateway.from_config(load_config(path))


async def test_no_request_field_or_other_header_names_a_memory_thread(tmp_path, monkeypatch):
    """Only ``X-Tripwire-Thread`` names a memory thread (test_serve_threads.py): without
    it an agent's memory does nothing, so tenant B naming tenant A's thread (``user``,
    ``metadata``, other headers) reads none of A's messages."""
    monkeypatch.setenv("A_KEY", "a-secret")
    monkeypatch.setenv("B_KEY", "b-secret")
    async with FakeLLMServer() as upstream:
        served = tenant_gateway(tmp_path, upstream.openai_base_url, f"""
[agents.support.memory]
store = "sqlite:///{tmp_path / 'memory.db'}"
working_memory = true
semantic_recall = true
""")
        upstream.script(Reply(text="noted"), Reply(text="nothing"))
        async with running(served, "127.0.0.1", 0) as url:
            async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="a-secret",
                                          max_retries=0) as api:
                await api.chat.completions.create(
                    model="support", user="thread-a", metadata={"thread_id": "thread-a"},
                    extra_headers={"X-Thread-Id": "thread-a"},
                    messages=[{"role": "user", "content": SECRET}])
            async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="b-secret",
                                          max_retries=0) as api:
                await api.chat.completions.create(
                    model="support", user="thread-a", metadata={"thread_id": "thread-a"},
                    extra_headers={"X-Thread-Id": "thread-a", "X-Resource-Id": "tenant-a"},
                    messages=[{"role": "user", "content": "what did I say?"}])
    assert len(upstream.requests) == 2
    assert SECRET not in str(upstream.requests[1].body)
