"""What users naturally pass as a message (a ``Message``, a string, a ``{role, content}``
dict or a message in its stored form) as a ``Message``."""

from __future__ import annotations

from typing import Any

from tripwire.messages._types import Message, Role, TextPart


def coerce_message(value: Message | str | dict[str, Any], *, role: Role = "user") -> Message:
    """Accept what users naturally pass: a Message, a string, or a ``{role, content}`` dict."""
    if isinstance(value, Message):
        return value
    if isinstance(value, str):
        return Message._of(role, [TextPart(value)], None)
    if isinstance(value, dict):
        if "id" in value and "content" in value and isinstance(value["content"], dict):
            from tripwire.messages.serde import message_from_dict

            return message_from_dict(value)
        msg_role = value.get("role", role)
        content = value.get("content", "")
        if msg_role not in ("user", "assistant", "system", "tool"):
            raise ValueError(
                f"message role must be one of user, assistant, system, tool; got {msg_role!r}"
            )
        if isinstance(content, str):
            return Message._of(msg_role, [TextPart(content)], None)
        raise ValueError(
            "a message dict needs 'content' as a string, or the full stored form "
            "(id, role, content: {parts: [...]}, created_at)"
        )
    raise TypeError(
        f"expected a Message, a str or a dict, got {type(value).__name__}: {value!r}"
    )
