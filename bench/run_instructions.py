"""Per-run framework overhead in CPU instructions (callgrind), this tree against a release.

Run by hand:  python bench/run_instructions.py [--against 55d2696] [--runs 200]
              python bench/run_instructions.py --audit   (the audit's cost)

Timings on a shared machine drift by tens of percent over minutes; instruction counts
do not (the same interpreter, ``PYTHONHASHSEED=0``). Each cell runs the scenario of
``bench/run_overhead.py`` (the same agents, the same pass-through processors) under
``valgrind --tool=callgrind`` twice: one agent built, 20 runs to warm up, then no
further run or ``--runs`` runs; the difference over ``--runs`` is the cost of one run,
start-up, the agent's construction and the warm-up cancelled out. Both trees run this tree's copy of
``bench/run_overhead.py``. Needs valgrind; a cell takes 20-60 s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _trees import revision_path

HERE = Path(__file__).resolve().parent
SCENARIOS = ("generate", "stream-200", "tool-step")

#: What each valgrind child runs: the warm-up, then ``runs`` runs of one cell.
CHILD = """
import asyncio, importlib.util, sys
spec = importlib.util.spec_from_file_location("run_overhead", sys.argv[1])
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
scenario, processors, runs = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
options = {"audit": True} if sys.argv[5:] == ["audit"] else {}
agent, how = bench.agent_for(scenario, [bench.pass_through(i) for i in range(processors)],
                             **options)
async def run(n):
    for _ in range(n):
        if how == "tool":
            agent.model._next = 0  # replay the two scripted responses again
            agent.model.requests.clear()
        if how == "stream":
            async for _ in agent.stream("hi"):
                pass
        else:
            await agent.generate("hi")
async def main():
    await run(20)  # warm-up
    await run(runs)
asyncio.run(main())
"""

def instructions(env: dict[str, str], cwd: str, scenario: str, processors: int,
                 runs: int, audit: bool = False) -> int:
    """Instructions the whole child process executed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
             sys.executable, "-c", CHILD, str(HERE / "run_overhead.py"), scenario,
             str(processors), str(runs), *(["audit"] if audit else [])],
            env={**env, "PYTHONHASHSEED": "0"}, cwd=cwd, capture_output=True, text=True,
            check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr}")
    return int(found.group(1))


def per_run(env: dict[str, str], cwd: str, scenario: str, processors: int,
            runs: int, audit: bool = False) -> int:
    return (instructions(env, cwd, scenario, processors, runs, audit)
            - instructions(env, cwd, scenario, processors, 0, audit)) // runs


def audit_cost(runs: int) -> None:
    """What the audit (``Agent(audit=True)``) adds to each run, in instructions."""
    print(f"instructions per run (the difference of {runs} runs and none)")
    print(f"{'scenario':<12} {'procs':>5} {'audit off':>12} {'audit on':>12} {'added':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in SCENARIOS:
            for processors in (0, 5):
                off, on = (per_run(dict(os.environ), tmp, scenario, processors, runs, audit)
                           for audit in (False, True))
                print(f"{scenario:<12} {processors:>5} {off:>12,} {on:>12,} "
                      f"{on / off - 1:>+7.1%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", help="also count the git revision REV")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--audit", action="store_true",
                        help="count this tree with the audit off and on instead")
    args = parser.parse_args()
    if args.audit and args.against:
        parser.error("--audit compares this tree with itself: give it without --against")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    if args.audit:
        audit_cost(args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        envs = {"this tree": dict(os.environ)}
        if args.against:
            path = stack.enter_context(revision_path(args.against, tmp))
            envs[args.against] = {**os.environ, "PYTHONPATH": str(path)}
        print(f"instructions per run (the difference of {args.runs} runs and none)")
        print(f"{'scenario':<12} {'procs':>5} " + " ".join(f"{n:>12}" for n in envs)
              + (f" {'ratio':>6}" if args.against else ""))
        for scenario in SCENARIOS:
            for processors in (0, 5):
                counts = [per_run(env, tmp, scenario, processors, args.runs)
                          for env in envs.values()]
                ratio = f" {counts[0] / counts[1]:>6.2f}" if args.against else ""
                print(f"{scenario:<12} {processors:>5} "
                      + " ".join(f"{c:>12,}" for c in counts) + ratio, flush=True)

if __name__ == "__main__":
    main()
