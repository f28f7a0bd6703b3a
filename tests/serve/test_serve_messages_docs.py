"""The Messages API as docs/serve.md and the README show it: the real ``tripwire serve``
command in a subprocess with the page's configuration, the curl examples of its
"Anthropic's Messages API" section run with real ``curl`` and compared with the answers
the page shows, its and the README's ``anthropic`` examples run as written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import Any

import pytest

from tests.serve.test_serve_cli import (
    ACME_KEY,
    DOC,
    README,
    Served,
    blocks,
    env,
    same_shape,
    section,
    upstream,  # noqa: F401 (a fixture)
)
from tests.support.fake_llm_server import Reply

MESSAGES = section(DOC, "## Anthropic's Messages API")


def events(text: str) -> list[list[Any]]:
    """A stream's ``[event, data]`` pairs."""
    out = []
    for block in text.split("\n\n"):
        if block.strip():
            name, data = block.strip().split("\n")
            out.append([name, json.loads(data[len("data: "):])])
    return out


def test_the_messages_curl_examples_answer_as_shown(tmp_path, upstream):  # noqa: F811
    if shutil.which("curl") is None:
        pytest.skip("curl is not on PATH: the docs' curl examples cannot be run")
    config = next(body for lang, body in blocks(DOC) if lang == "toml")
    path = tmp_path / "agents.toml"
    path.write_text(config.replace("https://api.openai.com/v1", upstream.openai_base_url))
    for _ in range(4):  # two curl examples, then the Python client's two calls
        upstream.script(Reply(text="Hello! How can I help you today?", usage=(24, 9),
                              delta_size=8))
    served = Served(path, env(ACME_KEY=ACME_KEY, OPENAI_API_KEY="sk-upstream"))
    try:
        found = blocks(MESSAGES)
        examples = [(body, found[i + 1]) for i, (lang, body) in enumerate(found)
                    if lang == "sh" and body.startswith("curl ")]
        assert len(examples) == 4
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
    finally:
        code, out, err = served.stop()
    assert code == 0, err
    log = [json.loads(line) for line in out.splitlines()]
    assert [(r["path"], r["api"], r["status"], r.get("tripwire")) for r in log] == [
        ("/v1/messages", "messages", 200, None), ("/v1/messages", "messages", 200, None),
        ("/v1/messages", "messages", 400, "regex-filter"),
        ("/v1/messages/count_tokens", "messages", 200, None),
        ("/v1/messages", "messages", 200, None), ("/v1/messages", "messages", 200, None)]
    assert ACME_KEY not in out + err and "AKIA" not in out + err


def test_the_readme_anthropic_example_runs_against_the_served_readme_config(
        tmp_path, upstream):  # noqa: F811
    found = blocks(section(README, "## Serve: a guardrail gateway"))
    config = next(body for lang, body in found if lang == "toml")
    client = next(body for lang, body in found if lang == "python" and "anthropic" in body)
    (tmp_path / "agents.toml").write_text(config)
    upstream.script(Reply(text="Hello from the gateway."))
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
    assert done.stdout == "Hello from the gateway.\n"
    assert code == 0, err
