"""Resources that belong to the event loop that opened them.

A connection pool, a database connection or a client is bound to the event loop it was
opened in. A store or a cache backend object lives longer than a loop: ``generate_sync``
runs each call in a new one, and tests make their own. ``PerLoop`` holds such a resource
for its owner: opened on first use in a loop (concurrent first uses share one opening),
opened again when used from another loop, the old one handed to the opener to let go of.
tripwire's memory stores use it, and so can a store or backend of yours::

    class MyStore:
        def __init__(self, url):
            self.url = url
            self._pool = PerLoop(self._open)

        async def _open(self, previous):
            if previous is not None:        # opened in a loop that is gone
                previous.terminate()
            return await make_pool(self.url)

        async def save(self, ...):
            pool = await self._pool.get()
            ...

        async def close(self):
            pool = self._pool.take()
            if pool is not None:
                await pool.close()
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

__all__ = ["PerLoop"]

T = TypeVar("T")


class PerLoop(Generic[T]):
    """One resource for the running event loop.

    :param open: ``async open(previous) -> resource``: opens the resource in the running
        loop; ``previous`` is the one opened in another loop (to let go of), or ``None``.
        If it raises, ``previous`` stays as it was and the next ``get`` tries again.
    """

    __slots__ = ("_open", "_value", "_loop", "_opening")

    def __init__(self, open: Callable[[T | None], Awaitable[T]]) -> None:
        self._open = open
        self._value: T | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._opening: asyncio.Task[T] | None = None

    @property
    def value(self) -> T | None:
        """The resource opened last (in whichever loop), or ``None``."""
        return self._value

    async def get(self) -> T:
        """The resource of the running loop, opened now if it has none."""
        loop = asyncio.get_running_loop()
        if self._value is not None and self._loop is loop:
            return self._value
        opening = self._opening
        if opening is None or opening.get_loop() is not loop:
            opening = self._opening = loop.create_task(self._open_in(loop))
        try:
            # shielded: a caller cancelled while waiting does not cancel the opening
            # that other callers share
            return await asyncio.shield(opening)
        finally:
            if opening.done() and self._opening is opening:
                self._opening = None

    def take(self) -> T | None:
        """Forget the resource and return it (for its owner to close)."""
        value, self._value, self._loop = self._value, None, None
        return value

    async def _open_in(self, loop: asyncio.AbstractEventLoop) -> T:
        value = await self._open(self._value)
        self._value, self._loop = value, loop
        return value
