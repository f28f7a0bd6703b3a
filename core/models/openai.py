"""OpenAI chat completions, and every server that speaks them (vLLM, Ollama,
LM Studio, LiteLLM, OpenRouter, ...).

``"openai/<model>"`` router ids use ``OPENAI_API_KEY`` and ``OPENAI_BASE_URL``; any
other compatible server is one ``OpenAICompatible(base_url=..., api_key=...,
model=...)`` away. Streaming uses server-sent events with
``stream_options.include_usage`` so the last event carries token usage.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any, Unpack
from urllib.parse import urlsplit

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

DEFAULT_BASE_URL = "https://api.openai.com/v1"

#: OpenAI finish reasons -> tripwire's.
FINISH_REASONS = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool-calls",
    "function_call": "tool-calls",
    "content_filter": "content-filter",
    "error": "error",
}

#: A path segment naming an API version (``v1``, ``v1beta``, ``v2``).
_VERSION = re.compile(r"v\d+[a-z0-9]*")

_AUDIO_FORMATS = {"audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}


class OpenAICompatible(HTTPModel):
    """A model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    :param base_url: the API root including the version, e.g.
        ``"https://api.openai.com/v1"`` or ``"http://localhost:11434/v1"``.
    :param api_key: sent as ``Authorization: Bearer``; ``None`` for servers without auth.
    :param model: the model name the server knows.
    :param transport: a ``tripwire.models.Transport`` (retries, timeouts, headers,
        limits); its fields may also be given as keyword options (``max_retries``,
        ``timeout`` (seconds, or ``Timeout(connect=10, read=600, total=None)``),
        ``headers``, ``retry_initial_delay``, ``retry_max_delay``, ``max_event_bytes``),
        which override the object's.
    :param provider: the name used in ``provider_options`` and labels (default ``"openai"``).
    :param max_tokens_param: the body field ``model_settings["max_tokens"]`` is sent as:
        ``"max_tokens"`` (compatible servers) or ``"max_completion_tokens"`` (what
        OpenAI's own API wants; ``"openai/..."`` router ids use it).

    A ``base_url`` with credentials (``https://user:password@host/v1``) sends them as
    basic auth; they are shown masked (``user:***@``) everywhere.
    """

    _path = "/chat/completions"

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        provider: str = "openai",
        max_tokens_param: str = "max_tokens",
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
        if max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise ConfigurationError(
                f"max_tokens_param must be 'max_tokens' or 'max_completion_tokens', "
                f"got {max_tokens_param!r}"
            )
        self.provider = provider
        self.max_tokens_param = max_tokens_param

    # -- request

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json", **self._extra_headers}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _build_body(
        self, request: ModelRequest, settings: dict[str, Any], *, stream: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        body: dict[str, Any] = {"model": self.model_id, "messages": to_openai_messages(request.prompt)}
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        for key, value in settings.items():
            body[self.max_tokens_param if key == "max_tokens" else key] = value
        tools = list(request.tools or [])
        forced = tool_choice_name(request.tool_choice, tools)
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                }
                for t in tools
            ]
            if forced is not None:
                body["tool_choice"] = {"type": "function", "function": {"name": forced}}
            elif request.tool_choice is not None:
                body["tool_choice"] = request.tool_choice
        structured = structured_output_schema(request.structured_output)
        if structured is not None:
            name, schema = structured
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": False},
            }
        return body, []

    # -- response

    def _base_url_hint(self) -> str | None:
        """A ``base_url`` whose path names no API version (``/v1``, ``/v1beta``, ...): the
        usual cause of a 404 from an OpenAI-compatible server."""
        root = shown_url(self.base_url)
        if any(_VERSION.fullmatch(segment) for segment in urlsplit(root).path.split("/")):
            return None
        return (f"OpenAI-compatible servers usually serve the API under /v1, and "
                f"base_url {root!r} has no version in its path: try base_url={root + '/v1'!r}")

    def _error_details(self, body: Any) -> tuple[str | None, str | None]:
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict):
            message = error.get("message")
            kind = error.get("type") or error.get("code")
            return (
                message if isinstance(message, str) else None,
                str(kind) if isinstance(kind, str | int) and not isinstance(kind, bool) else None,
            )
        if isinstance(error, str):
            return error, None
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            return body["message"], None
        return None, None

    async def _parse_stream(
        self, events: AsyncIterator[tuple[str, str]], call: Call
    ) -> AsyncGenerator[Chunk, None]:
        run_id = call.run_id  # (every chunk carries the run's id)
        response_id: str | None = None
        model: str | None = None
        fingerprint: str | None = None
        native_finish: str | None = None
        usage: dict[str, Any] | None = None
        calls: dict[int, dict[str, Any]] = {}
        done = False
        refused = False
        text_id = reasoning_id = "0"
        async for _event, data in events:
            call.event = data
            if data == "[DONE]":
                done = True
                break
            obj = event_object(data)
            # The common event, a text delta of the one choice, read directly; anything
            # else (and any value of an unexpected type) goes the checked way below.
            choices = obj.get("choices")
            if (response_id is not None and type(choices) is list and len(choices) == 1
                    and _PLAIN_EVENT_KEYS.issuperset(obj) and obj.get("usage") is None):
                choice = choices[0]
                if type(choice) is dict and choice.get("index", 0) == 0 \
                        and choice.get("finish_reason") is None \
                        and _PLAIN_CHOICE_KEYS.issuperset(choice):
                    delta = choice.get("delta")
                    if type(delta) is dict and _PLAIN_DELTA_KEYS.issuperset(delta) \
                            and delta.get("refusal") is None:
                        content = delta.get("content")
                        if type(content) is str:
                            if content:
                                yield Chunk("text-delta", {"id": text_id, "text": content}, run_id)
                            continue
                        if content is None:
                            continue
            if obj.get("error"):
                raise self._stream_error(data, obj, call)
            if response_id is None and obj.get("id"):
                response_id = str(obj["id"])
                model = as_text(obj.get("model"), "model")
                fingerprint = as_text(obj.get("system_fingerprint"), "system_fingerprint")
                base = part_id(response_id, "0")
                text_id = f"{base}:text"
                reasoning_id = f"{base}:reasoning"
            if obj.get("usage"):
                usage = as_object(obj["usage"], "usage")
            for i, item in enumerate(as_list(obj.get("choices"), "choices")):
                choice = as_object(item, "choices[%d]", i)
                if choice.get("index", 0) != 0:
                    continue
                delta = as_object(choice.get("delta"), "choices[%d].delta", i)
                reasoning = as_text(delta.get("reasoning_content"), "choices[%d].delta.reasoning_content", i)
                reasoning = reasoning or as_text(delta.get("reasoning"), "choices[%d].delta.reasoning", i)
                if reasoning:
                    yield Chunk("reasoning-delta", {"id": reasoning_id, "text": reasoning}, run_id)
                content = as_text(delta.get("content"), "choices[%d].delta.content", i)
                if content:
                    yield Chunk("text-delta", {"id": text_id, "text": content}, run_id)
                refusal = as_text(delta.get("refusal"), "choices[%d].delta.refusal", i)
                if refusal:
                    refused = True
                    yield Chunk("text-delta", {"id": text_id, "text": refusal}, run_id)
                tool_calls = delta.get("tool_calls")
                if tool_calls is not None:
                    for position, tc in enumerate(as_list(tool_calls, "choices[%d].delta.tool_calls", i)):
                        tc = as_object(tc, "choices[%d].delta.tool_calls[%d]", i, position)
                        _merge_tool_call_delta(calls, position, tc, self.max_event_bytes)
                finish = as_text(choice.get("finish_reason"), "choices[%d].finish_reason", i)
                if finish:
                    native_finish = finish
        if not done and native_finish is None:
            raise self._truncated(call)
        for index in sorted(calls):
            tc = calls[index]
            yield tool_call_chunk(tc["id"] or f"call_{index}", tc["name"], "".join(tc["args"]), run_id)
        yield call.finish(
            map_finish_reason(native_finish, refused=refused),
            usage_from_openai(usage),
            self._metadata(native_finish, usage, fingerprint, refused=refused),
            response_id,
            model,
        )

    def _parse_response(self, data: Any, call: Call) -> list[Chunk]:
        run_id = call.run_id  # (every chunk carries the run's id)
        if isinstance(data, dict) and data.get("error"):
            raise self._stream_error(call.event, data, call)
        if not isinstance(data, dict):
            raise WireError(f"the response must be a JSON object, got {kind_of(data)}")
        choices = as_list(data.get("choices"), "choices")
        if not choices:
            raise WireError("the response has no choices (a non-empty 'choices' array is required)")
        response_id = str(data.get("id") or "0")
        base = part_id(response_id, "0")
        choice = as_object(choices[0], "choices[0]")
        message = as_object(choice.get("message"), "choices[0].message")
        chunks: list[Chunk] = []
        reasoning = as_text(message.get("reasoning_content"), "choices[0].message.reasoning_content")
        reasoning = reasoning or as_text(message.get("reasoning"), "choices[0].message.reasoning")
        if reasoning:
            chunks.append(Chunk("reasoning-delta", {"id": f"{base}:reasoning", "text": reasoning}, run_id))
        text = as_text(message.get("content"), "choices[0].message.content")
        refusal = as_text(message.get("refusal"), "choices[0].message.refusal")
        refused = bool(refusal)
        text = text or refusal
        if text:
            chunks.append(Chunk("text-delta", {"id": f"{base}:text", "text": text}, run_id))
        for index, item in enumerate(as_list(message.get("tool_calls"), "choices[0].message.tool_calls")):
            tc = as_object(item, "choices[0].message.tool_calls[%d]", index)
            function = as_object(tc.get("function"), "choices[0].message.tool_calls[%d].function", index)
            name = as_text(function.get("name"), "choices[0].message.tool_calls[%d].function.name", index)
            tool_call_id = as_text(tc.get("id"), "choices[0].message.tool_calls[%d].id", index)
            chunks.append(
                tool_call_chunk(tool_call_id or f"call_{index}", name or "", args_text(function.get("arguments")), run_id)
            )
        native_finish = as_text(choice.get("finish_reason"), "choices[0].finish_reason")
        usage = as_object(data.get("usage"), "usage")
        chunks.append(
            call.finish(
                map_finish_reason(native_finish, refused=refused),
                usage_from_openai(usage),
                self._metadata(
                    native_finish,
                    usage,
                    as_text(data.get("system_fingerprint"), "system_fingerprint"),
                    refused=refused,
                ),
                response_id if data.get("id") else None,
                as_text(data.get("model"), "model"),
            )
        )
        return chunks

    def _metadata(
        self,
        native_finish: str | None,
        usage: dict[str, Any] | None,
        fingerprint: str | None,
        *,
        refused: bool = False,
    ) -> dict[str, Any]:
        meta: dict[str, Any] = {"finish_reason": native_finish}
        if refused:
            meta["refusal"] = True
        if fingerprint:
            meta["system_fingerprint"] = fingerprint
        if usage:
            meta["usage"] = usage
        return {self.provider: meta}


# The keys of a plain text-delta event (``_parse_stream`` reads those directly).
# (``usage`` and ``refusal`` only when null)
_PLAIN_EVENT_KEYS = frozenset({"id", "object", "created", "model", "system_fingerprint",
                               "choices", "service_tier", "obfuscation", "usage"})
_PLAIN_CHOICE_KEYS = frozenset({"index", "delta", "finish_reason", "logprobs"})
_PLAIN_DELTA_KEYS = frozenset({"content", "role", "refusal"})


def _merge_tool_call_delta(
    calls: dict[int, dict[str, Any]], position: int, tc: dict[str, Any], limit: int
) -> None:
    """Fold one streamed tool-call delta into the calls assembled so far.

    Deltas of one call share its ``index``; the first carries ``id`` and the name,
    later ones carry pieces of the argument text (at most ``limit`` bytes in all).
    Servers that omit ``index`` are matched by ``id`` (or by position in the delta).
    """
    tool_call_id = as_text(tc.get("id"), "tool_calls[%d].id", position)
    function = as_object(tc.get("function"), "tool_calls[%d].function", position)
    name = as_text(function.get("name"), "tool_calls[%d].function.name", position)
    index: int | None = None
    if tc.get("index") is not None:
        index = as_index(tc["index"], "tool_calls[%d].index", position)
    if index is None:
        index = next((i for i, c in calls.items() if tool_call_id and c["id"] == tool_call_id), None)
        if index is None:
            index = len(calls) if tool_call_id else position
    current = calls.get(index)
    if current is None:
        current = calls[index] = {"id": tool_call_id, "name": "", "args": [], "size": 0}
    if tool_call_id and not current["id"]:
        current["id"] = tool_call_id
    if name and not current["name"]:
        current["name"] = name
    arguments = args_text(function.get("arguments"))
    if arguments:
        current["size"] = grow(current["size"], len(arguments), limit, "tool-call arguments")
        current["args"].append(arguments)


def map_finish_reason(native: str | None, *, refused: bool = False) -> str:
    """An OpenAI ``finish_reason`` as tripwire's (unknown or missing: ``"other"``).

    A reply that carried a ``refusal`` is ``"content-filter"`` whatever OpenAI's reason
    (it sends ``"stop"``), so a refusal reads the same as Anthropic's ``refusal`` stop
    reason and callers such as the judge can tell it from an answer.
    """
    if refused:
        return "content-filter"
    return FINISH_REASONS.get(native or "", "other")


def usage_from_openai(usage: dict[str, Any] | None) -> Usage:
    """tripwire ``Usage`` from an OpenAI ``usage`` object (prompt tokens include
    cached ones; completion tokens include reasoning ones). Counts that are not
    numbers raise ``WireError``."""
    if not usage:
        return Usage()
    prompt = token_count(usage, "prompt_tokens")
    completion = token_count(usage, "completion_tokens")
    prompt_details = as_object(usage.get("prompt_tokens_details"), "usage.prompt_tokens_details")
    completion_details = as_object(usage.get("completion_tokens_details"), "usage.completion_tokens_details")
    return Usage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=token_count(usage, "total_tokens") or prompt + completion,
        reasoning_tokens=optional_count(completion_details, "reasoning_tokens", "usage.completion_tokens_details"),
        cached_input_tokens=optional_count(prompt_details, "cached_tokens", "usage.prompt_tokens_details"),
    )


# ---------------------------------------------------------------- prompt mapping


def to_openai_messages(prompt: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The provider-facing prompt (API.md section 6) as chat completions messages.

    Tool calls become the assistant's ``tool_calls`` (arguments as JSON text), each
    tool result a ``role: "tool"`` message, images ``image_url`` parts (data URLs
    for inline data). Reasoning parts are not sent: chat completions has no field
    for them.
    """
    return map_prompt(
        prompt,
        user=lambda i, message, parts: [
            {"role": "user", "content": _user_content(i, message, parts)}],
        assistant=lambda i, message, parts: [_assistant_message(i, message, parts)],
        tool_result=lambda part: {"role": "tool", "tool_call_id": part["tool_call_id"],
                                  "content": tool_output_text(part.get("output"))},
    )


def _user_content(i: int, message: Any, parts: list[Any]) -> str | list[dict[str, Any]]:
    if all(isinstance(p, Mapping) and p.get("type") == "text" for p in parts):
        texts: list[str] = [p["text"] for p in parts]
        if len(texts) == 1:
            return texts[0]
    content: list[dict[str, Any]] = []
    for part in parts:
        kind = part.get("type") if isinstance(part, Mapping) else None
        if kind == "text":
            content.append({"type": "text", "text": part["text"]})
        elif kind == "file":
            content.append(_file_part(i, message, part))
        else:
            raise prompt_error(
                i, message, f"is a user message with a {kind!r} part (valid: text, file)"
            )
    return content


def _file_part(i: int, message: Any, part: Mapping[str, Any]) -> dict[str, Any]:
    media_type = str(part.get("media_type") or "")
    if media_type.startswith("image/"):
        return {"type": "image_url", "image_url": {"url": file_url(part)}}
    if media_type in _AUDIO_FORMATS:
        return {
            "type": "input_audio",
            "input_audio": {"data": part["data"], "format": _AUDIO_FORMATS[media_type]},
        }
    if media_type == "application/pdf":
        return {
            "type": "file",
            "file": {"filename": part.get("filename") or "document.pdf", "file_data": file_url(part)},
        }
    raise prompt_error(
        i,
        message,
        f"has a file of media type {media_type!r}, which chat completions cannot take "
        f"(valid: image/*, audio/wav, audio/mpeg, application/pdf)",
    )


def _assistant_message(i: int, message: Any, parts: list[Any]) -> dict[str, Any]:
    texts: list[str] = []
    tool_calls: list[dict[str, Any]] = []
    for part in parts:
        kind = part.get("type") if isinstance(part, Mapping) else None
        if kind == "text":
            texts.append(part["text"])
        elif kind == "tool-call":
            tool_calls.append(
                {
                    "id": part["tool_call_id"],
                    "type": "function",
                    "function": {
                        "name": part["tool_name"],
                        "arguments": tool_input_text(i, message, part.get("input")),
                    },
                }
            )
        elif kind in ("reasoning", "file"):
            continue
        else:
            raise prompt_error(
                i, message, f"is an assistant message with a {kind!r} part (valid: text, reasoning, tool-call)"
            )
    out: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if tool_calls:
        out["tool_calls"] = tool_calls
    return out


def from_router(model_id: str) -> OpenAICompatible:
    """The ``"openai/<model>"`` router entry: ``OPENAI_API_KEY`` and
    ``OPENAI_BASE_URL`` (default ``https://api.openai.com/v1``), read now."""
    base_url = os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    official = base_url.rstrip("/") == DEFAULT_BASE_URL
    model = OpenAICompatible(
        base_url=base_url,
        api_key=os.environ.get("OPENAI_API_KEY"),
        model=model_id,
        max_tokens_param="max_completion_tokens" if official else "max_tokens",
    )
    if official:  # local compatible servers often need no key
        model._key_env = "OPENAI_API_KEY"
    return model
