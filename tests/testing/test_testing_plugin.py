"""The pytest fixtures tripwire gives processor authors (``tripwire.pytest_plugin``),
requested by name exactly as an author's project does: no import, no conftest.

Runs in this suite because the plugin loads through its ``pytest11`` entry point;
test_testing_project.py runs them in separate projects.
"""

from __future__ import annotations

import configparser
import importlib.metadata
import os
import sys
from pathlib import Path

import pytest

import tripwire.models
import tripwire.pytest_plugin
from tripwire import (
    Agent,
    ConfigurationError,
    Processor,
    ProcessorValidationError,
    hookimpl,
    registry,
    tool,
)
from tripwire.cli import main
from tripwire.plugins import available, create
from tripwire.testing import FakePlugins, MockModel, MockResponse

ROOT = Path(__file__).resolve().parents[2]


class Shout(Processor):
    """Upper-cases streamed text."""

    id = "shout"

    def __init__(self, suffix: str = "!", times: int = 1):
        self.suffix = suffix
        self.times = times

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.payload["text"].upper()})
        return part


@pytest.fixture
def rescan():
    """Tests that change the environment by hand scan the plugins afresh after."""
    yield
    registry.reset()


# ------------------------------------------------------------------ registration


def test_the_plugin_is_declared_as_a_pytest11_entry_point_in_setup_cfg():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    lines = cfg["options.entry_points"]["pytest11"].strip().splitlines()
    assert [s.strip() for s in lines] == ["tripwire = tripwire.pytest_plugin"]


def test_pytest_loaded_the_plugin_from_tripwires_entry_point(pytestconfig):
    loaded = {plugin: dist.metadata["Name"]
              for plugin, dist in pytestconfig.pluginmanager.list_plugin_distinfo()}
    assert loaded.get(tripwire.pytest_plugin) == "tripwire", (
        "pytest did not load tripwire.pytest_plugin from an entry point: the installed "
        "metadata is older than setup.cfg, reinstall (pip install -e .)")
    assert pytestconfig.pluginmanager.get_plugin("tripwire") is tripwire.pytest_plugin


def test_the_plugin_module_implements_no_pytest_hooks():
    # It only defines fixtures (that none is autouse is checked in a separate project,
    # test_testing_project.py).
    assert [n for n in vars(tripwire.pytest_plugin) if n.startswith("pytest_")] == []


# ------------------------------------------------------------------ make_agent


async def test_make_agent_runs_the_processors_around_a_scripted_model(make_agent):
    agent = make_agent(["hello there"], output_processors=[Shout()])
    result = await agent.generate("Hi")

    assert result.text == "HELLO THERE"
    assert isinstance(agent, Agent) and isinstance(agent.model, MockModel)
    assert agent.id == "test-agent"
    assert agent.model.requests[0].prompt == [
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]


async def test_make_agent_takes_agent_options_and_every_form_of_mock_response(make_agent):
    @tool
    def lookup(order_id: str) -> str:
        """Look an order up."""
        return f"order {order_id}: shipped"

    agent = make_agent(
        [MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"order_id": "7"}}]),
         {"text": "It shipped."}],
        id="support", instructions="Be brief.", tools=[lookup], max_steps=3,
    )
    result = await agent.generate("Where is order 7?")

    assert (agent.id, result.text) == ("support", "It shipped.")
    assert [r.result for r in result.tool_results] == ["order 7: shipped"]
    second = agent.model.requests[1]
    assert second.prompt[0] == {"role": "system", "content": "Be brief."}
    assert [t.name for t in second.tools] == ["lookup"]


async def test_make_agent_streams(make_agent):
    agent = make_agent(["a b"], output_processors=[Shout()])
    chunks = [c async for c in agent.stream("Hi")]

    assert "".join(c.payload["text"] for c in chunks if c.type == "text-delta") == "A B"
    assert chunks[-1].type == "finish"


def test_make_agent_validates_processors_like_agent(make_agent):
    class Misspelt(Processor):
        id = "misspelt"

        @hookimpl
        def process_inputs(self, messages):
            return messages

    with pytest.raises(ProcessorValidationError, match="misspelt"):
        make_agent(input_processors=[Misspelt()])


def test_make_agent_takes_a_model_of_your_own_instead_of_responses(make_agent):
    model = MockModel(["x"], model_id="other")
    assert make_agent(model=model).model is model
    with pytest.raises(TypeError, match="responses or model="):
        make_agent(["a"], model=model)


async def test_a_make_agent_model_that_runs_out_of_responses_says_so(make_agent):
    agent = make_agent([])
    with pytest.raises(Exception, match="has only 0 response"):
        await agent.generate("Hi")


# ------------------------------------------------------------------ fake_plugins


def test_fake_plugins_makes_a_class_available_by_entry_point_name(fake_plugins):
    fake_plugins({"shout": Shout}, distribution="tripwire-shout", version="1.2")

    entry = available()["shout"]
    assert (entry.cls, entry.distribution, entry.version, entry.status) == (
        Shout, "tripwire-shout", "1.2", "ok")
    assert entry.hooks == ("process_output_stream",)
    assert entry.value == f"{__name__}:Shout"
    processor = create("shout", suffix="?", times=2)
    assert (processor.suffix, processor.times) == ("?", 2)


def test_options_of_a_faked_plugin_are_checked_like_an_installed_ones(fake_plugins):
    fake_plugins({"shout": Shout})

    with pytest.raises(ConfigurationError, match="option 'times' expects int"):
        create("shout", times="2")
    with pytest.raises(ConfigurationError, match="has no option 'volume'"):
        create("shout", volume=11)


def test_an_entry_point_string_is_imported_like_an_installed_packages(
    fake_plugins, tmp_path, monkeypatch
):
    (tmp_path / "tw_testing_loud.py").write_text(
        "from tripwire import Processor, hookimpl\n\n"
        "class Loud(Processor):\n"
        "    id = 'loud'\n\n"
        "    @hookimpl\n"
        "    def process_input(self, messages):\n"
        "        return messages\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "tw_testing_loud", raising=False)
    fake_plugins({"loud": "tw_testing_loud:Loud", "typo": "tw_testing_loud:Lowd"})

    assert available()["loud"].cls.__module__ == "tw_testing_loud"
    assert available()["typo"].status == "broken"
    with pytest.raises(ConfigurationError, match="processor 'typo' .*failed to load"):
        create("typo")


def test_fake_plugins_hides_installed_plugins_except_those_kept(fake_plugins):
    fake_plugins({"shout": Shout})
    assert list(available()) == ["shout"]

    fake_plugins({}, installed=["tool-search"])
    assert list(available()) == ["shout", "tool-search"]
    assert os.environ["TRIPWIRE_LOAD_PLUGINS"] == "shout,tool-search"


def test_keeping_a_plugin_that_is_not_installed_is_a_clear_error(fake_plugins):
    fake_plugins({"shout": Shout}, installed=["no-such-plugin"])
    with pytest.raises(ConfigurationError, match="unknown processor.*no-such-plugin"):
        available()


def test_a_faked_name_replaces_an_installed_entry_point_of_that_name(fake_plugins):
    class MySearch(Processor):
        id = "tool-search"

        @hookimpl
        def process_input_step(self, step_number):
            return None

    fake_plugins({"tool-search": MySearch}, distribution="my-search")

    entry = available()["tool-search"]
    assert (entry.cls, entry.distribution, entry.status) == (MySearch, "my-search", "ok")


async def test_a_config_file_builds_an_agent_with_a_faked_plugin(fake_plugins, tmp_path):
    fake_plugins({"shout": Shout})
    config = tmp_path / "tripwire.toml"
    config.write_text(
        '[agents.loud]\n'
        'model = "openai/gpt-5-mini"\n'
        'output_processors = [{ use = "shout", suffix = "?" }]\n'
    )
    agent = Agent.from_config(config, "loud", model=MockModel(["quiet words"]))

    assert (await agent.generate("Hi")).text == "QUIET WORDS"


def test_fake_plugins_registers_cli_command_plugins(fake_plugins, capsys):
    def register(subparsers):
        subparsers.add_parser("audit").set_defaults(func=lambda args: print("audited"))

    fake_plugins({"audit": register}, group="tripwire.commands")

    assert main(["audit"]) == 0
    assert capsys.readouterr().out == "audited\n"


def test_fake_plugins_registers_model_providers(fake_plugins):
    fake_plugins({"acme": lambda model_id: MockModel([f"hello from {model_id}"])},
                 group="tripwire.models")

    agent = Agent(id="test-agent", model="acme/rocket-1")
    assert agent.generate_sync("Hi").text == "hello from rocket-1"
    assert "openai" in tripwire.models.providers()  # the installed ones stay


def test_fake_plugins_accepts_only_the_groups_tripwire_reads(fake_plugins):
    with pytest.raises(ValueError, match="group must be one of 'tripwire.processors', "):
        fake_plugins({"mock": object}, group="tripwire.cachez")
    with pytest.raises(TypeError, match="plugins must be a mapping"):
        fake_plugins(Shout)


def test_other_readers_of_the_metadata_see_the_fakes_and_the_real_distributions(fake_plugins):
    fake_plugins({"shout": Shout}, distribution="tripwire-shout")

    processors = importlib.metadata.entry_points(group="tripwire.processors")
    assert processors["shout"].load() is Shout
    assert processors["shout"].dist.name == "tripwire-shout"
    models = importlib.metadata.entry_points(group="tripwire.models")
    assert "openai" in models.names


def test_fake_plugins_changes_nothing_until_called(fake_plugins):
    assert importlib.metadata.distributions.__module__ == "importlib.metadata"


def test_closing_fake_plugins_restores_the_environment_and_the_metadata(monkeypatch, rescan):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "tool-search,unicode-normalizer")
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "unicode-normalizer")
    real = importlib.metadata.distributions

    with FakePlugins() as fake:
        fake({"shout": Shout})
        assert "TRIPWIRE_DISABLE_PLUGINS" not in os.environ
        assert list(available()) == ["shout"]

    assert importlib.metadata.distributions is real
    assert os.environ["TRIPWIRE_LOAD_PLUGINS"] == "tool-search,unicode-normalizer"
    assert os.environ["TRIPWIRE_DISABLE_PLUGINS"] == "unicode-normalizer"
    assert list(available()) == ["tool-search"]
