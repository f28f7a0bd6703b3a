"""The memory thread a client names with the ``X-Tripwire-Thread`` header.

A request with the header runs with the thread as its request context's
``THREAD_ID_KEY`` (its resource stays the key's tenant, never anything the client
sends), so the agent's memory loads the thread's earlier messages and saves the turn,
and a ``cost-guard`` scoped to the thread counts the thread's runs. The client then
sends only the turn's new messages, as with OpenAI's Assistants threads: a request
that holds a user message after an assistant message, or an assistant's tool calls after
a user message (a whole conversation, which the thread would store a second time) is
refused (``check_turn``), and so is a thread for an agent without memory
(``has_memory``). A turn that answers tool calls stores only the calls of the
assistant message it sends (``answered_calls``): the thread holds its text already.

Each tenant has its own namespace of thread ids: tenant T naming X runs the thread
``T/X`` (``store_thread_id``; X holds no "/", so the store id is unambiguous whatever
T holds), so two tenants naming the same X get two threads, each with its own
thread-scoped cost-guard counters, and no tenant can learn whether an id is used by
another, nor take it first. Without keys there are no tenants: the thread is X. The
store can still hold ``T/X`` for another resource (an in-process application sharing
the store named it so): that request is a 404 (``THREAD_NOT_FOUND``), with nothing
loaded, saved or sent upstream. Thread ids are client-chosen and never logged or
counted by the gateway.
"""
from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from tripwire.agent import Agent
from tripwire.memory import MemoryStore, ThreadOwnerError
from tripwire.messages import Message, ToolInvocationPart
from tripwire.serve._codec import BadRequest

__all__ = ["THREAD_HEADER", "THREAD_NOT_FOUND", "answered_calls", "check_turn", "has_memory",
           "memory_store", "owner_error", "store_thread_id", "thread_of"]

#: The request header that names the request's memory thread.
THREAD_HEADER = "X-Tripwire-Thread"
#: What a thread id must look like: an identifier, such as a UUID (it is part of a key
#: of the memory store and the cost-guard's cache, so no spaces or control characters;
#: no "/" either, which separates it from the tenant in ``store_thread_id``).
THREAD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
_RULE = "1-128 letters, digits, '_', '-', '.' or ':' (a UUID, for example)"

#: What a request is told when the store holds its thread for another resource than the
#: key's tenant (404 ``thread_not_found``): an in-process application sharing the store
#: saved it so; another tenant's requests never reach it (``store_thread_id``).
THREAD_NOT_FOUND = (f"No such thread: the memory store holds the thread {THREAD_HEADER} "
                    f"names for another resource than this key's tenant; use another id "
                    f"(a new id starts a new thread).")


def thread_of(request: web.Request) -> str | None:
    """The thread id of the request's ``X-Tripwire-Thread`` header (None: no header);
    ``BadRequest`` for a header given twice or an id that is not ``THREAD_ID``. The
    message never repeats the value (it may be anything)."""
    values = request.headers.getall(THREAD_HEADER, [])
    if not values:
        return None
    if len(values) > 1:
        raise BadRequest(f"The {THREAD_HEADER} header is given {len(values)} times; give it "
                         f"once, naming one thread ({_RULE}).")
    if not THREAD_ID.fullmatch(values[0]):
        raise BadRequest(f"The {THREAD_HEADER} header must be a thread id of {_RULE}, got "
                         f"{_describe(values[0])}.")
    return values[0]


def store_thread_id(tenant: str | None, thread: str) -> str:
    """The memory store's id (the request's ``THREAD_ID_KEY``) of the thread a client
    names ``thread``, for a key of ``tenant`` (None: no keys are configured):
    ``"TENANT/THREAD"``, so each tenant has its own namespace of thread ids; ``thread``
    itself without a tenant. ``thread`` is a ``THREAD_ID`` (no "/"), so the id is
    unambiguous whatever the tenant's name holds: its last "/" ends the tenant."""
    return thread if tenant is None else f"{tenant}/{thread}"


def _describe(value: str) -> str:
    """What is wrong with a header value, without repeating it."""
    if not value.strip():
        return "an empty or blank value"
    if len(value) > 128:
        return f"{len(value)} characters"
    bad = next(c for c in value if not THREAD_ID.fullmatch(c))
    return f"a value with the character {bad!r}" if bad.isprintable() and bad != " " \
        else f"a value with the character U+{ord(bad):04X}"


#: The processors that keep a thread (``tripwire.Memory`` adds them).
MEMORY_PROCESSORS = ("message-history", "working-memory", "semantic-recall")


def has_memory(agent: Agent) -> bool:
    """Whether the agent keeps memory threads (``Agent(memory=...)``, or a memory
    processor in its lists). A thread for an agent without is refused: its client,
    sending only the turn's new messages, would leave the model without the earlier
    ones."""
    if agent.memory is not None:
        return True
    for processor_id in MEMORY_PROCESSORS:
        try:
            agent.resolve_processor(processor_id)
        except KeyError:
            continue
        return True
    return False


#: ``memory_store``'s answer per agent (an agent's processors do not change once it is
#: built; finding them takes longer than the rest of a request's parsing).
_STORES: weakref.WeakKeyDictionary[Agent, MemoryStore | None] = weakref.WeakKeyDictionary()


def memory_store(agent: Agent) -> MemoryStore | None:
    """The memory store an agent keeps its threads in (``Agent(memory=...)``'s, or its
    memory processor's); None for an agent without memory."""
    try:
        return _STORES[agent]
    except KeyError:
        store = _STORES[agent] = _find_store(agent)
        return store


def _find_store(agent: Agent) -> MemoryStore | None:
    if agent.memory is not None:
        return agent.memory.store
    for processor_id in MEMORY_PROCESSORS:
        try:
            processor = agent.resolve_processor(processor_id)
        except KeyError:
            continue
        store = getattr(processor, "store", None)
        if isinstance(store, MemoryStore):
            return store
    return None


def check_turn(messages: Sequence[Any]) -> None:
    """``BadRequest`` for a thread's request whose messages (the body's ``messages``,
    already checked by ``parse_request``) hold a user message after an assistant
    message, or an assistant's tool calls after a user message: that is a
    conversation the thread already holds (the calls answer an earlier turn, which
    began with that user message), and saving it would store every earlier turn
    again. A turn's new messages are user (and system) messages, or an assistant's
    tool calls with the client's tool results."""
    answered = asked = False
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant":
            if asked and message.get("tool_calls"):
                raise BadRequest(
                    f"messages[{i}] is an assistant's tool calls after a user message: "
                    f"with {THREAD_HEADER}, answer the calls with only the assistant's "
                    f"tool_calls message and the tool messages (the thread holds the "
                    f"user message before them, and would store it again)", f"messages[{i}]")
            answered = True
        elif role == "user":
            if answered:
                raise BadRequest(
                    f"messages[{i}] is a user message after an assistant message: with "
                    f"{THREAD_HEADER}, send only this turn's new messages (the thread holds "
                    f"the earlier ones, and would store them again)", f"messages[{i}]")
            asked = True


def answered_calls(messages: Sequence[Message]) -> None:
    """A thread's turn that answers tool calls (``check_turn``): its assistant messages
    keep only their calls (the client's results in them). The turn that made the calls
    stored the assistant's text and reasoning already (a call is stored once it has its
    result), so the copy the client sends with the calls would be in the thread twice,
    and the model would read it twice on every later turn."""
    for message in messages:
        if message.role == "assistant" and message.tool_invocations:
            message.content.parts = [p for p in message.content.parts
                                     if type(p) is ToolInvocationPart]
            message.content.content = None


def owner_error(error: BaseException) -> ThreadOwnerError | None:
    """The ``ThreadOwnerError`` a run's error is or was caused by (a memory processor's
    ``ProcessorError`` chains it), or None."""
    seen: BaseException | None = error
    for _ in range(8):  # a chain, never a cycle
        if seen is None:
            return None
        if isinstance(seen, ThreadOwnerError):
            return seen
        seen = seen.__cause__
    return None
