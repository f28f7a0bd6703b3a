"""``memory://``: a cache in this process, an LRU dict with a size bound.

The default backend: it needs nothing and is the fastest, but nothing outside the
process sees it and it is gone on exit. ``memory://?max_entries=N`` bounds it (default
1000): past the bound, the least recently used entry goes. Each ``open_cache
("memory://")`` is a new, empty cache.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from urllib.parse import urlsplit

from tripwire.caches import check_key, check_ttl, url_options

DEFAULT_MAX_ENTRIES = 1000


class MemoryCache:
    """An in-process LRU cache of ``bytes`` (and counters) with per-entry expiry."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
            raise ValueError(f"max_entries must be an int >= 1, got {max_entries!r}")
        self.max_entries = max_entries
        # key -> (value, expires at on the monotonic clock or None)
        self._entries: OrderedDict[str, tuple[bytes | int, float | None]] = OrderedDict()

    @classmethod
    def from_url(cls, url: str) -> MemoryCache:
        """``memory://`` or ``memory://?max_entries=N``; any other query key is an error."""
        parts = urlsplit(url)
        if parts.netloc or parts.path not in ("", "/"):
            raise ValueError("a memory cache URL is memory:// (optionally ?max_entries=N)")
        options = url_options(url, {"max_entries"})
        if "max_entries" not in options:
            return cls()
        raw = options["max_entries"]
        try:
            return cls(int(raw))
        except ValueError:
            raise ValueError(f"max_entries must be an int >= 1, got {raw!r}") from None

    def __len__(self) -> int:
        return len(self._entries)

    def _live(self, key: str) -> bytes | int | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        value, expires = entry
        if expires is not None and expires <= time.monotonic():
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def _store(self, key: str, value: bytes | int, ttl: float | None) -> None:
        expires = None if ttl is None else time.monotonic() + ttl
        self._entries[key] = (value, expires)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    async def get(self, key: str) -> bytes | None:
        value = self._live(check_key(key))
        if isinstance(value, int):
            return str(value).encode()
        return value

    async def set(self, key: str, value: bytes, ttl_seconds: float | None) -> None:
        if not isinstance(value, bytes):
            raise TypeError(f"a cache value must be bytes, got {type(value).__name__}")
        self._store(check_key(key), value, check_ttl(ttl_seconds))

    async def delete(self, key: str) -> None:
        self._entries.pop(check_key(key), None)

    async def incr(self, key: str, amount: int, ttl_seconds: float | None) -> int:
        ttl = check_ttl(ttl_seconds)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"amount must be an int, got {type(amount).__name__}")
        current = self._live(check_key(key))
        if current is None:
            self._store(key, amount, ttl)
            return amount
        if not isinstance(current, int):
            current = _as_int(key, current)
        value = current + amount
        self._entries[key] = (value, self._entries[key][1])  # keeps its expiry
        return value

    async def close(self) -> None:
        self._entries.clear()

    def __repr__(self) -> str:
        return f"MemoryCache(max_entries={self.max_entries}, entries={len(self._entries)})"


def _as_int(key: str, value: bytes) -> int:
    """A counter stored as decimal digits by ``set``; anything else is not a counter."""
    try:
        return int(value.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError(f"cache key {key!r} holds a value that is not a counter") from None
