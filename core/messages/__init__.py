"""Messages, their parts, and the ``MessageList`` that backs one agent run.

Messages and parts are mutable on purpose: processors may edit ``content.parts``
in place and the edit is seen by later processors and by storage. A processor
that wants to add, remove or reorder messages goes through ``MessageList``.

This module is the public place to import them from; they live in the package's
modules: ``_types`` (the parts, ``Message``, ids, coercion of strings and dicts),
``_list`` (``MessageList`` and its views), ``_forms`` (the provider-facing and UI
forms of a message) and ``serde`` (public: messages and chunks to and from JSON-ready dicts, for stores).
"""

from __future__ import annotations

from tripwire.messages._coerce import coerce_message
from tripwire.messages._forms import message_to_core, message_to_ui
from tripwire.messages._list import MessageList, MessageView
from tripwire.messages._types import (
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
    coerce_system,
    coerce_system_list,
    new_id,
    replace_untagged,
    signal_message,
)
from tripwire.messages._types import _ids as _ids

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
