"""The ``tripwire`` command line: plugins, models, run, and commands from plugins."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tripwire import Processor, hookimpl
from tripwire.cli import Renderer, main
from tripwire.models import register_provider
from tripwire.testing import MockModel


class Shout(Processor):
    id = "shout"

    @hookimpl
    def process_output_stream(self, part):
        if part.type == "text-delta":
            return part.evolve(payload={**part.payload, "text": part.text.upper()})
        return part


class NoSwearing(Processor):
    id = "no-swearing"

    @hookimpl
    def process_input(self, messages, abort):
        if any("darn" in m.text for m in messages):
            abort("Please keep it polite")
        return messages


class Note(Processor):
    id = "note"

    @hookimpl
    async def process_input(self, messages, writer):
        await writer.custom({"type": "data-note", "data": {"seen": len(messages)}})
        return messages


def register_hello(subparsers):
    parser = subparsers.add_parser("hello", help="say hello (from a plugin)")
    parser.add_argument("--name", default="world")
    parser.set_defaults(func=lambda args: print(f"hello {args.name}"))


def register_async(subparsers):
    async def handler(args):
        print("async done")
        return 3

    subparsers.add_parser("later").set_defaults(func=handler)


def register_raises(subparsers):
    raise RuntimeError("register failed")


@pytest.fixture
def installed(fake_distributions):
    dist = fake_distributions.add("tripwire-demo", "0.2")
    dist.entry_point("shout", Shout).entry_point("no-swearing", NoSwearing)
    dist.entry_point("note", Note)
    fake_distributions.add("tripwire-broken", "9.9").entry_point(
        "broken", ImportError("No module named 'torch'"), value="tripwire_broken:Broken"
    )
    return fake_distributions


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ help


def test_help_names_every_command_with_examples(fake_distributions, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    assert out.startswith("usage: tripwire [-h] COMMAND ...")
    for text in ("plugins", "models", "run", 'tripwire run support "Hi" --config tripwire.toml'):
        assert text in out


def test_no_command_prints_the_help(fake_distributions, capsys):
    code, out, _ = cli(capsys)
    assert code == 0 and "commands:" in out


def test_python_dash_m_tripwire_is_the_same_cli():
    done = subprocess.run(
        [sys.executable, "-m", "tripwire", "run", "--help"], capture_output=True, text=True,
        env={"TRIPWIRE_LOAD_PLUGINS": "", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tripwire run [-h] [--config FILE] [--model ID] AGENT PROMPT")
    assert "exit codes: 0 reply complete, 1 error, 2 stopped by a processor" in done.stdout


# ------------------------------------------------------------------ plugins


def test_plugins_prints_a_table_with_broken_plugins_and_their_errors(installed, capsys):
    code, out, _ = cli(capsys, "plugins")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "DISTRIBUTION", "VERSION", "HOOKS", "(process_*)", "STATUS"]
    assert lines[1].split() == [
        "broken", "tripwire-broken", "9.9", "-", "broken:", "ImportError:", "No", "module",
        "named", "'torch'",
    ]
    assert lines[3].split() == ["note", "tripwire-demo", "0.2", "input", "ok"]
    assert lines[4].split() == ["shout", "tripwire-demo", "0.2", "output_stream", "ok"]


def test_plugins_json(installed, capsys):
    code, out, _ = cli(capsys, "plugins", "--json")
    doc = json.loads(out)
    assert code == 0
    shout = next(p for p in doc["processors"] if p["name"] == "shout")
    assert shout == {
        "name": "shout", "distribution": "tripwire-demo", "version": "0.2",
        "entry_point": "fake_module:Shout", "hooks": ["process_output_stream"],
        "status": "ok", "error": None,
    }
    broken = next(p for p in doc["processors"] if p["name"] == "broken")
    assert broken["status"] == "broken"
    assert broken["error"] == "ImportError: No module named 'torch'"


def test_plugins_shows_what_the_environment_hides(installed, capsys, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "broken")
    code, out, _ = cli(capsys, "plugins")
    assert code == 0
    assert "hidden: broken (disabled by TRIPWIRE_DISABLE_PLUGINS)" in out
    assert not any(line.startswith("broken ") for line in out.splitlines())


def test_plugins_reports_a_bad_environment_variable(installed, capsys, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "shuot")
    code, _, err = cli(capsys, "plugins")
    assert code == 1
    assert err == (
        "tripwire: error: TRIPWIRE_LOAD_PLUGINS names unknown processor(s) shuot; "
        "available: broken, no-swearing, note, shout\n"
    )


def test_plugins_with_nothing_installed(fake_distributions, capsys):
    code, out, _ = cli(capsys, "plugins")
    assert (code, out) == (0, "No processors installed (entry point group tripwire.processors).\n")


# ------------------------------------------------------------------ models


def test_models_lists_providers_and_their_distributions(fake_distributions, capsys):
    fake_distributions.add("tripwire-acme", "1.0").entry_point(
        "acme", lambda model_id: None, group="tripwire.models"
    )
    register_provider("local", lambda model_id: MockModel())
    code, out, _ = cli(capsys, "models")
    assert code == 0
    assert [line.split(None, 1) for line in out.splitlines()] == [
        ["PROVIDER", "DISTRIBUTION"],
        ["acme", "tripwire-acme"],
        ["local", "(registered at run time)"],
    ]
    _, out, _ = cli(capsys, "models", "--json")
    assert json.loads(out)[0] == {"name": "acme", "distribution": "tripwire-acme"}


# ------------------------------------------------------------------ run


@pytest.fixture
def config(tmp_path, installed):
    (tmp_path / "cli_demo_tools.py").write_text(
        "from tripwire import tool\n\n"
        "@tool\n"
        "def weather(city: str) -> str:\n"
        "    '''The weather in a city.'''\n"
        "    return 'sunny in ' + city\n"
    )
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent("""
        [agents.support]
        model = "models.demo"
        input_processors = ["no-swearing", "note"]
        tools = ["cli_demo_tools:weather"]

        [agents.loud]
        model = "models.demo"
        output_processors = ["shout"]

        [agents.failing]
        model = "models.down"

        [models.demo]
        use = "mock"
        responses = [
          { text = "Let me look.", tool_calls = [{ tool_name = "weather", args = { city = "Paris" }, tool_call_id = "c1" }] },
          { text = "It is sunny in Paris." },
        ]

        [models.other]
        use = "mock"
        responses = [{ text = "other model here" }]

        [models.down]
        use = "mock"
        responses = [{ error = { message = "invalid api key", status_code = 401 } }]
    """), encoding="utf-8")
    return path


def test_run_streams_text_tool_calls_and_data_chunks(config, capsys):
    code, out, err = cli(capsys, "run", "support", "Weather in Paris?", "--config", str(config))
    assert (code, err) == (0, "")
    assert out == (
        '[data-note] {"data": {"seen": 1}}\n'
        "Let me look.\n"
        '[tool-call] weather {"city": "Paris"}\n'
        '[tool-result] weather: "sunny in Paris"\n'
        "It is sunny in Paris.\n"
    )


def test_run_shows_a_tripwire_on_stderr_and_exits_2(config, capsys):
    code, out, err = cli(capsys, "run", "support", "darn it", "--config", str(config))
    assert code == 2
    assert err == "[tripwire] no-swearing: Please keep it polite\n"
    assert "Let me look" not in out


def test_run_applies_the_configured_output_processors(config, capsys):
    code, out, _ = cli(capsys, "run", "loud", "hi", "-c", str(config), "--model", "models.other")
    assert (code, out) == (0, "OTHER MODEL HERE\n")


def test_run_model_flag_rejects_an_unknown_reference(config, capsys):
    code, _, err = cli(capsys, "run", "loud", "hi", "-c", str(config), "--model", "other")
    assert code == 1
    assert err.startswith("tripwire: error: --model: 'other' is neither a router id")


def test_run_reports_an_unknown_agent(config, capsys):
    code, _, err = cli(capsys, "run", "suport", "hi", "--config", str(config))
    assert code == 1
    assert err == f"tripwire: error: {config}: no agent 'suport'; agents: failing, loud, support\n"


def test_run_reports_a_model_error_and_exits_1(config, capsys):
    code, _, err = cli(capsys, "run", "failing", "hi", "--config", str(config))
    assert code == 1
    assert err == "[error] APICallError: invalid api key\n"


def test_run_reads_tripwire_toml_from_the_current_directory_by_default(config, capsys, monkeypatch):
    monkeypatch.chdir(config.parent)
    code, out, _ = cli(capsys, "run", "loud", "hi", "--model", "models.other")
    assert (code, out) == (0, "OTHER MODEL HERE\n")


def test_renderer_dims_data_chunks_when_colored():
    import io

    from tripwire import Chunk

    out, err = io.StringIO(), io.StringIO()
    render = Renderer(out, err, color=True)
    render(Chunk("text-delta", {"id": "t", "text": "hi"}))
    render(Chunk("data-x", {"data": 1}))
    render.end()
    assert out.getvalue() == 'hi\n\x1b[2m[data-x] {"data": 1}\x1b[0m\n'


def test_renderer_starts_a_new_line_when_reasoning_turns_into_text():
    import io

    from tripwire import Chunk

    out = io.StringIO()
    render = Renderer(out, io.StringIO(), color=False)
    for kind, text in [("reasoning-delta", "think "), ("reasoning-delta", "hard"),
                       ("text-delta", "Answer"), ("text-delta", "!")]:
        render(Chunk(kind, {"id": "x", "text": text}))
    render.end()
    assert out.getvalue() == "think hard\nAnswer!\n"


# ------------------------------------------------------------------ commands from plugins


def test_a_plugin_adds_a_subcommand(fake_distributions, capsys):
    fake_distributions.add("tripwire-hello", "1.0").entry_point(
        "hello", register_hello, group="tripwire.commands"
    )
    code, out, _ = cli(capsys, "hello", "--name", "Ada")
    assert (code, out) == (0, "hello Ada\n")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "say hello (from a plugin)" in capsys.readouterr().out


def test_a_plugin_subcommand_may_be_async_and_return_an_exit_code(fake_distributions, capsys):
    fake_distributions.add("tripwire-later").entry_point(
        "later", register_async, group="tripwire.commands"
    )
    code, out, _ = cli(capsys, "later")
    assert (code, out) == (3, "async done\n")


@pytest.mark.parametrize(
    ("name", "target", "error"),
    [
        ("bye", ImportError("No module named 'bye'"), "ImportError: No module named 'bye'"),
        ("oops", register_raises, "RuntimeError: register failed"),
    ],
)
def test_a_broken_command_plugin_does_not_brick_the_cli(fake_distributions, capsys, name, target, error):
    fake_distributions.add("tripwire-bad", "0.1").entry_point(
        name, target, group="tripwire.commands", value=f"tripwire_bad:{name}"
    )
    fake_distributions.add("tripwire-demo").entry_point("shout", Shout)
    code, out, _ = cli(capsys, "plugins")
    assert code == 0 and "shout" in out
    code, _, err = cli(capsys, name, "--anything")
    assert code == 1
    assert err == (
        f"tripwire: error: command {name!r} from tripwire-bad 0.1 (tripwire_bad:{name}) "
        f"is broken: {error}\n"
    )


def test_plugins_lists_command_plugins_and_their_status(fake_distributions, capsys):
    fake_distributions.add("tripwire-hello", "1.0").entry_point(
        "hello", register_hello, group="tripwire.commands"
    )
    fake_distributions.add("tripwire-bad", "0.1").entry_point(
        "bye", ImportError("gone"), group="tripwire.commands"
    )
    code, out, _ = cli(capsys, "plugins")
    assert code == 0
    tail = out.split("Commands from plugins:\n")[1].splitlines()
    assert [line.split() for line in tail] == [
        ["COMMAND", "DISTRIBUTION", "VERSION", "STATUS"],
        ["bye", "tripwire-bad", "0.1", "broken:", "ImportError:", "gone"],
        ["hello", "tripwire-hello", "1.0", "ok"],
    ]


def test_a_plugin_cannot_replace_a_built_in_command(fake_distributions, capsys):
    fake_distributions.add("tripwire-evil").entry_point(
        "plugins", register_hello, group="tripwire.commands"
    )
    code, out, _ = cli(capsys, "plugins", "--json")
    assert code == 0 and json.loads(out)["processors"] == []
