"""MCP overhead: an agent's tool step with a tool of an MCP server against the same
tool in-process.

Run by hand:  python bench/mcp.py [--runs 300] [--only agent]

The tool is the test server's ``search`` (tests/support/mcp_servers.py, the official
SDK's server API), over stdio (a subprocess) and streamable HTTP (uvicorn on loopback);
in-process it is an ``@tool`` function with the same name, description, schema and
answer. One run is a scripted model's tool call, the tool, then a short answer (two
steps), with 0 and with 5 pass-through processors (with 5, the MCP tool's definition is
checked as input every run). Prints p50 and p99 of the whole run in µs, and the MCP
tool's p50 minus the in-process one's; then the call alone made with the SDK's client
(what the server and the transport cost, tripwire aside).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

# this file's folder is not on the path: its name would hide the ``mcp`` package
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from tests.support.mcp_servers import HTTPServer, stdio_server  # noqa: E402
from tripwire import Agent, Processor, hookimpl, tool  # noqa: E402
from tripwire.testing import MockModel, MockResponse  # noqa: E402


def pass_through(i: int) -> Processor:
    class PassThrough(Processor):
        id = f"pass-{i}"

        @hookimpl
        def process_input(self, messages):
            return None

        @hookimpl
        def process_tool_result(self, result):
            return None

        @hookimpl
        def process_output_stream(self, part):
            return part

    return PassThrough()


@tool
def search(query: str) -> str:
    """Search the documentation for a query."""
    return f"3 pages match {query!r}"


def responses(runs: int) -> list[MockResponse]:
    out = []
    for i in range(runs):
        out += [MockResponse(tool_calls=[{"tool_name": "search", "args": {"query": "hooks"},
                                          "tool_call_id": f"c{i}"}]),
                MockResponse(text="Three pages.")]
    return out


async def timed(tools: list, processors: int, runs: int) -> list[float]:
    warm = 20
    model = MockModel(responses(runs + warm))
    procs = [pass_through(i) for i in range(processors)]
    async with Agent(id="bench", model=model, tools=tools, input_processors=procs or None,
                     output_processors=procs or None) as agent:
        for _ in range(warm):
            await agent.generate("find hooks")
        out = []
        for _ in range(runs):
            start = time.perf_counter_ns()
            await agent.generate("find hooks")
            out.append((time.perf_counter_ns() - start) / 1000)
    return out


async def sdk_alone(server, runs: int) -> list[float]:
    """The same call made with the SDK's client alone, as tripwire makes it (the
    handshake protocol): what the server and the transport cost."""
    from mcp import Client, StdioServerParameters

    target = (StdioServerParameters(command=server.command, args=list(server.args),
                                    cwd=server.cwd) if server.command else server.url)
    async with Client(target, cache=None, mode="legacy") as client:
        for _ in range(20):
            await client.call_tool("search", {"query": "hooks"})
        out = []
        for _ in range(runs):
            start = time.perf_counter_ns()
            await client.call_tool("search", {"query": "hooks"})
            out.append((time.perf_counter_ns() - start) / 1000)
    return out


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if q < 100 else max(values)


async def agent_section(runs: int) -> None:
    http = HTTPServer().start()
    try:
        print(f"agent tool step, {runs} runs each: µs per run")
        print(f"{'tool':<12} {'processors':>10} {'p50':>9} {'p99':>9} {'MCP - in-process p50':>22}")
        for processors in (0, 5):
            base = None
            for label, tools in (("in-process", [search]),
                                 ("MCP stdio", [stdio_server(allow=["search"])]),
                                 ("MCP HTTP", [http.server(allow=["search"])])):
                values = await timed(tools, processors, runs)
                p50 = statistics.median(values)
                extra = "" if base is None else f"{p50 - base:>22.0f}"
                base = p50 if base is None else base
                print(f"{label:<12} {processors:>10} {p50:>9.0f} {p(values, 99):>9.0f} {extra}")
        for label, server in (("SDK stdio", stdio_server()), ("SDK HTTP", http.server())):
            values = await sdk_alone(server, runs)
            print(f"{label:<12} {'(call)':>10} {statistics.median(values):>9.0f} "
                  f"{p(values, 99):>9.0f}")
    finally:
        http.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--only", choices=["agent"], default=None)
    args = parser.parse_args()
    asyncio.run(agent_section(args.runs))


if __name__ == "__main__":
    main()
