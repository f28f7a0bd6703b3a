"""What only the SQLite store does: URLs, schema version and migrations, WAL, and a
save that is all or nothing even when the process dies in the middle of it."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from tripwire import ConfigurationError, Message
from tripwire.memory import open_store
from tripwire.memory.sqlite import SCHEMA_VERSION, SQLiteStore


@pytest.mark.parametrize("url, path", [
    ("sqlite:///chat.db", "chat.db"), ("sqlite:////tmp/x/chat.db", "/tmp/x/chat.db"),
    ("memory://", ":memory:"), ("sqlite:///:memory:", ":memory:"),
])
def test_urls(url, path):
    store = open_store(url)
    assert isinstance(store, SQLiteStore) and store.path == path


@pytest.mark.parametrize("url", ["sqlite://chat.db", "sqlite:///", "chat.db", "redis://x"])
def test_bad_urls_say_what_is_valid(url):
    with pytest.raises(ConfigurationError, match="sqlite:///"):
        open_store(url)


def test_a_store_object_is_taken_as_it_is_and_anything_else_refused(tmp_path):
    store = SQLiteStore(tmp_path / "a.db")
    assert open_store(store) is store
    with pytest.raises(ConfigurationError, match="MemoryStore"):
        open_store(42)  # type: ignore[arg-type]


async def test_a_new_file_gets_the_schema_in_wal_mode(tmp_path):
    async with SQLiteStore(tmp_path / "a.db") as store:
        await store.save_messages("t", None, [Message.user("hi")])
    db = sqlite3.connect(tmp_path / "a.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


async def test_a_file_from_a_newer_tripwire_is_refused(tmp_path):
    db = sqlite3.connect(tmp_path / "a.db")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    async with SQLiteStore(tmp_path / "a.db") as store:
        with pytest.raises(ConfigurationError, match="newer than this tripwire knows"):
            await store.last_messages("t", 1)


async def test_migrations_run_in_order_and_only_once(tmp_path, monkeypatch):
    from tripwire.memory import sqlite as module

    async with SQLiteStore(tmp_path / "a.db") as store:
        await store.save_messages("t", None, [Message.user("kept")])
    extra = "ALTER TABLE threads ADD COLUMN title TEXT"
    monkeypatch.setattr(module, "MIGRATIONS", (*module.MIGRATIONS, extra))
    monkeypatch.setattr(module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    for _ in range(2):  # the second open finds the file up to date
        async with SQLiteStore(tmp_path / "a.db") as store:
            assert [m.text for m in await store.last_messages("t", 5)] == ["kept"]
    db = sqlite3.connect(tmp_path / "a.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert "title" in [r[1] for r in db.execute("PRAGMA table_info(threads)")]
    db.close()


CRASH = textwrap.dedent("""
    import asyncio, os, sys
    from tripwire import Message
    from tripwire.memory.sqlite import SQLiteStore

    async def main():
        store = SQLiteStore(sys.argv[1])
        await store.save_messages("t", "r", [Message.user("first run")])
        conn = await store._connection()
        real = conn.execute
        def execute(sql, *args):
            if sql == "COMMIT":  # everything of the run is written, not yet committed
                os._exit(9)
            return real(sql, *args)
        conn.execute = execute
        await store.save_messages("t", "r", [Message.user(f"m{i}") for i in range(50)])

    asyncio.run(main())
""")


async def test_a_process_killed_mid_save_leaves_no_half_written_run(tmp_path):
    path = tmp_path / "a.db"
    done = subprocess.run([sys.executable, "-c", CRASH, str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    async with SQLiteStore(path) as store:
        assert [m.text for m in await store.last_messages("t", 100)] == ["first run"]
        assert (await store.get_thread("t")).message_count == 1


async def test_a_cancelled_save_is_rolled_back_and_the_store_stays_usable(tmp_path):
    async with SQLiteStore(tmp_path / "a.db") as store:
        await store.save_messages("t", None, [Message.user("before")])
        entered = asyncio.Event()

        def slow(old):
            entered.set()
            return "x"

        conn = await store._connection()
        real = conn.executemany

        async def executemany(sql, rows):
            entered.set()
            await asyncio.sleep(10)
            return await real(sql, rows)

        conn.executemany = executemany
        task = asyncio.ensure_future(store.save_messages("t", None, [Message.user("lost")]))
        await entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        conn.executemany = real
        await store.save_messages("t", None, [Message.user("after")])
        assert [m.text for m in await store.last_messages("t", 10)] == ["before", "after"]


async def test_two_processes_share_one_file(tmp_path):
    path = tmp_path / "a.db"
    script = textwrap.dedent("""
        import asyncio, sys
        from tripwire import Message
        from tripwire.memory.sqlite import SQLiteStore
        async def main():
            async with SQLiteStore(sys.argv[1]) as s:
                for i in range(20):
                    await s.save_messages("t", None, [Message.user(sys.argv[2] + str(i))])
        asyncio.run(main())
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path), tag])
             for tag in ("a", "b")]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    async with SQLiteStore(path) as store:
        texts = [m.text for m in await store.last_messages("t", 100)]
    assert sorted(texts) == sorted([f"{t}{i}" for t in "ab" for i in range(20)])


async def test_a_version_1_file_keeps_its_vectors_through_the_migration(tmp_path):
    from tripwire.memory.sqlite import MIGRATIONS
    from tripwire.memory.store import pack

    db = sqlite3.connect(tmp_path / "old.db")
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO vectors VALUES ('ix', 'm1', 't', 'r', 2, ?)",
               (pack([1.0, 0.0]),))
    db.commit()
    db.close()
    async with SQLiteStore(tmp_path / "old.db") as store:
        hits = await store.query_vectors("ix", [1.0, 0.0], 4, resource_id="r")
        assert [(h.message_id, round(h.score, 6)) for h in hits] == [("m1", 1.0)]


async def test_a_version_2_file_keeps_its_messages_and_vectors_and_scopes_ids_after(tmp_path):
    """Version 2 keyed a message and a vector by its id alone; the file, written here as
    that version wrote it, keeps everything (in order) and takes the same id in another
    thread without touching the first."""
    import json

    from tripwire.memory import VectorRow
    from tripwire.memory.sqlite import MIGRATIONS
    from tripwire.memory.store import pack
    from tripwire.messages.serde import message_to_dict

    def row(seq, thread, text):
        m = Message.user(text)
        m.id = f"m{seq}"
        return (seq, m.id, thread, "alice", "user", m.created_at.isoformat(),
                json.dumps(message_to_dict(m)))

    db = sqlite3.connect(tmp_path / "old.db")
    for migration in MIGRATIONS[:2]:  # the schema of version 2, as it was released
        db.executescript(migration)
    db.execute("PRAGMA user_version = 2")
    db.executemany("INSERT INTO threads VALUES (?, 'alice', '2024-01-01T00:00:00+00:00', "
                   "'2024-01-01T00:00:00+00:00')", [("ta",), ("tb",)])
    db.executemany("INSERT INTO messages (seq, id, thread_id, resource_id, role, created_at, "
                   "body) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [row(1, "ta", "first"), row(2, "tb", "elsewhere"), row(7, "ta", "second"),
                    row(9, "tb", "deleted")])
    db.execute("DELETE FROM messages WHERE seq = 9")  # seq 9 stays used (AUTOINCREMENT)
    db.execute("INSERT INTO vectors (index_name, message_id, thread_id, resource_id, dim, "
               "vector) VALUES ('ix', 'm1', 'ta', 'alice', 2, ?)", (pack([1.0, 0.0]),))
    db.commit()
    db.close()
    async with SQLiteStore(tmp_path / "old.db") as store:
        assert [(m.id, m.text) for m in await store.last_messages("ta", 10)] == \
            [("m1", "first"), ("m7", "second")]
        bob = Message.user("bob's text")
        bob.id = "m1"
        await store.save_messages("tc", "bob", [bob])
        await store.save_vectors("ix", [VectorRow("m1", "tc", "bob", [0.0, 1.0])])
        await store.save_messages("ta", "alice", [Message.user("third")])
        assert [(m.id, m.text) for m in await store.last_messages("ta", 10)][:2] == \
            [("m1", "first"), ("m7", "second")]
        assert [m.text for m in await store.last_messages("ta", 10)][2:] == ["third"]
        assert [m.text for m in await store.last_messages("tc", 10)] == ["bob's text"]
        hits = await store.query_vectors("ix", [1.0, 0.0], 4, resource_id="alice")
        assert [(h.message_id, h.thread_id, round(h.score, 6)) for h in hits] == \
            [("m1", "ta", 1.0)]
        assert await store.delete_thread("ta") == 3  # the foreign key still cascades
        assert [m.text for m in await store.last_messages("tb", 10)] == ["elsewhere"]
    db = sqlite3.connect(tmp_path / "old.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone() \
        == (11,)  # the third message and bob's took 10 and 11: no seq was used twice
    db.close()


async def test_vectors_kept_in_memory_follow_every_change_even_from_another_process(tmp_path):
    from tripwire.memory import VectorRow

    def ids(hits):
        return sorted(h.message_id for h in hits)

    async with SQLiteStore(tmp_path / "a.db") as mine, SQLiteStore(tmp_path / "a.db") as other:
        await mine.save_messages("t1", "r", [])
        await mine.save_vectors("ix", [VectorRow("a", "t1", "r", [1.0, 0.0])])
        assert ids(await mine.query_vectors("ix", [1.0, 0.0], 9, resource_id="r")) == ["a"]
        await other.save_vectors("ix", [VectorRow("b", "t2", "r", [0.0, 1.0])])  # added
        assert ids(await mine.query_vectors("ix", [1.0, 0.0], 9, resource_id="r")) == ["a", "b"]
        await other.save_vectors("ix", [VectorRow("a", "t1", "r", [0.0, 1.0])])  # replaced
        hits = await mine.query_vectors("ix", [0.0, 1.0], 9, resource_id="r")
        assert [round(h.score, 6) for h in hits] == [1.0, 1.0]
        await other.delete_thread("t2")  # removed
        assert ids(await mine.query_vectors("ix", [1.0, 0.0], 9, resource_id="r")) == ["a"]
        await other.save_vectors("ix", [VectorRow("c", "t3", "r", [1.0, 1.0])])
        await other.delete_resource("r")
        assert await mine.query_vectors("ix", [1.0, 0.0], 9, resource_id="r") == []


async def test_a_query_while_vectors_are_added_sees_a_consistent_set(tmp_path):
    from tripwire.memory import VectorRow

    async with SQLiteStore(tmp_path / "a.db") as store:
        await store.save_vectors("ix", [VectorRow(f"m{i}", "t", "r", [1.0, float(i)])
                                        for i in range(2500)])

        async def add(i):
            await store.save_vectors("ix", [VectorRow(f"n{i}", "t", "r", [1.0, 0.5])])

        results = await asyncio.gather(
            *(store.query_vectors("ix", [1.0, 0.0], 3, resource_id="r") for _ in range(5)),
            *(add(i) for i in range(5)))
        assert all(len(r) == 3 for r in results[:5])
        final = await store.query_vectors("ix", [1.0, 0.5], 10_000, resource_id="r")
        assert len(final) == 2505


async def test_vectors_added_run_by_run_are_all_searched(tmp_path):
    from tripwire.memory import VectorRow

    async with SQLiteStore(tmp_path / "a.db") as store:
        for i in range(40):  # more additions than the cache keeps separate matrices for
            await store.save_vectors("ix", [VectorRow(f"m{i}", "t", "r", [1.0, float(i)])])
            hits = await store.query_vectors("ix", [0.0, 1.0], 100, resource_id="r")
            assert sorted(h.message_id for h in hits) == sorted(f"m{j}" for j in range(i + 1))
            assert hits[0].message_id == f"m{i}"


async def test_a_filter_with_more_vectors_than_are_kept_in_memory_is_still_searched(tmp_path):
    from tripwire.memory import VectorRow
    from tripwire.memory._vector_cache import VectorCache

    async with SQLiteStore(tmp_path / "a.db") as store:
        store._vectors = VectorCache(max_rows=5)
        await store.save_vectors("ix", [VectorRow(f"m{i}", "t", "r", [1.0, float(i)])
                                        for i in range(8)])
        for _ in range(2):  # nothing kept: read whole each time
            hits = await store.query_vectors("ix", [0.0, 1.0], 3, resource_id="r")
            assert [h.message_id for h in hits] == ["m7", "m6", "m5"]
        small = await store.query_vectors("ix", [0.0, 1.0], 3, thread_id="t")
        assert len(small) == 3
