"""The PostgreSQL store's own guarantees beyond the shared store suite: a process killed
in the middle of saving a run leaves nothing of that run (one transaction per save)."""

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
