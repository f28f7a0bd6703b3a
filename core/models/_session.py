"""One ``aiohttp.ClientSession`` per provider, bound to the event loop it was made in.

A session's connections belong to its loop. Three ways it ends:

- ``close()`` (the provider's ``aclose()``): closed now, in its loop;
- its loop shuts down (``asyncio.run`` returning, as in every ``generate_sync``
  call): a small async generator started with the session is closed by the loop's
  ``shutdown_asyncgens()``, and closes the session while the loop still runs;
- its loop was closed without that (a hand-made loop and ``loop.close()``): the
  next call, in another loop, finds the session orphaned and closes its sockets.

Each time the provider stays usable: the next call makes a new session lazily.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp


class LoopSession:
    """Holds the session of one provider. ``describe()`` names the provider in errors."""

    def __init__(self, describe: Callable[[], str], max_connections: int = 100) -> None:
        self._describe = describe
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: AsyncIterator[None] | None = None

    @property
    def session(self) -> aiohttp.ClientSession | None:
        """The current session (``None`` before the first call and after close)."""
        return self._session

    @property
    def closed(self) -> bool:
        return self._session is None or self._session.closed

    async def get(self) -> aiohttp.ClientSession:
        """The session for the running loop, made on first use."""
        loop = asyncio.get_running_loop()
        if self._session is not None and self._loop is not loop:
            old_loop = self._loop
            if old_loop is not None and not old_loop.is_closed():
                raise RuntimeError(
                    f"{self._describe()} is in use on another running event loop; create one "
                    f"provider per event loop (or call aclose() on the other loop first)"
                )
            await self.close()
        if self._session is None or self._session.closed:
            # No cookie jar: a provider is stateless between calls. A shared jar would
            # send a cookie one call's response set on every later call, whoever made
            # it (one tenant's upstream session on another's requests, behind
            # ``tripwire serve``).
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections),
                cookie_jar=aiohttp.DummyCookieJar())
            watch = self._watch_loop(session, loop)
            await anext(watch)  # now the loop's shutdown_asyncgens() will close it
            self._session, self._loop, self._watch = session, loop, watch
        return self._session

    async def close(self) -> None:
        """Close the session (idempotent); a new one is made on the next ``get``."""
        session, loop, watch = self._session, self._loop, self._watch
        self._session = self._loop = self._watch = None
        if watch is not None:
            await watch.aclose()  # type: ignore[attr-defined]  # its finally closes the session
        elif session is not None and loop is not None:
            await _close(session, loop)

    async def _watch_loop(
        self, session: aiohttp.ClientSession, loop: asyncio.AbstractEventLoop
    ) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if self._session is session:
                self._session = self._loop = self._watch = None
            await _close(session, loop)


async def _close(session: aiohttp.ClientSession, loop: asyncio.AbstractEventLoop) -> None:
    if loop.is_closed():
        _close_orphaned_sockets(session)
    await session.close()


def _close_orphaned_sockets(session: aiohttp.ClientSession) -> None:
    """Close the sockets of a session whose event loop is closed.

    Neither aiohttp (its connector skips closing when its loop is closed) nor asyncio
    (a transport closes its socket in a callback scheduled on its loop) can do it
    any more, so the idle and in-use connections' sockets are closed here, as the
    transport's ``connection_lost`` step would have done. This reads private state
    of aiohttp's connector and of asyncio's socket transports; anything of another
    shape (TLS transports, other event loops) is left alone, and then the garbage
    collector closes it with a ``ResourceWarning``, as before.
    """
    connector = session.connector
    if connector is None:
        return
    protocols: list[Any] = [
        entry[0] for entries in getattr(connector, "_conns", {}).values() for entry in entries
    ]
    protocols += list(getattr(connector, "_acquired", ()))
    for protocol in protocols:
        transport = getattr(protocol, "transport", None)
        sock = getattr(transport, "_sock", None)
        if sock is None or not hasattr(sock, "close"):
            continue
        transport._sock = None  # type: ignore[union-attr]
        sock.close()
