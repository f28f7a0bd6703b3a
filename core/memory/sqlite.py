"""The embedded memory store: one SQLite file, no server (``sqlite:///chat.db``).

Why ``aiosqlite``: it is the standard ``sqlite3`` module run in one worker thread per
connection, so queries never block the event loop, with nothing to maintain here.
The connection is opened lazily in the running event loop (a store used from two
``generate_sync`` calls, each with its own loop, reopens it).

- **Schema** versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]`` brings a
  database from version ``i`` to ``i + 1``, each in its own transaction, so an older
  file is upgraded on open and a newer one is refused with a clear error.
- **WAL** journal (readers never wait for the writer; other processes may share the
  file), ``busy_timeout`` 10 s, ``synchronous=NORMAL``.
- **Transactions**: every write is ``BEGIN IMMEDIATE ... COMMIT`` (one save, one
  transaction: a process killed mid-save leaves the run either wholly stored or not
  at all) under a per-store lock, because coroutines share the one connection.
- **Vectors**: float32 blobs, searched exactly (``tripwire.memory.store.rank``),
  kept in memory between queries (``_vector_cache``: only rows added since are read);
  sqlite-vec needs ``enable_load_extension``, which this Python's sqlite3 lacks.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from tripwire.caches._sqlite_wal import prepare_wal_file
from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.memory._vector_cache import VectorCache
from tripwire.memory.store import Thread, VectorHit, VectorRow, check_thread_owner, pack
from tripwire.messages import Message
from tripwire.messages.serde import message_from_dict, message_to_dict
from tripwire.per_loop import PerLoop

_BUSY_TIMEOUT = 10.0  # seconds a writer waits for another (other processes too)

#: ``MIGRATIONS[i]`` upgrades schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        resource_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX threads_resource ON threads(resource_id, updated_at);
    CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        resource_id TEXT,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX messages_thread ON messages(thread_id, seq);
    CREATE TABLE working_memory (
        key TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE vectors (
        index_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        resource_id TEXT,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (index_name, message_id)
    );
    CREATE INDEX vectors_resource ON vectors(index_name, resource_id);
    CREATE INDEX vectors_thread ON vectors(index_name, thread_id);
    """,
    # 2: vectors get a seq that only grows, and a generation bumped by every removal, so
    # a process can keep vectors in memory and read only what was added since
    """
    CREATE TABLE vectors_v2 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        index_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        resource_id TEXT,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE (index_name, message_id)
    );
    INSERT INTO vectors_v2 (index_name, message_id, thread_id, resource_id, dim, vector)
        SELECT index_name, message_id, thread_id, resource_id, dim, vector FROM vectors;
    DROP TABLE vectors;
    ALTER TABLE vectors_v2 RENAME TO vectors;
    CREATE INDEX vectors_resource ON vectors(index_name, resource_id, seq);
    CREATE INDEX vectors_thread ON vectors(index_name, thread_id, seq);
    CREATE TABLE vector_generation (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        generation INTEGER NOT NULL
    );
    INSERT INTO vector_generation (id, generation) VALUES (1, 0)
    """,
    # 3: a message (and its vector) is identified by its thread and its id, no longer by
    # its id alone: ids come from callers, and a save of one thread replaced (moved) the
    # message of another thread, of another resource too. Rows keep their seq (order),
    # and the tables their highest seq ever (AUTOINCREMENT: seq is never reused).
    """
    CREATE TABLE messages_v3 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL,
        thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        resource_id TEXT,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (thread_id, id)
    );
    INSERT INTO messages_v3 (seq, id, thread_id, resource_id, role, created_at, body)
        SELECT seq, id, thread_id, resource_id, role, created_at, body FROM messages;
    DELETE FROM sqlite_sequence WHERE name = 'messages_v3';
    INSERT INTO sqlite_sequence (name, seq)
        SELECT 'messages_v3', seq FROM sqlite_sequence WHERE name = 'messages';
    DROP TABLE messages;
    ALTER TABLE messages_v3 RENAME TO messages;
    CREATE INDEX messages_thread ON messages(thread_id, seq);
    CREATE TABLE vectors_v3 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        index_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        resource_id TEXT,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE (index_name, thread_id, message_id)
    );
    INSERT INTO vectors_v3 (seq, index_name, message_id, thread_id, resource_id, dim, vector)
        SELECT seq, index_name, message_id, thread_id, resource_id, dim, vector FROM vectors;
    DELETE FROM sqlite_sequence WHERE name = 'vectors_v3';
    INSERT INTO sqlite_sequence (name, seq)
        SELECT 'vectors_v3', seq FROM sqlite_sequence WHERE name = 'vectors';
    DROP TABLE vectors;
    ALTER TABLE vectors_v3 RENAME TO vectors;
    CREATE INDEX vectors_resource ON vectors(index_name, resource_id, seq);
    CREATE INDEX vectors_thread ON vectors(index_name, thread_id, seq);
    UPDATE vector_generation SET generation = generation + 1
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SQLiteStore:
    """A ``MemoryStore`` in a SQLite file (``path`` ``":memory:"``: private, in memory)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            import aiosqlite  # noqa: F401
        except ImportError as e:  # pragma: no cover - depends on the install
            raise MissingDependencyError(
                "the SQLite memory store needs aiosqlite: pip install 'tripwire[memory]'"
            ) from e
        self.path = os.fspath(path)
        self.url = "memory://" if self.path == ":memory:" else f"sqlite:///{self.path}"
        self._conns: PerLoop[Any] = PerLoop(self._open)
        self._lock: asyncio.Lock | None = None
        self._vectors = VectorCache()

    @classmethod
    def from_url(cls, url: str) -> SQLiteStore:
        """``sqlite:///relative.db``, ``sqlite:////absolute.db``, ``sqlite:///:memory:``
        or ``memory://``."""
        if url == "memory://" or url == "sqlite:///:memory:":
            return cls(":memory:")
        if not url.startswith("sqlite:///") or len(url) == len("sqlite:///"):
            raise ConfigurationError(
                f"bad SQLite store URL {url!r}: use sqlite:///relative/path.db, "
                f"sqlite:////absolute/path.db or memory://")
        return cls(url[len("sqlite:///"):])

    def __repr__(self) -> str:
        return f"<SQLiteStore {self.url}>"

    # -- connection
    async def _connection(self) -> Any:
        return await self._conns.get()

    async def _open(self, previous: Any) -> Any:
        if previous is not None:
            if self.path == ":memory:":
                raise RuntimeError(
                    "an in-memory store belongs to the event loop that opened it; use a "
                    "file store (sqlite:///path.db) across event loops")
            # the loop that opened it is gone (generate_sync, a test): let its thread go
            previous.stop()
        import aiosqlite

        if self.path != ":memory:":
            await asyncio.to_thread(prepare_wal_file, self.path, _BUSY_TIMEOUT)
        pending = aiosqlite.connect(self.path, isolation_level=None)
        # aiosqlite's worker thread is not a daemon: a store nobody closed would keep
        # the interpreter from exiting. SQLite needs no goodbye (a transaction cut off
        # is rolled back on the next open), so the thread may die with the process.
        worker = getattr(pending, "_thread", None)
        if worker is not None and not worker.is_alive():
            worker.daemon = True
        conn = await pending
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_TIMEOUT * 1000)}")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await _migrate(conn, self.path)
        except BaseException:
            await conn.close()
            raise
        self._lock = asyncio.Lock()
        return conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Any]:
        """One write transaction (``BEGIN IMMEDIATE``), committed at the end of the
        block or rolled back on any exception (cancellation included)."""
        conn = await self._connection()
        assert self._lock is not None
        async with self._lock:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                await asyncio.shield(conn.execute("ROLLBACK"))
                raise
            await conn.execute("COMMIT")

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        conn = await self._connection()
        assert self._lock is not None
        async with self._lock:  # not inside another coroutine's transaction
            async with conn.execute(sql, params) as cursor:
                return list(await cursor.fetchall())

    async def close(self) -> None:
        conn = self._conns.take()
        if conn is not None:
            await conn.close()

    async def __aenter__(self) -> SQLiteStore:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- messages
    async def save_messages(
        self, thread_id: str, resource_id: str | None, messages: Sequence[Message]
    ) -> None:
        rows = [(m.id, thread_id, resource_id, m.role, m.created_at.isoformat(),
                 json.dumps(_body(m), ensure_ascii=False, allow_nan=False)) for m in messages]
        now = _now()
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO threads (id, resource_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at, "
                "resource_id = COALESCE(threads.resource_id, excluded.resource_id)",
                (thread_id, resource_id, now, now))
            # another resource's thread: the error rolls the touch back
            check_thread_owner(thread_id, await _thread_owner(conn, thread_id), resource_id)
            await conn.executemany(
                "INSERT INTO messages (id, thread_id, resource_id, role, created_at, body) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(thread_id, id) DO UPDATE SET "
                "body = excluded.body, role = excluded.role",
                rows)

    async def last_messages(self, thread_id: str, limit: int) -> list[Message]:
        if limit <= 0:
            return []
        rows = await self._read(
            "SELECT body, thread_id, resource_id FROM messages WHERE thread_id = ? "
            "ORDER BY seq DESC LIMIT ?", (thread_id, limit))
        return [_message(*r) for r in reversed(rows)]

    async def messages_around(
        self, thread_id: str, message_ids: Sequence[str], before: int, after: int
    ) -> list[Message]:
        if not message_ids:
            return []
        marks = ",".join("?" * len(message_ids))
        rows = await self._read(
            f"SELECT seq FROM messages WHERE thread_id = ? AND id IN ({marks})",
            (thread_id, *message_ids))
        wanted: set[int] = set()
        for (seq,) in rows:
            # neighbours by position in the thread (seq may have gaps across threads)
            near = await self._read(
                "SELECT seq FROM (SELECT seq FROM messages WHERE thread_id = ? AND seq < ? "
                "ORDER BY seq DESC LIMIT ?) UNION SELECT seq FROM (SELECT seq FROM messages "
                "WHERE thread_id = ? AND seq >= ? ORDER BY seq LIMIT ?)",
                (thread_id, seq, before, thread_id, seq, after + 1))
            wanted.update(s for (s,) in near)
        if not wanted:
            return []
        marks = ",".join("?" * len(wanted))
        rows = await self._read(
            f"SELECT body, thread_id, resource_id FROM messages WHERE seq IN ({marks}) "
            f"ORDER BY seq", sorted(wanted))
        return [_message(*r) for r in rows]

    # -- threads
    async def get_thread(self, thread_id: str) -> Thread | None:
        rows = await self._read(
            "SELECT t.id, t.resource_id, t.created_at, t.updated_at, "
            "(SELECT COUNT(*) FROM messages m WHERE m.thread_id = t.id) FROM threads t "
            "WHERE t.id = ?", (thread_id,))
        return _thread(rows[0]) if rows else None

    async def list_threads(self, resource_id: str | None = None) -> list[Thread]:
        sql = ("SELECT t.id, t.resource_id, t.created_at, t.updated_at, "
               "(SELECT COUNT(*) FROM messages m WHERE m.thread_id = t.id) FROM threads t")
        params: tuple[Any, ...] = ()
        if resource_id is not None:
            sql += " WHERE t.resource_id = ?"
            params = (resource_id,)
        rows = await self._read(sql + " ORDER BY t.updated_at DESC, t.id", params)
        return [_thread(r) for r in rows]

    async def delete_thread(self, thread_id: str) -> int:
        async with self._write() as conn:
            count = await _count(conn, "SELECT COUNT(*) FROM messages WHERE thread_id = ?",
                                 (thread_id,))
            await conn.execute("DELETE FROM messages WHERE thread_id = ?", (thread_id,))
            await conn.execute("DELETE FROM vectors WHERE thread_id = ?", (thread_id,))
            await _bump_generation(conn)
            await conn.execute("DELETE FROM working_memory WHERE key = ?",
                               (f"thread:{thread_id}",))
            await conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))
        return count

    async def delete_resource(self, resource_id: str) -> int:
        async with self._write() as conn:
            threads = "SELECT id FROM threads WHERE resource_id = ?"
            count = await _count(
                conn, f"SELECT COUNT(*) FROM messages WHERE resource_id = ? OR thread_id IN "
                f"({threads})", (resource_id, resource_id))
            await conn.execute(
                "DELETE FROM working_memory WHERE key = ? OR key IN (SELECT 'thread:' || id "
                "FROM threads WHERE resource_id = ?)", (f"resource:{resource_id}", resource_id))
            await conn.execute(
                f"DELETE FROM vectors WHERE resource_id = ? OR thread_id IN ({threads})",
                (resource_id, resource_id))
            await _bump_generation(conn)
            await conn.execute(
                f"DELETE FROM messages WHERE resource_id = ? OR thread_id IN ({threads})",
                (resource_id, resource_id))
            await conn.execute("DELETE FROM threads WHERE resource_id = ?", (resource_id,))
        return count

    # -- working memory
    async def get_working_memory(self, key: str) -> str | None:
        rows = await self._read("SELECT content FROM working_memory WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def update_working_memory(self, key: str, update: Callable[[str | None], str]) -> str:
        async with self._write() as conn:
            async with conn.execute("SELECT content FROM working_memory WHERE key = ?",
                                    (key,)) as cursor:
                row = await cursor.fetchone()
            text = update(row[0] if row else None)
            if not isinstance(text, str):
                raise TypeError(f"a working memory update must return a str, got "
                                f"{type(text).__name__}")
            await conn.execute(
                "INSERT INTO working_memory (key, content, version, updated_at) VALUES "
                "(?, ?, 1, ?) ON CONFLICT(key) DO UPDATE SET content = excluded.content, "
                "version = working_memory.version + 1, updated_at = excluded.updated_at",
                (key, text, _now()))
        return text

    # -- vectors
    async def save_vectors(self, index: str, rows: Sequence[VectorRow]) -> None:
        latest = {(r.thread_id, r.message_id): r for r in rows}  # a message's last row
        values = [(index, r.message_id, r.thread_id, r.resource_id, len(r.vector),
                   pack(r.vector)) for r in latest.values()]
        threads: dict[str, list[VectorRow]] = {}
        for r in latest.values():
            threads.setdefault(r.thread_id, []).append(r)
        async with self._write() as conn:
            replaced = 0
            for thread_id, saved in threads.items():
                owner = await _thread_owner(conn, thread_id)
                for r in saved:
                    check_thread_owner(thread_id, owner, r.resource_id)
                for start in range(0, len(saved), 500):  # saved again: check, remove, bump
                    chunk = [r.message_id for r in saved[start:start + 500]]
                    where = (f"index_name = ? AND thread_id = ? AND message_id IN "
                             f"({','.join('?' * len(chunk))})")
                    async with conn.execute(f"SELECT message_id, resource_id FROM vectors "
                                            f"WHERE {where}", (index, thread_id, *chunk)) as c:
                        for message_id, stored in await c.fetchall():
                            check_thread_owner(thread_id, stored,
                                               latest[thread_id, message_id].resource_id,
                                               message_id)
                    cursor = await conn.execute(f"DELETE FROM vectors WHERE {where}",
                                                (index, thread_id, *chunk))
                    replaced += cursor.rowcount
            if replaced:
                await _bump_generation(conn)
            await conn.executemany(
                "INSERT INTO vectors (index_name, message_id, thread_id, resource_id, dim, "
                "vector) VALUES (?, ?, ?, ?, ?, ?)", values)

    async def query_vectors(
        self, index: str, vector: Sequence[float], top_k: int, *,
        resource_id: str | None = None, thread_id: str | None = None,
    ) -> list[VectorHit]:
        key = (index, len(vector), thread_id, resource_id)
        sql = ("SELECT seq, message_id, thread_id, vector FROM vectors WHERE index_name = ? "
               "AND dim = ? AND seq > ?")
        params: list[Any] = [index, len(vector)]
        if thread_id is not None:
            sql += " AND thread_id = ?"
        if resource_id is not None:
            sql += " AND resource_id = ?"
        conn = await self._connection()
        assert self._lock is not None
        async with self._lock:  # one snapshot: the generation and the rows after it
            await conn.execute("BEGIN")
            try:
                async with conn.execute("SELECT generation FROM vector_generation") as cursor:
                    (generation,) = await cursor.fetchone()
                since = self._vectors.since(key, generation)
                filters = [f for f in (thread_id, resource_id) if f is not None]
                async with conn.execute(sql + " ORDER BY seq",
                                        (*params, since, *filters)) as cursor:
                    new = list(await cursor.fetchall())
            finally:
                await conn.execute("COMMIT")
        entry = self._vectors.update(key, generation, new)
        if len(entry.rows) > 2000:
            return await asyncio.to_thread(self._vectors.rank, entry, vector, top_k)
        return self._vectors.rank(entry, vector, top_k)


def _body(message: Message) -> dict[str, Any]:
    body = message_to_dict(message)
    body.pop("thread_id", None)
    body.pop("resource_id", None)
    return body


def _message(body: str, thread_id: str, resource_id: str | None) -> Message:
    value = json.loads(body)
    value["thread_id"], value["resource_id"] = thread_id, resource_id
    return message_from_dict(value)


def _thread(row: Sequence[Any]) -> Thread:
    return Thread(row[0], row[1], datetime.fromisoformat(row[2]),
                  datetime.fromisoformat(row[3]), int(row[4]))


async def _thread_owner(conn: Any, thread_id: str) -> str | None:
    """The resource a thread belongs to (None: no such thread, or saved with none)."""
    async with conn.execute("SELECT resource_id FROM threads WHERE id = ?",
                            (thread_id,)) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def _bump_generation(conn: Any) -> None:
    """Vectors were removed or replaced: in-memory copies must be read again."""
    await conn.execute("UPDATE vector_generation SET generation = generation + 1")


async def _count(conn: Any, sql: str, params: Sequence[Any]) -> int:
    async with conn.execute(sql, params) as cursor:
        row = await cursor.fetchone()
    return int(row[0])


async def _migrate(conn: Any, path: str) -> None:
    async with conn.execute("PRAGMA user_version") as cursor:
        (version,) = await cursor.fetchone()
    if version > SCHEMA_VERSION:
        raise ConfigurationError(
            f"memory store {path} has schema version {version}, newer than this tripwire "
            f"knows ({SCHEMA_VERSION}); upgrade tripwire")
    while version < SCHEMA_VERSION:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            async with conn.execute("PRAGMA user_version") as cursor:
                (current,) = await cursor.fetchone()
            if current == version:  # another process may have migrated meanwhile
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {version + 1}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        async with conn.execute("PRAGMA user_version") as cursor:
            (version,) = await cursor.fetchone()
