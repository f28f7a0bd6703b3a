"""A tripwire cache backend on Redis, through the official ``redis`` client's asyncio
API: ``redis://host:port/db`` (``rediss://`` for TLS).

Installed, it is found through the entry point group ``tripwire.caches``, so
``ResponseCache(cache="redis://127.0.0.1:6379/0")`` or ``cache = "redis://..."`` in TOML
uses it. Processes on many machines share one cache and one set of counters:

- ``get`` / ``set`` / ``delete`` are ``GET`` / ``SET ... PX`` / ``DEL``;
- ``incr`` is ``INCRBY`` then ``PEXPIRE ... NX`` in one ``MULTI`` transaction: atomic, and
  the expiry is set when the counter is created, never extended (a fixed window).

Every wait has a timeout (``socket_timeout`` / ``socket_connect_timeout``, default 2 s;
``timeout``, the wait for a free connection of the pool of ``max_connections`` (50), 2 s;
each overridable in the URL's query, as redis-py reads them). A lost connection is
re-established by the client on the next command, so after a Redis restart the cache
works again without a new backend. The client is bound to the event loop it was made
in; a backend used from another loop (``generate_sync`` makes one per call) makes a
client of its own there. ``await backend.close()`` closes the current loop's client.
"""

from __future__ import annotations

import asyncio
import math
import weakref
from typing import Any
from urllib.parse import parse_qs, urlsplit

import redis.asyncio as aioredis

from tripwire.caches import check_key, check_ttl

DEFAULT_TIMEOUT = 2.0
DEFAULT_MAX_CONNECTIONS = 50

__all__ = ["RedisCache"]


class RedisCache:
    """A ``tripwire.caches.CacheBackend`` on one Redis database."""

    def __init__(self, url: str, **client_options: Any) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError(
                f"a Redis cache URL starts with redis://, rediss:// or unix://, got {url!r}"
            )
        query = parse_qs(parts.query)
        defaults = {
            "socket_timeout": DEFAULT_TIMEOUT,
            "socket_connect_timeout": DEFAULT_TIMEOUT,
            "max_connections": DEFAULT_MAX_CONNECTIONS,
            "timeout": DEFAULT_TIMEOUT,
        }
        for option, default in defaults.items():
            if option not in query:
                client_options.setdefault(option, default)
        self.url = url
        self._options = client_options
        # one client per event loop (a client's sockets belong to the loop that made it)
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_url(cls, url: str) -> RedisCache:
        """The entry point's factory: ``redis://[[user]:password@]host[:port][/db]``."""
        return cls(url)

    def _redis(self) -> aioredis.Redis:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            # A blocking pool: past max_connections a command waits (up to ``timeout``)
            # for a free connection rather than failing, so a burst of concurrent runs
            # is served by a bounded number of sockets.
            pool = aioredis.BlockingConnectionPool.from_url(self.url, **self._options)
            client = self._clients[loop] = aioredis.Redis.from_pool(pool)
        return client

    async def get(self, key: str) -> bytes | None:
        value = await self._redis().get(check_key(key))
        return None if value is None else bytes(value)

    async def set(self, key: str, value: bytes, ttl_seconds: float | None) -> None:
        if not isinstance(value, bytes):
            raise TypeError(f"a cache value must be bytes, got {type(value).__name__}")
        await self._redis().set(check_key(key), value, px=_ttl_ms(ttl_seconds))

    async def delete(self, key: str) -> None:
        await self._redis().delete(check_key(key))

    async def incr(self, key: str, amount: int, ttl_seconds: float | None) -> int:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"amount must be an int, got {type(amount).__name__}")
        ttl = _ttl_ms(ttl_seconds)
        async with self._redis().pipeline(transaction=True) as pipe:
            pipe.incrby(check_key(key), amount)
            if ttl is not None:
                pipe.pexpire(check_key(key), ttl, nx=True)
            try:
                results = await pipe.execute()
            except aioredis.ResponseError as e:
                if "not an integer" in str(e):
                    raise ValueError(
                        f"cache key {key!r} holds a value that is not a counter"
                    ) from e
                raise
        return int(results[0])

    async def close(self) -> None:
        """Close the client of the current event loop (a later call opens a new one).
        Call it in every loop the backend was used in."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()

    def __repr__(self) -> str:
        return f"RedisCache({_masked(self.url)!r})"


def _ttl_ms(ttl_seconds: float | None) -> int | None:
    """``ttl_seconds`` (checked by ``tripwire.caches.check_ttl``) in whole milliseconds."""
    ttl = check_ttl(ttl_seconds)
    return None if ttl is None else max(1, math.ceil(ttl * 1000))


def _masked(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url
