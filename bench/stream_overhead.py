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

``--instructions`` counts the same three with no processors in CPU instructions per
chunk under callgrind instead (valgrind needed; the difference of 3,000 chunks and
1,000, so start-up cancels out), which a loaded machine does not move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
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


#: What each callgrind child runs: one cell (``e2e``, ``model`` or ``pipeline``, no
#: processors) over ``n`` chunks, after a warm-up.
CHILD = """
import asyncio, importlib.util, sys
spec = importlib.util.spec_from_file_location("stream_overhead", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
from tripwire import Chunk
what, n = sys.argv[2], int(sys.argv[3])
async def main():
    await bench.end_to_end(0, 50)
    await bench.model_alone(50)
    if what == "e2e":
        await bench.end_to_end(0, n)
    elif what == "model":
        await bench.model_alone(n)
    else:
        # (as many chunks made for every n: only the pipeline's work differs)
        chunks = [Chunk("text-delta", {"id": "t", "text": "w "}) for _ in range(3000)]
        await bench.through_tripwire(0, chunks[:50])
        await bench.through_tripwire(0, chunks[:n])
asyncio.run(main())
"""


def instructions_per_chunk(env: dict[str, str], cwd: str) -> dict[str, float]:
    """Instructions per chunk of each cell (``CHILD``): 3,000 chunks less 1,000."""

    def count(what: str, n: int) -> int:
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
                 sys.executable, "-c", CHILD, __file__, what, str(n)],
                env={**env, "PYTHONHASHSEED": "0"}, cwd=cwd, capture_output=True, text=True,
                check=True)
        found = re.search(r"Collected : (\d+)", out.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr}")
        return int(found.group(1))

    return {what: (count(what, 3000) - count(what, 1000)) / 2000
            for what in ("e2e", "model", "pipeline")}


def count_instructions() -> None:
    """``--instructions`` (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        cells = instructions_per_chunk(dict(os.environ), tmp)
    framework = cells["e2e"] - cells["model"]
    print("instructions per chunk, no processors")
    print(f"framework {framework:,.0f}  pipeline {cells['pipeline']:,.0f}  "
          f"ratio {framework / cells['pipeline']:.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--instructions", action="store_true",
                        help="count CPU instructions per chunk (callgrind), no processors")
    args = parser.parse_args()
    if args.instructions:
        count_instructions()
        return
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
