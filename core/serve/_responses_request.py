"""An OpenAI ``POST /v1/responses`` body as an agent call.

``input`` (a string, or items: messages with text and image parts, ``function_call``,
``function_call_output``, ``reasoning``) becomes tripwire ``Message`` objects, after
``instructions`` as the client's system message; the rest becomes ``stream()``
options in the vocabulary chat completions uses (``max_output_tokens`` is the model
setting ``max_tokens``, ``text.format`` the upstream field ``response_format``,
``reasoning.effort`` the upstream field ``reasoning_effort``), so a Responses request
reaches any agent, whatever its upstream, with the checks a chat completion's fields
get (``_request``). ``previous_response_id`` and ``store`` are the codec's
(``_responses``).

Nothing in a body is trusted: anything that does not fit, and any field this gateway
does not take, is a ``BadRequest`` naming the field (a 400), never dropped unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tripwire.memory import MemoryStore
from tripwire.messages import Message, Part, TextPart, ToolInvocation, ToolInvocationPart
from tripwire.models.wire import WireError, as_list, as_object, as_text, kind_of
from tripwire.serve._codec import AgentCall, BadRequest
from tripwire.serve._request import (
    client_tool,
    definition,
    definition_texts,
    image_part,
    names_only,
    new_message,
    only_fields,
    setting,
    tool_invocation,
)
from tripwire.serve._thread import THREAD_ID

__all__ = ["FIELDS", "Kept", "ResponsesRequest", "parse_responses"]

#: Every field of a Responses request this gateway takes.
FIELDS = frozenset({
    "model", "input", "instructions", "stream", "tools", "tool_choice", "parallel_tool_calls",
    "text", "max_output_tokens", "temperature", "top_p", "metadata", "reasoning",
    "previous_response_id", "store", "user", "service_tier", "include", "truncation",
    "background",
})
#: Fields taken only at the value that asks for nothing (OpenAI's default), with what
#: a 400 for another value says.
_DEFAULT_ONLY: dict[str, tuple[Any, str]] = {
    "include": ([], "an empty array (no extra output is included)"),
    "truncation": ("disabled", "'disabled' (a conversation too long for the model is the "
                               "upstream's 400)"),
    "background": (False, "false (a response is answered while its request waits)"),
}
#: The fields of each input item type (null counts as absent).
_ITEM_FIELDS = {
    "message": frozenset({"type", "role", "content", "id", "status"}),
    "function_call": frozenset({"type", "id", "call_id", "name", "arguments", "status"}),
    "function_call_output": frozenset({"type", "id", "call_id", "output", "status"}),
    "reasoning": frozenset({"type", "id", "summary", "content", "encrypted_content", "status"}),
}
_ROLES = ("user", "system", "developer", "assistant")
#: OpenAI's limits of ``metadata``: 16 pairs, keys of 64 and values of 512 characters.
_METADATA = (16, 64, 512)


@attrs.define
class Kept:
    """Where a response is stored: its memory store and thread, and whether the request
    made the thread before its run (a copy of the previous response's conversation,
    removed again when the run ends without an answer)."""

    store: MemoryStore
    thread_id: str
    made: bool = False


@attrs.define
class ResponsesRequest(AgentCall):
    """What one Responses request asks of an agent, with what its response object
    repeats (``echo``) and what the codec does before the run (``store``,
    ``previous_response_id``, the calls of the previous response this one answers)."""

    #: the request's ``store`` (None: not given) and ``previous_response_id``
    store: bool | None = None
    previous_response_id: str | None = None
    #: tool results (``function_call_output`` items) answering calls this request does
    #: not hold: the previous response's (the codec fills in each call's name and
    #: arguments from the stored response); their assistant message is in ``messages``
    answers: list[ToolInvocation] = attrs.field(factory=list)
    #: the response object's fields that repeat the request (``metadata``,
    #: ``tool_choice``, ``temperature``, ...), as the request gave them
    echo: dict[str, Any] = attrs.field(factory=dict)
    #: the response's id, and where it is stored (None: it is not), set by the codec
    response_id: str = ""
    kept: Kept | None = None


def parse_responses(body: Any) -> ResponsesRequest:
    """A decoded JSON body as a ``ResponsesRequest``; ``BadRequest`` for anything else."""
    try:
        return _parse(body)
    except WireError as e:
        raise BadRequest(str(e), e.field) from None


def _parse(body: Any) -> ResponsesRequest:
    if not isinstance(body, dict):
        raise BadRequest(f"the request body must be a JSON object, got {kind_of(body)}")
    unknown = sorted(k for k in set(body) - FIELDS if body[k] is not None)
    if unknown:
        raise BadRequest(
            f"Unrecognized request argument supplied: {unknown[0]} (this gateway takes: "
            f"{', '.join(sorted(FIELDS))})", unknown[0])
    for name, (default, valid) in _DEFAULT_ONLY.items():
        value = body.get(name)
        if value is not None and (type(value) is not type(default) or value != default):
            raise BadRequest(f"'{name}' must be {valid}, got {value!r:.60}", name)
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest("'model' is required: the name of an agent (GET /v1/models lists "
                         "them)", "model")
    stream = _boolean(body, "stream")
    store = _boolean(body, "store")
    previous = as_text(body.get("previous_response_id"), "previous_response_id")
    if previous is not None and not THREAD_ID.fullmatch(previous):
        raise BadRequest("'previous_response_id' must be the id of a response (resp_...), "
                         f"got {previous!r:.60}", "previous_response_id")
    settings = {k: setting(k, body[k]) for k in ("temperature", "top_p") if body.get(k) is not None}
    if body.get("max_output_tokens") is not None:
        settings["max_tokens"] = setting("max_output_tokens", body["max_output_tokens"])
    upstream: dict[str, Any] = {}
    for name in ("user", "service_tier"):
        value = as_text(body.get(name), name)
        if value is not None:
            upstream[name] = value
    parallel = _boolean(body, "parallel_tool_calls")
    if parallel is not None:
        upstream["parallel_tool_calls"] = parallel
    text_format = _text_format(body.get("text"))
    if text_format is not None:
        upstream["response_format"] = text_format
    effort = _reasoning(body.get("reasoning"))
    if effort is not None:
        upstream["reasoning_effort"] = effort
    texts = sum(definition(value, key) for key, value in upstream.items())
    tools, tool_texts = _tools(body.get("tools"))
    definition_texts(texts + tool_texts)
    instructions = as_text(body.get("instructions"), "instructions")
    messages, answers = _input(body.get("input"))
    if instructions:
        messages.insert(0, new_message("system", [TextPart(instructions)]))
    if answers and previous is None:
        raise BadRequest(
            f"input: a function_call_output answers the call {answers[0].tool_call_id!r:.80}, "
            f"which no function_call item of the input makes; send the function_call item "
            f"before it, or previous_response_id naming the response that made the call",
            "input")
    tool_choice = body.get("tool_choice")
    return ResponsesRequest(
        agent=model,
        messages=messages,
        stream=bool(stream),
        client_tools=tools,
        tool_choice=_tool_choice(tool_choice),
        model_settings=settings,
        upstream_fields=upstream,
        store=store,
        previous_response_id=previous,
        answers=answers,
        echo={
            "metadata": _metadata(body.get("metadata")),
            "tool_choice": tool_choice if tool_choice is not None else "auto",
            "tools": [{"type": "function", "name": t["name"], "description": None,
                       "parameters": None, "strict": None} for t in tools],
            "parallel_tool_calls": True if parallel is None else parallel,
            "temperature": settings.get("temperature"),
            "top_p": settings.get("top_p"),
            "max_output_tokens": settings.get("max_tokens"),
            "text": {"format": _format_echo(text_format)},
            "reasoning": {"effort": effort, "summary": None},
            "previous_response_id": previous,
            "truncation": "disabled",
        },
    )


def _boolean(body: Mapping[str, Any], name: str) -> bool | None:
    value = body.get(name)
    if value is not None and not isinstance(value, bool):
        raise BadRequest(f"'{name}' must be a boolean, got {kind_of(value)}", name)
    return value


def _metadata(value: Any) -> dict[str, str]:
    """``metadata``: at most 16 pairs of strings (keys of 64 and values of 512
    characters at most), as OpenAI takes them. It is the client's: repeated in the
    response object (and kept with a stored one), never sent to the model."""
    pairs = as_object(value, "metadata")
    most, key_size, value_size = _METADATA
    if len(pairs) > most:
        raise BadRequest(f"metadata holds {len(pairs)} pairs, more than {most}", "metadata")
    for key, item in pairs.items():
        if len(key) > key_size or not isinstance(item, str) or len(item) > value_size:
            raise BadRequest(f"metadata: each key must be a string of at most {key_size} "
                             f"characters and each value a string of at most {value_size}",
                             "metadata")
    return pairs


def _text_format(value: Any) -> dict[str, Any] | None:
    """``text`` (its ``format``) as chat completions' ``response_format`` (None: plain
    text, the default), checked as ``response_format`` is."""
    text = as_object(value, "text")
    only_fields(text, frozenset({"format"}), "text")
    fmt = as_object(text.get("format"), "text.format")
    kind = fmt.get("type")
    if not fmt or kind == "text":
        only_fields(fmt, frozenset({"type"}), "text.format")
        return None
    if kind == "json_object":
        only_fields(fmt, frozenset({"type"}), "text.format")
        return {"type": "json_object"}
    if kind == "json_schema":
        only_fields(fmt, frozenset({"type", "name", "schema", "description", "strict"}),
                    "text.format")
        name = as_text(fmt.get("name"), "text.format.name")
        if not name:
            raise BadRequest("text.format.name is required for a json_schema format",
                             "text.format.name")
        schema: dict[str, Any] = {"name": name,
                                  "schema": as_object(fmt.get("schema"), "text.format.schema")}
        for field in ("description", "strict"):
            if fmt.get(field) is not None:
                schema[field] = fmt[field]
        return {"type": "json_schema", "json_schema": schema}
    raise BadRequest(f"text.format.type must be text, json_object or json_schema, got "
                     f"{kind!r:.40}", "text.format.type")


def _format_echo(response_format: dict[str, Any] | None) -> dict[str, Any]:
    """The response object's ``text.format``: the type (and a schema's name); the
    schema's texts, which the input processors check, are not repeated."""
    if response_format is None:
        return {"type": "text"}
    if response_format["type"] == "json_schema":
        return {"type": "json_schema", "name": response_format["json_schema"]["name"]}
    return {"type": response_format["type"]}


def _reasoning(value: Any) -> str | None:
    """``reasoning.effort`` (None: not given); a summary is not taken."""
    reasoning = as_object(value, "reasoning")
    only_fields(reasoning, frozenset({"effort"}), "reasoning")
    effort = as_text(reasoning.get("effort"), "reasoning.effort")
    if effort is not None:
        names_only(effort, "reasoning.effort")
    return effort


def _tools(value: Any) -> tuple[list[dict[str, Any]], int]:
    """The client's function tools as ``client_tools`` entries, and the number of
    strings in them. Tools the upstream would run (web search, file search, ...) are
    not taken."""
    out: list[dict[str, Any]] = []
    texts = 0
    for i, item in enumerate(as_list(value, "tools")):
        tool = as_object(item, "tools[%d]", i)
        if tool.get("type") != "function":
            raise BadRequest(f"tools[{i}].type must be 'function' (the client's own "
                             f"functions), got {tool.get('type')!r:.40}", f"tools[{i}].type")
        # strict (schema-exact arguments) is taken and not passed on, as in chat
        only_fields(tool, frozenset({"type", "name", "description", "parameters", "strict"}),
                    f"tools[{i}]")
        entry, count = client_tool(tool, f"tools[{i}]")
        out.append(entry)
        texts += count
    return out, texts


def _tool_choice(value: Any) -> Any:
    """The Responses ``tool_choice`` as tripwire's."""
    if value is None or value in ("auto", "none", "required"):
        return value
    choice = as_object(value, "tool_choice")
    if choice.get("type") == "function":
        only_fields(choice, frozenset({"type", "name"}), "tool_choice")
        name = as_text(choice.get("name"), "tool_choice.name")
        if name:
            return {"type": "tool", "tool_name": name}
    raise BadRequest("tool_choice must be 'auto', 'none', 'required' or {\"type\": "
                     "\"function\", \"name\": ...}", "tool_choice")


def _input(value: Any) -> tuple[list[Message], list[ToolInvocation]]:
    """``input`` as messages, and the tool results in it that answer calls it does not
    hold (the previous response's; they are in an assistant message of their own)."""
    if isinstance(value, str):
        return [new_message("user", [TextPart(value)])], []
    items = as_list(value, "input")
    if not items:
        raise BadRequest("'input' must be a string or a non-empty array of items", "input")
    out: list[Message] = []
    calls: dict[str, ToolInvocation] = {}
    answers: list[ToolInvocation] = []
    answering: Message | None = None  # the assistant message of ``answers``
    speaking: Message | None = None  # the assistant message function_call items join
    for i, entry in enumerate(items):
        item = as_object(entry, "input[%d]", i)
        kind = item.get("type", "message" if "role" in item else None)
        where = f"input[{i}]"
        fields = _ITEM_FIELDS.get(kind) if isinstance(kind, str) else None
        if fields is None:
            raise BadRequest(f"{where}.type must be message, function_call, "
                             f"function_call_output or reasoning, got {kind!r:.40}",
                             f"{where}.type")
        only_fields(item, fields, where, f"{kind} items take")
        if kind == "message":
            message = _message(item, where)
            out.append(message)
            speaking = message if message.role == "assistant" else None
        elif kind == "function_call":
            call_id = as_text(item.get("call_id"), f"{where}.call_id") or ""
            name = as_text(item.get("name"), f"{where}.name") or ""
            if not call_id or not name:
                raise BadRequest(f"{where} needs a call_id and a name", where)
            invocation = tool_invocation(
                call_id, name, as_text(item.get("arguments"), f"{where}.arguments") or "",
                f"{where}.call_id", f"{where}.name", f"{where}.arguments")
            if call_id in calls:  # its answer would be the other's
                raise BadRequest(f"{where}.call_id {call_id!r:.80} is the id of an earlier "
                                 f"function_call; each call needs its own", f"{where}.call_id")
            calls[call_id] = invocation
            if speaking is None:
                speaking = new_message("assistant", [])
                out.append(speaking)
            speaking.content.parts.append(ToolInvocationPart(invocation))
        elif kind == "function_call_output":
            speaking = None
            call_id = as_text(item.get("call_id"), f"{where}.call_id") or ""
            output = _output_text(item.get("output"), f"{where}.output")
            answered = calls.get(call_id)
            if answered is None:
                if any(a.tool_call_id == call_id for a in answers):
                    raise BadRequest(f"{where}.call_id {call_id!r:.80} is answered by an "
                                     f"earlier function_call_output", f"{where}.call_id")
                # a call of the previous response: the codec fills in its name and args
                answered = ToolInvocation("result", call_id, "", {}, output)
                answers.append(answered)
                if answering is None:
                    answering = new_message("assistant", [])
                    out.append(answering)
                answering.content.parts.append(ToolInvocationPart(answered))
                continue
            if answered.state == "result":  # a second answer would replace the first unseen
                raise BadRequest(f"{where}.call_id {call_id!r:.80} answers a call an earlier "
                                 f"function_call_output already answered", f"{where}.call_id")
            answered.state = "result"
            answered.result = output
        # a reasoning item (an earlier response's reasoning, as the gateway returns it) is
        # taken and not sent back, as chat's reasoning_content: upstreams expect that
    return out, answers


def _message(item: Mapping[str, Any], where: str) -> Message:
    role = item.get("role")
    if role not in _ROLES:
        raise BadRequest(f"{where}.role must be user, system, developer or assistant, got "
                         f"{role!r:.40}", f"{where}.role")
    content = item.get("content")
    if isinstance(content, str):
        parts: list[Part] = [TextPart(content)]
    else:
        parts = []
        entries = as_list(content, f"{where}.content")
        if not entries:
            raise BadRequest(f"{where}.content must be a string or a non-empty array",
                             f"{where}.content")
        for j, entry in enumerate(entries):
            parts.append(_content_part(entry, role, f"{where}.content[{j}]"))
    if role in ("system", "developer"):
        if not all(type(p) is TextPart for p in parts):
            raise BadRequest(f"{where}: a {role} message takes text only", f"{where}.content")
        return new_message("system", [TextPart("".join(p.text for p in parts
                                                        if type(p) is TextPart))])
    if role == "assistant":
        said = "".join(p.text for p in parts if type(p) is TextPart)
        parts = [TextPart(said)] if said else []
    return new_message(role, parts)


def _content_part(entry: Any, role: str, where: str) -> Part:
    """One content part: ``input_text`` / ``input_image`` in the client's messages,
    ``output_text`` / ``refusal`` in an assistant's (an earlier response's output)."""
    part = as_object(entry, where)
    kind = part.get("type")
    if role == "assistant":
        if kind == "output_text":
            # annotations (none: the gateway returns none) and logprobs describe an
            # earlier output and are not sent back
            only_fields(part, frozenset({"type", "text", "annotations", "logprobs"}), where)
            if as_list(part.get("annotations"), f"{where}.annotations"):
                raise BadRequest(f"{where}.annotations must be empty (citations are not "
                                 f"taken)", f"{where}.annotations")
            return TextPart(as_text(part.get("text"), f"{where}.text") or "")
        if kind == "refusal":
            only_fields(part, frozenset({"type", "refusal"}), where)
            return TextPart(as_text(part.get("refusal"), f"{where}.refusal") or "")
        if kind == "input_text":
            only_fields(part, frozenset({"type", "text"}), where)
            return TextPart(as_text(part.get("text"), f"{where}.text") or "")
        raise BadRequest(f"{where}.type must be output_text or refusal in an assistant "
                         f"message, got {kind!r:.40}", f"{where}.type")
    if kind == "input_text":
        only_fields(part, frozenset({"type", "text"}), where)
        return TextPart(as_text(part.get("text"), f"{where}.text") or "")
    if kind == "input_image" and role == "user":
        image = dict(part)
        if image.get("detail") == "auto":  # the default, which the upstream gets
            image.pop("detail")
        only_fields(image, frozenset({"type", "image_url"}), where)
        return image_part(as_text(part.get("image_url"), f"{where}.image_url"),
                          f"{where}.image_url")
    valid = "input_text or input_image" if role == "user" else "input_text"
    raise BadRequest(f"{where}.type must be {valid} in a {role} message, got {kind!r:.40}",
                     f"{where}.type")


def _output_text(value: Any, where: str) -> str:
    """A ``function_call_output``'s output: a string, or ``input_text`` parts."""
    if isinstance(value, str):
        return value
    texts = []
    for j, entry in enumerate(as_list(value, where)):
        part = as_object(entry, f"{where}[{j}]")
        if part.get("type") != "input_text":
            raise BadRequest(f"{where}[{j}].type must be input_text (a tool's result is "
                             f"text), got {part.get('type')!r:.40}", f"{where}[{j}].type")
        only_fields(part, frozenset({"type", "text"}), f"{where}[{j}]")
        texts.append(as_text(part.get("text"), f"{where}[{j}].text") or "")
    if value is None:
        raise BadRequest(f"{where} is required", where)
    return "".join(texts)
