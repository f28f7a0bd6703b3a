"""Introspection: the processors an agent's calls run, a processor by id, and
``tripwire run --explain``."""

from __future__ import annotations

import pytest

from tripwire import Processor, branch, hookimpl, parallel, sequence
from tripwire.plugins.prefill_error_handler import PrefillErrorHandler


class P(Processor):
    def __init__(self, pid):
        self.id = pid

    @hookimpl
    def process_input(self):
        pass

    @hookimpl
    def process_output_result(self):
        pass


def test_list_processors_gives_each_list_as_configured(make_agent):
    a, b, c, d = P("a"), P("b"), P("c"), P("d")
    group = parallel(b, c, id="guards")
    agent = make_agent(input_processors=[a, group], output_processors=[d])
    assert agent.list_processors("input") == [a, group]  # a group is one item
    assert agent.list_processors("output") == [d]
    (default,) = agent.list_processors("error")
    assert isinstance(default, PrefillErrorHandler)
    assert agent.list_processors() == [a, group, d, default]


def test_list_processors_resolves_dynamic_lists_with_the_request_context(make_bare_agent):
    free, pro = P("free"), P("pro")
    agent = make_bare_agent(
        input_processors=lambda ctx: [free] if ctx.get("tier") == "free" else [pro])
    assert agent.list_processors("input", request_context={"tier": "free"}) == [free]
    assert agent.list_processors("input") == [pro]


def test_resolve_processor_finds_groups_and_their_members(make_agent):
    a, b, c = P("a"), P("b"), P("c")
    chain = sequence(b, branch(lambda ctx: True, c, id="maybe"), id="chain")
    agent = make_agent(input_processors=[a, chain])
    assert agent.resolve_processor("chain") is chain
    assert agent.resolve_processor("c") is c
    assert agent.resolve_processor("maybe").then is c
    assert isinstance(agent.resolve_processor("prefill-error-handler"), PrefillErrorHandler)
    with pytest.raises(KeyError, match="no processor or group 'nope'; ids: a, chain, b"):
        agent.resolve_processor("nope")


def test_list_processors_rejects_an_unknown_kind(make_agent):
    agent = make_agent()
    with pytest.raises(ValueError, match="kind must be one of input, output, error"):
        agent.list_processors("inputs")


def test_run_explain_prints_the_audit_table(tmp_path, only_plugins, cli):
    only_plugins("unicode-normalizer", "batch-parts")
    path = tmp_path / "tripwire.toml"
    path.write_text("""
[models.demo]
use = "mock"
responses = ["Hello there, friend"]

[agents.demo]
model = "models.demo"
input_processors = ["unicode-normalizer"]
output_processors = [{ use = "batch-parts", batch_size = 2 }]
""")
    code, out, err = cli("run", "demo", "hi", "-c", str(path), "--explain")
    assert code == 0
    assert "Hello there, friend" in out
    lines = err.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("step")))
    table = lines[header:]
    assert table[0].split()[:4] == ["step", "processor", "hook", "outcome"]
    # "hi" is plain ASCII: the normalizer returned the messages it was given, unchanged
    assert any(line.split()[1:4] == ["unicode-normalizer", "process_input", "passed"]
               for line in table)
    assert any(line.split()[:3] == ["0", "batch-parts", "process_output_stream"]
               for line in table)
