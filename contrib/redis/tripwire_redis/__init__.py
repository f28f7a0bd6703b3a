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
each overridable in the URL's query). The query options (``QUERY_OPTIONS``) are checked
when the backend is built: an unknown name or a bad value is a ``ValueError`` naming the
option and what is valid, never a failure at first use. A lost connection is
re-established by the client on the next command, so after a Redis restart the cache
works again without a new backend. The client is bound to the event loop it was made
in; a backend used from another loop (``generate_sync`` makes one per call) makes a
client of its own there. ``await backend.close()`` closes the current loop's client.
"""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from tripwire.caches import check_key, check_ttl, url_options

if TYPE_CHECKING:
    import redis.asyncio as aioredis

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
        query = _query_options(url, parts.scheme)
        if parts.scheme != "unix" and parts.path not in ("", "/"):
            if "db" in query:
                raise ValueError("give the database once: in the path (/0) or as ?db=, not both")
            _check_path_db(unquote(parts.path[1:]))
        defaults = {
            "socket_timeout": DEFAULT_TIMEOUT,
            "socket_connect_timeout": DEFAULT_TIMEOUT,
            "max_connections": DEFAULT_MAX_CONNECTIONS,
            "timeout": DEFAULT_TIMEOUT,
        }
        # the query wins over keyword arguments, which win over the defaults
        self._options = {**defaults, **client_options, **query}
        # redis-py reads the rest of the URL (host, port, database, user, password)
        self._pool_url = parts._replace(query="", fragment="").geturl()
        self.url = url
        # one client per event loop (a client's sockets belong to the loop that made it)
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_url(cls, url: str) -> RedisCache:
        """The entry point's factory: ``redis://[[user]:password@]host[:port][/db][?option=value&...]``."""
        return cls(url)

    def _redis(self) -> aioredis.Redis:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            # redis-py is imported by the first client made, not with the entry point
            import redis.asyncio as aioredis

            # A blocking pool: past max_connections a command waits (up to ``timeout``)
            # for a free connection rather than failing, so a burst of concurrent runs
            # is served by a bounded number of sockets.
            pool = aioredis.BlockingConnectionPool.from_url(self._pool_url, **self._options)
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
        import redis.asyncio as aioredis

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


def _seconds(raw: str) -> float:
    value = float(raw)
    if not 0 < value < math.inf:
        raise ValueError
    return value


def _whole(minimum: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        value = int(raw)
        if value < minimum:
            raise ValueError
        return value

    return parse


def _flag(raw: str) -> bool:
    return {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[
        raw.lower()
    ]


def _text(raw: str) -> str:
    if not raw:
        raise ValueError
    return raw


def _one_of(*choices: str) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        if raw.lower() not in choices:
            raise ValueError
        return raw.lower()

    return parse


def _protocol(raw: str) -> int:
    if raw not in ("2", "3"):
        raise ValueError
    return int(raw)


#: The options a URL's query may set: name -> (what is valid, parser).
QUERY_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "db": ("a database number >= 0", _whole(0)),
    "socket_timeout": ("a number of seconds > 0", _seconds),
    "socket_connect_timeout": ("a number of seconds > 0", _seconds),
    "timeout": ("a number of seconds > 0", _seconds),
    "max_connections": ("a whole number >= 1", _whole(1)),
    "health_check_interval": ("a whole number of seconds >= 0", _whole(0)),
    "socket_keepalive": ("true or false", _flag),
    "client_name": ("a non-empty name", _text),
    "protocol": ("2 or 3", _protocol),
}
#: ... and those only a ``rediss://`` (TLS) URL may set.
TLS_QUERY_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "ssl_cert_reqs": ("none, optional or required", _one_of("none", "optional", "required")),
    "ssl_ca_certs": ("a file path", _text),
    "ssl_certfile": ("a file path", _text),
    "ssl_keyfile": ("a file path", _text),
    "ssl_check_hostname": ("true or false", _flag),
}


def _query_options(url: str, scheme: str) -> dict[str, Any]:
    """The options of ``url``'s query, checked and parsed (``QUERY_OPTIONS``). Left to
    redis-py, they are read at the first command, which then fails on a bad number or
    an unknown name (a keyword its connection does not take), or not at all when the
    value is empty (``?prefix=`` is dropped without a word)."""
    known = QUERY_OPTIONS | TLS_QUERY_OPTIONS
    options: dict[str, Any] = {}
    for name, raw in url_options(url, known).items():
        if name in TLS_QUERY_OPTIONS and scheme != "rediss":
            raise ValueError(f"?{name}= is for rediss:// (TLS) URLs, not {scheme}://")
        valid, parse = known[name]
        try:
            options[name] = parse(raw)
        except (KeyError, ValueError):
            raise ValueError(f"?{name}= must be {valid}, got {raw!r}") from None
    return options


def _check_path_db(raw: str) -> None:
    """Left to redis-py, a path that is not a number is silently database 0."""
    if not (raw.isascii() and raw.isdigit()):
        raise ValueError(
            f"the database in the URL's path must be a number >= 0 (redis://host:6379/0), "
            f"got {raw!r}"
        )


def _masked(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url
