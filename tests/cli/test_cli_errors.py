"""What a new user gets wrong in a configuration file is one line on stderr naming the
file (and the table), exit code 1, never a traceback, from ``run`` and ``agents``."""

from __future__ import annotations

import pytest

from tripwire.cli import main

CASES = {
    "missing file": (None, "{path}: no such configuration file"),
    "directory": ("DIR", "{path}: is a directory, not a configuration file"),
    "not UTF-8": (b'[agents.a]\nmodel = "openai/x"\ninstructions = "\xe9t\xe9"\n',
                  "{path}: not UTF-8 text (byte 0xe9 at line 3, column 17); "
                  "TOML files must be saved as UTF-8"),
    "TOML syntax": ('[agents.a]\nmodel = "openai/x"\ninstructions = "unclosed\n',
                    "{path}: invalid TOML: Illegal character '\\n' (at line 3, column 25)"),
    "agents not a table": ("agents = 3\n",
                           "{path}: agents must be tables [agents.NAME], got agents = 3"),
    "agent not a table": ('[agents]\na = "openai/x"\n',
                          "{path}: agents.a must be a table [agents.a], got agents.a = 'openai/x'"),
    "wrong type": ('[agents.a]\nmodel = "openai/x"\nmax_steps = "5"\n',
                   "{path}: [agents.a]: key 'max_steps' expects int, got '5'"),
    "out of range": ('[agents.a]\nmodel = "openai/x"\nmax_steps = 0\n',
                     "{path}: [agents.a]: max_steps must be an integer >= 1, got 0"),
    "model kind": ('[models.m]\nuse = 3\n', "{path}: [models.m]: use = 3 is not a model kind"),
    "mock responses": ('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "mock"\nresponses = 3\n',
                       "{path}: [models.m]: key 'responses' expects list[Any], got 3"),
    "api_key in file": ('[models.m]\nuse = "openai-compatible"\nbase_url = "http://h/v1"\n'
                        'model = "x"\napi_key = "sk-abc"\n',
                        "{path}: [models.m]: api_key does not belong in a configuration file"),
    "unknown model key": ('[models.m]\nuse = "anthropic"\nmodel = "x"\nbase = "http://h"\n',
                          "{path}: [models.m]: unknown key 'base'; valid keys: use, model, "),
}

RUN_ONLY = {
    "unknown provider": ('[agents.a]\nmodel = "nope/x"\n',
                         "{path}: [agents.a]: unknown model provider 'nope'"),
    "unknown processor": ('[agents.a]\nmodel = "openai/x"\ninput_processors = ["pii-detectr"]\n',
                          "{path}: [agents.a] input_processors[0]: unknown processor "
                          "'pii-detectr'"),
    "tool import raises": ('[agents.a]\nmodel = "openai/x"\ntools = ["cli_err_tools:t"]\n',
                           "{path}: [agents.a] tools: cannot import 'cli_err_tools:t': "
                           "ZeroDivisionError: division by zero"),
}


def make(tmp_path, content):
    path = tmp_path / "tripwire.toml"
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    (tmp_path / "cli_err_tools.py").write_text("1 / 0\n")
    return path


def one_line_error(capsys, argv, expected):
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    assert err.startswith(f"tripwire: error: {expected}"), err


@pytest.mark.parametrize("case", sorted({**CASES, **RUN_ONLY}))
def test_run_reports_a_bad_file_in_one_line(case, tmp_path, fake_distributions, capsys):
    content, expected = {**CASES, **RUN_ONLY}[case]
    path = make(tmp_path, content)
    one_line_error(capsys, ["run", "a", "hi", "-c", str(path)], expected.format(path=path))


@pytest.mark.parametrize("case", sorted(CASES))
def test_agents_reports_a_bad_file_in_one_line(case, tmp_path, fake_distributions, capsys):
    content, expected = CASES[case]
    path = make(tmp_path, content)
    one_line_error(capsys, ["agents", "-c", str(path)], expected.format(path=path))
