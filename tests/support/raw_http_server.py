"""A loopback HTTP/1.1 server that answers with scripted bytes, for what an aiohttp
server does not send: a body delimited by the connection's close, a connection closed
under a request, a compressed stream.

Each request (its head and ``Content-Length`` body read whole) is answered with the
next item of the script: ``bytes`` sent as they are (then the connection stays open
for the next request), ``Close`` (the connection closed without an answer) or
``SendAndClose`` (the bytes, then the close)::

    async with RawHTTPServer() as server:
        server.script(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok", Close())
        ... server.url, server.requests (connection number, head, body)
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import deque
from typing import Any

import attrs


@attrs.frozen
class Close:
    """Close the connection without answering."""


@attrs.frozen
class SendAndClose:
    """Send ``data``, then close the connection (a body delimited by the close)."""

    data: bytes


@attrs.frozen
class RawRequest:
    connection: int
    head: bytes
    body: bytes


class RawHTTPServer:
    def __init__(self) -> None:
        self._script: deque[bytes | Close | SendAndClose] = deque()
        self.requests: list[RawRequest] = []
        self.connections = 0
        self._server: asyncio.Server | None = None
        self.url = ""

    def script(self, *items: bytes | Close | SendAndClose) -> RawHTTPServer:
        self._script.extend(items)
        return self

    async def __aenter__(self) -> RawHTTPServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                body = await reader.readexactly(length)
                self.requests.append(RawRequest(number, head, body))
                item = self._script.popleft() if self._script else Close()
                if isinstance(item, Close):
                    return
                if isinstance(item, SendAndClose):
                    writer.write(item.data)
                    await writer.drain()
                    return
                writer.write(item)
                await writer.drain()
        finally:
            writer.close()


def sse_body(text: str) -> bytes:
    """An OpenAI chat-completions stream of ``text`` in one delta, then ``[DONE]``."""
    def event(delta: dict[str, Any], finish: str | None = None) -> bytes:
        chunk = {"id": "c1", "object": "chat.completion.chunk", "model": "m",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return b"data: " + json.dumps(chunk).encode() + b"\n\n"

    return (event({"role": "assistant", "content": ""}) + event({"content": text})
            + event({}, "stop") + b"data: [DONE]\n\n")


def json_body(text: str) -> bytes:
    """An OpenAI chat completion answering ``text``."""
    return json.dumps({
        "id": "c1", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }).encode()


def answer(body: bytes, *, content_type: str, framing: str, gzipped: bool = False) -> bytes:
    """An HTTP/1.1 200 answer carrying ``body``: ``framing`` is ``"length"``
    (``Content-Length``), ``"chunked"`` (in chunks of 7 bytes) or ``"close"`` (neither:
    the body ends with the connection)."""
    if gzipped:
        body = gzip.compress(body)
    head = [b"HTTP/1.1 200 OK", b"Content-Type: " + content_type.encode()]
    if gzipped:
        head.append(b"Content-Encoding: gzip")
    if framing == "length":
        head.append(b"Content-Length: %d" % len(body))
    elif framing == "chunked":
        head.append(b"Transfer-Encoding: chunked")
        body = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 7]), body[i:i + 7])
                        for i in range(0, len(body), 7)) + b"0\r\n\r\n"
    else:
        head.append(b"Connection: close")
    return b"\r\n".join(head) + b"\r\n\r\n" + body
