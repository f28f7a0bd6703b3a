"""Per-run framework overhead: what a run costs on top of the model and the processors.

Run by hand:  python bench/run_overhead.py [--runs 2000] [--repeat 5]
              python bench/run_overhead.py --against 55d2696 [--rounds 5]

Scenarios (a scripted model, so the model costs next to nothing):
- generate: one text answer of 10 chunks;
- stream-200: agent.stream() of a 200-chunk answer, consumed;
- tool-step: a tool call, the tool, then a 10-chunk answer (two steps).
Each with 0 and 5 pass-through processors (input and output hooks), and the same with
the audit on. Prints the best-of-N mean µs per run, and µs per chunk of the 200-chunk
stream with no processors (the target: at most 1.5 µs of framework time per chunk).
Also prints the cost of parallel groups and wrappers (5 processors, wrapped or grouped).

``--against REV`` measures this tree and the git revision REV side by side: the same
script (its ``--baseline`` scenarios, which every version supports) runs in turns, this
tree then REV, ``--rounds`` times, and each cell shows its median. The host's speed drifts
over minutes, so numbers taken at different times do not compare; taken in turns they
do. REV is checked out in a temporary git worktree and imported from there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tripwire import Agent, Chunk, Processor, hookimpl, tool
from tripwire.testing import MockModel, MockResponse


def pass_through(i: int) -> Processor:
    class PassThrough(Processor):
        id = f"pass-{i}"

        @hookimpl
        def process_input(self, messages):
            return None

        @hookimpl
        def process_output_stream(self, part):
            return part

        @hookimpl
        def process_output_result(self, result):
            return None

    return PassThrough()


def wrapper(i: int) -> Processor:
    class Wrapper(Processor):
        id = f"wrap-{i}"

        @hookimpl(wrapper=True)
        def process_input(self):
            yield

        @hookimpl
        def process_output_stream(self, part):
            return part

    return Wrapper()


@tool
def ping() -> str:
    """Ping."""
    return "pong"


class Replay:
    """A model that replays prepared chunks (no per-run chunk building)."""

    provider = "bench"
    model_id = "replay"

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks

    async def stream(self, request):
        for c in self.chunks:
            yield c


def text_chunks(n: int) -> list[Chunk]:
    return [Chunk("text-delta", {"id": "t", "text": "w "}) for _ in range(n)] + [
        Chunk("finish", {"finish_reason": "stop", "usage": {"input_tokens": 1,
                                                             "output_tokens": n}})]


def agent_for(scenario: str, procs: list[Processor], **options) -> tuple[Agent, str]:
    if scenario == "tool-step":
        model = MockModel([MockResponse(tool_calls=[{"tool_name": "ping", "args": {},
                                                     "tool_call_id": "c1"}]),
                           MockResponse(text="w " * 10)] * 1)
        agent = Agent(id="bench", model=model, tools=[ping], input_processors=procs,
                      output_processors=procs, default_error_processors=False, **options)
        return agent, "tool"
    n = 200 if scenario == "stream-200" else 10
    agent = Agent(id="bench", model=Replay(text_chunks(n)), input_processors=procs,
                  output_processors=procs, default_error_processors=False, **options)
    return agent, "stream" if scenario == "stream-200" else "generate"


async def time_runs(scenario: str, procs_factory, runs: int, **options) -> float:
    """Mean µs per run."""
    agent, how = agent_for(scenario, procs_factory(), **options)
    tool_model = agent.model if how == "tool" else None
    start = time.perf_counter()
    for _ in range(runs):
        if tool_model is not None:
            tool_model._next = 0  # replay the two scripted responses again
            tool_model.requests.clear()
        if how == "stream":
            async for _ in agent.stream("hi"):
                pass
        else:
            await agent.generate("hi")
    return (time.perf_counter() - start) / runs * 1e6


async def direct_loop(runs: int, n: int) -> float:
    """What consuming the same chunks costs with no framework at all (µs per run)."""
    model = Replay(text_chunks(n))
    start = time.perf_counter()
    for _ in range(runs):
        text = []
        async for c in model.stream(None):
            if c.type == "text-delta":
                text.append(c.payload["text"])
        "".join(text)
    return (time.perf_counter() - start) / runs * 1e6


SCENARIOS = ("generate", "stream-200", "tool-step")


def against(rev: str, runs: int, rounds: int) -> None:
    """This tree and ``rev`` side by side (see the module docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _trees import revision_path

    with tempfile.TemporaryDirectory() as tmp, revision_path(rev, tmp) as path:
        envs = {"this tree": dict(os.environ), rev: {**os.environ, "PYTHONPATH": str(path)}}
        cells: dict[str, dict[str, list[float]]] = {name: {} for name in envs}
        for _ in range(rounds):
            for name, env in envs.items():
                out = subprocess.run(
                    [sys.executable, __file__, "--baseline", "--json", "--runs", str(runs),
                     "--repeat", "1"], env=env, cwd=tmp, check=True, capture_output=True,
                    text=True).stdout
                for cell, value in json.loads(out).items():
                    cells[name].setdefault(cell, []).append(value)
    print(f"µs per run, median of {rounds} rounds x {runs} runs, in turns")
    print(f"{'scenario':<12} {'procs':>5} {'this tree':>10} {rev:>10} {'ratio':>6}")
    for cell, values in cells["this tree"].items():
        scenario, procs = cell.split("/")
        ours, theirs = statistics.median(values), statistics.median(cells[rev][cell])
        print(f"{scenario:<12} {procs:>5} {ours:>10.1f} {theirs:>10.1f} {ours / theirs:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", action="store_true",
                        help="only what older versions support (no audit, groups, wrappers)")
    parser.add_argument("--against", metavar="REV",
                        help="measure this tree and the git revision REV side by side")
    parser.add_argument("--rounds", type=int, default=5, help="turns each, with --against")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.against:
        against(args.against, args.runs, args.rounds)
        return

    def best(coro_factory) -> float:
        return min(asyncio.run(coro_factory()) for _ in range(args.repeat))

    none = lambda: []  # noqa: E731
    five = lambda: [pass_through(i) for i in range(5)]  # noqa: E731
    if args.json:  # one measurement per cell, for --against
        print(json.dumps({f"{scenario}/{n}": best(lambda s=scenario, f=f: time_runs(
            s, f, args.runs)) for scenario in SCENARIOS for n, f in ((0, none), (5, five))}))
        return
    print(f"µs per run, best of {args.repeat} x {args.runs} runs")
    print(f"{'scenario':<12} {'0 procs':>9} {'5 procs':>9} {'0 audit':>9} {'5 audit':>9}")
    for scenario in SCENARIOS:
        cells = [best(lambda s=scenario, f=f, a=a: time_runs(s, f, args.runs,
                                                             **({"audit": True} if a else {})))
                 for a in ((False,) if args.baseline else (False, True)) for f in (none, five)]
        print(f"{scenario:<12} " + " ".join(f"{c:>9.1f}" for c in cells))
    stream = best(lambda: time_runs("stream-200", none, args.runs))
    bare = best(lambda: direct_loop(args.runs, 200))
    if args.baseline:
        print(f"\nstream-200, no processors: {(stream - bare) / 200:.2f} µs per chunk")
        return
    print(f"\nstream-200 with no processors: {(stream - bare) / 200:.2f} µs of framework time "
          f"per chunk ({stream:.0f} µs per run against {bare:.0f} µs for a bare loop)")

    def grouped():
        from tripwire import parallel
        return [parallel(*[pass_through(i) for i in range(5)], id="g")]

    def wrapped():
        return [wrapper(0)] + [pass_through(i) for i in range(4)]

    for label, factory in (("parallel group of 5", grouped), ("wrapper + 4", wrapped)):
        cost = best(lambda f=factory: time_runs("generate", f, args.runs))
        print(f"generate, {label}: {cost:.1f} µs per run")


if __name__ == "__main__":
    main()
