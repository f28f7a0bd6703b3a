"""``tripwire serve --workers N``: N processes serving one listening socket, so the
gateway uses N cores, as gunicorn's and uvicorn's workers do.

The supervisor (the process started) checks the configuration once, takes the port,
and forks the workers; each builds its own agents from the file and listens on the port
(on Linux with ``SO_REUSEPORT``, so the kernel spreads new connections evenly over
them; elsewhere on the supervisor's socket, which they inherit). What must
hold across workers is shared: a key's ``max_concurrent`` counts the requests of all of
them (``KeySlots`` in shared memory), and ``/metrics`` reports the counts of all of
them (each worker answers its peers on a private Unix socket). What each worker keeps
in its own memory stays its own: in-memory caches, budgets and memory stores (use the
Redis, SQLite or PostgreSQL stores for state the workers must share).

SIGTERM or SIGINT to the supervisor stops every worker gracefully. A worker that dies is
replaced (its requests' key slots are freed first); one that dies before it takes
requests (its gateway could not be built, say) stops the server instead: its successor
would die the same way. Workers whose supervisor is gone stop by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any

from tripwire.errors import ConfigurationError

if TYPE_CHECKING:
    from tripwire.serve._app import Gateway
    from tripwire.serve._shared import KeySlots

#: What runs one worker: ``(index, listening socket, key slots, every worker's Unix
#: socket path, an event to set once it takes requests) -> exit code``.
Target = Callable[[int, socket.socket, "KeySlots", list[str], Any], int]

#: Seconds between a worker's checks that its supervisor still runs.
ORPHAN_CHECK = 1.0

#: Whether each worker can listen on the port itself (Linux's ``SO_REUSEPORT``: the
#: kernel spreads new connections evenly over the workers). Elsewhere the workers share
#: the supervisor's socket, and whichever wakes first takes a connection.
REUSE_PORT = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def bind(host: str, port: int, *, listen: bool = True,
         reuse_port: bool = REUSE_PORT) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0: a free port), listening unless
    ``listen`` is False (the supervisor's placeholder that holds the port when the
    workers listen with ``SO_REUSEPORT``)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            sock.bind(address)
        except OSError as e:  # as aiohttp says it for one worker
            raise OSError(e.errno, f"error while attempting to bind on address {address!r}: "
                                   f"{(e.strerror or str(e)).lower()}") from None
        if listen:
            sock.listen(1024)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


class Supervisor:
    """Starts, watches and stops the workers. ``target`` runs one worker (in the
    forked process)."""

    def __init__(self, workers: int, sock: socket.socket, slots: KeySlots, folder: str,
                 target: Target) -> None:
        self.count = workers
        self.sock = sock
        self.slots = slots
        self.paths = [os.path.join(folder, f"worker-{i}.sock") for i in range(workers)]
        self.target = target
        self.context = multiprocessing.get_context("fork")
        self.processes: list[Any] = [None] * workers
        self.ready: list[Any] = [None] * workers
        self.started = [0.0] * workers
        self.stopping = False

    def start(self, index: int) -> None:
        with contextlib.suppress(FileNotFoundError):  # a dead worker's socket file
            os.unlink(self.paths[index])
        self.ready[index] = ready = self.context.Event()
        process = self.context.Process(
            target=_run_worker, name=f"tripwire-serve-worker-{index}",
            args=(self.target, index, self.sock, self.slots, self.paths, ready))
        process.start()
        self.processes[index] = process
        self.started[index] = time.monotonic()

    def stop(self, *_: object) -> None:
        """Ask every worker to finish (SIGTERM: in-flight requests finish first)."""
        self.stopping = True
        for process in self.processes:
            if process is not None and process.is_alive():
                process.terminate()

    def run(self, on_ready: Callable[[], None]) -> int:
        """Start the workers, call ``on_ready`` once they all take requests, and watch
        them until they have all stopped; the exit code."""
        for index in range(self.count):
            if self.stopping:  # a signal came while the workers were being started
                break
            self.start(index)
        while not self.stopping and not all(event.is_set() for event in self.ready):
            if any(not p.is_alive() for p in self.processes if p is not None):
                break  # the watch below says why, and stops
            time.sleep(0.01)
        else:
            if not self.stopping:
                on_ready()
                for index, process in enumerate(self.processes):
                    sys.stderr.write(f"tripwire serve: worker {index} started (pid "
                                     f"{process.pid})\n")
                sys.stderr.flush()
        code = 0
        while any(p is not None for p in self.processes):
            alive = {p.sentinel: i for i, p in enumerate(self.processes) if p is not None}
            for sentinel in wait(list(alive), timeout=0.5):
                index = alive[sentinel]
                process = self.processes[index]
                process.join()
                self.processes[index] = None
                if self.stopping:
                    continue
                lived = time.monotonic() - self.started[index]
                sys.stderr.write(f"tripwire serve: worker {index} (pid {process.pid}) exited "
                                 f"with code {process.exitcode} after {lived:.1f} s\n")
                if not self.ready[index].is_set():
                    sys.stderr.write("tripwire serve: a worker that dies before it takes "
                                     "requests would die again; stopping\n")
                    code = 1
                    self.stop()
                    continue
                self.slots.clear(index)
                self.start(index)
                sys.stderr.write(f"tripwire serve: worker {index} restarted (pid "
                                 f"{self.processes[index].pid})\n")
                sys.stderr.flush()
        return code


def serve_workers(make_gateway: Callable[[], Gateway], workers: int,
                  host: str = "127.0.0.1", port: int = 8080, *, loop: str = "auto",
                  on_listening: Callable[[str], None] | None = None) -> int:
    """Serve the gateway ``make_gateway`` builds in ``workers`` processes on
    ``host:port`` (0: a free port) until SIGINT / SIGTERM; the exit code (1 when a
    worker died before it took requests). ``on_listening(url)`` is called once the port
    takes connections (they wait for a worker to accept them).

    ``make_gateway`` runs once here, to check what it builds before anything forks (a
    configuration error is raised once, not once per worker), then once in each worker:
    every worker has its own agents, processors and model sessions."""
    from tripwire.serve._server import _announce, event_loop
    from tripwire.serve._shared import KeySlots

    if workers < 1:
        raise ValueError(f"workers expects a whole number >= 1, got {workers!r}")
    if not hasattr(os, "fork"):
        raise ConfigurationError("--workers needs os.fork (POSIX); serve with one worker here")
    loop_name, run = event_loop(loop)
    gateway = make_gateway()
    threads = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    if threads:
        raise ConfigurationError(
            f"serving with workers forks the process after the gateway is built, and "
            f"building it started threads ({', '.join(threads)}), which a fork would copy "
            f"half-way; serve this configuration with one worker")
    if REUSE_PORT:  # alone first: a port another server's workers share is not joined
        with bind(host, port, listen=False, reuse_port=False) as probe:
            port = probe.getsockname()[1]
    sock = bind(host, port, listen=not REUSE_PORT)
    folder = tempfile.mkdtemp(prefix="tripwire-serve-")
    try:
        context = multiprocessing.get_context("fork")
        slots = KeySlots.shared([key.name for key in gateway.keys.keys], workers, context)

        def target(index: int, sock: socket.socket, slots: KeySlots, paths: list[str],
                   ready: Any) -> int:
            return run(_worker(make_gateway(), index, sock, slots, paths, ready))

        supervisor = Supervisor(workers, sock, slots, folder, target)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, supervisor.stop)
        bound, bound_port = sock.getsockname()[:2]
        url = f"http://[{bound}]:{bound_port}" if ":" in bound else f"http://{bound}:{bound_port}"

        def listening() -> None:
            _announce(gateway, url, host, loop_name, workers)
            if on_listening is not None:
                on_listening(url)

        code = supervisor.run(listening)
        sys.stderr.write("tripwire serve: all workers stopped\n")
        return code
    finally:
        sock.close()
        shutil.rmtree(folder, ignore_errors=True)


async def _worker(gateway: Gateway, index: int, sock: socket.socket, slots: KeySlots,
                  paths: list[str], ready: Any) -> int:
    """Worker ``index``: serve ``gateway`` on ``sock`` (the port), sharing the key
    slots, and answer the peers' metrics requests on its own Unix socket; ``ready``
    (an event) is set once it takes requests."""
    from aiohttp import web

    from tripwire.serve._server import serve
    from tripwire.serve._shared import state_app

    gateway.worker, gateway.slots = index, slots
    gateway.peers = [path for i, path in enumerate(paths) if i != index]
    peers = web.AppRunner(state_app(gateway.metrics), access_log=None)
    await peers.setup()
    watch = asyncio.ensure_future(_stop_when_orphaned(os.getppid()))
    try:
        await web.UnixSite(peers, paths[index]).start()
        await serve(gateway, "", 0, sock=sock, on_listening=lambda url: ready.set())
    finally:
        watch.cancel()
        await peers.cleanup()
    return 0


async def _stop_when_orphaned(supervisor: int) -> None:
    """Stop gracefully (as on SIGTERM) once the supervisor is gone: a supervisor killed
    with SIGKILL cannot stop its workers, and nothing else would."""
    while os.getppid() == supervisor:
        await asyncio.sleep(ORPHAN_CHECK)
    os.kill(os.getpid(), signal.SIGTERM)


def _run_worker(target: Target, index: int, sock: socket.socket, slots: KeySlots,
                paths: list[str], ready: Any) -> None:
    # the supervisor's handlers came with the fork: the worker installs its own
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if REUSE_PORT:  # a listening socket of its own on the supervisor's port
        host, port = sock.getsockname()[:2]
        sock.close()
        sock = bind(host, port)
    sys.exit(target(index, sock, slots.for_worker(index), paths, ready))
