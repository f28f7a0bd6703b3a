"""An agent's chunks and result in Anthropic's Messages API format.

The ``message`` object, the server-sent events the official ``anthropic`` client
parses (``message_start``, ``ping``, ``content_block_start``, ``content_block_delta``
with ``text_delta`` / ``thinking_delta`` / ``signature_delta`` / ``input_json_delta``,
``content_block_stop``, ``message_delta``, ``message_stop``, ``error``) and the error
object ``{"type": "error", "error": {"type", "message"}}``.

Only what a client can use reaches it, as in the chat completion (``_response``):
text, reasoning as thinking blocks (with the signature an Anthropic upstream gave
them, so the client can send them back), the calls of its own tools, the stop reason
and usage. Tools the agent runs itself, step boundaries and data chunks stay in the
gateway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, Usage
from tripwire.serve._response import _string, dumps, utf8

if TYPE_CHECKING:
    from tripwire.processor import TripwireInfo
    from tripwire.results import GenerateResult

__all__ = ["ERROR_TYPES", "MessageAnswer", "anthropic_error_body", "error_type",
           "stop_reason", "tool_input", "tripwire_message", "usage_json"]

#: tripwire finish reasons -> Anthropic's stop reasons (anything else: ``end_turn``).
STOP_REASONS = {"stop": "end_turn", "length": "max_tokens", "tool-calls": "tool_use",
                "content-filter": "refusal"}
#: The stop reason of a message a processor stopped after it began.
REFUSAL = "refusal"

#: HTTP statuses -> Anthropic's error types (the status each comes with, in its API).
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "overloaded_error",
    504: "timeout_error",
    529: "overloaded_error",
}


def error_type(status: int) -> str:
    """Anthropic's error type for an HTTP status (another 4xx: ``invalid_request_error``,
    another 5xx: ``api_error``)."""
    kind = ERROR_TYPES.get(status)
    if kind is None:
        kind = "api_error" if status >= 500 else "invalid_request_error"
    return kind


def anthropic_error_body(type: str, message: str) -> str:
    """Anthropic's error object as JSON text."""
    return dumps({"type": "error", "error": {"type": type, "message": message}})


def tripwire_message(processor_id: str | None, reason: str) -> str:
    """What a client is told of a processor that stopped its request: the processor's
    id and its reason (a reason says why, never the blocked text)."""
    who = "A processor" if processor_id is None else f"The processor {processor_id!r}"
    return f"{who} stopped the request: {reason}"


def stop_reason(finish_reason: str, client_calls: bool) -> str:
    """A tripwire finish reason as Anthropic's stop reason: a step that ended for tool
    calls none of which went to the client (the agent's own, at its step limit) reads
    ``end_turn``."""
    reason = STOP_REASONS.get(finish_reason, "end_turn")
    if reason == "tool_use" and not client_calls:
        return "end_turn"
    return reason


def usage_json(usage: Usage | None) -> dict[str, Any]:
    """tripwire ``Usage`` as Anthropic's ``usage``: ``input_tokens`` without the tokens
    read from the upstream's cache (``cache_read_input_tokens``, when it says), as
    Anthropic counts them."""
    if usage is None:
        return {"input_tokens": 0, "output_tokens": 0}
    cached = usage.cached_input_tokens
    out: dict[str, Any] = {"input_tokens": max(usage.input_tokens - (cached or 0), 0),
                           "output_tokens": usage.output_tokens}
    if cached is not None:
        out["cache_read_input_tokens"] = cached
    return out


def _event(name: str, data: dict[str, Any]) -> bytes:
    return utf8(f"event: {name}\ndata: {dumps(data)}\n\n")


_BLOCK_STOP = b'event: content_block_stop\ndata: {"type":"content_block_stop","index":%d}\n\n'
_DELTA_HEAD = (b'event: content_block_delta\ndata: {"type":"content_block_delta","index":%d,'
               b'"delta":{"type":"%s","%s":')
_DELTA_TAIL = b"}}\n\n"


class MessageAnswer:
    """One Messages answer being rendered: streamed (``start``, ``event`` per chunk,
    then one of ``finish``, ``tripped``, ``failed``) or whole (``collect`` per chunk,
    then ``body``).

    A stream's blocks follow the chunks: text deltas go to an open text block, reasoning
    deltas to an open thinking block (a new one after its signature), and each call of
    a client tool is a ``tool_use`` block of its own; a block is closed when another
    kind begins."""

    def __init__(self, model: str, run_id: str, client_tools: frozenset[str]) -> None:
        self.model = model
        self.id = f"msg_{run_id}"
        self.client_tools = client_tools
        #: the index of the last block begun, and the kind of the open one (None: none)
        self.index = -1
        self.open: str | None = None
        #: the open block's delta events begin with this
        self._head = b""
        self.tool_calls = 0
        #: a whole answer's thinking and tool_use blocks (its text is the result's)
        self.thinking: list[dict[str, Any]] = []
        self.tool_uses: list[dict[str, Any]] = []

    # -- streaming

    def start(self) -> bytes:
        """``message_start`` (usage is known once the run ends: ``message_delta``) and a
        ``ping``."""
        message: dict[str, Any] = {
            "id": self.id, "type": "message", "role": "assistant", "model": self.model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": usage_json(None)}
        return (_event("message_start", {"type": "message_start", "message": message})
                + b'event: ping\ndata: {"type":"ping"}\n\n')

    def _begin(self, kind: str, block: dict[str, Any]) -> bytes:
        """Close the open block and begin one of ``kind``."""
        out = self._close()
        self.index += 1
        self.open = kind
        if kind == "text":
            self._head = _DELTA_HEAD % (self.index, b"text_delta", b"text")
        elif kind == "thinking":
            self._head = _DELTA_HEAD % (self.index, b"thinking_delta", b"thinking")
        return out + _event("content_block_start", {"type": "content_block_start",
                                                    "index": self.index,
                                                    "content_block": block})

    def _close(self) -> bytes:
        if self.open is None:
            return b""
        self.open = None
        return _BLOCK_STOP % self.index

    def event(self, chunk: Chunk) -> bytes | None:
        """The events for one chunk, or None when the client is not told about it."""
        kind = chunk.type
        if kind == "text-delta":  # the common case: the event from a template
            text = chunk.payload["text"]
            if not text:
                return None
            if self.open == "text":
                return b"".join((self._head, utf8(_string(text)), _DELTA_TAIL))
            out = self._begin("text", {"type": "text", "text": ""})
            return out + b"".join((self._head, utf8(_string(text)), _DELTA_TAIL))
        if kind == "reasoning-delta":
            return self._reasoning(chunk.payload)
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            payload = chunk.payload
            self.tool_calls += 1
            out = self._begin("tool_use", {"type": "tool_use", "id": payload["tool_call_id"],
                                           "name": payload["tool_name"], "input": {}})
            out += _event("content_block_delta", {
                "type": "content_block_delta", "index": self.index,
                "delta": {"type": "input_json_delta", "partial_json": dumps(tool_input(payload))}})
            return out + self._close()
        return None

    def _reasoning(self, payload: dict[str, Any]) -> bytes | None:
        """A reasoning delta: its text as a ``thinking_delta``; the signature an
        Anthropic upstream ends a thinking block with as a ``signature_delta``, which
        closes the block."""
        text = payload["text"]
        signature = _signature(payload)
        if not text and signature is None:
            return None
        out = b""
        if self.open != "thinking":
            out = self._begin("thinking", {"type": "thinking", "thinking": "",
                                           "signature": ""})
        if text:
            out += b"".join((self._head, utf8(_string(text)), _DELTA_TAIL))
        if signature is not None:
            out += _event("content_block_delta", {
                "type": "content_block_delta", "index": self.index,
                "delta": {"type": "signature_delta", "signature": signature}})
            out += self._close()
        return out

    def _delta(self, usage: Usage | None, reason: str,
               details: dict[str, Any] | None = None) -> bytes:
        delta: dict[str, Any] = {"stop_reason": reason, "stop_sequence": None}
        if details is not None:
            delta["stop_details"] = details
        return (self._close()
                + _event("message_delta", {"type": "message_delta", "delta": delta,
                                           "usage": usage_json(usage)})
                + b'event: message_stop\ndata: {"type":"message_stop"}\n\n')

    def finish(self, finish_reason: str, usage: Usage) -> bytes:
        """The open block's end, ``message_delta`` (stop reason, usage) and
        ``message_stop``."""
        return self._delta(usage, stop_reason(finish_reason, bool(self.tool_calls)))

    def tripped(self, info: TripwireInfo, usage: Usage | None) -> bytes:
        """A processor stopped the run after the stream began: the message ends with
        the ``refusal`` stop reason (its ``stop_details`` name the processor), then an
        ``error`` event naming it (the ``anthropic`` client raises it). Nothing of the
        blocked text: it never passed the processor."""
        message = tripwire_message(info.processor_id, info.reason)
        details = {"type": "refusal", "category": None, "explanation": message}
        return (self._delta(usage, REFUSAL, details)
                + _event("error", {"type": "error", "error": {
                    "type": "invalid_request_error", "message": message}}))

    def failed(self, status: int, message: str, type: str, code: Any) -> bytes:
        """The run failed after the stream began: an ``error`` event, as Anthropic's
        API ends a stream that fails (its type the one of the error's ``status``)."""
        return _event("error", {"type": "error",
                                "error": {"type": error_type(status), "message": message}})

    # -- one response

    def collect(self, chunk: Chunk) -> None:
        """Keep what a whole answer reports from a chunk (thinking, tool calls)."""
        kind = chunk.type
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            payload = chunk.payload
            self.tool_uses.append({"type": "tool_use", "id": payload["tool_call_id"],
                                   "name": payload["tool_name"], "input": tool_input(payload)})
        elif kind == "reasoning-delta":
            text = chunk.payload["text"]
            signature = _signature(chunk.payload)
            if not text and signature is None:
                return
            if not self.thinking or self.thinking[-1]["signature"]:
                self.thinking.append({"type": "thinking", "thinking": "", "signature": ""})
            block = self.thinking[-1]
            block["thinking"] += text
            if signature is not None:
                block["signature"] = signature

    def body(self, result: GenerateResult) -> bytes:
        """The ``message`` object."""
        content: list[dict[str, Any]] = list(self.thinking)
        if result.text:
            content.append({"type": "text", "text": result.text})
        content.extend(self.tool_uses)
        return utf8(dumps({
            "id": self.id,
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": content,
            "stop_reason": stop_reason(result.finish_reason, bool(self.tool_uses)),
            "stop_sequence": None,
            "usage": usage_json(result.usage),
        }))


def _signature(payload: dict[str, Any]) -> str | None:
    """The thinking signature an Anthropic upstream put on a reasoning delta."""
    metadata = payload.get("provider_metadata")
    if not metadata:
        return None
    signature = (metadata.get("anthropic") or {}).get("signature")
    return signature if isinstance(signature, str) and signature else None


def tool_input(payload: dict[str, Any]) -> dict[str, Any]:
    """A client tool call's input: its arguments as the output processors left them.
    Text the model sent that is not a JSON object (an OpenAI-compatible upstream's
    model can send any) is passed on as it came, wrapped as Anthropic's documentation
    wraps invalid tool JSON, ``{"INVALID_JSON": "<the text>"}``: a tool_use block's
    input is an object."""
    if "args_error" in payload and isinstance(payload.get("raw_args"), str):
        return {"INVALID_JSON": payload["raw_args"]}
    return payload.get("args") or {}
