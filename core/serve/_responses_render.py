"""An agent's chunks and result as OpenAI's Responses API: the response object and its
server-sent events.

Streamed, a response is ``response.created`` and ``response.in_progress``, then per
output item ``response.output_item.added``, its content (``response.content_part.added``,
``response.output_text.delta`` ..., ``response.output_text.done``,
``response.content_part.done``; a function call's ``response.function_call_arguments
.delta`` / ``.done``; reasoning's ``response.reasoning_text.delta`` / ``.done``) and
``response.output_item.done``, and last ``response.completed`` (or
``response.incomplete`` / ``response.failed``), each event with its
``sequence_number``. A text item closes when another kind of output begins (a function
call after the text of a step) or the response ends.

A tripwire after the first event ends the response with ``response.incomplete``:
``incomplete_details`` is ``{"reason": "content_filter", "tripwire": {"message",
"type": "tripwire", "code": <processor id>}}``, as OpenAI reports its own content
filter, with the processor named as chat completions names it; the items begun are
``incomplete``, with the text that passed the output processors and nothing of the
blocked text. A failed model call after the first event is ``response.failed`` with
``error: {"code", "message"}`` (the message of the error a whole request would get).

Only what a client can use reaches it, as in chat completions (``_response``): text,
reasoning, the calls of its own tools, usage. The response object repeats the
request's settings, but not the texts the input processors check (``instructions``
is null, a tool is its name, a ``json_schema`` format its name), so neither the object
nor a stored copy of it holds what an input processor took out.
"""

from __future__ import annotations

import time
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from tripwire.serve._response import dumps, tool_call_json, utf8

if TYPE_CHECKING:
    from tripwire.chunks import Chunk, Usage
    from tripwire.processor import TripwireInfo
    from tripwire.results import GenerateResult

__all__ = ["ResponseRender", "usage_json"]

_string = encode_basestring
#: What an ``output_text.delta`` event is before its sequence number, and after its text.
_DELTA_HEAD = (b'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",'
               b'"sequence_number":')
_DELTA_TAIL = b',"logprobs":[]}\n\n'


def _members(**fields: Any) -> str:
    """``fields`` as the members of a JSON object, as text (no braces)."""
    return dumps(fields)[1:-1]


def usage_json(usage: Usage) -> dict[str, Any]:
    """tripwire ``Usage`` as the Responses API's ``usage`` object."""
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": {"cached_tokens": usage.cached_input_tokens or 0},
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens or 0},
        "total_tokens": usage.total_tokens or usage.input_tokens + usage.output_tokens,
    }


class ResponseRender:
    """One response being rendered (a ``Renderer``): its id, the agent's name, the
    names of the client's tools, what the object repeats of the request (``echo``) and
    the output items so far. ``final`` is the response object once it ended."""

    def __init__(self, response_id: str, model: str, client_tools: frozenset[str],
                 echo: dict[str, Any], *, store: bool = False) -> None:
        self.id = response_id
        self.model = model
        self.client_tools = client_tools
        self.echo = echo
        self.store = store
        self.created_at = int(time.time())
        self.output: list[dict[str, Any]] = []
        self.final: dict[str, Any] | None = None
        #: the next event's sequence number: 0 and 1 are the two ``start`` events,
        #: which the gateway sends with the first event it renders, before it
        self._seq = 2
        self._suffix = response_id.removeprefix("resp_")
        #: the item being streamed (a message or reasoning) and its texts so far;
        #: ``_speaking``: it is a message
        self._open: dict[str, Any] | None = None
        self._speaking = False
        self._texts: list[str] = []
        #: what a streamed text delta of the open message holds between its sequence
        #: number and its text
        self._delta_mid = b""
        #: what a whole response collects (``collect``)
        self._reasoning: list[str] = []
        self._calls: list[dict[str, Any]] = []

    # -- the object

    def response(self, status: str, usage: Usage | None = None, *,
                 incomplete: dict[str, Any] | None = None,
                 error: dict[str, Any] | None = None,
                 output: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The response object with the output so far (or ``output``)."""
        return {
            "id": self.id, "object": "response", "created_at": self.created_at,
            "status": status, "error": error, "incomplete_details": incomplete,
            "instructions": None, "model": self.model,
            "output": list(self.output if output is None else output),
            "usage": None if usage is None else usage_json(usage),
            "store": self.store, "user": None, **self.echo,
        }

    def _end(self, status: str, usage: Usage | None, **details: Any) -> dict[str, Any]:
        self.final = self.response(status, usage, **details)
        return self.final

    # -- streaming
    #
    # An event is written from text templates around its JSON members (``_event``); the
    # ones of a message item, which every response has, from templates of their own
    # (one escape of the text for its three ``.done`` events).

    def _event(self, kind: str, members: str, seq: int | None = None) -> bytes:
        """The event ``kind`` with ``members`` (JSON object members, as text) after its
        type and sequence number."""
        if seq is None:
            seq = self._seq
            self._seq = seq + 1
        return utf8(f'event: {kind}\ndata: {{"type":"{kind}","sequence_number":{seq},'
                    f'{members}}}\n\n')

    def start(self) -> bytes:
        """``response.created`` and ``response.in_progress``, with no output yet (the
        gateway renders them with the first event, after that event's item began)."""
        snapshot = f'"response":{dumps(self.response("in_progress", output=[]))}'
        return (self._event("response.created", snapshot, 0)
                + self._event("response.in_progress", snapshot, 1))

    def event(self, chunk: Chunk) -> bytes | None:
        kind = chunk.type
        if kind == "text-delta":
            text = chunk.payload["text"]
            if not text:
                return None
            opened = b"" if self._speaking else self._begin("message")
            self._texts.append(text)
            seq = self._seq
            self._seq = seq + 1
            return b"".join((opened, _DELTA_HEAD, str(seq).encode(), self._delta_mid,
                             utf8(_string(text)), _DELTA_TAIL))
        if kind == "reasoning-delta":
            text = chunk.payload["text"]
            if not text:
                return None
            item = self._open
            opened = b""
            if item is None or item["type"] != "reasoning":
                opened = self._begin("reasoning")
                item = self.output[-1]
            self._texts.append(text)
            return opened + self._event("response.reasoning_text.delta", _members(
                item_id=item["id"], output_index=len(self.output) - 1, content_index=0,
                delta=text))
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            out = self._close("completed")
            item = self._call_item(chunk.payload)
            index = len(self.output)
            self.output.append(item)
            arguments = item["arguments"]
            return out + b"".join((
                self._event("response.output_item.added", _members(
                    output_index=index, item={**item, "arguments": "", "status": "in_progress"})),
                self._event("response.function_call_arguments.delta", _members(
                    item_id=item["id"], output_index=index, delta=arguments)),
                self._event("response.function_call_arguments.done", _members(
                    item_id=item["id"], output_index=index, name=item["name"],
                    arguments=arguments)),
                self._event("response.output_item.done", _members(output_index=index, item=item)),
            ))
        return None

    def _call_item(self, payload: dict[str, Any]) -> dict[str, Any]:
        call = tool_call_json(payload)
        return {"type": "function_call", "id": f"fc_{self._suffix}_{len(self.output)}",
                "call_id": call["id"], "name": call["function"]["name"],
                "arguments": call["function"]["arguments"], "status": "completed"}

    def _begin(self, kind: str) -> bytes:
        """Close the open item, open one of ``kind`` (``message`` or ``reasoning``)."""
        out = self._close("completed")
        index = len(self.output)
        self._texts = []
        if kind == "message":
            item_id = f"msg_{self._suffix}_{index}"  # (an id of ours: nothing to escape)
            item: dict[str, Any] = {"type": "message", "id": item_id, "status": "in_progress",
                                    "role": "assistant", "content": []}
            self.output.append(item)
            self._open = item
            self._speaking = True
            self._delta_mid = (f',"item_id":"{item_id}","output_index":{index},'
                               f'"content_index":0,"delta":').encode()
            return out + self._event("response.output_item.added", (
                f'"output_index":{index},"item":{{"type":"message","id":"{item_id}",'
                f'"status":"in_progress","role":"assistant","content":[]}}')) \
                + self._event("response.content_part.added", (
                    f'"item_id":"{item_id}","output_index":{index},"content_index":0,'
                    f'"part":{{"type":"output_text","text":"","annotations":[]}}'))
        item = {"type": "reasoning", "id": f"rs_{self._suffix}_{index}", "summary": [],
                "content": [], "status": "in_progress"}
        self.output.append(item)
        self._open = item
        return out + self._event("response.output_item.added",
                                 _members(output_index=index, item=dict(item))) \
            + self._event("response.content_part.added", _members(
                item_id=item["id"], output_index=index, content_index=0,
                part={"type": "reasoning_text", "text": ""}))

    def _close(self, status: str) -> bytes:
        """End the open item (``status``: completed, or incomplete when the response
        stopped), with its whole text in the ``.done`` events."""
        item = self._open
        if item is None:
            return b""
        self._open = None
        self._speaking = False
        text = "".join(self._texts)
        index = len(self.output) - 1
        item["status"] = status
        if item["type"] == "message":
            item["content"] = [{"type": "output_text", "text": text, "annotations": []}]
            escaped = _string(text)
            ids = f'"item_id":"{item["id"]}","output_index":{index},"content_index":0'
            part = f'{{"type":"output_text","text":{escaped},"annotations":[]}}'
            return self._event("response.output_text.done",
                               f'{ids},"text":{escaped},"logprobs":[]') \
                + self._event("response.content_part.done", f'{ids},"part":{part}') \
                + self._event("response.output_item.done", (
                    f'"output_index":{index},"item":{{"type":"message","id":"{item["id"]}",'
                    f'"status":"{status}","role":"assistant","content":[{part}]}}'))
        reasoning = {"type": "reasoning_text", "text": text}
        item["content"] = [reasoning]
        where: dict[str, Any] = {"item_id": item["id"], "output_index": index,
                                 "content_index": 0}
        return self._event("response.reasoning_text.done", _members(**where, text=text)) \
            + self._event("response.content_part.done", _members(**where, part=reasoning)) \
            + self._event("response.output_item.done", _members(output_index=index, item=item))

    def finish(self, finish_reason: str, usage: Usage) -> bytes:
        """``response.completed``, or ``response.incomplete`` for an answer the
        upstream cut at its token limit or by its own content filter."""
        incomplete = _INCOMPLETE.get(finish_reason)
        out = self._close("completed" if incomplete is None else "incomplete")
        if incomplete is None:
            return out + self._event("response.completed",
                                     _members(response=self._end("completed", usage)))
        return out + self._event("response.incomplete", _members(response=self._end(
            "incomplete", usage, incomplete={"reason": incomplete})))

    def tripped(self, info: TripwireInfo, usage: Usage) -> bytes:
        """``response.incomplete`` naming the processor (the module's docstring)."""
        out = self._close("incomplete")
        return out + self._event("response.incomplete", _members(response=self._end(
            "incomplete", usage, incomplete=tripwire_details(info))))

    def failed(self, status: int, message: str, type: str, code: Any) -> bytes:
        """``response.failed`` with the error."""
        out = self._close("incomplete")
        return out + self._event("response.failed", _members(response=self._end(
            "failed", None, error={"code": type, "message": message})))

    # -- one response

    def collect(self, chunk: Chunk) -> None:
        kind = chunk.type
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            self._calls.append(chunk.payload)
        elif kind == "reasoning-delta":
            self._reasoning.append(chunk.payload["text"])

    def body(self, result: GenerateResult) -> bytes:
        """The response object of a whole answer: its reasoning, its text (the result's,
        after the result processors) and the calls of the client's tools."""
        if self._reasoning:
            self.output.append({"type": "reasoning", "id": f"rs_{self._suffix}_0", "summary": [],
                                "content": [{"type": "reasoning_text",
                                             "text": "".join(self._reasoning)}],
                                "status": "completed"})
        incomplete = _INCOMPLETE.get(result.finish_reason)
        if result.text:
            self.output.append({
                "type": "message", "id": f"msg_{self._suffix}_{len(self.output)}",
                "status": "completed" if incomplete is None else "incomplete",
                "role": "assistant",
                "content": [{"type": "output_text", "text": result.text, "annotations": []}]})
        for payload in self._calls:
            self.output.append(self._call_item(payload))
        if incomplete is None:
            return utf8(dumps(self._end("completed", result.usage)))
        return utf8(dumps(self._end("incomplete", result.usage,
                                    incomplete={"reason": incomplete})))


#: tripwire finish reasons that leave a response incomplete, and OpenAI's reason.
_INCOMPLETE = {"length": "max_output_tokens", "content-filter": "content_filter"}


def tripwire_details(info: TripwireInfo) -> dict[str, Any]:
    """``incomplete_details`` of a response a processor stopped."""
    return {"reason": "content_filter",
            "tripwire": {"message": info.reason, "type": "tripwire", "code": info.processor_id}}
