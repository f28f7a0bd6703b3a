"""``tripwire serve`` as a user runs it: the real command in a subprocess, the
configuration from docs/serve.md and the README, the curl examples of docs/serve.md run
with real ``curl`` and compared with the answers the page shows, its and the README's
``openai`` examples run as written; SIGTERM shuts it down cleanly."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_llm_server import BackgroundLLMServer, Reply

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "serve.md").read_text()
README = (ROOT / "README.md").read_text()
ACME_KEY = "tw-acme-3f9c2d"
#: Values that differ on every run: ignored when an answer is compared with the docs.
VOLATILE = {"id", "created", "created_at", "time", "latency_ms"}
#: The part of docs/serve.md about chat completions, and the Responses API's section.
CHAT_DOC = DOC[:DOC.index("## The Responses API")]
RESPONSES_DOC = DOC[DOC.index("## The Responses API"):DOC.index("### Stored responses")]


def blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


def section(text: str, heading: str) -> str:
    """The part of ``text`` (Markdown) from ``heading`` to the next heading of its level."""
    start = text.index(heading + "\n")
    level = heading.split(" ", 1)[0]
    end = text.find(f"\n{level} ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


class Served:
    """``tripwire serve`` in a subprocess; ``url`` once it listens."""

    def __init__(self, config: Path, env: dict[str, str], *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tripwire", "serve", "-c", str(config), "--port", "0",
             *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        self.line = line = self.process.stderr.readline()
        found = re.search(r"listening on (http://[\d.]+:\d+)/v1", line)
        if found is None:
            self.process.kill()
            raise AssertionError(f"tripwire serve did not start: {line}"
                                 f"{self.process.stderr.read()}")
        self.url = found.group(1)

    def stop(self, *, signalled: bool = False) -> tuple[int, str, str]:
        """SIGTERM (unless already sent) and wait for the exit: code, stdout, stderr."""
        if not signalled:
            self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=60)
        return self.process.returncode, out, err


@pytest.fixture
def upstream() -> Iterator[Any]:
    with BackgroundLLMServer() as background:
        yield background.server


def env(**extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TRIPWIRE_", "OPENAI_"))}
    return {**clean, **extra}


def same_shape(documented: Any, actual: Any, where: str = "") -> None:
    """``actual`` is ``documented`` but for the values that change on every run."""
    if isinstance(documented, dict):
        assert isinstance(actual, dict) and set(actual) == set(documented), where
        for key, value in documented.items():
            if key not in VOLATILE:
                same_shape(value, actual[key], f"{where}.{key}")
    elif isinstance(documented, list):
        assert isinstance(actual, list) and len(actual) == len(documented), where
        for i, (d, a) in enumerate(zip(documented, actual, strict=True)):
            same_shape(d, a, f"{where}[{i}]")
    else:
        assert actual == documented, where


def events(text: str) -> list[Any]:
    return [line[6:] if line == "data: [DONE]" else json.loads(line[6:])
            for line in text.split("\n") if line]


def run_examples(section: str, served: Served, tmp_path: Path, count: int) -> None:
    """Run the ``count`` curl examples of a section of docs/serve.md against ``served``
    and compare each answer with the one shown after it; then its first Python client
    example, which prints the agent's answer."""
    found = blocks(section)
    examples = [(body, found[i + 1]) for i, (lang, body) in enumerate(found)
                if lang == "sh" and body.startswith("curl ")]
    assert len(examples) == count
    for command, (lang, answer) in examples:
        done = subprocess.run(["bash", "-c", command.replace("http://127.0.0.1:8080",
                                                             served.url)],
                              env=env(ACME_KEY=ACME_KEY), capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        if lang == "json":
            same_shape(json.loads(answer), json.loads(done.stdout), command)
        else:
            same_shape(events(answer), events(done.stdout), command)
    client = tmp_path / "client.py"
    client.write_text(next(body for lang, body in found if lang == "python")
                      .replace("http://127.0.0.1:8080", served.url))
    done = subprocess.run([sys.executable, str(client)], env=env(ACME_KEY=ACME_KEY),
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "Hello! How can I help you today?"), (
        done.stderr)


def test_the_docs_config_serves_and_its_curl_examples_answer_as_shown(tmp_path, upstream):
    if shutil.which("curl") is None:
        pytest.skip("curl is not on PATH: the docs' curl examples cannot be run")
    config = next(body for lang, body in blocks(DOC) if lang == "toml")
    path = tmp_path / "agents.toml"
    path.write_text(config.replace("https://api.openai.com/v1", upstream.openai_base_url))
    for _ in range(4):   # two curl examples, then the Python client's two calls
        upstream.script(Reply(text="Hello! How can I help you today?", usage=(24, 9),
                              delta_size=8))
    served = Served(path, env(ACME_KEY=ACME_KEY, OPENAI_API_KEY="sk-upstream"))
    try:
        run_examples(CHAT_DOC, served, tmp_path, 5)
    finally:
        code, out, err = served.stop()
    assert code == 0, err
    log = [json.loads(line) for line in out.splitlines()]
    assert [(r["path"], r["status"], r.get("tripwire")) for r in log] == [
        ("/v1/chat/completions", 200, None), ("/v1/chat/completions", 200, None),
        ("/v1/chat/completions", 400, "regex-filter"), ("/v1/models", 401, None),
        ("/v1/models", 200, None), ("/v1/chat/completions", 200, None),
        ("/v1/chat/completions", 200, None)]
    documented = json.loads(next(body for lang, body in blocks(DOC[DOC.index("## Logs"):])
                                 if lang == "json"))
    same_shape(documented, log[0])
    assert ACME_KEY not in out + err and "AKIA" not in out + err


def test_the_responses_api_examples_answer_as_shown(tmp_path, upstream):
    """The Responses API section's curl examples (a response, a tripwire) and its
    Python client (``responses.create``, ``responses.stream``) against the docs' config."""
    if shutil.which("curl") is None:
        pytest.skip("curl is not on PATH: the docs' curl examples cannot be run")
    config = next(body for lang, body in blocks(DOC) if lang == "toml")
    path = tmp_path / "agents.toml"
    path.write_text(config.replace("https://api.openai.com/v1", upstream.openai_base_url))
    for _ in range(3):   # one curl example, then the Python client's two calls
        upstream.script(Reply(text="Hello! How can I help you today?", usage=(24, 9),
                              delta_size=8))
    served = Served(path, env(ACME_KEY=ACME_KEY, OPENAI_API_KEY="sk-upstream"))
    try:
        run_examples(RESPONSES_DOC, served, tmp_path, 2)
    finally:
        code, out, err = served.stop()
    assert code == 0, err
    log = [json.loads(line) for line in out.splitlines()]
    assert [(r["path"], r["api"], r["status"], r.get("tripwire")) for r in log] == [
        ("/v1/responses", "responses", 200, None),
        ("/v1/responses", "responses", 400, "regex-filter"),
        ("/v1/responses", "responses", 200, None), ("/v1/responses", "responses", 200, None)]


def test_the_readme_example_runs_against_the_served_readme_config(tmp_path, upstream):
    found = blocks(section(README, "## Serve: a guardrail gateway"))
    config = next(body for lang, body in found if lang == "toml")
    client = next(body for lang, body in found if lang == "python" and "from openai" in body)
    (tmp_path / "agents.toml").write_text(config)
    upstream.script(Reply(text="Hello from the gateway."), Reply(text="Hello from the gateway."))
    served = Served(tmp_path / "agents.toml",
                    env(OPENAI_API_KEY="sk-upstream", OPENAI_BASE_URL=upstream.openai_base_url))
    try:
        script = tmp_path / "client.py"
        script.write_text(client.replace("http://127.0.0.1:8080", served.url))
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              timeout=60, env=env())
    finally:
        code, _, err = served.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Hello from the gateway.\n" * 2  # chat completions, then Responses
    assert code == 0, err
    assert upstream.requests[0].headers["Authorization"] == "Bearer sk-upstream"


def test_a_bad_serve_table_is_one_line_naming_the_key(tmp_path, cli):
    path = tmp_path / "agents.toml"
    path.write_text('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "mock"\n'
                    '[serve]\nmax_bodybytes = 3\n')
    code, out, err = cli("serve", "-c", str(path), "--port", "0")
    assert code == 1
    assert "unknown key 'max_bodybytes'" in err and "max_body_bytes" in err
    assert len(err.strip().splitlines()) == 1


def test_the_command_leaves_the_access_logger_as_it_found_it(tmp_path, cli):
    """``main(["serve", ...])`` in a program (or a test) must not leave its stdout handler
    behind: a second call would write every line twice, and the program's own handlers
    (propagation) would no longer see the access log."""
    import logging

    access = logging.getLogger("tripwire.serve.access")
    before = (list(access.handlers), access.level, access.propagate)
    path = tmp_path / "agents.toml"
    path.write_text('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "mock"\n'
                    '[serve]\nmax_concurrent = 0\n')
    code, _, err = cli("serve", "-c", str(path), "--port", "0")
    assert code == 1 and "max_concurrent" in err
    assert (list(access.handlers), access.level, access.propagate) == before


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
async def test_sigterm_lets_the_stream_in_flight_finish_and_refuses_new_requests(tmp_path,
                                                                                 upstream,
                                                                                 loop):
    import aiohttp

    if loop == "uvloop":
        pytest.importorskip("uvloop", reason="uvloop (the serve extra) has no Windows build")

    path = tmp_path / "agents.toml"
    path.write_text(f'[agents.support]\nmodel = "models.up"\n[models.up]\n'
                    f'use = "openai-compatible"\nbase_url = "{upstream.openai_base_url}"\n'
                    f'model = "m"\n')
    upstream.script(Reply(text="one two three four five six seven", delta_size=4,
                          event_delay=0.05))
    served = Served(path, env(), "--loop", loop)
    assert served.line.rstrip().endswith(f"; {loop} event loop)")
    signalled = False
    body = {"model": "support", "stream": True, "messages": [{"role": "user", "content": "Hi"}]}
    try:
        async with aiohttp.ClientSession() as http:
            stream = await http.post(f"{served.url}/v1/chat/completions", json=body)
            first = await stream.content.readline()
            served.process.send_signal(signal.SIGTERM)
            signalled = True
            for _ in range(200):  # until the signal is handled: then new requests get 503
                async with http.get(f"{served.url}/healthz") as r:
                    if r.status == 503:
                        break
                await asyncio.sleep(0.01)
            async with http.post(f"{served.url}/v1/chat/completions", json=body) as r:
                assert r.status == 503
                assert (await r.json())["error"]["code"] == "shutting_down"
            rest = await stream.read()
            stream.close()
    finally:
        code, out, err = served.stop(signalled=signalled)
    text = "".join(e["choices"][0]["delta"].get("content") or ""
                   for e in events((first + rest).decode()) if isinstance(e, dict))
    assert text == "one two three four five six seven"
    assert rest.endswith(b"data: [DONE]\n\n")
    assert code == 0, err
    assert "shutting down" in err


def test_the_event_loop_choice(monkeypatch, cli, tmp_path):
    from tripwire.errors import MissingDependencyError
    from tripwire.serve import event_loop

    assert event_loop("asyncio") == ("asyncio", asyncio.run)
    with pytest.raises(ValueError, match="unknown event loop 'trio'; valid: auto, asyncio, uvloop"):
        event_loop("trio")
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as if it were not installed
    assert event_loop("auto") == ("asyncio", asyncio.run)
    with pytest.raises(MissingDependencyError, match=r"pip install 'tripwire\[serve\]'"):
        event_loop("uvloop")
    path = tmp_path / "agents.toml"
    path.write_text('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "mock"\n')
    code, _, err = cli("serve", "-c", str(path), "--port", "0", "--loop", "uvloop")
    assert code == 1 and "--loop uvloop needs the uvloop package" in err


def test_serving_tunes_the_garbage_collector():
    """``serve`` (what the command and every ``--workers`` worker run) freezes what was
    built and raises the collector's first threshold; a threshold already higher, or 0
    (collection off), is the user's and is kept."""
    script = (
        "import asyncio, gc, os, signal\n"
        "from tripwire import Agent\n"
        "from tripwire.serve import GC_THRESHOLD, Gateway, serve\n"
        "from tripwire.testing import MockModel\n"
        "for first in (700, 50_000, 0):\n"
        "    gc.set_threshold(first, 10, 10)\n"
        "    gc.unfreeze()\n"
        "    gateway = Gateway({'a': Agent(id='a', model=MockModel())})\n"
        "    def listening(url):\n"
        "        print(first, gc.get_threshold(), gc.get_freeze_count() > 0, flush=True)\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "    asyncio.run(serve(gateway, '127.0.0.1', 0, on_listening=listening))\n"
        "print('limit', GC_THRESHOLD)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=env(), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "700 (10000, 10, 10) True", "50000 (50000, 10, 10) True", "0 (0, 10, 10) True",
        "limit 10000"]
