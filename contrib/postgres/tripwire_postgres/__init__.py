"""A PostgreSQL ``MemoryStore`` for tripwire (``postgresql://user:pw@host/db``).

See README.md. The protocol is ``tripwire.memory.MemoryStore``; this module mirrors
``tripwire.memory.sqlite`` table for table.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from tripwire.errors import ConfigurationError
from tripwire.memory.store import (
    Thread,
    VectorHit,
    VectorRow,
    check_thread_owner,
    pack,
    rank,
)
from tripwire.messages import Message
from tripwire.messages.serde import message_from_dict, message_to_dict
from tripwire.per_loop import PerLoop

__all__ = ["PostgresStore", "MIGRATIONS"]

#: ``MIGRATIONS[i]`` upgrades schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tripwire_threads (
        id TEXT PRIMARY KEY,
        resource_id TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX tripwire_threads_resource ON tripwire_threads(resource_id, updated_at);
    CREATE TABLE tripwire_messages (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL REFERENCES tripwire_threads(id) ON DELETE CASCADE,
        resource_id TEXT,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX tripwire_messages_thread ON tripwire_messages(thread_id, seq);
    CREATE TABLE tripwire_working_memory (
        key TEXT PRIMARY KEY,
        content TEXT,
        version BIGINT NOT NULL DEFAULT 0,
        updated_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE tripwire_vectors (
        index_name TEXT NOT NULL,
        message_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        resource_id TEXT,
        dim INTEGER NOT NULL,
        vector BYTEA NOT NULL,
        PRIMARY KEY (index_name, message_id)
    );
    CREATE INDEX tripwire_vectors_resource ON tripwire_vectors(index_name, resource_id);
    CREATE INDEX tripwire_vectors_thread ON tripwire_vectors(index_name, thread_id);
    """,
    # 2: a message (and its vector) is identified by its thread and its id, no longer by
    # its id alone: ids come from callers, and a save of one thread replaced (moved) the
    # message of another thread, of another resource too
    """
    ALTER TABLE tripwire_messages DROP CONSTRAINT tripwire_messages_id_key;
    ALTER TABLE tripwire_messages ADD CONSTRAINT tripwire_messages_thread_id_id_key
        UNIQUE (thread_id, id);
    ALTER TABLE tripwire_vectors DROP CONSTRAINT tripwire_vectors_pkey;
    ALTER TABLE tripwire_vectors ADD PRIMARY KEY (index_name, thread_id, message_id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
_LOCK_ID = 0x7472697077697265  # "tripwire": the advisory lock migrations run under


class PostgresStore:
    """A ``MemoryStore`` in PostgreSQL. ``min_size`` / ``max_size``: the pool's."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ConfigurationError(
                f"a Postgres store URL starts with postgresql:// or postgres://, got {url!r}")
        self.url = url
        self.min_size, self.max_size = min_size, max_size
        self._pools: PerLoop[Any] = PerLoop(self._open)

    def __repr__(self) -> str:
        from tripwire.models import mask_url

        return f"<PostgresStore {mask_url(self.url)}>"

    async def _get_pool(self) -> Any:
        return await self._pools.get()

    async def _open(self, previous: Any) -> Any:
        import asyncpg

        if previous is not None:  # opened in an event loop that is gone
            previous.terminate()
        pool = await asyncpg.create_pool(self.url, min_size=self.min_size,
                                         max_size=self.max_size)
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return pool

    async def close(self) -> None:
        pool = self._pools.take()
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- messages
    async def save_messages(
        self, thread_id: str, resource_id: str | None, messages: Sequence[Message]
    ) -> None:
        rows = [(m.id, thread_id, resource_id, m.role, m.created_at.isoformat(),
                 json.dumps(_body(m), ensure_ascii=False, allow_nan=False)) for m in messages]
        now = datetime.now(UTC)
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            # the thread's row stays locked until commit: its owner cannot change meanwhile
            owner = await conn.fetchval(
                "INSERT INTO tripwire_threads (id, resource_id, created_at, updated_at) "
                "VALUES ($1, $2, $3, $3) ON CONFLICT (id) DO UPDATE SET updated_at = "
                "GREATEST(tripwire_threads.updated_at, excluded.updated_at), resource_id = "
                "COALESCE(tripwire_threads.resource_id, excluded.resource_id) "
                "RETURNING resource_id", thread_id, resource_id, now)
            check_thread_owner(thread_id, owner, resource_id)  # rolls the touch back
            await conn.executemany(
                "INSERT INTO tripwire_messages (id, thread_id, resource_id, role, created_at, "
                "body) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (thread_id, id) DO UPDATE "
                "SET body = excluded.body, role = excluded.role", rows)

    async def last_messages(self, thread_id: str, limit: int) -> list[Message]:
        if limit <= 0:
            return []
        pool = await self._get_pool()
        rows = await pool.fetch(
            "SELECT body, thread_id, resource_id FROM tripwire_messages WHERE thread_id = $1 "
            "ORDER BY seq DESC LIMIT $2", thread_id, limit)
        return [_message(*r) for r in reversed(rows)]

    async def messages_around(
        self, thread_id: str, message_ids: Sequence[str], before: int, after: int
    ) -> list[Message]:
        if not message_ids:
            return []
        pool = await self._get_pool()
        rows = await pool.fetch(
            "WITH t AS (SELECT seq, id, row_number() OVER (ORDER BY seq) AS n "
            "FROM tripwire_messages WHERE thread_id = $1), hit AS (SELECT n FROM t WHERE "
            "id = ANY($2::text[])) SELECT m.body, m.thread_id, m.resource_id FROM t "
            "JOIN tripwire_messages m ON m.seq = t.seq WHERE EXISTS (SELECT 1 FROM hit "
            "WHERE t.n BETWEEN hit.n - $3 AND hit.n + $4) ORDER BY t.seq",
            thread_id, list(message_ids), before, after)
        return [_message(*r) for r in rows]

    # -- threads
    _THREADS = ("SELECT t.id, t.resource_id, t.created_at, t.updated_at, (SELECT COUNT(*) "
                "FROM tripwire_messages m WHERE m.thread_id = t.id) FROM tripwire_threads t")

    async def get_thread(self, thread_id: str) -> Thread | None:
        pool = await self._get_pool()
        row = await pool.fetchrow(self._THREADS + " WHERE t.id = $1", thread_id)
        return _thread(row) if row else None

    async def list_threads(self, resource_id: str | None = None) -> list[Thread]:
        pool = await self._get_pool()
        if resource_id is None:
            rows = await pool.fetch(self._THREADS + " ORDER BY t.updated_at DESC, t.id")
        else:
            rows = await pool.fetch(self._THREADS + " WHERE t.resource_id = $1 ORDER BY "
                                    "t.updated_at DESC, t.id", resource_id)
        return [_thread(r) for r in rows]

    async def delete_thread(self, thread_id: str) -> int:
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            count = await conn.fetchval(
                "SELECT COUNT(*) FROM tripwire_messages WHERE thread_id = $1", thread_id)
            await conn.execute("DELETE FROM tripwire_messages WHERE thread_id = $1", thread_id)
            await conn.execute("DELETE FROM tripwire_vectors WHERE thread_id = $1", thread_id)
            await conn.execute("DELETE FROM tripwire_working_memory WHERE key = $1",
                               f"thread:{thread_id}")
            await conn.execute("DELETE FROM tripwire_threads WHERE id = $1", thread_id)
        return int(count)

    async def delete_resource(self, resource_id: str) -> int:
        threads = "SELECT id FROM tripwire_threads WHERE resource_id = $1"
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            count = await conn.fetchval(
                f"SELECT COUNT(*) FROM tripwire_messages WHERE resource_id = $1 OR thread_id "
                f"IN ({threads})", resource_id)
            await conn.execute(
                "DELETE FROM tripwire_working_memory WHERE key = 'resource:' || $1::text OR key "
                "IN (SELECT 'thread:' || id FROM tripwire_threads WHERE resource_id = $1)",
                resource_id)
            await conn.execute(f"DELETE FROM tripwire_vectors WHERE resource_id = $1 OR "
                               f"thread_id IN ({threads})", resource_id)
            await conn.execute(f"DELETE FROM tripwire_messages WHERE resource_id = $1 OR "
                               f"thread_id IN ({threads})", resource_id)
            await conn.execute("DELETE FROM tripwire_threads WHERE resource_id = $1",
                               resource_id)
        return int(count)

    # -- working memory
    async def get_working_memory(self, key: str) -> str | None:
        pool = await self._get_pool()
        value: str | None = await pool.fetchval(
            "SELECT content FROM tripwire_working_memory WHERE key = $1", key)
        return value

    async def update_working_memory(self, key: str, update: Callable[[str | None], str]) -> str:
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            # make sure the row exists, then lock it: concurrent updates queue up here
            await conn.execute(
                "INSERT INTO tripwire_working_memory (key, content, version, updated_at) "
                "VALUES ($1, NULL, 0, now()) ON CONFLICT (key) DO NOTHING", key)
            old = await conn.fetchval(
                "SELECT content FROM tripwire_working_memory WHERE key = $1 FOR UPDATE", key)
            text = update(old)
            if not isinstance(text, str):
                raise TypeError(f"a working memory update must return a str, got "
                                f"{type(text).__name__}")
            await conn.execute(
                "UPDATE tripwire_working_memory SET content = $2, version = version + 1, "
                "updated_at = now() WHERE key = $1", key, text)
        return text

    # -- vectors
    async def save_vectors(self, index: str, rows: Sequence[VectorRow]) -> None:
        latest = {(r.thread_id, r.message_id): r for r in rows}  # a message's last row
        if not latest:
            return
        saving = list(latest.values())
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            owners = dict(await conn.fetch(
                "SELECT id, resource_id FROM tripwire_threads WHERE id = ANY($1::text[])",
                list({r.thread_id for r in saving})))
            for r in saving:
                check_thread_owner(r.thread_id, owners.get(r.thread_id), r.resource_id)
            # a stored vector of another resource is not updated, so not returned (the
            # WHERE decides after a concurrent insert of the same row commits, too)
            saved = await conn.fetch(
                "INSERT INTO tripwire_vectors (index_name, message_id, thread_id, resource_id, "
                "dim, vector) SELECT $1::text, * FROM unnest($2::text[], $3::text[], "
                "$4::text[], $5::int[], $6::bytea[]) ON CONFLICT (index_name, thread_id, "
                "message_id) DO UPDATE SET vector = excluded.vector, dim = excluded.dim, "
                "resource_id = excluded.resource_id WHERE tripwire_vectors.resource_id IS NULL "
                "OR excluded.resource_id IS NULL OR tripwire_vectors.resource_id = "
                "excluded.resource_id RETURNING thread_id, message_id",
                index, [r.message_id for r in saving], [r.thread_id for r in saving],
                [r.resource_id for r in saving], [len(r.vector) for r in saving],
                [pack(r.vector) for r in saving])
            if len(saved) < len(saving):
                await _refuse_unsaved(conn, index, saving, {tuple(s) for s in saved})

    async def query_vectors(
        self, index: str, vector: Sequence[float], top_k: int, *,
        resource_id: str | None = None, thread_id: str | None = None,
    ) -> list[VectorHit]:
        sql = ("SELECT message_id, thread_id, vector FROM tripwire_vectors WHERE "
               "index_name = $1 AND dim = $2")
        params: list[Any] = [index, len(vector)]
        if thread_id is not None:
            params.append(thread_id)
            sql += f" AND thread_id = ${len(params)}"
        if resource_id is not None:
            params.append(resource_id)
            sql += f" AND resource_id = ${len(params)}"
        pool = await self._get_pool()
        rows = [(r[0], r[1], bytes(r[2])) for r in await pool.fetch(sql, *params)]
        if len(rows) > 2000:
            return await asyncio.to_thread(rank, vector, rows, top_k)
        return rank(vector, rows, top_k)


async def _refuse_unsaved(
    conn: Any, index: str, saving: Sequence[VectorRow], saved: set[tuple[str, str]],
) -> None:
    """Raise the ``ThreadOwnerError`` of the first row the upsert left alone (its
    stored vector belongs to another resource); the transaction is rolled back."""
    for r in saving:
        if (r.thread_id, r.message_id) not in saved:
            stored = await conn.fetchval(
                "SELECT resource_id FROM tripwire_vectors WHERE index_name = $1 AND "
                "thread_id = $2 AND message_id = $3", index, r.thread_id, r.message_id)
            check_thread_owner(r.thread_id, stored, r.resource_id, r.message_id)
    raise RuntimeError(f"saving vectors to {index!r}: {len(saving) - len(saved)} row(s) "
                       f"were neither inserted nor updated")


def _body(message: Message) -> dict[str, Any]:
    body = message_to_dict(message)
    body.pop("thread_id", None)
    body.pop("resource_id", None)
    return body


def _message(body: str, thread_id: str, resource_id: str | None) -> Message:
    value = json.loads(body)
    value["thread_id"], value["resource_id"] = thread_id, resource_id
    return message_from_dict(value)


def _thread(row: Any) -> Thread:
    return Thread(row[0], row[1], row[2], row[3], int(row[4]))


async def _migrate(conn: Any) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_ID)
        await conn.execute("CREATE TABLE IF NOT EXISTS tripwire_memory_schema "
                           "(version INTEGER NOT NULL)")
        version = await conn.fetchval("SELECT max(version) FROM tripwire_memory_schema") or 0
        if version > SCHEMA_VERSION:
            raise ConfigurationError(
                f"the Postgres memory schema is at version {version}, newer than this "
                f"tripwire-postgres knows ({SCHEMA_VERSION}); upgrade tripwire-postgres")
        for v in range(version, SCHEMA_VERSION):
            await conn.execute(MIGRATIONS[v])
            await conn.execute("INSERT INTO tripwire_memory_schema (version) VALUES ($1)",
                               v + 1)
