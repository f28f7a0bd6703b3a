"""What a caller gives besides its messages, as input (``caller_system="input"``).

The model reads a tool's description and its parameter schema (most chat templates
put them in the system prompt, above the conversation), and the provider gets the
call's provider options (a ``response_format``'s schema, which the model reads too;
OpenAI's ``user``) and model settings (``stop``). The agent's own are its author's,
like its instructions. When the caller is not trusted as the author is
(``caller_system="input"``, as tripwire serve calls every agent for its clients), what
the call itself gives is input like its system messages: while ``process_input`` runs
(and when the checks beside the run start), every string of the call's
``client_tools`` (the description; each string anywhere in ``parameters``:
descriptions, titles, enum values, defaults, examples), of its ``provider_options``
and of its ``model_settings`` (the ones the agent does not have itself at that place)
is a system-role message of its own among the input, so the input processors check it
as they check the caller's system messages: a redactor redacts it, one that filters
takes it out (the string becomes empty), one that blocks stops the run. Then the
strings, as the processors left them, go back to their places, and the model call
gets them.

Names are not checked: a tool's name follows ``TOOL_NAME``, and keys (a schema's
property names) are not read; tripwire serve takes only names there
(``tripwire.serve._request.SCHEMA_KEY``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tripwire._call_options import CallOptions
from tripwire._message_list import MessageList
from tripwire._message_types import CALLER_TEXT, Message, TextPart
from tripwire.tools import client_tool

#: Where one string sits: ``"tools"`` and the tool's name, ``"provider_options"`` or
#: ``"model_settings"``; then the keys and indexes down to it.
Path = tuple[Any, ...]

#: JSON Schema's type names: a ``type`` that is one of them is no text to check.
_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def add_caller_texts(message_list: MessageList, call: CallOptions) -> list[tuple[Path, str]]:
    """Put every string the call's caller gave (above) in the conversation, one
    system-role input message each (after the input); their places with the id of
    their message (``lift_caller_texts`` puts them back)."""
    config = call.config
    found: list[tuple[Path, str]] = []
    for name in call.caller_tools:
        tool = config.tools[name]
        found.extend(_strings({"description": tool.description,
                               "parameters": tool.parameters}, ("tools", name)))
    for key, own in zip(("provider_options", "model_settings"), call.own_settings,
                        strict=True):
        found.extend((path, text) for path, text in _strings(getattr(config, key), (key,))
                     if _at(own, path[1:]) != text)
    messages = [Message._of("system", [TextPart(text)], {CALLER_TEXT: True})
                for _, text in found]
    if messages:
        message_list.add(messages, "input", keep_system=True)
    return [(path, m.id) for (path, _), m in zip(found, messages, strict=True)]


def lift_caller_texts(message_list: MessageList, paths: list[tuple[Path, str]],
                      call: CallOptions) -> None:
    """Take the messages ``add_caller_texts`` added out of the conversation and put
    their text, as the input processors left it, back in the call's tools, provider
    options and model settings (the call's own copies); a string whose message a
    processor removed becomes empty. (By id, whatever role a processor gave it.)"""
    added = {message_id for _, message_id in paths}
    texts = {m.id: m.text for m in message_list.all.db() if m.id in added}
    message_list.remove_by_ids(texts)
    config = call.config
    tools: dict[str, dict[str, Any]] = {}
    for path, message_id in paths:
        text = texts.get(message_id, "")
        if path[0] == "tools":
            tool = config.tools[path[1]]
            definition = tools.get(path[1]) or {"description": tool.description,
                                                "parameters": tool.parameters}
            tools[path[1]] = _replaced(definition, path[2:], text)
        elif path[0] == "provider_options":
            config.provider_options = _replaced(config.provider_options, path[1:], text)
        else:
            config.model_settings = _replaced(config.model_settings, path[1:], text)
    for name, definition in tools.items():
        config.tools[name] = client_tool(name, definition["description"],
                                         definition["parameters"])


def _strings(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """Every string in a JSON value that is not blank, with its path. Keys are names,
    not read here, and so are the entries of a schema's ``required`` that name its
    ``properties``; a ``type`` that is a JSON Schema type is not read either."""
    if isinstance(value, str):
        if value.strip():
            yield path, value
    elif isinstance(value, Mapping):
        properties = value.get("properties")
        for key, item in value.items():
            if key == "type" and all(type(t) is str and t in _TYPES
                                     for t in (item if isinstance(item, list) else [item])):
                continue
            if key == "required" and isinstance(item, list) and isinstance(properties,
                                                                           Mapping):
                for i, name in enumerate(item):
                    if not (type(name) is str and name in properties):
                        yield from _strings(name, (*path, key, i))
                continue
            yield from _strings(item, (*path, key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _strings(item, (*path, i))


def _at(value: Any, path: Path) -> Any:
    """The value at ``path`` in ``value``; None when there is none."""
    for step in path:
        if isinstance(value, Mapping) and type(step) is str:
            value = value.get(step)
        elif isinstance(value, list | tuple) and type(step) is int and step < len(value):
            value = value[step]
        else:
            return None
    return value


def _replaced(value: Any, path: Path, text: str) -> Any:
    """``value`` with ``text`` at ``path``: new mappings and lists along the path, the
    rest shared (``value`` itself, the caller's or the agent's, is not changed)."""
    if not path:
        return text
    step, rest = path[0], path[1:]
    if isinstance(value, Mapping):
        return {**value, step: _replaced(value[step], rest, text)}
    items = list(value)
    items[step] = _replaced(items[step], rest, text)
    return items
