"""An OpenAI ``POST /v1/chat/completions`` body as an agent call: the messages as
tripwire ``Message`` objects, the rest as ``stream()`` options.

Nothing in a body is trusted: every field is read with the ``tripwire.models.wire``
readers, and anything that does not fit is a ``BadRequest`` naming the field, what
is valid and what came (the gateway answers it with a 400 in OpenAI's error format).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import attrs

from tripwire.chunks import ID_RULE, TOOL_CALL_ID
from tripwire.messages import (
    FilePart,
    Message,
    MessageContent,
    Part,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    new_id,
)
from tripwire.models.wire import (
    MAX_ARGS_DEPTH,
    WireError,
    as_list,
    as_object,
    as_text,
    kind_of,
    nesting_depth,
    parse_tool_args,
    unpaired_surrogate,
)
from tripwire.serve._codec import AgentCall, BadRequest
from tripwire.tools import TOOL_NAME

#: Request fields passed to the upstream as model settings, as they are.
SETTINGS = frozenset({"temperature", "top_p", "max_tokens", "stop", "seed"})
#: Request fields of OpenAI's API that are no portable model setting: sent to the
#: upstream as they are, in the body (``provider_options`` of the agent's model's
#: provider), where an upstream that does not know one says so.
UPSTREAM_FIELDS = frozenset({
    "presence_penalty", "frequency_penalty", "logit_bias", "parallel_tool_calls",
    "response_format", "reasoning_effort", "service_tier", "user",
})
#: Request fields that are read but change nothing (bookkeeping of OpenAI's own API).
IGNORED = frozenset({"store", "metadata"})
#: Every field the gateway reads itself.
HANDLED = frozenset({
    "model", "messages", "stream", "stream_options", "tools", "tool_choice", "n",
    "max_completion_tokens",
})
FIELDS = SETTINGS | UPSTREAM_FIELDS | IGNORED | HANDLED

_AUDIO_TYPES = {"wav": "audio/wav", "mp3": "audio/mpeg"}

#: What a key of a tool's ``parameters`` or of a field sent to the upstream (a
#: ``response_format`` schema's property names) must be: a name. The model reads keys,
#: and no processor checks them (every string value is checked, as input:
#: ``tripwire.run._caller_texts``), so they hold no free text.
SCHEMA_KEY = re.compile(r"[A-Za-z0-9_.$-]{1,64}")
#: The most strings a request's tools, upstream fields and ``stop`` may hold in all:
#: each is a message the input processors check (``tripwire.run._caller_texts``), so a
#: body of short enum values was hundreds of thousands of messages, and as many
#: questions to a processor's judge model. Far above what clients send (OpenAI takes at
#: most 128 tools, and 1,000 enum values in a structured output's schema).
MAX_DEFINITION_TEXTS = 10_000

#: The fields each role's message may have (null counts as absent). Anything else
#: would reach neither the processors nor the upstream: a 400 names it rather than
#: dropping it unseen. ``refusal`` is the assistant's text (checked as its content is);
#: ``reasoning_content`` (an earlier turn's reasoning, as this gateway returns it) is
#: taken and not sent back, as OpenAI-compatible servers expect. A participant's
#: ``name`` (a string; LangGraph's multi-agent clients set it on every message) is taken
#: and not passed on: it never reaches the model, so no processor need see it.
_MESSAGE_FIELDS = {
    "system": frozenset({"role", "content", "name"}),
    "developer": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    "assistant": frozenset({"role", "content", "name", "tool_calls", "refusal",
                            "reasoning_content"}),
    "tool": frozenset({"role", "content", "tool_call_id"}),
}
#: The fields of a tool's ``function`` the gateway takes.
_FUNCTION_FIELDS = frozenset({"name", "description", "parameters", "strict"})
#: What a 400 for one of OpenAI's message or part fields this gateway does not take says.
_NOT_TAKEN = {
    "name": "a tool message has no participant name (its call's id says what it answers)",
    "function_call": "the deprecated function_call is not taken; send tool_calls",
    "audio": "an earlier audio answer cannot be referred to; send its transcript as content",
    "detail": "images go to the upstream at its default detail ('auto'); no other is taken",
}


@attrs.define
class ChatRequest(AgentCall):
    """What one chat completion request asks of an agent (``upstream_fields``: the
    ``UPSTREAM_FIELDS`` the client gave)."""

    #: ``stream_options.include_usage``: the stream's last event has the usage
    include_usage: bool = False


def parse_request(body: Any) -> ChatRequest:
    """A decoded JSON body as a ``ChatRequest``; ``BadRequest`` for anything else."""
    try:
        return _parse(body)
    except WireError as e:
        raise BadRequest(str(e), e.field) from None


def _parse(body: Any) -> ChatRequest:
    if not isinstance(body, dict):
        raise BadRequest(f"the request body must be a JSON object, got {kind_of(body)}")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise BadRequest(
            f"Unrecognized request argument supplied: {unknown[0]} (this gateway takes: "
            f"{', '.join(sorted(FIELDS))})", unknown[0])
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest("'model' is required: the name of an agent (GET /v1/models lists "
                         "them)", "model")
    stream = body.get("stream", False)
    if stream is not None and not isinstance(stream, bool):
        raise BadRequest(f"'stream' must be a boolean, got {kind_of(stream)}", "stream")
    stream_options = as_object(body.get("stream_options"), "stream_options")
    only_fields(stream_options, frozenset({"include_usage"}), "stream_options")
    include_usage = stream_options.get("include_usage", False)
    if not isinstance(include_usage, bool):
        raise BadRequest("'stream_options.include_usage' must be a boolean",
                         "stream_options.include_usage")
    if body.get("stream_options") is not None and not stream:  # as OpenAI answers it
        raise BadRequest("The 'stream_options' parameter is only allowed when 'stream' is "
                         "enabled.", "stream_options")
    n = body.get("n")
    if n is not None and (type(n) is not int or n != 1):
        raise BadRequest(f"'n' must be 1 (one choice per request), got {n!r:.20}", "n")
    settings = {k: setting(k, body[k]) for k in SETTINGS if body.get(k) is not None}
    upstream = {k: body[k] for k in UPSTREAM_FIELDS if body.get(k) is not None}
    texts = sum(definition(value, key) for key, value in upstream.items())
    if body.get("max_completion_tokens") is not None:
        settings["max_tokens"] = setting("max_completion_tokens", body["max_completion_tokens"])
    tools, tool_texts = _tools(body.get("tools"))
    definition_texts(texts + tool_texts + names_only(settings.get("stop"), "stop"))
    return ChatRequest(
        agent=model,
        messages=messages_from_openai(body.get("messages")),
        stream=bool(stream),
        include_usage=include_usage,
        client_tools=tools,
        tool_choice=_tool_choice(body.get("tool_choice"), [t["name"] for t in tools]),
        model_settings=settings,
        upstream_fields=upstream,
    )


def setting(name: str, value: Any) -> Any:
    """A model setting of OpenAI's type (a wrong one would fail the run, or reach the
    upstream, which may take it differently); ``BadRequest`` naming it otherwise."""
    if name in ("temperature", "top_p"):
        ok = type(value) in (int, float) and math.isfinite(value)
        expected = "a finite number"
    elif name == "stop":
        ok = type(value) is str or (type(value) is list
                                    and all(type(s) is str for s in value))
        expected = "a string or an array of strings"
    else:  # max_tokens, max_completion_tokens, seed
        ok = type(value) is int
        expected = "an integer"
    if not ok:
        raise BadRequest(f"'{name}' must be {expected}, got {value!r:.40}", name)
    return value


def _tools(value: Any) -> tuple[list[dict[str, Any]], int]:
    """The client's tools as ``client_tools`` entries, and the number of strings in
    them."""
    out = []
    texts = 0
    for i, item in enumerate(as_list(value, "tools")):
        tool = as_object(item, "tools[%d]", i)
        if tool.get("type", "function") != "function":
            raise BadRequest(f"tools[{i}].type must be 'function', got {tool.get('type')!r:.40}",
                             f"tools[{i}].type")
        only_fields(tool, frozenset({"type", "function"}), f"tools[{i}]")
        function = as_object(tool.get("function"), "tools[%d].function", i)
        # strict (OpenAI's schema-exact arguments) is taken and not passed on: the
        # arguments reach the client after the output processors either way
        only_fields(function, _FUNCTION_FIELDS, f"tools[{i}].function")
        tool, count = client_tool(function, f"tools[{i}].function")
        out.append(tool)
        texts += count
    return out, texts


def client_tool(function: Mapping[str, Any], where: str) -> tuple[dict[str, Any], int]:
    """A function the client offers (its ``name``, ``description`` and ``parameters``,
    the object at ``where``) as a ``client_tools`` entry, and the number of strings in
    it; ``BadRequest`` for a missing name, a schema too deep or a key that is no name."""
    name = as_text(function.get("name"), f"{where}.name")
    if not name:
        raise BadRequest(f"{where}.name is required", f"{where}.name")
    parameters = as_object(function.get("parameters"), f"{where}.parameters")
    texts = definition(parameters, f"{where}.parameters")
    description = as_text(function.get("description"), f"{where}.description") or ""
    texts += bool(description)
    return {"name": name, "description": description, "parameters": parameters or None}, texts


def definition(value: Any, where: str) -> int:
    """The number of strings in ``value``, a JSON value at ``where`` the model reads (a
    tool's parameters, a field for the upstream); ``BadRequest`` when it nests deeper
    than ``MAX_ARGS_DEPTH`` (no schema comes near it, and every processor and
    serialiser that walks it would fail on it) or holds a key that is not a name."""
    if nesting_depth(value, MAX_ARGS_DEPTH) > MAX_ARGS_DEPTH:
        raise BadRequest(f"{where} nests objects and arrays more than {MAX_ARGS_DEPTH} levels "
                         f"deep", where)
    return names_only(value, where)


def names_only(value: Any, where: str) -> int:
    """``BadRequest`` naming the first key in ``value`` (a JSON value at ``where``) that
    is not a name (``SCHEMA_KEY``); otherwise the number of strings in it."""
    count = 0
    if isinstance(value, dict):
        for key, item in value.items():
            if not SCHEMA_KEY.fullmatch(key):
                raise BadRequest(
                    f"{where}: the key {key!r:.80} must be a name: 1-64 letters, digits, "
                    f"'_', '.', '$' or '-' (the model reads keys, and no processor checks "
                    f"them; put text in a description)", where)
            count += names_only(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            count += names_only(item, f"{where}[{i}]")
    elif isinstance(value, str):
        count = 1
    return count


def definition_texts(count: int) -> None:
    """``BadRequest`` when the request's tools, upstream fields and ``stop`` hold more
    than ``MAX_DEFINITION_TEXTS`` strings."""
    if count > MAX_DEFINITION_TEXTS:
        raise BadRequest(
            f"the request's tools, response_format and other fields for the model hold "
            f"{count} strings, more than the {MAX_DEFINITION_TEXTS} this gateway takes "
            f"(each is checked by the agent's input processors as a message of its own)",
            "tools")


def _tool_choice(value: Any, tools: list[str]) -> Any:
    """OpenAI's tool_choice as tripwire's (``{"type": "tool", "tool_name": ...}``)."""
    if value is None or value in ("auto", "none", "required"):
        return value
    choice = as_object(value, "tool_choice")
    if choice.get("type") == "function":
        function = as_object(choice.get("function"), "tool_choice.function")
        name = as_text(function.get("name"), "tool_choice.function.name")
        if name:
            return {"type": "tool", "tool_name": name}
    raise BadRequest(
        "tool_choice must be 'auto', 'none', 'required' or {\"type\": \"function\", "
        "\"function\": {\"name\": ...}}", "tool_choice")


def messages_from_openai(value: Any) -> list[Message]:
    """Chat completion messages as tripwire messages. An assistant's ``tool_calls``
    become tool invocations; a ``tool`` message is the result of the invocation with
    its ``tool_call_id`` (the provider-facing prompt then holds call and result)."""
    items = as_list(value, "messages")
    if not items:
        raise BadRequest("'messages' must be a non-empty array", "messages")
    out: list[Message] = []
    calls: dict[str, ToolInvocation] = {}
    for i, item in enumerate(items):
        message = as_object(item, "messages[%d]", i)
        role = message.get("role")
        _check_fields(message, role, i)
        if role in ("system", "developer"):
            out.append(new_message("system", [TextPart(_text(message, i))]))
        elif role == "user":
            out.append(new_message("user", _user_parts(message.get("content"), i)))
        elif role == "assistant":
            parts: list[Part] = []
            text = _text(message, i, optional=True)
            refusal = as_text(message.get("refusal"), "messages[%d].refusal", i)
            said = "\n".join(t for t in (text, refusal) if t)
            if said:
                parts.append(TextPart(said))
            for j, tc in enumerate(as_list(message.get("tool_calls"),
                                           "messages[%d].tool_calls", i)):
                invocation = _tool_call(tc, i, j)
                if invocation.tool_call_id in calls:  # its answer would be the other's
                    raise BadRequest(
                        f"messages[{i}].tool_calls[{j}].id {invocation.tool_call_id!r:.80} is "
                        f"the id of an earlier tool call; each call needs its own",
                        f"messages[{i}].tool_calls[{j}].id")
                calls[invocation.tool_call_id] = invocation
                parts.append(ToolInvocationPart(invocation))
            out.append(new_message("assistant", parts))
        elif role == "tool":
            call_id = as_text(message.get("tool_call_id"), "messages[%d].tool_call_id", i)
            answered = calls.get(call_id or "")
            if answered is None:
                raise BadRequest(
                    f"messages[{i}].tool_call_id {call_id!r:.80} answers no tool call of an "
                    f"earlier assistant message", f"messages[{i}].tool_call_id")
            if answered.state == "result":  # a second answer would replace the first unseen
                raise BadRequest(
                    f"messages[{i}].tool_call_id {call_id!r:.80} answers a tool call an "
                    f"earlier tool message already answered", f"messages[{i}].tool_call_id")
            answered.state = "result"
            answered.result = _text(message, i)
        else:
            raise BadRequest(
                f"messages[{i}].role must be system, developer, user, assistant or tool, got "
                f"{role!r:.40}", f"messages[{i}].role")
    return out


def _check_fields(message: Mapping[str, Any], role: Any, i: int) -> None:
    """``BadRequest`` naming a field (not null) the message's role does not take."""
    taken = _MESSAGE_FIELDS.get(role) if isinstance(role, str) else None
    if taken is not None:  # else the role's own error
        only_fields(message, taken, f"messages[{i}]", f"{role} messages take")
        name = message.get("name")
        if name is not None and not isinstance(name, str):
            raise BadRequest(f"messages[{i}].name must be a string (the participant's name), "
                             f"got {type(name).__name__}", f"messages[{i}].name")


def only_fields(value: Mapping[str, Any], taken: frozenset[str], where: str,
          takes: str = "it takes") -> None:
    """``BadRequest`` naming the first field of ``value`` (an object at ``where``) that
    is not null and not ``taken``: such a field would be dropped unseen."""
    for name, item in value.items():
        if name not in taken and item is not None:
            why = _NOT_TAKEN.get(name, "not a field this gateway takes")
            raise BadRequest(f"{where}.{name}: {why} ({takes}: {', '.join(sorted(taken))})",
                             f"{where}.{name}")


def new_message(role: Any, parts: list[Part]) -> Message:
    return Message(new_id(), role, MessageContent(parts=parts), datetime.now(UTC))


def _text(message: Mapping[str, Any], i: int, *, optional: bool = False) -> str:
    """A message's content as text: a string, or an array of text parts."""
    content = message.get("content")
    if content is None and optional:
        return ""
    if isinstance(content, str):
        return content
    texts = []
    for j, item in enumerate(as_list(content, "messages[%d].content", i)):
        part = as_object(item, "messages[%d].content[%d]", i, j)
        if part.get("type") not in ("text", "refusal"):
            raise BadRequest(
                f"messages[{i}].content[{j}]: this role takes text parts only, got type "
                f"{part.get('type')!r:.40}", f"messages[{i}].content")
        only_fields(part, frozenset({"type", part["type"]}), f"messages[{i}].content[{j}]")
        texts.append(as_text(part.get(part["type"]), "messages[%d].content[%d].text", i, j)
                     or "")
    if content is None:
        raise BadRequest(f"messages[{i}].content is required", f"messages[{i}].content")
    return "".join(texts)


def _user_parts(content: Any, i: int) -> list[Part]:
    if isinstance(content, str):
        return [TextPart(content)]
    parts: list[Part] = []
    items = as_list(content, "messages[%d].content", i)
    if not items:
        raise BadRequest(f"messages[{i}].content must be a string or a non-empty array",
                         f"messages[{i}].content")
    for j, item in enumerate(items):
        part = as_object(item, "messages[%d].content[%d]", i, j)
        kind = part.get("type")
        if kind in ("text", "image_url", "input_audio"):
            only_fields(part, frozenset({"type", kind}), f"messages[{i}].content[{j}]")
        if kind == "text":
            parts.append(TextPart(as_text(part.get("text"), "messages[%d].content[%d].text",
                                          i, j) or ""))
        elif kind == "image_url":
            image = as_object(part.get("image_url"), "messages[%d].content[%d].image_url", i, j)
            if image.get("detail") == "auto":  # the default, which the upstream gets
                image = {k: v for k, v in image.items() if k != "detail"}
            only_fields(image, frozenset({"url"}), f"messages[{i}].content[{j}].image_url")
            url = as_text(image.get("url"), "messages[%d].content[%d].image_url.url", i, j)
            parts.append(image_part(url, f"messages[{i}].content[{j}].image_url.url"))
        elif kind == "input_audio":
            audio = as_object(part.get("input_audio"), "messages[%d].content[%d].input_audio",
                              i, j)
            only_fields(audio, frozenset({"data", "format"}), f"messages[{i}].content[{j}].input_audio")
            fmt = audio.get("format")
            if fmt not in _AUDIO_TYPES:
                raise BadRequest(f"messages[{i}].content[{j}].input_audio.format must be wav "
                                 f"or mp3, got {fmt!r:.20}",
                                 f"messages[{i}].content[{j}].input_audio.format")
            data = as_text(audio.get("data"), "messages[%d].content[%d].input_audio.data", i, j)
            parts.append(FilePart(data or "", _AUDIO_TYPES[fmt]))
        else:
            raise BadRequest(
                f"messages[{i}].content[{j}].type must be text, image_url or input_audio, got "
                f"{kind!r:.40}", f"messages[{i}].content")
    return parts


def image_part(url: str | None, where: str) -> FilePart:
    """An image the client gives by URL (``where`` names the field): a ``data:`` URL of
    an ``image/*`` type, or a URL the upstream fetches."""
    if not url:
        raise BadRequest(f"{where} is required", where)
    media_type = url[5:].split(";", 1)[0].split(",", 1)[0] if url.startswith(
        "data:") else "image/*"
    if not media_type.startswith("image/"):  # a text or PDF file as an "image"
        raise BadRequest(
            f"{where} must be an image: a data: URL of an image/* type or a URL, got a data: "
            f"URL of {media_type!r:.40}", where)
    return FilePart(url, media_type)


def _tool_call(item: Any, i: int, j: int) -> ToolInvocation:
    tc = as_object(item, "messages[%d].tool_calls[%d]", i, j)
    where = f"messages[{i}].tool_calls[{j}]"
    if tc.get("type", "function") != "function":
        raise BadRequest(f"{where}.type must be 'function', got {tc.get('type')!r:.40}",
                         f"{where}.type")
    only_fields(tc, frozenset({"id", "type", "function"}), where)
    call_id = as_text(tc.get("id"), "messages[%d].tool_calls[%d].id", i, j)
    function = as_object(tc.get("function"), "messages[%d].tool_calls[%d].function", i, j)
    only_fields(function, frozenset({"name", "arguments"}), f"{where}.function")
    name = as_text(function.get("name"), "messages[%d].tool_calls[%d].function.name", i, j)
    if not call_id or not name:
        raise BadRequest(f"messages[{i}].tool_calls[{j}] needs an id and function.name",
                         f"messages[{i}].tool_calls")
    arguments = as_text(function.get("arguments"),
                        "messages[%d].tool_calls[%d].function.arguments", i, j) or ""
    return tool_invocation(call_id, name, arguments, f"{where}.id", f"{where}.function.name",
                           f"{where}.function.arguments", f"messages[{i}].tool_calls")


def tool_invocation(call_id: str, name: str, arguments: str, id_field: str, name_field: str,
                    arguments_field: str, param: str | None = None) -> ToolInvocation:
    """A tool call the client's history holds (its id, its tool's name and its argument
    text, at the fields named) as a tool invocation; ``BadRequest`` unless the id and
    the name are identifiers and the arguments a JSON object (``param``: what the 400
    names for bad arguments, the arguments' field by default)."""
    # no processor checks either, and the model reads the name: identifiers only
    if not TOOL_NAME.fullmatch(name):
        raise BadRequest(f"{name_field} must be 1-64 letters, digits, '_' or '-' (a tool's "
                         f"name), got {name!r:.80}", name_field)
    # (the rule a model's ids follow: no processor checks an id, and the upstream gets
    # it, where a chat template may show it to the model)
    if not TOOL_CALL_ID.fullmatch(call_id):
        raise BadRequest(f"{id_field} must be {ID_RULE}, got {call_id!r:.80}", id_field)
    args, error = parse_tool_args(arguments)
    if error is not None:
        raise BadRequest(f"{arguments_field}: {error}", param or arguments_field)
    # JSON text in a string: its escapes can spell what the body's cannot
    check_unicode(args, where=arguments_field)
    return ToolInvocation("call", call_id, name, args)


def check_unicode(value: Any, raw: bytes | None = None, where: str | None = None) -> None:
    """``BadRequest`` when a decoded JSON ``value`` (decoded from ``raw``, when given;
    found at ``where`` in the body) holds a surrogate that is no half of a pair: no
    answer could hold such text, nor any UTF-8 store, so it is refused before anything
    runs (``tripwire.models.wire.unpaired_surrogate``)."""
    found = unpaired_surrogate(value, raw)
    if found is None:
        return
    if where is not None:
        found = where
    raise BadRequest(
        f"The request body is not valid Unicode text: {found} holds a surrogate "
        f"(U+D800-U+DFFF, such as the escape \\ud800) that is no half of a pair. Send a "
        f"character outside the Basic Multilingual Plane (an emoji) as itself, or as both "
        f"halves' escapes one after the other (\\ud83d\\ude00).",
        None if found.startswith("a key in") else found)
