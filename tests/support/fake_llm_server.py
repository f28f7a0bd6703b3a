"""A local LLM server for tests: OpenAI chat completions, OpenAI Responses and Anthropic
Messages over real HTTP on 127.0.0.1, with fault injection.

The wire shapes follow recorded provider traffic: OpenAI ``chat.completion.chunk``
events (a role chunk with ``content: ""``, content and tool-call deltas carrying
``index``, a finish chunk with an empty delta, a ``choices: []`` usage chunk,
``data: [DONE]``); OpenAI Responses ``event:``/``data:`` pairs (``response.created``,
``response.in_progress``, per output item ``response.output_item.added``, its deltas
and ``.done`` events, ``response.output_item.done``, ``response.completed`` with
``sequence_number``s); Anthropic ``event:``/``data:`` pairs (``message_start``,
``content_block_start``, ``ping``, ``content_block_delta`` with text, thinking,
signature and input-JSON deltas, ``content_block_stop``, ``message_delta``,
``message_stop``) and both providers' JSON error bodies.

Script replies in order; each is rendered in the format of the endpoint that
receives the request, streaming or not as the request asks::

    async with FakeLLMServer() as server:
        server.script(Reply(text="Hello"), ErrorReply(429, headers={"Retry-After": "0"}))
        model = server.openai()      # or server.model("openai" / "responses" / "anthropic")
        ...
        server.requests[0].body    # what the client sent

``BackgroundLLMServer`` runs one in a thread for code that makes its own event loops.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from typing import Any

import attrs
from aiohttp import web

from tripwire.models import Anthropic, OpenAICompatible, OpenAIResponses

API_KEY = "sk-test-0123456789abcdef-SECRET"

_OPENAI_FINISH = {
    "stop": "stop",
    "length": "length",
    "tool-calls": "tool_calls",
    "content-filter": "content_filter",
}
_ANTHROPIC_STOP = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool-calls": "tool_use",
    "content-filter": "refusal",
}
_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}

#: Anthropic's real answer to a conversation that ends with an assistant turn.
PREFILL_ERROR_MESSAGE = (
    "This model does not support assistant message prefill. "
    "The conversation must end with a user message."
)


@attrs.define
class FakeToolCall:
    id: str
    name: str
    #: The argument text exactly as the model streams it (a dict is JSON-encoded).
    arguments: str | dict[str, Any] = "{}"

    @property
    def text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


@attrs.define
class Reply:
    """One successful model turn.

    ``finish_reason`` is tripwire's name ("stop", "length", "tool-calls",
    "content-filter"; default "tool-calls" with tool calls, else "stop") or a native
    one, passed through. Text, reasoning and arguments stream in pieces of
    ``delta_size`` characters. Faults count stream events from 0: ``drop_after=n``
    cuts the connection after n events, ``stall_after=n`` stops sending (connection
    kept open), ``malformed_after=n`` sends a data line that is not JSON,
    ``error_after=n`` sends the provider's stream error event (``error``) and ends.
    ``endless`` keeps sending text deltas every ``event_delay`` seconds until the
    client goes away. ``write_size`` sends the whole stream as one blob cut into
    pieces of that many bytes (lines split across reads). ``end_delay``: seconds
    between the last event and the end of the body (a read of its own for the client).
    ``code_units``: text, reasoning and arguments are cut into pieces of UTF-16 code
    units, so a character outside the BMP (an emoji) can arrive as its two surrogate
    halves in two events, each a JSON escape of an unpaired surrogate (``"\\ud83d"``),
    as some servers send them. ``release``: the stream stops after the first event that
    carries text (the first piece of ``text``) and goes on once the event is set (a
    test of what reaches the client before the upstream sends more).
    """

    text: str = ""
    reasoning: str = ""
    tool_calls: list[FakeToolCall] = attrs.field(factory=list)
    finish_reason: str | None = None
    #: (prompt, completion) tokens as the server reports them: any JSON values (a test
    #: of what a client makes of ``1e20``, ``-3`` or ``"12"``)
    usage: tuple[Any, Any] = (11, 7)
    delta_size: int = 4
    drop_after: int | None = None
    stall_after: int | None = None
    malformed_after: int | None = None
    error_after: int | None = None
    error: dict[str, Any] | None = None
    event_delay: float = 0.0
    endless: bool = False
    write_size: int | None = None
    headers: dict[str, str] = attrs.field(factory=dict)
    end_delay: float = 0.0
    code_units: bool = False
    release: asyncio.Event | None = attrs.field(default=None, eq=False, repr=False)


@attrs.define
class ErrorReply:
    """A non-2xx answer with the provider's JSON error body (``body`` overrides it)."""

    status: int
    message: str = "Something went wrong"
    type: str | None = None
    headers: dict[str, str] = attrs.field(factory=dict)
    body: str | None = None


@attrs.define
class RawReply:
    """Bytes sent verbatim (a recorded stream), with this status and content type
    (sent as given: ``"text/plain; charset=bogus"`` is fine)."""

    body: str | bytes
    status: int = 200
    content_type: str = "text/event-stream"
    headers: dict[str, str] = attrs.field(factory=dict)


@attrs.define
class Flood:
    """Status 200 and ``block`` sent again and again, never a line end (a server
    that never finishes a line), until the client goes away or ``total`` bytes are
    sent; then the connection is held open without sending more."""

    block: bytes = b"x" * 65536
    content_type: str = "text/event-stream"
    total: int = 64 * 1024 * 1024


@attrs.define
class Hang:
    """Accept the request and never answer (not even headers)."""


@attrs.define
class ModerationReply:
    """An answer of ``POST /v1/moderations``: one result per item of
    ``category_scores`` (OpenAI category names to scores), ``flagged`` when a score
    is at least 0.5."""

    category_scores: list[dict[str, float]]


@attrs.define
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: Any
    #: The client's (host, port): requests sent over one kept-alive connection share it.
    peer: Any = None


class FakeLLMServer:
    """The server; ``async with FakeLLMServer() as server`` starts it on a free port."""

    def __init__(self) -> None:
        self._script: deque[Any] = deque()
        self.requests: list[RecordedRequest] = []
        #: Set when a client went away while an ``endless`` reply was streaming.
        self.disconnected = asyncio.Event()
        #: Set when a ``Reply.release`` stream stopped, waiting for its event.
        self.held = asyncio.Event()
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.url = ""
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._openai)
        app.router.add_post("/v1/messages", self._anthropic)
        app.router.add_post("/v1/responses", self._responses)
        app.router.add_post("/v1/moderations", self._moderations)
        app.router.add_post("/v1/embeddings", self._embeddings)
        self._app = app

    # -- lifecycle

    async def start(self) -> FakeLLMServer:
        self._runner = web.AppRunner(self._app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self

    async def close(self) -> None:
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeLLMServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- scripting

    def script(
        self, *replies: Reply | ErrorReply | RawReply | Flood | Hang | ModerationReply
    ) -> FakeLLMServer:
        self._script.extend(replies)
        return self

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    def openai(self, **options: Any) -> OpenAICompatible:
        """A provider pointed at this server (fast retries unless told otherwise)."""
        options.setdefault("retry_initial_delay", 0.001)
        return OpenAICompatible(
            base_url=options.pop("base_url", self.openai_base_url),
            api_key=options.pop("api_key", API_KEY),
            model=options.pop("model", "gpt-test"),
            **options,
        )

    def anthropic(self, **options: Any) -> Anthropic:
        options.setdefault("retry_initial_delay", 0.001)
        return Anthropic(
            base_url=options.pop("base_url", self.url),
            api_key=options.pop("api_key", API_KEY),
            model=options.pop("model", "claude-test"),
            **options,
        )

    def responses(self, **options: Any) -> OpenAIResponses:
        """A Responses provider pointed at this server (``/v1/responses``)."""
        options.setdefault("retry_initial_delay", 0.001)
        return OpenAIResponses(
            base_url=options.pop("base_url", self.openai_base_url),
            api_key=options.pop("api_key", API_KEY),
            model=options.pop("model", "gpt-test"),
            **options,
        )

    def model(self, wire: str, **options: Any) -> OpenAICompatible | Anthropic:
        """``openai(**options)``, ``responses(**options)`` or ``anthropic(**options)``, by
        wire format name."""
        if wire == "responses":
            return self.responses(**options)
        return self.openai(**options) if wire == "openai" else self.anthropic(**options)

    # -- handlers

    async def _openai(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, "openai")

    async def _anthropic(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, "anthropic")

    async def _responses(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, "responses")

    async def _moderations(self, request: web.Request) -> web.StreamResponse:
        """OpenAI's moderation endpoint: a ``ModerationReply`` as its JSON, an
        ``ErrorReply``, ``RawReply`` or ``Hang`` as for the other endpoints."""
        body = await request.json()
        self.requests.append(RecordedRequest(request.path, dict(request.headers), body))
        item = self._script.popleft() if self._script else None
        if isinstance(item, Hang):
            await self._closing.wait()
            return web.Response(status=503)
        if isinstance(item, ErrorReply):
            return _error_response("openai", item)
        if isinstance(item, RawReply):
            return web.Response(status=item.status, body=item.body,
                                headers={"Content-Type": item.content_type, **item.headers})
        if not isinstance(item, ModerationReply):
            return _error_response("openai", ErrorReply(
                400, f"fake server: no scripted ModerationReply for {request.path}"))
        results = [{
            "flagged": any(score >= 0.5 for score in scores.values()),
            "categories": {name: score >= 0.5 for name, score in scores.items()},
            "category_scores": scores,
        } for scores in item.category_scores]
        return web.json_response(
            {"id": "modr-fake123", "model": body.get("model"), "results": results})

    async def _embeddings(self, request: web.Request) -> web.StreamResponse:
        """OpenAI's embeddings endpoint. Unless an ``ErrorReply``, ``RawReply`` or
        ``Hang`` is scripted next, each input gets ``letter_vector(text)`` (26 letter
        counts), listed in reverse order with its ``index``, as a server may."""
        body = await request.json()
        self.requests.append(RecordedRequest(request.path, dict(request.headers), body))
        item = self._script[0] if self._script else None
        if isinstance(item, ErrorReply | RawReply | Hang):
            self._script.popleft()
            if isinstance(item, Hang):
                await self._closing.wait()
                return web.Response(status=503)
            if isinstance(item, ErrorReply):
                return _error_response("openai", item)
            return web.Response(status=item.status, body=item.body,
                                headers={"Content-Type": item.content_type, **item.headers})
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        data = [{"object": "embedding", "index": i, "embedding": letter_vector(text)}
                for i, text in enumerate(inputs)]
        return web.json_response({"object": "list", "data": data[::-1],
                                  "model": body.get("model"),
                                  "usage": {"prompt_tokens": 1, "total_tokens": 1}})

    async def _handle(self, request: web.Request, wire: str) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        peer = request.transport.get_extra_info("peername") if request.transport else None
        self.requests.append(RecordedRequest(request.path, dict(request.headers), body, peer))
        if not self._script:
            return _error_response(
                wire, ErrorReply(400, f"fake server: no scripted reply left for {request.path}")
            )
        item = self._script.popleft()
        if isinstance(item, ErrorReply):
            return _error_response(wire, item)
        if isinstance(item, RawReply):
            return web.Response(
                status=item.status,
                body=item.body.encode() if isinstance(item.body, str) else item.body,
                headers={"Content-Type": item.content_type, **item.headers},
            )
        if isinstance(item, Hang):
            await self._closing.wait()
            return web.Response(status=503)
        if isinstance(item, Flood):
            return await self._flood(request, item)
        model = body.get("model", "model") if isinstance(body, dict) else "model"
        if not (isinstance(body, dict) and body.get("stream")):
            data = _WHOLE[wire](item, model)
            return web.json_response(data, headers=item.headers)
        events = _EVENTS[wire](item, model)
        return await self._stream(request, wire, item, events, model)

    async def _flood(self, request: web.Request, flood: Flood) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": flood.content_type})
        await response.prepare(request)
        sent = 0
        try:
            while sent < flood.total and not self._closing.is_set():
                await response.write(flood.block)
                sent += len(flood.block)
        except ConnectionError:
            self.disconnected.set()
            return response
        await self._closing.wait()
        return response

    async def _stream(
        self, request: web.Request, wire: str, reply: Reply, events: list[bytes], model: str
    ) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                **reply.headers,
            }
        )
        await response.prepare(request)
        if reply.write_size:
            blob = b"".join(events)
            for i in range(0, len(blob), reply.write_size):
                await response.write(blob[i : i + reply.write_size])
            await response.write_eof()
            return response
        if reply.endless:
            events = events[:3]  # the opening events, then text forever
        # (the first piece of text as each wire's JSON writes it)
        held = (json.dumps(_pieces(reply.text, reply.delta_size, reply.code_units)[0])[1:-1]
                .encode() if reply.release is not None and reply.text else None)
        try:
            for i, event in enumerate(events):
                if reply.drop_after == i:
                    assert request.transport is not None
                    request.transport.abort()
                    return response
                if reply.stall_after == i:
                    await self._closing.wait()
                    return response
                if reply.malformed_after == i:
                    await response.write(b'data: {"id": "broken", "choices": [{"delta": \n\n')
                if reply.error_after == i:
                    await response.write(_stream_error_event(wire, reply.error))
                    break
                await response.write(event)
                if held is not None and held in event and reply.release is not None:
                    held = None
                    self.held.set()
                    waits = {asyncio.ensure_future(reply.release.wait()),
                             asyncio.ensure_future(self._closing.wait())}
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    for waiting in waits:
                        waiting.cancel()
                if reply.event_delay:
                    await asyncio.sleep(reply.event_delay)
            while reply.endless:
                await response.write(_text_event(wire, model, "tick "))
                await asyncio.sleep(reply.event_delay or 0.005)
            if reply.end_delay:
                await asyncio.sleep(reply.end_delay)
                await response.write_eof()  # (the client may have left meanwhile)
        except ConnectionError:  # a write to a client gone; its drain: "Connection lost"
            self.disconnected.set()
            return response
        await response.write_eof()
        return response


class BackgroundLLMServer:
    """A ``FakeLLMServer`` on its own event loop in a thread, for code that runs its
    own loops (``generate_sync``, one ``asyncio.run`` per call)::

        with BackgroundLLMServer() as server:
            server.script(Reply(text="hi"))
            agent = Agent(id="a", model=server.openai())
            agent.generate_sync("hello")
    """

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.server: FakeLLMServer

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=10)

    def __enter__(self) -> BackgroundLLMServer:
        self._thread.start()

        async def start() -> FakeLLMServer:
            return await FakeLLMServer().start()

        self.server = self._run(start())
        return self

    def __exit__(self, *exc: object) -> None:
        self._run(self.server.close())
        self._run(self._loop.shutdown_asyncgens())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def script(self, *replies: Reply | ErrorReply | RawReply | Flood | Hang) -> BackgroundLLMServer:
        async def add() -> None:
            self.server.script(*replies)

        self._run(add())
        return self

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.server.requests

    def openai(self, **options: Any) -> OpenAICompatible:
        return self.server.openai(**options)

    def anthropic(self, **options: Any) -> Anthropic:
        return self.server.anthropic(**options)

    def model(self, wire: str, **options: Any) -> OpenAICompatible | Anthropic:
        return self.server.model(wire, **options)


# ---------------------------------------------------------------- rendering


def letter_vector(text: str) -> list[float]:
    """What the fake embeddings endpoint answers for ``text``: the count of each letter
    a-z (texts with the same letters point the same way)."""
    lowered = text.lower()
    return [float(lowered.count(chr(ord("a") + i))) for i in range(26)]


def openai_refusal(text: str, *pieces: int) -> RawReply:
    """OpenAI's streamed refusal as it sends it: the message's ``refusal`` field in
    deltas (split after each of ``pieces`` characters), then finish reason ``stop``."""
    base = {"id": "chatcmpl-refusal", "object": "chat.completion.chunk", "model": "gpt-test"}
    cuts = [0, *pieces, len(text)]
    events = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": None,
                                                          "refusal": ""},
                                    "finish_reason": None}]}]
    events += [{**base, "choices": [{"index": 0, "delta": {"refusal": text[a:b]},
                                     "finish_reason": None}]}
               for a, b in zip(cuts, cuts[1:], strict=False)]
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return RawReply("".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n")


def _pieces(text: str, size: int, code_units: bool = False) -> list[str]:
    if code_units:  # each UTF-16 code unit as a character of its own (surrogates apart)
        raw = text.encode("utf-16-le", "surrogatepass")
        text = "".join(chr(int.from_bytes(raw[i : i + 2], "little"))
                       for i in range(0, len(raw), 2))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _sse(data: Any, event: str | None = None) -> bytes:
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()


def _finish(reply: Reply, table: dict[str, str]) -> str:
    reason = reply.finish_reason or ("tool-calls" if reply.tool_calls else "stop")
    return table.get(reason, reason)


def _openai_usage(reply: Reply) -> dict[str, Any]:
    prompt, completion = reply.usage
    counts = all(type(n) in (int, float) for n in reply.usage)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion if counts else prompt,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def openai_events(reply: Reply, model: str, response_id: str = "chatcmpl-fake123") -> list[bytes]:
    """A chat completions stream in the recorded shape."""
    base = {
        "id": response_id,
        "object": "chat.completion.chunk",
        "created": 1727000000,
        "model": model,
        "service_tier": "default",
        "system_fingerprint": "fp_fake",
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        return _sse(
            {
                **base,
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
                "usage": None,
                "obfuscation": "x1",
            }
        )

    events = [chunk({"role": "assistant", "content": "", "refusal": None})]
    events += [chunk({"reasoning_content": p}) for p in _pieces(reply.reasoning, reply.delta_size, reply.code_units)]
    events += [chunk({"content": p}) for p in _pieces(reply.text, reply.delta_size, reply.code_units)]
    for index, call in enumerate(reply.tool_calls):
        events.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": ""},
                        }
                    ]
                }
            )
        )
        for piece in _pieces(call.text, reply.delta_size, reply.code_units):
            events.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    events.append(chunk({}, _finish(reply, _OPENAI_FINISH)))
    events.append(_sse({**base, "choices": [], "usage": _openai_usage(reply), "obfuscation": "x2"}))
    events.append(b"data: [DONE]\n\n")
    return events


def openai_json(reply: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None, "refusal": None}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.text}}
            for c in reply.tool_calls
        ]
    return {
        "id": "chatcmpl-fake123",
        "object": "chat.completion",
        "created": 1727000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _finish(reply, _OPENAI_FINISH),
            }
        ],
        "usage": _openai_usage(reply),
        "service_tier": "default",
        "system_fingerprint": "fp_fake",
    }


def anthropic_events(reply: Reply, model: str, message_id: str = "msg_01FakeXyz") -> list[bytes]:
    """A Messages API stream in the recorded shape."""
    prompt, completion = reply.usage
    events = [
        _sse(
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {
                        "input_tokens": prompt,
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0,
                        "output_tokens": 1,
                        "service_tier": "standard",
                    },
                },
            },
            "message_start",
        )
    ]
    index = 0

    def block(start: dict[str, Any], deltas: list[dict[str, Any]]) -> None:
        nonlocal index
        events.append(
            _sse({"type": "content_block_start", "index": index, "content_block": start}, "content_block_start")
        )
        if index == 0:
            events.append(_sse({"type": "ping"}, "ping"))
        for delta in deltas:
            events.append(
                _sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")
            )
        events.append(_sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
        index += 1

    if reply.reasoning:
        block(
            {"type": "thinking", "thinking": "", "signature": ""},
            [{"type": "thinking_delta", "thinking": p} for p in _pieces(reply.reasoning, reply.delta_size, reply.code_units)]
            + [{"type": "signature_delta", "signature": "EqQBCkYIARgCKkA-fake-signature"}],
        )
    if reply.text or not reply.tool_calls:
        block(
            {"type": "text", "text": ""},
            [{"type": "text_delta", "text": p} for p in _pieces(reply.text, reply.delta_size, reply.code_units)],
        )
    for call in reply.tool_calls:
        block(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": {}},
            [{"type": "input_json_delta", "partial_json": ""}]
            + [{"type": "input_json_delta", "partial_json": p} for p in _pieces(call.text, reply.delta_size, reply.code_units)],
        )
    events.append(
        _sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": _finish(reply, _ANTHROPIC_STOP), "stop_sequence": None},
                "usage": {"output_tokens": completion},
            },
            "message_delta",
        )
    )
    events.append(_sse({"type": "message_stop"}, "message_stop"))
    return events


def anthropic_json(reply: Reply, model: str) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.reasoning:
        content.append(
            {"type": "thinking", "thinking": reply.reasoning, "signature": "EqQBCkYIARgCKkA-fake-signature"}
        )
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for call in reply.tool_calls:
        content.append({"type": "tool_use", "id": call.id, "name": call.name, "input": json.loads(call.text)})
    prompt, completion = reply.usage
    return {
        "id": "msg_01FakeXyz",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": _finish(reply, _ANTHROPIC_STOP),
        "stop_sequence": None,
        "usage": {
            "input_tokens": prompt,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": completion,
        },
    }


def responses_events(reply: Reply, model: str, response_id: str = "resp_fake123") -> list[bytes]:
    """A Responses stream in the shape OpenAI sends it: reasoning, text and function
    call items, each added, streamed and done, then ``response.completed``."""
    whole = responses_json(reply, model, response_id)
    seq = 0

    def event(kind: str, **fields: Any) -> bytes:
        nonlocal seq
        seq += 1
        return _sse({"type": kind, "sequence_number": seq - 1, **fields}, kind)

    opening = {**whole, "status": "in_progress", "output": [], "usage": None}
    events = [event("response.created", response=opening),
              event("response.in_progress", response=opening)]
    for index, item in enumerate(whole["output"]):
        ids = {"item_id": item["id"], "output_index": index}
        if item["type"] == "function_call":
            events.append(event("response.output_item.added", output_index=index,
                                item={**item, "arguments": "", "status": "in_progress"}))
            events += [event("response.function_call_arguments.delta", **ids, delta=p)
                       for p in _pieces(item["arguments"], reply.delta_size, reply.code_units)]
            events.append(event("response.function_call_arguments.done", **ids,
                                arguments=item["arguments"]))
        else:
            kind = "output_text" if item["type"] == "message" else "reasoning_text"
            text = item["content"][0]["text"]
            events.append(event("response.output_item.added", output_index=index,
                                item={**item, "content": [], "status": "in_progress"}))
            events.append(event("response.content_part.added", **ids, content_index=0,
                                part={**item["content"][0], "text": ""}))
            events += [event(f"response.{kind}.delta", **ids, content_index=0, delta=p)
                       for p in _pieces(text, reply.delta_size, reply.code_units)]
            events.append(event(f"response.{kind}.done", **ids, content_index=0, text=text))
            events.append(event("response.content_part.done", **ids, content_index=0,
                                part=item["content"][0]))
        events.append(event("response.output_item.done", output_index=index, item=item))
    final = "response.completed" if whole["status"] == "completed" else "response.incomplete"
    events.append(event(final, response=whole))
    return events


#: tripwire finish reasons -> a Responses object's status and incomplete reason.
_RESPONSES_STATUS = {"length": ("incomplete", "max_output_tokens"),
                     "content-filter": ("incomplete", "content_filter")}


def responses_json(reply: Reply, model: str, response_id: str = "resp_fake123") -> dict[str, Any]:
    """A Responses object: a reasoning item, a message, function calls; the status
    (``incomplete`` with its reason for a ``length`` or ``content-filter`` finish)."""
    output: list[dict[str, Any]] = []
    if reply.reasoning:
        output.append({"type": "reasoning", "id": "rs_fake1", "summary": [],
                       "content": [{"type": "reasoning_text", "text": reply.reasoning}]})
    if reply.text:
        output.append({"type": "message", "id": "msg_fake1", "status": "completed",
                       "role": "assistant", "content": [
                           {"type": "output_text", "text": reply.text, "annotations": [],
                            "logprobs": []}]})
    for i, call in enumerate(reply.tool_calls):
        output.append({"type": "function_call", "id": f"fc_fake{i}", "call_id": call.id,
                       "name": call.name, "arguments": call.text, "status": "completed"})
    status, reason = _RESPONSES_STATUS.get(reply.finish_reason or "", ("completed", None))
    prompt, completion = reply.usage
    counts = all(type(n) in (int, float) for n in reply.usage)
    return {
        "id": response_id, "object": "response", "created_at": 1727000000, "status": status,
        "error": None, "incomplete_details": {"reason": reason} if reason else None,
        "model": model, "output": output, "parallel_tool_calls": True, "tool_choice": "auto",
        "tools": [], "store": False,
        "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": completion,
                  "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": prompt + completion if counts else prompt},
    }


#: Each wire format's whole answer and stream.
_WHOLE = {"openai": openai_json, "responses": responses_json, "anthropic": anthropic_json}
_EVENTS = {"openai": openai_events, "responses": responses_events,
           "anthropic": anthropic_events}


def _text_event(wire: str, model: str, text: str) -> bytes:
    if wire == "responses":
        return _sse({"type": "response.output_text.delta", "sequence_number": 0,
                     "item_id": "msg_fake1", "output_index": 0, "content_index": 0,
                     "delta": text}, "response.output_text.delta")
    if wire == "openai":
        return _sse(
            {
                "id": "chatcmpl-fake123",
                "object": "chat.completion.chunk",
                "created": 1727000000,
                "model": model,
                "choices": [{"index": 0, "delta": {"content": text}, "logprobs": None, "finish_reason": None}],
            }
        )
    return _sse(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        "content_block_delta",
    )


def _stream_error_event(wire: str, error: dict[str, Any] | None) -> bytes:
    if wire == "responses":  # OpenAI's: response.failed with the response's error
        err = error or {"code": "server_error",
                        "message": "The server had an error while processing your request."}
        return _sse({"type": "response.failed", "sequence_number": 0, "response": {
            "id": "resp_fake123", "object": "response", "status": "failed", "error": err,
            "output": []}}, "response.failed")
    if wire == "openai":
        err = error or {"message": "The server had an error while processing your request.", "type": "server_error"}
        return _sse({"error": {"param": None, "code": None, **err}})
    err = error or {"type": "overloaded_error", "message": "Overloaded"}
    return _sse({"type": "error", "error": err}, "error")


def error_body(wire: str, reply: ErrorReply) -> str:
    if reply.body is not None:
        return reply.body
    if wire in ("openai", "responses"):
        kind = reply.type or ("server_error" if reply.status >= 500 else "invalid_request_error")
        return json.dumps({"error": {"message": reply.message, "type": kind, "param": None, "code": None}})
    kind = reply.type or _ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
    return json.dumps(
        {
            "type": "error",
            "error": {"type": kind, "message": reply.message},
            "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy",
        }
    )


def _error_response(wire: str, reply: ErrorReply) -> web.Response:
    return web.Response(
        status=reply.status,
        text=error_body(wire, reply),
        content_type="application/json",
        headers=reply.headers,
    )
