"""Anthropic's Messages API (``"anthropic/<model>"``, ``ANTHROPIC_API_KEY``).

System messages are hoisted into ``system``, tool calls and results become
``tool_use`` / ``tool_result`` blocks, consecutive messages of one role are merged
(the API wants user and assistant turns to alternate), and the stream's events
(``message_start``, ``content_block_*``, ``message_delta``, ``message_stop``,
``ping``, ``error``) become tripwire chunks.
"""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any, Unpack

from tripwire.chunks import Chunk, Usage
from tripwire.errors import ConfigurationError
from tripwire.models import ModelRequest
from tripwire.models._errors import shown_url
from tripwire.models._http import Call, HTTPModel, Transport, TransportOptions
from tripwire.models.wire import (
    WireError,
    args_text,
    as_index,
    as_list,
    as_object,
    as_text,
    event_object,
    grow,
    kind_of,
    optional_count,
    part_id,
    prompt_error,
    structured_output_schema,
    token_count,
    tool_call_chunk,
    tool_choice_name,
    tool_output_text,
)

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"

#: Anthropic stop reasons -> tripwire finish reasons.
FINISH_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool-calls",
    "refusal": "content-filter",
}

#: Error types Anthropic documents, with the HTTP status each comes with; used for
#: ``error`` events inside a stream, whose HTTP status was 200.
ERROR_STATUSES = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}

_DOCUMENT_TYPES = ("application/pdf", "text/plain")


class Anthropic(HTTPModel):
    """A Claude model through the Messages API (``POST {base_url}/v1/messages``).

    :param model: e.g. ``"claude-sonnet-4-5"``.
    :param api_key: sent as ``x-api-key``.
    :param base_url: the API root without ``/v1`` (default ``https://api.anthropic.com``).
    :param transport: a ``tripwire.models.Transport`` (retries of 408/409/429/5xx/529 and
        network failures, timeouts, extra headers such as ``{"anthropic-beta": "..."}``,
        limits); its fields may also be given as keyword options, which override it.
    :param max_tokens: sent when ``model_settings`` has no ``max_tokens``; the API
        requires the field.
    """

    provider = "anthropic"
    _path = "/v1/messages"

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        max_tokens: int = 4096,
        transport: Transport | None = None,
        **options: Unpack[TransportOptions],
    ) -> None:
        super().__init__(
            base_url=base_url,
            api_key=api_key,
            model=model,
            transport=transport,
            **options,
        )
        if not isinstance(max_tokens, int) or max_tokens < 1:
            raise ConfigurationError(f"max_tokens must be a positive integer, got {max_tokens!r}")
        self.max_tokens = max_tokens

    # -- request

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", "anthropic-version": API_VERSION, **self._extra_headers}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers

    def _build_body(
        self, request: ModelRequest, settings: dict[str, Any], *, stream: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        system, messages, warnings = to_anthropic_messages(request.prompt)
        body: dict[str, Any] = {
            "model": self.model_id,
            "max_tokens": settings.pop("max_tokens", self.max_tokens),
            "messages": messages,
        }
        if system:
            body["system"] = system
        if stream:
            body["stream"] = True
        if "stop" in settings:
            body["stop_sequences"] = settings.pop("stop")
        if "seed" in settings:
            settings.pop("seed")
            warnings.append(
                {
                    "type": "unsupported-setting",
                    "setting": "seed",
                    "details": "the Anthropic Messages API has no seed",
                }
            )
        body.update(settings)
        tools = list(request.tools or [])
        forced = tool_choice_name(request.tool_choice, tools)
        if tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in tools
            ]
            if forced is not None:
                body["tool_choice"] = {"type": "tool", "name": forced}
            elif request.tool_choice == "required":
                body["tool_choice"] = {"type": "any"}
            elif request.tool_choice in ("auto", "none"):
                body["tool_choice"] = {"type": request.tool_choice}
        structured = structured_output_schema(request.structured_output)
        if structured is not None:
            body["output_config"] = {"format": {"type": "json_schema", "schema": structured[1]}}
        return body, warnings

    # -- response

    def _base_url_hint(self) -> str | None:
        """A ``base_url`` ending in ``/v1``: the path tripwire adds (``/v1/messages``)
        names the version already."""
        root = shown_url(self.base_url)
        if not root.rstrip("/").endswith("/v1"):
            return None
        return (f"Anthropic's base_url is the API root without /v1 (tripwire adds "
                f"{self._path}): try base_url={root.rstrip('/')[:-3]!r}")

    def _error_details(self, body: Any) -> tuple[str | None, str | None]:
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            message, kind = error.get("message"), error.get("type")
            return (
                message if isinstance(message, str) else None,
                kind if isinstance(kind, str) else None,
            )
        return None, None

    def _status_of_error_type(self, kind: str | None) -> int | None:
        return ERROR_STATUSES.get(kind or "")

    async def _parse_stream(
        self, events: AsyncIterator[tuple[str, str]], call: Call
    ) -> AsyncGenerator[Chunk, None]:
        run_id = call.run_id  # (every chunk carries the run's id)
        message_id = "msg"
        model: str | None = None
        usage: dict[str, Any] = {}
        stop_reason: str | None = None
        blocks: dict[int, dict[str, Any]] = {}
        thinking: list[dict[str, Any]] = []
        stopped = False
        limit = self.max_event_bytes  # for what is assembled from many events
        async for event, data in events:
            call.event = data
            obj = event_object(data)
            kind = obj.get("type") or event
            if kind == "content_block_delta":
                delta = as_object(obj.get("delta"), "delta")
                dtype = delta.get("type")
                index = as_index(obj.get("index"), "index")
                block = blocks.get(index)
                if dtype == "text_delta":
                    text = as_text(delta.get("text"), "delta.text")
                    if text:
                        yield Chunk("text-delta", {"id": f"{message_id}:{index}", "text": text}, run_id)
                elif dtype == "input_json_delta":
                    partial = as_text(delta.get("partial_json"), "delta.partial_json")
                    if partial and block is not None and block["type"] == "tool_use":
                        block["size"] = grow(block["size"], len(partial), limit, "tool-call arguments")
                        block["json"].append(partial)
                elif dtype == "thinking_delta":
                    text = as_text(delta.get("thinking"), "delta.thinking")
                    if text:
                        if block is not None and block["type"] == "thinking":
                            block["size"] = grow(block["size"], len(text), limit, "a thinking block")
                            block["text"].append(text)
                        yield Chunk("reasoning-delta", {"id": f"{message_id}:{index}", "text": text}, run_id)
                elif dtype == "signature_delta":
                    signature = as_text(delta.get("signature"), "delta.signature")
                    if block is not None and block["type"] == "thinking":
                        block["signature"] = (block.get("signature") or "") + (signature or "")
                # citations_delta and future delta types carry nothing tripwire streams
            elif kind == "content_block_start":
                index = as_index(obj.get("index"), "index")
                block = as_object(obj.get("content_block"), "content_block")
                btype = block.get("type")
                if btype == "text":
                    text = as_text(block.get("text"), "content_block.text")
                    if text:
                        yield Chunk("text-delta", {"id": f"{message_id}:{index}", "text": text}, run_id)
                elif btype == "tool_use":
                    initial = block.get("input")
                    blocks[index] = {
                        "type": "tool_use",
                        "id": as_text(block.get("id"), "content_block.id"),
                        "name": as_text(block.get("name"), "content_block.name") or "",
                        "json": [],
                        "initial": args_text(initial) if initial else "",
                        "size": 0,
                    }
                elif btype == "thinking":
                    text = as_text(block.get("thinking"), "content_block.thinking")
                    signature = as_text(block.get("signature"), "content_block.signature")
                    blocks[index] = {"type": "thinking", "text": [], "signature": signature, "size": 0}
                    if text:
                        blocks[index]["text"].append(text)
                        yield Chunk("reasoning-delta", {"id": f"{message_id}:{index}", "text": text}, run_id)
                elif btype == "redacted_thinking":
                    thinking.append({"type": "redacted_thinking", "data": block.get("data")})
            elif kind == "content_block_stop":
                index = as_index(obj.get("index"), "index")
                block = blocks.pop(index, None)
                if block is None:
                    continue
                if block["type"] == "tool_use":
                    raw = "".join(block["json"]) or block["initial"]
                    yield tool_call_chunk(block["id"] or f"toolu_{index}", block["name"], raw, run_id)
                elif block["type"] == "thinking":
                    thinking.append(
                        {"type": "thinking", "text": "".join(block["text"]), "signature": block.get("signature")}
                    )
                    if block.get("signature"):
                        # Carried on the reasoning part, so the next step can send it back.
                        yield _signature_chunk(f"{message_id}:{index}", block["signature"], run_id)
            elif kind == "message_start":
                message = as_object(obj.get("message"), "message")
                message_id = part_id(as_text(message.get("id"), "message.id"), message_id)
                model = as_text(message.get("model"), "message.model")
                usage.update(as_object(message.get("usage"), "message.usage"))
            elif kind == "message_delta":
                delta = as_object(obj.get("delta"), "delta")
                stop_reason = as_text(delta.get("stop_reason"), "delta.stop_reason") or stop_reason
                usage.update({k: v for k, v in as_object(obj.get("usage"), "usage").items() if v is not None})
            elif kind == "message_stop":
                stopped = True
                break
            elif kind == "error":
                raise self._stream_error(data, obj, call)
            # "ping" and event types added later are ignored, as Anthropic asks.
        if not stopped:
            raise self._truncated(call)
        yield call.finish(
            FINISH_REASONS.get(stop_reason or "", "other"),
            usage_from_anthropic(usage),
            self._metadata(stop_reason, usage, thinking),
            message_id,
            model,
        )

    def _parse_response(self, data: Any, call: Call) -> list[Chunk]:
        run_id = call.run_id  # (every chunk carries the run's id)
        if isinstance(data, dict) and data.get("type") == "error":
            raise self._stream_error(call.event, data, call)
        if not isinstance(data, dict):
            raise WireError(f"the response must be a JSON object, got {kind_of(data)}")
        if "content" not in data:
            raise WireError("the response has no 'content' (an array of content blocks is required)")
        message_id = part_id(as_text(data.get("id"), "id"), "msg")
        chunks: list[Chunk] = []
        thinking: list[dict[str, Any]] = []
        for index, item in enumerate(as_list(data.get("content"), "content")):
            block = as_object(item, "content[%d]", index)
            btype = block.get("type")
            if btype == "text":
                text = as_text(block.get("text"), "content[%d].text", index)
                if text:
                    chunks.append(Chunk("text-delta", {"id": f"{message_id}:{index}", "text": text}, run_id))
            elif btype == "thinking":
                text = as_text(block.get("thinking"), "content[%d].thinking", index)
                signature = as_text(block.get("signature"), "content[%d].signature", index)
                thinking.append({"type": "thinking", "text": text or "", "signature": signature})
                if text:
                    chunks.append(Chunk("reasoning-delta", {"id": f"{message_id}:{index}", "text": text}, run_id))
                if signature:
                    chunks.append(_signature_chunk(f"{message_id}:{index}", signature, run_id))
            elif btype == "redacted_thinking":
                thinking.append({"type": "redacted_thinking", "data": block.get("data")})
            elif btype == "tool_use":
                tool_call_id = as_text(block.get("id"), "content[%d].id", index) or f"toolu_{index}"
                name = as_text(block.get("name"), "content[%d].name", index) or ""
                chunks.append(tool_call_chunk(tool_call_id, name, args_text(block.get("input")) or "{}", run_id))
        usage = as_object(data.get("usage"), "usage")
        stop_reason = as_text(data.get("stop_reason"), "stop_reason")
        chunks.append(
            call.finish(
                FINISH_REASONS.get(stop_reason or "", "other"),
                usage_from_anthropic(usage),
                self._metadata(stop_reason, usage, thinking),
                as_text(data.get("id"), "id"),
                as_text(data.get("model"), "model"),
            )
        )
        return chunks

    def _metadata(
        self, stop_reason: str | None, usage: dict[str, Any], thinking: list[dict[str, Any]]
    ) -> dict[str, Any]:
        meta: dict[str, Any] = {"stop_reason": stop_reason, "usage": dict(usage)}
        if thinking:
            # Signatures let a later request send the thinking back (a reasoning
            # prompt part with a "signature" key); see docs/providers.md.
            meta["thinking"] = thinking
        return {"anthropic": meta}


def _signature_chunk(reasoning_id: str, signature: str, run_id: str | None) -> Chunk:
    """An empty reasoning delta that attaches Anthropic's thinking signature to the
    reasoning part it ends (``provider_metadata.anthropic.signature``)."""
    return Chunk(
        "reasoning-delta",
        {"id": reasoning_id, "text": "", "provider_metadata": {"anthropic": {"signature": signature}}},
        run_id,
    )


def usage_from_anthropic(usage: Mapping[str, Any]) -> Usage:
    """tripwire ``Usage`` from Anthropic's ``usage``: ``input_tokens`` counts every
    prompt token the model read (uncached + cache writes + cache reads), so budgets
    see the real size of the prompt; the raw numbers stay in provider_metadata.
    Counts that are not numbers raise ``WireError``."""
    uncached = token_count(usage, "input_tokens")
    created = token_count(usage, "cache_creation_input_tokens")
    read = optional_count(usage, "cache_read_input_tokens")
    inputs = uncached + created + (read or 0)
    outputs = token_count(usage, "output_tokens")
    return Usage(
        input_tokens=inputs,
        output_tokens=outputs,
        total_tokens=inputs + outputs,
        cached_input_tokens=read,
    )


# ---------------------------------------------------------------- prompt mapping


def to_anthropic_messages(
    prompt: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """``(system blocks, messages, warnings)`` for the Messages API from the
    provider-facing prompt (API.md section 6).

    System messages are hoisted into ``system`` in order; tool results become
    ``tool_result`` blocks of a user turn; consecutive turns of one role are merged
    (tool results first in a user turn, as the API requires); empty texts are left
    out (the API rejects them). A reasoning part is sent back as a ``thinking``
    block when it carries the ``signature`` Anthropic gave it, else dropped with a
    warning.
    """
    if not isinstance(prompt, list):
        raise ConfigurationError(f"prompt must be a list of messages, got {type(prompt).__name__}")
    system: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    for i, message in enumerate(prompt):
        if not isinstance(message, Mapping):
            raise prompt_error(i, message, "is not a message mapping")
        role = message.get("role")
        content = message.get("content")
        if role == "system":
            if not isinstance(content, str):
                raise prompt_error(i, message, "is a system message whose content is not a string")
            if content:
                system.append({"type": "text", "text": content})
            continue
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            raise prompt_error(i, message, "needs 'content' as a list of parts")
        if role == "user":
            blocks = [_user_block(i, message, p) for p in content]
            wire_role = "user"
        elif role == "assistant":
            blocks = [_assistant_block(i, message, p, warnings) for p in content]
            wire_role = "assistant"
        elif role == "tool":
            blocks = [_tool_result_block(i, message, p) for p in content]
            wire_role = "user"
        else:
            raise prompt_error(
                i, message, f"has unknown role {role!r} (valid: system, user, assistant, tool)"
            )
        blocks = [b for b in blocks if b is not None]
        if not blocks:
            continue
        if turns and turns[-1]["role"] == wire_role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": wire_role, "content": blocks})
    for turn in turns:
        if turn["role"] == "user":
            results = [b for b in turn["content"] if b["type"] == "tool_result"]
            if results:
                others = [b for b in turn["content"] if b["type"] != "tool_result"]
                turn["content"] = results + others
    return system, turns, warnings


def _user_block(i: int, message: Any, part: Any) -> dict[str, Any] | None:
    kind = part.get("type") if isinstance(part, Mapping) else None
    if kind == "text":
        return {"type": "text", "text": part["text"]} if part.get("text") else None
    if kind == "file":
        return _file_block(i, message, part)
    raise prompt_error(i, message, f"is a user message with a {kind!r} part (valid: text, file)")


def _file_block(i: int, message: Any, part: Mapping[str, Any]) -> dict[str, Any]:
    media_type = str(part.get("media_type") or "")
    data = part.get("data")
    if not isinstance(data, str):
        raise prompt_error(i, message, "has a file part whose 'data' is not a string")
    if data.startswith("data:"):
        header, _, data = data.partition(",")
        media_type = header[5:].split(";")[0] or media_type
    if media_type.startswith("image/"):
        kind = "image"
    elif media_type in _DOCUMENT_TYPES:
        kind = "document"
    else:
        raise prompt_error(
            i,
            message,
            f"has a file of media type {media_type!r}, which the Messages API cannot take "
            f"(valid: image/*, application/pdf, text/plain)",
        )
    if data.startswith(("http://", "https://")):
        return {"type": kind, "source": {"type": "url", "url": data}}
    if media_type == "text/plain":
        try:
            text = base64.b64decode(data, validate=True).decode("utf-8")
        except ValueError:
            text = data
        return {"type": kind, "source": {"type": "text", "media_type": "text/plain", "data": text}}
    return {"type": kind, "source": {"type": "base64", "media_type": media_type, "data": data}}


def _assistant_block(
    i: int, message: Any, part: Any, warnings: list[dict[str, Any]]
) -> dict[str, Any] | None:
    kind = part.get("type") if isinstance(part, Mapping) else None
    if kind == "text":
        return {"type": "text", "text": part["text"]} if part.get("text") else None
    if kind == "tool-call":
        args = part.get("input")
        return {
            "type": "tool_use",
            "id": part["tool_call_id"],
            "name": part["tool_name"],
            "input": args if isinstance(args, dict) else {},
        }
    if kind == "reasoning":
        signature = part.get("signature") or (
            (part.get("provider_metadata") or {}).get("anthropic") or {}
        ).get("signature")
        if signature:
            return {"type": "thinking", "thinking": part.get("text") or "", "signature": signature}
        warnings.append(
            {
                "type": "other",
                "message": f"prompt[{i}]: a reasoning part without its Anthropic signature "
                f"cannot be sent back and was left out",
            }
        )
        return None
    if kind == "file":
        return _file_block(i, message, part)
    raise prompt_error(
        i, message, f"is an assistant message with a {kind!r} part (valid: text, reasoning, tool-call)"
    )


def _tool_result_block(i: int, message: Any, part: Any) -> dict[str, Any]:
    if not isinstance(part, Mapping) or part.get("type") != "tool-result":
        raise prompt_error(i, message, "is a tool message with a part that is not a tool-result")
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": part["tool_call_id"],
        "content": tool_output_text(part.get("output")),
    }
    if part.get("is_error"):
        block["is_error"] = True
    return block


def from_router(model_id: str) -> Anthropic:
    """The ``"anthropic/<model>"`` router entry: ``ANTHROPIC_API_KEY`` and
    ``ANTHROPIC_BASE_URL`` (default ``https://api.anthropic.com``), read now."""
    base_url = os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
    model = Anthropic(base_url=base_url, api_key=os.environ.get("ANTHROPIC_API_KEY"), model=model_id)
    if base_url.rstrip("/") == DEFAULT_BASE_URL:
        model._key_env = "ANTHROPIC_API_KEY"
    return model
