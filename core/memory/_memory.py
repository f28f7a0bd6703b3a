"""``tripwire.Memory``: the memory processors an agent gets from ``Agent(memory=...)``,
and where they go in its processor lists.

As the reference assembles them: ``working-memory``, ``message-history`` and
``semantic-recall`` run *before* the user's input processors (so guardrails see
recalled messages), and ``semantic-recall`` then ``message-history`` run *after* the
user's output processors (so what is saved is the final, processed form, and a
tripwire in any of them prevents saving). A memory processor whose id the user already
put in a list is not added again. A call's own processor lists replace the agent's,
never the memory processors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripwire import registry
from tripwire.context import RESOURCE_ID_KEY, THREAD_ID_KEY, RequestContext
from tripwire.errors import ConfigurationError
from tripwire.memory.store import MemoryStore
from tripwire.memory.urls import open_store
from tripwire.option_checks import NonNegativeInt, check

#: Memory options a TOML ``memory = { ... }`` table may set.
MEMORY_KEYS = ("store", "last_messages", "working_memory", "semantic_recall", "read_only")


class Memory:
    """Message history (always), working memory and semantic recall on one store.

    Args:
        store: a URL (``"sqlite:///chat.db"``, ``"memory://"``,
            ``"postgresql://..."`` with tripwire-postgres) or a ``MemoryStore``.
        last_messages: earlier messages of the thread loaded before each run (default
            10; 0 loads none but the run is still saved).
        working_memory: ``True``, or the ``WorkingMemory`` options as a mapping
            (``scope``, ``template``), or a ``WorkingMemory``; off by default.
        semantic_recall: ``True`` (the offline ``hashing`` embedder), or the
            ``SemanticRecall`` options as a mapping (``embedder``, ``top_k``,
            ``message_range``, ``scope``, ``threshold``), or a ``SemanticRecall``; off
            by default.
        read_only: load and recall, never save (working memory cannot be updated).

    The thread and resource of a call come from its request context
    (``THREAD_ID_KEY``, ``RESOURCE_ID_KEY``) or the call option
    ``memory={"thread": ..., "resource": ...}``; without a thread, memory does nothing.
    """

    def __init__(
        self,
        store: str | MemoryStore,
        *,
        last_messages: int = 10,
        working_memory: bool | Mapping[str, Any] | Any = False,
        semantic_recall: bool | Mapping[str, Any] | Any = False,
        read_only: bool = False,
    ) -> None:
        MessageHistory = registry.builtin(registry.PROCESSORS, "message-history")
        check("last_messages", last_messages, NonNegativeInt, owner="Memory")
        check("read_only", read_only, bool, owner="Memory")
        self._owns_store = isinstance(store, str)
        self.store = open_store(store)
        self.read_only = read_only
        self.message_history = MessageHistory(self.store, last_messages, read_only)
        self.working_memory = _optional(working_memory, "working_memory", self._working)
        self.semantic_recall = _optional(semantic_recall, "semantic_recall", self._recall)
        self._compiled: dict[str, list[Any]] = {}

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> Memory:
        """``Memory`` from a TOML ``memory = { store = "sqlite:///chat.db", ... }`` table."""
        if not isinstance(table, Mapping):
            raise ConfigurationError(
                f"memory must be a table such as {{ store = \"sqlite:///chat.db\" }}, got "
                f"{table!r}")
        unknown = set(table) - set(MEMORY_KEYS)
        if unknown:
            raise ConfigurationError(
                f"memory: unknown key(s) {sorted(unknown)}; valid: {', '.join(MEMORY_KEYS)}")
        if "store" not in table:
            raise ConfigurationError("memory needs store = \"sqlite:///chat.db\" (or another "
                                     "store URL)")
        options = dict(table)
        return cls(options.pop("store"), **options)

    def _working(self, options: Mapping[str, Any]) -> Any:
        WorkingMemory = registry.builtin(registry.PROCESSORS, "working-memory")
        return WorkingMemory(self.store, **{"read_only": self.read_only, **options})

    def _recall(self, options: Mapping[str, Any]) -> Any:
        SemanticRecall = registry.builtin(registry.PROCESSORS, "semantic-recall")
        return SemanticRecall(self.store, **{"embedder": "hashing", "read_only": self.read_only,
                                             **options})

    def processors(self, kind: str) -> list[Any]:
        """The memory processors of one list, in the order they run there."""
        if kind == "input":
            found = [self.working_memory, self.message_history, self.semantic_recall]
        elif kind == "output":
            found = [self.semantic_recall, self.message_history]
        else:
            found = []
        return [p for p in found if p is not None]

    def around(self, kind: str, nodes: list[Any]) -> list[Any]:
        """A compiled processor list with the memory processors added where they run
        (before the user's input processors, after the user's output processors)."""
        from tripwire.hooks._lists import compile_list

        compiled = self._compiled.get(kind)
        if compiled is None:
            compiled = self._compiled[kind] = compile_list(self.processors(kind), kind)
        taken = _ids(nodes)
        mine = [n for n in compiled if n.id not in taken]
        return [*mine, *nodes] if kind == "input" else [*nodes, *mine]

    async def aclose(self) -> None:
        """Close the store's connections when this ``Memory`` opened it from a URL (a
        store object you passed is yours to close). A closed store reopens on next use."""
        if self._owns_store:
            await self.store.close()

    def __repr__(self) -> str:
        on = [p.id for p in self.processors("input")]
        return f"<Memory {self.store.url} {', '.join(on)}>"


def _optional(value: Any, name: str, build: Any) -> Any:
    if value is None or value is False:
        return None
    if value is True:
        return build({})
    if isinstance(value, Mapping):
        try:
            return build(value)
        except (TypeError, ValueError) as e:   # an unknown option, a bad value
            raise ConfigurationError(f"Memory {name}: {e}") from None
    if hasattr(value, "id"):
        return value
    raise ConfigurationError(
        f"Memory {name} must be True, a mapping of its options or a processor, got {value!r}")


def _ids(nodes: list[Any]) -> set[str]:
    from tripwire.hooks._lists import CompiledGroup

    out: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        out.add(node.id)
        if isinstance(node, CompiledGroup):
            stack.extend(node.members)
    return out


def coerce_memory(value: Any) -> Memory | None:
    """``Agent(memory=...)``: a ``Memory``, a store URL / store object (message history
    only), or None."""
    if value is None or isinstance(value, Memory):
        return value
    if isinstance(value, Mapping):
        return Memory.from_config(value)
    if isinstance(value, str) or isinstance(value, MemoryStore):
        return Memory(value)
    raise ConfigurationError(
        f"memory must be a tripwire.Memory, a store URL such as 'sqlite:///chat.db' or a "
        f"store object, got {type(value).__name__}")


def apply_call_option(request_context: RequestContext, value: Any) -> RequestContext:
    """The ``memory={"thread": ..., "resource": ...}`` call option: a copy of the
    request context with the thread and resource ids set."""
    if not isinstance(value, Mapping):
        raise TypeError(
            f"memory must be a mapping {{'thread': id, 'resource': id}}, got {value!r}")
    unknown = set(value) - {"thread", "resource"}
    if unknown:
        raise TypeError(f"memory: unknown key(s) {sorted(unknown)}; valid: thread, resource")
    out = RequestContext(dict(request_context))
    for key, target in (("thread", THREAD_ID_KEY), ("resource", RESOURCE_ID_KEY)):
        if value.get(key) is None:
            continue
        if not isinstance(value[key], str) or not value[key]:
            raise TypeError(f"memory {key} must be a non-empty string, got {value[key]!r}")
        out[target] = value[key]
    return out
