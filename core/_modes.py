"""Execution modes at run time: checks in ``parallel`` mode run beside the model call,
and the model's chunks wait for them.

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


def _raise_if_failed(checks: Sequence[asyncio.Task[Any]], *, model_call_cancelled: bool) -> None:
    for check in checks:  # in list order
        if check.done() and not check.cancelled() and check.exception() is not None:
            error = check.exception()
            if isinstance(error, TripWire):
                error.model_call_cancelled = model_call_cancelled  # type: ignore[attr-defined]
            raise error  # type: ignore[misc]
