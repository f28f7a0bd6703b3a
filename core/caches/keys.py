"""The response cache's key (``response-cache``): what a model's answer depends on, serialised stably and
hashed (``tripwire.build_response_cache_key``).

The reference's recipe: ``<prefix>:<agent id>[:<sha256(scope)[:8]>]:<sha256(stable JSON of
{agent, step, scope, model, prompt})[:32]>``, with the model as
``provider:model_id``. tripwire adds the rest of the model call to the hashed
inputs - the tools offered (name, description, parameter schema), ``tool_choice``,
``model_settings``, ``provider_options`` and ``structured_output`` - so two agents that
differ only in their tools or settings never share an entry. The instructions are in
the prompt (its system messages), so they count too.

Stable serialisation: mapping keys sorted, ``None`` values dropped; dates as ISO 8601;
sets sorted; enums by their value; a ``Tool`` by its name, description and parameters.
What has no JSON form of its own is a one-key object whose key starts with ``$``:
``bytes`` as ``{"$bytes": "<len>:<sha256>"}``, attrs classes and dataclasses as
``{"$type": <qualified name>, "fields": {...}}``, a class as ``{"$class": ...}``,
anything else as ``{"$repr": "<type>:<repr>"}`` (an object whose ``repr`` carries its
address gives a key that never hits again: a miss, never a wrong answer). A mapping's
own key that starts with ``$`` gets one more (``"$bytes"`` is written ``"$$bytes"``), so
no value can pass for another: a prompt whose file is the text
``"binary:5:<sha256 of the bytes>"`` or ``{"$bytes": ...}`` is not the prompt whose
file is those bytes.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from tripwire.tools import Tool

#: Prefix of every key ``build_response_cache_key`` builds.
KEY_PREFIX = "tripwire:response"
#: Prefix of every key of one's own (``ResponseCache(key=...)``):
#: ``tripwire:response-key[:scope:<scope>][:step:<n>]:key:<key>``. No derived key starts
#: with it (they all start ``tripwire:response:``, whatever the agent id), so the two
#: namespaces are disjoint: no key of one's own spells a derived key, nor the reverse.
CUSTOM_KEY_PREFIX = "tripwire:response-key"
#: The ``agent_id`` used when none is known.
DEFAULT_AGENT_ID = "tripwire-response-cache"

_FIELDS = (
    "agent_id",
    "model",
    "prompt",
    "step_number",
    "scope",
    "tools",
    "tool_choice",
    "model_settings",
    "provider_options",
    "structured_output",
)


@attrs.frozen
class ModelIdentity:
    """Which model answers: ``provider`` and ``model_id`` (``model.model_id`` in a key
    function, as in the reference)."""

    provider: str
    model_id: str

    @classmethod
    def of(cls, model: Any) -> ModelIdentity:
        if isinstance(model, ModelIdentity):
            return model
        if isinstance(model, Mapping):
            return cls(str(model.get("provider", "?")), str(model.get("model_id", "?")))
        if isinstance(model, str):
            provider, _, model_id = model.partition("/")
            return cls(provider, model_id) if model_id else cls("?", model)
        return cls(str(getattr(model, "provider", "?")), str(getattr(model, "model_id", "?")))

    def __str__(self) -> str:
        return f"{self.provider}:{self.model_id}"


@attrs.frozen
class CacheKeyInputs(Mapping[str, Any]):
    """What a key function receives: attributes (``inputs.model.model_id``) that also
    read as a mapping (``{**inputs, "scope": "global"}``), so a key function can pass
    changed inputs back to ``build_response_cache_key``."""

    agent_id: str
    model: ModelIdentity
    prompt: list[dict[str, Any]]
    step_number: int
    scope: str | None
    tools: dict[str, Any] = attrs.field(factory=dict)
    tool_choice: Any = None
    model_settings: Any = None
    provider_options: Any = None
    structured_output: Any = None

    def __getitem__(self, name: str) -> Any:
        if name not in _FIELDS:
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(_FIELDS)

    def __len__(self) -> int:
        return len(_FIELDS)


def build_response_cache_key(inputs: Mapping[str, Any] | None = None, /, **fields: Any) -> str:
    """The deterministic cache key of one model call.

    Give the inputs as a mapping (a key function's ``CacheKeyInputs``, or
    ``{**inputs, "scope": "global"}``) and/or as keywords (which win): ``agent_id``,
    ``model`` (a model object, ``"provider/model_id"`` or ``{"provider", "model_id"}``),
    ``prompt``, ``step_number``, ``scope`` (``None``: unscoped), and optionally
    ``tools``, ``tool_choice``, ``model_settings``, ``provider_options``,
    ``structured_output``. An unknown name is a ``TypeError`` listing the valid ones.

    ``tripwire:response:<agent_id>[:<sha256(scope)[:8]>]:<sha256(stable JSON)[:32]>``
    """
    merged = {**(dict(inputs) if inputs is not None else {}), **fields}
    unknown = sorted(set(merged) - set(_FIELDS))
    if unknown:
        raise TypeError(
            f"build_response_cache_key got unknown input(s) {', '.join(unknown)}; "
            f"valid: {', '.join(_FIELDS)}"
        )
    agent_id = str(merged.get("agent_id") or DEFAULT_AGENT_ID)
    scope = merged.get("scope")
    scope = None if scope is None else str(scope)
    tools = merged.get("tools") or {}
    if not isinstance(tools, Mapping):
        tools = {getattr(t, "name", str(i)): t for i, t in enumerate(tools)}
    body = {
        "agent": agent_id,
        "step": merged.get("step_number", 0),
        "scope": scope,
        "model": str(ModelIdentity.of(merged.get("model"))),
        "prompt": merged.get("prompt") or [],
        "tools": tools,
        "tool_choice": merged.get("tool_choice"),
        "model_settings": merged.get("model_settings"),
        "provider_options": merged.get("provider_options"),
        "structured_output": merged.get("structured_output"),
    }
    digest = hashlib.sha256(stable_json(body).encode()).hexdigest()[:32]
    parts = [KEY_PREFIX, agent_id]
    if scope is not None:
        parts.append(hashlib.sha256(scope.encode()).hexdigest()[:8])
    parts.append(digest)
    return ":".join(parts)


def stable_json(value: Any) -> str:
    """``value`` as JSON that is the same for equal inputs in any process: keys sorted,
    no whitespace, non-JSON values normalised (see the module docstring)."""
    return json.dumps(
        _normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True
    )


def _normalise(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return {_key(k): _normalise(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_normalise(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_normalise(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
        return {"$bytes": f"{len(data)}:{hashlib.sha256(data).hexdigest()}"}
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Tool):
        return {
            "name": value.name,
            "description": value.description,
            "parameters": _normalise(value.parameters),
        }
    if isinstance(value, enum.Enum):
        return _normalise(value.value)
    if isinstance(value, type):
        return {"$class": f"{value.__module__}.{value.__qualname__}"}
    if attrs.has(type(value)):
        fields = attrs.asdict(value, recurse=False)
    elif dataclasses.is_dataclass(value):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    else:
        return {"$repr": f"{type(value).__qualname__}:{value!r}"}
    return {"$type": type(value).__qualname__, "fields": _normalise(fields)}


def _key(key: Any) -> str:
    """A mapping key as written: a key of the caller's that starts with ``$`` gets one
    more, so it is never read as one of ``_normalise``'s tags (``$bytes``, ``$repr``)."""
    text = str(key)
    return "$" + text if text.startswith("$") else text


__all__ = [
    "CUSTOM_KEY_PREFIX",
    "CacheKeyInputs",
    "DEFAULT_AGENT_ID",
    "KEY_PREFIX",
    "ModelIdentity",
    "build_response_cache_key",
    "stable_json",
]
