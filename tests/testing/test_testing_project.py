"""The pytest plugin in projects of their own, as a processor author has them.

Each test writes a small project into ``tmp_path`` and runs ``python -m pytest`` on it
in a subprocess with this interpreter (where tripwire is installed), so the fixtures
arrive through the ``pytest11`` entry point exactly as they do for an author:

* a processor package with its own tests, in pytest-asyncio's auto and strict modes;
* a project that uses none of the fixtures, which must run exactly as it does
  with the plugin turned off.

The testing example of docs/writing-processors.md runs the same way, in
test_testing_docs.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def clean_env() -> dict[str, str]:
    """This session's environment without its pytest, plugin and path settings."""
    return {
        k: v for k, v in os.environ.items()
        if not k.startswith(("TRIPWIRE_", "PYTEST_")) and k not in ("PYTHONPATH", "PYTHONHOME")
    }


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-W", "error", *args],
        cwd=project, env=clean_env(), capture_output=True, text=True, timeout=120,
    )


def passed(done: subprocess.CompletedProcess[str], count: int) -> None:
    assert done.returncode == 0, f"pytest failed:\n{done.stdout}\n{done.stderr}"
    assert re.search(rf"\b{count} passed\b", done.stdout), done.stdout


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


# ------------------------------------------------------------ a processor package


PACKAGE = '''
from tripwire import Processor, hookimpl


class Shout(Processor):
    """Upper-cases the streamed reply and ends it with ``suffix``."""

    id = "shout"

    def __init__(self, suffix: str = "!", times: int = 1):
        if times < 1:
            raise ValueError("times must be >= 1")
        self.suffix = suffix
        self.times = times

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.payload["text"].upper()})
        return part

    @hookimpl
    def process_output_result(self, messages):
        messages[-1].content.parts[-1].text += self.suffix * self.times
'''

TESTS = '''
import os
import tomllib
from pathlib import Path

import pytest
from tripwire_shout import Shout

from tripwire import Agent
from tripwire.plugins import available, create
from tripwire.testing import MockModel

PYPROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
ENTRY_POINTS = PYPROJECT["project"]["entry-points"]["tripwire.processors"]

{mark}
async def test_shouts_the_reply(make_agent):
    agent = make_agent(["hello there"], output_processors=[Shout(times=2)])
    result = await agent.generate("Hi")
    assert result.text == "HELLO THERE!!"
    assert agent.model.requests[0].prompt[-1]["content"] == [{{"type": "text", "text": "Hi"}}]

{mark}
async def test_shouts_while_streaming(make_agent):
    agent = make_agent(["a b c"], output_processors=[Shout()])
    chunks = [c async for c in agent.stream("Hi")]
    assert [c.payload["text"] for c in chunks if c.type == "text-delta"] == ["A ", "B ", "C"]

def test_the_entry_point_of_pyproject_is_found_and_builds_it(fake_plugins):
    fake_plugins(ENTRY_POINTS, distribution="tripwire-shout", version="0.1.0")
    entry = available()["shout"]
    assert (entry.cls, entry.distribution, entry.version) == (Shout, "tripwire-shout", "0.1.0")
    assert create("shout", suffix="?", times=3).times == 3
    with pytest.raises(Exception, match="times must be >= 1"):
        create("shout", times=0)

{mark}
async def test_a_config_file_uses_it_by_name(fake_plugins, tmp_path):
    fake_plugins(ENTRY_POINTS)
    (tmp_path / "tripwire.toml").write_text(
        '[agents.loud]\\nmodel = "openai/gpt-5-mini"\\n'
        'output_processors = [{{ use = "shout", suffix = "?" }}]\\n'
    )
    agent = Agent.from_config(tmp_path / "tripwire.toml", "loud", model=MockModel(["ok"]))
    assert (await agent.generate("Hi")).text == "OK?"

def test_fake_plugins_was_undone_after_the_test_that_used_it():
    assert "TRIPWIRE_LOAD_PLUGINS" not in os.environ
    assert "shout" not in available() and "tool-search" in available()
'''

PYPROJECT = '''
[project]
name = "tripwire-shout"
version = "0.1.0"
dependencies = ["tripwire"]

[project.entry-points."tripwire.processors"]
shout = "tripwire_shout:Shout"

[tool.pytest.ini_options]
pythonpath = ["src"]
testpaths = ["tests"]
filterwarnings = ["error"]
asyncio_default_fixture_loop_scope = "function"
{mode}
'''


@pytest.mark.parametrize(
    ("mode", "mark"),
    [('asyncio_mode = "auto"', ""), ("", "@pytest.mark.asyncio")],
    ids=["asyncio-auto-mode", "asyncio-strict-mode-with-marks"],
)
def test_a_processor_packages_own_tests_use_the_fixtures(tmp_path, mode, mark):
    project = write(tmp_path / "tripwire-shout", {
        "pyproject.toml": PYPROJECT.format(mode=mode),
        "src/tripwire_shout/__init__.py": PACKAGE,
        "tests/test_shout.py": TESTS.format(mark=mark),
    })

    passed(run_pytest(project), 5)


# ------------------------------------------------------- a project that ignores it


PLAIN_TEST = '''
import json
import sys


def test_plain(request):
    assert "tripwire.testing" not in sys.modules        # no fixture of ours ran
    loaded = request.config.pluginmanager.has_plugin("tripwire")
    with open("fixtures-with-plugin.json" if loaded else "fixtures-without.json", "w") as f:
        json.dump(request.fixturenames, f)
'''


def test_a_project_that_uses_no_fixture_runs_exactly_as_without_the_plugin(tmp_path):
    project = write(tmp_path / "plain", {
        "pyproject.toml": '[tool.pytest.ini_options]\n'
                          'asyncio_default_fixture_loop_scope = "function"\n',
        "test_plain.py": PLAIN_TEST,
    })

    passed(run_pytest(project), 1)
    passed(run_pytest(project, "-p", "no:tripwire"), 1)
    with_plugin = json.loads((project / "fixtures-with-plugin.json").read_text())
    assert with_plugin == json.loads((project / "fixtures-without.json").read_text())
    assert "make_agent" not in with_plugin and "fake_plugins" not in with_plugin
    # No command-line options or ini settings added either.
    help_with = run_pytest(project, "--help")
    help_without = run_pytest(project, "-p", "no:tripwire", "--help")
    assert help_with.returncode == help_without.returncode == 0
    assert without_timestamps(help_with.stdout) == without_timestamps(help_without.stdout)


def without_timestamps(help_text: str) -> str:
    """The help text with date-time stamps masked: other plugins' defaults may
    hold the time (pytest-benchmark names its default save file after it)."""
    return re.sub(r"\d{8}_\d{6}", "<timestamp>", help_text)


def test_the_fixtures_are_listed_with_their_documentation(tmp_path):
    project = write(tmp_path / "plain", {
        "pyproject.toml": '[tool.pytest.ini_options]\n'
                          'asyncio_default_fixture_loop_scope = "function"\n',
    })
    done = run_pytest(project, "--fixtures")

    assert "fixtures defined from tripwire.pytest_plugin" in done.stdout
    assert re.search(r"make_agent -- .*\n\s+Build an ``Agent`` around a scripted", done.stdout)
    assert re.search(r"fake_plugins -- .*\n\s+Register processor classes", done.stdout)
