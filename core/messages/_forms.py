"""The forms a message takes outside storage: prompts and user-interface dicts.

The forms a message takes outside storage: the provider-facing ("core") dicts a model is
prompted with, and the dicts for user interfaces. The stored JSON form is
``tripwire.messages.serde``'s."""

from __future__ import annotations

from typing import Any

from tripwire.messages._types import (
    FilePart,
    Message,
    Part,
    ReasoningPart,
    TextPart,
    ToolInvocationPart,
)


def message_to_core(message: Message) -> list[dict[str, Any]]:
    """The provider-facing form of one message (an assistant message with tool
    results becomes the assistant message plus a ``tool`` message)."""
    if message.role == "system":
        return [{"role": "system", "content": message.text}]
    content: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for part in message.content.parts:
        if type(part) is TextPart:
            if part.text:
                content.append({"type": "text", "text": part.text})
        elif type(part) is FilePart:
            content.append({"type": "file", "data": part.data, "media_type": part.media_type})
        elif type(part) is ReasoningPart:
            reasoning: dict[str, Any] = {"type": "reasoning", "text": part.text}
            if part.provider_metadata:
                reasoning["provider_metadata"] = part.provider_metadata
            content.append(reasoning)
        elif type(part) is ToolInvocationPart:
            inv = part.tool_invocation
            if inv.state != "result":
                # A call that never ran has no result; providers reject it alone.
                continue
            content.append(
                {
                    "type": "tool-call",
                    "tool_call_id": inv.tool_call_id,
                    "tool_name": inv.tool_name,
                    "input": inv.args,
                }
            )
            result = {
                "type": "tool-result",
                "tool_call_id": inv.tool_call_id,
                "tool_name": inv.tool_name,
                "output": inv.result,
            }
            if inv.is_error:
                result["is_error"] = True
            results.append(result)
    if not content and isinstance(message.content.content, str) and message.content.content:
        content.append({"type": "text", "text": message.content.content})
    out: list[dict[str, Any]] = []
    if content:
        out.append({"role": message.role, "content": content})
    if results:
        out.append({"role": "tool", "content": results})
    return out


def message_to_ui(message: Message) -> dict[str, Any]:
    from tripwire.messages.serde import converter

    return {
        "id": message.id,
        "role": message.role,
        "parts": [converter.unstructure(p, Part) for p in message.content.parts],
        "metadata": message.content.metadata,
        "created_at": message.created_at.isoformat(),
    }
