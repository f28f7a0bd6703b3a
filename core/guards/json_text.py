"""Finding the JSON value in a model's reply: the whole text, a fenced code block, or
the first complete value after leading prose.

Shared by the ``structured-output`` processor (``tripwire.plugins.structured_output``
re-exports both names) and the judge (``tripwire.guards.judge``).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["NoJSONFound", "extract_json"]


class NoJSONFound(ValueError):
    """The text holds no JSON value."""


_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n(.*?)(?:```|\Z)", re.S)
_START = re.compile(r"[\[{]")
_MAX_SCAN = 200


def extract_json(text: str) -> Any:
    """The JSON value in a model's reply.

    Tried in order: the whole text; each fenced code block (```json first, then
    untagged or other tags; an unclosed fence at the end counts, as a stream cut off
    leaves it); the first ``{``/``[`` from which a complete JSON value decodes, so
    leading and trailing prose are ignored. Raises ``NoJSONFound`` otherwise.
    """
    if not isinstance(text, str) or not text.strip():
        raise NoJSONFound("the answer is empty; expected a JSON value")
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    fences = sorted(_FENCE.finditer(text), key=lambda m: m.group(1).lower() != "json")
    for m in fences:
        block = m.group(2).strip()
        if not block:
            continue
        try:
            return json.loads(block)
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    for i, m in enumerate(_START.finditer(text)):
        if i >= _MAX_SCAN:
            break
        try:
            value, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
        return value
    raise NoJSONFound(
        f"no JSON value found in the answer (it starts {stripped[:60]!r}); expected a JSON value"
    )
