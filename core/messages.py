"""Messages, their parts, and the ``MessageList`` that backs one agent run.

Messages and parts are mutable on purpose: processors may edit ``content.parts``
in place and the edit is seen by later processors and by storage. A processor
that wants to add, remove or reorder messages goes through ``MessageList``.

This module is the public place to import them from; they live in three modules:
``_message_types`` (the parts, ``Message``, ids, coercion of strings and dicts),
``_message_list`` (``MessageList`` and its views) and ``_message_forms`` (the
provider-facing and UI forms of a message).
"""

from __future__ import annotations

from tripwire._message_forms import message_to_core, message_to_ui
from tripwire._message_list import MessageList, MessageView
from tripwire._message_types import (
    SOURCES,
    DataPart,
    FilePart,
    Message,
    MessageContent,
    Part,
    ReasoningPart,
    Role,
    Source,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    coerce_message,
    coerce_system,
    coerce_system_list,
    new_id,
    replace_untagged,
    signal_message,
)
from tripwire._message_types import _ids as _ids

__all__ = [
    "SOURCES",
    "DataPart",
    "FilePart",
    "Message",
    "MessageContent",
    "MessageList",
    "MessageView",
    "Part",
    "ReasoningPart",
    "Role",
    "Source",
    "StepStartPart",
    "TextPart",
    "ToolInvocation",
    "ToolInvocationPart",
    "coerce_message",
    "coerce_system",
    "coerce_system_list",
    "message_to_core",
    "message_to_ui",
    "new_id",
    "replace_untagged",
    "signal_message",
]
