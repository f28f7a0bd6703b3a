"""Anthropic's Messages API as a codec of the gateway's request path.

``POST /v1/messages``: the body read by ``_messages_request`` (``MessagesRequest``),
the answer rendered by ``_messages_response`` (``MessageAnswer``), errors in
Anthropic's shape (``{"type": "error", "error": {"type", "message"}}``). The key comes
in Anthropic's ``x-api-key`` header or as a bearer key. ``POST
/v1/messages/count_tokens`` counts a request's tokens with the agent's token counter
(``count_tokens``). The memory thread is the ``X-Tripwire-Thread`` header's, as for
chat completions (``_thread``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from aiohttp import web

from tripwire.agent import Agent
from tripwire.errors import ConfigurationError
from tripwire.messages import message_to_core
from tripwire.registry import PROCESSORS, builtin
from tripwire.serve._codec import BadRequest, Codec, Exchange, Handler, bearer
from tripwire.serve._messages_request import (
    MessagesRequest,
    parse_messages_request,
    thread_turn,
)
from tripwire.serve._messages_response import (
    MessageAnswer,
    anthropic_error_body,
    error_type,
    tripwire_message,
)
from tripwire.serve._response import dumps, utf8
from tripwire.serve._thread import (
    THREAD_HEADER,
    answered_calls,
    check_turn,
    has_memory,
    thread_of,
)

if TYPE_CHECKING:
    from tripwire.agent import AgentStream
    from tripwire.serve._app import Gateway

__all__ = ["COUNT_TOKENS_PATH", "MESSAGES_PATH", "MessagesCodec", "count_tokens"]

#: The path of the Messages API.
MESSAGES_PATH = "/v1/messages"
#: Its token counting endpoint.
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"

#: Tokens every answer is primed with, as ``token-limiter`` counts a prompt (OpenAI's
#: cookbook: ``<|start|>assistant<|message|>``).
REPLY_PRIMING_TOKENS = 3


class MessagesCodec(Codec):
    """Anthropic's Messages API (the module's docstring)."""

    api: ClassVar[str] = "messages"
    path: ClassVar[str] = MESSAGES_PATH
    key_help: ClassVar[str] = "x-api-key: KEY"

    def __init__(self) -> None:
        #: the token counter of agents without a ``token-limiter`` (made on first use)
        self._counter: Any = None

    def presented_key(self, request: web.Request) -> str | None:
        """The key of the ``x-api-key`` header (Anthropic's), else a bearer key."""
        presented = request.headers.get("x-api-key", "").strip()
        return presented or bearer(request)

    def error(self, status: int, message: str, type: str, code: Any = None,
              param: str | None = None) -> web.Response:
        """Anthropic's error object, its type the one Anthropic's API gives the
        ``status``; a processor that stopped the request (``type`` ``tripwire``, the
        processor's id as ``code``) is an ``invalid_request_error`` naming it."""
        if type == "tripwire":
            message = tripwire_message(code, message)
        return web.Response(status=status, body=utf8(anthropic_error_body(error_type(status),
                                                                          message)),
                            content_type="application/json", charset="utf-8")

    def parse(self, exchange: Exchange) -> MessagesRequest:
        call = parse_messages_request(exchange.body)
        thread = thread_of(exchange.request)  # never logged or counted: the client chose it
        if thread is not None:
            check_turn(thread_turn(exchange.body))
            answered_calls(call.messages)
            exchange.thread = thread
        return call

    async def before(self, exchange: Exchange) -> web.StreamResponse | None:
        assert exchange.agent is not None and exchange.call is not None
        if exchange.thread is not None and not has_memory(exchange.agent):
            return self.error(400, f"The model {exchange.call.agent!r} has no memory: "
                              f"{THREAD_HEADER} names a memory thread of an agent with "
                              f"memory; send this one the whole conversation, without "
                              f"the header.", "invalid_request_error")
        return None

    def renderer(self, exchange: Exchange, run: AgentStream) -> MessageAnswer:
        assert exchange.call is not None
        return MessageAnswer(exchange.call.agent, run.run_id, exchange.client_tools)

    def routes(self, gateway: Gateway) -> list[tuple[str, str, Handler]]:
        async def count(exchange: Exchange) -> web.StreamResponse:
            return await self._count_tokens(gateway, exchange)

        return [("POST", COUNT_TOKENS_PATH, count)]

    async def _count_tokens(self, gateway: Gateway, exchange: Exchange) -> web.StreamResponse:
        """``POST /v1/messages/count_tokens``: ``{"input_tokens": N}``, the tokens of the
        request for the agent its ``model`` names (``count_tokens``)."""
        failure = await gateway.read(exchange)
        if failure is not None:
            return failure
        try:
            call = parse_messages_request(exchange.body, count=True)
            if thread_of(exchange.request) is not None:
                raise BadRequest(f"count_tokens counts the request's own messages; it reads "
                                 f"no memory thread: send it without {THREAD_HEADER}")
        except BadRequest as e:
            return self.error(400, str(e), "invalid_request_error", None, e.param)
        failure = gateway.pick_agent(exchange, call.agent)
        if failure is not None:
            return failure
        assert exchange.agent is not None
        try:  # (the first use loads the encoding, about 0.5 s: not on the event loop)
            counter = await asyncio.get_running_loop().run_in_executor(
                None, self.counter, exchange.agent)
        except ConfigurationError as e:
            return self.error(400, f"This gateway cannot count tokens: {e}",
                              "invalid_request_error")
        tokens = count_tokens(counter, exchange.agent, call)
        return web.Response(body=utf8(dumps({"input_tokens": tokens})),
                            content_type="application/json", charset="utf-8")

    def counter(self, agent: Agent) -> Any:
        """The agent's token counter, its encoding loaded: its ``token-limiter``'s, else
        the built-in ``token-limiter``'s default (``o200k_base``); ``ConfigurationError``
        when the ``tokens`` extra is not installed."""
        try:
            limiter = agent.resolve_processor("token-limiter")
        except KeyError:
            limiter = None
        counter = getattr(limiter, "counter", None)
        if counter is None:
            if self._counter is None:
                self._counter = builtin(PROCESSORS, "token-limiter")(limit=1).counter
            counter = self._counter
        counter.count("load")  # the encoding is loaded on first use
        return counter


def count_tokens(counter: Any, agent: Agent, call: MessagesRequest) -> int:
    """The input tokens of ``call`` for ``agent``, counted as ``token-limiter`` counts a
    prompt: the agent's instructions and the request's system and messages (each with
    the chat format's overhead), the tool definitions (the agent's and the client's:
    name, description, input schema), the fields for the upstream (``thinking``) and
    the answer's priming. What the client sent, before the input processors change it;
    the memory a thread would add is not in it."""
    prompt = [{"role": "system", "content": text} for text in agent.instructions]
    for message in call.messages:
        prompt.extend(message_to_core(message))
    total = sum(counter.message(m) for m in prompt) + REPLY_PRIMING_TOKENS
    tools: list[Mapping[str, Any]] = [
        {"name": t.name, "description": t.description, "parameters": t.parameters}
        for t in agent.tools.values()]
    tools += call.client_tools
    for tool in tools:
        total += (counter.count(tool["name"]) + counter.count(tool["description"] or "")
                  + counter.count(dumps(tool["parameters"] or {})))
    if call.upstream_fields:
        total += counter.count(dumps(call.upstream_fields))
    return int(total)
