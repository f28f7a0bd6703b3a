"""MCP overhead: an agent's tool step with a tool of an MCP server against the same
tool in-process; a tool call through ``tripwire mcp-proxy`` against the same call direct.

Run by hand:  python bench/mcp.py [--runs 300] [--only agent|proxy] [--rounds 3]
                                  [--against REV] [--loop auto|asyncio|uvloop]

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
server over stdio, on the event loop and collector ``tripwire mcp-proxy`` runs with)
over the same transport, ``--rounds`` rounds in turns. Prints p50 and p99 per call in
µs, the proxy's p50 minus the direct one's, and the CPU time the proxy's process spent
per call (user + system, from /proc: what load on the machine moves least) and per
``ping`` (what the SDK's server and the transport cost alone, the guarded run and the
upstream call aside). ``--against REV`` measures the proxy of git revision REV too, in
the same rounds (checked out in a temporary git worktree, as bench/startup.py does).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

# this file's folder is not on the path: its name would hide the ``mcp`` package
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import attrs  # noqa: E402

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


async def parts(runs: int) -> dict[str, float]:
    """CPU µs per request of the parts of a proxied call, in this process (its event
    loop): the guarded run with the upstream call stood in for (``MCPProxy.answer_call``,
    what the stdio transport's fast path awaits, whose toolset answers at once), the
    upstream call alone (tripwire's stdio client, ``tripwire.mcp._upstream_stdio``), and
    the same call with the SDK's client for comparison."""
    from mcp import Client, StdioServerParameters

    server = stdio_server()
    async with Client(StdioServerParameters(command=server.command, args=list(server.args),
                                            cwd=str(_HERE.parent)),
                      cache=None, mode="legacy") as client:
        sdk = await _cpu(lambda: client.call_tool("search", {"query": "hooks"}), runs)
    served = proxy()
    await served.open()
    try:
        (toolset,) = served.agent._toolsets
        connection = toolset.connection

        async def answered(name: str, arguments: dict[str, Any]) -> Any:
            return f"3 pages match {arguments.get('query')!r}"

        upstream = await _cpu(lambda: connection.call_tool("search", {"query": "hooks"}),
                              runs)
        toolset.call = answered
        run = await _cpu(lambda: served.answer_call("search", {"query": "hooks"}), runs)
    finally:
        await served.aclose()
    return {"the guarded run (upstream stood in for)": run,
            "the upstream call alone (tripwire's stdio client)": upstream,
            "the same with the SDK's client": sdk}


async def _cpu(request: Any, runs: int) -> float:
    """CPU µs per ``await request()`` in this process, after 50 to warm up."""
    for _ in range(50):
        await request()
    start = time.process_time()
    for _ in range(runs):
        await request()
    return (time.process_time() - start) / runs * 1e6


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serving_proxy(script: str, transport: str) -> int:
    """The pid of the ``script --serve-proxy TRANSPORT`` process."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--serve-proxy" in cmdline and transport.encode() in cmdline and \
                    script.encode() in cmdline:
                return int(entry.name)
    raise LookupError(f"no {script} --serve-proxy {transport} process")


async def timed_requests(client: Any, runs: int, ping: bool = False) -> list[float]:
    """µs per request: ``search`` called (or, ``ping``, a ping), after 20 to warm up."""
    async def request() -> None:
        if ping:  # (the handshake protocol's ping, which the SDK marks as of the past)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                await client.send_ping()
        else:
            await client.call_tool("search", {"query": "hooks"})

    for _ in range(20):
        await request()
    out = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        await request()
        out.append((time.perf_counter_ns() - start) / 1000)
    return out


def wait_for_port(port: int, seconds: float = 60) -> None:
    """Until loopback ``port`` takes connections (the proxy opens its upstream first)."""
    import socket

    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@attrs.define
class Side:
    """A tree whose proxy is measured: its ``bench/mcp.py`` run with ``env``."""

    name: str
    script: str
    cwd: str
    env: dict[str, str]
    options: list[str]
    http: Any = None
    port: int = 0
    #: (transport, "call" | "ping") -> µs per request, and CPU µs per request per round
    times: dict[tuple[str, str], list[float]] = attrs.field(factory=dict)
    cpu: dict[tuple[str, str], list[float]] = attrs.field(factory=dict)

    def start_http(self) -> None:
        import subprocess

        self.http = subprocess.Popen([sys.executable, self.script, "--serve-proxy", "http",
                                      *self.options], cwd=self.cwd, env=self.env,
                                     stdout=subprocess.PIPE, text=True)
        self.port = int(self.http.stdout.readline())
        wait_for_port(self.port)

    def stop_http(self) -> None:
        if self.http is not None:
            self.http.terminate()
            self.http.wait()
            self.http.stdout.close()

    def target(self, transport: str) -> Any:
        from mcp import StdioServerParameters

        if transport == "HTTP":
            return f"http://127.0.0.1:{self.port}/mcp"
        return StdioServerParameters(command=sys.executable, env=self.env, cwd=self.cwd,
                                     args=[self.script, "--serve-proxy", "stdio",
                                           *self.options])

    async def measure(self, transport: str, runs: int) -> None:
        """One round: ``runs`` calls, then ``runs`` pings, through this side's proxy."""
        from mcp import Client

        async with Client(self.target(transport), cache=None, mode="legacy") as client:
            pid = serving_proxy(self.script, "http" if transport == "HTTP" else "stdio")
            for what in ("call", "ping"):
                before = cpu_seconds(pid)
                values = await timed_requests(client, runs, ping=what == "ping")
                spent = cpu_seconds(pid) - before
                self.times.setdefault((transport, what), []).extend(values)
                self.cpu.setdefault((transport, what), []).append(spent / (runs + 20) * 1e6)


async def proxy_section(runs: int, rounds: int, loop: str, against: str | None) -> None:
    import os
    import tempfile
    from contextlib import ExitStack

    from mcp import Client, StdioServerParameters

    here = str(Path(__file__).resolve())
    root = str(_HERE.parent)
    env = dict(os.environ)
    sides = [Side("this tree", here, root, env, ["--loop", loop])]
    with ExitStack() as stack:
        if against is not None:
            sys.path.append(str(_HERE))  # (after the installed packages: mcp stays the SDK)
            from _trees import revision_path

            tmp = stack.enter_context(tempfile.TemporaryDirectory())
            path = stack.enter_context(revision_path(against, tmp))
            tree = Path(tmp) / "tree"
            script = str(tree / "bench" / "mcp.py")
            takes_loop = "--loop" in Path(script).read_text()
            sides.append(Side(against, script, str(tree), {**env, "PYTHONPATH": str(path)},
                              ["--loop", loop] if takes_loop else []))
        http = HTTPServer().start()
        stack.callback(http.stop)
        for side in sides:
            side.start_http()
            stack.callback(side.stop_http)
        direct_server = stdio_server()
        direct = {"stdio": StdioServerParameters(command=direct_server.command,
                                                 args=list(direct_server.args), cwd=root),
                  "HTTP": http.url}
        times: dict[str, list[float]] = {}
        for _ in range(rounds):
            for transport, target in direct.items():
                async with Client(target, cache=None, mode="legacy") as client:
                    times.setdefault(transport, []).extend(await timed_requests(client, runs))
                for side in sides:
                    await side.measure(transport, runs)
            sides.reverse()  # neither side always goes first
        sides.sort(key=lambda side: side.name != "this tree")
    print(f"a tool call, {rounds} rounds of {runs} calls and {runs} pings each, in turns: µs "
          f"per request (the proxy: 5 pass-through processors; load average "
          f"{os.getloadavg()[0]:.1f} at the end)")
    print(f"{'path':<28} {'p50':>7} {'p99':>7} {'proxy - direct p50':>19} "
          f"{'proxy CPU per call':>19} {'per ping':>9}")
    for transport in direct:
        base = statistics.median(times[transport])
        print(f"{transport + ' direct':<28} {base:>7.0f} {p(times[transport], 99):>7.0f}")
        for side in sides:
            values = side.times[transport, "call"]
            p50 = statistics.median(values)
            print(f"{transport + ' through ' + side.name:<28} {p50:>7.0f} {p(values, 99):>7.0f} "
                  f"{p50 - base:>19.0f} {statistics.median(side.cpu[transport, 'call']):>19.0f} "
                  f"{statistics.median(side.cpu[transport, 'ping']):>9.0f}")
    print(f"in this process ({runs * 5} requests each): CPU µs per request")
    for what, value in (await parts(runs * 5)).items():
        print(f"{what:<52} {value:>7.0f}")


def serve_proxy(transport: str, loop: str) -> None:
    """Serve ``proxy()`` as ``tripwire mcp-proxy`` does (its event loop, its collector)."""
    from tripwire.serve import event_loop, prepare_collector

    _, run = event_loop(loop)
    served = proxy()
    prepare_collector()
    if transport == "stdio":
        run(served.serve_stdio())
        return
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # before the port is told: a client that connects first waits in line
    print(sock.getsockname()[1], flush=True)
    run(served.serve_http(None, "127.0.0.1", 0, sock=sock))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--only", choices=["agent", "proxy"], default=None)
    parser.add_argument("--rounds", type=int, default=3,
                        help="(proxy) rounds of --runs requests per path, in turns")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="(proxy) also measure the proxy of git revision REV, in turns")
    parser.add_argument("--loop", choices=["auto", "asyncio", "uvloop"], default="auto",
                        help="the proxy's event loop, as tripwire mcp-proxy --loop")
    parser.add_argument("--serve-proxy", choices=["stdio", "http"], default=None,
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_proxy:
        serve_proxy(args.serve_proxy, args.loop)
        return
    if args.only in (None, "agent"):
        asyncio.run(agent_section(args.runs))
    if args.only in (None, "proxy"):
        asyncio.run(proxy_section(args.runs, args.rounds, args.loop, args.against))


if __name__ == "__main__":
    main()
