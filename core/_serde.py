"""tripwire's one private cattrs converter: messages, parts and chunks to and from
plain JSON-ready dicts. Classes stay ignorant of their wire format."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import attrs
import cattrs
from cattrs.preconf.json import make_converter

from tripwire.chunks import Chunk, ToolCall, Usage
from tripwire.messages import (
    DataPart,
    FilePart,
    Message,
    Part,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocationPart,
)

converter = make_converter(omit_if_default=False)

_PART_CLASSES: dict[str, type] = {
    "text": TextPart,
    "reasoning": ReasoningPart,
    "tool-invocation": ToolInvocationPart,
    "file": FilePart,
    "step-start": StepStartPart,
}


def _unstructure_part(part: Any) -> dict[str, Any]:
    if isinstance(part, DataPart):
        return {"type": part.type, "data": converter.unstructure(part.data)}
    body = converter.unstructure_attrs_asdict(part)
    return {"type": part.type, **body}


def _structure_part(value: Any, _: Any) -> Any:
    if not isinstance(value, dict) or "type" not in value:
        raise ValueError(f"a message part must be a mapping with a 'type', got {value!r}")
    kind = value["type"]
    if isinstance(kind, str) and kind.startswith("data-"):
        return DataPart(kind, value.get("data"))
    cls = _PART_CLASSES.get(kind)
    if cls is None:
        valid = ", ".join([*_PART_CLASSES, "data-*"])
        raise ValueError(f"unknown message part type {kind!r}; valid: {valid}")
    body = {k: v for k, v in value.items() if k != "type"}
    return converter.structure_attrs_fromdict(body, cls)


for _cls in (*_PART_CLASSES.values(), DataPart):
    converter.register_unstructure_hook(_cls, _unstructure_part)
converter.register_unstructure_hook(Part, _unstructure_part)
converter.register_structure_hook(Part, _structure_part)


def _unstructure_any_payload(value: Any) -> Any:
    if attrs.has(type(value)):
        return converter.unstructure(value)
    if isinstance(value, dict):
        return {k: _unstructure_any_payload(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_unstructure_any_payload(v) for v in value]
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    return value


def chunk_to_dict(chunk: Chunk) -> dict[str, Any]:
    """A JSON-ready dict of a chunk (``Usage`` objects become mappings)."""
    return {
        "type": chunk.type,
        "payload": _unstructure_any_payload(chunk.payload),
        "run_id": chunk.run_id,
        "source": chunk.source,
        "transient": chunk.transient,
    }


def chunk_from_dict(value: Mapping[str, Any]) -> Chunk:
    """Inverse of ``chunk_to_dict``: usage mappings become ``Usage`` again."""
    payload = dict(value.get("payload") or {})
    if isinstance(payload.get("usage"), dict):
        payload["usage"] = Usage.coerce(payload["usage"])
    return Chunk(
        type=value["type"],
        payload=payload,
        run_id=value.get("run_id"),
        source=value.get("source", "AGENT"),
        transient=bool(value.get("transient", False)),
    )


def message_to_dict(message: Message) -> dict[str, Any]:
    return cast("dict[str, Any]", converter.unstructure(message))


def message_from_dict(value: dict[str, Any]) -> Message:
    """A ``Message`` from its stored dict form; a bad dict raises ``ValueError`` naming
    each problem and where it is."""
    try:
        return converter.structure(value, Message)
    except cattrs.BaseValidationError as e:
        problems = cattrs.transform_error(e, path="message", format_exception=_describe)
        raise ValueError("invalid message: " + "; ".join(problems)) from e


def _describe(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, KeyError):
        return f"required field missing ({exc.args[0]!r})" if exc.args else "required field missing"
    return str(exc) or type(exc).__name__


__all__ = [
    "converter",
    "chunk_to_dict",
    "chunk_from_dict",
    "message_to_dict",
    "message_from_dict",
    "ToolCall",
]
