"""``semantic-recall``: earlier messages similar to the new one, found by embedding.

Before a run (``process_input``) the text of the last user message is embedded and
the ``top_k`` most similar stored messages are found (cosine, exact) within the
resource (``scope="resource"``, the default) or the thread; hits below ``threshold``
are dropped. Each hit comes with ``message_range`` neighbours. Messages already in the
list are dropped; hits from this thread are added as ``memory`` messages; hits from
other threads become one system message tagged ``memory``: "The following messages
were remembered from a different conversation: <remembered_from_other_conversation>
...". After an accepted run (``process_output_result``) the run's messages are
embedded and their vectors stored (it goes in both lists; ``tripwire.Memory`` does it).

Embeddings are cached by a hash of the text (``CachedEmbedder``). As in the reference,
an embedder or store failure is logged and never fails the run: recall is a help, not
a gate.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from tripwire import Processor, hookimpl
from tripwire.context import RequestContext
from tripwire.errors import ConfigurationError
from tripwire.memory.common import check_owner, keepable, memory_ids, store_option
from tripwire.memory.embedders import CachedEmbedder, resolve_embedder
from tripwire.memory.store import VectorRow
from tripwire.messages import Message, MessageList
from tripwire.option_checks import NonNegativeInt, PositiveInt, check, check_choice

__all__ = ["SemanticRecall", "OTHER_THREAD_INTRO"]

log = logging.getLogger("tripwire.memory")

OTHER_THREAD_INTRO = "The following messages were remembered from a different conversation:"


class SemanticRecall(Processor):
    """Recall similar earlier messages before a run; index the run's messages after it.

    Options:
        store (str | MemoryStore, required): where messages and vectors live.
        embedder (str | Embedder, required): a router id (``"hashing"``,
            ``"openai/text-embedding-3-small"``) or an object with a ``name`` and
            ``async embed(texts) -> list[list[float]]``.
        top_k (int, default 4): how many hits.
        message_range (int | {"before", "after"}, default 1): neighbours fetched with
            each hit.
        scope (``"resource"`` | ``"thread"``, default ``"resource"``): where to search
            (resource scope without a resource id searches the thread).
        threshold (float | None, default None): the lowest cosine similarity kept.
        index_name (str | None): the vector index (default ``memory_<embedder name>``).
        read_only (bool, default False): recall, never index.
    """

    id = "semantic-recall"
    description = "Recalls similar earlier messages by embedding, and indexes new ones"

    def __init__(
        self, store: Any = None, embedder: Any = None, top_k: PositiveInt = 4,
        message_range: Any = 1, scope: str = "resource", threshold: float | None = None,
        index_name: str | None = None, read_only: bool = False,
    ) -> None:
        check("top_k", top_k, PositiveInt, owner=self.id)
        check_choice("scope", scope, ("resource", "thread"), owner=self.id)
        check("threshold", threshold, float | None, owner=self.id)
        check("read_only", read_only, bool, owner=self.id)
        if embedder is None:
            raise ConfigurationError(
                f"{self.id}: option 'embedder' is required: a router id such as 'hashing' or "
                "'openai/text-embedding-3-small', or an embedder object")
        self.store = store_option(store, self.id)
        self.embedder = CachedEmbedder(resolve_embedder(embedder))
        self.top_k = top_k
        self.before, self.after = _range(message_range)
        self.scope = scope
        self.threshold = threshold
        self.read_only = read_only
        name = index_name or "memory_" + re.sub(r"[^a-z0-9_]", "_", self.embedder.name.lower())
        self.index_name = name[:63]

    @hookimpl
    async def process_input(self, message_list: MessageList,
                            request_context: RequestContext) -> None:
        thread_id, resource_id = memory_ids(request_context)
        if thread_id is None:
            return
        await check_owner(self.store, thread_id, resource_id)
        query = next((m.text for m in reversed(message_list.input.db())
                      if m.role == "user" and m.text), None)
        if not query:
            return
        try:
            found = await self.recall(query, thread_id, resource_id)
        except Exception:  # the reference: recall never fails a run
            log.exception("semantic-recall: recall failed; the run goes on without it")
            return
        present = {m.id for m in message_list.all}
        fresh = [m for m in found if m.id not in present and m.role != "system"]
        same = [m for m in fresh if m.thread_id == thread_id]
        other = [m for m in fresh if m.thread_id != thread_id]
        message_list.add(same, "memory")
        if other:
            message_list.add_recalled_system({"role": "system",
                                              "content": _other_threads(other),
                                              "tag": "memory"})

    async def recall(self, query: str, thread_id: str, resource_id: str | None) -> list[Message]:
        """The hits for ``query`` with their neighbours, oldest first per thread."""
        (vector,) = await self.embedder.embed([query])
        by_resource = self.scope == "resource" and resource_id is not None
        hits = await self.store.query_vectors(
            self.index_name, vector, self.top_k,
            resource_id=resource_id if by_resource else None,
            thread_id=None if by_resource else thread_id)
        if self.threshold is not None:
            hits = [h for h in hits if h.score >= self.threshold]
        threads: dict[str, list[str]] = {}
        for h in hits:
            threads.setdefault(h.thread_id, []).append(h.message_id)
        out: list[Message] = []
        for tid, ids in threads.items():
            out.extend(await self.store.messages_around(tid, ids, self.before, self.after))
        return out

    @hookimpl
    async def process_output_result(self, message_list: MessageList,
                                    request_context: RequestContext,
                                    state: dict[str, Any]) -> None:
        thread_id, resource_id = memory_ids(request_context)
        if thread_id is None or self.read_only or state.get("indexed"):
            return
        messages = [m for m in keepable([*message_list.input.db(),
                                         *message_list.response.db()]) if m.text.strip()]
        if not messages:
            return
        try:
            vectors = await self.embedder.embed([m.text for m in messages])
            await self.store.save_vectors(self.index_name, [
                VectorRow(m.id, thread_id, resource_id, v)
                for m, v in zip(messages, vectors, strict=True)])
        except Exception:  # the reference: indexing never fails a run
            log.exception("semantic-recall: indexing the run's messages failed")
            return
        state["indexed"] = len(messages)


def _range(value: Any) -> tuple[int, int]:
    if isinstance(value, Mapping):
        unknown = set(value) - {"before", "after"}
        if unknown:
            raise ConfigurationError(
                f"semantic-recall: message_range keys are before and after, got "
                f"{sorted(unknown)}")
        before, after = value.get("before", 1), value.get("after", 1)
    else:
        before = after = value
    check("message_range", before, NonNegativeInt, owner="semantic-recall")
    check("message_range", after, NonNegativeInt, owner="semantic-recall")
    return before, after


def _other_threads(messages: list[Message]) -> str:
    lines = []
    for m in messages:
        when = m.created_at.strftime("%Y-%m-%d %H:%M")
        lines.append(f"{m.role} ({when}): {m.text}")
    body = "\n".join(lines)
    return (f"{OTHER_THREAD_INTRO}\n<remembered_from_other_conversation>\n{body}\n"
            "</remembered_from_other_conversation>")
