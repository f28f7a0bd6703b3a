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
