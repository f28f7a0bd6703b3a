"""Memory: message history, working memory and semantic recall, as processors, on a
store (SQLite built in; Postgres from tripwire-postgres). See docs/memory.md."""

from tripwire.memory._memory import Memory
from tripwire.memory.embedders import (
    CachedEmbedder,
    Embedder,
    HashingEmbedder,
    OpenAIEmbedder,
    resolve_embedder,
)
from tripwire.memory.store import (
    MemoryStore,
    Thread,
    ThreadOwnerError,
    VectorHit,
    VectorRow,
)
from tripwire.memory.urls import open_store

__all__ = [
    "CachedEmbedder",
    "Embedder",
    "HashingEmbedder",
    "Memory",
    "MemoryStore",
    "OpenAIEmbedder",
    "Thread",
    "ThreadOwnerError",
    "VectorHit",
    "VectorRow",
    "open_store",
    "resolve_embedder",
]
