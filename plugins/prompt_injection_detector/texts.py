"""The texts ``prompt-injection-detector`` checks, and where a cleaned one goes back.

``as_text`` is what is scanned of a value (a tool result, a ``DataPart``'s data:
``tripwire.guards.documents.value_text``), ``Item`` one text a hook checks with where it came
from. ``set_text`` puts a text cleaned by ``strategy = "rewrite"`` back into its
message. A document's text is read and written back with ``tripwire.guards.documents``.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from tripwire.guards.documents import value_text as as_text
from tripwire.messages import Message, TextPart
from tripwire.plugins.prompt_injection_detector.scan import Analysis

__all__ = ["Item", "as_text", "is_json", "set_text"]

@attrs.define
class Item:
    """One text a hook checks: its message, its part (a document) or neither (the
    message's text, a tool result), what the heuristics and the judge are given."""

    text: str
    channel: str
    analysis: Analysis
    message: Message | None = None
    part: Any = None
    encoding: str = "text"


def is_json(value: Any) -> bool:
    """Whether ``value`` is read as JSON: a structured value (scanned as its JSON
    form), or a string holding a JSON object or array (a tool result as the OpenAI wire
    carries it, or a tool that returns JSON text). In JSON the quotes around every
    string are syntax, not quotations."""
    if isinstance(value, bytes | bytearray) or value is None:
        return False
    if not isinstance(value, str):
        return True
    text = value.strip()
    if not (text[:1] == "{" and text[-1:] == "}" or text[:1] == "[" and text[-1:] == "]"):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def set_text(message: Message, cleaned: str) -> None:
    """Replace the message's text in place (one text part where the first was, and
    ``content.content`` when it had one)."""
    parts = message.content.parts
    first = next((i for i, p in enumerate(parts) if type(p) is TextPart), None)
    rest = [p for p in parts if type(p) is not TextPart]
    if first is None:
        message.content.content = cleaned
    else:
        rest.insert(first, TextPart(cleaned))
        message.content.parts = rest
        if isinstance(message.content.content, str):
            message.content.content = cleaned
