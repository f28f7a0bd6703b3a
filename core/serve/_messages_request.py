"""An Anthropic Messages API body (``POST /v1/messages``) as an agent call: ``system``
and ``messages`` as tripwire ``Message`` objects, the rest as ``stream()`` options.

Nothing in a body is trusted: every field is read with the ``tripwire.models.wire``
readers and the chat request's checks (tool schemas, the number of texts), and
anything that does not fit, or that this gateway would have to drop, is a
``BadRequest`` naming the field (the codec answers it with a 400 in Anthropic's error
shape).

What each field becomes:

- ``system`` (a string or text blocks): one system message per block, input like the
  client's other messages (``caller_system="input"``: the agent's input processors
  check it; the upstream gets it after the agent's own instructions).
- ``messages``: ``user`` turns with text, image and ``tool_result`` blocks (a tool
  result answers the ``tool_use`` block of an earlier assistant turn with its id);
  ``assistant`` turns with text, ``tool_use`` and ``thinking`` blocks (a thinking
  block's ``signature`` is kept on its reasoning part, so an Anthropic upstream gets
  the block back as it needs it; an OpenAI-compatible upstream gets no reasoning back).
- ``tools`` (client tools: ``name``, ``description``, ``input_schema``), ``tool_choice``
  (``auto``, ``any``, ``tool``, ``none``), ``max_tokens`` (required),
  ``stop_sequences``, ``temperature``, ``top_p``: the call's tools and model settings.
- ``top_k`` and ``thinking``: sent to the upstream in its request body, as the chat
  request's upstream fields are.
- ``metadata.user_id`` and every block's ``cache_control``: taken and not passed on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

from tripwire.messages import (
    FilePart,
    Message,
    Part,
    ReasoningPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)
from tripwire.models.wire import (
    WireError,
    as_list,
    as_object,
    as_text,
    kind_of,
)
from tripwire.serve._codec import AgentCall, BadRequest
from tripwire.serve._request import (
    definition,
    definition_texts,
    image_part,
    names_only,
    new_message,
    tool_invocation,
)
from tripwire.serve._response import dumps

__all__ = ["COUNT_FIELDS", "FIELDS", "MessagesRequest", "messages_from_anthropic",
           "parse_messages_request", "thread_turn"]

#: Request fields that become the call's model settings (``stop_sequences`` as ``stop``).
SETTINGS = frozenset({"max_tokens", "temperature", "top_p", "stop_sequences"})
#: Request fields that are no portable model setting: sent to the upstream as they are,
#: in its request body (``provider_options`` of the agent's model's provider), where an
#: upstream that does not know one says so.
UPSTREAM_FIELDS = frozenset({"top_k", "thinking"})
#: Request fields that are read but change nothing (bookkeeping of Anthropic's own API,
#: and its prompt caching: ``cache_control`` here and on any block).
IGNORED = frozenset({"metadata", "cache_control"})
#: Every field the gateway reads itself.
HANDLED = frozenset({"model", "messages", "system", "stream", "tools", "tool_choice"})
FIELDS = SETTINGS | UPSTREAM_FIELDS | IGNORED | HANDLED
#: The fields of a ``count_tokens`` body (Anthropic's: what the model reads).
COUNT_FIELDS = frozenset({"model", "messages", "system", "tools", "tool_choice", "thinking"})

#: Why a field of Anthropic's API that this gateway does not take is refused.
_NOT_TAKEN = {
    "service_tier": "the upstream's service tier is the agent's model's, not the client's",
    "container": "server-side containers (code execution) are not taken",
    "mcp_servers": "MCP servers the upstream connects to are not taken; give the agent "
                   "the tools instead",
    "context_management": "the upstream's context editing is not taken",
    "citations": "citations are not taken (no processor checks them)",
    "source": "only the sources listed are taken",
}
#: The media types an image block's base64 source may have (Anthropic's).
IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
#: The fields of each content block this gateway takes (``cache_control`` is taken and
#: not passed on; null counts as absent).
_BLOCK_FIELDS = {
    "text": frozenset({"type", "text", "cache_control", "citations"}),
    "image": frozenset({"type", "source", "cache_control"}),
    "tool_use": frozenset({"type", "id", "name", "input", "cache_control"}),
    "tool_result": frozenset({"type", "tool_use_id", "content", "is_error", "cache_control"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
}
#: The blocks each role's content takes.
_ROLE_BLOCKS = {
    "user": ("text", "image", "tool_result"),
    "assistant": ("text", "tool_use", "thinking"),
}
#: What a 400 for a block of Anthropic's this gateway does not take says.
_BLOCK_NOT_TAKEN = {
    "redacted_thinking": "redacted thinking is not taken (this gateway never sends one)",
    "document": "documents are not taken: no input processor can read them; send their "
                "text as a text block",
}
#: The fields of a tool (``type`` is ``"custom"`` when given).
_TOOL_FIELDS = frozenset({"type", "name", "description", "input_schema", "cache_control"})


@attrs.define
class MessagesRequest(AgentCall):
    """What one Messages request asks of an agent (its stream always reports usage,
    in ``message_delta``)."""


def parse_messages_request(body: Any, *, count: bool = False) -> MessagesRequest:
    """A decoded JSON body as a ``MessagesRequest``; ``BadRequest`` for anything else.
    ``count``: a ``count_tokens`` body (``COUNT_FIELDS``, no ``max_tokens``)."""
    try:
        return _parse(body, count)
    except WireError as e:
        raise BadRequest(str(e), e.field) from None


def _parse(body: Any, count: bool) -> MessagesRequest:
    if not isinstance(body, dict):
        raise BadRequest(f"the request body must be a JSON object, got {kind_of(body)}")
    _only(body, COUNT_FIELDS if count else FIELDS, None,
          "count_tokens takes" if count else "this gateway takes")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest("model: Field required: the name of an agent (GET /v1/models lists "
                         "them)", "model")
    if body.get("max_tokens") is None and not count:
        raise BadRequest("max_tokens: Field required (the most tokens the answer may have)",
                         "max_tokens")
    stream = body.get("stream", False)
    if stream is not None and not isinstance(stream, bool):
        raise BadRequest(f"stream: must be a boolean, got {kind_of(stream)}", "stream")
    settings = {k: _setting(k, body[k]) for k in SETTINGS if body.get(k) is not None}
    if "stop_sequences" in settings:
        settings["stop"] = settings.pop("stop_sequences")
    upstream = {k: _upstream(k, body[k]) for k in UPSTREAM_FIELDS if body.get(k) is not None}
    _metadata(body.get("metadata"))
    _cache_control(body, None)
    texts = sum(definition(value, key) for key, value in upstream.items())
    tools, tool_texts = _tools(body.get("tools"))
    definition_texts(texts + tool_texts + names_only(settings.get("stop"), "stop_sequences"))
    return MessagesRequest(
        agent=model,
        messages=messages_from_anthropic(body.get("messages"), body.get("system")),
        stream=bool(stream),
        client_tools=tools,
        tool_choice=_tool_choice(body.get("tool_choice")),
        model_settings=settings,
        upstream_fields=upstream,
    )


def _only(value: Mapping[str, Any], taken: frozenset[str], where: str | None,
          takes: str = "it takes") -> None:
    """``BadRequest`` naming the first field of ``value`` (an object at ``where``, None:
    the body) that is not null and not ``taken``: such a field would be dropped unseen."""
    for name, item in value.items():
        if name not in taken and item is not None:
            why = _NOT_TAKEN.get(name, "not a field this gateway takes")
            field = name if where is None else f"{where}.{name}"
            raise BadRequest(f"{field}: {why} ({takes}: {', '.join(sorted(taken))})", field)


def _setting(name: str, value: Any) -> Any:
    """A model setting of Anthropic's type; ``BadRequest`` naming it otherwise."""
    if name in ("temperature", "top_p"):
        ok = type(value) in (int, float) and math.isfinite(value)
        expected = "a finite number"
    elif name == "stop_sequences":
        ok = type(value) is list and all(type(s) is str for s in value)
        expected = "an array of strings"
    else:  # max_tokens
        ok = type(value) is int and value >= 1
        expected = "an integer of at least 1"
    if not ok:
        raise BadRequest(f"{name}: must be {expected}, got {value!r:.40}", name)
    return value


def _upstream(name: str, value: Any) -> Any:
    """An upstream field of the type Anthropic's API gives it."""
    if name == "top_k":
        if type(value) is not int or value < 0:
            raise BadRequest(f"top_k: must be a non-negative integer, got {value!r:.40}", "top_k")
        return value
    thinking = as_object(value, "thinking")
    if not isinstance(thinking.get("type"), str):  # the rest is the upstream's to check
        raise BadRequest(f"thinking.type: Field required (a string: 'enabled', 'adaptive', "
                         f"'disabled', ...), got {thinking.get('type')!r:.40}", "thinking.type")
    return thinking


def _metadata(value: Any) -> None:
    """``metadata``: only ``user_id`` (a string), taken and not passed on."""
    metadata = as_object(value, "metadata")
    _only(metadata, frozenset({"user_id"}), "metadata")
    as_text(metadata.get("user_id"), "metadata.user_id")


def _cache_control(block: Mapping[str, Any], where: str | None) -> None:
    """The ``cache_control`` of a block (of the body: ``where`` None),
    ``{"type": "ephemeral", "ttl"?}``: taken, not passed on; anything else is a 400."""
    value = block.get("cache_control")
    if value is None:
        return
    at = "cache_control" if where is None else f"{where}.cache_control"
    control = as_object(value, at)
    if control.get("type") != "ephemeral":
        raise BadRequest(f"{at}.type must be 'ephemeral', got {control.get('type')!r:.40}",
                         f"{at}.type")
    _only(control, frozenset({"type", "ttl"}), at)
    if control.get("ttl") is not None and control["ttl"] not in ("5m", "1h"):
        raise BadRequest(f"{at}.ttl must be '5m' or '1h', got {control['ttl']!r:.40}",
                         f"{at}.ttl")


def _tools(value: Any) -> tuple[list[dict[str, Any]], int]:
    """The client's tools as ``client_tools`` entries, and the number of strings in
    them."""
    out = []
    texts = 0
    for i, item in enumerate(as_list(value, "tools")):
        where = f"tools[{i}]"
        tool = as_object(item, "tools[%d]", i)
        kind = tool.get("type")
        if kind is not None and kind != "custom":  # a server tool (web search, bash, ...)
            raise BadRequest(
                f"{where}.type: only client tools are taken ('custom', or no type), got "
                f"{kind!r:.60}: the upstream's server tools are not", f"{where}.type")
        _only(tool, _TOOL_FIELDS, where)
        _cache_control(tool, where)
        name = as_text(tool.get("name"), "tools[%d].name", i)
        if not name:
            raise BadRequest(f"{where}.name: Field required", f"{where}.name")
        if tool.get("input_schema") is None:
            raise BadRequest(f"{where}.input_schema: Field required (a JSON Schema of the "
                             f"tool's input)", f"{where}.input_schema")
        schema = as_object(tool.get("input_schema"), "tools[%d].input_schema", i)
        texts += definition(schema, f"{where}.input_schema")
        description = as_text(tool.get("description"), "tools[%d].description", i) or ""
        texts += bool(description)
        out.append({"name": name, "description": description, "parameters": schema or None})
    return out, texts


def _tool_choice(value: Any) -> Any:
    """Anthropic's tool_choice as tripwire's (``"auto"``, ``"required"``, ``"none"``,
    ``{"type": "tool", "tool_name": ...}``)."""
    if value is None:
        return None
    choice = as_object(value, "tool_choice")
    kind = choice.get("type")
    taken = frozenset({"type", "name"} if kind == "tool" else {"type"})
    if kind not in ("auto", "any", "tool", "none"):
        raise BadRequest(f"tool_choice.type must be 'auto', 'any', 'tool' or 'none', got "
                         f"{kind!r:.40}", "tool_choice.type")
    if choice.get("disable_parallel_tool_use") is not None:
        raise BadRequest(
            "tool_choice.disable_parallel_tool_use: not taken (the agent's model decides "
            "how many tools it calls at once)", "tool_choice.disable_parallel_tool_use")
    _only(choice, taken, "tool_choice")
    if kind == "tool":
        name = as_text(choice.get("name"), "tool_choice.name")
        if not name:
            raise BadRequest("tool_choice.name: Field required with type 'tool'",
                             "tool_choice.name")
        return {"type": "tool", "tool_name": name}
    return "required" if kind == "any" else kind


# ---------------------------------------------------------------- messages


def messages_from_anthropic(value: Any, system: Any = None) -> list[Message]:
    """``system`` and ``messages`` as tripwire messages: system messages first, one per
    system block. An assistant's ``tool_use`` blocks become tool invocations; a user's
    ``tool_result`` block is the result of the invocation with its ``tool_use_id`` (the
    provider-facing prompt then holds call and result); the user's other blocks stay a
    user message."""
    out = [new_message("system", [TextPart(text)]) for text in _system(system)]
    items = as_list(value, "messages")
    if not items:
        raise BadRequest("messages: must be a non-empty array", "messages")
    calls: dict[str, ToolInvocation] = {}
    for i, item in enumerate(items):
        message = as_object(item, "messages[%d]", i)
        role = message.get("role")
        if role not in _ROLE_BLOCKS:
            hint = " (the system prompt is the top-level 'system' field)" if role == "system" \
                else ""
            raise BadRequest(f"messages[{i}].role must be 'user' or 'assistant', got "
                             f"{role!r:.40}{hint}", f"messages[{i}].role")
        _only(message, frozenset({"role", "content"}), f"messages[{i}]")
        parts: list[Part] = []
        for j, block in enumerate(_blocks(message.get("content"), i)):
            where = f"messages[{i}].content[{j}]"
            kind = block["type"]
            if kind not in _ROLE_BLOCKS[role]:
                why = _BLOCK_NOT_TAKEN.get(kind, f"{role} messages take "
                                           f"{', '.join(_ROLE_BLOCKS[role])} blocks")
                raise BadRequest(f"{where}.type {kind!r:.40}: {why}", f"{where}.type")
            _only(block, _BLOCK_FIELDS[kind], where)
            _cache_control(block, where)
            if kind == "text":
                parts.append(TextPart(_block_text(block, where)))
            elif kind == "image":
                parts.append(_image(block, where))
            elif kind == "thinking":
                parts.append(_thinking(block, where))
            elif kind == "tool_use":
                invocation = _tool_use(block, where)
                if invocation.tool_call_id in calls:  # its answer would be the other's
                    raise BadRequest(f"{where}.id {invocation.tool_call_id!r:.80} is the id of "
                                     f"an earlier tool_use block; each call needs its own",
                                     f"{where}.id")
                calls[invocation.tool_call_id] = invocation
                parts.append(ToolInvocationPart(invocation))
            else:  # tool_result
                _tool_result(block, where, calls)
        if parts:  # (a user turn of tool results alone is in the calls it answers)
            out.append(new_message(role, parts))
    return out


def _system(value: Any) -> list[str]:
    """The texts of ``system``: a string, or an array of text blocks."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    texts = []
    for j, item in enumerate(as_list(value, "system")):
        where = f"system[{j}]"
        block = as_object(item, "system[%d]", j)
        if block.get("type") != "text":
            raise BadRequest(f"{where}.type must be 'text', got {block.get('type')!r:.40}",
                             f"{where}.type")
        _only(block, _BLOCK_FIELDS["text"], where)
        _cache_control(block, where)
        text = _block_text(block, where)
        if text:
            texts.append(text)
    return texts


def _blocks(content: Any, i: int) -> list[dict[str, Any]]:
    """A message's content as blocks (a string is one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if content is None:
        raise BadRequest(f"messages[{i}].content: Field required", f"messages[{i}].content")
    blocks = []
    for j, item in enumerate(as_list(content, "messages[%d].content", i)):
        block = as_object(item, "messages[%d].content[%d]", i, j)
        if not isinstance(block.get("type"), str):
            raise BadRequest(f"messages[{i}].content[{j}].type: Field required (a string)",
                             f"messages[{i}].content[{j}].type")
        blocks.append(block)
    return blocks


def _block_text(block: Mapping[str, Any], where: str) -> str:
    if block.get("citations"):  # an empty list is what a response's text block holds
        raise BadRequest(f"{where}.citations: {_NOT_TAKEN['citations']}", f"{where}.citations")
    text = as_text(block.get("text"), "%s.text", where)
    if text is None:
        raise BadRequest(f"{where}.text: Field required", f"{where}.text")
    return text


def _image(block: Mapping[str, Any], where: str) -> FilePart:
    """An image block as a file part, as the chat request's images: a base64 source as
    a ``data:`` URL, a URL source as the URL."""
    source = as_object(block.get("source"), "%s.source", where)
    kind = source.get("type")
    if kind == "base64":
        _only(source, frozenset({"type", "media_type", "data"}), f"{where}.source")
        media_type = source.get("media_type")
        if media_type not in IMAGE_TYPES:
            raise BadRequest(f"{where}.source.media_type must be one of "
                             f"{', '.join(sorted(IMAGE_TYPES))}, got {media_type!r:.40}",
                             f"{where}.source.media_type")
        data = as_text(source.get("data"), "%s.source.data", where)
        if not data:
            raise BadRequest(f"{where}.source.data: Field required", f"{where}.source.data")
        return image_part(f"data:{media_type};base64,{data}", f"{where}.source.data")
    if kind == "url":
        _only(source, frozenset({"type", "url"}), f"{where}.source")
        url = as_text(source.get("url"), "%s.source.url", where)
        if not url or not url.startswith(("https://", "http://")):
            raise BadRequest(f"{where}.source.url must be an http(s) URL", f"{where}.source.url")
        return image_part(url, f"{where}.source.url")
    raise BadRequest(f"{where}.source.type must be 'base64' or 'url', got {kind!r:.40} (files "
                     f"uploaded to the upstream are not taken)", f"{where}.source.type")


def _thinking(block: Mapping[str, Any], where: str) -> ReasoningPart:
    """A thinking block as a reasoning part; its signature is kept where the Anthropic
    provider sends it back from (``provider_metadata.anthropic.signature``)."""
    text = as_text(block.get("thinking"), "%s.thinking", where) or ""
    signature = as_text(block.get("signature"), "%s.signature", where)
    return ReasoningPart(text, {"anthropic": {"signature": signature}} if signature else None)


def _tool_use(block: Mapping[str, Any], where: str) -> ToolInvocation:
    """A ``tool_use`` block as a tool invocation, checked as a chat request's tool call
    is (an identifier as its id and its tool's name, an object as its input)."""
    call_id = as_text(block.get("id"), "%s.id", where)
    name = as_text(block.get("name"), "%s.name", where)
    if not call_id or not name:
        raise BadRequest(f"{where} needs an id and a name", where)
    value = block.get("input")
    if type(value) is not dict:
        raise BadRequest(f"{where}.input: must be an object, got {kind_of(value)}",
                         f"{where}.input")
    return tool_invocation(call_id, name, dumps(value), f"{where}.id", f"{where}.name",
                           f"{where}.input")


def _tool_result(block: Mapping[str, Any], where: str,
                 calls: Mapping[str, ToolInvocation]) -> None:
    """A ``tool_result`` block: the result of the earlier ``tool_use`` it names."""
    call_id = as_text(block.get("tool_use_id"), "%s.tool_use_id", where)
    answered = calls.get(call_id or "")
    if answered is None:
        raise BadRequest(f"{where}.tool_use_id {call_id!r:.80} answers no tool_use block of an "
                         f"earlier assistant message", f"{where}.tool_use_id")
    if answered.state == "result":  # a second answer would replace the first unseen
        raise BadRequest(f"{where}.tool_use_id {call_id!r:.80} answers a tool_use block an "
                         f"earlier tool_result already answered", f"{where}.tool_use_id")
    is_error = block.get("is_error")
    if is_error is not None and not isinstance(is_error, bool):
        raise BadRequest(f"{where}.is_error must be a boolean, got {kind_of(is_error)}",
                         f"{where}.is_error")
    answered.state = "result"
    answered.result = _result_text(block.get("content"), where)
    answered.is_error = bool(is_error)


def _result_text(content: Any, where: str) -> str:
    """A tool result's content as text: a string, or text blocks."""
    if content is None or isinstance(content, str):
        return content or ""
    texts = []
    for k, item in enumerate(as_list(content, "%s.content", where)):
        at = f"{where}.content[{k}]"
        block = as_object(item, "%s.content[%d]", where, k)
        if block.get("type") != "text":
            raise BadRequest(f"{at}.type: a tool result takes text blocks only, got "
                             f"{block.get('type')!r:.40}", f"{at}.type")
        _only(block, _BLOCK_FIELDS["text"], at)
        _cache_control(block, at)
        texts.append(_block_text(block, at))
    return "".join(texts)


def thread_turn(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The body's ``messages`` in the shape ``_thread.check_turn`` reads (a chat
    request's roles): an assistant turn with ``tool_use`` blocks has ``tool_calls``, a
    user turn that answers them (it holds ``tool_result`` blocks) is a ``tool``
    message. Read after ``parse_messages_request`` took the body."""
    out = []
    for message in body["messages"]:
        blocks = message["content"] if isinstance(message["content"], list) else []
        types = {b["type"] for b in blocks}
        if message["role"] == "assistant":
            out.append({"role": "assistant", "tool_calls": "tool_use" in types})
        else:
            out.append({"role": "tool" if "tool_result" in types else "user"})
    return out
