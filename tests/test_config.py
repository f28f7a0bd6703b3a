"""Agents from TOML: [agents.NAME] and [models.NAME] tables, and the errors a typo gets."""

from __future__ import annotations

import textwrap

import pytest

from tripwire import APICallError, ConfigurationError, Processor, hookimpl
from tripwire.agent import Agent
from tripwire.config import agent_kwargs, build_processors, load_config
from tripwire.testing import MockModel


class Upper(Processor):
    id = "upper"

    def __init__(self, limit: int = 10):
        self.limit = limit

    @hookimpl
    def process_input(self, messages):
        return messages


class Tag(Processor):
    id = "tag"

    def __init__(self, label: str):
        self.label = label

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": f"{self.label}{part.text}"})
        return part


class Retry(Processor):
    id = "retry"

    @hookimpl
    def process_api_error(self, error):
        return {"retry": True}


@pytest.fixture(autouse=True)
def plugins(fake_distributions):
    dist = fake_distributions.add("tripwire-test-plugins", "1.0")
    dist.entry_point("upper", Upper).entry_point("tag", Tag).entry_point("retry", Retry)
    return fake_distributions


def write(tmp_path, text: str, name: str = "tripwire.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path, name="a") -> str:
    with pytest.raises(ConfigurationError) as e:
        agent_kwargs(path, name)
    return str(e.value)


def test_processor_lists_mix_names_and_tables_with_options(tmp_path):
    path = write(tmp_path, """
        [agents.support]
        model = "openai/gpt-5-mini"
        instructions = "You are a helpful assistant"
        input_processors = ["upper", { use = "upper", limit = 4000 }]
        output_processors = [{ use = "tag", label = "> " }]
        error_processors = ["retry"]
        max_processor_retries = 3
        max_steps = 4
    """)
    kwargs = agent_kwargs(path, "support")
    assert kwargs["id"] == "support"
    assert kwargs["model"] == "openai/gpt-5-mini"  # a router id is passed as is
    assert kwargs["instructions"] == "You are a helpful assistant"
    assert [(type(p), p.limit) for p in kwargs["input_processors"]] == [(Upper, 10), (Upper, 4000)]
    assert [p.label for p in kwargs["output_processors"]] == ["> "]
    assert [type(p) for p in kwargs["error_processors"]] == [Retry]
    assert (kwargs["max_processor_retries"], kwargs["max_steps"]) == (3, 4)


def test_agent_from_config_holds_the_configured_processors(tmp_path):
    path = write(tmp_path, """
        [agents.support]
        model = "models.demo"
        input_processors = [{ use = "upper", limit = 7 }]
        output_processors = [{ use = "tag", label = "~" }]
        error_processors = ["retry"]
        default_error_processors = false

        [models.demo]
        use = "mock"
        responses = [{ text = "hi there" }]
    """)
    agent = Agent.from_config(str(path), "support")
    assert agent.id == "support"
    assert [(p.id, p.limit) for p in agent.input_processors] == [("upper", 7)]
    assert [(p.id, p.label) for p in agent.output_processors] == [("tag", "~")]
    assert [p.id for p in agent.error_processors] == ["retry"]
    assert isinstance(agent.model, MockModel)


async def test_a_mock_model_table_drives_a_whole_run(tmp_path):
    path = write(tmp_path, """
        [agents.demo]
        model = "models.scripted"
        output_processors = [{ use = "tag", label = "" }]

        [models.scripted]
        use = "mock"
        responses = [{ text = "Hello from the script", usage = { input_tokens = 3, output_tokens = 4 } }]
    """)
    async with Agent.from_config(str(path), "demo") as agent:
        result = await agent.generate("hi")
    assert result.text == "Hello from the script"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (3, 4)


async def test_a_mock_error_table_becomes_an_api_call_error(tmp_path):
    path = write(tmp_path, """
        [agents.demo]
        model = "models.flaky"
        error_processors = ["retry"]
        max_processor_retries = 1

        [models.flaky]
        use = "mock"
        responses = [
          { error = { message = "overloaded", status_code = 529, is_retryable = true } },
          { text = "second try" },
        ]
    """)
    kwargs = agent_kwargs(path, "demo")
    first = kwargs["model"].responses[0].error
    assert isinstance(first, APICallError) and first.status_code == 529
    async with Agent(**kwargs) as agent:
        assert (await agent.generate("hi")).text == "second try"


def test_each_call_builds_fresh_processors_and_models(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        input_processors = ["upper"]
        [models.m]
        use = "mock"
    """)
    one, two = agent_kwargs(path, "a"), agent_kwargs(path, "a")
    assert one["input_processors"][0] is not two["input_processors"][0]
    assert one["model"] is not two["model"]


def test_tools_are_imported_from_module_paths_next_to_the_file(tmp_path):
    (tmp_path / "demo_tools_for_config.py").write_text(
        "from tripwire import tool\n\n"
        "@tool\n"
        "def weather(city: str) -> str:\n"
        "    '''The weather in a city.'''\n"
        "    return 'sunny'\n"
    )
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        tools = ["demo_tools_for_config:weather"]
    """)
    (weather,) = agent_kwargs(path, "a")["tools"]
    assert weather.name == "weather"
    assert str(tmp_path) not in __import__("sys").path


def test_build_processors_takes_a_plain_list():
    built = build_processors(["upper", {"use": "tag", "label": "x"}])
    assert [p.id for p in built] == ["upper", "tag"]


# ------------------------------------------------------------------ errors


def test_an_unknown_processor_name_lists_the_available_ones(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        output_processors = ["tag2"]
    """)
    assert error_of(path) == (
        f"{path}: [agents.a] output_processors[0]: unknown processor 'tag2'; "
        f"available: retry, tag, upper"
    )


def test_a_bad_option_names_file_agent_processor_and_option(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        input_processors = ["upper", { use = "upper", limit = "4000" }]
    """)
    msg = error_of(path)
    assert msg.startswith(f"{path}: [agents.a] input_processors[1]: processor 'upper': ")
    assert "option 'limit' expects int" in msg


def test_an_unknown_option_lists_the_valid_ones(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        output_processors = [{ use = "tag", lable = "x" }]
    """)
    assert "has no option 'lable'; valid options: label (str, required)" in error_of(path)


def test_an_unknown_agent_lists_the_agents(tmp_path):
    path = write(tmp_path, """
        [agents.support]
        model = "openai/x"
        [agents.sales]
        model = "openai/x"
    """)
    assert error_of(path, "suport") == f"{path}: no agent 'suport'; agents: sales, support"


def test_an_unknown_key_names_the_valid_keys(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        input_procesors = ["upper"]
    """)
    msg = error_of(path)
    assert msg.startswith(f"{path}: [agents.a]: unknown key 'input_procesors'; valid keys: model,")
    for key in ("instructions", "input_processors", "max_steps", "default_error_processors", "tools"):
        assert key in msg


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('max_steps = "5"', "key 'max_steps' expects int"),
        ("default_error_processors = 1", "key 'default_error_processors' expects bool"),
        ('input_processors = "upper"', "key 'input_processors' expects list"),
        ("input_processors = [{ limit = 3 }]", 'input_processors[0]: a processor table needs use = "NAME"'),
        ("input_processors = [3]", "key 'input_processors' expects list"),
    ],
)
def test_values_of_the_wrong_type_are_reported_at_load(tmp_path, line, expected):
    path = write(tmp_path, f'[agents.a]\nmodel = "openai/x"\n{line}\n')
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value).startswith(f"{path}: [agents.a]")
    assert expected in str(e.value)


def test_an_agent_needs_a_model(tmp_path):
    path = write(tmp_path, "[agents.a]\ninstructions = 'hi'\n")
    assert "[agents.a] needs a model" in error_of(path)


def test_an_unknown_model_reference_lists_the_defined_models(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "demo"
        [models.demo]
        use = "mock"
    """)
    assert error_of(path) == (
        f"{path}: [agents.a] model: 'demo' is neither a router id \"provider/model\" nor a "
        f"reference \"models.NAME\" to a [models.NAME] table (defined: models.demo)"
    )


def test_an_unknown_model_kind_is_reported(tmp_path):
    path = write(tmp_path, '[models.m]\nuse = "mok"\n')
    with pytest.raises(ConfigurationError, match=r"\[models.m\]: use = 'mok' is not a model kind; valid: mock"):
        load_config(path)


def test_an_unknown_mock_model_option_is_reported(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        [models.m]
        use = "mock"
        respones = []
    """)
    assert "[models.m] has no option 'respones'; valid options: responses" in error_of(path)


def test_a_bad_mock_response_is_reported(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        [models.m]
        use = "mock"
        responses = [{ txt = "hi" }]
    """)
    assert "[models.m]: unknown MockResponse key(s) ['txt']" in error_of(path)


def test_invalid_toml_names_the_file(tmp_path):
    path = write(tmp_path, "[agents.a\nmodel = 1\n")
    with pytest.raises(ConfigurationError, match=f"{path}: invalid TOML"):
        load_config(path)


def test_a_missing_file_is_a_configuration_error(tmp_path):
    with pytest.raises(ConfigurationError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_an_unknown_top_level_key_is_reported(tmp_path):
    path = write(tmp_path, "[agent.a]\nmodel = 'x/y'\n")
    with pytest.raises(ConfigurationError, match=r"unknown top-level key\(s\) agent; valid: \[agents.NAME\], \[models.NAME\]"):
        load_config(path)


def test_a_tool_that_cannot_be_imported_is_reported(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        tools = ["no_such_module_here:weather"]
    """)
    assert "[agents.a] tools: cannot import 'no_such_module_here:weather'" in error_of(path)


def test_a_disabled_processor_in_a_config_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "tag")
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        output_processors = ["tag"]
    """)
    assert "processor 'tag' is disabled by TRIPWIRE_DISABLE_PLUGINS" in error_of(path)


def test_build_processors_rejects_a_string():
    with pytest.raises(ConfigurationError, match="must be a list of names"):
        build_processors("upper")
