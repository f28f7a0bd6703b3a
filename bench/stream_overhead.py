"""Chunks per second through process_output_stream, against a direct loop.

Run by hand:  python bench/stream_overhead.py [--chunks 20000] [--repeat 5]

For 0, 1, 5 and 20 pass-through processors it times tripwire's output pipeline (the
code agent.stream() runs for every chunk) and a hand-written async loop that awaits
the same processor functions directly, side by side, and prints the ratio.
Target: with 5 processors, at most 3x the direct loop's time per chunk.

It also times ``agent.stream`` end to end over a scripted model of as many chunks, and
the model alone (its chunks consumed with no framework): the last two columns are the
framework's cost per chunk end to end (agent.stream's time less the model's) and the
pipeline's alone. Target: the first at most 2x the second with 0 processors.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tripwire import Agent, Chunk, Processor, hookimpl
from tripwire.run._loop import Run
from tripwire.testing import MockModel


def make_processor(i: int) -> Processor:
    class PassThrough(Processor):
        id = f"pass-{i}"

        @hookimpl
        async def process_output_stream(self, part, state):
            return part

    return PassThrough()


async def through_tripwire(n_procs: int, chunks: list[Chunk]) -> float:
    procs = [make_processor(i) for i in range(n_procs)]
    agent = Agent(id="bench", model=MockModel([]), output_processors=procs,
                  default_error_processors=False)
    run = Run(agent, "hi", {})  # binds arguments once per call, as a real run does
    start = time.perf_counter()
    for c in chunks:
        await run.pipeline.through(c)
    return time.perf_counter() - start


async def through_direct(n_procs: int, chunks: list[Chunk]) -> float:
    procs = [make_processor(i) for i in range(n_procs)]
    fns = [p.process_output_stream for p in procs]
    states = [{} for _ in procs]
    start = time.perf_counter()
    for c in chunks:
        part = c
        for fn, state in zip(fns, states, strict=True):
            part = await fn(part, state)
    return time.perf_counter() - start


async def end_to_end(n_procs: int, n_chunks: int) -> float:
    procs = [make_processor(i) for i in range(n_procs)]
    text = "w " * n_chunks
    agent = Agent(id="bench", model=MockModel([text]), output_processors=procs,
                  default_error_processors=False)
    start = time.perf_counter()
    async for _ in agent.stream("hi"):
        pass
    return time.perf_counter() - start


async def model_alone(n_chunks: int) -> float:
    """The scripted model's own time for the chunks ``end_to_end`` streams."""
    from tripwire.models import ModelRequest

    model = MockModel(["w " * n_chunks])
    start = time.perf_counter()
    async for _ in model.stream(ModelRequest(prompt=[{"role": "user", "content": "hi"}])):
        pass
    return time.perf_counter() - start


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    chunks = [Chunk("text-delta", {"id": "t", "text": "w "}) for _ in range(args.chunks)]
    print(f"{args.chunks} chunks, best of {args.repeat}")
    print(f"{'processors':>10} {'tripwire chunks/s':>18} {'direct chunks/s':>16} {'ratio':>6}"
          f" {'agent.stream chunks/s':>22} {'framework µs/chunk':>18} {'pipeline µs/chunk':>17}")
    for n in (0, 1, 5, 20):
        ours = min([await through_tripwire(n, chunks) for _ in range(args.repeat)])
        direct = min([await through_direct(n, chunks) for _ in range(args.repeat)])
        e2e = min([await end_to_end(n, args.chunks) for _ in range(args.repeat)])
        model = min([await model_alone(args.chunks) for _ in range(args.repeat)])
        ratio = ours / direct if direct > 0 else float("nan")
        print(f"{n:>10} {args.chunks / ours:>18,.0f} {args.chunks / direct if direct else float('inf'):>16,.0f}"
              f" {ratio:>6.2f} {args.chunks / e2e:>22,.0f} {(e2e - model) / args.chunks * 1e6:>18.2f}"
              f" {ours / args.chunks * 1e6:>17.2f}")


if __name__ == "__main__":
    asyncio.run(main())
