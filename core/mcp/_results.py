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


def call_result(value: Any, *, is_error: bool = False) -> Any:
    """An ``mcp.types.CallToolResult`` for a tool's result as the run left it (the
    inverse of ``result_value``, for ``tripwire mcp-proxy``'s clients): a text as a
    text block, an object as structured content (and its JSON text), parts as their
    blocks, anything else as its JSON text. ``is_error``: the text of a tool's error."""
    import mcp_types as types

    from tripwire.messages.serde import plain_value

    def text(value: str) -> Any:
        return types.TextContent(type="text", text=value)

    if is_error or isinstance(value, str):
        return types.CallToolResult(content=[text(str(value))], is_error=is_error)
    if isinstance(value, dict):
        plain = plain_value(value, for_model=True)
        return types.CallToolResult(content=[text(json.dumps(plain, ensure_ascii=False))],
                                    structured_content=plain)
    if isinstance(value, list) and value and all(
            isinstance(p, dict) and p.get("type") in _BLOCKS for p in value):
        blocks: list[Any] = []
        structured = None
        for part in value:
            kind = part["type"]
            if kind == "structured":
                structured = plain_value(part.get("data"), for_model=True)
            elif kind == "text":
                blocks.append(text(str(part.get("text", ""))))
            elif kind == "file":
                data = _encoded(part.get("data"))
                media = str(part.get("media_type") or "application/octet-stream")
                block = types.AudioContent if media.startswith("audio/") else types.ImageContent
                blocks.append(block(data=data, mime_type=media))
            elif kind == "resource":
                common = {"uri": str(part.get("uri")), "mime_type": part.get("media_type")}
                contents: Any = (
                    types.TextResourceContents(text=str(part["text"]), **common)
                    if "text" in part else
                    types.BlobResourceContents(blob=_encoded(part.get("data")), **common))
                blocks.append(types.EmbeddedResource(type="resource", resource=contents))
            else:
                blocks.append(types.ResourceLink(
                    type="resource_link", uri=str(part.get("uri")), name=str(part.get("name")),
                    description=part.get("description"), mime_type=part.get("media_type")))
        return types.CallToolResult(content=blocks, structured_content=structured)
    plain = plain_value(value, for_model=True)
    return types.CallToolResult(content=[text(plain if isinstance(plain, str) else
                                              json.dumps(plain, ensure_ascii=False))])


#: The part types ``result_value`` makes.
_BLOCKS = frozenset({"text", "file", "resource", "resource-link", "structured"})


def _encoded(data: Any) -> str:
    if isinstance(data, bytes | bytearray):
        return base64.b64encode(data).decode("ascii")
    return base64.b64encode(str(data).encode()).decode("ascii")
