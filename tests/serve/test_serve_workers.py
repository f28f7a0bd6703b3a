"""``tripwire serve --workers N``: worker processes on one port, with what must hold
across them shared: a key's concurrency limit counts every worker's requests, /metrics
counts every worker's, a dead worker is replaced and its key slots freed, SIGTERM stops
them all. The real command in a subprocess, a real upstream over HTTP."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.serve.test_serve_cli import Served, env
from tests.support.fake_llm_server import BackgroundLLMServer, Reply

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="--workers needs os.fork")

KEY = "tw-limited-7c1e"
BODY = {"model": "support", "messages": [{"role": "user", "content": "Hi"}]}


@pytest.fixture
def upstream() -> Iterator[Any]:
    with BackgroundLLMServer() as background:
        yield background.server


def config(tmp_path: Path, upstream: Any, *, limit: int = 1) -> Path:
    path = tmp_path / "agents.toml"
    path.write_text(f'[agents.support]\nmodel = "models.up"\n[models.up]\n'
                    f'use = "openai-compatible"\nbase_url = "{upstream.openai_base_url}"\n'
                    f'model = "m"\n[serve.keys.limited]\nkey_env = "LIMITED_KEY"\n'
                    f'max_concurrent = {limit}\n')
    return path


def workers_of(served: Served) -> list[int]:
    """The supervisor's worker processes (Linux /proc)."""
    pid = served.process.pid
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


async def worker_of_new_connection(url: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/healthz") as r:
        return int((await r.json())["worker"])


async def both_workers_answer(url: str) -> set[int]:
    seen: set[int] = set()
    for _ in range(200):  # new connections: the kernel spreads them over the workers
        seen.add(await worker_of_new_connection(url))
        if len(seen) == 2:
            break
    return seen


def auth() -> dict[str, str]:
    return {"Authorization": f"Bearer {KEY}"}


async def test_two_workers_serve_and_metrics_count_both(tmp_path, upstream):
    upstream.script(*[Reply(text=f"reply {i}") for i in range(12)])
    served = Served(config(tmp_path, upstream, limit=50), env(LIMITED_KEY=KEY), "--workers", "2")
    try:
        assert "; 2 workers)" in served.line
        assert await both_workers_answer(served.url) == {0, 1}
        texts = []
        for i in range(12):  # a new connection each: both workers serve some
            async with aiohttp.ClientSession(headers=auth()) as http:
                body = {**BODY, "stream": bool(i % 2)}
                async with http.post(f"{served.url}/v1/chat/completions", json=body) as r:
                    assert r.status == 200
                    raw = await r.text()
            if i % 2:
                texts.append("".join(json.loads(line[6:])["choices"][0]["delta"].get("content")
                                     or "" for line in raw.splitlines()
                                     if line.startswith("data: {") and '"choices":[{' in line))
            else:
                texts.append(json.loads(raw)["choices"][0]["message"]["content"])
        assert sorted(texts) == sorted(f"reply {i}" for i in range(12))
        answers = set()
        for _ in range(6):  # whichever worker answers the scrape reports both
            async with aiohttp.ClientSession() as http, http.get(f"{served.url}/metrics") as r:
                text = await r.text()
            line = next(li for li in text.splitlines()
                        if li.startswith("tripwire_serve_requests_total{"))
            answers.add(line)
            assert 'tripwire_serve_request_duration_seconds_count{api="chat",agent="support"} 12' in text
        assert answers == {
            'tripwire_serve_requests_total{api="chat",agent="support",key="limited",status="200"} 12'}
    finally:
        code, out, err = served.stop()
    assert code == 0, err
    assert err.count("shutting down") == 2 and "all workers stopped" in err
    logged = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len([r for r in logged if r["path"] == "/v1/chat/completions"]) == 12
    assert KEY not in out + err


async def test_a_keys_limit_counts_the_requests_of_every_worker(tmp_path, upstream):
    # the held stream lasts 30 s (far longer than the ten requests take on a loaded
    # machine); the client leaves it early, which frees the slot
    upstream.script(Reply(text="slow " * 300, delta_size=5, event_delay=0.1),
                    Reply(text="after"))
    served = Served(config(tmp_path, upstream, limit=1), env(LIMITED_KEY=KEY), "--workers", "2")
    try:
        assert await both_workers_answer(served.url) == {0, 1}
        async with aiohttp.ClientSession(headers=auth()) as holder:
            stream = await holder.post(f"{served.url}/v1/chat/completions",
                                       json={**BODY, "stream": True})
            await stream.content.readline()  # the slot is taken
            statuses = []
            for _ in range(10):  # new connections, on both workers
                async with aiohttp.ClientSession(headers=auth()) as http, \
                        http.post(f"{served.url}/v1/chat/completions", json=BODY) as r:
                    statuses.append(r.status)
                    if r.status == 429:
                        assert (await r.json())["error"]["code"] == "concurrency_limit"
            stream.close()
        assert statuses == [429] * 10
        for _ in range(200):  # the slot comes back once the gateway saw the client go
            async with aiohttp.ClientSession(headers=auth()) as http, \
                    http.post(f"{served.url}/v1/chat/completions", json=BODY) as r:
                if r.status != 429:
                    break
            await asyncio.sleep(0.05)
        assert r.status == 200
    finally:
        code, _, err = served.stop()
    assert code == 0, err


def started(served: Served) -> dict[int, int]:
    """The supervisor's "worker N started (pid P)" lines, the ones after the first."""
    pids = {}
    for _ in range(2):
        line = served.process.stderr.readline()  # type: ignore[union-attr]
        found = re.search(r"worker (\d) started \(pid (\d+)\)", line)
        assert found is not None, line
        pids[int(found.group(1))] = int(found.group(2))
    return pids


async def test_a_dead_worker_is_replaced_and_its_key_slots_freed(tmp_path, upstream):
    upstream.script(Reply(text="held " * 50, delta_size=5, event_delay=0.2),
                    Reply(text="after the restart"))
    served = Served(config(tmp_path, upstream, limit=1), env(LIMITED_KEY=KEY), "--workers", "2")
    try:
        pids = started(served)
        assert sorted(workers_of(served)) == sorted(pids.values())
        async with aiohttp.ClientSession(
                headers=auth(), connector=aiohttp.TCPConnector(limit=1)) as holder:
            async with holder.get(f"{served.url}/healthz") as r:  # this connection's worker
                index = (await r.json())["worker"]
            stream = await holder.post(f"{served.url}/v1/chat/completions",
                                       json={**BODY, "stream": True})
            await stream.content.readline()  # on the same connection: the same worker
            os.kill(pids[index], signal.SIGKILL)  # it dies holding the key's only slot
            with pytest.raises(aiohttp.ClientError):
                await stream.read()
        restarted = ""
        for line in served.process.stderr:  # type: ignore[union-attr]
            restarted += line
            if f"worker {index} restarted" in line:
                break
        assert f"worker {index} (pid {pids[index]}) exited with code -9" in restarted
        assert pids[index] not in workers_of(served) and len(workers_of(served)) == 2
        async with aiohttp.ClientSession(headers=auth()) as http, \
                http.post(f"{served.url}/v1/chat/completions", json=BODY) as r:
            assert r.status == 200, await r.text()  # the dead worker's slot was freed
            assert (await r.json())["choices"][0]["message"]["content"] == "after the restart"
    finally:
        code, _, err = served.stop()
    assert code == 0, err


def test_the_workers_count_is_checked(cli, tmp_path):
    path = tmp_path / "agents.toml"
    path.write_text('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "mock"\n')
    with pytest.raises(SystemExit):
        cli("serve", "-c", str(path), "--workers", "0")


def test_a_worker_that_dies_at_its_start_stops_the_server(tmp_path):
    """A gateway that builds in the supervisor but not in a worker (here: it raises in
    any other process) would fail again on every restart: the supervisor stops."""
    script = tmp_path / "serve.py"
    script.write_text(
        "import os, sys\n"
        "from tripwire import Agent\n"
        "from tripwire.testing import MockModel\n"
        "from tripwire.serve import Gateway, serve_workers\n"
        "parent = os.getpid()\n"
        "def make():\n"
        "    if os.getpid() != parent:\n"
        "        raise RuntimeError('cannot build here')\n"
        "    return Gateway({'a': Agent(id='a', model=MockModel())})\n"
        "sys.exit(serve_workers(make, 2, '127.0.0.1', 0))\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, env=env())
    assert done.returncode == 1, done.stderr
    assert "RuntimeError: cannot build here" in done.stderr
    assert "dies before it takes requests would die again; stopping" in done.stderr
    assert "listening on" not in done.stderr


def test_key_slots_shared_between_processes():
    from tripwire.serve._shared import KeySlots

    context = multiprocessing.get_context("fork")
    slots = KeySlots.shared(["a", "b"], 2, context)
    first, second = slots.for_worker(0), slots.for_worker(1)
    assert first.acquire("a", 2) and second.acquire("a", 2)
    assert not first.acquire("a", 2) and not second.acquire("a", 2)
    assert second.acquire("b", 1) and first.in_flight("b") == 1

    def take() -> None:  # another process takes a slot of "b" ... and is gone
        os._exit(0 if KeySlots.for_worker(slots, 1).acquire("b", 2) else 1)

    child = context.Process(target=take)
    child.start()
    child.join()
    assert child.exitcode == 0 and first.in_flight("b") == 2
    slots.clear(1)  # what the supervisor does when worker 1 dies
    assert first.in_flight("a") == 1 and first.in_flight("b") == 0
    first.release("a")
    assert second.in_flight("a") == 0
    local = KeySlots()
    assert local.acquire("a", 1) and not local.acquire("a", 1)
    local.release("a")
    assert local.in_flight("a") == 0


def test_metrics_of_workers_merge():
    from tripwire.serve import Metrics
    from tripwire.serve._metrics import AccessRecord

    def record(**fields: Any) -> AccessRecord:
        return AccessRecord(0.0, "POST", "/v1/chat/completions", api="chat", **fields)

    one, two = Metrics(), Metrics()
    for metrics, status, latency in ((one, 200, 0.003), (two, 200, 0.2), (two, 429, 0.0001)):
        metrics.observe(record(agent="a", key="k", status=status, latency_ms=latency * 1000))
    two.observe(record(agent="a", key="k", status=400, tripped=True, tripwire="pii",
                       latency_ms=1.0, upstream_status=None))
    one.observe(record(agent="b", key=None, status=502, upstream_status=0, latency_ms=2.0))
    one.in_flight, two.in_flight = 2, 3
    total = Metrics()
    total.merge(json.loads(json.dumps(one.state())))
    total.merge(json.loads(json.dumps(two.state())))
    text = total.render()
    assert 'tripwire_serve_requests_total{api="chat",agent="a",key="k",status="200"} 2' in text
    assert 'tripwire_serve_requests_total{api="chat",agent="a",key="k",status="429"} 1' in text
    assert 'tripwire_serve_tripwires_total{api="chat",agent="a",processor="pii"} 1' in text
    assert 'tripwire_serve_upstream_errors_total{api="chat",agent="b",status="0"} 1' in text
    assert 'tripwire_serve_request_duration_seconds_count{api="chat",agent="a"} 4' in text
    assert 'tripwire_serve_request_duration_seconds_bucket{api="chat",agent="a",le="0.001"} 2' in text
    assert 'tripwire_serve_request_duration_seconds_bucket{api="chat",agent="a",le="0.005"} 3' in text
    assert "tripwire_serve_in_flight 5" in text
    both = Metrics()
    both.merge(one.state())
    assert both.render() == one.render()


def test_workers_stop_when_their_supervisor_is_killed(tmp_path, upstream):
    served = Served(config(tmp_path, upstream), env(LIMITED_KEY=KEY), "--workers", "2")
    pids = started(served)
    served.process.kill()  # SIGKILL: the supervisor cannot stop them
    # the workers hold the pipes open: their end is the end of the output
    _, err = served.process.communicate(timeout=30)
    assert err.count("shutting down") == 2
    deadline = time.monotonic() + 15
    while any(_running(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in pids.values())


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_port_another_servers_workers_share_is_not_joined(tmp_path, upstream):
    # SO_REUSEPORT lets any process of the same user bind a port its sockets share: a
    # second server must not quietly take half of the first one's connections.
    first = Served(config(tmp_path, upstream), env(LIMITED_KEY=KEY), "--workers", "2")
    try:
        port = first.url.rsplit(":", 1)[1]
        second = subprocess.run(
            [sys.executable, "-m", "tripwire", "serve", "-c", str(tmp_path / "agents.toml"),
             "--port", port, "--workers", "2"], env=env(LIMITED_KEY=KEY),
            capture_output=True, text=True, timeout=60)
    finally:
        code, _, err = first.stop()
    assert second.returncode == 1
    assert f"error while attempting to bind on address ('127.0.0.1', {port}): address " \
           f"already in use" in second.stderr
    assert code == 0, err


async def test_a_thread_in_a_shared_memory_store_is_remembered_by_every_worker(
        tmp_path, upstream):
    """The thread's first turn served by one worker, its second by the other: with a
    SQLite store (shared by the workers) the second remembers the first."""
    path = config(tmp_path, upstream, limit=50)
    with path.open("a") as f:
        f.write(f'[agents.support.memory]\nstore = "sqlite:///{tmp_path / "memory.db"}"\n')
    upstream.script(Reply(text="Hello Ann."), Reply(text="You are Ann."))
    served = Served(path, env(LIMITED_KEY=KEY), "--workers", "2")
    sessions: dict[int, aiohttp.ClientSession] = {}
    try:
        for _ in range(200):  # a session of one kept-alive connection on each worker
            http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                         headers={**auth(), "X-Tripwire-Thread": "t-workers"})
            async with http.get(f"{served.url}/healthz") as r:
                worker = int((await r.json())["worker"])
            if worker in sessions:
                await http.close()
            else:
                sessions[worker] = http
            if len(sessions) == 2:
                break
        for worker, text in ((0, "I am Ann"), (1, "Who am I?")):
            body = {"model": "support", "messages": [{"role": "user", "content": text}]}
            async with sessions[worker].post(f"{served.url}/v1/chat/completions",
                                             json=body) as r:
                assert r.status == 200, await r.text()
    finally:
        for http in sessions.values():
            await http.close()
        code, out, err = served.stop()
    assert code == 0, err
    said = [(m["role"], m["content"]) for m in upstream.requests[1].body["messages"]]
    assert said == [("user", "I am Ann"), ("assistant", "Hello Ann."), ("user", "Who am I?")]
    assert "t-workers" not in out + err
