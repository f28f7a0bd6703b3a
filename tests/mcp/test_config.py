"""``[mcp.NAME]`` tables and ``mcp_servers`` in a configuration file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mcp.helpers import calls, tool_text
from tests.support.mcp_servers import ROOT, command
from tripwire import Agent, ConfigurationError
from tripwire.config import load_config
from tripwire.testing import MockModel


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tripwire.toml"
    path.write_text(text)
    return path


async def test_an_agent_takes_the_mcp_servers_its_table_names(tmp_path) -> None:
    executable, args = command()
    path = write(tmp_path, f"""
[mcp.notes]
command = {json.dumps(executable)}
args = {json.dumps(args)}
cwd = {json.dumps(str(ROOT))}
allow = ["search"]
prefix = "notes_"

[agents.support]
model = "openai/gpt-5-mini"
mcp_servers = ["notes"]
""")
    model = MockModel(calls(("notes_search", {"query": "q"})))
    async with Agent.from_config(path, "support", model=model) as agent:
        await agent.generate("find")
    assert [t.name for t in model.requests[0].tools] == ["notes_search"]
    assert tool_text(model, 1) == ["3 pages match 'q'"]


@pytest.mark.parametrize(("table", "said"), [
    ('[mcp.notes]\nurl = "http://127.0.0.1:9/mcp"\ntimeout = "soon"',
     "[mcp.notes]: key 'timeout' expects float"),
    ('[mcp.notes]\nurl = "http://127.0.0.1:9/mcp"\nallowed = ["a"]',
     "[mcp.notes]: unknown key 'allowed'"),
    ('[mcp.notes]\nurl = "http://127.0.0.1:9/mcp"\ncommand = "x"',
     "[mcp.notes]: give command (a server run over stdio) or url"),
    ('[mcp.notes]\nurl = "http://127.0.0.1:9/mcp"\nresources = "notes://*"',
     "[mcp.notes]: resources must be true, false or a list of URI patterns, got 'notes://*'"),
    ('[mcp.notes]\nurl = "http://127.0.0.1:9/mcp"\nprompts = 1',
     "[mcp.notes]: prompts must be true, false or a list of names, got 1"),
    ('[agents.a]\nmodel = "openai/x"\nmcp_servers = ["notes"]',
     "[agents.a] mcp_servers: 'notes' names no [mcp.NAME] table (defined: none defined)"),
])
def test_a_bad_table_is_an_error_naming_the_file_table_and_key(tmp_path, table, said) -> None:
    path = write(tmp_path, table)
    with pytest.raises(ConfigurationError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert said in str(caught.value)


def test_an_error_of_the_server_names_the_table(tmp_path) -> None:
    path = write(tmp_path, """
[mcp.notes]
url = "ftp://example.com"

[agents.a]
model = "openai/gpt-5-mini"
mcp_servers = ["notes"]
""")
    with pytest.raises(ConfigurationError, match=r"tripwire.toml: \[mcp.notes\]: url must be "
                                                 r"an http:// or https:// URL"):
        Agent.from_config(path, "a")


@pytest.mark.parametrize(("keys", "said"), [
    ('deny_resources = ["secret://*"]',
     "deny_resources filters the resources passed through, and resources is false"),
    ('prompts = ["a"]\ndeny_prompts = ["a"]', "a is in both prompts and deny_prompts"),
])
def test_resources_and_prompts_options_are_checked(tmp_path, keys, said) -> None:
    path = write(tmp_path, f"""
[mcp.notes]
url = "http://127.0.0.1:9/mcp"
{keys}

[agents.a]
model = "openai/gpt-5-mini"
mcp_servers = ["notes"]
""")
    with pytest.raises(ConfigurationError, match=rf"\[mcp.notes\]: {said}"):
        Agent.from_config(path, "a")
