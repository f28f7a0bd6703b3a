"""What the memory processors share.

The thread and resource of a call, the store option, and which messages of a run are
worth keeping. Public: the built-in memory processors use it, and so can a memory
processor of your own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripwire.context import RESOURCE_ID_KEY, THREAD_ID_KEY
from tripwire.errors import ConfigurationError
from tripwire.memory.store import MemoryStore, check_thread_owner
from tripwire.memory.urls import open_store
from tripwire.messages import Message, StepStartPart, ToolInvocationPart


def memory_ids(request_context: Mapping[str, Any] | None) -> tuple[str | None, str | None]:
    """``(thread_id, resource_id)`` of a call, from its request context (set by the
    ``memory={"thread": ..., "resource": ...}`` call option or by the caller under
    ``THREAD_ID_KEY`` / ``RESOURCE_ID_KEY``). A non-string or empty id is an error."""
    if request_context is None:
        return None, None
    out: list[str | None] = []
    for key in (THREAD_ID_KEY, RESOURCE_ID_KEY):
        value = request_context.get(key)
        if value is not None and (not isinstance(value, str) or not value):
            raise ConfigurationError(
                f"request context {key!r} must be a non-empty string, got {value!r}")
        out.append(value)
    return out[0], out[1]


async def check_owner(store: MemoryStore, thread_id: str, resource_id: str | None) -> None:
    """Refuse a call whose resource is not the one the thread was saved with."""
    if resource_id is None:
        return
    thread = await store.get_thread(thread_id)
    if thread is not None:
        check_thread_owner(thread_id, thread.resource_id, resource_id)


def store_option(store: Any, owner: str) -> MemoryStore:
    """The ``store`` option of a memory processor: a URL or a store object."""
    if store is None:
        raise ConfigurationError(
            f"{owner}: option 'store' is required: a URL such as 'sqlite:///chat.db' or a "
            f"MemoryStore")
    return open_store(store)


def keepable(messages: Sequence[Message]) -> list[Message]:
    """The messages of a run worth storing: tool calls that never got a result and
    messages left empty are dropped, as are retry-feedback signals (they speak of an
    attempt that was thrown away)."""
    out = []
    for m in messages:
        if m.role == "system":
            continue
        signal = (m.content.metadata or {}).get("signal")
        if isinstance(signal, Mapping) and \
                (signal.get("attributes") or {}).get("type") == "retry-feedback":
            continue
        parts = [p for p in m.content.parts
                 if not (type(p) is ToolInvocationPart and p.tool_invocation.state != "result")]
        if all(type(p) is StepStartPart for p in parts) and not m.content.content:
            continue
        if len(parts) != len(m.content.parts):
            import copy

            m = copy.copy(m)
            m.content = copy.copy(m.content)
            m.content.parts = parts
        out.append(m)
    return out
