"""A ``tools/call`` result as the value the model, the guards and the client read.

A result with one text block is that text. Anything else is a list of parts, each a
dict with a ``type``: ``{"type": "text", "text"}``; an image or audio block as
``{"type": "file", "media_type", "data"}`` with the bytes decoded; an embedded resource
as ``{"type": "resource", "uri", "media_type", "text"}`` (or ``"data"``: bytes, for a
blob); a resource link as ``{"type": "resource-link", "uri", "name", "description",
"media_type"}``; structured content as ``{"type": "structured", "data"}``. Structured
content whose text blocks only repeat it as JSON (what the protocol asks servers to
send beside it) is the object itself. Every string of it is text the guards check
(URIs and names too); bytes that are not text are left to the model and the client.

``isError`` results become a ``ToolError`` whose message holds the server's text, so
it passes ``process_tool_result`` as a result does (``tripwire.errors.ToolError``).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from tripwire.errors import ToolError


def result_value(server: str, tool: str, result: Any, max_bytes: int) -> Any:
    """The value of an ``mcp.types.CallToolResult`` (above); ``ToolError`` for an
    ``isError`` result, one over ``max_bytes`` or one that does not decode."""
    where = f"tool {tool!r} of MCP server {server!r}"
    size = _size(result)
    if size > max_bytes:
        raise ToolError(f"{where} answered with {size} bytes, more than its "
                        f"max_result_bytes ({max_bytes}); the result is not used")
    parts = [_part(where, block) for block in result.content]
    if result.is_error:
        text = "\n".join(p["text"] if p["type"] == "text" else json.dumps(
            {k: v for k, v in p.items() if not isinstance(v, bytes)}, ensure_ascii=False)
            for p in parts)
        raise ToolError(f"{where} answered with an error: {text or '(no text)'}")
    structured = result.structured_content
    if structured is not None:
        if all(p["type"] == "text" and _json(p["text"]) == structured for p in parts):
            return structured
        parts.append({"type": "structured", "data": structured})
    if len(parts) == 1 and parts[0]["type"] == "text":
        return parts[0]["text"]
    return parts


def _part(where: str, block: Any) -> dict[str, Any]:
    kind = block.type
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind in ("image", "audio"):
        return {"type": "file", "media_type": block.mime_type,
                "data": _decoded(where, block.data)}
    if kind == "resource":
        resource = block.resource
        part = {"type": "resource", "uri": str(resource.uri),
                "media_type": resource.mime_type}
        if getattr(resource, "text", None) is not None:
            part["text"] = resource.text
        else:
            part["data"] = _decoded(where, resource.blob)
        return part
    if kind == "resource_link":
        return {"type": "resource-link", "uri": str(block.uri), "name": block.name,
                "description": block.description, "media_type": block.mime_type}
    raise ToolError(f"{where} answered with a content block of type {kind!r}, which "
                    f"tripwire does not read (text, image, audio, resource, resource_link)")


def _decoded(where: str, data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ToolError(f"{where} sent a malformed message: a data block that is not "
                        f"base64") from None


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _NOT_JSON


_NOT_JSON = object()


def _size(result: Any) -> int:
    """The size of a result's text and data as sent (base64 counted as sent)."""
    size = 0
    for block in result.content:
        for attr in ("text", "data", "uri", "name", "description"):
            value = getattr(block, attr, None)
            if isinstance(value, str):
                size += len(value)
        resource = getattr(block, "resource", None)
        if resource is not None:
            body = getattr(resource, "text", None) or getattr(resource, "blob", None)
            size += len(body) if isinstance(body, str) else 0
    if result.structured_content is not None:
        size += len(json.dumps(result.structured_content, ensure_ascii=False))
    return size
