"""Serving a gateway: its event loop, until the block ends or a signal comes.

The event loop ``tripwire serve`` runs on, the garbage collector's tuning, serving until
the block ends (``running``) or until a signal (``serve``), and the start-up line. The
package re-exports the public ones; a worker of ``--workers`` (``_workers``) runs them
too."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from tripwire.errors import MissingDependencyError

if TYPE_CHECKING:
    from tripwire.serve._app import Gateway

__all__ = ["CANCEL_GRACE", "GC_THRESHOLD", "LOOPS", "event_loop", "prepare_collector",
           "running", "serve"]

T = TypeVar("T")

#: ``--loop`` choices: ``auto`` takes uvloop when it is installed (the ``serve`` extra),
#: as uvicorn does.
LOOPS = ("auto", "asyncio", "uvloop")


def event_loop(
    choice: str = "auto",
) -> tuple[str, Callable[[Coroutine[Any, Any, T]], T]]:
    """The event loop ``tripwire serve`` runs on, as ``(name, run)`` where ``run`` is
    ``asyncio.run`` or ``uvloop.run``.

    Why uvloop: the gateway spends much of its time in the event loop (a wake-up, a read
    and a write per streamed event), which uvloop, on libuv, runs in C: less CPU per
    event (bench/serve.py measures both loops)."""
    if choice not in LOOPS:
        raise ValueError(f"unknown event loop {choice!r}; valid: {', '.join(LOOPS)}")
    if choice == "asyncio":
        return "asyncio", asyncio.run
    try:
        import uvloop
    except ImportError as e:
        if choice == "auto":
            return "asyncio", asyncio.run
        raise MissingDependencyError(
            "--loop uvloop needs the uvloop package, which is not installed: pip install "
            "'tripwire[serve]' (not on Windows), or use --loop asyncio"
        ) from e
    return "uvloop", uvloop.run


#: The garbage collector's first threshold while serving (Python's own: 700).
GC_THRESHOLD = 10_000


def prepare_collector() -> None:
    """Tune the garbage collector for serving, once what lives as long as the server
    (agents, processors, their tables and models) is built.

    ``gc.freeze()`` takes what exists out of the collector's scans, which otherwise walk
    it again on every full collection. The first threshold goes from 700 to
    ``GC_THRESHOLD`` (kept when already higher, or 0: collection off): the collector
    counts allocations net of frees only down to 0, so the objects of the requests in
    flight, made and freed as their streams go on, push the count past 700 again and
    again although a run leaves no garbage cycles; each such collection stops every
    stream to walk the runs' live objects (bench/serve.py's gateway, 50 paced streams
    for 10 s: 99 collections, 8 of them of the middle generation at 4.6 ms each, and
    9 objects freed, against 2 collections with ``GC_THRESHOLD``). Cycles a processor
    leaves are still collected, after 10,000 allocations rather than 700."""
    gc.freeze()
    first, second, third = gc.get_threshold()
    if 0 < first < GC_THRESHOLD:
        gc.set_threshold(GC_THRESHOLD, second, third)


#: Seconds a request still in flight when the drain's time is up gets to end (once
#: before, once after it is cancelled): a stream's last event, the access log line.
CANCEL_GRACE = 0.25


@contextlib.asynccontextmanager
async def running(gateway: Gateway, host: str = "127.0.0.1", port: int = 8080, *,
                  sock: socket.socket | None = None) -> AsyncIterator[str]:
    """Serve ``gateway`` on ``host:port`` (0: a free port), or on the listening socket
    ``sock``, until the block ends, then drain it (in-flight requests finish, new ones
    get 503) and stop; yields the base URL ``http://host:port``. A client that
    disconnects cancels its request (and so its upstream call)."""
    # (``gateway.drain()`` waits for the requests in flight, up to the gateway's
    # shutdown_timeout; the runner then only cancels those left, each given
    # CANCEL_GRACE seconds twice by aiohttp: to end, then to end once cancelled)
    from aiohttp import web

    runner = web.AppRunner(gateway.app(), handler_cancellation=True, access_log=None,
                           shutdown_timeout=CANCEL_GRACE)
    await runner.setup()
    try:
        site: web.BaseSite = (web.TCPSite(runner, host, port) if sock is None
                              else web.SockSite(runner, sock))
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        yield f"http://{bound_host}:{bound_port}"
    finally:
        await gateway.drain()
        await runner.cleanup()
        await gateway.aclose()


async def serve(gateway: Gateway, host: str, port: int, *, loop_name: str | None = None,
                sock: socket.socket | None = None,
                on_listening: Callable[[str], None] | None = None) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully (``loop_name``, the
    event loop's, is named on the start-up line; ``sock``: a listening socket to serve
    on instead of ``host:port``; ``on_listening(url)``: called, instead of writing the
    start-up line, once the gateway takes requests: a worker of ``--workers`` tells
    its supervisor, which writes the line once for all of them). The garbage collector
    is tuned for serving first (``prepare_collector``)."""
    prepare_collector()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows
            loop.add_signal_handler(sig, stop.set)
    async with running(gateway, host, port, sock=sock) as url:
        if on_listening is None:
            _announce(gateway, url, host, loop_name)
        else:
            on_listening(url)
        await stop.wait()
        who = "" if gateway.worker is None else f" worker {gateway.worker}"
        sys.stderr.write(f"tripwire serve{who}: shutting down (in-flight requests finish, "
                         f"new ones get 503)\n")
        sys.stderr.flush()


def _announce(gateway: Gateway, url: str, host: str, loop_name: str | None,
              workers: int = 1) -> None:
    """The start-up line (and the warning for an open gateway off loopback)."""
    agents = ", ".join(gateway.agents)
    auth = f"{len(gateway.keys.keys)} key(s)" if gateway.keys.required else "no keys (open)"
    on = f"; {loop_name} event loop" if loop_name else ""
    on += f"; {workers} workers" if workers > 1 else ""
    sys.stderr.write(f"tripwire serve: listening on {url}/v1 (agents: {agents}; {auth}{on})\n")
    if not gateway.keys.required and host not in ("127.0.0.1", "localhost", "::1"):
        sys.stderr.write(f"tripwire serve: warning: no keys are configured and {host} is "
                         f"not loopback: anyone who reaches it can use the agents (add "
                         f"[serve.keys.NAME] tables, docs/serve.md)\n")
    sys.stderr.flush()
