"""Execution modes at run time: checks in ``parallel`` mode run beside the model call,
and the model's chunks wait for them; and the list-order rule that decides which of
several concurrent tasks (those checks, a parallel group's members) ends the run.

(``monitor`` checks need nothing here: the run starts them and never waits for them;
see ``Hooks.start_checks`` and ``Agent._own_task``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

from tripwire.chunks import Chunk
from tripwire.errors import TripWire


async def next_after_checks(
    iterator: AsyncIterator[Chunk], checks: Sequence[asyncio.Task[Any]]
) -> Chunk:
    """The model's next chunk, once every check has passed.

    The model call runs meanwhile. A check that aborts (or fails) first cancels the
    wait for the chunk and raises its error; the caller then closes the model stream,
    and with it the HTTP response, so no chunk is ever seen. A ``TripWire`` raised
    while the model call was under way says so (``model_call_cancelled``)."""
    nxt = asyncio.ensure_future(iterator.__anext__())
    try:
        pending = [c for c in checks if not c.done()]
        while pending and not nxt.done():
            await asyncio.wait([nxt, *pending], return_when=asyncio.FIRST_COMPLETED)
            _raise_if_failed(checks, model_call_cancelled=not nxt.done())
            pending = [c for c in checks if not c.done()]
        if pending:
            await asyncio.wait(pending)
        _raise_if_failed(checks, model_call_cancelled=True)
        return await nxt
    finally:
        if not nxt.done():
            nxt.cancel()
            await asyncio.gather(nxt, return_exceptions=True)


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
            for task in moot:
                if id(task) not in cancelled:
                    cancelled.add(id(task))
                    task.cancel()
            if not waiting:
                return error
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    finally:
        pending = [t for t in tasks if not t.done()]
        for task in pending:
            if id(task) not in cancelled:
                task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)


def _raise_if_failed(checks: Sequence[asyncio.Task[Any]], *, model_call_cancelled: bool) -> None:
    for check in checks:  # in list order
        if check.done() and not check.cancelled() and check.exception() is not None:
            error = check.exception()
            if isinstance(error, TripWire):
                error.model_call_cancelled = model_call_cancelled  # type: ignore[attr-defined]
            raise error  # type: ignore[misc]
