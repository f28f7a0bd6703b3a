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
descriptions, titles, enum values, defaults, examples; for a tool listed from a
server, its ``listed_fields`` too: an MCP tool's title, annotations and output schema), of its ``provider_options``
and of its ``model_settings`` (the ones the agent does not have itself at that place)
is a system-role message of its own among the input, so the input processors check it
as they check the caller's system messages: a redactor redacts it, one that filters
takes it out (the string becomes empty), one that blocks stops the run. Then the
strings, as the processors left them, go back to their places, and the model call
gets them.

The definitions of the tools a run listed from servers (MCP: ``CallOptions.listed_tools``)
are checked the same way for every call, whatever its ``caller_system``: a third party
wrote them.

Names are not checked: a tool's name follows ``TOOL_NAME``, and keys (a schema's
property names) are not read; tripwire serve takes only names there
(``tripwire.serve._request.SCHEMA_KEY``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from tripwire.messages._list import MessageList
from tripwire.messages._types import CALLER_TEXT, Message, TextPart
from tripwire.run._call import CallOptions
from tripwire.tools import Tool

#: Where one string sits: ``"tools"`` and the tool's name, ``"provider_options"`` or
#: ``"model_settings"``; then the keys and indexes down to it.
Path = tuple[Any, ...]

#: JSON Schema's type names: a ``type`` that is one of them is no text to check.
_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def add_caller_texts(message_list: MessageList, call: CallOptions) -> list[tuple[Path, str]]:
    """Put every string the call's caller gave (above) in the conversation, one
    system-role input message per distinct string (after the input; a string given at
    several places is checked once, and each place gets what the processors left of
    it); their places with the id of their message (``lift_caller_texts`` puts them
    back)."""
    config = call.config
    found: list[tuple[Path, str]] = []
    caller = call.system_is_input
    for name in (*call.caller_tools, *call.listed_tools) if caller else call.listed_tools:
        tool = config.tools[name]
        found.extend(_strings(_definition(tool), ("tools", name)))
    for key, own in zip(("provider_options", "model_settings"), call.own_settings,
                        strict=True):
        if caller:
            found.extend((path, text) for path, text in _strings(getattr(config, key), (key,))
                         if _at(own, path[1:]) != text)
    messages: dict[str, Message] = {}
    for _, text in found:
        if text not in messages:
            messages[text] = Message._of("system", [TextPart(text)], {CALLER_TEXT: True})
    if messages:
        message_list.add(list(messages.values()), "input", keep_system=True)
    return [(path, messages[text].id) for path, text in found]


def lift_caller_texts(message_list: MessageList, paths: list[tuple[Path, str]],
                      call: CallOptions) -> None:
    """Take the messages ``add_caller_texts`` added out of the conversation and put
    their text, as the input processors left it, back in the call's tools, provider
    options and model settings (the call's own copies); a string whose message a
    processor removed becomes empty. (By id, whatever role a processor gave it.) Each
    mapping and list on the way to a string is copied once, however many strings it
    holds: the time is linear in what the caller gave."""
    added = {message_id for _, message_id in paths}
    texts = {m.id: m.text for m in message_list.all.db() if m.id in added}
    message_list.remove_by_ids(texts)
    config = call.config
    places: dict[Any, Any] = {}  # the paths as a tree: step -> subtree (a dict) or text
    for path, message_id in paths:
        node = places
        for step in path[:-1]:
            node = node.setdefault(step, {})
        node[path[-1]] = texts.get(message_id, "")
    for name, tree in places.get("tools", {}).items():
        tool = config.tools[name]
        definition = _replaced(_definition(tool), tree)
        config.tools[name] = attrs.evolve(tool, description=definition["description"],
                                          parameters=definition["parameters"],
                                          listed_fields=definition.get("listed_fields"))
    if "provider_options" in places:
        config.provider_options = _replaced(config.provider_options,
                                            places["provider_options"])
    if "model_settings" in places:
        config.model_settings = _replaced(config.model_settings, places["model_settings"])


def _definition(tool: Tool) -> dict[str, Any]:
    """What of a tool's definition is checked: its description, its parameters and
    what its server listed beside them (``Tool.listed_fields``)."""
    definition = {"description": tool.description, "parameters": tool.parameters}
    if tool.listed_fields:
        definition["listed_fields"] = tool.listed_fields
    return definition


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


def _replaced(value: Any, places: Mapping[Any, Any]) -> Any:
    """``value`` with the texts of ``places`` (a tree of steps, texts its leaves) at
    their places: a new mapping or list for each one along the way, copied once, the
    rest shared (``value`` itself, the caller's or the agent's, is not changed)."""
    items: Any = dict(value) if isinstance(value, Mapping) else list(value)
    for step, place in places.items():
        items[step] = place if isinstance(place, str) else _replaced(items[step], place)
    return items
