"""The latency ``tripwire serve`` adds: the gateway (an agent with five pass-through
processors, each in the input and the output list) against calling the same local
upstream directly, and against a bare aiohttp proxy that only copies bytes (the floor
for any aiohttp gateway on the machine).

Four processes on 127.0.0.1, placed by the system (``TRIPWIRE_BENCH_PIN=1``: the gateway
and the bare proxy, measured one at a time, on one CPU, the upstream and this client,
the bench's load, on another; ``TRIPWIRE_BENCH_PROCS=N``: N pass-through processors
instead of 5; ``TRIPWIRE_BENCH_WORKERS=1,2``: a gateway of one worker process and one
of two, as ``tripwire serve --workers`` runs them, measured in the same rounds;
``TRIPWIRE_BENCH_APIS=chat,responses``: the client APIs the gateway is measured in,
default all, each in the same rounds). The upstream (a prepared OpenAI stream of 20 text deltas,
sent at once or one event every 20 ms on the upstream's own clock), the bare proxy, the
gateway (``tripwire.serve.running`` on ``tripwire serve``'s default event loop;
``TRIPWIRE_BENCH_LOOP=asyncio`` for the standard one) and this client (aiohttp). At each
concurrency (default 1, 50, 200 streams at once) the client first opens as many
connections as the level uses (a warm-up wave), then sends ``stream: true`` chat
completions straight to the upstream, through the proxy and through the gateway, and
times each from sending the request to the last byte. Paced streams run twice:
independent (each request after a random pause shorter than the pace, as real users'
requests are) and in phase (every stream's events at the same instants: the worst case),
each level in 5 rounds of direct, proxy and gateway requests whose latencies are pooled
(the machine's speed drifts over seconds; interleaving exposes the three to it alike).

Prints p50 / p99 of the direct call, the latency the proxy and the gateway add (minus
direct, per percentile), requests per second and the gateway's CPU per request, for
each client API (the same stream asked for as a chat completion, a Responses request or
a Messages request: the upstream speaks chat completions either way). Target:
at 50 concurrent streams, p50 added <= 1 ms and p99 added <= 5 ms.

Then the time to first token, per level: from sending the request to reading the line
of the first content delta the client decodes (``first_token``: chat completions' first
``choices[0].delta.content`` that is not empty, the Responses API's first
``response.output_text.delta``, the Messages API's first ``content_block_delta`` with a
``text_delta``). For the direct call and the proxy that is the upstream's first content
delta (its second event: the first is the empty role chunk), for the gateway the same
delta after the output processors. p50 / p99 of the direct call, what the proxy and the
gateway add to it (per percentile), and the ratio gateway-added / proxy-added (target:
at most 1.5 at 1, 10 and 50 streams, in every API).

``TRIPWIRE_BENCH_BASE=/path/to/python``: a second gateway, run by that interpreter (one
whose ``tripwire`` is another checkout, such as the main branch's), measured in the same
interleaved rounds (its rows say ``base``): an A/B comparison in one sitting. Run by
hand: ``python bench/serve.py [requests per burst level] [levels...]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests.support
sys.path.insert(0, str(HERE))

#: Text deltas of the upstream's stream (``TRIPWIRE_BENCH_DELTAS``).
DELTAS = int(os.environ.get("TRIPWIRE_BENCH_DELTAS", "20"))
#: The gateway's and the proxy's event loop (``tripwire serve --loop``).
LOOP = os.environ.get("TRIPWIRE_BENCH_LOOP", "auto")
#: Pass-through processors of the gateway's agent (``TRIPWIRE_BENCH_PROCS``).
PROCS = int(os.environ.get("TRIPWIRE_BENCH_PROCS", "5"))
#: The gateways measured, by their worker processes (``tripwire serve --workers``):
#: ``TRIPWIRE_BENCH_WORKERS=1,2`` measures one of each in the same interleaved rounds.
WORKERS = [int(n) for n in os.environ.get("TRIPWIRE_BENCH_WORKERS", "1").split(",")]
#: Seconds between the events of a paced upstream stream.
PACE = 0.02
#: Rounds of direct, proxy and gateway requests a paced level (and a burst level asked
#: in more than one API) is split into.
ROUNDS = 5
BODY = {"stream": True, "messages": [{"role": "user", "content": "Hello there"}]}


#: Each client API: its path, its streamed request for the same answer, and the start
#: of the last line of its stream.
API_REQUESTS = {
    "chat": ("/v1/chat/completions", BODY, b"data: [DONE]"),
    "responses": ("/v1/responses", {"stream": True, "input": "Hello there"},
                  b'data: {"type":"response.completed"'),
    "messages": ("/v1/messages", {**BODY, "max_tokens": 256},
                 b'data: {"type":"message_stop"'),
}
#: The client APIs measured (``TRIPWIRE_BENCH_APIS``).
APIS = os.environ.get("TRIPWIRE_BENCH_APIS", ",".join(API_REQUESTS)).split(",")
#: The interpreter of a second gateway measured beside this checkout's
#: (``TRIPWIRE_BENCH_BASE``; its ``tripwire`` is whatever that interpreter imports).
BASE = os.environ.get("TRIPWIRE_BENCH_BASE")


def first_token(api: str, line: bytes) -> bool:
    """Whether ``line`` (one line of a stream in ``api``) carries the first content
    delta a client decodes: a chat completion chunk whose ``delta.content`` is not
    empty, a Responses ``response.output_text.delta``, a Messages
    ``content_block_delta`` of a ``text_delta``. (The direct call and the proxy are
    chat completions: their first token is the upstream's first content delta.)"""
    if not line.startswith(b"data: {"):
        return False
    event = json.loads(line[6:])
    if api == "chat":
        choices = event.get("choices") or [{}]
        return bool(choices[0].get("delta", {}).get("content"))
    if api == "responses":
        return event.get("type") == "response.output_text.delta"
    return (event.get("type") == "content_block_delta"
            and event["delta"].get("type") == "text_delta")


# ---------------------------------------------------------------- the servers


async def serve_forever(handler: Any) -> None:
    """Serve ``handler`` for chat completions on a free loopback port; print the URL
    (the parent reads it) and serve until killed."""
    from aiohttp import web

    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    print(f"http://{host}:{port}", flush=True)
    await asyncio.Event().wait()


async def upstream(pace: float) -> None:
    """The upstream: the whole stream in one write (``pace`` 0), or one event every
    ``pace`` seconds, as a model streams tokens (event ``i`` at ``i * pace`` after the
    request, whatever the time its writes took: pacing relative to the previous write
    would let the reader's speed shift every later event, and the total with it)."""
    from aiohttp import web

    from tests.support.fake_llm_server import Reply, openai_events

    events = openai_events(Reply(text="word " * DELTAS, delta_size=5), "m")
    blob = b"".join(events)

    async def handler(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        if not pace:
            await response.write(blob)
        else:  # on the upstream's own clock: a slow reader does not slow the model down
            loop = asyncio.get_running_loop()
            start = loop.time()
            for i, event in enumerate(events):
                if i:
                    await asyncio.sleep(start + i * pace - loop.time())
                await response.write(event)
        await response.write_eof()
        return response

    await serve_forever(handler)


def make_gateway(upstream_url: str) -> Any:
    """The gateway: one agent with ``PROCS`` pass-through processors in its input and
    output lists."""
    from tripwire import Agent, Processor, hookimpl
    from tripwire.models import OpenAICompatible
    from tripwire.serve import Gateway

    class PassThrough(Processor):
        def __init__(self, i: int) -> None:
            self.id = f"pass-{i}"

        @hookimpl
        def process_input(self, messages):
            return None

        @hookimpl
        def process_output_stream(self, part):
            return part

    processors = [PassThrough(i) for i in range(PROCS)]
    agent = Agent(id="bench", model=OpenAICompatible(f"{upstream_url}/v1", None, "m",
                                                     max_connections=1000),
                  input_processors=processors, output_processors=processors,
                  default_error_processors=False)
    return Gateway({"bench": agent}, max_concurrent=10_000)


async def gateway(upstream_url: str) -> None:
    from tripwire.serve import prepare_collector, running

    built = make_gateway(upstream_url)
    prepare_collector()  # as tripwire serve does once it has built its agents
    async with running(built, "127.0.0.1", 0) as url:
        print(url, flush=True)
        await asyncio.Event().wait()


def gateway_workers(upstream_url: str, workers: int) -> int:
    """The gateway as ``tripwire serve --workers N`` runs it: a supervisor and forked
    workers on one port."""
    from tripwire.serve import serve_workers

    return serve_workers(lambda: make_gateway(upstream_url), workers, "127.0.0.1", 0,
                         loop=LOOP, on_listening=lambda url: print(url, flush=True))


async def bare_proxy(upstream_url: str) -> None:
    """The floor: an aiohttp proxy that copies the upstream's bytes to the client as
    they arrive (no parsing, no agent, no processors): what any Python gateway on
    aiohttp pays for the extra hop on this machine."""
    from aiohttp import web

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    async def handler(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        async with session.post(f"{upstream_url}/v1/chat/completions", data=body,
                                headers={"Content-Type": "application/json"}) as upstream:
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
            await response.prepare(request)
            async for data in upstream.content.iter_any():
                await response.write(data)
            await response.write_eof()
            return response

    await serve_forever(handler)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (a supervisor's workers)
    so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return float("nan")
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def start(*args: str, python: str = sys.executable) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([python, __file__, *args], stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


# ---------------------------------------------------------------- the client


async def _one(session: aiohttp.ClientSession, url: str, body: bytes,
               end: bytes = b"data: [DONE]", api: str = "chat") -> tuple[float, float]:
    """Seconds to the first token (``first_token``) and to the last byte of one
    streamed request in ``api``, whose last line starts with ``end``."""
    started = time.perf_counter()
    first = 0.0
    async with session.post(url, data=body,
                            headers={"Content-Type": "application/json"}) as response:
        assert response.status == 200, await response.text()
        last = b""
        async for line in response.content:
            if line.strip():
                if not first and first_token(api, line):
                    first = time.perf_counter() - started
                last = line
    assert first, "the stream had no content delta"
    assert last.startswith(end), last
    return first, time.perf_counter() - started


class Samples:
    """Latencies (seconds) of one target, pooled over the rounds of a level."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.firsts: list[float] = []
        self.count = 0  # requests sent, warm-ups included (for CPU per request)
        self.elapsed = 0.0  # seconds of the timed requests

    def stats(self) -> dict[str, float]:
        times, firsts = sorted(self.times), sorted(self.firsts)
        return {"p50": statistics.median(times) * 1000, "p99": _p99(times) * 1000,
                "first50": statistics.median(firsts) * 1000,
                "first99": _p99(firsts) * 1000,
                "rps": len(times) / self.elapsed}


def _p99(values: list[float]) -> float:
    return values[min(len(values) - 1, int(len(values) * 0.99))]


async def level(url: str, model: str, concurrency: int, total: int, into: Samples,
                stagger: float = 0.0, seed: int = 0, api: str = "chat") -> None:
    """``total`` requests of ``api`` to the server at ``url``, ``concurrency`` at a time,
    their latencies added to ``into``. With ``stagger``, each request waits a random 0
    to ``stagger`` seconds before it is sent (not counted in its latency), so that the
    streams are not in phase."""
    rng = random.Random(seed)
    path, request, end = API_REQUESTS[api]
    url += path
    body = json.dumps({**request, "model": model}).encode()

    async def one(session: aiohttp.ClientSession, url: str, body: bytes) -> tuple[float, float]:
        return await _one(session, url, body, end, api)

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        # warm up code paths, and open as many connections as the level uses (client to
        # gateway and gateway to upstream), so that the timed requests measure the
        # steady state rather than TCP handshakes
        for _ in range(3):
            await one(session, url, body)
        await asyncio.gather(*(one(session, url, body) for _ in range(concurrency)))
        remaining = total

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                if stagger:
                    await asyncio.sleep(rng.uniform(0, stagger))
                first, whole = await one(session, url, body)
                into.firsts.append(first)
                into.times.append(whole)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        into.elapsed += time.perf_counter() - started
    into.count += total + 3 + concurrency


async def main(total: int, levels: list[int]) -> None:
    from tripwire.serve import event_loop

    layout = ("gateway and proxy on a CPU of their own, upstream and client on the other"
              if PIN else "processes placed by the system")
    print(f"{DELTAS}-delta streams, {total} requests per burst level, "
          f"{PROCS} pass-through processors, gateways of "
          f"{' and '.join(map(str, WORKERS))} worker process(es) ('1w', '2w', ...)"
          f"{f' and a base gateway run by {BASE} (base)' if BASE else ''}, "
          f"{os.cpu_count()} CPUs, {layout} (load average {os.getloadavg()[0]:.1f}); "
          f"gateway and proxy on the {event_loop(LOOP)[0]} event loop (tripwire serve's "
          f"default: uvloop when installed). Latency to the last byte, added to the "
          f"direct call's: 'proxy' is a bare aiohttp proxy that copies bytes (the floor "
          f"for any aiohttp gateway on this machine); 'CPU/req': the gateway process's "
          f"CPU time per request (and the proxy's); each gateway row is one client API "
          f"({', '.join(APIS)}). Then the time to first token: to the line of the first "
          f"content delta (the upstream's, for direct and proxy), added to the direct "
          f"call's, and the ratio gateway-added / proxy-added.")
    modes = (
        (0.0, 0.0, "burst: the upstream sends the whole stream at once, requests back to "
                   "back (a throughput test)"),
        (PACE, PACE, f"paced, independent streams: the upstream sends an event every "
                     f"{PACE * 1000:.0f} ms, as a model streams tokens; each request starts "
                     f"after a random 0-{PACE * 1000:.0f} ms pause, as users do not click "
                     f"in step"),
        (PACE, 0.0, "paced, in phase (worst case): the same, with every stream's events at "
                    "the same instants, so the gateway gets them all at once"),
    )
    for pace, stagger, title in modes:
        up, up_url = start("upstream", str(pace))
        proxy, proxy_url = start("proxy", up_url)
        servers = [(f"{n}w" if len(WORKERS) > 1 else "", *start("gateway", up_url, str(n)))
                   for n in WORKERS]
        if BASE:
            servers.append(("base", *start("gateway", up_url, "1", python=BASE)))
        gateways = [(tag, api, gw, url) for tag, gw, url in servers for api in APIS]
        try:
            print(f"\n{title}")
            latency: list[str] = []
            tokens: list[str] = []
            for concurrency in levels:
                # Paced levels run in ROUNDS rounds of direct, proxy, gateway(s), pooled:
                # the machine's state drifts over seconds (other jobs on the host), and
                # interleaving gives them all the same share of every state.
                n = total if not pace else max(concurrency * 10, 100)
                # (burst levels too when the gateway is asked in more than one API: the
                # APIs' rows are then compared under the same drift)
                rounds = ROUNDS if pace or len(gateways) > 1 else 1
                direct, bare = Samples(), Samples()
                served = [Samples() for _ in gateways]
                cpu = [0.0 for _ in gateways]
                proxy_cpu = 0.0
                for r in range(rounds):
                    part = n // rounds
                    await level(up_url, "m", concurrency, part, direct, stagger, r)
                    before = cpu_seconds(proxy.pid)
                    await level(proxy_url, "m", concurrency, part, bare, stagger, r)
                    proxy_cpu += cpu_seconds(proxy.pid) - before
                    for i, (_, api, gw, gw_url) in enumerate(gateways):
                        before = cpu_seconds(gw.pid)
                        await level(gw_url, "bench", concurrency, part, served[i], stagger,
                                    r, api)
                        cpu[i] += cpu_seconds(gw.pid) - before
                proxy_cpu = proxy_cpu / bare.count * 1000
                d, b = direct.stats(), bare.stats()
                proxy_first = (b["first50"] - d["first50"], b["first99"] - d["first99"])
                for (tag, api, _, _), samples, seconds in zip(gateways, served, cpu,
                                                              strict=True):
                    g = samples.stats()
                    label = " ".join(x for x in (str(concurrency), tag,
                                                 api if len(APIS) > 1 else "") if x)
                    latency.append(
                        f"{label:>20} | {d['p50']:>8.2f}ms {d['p99']:>6.2f}ms "
                        f"{d['rps']:>7.0f} | {b['p50'] - d['p50']:>8.2f}ms "
                        f"{b['p99'] - d['p99']:>6.2f}ms | {g['p50'] - d['p50']:>10.2f}ms "
                        f"{g['p99'] - d['p99']:>6.2f}ms {g['rps']:>7.0f} | "
                        f"{seconds / samples.count * 1000:>6.2f}ms {proxy_cpu:>6.2f}ms")
                    added = (g["first50"] - d["first50"], g["first99"] - d["first99"])
                    tokens.append(
                        f"{label:>20} | {d['first50']:>8.2f}ms {d['first99']:>6.2f}ms | "
                        f"{proxy_first[0]:>8.2f}ms {proxy_first[1]:>6.2f}ms | "
                        f"{added[0]:>10.2f}ms {added[1]:>6.2f}ms | "
                        f"{_ratio(added[0], proxy_first[0]):>6} "
                        f"{_ratio(added[1], proxy_first[1]):>6}")
                print(f"  ({concurrency} streams measured)", flush=True)
            print(f"{'to the last byte':>20} | {'direct p50':>10} {'p99':>8} {'req/s':>7} | "
                  f"{'proxy +p50':>10} {'+p99':>8} | {'gateway +p50':>12} {'+p99':>8} "
                  f"{'req/s':>7} | {'CPU/req':>8} {'proxy':>8}")
            print("\n".join(latency))
            print(f"{'to the first token':>20} | {'direct p50':>10} {'p99':>8} | "
                  f"{'proxy +p50':>10} {'+p99':>8} | {'gateway +p50':>12} {'+p99':>8} | "
                  f"{'ratio':>6} {'p99':>6}")
            print("\n".join(tokens), flush=True)
        finally:
            for process in (*(gw for _, gw, _ in servers), proxy, up):
                process.terminate()
                process.wait()


def _ratio(gateway: float, proxy: float) -> str:
    """``gateway / proxy`` (what each adds to the direct call), or ``-`` when the proxy
    added nothing measurable."""
    return f"{gateway / proxy:.2f}" if proxy > 0.01 else "-"


#: Whether the gateway and the proxy get a CPU of their own (``TRIPWIRE_BENCH_PIN=1``).
PIN = (os.environ.get("TRIPWIRE_BENCH_PIN") == "1" and hasattr(os, "sched_setaffinity")
       and len(os.sched_getaffinity(0)) >= 2)


def pin(role: str) -> None:
    """With ``PIN``, the gateway and the proxy on one CPU, the upstream and the client
    on another: in production the upstream and the clients run on other machines, and
    unpinned they take the measured process's CPU. (Pinned, the gateway cannot use the
    other CPU either: which layout adds less varies with the host's load.)"""
    if PIN:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[1]} if role in ("proxy", "gateway") else {cpus[0]})


def run(argv: list[str]) -> Any:
    pin(argv[0] if argv else "client")
    if argv and argv[0] == "upstream":
        return asyncio.run(upstream(float(argv[1])))
    if argv and argv[0] == "gateway" and int(argv[2]) > 1:
        return gateway_workers(argv[1], int(argv[2]))
    if argv and argv[0] in ("proxy", "gateway"):
        from tripwire.serve import event_loop

        serving = bare_proxy if argv[0] == "proxy" else gateway
        return event_loop(LOOP)[1](serving(argv[1]))
    total = int(argv[0]) if argv else 2000
    levels = [int(a) for a in argv[1:]] or [1, 50, 200]
    return asyncio.run(main(total, levels))


if __name__ == "__main__":
    run(sys.argv[1:])
