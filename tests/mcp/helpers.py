"""Helpers of the MCP tests."""

from __future__ import annotations

import os
from typing import Any

from tripwire.testing import MockResponse


def calls(*tools: tuple[str, dict[str, Any]] | str, text: str = "done") -> list[MockResponse]:
    """A model that calls each tool in turn (a step each), then answers ``text``."""
    out = []
    for i, item in enumerate(tools):
        name, args = (item, {}) if isinstance(item, str) else item
        out.append(MockResponse(tool_calls=[{"tool_name": name, "args": args,
                                             "tool_call_id": f"call-{i}"}]))
    return [*out, MockResponse(text=text)]


def alive(pid: int) -> bool:
    """Whether a process with this id exists (and is no zombie of ours)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def tool_text(model: Any, i: int) -> list[Any]:
    """The tool results the model was sent in its ``i``-th request."""
    return [part.get("output") for message in model.requests[i].prompt
            if message["role"] == "tool" for part in message["content"]]
