"""Putting an SQLite file in WAL mode when other processes may be opening it too.

SQLite answers ``PRAGMA journal_mode = WAL`` with "database is locked" at once,
without calling the busy handler, when another connection is switching the same
fresh file at the same moment (it needs an exclusive lock while others hold shared
ones, and waiting could deadlock). ``busy_timeout`` therefore does not cover it;
this retries with a short backoff until the timeout. The mode is stored in the
file, so every later connection finds it already set.
"""

from __future__ import annotations

import sqlite3
import time


def enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch ``conn``'s database to WAL, retrying a lock for up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def prepare_wal_file(path: str, timeout: float) -> None:
    """Open ``path`` (creating it), put it in WAL mode, and close it again: for
    connections (such as aiosqlite's) that cannot run :func:`enable_wal` themselves."""
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    try:
        enable_wal(conn, timeout)
    finally:
        conn.close()
