"""What Python's garbage collector costs the gateway: collections, their pauses and
what they free while ``tripwire serve``'s gateway (bench/serve.py's: five pass-through
processors) serves paced streams, with the threshold ``tripwire serve`` sets
(``tripwire.serve.prepare_collector``) and with Python's own (``--python-threshold``).

The upstream (bench/serve.py's, an event every 20 ms) and the client (N streams, each
request after a random 0-20 ms pause) run in subprocesses; the gateway runs here, its
collections timed with ``gc.callbacks``. Prints, per generation, the collections, the
objects they freed, their median and longest pause, and the gateway's CPU time. Run by
hand: ``python bench/serve_gc.py [streams=50] [seconds=10] [--python-threshold]``.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import serve as bench  # noqa: E402  (bench/serve.py: the upstream and the gateway)


async def client(url: str, streams: int, seconds: float) -> None:
    """``streams`` streams at once for ``seconds``, each request after a random pause."""
    body = {**bench.BODY, "model": "bench"}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        end = time.monotonic() + seconds

        async def one() -> None:
            while time.monotonic() < end:
                await asyncio.sleep(random.uniform(0, bench.PACE))
                async with session.post(f"{url}/v1/chat/completions", json=body) as r:
                    assert r.status == 200, await r.text()
                    await r.read()

        await asyncio.gather(*(one() for _ in range(streams)))


async def main(streams: int, seconds: float, python_threshold: bool) -> None:
    from tripwire.serve import prepare_collector, running

    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    freed = {0: 0, 1: 0, 2: 0}
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses[info["generation"]].append(time.perf_counter() - started[0])
            freed[info["generation"]] += info["collected"]

    upstream, upstream_url = bench.start("upstream", str(bench.PACE))
    try:
        gateway = bench.make_gateway(upstream_url)
        if python_threshold:
            gc.freeze()
        else:
            prepare_collector()
        async with running(gateway, "127.0.0.1", 0) as url:
            code = (f"import asyncio, sys; sys.path.insert(0, {str(HERE)!r}); "
                    f"import serve_gc; asyncio.run(serve_gc.client({url!r}, {streams}, "
                    f"{seconds}))")
            gc.callbacks.append(timed)
            cpu = time.process_time()
            process = await asyncio.create_subprocess_exec(sys.executable, "-c", code)
            assert await process.wait() == 0
            cpu = time.process_time() - cpu
            gc.callbacks.remove(timed)
    finally:
        upstream.terminate()
        upstream.wait()
    print(f"{streams} paced streams for {seconds:g} s, threshold {gc.get_threshold()}: "
          f"gateway CPU {cpu:.2f} s")
    for generation, times in pauses.items():
        if times:
            times.sort()
            print(f"  generation {generation}: {len(times)} collections, {freed[generation]} "
                  f"objects freed, {sum(times) * 1000:.1f} ms in all, median "
                  f"{times[len(times) // 2] * 1e6:.0f} us, longest {times[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    streams = int(args[0]) if args else 50
    seconds = float(args[1]) if len(args) > 1 else 10.0
    from tripwire.serve import event_loop

    event_loop(bench.LOOP)[1](main(streams, seconds, "--python-threshold" in sys.argv))
