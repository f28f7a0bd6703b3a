"""Memory stores the parametrised store suite runs against: SQLite files in a temp dir,
SQLite in memory, and a real PostgreSQL server when tripwire-postgres is installed
(tests/postgres_server.py starts one; see there for when it is skipped)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tripwire.memory import open_store

STORE_KINDS = ["sqlite", "sqlite-memory", "postgres"]


@pytest.fixture(params=STORE_KINDS)
def make_store(request: Any, tmp_path: Any) -> Callable[[], Any]:
    """A function opening a new store of the kind (an async context manager): for
    hypothesis tests, whose examples each run in an event loop of their own. Stores of
    one test share their data, except in-memory ones."""
    kind = request.param
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path}/chat.db"
    elif kind == "sqlite-memory":
        url = "memory://"
    else:
        url = request.getfixturevalue("postgres_url")

    @asynccontextmanager
    async def make() -> AsyncIterator[Any]:
        s = open_store(url)
        try:
            yield s
        finally:
            await s.close()

    return make


@pytest.fixture
async def store(make_store: Callable[[], Any]) -> AsyncIterator[Any]:
    async with make_store() as s:
        yield s
