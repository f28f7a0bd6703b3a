"""What the workers of one ``tripwire serve --workers N`` share.

The requests each key has in flight (so a key's ``max_concurrent`` holds across workers)
and the metrics (so ``/metrics``, answered by whichever worker the scrape reaches,
counts them all).

One worker's server keeps both in its own process (``KeySlots()``, no peers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import aiohttp
from aiohttp import web

from tripwire.serve._metrics import Metrics

log = logging.getLogger("tripwire.serve")

#: Seconds a worker waits for the lock of the shared key counters before it gives up.
LOCK_TIMEOUT = 2.0
#: Seconds a worker waits for a peer's metrics before it reports without them.
PEER_TIMEOUT = 2.0


class KeySlots:
    """Requests in flight per key name.

    ``shared(names, workers, context)`` puts the counts in shared memory, one row per
    worker, so that each worker checks a key's limit against the sum over all of
    them; ``for_worker(i)`` is worker ``i``'s view. A worker that dies leaves its row
    behind: the supervisor clears it (``clear(i)``) before it starts the replacement,
    so the dead worker's requests do not hold the key's slots for ever.
    """

    def __init__(self) -> None:
        self._local: dict[str, int] = {}
        self._index: dict[str, int] = {}
        self._array: Any = None
        self._lock: Any = None
        self._row = 0
        self._width = 0

    @classmethod
    def shared(cls, names: Sequence[str], workers: int, context: Any) -> KeySlots:
        """Counts for ``workers`` processes (``context``: a ``multiprocessing``
        context; the array must be made before the workers are started)."""
        slots = cls()
        slots._index = {name: i for i, name in enumerate(names)}
        slots._width = max(len(names), 1)
        slots._array = context.RawArray("q", slots._width * workers)
        slots._lock = context.Lock()
        return slots

    def for_worker(self, row: int) -> KeySlots:
        """Worker ``row``'s view: the same counts, its own row to add to."""
        view = KeySlots()
        view.__dict__.update(self.__dict__)
        view._row = row
        return view

    def acquire(self, name: str, limit: int) -> bool:
        """Take one of ``name``'s ``limit`` slots; False when all are taken."""
        if self._array is None:
            if self._local.get(name, 0) >= limit:
                return False
            self._local[name] = self._local.get(name, 0) + 1
            return True
        column = self._index[name]
        with self._locked():
            cells = self._array
            total = sum(cells[column::self._width])
            if total >= limit:
                return False
            cells[self._row * self._width + column] += 1
            return True

    def release(self, name: str) -> None:
        """Give back a slot ``acquire`` took."""
        if self._array is None:
            self._local[name] -= 1
            return
        with self._locked():
            self._array[self._row * self._width + self._index[name]] -= 1

    def in_flight(self, name: str) -> int:
        """Requests of ``name`` in flight (over all workers)."""
        if self._array is None:
            return self._local.get(name, 0)
        with self._locked():
            return int(sum(self._array[self._index[name]::self._width]))

    def clear(self, row: int) -> None:
        """Forget worker ``row``'s requests (it died; its requests died with it)."""
        with self._locked():
            for column in range(self._width):
                self._array[row * self._width + column] = 0

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        if not self._lock.acquire(timeout=LOCK_TIMEOUT):
            raise RuntimeError(
                f"the workers' shared key counters stayed locked for {LOCK_TIMEOUT} s (a "
                f"worker died holding the lock?); restart tripwire serve")
        try:
            yield
        finally:
            self._lock.release()


# ---------------------------------------------------------------- metrics of all workers


def state_app(metrics: Metrics) -> web.Application:
    """The private application a worker answers its peers on (a Unix socket): its
    metrics' state as JSON."""

    async def state(request: web.Request) -> web.Response:
        return web.Response(text=json.dumps(metrics.state()), content_type="application/json")

    app = web.Application()
    app.router.add_get("/state", state)
    return app


async def gather_metrics(own: Metrics, peers: Sequence[str]) -> Metrics:
    """``own`` merged with the metrics of the workers listening on ``peers`` (Unix
    socket paths). A peer that does not answer in time (it is being replaced) is left
    out, and said so in the log."""
    total = Metrics()
    total.merge(own.state())
    states = await asyncio.gather(*(_peer_state(path) for path in peers))
    for path, state in zip(peers, states, strict=True):
        if state is None:
            log.warning("tripwire serve: the worker on %s did not report its metrics", path)
        else:
            total.merge(state)
    return total


async def _peer_state(path: str) -> dict[str, Any] | None:
    try:
        async with aiohttp.ClientSession(
                connector=aiohttp.UnixConnector(path=path),
                timeout=aiohttp.ClientTimeout(total=PEER_TIMEOUT)) as session, \
                session.get("http://worker/state") as response:
            response.raise_for_status()
            state: dict[str, Any] = await response.json()
            return state
    except (OSError, aiohttp.ClientError, TimeoutError, ValueError):
        return None
