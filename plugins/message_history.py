"""``message-history``: the conversation so far, loaded before a run and saved after it.

Input (``process_input``): with a thread id in the request context, the last
``last_messages`` messages of the thread are added, oldest first, as source
``memory`` (ahead of this call's input; system messages and ids already in the list
are dropped). Without a thread id it does nothing.

Output (``process_output_result``, which runs once, after every other output
processor, only for a run that was accepted): the input and response messages of the
run are saved in one transaction and the thread is touched; tool calls that never got
a result, empty messages and retry-feedback signals are not saved. A tripwire
anywhere in the run (input, stream, step, result) ends the run before this hook, so
nothing of a tripped, retried-away or failed attempt is stored. ``read_only`` loads
but never saves.

A thread belongs to the resource it was first saved with: a call naming the thread
with another resource fails (``ThreadOwnerError``) before anything is loaded, so one
user cannot read another's thread by its id.
"""

from __future__ import annotations

import logging
from typing import Any

from tripwire import Processor, hookimpl
from tripwire.context import RequestContext
from tripwire.memory.common import check_owner, keepable, memory_ids, store_option
from tripwire.messages import MessageList
from tripwire.option_checks import NonNegativeInt, check

__all__ = ["MessageHistory"]

log = logging.getLogger("tripwire.memory")


class MessageHistory(Processor):
    """Load the thread's last messages before a run; save the accepted run after it.

    Options:
        store (str | MemoryStore, required): ``sqlite:///chat.db``, ``memory://``, a
            URL a store plugin registers (``postgresql://...``) or a store object.
        last_messages (int, default ``10``): how many earlier messages to load (0: load
            none, still save).
        read_only (bool, default ``False``): load but never save.

    Use it through ``tripwire.Memory`` (``Agent(memory=Memory(store=...))``), which
    puts it first among the input processors and last among the output processors.
    """

    id = "message-history"
    description = "Loads the thread's last messages before a run and saves accepted runs"

    def __init__(self, store: Any = None, last_messages: NonNegativeInt = 10,
                 read_only: bool = False) -> None:
        check("last_messages", last_messages, NonNegativeInt, owner=self.id)
        check("read_only", read_only, bool, owner=self.id)
        self.store = store_option(store, self.id)
        self.last_messages = last_messages
        self.read_only = read_only

    @hookimpl
    async def process_input(self, message_list: MessageList, request_context: RequestContext,
                            state: dict[str, Any]) -> None:
        thread_id, resource_id = memory_ids(request_context)
        if thread_id is None:
            return
        await check_owner(self.store, thread_id, resource_id)
        if not self.last_messages:
            return
        history = await self.store.last_messages(thread_id, self.last_messages)
        present = {m.id for m in message_list.all}
        fresh = [m for m in history if m.role != "system" and m.id not in present]
        message_list.add(fresh, "memory")
        state["loaded"] = len(fresh)

    @hookimpl
    async def process_output_result(self, message_list: MessageList,
                                    request_context: RequestContext,
                                    state: dict[str, Any]) -> None:
        thread_id, resource_id = memory_ids(request_context)
        if thread_id is None or self.read_only or state.get("saved"):
            return
        messages = keepable([*message_list.input.db(), *message_list.response.db()])
        await self.store.save_messages(thread_id, resource_id, messages)
        state["saved"] = len(messages)
        log.debug("message-history: saved %d messages to thread %s", len(messages), thread_id)
