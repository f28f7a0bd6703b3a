"""``sqlite:///path.db``: a cache in an SQLite file, on the standard library's
``sqlite3``.

Embedded (no server, no extra dependency), it survives restarts and is shared by the
processes of one machine: the database is in WAL mode (readers never wait for the
writer), writers wait up to ``busy_timeout`` for each other, and ``incr`` reads and
writes its counter inside one ``BEGIN IMMEDIATE`` transaction, so concurrent
increments from several processes are never lost. Expiry is wall-clock time (shared by
the processes), checked on read; expired rows are swept on write.

Why ``sqlite3`` in a thread rather than ``aiosqlite``: one connection, guarded by a
lock, used from ``asyncio.to_thread``, is bound to no event loop, so one backend serves
agents across ``generate_sync`` calls (each a new loop) and needs no extra package or
thread of its own; aiosqlite's connection is a thread per connection tied to the loop
that opened it, and buys nothing here, since every operation is one short statement.

URLs follow SQLAlchemy's: ``sqlite:///cache.db`` is relative to the working directory,
``sqlite:////var/cache/app.db`` absolute. ``?busy_timeout=SECONDS`` (default 5).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import unquote, urlsplit

from tripwire.caches import check_key, check_ttl, url_options
from tripwire.caches._sqlite_wal import enable_wal

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tripwire_cache (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    expires_at REAL
)
"""
_SWEEP_EVERY = 256  # writes between two sweeps of expired rows


class SQLiteCache:
    """A cache in one SQLite file, safe to share between the processes of a machine."""

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 5.0) -> None:
        self.path = os.fspath(path)
        if self.path != ":memory:":
            parent = os.path.dirname(os.path.abspath(self.path))
            if not os.path.isdir(parent):
                raise ValueError(f"the directory of the SQLite cache {self.path!r} does not exist")
        if (
            isinstance(busy_timeout, bool)
            or not isinstance(busy_timeout, int | float)
            or busy_timeout < 0
        ):
            raise ValueError(f"busy_timeout must be a number of seconds >= 0, got {busy_timeout!r}")
        self.busy_timeout = float(busy_timeout)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._writes = 0

    @classmethod
    def from_url(cls, url: str) -> SQLiteCache:
        parts = urlsplit(url)
        if parts.netloc:
            raise ValueError(
                "an SQLite cache URL has no host: sqlite:///relative.db or sqlite:////absolute.db"
            )
        path = unquote(parts.path)[1:] if parts.path.startswith("/") else unquote(parts.path)
        if not path:
            raise ValueError("an SQLite cache URL names a file: sqlite:///path.db")
        options = url_options(url, {"busy_timeout"})
        if "busy_timeout" in options:
            raw = options["busy_timeout"]
            try:
                seconds = float(raw)
            except ValueError:
                raise ValueError(f"busy_timeout must be a number of seconds, got {raw!r}") from None
            return cls(path, busy_timeout=seconds)
        return cls(path)

    # ------------------------------------------------------------ the connection

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
            try:
                enable_wal(conn, self.busy_timeout)
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
        return self._conn

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def locked() -> T:
            with self._lock:
                return work(self._connect())

        return await asyncio.to_thread(locked)

    # ------------------------------------------------------------ the protocol

    async def get(self, key: str) -> bytes | None:
        check_key(key)

        def work(conn: sqlite3.Connection) -> bytes | None:
            row = conn.execute(
                "SELECT value FROM tripwire_cache WHERE key = ? "
                "AND (expires_at IS NULL OR expires_at > ?)",
                (key, time.time()),
            ).fetchone()
            if row is None:
                return None
            value = row[0]
            return str(value).encode() if isinstance(value, int) else bytes(value)

        return await self._run(work)

    async def set(self, key: str, value: bytes, ttl_seconds: float | None) -> None:
        check_key(key)
        ttl = check_ttl(ttl_seconds)
        if not isinstance(value, bytes):
            raise TypeError(f"a cache value must be bytes, got {type(value).__name__}")

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            conn.execute(
                "INSERT OR REPLACE INTO tripwire_cache (key, value, expires_at) VALUES (?, ?, ?)",
                (key, value, None if ttl is None else now + ttl),
            )
            self._sweep(conn, now)

        await self._run(work)

    async def delete(self, key: str) -> None:
        check_key(key)
        await self._run(
            lambda conn: conn.execute("DELETE FROM tripwire_cache WHERE key = ?", (key,))
        )

    async def incr(self, key: str, amount: int, ttl_seconds: float | None) -> int:
        check_key(key)
        ttl = check_ttl(ttl_seconds)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"amount must be an int, got {type(amount).__name__}")

        def work(conn: sqlite3.Connection) -> int:
            # BEGIN IMMEDIATE takes the write lock before reading: two processes cannot
            # both read the old value.
            conn.execute("BEGIN IMMEDIATE")
            try:
                now = time.time()
                row = conn.execute(
                    "SELECT value, expires_at FROM tripwire_cache WHERE key = ?", (key,)
                ).fetchone()
                if row is None or (row[1] is not None and row[1] <= now):
                    value, expires = amount, None if ttl is None else now + ttl
                else:
                    value, expires = _as_int(key, row[0]) + amount, row[1]
                conn.execute(
                    "INSERT OR REPLACE INTO tripwire_cache (key, value, expires_at) "
                    "VALUES (?, ?, ?)",
                    (key, value, expires),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return value

        return await self._run(work)

    async def close(self) -> None:
        """Close the connection (the next operation opens a new one)."""

        def work() -> None:
            with self._lock:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None

        await asyncio.to_thread(work)

    def _sweep(self, conn: sqlite3.Connection, now: float) -> None:
        self._writes += 1
        if self._writes % _SWEEP_EVERY == 0:
            conn.execute("DELETE FROM tripwire_cache WHERE expires_at <= ?", (now,))

    def __repr__(self) -> str:
        return f"SQLiteCache({self.path!r})"


def _as_int(key: str, value: object) -> int:
    if isinstance(value, int):
        return value
    try:
        return int(bytes(value).decode("ascii"))  # type: ignore[call-overload]
    except (UnicodeDecodeError, ValueError, TypeError):
        raise ValueError(f"cache key {key!r} holds a value that is not a counter") from None
