"""Keys of ``tripwire serve`` from TOML: ``[serve.keys.NAME]`` and keys files, their
tenants and per-key processor overrides, and every way a key table can be wrong."""

from __future__ import annotations

import asyncio
import hashlib
import json

import aiohttp
import hypothesis.strategies as st
import openai
import pytest
from hypothesis import given, settings

from tests.support.fake_llm_server import FakeLLMServer, Reply
from tripwire import ConfigurationError
from tripwire.caches import open_cache
from tripwire.config import load_config
from tripwire.plugins.shared.tokens import get_encoding
from tripwire.serve import Gateway, Keys, digest, running
from tripwire.serve._keys import ApiKey

AGENTS = """
[agents.support]
model = "models.up"
input_processors = [{ use = "regex-filter", presets = ["secrets"] }]

[agents.billing]
model = "models.up"

[models.up]
use = "openai-compatible"
base_url = "BASE_URL"
model = "gpt-test"
max_retries = 0
"""


def gateway(tmp_path, serve: str, base_url: str = "http://127.0.0.1:9/v1", **kw) -> Gateway:
    path = tmp_path / "agents.toml"
    path.write_text(AGENTS.replace("BASE_URL", base_url) + serve)
    return Gateway.from_config(load_config(path), **kw)


async def ask(url: str, key: str, content: str, model: str = "support") -> str | None:
    async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0) as api:
        reply = await api.chat.completions.create(
            model=model, messages=[{"role": "user", "content": content}])
    return reply.choices[0].message.content


async def test_keys_from_env_and_sha256_and_a_per_key_disable(tmp_path, monkeypatch):
    monkeypatch.setenv("ACME_KEY", "acme-secret")
    sha = hashlib.sha256(b"globex-secret").hexdigest()
    secret = "my key is AKIAIOSFODNN7EXAMPLE"
    async with FakeLLMServer() as upstream:
        served = gateway(tmp_path, f"""
[serve.keys.acme]
key_env = "ACME_KEY"
tenant = "acme-corp"

[serve.keys.globex]
key_sha256 = "{sha}"
agents = ["support"]
disable = ["regex-filter"]
""", upstream.openai_base_url)
        assert [k.tenant for k in served.keys.keys] == ["acme-corp", "globex"]
        upstream.script(Reply(text="passed through"))
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as caught:  # acme runs the filter
                await ask(url, "acme-secret", secret)
            assert caught.value.body["code"] == "regex-filter"
            assert await ask(url, "globex-secret", secret) == "passed through"
            with pytest.raises(openai.PermissionDeniedError):
                await ask(url, "globex-secret", "hi", model="billing")
    assert len(upstream.requests) == 1


async def test_a_keys_system_messages_are_checked_unless_it_is_trusted_with_them(
        tmp_path, monkeypatch):
    """By default a client's system message is input the agent's processors check; a
    key with ``caller_system = "instructions"`` (your own application) has its system
    messages trusted like the agent's instructions. Its user messages are still checked."""
    monkeypatch.setenv("ACME_KEY", "acme-secret")
    monkeypatch.setenv("OWN_KEY", "own-secret")
    secret = "my key is AKIAIOSFODNN7EXAMPLE"
    system = [{"role": "system", "content": secret}, {"role": "user", "content": "hi"}]
    async with FakeLLMServer() as upstream:
        served = gateway(tmp_path, """
[serve.keys.acme]
key_env = "ACME_KEY"

[serve.keys.own]
key_env = "OWN_KEY"
caller_system = "instructions"
""", upstream.openai_base_url)
        upstream.script(Reply(text="ok"))
        async with running(served, "127.0.0.1", 0) as url:
            for key, allowed in (("acme-secret", False), ("own-secret", True)):
                async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key,
                                              max_retries=0) as api:
                    if allowed:
                        await api.chat.completions.create(model="support", messages=system)
                    else:
                        with pytest.raises(openai.BadRequestError) as caught:
                            await api.chat.completions.create(model="support",
                                                              messages=system)
                        assert caught.value.body["code"] == "regex-filter"
            with pytest.raises(openai.BadRequestError):
                await ask(url, "own-secret", secret)
    assert len(upstream.requests) == 1
    assert upstream.requests[0].body["messages"][0] == {"role": "system", "content": secret}


async def test_a_key_can_add_processors_and_a_keys_file_holds_keys(tmp_path, monkeypatch):
    (tmp_path / "keys.toml").write_text(f"""
[keys.strict]
key_sha256 = "{hashlib.sha256(b'strict-secret').hexdigest()}"
agents = ["billing"]
input_processors = [{{ use = "regex-filter", rules = [{{ name = "refund", pattern = "refund" }}] }}]
""")
    async with FakeLLMServer() as upstream:
        served = gateway(tmp_path, '[serve]\nkeys_file = "keys.toml"\n', upstream.openai_base_url)
        async with running(served, "127.0.0.1", 0) as url:
            with pytest.raises(openai.BadRequestError) as caught:
                await ask(url, "strict-secret", "I want a refund", model="billing")
    assert caught.value.body["code"] == "regex-filter"
    assert upstream.requests == []


@pytest.mark.parametrize(("serve", "needle"), [
    ("[serve.keys.a]\ntenant = 'x'\n", "exactly one of key_env"),
    ("[serve.keys.a]\nkey_env = 'NOT_SET_ANYWHERE_1234'\n", "is not set"),
    ("[serve.keys.a]\nkey_env = 'sk-abc-123'\n", "name of an environment variable"),
    ("[serve.keys.a]\nkey_sha256 = 'abc'\n", "64 hex digits"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\nkey = 'x'\n", "unknown key 'key'"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\nagents = ['ghost']\n", "no agent 'ghost'"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\ndisable = ['regex-filtr']\n",
     "'regex-filtr'"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\nmax_concurrent = 0\n", ">= 1"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\n[serve.keys.b]\nkey_sha256 = '"
     + "a" * 64 + "'\n", "the same key"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\ninput_processors = ['no-such-thing']\n",
     "no-such-thing"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\ncaller_system = 'trusted'\n",
     "caller_system: expects 'instructions' or 'input', got 'trusted'"),
    ("[serve.keys.a]\nkey_sha256 = '" + "a" * 64 + "'\ntenant = ''\n",
     "tenant: expects a non-empty name"),
    ("[serve]\nkeys_file = 'missing.toml'\n", "no such keys file"),
    ("[serve]\nmax_concurrent = 0\n", "max_concurrent"),
    ("[serve]\nmax_body_bytes = 'big'\n", "max_body_bytes"),
    ("[serve]\nupstream_error_messages = 'yes'\n",
     "[serve]: key 'upstream_error_messages' expects bool, got 'yes'"),
    ("[serve]\nupstream_error_messages = 1\n", "upstream_error_messages' expects bool"),
    ("[serve]\nmetrics_key = 5\n", "[serve]: key 'metrics_key' expects str"),
    ("[serve]\nmetrics_key = ''\n", "metrics_key: expects the key /metrics asks for"),
    ("[serve]\nmetrics_key = ' padded '\n", "without spaces around it"),
    ("[serve]\nmetrics_key_env = 'TRIPWIRE_TEST_UNSET_VARIABLE'\n",
     "metrics_key_env: the environment variable TRIPWIRE_TEST_UNSET_VARIABLE is not set"),
    ("[serve]\nmetrics_key = 'k'\nmetrics_key_env = 'HOME'\n", "not both"),
    ("[serve]\nmetrics_key_env = 3\n", "key 'metrics_key_env' expects str"),
    ("[serve]\nwrite_timeout = 0\n", "write_timeout: expects a number > 0, got 0"),
    ("[serve]\nwrite_timeout = -1.5\n", "write_timeout: expects a number > 0"),
    ("[serve]\nwrite_timeout = nan\n", "write_timeout: expects a number > 0, got nan"),
    ("[serve]\nwrite_timeout = inf\n", "write_timeout: expects a finite number of seconds"),
    ("[serve]\nwrite_timeout = '30'\n", "key 'write_timeout' expects float"),
])
def test_a_bad_key_table_is_an_error_naming_it(tmp_path, serve, needle):
    with pytest.raises(ConfigurationError, match=needle.replace("[", r"\[")):
        gateway(tmp_path, serve)


def test_metrics_key_env_reads_the_key_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_TEST_METRICS_KEY", "from-the-env")
    gateway_ = gateway(tmp_path, "[serve]\nmetrics_key_env = 'TRIPWIRE_TEST_METRICS_KEY'\n")
    assert gateway_.metrics_digest == digest("from-the-env")
    assert gateway(tmp_path, "").metrics_digest is None
    monkeypatch.setenv("TRIPWIRE_TEST_METRICS_KEY", " padded ")
    with pytest.raises(ConfigurationError, match="without spaces around it"):
        gateway(tmp_path, "[serve]\nmetrics_key_env = 'TRIPWIRE_TEST_METRICS_KEY'\n")


def test_write_timeout_is_read_from_serve_and_30_s_by_default(tmp_path):
    assert gateway(tmp_path, "").write_timeout == 30
    assert gateway(tmp_path, "[serve]\nwrite_timeout = 2.5\n").write_timeout == 2.5


def test_upstream_error_messages_is_read_from_serve_and_off_by_default(tmp_path):
    assert gateway(tmp_path, "").upstream_error_messages is False
    on = gateway(tmp_path, "[serve]\nupstream_error_messages = true\n")
    assert on.upstream_error_messages is True


def test_a_key_is_never_in_an_error_or_a_repr(tmp_path, monkeypatch):
    monkeypatch.setenv("ACME_KEY", "acme-very-secret")
    served = gateway(tmp_path, "[serve.keys.acme]\nkey_env = 'ACME_KEY'\n")
    assert "acme-very-secret" not in repr(served.keys.keys)
    assert digest("acme-very-secret").hex() not in repr(served.keys.keys)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_lookup_finds_exactly_the_configured_key(presented):
    keys = Keys([ApiKey("a", digest("alpha-key"), "a"), ApiKey("b", digest("beta-key"), "b")])
    found = keys.lookup(presented)
    expected = {"alpha-key": "a", "beta-key": "b"}.get(presented)
    assert (found.name if found else None) == expected


@settings(max_examples=60, deadline=None)
@given(body=st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["model", "messages", "role", "content", "tools", "tool_calls",
                         "tool_choice", "function", "name", "arguments", "type", "stream",
                         "id", "tool_call_id", "image_url", "url", "n", "x"]),
        inner, max_size=4),
    max_leaves=12))
def test_no_body_makes_the_request_parser_fail_other_than_with_bad_request(body):
    from tripwire.serve._request import BadRequest, parse_request

    try:
        parse_request(body)
    except BadRequest as e:
        assert str(e)


async def test_no_hostile_body_is_a_500(tmp_path):
    """Shapes an attacker would send reach the gateway over HTTP: each is a 4xx."""
    served = gateway(tmp_path, "")
    bodies = [
        {"model": "support", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
        {"model": "support", "messages": [{"role": "assistant", "tool_calls": [
            {"id": "c", "function": {"name": "f", "arguments": "[" * 5000}}]}]},
        {"model": "support", "messages": [{"role": "user", "content": "x"}], "tools": [
            {"type": "function", "function": {"name": "bad name!"}}]},
        {"model": "support", "messages": [{"role": "user", "content": "x"}], "stream": "yes"},
        {"model": ["support"], "messages": []},
        {"model": "support", "messages": {"role": "user"}},
    ]
    import aiohttp

    async with running(served, "127.0.0.1", 0) as url, aiohttp.ClientSession() as http:
        for body in bodies:
            async with http.post(f"{url}/v1/chat/completions", data=json.dumps(body)) as r:
                assert 400 <= r.status < 500, (body, await r.text())
        deep = "[" * 100000 + "]" * 100000
        async with http.post(f"{url}/v1/chat/completions", data=deep) as r:
            assert r.status == 400


def test_lookup_time_does_not_depend_on_how_much_of_the_key_is_right():
    """Not a timing assertion: the lookup compares every digest, whichever matches
    (counted, not timed)."""
    compared = []
    keys = Keys([ApiKey(str(i), digest(f"key-{i}"), "t") for i in range(5)])
    import tripwire.serve._keys as module

    real = module.hmac.compare_digest
    try:
        module.hmac.compare_digest = lambda a, b: compared.append(1) or real(a, b)  # type: ignore[assignment]
        for presented in ("key-0", "key-4", "nothing", "key-"):
            compared.clear()
            keys.lookup(presented)
            assert len(compared) == 5
    finally:
        module.hmac.compare_digest = real


async def test_a_key_gets_its_own_cost_guard_budget_per_tenant(tmp_path, monkeypatch):
    """A per-key budget: the key adds ``cost-guard`` (scope resource = the key's tenant)
    to both lists; once its tenant spent the budget, its requests are tripped before
    the upstream is called, and another key's tenant is not affected."""
    monkeypatch.setenv("SMALL_KEY", "small-secret")
    monkeypatch.setenv("BIG_KEY", "big-secret")
    guard = ('{ use = "cost-guard", limits = { max_total_tokens = 10 }, scope = "resource", '
             'cache = "memory://" }')
    async with FakeLLMServer() as upstream:
        served = gateway(tmp_path, f"""
[serve.keys.small]
key_env = "SMALL_KEY"
tenant = "small-co"
input_processors = [{guard}]
output_processors = [{guard}]

[serve.keys.big]
key_env = "BIG_KEY"
tenant = "big-co"
""", upstream.openai_base_url)
        upstream.script(*[Reply(text="answer", usage=(8, 4))
                          for _ in range(3)])
        async with running(served, "127.0.0.1", 0) as url:
            assert await ask(url, "small-secret", "hi", model="billing") == "answer"  # 12 tokens
            with pytest.raises(openai.BadRequestError) as caught:
                await ask(url, "small-secret", "again", model="billing")
            assert caught.value.body["code"] == "cost-guard"
            assert "max_total_tokens" in caught.value.body["message"]
            assert await ask(url, "big-secret", "hi", model="billing") == "answer"
    assert len(upstream.requests) == 2  # the tripped request never reached the upstream


async def test_a_key_whose_client_disconnects_mid_stream_is_charged_what_it_got(
        tmp_path, monkeypatch):
    """A client that always disconnects just before the end of the answer must not get
    answers for free: the key's cost-guard charges the tokens as they stream, so its
    budget runs out and the next request is refused before the upstream is called."""
    monkeypatch.setenv("SMALL_KEY", "small-secret")
    db = tmp_path / "budget.db"
    guard = ('{ use = "cost-guard", limits = { max_total_tokens = 60 }, scope = "resource", '
             f'cache = "sqlite:///{db}", charge_every = 8 }}')
    encoding = get_encoding("o200k_base")
    async with FakeLLMServer() as upstream:
        served = gateway(tmp_path, f"""
[serve.keys.small]
key_env = "SMALL_KEY"
tenant = "small-co"
input_processors = [{guard}]
output_processors = [{guard}]
""", upstream.openai_base_url)
        upstream.script(Reply(text="tick", endless=True, event_delay=0.002),
                        Reply(text="answer"))
        async with running(served, "127.0.0.1", 0) as url:
            received = ""
            async with aiohttp.ClientSession() as http:
                response = await http.post(
                    f"{url}/v1/chat/completions",
                    headers={"Authorization": "Bearer small-secret"},
                    json={"model": "billing", "stream": True,
                          "messages": [{"role": "user", "content": "hi"}]})
                while encoding.count(received) < 100:
                    line = await response.content.readline()
                    if line.startswith(b"data: {"):
                        for choice in json.loads(line[6:])["choices"]:
                            received += choice["delta"].get("content") or ""
                response.close()  # the client goes away
            await asyncio.wait_for(upstream.disconnected.wait(), timeout=10)
            counters = open_cache(f"sqlite:///{db}")
            charged = await counters.get("cost-guard:resource:small-co:output_tokens")
            await counters.close()
            assert int(charged or 0) >= encoding.count(received) - 8
            with pytest.raises(openai.BadRequestError) as caught:
                await ask(url, "small-secret", "again", model="billing")
            assert caught.value.body["code"] == "cost-guard"
    assert len(upstream.requests) == 1


def test_a_key_may_disable_the_default_error_processor(tmp_path, monkeypatch):
    """``disable = ["prefill-error-handler"]`` (a default every agent gets) takes it out
    of that key's agents; the agent as other keys run it keeps it."""
    monkeypatch.setenv("ACME_KEY", "acme-secret")
    monkeypatch.setenv("RAW_KEY", "raw-secret")
    served = gateway(tmp_path, """
[serve.keys.acme]
key_env = "ACME_KEY"

[serve.keys.raw]
key_env = "RAW_KEY"
agents = ["billing"]
disable = ["prefill-error-handler"]
""")
    assert [p.id for p in served.agents["billing"].list_processors()] == \
        ["prefill-error-handler"]
    assert [p.id for p in served.key_agents[("raw", "billing")].list_processors()] == []


def test_a_key_whose_processors_clash_with_its_agents_is_named_in_the_error(
        tmp_path, monkeypatch):
    monkeypatch.setenv("ACME_KEY", "acme-secret")
    with pytest.raises(ConfigurationError) as caught:
        gateway(tmp_path, """
[serve.keys.acme]
key_env = "ACME_KEY"
agents = ["support"]
input_processors = [{ use = "regex-filter", presets = ["pii"] }]
""")
    message = str(caught.value)
    assert message.startswith("serve.keys.acme: the agent 'support' with this key's "
                              "processors: "), message
    assert "two processors in input_processors have the id 'regex-filter'" in message


@pytest.mark.parametrize("presented", [b"ab\xffcd", b"\xc3(", "acme-secr\u00e9t".encode()])
async def test_a_key_that_is_not_utf8_is_a_401_and_not_logged(tmp_path, monkeypatch, caplog,
                                                              presented):
    """Header bytes that are not UTF-8 (aiohttp hands them on as surrogates) are a wrong
    key: a 401 in OpenAI's format, not a 500 whose traceback quotes part of the key."""
    import asyncio
    import logging

    monkeypatch.setenv("ACME_KEY", "acme-secret")
    served = gateway(tmp_path, "[serve.keys.acme]\nkey_env = 'ACME_KEY'\n")
    caplog.set_level(logging.DEBUG)
    body = b'{"model": "support", "messages": [{"role": "user", "content": "Hi"}]}'
    async with running(served, "127.0.0.1", 0) as url:
        host, port = url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n"
                     b"Authorization: Bearer " + presented + b"\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
        answer = await asyncio.wait_for(reader.read(), timeout=10)
        writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 401 ")
    assert json.loads(payload)["error"]["code"] == "invalid_api_key"
    logged = "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
    assert "Traceback" not in logged and "\\udc" not in logged
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
