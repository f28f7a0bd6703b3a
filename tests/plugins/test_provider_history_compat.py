"""provider-history-compat: a conversation moved between providers is made acceptable
to the one it is sent to, in the outbound prompt only; the stored history is untouched."""

from __future__ import annotations

import copy
import re
import textwrap

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.support.fake_llm_server import ErrorReply, FakeToolCall, Reply
from tripwire import (
    Agent,
    APICallError,
    ConfigurationError,
    Message,
    ReasoningPart,
    TextPart,
    tool,
)
from tripwire.models import OpenAICompatible
from tripwire.plugins.provider_history_compat import (
    CompatRule,
    ProviderHistoryCompat,
    _id_map,
    is_azure,
)
from tripwire.testing import MockModel, MockResponse


@tool
def get_weather(city: str) -> dict:
    """Current weather for a city."""
    return {"city": city, "temp_c": 21}


def _tool_ids(body: dict, wire: str) -> list[str]:
    """Every tool call / tool result id in a request body, in order."""
    ids = []
    for m in body["messages"]:
        if wire == "openai":
            ids += [c["id"] for c in m.get("tool_calls") or []]
            if m["role"] == "tool":
                ids.append(m["tool_call_id"])
        elif isinstance(m["content"], list):
            for block in m["content"]:
                if block["type"] == "tool_use":
                    ids.append(block["id"])
                elif block["type"] == "tool_result":
                    ids.append(block["tool_use_id"])
    return ids


def _stored_ids(messages: list[Message]) -> list[str]:
    return [
        p.tool_invocation.tool_call_id
        for m in messages
        for p in m.content.parts
        if p.type == "tool-invocation"
    ]


# ------------------------------------------------------------ tool call ids, over HTTP

LONG_ID = "call_" + "x" * 59  # 64 characters: OpenAI takes at most 40
COMPLAINTS = {
    "anthropic": (
        "functions.get_weather:0",
        "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ),
    "openai": (
        LONG_ID,
        "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with "
        "maximum length 40, but got a string with length 64 instead.",
    ),
}


async def _history(llm_server, foreign_id: str) -> list[Message]:
    """A conversation whose tool call id came from another provider (run over HTTP)."""
    llm_server.script(
        Reply(tool_calls=[FakeToolCall(foreign_id, "get_weather", {"city": "Paris"})]),
        Reply(text="21 °C in Paris."),
    )
    async with llm_server.openai() as model:
        first = await Agent(id="a", model=model, tools=[get_weather]).generate("Paris?")
    llm_server.requests.clear()
    return first.message_list.all.db()


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
async def test_tool_call_ids_are_rewritten_in_the_prompt_when_the_provider_complains(
    llm_server, wire
):
    foreign_id, complaint = COMPLAINTS[wire]
    history = await _history(llm_server, foreign_id)
    before = copy.deepcopy(history)
    llm_server.script(
        ErrorReply(400, complaint),
        Reply(tool_calls=[FakeToolCall("toolu_02", "get_weather", {"city": "Rome"})]),
        Reply(text="21 °C in Rome too."),
    )
    async with llm_server.model(wire, max_retries=0) as model:
        agent = Agent(
            id="b", model=model, tools=[get_weather], input_processors=[ProviderHistoryCompat()]
        )
        result = await agent.generate([*history, Message.user("And Rome?")])

    assert result.text == "21 °C in Rome too."
    sent = [_tool_ids(r.body, wire) for r in llm_server.requests]
    assert sent[0] == [foreign_id, foreign_id]
    new_id = sent[1][0]
    assert new_id != foreign_id and re.fullmatch(r"[a-zA-Z0-9_-]{1,40}", new_id)
    assert sent[1] == [new_id, new_id]
    # the rule stays on for the rest of the run: the next step is rewritten too
    assert sent[2] == [new_id, new_id, "toolu_02", "toolu_02"]
    # the stored history keeps the ids that were really used
    assert _stored_ids(result.message_list.all.db()) == [foreign_id, "toolu_02"]
    assert _stored_ids(result.messages) == ["toolu_02"]
    assert history == before


async def test_a_complaint_the_rewrite_cannot_answer_is_raised_without_a_retry(llm_server):
    history = await _history(llm_server, "call_valid_01")
    complaint = COMPLAINTS["anthropic"][1]
    llm_server.script(ErrorReply(400, complaint), Reply(text="never sent"))
    async with llm_server.anthropic(max_retries=0) as model:
        agent = Agent(id="b", model=model, input_processors=[ProviderHistoryCompat()])
        with pytest.raises(APICallError, match="should match pattern"):
            await agent.generate([*history, Message.user("again")])
    assert len(llm_server.requests) == 1


async def test_a_rule_is_switched_on_once_so_a_lasting_complaint_ends_the_run(llm_server):
    foreign_id, complaint = COMPLAINTS["anthropic"]
    history = await _history(llm_server, foreign_id)
    llm_server.script(*[ErrorReply(400, complaint)] * 5)
    async with llm_server.anthropic(max_retries=0) as model:
        agent = Agent(id="b", model=model, input_processors=[ProviderHistoryCompat()])
        with pytest.raises(APICallError):
            await agent.generate([*history, Message.user("again")])
    assert len(llm_server.requests) == 2


@given(st.lists(st.text(min_size=0, max_size=80), max_size=12, unique=True))
@example(["0\n", "0_"])  # a trailing newline is not a valid id; the rewrite must not collide
@example(["a.b", "a:b", "a_b"])
def test_rewritten_ids_are_valid_distinct_and_leave_valid_ids_alone(ids):
    prompt = [
        {
            "role": "assistant",
            "content": [
                {"type": "tool-call", "tool_call_id": i, "tool_name": "t", "input": {}} for i in ids
            ],
        }
    ]
    mapping = _id_map(prompt)
    final = [mapping.get(i, i) for i in ids]
    assert all(re.fullmatch(r"[a-zA-Z0-9_-]{1,40}", f) for f in final)
    assert len(set(final)) == len(ids)
    assert all(i not in mapping for i in ids if re.fullmatch(r"[a-zA-Z0-9_-]{1,40}", i))


# ------------------------------------------------------------ reasoning, before an Anthropic call


def _assistant(*parts) -> Message:
    message = Message.assistant("")
    message.content.parts = list(parts)
    return message


def _history_with_reasoning() -> list[Message]:
    return [
        Message.user("Think first."),
        _assistant(
            ReasoningPart("", {"anthropic": {"signature": "sig-empty"}}),
            ReasoningPart("o-series thoughts", {"openai": {"id": "rs_1"}}),
            ReasoningPart("unsigned thoughts"),
            ReasoningPart("real thoughts", {"anthropic": {"signature": "sig-real"}}),
            TextPart("The answer."),
        ),
        _assistant(ReasoningPart("only foreign", {"openai": {"id": "rs_2"}})),
        Message.user("And now?"),
    ]


async def test_empty_and_foreign_signed_reasoning_is_stripped_before_an_anthropic_call(llm_server):
    history = _history_with_reasoning()
    before = copy.deepcopy(history)
    llm_server.script(Reply(text="ok"), Reply(text="ok"))
    async with llm_server.anthropic() as model:
        plain = await Agent(id="p", model=model).generate(copy.deepcopy(history))
        agent = Agent(id="c", model=model, input_processors=[ProviderHistoryCompat()])
        result = await agent.generate(history)

    without, with_rules = (r.body["messages"] for r in llm_server.requests)
    assert {"type": "thinking", "thinking": "", "signature": "sig-empty"} in without[1]["content"]
    assert plain.steps[0].warnings  # the provider had to drop the unsigned ones itself
    assert with_rules[1]["content"] == [
        {"type": "thinking", "thinking": "real thoughts", "signature": "sig-real"},
        {"type": "text", "text": "The answer."},
    ]
    assert [m["role"] for m in with_rules] == ["user", "assistant", "user"]
    assert not result.steps[0].warnings
    assert history == before
    stored = [
        p.text
        for m in result.message_list.all.db()
        for p in m.content.parts
        if p.type == "reasoning"
    ]
    assert stored == ["", "o-series thoughts", "unsigned thoughts", "real thoughts", "only foreign"]


def test_the_assistant_turn_of_an_active_tool_continuation_is_left_as_it_is():
    compat = ProviderHistoryCompat()
    model = type("M", (), {"provider": "anthropic"})()
    signed_empty = {
        "type": "reasoning",
        "text": "",
        "provider_metadata": {"anthropic": {"signature": "s"}},
    }
    prompt = [
        {"role": "user", "content": [{"type": "text", "text": "go"}]},
        {
            "role": "assistant",
            "content": [
                signed_empty,
                {"type": "tool-call", "tool_call_id": "t1", "tool_name": "f", "input": {}},
            ],
        },
        {
            "role": "tool",
            "content": [
                {"type": "tool-result", "tool_call_id": "t1", "tool_name": "f", "output": 1}
            ],
        },
    ]
    assert compat.process_llm_request(prompt, model, {}) is None
    ended = [*prompt, {"role": "user", "content": [{"type": "text", "text": "next"}]}]
    out = compat.process_llm_request(ended, model, {})["prompt"]
    assert signed_empty not in out[1]["content"]
    assert ended[1]["content"][0] is signed_empty  # the input prompt is not modified


def test_reasoning_rules_leave_other_providers_alone():
    compat = ProviderHistoryCompat()
    prompt = [
        {"role": "assistant", "content": [{"type": "reasoning", "text": ""}]},
        {"role": "user", "content": [{"type": "text", "text": "x"}]},
    ]
    for provider in ("openai", "mock"):
        model = type("M", (), {"provider": provider})()
        assert compat.process_llm_request(prompt, model, {}) is None


# ------------------------------------------------------------ system reminders


REMINDER = '<system-reminder type="retry">Be brief.</system-reminder> Hello'


@pytest.mark.parametrize(
    ("provider", "options", "renamed"),
    [
        ("azure", {}, True),
        ("openai", {}, False),
        ("openai", {"system_reminder_providers": ["openai"]}, True),
        ("azure", {"exclude_rules": ["azure-system-reminder-transform"]}, False),
    ],
)
async def test_system_reminder_tags_are_renamed_for_providers_that_reject_them(
    llm_server, provider, options, renamed
):
    llm_server.script(Reply(text="ok"))
    model = OpenAICompatible(
        base_url=llm_server.openai_base_url, api_key="k", model="m", provider=provider
    )
    async with model:
        agent = Agent(
            id="z",
            model=model,
            instructions="Follow <system-reminder> tags.",
            input_processors=[ProviderHistoryCompat(**options)],
        )
        result = await agent.generate(REMINDER)
    system, user = llm_server.requests[0].body["messages"]
    if renamed:
        assert user["content"] == '<memory-context type="retry">Be brief.</memory-context> Hello'
        assert system["content"] == "Follow <memory-context> tags."
    else:
        assert user["content"] == REMINDER
    assert result.message_list.all.db()[0].text == REMINDER


def test_azure_is_recognised_by_provider_name_or_host():
    def model(provider, url):
        return OpenAICompatible(base_url=url, api_key="k", model="m", provider=provider)

    assert is_azure(model("openai", "https://acme.openai.azure.com/openai/deployments/d"))
    assert is_azure(model("azure-openai", "http://127.0.0.1:1/v1"))
    assert not is_azure(model("openai", "https://api.openai.com/v1"))
    assert not is_azure(model("openai", "https://openai.azure.com.evil.example/v1"))


# ------------------------------------------------------------ additional rules


async def test_additional_rules_run_after_the_built_in_ones(make_bare_agent):
    def drop_oldest(prompt, model):
        users = [i for i, m in enumerate(prompt) if m["role"] == "user"]
        return [m for i, m in enumerate(prompt) if i != users[0]] if len(users) > 1 else None

    def shout(prompt, model):
        return [
            {**m, "content": m["content"].upper()} if m["role"] == "system" else m for m in prompt
        ]

    rules = [
        {
            "name": "context-length",
            "error_patterns": ["context length exceeded"],
            "fix": drop_oldest,
        },
        CompatRule("shout", apply_to_prompt=shout),
    ]
    model = MockModel([MockResponse(error=APICallError("context length exceeded", 400)), "ok"])
    agent = make_bare_agent(
        model=model,
        instructions="be nice",
        input_processors=[ProviderHistoryCompat(additional_rules=rules)],
        error_processors=[],
    )
    history = [
        Message.user("old question"),
        Message.assistant("old answer"),
        Message.user("new question"),
    ]
    result = await agent.generate(history, max_processor_retries=1)
    assert result.text == "ok"
    first, second = (r.prompt for r in model.requests)
    assert first[0] == {"role": "system", "content": "BE NICE"}
    assert len(first) == 4 and len(second) == 3
    assert second[1]["role"] == "assistant"
    assert [m.text for m in result.message_list.all.db()][:3] == [
        "old question",
        "old answer",
        "new question",
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"additional_rules": "rule"}, "additional_rules must be a list"),
        ({"additional_rules": [42]}, r"additional_rules\[0\] must be a CompatRule"),
        ({"additional_rules": [{"name": "x"}]}, "give apply_to_prompt, fix or both"),
        ({"additional_rules": [{"name": "x", "fix": lambda p, m: None}]}, "needs error_patterns"),
        ({"additional_rules": [{"name": "", "apply_to_prompt": lambda p, m: None}]}, "name"),
        (
            {"additional_rules": [{"name": "x", "error_patterns": ["("], "fix": lambda p, m: p}]},
            "not a valid regular expression",
        ),
        ({"additional_rules": [{"name": "x", "apply": lambda p, m: p}]}, r"unknown key\(s\)"),
        (
            {
                "additional_rules": [
                    {"name": "tool-call-id-format", "apply_to_prompt": lambda p, m: None}
                ]
            },
            "must be unique",
        ),
        ({"exclude_rules": ["no-such-rule"]}, "built-in rules: tool-call-id-format"),
        ({"system_reminder_providers": [""]}, "provider names"),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        ProviderHistoryCompat(**options)


async def test_built_from_toml_by_name(tmp_path, only_plugins, llm_server):
    only_plugins("provider-history-compat")
    path = tmp_path / "tripwire.toml"
    path.write_text(
        textwrap.dedent(f"""
        [agents.compat]
        model = "models.local"
        input_processors = [
          {{ use = "provider-history-compat", system_reminder_providers = ["openai"] }},
        ]

        [models.local]
        use = "openai-compatible"
        base_url = "{llm_server.openai_base_url}"
        model = "m"
    """)
    )
    llm_server.script(Reply(text="ok"))
    async with Agent.from_config(str(path), "compat") as agent:
        (compat,) = agent.input_processors
        assert isinstance(compat, ProviderHistoryCompat)
        await agent.generate(REMINDER)
    assert llm_server.requests[0].body["messages"][0]["content"].startswith("<memory-context")
