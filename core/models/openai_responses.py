"""OpenAI's Responses API (``POST /responses``) as a model provider, for models and
servers that offer only it.

``OpenAIResponses`` is the chat-completions provider (``OpenAICompatible``) with
another wire format: the same transport (one session, retries, timeouts, limits,
server-sent events, errors, masked credentials), the same headers and error bodies;
the prompt goes out as Responses ``input`` items (``function_call`` and
``function_call_output`` for tool calls and results) and the answer comes back from the
Responses events (``response.output_text.delta``, ``response.function_call_arguments
.delta``, ``response.reasoning_text.delta``, ``response.completed``, ...) or the
response object. Responses are not stored upstream (``store: false``): the
conversation is tripwire's, sent whole with every call.

``provider_options`` fields in chat completions' terms, as ``tripwire serve`` passes a
client's on, are sent in the Responses API's: ``response_format`` as ``text.format``,
``reasoning_effort`` as ``reasoning.effort``; ``max_tokens`` is ``max_output_tokens``.
Other fields go into the body as they are. The Responses API has no ``stop`` and no
``seed``: either setting is dropped with an ``unsupported-setting`` warning on the
step, as Anthropic's provider drops ``seed``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any, Unpack

import attrs

from tripwire.chunks import Chunk, Usage
from tripwire.errors import ConfigurationError
from tripwire.models import ModelRequest
from tripwire.models._http import Call, Transport, TransportOptions
from tripwire.models.openai import OpenAICompatible
from tripwire.models.wire import (
    WireError,
    args_text,
    as_list,
    as_object,
    as_text,
    event_object,
    file_url,
    grow,
    kind_of,
    map_prompt,
    optional_count,
    part_id,
    prompt_error,
    structured_output_schema,
    token_count,
    tool_call_chunk,
    tool_choice_name,
    tool_input_text,
    tool_output_text,
)

__all__ = ["OpenAIResponses", "to_responses_input", "usage_from_responses"]

#: ``incomplete_details.reason`` -> tripwire's finish reason.
INCOMPLETE_REASONS = {"max_output_tokens": "length", "content_filter": "content-filter"}
#: Chat completions' ``provider_options`` fields and where the Responses API has them.
_TRANSLATED = ("response_format", "reasoning_effort")


class OpenAIResponses(OpenAICompatible):
    """A model behind an OpenAI Responses endpoint (``{base_url}/responses``).

    :param base_url: the API root including the version, e.g. ``"https://api.openai.com/v1"``.
    :param api_key: sent as ``Authorization: Bearer``; ``None`` for servers without auth.
    :param model: the model name the server knows.
    :param transport: a ``tripwire.models.Transport``; its fields may also be keyword
        options, as for ``OpenAICompatible``.
    :param provider: the name used in ``provider_options`` and labels (default
        ``"openai"``).
    """

    _path = "/responses"

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        provider: str = "openai",
        transport: Transport | None = None,
        **options: Unpack[TransportOptions],
    ) -> None:
        super().__init__(base_url, api_key, model, provider=provider, transport=transport,
                         **options)

    # -- request

    def _prepare(self, request: ModelRequest, *, stream: bool) -> Call:
        options = (request.provider_options or {}).get(self.provider)
        if isinstance(options, Mapping) and any(k in options for k in _TRANSLATED):
            request = attrs.evolve(request, provider_options={
                **(request.provider_options or {}), self.provider: _translated(options)})
        return super()._prepare(request, stream=stream)

    def _build_body(
        self, request: ModelRequest, settings: dict[str, Any], *, stream: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        body: dict[str, Any] = {"model": self.model_id,
                                "input": to_responses_input(request.prompt), "store": False}
        if stream:
            body["stream"] = True
        warnings = []
        for key in ("stop", "seed"):
            if key in settings:
                settings.pop(key)
                warnings.append({"type": "unsupported-setting", "setting": key,
                                 "details": f"the Responses API has no {key}"})
        for key, value in settings.items():
            body["max_output_tokens" if key == "max_tokens" else key] = value
        tools = list(request.tools or [])
        forced = tool_choice_name(request.tool_choice, tools)
        if tools:
            body["tools"] = [{"type": "function", "name": t.name, "description": t.description,
                              "parameters": t.parameters} for t in tools]
            if forced is not None:
                body["tool_choice"] = {"type": "function", "name": forced}
            elif request.tool_choice is not None:
                body["tool_choice"] = request.tool_choice
        structured = structured_output_schema(request.structured_output)
        if structured is not None:
            name, schema = structured
            body["text"] = {"format": {"type": "json_schema", "name": name, "schema": schema,
                                       "strict": False}}
        return body, warnings

    # -- response

    async def _parse_stream(
        self, events: AsyncIterator[tuple[str, str]], call: Call
    ) -> AsyncGenerator[Chunk, None]:
        run_id = call.run_id  # (every chunk carries the run's id)
        response: dict[str, Any] | None = None
        response_id: str | None = None
        text_id = reasoning_id = "0"
        calls: dict[str, dict[str, Any]] = {}  # by item id, in the order they began
        refused = False
        async for _event, data in events:
            call.event = data
            obj = event_object(data)
            kind = obj.get("type")
            if kind == "response.output_text.delta":
                delta = as_text(obj.get("delta"), "delta")
                if delta:
                    yield Chunk("text-delta", {"id": text_id, "text": delta}, run_id)
            elif kind == "response.refusal.delta":
                delta = as_text(obj.get("delta"), "delta")
                if delta:
                    refused = True
                    yield Chunk("text-delta", {"id": text_id, "text": delta}, run_id)
            elif kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
                delta = as_text(obj.get("delta"), "delta")
                if delta:
                    yield Chunk("reasoning-delta", {"id": reasoning_id, "text": delta}, run_id)
            elif kind == "response.function_call_arguments.delta":
                current = calls.get(as_text(obj.get("item_id"), "item_id") or "")
                delta = as_text(obj.get("delta"), "delta")
                if current is not None and delta:
                    current["size"] = grow(current["size"], len(delta), self.max_event_bytes,
                                           "tool-call arguments")
                    current["args"].append(delta)
            elif kind in ("response.output_item.added", "response.output_item.done"):
                item = as_object(obj.get("item"), "item")
                if item.get("type") == "function_call":
                    _call_item(calls, item, done=kind == "response.output_item.done")
            elif kind in ("response.created", "response.in_progress"):
                started = as_object(obj.get("response"), "response")
                if response_id is None and started.get("id"):
                    response_id = str(started["id"])
                    base = part_id(response_id, "0")
                    text_id, reasoning_id = f"{base}:text", f"{base}:reasoning"
            elif kind in ("response.completed", "response.incomplete"):
                response = as_object(obj.get("response"), "response")
                break
            elif kind == "response.failed":
                failed = as_object(obj.get("response"), "response")
                raise self._stream_error(data, {"error": failed.get("error")}, call)
            elif kind == "error":  # (its fields are the error's)
                error = {k: obj.get(k) for k in ("message", "code")}
                raise self._stream_error(data, {"error": error}, call)
        if response is None:
            raise self._truncated(call)
        for current in calls.values():
            yield tool_call_chunk(current["call_id"] or current["id"], current["name"],
                                  "".join(current["args"]), run_id)
        yield self._finish(response, call, bool(calls), refused, response_id)

    def _parse_response(self, data: Any, call: Call) -> list[Chunk]:
        run_id = call.run_id  # (every chunk carries the run's id)
        if isinstance(data, dict) and data.get("error"):
            raise self._stream_error(call.event, data, call)
        if not isinstance(data, dict):
            raise WireError(f"the response must be a JSON object, got {kind_of(data)}")
        response_id = str(data.get("id") or "0")
        base = part_id(response_id, "0")
        chunks: list[Chunk] = []
        texts: list[str] = []
        reasoning: list[str] = []
        tool_calls: list[Chunk] = []
        refused = False
        for i, entry in enumerate(as_list(data.get("output"), "output")):
            item = as_object(entry, "output[%d]", i)
            kind = item.get("type")
            if kind == "message":
                for j, part in enumerate(as_list(item.get("content"), "output[%d].content", i)):
                    part = as_object(part, "output[%d].content[%d]", i, j)
                    if part.get("type") == "refusal":
                        refused = True
                        texts.append(as_text(part.get("refusal"), "output[%d].content[%d]"
                                                                    ".refusal", i, j) or "")
                    elif part.get("type") == "output_text":
                        texts.append(as_text(part.get("text"), "output[%d].content[%d].text",
                                             i, j) or "")
            elif kind == "reasoning":
                for field in ("content", "summary"):
                    for j, part in enumerate(as_list(item.get(field), "output[%d].%s", i, field)):
                        part = as_object(part, "output[%d].%s[%d]", i, field, j)
                        reasoning.append(as_text(part.get("text"), "output[%d].%s[%d].text",
                                                 i, field, j) or "")
            elif kind == "function_call":
                tool_calls.append(tool_call_chunk(
                    as_text(item.get("call_id"), "output[%d].call_id", i) or f"call_{i}",
                    as_text(item.get("name"), "output[%d].name", i) or "",
                    args_text(item.get("arguments")), run_id))
        if reasoning:
            chunks.append(Chunk("reasoning-delta", {"id": f"{base}:reasoning",
                                                    "text": "".join(reasoning)}, run_id))
        if texts:
            chunks.append(Chunk("text-delta", {"id": f"{base}:text", "text": "".join(texts)}, run_id))
        chunks += tool_calls
        chunks.append(self._finish(data, call, bool(tool_calls), refused,
                                   response_id if data.get("id") else None))
        return chunks

    def _finish(self, response: dict[str, Any], call: Call, called: bool, refused: bool,
                response_id: str | None) -> Chunk:
        """The ``finish`` chunk of a response object (``response.completed``'s, or the
        whole answer): its status as a finish reason, its usage."""
        status = as_text(response.get("status"), "response.status")
        details = as_object(response.get("incomplete_details"), "response.incomplete_details")
        reason = as_text(details.get("reason"), "response.incomplete_details.reason")
        if refused:
            finish = "content-filter"
        elif status == "incomplete":
            finish = INCOMPLETE_REASONS.get(reason or "", "other")
        else:
            finish = "tool-calls" if called else "stop"
        usage = as_object(response.get("usage"), "response.usage")
        meta: dict[str, Any] = {"status": status}
        if reason:
            meta["incomplete_reason"] = reason
        if refused:
            meta["refusal"] = True
        if usage:
            meta["usage"] = usage
        return call.finish(finish, usage_from_responses(usage), {self.provider: meta},
                           response_id, as_text(response.get("model"), "response.model"))


def _translated(options: Mapping[str, Any]) -> dict[str, Any]:
    """``provider_options`` in chat completions' terms (``response_format``,
    ``reasoning_effort``) in the Responses API's (``text.format``, ``reasoning``)."""
    out = {k: v for k, v in options.items() if k not in _TRANSLATED}
    fmt = options.get("response_format")
    if isinstance(fmt, Mapping):
        if fmt.get("type") == "json_schema" and isinstance(fmt.get("json_schema"), Mapping):
            fmt = {"type": "json_schema", **fmt["json_schema"]}
        out["text"] = {**(out.get("text") or {}), "format": dict(fmt)}
    elif fmt is not None:
        raise ConfigurationError(f"provider option response_format must be a mapping, got "
                                 f"{fmt!r:.60}")
    effort = options.get("reasoning_effort")
    if effort is not None:
        out["reasoning"] = {**(out.get("reasoning") or {}), "effort": effort}
    return out


def _call_item(calls: dict[str, dict[str, Any]], item: dict[str, Any], *, done: bool) -> None:
    """Note a function call item as it begins (``output_item.added``) or ends
    (``output_item.done``, whose arguments are the whole text)."""
    item_id = as_text(item.get("id"), "item.id") or as_text(item.get("call_id"), "item.call_id") or ""
    current = calls.get(item_id)
    if current is None:
        current = calls[item_id] = {"id": item_id, "call_id": "", "name": "", "args": [],
                                    "size": 0}
    current["call_id"] = as_text(item.get("call_id"), "item.call_id") or current["call_id"]
    current["name"] = as_text(item.get("name"), "item.name") or current["name"]
    if done and item.get("arguments") is not None:
        current["args"] = [args_text(item.get("arguments"))]


def usage_from_responses(usage: Mapping[str, Any] | None) -> Usage:
    """tripwire ``Usage`` from a Responses ``usage`` object (input tokens include cached
    ones; output tokens include reasoning ones)."""
    if not usage:
        return Usage()
    prompt = token_count(usage, "input_tokens")
    completion = token_count(usage, "output_tokens")
    input_details = as_object(usage.get("input_tokens_details"), "usage.input_tokens_details")
    output_details = as_object(usage.get("output_tokens_details"), "usage.output_tokens_details")
    return Usage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=token_count(usage, "total_tokens") or prompt + completion,
        reasoning_tokens=optional_count(output_details, "reasoning_tokens",
                                        "usage.output_tokens_details"),
        cached_input_tokens=optional_count(input_details, "cached_tokens",
                                           "usage.input_tokens_details"),
    )


# ---------------------------------------------------------------- prompt mapping


def to_responses_input(prompt: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The provider-facing prompt (API.md section 6) as Responses ``input`` items:
    messages (system, user with text, image and PDF parts, assistant text), each tool
    call a ``function_call`` item, each result a ``function_call_output``. Reasoning
    parts are not sent (the Responses API takes only its own reasoning items back)."""
    return map_prompt(
        prompt,
        user=lambda i, message, parts: [
            {"role": "user", "content": [_user_part(i, message, p) for p in parts]}],
        assistant=_assistant_items,
        tool_result=lambda part: {"type": "function_call_output",
                                  "call_id": part["tool_call_id"],
                                  "output": tool_output_text(part.get("output"))},
    )


def _user_part(i: int, message: Any, part: Any) -> dict[str, Any]:
    kind = part.get("type") if isinstance(part, Mapping) else None
    if kind == "text":
        return {"type": "input_text", "text": part["text"]}
    if kind == "file":
        media_type = str(part.get("media_type") or "")
        if media_type.startswith("image/"):
            return {"type": "input_image", "image_url": file_url(part), "detail": "auto"}
        if media_type == "application/pdf":
            return {"type": "input_file", "filename": part.get("filename") or "document.pdf",
                    "file_data": file_url(part)}
        raise prompt_error(i, message, f"has a file of media type {media_type!r}, which the "
                                       f"Responses API cannot take (valid: image/*, "
                                       f"application/pdf)")
    raise prompt_error(i, message, f"is a user message with a {kind!r} part (valid: text, file)")


def _assistant_items(i: int, message: Any, parts: list[Any]) -> list[dict[str, Any]]:
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for part in parts:
        kind = part.get("type") if isinstance(part, Mapping) else None
        if kind == "text":
            texts.append(part["text"])
        elif kind == "tool-call":
            calls.append({"type": "function_call", "call_id": part["tool_call_id"],
                          "name": part["tool_name"],
                          "arguments": tool_input_text(i, message, part.get("input"))})
        elif kind in ("reasoning", "file"):
            continue
        else:
            raise prompt_error(i, message, f"is an assistant message with a {kind!r} part "
                                           f"(valid: text, reasoning, tool-call)")
    said = [{"role": "assistant", "content": "".join(texts)}] if texts else []
    return said + calls
