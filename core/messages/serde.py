"""Messages, parts and chunks to and from plain JSON-ready dicts, through tripwire's
one cattrs converter. Classes stay ignorant of their wire format.

Public, for stores and processors: ``message_to_dict`` / ``message_from_dict`` (what a
memory store keeps), ``chunk_to_dict`` / ``chunk_from_dict``, and ``structure`` (an
attrs class or dataclass of your own built from JSON-ready data).
"""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar, cast

import attrs
import cattrs
from cattrs.preconf.json import make_converter

from tripwire.chunks import Chunk, ToolCall, Usage
from tripwire.messages._types import (
    DataPart,
    FilePart,
    Message,
    Part,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)

T = TypeVar("T")

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


# ---------------------------------------------------------------- tool results
#
# A tool result is any value a tool returned (``ToolInvocation.result: Any``); its stored
# form must bring bytes back as bytes (cattrs' JSON converter writes them as base85 text,
# which a later turn could not tell from a string). Bytes and bytearrays are stored as a
# one-key object naming their type, base64 inside; a dict of the tool's that happens to
# be such an object is wrapped in ``{"$dict": ...}`` so it comes back as it was.

_BYTES, _BYTEARRAY, _DICT = "$bytes", "$bytearray", "$dict"
_TAGS = frozenset({_BYTES, _BYTEARRAY, _DICT})


def _fields(value: Any) -> dict[str, Any] | None:
    """An attrs or dataclass instance's fields by name (None for anything else)."""
    cls = type(value)
    if attrs.has(cls):
        return {f.name: getattr(value, f.name) for f in attrs.fields(cls)}
    if dataclasses.is_dataclass(cls):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return None


def plain_value(value: Any, *, for_model: bool = False) -> Any:
    """``value`` as JSON data, the way tripwire stores a tool result (and, with
    ``for_model``, the way a model is shown it): attrs / dataclass instances become
    mappings of their fields, tuples and sets lists, dates ISO text (the JSON
    converter's unstructuring); bytes the tagged form above, or for a model their UTF-8
    text (base64 when they are not text). A value with no JSON form (a generator, a
    socket) is returned as it is, for ``json.dumps`` to refuse."""
    if isinstance(value, str | int | float | type(None)):
        return value
    if isinstance(value, bytes | bytearray):
        if for_model:
            try:
                return bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                return base64.b64encode(value).decode("ascii")
        tag = _BYTEARRAY if isinstance(value, bytearray) else _BYTES
        return {tag: base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        out = {k: plain_value(v, for_model=for_model) for k, v in value.items()}
        if not for_model and len(out) == 1 and next(iter(out)) in _TAGS:
            return {_DICT: out}
        return out
    if isinstance(value, list | tuple | set | frozenset):
        return [plain_value(v, for_model=for_model) for v in value]
    fields = _fields(value)
    if fields is not None:
        return plain_value(fields, for_model=for_model)
    return converter.unstructure(value)


def value_from_plain(value: Any) -> Any:
    """Inverse of ``plain_value`` for a stored tool result: tagged bytes and
    bytearrays come back as such, a ``$dict``-wrapped mapping as the mapping."""
    if isinstance(value, list):
        return [value_from_plain(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((key, inner),) = value.items()
        if key in (_BYTES, _BYTEARRAY) and isinstance(inner, str):
            data = base64.b64decode(inner)
            return bytearray(data) if key == _BYTEARRAY else data
        if key == _DICT and isinstance(inner, dict):
            return {k: value_from_plain(v) for k, v in inner.items()}
    return {k: value_from_plain(v) for k, v in value.items()}


def _unstructure_invocation(inv: ToolInvocation) -> dict[str, Any]:
    body = converter.unstructure_attrs_asdict(attrs.evolve(inv, result=None))
    body["result"] = plain_value(inv.result)
    return body


def _structure_invocation(value: Any, _: Any) -> ToolInvocation:
    inv = converter.structure_attrs_fromdict(value, ToolInvocation)
    inv.result = value_from_plain(inv.result)
    return inv


converter.register_unstructure_hook(ToolInvocation, _unstructure_invocation)
converter.register_structure_hook(ToolInvocation, _structure_invocation)


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


#: The chunk types whose ``usage`` is a ``Usage``.
_USAGE_CHUNKS = frozenset({"step-finish", "finish"})


def chunk_from_dict(value: Mapping[str, Any]) -> Chunk:
    """Inverse of ``chunk_to_dict``: the usage of a ``step-finish`` or ``finish`` chunk
    becomes a ``Usage`` again (another chunk's ``usage`` key is its payload's own)."""
    payload = dict(value.get("payload") or {})
    if value.get("type") in _USAGE_CHUNKS and isinstance(payload.get("usage"), dict):
        payload["usage"] = Usage.coerce(payload["usage"])
    return Chunk(
        type=value["type"],
        payload=payload,
        run_id=value.get("run_id"),
        source=value.get("source", "AGENT"),
        transient=bool(value.get("transient", False)),
    )


def message_to_dict(message: Message) -> dict[str, Any]:
    """A JSON-ready dict of a message, as a store keeps it (``message_from_dict`` reads
    it back)."""
    return cast("dict[str, Any]", converter.unstructure(message))


def message_from_dict(value: dict[str, Any]) -> Message:
    """A ``Message`` from its stored dict form; a bad dict raises ``ValueError`` naming
    each problem and where it is."""
    try:
        return converter.structure(value, Message)
    except cattrs.BaseValidationError as e:
        problems = cattrs.transform_error(e, path="message", format_exception=_describe)
        raise ValueError("invalid message: " + "; ".join(problems)) from e


def structure(value: Any, cls: type[T]) -> T:
    """An instance of ``cls`` (an attrs class or a dataclass) built from JSON-ready
    ``value`` by tripwire's converter; cattrs' validation errors are raised as they are."""
    return converter.structure(value, cls)


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
    "plain_value",
    "structure",
    "value_from_plain",
    "ToolCall",
]
