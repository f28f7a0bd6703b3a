"""OpenAI's Responses API as a codec of the gateway's request path.

``POST /v1/responses``: the body read by ``_responses_request``, the answer rendered by
``_responses_render``, errors in OpenAI's shape; ``GET`` and ``DELETE
/v1/responses/{id}`` for stored responses.

Stored responses live in the agent's memory store, as memory threads of the key's
tenant: a response ``resp_X`` of tenant T is the thread ``T/resp_X`` (``_thread
.store_thread_id``), holding the conversation up to and including that response (what
the agent's memory saves: the input and output as the processors left them) and, last,
the response object (an assistant message whose only part is a ``data-`` part, which
no model sees). So:

- an agent with memory stores each response unless the request says ``store: false``,
  as OpenAI stores them by default;
- ``previous_response_id`` names a stored response of the same tenant (another
  tenant's id names no thread of this one: a 404). A stored response's conversation is
  copied into the new response's thread before the run (the agent's memory then loads
  its last ``last_messages``), so each stored response is a conversation of its own:
  two requests continuing from the same response branch, and deleting one response
  leaves the others whole. With ``store: false`` the conversation is the run's input
  instead, checked by the input processors as a chat client's history is;
- a ``function_call_output`` answering a call of the previous response gets the call's
  name and arguments from the stored response;
- an agent without memory stores nothing: ``store: true`` or a
  ``previous_response_id`` sent to it is a 400 that says why.

``X-Tripwire-Thread`` is chat completions' way of naming a thread: on a Responses
request it is a 400 naming ``previous_response_id``.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
from aiohttp import web

from tripwire.memory import MemoryStore
from tripwire.messages import DataPart, Message, new_id
from tripwire.serve._codec import BadRequest, Codec, Exchange, Handler, Renderer
from tripwire.serve._request import new_message, tool_invocation
from tripwire.serve._response import dumps, utf8
from tripwire.serve._responses_render import ResponseRender
from tripwire.serve._responses_request import Kept, ResponsesRequest, parse_responses
from tripwire.serve._thread import THREAD_HEADER, THREAD_ID, memory_store, store_thread_id

if TYPE_CHECKING:
    from tripwire.agent import Agent, AgentStream
    from tripwire.serve._app import Gateway

__all__ = ["RECORD_TYPE", "RESPONSES_PATH", "ResponsesCodec"]

#: The path of the Responses API.
RESPONSES_PATH = "/v1/responses"
#: The part type of the message that holds a stored response object in its thread.
RECORD_TYPE = "data-tripwire-response"


class ResponsesCodec(Codec):
    """OpenAI's Responses API (the module's docstring)."""

    api: ClassVar[str] = "responses"
    path: ClassVar[str] = RESPONSES_PATH

    def parse(self, exchange: Exchange) -> ResponsesRequest:
        if THREAD_HEADER in exchange.request.headers:
            raise BadRequest(f"The {THREAD_HEADER} header names a chat completions memory "
                             f"thread; a Responses request continues a stored response with "
                             f"previous_response_id.", "previous_response_id")
        return parse_responses(exchange.body)

    async def before(self, exchange: Exchange) -> web.StreamResponse | None:
        call, agent = exchange.call, exchange.agent
        assert isinstance(call, ResponsesRequest) and agent is not None
        call.response_id = f"resp_{uuid.uuid4().hex}"
        store = memory_store(agent)
        if store is None:
            if call.store or call.previous_response_id is not None:
                field = "store" if call.store else "previous_response_id"
                return self.error(
                    400, f"The model {call.agent!r} has no memory, so it stores no responses: "
                    f"send it the whole conversation as input, without {field} (an agent with "
                    f"memory stores responses in its memory store).", "invalid_request_error",
                    "model_without_memory", field)
            call.store = False
            return None
        history: list[Message] = []
        if call.previous_response_id is not None:
            found = await _load(store, exchange.tenant, call.previous_response_id)
            if found is None:
                return self.error(404, f"Previous response with id "
                                  f"'{call.previous_response_id}' not found.",
                                  "invalid_request_error", "previous_response_not_found",
                                  "previous_response_id")
            history, record = found
            _answer_calls(call, record)
        call.store = call.store is not False
        if not call.store:
            call.messages[:0] = history
            return None
        exchange.thread = call.response_id
        stored = call.kept = Kept(store, store_thread_id(exchange.tenant, exchange.thread))
        if history:
            copies = [attrs.evolve(m, id=new_id(), thread_id=None, resource_id=None)
                      for m in history]
            await store.save_messages(stored.thread_id, exchange.tenant, copies)
            stored.made = True
        return None

    def renderer(self, exchange: Exchange, run: AgentStream) -> ResponseRender:
        call = exchange.call
        assert isinstance(call, ResponsesRequest)
        return ResponseRender(call.response_id, call.agent, exchange.client_tools, call.echo,
                              store=bool(call.store))

    async def after(self, exchange: Exchange, renderer: Renderer) -> None:
        call = exchange.call
        assert isinstance(call, ResponsesRequest) and isinstance(renderer, ResponseRender)
        stored = call.kept
        if stored is None:
            return
        if renderer.final is None:  # no answer: nothing to keep of the copy made for it
            if stored.made:
                await stored.store.delete_thread(stored.thread_id)
            return
        record = new_message("assistant", [DataPart(RECORD_TYPE, renderer.final)])
        await stored.store.save_messages(stored.thread_id, exchange.tenant, [record])

    def routes(self, gateway: Gateway) -> list[tuple[str, str, Handler]]:
        async def get(exchange: Exchange) -> web.StreamResponse:
            found = await self._stored(gateway, exchange)
            if isinstance(found, web.Response):
                return found
            _, _, record = found
            return _json(record)

        async def delete(exchange: Exchange) -> web.StreamResponse:
            found = await self._stored(gateway, exchange)
            if isinstance(found, web.Response):
                return found
            store, thread_id, record = found
            await store.delete_thread(thread_id)
            return _json({"id": record["id"], "object": "response.deleted", "deleted": True})

        path = RESPONSES_PATH + "/{response_id}"
        return [("GET", path, get), ("DELETE", path, delete)]

    async def _stored(self, gateway: Gateway, exchange: Exchange
                      ) -> tuple[MemoryStore, str, dict[str, Any]] | web.Response:
        """The stored response the path names, in the memory store of an agent the key
        may use: its store, thread and object; or the 404."""
        response_id = exchange.request.match_info["response_id"]
        tenant = exchange.tenant
        if THREAD_ID.fullmatch(response_id):
            seen: list[MemoryStore] = []
            for agent in _agents(gateway, exchange):
                store = memory_store(agent)
                if store is None or any(store is s for s in seen):
                    continue
                seen.append(store)
                found = await _load(store, tenant, response_id)
                if found is not None:
                    record = found[1]
                    if record.get("model") in gateway.agents:
                        exchange.record.agent = record["model"]
                    return store, store_thread_id(tenant, response_id), record
        return self.error(404, f"No response found with id '{response_id:.128}'.",
                          "invalid_request_error", "response_not_found")


def _agents(gateway: Gateway, exchange: Exchange) -> list[Agent]:
    """The agents the request's key may use, as it runs them."""
    key = exchange.key
    if key is None:
        return list(gateway.agents.values())
    return [gateway.key_agents.get((key.name, name), agent)
            for name, agent in gateway.agents.items() if key.may_use(name)]


async def _load(store: MemoryStore, tenant: str | None, response_id: str
                ) -> tuple[list[Message], dict[str, Any]] | None:
    """The conversation and object of the stored response ``response_id`` of
    ``tenant``, or None when the store holds none (another tenant's id names a thread of
    this tenant's namespace, which holds none)."""
    thread_id = store_thread_id(tenant, response_id)
    thread = await store.get_thread(thread_id)
    if thread is None or thread.resource_id != tenant:
        return None
    messages = await store.last_messages(thread_id, max(thread.message_count, 1))
    record = None
    history = []
    for message in messages:
        part = message.content.parts[0] if len(message.content.parts) == 1 else None
        if isinstance(part, DataPart) and part.type == RECORD_TYPE:
            record = part.data
        else:
            history.append(message)
    if not isinstance(record, dict):
        return None
    return history, record


def _answer_calls(call: ResponsesRequest, record: dict[str, Any]) -> None:
    """Fill in the name and arguments of each call ``call.answers`` answers from the
    previous response's ``function_call`` items; ``BadRequest`` for an answer to a call
    it did not make."""
    made = {item.get("call_id"): item for item in record.get("output", [])
            if isinstance(item, dict) and item.get("type") == "function_call"}
    for answer in call.answers:
        item = made.get(answer.tool_call_id)
        if item is None:
            raise BadRequest(
                f"input: a function_call_output answers the call {answer.tool_call_id!r:.80}, "
                f"which the previous response did not make", "input")
        invocation = tool_invocation(item["call_id"], item["name"], item["arguments"],
                                     "call_id", "name", "arguments")
        answer.tool_name, answer.args = invocation.tool_name, invocation.args


def _json(value: Any) -> web.Response:
    return web.Response(body=utf8(dumps(value)), content_type="application/json",
                        charset="utf-8")

