"""The examples of the README and of the docs pages it leads to run as written and print
what they say they print."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def section(title: str, page: Path = README) -> str:
    text = page.read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_guardrails_example_prints_what_the_readme_shows(tmp_path):
    blocks = re.findall(r"```(\w*)\n(.*?)```", section("Quick start"), re.S)
    code = next(body for lang, body in blocks if lang == "python")
    shown = next(body for lang, body in blocks if lang == "")
    script = tmp_path / "guardrails_example.py"
    script.write_text(code)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


async def test_the_combined_guardrails_agent_builds_from_python_and_from_toml(
    tmp_path, monkeypatch
):
    from tripwire import Agent

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    combined = section("Moderation, injection and personal data together",
                       DOCS / "guardrails.md")
    toml_block = re.findall(r"```toml\n(.*?)```", combined, re.S)[0]
    python_block = re.findall(r"```python\n(.*?)```", combined, re.S)[0]
    namespace: dict = {}
    exec(compile(python_block, "docs/guardrails.md", "exec"), namespace)
    agent = namespace["agent"]
    assert [p.id for p in agent.list_processors("input")] == [
        "unicode-normalizer",
        "pii-detector",
        "input-guards",
    ]
    assert [p.id for p in agent.list_processors("output")] == [
        "moderation",
        "prompt-injection-detector",
        "pii-detector",
        "system-prompt-scrubber",
    ]
    path = tmp_path / "tripwire.toml"
    path.write_text(toml_block)
    from_file = Agent.from_config(str(path), "support")
    assert [p.id for p in from_file.list_processors("input")] == [
        "unicode-normalizer",
        "pii-detector",
        "input-guards",
    ]
    for built in (agent, from_file, *agent.list_processors(), *from_file.list_processors()):
        closer = getattr(built, "aclose", None)
        if closer is not None:
            await closer()


async def test_the_error_recovery_agent_builds_from_its_toml(tmp_path, monkeypatch):
    from tripwire import Agent

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-used")
    recovery = section("Both together", DOCS / "recovery.md")
    toml_block = re.findall(r"```toml\n(.*?)```", recovery, re.S)[0]
    path = tmp_path / "tripwire.toml"
    path.write_text(toml_block)
    async with Agent.from_config(str(path), "support") as agent:
        assert [p.id for p in agent.list_processors("input")] == ["provider-history-compat"]
        assert [p.id for p in agent.list_processors("error")] == [
            "prefill-error-handler",
            "stream-error-retry",
        ]
        retry = agent.resolve_processor("stream-error-retry")
        assert (retry.max_retries, retry.delay_ms) == (2, 250)


async def test_the_budgets_agent_builds_from_python_and_from_toml(tmp_path, monkeypatch):
    from tripwire import Agent

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    monkeypatch.chdir(tmp_path)  # the examples keep their budgets in ./budgets.db
    text = (DOCS / "budgets.md").read_text().split("\n## ", 1)[0]
    python_block = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    toml_block = re.findall(r"```toml\n(.*?)```", text, re.S)[0]
    namespace: dict = {}
    exec(compile(python_block, "docs/budgets.md", "exec"), namespace)
    path = tmp_path / "tripwire.toml"
    path.write_text(toml_block)
    from_file = Agent.from_config(str(path), "support")
    for agent in (namespace["agent"], from_file):
        guard = agent.resolve_processor("cost-guard")
        assert guard.scope == "resource" and guard.limits["max_total_tokens"] == 200_000
        assert [p.id for p in agent.list_processors("output")] == ["cost-guard"]
        await guard.aclose()
        await agent.aclose()
def test_the_caching_example_prints_what_the_readme_shows(tmp_path):
    caching = section("A run you can try", DOCS / "caching.md")
    blocks = re.findall(r"```(\w*)\n(.*?)```", caching, re.S)
    code = next(body for lang, body in blocks if lang == "python")
    shown = next(body for lang, body in blocks if lang == "")
    script = tmp_path / "caching_example.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


async def test_the_caching_toml_line_builds_a_response_cache(tmp_path):
    from tripwire import Agent

    caching = section("A run you can try", DOCS / "caching.md")
    line = re.findall(r"```toml\n(.*?)```", caching, re.S)[0].strip()
    (tmp_path / "t.toml").write_text(f'[agents.a]\nmodel = "models.m"\n{line}\n'
                                     '[models.m]\nuse = "mock"\nresponses = []\n')
    agent = Agent.from_config(str(tmp_path / "t.toml"), "a")
    (cache,) = agent.input_processors
    assert (cache.id, cache.ttl) == ("response-cache", 600.0)
    assert type(cache.cache).__name__ == "RedisCache"  # built, not connected: no server needed


def test_the_processor_example_runs_as_a_script(tmp_path):
    """A reader saves the first example of "Write your own processor" as a file and runs
    it: no top-level ``await``, and no unclosed session left to warn about."""
    from tests.support.fake_llm_server import BackgroundLLMServer, Reply

    code = re.findall(r"```python\n(.*?)```", section("Write your own processor"), re.S)[0]
    script = tmp_path / "content_filter.py"
    script.write_text(code)
    with BackgroundLLMServer() as server:
        server.script(Reply(text="Hi, how can I help?"), Reply(text="Hi, how can I help?"))
        env = {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-readme",
               "OPENAI_BASE_URL": server.server.openai_base_url, "PYTHONWARNINGS": "error"}
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              timeout=120, env=env, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "Hi, how can I help? stop None\nHi, how can I help?\n"
