"""An agent's chunks and result in OpenAI's chat completion format.

The ``chat.completion`` object, ``chat.completion.chunk`` server-sent events, and the
error object ``{"error": {"message", "type", "param", "code"}}``.

Only what a client can use reaches it: text, reasoning (``reasoning_content``, as
compatible servers send it), the calls of its own tools, the finish reason and usage.
Tools the agent runs itself, step boundaries and data chunks stay in the gateway.
"""

from __future__ import annotations

import json
import time
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, Usage
from tripwire.models.openai import FINISH_REASONS

if TYPE_CHECKING:
    from tripwire.processor import TripwireInfo
    from tripwire.results import GenerateResult

#: tripwire finish reasons -> OpenAI's (the inverse of the provider's mapping).
OPENAI_FINISH = {ours: native for native, ours in FINISH_REASONS.items()
                 if native != "function_call"}


def openai_finish(reason: str) -> str:
    """A tripwire finish reason as OpenAI's (``other`` / ``unknown``: ``stop``)."""
    return OPENAI_FINISH.get(reason, "stop") if reason != "error" else "stop"


#: What follows a delta's content in a stream event: the rest of the choice.
_DELTA_TAIL = b'},"logprobs":null,"finish_reason":null}]}\n\n'
#: A string as JSON text (what ``json.dumps(text, ensure_ascii=False)`` gives, without
#: the encoder's Python method around it: once per streamed text delta).
_string = encode_basestring
#: One encoder for every ``dumps``: ``json.dumps`` with options builds a new
#: ``JSONEncoder`` each call (several per request), the same text either way.
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 for the client. A surrogate that no pair completes cannot be
    UTF-8 (nor reach a client as JSON text): an upstream's are mended by the provider,
    but a model or processor of the process's own can still make one, and the answer
    must not fail after it was paid for, so each such half becomes U+FFFD."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        # (UTF-16 joins the halves of a pair and replaces a lone one)
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode()


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (non-ASCII as it is; what JSON cannot hold as
    its ``str``)."""
    return _dumps(value)


def error_body(message: str, type: str, code: Any = None, param: str | None = None) -> str:
    """OpenAI's error object as JSON text."""
    return dumps({"error": {"message": message, "type": type, "param": param, "code": code}})


def usage_json(usage: Usage) -> dict[str, Any]:
    """tripwire ``Usage`` as OpenAI's ``usage`` object."""
    out: dict[str, Any] = {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens or usage.input_tokens + usage.output_tokens,
    }
    if usage.cached_input_tokens is not None:
        out["prompt_tokens_details"] = {"cached_tokens": usage.cached_input_tokens}
    if usage.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return out


def tool_call_json(payload: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    """A ``tool-call`` chunk's payload as an OpenAI tool call (arguments as JSON text;
    text the model sent that did not parse is passed on as it came)."""
    arguments = payload.get("raw_args") if "args_error" in payload else None
    if arguments is None:
        arguments = dumps(payload.get("args") or {})
    call: dict[str, Any] = {} if index is None else {"index": index}
    call.update({"id": payload["tool_call_id"], "type": "function",
                 "function": {"name": payload["tool_name"], "arguments": arguments}})
    return call


class Completion:
    """One response being rendered: its id, creation time, model name, and which
    tool calls belong to the client."""

    def __init__(self, model: str, run_id: str, client_tools: frozenset[str], *,
                 include_usage: bool = False) -> None:
        self.model = model
        #: the stream ends with the usage event (``stream_options.include_usage``)
        self.include_usage = include_usage
        self.id = f"chatcmpl-{run_id}"
        self.created = int(time.time())
        self.client_tools = client_tools
        self.tool_calls: list[dict[str, Any]] = []
        self.reasoning: list[str] = []
        # Everything before "choices" is the same in every event of the stream.
        self._head = utf8(f'data: {{"id":{dumps(self.id)},"object":"chat.completion.chunk",'
                      f'"created":{self.created},"model":{dumps(model)},'
                      f'"system_fingerprint":null,"choices":')
        self.started = False

    # -- streaming

    def _event(self, delta: dict[str, Any], finish: str | None = None,
               extra: dict[str, Any] | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        tail = dumps([choice])
        if extra:
            tail += "," + dumps(extra)[1:-1]
        return self._head + utf8(tail) + b"}\n\n"

    def start(self) -> bytes:
        """The first event: the assistant's role (sent with the first content)."""
        self.started = True
        return self._event({"role": "assistant", "content": "", "refusal": None})

    def event(self, chunk: Chunk) -> bytes | None:
        """The SSE event for one chunk, or None when the client is not told about it."""
        kind = chunk.type
        if kind == "text-delta":  # the common case: the event from a template
            text = chunk.payload["text"]
            if not text:
                return None
            return b"".join((self._head, b'[{"index":0,"delta":{"content":',
                             utf8(_string(text)), _DELTA_TAIL))
        if kind == "reasoning-delta":
            text = chunk.payload["text"]
            return self._event({"reasoning_content": text}) if text else None
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            call = tool_call_json(chunk.payload, len(self.tool_calls))
            self.tool_calls.append(call)
            return self._event({"tool_calls": [call]})
        return None

    def finish_events(self, reason: str, usage: Usage | None, *,
                      extra: dict[str, Any] | None = None) -> bytes:
        """The finish event (``reason`` is OpenAI's), the usage event when asked
        (``usage`` not None) and ``[DONE]``."""
        out = self._event({}, reason, extra)
        if usage is not None:
            out += (self._head + b"[]," + utf8(dumps({"usage": usage_json(usage)})[1:-1])
                    + b"}\n\n")
        return out + b"data: [DONE]\n\n"

    def finish(self, finish_reason: str, usage: Usage) -> bytes:
        """The stream's end: the finish event, the usage event when asked, ``[DONE]``."""
        return self.finish_events(self.stream_finish(finish_reason),
                                  usage if self.include_usage else None)

    def tripped(self, info: TripwireInfo, usage: Usage) -> bytes:
        """The stream's end after a tripwire: ``finish_reason: "content_filter"`` with a
        ``tripwire`` member naming the processor (then usage, when asked, and
        ``[DONE]``)."""
        return self.finish_events(
            "content_filter", usage if self.include_usage else None,
            extra={"tripwire": {"message": info.reason, "type": "tripwire",
                                "code": info.processor_id}})

    def failed(self, status: int, message: str, type: str, code: Any) -> bytes:
        """The stream's end after a failure: ``data: {"error": {...}}``."""
        return utf8(f"data: {error_body(message, type, code)}\n\n")

    def stream_finish(self, finish_reason: str) -> str:
        """The finish reason of a stream: a step that ended for tool calls none of which
        went to the client (the agent's own, at its step limit) reads ``stop``."""
        reason = openai_finish(finish_reason)
        if reason == "tool_calls" and not self.tool_calls:
            return "stop"
        return reason

    # -- one response

    def collect(self, chunk: Chunk) -> None:
        """Keep what a non-streamed response reports from a chunk (tool calls, reasoning)."""
        kind = chunk.type
        if kind == "tool-call" and chunk.payload["tool_name"] in self.client_tools:
            self.tool_calls.append(tool_call_json(chunk.payload))
        elif kind == "reasoning-delta":
            self.reasoning.append(chunk.payload["text"])

    def body(self, result: GenerateResult) -> bytes:
        """The ``chat.completion`` object of a whole answer: the result's text (after
        the result processors), finish reason and usage."""
        return utf8(self.completion(result.text, result.finish_reason, result.usage))

    def completion(self, text: str, finish_reason: str, usage: Usage) -> str:
        """The ``chat.completion`` object."""
        message: dict[str, Any] = {"role": "assistant", "content": text or None,
                                   "refusal": None}
        if self.reasoning:
            message["reasoning_content"] = "".join(self.reasoning)
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return dumps({
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": self.stream_finish(finish_reason)}],
            "usage": usage_json(usage),
            "system_fingerprint": None,
        })
