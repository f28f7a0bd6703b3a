"""A processor's ``model`` option in a configuration file: a router id or a reference
to a ``[models.NAME]`` table (with the installed processors, not test_config's fakes)."""

from __future__ import annotations

import textwrap

import pytest

from tests.support.fake_llm_server import Reply
from tripwire import Agent
from tripwire.config import build_processors
from tripwire.errors import ConfigurationError


def write(tmp_path, text: str):
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent(text))
    return path


async def test_a_processor_model_may_refer_to_a_models_table(tmp_path, llm_server):
    """A judge calls the endpoint of a ``[models.NAME]`` table (a self-hosted model,
    not only a router id); the agent owns and closes it."""
    path = tmp_path / "tripwire.toml"
    path.write_text(f"""
[models.local]
use = "openai-compatible"
base_url = "{llm_server.openai_base_url}"
model = "m"

[models.judge]
use = "openai-compatible"
base_url = "{llm_server.openai_base_url}"
model = "judge-m"

[agents.support]
model = "models.local"
input_processors = [
  {{ use = "prompt-injection-detector", model = "models.judge", tier = "judge", fail_open = true }},
]
""")
    # the judge's answers are not verdicts: fail_open lets the input through after them
    llm_server.script(Reply(text="no verdict"), Reply(text="no verdict"), Reply(text="hello"))
    async with Agent.from_config(str(path), "support") as agent:
        judge = agent.resolve_processor("prompt-injection-detector").judge
        assert (await agent.generate("hi")).text == "hello"
        assert judge.model.model_id == "judge-m" and not judge.model.closed
    assert [r.body["model"] for r in llm_server.requests] == ["judge-m", "judge-m", "m"]
    assert judge.model.closed


def test_a_processor_model_reference_to_a_missing_table_names_the_defined_ones(tmp_path):
    path = write(tmp_path, """
        [models.local]
        use = "mock"
        [agents.a]
        model = "models.local"
        input_processors = [{ use = "moderation", model = "models.judge" }]
    """)
    with pytest.raises(ConfigurationError) as info:
        Agent.from_config(str(path), "a")
    assert str(info.value) == (
        f"{path}: [agents.a] input_processors[0]: processor 'moderation' model: "
        "'models.judge' is neither a router id \"provider/model\" nor a reference "
        "\"models.NAME\" to a [models.NAME] table (defined: models.local)")
    with pytest.raises(ConfigurationError, match=r"\[0\]: processor 'moderation' model: "
                       r"'models.judge' refers to a \[models.NAME\] table, which only a "
                       r"configuration file has"):
        build_processors([{"use": "moderation", "model": "models.judge"}])
