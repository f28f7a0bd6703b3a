"""A memory store from its URL.

``open_store("sqlite:///chat.db")`` builds a store from a URL: ``sqlite:///path``
(``sqlite:///:memory:`` and ``memory://`` for a private in-memory database) are built
in; other schemes come from the ``tripwire.stores`` entry point group
(``tripwire-postgres`` registers ``postgresql://`` and ``postgres://``).
"""

from __future__ import annotations

from tripwire import registry
from tripwire.errors import ConfigurationError
from tripwire.memory.sqlite import SQLiteStore
from tripwire.memory.store import MemoryStore


def open_store(url: str | MemoryStore) -> MemoryStore:
    """A store from its URL (a store object is returned as it is)."""
    if not isinstance(url, str):
        if isinstance(url, MemoryStore):
            return url
        raise ConfigurationError(
            f"store must be a URL such as 'sqlite:///chat.db' or a MemoryStore object, got "
            f"{type(url).__name__}")
    scheme, sep, _ = url.partition("://")
    if not sep:
        raise ConfigurationError(
            f"store {url!r} is not a URL; use sqlite:///path/to/file.db, memory:// or a "
            f"scheme a plugin registers ({', '.join(_schemes())})")
    if scheme in ("sqlite", "memory"):
        return SQLiteStore.from_url(url)
    reg = registry.current()
    if scheme not in reg.names(registry.STORES):
        if scheme in registry.PROVIDED_BY[registry.STORES.name]:
            raise registry.not_installed(registry.STORES, scheme, _schemes())
        raise ConfigurationError(
            f"no memory store for {scheme}:// URLs; known schemes: {', '.join(_schemes())} "
            f"(sqlite:///path.db, memory://; install tripwire-postgres for postgresql://)")
    plugin = reg.get(registry.STORES, scheme)
    if plugin.error is not None:
        raise plugin.failure()
    store = plugin.target(url)
    if not isinstance(store, MemoryStore):
        raise ConfigurationError(
            f"the {scheme}:// store plugin ({plugin.value}) returned a "
            f"{type(store).__name__}, not a MemoryStore")
    return store


def _schemes() -> list[str]:
    try:
        extra = registry.current().names(registry.STORES)
    except ConfigurationError:
        extra = []
    return ["sqlite", "memory", *extra]
