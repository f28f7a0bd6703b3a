"""Cache backends: a small async key-value protocol, chosen by URL, found through
entry points.

A backend stores ``bytes`` under ``str`` keys with a time to live and keeps integer
counters that it increments atomically. ``response-cache`` stores replayable chunks in
one (the codec below turns them into bytes); a budget keeps its counters in one. Three
come with tripwire or beside it, each published in the entry point group
``tripwire.caches`` under its URL scheme, exactly as a third-party backend would be:

=========================  ============================================================
``memory://``              this process only: an LRU dict with a size bound
                           (``memory://?max_entries=1000``, the default)
``sqlite:///path.db``      an SQLite file (stdlib ``sqlite3``): survives restarts and is
                           shared by the processes of one machine (WAL, atomic
                           counters); ``sqlite:////abs/path.db`` for an absolute path
``redis://host:port/db``   the ``tripwire-redis`` distribution (``contrib/redis``): one
                           cache for processes on many machines
=========================  ============================================================

``open_cache(url_or_backend)`` builds the backend for a URL (or returns a backend
object as it is). A backend is any object with the four coroutine methods of
``CacheBackend``; ``close()`` is optional. ``encode_chunks`` / ``decode_chunks`` are the
stored format; ``replay_chunks`` turns an entry's chunks into what a replay streams.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from typing import Any, Protocol, runtime_checkable
from urllib.parse import parse_qs, urlsplit

from tripwire import registry
from tripwire.chunks import Chunk, check_chunk
from tripwire.errors import ConfigurationError
from tripwire.messages.serde import chunk_from_dict, chunk_to_dict
from tripwire.models.wire import parse_tool_args

#: The entry point group of cache backends: ``<url scheme> = module:factory``, where
#: ``factory(url)`` returns a ``CacheBackend``.
GROUP = registry.CACHES.name

#: The version of the stored chunk format (``encode_chunks``). An entry written with
#: any other version reads as a miss.
FORMAT_VERSION = 1
_HEADER = b"tripwire-chunks/%d\n" % FORMAT_VERSION


@runtime_checkable
class CacheBackend(Protocol):
    """What a cache backend implements: four coroutines, safe to call concurrently.

    Keys are ``str``; values ``bytes``. ``ttl_seconds`` is a positive number of seconds
    after which the entry is gone, or ``None`` for no expiry.
    """

    async def get(self, key: str) -> bytes | None:
        """The value stored under ``key``, or ``None`` when there is none (never set,
        deleted or expired). A counter reads as its decimal digits (``b"42"``)."""
        ...

    async def set(self, key: str, value: bytes, ttl_seconds: float | None) -> None:
        """Store ``value`` under ``key``, replacing what was there, for ``ttl_seconds``."""
        ...

    async def delete(self, key: str) -> None:
        """Remove ``key`` (nothing happens when it is absent)."""
        ...

    async def incr(self, key: str, amount: int, ttl_seconds: float | None) -> int:
        """Add ``amount`` to the integer counter ``key`` atomically and return the new
        value. A missing (or expired) counter starts from 0 and gets ``ttl_seconds``;
        an existing one keeps its expiry (a fixed window). Concurrent increments from
        any number of tasks or processes sharing the backend are never lost. A key
        holding a value that is not a counter raises ``ValueError``."""
        ...


def open_cache(cache: str | CacheBackend) -> CacheBackend:
    """The backend for ``cache``: a URL whose scheme names an installed backend
    (``memory://``, ``sqlite:///path.db``, ``redis://host:6379/0``), or a backend object,
    returned as it is.

    An unknown scheme, a malformed URL or an object that is not a backend is a
    ``ConfigurationError`` saying what was wrong and what is valid.
    """
    if not isinstance(cache, str):
        missing = [
            m for m in ("get", "set", "delete", "incr") if not callable(getattr(cache, m, None))
        ]
        if missing:
            raise ConfigurationError(
                f"a cache must be a URL (memory://, sqlite:///path.db, redis://host:port/db) "
                f"or a backend with async get, set, delete and incr; "
                f"{type(cache).__name__} lacks {', '.join(missing)}"
            )
        return cache
    scheme = urlsplit(cache).scheme if "://" in cache else ""
    if not scheme:
        raise ConfigurationError(
            f"cache URL {cache!r} has no scheme; valid schemes: {', '.join(schemes())}"
            f" (e.g. memory://, sqlite:///path.db)"
        )
    plugin = registry.current().get(registry.CACHES, scheme.lower())
    if plugin.error is not None:
        raise plugin.failure() from plugin.error
    try:
        backend = plugin.target(cache)
    except ConfigurationError:
        raise
    except (TypeError, ValueError) as e:
        from tripwire.models import mask_url  # a password in the URL stays out of the error

        raise ConfigurationError(f"cache URL {mask_url(cache)!r}: {e}") from e
    return open_cache(backend)  # checks that the factory built a backend


def schemes() -> list[str]:
    """The URL schemes of the installed cache backends, sorted."""
    return registry.current().names(registry.CACHES)


def available() -> dict[str, registry.Plugin]:
    """Every installed cache backend by URL scheme, loaded (broken ones included, with
    their ``error``): what ``tripwire plugins`` lists."""
    return registry.current().plugins(registry.CACHES)


async def close_cache(cache: Any) -> None:
    """Close ``cache`` when it has a ``close()`` (sync or async); otherwise nothing."""
    close = getattr(cache, "close", None)
    if close is not None:
        result = close()
        if hasattr(result, "__await__"):
            await result


# ------------------------------------------------------------------ the chunk format


def encode_chunks(chunks: Sequence[Chunk]) -> bytes:
    """``chunks`` as bytes in the current format (``FORMAT_VERSION``): a header line,
    then JSON. A payload that is not JSON-serialisable raises ``TypeError``."""
    body = json.dumps(
        [chunk_to_dict(c) for c in chunks],
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return _HEADER + body.encode()


def decode_chunks(data: bytes | None) -> list[Chunk] | None:
    """The chunks ``encode_chunks`` wrote, or ``None`` for anything else: no entry, an
    entry written with another format version, or bytes that do not parse (nested too
    deeply included). Never a misread: an old or foreign entry is a miss, not a wrong
    answer. Whether each chunk has the shape its type promises is the reader's check
    (``tripwire.chunks.check_chunk``)."""
    if not data or not data.startswith(_HEADER):
        return None
    try:
        raw = json.loads(data[len(_HEADER) :])
        if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
            return None
        return [chunk_from_dict(c) for c in raw]
    except (ValueError, TypeError, KeyError, RecursionError):
        return None


#: What a replay streams: the chunk types of a model's step (``tripwire.models.Model``:
#: text and reasoning deltas, tool calls, one finish), each with the payload keys it may
#: hold - the keys the run defines for it and ``provider_metadata``, whose every string,
#: a nested key included, the output guards check. No guard reads a chunk's type name nor
#: a payload's key names, so a replay carries only names tripwire itself gives: a
#: ``data-*``, ``source`` or provider-defined chunk, or a key a plugin added, would reach
#: the consumer spelled as the entry spells it.
REPLAY_KEYS: dict[str, frozenset[str]] = {
    "text-delta": frozenset({"id", "text", "provider_metadata"}),
    "reasoning-delta": frozenset({"id", "text", "provider_metadata"}),
    "tool-call": frozenset({"tool_call_id", "tool_name", "args", "raw_args", "args_error",
                            "provider_metadata"}),
    "finish": frozenset({"finish_reason", "usage", "provider_metadata"}),
}


def unreplayable(chunk: Chunk) -> str | None:
    """Why a replay cannot carry ``chunk`` (its type or a payload key is not in
    ``REPLAY_KEYS``), in words naming what is valid; ``None`` when it can. The names in
    the message are not quoted: they are what the check keeps from the consumer."""
    keys = REPLAY_KEYS.get(chunk.type)
    if keys is None:
        return (f"a chunk type a replay does not carry (it carries "
                f"{', '.join(REPLAY_KEYS)})")
    extra = len([k for k in chunk.payload if k not in keys])
    if extra:
        return (f"a {chunk.type!r} chunk with {extra} payload key(s) a replay does not carry "
                f"(it carries {', '.join(sorted(keys))})")
    return None


def replay_chunks(chunks: Sequence[Chunk]) -> list[Chunk]:
    """An entry's chunks as a replay streams them. What a cache holds is whatever was
    put in it, so every field a consumer can read from a replayed chunk is either
    content the output guards check or set here, never taken from the entry as stored:

    - ``run_id``: ``None`` (the replaying run stamps its own); ``source``: ``"AGENT"``,
      as for every model chunk; ``transient``: ``False``;
    - a text or reasoning delta's ``id``: a new one per stored id (``"replay-0"``,
      ``"replay-1"``, ...), so the deltas of one part still share theirs;
    - a tool call whose arguments did not parse: ``args`` and ``args_error`` from its
      ``raw_args`` again, as a model's is built (``args_error`` without ``raw_args`` is
      dropped);
    - the type and the payload's keys are ones tripwire names (``REPLAY_KEYS``); the
      rest is the payload, which the output guards check: the text, a tool call's
      arguments, its ``provider_metadata``; a tool call's id has the shape
      ``check_chunk`` allows and its name is the run's to check against the tools
      offered.

    Raises ``ValueError`` naming the problem for a chunk ``check_chunk`` refuses from a
    model (``from_model=True``), one ``unreplayable`` refuses, or a ``raw_args`` that is
    not text.
    """
    ids: dict[str, str] = {}
    replayed = []
    for chunk in chunks:
        check_chunk(chunk, from_model=True)
        problem = unreplayable(chunk)
        if problem is not None:
            raise ValueError(problem)
        payload = dict(chunk.payload)
        if chunk.type in ("text-delta", "reasoning-delta") and "id" in payload:
            payload["id"] = ids.setdefault(payload["id"], f"replay-{len(ids)}")
        elif chunk.type == "tool-call":
            payload.pop("args_error", None)
            raw = payload.get("raw_args")
            if raw is not None:
                if not isinstance(raw, str):
                    raise ValueError(f"a 'tool-call' chunk's payload['raw_args'] must be a "
                                     f"str, got {type(raw).__name__}")
                payload["args"], error = parse_tool_args(raw)
                if error is None:
                    del payload["raw_args"]
                else:
                    payload["args_error"] = error
        replayed.append(Chunk(chunk.type, payload, None, "AGENT", False))
    return replayed


def check_ttl(ttl_seconds: float | None) -> float | None:
    """``ttl_seconds`` if it is ``None`` or a positive number, else ``ValueError``."""
    if ttl_seconds is None:
        return None
    if (
        isinstance(ttl_seconds, bool)
        or not isinstance(ttl_seconds, int | float)
        or not 0 < ttl_seconds < math.inf
    ):
        raise ValueError(
            f"ttl_seconds must be a positive, finite number of seconds or None, got {ttl_seconds!r}"
        )
    return float(ttl_seconds)


def check_key(key: str) -> str:
    if not isinstance(key, str) or not key:
        raise ValueError(f"a cache key must be a non-empty str, got {key!r}")
    return key


def url_options(url: str, valid: Collection[str]) -> dict[str, str]:
    """The options in the query of a backend's ``url`` (``?name=value&...``), each
    name's last value, as text for the backend to check. A name not in ``valid`` is a
    ``ValueError`` naming it and the valid ones, so a misspelt or unsupported option
    fails when the backend is built, not at its first use (or never)."""
    query = parse_qs(urlsplit(url).query, keep_blank_values=True)
    unknown = sorted(set(query) - set(valid))
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)}; valid: {', '.join(sorted(valid)) or 'none'}"
        )
    return {name: values[-1] for name, values in query.items()}


__all__ = [
    "FORMAT_VERSION",
    "GROUP",
    "REPLAY_KEYS",
    "CacheBackend",
    "available",
    "check_key",
    "check_ttl",
    "close_cache",
    "decode_chunks",
    "encode_chunks",
    "open_cache",
    "replay_chunks",
    "schemes",
    "unreplayable",
    "url_options",
]
