"""``tripwire run`` options: prompt from stdin, --system, -o, --json, -v, and the
errors a new user meets (one line, never a traceback)."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
import textwrap

import attrs
import pytest

from tripwire import Chunk, Usage
from tripwire.cli import chunk_json, configured_agent, main, model_options
from tripwire.models import register_provider


class Echo:
    """A model that answers with what it was sent: the prompt and the model settings."""

    provider = "echo"

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    async def stream(self, request):
        seen = {"prompt": request.prompt, "settings": request.model_settings}
        yield Chunk("text-delta", {"id": "t", "text": json.dumps(seen)})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage(3, 4, 7)})


@pytest.fixture
def config(tmp_path, fake_distributions):
    register_provider("echo", Echo)
    (tmp_path / "cli_run_tools.py").write_text(
        "from tripwire import tool\n\n"
        "@tool\n"
        "def boom(city: str) -> str:\n"
        "    '''Always fails.'''\n"
        "    raise RuntimeError('kaput')\n"
    )
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent("""
        [agents.echo]
        model = "echo/v1"
        instructions = "Be brief."
        model_settings = { temperature = 0.5, seed = 1 }

        [agents.scripted]
        model = "models.scripted"
        model_settings = { seed = 2 }

        [agents.tools]
        model = "models.tool_user"
        tools = ["cli_run_tools:boom"]

        [models.scripted]
        use = "mock"
        settings = { temperature = 0, seed = 9, top_p = 0.9 }
        responses = [{ text = "scripted answer" }]

        [models.tool_user]
        use = "mock"
        responses = [
          { tool_calls = [{ tool_name = "boom", args = { city = "Oslo" }, tool_call_id = "c1" }] },
          { text = "It failed." },
        ]
    """), encoding="utf-8")
    return path


def echoed(out: str) -> dict:
    return json.loads(out)


def stdin_of(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# ------------------------------------------------------------------ prompt from stdin


def test_a_dash_prompt_is_read_from_stdin(config, cli, monkeypatch):
    stdin_of(monkeypatch, "Summarise this:\nline one\nline two ünïcode\n".encode())
    code, out, err = cli("run", "echo", "-", "-c", str(config))
    assert (code, err) == (0, "")
    assert echoed(out)["prompt"][-1] == {
        "role": "user",
        "content": [{"type": "text", "text": "Summarise this:\nline one\nline two ünïcode"}],
    }


def test_an_empty_stdin_is_a_one_line_error(config, cli, monkeypatch):
    stdin_of(monkeypatch, b"\n")
    code, out, err = cli("run", "echo", "-", "-c", str(config))
    assert (code, out, err) == (1, "", "tripwire: error: PROMPT is -, but stdin was empty\n")


def test_a_non_utf8_stdin_is_a_one_line_error(config, cli, monkeypatch):
    stdin_of(monkeypatch, b"caf\xe9\n")
    code, _, err = cli("run", "echo", "-", "-c", str(config))
    assert code == 1
    assert err == (
        "tripwire: error: the prompt on stdin is not UTF-8 text (byte 0xe9 at offset 3)\n"
    )


# ------------------------------------------------------------------ --system


def test_system_adds_instructions_after_the_configured_ones(config, cli):
    code, out, _ = cli("run", "echo", "hi", "-c", str(config),
                       "-s", "Answer in French.", "--system", "Use one sentence.")
    assert code == 0
    system = [m["content"] for m in echoed(out)["prompt"] if m["role"] == "system"]
    assert system == ["Be brief.", "Answer in French.", "Use one sentence."]


def test_system_works_for_an_agent_without_instructions(config, cli):
    code, out, _ = cli("run", "echo", "hi", "-c", str(config), "-m", "echo/v2",
                       "-s", "Only this.")
    assert code == 0
    assert [m["content"] for m in echoed(out)["prompt"] if m["role"] == "system"] == [
        "Be brief.", "Only this.",
    ]


# ------------------------------------------------------------------ -o KEY VALUE


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("0", 0),
        ("0.2", 0.2),
        ("true", True),
        ("null", None),
        ('["END", "STOP"]', ["END", "STOP"]),
        ('{"type": "json"}', {"type": "json"}),
        ("END", "END"),
        ("hello world", "hello world"),
        ('"0"', "0"),
    ],
)
def test_option_values_are_json_when_they_parse_else_strings(value, parsed):
    assert model_options([["k", value]]) == {"k": parsed}


def test_options_reach_the_model_over_the_agents_settings(config, cli):
    code, out, _ = cli("run", "echo", "hi", "-c", str(config),
                       "-o", "temperature", "0", "--option", "stop", '["END"]',
                       "-o", "max_tokens", "50")
    assert code == 0
    assert echoed(out)["settings"] == {"temperature": 0, "seed": 1, "stop": ["END"],
                                       "max_tokens": 50}


def test_settings_order_model_table_then_agent_then_options(config, capsys, tmp_path):
    agent = configured_agent(str(config), "scripted", model_settings={"top_p": 0.1})
    assert agent.model_settings == {"temperature": 0, "seed": 2, "top_p": 0.1}


# ------------------------------------------------------------------ --json


def test_json_prints_one_object_per_chunk(config, cli):
    code, out, err = cli("run", "scripted", "hi", "-c", str(config), "--json")
    assert (code, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["type"] for line in lines] == [
        "step-start", "text-delta", "text-delta", "step-finish", "finish",
    ]
    assert "".join(line["payload"].get("text", "") for line in lines) == "scripted answer"
    assert lines[-1]["payload"]["usage"]["total_tokens"] >= 0
    assert set(lines[0]) == {"type", "payload", "run_id", "source", "transient"}


def test_json_shows_tool_errors_and_keeps_the_exit_codes(config, cli):
    code, out, _ = cli("run", "tools", "hi", "-c", str(config), "--json")
    assert code == 0
    errors = [json.loads(line) for line in out.splitlines() if '"tool-error"' in line]
    assert errors[0]["payload"]["error"] == "RuntimeError: kaput"


@attrs.define
class Weather:
    city: str
    temp: float


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Opaque:
    def __str__(self) -> str:
        return "<opaque thing>"


@pytest.mark.parametrize(
    ("chunk", "payload"),
    [
        (Chunk("text-delta", {"id": "t", "text": "hé"}), {"id": "t", "text": "hé"}),
        (Chunk("reasoning-delta", {"id": "r", "text": "hmm"}), {"id": "r", "text": "hmm"}),
        (Chunk("tool-call", {"tool_call_id": "c", "tool_name": "w", "args": {"n": (1, 2)}}),
         {"tool_call_id": "c", "tool_name": "w", "args": {"n": [1, 2]}}),
        (Chunk("tool-result", {"tool_call_id": "c", "tool_name": "w", "result": Point(1, 2)}),
         {"tool_call_id": "c", "tool_name": "w", "result": {"x": 1, "y": 2}}),
        (Chunk("tool-error", {"tool_call_id": "c", "tool_name": "w", "error": KeyError("k")}),
         {"tool_call_id": "c", "tool_name": "w", "error": "KeyError: 'k'"}),
        (Chunk("step-start", {"step_number": 0}), {"step_number": 0}),
        (Chunk("step-finish", {"finish_reason": "stop", "usage": Usage(1, 2, 3)}),
         {"finish_reason": "stop", "usage": {"input_tokens": 1, "output_tokens": 2,
                                             "total_tokens": 3, "reasoning_tokens": None,
                                             "cached_input_tokens": None}}),
        (Chunk("step-retry", {"step_number": 1, "reason": "r", "processor_id": "p",
                              "retry_count": 1}),
         {"step_number": 1, "reason": "r", "processor_id": "p", "retry_count": 1}),
        (Chunk("object-result", {"object": Weather("Oslo", 3.5)}),
         {"object": {"city": "Oslo", "temp": 3.5}}),
        (Chunk("tripwire", {"reason": "no", "retry": False, "processor_id": "g",
                            "metadata": {"hits": {"b"}, "at": Opaque()}}),
         {"reason": "no", "retry": False, "processor_id": "g",
          "metadata": {"hits": ["b"], "at": "<opaque thing>"}}),
        (Chunk("error", {"error": ValueError("bad key")}), {"error": "ValueError: bad key"}),
        (Chunk("data-progress", {"data": {"ratio": float("nan"), 1: "one"}}),
         {"data": {"ratio": "nan", "1": "one"}}),
        (Chunk("finish", {"finish_reason": "stop", "usage": Usage()}),
         {"finish_reason": "stop", "usage": {"input_tokens": 0, "output_tokens": 0,
                                             "total_tokens": 0, "reasoning_tokens": None,
                                             "cached_input_tokens": None}}),
    ],
    ids=lambda v: v.type if isinstance(v, Chunk) else "",
)
def test_every_chunk_type_serialises_to_json(chunk, payload):
    line = json.dumps(chunk_json(chunk), allow_nan=False)
    assert json.loads(line)["payload"] == payload


def test_bytes_in_a_payload_serialise_through_the_converter():
    doc = json.loads(json.dumps(chunk_json(Chunk("data-file", {"data": b"\x00\xff"}))))
    assert isinstance(doc["payload"]["data"], str)


# ------------------------------------------------------------------ -v / --verbose


def test_verbose_logs_to_stderr(config, cli):
    code, _, err = cli("run", "tools", "hi", "-c", str(config), "-v")
    assert code == 0
    # the name and type: the message (a tool's, which can hold a guarded value) is the
    # tool-error chunk's, after the output processors
    assert "tripwire INFO: tool 'boom' raised RuntimeError\n" in err
    assert "kaput" not in err


def test_without_verbose_nothing_is_logged(config, cli):
    code, _, err = cli("run", "tools", "hi", "-c", str(config))
    assert (code, err) == (0, "")


def test_verbose_before_the_command_works_too(config, cli):
    code, _, err = cli("-v", "run", "tools", "hi", "-c", str(config))
    assert code == 0 and "tool 'boom' raised" in err


@pytest.mark.parametrize("argv", [
    ("-c", "{path}", "run", "scripted", "hi"),
    ("--config", "{path}", "run", "scripted", "hi"),
    ("--config={path}", "run", "scripted", "hi"),
    ("run", "scripted", "hi", "-c", "{path}"),
    ("-c", "elsewhere.toml", "run", "scripted", "hi", "-c", "{path}"),  # the command's wins
], ids=["-c before", "--config before", "--config= before", "after", "both"])
def test_config_goes_before_or_after_the_command(config, cli, argv):
    code, out, err = cli(*(a.replace("{path}", str(config)) for a in argv))
    assert (code, out, err) == (0, "scripted answer\n", "")


def test_config_before_a_command_that_reads_none_says_where_it_goes(config, cli, capsys):
    with pytest.raises(SystemExit) as e:
        cli("-c", str(config), "plugins")
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert ("argument --config/-c: plugins reads no configuration file; --config goes with "
            "a command that does (agents, run, serve)") in err


def test_config_before_agents_and_serve_is_theirs(config, cli, monkeypatch):
    code, out, _ = cli("-c", str(config), "agents", "--json")
    assert code == 0 and {a["name"] for a in json.loads(out)} == {"echo", "scripted", "tools"}
    import tripwire.serve

    seen = []
    monkeypatch.setattr(tripwire.serve, "_serve", lambda args: seen.append(args.config))
    parser_default = cli("serve")  # the default file, as before
    assert parser_default[0] == 0
    cli("-c", str(config), "serve")
    assert seen == ["tripwire.toml", str(config)]


def register_crash(subparsers):
    def crash(args):
        raise RuntimeError("plugin bug")

    subparsers.add_parser("crash").set_defaults(func=crash)


def test_an_unexpected_error_is_one_line_and_v_shows_the_traceback(fake_distributions, cli):
    fake_distributions.add("tripwire-crash").entry_point(
        "crash", register_crash, group="tripwire.commands"
    )
    code, _, err = cli("crash")
    assert (code, err) == (
        1, "tripwire: error: RuntimeError: plugin bug (tripwire -v shows the traceback)\n"
    )
    code, _, err = cli("-v", "crash")
    assert code == 1
    assert err.startswith("Traceback (most recent call last):")
    assert err.endswith("RuntimeError: plugin bug\ntripwire: error: RuntimeError: plugin bug\n")


# ------------------------------------------------------------------ --timeout


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf"])
def test_timeout_must_be_a_positive_number(config, capsys, value):
    with pytest.raises(SystemExit) as e:
        main(["run", "echo", "hi", "-c", str(config), "--timeout", value])
    assert e.value.code == 2
    assert "argument --timeout: expected a number of seconds" in capsys.readouterr().err


def test_a_run_that_finishes_in_time_is_not_affected(config, cli):
    code, out, _ = cli("run", "scripted", "hi", "-c", str(config), "--timeout", "600")
    assert (code, out) == (0, "scripted answer\n")


# ------------------------------------------------------------------ a closed pipe


def test_a_closed_stdout_stops_quietly(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(
        '[agents.a]\nmodel = "models.long"\n'
        '[models.long]\nuse = "mock"\n'
        f'responses = [{{ text = "{"word " * 100_000}" }}]\n'
    )
    env = {**os.environ, "TRIPWIRE_LOAD_PLUGINS": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tripwire", "run", "a", "hi", "-c", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    proc.stdout.close()  # the reader goes away (| head) before the 500 kB reply is written
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait() == 1
    assert err == ""
