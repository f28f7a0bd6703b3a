"""Credentials never leave a provider: not in the finish chunk's headers or recorded
request, not in reprs, errors, URLs or log lines, also when they come in base_url
(``http://user:password@host/v1``) or in extra headers."""

from __future__ import annotations

import base64
import logging
import socket

import pytest

from tests.support.fake_llm_server import API_KEY, ErrorReply, RawReply, Reply
from tests.support.helpers import WIRES, collect, request
from tripwire import APICallError, ConfigurationError
from tripwire.models import Anthropic, OpenAICompatible, mask_headers, mask_url

PASSWORD = "pw-0123456789-hunter2"


def with_userinfo(url: str, userinfo: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{userinfo}@{rest}"


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


# ---------------------------------------------------------------- the helpers


def test_mask_headers_masks_credential_names_and_keeps_the_rest():
    headers = {
        "Authorization": "Bearer sk-1",
        "Proxy-Authorization": "Basic eA==",
        "x-api-key": "sk-ant",
        "api-key": "azure",
        "Cookie": "a=b",
        "Set-Cookie": "session=1",
        "X-Goog-Api-Key": "g",
        "x-ratelimit-remaining-tokens": "9000",
        "X-Client-Secret": "s",
        "WWW-Authenticate": "Bearer",
        "Content-Type": "text/event-stream",
        "x-request-id": "req_1",
    }
    masked = mask_headers(headers)

    assert list(masked) == list(headers)  # names keep their spelling and order
    kept = {k: v for k, v in masked.items() if v != "***"}
    assert kept == {"Content-Type": "text/event-stream", "x-request-id": "req_1"}
    assert mask_headers(None) == {}
    assert mask_headers([("Authorization", "x"), ("Accept", "y")]) == {"Authorization": "***", "Accept": "y"}


def test_mask_url_masks_the_password_or_a_bare_user_token():
    assert mask_url("http://user:secret@host:8080/v1") == "http://user:***@host:8080/v1"
    assert mask_url("https://tok3n@host/v1") == "https://***@host/v1"
    assert mask_url("https://api.openai.com/v1") == "https://api.openai.com/v1"


# ---------------------------------------------------------------- the finish chunk


@pytest.mark.parametrize("wire", WIRES)
async def test_finish_chunk_masks_credential_headers_of_the_response(llm_server, wire):
    headers = {
        "Set-Cookie": "__cf_bm=abc; path=/",
        "x-ratelimit-remaining-tokens": "99000",
        "X-Echo-Api-Key": API_KEY,
        "X-Debug": f"auth was {API_KEY}",
        "x-request-id": "req_42",
    }
    llm_server.script(Reply(text="ok", headers=headers))
    async with llm_server.model(wire) as model:
        chunks = await collect(model)

    shown = chunks[-1].payload["raw_response"]["headers"]
    assert shown["set-cookie"] == "***"
    assert shown["x-ratelimit-remaining-tokens"] == "***"
    assert shown["x-echo-api-key"] == "***"
    assert shown["x-debug"] == "auth was ***"  # the key is masked in any value
    assert shown["x-request-id"] == "req_42"
    assert API_KEY not in repr(chunks[-1].payload)


async def test_generate_finish_chunk_masks_headers_too(llm_server):
    llm_server.script(Reply(text="ok", headers={"Set-Cookie": "s=1"}))
    async with llm_server.anthropic() as model:
        chunks = await model.generate(request())
    assert chunks[-1].payload["raw_response"]["headers"]["set-cookie"] == "***"


async def test_recorded_request_never_contains_the_api_key_though_the_server_gets_the_body(llm_server):
    # A user who pastes the key into the conversation or an option: it is sent (it is
    # their data) but the request recorded on the finish chunk shows it masked.
    llm_server.script(Reply(text="ok"))
    options = {"openai": {"metadata": {"note": f"my key is {API_KEY}"}}}
    async with llm_server.openai() as model:
        chunks = [c async for c in model.stream(request(provider_options=options))]

    assert llm_server.requests[0].body["metadata"] == {"note": f"my key is {API_KEY}"}
    recorded = chunks[-1].payload["request"]
    assert recorded["metadata"] == {"note": "my key is ***"}
    assert API_KEY not in repr(chunks[-1].payload)
    assert recorded["messages"] == llm_server.requests[0].body["messages"]


# ---------------------------------------------------------------- base_url credentials


async def test_base_url_credentials_authenticate_and_are_masked_everywhere_shown(llm_server):
    url = with_userinfo(llm_server.openai_base_url, f"alice:{PASSWORD}")
    llm_server.script(Reply(text="hello"))
    async with OpenAICompatible(base_url=url, api_key=None, model="m") as model:
        chunks = await collect(model)
        shown = [repr(model), str(model), model.base_url]

    assert "".join(c.payload.get("text", "") for c in chunks) == "hello"
    assert llm_server.requests[0].headers["Authorization"] == basic("alice", PASSWORD)
    assert model.base_url == with_userinfo(llm_server.openai_base_url, "alice:***")
    assert f"base_url='{model.base_url}'" in repr(model)
    for text in [*shown, repr(chunks[-1].payload)]:
        assert PASSWORD not in text


async def test_anthropic_sends_base_url_credentials_next_to_its_api_key(llm_server):
    url = with_userinfo(llm_server.url, f"proxyuser:{PASSWORD}")
    llm_server.script(Reply(text="hi"))
    async with Anthropic(base_url=url, api_key=API_KEY, model="claude-test") as model:
        await collect(model)

    sent = llm_server.requests[0].headers
    assert sent["Authorization"] == basic("proxyuser", PASSWORD)
    assert sent["x-api-key"] == API_KEY


@pytest.mark.parametrize("wire", WIRES)
async def test_base_url_credentials_are_masked_in_errors_and_retry_logs(llm_server, wire, caplog):
    base = llm_server.openai_base_url if wire == "openai" else llm_server.url
    url = with_userinfo(base, f"alice:{PASSWORD}")
    echo = f"bad credentials {PASSWORD} for {url} ({basic('alice', PASSWORD)})"
    llm_server.script(ErrorReply(500, echo), ErrorReply(401, echo))
    caplog.set_level(logging.DEBUG)
    cls = OpenAICompatible if wire == "openai" else Anthropic
    key = None if wire == "openai" else API_KEY
    async with cls(base_url=url, api_key=key, model="m", max_retries=1, retry_initial_delay=0.001) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)

    error = info.value
    assert error.status_code == 401
    assert error.url.startswith(with_userinfo(base, "alice:***"))
    assert "retry 1 of 1" in caplog.text
    for text in [str(error), repr(error), error.message, error.response_body, error.url, caplog.text]:
        assert PASSWORD not in text
        assert basic("alice", PASSWORD).split()[1] not in text


async def test_unreachable_server_with_credentials_in_base_url_keeps_them_hidden():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://alice:{PASSWORD}@127.0.0.1:{port}/v1"
    async with OpenAICompatible(base_url=url, api_key=None, model="m", max_retries=0) as model:
        with pytest.raises(APICallError, match="cannot reach openai") as info:
            await collect(model)
    assert info.value.url == f"http://alice:***@127.0.0.1:{port}/v1/chat/completions"
    assert PASSWORD not in str(info.value) + repr(info.value)


def test_a_token_given_as_the_url_user_name_is_masked_whole():
    model = OpenAICompatible(base_url=f"https://{PASSWORD}@gateway.example/v1", api_key=None, model="m")
    assert model.base_url == "https://***@gateway.example/v1"
    assert PASSWORD not in repr(model)


def test_bad_base_url_error_does_not_show_its_password():
    with pytest.raises(ConfigurationError, match="http:// or https://") as info:
        OpenAICompatible(base_url=f"ftp://alice:{PASSWORD}@host/v1", api_key=None, model="m")
    assert PASSWORD not in str(info.value)


def test_base_url_credentials_and_a_bearer_api_key_cannot_both_be_the_authorization_header():
    with pytest.raises(ConfigurationError, match="Authorization header") as info:
        OpenAICompatible(base_url=f"http://alice:{PASSWORD}@host/v1", api_key=API_KEY, model="m")
    assert PASSWORD not in str(info.value) and "alice:***@host" in str(info.value)


async def test_credentials_in_extra_headers_are_masked_in_echoed_errors(llm_server):
    # e.g. Azure OpenAI's "api-key" header instead of a bearer token
    azure_key = "azure-0123456789abcdef"
    llm_server.script(ErrorReply(401, f"Access denied due to invalid subscription key {azure_key}"))
    async with llm_server.openai(api_key=None, headers={"api-key": azure_key}) as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert llm_server.requests[0].headers["api-key"] == azure_key
    assert azure_key not in info.value.message + info.value.response_body
    assert "subscription key ***" in info.value.message


async def test_unexpected_page_quoting_the_key_is_masked(llm_server):
    page = f"<html><body>Login required. Token {API_KEY} rejected.</body></html>"
    llm_server.script(RawReply(page, content_type="text/html"))
    async with llm_server.openai() as model:
        with pytest.raises(APICallError) as info:
            await collect(model)
    assert API_KEY not in info.value.message + info.value.response_body
    assert "Token *** rejected" in info.value.message
