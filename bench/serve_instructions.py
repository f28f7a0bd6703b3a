"""Instructions per request, and per step of the way to the first token: what the bare
aiohttp proxy and the gateway execute, counted by valgrind's callgrind (a count of
instructions, which the host's other jobs do not move, where wall-clock and CPU time on
a shared machine do).

``bench/serve.py``'s processes: its upstream (one text delta by default,
``TRIPWIRE_BENCH_DELTAS``), its bare proxy and its gateway (five pass-through
processors, ``TRIPWIRE_BENCH_PROCS``), the proxy and the gateway each run under
``valgrind --tool=callgrind``, instrumented once it listens. The client sends requests
one at a time, a warm-up first. Two counts per target and client API:

- ``whole request``: the upstream sends the whole stream at once; the counters are
  zeroed, ``N`` requests are sent, the counters dumped: the total over ``N``.
- the steps, with the upstream sending an event every ``TRIPWIRE_BENCH_STEP_PACE``
  seconds (default 0.25: far apart even at valgrind's speed, so that each event is a
  read of its own): probes on aiohttp's reads, writes and handler calls (as
  ``bench/serve_trace.py``'s) each call a C function that callgrind dumps its counters
  before (``--dump-before``), so each dump holds the instructions since the last probe.
  Per request, medians: ``read to handler`` (aiohttp's server, from the request's read
  to the application's handler), ``handler to upstream write`` (the proxy: reading the
  body and aiohttp's client; the gateway: the whole request path, the run's start, the
  input processors and aiohttp's client), and ``content read to client write`` (the
  upstream's first content event, read, to the write that sends it to the client: the
  proxy copies the bytes, the gateway parses the event, runs the output processors,
  renders the API's events and, with them, the response's headers). These steps are
  the own work on the way to the first token: the rest of the time is waiting.

``TRIPWIRE_BENCH_BASE=/path/to/python``: a second gateway, run by that interpreter
(another checkout's ``tripwire``), counted alike. ``TRIPWIRE_BENCH_APIS``: the client
APIs (default all). Run by hand: ``python bench/serve_instructions.py [N] [steps N]``
(valgrind must be installed; a few minutes in all for the defaults, 100 and 20).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
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

WARM_UP = 30
#: Seconds between the upstream's events when the steps are counted.
STEP_PACE = float(os.environ.get("TRIPWIRE_BENCH_STEP_PACE", "0.25"))
#: The probes: each calls a C function of CPython that nothing else on the path calls,
#: and callgrind dumps its counters before that function runs.
PROBES = {"s_read": "getpgrp", "handler": "getuid", "c_write": "getgid",
          "c_read": "geteuid", "c_content": "getloadavg", "s_write": "getegid"}
#: What only the upstream's first content event holds (``"content":""`` is the role's).
CONTENT = b'"content":"w'

TRIGGERS = {f"os_{function}": label for label, function in PROBES.items()}


def probe() -> None:
    """Call this process's probe functions at aiohttp's server and client reads, its
    writes (client side: the upstream request; server side: the answer) and its
    handler calls, and at the reads and the request's write of the providers'
    connection pool (``tripwire.models._pool``), where the gateway's calls go."""
    from aiohttp import client_proto, http_writer, web_app, web_protocol

    marks = {label: getattr(os, function) for label, function in PROBES.items()}
    s_read, handler_mark, c_write = marks["s_read"], marks["handler"], marks["c_write"]
    c_read, c_content, s_write = marks["c_read"], marks["c_content"], marks["s_write"]
    write, writelines = http_writer.StreamWriter._write, http_writer.StreamWriter._writelines

    def client_side(writer: Any) -> bool:
        return isinstance(writer._protocol, client_proto.ResponseHandler)

    def probed_write(self: Any, chunk: Any) -> None:
        (c_write if client_side(self) else s_write)()
        write(self, chunk)

    def probed_writelines(self: Any, chunks: Any) -> None:
        (c_write if client_side(self) else s_write)()
        writelines(self, chunks)

    http_writer.StreamWriter._write = probed_write  # type: ignore[method-assign]
    http_writer.StreamWriter._writelines = probed_writelines  # type: ignore[method-assign]
    server_read = web_protocol.RequestHandler.data_received
    client_read = client_proto.ResponseHandler.data_received

    def probed_server_read(self: Any, data: bytes) -> None:
        s_read()
        server_read(self, data)

    def probed_client_read(self: Any, data: bytes) -> None:
        (c_content if CONTENT in data else c_read)()
        client_read(self, data)

    web_protocol.RequestHandler.data_received = probed_server_read  # type: ignore[method-assign]
    client_proto.ResponseHandler.data_received = probed_client_read  # type: ignore[method-assign]
    handle = web_app.Application._handle

    async def probed_handle(self: Any, request: Any) -> Any:
        handler_mark()
        return await handle(self, request)

    web_app.Application._handle = probed_handle  # type: ignore[method-assign]
    try:  # the providers' connection pool, where the gateway has one
        from tripwire.models import _pool
    except ImportError:
        return
    send, pool_read = _pool.Connection.send, _pool.Connection.data_received

    def probed_send(self: Any, *args: Any) -> Any:
        c_write()  # (the request's bytes are joined and written in this call)
        return send(self, *args)

    def probed_pool_read(self: Any, data: bytes) -> None:
        (c_content if CONTENT in data else c_read)()
        pool_read(self, data)

    _pool.Connection.send = probed_send  # type: ignore[method-assign]
    _pool.Connection.data_received = probed_pool_read  # type: ignore[method-assign]


def start(args: list[str], out: str, python: str, steps: bool
          ) -> tuple[subprocess.Popen[str], str]:
    """This script's ``args`` (a ``bench/serve.py`` role) under callgrind, not
    instrumented until ``count``; with ``steps``, probed and dumped at each probe."""
    triggers = [f"--dump-before=os_{f}" for f in PROBES.values()] if steps else []
    command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--trace-children=yes",
               f"--callgrind-out-file={out}", *triggers, python, __file__,
               "probed" if steps else "plain", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def control(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def dumps(out: str) -> list[tuple[int, str, int]]:
    """The dumps written so far: (number, trigger label or '', instructions)."""
    found = []
    for f in Path(out).parent.glob(Path(out).name + ".*"):
        number = f.name.rsplit(".", 1)[1]
        if not number.isdigit():
            continue
        text = f.read_text()
        total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        trigger = re.search(r"^desc: Trigger: .*?(os_\w+)", text, re.M)
        found.append((int(number), TRIGGERS.get(trigger.group(1), "") if trigger else "",
                      int(total.group(1)) if total else 0))
    return sorted(found)


async def send(url: str, model: str, api: str, n: int) -> None:
    import aiohttp

    path, request, end = bench.API_REQUESTS[api]
    body = json.dumps({**request, "model": model}).encode()
    async with aiohttp.ClientSession() as session:
        for _ in range(n):
            await bench._one(session, url + path, body, end, api)


def whole(process: subprocess.Popen[str], out: str, url: str, model: str, api: str,
          n: int) -> float:
    """Instructions per request of ``process`` for ``n`` requests in ``api``."""
    control(process.pid, "-i", "on")
    asyncio.run(send(url, model, api, WARM_UP))
    control(process.pid, "-z")
    asyncio.run(send(url, model, api, n))
    before = len(dumps(out))
    control(process.pid, "--dump")
    for _ in range(300):
        found = dumps(out)
        if len(found) > before:
            return found[-1][2] / n
        time.sleep(0.1)
    raise RuntimeError(f"no callgrind dump for {out}")


STEPS = ("read to handler", "handler to upstream write", "content read to client write")


def steps(process: subprocess.Popen[str], out: str, url: str, model: str, api: str,
          n: int) -> dict[str, float]:
    """The medians of ``STEPS`` over ``n`` requests in ``api`` (instructions)."""
    control(process.pid, "-i", "on")
    asyncio.run(send(url, model, api, 3))
    time.sleep(1)
    first = len(dumps(out))
    asyncio.run(send(url, model, api, n))
    time.sleep(1)
    found = dumps(out)[first:]
    control(process.pid, "-i", "off")
    counts = request_steps(found)
    return {step: statistics.median(v) if v else float("nan") for step, v in counts.items()}


def request_steps(found: list[tuple[int, str, int]]) -> dict[str, list[int]]:
    """``STEPS`` of each whole request in ``found`` (dumps in order: number, probe,
    instructions since the probe before)."""
    counts: dict[str, list[int]] = {step: [] for step in STEPS}
    # one request: its reads (the headers, and the body in a packet of its own or not),
    # handler, c_write (the upstream request), reads of the response (c_read), the read
    # of the first content event (c_content), s_write (to the client), ...
    labels = [label for _, label, _ in found]
    for h, label in enumerate(labels):
        if label != "handler":
            continue
        first_read = h
        while first_read > 0 and labels[first_read - 1] == "s_read":
            first_read -= 1
        try:
            w = labels.index("c_write", h)
            content = labels.index("c_content", w)
            out_write = labels.index("s_write", content + 1)
        except ValueError:
            continue
        if first_read == h or "handler" in labels[h + 1:out_write]:
            continue  # (not the whole of one request)
        counts["read to handler"].append(sum(c for _, _, c in found[first_read + 1:h + 1]))
        counts["handler to upstream write"].append(sum(c for _, _, c in found[h + 1:w + 1]))
        counts["content read to client write"].append(
            sum(c for _, _, c in found[content + 1:out_write + 1]))
    return counts


def main(n: int, step_n: int) -> None:
    # (one text delta unless told: the processes started below read it)
    os.environ.setdefault("TRIPWIRE_BENCH_DELTAS", "1")
    bench.DELTAS = int(os.environ["TRIPWIRE_BENCH_DELTAS"])
    apis = os.environ.get("TRIPWIRE_BENCH_APIS", ",".join(bench.API_REQUESTS)).split(",")
    base = os.environ.get("TRIPWIRE_BENCH_BASE")
    serve = str(HERE / "serve.py")
    ups = {pace: subprocess.Popen([sys.executable, serve, "upstream", str(pace)],
                                  stdout=subprocess.PIPE, text=True)
           for pace in (0.0, STEP_PACE)}
    urls = {pace: p.stdout.readline().strip() for pace, p in ups.items()}  # type: ignore[union-attr]
    rows: list[tuple[str, float, dict[str, float]]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            targets = [("proxy", "proxy", sys.executable, "m", ["chat"]),
                       ("gateway", "gateway", sys.executable, "bench", apis)]
            if base:
                targets.append(("base", "gateway", base, "bench", apis))
            for name, role, python, model, asked in targets:
                counted: dict[str, Any] = {}
                for pace, probed in ((0.0, False), (STEP_PACE, True)):
                    out = os.path.join(tmp, f"{name}-{probed}.out")
                    args = [role, urls[pace]] + (["1"] if role == "gateway" else [])
                    process, url = start(args, out, python, probed)
                    try:
                        for api in asked:
                            counted[api, probed] = (steps if probed else whole)(
                                process, out, url, model, api, step_n if probed else n)
                    finally:
                        process.terminate()
                        process.wait()
                for api in asked:
                    rows.append((f"{name} {api}", counted[api, False], counted[api, True]))
                    print(f"  {rows[-1][0]}: {rows[-1][1] / 1e6:.3f} M {rows[-1][2]}",
                          flush=True)
    finally:
        for p in ups.values():
            p.terminate()
            p.wait()
    proxy = rows[0]
    print(f"{bench.DELTAS}-delta streams, {bench.PROCS} pass-through processors, one "
          f"request at a time; instructions (thousands): the whole request ({n} "
          f"requests, the upstream's stream at once) and, medians of {step_n} requests "
          f"with the upstream's events {STEP_PACE} s apart, the own work on the way to "
          f"the first token")
    print(f"{'':>20} | {'whole request':>14} | " + " | ".join(f"{s:>28}" for s in STEPS)
          + f" | {'own work to first token':>24}")
    for name, total, counted in rows:
        own = sum(counted.values())
        print(f"{name:>20} | {total / 1e3:>9.0f} {total / proxy[1]:>4.2f}x | "
              + " | ".join(f"{counted[s] / 1e3:>22.1f} {counted[s] / proxy[2][s]:>5.2f}x"
                           for s in STEPS)
              + f" | {own / 1e3:>17.1f} {own / sum(proxy[2].values()):>5.2f}x")


def run(argv: list[str]) -> None:
    if argv and argv[0] in ("plain", "probed"):
        if argv[0] == "probed":
            probe()
        bench.run(argv[1:])
        return
    main(int(argv[0]) if argv else 100, int(argv[1]) if len(argv) > 1 else 20)


if __name__ == "__main__":
    run(sys.argv[1:])
