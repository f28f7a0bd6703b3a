"""OpenAI's chat completions API as a codec of the gateway's request path.

``POST /v1/chat/completions``: the body read by ``_request`` (``ChatRequest``), the
answer rendered by ``_response`` (``Completion``), errors in OpenAI's shape. The
memory thread is the ``X-Tripwire-Thread`` header's (``_thread``): a request naming
one sends only its turn's new messages, and its agent must have memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from aiohttp import web

from tripwire.serve._codec import Codec, Exchange
from tripwire.serve._request import ChatRequest, parse_request
from tripwire.serve._response import Completion
from tripwire.serve._thread import (
    THREAD_HEADER,
    answered_calls,
    check_turn,
    has_memory,
    thread_of,
)

if TYPE_CHECKING:
    from tripwire.agent import AgentStream

__all__ = ["CHAT_PATH", "ChatCodec"]

#: The path of the chat completions.
CHAT_PATH = "/v1/chat/completions"


class ChatCodec(Codec):
    """OpenAI's chat completions (the module's docstring)."""

    api: ClassVar[str] = "chat"
    path: ClassVar[str] = CHAT_PATH

    def parse(self, exchange: Exchange) -> ChatRequest:
        chat = parse_request(exchange.body)
        thread = thread_of(exchange.request)  # never logged or counted: the client chose it
        if thread is not None:
            check_turn(exchange.body["messages"])
            answered_calls(chat.messages)
            exchange.thread = thread
        return chat

    async def before(self, exchange: Exchange) -> web.StreamResponse | None:
        assert exchange.agent is not None and exchange.call is not None
        if exchange.thread is not None and not has_memory(exchange.agent):
            return self.error(400, f"The model {exchange.call.agent!r} has no memory: "
                              f"{THREAD_HEADER} names a memory thread of an agent with "
                              f"memory; send this one the whole conversation, without "
                              f"the header.", "invalid_request_error", "model_without_memory")
        return None

    def renderer(self, exchange: Exchange, run: AgentStream) -> Completion:
        call = exchange.call
        assert isinstance(call, ChatRequest)
        return Completion(call.agent, run.run_id, exchange.client_tools,
                          include_usage=call.include_usage)
