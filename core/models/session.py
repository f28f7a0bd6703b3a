"""One HTTP client per provider, bound to the event loop it was made in: the providers'
connection pool (``_pool.Pool``) or an ``aiohttp.ClientSession`` (an embedder's, and a
provider's when httptools is not installed); both are called the session here.

A session's connections belong to its loop. Three ways it ends:

- ``close()`` (the provider's ``aclose()``): closed now, in its loop;
- its loop shuts down (``asyncio.run`` returning, as in every ``generate_sync``
  call): a small async generator started with the session is closed by the loop's
  ``shutdown_asyncgens()``, and closes the session while the loop still runs;
- its loop was closed without that (a hand-made loop and ``loop.close()``): the
  next call, in another loop, finds the session orphaned and closes its sockets.

Each time the provider stays usable: the next call makes a new session lazily. While
the loop that made the session is open (running in another thread, or idle, as a
hand-made loop between ``run_until_complete`` calls), using or closing the provider
from another loop is a ``RuntimeError`` saying so and what to do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any

import aiohttp

from tripwire.models._pool import Pool, Response

logger = logging.getLogger("tripwire.models")


class LoopSession:
    """Holds the session of one provider. ``describe()`` names the provider in errors."""

    def __init__(self, describe: Callable[[], str], max_connections: int = 100) -> None:
        self._describe = describe
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | Pool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: AsyncIterator[None] | None = None
        #: background work on the session's connections, and the response each reads
        #: (``background``)
        self._tasks: dict[asyncio.Task[None], aiohttp.ClientResponse | Response] = {}

    @property
    def session(self) -> aiohttp.ClientSession | Pool | None:
        """The current session (``None`` before the first call and after close)."""
        return self._session

    @property
    def closed(self) -> bool:
        return self._session is None or self._session.closed

    async def get(self) -> aiohttp.ClientSession:
        """The aiohttp session for the running loop, made on first use."""
        session = await self._current()
        if isinstance(session, aiohttp.ClientSession):
            return session
        # No cookie jar: a provider is stateless between calls. A shared jar would
        # send a cookie one call's response set on every later call, whoever made it
        # (one tenant's upstream session on another's requests, behind ``tripwire
        # serve``). (The pool keeps no cookies at all.)
        made = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self._max_connections),
            cookie_jar=aiohttp.DummyCookieJar(),
        )
        await self._keep(made)
        return made

    async def pool(self) -> Pool:
        """The connection pool for the running loop, made on first use."""
        session = await self._current()
        if isinstance(session, Pool):
            return session
        made = Pool(self._max_connections)
        await self._keep(made)
        return made

    async def _current(self) -> aiohttp.ClientSession | Pool | None:
        """The open session of the running loop, if any (an orphan of a closed loop is
        closed here)."""
        loop = asyncio.get_running_loop()
        if self._session is not None and self._loop is not loop:
            self._check_owner(loop)
            await self.close()  # its loop is closed: an orphan, closed here
        if self._session is None or self._session.closed:
            return None
        return self._session

    async def _keep(self, session: aiohttp.ClientSession | Pool) -> None:
        if self._session is not None:  # (of the other kind: the owner changed its mind)
            await self.close()
        loop = asyncio.get_running_loop()
        watch = self._watch_loop(session, loop)
        await anext(watch)  # now the loop's shutdown_asyncgens() will close it
        self._session, self._loop, self._watch = session, loop, watch

    def background(self, work: Coroutine[Any, Any, None],
                   response: aiohttp.ClientResponse | Response) -> None:
        """Run ``work`` (reading the end of a response, so that its connection goes
        back to the pool) in a task this session owns: closing the session cancels it,
        waits for it and calls ``end`` (closing the response: a task cancelled before
        it started never ran its own ``finally``) first. A failure it ends with is
        logged (DEBUG), never left for the event loop to report as an exception nobody
        retrieved."""
        task = asyncio.ensure_future(work)
        self._tasks[task] = response
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.pop(task, None)
        error = None if task.cancelled() else task.exception()
        if error is not None:
            logger.debug("background work of %s failed (%s: %s)", self._describe(),
                         type(error).__name__, error)

    async def _settle(self, loop: asyncio.AbstractEventLoop) -> None:
        """End the background tasks: cancel them, wait for them, close their responses.
        The tasks of a closed loop can be neither cancelled nor awaited, and closing a
        response wakes its waiters through that loop: its connection is let go instead,
        and its socket closed with the session's (``_close_orphaned_sockets``)."""
        tasks, self._tasks = self._tasks, {}
        if loop.is_closed():
            for response in tasks.values():
                _let_go(response)
            return
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(set(tasks))
        for response in tasks.values():
            response.close()

    async def close(self) -> None:
        """Close the session (idempotent); a new one is made on the next ``get``.
        ``RuntimeError`` when the session belongs to another event loop that is still
        open (it is left as it is, to be closed there)."""
        self._check_owner(asyncio.get_running_loop())
        session, loop, watch = self._session, self._loop, self._watch
        self._session = self._loop = self._watch = None
        if watch is not None:
            await watch.aclose()  # type: ignore[attr-defined]  # its finally closes the session
        elif session is not None and loop is not None:
            await self._settle(loop)
            await _close(session, loop)

    def _check_owner(self, loop: asyncio.AbstractEventLoop) -> None:
        """``RuntimeError`` when the session was made in an event loop other than
        ``loop`` that is not closed yet: its connections belong to that loop and can be
        neither used nor closed from this one (a closed loop's session is an orphan,
        which any loop may close)."""
        owner = self._loop
        if self._session is None or owner is None or owner is loop or owner.is_closed():
            return
        state = (
            "is running (in another thread)"
            if owner.is_running()
            else "is still open, though not running"
        )
        raise RuntimeError(
            f"{self._describe()} is used from two event loops: its HTTP session belongs to "
            f"the event loop it was made in, which {state}, and can be neither used nor "
            f"closed from this one. Create the model inside the event loop that uses it "
            f"(one model per loop), or before using it here close its session in the loop "
            f"that made it (await model.aclose() there, e.g. "
            f"loop.run_until_complete(model.aclose())) or close that loop"
        )

    async def _watch_loop(
        self, session: aiohttp.ClientSession | Pool, loop: asyncio.AbstractEventLoop
    ) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if self._session is session:
                self._session = self._loop = self._watch = None
            await self._settle(loop)
            await _close(session, loop)


async def _close(session: aiohttp.ClientSession | Pool, loop: asyncio.AbstractEventLoop
                 ) -> None:
    if loop.is_closed():
        if isinstance(session, Pool):
            _close_sockets(session.transports())
        else:
            _close_orphaned_sockets(session)
    await session.close()


def _let_go(response: aiohttp.ClientResponse | Response) -> None:
    """Forget the connection of a response whose event loop is closed: neither can
    release it (that goes through the loop), and aiohttp's finalizer would warn of an
    unclosed connection. Its socket stays in the connector's in-use set, where
    ``_close_orphaned_sockets`` closes it. Reads aiohttp's private state, as that does.
    (A pool's response forgets its connection: the pool closes its socket.)"""
    if isinstance(response, Response):
        response.let_go()
        return
    connection = response.connection
    if connection is not None:
        connection._protocol = None


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
    _close_sockets(getattr(protocol, "transport", None) for protocol in protocols)


def _close_sockets(transports: Iterable[Any]) -> None:
    """Close the sockets of ``transports`` (of a closed event loop) as their
    ``connection_lost`` step would have (asyncio's socket transports; others are left
    alone)."""
    for transport in transports:
        sock = getattr(transport, "_sock", None)
        if sock is None or not hasattr(sock, "close"):
            continue
        transport._sock = None
        sock.close()
