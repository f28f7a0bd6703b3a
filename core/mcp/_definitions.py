"""A listed tool's definition: what is pinned, its digest, and what changed in it.

The definition is every field of a ``tools/list`` entry a model or a person reads:
the title, the description, the input and output schemas and the annotations
(``readOnlyHint``, ``destructiveHint``, ...). Pinning compares definitions as JSON, so
a reordered object is no change. ``Listing`` is what one listing came to, as the audit
records it (``tripwire.mcp.Listing``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

#: The fields of a listed tool that are pinned, as the protocol names them.
PINNED = ("title", "description", "inputSchema", "outputSchema", "annotations")

#: How many changed paths an error names before "and N more".
_SHOWN = 5


def definition(tool: Any) -> dict[str, Any]:
    """The pinned fields of an ``mcp.types.Tool``, as JSON data (absent ones as None)."""
    dumped = tool.model_dump(mode="json", by_alias=True, exclude_none=False)
    return {key: dumped.get(key) for key in PINNED}


def digest(value: dict[str, Any]) -> str:
    """``sha256:<hex>`` of a definition's canonical JSON (keys sorted)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def changes(before: Any, after: Any, path: str = "") -> list[str]:
    """The paths at which ``after`` differs from ``before`` (``description``,
    ``inputSchema.properties.q.description``, ``inputSchema.required[1]``): where the
    values are, never the values, which may be what an attacker wrote."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[str] = []
        for key in sorted(set(before) | set(after), key=str):
            out.extend(changes(before.get(key), after.get(key),
                               f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = []
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            out.extend(changes(a, b, f"{path}[{i}]"))
        return out
    return [] if before == after and type(before) is type(after) else [path or "(all)"]


def said(paths: list[str] | tuple[str, ...]) -> str:
    """Changed paths as an error names them: the first few, then how many more."""
    shown = ", ".join(paths[:_SHOWN])
    more = len(paths) - _SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


@attrs.frozen
class Listing:
    """What one listing of a server's tools came to, as the audit records it: the
    model's name and definition digest (``sha256:...``) of each tool offered; the
    tools refused because their definition changed since the agent first listed them,
    with what changed (paths such as ``description`` or ``inputSchema.properties.q``);
    and the tools withheld, with why (``deny``, ``not in allow``, ``name``,
    ``duplicate``)."""

    server: str
    offered: Mapping[str, str]
    refused: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    withheld: Mapping[str, str] = attrs.field(factory=dict)
