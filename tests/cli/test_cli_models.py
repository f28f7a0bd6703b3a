"""``tripwire run`` against real HTTP: ``[models.NAME]`` tables of kind
``openai-compatible`` and ``anthropic`` pointed at the local fake server
(tests/fake_llm_server.py), with their base URL, key variable, timeout, retries,
headers and settings; ``--timeout``, ``-o`` and ``-s`` on the wire."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fake_llm_server import API_KEY, ErrorReply, FakeLLMServer, Hang, Reply
from tests.support.helpers import WIRES

KEY_ENV = "TRIPWIRE_TEST_LLM_KEY"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """The fake server on its own event loop in a thread: ``main()`` runs its own
    ``asyncio.run``, as the installed command does."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fake-llm-server")
    thread.start()

    async def start() -> FakeLLMServer:
        return await FakeLLMServer().start()

    srv = asyncio.run_coroutine_threadsafe(start(), loop).result(timeout=30)
    try:
        yield srv
    finally:
        asyncio.run_coroutine_threadsafe(srv.close(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


@pytest.fixture
def key(monkeypatch) -> str:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    return API_KEY


def write_config(tmp_path: Path, server: FakeLLMServer, wire: str, extra: str = "") -> Path:
    base_url = server.openai_base_url if wire == "openai" else server.url
    kind = "openai-compatible" if wire == "openai" else "anthropic"
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent(f"""
        [agents.local]
        model = "models.local"
        instructions = "Be brief."

        [models.local]
        use = "{kind}"
        base_url = "{base_url}"
        model = "local-model-1"
        api_key_env = "{KEY_ENV}"
        timeout = 10
        max_retries = 0
        retry_initial_delay = 0
        headers = {{ "X-Team" = "qa" }}
        settings = {{ temperature = 0 }}
    """) + textwrap.dedent(extra), encoding="utf-8")
    return path


def sent_headers(request) -> dict[str, str]:
    return {k.lower(): v for k, v in request.headers.items()}


def system_text(body: dict, wire: str) -> list[str]:
    if wire == "openai":
        return [m["content"] for m in body["messages"] if m["role"] == "system"]
    system = body.get("system")
    if isinstance(system, str):
        return [system]
    return [block["text"] for block in system or []]


@pytest.mark.parametrize("wire", WIRES)
def test_a_models_table_configures_the_http_model_end_to_end(
    wire, server, key, tmp_path, fake_distributions, cli
):
    server.script(Reply(text="Hello from the server"))
    path = write_config(tmp_path, server, wire)
    code, out, err = cli("run", "local", "Hi", "-c", str(path))
    assert (code, out, err) == (0, "Hello from the server\n", "")
    (request,) = server.requests
    assert request.path == ("/v1/chat/completions" if wire == "openai" else "/v1/messages")
    headers = sent_headers(request)
    if wire == "openai":
        assert headers["authorization"] == f"Bearer {key}"
    else:
        assert headers["x-api-key"] == key
    assert headers["x-team"] == "qa"
    assert request.body["model"] == "local-model-1"
    assert request.body["temperature"] == 0
    assert request.body["stream"] is True


@pytest.mark.parametrize("wire", WIRES)
def test_options_and_system_reach_the_wire(wire, server, key, tmp_path, fake_distributions, cli):
    server.script(Reply(text="ok"))
    path = write_config(tmp_path, server, wire)
    code, _, _ = cli("run", "local", "Hi", "-c", str(path),
                     "-o", "temperature", "0.7", "-o", "stop", '["END"]',
                     "-s", "Answer in French.")
    assert code == 0
    body = server.requests[0].body
    assert body["temperature"] == 0.7  # -o wins over the table's settings
    assert body.get("stop", body.get("stop_sequences")) == ["END"]
    assert "Answer in French." in "\n".join(system_text(body, wire))
    assert "Be brief." in "\n".join(system_text(body, wire))


@pytest.mark.parametrize("wire", WIRES)
def test_max_retries_from_the_table_resends_a_failed_call(
    wire, server, key, tmp_path, fake_distributions, cli
):
    server.script(ErrorReply(503, "busy"), Reply(text="second time"))
    path = write_config(tmp_path, server, wire)
    path.write_text(path.read_text().replace("max_retries = 0", "max_retries = 1"))
    code, out, err = cli("run", "local", "Hi", "-c", str(path), "-v")
    assert (code, out) == (0, "second time\n")
    assert len(server.requests) == 2
    assert "tripwire.models INFO:" in err and "retry 1 of 1" in err  # -v logs the retry


@pytest.mark.parametrize("wire", WIRES)
def test_without_retries_a_server_error_is_shown_and_exits_1(
    wire, server, key, tmp_path, fake_distributions, cli
):
    server.script(ErrorReply(503, "busy"))
    path = write_config(tmp_path, server, wire)
    code, out, err = cli("run", "local", "Hi", "-c", str(path))
    assert (code, out) == (1, "")
    assert err.startswith("[error] APICallError: ") and "busy" in err
    assert len(server.requests) == 1


@pytest.mark.parametrize("wire", WIRES)
def test_the_tables_timeout_ends_a_stalled_stream(
    wire, server, key, tmp_path, fake_distributions, cli
):
    server.script(Reply(text="never finished", stall_after=2))
    path = write_config(tmp_path, server, wire)
    path.write_text(path.read_text().replace("timeout = 10", "timeout = 0.3"))
    code, _, err = cli("run", "local", "Hi", "-c", str(path))
    assert code == 1
    assert err.startswith("[error] APICallError: ")


def test_run_timeout_gives_up_on_a_server_that_never_answers(
    server, key, tmp_path, fake_distributions, cli
):
    server.script(Hang())
    path = write_config(tmp_path, server, "openai")
    code, out, err = cli("run", "local", "Hi", "-c", str(path), "--timeout", "0.3")
    assert (code, out) == (1, "")
    assert err == "tripwire: error: no complete reply within 0.3 s (--timeout)\n"


def test_a_missing_key_variable_is_a_one_line_error_before_any_call(
    server, tmp_path, fake_distributions, cli, monkeypatch
):
    monkeypatch.delenv(KEY_ENV, raising=False)
    path = write_config(tmp_path, server, "openai")
    code, out, err = cli("run", "local", "Hi", "-c", str(path))
    assert (code, out) == (1, "")
    assert err == (
        f"tripwire: error: {path}: [models.local] api_key_env: the environment variable "
        f"{KEY_ENV} is not set; export {KEY_ENV}=... (the key itself never goes in the file)\n"
    )
    assert server.requests == []


@pytest.mark.parametrize("wire", WIRES)
def test_json_output_of_an_http_run_serialises_and_never_carries_the_key(
    wire, server, key, tmp_path, fake_distributions, cli
):
    server.script(Reply(text="Hello there", reasoning="thinking" if wire == "anthropic" else ""))
    path = write_config(tmp_path, server, wire)
    code, out, _ = cli("run", "local", "Hi", "-c", str(path), "--json")
    assert code == 0
    chunks = [json.loads(line) for line in out.splitlines()]
    assert chunks[-1]["type"] == "finish"
    assert "".join(c["payload"].get("text", "") for c in chunks if c["type"] == "text-delta") == (
        "Hello there"
    )
    assert key not in out


def test_model_flag_switches_to_another_models_table_and_its_settings(
    server, key, tmp_path, fake_distributions, cli
):
    server.script(Reply(text="from the other one"))
    path = write_config(tmp_path, server, "openai", extra=f"""
        [models.other]
        use = "openai-compatible"
        base_url = "{server.openai_base_url}"
        model = "other-model"
        settings = {{ seed = 42 }}
    """)
    code, out, _ = cli("run", "local", "Hi", "-c", str(path), "--model", "models.other")
    assert (code, out) == (0, "from the other one\n")
    body = server.requests[0].body
    assert (body["model"], body["seed"]) == ("other-model", 42)
    assert "temperature" not in body  # the settings of [models.local] do not apply
    assert "authorization" not in sent_headers(server.requests[0])  # no api_key_env: no key


def test_the_installed_command_reads_the_prompt_from_stdin(server, tmp_path):
    server.script(Reply(text="piped reply"))
    path = write_config(tmp_path, server, "openai")
    env = {**os.environ, KEY_ENV: API_KEY, "TRIPWIRE_LOAD_PLUGINS": ""}
    done = subprocess.run(
        [sys.executable, "-m", "tripwire", "run", "local", "-", "-c", str(path)],
        input="a question\nover two lines\n", capture_output=True, text=True, env=env,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "piped reply\n", "")
    messages = server.requests[0].body["messages"]
    assert messages[-1]["content"] in (
        "a question\nover two lines",
        [{"type": "text", "text": "a question\nover two lines"}],
    )
