"""The providers' connection pool (``tripwire.models._pool``): what goes on the wire,
bodies of every framing, keep-alive and its limits, a connection the server closed
under a request, TLS, and aiohttp's client when httptools is not installed."""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess

import pytest
from aiohttp import web

from tests.support.fake_llm_server import API_KEY, FakeLLMServer, RawReply, Reply
from tests.support.helpers import collect, request, texts
from tests.support.raw_http_server import (
    Close,
    RawHTTPServer,
    SendAndClose,
    answer,
    json_body,
    sse_body,
)
from tripwire import APICallError, ConfigurationError
from tripwire.models import OpenAICompatible, Timeout, _pool


@pytest.fixture(params=["pool", "aiohttp"])
def client(request, monkeypatch):
    """Each test on the pool and on aiohttp's client (httptools not installed)."""
    if request.param == "aiohttp":
        monkeypatch.setattr(_pool, "AVAILABLE", False)
    return request.param


def raw_model(server: RawHTTPServer, **options) -> OpenAICompatible:
    return OpenAICompatible(f"{server.url}/v1", API_KEY, "m", **options)


# ---------------------------------------------------------------- the request


async def test_the_request_carries_the_body_and_headers_the_provider_sets(client):
    async with FakeLLMServer() as server:
        server.script(Reply(text="hi"), Reply(text="again"))
        async with server.openai(headers={"X-Team": "blue"}) as model:
            assert texts(await collect(model)) == "hi"
            assert texts(await collect(model)) == "again"
            kind = type(await model._get_session()).__name__
    assert kind == {"pool": "Pool", "aiohttp": "ClientSession"}[client]
    first, second = server.requests
    headers = first.headers
    assert headers["Host"] == server.url.removeprefix("http://")
    assert headers["Authorization"] == f"Bearer {API_KEY}"
    assert headers["Content-Type"] == "application/json" and headers["X-Team"] == "blue"
    assert "gzip" in headers["Accept-Encoding"]
    assert first.body["messages"] == [{"role": "user", "content": "Hi"}]
    assert first.body["stream"] is True
    assert second.peer == first.peer  # one kept-alive connection


async def test_a_header_no_request_can_carry_is_a_configuration_error(client):
    async with FakeLLMServer() as server:
        model = server.openai(headers={"X-Note": "a\r\nX-Injected: 1"})
        async with model:
            with pytest.raises(ConfigurationError, match="'X-Note' holds a line break"):
                await collect(model)
    assert server.requests == []


# ---------------------------------------------------------------- bodies


@pytest.mark.parametrize("gzipped", [False, True], ids=["identity", "gzip"])
@pytest.mark.parametrize("framing", ["length", "chunked", "close"])
async def test_a_stream_of_every_framing_is_read_whole(client, framing, gzipped):
    reply = answer(sse_body("framed"), content_type="text/event-stream", framing=framing,
                   gzipped=gzipped)
    async with RawHTTPServer() as server:
        server.script(SendAndClose(reply) if framing == "close" else reply)
        async with raw_model(server, max_retries=0) as model:
            chunks = await collect(model)
    assert texts(chunks) == "framed" and chunks[-1].payload["finish_reason"] == "stop"


@pytest.mark.parametrize("gzipped", [False, True], ids=["identity", "gzip"])
@pytest.mark.parametrize("framing", ["length", "chunked", "close"])
async def test_an_answer_of_every_framing_is_read_whole(client, framing, gzipped):
    reply = answer(json_body("whole"), content_type="application/json", framing=framing,
                   gzipped=gzipped)
    async with RawHTTPServer() as server:
        server.script(SendAndClose(reply) if framing == "close" else reply)
        async with raw_model(server, max_retries=0) as model:
            chunks = await model.generate(request())
    assert texts(chunks) == "whole"


async def test_a_body_larger_than_the_read_ahead_arrives_whole(client):
    text = "x" * (3 * _pool.HIGH_WATER)
    body = json.dumps({"id": "c", "model": "m", "choices": [{"index": 0, "finish_reason": "stop",
                       "message": {"role": "assistant", "content": text}}]})
    async with FakeLLMServer() as server:
        server.script(RawReply(body, content_type="application/json"), Reply(text="next"))
        async with server.openai() as model:
            assert texts(await model.generate(request())) == text
            assert texts(await collect(model)) == "next"


async def test_a_body_cut_short_is_a_dropped_connection(client):
    reply = answer(sse_body("cut"), content_type="text/event-stream", framing="length")
    async with RawHTTPServer() as server:
        server.script(SendAndClose(reply[:-20]))
        async with raw_model(server, max_retries=0) as model:
            with pytest.raises(APICallError) as info:
                await collect(model)
    assert info.value.is_retryable and info.value.status_code == 200


# ---------------------------------------------------------------- connections


async def test_a_kept_alive_connection_closed_under_a_request_is_retried_once_on_a_new_one():
    assert _pool.AVAILABLE  # the pool's own behaviour (aiohttp's client: no retry of a POST)
    ok = answer(sse_body("one"), content_type="text/event-stream", framing="length")
    again = answer(sse_body("two"), content_type="text/event-stream", framing="length")
    async with RawHTTPServer() as server:
        server.script(ok, Close(), again)
        async with raw_model(server, max_retries=0) as model:
            assert texts(await collect(model)) == "one"
            assert texts(await collect(model)) == "two"  # no transport retry: the pool's
    assert [r.connection for r in server.requests] == [1, 1, 2]
    assert server.requests[1].body == server.requests[2].body


async def test_a_new_connection_closed_without_an_answer_is_not_sent_again(client):
    async with RawHTTPServer() as server:
        server.script(Close(), Close())
        async with raw_model(server, max_retries=0) as model:
            with pytest.raises(APICallError, match="cannot reach openai") as info:
                await collect(model)
    assert info.value.is_retryable and info.value.status_code is None
    assert len(server.requests) == 1


async def test_calls_beyond_max_connections_wait_for_a_connection(client):
    async with FakeLLMServer() as server:
        server.script(*[Reply(text=f"call {i}", event_delay=0.01) for i in range(6)])
        async with server.openai(max_connections=2) as model:
            answers = await asyncio.gather(*(collect(model) for _ in range(6)))
            assert (await model._get_session()).__class__.__name__ in ("Pool", "ClientSession")
    assert sorted(texts(a) for a in answers) == [f"call {i}" for i in range(6)]
    assert len({r.peer for r in server.requests}) == 2


async def test_a_call_given_up_while_waiting_for_a_connection_leaves_no_slot_taken(client):
    release = asyncio.Event()
    async with FakeLLMServer() as server:
        server.script(Reply(text="first", release=release), Reply(text="third"))
        async with server.openai(max_connections=1) as model:
            first = asyncio.ensure_future(collect(model))
            await asyncio.wait_for(server.held.wait(), 5)
            second = asyncio.ensure_future(collect(model))  # waits for the one connection
            for _ in range(5):
                await asyncio.sleep(0)
            second.cancel()
            with pytest.raises(asyncio.CancelledError):
                await second
            release.set()
            assert texts(await first) == "first"
            assert texts(await asyncio.wait_for(collect(model), 5)) == "third"
    assert len(server.requests) == 2


async def test_an_idle_connection_is_kept_no_longer_than_the_keep_alive_time(monkeypatch):
    assert _pool.AVAILABLE  # the pool's own behaviour (aiohttp's client: its own keep-alive setting)
    async with FakeLLMServer() as server:
        server.script(Reply(text="one"), Reply(text="two"), Reply(text="three"))
        async with server.openai() as model:
            await collect(model)
            await collect(model)
            monkeypatch.setattr(_pool, "KEEPALIVE_SECONDS", 0.0)
            await collect(model)
    first, second, third = (r.peer for r in server.requests)
    assert first == second != third


async def test_the_whole_call_is_bounded_by_the_total_timeout(client):
    async with FakeLLMServer() as server:
        server.script(Reply(endless=True, event_delay=0.01))
        async with server.openai(timeout=Timeout(connect=5, read=5, total=0.3),
                                 max_retries=0) as model:
            with pytest.raises(APICallError, match=r"exceeded 0.3 s \(Timeout.total\)"):
                await collect(model)


async def test_a_server_that_talks_out_of_turn_loses_its_connection():
    assert _pool.AVAILABLE  # the pool's own behaviour (aiohttp's client: its own reading)
    ok = answer(sse_body("one"), content_type="text/event-stream", framing="length")
    async with RawHTTPServer() as server:
        server.script(ok + b"HTTP/1.1 200 OK\r\n\r\n", ok)
        async with raw_model(server, max_retries=0) as model:
            assert texts(await collect(model)) == "one"
            assert texts(await collect(model)) == "one"
    assert [r.connection for r in server.requests] == [1, 2]


# ---------------------------------------------------------------- TLS


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj",
         "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True)
    return cert, key


async def tls_upstream(cert, key) -> tuple[web.AppRunner, str]:
    async def answer_json(request: web.Request) -> web.Response:
        return web.Response(body=json_body("over tls"), content_type="application/json")

    app = web.Application()
    app.router.add_post("/v1/chat/completions", answer_json)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"https://127.0.0.1:{port}/v1"


async def test_an_https_upstream_is_verified_against_the_system_certificates(client, certificate):
    runner, url = await tls_upstream(*certificate)
    try:
        async with OpenAICompatible(url, API_KEY, "m", max_retries=0) as model:
            with pytest.raises(APICallError, match="cannot reach openai") as info:
                await model.generate(request())
        assert "CERTIFICATE_VERIFY_FAILED" in info.value.message
    finally:
        await runner.cleanup()


async def test_an_https_upstream_with_a_trusted_certificate_answers(certificate, monkeypatch):
    assert _pool.AVAILABLE  # the pool's own behaviour (aiohttp's client: SSL_CERT_FILE read once, at import)
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    runner, url = await tls_upstream(*certificate)
    try:
        async with OpenAICompatible(url, API_KEY, "m", max_retries=0) as model:
            assert texts(await model.generate(request())) == "over tls"
    finally:
        await runner.cleanup()


# ---------------------------------------------------------------- uvloop


def test_the_pool_runs_on_uvloop():
    # tripwire serve runs on uvloop when it is installed: its transports are not
    # asyncio's classes, and its sockets are its own
    uvloop = pytest.importorskip("uvloop")

    async def calls() -> tuple[list[str], int, str]:
        async with FakeLLMServer() as server:
            server.script(Reply(text="one"), Reply(text="two"))
            async with server.openai() as model:
                got = [texts(await collect(model)), texts(await collect(model))]
                kind = type(await model._get_session()).__name__
            return got, len({r.peer for r in server.requests}), kind

    assert uvloop.run(calls()) == (["one", "two"], 1, "Pool")
