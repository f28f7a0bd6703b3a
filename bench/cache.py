"""Response cache: what a hit costs per backend, against a model call, and request
coalescing under a burst.

Run by hand:  python bench/cache.py [--runs 500]

1. Hit latency per backend - memory://, sqlite:/// (a file in a temp dir) and redis://
   (a redis-server started on a free loopback port; skipped without the binary):
   - backend: one ``get`` of a stored 10-chunk answer plus decoding it (µs);
   - run: a whole ``agent.generate()`` answered from the cache (µs);
   against the same run with no cache and a scripted model (``MockModel``, which costs
   next to nothing: the floor of a model call) and a model over HTTP on loopback (the
   OpenAI wire format from a local aiohttp server: the floor of a real provider call).
2. Coalescing: 1,000 concurrent identical ``generate()`` calls on an empty cache, the
   model taking 50 ms; how many model calls, and the wall time; the same with
   ``coalesce=False`` for contrast.
3. Budgets: ``cost-guard`` overspend when 100 concurrent runs share one resource
   budget, per backend (``bench/cost_guard.py``, which also runs on its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support

from _serve import serve  # noqa: E402

from tripwire import Agent  # noqa: E402
from tripwire.caches import decode_chunks  # noqa: E402
from tripwire.models.openai import OpenAICompatible  # noqa: E402
from tripwire.plugins.response_cache import ResponseCache  # noqa: E402
from tripwire.testing import MockModel  # noqa: E402

ANSWER = "The quick brown fox jumps over the lazy dog, twice, to be sure."


def sse(text: str) -> bytes:
    """An OpenAI chat-completions stream of ``text`` in 10 pieces."""
    words = text.split(" ")
    step = max(1, len(words) // 10)
    pieces = [" ".join(words[i : i + step]) + " " for i in range(0, len(words), step)]
    events = [{"choices": [{"index": 0, "delta": {"content": p}}]} for p in pieces]
    events.append(
        {
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 12, "total_tokens": 17},
        }
    )
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return body + b"data: [DONE]\n\n"


def agent(model, processors) -> Agent:
    return Agent(
        id="bench",
        instructions="Be brief.",
        model=model,
        input_processors=processors,
        default_error_processors=False,
    )


async def time_runs(a: Agent, runs: int) -> float:
    """Median µs of one generate() over ``runs`` runs (after a warm-up)."""
    for _ in range(5):
        await a.generate("hello")
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await a.generate("hello")
        samples.append(time.perf_counter() - t0)
    return median(samples) * 1e6


async def _median_get(backend, keys, runs: int) -> float:
    samples = []
    for i in range(runs):
        t0 = time.perf_counter()
        decode_chunks(await backend.get(keys[i % len(keys)]))
        samples.append(time.perf_counter() - t0)
    return median(samples) * 1e6


class KeyRecorder:
    """Wraps a backend to learn the key response-cache writes under."""

    def __init__(self, backend):
        self.backend = backend
        self.keys: list[str] = []

    async def get(self, key):
        return await self.backend.get(key)

    async def set(self, key, value, ttl_seconds):
        self.keys.append(key)
        await self.backend.set(key, value, ttl_seconds)

    async def delete(self, key):
        await self.backend.delete(key)

    async def incr(self, key, amount, ttl_seconds):
        return await self.backend.incr(key, amount, ttl_seconds)


async def hit_latency(runs: int) -> None:
    from tripwire.caches import open_cache

    print("1. hit latency (median µs; a 10-chunk answer)")
    mock = await time_runs(agent(MockModel([ANSWER] * (runs + 10)), []), runs)
    runner, url = await serve({"/v1/chat/completions": sse(ANSWER)}, 4096)
    try:
        http_model = OpenAICompatible(base_url=url + "/v1", api_key="x", model="bench")
        async with http_model:
            http = await time_runs(agent(http_model, []), runs)
    finally:
        await runner.cleanup()
    print(f"   no cache, MockModel:                run {mock:8.0f}")
    print(f"   no cache, OpenAI wire over loopback: run {http:8.0f}")
    with tempfile.TemporaryDirectory() as tmp:
        urls = {"memory": "memory://", "sqlite": f"sqlite:///{tmp}/bench.db"}
        server = None
        try:
            from tests.support.redis_server import RedisServer

            server = RedisServer(Path(tmp))
            server.start()
            urls["redis"] = server.url
        except BaseException as e:  # pytest's Skipped without the binary
            print(f"   redis: skipped ({type(e).__name__}: {e})")
            server = None
        try:
            for name, url in urls.items():
                backend = KeyRecorder(open_cache(url))
                cache = ResponseCache(cache=backend, scope=None)
                run = await time_runs(agent(MockModel([ANSWER]), [cache]), runs)
                get = await _median_get(backend.backend, backend.keys, runs)
                print(f"   {name:7s} hit: backend get+decode {get:8.0f}   run {run:8.0f}")
                await backend.backend.close()
        finally:
            if server is not None:
                server.stop()


async def coalescing(n: int) -> None:
    print(f"2. coalescing: {n} concurrent identical generate() calls, the model taking 50 ms")
    for coalesce in (True, False):
        model = MockModel([ANSWER] * n, chunk_delay=0.005)  # 10 chunks: ~50 ms
        a = agent(model, [ResponseCache(coalesce=coalesce)])
        t0 = time.perf_counter()
        results = await asyncio.gather(*(a.generate("hello") for _ in range(n)))
        wall = time.perf_counter() - t0
        assert all(r.text == results[0].text for r in results)
        print(
            f"   coalesce={coalesce!s:5s}: model calls {len(model.requests):5d}   "
            f"wall {wall * 1000:7.0f} ms"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--burst", type=int, default=1000)
    args = parser.parse_args()
    await hit_latency(args.runs)
    await coalescing(args.burst)
    import cost_guard

    print("\n3. cost-guard: 100 concurrent runs sharing one resource budget")
    await cost_guard.main()


if __name__ == "__main__":
    asyncio.run(main())
