"""Execution modes at run time: ``parallel`` checks, and which concurrent task ends the run.

Execution modes at run time: checks in ``parallel`` mode run beside the model call, and
the model's chunks wait for them; and the list-order rule that decides which of several
concurrent tasks (those checks, a parallel group's members) ends the run.

(``monitor`` checks need nothing here: the run starts them and never waits for them;
see ``Hooks.start_checks`` and ``Agent._own_task``.)
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

from tripwire.chunks import Chunk
from tripwire.errors import TripWire

#: How many of the model's chunks are read ahead, and held, while checks in
#: ``parallel`` mode run: past it the model is not read until they have passed (its
#: server then waits on the connection's flow control). docs/composition.md states it.
READ_AHEAD = 1024


async def read_during_checks(
    iterator: AsyncIterator[Chunk], checks: Sequence[asyncio.Task[Any]],
    limit: int | None = None,
) -> AsyncIterator[Chunk]:
    """The model's stream, once every check has passed: meanwhile its chunks are read
    ahead (at most ``limit``, by default ``READ_AHEAD``) and held, so the whole model
    call overlaps the checks; what is returned gives the held chunks, then the rest of
    the stream (its ``aclose()`` closes the model's).

    A check that fails (the first in list order among those that failed:
    ``in_list_order``) raises its error: nothing read was seen by anyone, and the
    caller closes the model stream, and with it the HTTP response. A ``TripWire`` says
    whether the model was still answering then (``model_call_cancelled``). The end of
    the model's stream, or its error, while the checks run is held too and comes after
    the held chunks, as it would have."""
    most = READ_AHEAD if limit is None else limit
    held: deque[Chunk] = deque()
    ended: Exception | None = None  # StopAsyncIteration, or the model's error
    nxt: asyncio.Future[Chunk] | None = None
    cancelled: set[int] = set()
    try:
        while True:
            waiting, error, moot = in_list_order(checks)
            _cancel_once(moot, cancelled)
            if not waiting:
                if error is None:
                    break
                if isinstance(error, TripWire):
                    error.model_call_cancelled = ended is None  # type: ignore[attr-defined]
                raise error
            if nxt is None and ended is None and len(held) < most:
                nxt = asyncio.ensure_future(iterator.__anext__())
            await asyncio.wait([*waiting, nxt] if nxt is not None else waiting,
                               return_when=asyncio.FIRST_COMPLETED)
            if nxt is not None and nxt.done():
                try:
                    held.append(nxt.result())
                except Exception as e:  # the end of the stream, or the model's error:
                    ended = e           # after the held chunks, as it would have come
                nxt = None
    except BaseException:
        if nxt is not None:
            nxt.cancel()
            await asyncio.gather(nxt, return_exceptions=True)
        raise
    return _ReadAhead(iterator, held, nxt, ended)


class _ReadAhead:
    """What ``read_during_checks`` read while the checks ran (the chunks, the read
    still under way, the stream's end or error), then the rest of the model's stream."""

    __slots__ = ("_iterator", "_held", "_next", "_ended")

    def __init__(self, iterator: AsyncIterator[Chunk], held: deque[Chunk],
                 next_read: asyncio.Future[Chunk] | None, ended: Exception | None) -> None:
        self._iterator = iterator
        self._held = held
        self._next = next_read
        self._ended = ended

    def __aiter__(self) -> _ReadAhead:
        return self

    async def __anext__(self) -> Chunk:
        if self._held:
            return self._held.popleft()
        next_read, self._next = self._next, None
        if next_read is not None:
            return await next_read
        ended, self._ended = self._ended, None
        if ended is not None:
            raise ended
        return await self._iterator.__anext__()

    async def aclose(self) -> None:
        """Stop a read still under way, then close the model's stream."""
        next_read, self._next = self._next, None
        if next_read is not None and not next_read.done():
            next_read.cancel()
            await asyncio.gather(next_read, return_exceptions=True)
        closer = getattr(self._iterator, "aclose", None)
        if closer is not None:
            await closer()


def _cancel_once(tasks: Iterable[asyncio.Future[Any]], cancelled: set[int]) -> None:
    """Cancel each of ``tasks`` not cancelled yet (by id in ``cancelled``): a task's
    code sees one cancellation, not one per look."""
    for task in tasks:
        if id(task) not in cancelled:
            cancelled.add(id(task))
            task.cancel()


def in_list_order(
    tasks: Sequence[asyncio.Future[Any]],
) -> tuple[list[asyncio.Future[Any]], BaseException | None, list[asyncio.Future[Any]]]:
    """Where concurrent ``tasks`` stand by the list-order rule: the first task, in list
    order, among those that failed (aborted or raised) ends the run, whichever failed
    first in time, so the outcome never depends on timing.

    Returns ``(waiting, error, moot)``: ``error`` is the failure of the first failed
    task in list order (None when none has failed yet); ``waiting`` are the tasks
    before it still running (all running tasks when none failed), which must finish
    before ``error`` is final, since one of them may still fail first in list order;
    ``moot`` are the tasks after the failed one still running: nothing they do can
    change the outcome any more (cancel them). Decided when ``waiting`` is empty:
    ``error``, or None when every task passed. Cancelled tasks count as passed."""
    waiting: list[asyncio.Future[Any]] = []
    for i, task in enumerate(tasks):
        if not task.done():
            waiting.append(task)
        elif not task.cancelled() and task.exception() is not None:
            return waiting, task.exception(), [t for t in tasks[i + 1:] if not t.done()]
    return waiting, None, []


async def settle_in_order(tasks: Sequence[asyncio.Future[Any]]) -> BaseException | None:
    """Wait for ``tasks`` until the list-order rule (``in_list_order``) decides, and
    return the failure that ends the run (None: all passed). The tasks that can no
    longer change the outcome are cancelled as soon as that is known, and every task
    still running when this returns (or is itself cancelled) is cancelled and awaited:
    none is left behind."""
    cancelled: set[int] = set()
    try:
        while True:
            waiting, error, moot = in_list_order(tasks)
            _cancel_once(moot, cancelled)
            if not waiting:
                return error
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    finally:
        pending = [t for t in tasks if not t.done()]
        _cancel_once(pending, cancelled)
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
