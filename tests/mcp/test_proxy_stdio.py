"""``tripwire mcp-proxy``'s stdio transport (``tripwire.mcp._proxy_stdio``): the SDK's
client against the command, messages larger than a pipe's buffer both ways, the
notification of changed tools, stray output kept off the wire, standard input from a
file; and the line reader on its own."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tests.mcp.test_proxy import config, text_of
from tests.support.mcp_servers import ROOT

mcp = pytest.importorskip("mcp")

from tripwire.mcp._proxy_stdio import MAX_LINE, _Lines  # noqa: E402


def proxy_command(path, loop: str = "auto") -> mcp.StdioServerParameters:
    return mcp.StdioServerParameters(
        command=sys.executable,
        args=["-m", "tripwire", "mcp-proxy", "guarded", "-c", str(path), "--loop", loop],
        cwd=str(ROOT))


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
async def test_large_messages_and_the_list_changed_notification(tmp_path, loop) -> None:
    if loop == "uvloop":
        pytest.importorskip("uvloop")
    notified: list[str] = []

    async def message_handler(message) -> None:
        if isinstance(message, mcp.types.ToolListChangedNotification):
            notified.append(message.method)

    path = config(tmp_path, ["search", "echo", "mutate"])
    async with mcp.Client(proxy_command(path, loop), mode="legacy",
                          message_handler=message_handler) as client:
        # a request and an answer of 300 kB each: several reads of the pipe, and a write
        # larger than its buffer (the client reads it while the proxy waits)
        body = "lorem ipsum " * 25_000
        echoed = await client.call_tool("echo", {"body": body})
        assert not echoed.is_error
        assert json.loads(text_of(echoed)) == {"body": body}

        await client.call_tool("mutate", {})
        # the upstream's tools changed: the proxy says so with its next answer
        await client.call_tool("echo", {"n": 1})
        assert notified == ["notifications/tools/list_changed"]
        # (search's definition changed since it was pinned: it is refused, not offered)
        refused = await client.call_tool("search", {"query": "x"})
        assert refused.is_error and "Tool 'search' is not available" in text_of(refused)


SERVE = textwrap.dedent("""
    import asyncio, os, sys
    from tripwire.mcp._proxy_stdio import stdio_streams

    async def main():
        async with stdio_streams() as (read, write):
            print("stray print")
            os.write(1, b"stray write\\n")
            async for message in read:
                await write.send(message)  # each message back, as it came
        print("after", flush=True)

    asyncio.run(main())
""")


def test_stray_output_never_reaches_the_wire() -> None:
    """While serving, fd 1 is stderr: a print, a write to fd 1, a child's output miss
    the client's wire; after serving, stdout is the wire again."""
    lines = [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(3)]
    done = subprocess.run(
        [sys.executable, "-c", SERVE], cwd=str(ROOT), capture_output=True, text=True,
        input="".join(json.dumps(line) + "\n" for line in lines), timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert [json.loads(line) for line in out[:-1]] == lines
    assert out[-1] == "after"
    assert "stray print" in done.stderr and "stray write" in done.stderr


def test_standard_input_from_a_file_is_served_too(tmp_path) -> None:
    """Standard input that is a regular file (which the event loop cannot watch) is
    read by the SDK's transport. (Its end is the client leaving: the handshake, answered
    as it is read, is the one answer to wait for.)"""
    path = config(tmp_path, ["search"])
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}) + "\n")
    with requests.open() as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "tripwire", "mcp-proxy", "guarded", "-c", str(path)],
            cwd=str(ROOT), stdin=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (answer,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert answer["id"] == 1
    assert answer["result"]["serverInfo"]["name"] == "tripwire-mcp-proxy"


# -- the line reader
PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'


def taken(lines: _Lines) -> list[object]:
    out = list(lines.items)
    lines.items.clear()
    return out


def test_lines_split_across_reads_and_several_in_one() -> None:
    lines = _Lines()
    lines.data_received(PING[:10])
    assert taken(lines) == []
    lines.data_received(PING[10:] + b"\r\n\n" + PING + b"\n" + PING[:5])
    got = taken(lines)
    assert [m.message.method for m in got] == ["ping", "ping"]  # (the blank line: nothing)
    lines.data_received(PING[5:])
    assert taken(lines) == []
    lines.eof_received()  # a last message without its newline is taken at the end
    assert [m.message.method for m in taken(lines)] == ["ping"]
    assert lines.ended


def test_a_malformed_line_is_an_error_item_and_the_next_is_read() -> None:
    lines = _Lines()
    lines.data_received(b"this is no json\n" + b'{"id": 1}\n' + PING + b"\n")
    bad, incomplete, good = taken(lines)
    assert isinstance(bad, ValueError) and isinstance(incomplete, ValueError)
    assert good.message.method == "ping"


def test_a_line_over_the_limit_is_skipped_once_whole() -> None:
    lines = _Lines()
    lines.data_received(b"x" * (MAX_LINE + 1))
    (error,) = taken(lines)
    assert isinstance(error, ValueError) and str(MAX_LINE) in str(error)
    lines.data_received(b"x" * 1000)  # the same line goes on: no second error
    assert taken(lines) == []
    lines.data_received(b"xx\n" + PING + b"\n")
    assert [m.message.method for m in taken(lines)] == ["ping"]


# -- the tools/call fast path
#: ``tripwire`` (argv: the command's arguments) saying on stderr which requests the
#: fast path answered
SAYS_FAST = textwrap.dedent("""
    import sys
    from tripwire.cli import main
    from tripwire.mcp import _proxy_stdio

    answer = _proxy_stdio._Calls._call

    async def said(self, ident, name, arguments):
        print(f"fast path: {ident}", file=sys.stderr, flush=True)
        await answer(self, ident, name, arguments)

    _proxy_stdio._Calls._call = said
    raise SystemExit(main(sys.argv[1:]))
""")

async def test_the_fast_path_answers_calls_once_initialized_and_the_sdk_the_rest(
        tmp_path) -> None:
    """A raw client: a call before ``notifications/initialized`` and one whose
    parameters are malformed are the SDK server's to answer; after it, a call is
    answered on the fast path with the same result; a cancelled call is not answered;
    the client's leaving ends the proxy and its upstream."""
    import asyncio

    path = config(tmp_path, ["search", "hang", "pid"])
    proxy = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SAYS_FAST, "mcp-proxy", "guarded", "-c", str(path),
        cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)

    async def send(message: dict) -> None:
        proxy.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        await proxy.stdin.drain()

    async def reply() -> dict:
        return json.loads(await asyncio.wait_for(proxy.stdout.readline(), 60))

    def call(ident: int, name: str, **arguments: object) -> dict:
        return {"id": ident, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}

    try:
        await send({"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}})
        assert (await reply())["id"] == 1
        await send(call(2, "search", query="x"))  # (before the handshake's end: the SDK's)
        by_sdk = await reply()
        await send({"method": "notifications/initialized"})
        await send(call(3, "search", query="x"))
        fast = await reply()
        assert fast["id"] == 3 and by_sdk["id"] == 2
        assert fast["result"] == by_sdk["result"]
        assert fast["result"]["content"] == [{"type": "text", "text": "3 pages match 'x'"}]
        await send({"id": 4, "method": "tools/call", "params": {"name": 5}})
        malformed = await reply()
        assert malformed["id"] == 4 and malformed["error"]["code"] == -32602
        await send(call(5, "pid"))
        upstream = int((await reply())["result"]["content"][0]["text"])
        await send(call(6, "hang"))
        await send({"method": "notifications/cancelled", "params": {"requestId": 6}})
        await send({"id": 7, "method": "ping"})
        assert await reply() == {"jsonrpc": "2.0", "id": 7, "result": {}}  # (6: no answer)
        await send(call(8, "hang"))  # (in flight as the client leaves)
        proxy.stdin.close()
        assert await asyncio.wait_for(proxy.wait(), 60) == 0
        said = (await proxy.stderr.read()).decode()
        # the calls after the handshake's end, well-formed, took the fast path (a call
        # cancelled before its task first ran says nothing)
        fast = {line.removeprefix("fast path: ") for line in said.splitlines()
                if line.startswith("fast path: ")}
        assert {"3", "5"} <= fast <= {"3", "5", "6", "8"}
    finally:
        if proxy.returncode is None:
            proxy.kill()
            await proxy.wait()
    from tests.mcp.helpers import alive

    assert not alive(upstream)


class _Written:
    """A write stream that keeps what is sent (as ``_WriteStream.send_json`` takes it)."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send_json(self, message: dict) -> None:
        self.sent.append(message)


async def test_a_failing_call_is_an_internal_error_naming_no_content() -> None:
    import asyncio

    from tripwire.mcp._proxy_stdio import _Calls

    async def answer(name, arguments):
        raise RuntimeError(f"secret {arguments}")

    written = _Written()
    calls = _Calls(answer, written)
    assert not calls.take(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
                          b'"params": {"name": "x"}}')  # (before the handshake's end)
    assert not calls.take(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    assert not calls.ready  # (no initialize came first: no handshake protocol)
    assert not calls.take(b'{"jsonrpc": "2.0", "id": 0, "method": "initialize", '
                          b'"params": {}}')
    assert not calls.take(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    assert calls.take(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", '
                      b'"params": {"name": "x", "arguments": {"k": "v"}}}')
    await asyncio.gather(*calls.tasks.values())
    assert written.sent == [{"jsonrpc": "2.0", "id": 2, "error": {
        "code": -32603, "message": "tripwire: the call failed (RuntimeError)"}}]
    assert calls.tasks == {}


@pytest.mark.parametrize("line", [
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 1}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", '
    b'"arguments": [1]}}',
    b'{"jsonrpc": "2.0", "id": true, "method": "tools/call", "params": {"name": "x"}}',
    b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "x"}}',
    b'{"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "x"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call" this is no JSON',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": '
    b'"tools/call"}}',
])
async def test_a_line_the_fast_path_does_not_take_goes_to_the_sdk_server(line) -> None:
    from tripwire.mcp._proxy_stdio import _Calls

    async def answer(name, arguments):
        raise AssertionError("not called")

    calls = _Calls(answer, _Written())
    calls.ready = True
    assert not calls.take(line)
    assert calls.tasks == {}


async def test_a_cancelled_call_is_not_answered_and_its_task_ends() -> None:
    import asyncio

    from tripwire.mcp._proxy_stdio import _Calls

    started = asyncio.Event()

    async def answer(name, arguments):
        started.set()
        await asyncio.sleep(3600)

    written = _Written()
    calls = _Calls(answer, written)
    calls.ready = True
    assert calls.take(b'{"jsonrpc": "2.0", "id": "a", "method": "tools/call", '
                      b'"params": {"name": "x"}}')
    assert calls.take(b'{"jsonrpc": "2.0", "id": "b", "method": "tools/call", '
                      b'"params": {"name": "x"}}')
    await started.wait()
    task = calls.tasks["a"]
    assert not calls.take(b'{"jsonrpc": "2.0", "method": "notifications/cancelled", '
                          b'"params": {"requestId": "a"}}')  # (the SDK's server sees it too)
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled() and list(calls.tasks) == ["b"]
    await calls.aclose()  # the client has gone: the rest are cancelled too
    assert calls.tasks == {} and written.sent == []
