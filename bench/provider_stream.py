"""How much the providers' stream parsing costs over reading raw SSE lines.

A local aiohttp server streams one model answer of N text deltas (default 10,000)
in each wire format. For each format the same bytes are read two ways, alternately,
several rounds:

- bare: the plain aiohttp loop ``async for line in response.content`` counting
  ``data:`` lines (no JSON, no chunks) - the baseline of the target;
- provider: ``OpenAICompatible.stream`` / ``Anthropic.stream``, which parse every
  event into tripwire ``Chunk`` objects (plus the finish chunk);
- split (for reference): the fastest way to find the lines, splitting the bytes of
  ``iter_any()`` blocks ourselves, as the providers' SSE reader does; it shows that
  what remains of the provider's time is JSON decoding and chunk building.

Prints the best time of each, deltas per second, and the ratio provider/bare
(target: at most 2x). Run by hand: ``python bench/provider_stream.py [N] [rounds]``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support

from _serve import serve  # noqa: E402

from tests.support.fake_llm_server import Reply, anthropic_events, openai_events  # noqa: E402
from tripwire.models import Anthropic, ModelRequest, OpenAICompatible  # noqa: E402

WRITE_SIZE = 16 * 1024


async def bare(session: aiohttp.ClientSession, url: str) -> int:
    count = 0
    async with session.post(url, json={"stream": True}) as response:
        async for line in response.content:
            if line.startswith(b"data:"):
                count += 1
    return count


async def split(session: aiohttp.ClientSession, url: str) -> int:
    count = 0
    buffer = b""
    async with session.post(url, json={"stream": True}) as response:
        async for block in response.content.iter_any():
            buffer += block
            lines = buffer.split(b"\n")
            buffer = lines.pop()
            count += sum(1 for line in lines if line.startswith(b"data:"))
    return count


async def provider(model, request: ModelRequest) -> int:
    count = 0
    async for _chunk in model.stream(request):
        count += 1
    return count


async def main(n: int, rounds: int) -> None:
    reply = Reply(text="tok " * n, delta_size=4)
    blobs = {
        "/v1/chat/completions": b"".join(openai_events(reply, "bench")),
        "/v1/messages": b"".join(anthropic_events(reply, "bench")),
    }
    runner, url = await serve(blobs, WRITE_SIZE)
    request = ModelRequest(prompt=[{"role": "user", "content": "go"}])
    print(f"{n} text deltas per answer, best of {rounds} rounds, {sys.version.split()[0]}, aiohttp {aiohttp.__version__}")
    print(
        f"{'format':<10} {'split s':>8} {'bare s':>8} {'provider s':>11} {'bare deltas/s':>14} "
        f"{'provider deltas/s':>18} {'provider/bare':>14}"
    )
    try:
        async with aiohttp.ClientSession() as session:
            for name, path, model in (
                ("openai", "/v1/chat/completions", OpenAICompatible(base_url=f"{url}/v1", api_key="k", model="bench")),
                ("anthropic", "/v1/messages", Anthropic(base_url=url, api_key="k", model="bench")),
            ):
                async with model:
                    await bare(session, url + path)  # warm up both paths
                    await provider(model, request)
                    best_bare = best_provider = best_split = float("inf")
                    for _ in range(rounds):
                        start = time.perf_counter()
                        await split(session, url + path)
                        best_split = min(best_split, time.perf_counter() - start)
                        start = time.perf_counter()
                        await bare(session, url + path)
                        best_bare = min(best_bare, time.perf_counter() - start)
                        start = time.perf_counter()
                        chunks = await provider(model, request)
                        best_provider = min(best_provider, time.perf_counter() - start)
                    assert chunks == n + 1, chunks
                    print(
                        f"{name:<10} {best_split:>8.4f} {best_bare:>8.4f} {best_provider:>11.4f} "
                        f"{n / best_bare:>14,.0f} {n / best_provider:>18,.0f} "
                        f"{best_provider / best_bare:>13.2f}x"
                    )
    finally:
        await runner.cleanup()


if __name__ == "__main__":
    deltas = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    asyncio.run(main(deltas, repeat))
