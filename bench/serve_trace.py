"""Where the time to the first token goes: timestamps taken in each process (the
client, the bare aiohttp proxy, the gateway, the upstream) for one paced stream at a
time, and the median of each step of the path, the proxy's beside the gateway's.

The processes are ``bench/serve.py``'s (its upstream sending an event every 20 ms, its
bare proxy, its gateway with five pass-through processors, on ``tripwire serve``'s
event loop), each started by this script with probes on aiohttp's reads and writes:
``perf_counter_ns`` (``CLOCK_MONOTONIC``, one clock for every process on Linux) when a
server or a client connection's ``data_received`` runs, when a request reaches the
application, and before and after each write of the HTTP writers (client and server
side). The client sends one request at a time (after a random pause shorter than the
pace, as ``bench/serve.py``'s independent streams), to each target in turn, so that
every event in a process falls in the window of one request.

Steps, per target (the median over the requests, in microseconds):

- ``request in flight``: the client's send to the server's first read (for the direct
  call: to the upstream's);
- ``read to handler``: aiohttp's server, from that read to the application's handler;
- ``own work``: from the handler to the upstream request's write (the proxy: reading
  the body and aiohttp's client; the gateway: the whole request path, the run's start,
  the input processors, aiohttp's client);
- ``upstream write call``: that write, system call included (with whatever the kernel
  runs before it returns: the upstream, woken on the same CPU, or another process);
- ``to upstream handler``: from the end of that write to the upstream's handler;
- ``content event to read``: from the upstream's write of the first content event to
  the middle process's read of it;
- ``read to client write``: the middle process's work on that event (the gateway's: the
  SSE parser, the output processors, the renderer, and the response's headers);
- ``client write call``: that write (headers, opening events and the delta in one);
- ``added to first token``: the time to the first token minus the direct call's.

``TRIPWIRE_BENCH_BASE=/path/to/python``: a second gateway run by that interpreter
(another checkout's ``tripwire``), traced in the same rounds. ``TRIPWIRE_BENCH_APIS``:
the client APIs the gateway is asked in (default ``chat``). Run by hand:
``python bench/serve_trace.py [requests per target]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import serve as bench  # noqa: E402  (bench/serve.py: the processes and the client)

#: The events of this process: (label, perf_counter_ns()).
EVENTS: list[tuple[str, int]] = []
_now = time.perf_counter_ns


def _note(label: str) -> None:
    EVENTS.append((label, _now()))


def probe(dump_to: str) -> None:
    """Time aiohttp's reads, writes and handler calls in this process (and the reads and
    request writes of the providers' connection pool); write the events to ``dump_to``
    (JSON) when the process is told to stop (SIGTERM)."""
    from aiohttp import client_proto, http_writer, web_app, web_protocol

    write, writelines = http_writer.StreamWriter._write, http_writer.StreamWriter._writelines

    def side(writer: Any) -> str:
        return "c" if isinstance(writer._protocol, client_proto.ResponseHandler) else "s"

    def timed_write(self: Any, chunk: Any) -> None:
        _note(side(self) + "_write")
        write(self, chunk)
        _note(side(self) + "_written")

    def timed_writelines(self: Any, chunks: Any) -> None:
        _note(side(self) + "_write")
        writelines(self, chunks)
        _note(side(self) + "_written")

    http_writer.StreamWriter._write = timed_write  # type: ignore[method-assign]
    http_writer.StreamWriter._writelines = timed_writelines  # type: ignore[method-assign]
    server_read = web_protocol.RequestHandler.data_received
    client_read = client_proto.ResponseHandler.data_received

    def timed_server_read(self: Any, data: bytes) -> None:
        _note("s_read")
        server_read(self, data)

    def timed_client_read(self: Any, data: bytes) -> None:
        _note("c_read")
        client_read(self, data)

    web_protocol.RequestHandler.data_received = timed_server_read  # type: ignore[method-assign]
    client_proto.ResponseHandler.data_received = timed_client_read  # type: ignore[method-assign]
    handle = web_app.Application._handle

    async def timed_handle(self: Any, request: Any) -> Any:
        _note("handler")
        return await handle(self, request)

    web_app.Application._handle = timed_handle  # type: ignore[method-assign]
    try:  # the providers' connection pool, where the gateway's upstream calls go
        from tripwire.models import _pool
    except ImportError:
        pass
    else:
        send, pool_read = _pool.Connection.send, _pool.Connection.data_received

        def timed_send(self: Any, *args: Any) -> Any:
            _note("c_write")
            out = send(self, *args)
            _note("c_written")
            return out

        def timed_pool_read(self: Any, data: bytes) -> None:
            _note("c_read")
            pool_read(self, data)

        _pool.Connection.send = timed_send  # type: ignore[method-assign]
        _pool.Connection.data_received = timed_pool_read  # type: ignore[method-assign]

    def dump(*_: Any) -> None:
        Path(dump_to).write_text(json.dumps(EVENTS))
        os._exit(0)

    signal.signal(signal.SIGTERM, dump)


def start(role: str, *args: str, dump_to: str,
          python: str = sys.executable) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([python, __file__, role, dump_to, *args],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


async def client(targets: list[tuple[str, str, str, str]], n: int
                 ) -> dict[str, list[tuple[int, int, int]]]:
    """``n`` requests to each target in turn, one at a time: (sent, first token, end)
    in ``perf_counter_ns`` per request."""
    import aiohttp

    rng = random.Random(1)
    out: dict[str, list[tuple[int, int, int]]] = {name: [] for name, *_ in targets}
    async with aiohttp.ClientSession() as session:
        bodies = {}
        for name, url, model, api in targets:
            path, request, end = bench.API_REQUESTS[api]
            bodies[name] = (url + path, json.dumps({**request, "model": model}).encode(), end)
            for _ in range(3):  # warm up, and open the connections
                await bench._one(session, *bodies[name], api)
        for _ in range(n):
            for name, _url, _model, api in targets:
                await asyncio.sleep(rng.uniform(0, bench.PACE))
                sent = _now()
                first, _whole = await bench._one(session, *bodies[name], api)
                out[name].append((sent, sent + int(first * 1e9), _now()))
    return out


def _within(events: list[tuple[str, int]], start: int, end: int) -> list[tuple[str, int]]:
    return [(label, t) for label, t in events if start <= t <= end]


def _first(events: list[tuple[str, int]], label: str, after: int = 0) -> int:
    return next(t for name, t in events if name == label and t >= after)


def steps(requests: list[tuple[int, int, int]], upstream: list[tuple[str, int]],
          middle: list[tuple[str, int]] | None) -> dict[str, list[float]]:
    """The steps of each request (microseconds), as the module's docstring lists them."""
    out: dict[str, list[float]] = {}

    def add(name: str, nanoseconds: int) -> None:
        out.setdefault(name, []).append(nanoseconds / 1000)

    for sent, first, end in requests:
        up = _within(upstream, sent, end)
        up_handler = _first(up, "handler")
        # the first content event: the upstream's first write a pace after its handler
        content = next(t for label, t in up if label == "s_write"
                       and t - up_handler > bench.PACE * 0.75e9)
        if middle is None:
            add("request in flight", _first(up, "s_read") - sent)
            add("content event to first token", first - content)
            continue
        mid = _within(middle, sent, end)
        read = _first(mid, "s_read")
        handler = _first(mid, "handler")
        write, written = _first(mid, "c_write"), _first(mid, "c_written")
        add("request in flight", read - sent)
        add("read to handler", handler - read)
        add("own work", write - handler)
        add("upstream write call", written - write)
        add("to upstream handler", up_handler - written)
        got = _first(mid, "c_read", content)
        add("content event to read", got - content)
        out_write = _first(mid, "s_write", got)
        add("read to client write", out_write - got)
        add("client write call", _first(mid, "s_written", out_write) - out_write)
        add("content event to first token", first - content)
    return out


def main(n: int) -> None:
    apis = os.environ.get("TRIPWIRE_BENCH_APIS", "chat").split(",")
    base = os.environ.get("TRIPWIRE_BENCH_BASE")
    with tempfile.TemporaryDirectory() as tmp:
        files = {role: os.path.join(tmp, f"{role}.json")
                 for role in ("upstream", "proxy", "gateway", "base")}
        up, up_url = start("upstream", str(bench.PACE), dump_to=files["upstream"])
        proxy, proxy_url = start("proxy", up_url, dump_to=files["proxy"])
        gateway, gateway_url = start("gateway", up_url, dump_to=files["gateway"])
        processes = [up, proxy, gateway]
        targets = [("direct", up_url, "m", "chat"), ("proxy", proxy_url, "m", "chat")]
        targets += [(f"gateway {api}", gateway_url, "bench", api) for api in apis]
        if base:
            based, base_url = start("gateway", up_url, dump_to=files["base"], python=base)
            processes.append(based)
            targets += [(f"base {api}", base_url, "bench", api) for api in apis]
        load = os.getloadavg()[0]
        try:
            timings = asyncio.run(client(targets, n))
        finally:
            for process in processes:
                process.terminate()
                process.wait()
        events = {role: json.loads(Path(f).read_text()) for role, f in files.items()
                  if Path(f).exists()}
    print(f"one paced stream at a time, {n} requests per target, load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after; medians in microseconds")
    direct_first = statistics.median(f - s for s, f, _ in timings["direct"]) / 1000
    columns: dict[str, dict[str, float]] = {}
    for name, requests in timings.items():
        middle = (None if name == "direct" else events["proxy"] if name == "proxy"
                  else events["base" if name.startswith("base") else "gateway"])
        columns[name] = {k: statistics.median(v)
                         for k, v in steps(requests, events["upstream"], middle).items()}
        columns[name]["added to first token"] = (
            statistics.median(f - s for s, f, _ in requests) / 1000 - direct_first)
    rows = list(dict.fromkeys(k for column in columns.values() for k in column))
    print(f"{'':>30}" + "".join(f"{name:>16}" for name in columns))
    for row in rows:
        print(f"{row:>30}" + "".join(
            f"{columns[name][row]:>16.0f}" if row in columns[name] else f"{'':>16}"
            for name in columns))


def run(argv: list[str]) -> None:
    if argv and argv[0] in ("upstream", "proxy", "gateway"):
        role, dump_to, *args = argv
        probe(dump_to)
        if role == "upstream":
            asyncio.run(bench.upstream(float(args[0])))
            return
        from tripwire.serve import event_loop

        serving = bench.bare_proxy if role == "proxy" else bench.gateway
        event_loop(bench.LOOP)[1](serving(args[0]))
        return
    main(int(argv[0]) if argv else 40)


if __name__ == "__main__":
    run(sys.argv[1:])
