"""Agents from TOML: [agents.NAME] and [models.NAME] tables, and the errors a typo gets."""

from __future__ import annotations

import textwrap

import pytest

from tests.support.fake_llm_server import Reply
from tripwire import Agent, APICallError, ConfigurationError, Processor, ProcessorError, hookimpl
from tripwire.cli import configured_agent
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


class Broken(Processor):
    """A guard whose check always fails (a judge that is down)."""

    id = "broken"

    @hookimpl
    def process_input(self, messages):
        raise RuntimeError("the judge is down")


class PlainBroken:
    """The same guard, not a ``Processor`` subclass: no ``fail_open`` attribute."""

    id = "plain-broken"

    @hookimpl
    def process_input(self, messages):
        raise RuntimeError("the judge is down")


class Slotted:
    """A processor object that cannot take a ``fail_open`` attribute."""

    __slots__ = ()
    id = "slotted"

    @hookimpl
    def process_input(self, messages):
        return messages


@pytest.fixture(autouse=True)
def plugins(fake_distributions):
    dist = fake_distributions.add("tripwire-test-plugins", "1.0")
    dist.entry_point("upper", Upper).entry_point("tag", Tag).entry_point("retry", Retry)
    dist.entry_point("broken", Broken).entry_point("plain-broken", PlainBroken)
    dist.entry_point("slotted", Slotted)
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


# ------------------------------------------------------------------ fail_open


def fail_open_config(tmp_path, processors: str):
    return write(tmp_path, f"""
        [agents.a]
        model = "models.m"
        input_processors = {processors}

        [models.m]
        use = "mock"
        responses = [{{ text = "answered" }}]
    """)


@pytest.mark.parametrize("use", ["broken", "plain-broken"])
async def test_fail_open_in_a_processor_table_lets_the_run_through_its_failure(tmp_path, use):
    path = fail_open_config(tmp_path, f'[{{ use = "{use}", fail_open = true }}]')
    async with Agent.from_config(str(path), "a", audit=True) as agent:
        result = await agent.generate("hi")
    assert result.text == "answered"
    assert [(e.processor_id, e.outcome) for e in result.audit if e.hook == "process_input"] == [
        (use, "fail-open")]


async def test_fail_open_false_keeps_a_failure_fatal(tmp_path):
    path = fail_open_config(tmp_path, '[{ use = "broken", fail_open = false }]')
    async with Agent.from_config(str(path), "a") as agent:
        with pytest.raises(ProcessorError, match="broken"):
            await agent.generate("hi")


def test_fail_open_is_set_before_a_mode_wraps_the_processor(tmp_path):
    path = fail_open_config(tmp_path, '[{ use = "broken", fail_open = true, mode = "parallel" }]')
    (wrapped,) = agent_kwargs(path, "a")["input_processors"]
    assert (wrapped.mode, wrapped.processor.fail_open) == ("parallel", True)


def test_fail_open_that_is_not_a_bool_names_file_agent_and_processor(tmp_path):
    path = fail_open_config(tmp_path, '["upper", { use = "broken", fail_open = "yes" }]')
    assert error_of(path) == (
        f"{path}: [agents.a] input_processors[1]: fail_open = 'yes' must be true or false "
        f"(true: a failure of 'broken' lets its input through instead of ending the run)"
    )


def test_fail_open_on_an_object_that_cannot_hold_it_is_reported(tmp_path):
    path = fail_open_config(tmp_path, '[{ use = "slotted", fail_open = true }]')
    assert error_of(path).startswith(
        f"{path}: [agents.a] input_processors[0]: processor 'slotted': cannot set fail_open "
        f"on a Slotted object"
    )


# ------------------------------------------------------------------ errors


def test_an_unknown_processor_name_lists_the_available_ones(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        output_processors = ["tag2"]
    """)
    assert error_of(path) == (
        f"{path}: [agents.a] output_processors[0]: unknown processor 'tag2'; "
        f"available: broken, plain-broken, retry, slotted, tag, upper"
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
    assert "has no option 'lable' (did you mean 'label'?); valid options: label" in error_of(path)


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
    assert msg.startswith(f"{path}: [agents.a]: unknown key 'input_procesors' (did you "
                          f"mean 'input_processors'?); valid keys: model,")
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


def test_an_unknown_mock_model_key_is_reported_at_load(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        [models.m]
        use = "mock"
        respones = []
    """)
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == (
        f"{path}: [models.m]: unknown key 'respones' (did you mean 'responses'?); valid keys: use, responses, model_id, "
        f"chunk_delay, per_run, settings"
    )


def test_a_bad_mock_response_is_reported(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        [models.m]
        use = "mock"
        responses = [{ txt = "hi" }]
    """)
    assert "[models.m]: unknown MockResponse key(s) ['txt']" in error_of(path)


def test_invalid_toml_names_the_file_and_the_line(tmp_path):
    path = write(tmp_path, "[agents.a]\nmodel = 'x/y'\n\n[agents.b\nmodel = 1\n")
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == (
        f"{path}: invalid TOML: Expected ']' at the end of a table declaration "
        f"(at line 4, column 10)"
    )


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


# ------------------------------------------------------------------ reading the file


def test_a_directory_is_a_one_line_error(tmp_path):
    with pytest.raises(ConfigurationError) as e:
        load_config(tmp_path)
    assert str(e.value) == f"{tmp_path}: is a directory, not a configuration file"


def test_a_file_that_is_not_utf8_is_a_one_line_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[agents.a]\nmodel = "openai/x"\ninstructions = "café"\n'.encode("latin-1"))
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == (
        f"{path}: not UTF-8 text (byte 0xe9 at line 3, column 20); TOML files must be saved as UTF-8"
    )


def test_a_file_that_cannot_be_read_says_why(tmp_path, monkeypatch):
    path = write(tmp_path, "[agents.a]\n")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(path), "read_text", denied)
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == f"{path}: cannot read the configuration file: Permission denied"


def test_an_agent_that_is_not_a_table_is_named(tmp_path):
    path = write(tmp_path, "[agents]\nsupport = 'openai/x'\n")
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == (
        f"{path}: agents.support must be a table [agents.support], got "
        f"agents.support = 'openai/x'"
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("max_steps = 0", "[agents.a]: max_steps must be an integer >= 1, got 0"),
        ("max_processor_retries = -1",
         "[agents.a]: max_processor_retries must be an integer >= 0, got -1"),
    ],
)
def test_out_of_range_numbers_are_reported_at_load(tmp_path, line, expected):
    path = write(tmp_path, f'[agents.a]\nmodel = "openai/x"\n{line}\n')
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value) == f"{path}: {expected}"


def test_a_tool_module_that_raises_on_import_is_reported(tmp_path):
    (tmp_path / "broken_tools_for_config.py").write_text("raise RuntimeError('no db')\n")
    path = write(tmp_path, """
        [agents.a]
        model = "openai/x"
        tools = ["broken_tools_for_config:lookup"]
    """)
    assert error_of(path) == (
        f"{path}: [agents.a] tools: cannot import 'broken_tools_for_config:lookup': "
        f"RuntimeError: no db"
    )


def test_an_agent_constructor_error_names_the_file_and_the_table(tmp_path):
    path = write(tmp_path, '[agents.a]\nmodel = "nope/x"\n')
    with pytest.raises(ConfigurationError) as e:
        Agent.from_config(path, "a")
    assert str(e.value).startswith(f"{path}: [agents.a]: unknown model provider 'nope'")


# ------------------------------------------------------------------ HTTP model tables

KINDS = ["openai-compatible", "anthropic"]


def http_table(kind: str, extra: str = "") -> str:
    return textwrap.dedent(f"""
        [agents.a]
        model = "models.local"

        [models.local]
        use = "{kind}"
        base_url = "http://127.0.0.1:9/v1"
        model = "m1"
    """) + textwrap.dedent(extra)


def load_error(path) -> str:
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    return str(e.value)


@pytest.mark.parametrize("kind", KINDS)
async def test_an_http_models_table_builds_the_provider_with_its_options(
    tmp_path, monkeypatch, kind
):
    from tripwire.models import Anthropic, OpenAICompatible, Timeout

    monkeypatch.setenv("MY_KEY", "sk-from-env")
    path = write(tmp_path, http_table(kind, """
        api_key_env = "MY_KEY"
        timeout = { connect = 2, read = 30 }
        max_retries = 4
        headers = { "X-Team" = "qa" }
        settings = { temperature = 0, max_tokens = 100 }
    """))
    kwargs = agent_kwargs(path, "a")
    model = kwargs["model"]
    assert type(model) is {"openai-compatible": OpenAICompatible, "anthropic": Anthropic}[kind]
    assert (model.model_id, model.base_url, model.max_retries) == ("m1", "http://127.0.0.1:9/v1", 4)
    assert model.timeout == Timeout(connect=2.0, read=30.0)
    assert kwargs["model_settings"] == {"temperature": 0, "max_tokens": 100}
    await model.aclose()


def test_a_plain_number_timeout_is_seconds(tmp_path):
    from tripwire.models import Timeout

    path = write(tmp_path, http_table("openai-compatible", "timeout = 45\n"))
    assert agent_kwargs(path, "a")["model"].timeout == Timeout.coerce(45.0)


@pytest.mark.parametrize("kind", KINDS)
def test_an_api_key_in_the_file_is_rejected_without_echoing_it(tmp_path, kind):
    path = write(tmp_path, http_table(kind, 'api_key = "sk-live-secret"\n'))
    message = load_error(path)
    assert message == (
        f"{path}: [models.local]: api_key does not belong in a configuration file; put the "
        f"key in an environment variable and name it: api_key_env = \"MY_API_KEY\""
    )
    assert "sk-live-secret" not in message


def test_api_key_env_must_name_a_variable_not_hold_the_key(tmp_path):
    path = write(tmp_path, http_table("openai-compatible", 'api_key_env = "sk-live-1234"\n'))
    message = load_error(path)
    assert message == (
        f"{path}: [models.local] api_key_env: expects the name of an environment variable "
        f"such as \"MY_API_KEY\" (not the key itself)"
    )


@pytest.mark.parametrize(
    ("kind", "valid"),
    [
        ("openai-compatible",
         "use, base_url, api_key_env, model, max_retries, timeout, headers, provider, "
         "max_tokens_param, retry_initial_delay, retry_max_delay, settings"),
        ("anthropic",
         "use, model, api_key_env, base_url, max_retries, timeout, headers, max_tokens, "
         "retry_initial_delay, retry_max_delay, settings"),
    ],
)
def test_an_unknown_key_names_file_table_and_valid_keys(tmp_path, kind, valid):
    path = write(tmp_path, http_table(kind, "temperature = 0\n"))
    message = load_error(path)
    assert message.startswith(f"{path}: [models.local]: unknown key 'temperature'; valid keys: ")
    for key in valid.split(", "):
        assert key in message.split("valid keys: ")[1].split(", "), key


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ('max_retries = "3"', "[models.local]: key 'max_retries' expects int"),
        ("headers = { X-Team = 1 }", "[models.local]: key 'headers' expects dict[str, str]"),
        ('settings = "hot"', "[models.local]: key 'settings' expects dict[str, Any]"),
        ('timeout = "soon"', "[models.local]: key 'timeout' expects a number of seconds > 0 "
                             "or a table { connect, read, total }, got 'soon'"),
        ("timeout = 0", "[models.local]: key 'timeout' expects a number of seconds > 0"),
        ("timeout = { conect = 1 }",
         "[models.local] timeout: unknown key 'conect' (did you mean 'connect'?); valid keys: "
         "connect, read, total"),
        ("timeout = { read = -1 }",
         "[models.local] timeout.read: expects a number of seconds > 0, got -1"),
    ],
)
def test_wrong_values_in_a_models_table_are_reported_at_load(tmp_path, extra, expected):
    path = write(tmp_path, http_table("openai-compatible", extra + "\n"))
    message = load_error(path)
    assert message.startswith(f"{path}: {expected}"), message


def test_an_openai_compatible_table_needs_a_base_url_and_a_model(tmp_path):
    path = write(tmp_path, '[models.local]\nuse = "openai-compatible"\n')
    assert load_error(path).startswith(
        f"{path}: [models.local]: needs key 'base_url', 'model'; valid keys: use, base_url,"
    )


def test_a_models_table_needs_use(tmp_path):
    path = write(tmp_path, '[models.local]\nmodel = "m1"\n')
    assert load_error(path) == (
        f"{path}: [models.local]: needs use = \"KIND\"; kinds: mock, openai-compatible, "
        f"openai-responses, anthropic (router ids go straight into an agent's model key)"
    )


def test_a_missing_key_variable_is_reported_when_the_agent_is_built(tmp_path, monkeypatch):
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    path = write(tmp_path, http_table("openai-compatible", 'api_key_env = "NOT_SET_ANYWHERE"\n'))
    load_config(path)  # the shape is fine
    assert error_of(path) == (
        f"{path}: [models.local] api_key_env: the environment variable NOT_SET_ANYWHERE is "
        f"not set; export NOT_SET_ANYWHERE=... (the key itself never goes in the file)"
    )


def test_anthropic_without_base_url_reads_anthropic_api_key(tmp_path, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    path = write(tmp_path, '[agents.a]\nmodel = "models.c"\n'
                           '[models.c]\nuse = "anthropic"\nmodel = "claude-x"\n')
    assert "api_key_env: the environment variable ANTHROPIC_API_KEY is not set" in error_of(path)


def test_a_bad_value_the_provider_rejects_names_the_table(tmp_path):
    path = write(tmp_path, http_table("openai-compatible").replace(
        "http://127.0.0.1:9/v1", "localhost:8080"))
    message = error_of(path)
    assert message.startswith(f"{path}: [models.local]: ")
    assert "base_url" in message and "localhost:8080" in message


def test_model_table_settings_come_before_the_agents_model_settings(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        model_settings = { temperature = 1, seed = 3 }
        [agents.b]
        model = "models.m"
        [models.m]
        use = "mock"
        settings = { temperature = 0, top_p = 0.5 }
    """)
    assert agent_kwargs(path, "a")["model_settings"] == {"temperature": 1, "top_p": 0.5, "seed": 3}
    assert agent_kwargs(path, "b")["model_settings"] == {"temperature": 0, "top_p": 0.5}


def test_config_agent_adds_instructions_and_settings(tmp_path):
    path = write(tmp_path, """
        [agents.a]
        model = "models.m"
        instructions = "Be brief."
        [models.m]
        use = "mock"
        settings = { temperature = 0 }
    """)
    agent = configured_agent(str(path), "a", instructions=["In French."],
                             model_settings={"temperature": 0.3})
    assert agent.instructions == ["Be brief.", "In French."]
    assert agent.model_settings == {"temperature": 0.3}


def test_docs_configuration_md_documents_every_key_of_every_model_kind():
    from pathlib import Path

    from tripwire.config import MODEL_KINDS

    text = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    section = text.split("## `[models.NAME]`")[1].split("## Errors")[0]
    for name, kind in MODEL_KINDS.items():
        assert f'`"{name}"`' in section, name
        for key in kind.keys():
            assert f"`{key}`" in section, (name, key)


async def test_an_agent_from_config_owns_and_closes_its_table_built_http_model(tmp_path, llm_server):
    path = tmp_path / "tripwire.toml"
    path.write_text(f"""
[models.local]
use = "openai-compatible"
base_url = "{llm_server.openai_base_url}"
model = "m"

[agents.support]
model = "models.local"
""")
    llm_server.script(Reply(text="hello"))
    async with Agent.from_config(str(path), "support") as agent:
        assert (await agent.generate("hi")).text == "hello"
        assert not agent.model.closed
    assert agent.model.closed


def test_from_config_constructor_errors_name_the_file_and_table(tmp_path):
    path = tmp_path / "tripwire.toml"
    path.write_text('[agents.support]\nmodel = "openai/gpt-5-mini"\nmax_steps = 3\n')
    with pytest.raises(ConfigurationError,
                       match=r"agents\.support\]: Agent has no option 'bogus'; valid options: id") as info:
        Agent.from_config(str(path), "support", bogus=1)
    assert str(path) in str(info.value)



# ---------------------------------------------------------------- overrides of from_config

_BROKEN = """
[models.keyed]
use = "openai-compatible"
base_url = "http://127.0.0.1:9/v1"
model = "m"
api_key_env = "TRIPWIRE_TEST_NO_SUCH_KEY"
settings = { temperature = 0.5 }

[models.other]
use = "mock"
responses = ["from the other table"]

[agents.support]
model = "models.keyed"
input_processors = ["no-such-processor"]
output_processors = [{ use = "no-such-processor-either" }]
tools = ["no_such_module_here:tool"]
memory = { last = 5 }
"""


@pytest.mark.parametrize("missing", ["model", "input_processors", "output_processors", "tools",
                                     "memory"])
def test_each_configured_argument_is_built_unless_overridden(tmp_path, monkeypatch, missing):
    # the file is broken in five places: each override mends only its own
    monkeypatch.delenv("TRIPWIRE_TEST_NO_SUCH_KEY", raising=False)
    path = tmp_path / "tripwire.toml"
    path.write_text(_BROKEN)
    overrides = {"model": MockModel(["hi"]), "input_processors": [], "output_processors": [],
                 "tools": [], "memory": None}
    del overrides[missing]
    with pytest.raises(ConfigurationError, match=rf"\[agents\.support\] {missing}|"
                                                 rf"\[models\.keyed\]"):
        Agent.from_config(str(path), "support", **overrides)


async def test_overrides_replace_before_anything_is_built(tmp_path, monkeypatch):
    monkeypatch.delenv("TRIPWIRE_TEST_NO_SUCH_KEY", raising=False)
    path = tmp_path / "tripwire.toml"
    path.write_text(_BROKEN)
    model = MockModel(["hi"])
    agent = Agent.from_config(str(path), "support", model=model, input_processors=[],
                              output_processors=[], tools=[], memory=None)
    assert agent.model is model
    assert agent.model_settings == {}  # the replaced table's settings are not the model's
    assert (await agent.generate("hello")).text == "hi"


async def test_a_string_model_override_is_resolved_in_the_file(tmp_path, monkeypatch):
    monkeypatch.delenv("TRIPWIRE_TEST_NO_SUCH_KEY", raising=False)
    path = tmp_path / "tripwire.toml"
    path.write_text(_BROKEN)
    async with Agent.from_config(str(path), "support", model="models.other",
                                 input_processors=[], output_processors=[], tools=[],
                                 memory=None) as agent:
        assert (await agent.generate("hello")).text == "from the other table"


async def test_an_overriding_model_object_stays_the_callers(tmp_path):
    class Closable(MockModel):
        closes = 0

        async def aclose(self):
            self.closes += 1

    path = tmp_path / "tripwire.toml"
    path.write_text('[agents.a]\nmodel = "openai/gpt-5-mini"\n')
    model = Closable(["hi"])
    async with Agent.from_config(str(path), "a", model=model) as agent:
        assert (await agent.generate("q")).text == "hi"
    assert model.closes == 0


# ------------------------------------------------------------------ [serve], whoever loads the file

_SERVED = """
    [agents.a]
    model = "models.m"
    [models.m]
    use = "mock"
    responses = [{ text = "hi" }]
"""


@pytest.mark.parametrize(
    ("serve", "said"),
    [
        ("[serve]\nmax_concurent = 3\n",
         "[serve]: unknown key 'max_concurent' (did you mean 'max_concurrent'?); valid keys: keys,"),
        ("[serve]\nmax_concurrent = '3'\n", "[serve]: key 'max_concurrent' expects int"),
        ("[serve]\nmax_concurrent = 0\n", "[serve] max_concurrent: expects a number > 0"),
        ("[serve]\nmetrics_key = ' k'\n", "[serve] metrics_key: expects the key"),
        ("[serve.keys.team]\nkey_env = 'TEAM_KEY'\ntenent = 'acme'\n",
         "[serve.keys.team]: unknown key 'tenent' (did you mean 'tenant'?)"),
        ("[serve.keys.team]\ntenant = 'acme'\n",
         "[serve.keys.team]: needs exactly one of key_env"),
        ("[serve.keys.team]\nkey_env = 'T'\noutput_processors = [{ strategy = 'redact' }]\n",
         "[serve.keys.team] output_processors[0]: a processor table needs use"),
    ],
    ids=["misspelt key", "type", "limit", "metrics key", "key table key", "key source",
         "key processors"],
)
def test_the_serve_table_is_checked_whenever_the_file_is_loaded(tmp_path, cli, serve, said):
    """``tripwire run`` and ``tripwire agents`` read the same file ``tripwire serve``
    does: a [serve] table that serve would refuse is refused by them too."""
    path = write(tmp_path, _SERVED + serve)
    with pytest.raises(ConfigurationError) as e:
        load_config(path)
    assert str(e.value).startswith(f"{path}: ")
    assert said in str(e.value)
    for argv in (("run", "a", "Hi", "-c", str(path)), ("agents", "-c", str(path))):
        code, out, err = cli(*argv)
        assert (code, out) == (1, "")
        assert said in err


def test_a_serve_table_whose_key_variable_is_unset_still_loads(tmp_path, cli, monkeypatch):
    """What the environment holds is the gateway's business, when it starts: a file
    naming a variable this shell lacks runs its agents."""
    monkeypatch.delenv("TEAM_KEY", raising=False)
    monkeypatch.delenv("METRICS_KEY", raising=False)
    path = write(tmp_path, _SERVED + "[serve]\nmetrics_key_env = 'METRICS_KEY'\n"
                                     "[serve.keys.team]\nkey_env = 'TEAM_KEY'\n")
    assert load_config(path).serve["keys"]["team"] == {"key_env": "TEAM_KEY"}
    assert cli("run", "a", "Hi", "-c", str(path))[:2] == (0, "hi\n")
