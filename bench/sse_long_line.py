"""How long one very long server-sent event takes to read (default: a 64 MiB line).

A local aiohttp server sends one OpenAI chat-completions event whose text is N MiB,
in 64 KiB writes, then the finish events. The same bytes are read four ways:

- bare: ``await response.read()``, just moving the bytes (the floor);
- reader: tripwire's SSE reader (``tripwire.models._sse.iter_sse``) over the body,
  which splits each network block once and joins a long line once;
- provider: ``OpenAICompatible.stream``, i.e. the reader plus JSON decoding of the
  event and the chunks;
- old reader (for reference): the reader tripwire had before, which appended each
  block to the pending line and split the whole line again, so its time grows with
  the square of the line length (skip it with ``--no-old``).

Prints the best time of each over a few rounds. Run by hand:
``python bench/sse_long_line.py [MiB] [rounds] [--no-old]``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp
from _serve import serve

from tripwire.models import ModelRequest, OpenAICompatible
from tripwire.models._sse import iter_sse

WRITE_SIZE = 64 * 1024


def body(mib: int) -> bytes:
    text = "x" * (mib * 1024 * 1024)
    delta = {"id": "c", "choices": [{"index": 0, "delta": {"content": text}}]}
    finish = {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    return (
        b"data: " + json.dumps(delta).encode() + b"\n\n"
        + b"data: " + json.dumps(finish).encode() + b"\n\ndata: [DONE]\n\n"
    )


async def old_reader(content: aiohttp.StreamReader) -> int:
    """The former line splitting: quadratic in the length of a line."""
    count = 0
    buffer = b""
    async for block in content.iter_any():
        buffer += block
        lines = buffer.split(b"\n")
        buffer = lines.pop()
        count += sum(1 for line in lines if line.startswith(b"data:"))
    return count


async def main(mib: int, rounds: int, with_old: bool) -> None:
    runner, base = await serve({"/v1/chat/completions": body(mib)}, WRITE_SIZE)
    url = base + "/v1"
    endpoint = url + "/chat/completions"
    limit = (mib + 1) * 1024 * 1024
    request = ModelRequest(prompt=[{"role": "user", "content": "go"}])
    print(f"one {mib} MiB event, best of {rounds}, {sys.version.split()[0]}, aiohttp {aiohttp.__version__}")
    best: dict[str, float] = {}

    def record(name: str, start: float) -> None:
        best[name] = min(best.get(name, float("inf")), time.perf_counter() - start)

    try:
        async with aiohttp.ClientSession() as session:
            async with OpenAICompatible(base_url=url, api_key="k", model="m", max_event_bytes=limit) as model:
                for _ in range(rounds):
                    start = time.perf_counter()
                    async with session.post(endpoint, json={}) as response:
                        await response.read()
                    record("bare", start)
                    start = time.perf_counter()
                    async with session.post(endpoint, json={}) as response:
                        events = [e async for e in iter_sse(response.content, max_event_bytes=limit)]
                    assert len(events) == 3
                    record("reader", start)
                    start = time.perf_counter()
                    n = sum([len(c.payload["text"]) async for c in model.stream(request) if c.type == "text-delta"])
                    assert n == mib * 1024 * 1024
                    record("provider", start)
            if with_old:
                start = time.perf_counter()
                async with session.post(endpoint, json={}) as response:
                    await old_reader(response.content)
                record("old reader", start)
    finally:
        await runner.cleanup()
    for name, seconds in best.items():
        print(f"{name:<12} {seconds:8.3f} s  {mib / seconds:8.1f} MiB/s")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(
        main(
            int(args[0]) if args else 64,
            int(args[1]) if len(args) > 1 else 3,
            "--no-old" not in sys.argv,
        )
    )
