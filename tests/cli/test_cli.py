"""The ``tripwire`` command line: plugins, models, run, and commands from plugins."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Literal

import pytest

from tripwire import Chunk, Processor, hookimpl
from tripwire.cli import Renderer, build_parser, main
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


class Budget(Processor):
    id = "budget"

    def __init__(
        self, limit: int, mode: Literal["cut", "stop"] = "cut", words: list[str] | None = None
    ):
        self.limit, self.mode, self.words = limit, mode, words

    @hookimpl
    def process_input(self, messages):
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


# ------------------------------------------------------------------ help


def test_help_names_every_command_with_examples(fake_distributions, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    assert out.startswith("usage: tripwire [-h] [--version] [--verbose] [--config FILE] "
                          "COMMAND ...")
    for text in ("plugins", "models", "agents", "run",
                 'tripwire run support "Hi" --config tripwire.toml'):
        assert text in out


def test_no_command_prints_the_help(fake_distributions, cli):
    code, out, _ = cli()
    assert code == 0 and "commands:" in out


def test_python_dash_m_tripwire_is_the_same_cli():
    done = subprocess.run(
        [sys.executable, "-m", "tripwire", "run", "--help"], capture_output=True, text=True,
        env={"TRIPWIRE_LOAD_PLUGINS": "", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    usage = " ".join(done.stdout.split("\n\n")[0].split())
    assert usage == (
        "usage: tripwire run [-h] [--config FILE] [--model ID] [--system TEXT] "
        "[--option KEY VALUE] [--timeout SECONDS] [--json] [--explain] [--thread ID] "
        "[--resource ID] [--verbose] AGENT PROMPT"
    )
    assert "exit codes: 0 reply complete, 1 error, 2 stopped by a processor" in done.stdout


# ------------------------------------------------------------------ plugins


def test_plugins_prints_a_table_with_broken_plugins_and_their_errors(installed, cli):
    code, out, _ = cli("plugins")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "DISTRIBUTION", "VERSION", "HOOKS", "(process_*)", "STATUS"]
    assert lines[1].split() == [
        "broken", "tripwire-broken", "9.9", "-", "broken:", "ImportError:", "No", "module",
        "named", "'torch'",
    ]
    assert lines[3].split() == ["note", "tripwire-demo", "0.2", "input", "ok"]
    assert lines[4].split() == ["shout", "tripwire-demo", "0.2", "output_stream", "ok"]


def test_plugins_json(installed, cli):
    code, out, _ = cli("plugins", "--json")
    doc = json.loads(out)
    assert code == 0
    shout = next(p for p in doc["processors"] if p["name"] == "shout")
    assert shout == {
        "name": "shout", "distribution": "tripwire-demo", "version": "0.2",
        "entry_point": "fake_module:Shout", "hooks": ["process_output_stream"],
        "status": "ok", "error": None, "options": [],
    }
    broken = next(p for p in doc["processors"] if p["name"] == "broken")
    assert broken["status"] == "broken"
    assert broken["error"] == "ImportError: No module named 'torch'"
    assert broken["options"] is None  # unknown: the class could not be imported


def test_plugins_shows_each_processors_options_with_types_and_defaults(installed, cli):
    installed.add("tripwire-budget", "1.0").entry_point("budget", Budget)
    code, out, _ = cli("plugins")
    assert code == 0
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("budget "))
    assert lines[row + 1] == (
        "  options: limit (int, required), mode (Literal['cut', 'stop'], default 'cut'), "
        "words (list[str] | None, default None)"
    )
    # processors without options, and broken ones, get no options line
    assert not lines[row + 2].startswith("  options:")
    assert lines[1].startswith("broken ") and not lines[2].startswith("  options:")


def test_plugins_json_includes_the_options(installed, cli):
    installed.add("tripwire-budget", "1.0").entry_point("budget", Budget)
    _, out, _ = cli("plugins", "--json")
    budget = next(p for p in json.loads(out)["processors"] if p["name"] == "budget")
    assert budget["options"] == [
        {"name": "limit", "type": "int", "required": True, "default": None},
        {"name": "mode", "type": "Literal['cut', 'stop']", "required": False, "default": "cut"},
        {"name": "words", "type": "list[str] | None", "required": False, "default": None},
    ]


def test_plugins_shows_what_the_environment_hides(installed, cli, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "broken")
    code, out, _ = cli("plugins")
    assert code == 0
    assert "hidden: broken (disabled by TRIPWIRE_DISABLE_PLUGINS)" in out
    assert not any(line.startswith("broken ") for line in out.splitlines())


def test_plugins_reports_a_bad_environment_variable(installed, cli, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "shuot")
    code, _, err = cli("plugins")
    assert code == 1
    assert err == (
        "tripwire: error: TRIPWIRE_LOAD_PLUGINS names unknown processor(s) shuot; "
        "available: broken, no-swearing, note, shout\n"
    )


def test_plugins_with_nothing_installed(fake_distributions, cli):
    code, out, _ = cli("plugins")
    assert (code, out) == (0, "No processors installed (entry point group tripwire.processors).\n")


# ------------------------------------------------------------------ models


def test_models_lists_providers_and_their_distributions(fake_distributions, cli):
    fake_distributions.add("tripwire-acme", "1.0").entry_point(
        "acme", lambda model_id: None, group="tripwire.models"
    )
    register_provider("local", lambda model_id: MockModel())
    code, out, _ = cli("models")
    assert code == 0
    assert [line.split(None, 1) for line in out.splitlines()] == [
        ["PROVIDER", "DISTRIBUTION"],
        ["acme", "tripwire-acme"],
        ["local", "(registered at run time)"],
    ]
    _, out, _ = cli("models", "--json")
    assert json.loads(out)[0] == {"name": "acme", "distribution": "tripwire-acme"}


# ------------------------------------------------------------------ agents


def test_agents_lists_each_agent_with_its_model_and_processors(config, cli):
    code, out, _ = cli("agents", "--config", str(config))
    assert code == 0
    assert [line.split("  ") for line in out.splitlines()] == [
        line.split("  ") for line in [
            "AGENT    MODEL        INPUT              OUTPUT  ERROR",
            "support  models.demo  no-swearing, note  -       -",
            "loud     models.demo  -                  shout   -",
            "failing  models.down  -                  -       -",
        ]
    ]


def test_agents_json(config, cli):
    code, out, _ = cli("agents", "-c", str(config), "--json")
    assert code == 0
    assert json.loads(out)[0] == {
        "name": "support", "model": "models.demo", "description": None,
        "input_processors": ["no-swearing", "note"], "output_processors": [],
        "error_processors": [],
    }


def test_agents_lists_processors_that_are_not_installed(tmp_path, fake_distributions, cli):
    path = tmp_path / "t.toml"
    path.write_text(
        '[agents.a]\nmodel = "openai/x"\n'
        'output_processors = [{ use = "pii-detector", strategy = "redact" }]\n'
        'error_processors = ["retry-later"]\n'
    )
    code, out, _ = cli("agents", "-c", str(path))
    assert code == 0
    assert out.splitlines()[1].split() == ["a", "openai/x", "-", "pii-detector", "retry-later"]


def test_agents_with_no_agents_says_so(tmp_path, fake_distributions, cli):
    path = tmp_path / "t.toml"
    path.write_text("[models.m]\nuse = 'mock'\n")
    code, out, _ = cli("agents", "-c", str(path))
    assert (code, out) == (0, f"No agents in {path} (add an [agents.NAME] table).\n")


def test_agents_reports_a_bad_file_in_one_line(tmp_path, fake_distributions, cli):
    code, out, err = cli("agents", "-c", str(tmp_path / "missing.toml"))
    assert (code, out) == (1, "")
    assert err == f"tripwire: error: {tmp_path / 'missing.toml'}: no such configuration file\n"


# ------------------------------------------------------------------ version


def test_version_prints_the_installed_distributions_version(fake_distributions, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"tripwire {importlib.metadata.version('tripwire')}\n"


def test_version_from_the_installed_command():
    done = subprocess.run(
        [sys.executable, "-m", "tripwire", "--version"], capture_output=True, text=True,
        env={"TRIPWIRE_LOAD_PLUGINS": "", "PATH": ""},
    )
    assert (done.returncode, done.stdout) == (0, f"tripwire {importlib.metadata.version('tripwire')}\n")


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


def test_run_streams_text_tool_calls_and_data_chunks(config, cli):
    code, out, err = cli("run", "support", "Weather in Paris?", "--config", str(config))
    assert (code, err) == (0, "")
    assert out == (
        '[data-note] {"data": {"seen": 1}}\n'
        "Let me look.\n"
        '[tool-call] weather {"city": "Paris"}\n'
        '[tool-result] weather: "sunny in Paris"\n'
        "It is sunny in Paris.\n"
    )


def test_run_shows_a_tripwire_on_stderr_and_exits_2(config, cli):
    code, out, err = cli("run", "support", "darn it", "--config", str(config))
    assert code == 2
    assert err == "[tripwire] no-swearing: Please keep it polite\n"
    assert "Let me look" not in out


def test_run_applies_the_configured_output_processors(config, cli):
    code, out, _ = cli("run", "loud", "hi", "-c", str(config), "--model", "models.other")
    assert (code, out) == (0, "OTHER MODEL HERE\n")


def test_run_model_flag_rejects_an_unknown_reference(config, cli):
    code, _, err = cli("run", "loud", "hi", "-c", str(config), "--model", "other")
    assert code == 1
    assert err.startswith("tripwire: error: --model: 'other' is neither a router id")


def test_run_reports_an_unknown_agent(config, cli):
    code, _, err = cli("run", "suport", "hi", "--config", str(config))
    assert code == 1
    assert err == f"tripwire: error: {config}: no agent 'suport'; agents: failing, loud, support\n"


def test_run_reports_a_model_error_and_exits_1(config, cli):
    code, _, err = cli("run", "failing", "hi", "--config", str(config))
    assert code == 1
    assert err == "[error] APICallError: invalid api key\n"


def test_run_reads_tripwire_toml_from_the_current_directory_by_default(config, cli, monkeypatch):
    monkeypatch.chdir(config.parent)
    code, out, _ = cli("run", "loud", "hi", "--model", "models.other")
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


@pytest.mark.parametrize(
    ("chunk", "out", "err"),
    [
        (Chunk("tool-error", {"tool_name": "weather", "error": ValueError("no city")}),
         "[tool-error] weather: ValueError: no city\n", ""),
        (Chunk("step-retry", {"processor_id": "judge", "reason": "too long", "retry_count": 1}),
         "[retry] judge: too long (retry 1)\n", ""),
        (Chunk("tripwire", {"processor_id": "guard", "reason": "no", "retry": True}),
         "", "[tripwire] guard: no (retry requested)\n"),
        (Chunk("error", {"error": RuntimeError("boom")}), "", "[error] RuntimeError: boom\n"),
        (Chunk("object-result", {"object": {"city": "Paris", "temp": 21}}),
         '[object] {"city": "Paris", "temp": 21}\n', ""),
        (Chunk("data-progress", {"data": {"done": 3}}), '[data-progress] {"data": {"done": 3}}\n', ""),
        (Chunk("step-start", {"step_number": 0}), "", ""),
        (Chunk("step-finish", {"finish_reason": "stop"}), "", ""),
        (Chunk("finish", {"finish_reason": "stop"}), "", ""),
    ],
)
def test_renderer_shows_each_chunk_type_as_docs_cli_md_says(chunk, out, err):
    import io

    stdout, stderr = io.StringIO(), io.StringIO()
    render = Renderer(stdout, stderr, color=False)
    render(chunk)
    render.end()
    assert (stdout.getvalue(), stderr.getvalue()) == (out, err)
    kind = "data-*" if chunk.type.startswith("data-") else chunk.type
    documented = next(shown for types, shown in _docs_display_rows() if f"`{kind}`" in types)
    if not (out or err):
        assert documented.startswith("not shown")
    else:
        marker = "[data-" if kind == "data-*" else (out or err).split()[0]
        assert marker in documented
        assert ("stderr" in documented) == bool(err)


def _docs_display_rows() -> list[tuple[str, str]]:
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    table = text.split("What the terminal shows, chunk by chunk:")[1].split("\n\n")[1]
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    return [(r[0], r[1]) for r in rows]


def test_docs_cli_md_shows_how_every_chunk_type_is_displayed():
    documented = " ".join(cell for cell, _ in _docs_display_rows())
    chunk_doc = Chunk.__doc__ or ""
    types = set(re.findall(r"``([a-z]+(?:-[a-z*]+)*)``", chunk_doc.split("Types and payload keys:")[1]))
    assert {"text-delta", "tool-error", "tripwire", "error", "data-*"} <= types
    for kind in sorted(types | {"object-result"}):
        assert f"`{kind}`" in documented, kind


def test_docs_cli_md_describes_every_option_of_every_command():
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # argparse keeps them here
    for name in ("plugins", "models", "agents", "run"):
        assert f"## `tripwire {name}" in text, name
        for action in commands[name]._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in text, (name, flag)
    assert "`--version`" in text


# ------------------------------------------------------------------ commands from plugins


def test_a_plugin_adds_a_subcommand(cli, fake_distributions, capsys):
    fake_distributions.add("tripwire-hello", "1.0").entry_point(
        "hello", register_hello, group="tripwire.commands"
    )
    code, out, _ = cli("hello", "--name", "Ada")
    assert (code, out) == (0, "hello Ada\n")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "say hello (from a plugin)" in capsys.readouterr().out


def test_a_plugin_subcommand_may_be_async_and_return_an_exit_code(fake_distributions, cli):
    fake_distributions.add("tripwire-later").entry_point(
        "later", register_async, group="tripwire.commands"
    )
    code, out, _ = cli("later")
    assert (code, out) == (3, "async done\n")


@pytest.mark.parametrize(
    ("name", "target", "error"),
    [
        ("bye", ImportError("No module named 'bye'"), "ImportError: No module named 'bye'"),
        ("oops", register_raises, "RuntimeError: register failed"),
    ],
)
def test_a_broken_command_plugin_does_not_brick_the_cli(fake_distributions, cli, name, target, error):
    fake_distributions.add("tripwire-bad", "0.1").entry_point(
        name, target, group="tripwire.commands", value=f"tripwire_bad:{name}"
    )
    fake_distributions.add("tripwire-demo").entry_point("shout", Shout)
    code, out, _ = cli("plugins")
    assert code == 0 and "shout" in out
    code, _, err = cli(name, "--anything")
    assert code == 1
    assert err == (
        f"tripwire: error: command {name!r} from tripwire-bad 0.1 (tripwire_bad:{name}) "
        f"is broken: {error}\n"
    )


def test_plugins_lists_command_plugins_and_their_status(fake_distributions, cli):
    fake_distributions.add("tripwire-hello", "1.0").entry_point(
        "hello", register_hello, group="tripwire.commands"
    )
    fake_distributions.add("tripwire-bad", "0.1").entry_point(
        "bye", ImportError("gone"), group="tripwire.commands"
    )
    code, out, _ = cli("plugins")
    assert code == 0
    tail = out.split("Commands from plugins:\n")[1].splitlines()
    assert [line.split() for line in tail] == [
        ["COMMAND", "DISTRIBUTION", "VERSION", "STATUS"],
        ["bye", "tripwire-bad", "0.1", "broken:", "ImportError:", "gone"],
        ["hello", "tripwire-hello", "1.0", "ok"],
    ]


def test_a_plugin_cannot_replace_a_built_in_command(fake_distributions, cli):
    fake_distributions.add("tripwire-evil").entry_point(
        "plugins", register_hello, group="tripwire.commands"
    )
    code, out, _ = cli("plugins", "--json")
    assert code == 0 and json.loads(out)["processors"] == []


def _parsers(parser, name="tripwire"):
    """Every parser of the command line with its command, nested ones included."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):  # argparse keeps them here
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def test_no_help_text_shows_rst_markup():
    """``--help`` is read in a terminal: no reStructuredText double backticks or roles."""
    names = []
    for name, parser in _parsers(build_parser()):
        names.append(name)
        text = parser.format_help()
        assert "``" not in text and ":class:" not in text, (name, text)
    assert {"tripwire memory", "tripwire memory show", "tripwire serve"} <= set(names)


def test_docs_cli_md_names_every_key_of_plugins_json(cli):
    """What ``tripwire plugins --json`` prints is documented, key by key."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    section = text[text.index("## `tripwire plugins"):text.index("## `tripwire models")]
    code, out, _ = cli("plugins", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["caches"]
    for key in doc:
        assert f'"{key}": ' in section, key
    described = section[section.index("each cache backend is"):]
    assert "{" + ", ".join(doc["caches"][0]) + "}" in described.replace("\n", " ")


def test_docs_cli_md_describes_the_programs_own_options():
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for action in build_parser()._actions:
        for flag in action.option_strings:
            if flag not in ("-h", "--help"):
                assert f"`{flag}" in text, flag
