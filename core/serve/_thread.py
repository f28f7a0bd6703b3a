"""The memory thread a client names with the ``X-Tripwire-Thread`` header.

A request with the header runs with the thread as its request context's
``THREAD_ID_KEY`` (its resource stays the key's tenant, never anything the client
sends), so the agent's memory loads the thread's earlier messages and saves the turn,
and a ``cost-guard`` scoped to the thread counts the thread's runs. The client then
sends only the turn's new messages, as with OpenAI's Assistants threads: a request
that holds a user message after an assistant message (a whole conversation, which the
thread would store a second time) is refused (``check_turn``), and so is a thread for
an agent without memory (``has_memory``).

A thread belongs to the tenant that first saved to it: another tenant naming it gets
a 404, as for a thread that does not exist (``THREAD_NOT_FOUND``), rather than a 403
that would confirm that someone else has it. Thread ids are client-chosen and never
logged or counted by the gateway.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from aiohttp import web

from tripwire.agent import Agent
from tripwire.memory import ThreadOwnerError
from tripwire.serve._request import BadRequest

__all__ = ["THREAD_HEADER", "THREAD_NOT_FOUND", "check_turn", "has_memory", "owner_error",
           "thread_of"]

#: The request header that names the request's memory thread.
THREAD_HEADER = "X-Tripwire-Thread"
#: What a thread id must look like: an identifier, such as a UUID (it is a key of the
#: memory store and the cost-guard's cache, so no spaces, slashes or control characters).
THREAD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
_RULE = "1-128 letters, digits, '_', '-', '.' or ':' (a UUID, for example)"

#: What a tenant naming another tenant's thread is told (404 ``thread_not_found``).
THREAD_NOT_FOUND = (f"No such thread: the thread {THREAD_HEADER} names is not one of this "
                    f"key's tenant; use another id (a new id starts a new thread).")


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
    ones, and nothing would check that the thread is the tenant's before thread-scoped
    state (a ``cost-guard`` budget) is shared under its id."""
    if agent.memory is not None:
        return True
    for processor_id in MEMORY_PROCESSORS:
        try:
            agent.resolve_processor(processor_id)
        except KeyError:
            continue
        return True
    return False


def check_turn(messages: Sequence[Any]) -> None:
    """``BadRequest`` for a thread's request whose messages (the body's ``messages``,
    already checked by ``parse_request``) hold a user message after an assistant
    message: that is a conversation the thread already holds, and saving it would
    store every earlier turn again. A turn's new messages are user (and system)
    messages, or an assistant's tool calls with the client's tool results."""
    answered = False
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant":
            answered = True
        elif role == "user" and answered:
            raise BadRequest(
                f"messages[{i}] is a user message after an assistant message: with "
                f"{THREAD_HEADER}, send only this turn's new messages (the thread holds "
                f"the earlier ones, and would store them again)", f"messages[{i}]")


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
