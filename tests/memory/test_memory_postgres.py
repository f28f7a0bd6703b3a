"""The PostgreSQL store's own guarantees beyond the shared store suite: a process killed
in the middle of saving a run leaves nothing of that run (one transaction per save), and
a database of an older schema is migrated with what it holds."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tripwire import Message

CRASH = textwrap.dedent("""
    import asyncio, os, sys
    import asyncpg
    from tripwire import Message
    from tripwire_postgres import PostgresStore

    async def main():
        store = PostgresStore(sys.argv[1])
        await store.save_messages("t", "r", [Message.user("first run")])
        real = asyncpg.connection.Connection.executemany

        async def executemany(self, *args, **kwargs):
            await real(self, *args, **kwargs)
            os._exit(9)  # the run's messages are written, the transaction not committed

        asyncpg.connection.Connection.executemany = executemany
        await store.save_messages("t", "r", [Message.user(f"m{i}") for i in range(50)])

    asyncio.run(main())
""")


async def test_a_process_killed_mid_save_leaves_no_half_written_run(postgres_url):
    from tripwire_postgres import PostgresStore

    done = subprocess.run([sys.executable, "-c", CRASH, postgres_url], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    async with PostgresStore(postgres_url) as store:
        assert [m.text for m in await store.last_messages("t", 100)] == ["first run"]
        assert (await store.get_thread("t")).message_count == 1
        await store.save_messages("t", "r", [Message.user("after")])  # the store is fine
        assert [m.text for m in await store.last_messages("t", 100)] == ["first run", "after"]


async def test_a_version_1_database_keeps_its_messages_and_vectors_and_scopes_ids_after(
        postgres_url):
    """Version 1 keyed a message and a vector by its id alone; a database written as that
    version wrote it keeps everything and takes the same id in another thread without
    touching the first."""
    import json
    from datetime import UTC, datetime

    import asyncpg
    from tripwire_postgres import MIGRATIONS, SCHEMA_VERSION, PostgresStore

    from tripwire.memory import VectorRow
    from tripwire.memory.store import pack
    from tripwire.messages.serde import message_to_dict

    def row(seq, thread, text):
        m = Message.user(text)
        m.id = f"m{seq}"
        return (seq, m.id, thread, "alice", "user", m.created_at.isoformat(),
                json.dumps(message_to_dict(m)))

    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(MIGRATIONS[0])  # the schema of version 1, as it was released
        await conn.execute("CREATE TABLE tripwire_memory_schema (version INTEGER NOT NULL); "
                           "INSERT INTO tripwire_memory_schema VALUES (1)")
        await conn.executemany("INSERT INTO tripwire_threads VALUES ($1, 'alice', $2, $2)",
                               [("ta", datetime.now(UTC)), ("tb", datetime.now(UTC))])
        await conn.executemany(
            "INSERT INTO tripwire_messages (seq, id, thread_id, resource_id, role, "
            "created_at, body) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [row(1, "ta", "first"), row(2, "tb", "elsewhere"), row(7, "ta", "second")])
        await conn.execute("SELECT setval('tripwire_messages_seq_seq', 7)")
        await conn.execute("INSERT INTO tripwire_vectors VALUES ('ix', 'm1', 'ta', 'alice', 2, "
                           "$1)", pack([1.0, 0.0]))
    finally:
        await conn.close()
    async with PostgresStore(postgres_url) as store:
        assert [(m.id, m.text) for m in await store.last_messages("ta", 10)] == \
            [("m1", "first"), ("m7", "second")]
        bob = Message.user("bob's text")
        bob.id = "m1"
        await store.save_messages("tc", "bob", [bob])
        await store.save_vectors("ix", [VectorRow("m1", "tc", "bob", [0.0, 1.0])])
        await store.save_messages("ta", "alice", [Message.user("third")])
        assert [m.text for m in await store.last_messages("ta", 10)] == \
            ["first", "second", "third"]
        assert [m.text for m in await store.last_messages("tc", 10)] == ["bob's text"]
        hits = await store.query_vectors("ix", [1.0, 0.0], 4, resource_id="alice")
        assert [(h.message_id, h.thread_id, round(h.score, 6)) for h in hits] == \
            [("m1", "ta", 1.0)]
        assert await store.delete_thread("ta") == 3
        assert [m.text for m in await store.last_messages("tb", 10)] == ["elsewhere"]
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT max(version) FROM tripwire_memory_schema") == \
            SCHEMA_VERSION
    finally:
        await conn.close()
