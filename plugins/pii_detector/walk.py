"""Where values sit: walks that apply a change to every string of a nested value
(tool arguments and results, the structured object: ``walk`` and ``strings`` are
``tripwire.guards.values.map_strings`` and ``strings``, the walk every guard uses), of a stored
message, or of a prompt message, and list the strings each of them visits. A text
document (``tripwire.guards.documents``) is one string: its decoded text, written back the way
the part held it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from tripwire.guards.documents import (
    decode_document,
    encode_document,
    is_text_media_type,
    read_document,
    write_document,
)
from tripwire.guards.values import map_strings as walk
from tripwire.guards.values import strings
from tripwire.messages import Message, ReasoningPart, TextPart, ToolInvocationPart

__all__ = ["edit_message", "message_strings", "prompt_content", "prompt_strings", "strings",
           "walk"]


def edit_message(message: Message, change: Callable[[str], str]) -> None:
    """Apply ``change`` to every text of ``message`` in place: text and reasoning
    parts, tool calls' arguments and results (a new ``ToolInvocation``, so the
    arguments a pending call runs with are not touched), text documents (decoded, and
    written back in their encoding when changed), ``content.content``."""
    for part in message.content.parts:
        if type(part) is TextPart or type(part) is ReasoningPart:
            new = change(part.text)
            if new is not part.text:
                part.text = new
        elif type(part) is ToolInvocationPart:
            inv = part.tool_invocation
            args, result = walk(inv.args, change), walk(inv.result, change)
            if args is not inv.args or result is not inv.result:
                part.tool_invocation = attrs.evolve(inv, args=args, result=result)
        elif (held := read_document(part)) is not None:
            text, encoding = held
            new = change(text)
            if new != text:
                write_document(part, new, encoding)
    content = message.content.content
    if isinstance(content, str):
        new = change(content)
        if new is not content:
            message.content.content = new


def message_strings(message: Message) -> Iterable[str]:
    """The texts ``edit_message`` visits."""
    for part in message.content.parts:
        if type(part) is TextPart or type(part) is ReasoningPart:
            yield part.text
        elif type(part) is ToolInvocationPart:
            yield from strings(part.tool_invocation.args)
            yield from strings(part.tool_invocation.result)
        elif (held := read_document(part)) is not None:
            yield held[0]
    if isinstance(message.content.content, str):
        yield message.content.content


#: Where values sit in a prompt part (the rest, ids, names, is left alone; a text
#: file's data is read with ``_file_text``).
_PROMPT_KEYS = {"text": "text", "reasoning": "text", "tool-call": "input",
                "tool-result": "output"}


def prompt_strings(entry: dict[str, Any]) -> Iterable[str]:
    """The texts of one prompt message that ``prompt_content`` visits."""
    content = entry.get("content")
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            key = _PROMPT_KEYS.get(str(part.get("type"))) if isinstance(part, dict) else None
            if key is not None:
                yield from strings(part.get(key))
            elif (held := _file_text(part)) is not None:
                yield held[0]


def prompt_content(content: Any, change: Callable[[str], str]) -> Any:
    """A prompt message's content with ``change`` applied to its texts, tool inputs
    and outputs and text files (new dicts where something changed: the prompt is not
    the stored history); ``content`` itself when nothing changed."""
    if isinstance(content, str):
        return change(content)
    if not isinstance(content, list):
        return content
    out = []
    for part in content:
        key = _PROMPT_KEYS.get(str(part.get("type"))) if isinstance(part, dict) else None
        if key is not None and key in part:
            value = walk(part[key], change)
            part = part if value is part[key] else {**part, key: value}
        elif (held := _file_text(part)) is not None:
            text, encoding = held
            new = change(text)
            if new != text:
                part = {**part, "data": encode_document(new, encoding, part["data"])}
        out.append(part)
    return content if all(a is b for a, b in zip(out, content, strict=True)) else out


def _file_text(part: Any) -> tuple[str, str] | None:
    """``(text, encoding)`` of a prompt's text file part, else None."""
    if not (isinstance(part, dict) and part.get("type") == "file"
            and isinstance(part.get("data"), str) and is_text_media_type(part.get("media_type"))):
        return None
    return decode_document(part["data"])
