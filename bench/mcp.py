"""MCP overhead: an agent's tool step with a tool of an MCP server against the same
tool in-process; a tool call through ``tripwire mcp-proxy`` against the same call direct.

Run by hand:  python bench/mcp.py [--runs 300] [--only agent|proxy]

The tool is the test server's ``search`` (tests/support/mcp_servers.py, the official
SDK's server API), over stdio (a subprocess) and streamable HTTP (uvicorn on loopback);
in-process it is an ``@tool`` function with the same name, description, schema and
answer. One run is a scripted model's tool call, the tool, then a short answer (two
steps), with 0 and with 5 pass-through processors (with 5, the MCP tool's definition is
checked as input every run). Prints p50 and p99 of the whole run in µs, and the MCP
tool's p50 minus the in-process one's; then the call alone made with the SDK's client
(what the server and the transport cost, tripwire aside).

Proxy: the SDK's client calls ``search`` on the test server directly (stdio, HTTP), and
through the proxy (a process of its own: this script with ``--serve-proxy stdio|http``,
an ``MCPProxy`` with 5 pass-through processors in both lists, in front of the test
server over stdio) over the same transport. Prints p50 and p99 per call in µs, the
proxy's p50 minus the direct one's, and the CPU time the proxy's process spent per call
(user + system, from /proc: what load on the machine does not move).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


def proxy(processors: int = 5) -> Any:
    """The proxy the ``--serve-proxy`` process serves."""
    from tripwire.mcp._proxy_model import ProxyModel
    from tripwire.mcp.proxy import MCPProxy

    procs = [pass_through(i) for i in range(processors)]
    agent = Agent(id="proxy", model=ProxyModel(), max_steps=1,
                  tools=[stdio_server(allow=["search"])], input_processors=procs,
                  output_processors=procs)
    return MCPProxy(agent)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serving_proxy(transport: str) -> int:
    """The pid of the ``--serve-proxy`` process of ``transport``."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--serve-proxy" in cmdline and transport.encode() in cmdline:
                return int(entry.name)
    raise LookupError(f"no --serve-proxy {transport} process")


async def calls(client: Any, runs: int) -> list[float]:
    for _ in range(20):
        await client.call_tool("search", {"query": "hooks"})
    out = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        await client.call_tool("search", {"query": "hooks"})
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


async def proxy_section(runs: int) -> None:
    import subprocess

    from mcp import Client, StdioServerParameters

    here = str(Path(__file__).resolve())
    root = str(_HERE.parent)
    http = HTTPServer().start()
    served = subprocess.Popen([sys.executable, here, "--serve-proxy", "http"], cwd=root,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert served.stdout is not None
        port = int(served.stdout.readline())
        print(f"a tool call, {runs} calls each: µs per call (the proxy: 5 pass-through "
              f"processors)")
        print(f"{'path':<22} {'p50':>9} {'p99':>9} {'proxy - direct p50':>20} "
              f"{'proxy CPU per call':>19}")
        direct_server = stdio_server()
        targets = [
            ("stdio", StdioServerParameters(command=direct_server.command,
                                            args=list(direct_server.args), cwd=root),
             StdioServerParameters(command=sys.executable, args=[here, "--serve-proxy",
                                                                 "stdio"], cwd=root)),
            ("HTTP", http.url, f"http://127.0.0.1:{port}/mcp"),
        ]
        for label, direct, proxied in targets:
            base = 0.0
            for how, target in (("direct", direct), ("through the proxy", proxied)):
                cpu = ""
                async with Client(target, cache=None, mode="legacy") as client:
                    if how == "direct":
                        values = await calls(client, runs)
                    else:
                        pid = serving_proxy("stdio" if label == "stdio" else "http")
                        before = cpu_seconds(pid)
                        values = await calls(client, runs)
                        spent = cpu_seconds(pid) - before
                        cpu = f"{spent / (runs + 20) * 1e6:>19.0f}"
                p50 = statistics.median(values)
                extra = f"{p50 - base:>20.0f}" if how != "direct" else " " * 20
                base = p50
                print(f"{label + ' ' + how:<22} {p50:>9.0f} {p(values, 99):>9.0f} {extra} {cpu}")
    finally:
        served.terminate()
        served.wait()
        if served.stdout is not None:
            served.stdout.close()
        http.stop()


def serve_proxy(transport: str) -> None:
    served = proxy()
    if transport == "stdio":
        asyncio.run(served.serve_stdio())
        return
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    asyncio.run(served.serve_http(None, "127.0.0.1", 0, sock=sock))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--only", choices=["agent", "proxy"], default=None)
    parser.add_argument("--serve-proxy", choices=["stdio", "http"], default=None,
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_proxy:
        serve_proxy(args.serve_proxy)
        return
    if args.only in (None, "agent"):
        asyncio.run(agent_section(args.runs))
    if args.only in (None, "proxy"):
        asyncio.run(proxy_section(args.runs))


if __name__ == "__main__":
    main()
