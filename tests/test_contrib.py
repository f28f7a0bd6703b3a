"""contrib/keyword-guard, the separately published processor, imported from source and
run inside real agent runs (its wheel is installed in a venv in test_packaging.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import tripwire.plugins
from tripwire import ConfigurationError, Message, ProcessorViolation, tool
from tripwire.agent import Agent
from tripwire.testing import MockModel, MockResponse

SOURCE = Path(__file__).resolve().parents[1] / "contrib" / "keyword-guard"


def _load_from_source():
    name = "tripwire_keyword_guard"
    module = sys.modules.get(name)
    if module is None or Path(module.__file__).resolve().parent.parent != SOURCE:
        spec = importlib.util.spec_from_file_location(
            name, SOURCE / name / "__init__.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


KeywordGuard = _load_from_source().KeywordGuard


def deltas(*texts: str) -> MockResponse:
    return MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": t} for t in texts])


async def run(agent: Agent, prompt: str = "hi") -> tuple[list, object]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return chunks, stream


def streamed_text(chunks) -> str:
    return "".join(c.payload["text"] for c in chunks if c.type == "text-delta")


def make_agent(model, *, inputs=(), outputs=(), tools=None) -> Agent:
    return Agent(
        id="t", model=model, input_processors=list(inputs), output_processors=list(outputs),
        tools=tools, default_error_processors=False,
    )


# -------------------------------------------------------- published as a plugin


def test_it_is_created_by_name_through_its_entry_point(fake_distributions):
    fake_distributions.add("tripwire-keyword-guard", "0.1.0").entry_point(
        "keyword-guard", KeywordGuard, value="tripwire_keyword_guard:KeywordGuard"
    )
    entry = tripwire.plugins.available()["keyword-guard"]
    assert entry.hooks == ("process_input", "process_output_stream")
    guard = tripwire.plugins.create("keyword-guard", patterns=["x"], strategy="mask")
    assert (guard.patterns, guard.strategy, guard.mask) == (["x"], "mask", "[REDACTED]")


def test_its_options_are_checked_by_name(fake_distributions):
    fake_distributions.add("tripwire-keyword-guard").entry_point("keyword-guard", KeywordGuard)
    with pytest.raises(ConfigurationError, match="option 'strategy' must be one of 'block', 'mask'"):
        tripwire.plugins.create("keyword-guard", patterns=["x"], strategy="redact")
    with pytest.raises(ConfigurationError, match=r"option 'patterns' expects list\[str\]"):
        tripwire.plugins.create("keyword-guard", patterns="x")
    with pytest.raises(ConfigurationError, match=r"pattern '\(' is not a valid regular expression"):
        tripwire.plugins.create("keyword-guard", patterns=["("], regex=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"patterns": []}, "patterns must be a non-empty list"),
        ({"patterns": ["a*"], "regex": True}, "matches the empty string"),
        ({"patterns": [""]}, "each pattern must be a non-empty string"),
        ({"patterns": ["a"], "max_match_length": 0}, "max_match_length must be >= 1"),
    ],
)
def test_bad_options_are_rejected_at_construction(options, message):
    with pytest.raises(ValueError, match=message):
        KeywordGuard(**options)


# -------------------------------------------------------- input


async def test_block_stops_the_run_before_the_model_sees_the_input():
    model = MockModel(["never"])
    agent = make_agent(model, inputs=[KeywordGuard(patterns=["password"])])
    result = await agent.generate("my PassWord is hunter2")
    assert result.tripwire.processor_id == "keyword-guard"
    assert result.tripwire.reason == "Blocked content detected in input"
    assert result.tripwire.metadata == {"where": "input", "patterns": ["password"]}
    assert model.requests == []


async def test_mask_rewrites_the_input_the_model_sees_and_reports_it():
    seen: list[ProcessorViolation] = []
    guard = KeywordGuard(patterns=["password", "hunter\\d"], regex=True, strategy="mask")
    guard.on_violation = seen.append
    model = MockModel(["ok"])
    result = await make_agent(model, inputs=[guard]).generate("my password is hunter2")
    assert result.tripwire is None
    user = [m for m in model.requests[0].prompt if m["role"] == "user"][0]
    assert user["content"] == [{"type": "text", "text": "my [REDACTED] is [REDACTED]"}]
    assert seen == [
        ProcessorViolation(
            "keyword-guard", "masked 2 match(es) in input",
            {"where": "input", "count": 2, "patterns": ["hunter\\d", "password"]},
        )
    ]


async def test_input_without_matches_passes_unchanged():
    model = MockModel(["ok"])
    await make_agent(model, inputs=[KeywordGuard(patterns=["secret"])]).generate("hello there")
    user = [m for m in model.requests[0].prompt if m["role"] == "user"][0]
    assert user["content"] == [{"type": "text", "text": "hello there"}]


async def test_case_sensitive_matches_case_exactly():
    guard = KeywordGuard(patterns=["Secret"], case_sensitive=True)
    model = MockModel(["ok"])
    result = await make_agent(model, inputs=[guard]).generate("a SECRET, a secret")
    assert result.tripwire is None
    result = await make_agent(MockModel(["ok"]), inputs=[guard]).generate("the Secret")
    assert result.tripwire is not None


async def test_masking_a_message_content_string():
    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    message = Message.user("")
    message.content.parts = []
    message.content.content = "a secret"
    out = await guard.process_input([message], abort=None)
    assert out[0].content.content == "a [REDACTED]"


# -------------------------------------------------------- streamed output


async def test_a_keyword_split_across_chunks_is_masked():
    model = MockModel([deltas("the sec", "ret is", " out")])
    agent = make_agent(model, outputs=[KeywordGuard(patterns=["secret"], strategy="mask")])
    chunks, stream = await run(agent)
    assert streamed_text(chunks) == "the [REDACTED] is out"
    assert await stream.text == "the [REDACTED] is out"


async def test_a_keyword_split_across_chunks_is_blocked_before_any_of_it_streams():
    model = MockModel([deltas("the sec", "ret is", " out")])
    agent = make_agent(model, outputs=[KeywordGuard(patterns=["secret"])])
    chunks, stream = await run(agent)
    assert "sec" not in streamed_text(chunks)
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["reason"] == "Blocked content detected in output"
    assert stream.tripwire.processor_id == "keyword-guard"


async def test_held_text_is_released_at_step_finish():
    model = MockModel([deltas("abc", "de")])
    agent = make_agent(model, outputs=[KeywordGuard(patterns=["xyzxyzxyz"])])
    chunks, _ = await run(agent)
    texts = [c.payload["text"] for c in chunks if c.type == "text-delta"]
    assert "".join(texts) == "abcde"
    assert texts == ["abcde"]  # everything fits in the 8-character hold-back
    kinds = [c.type for c in chunks]
    assert kinds.index("text-delta") < kinds.index("step-finish")


async def test_a_regex_match_split_across_chunks_is_masked():
    model = MockModel([deltas("call 555-", "12", "34 now")])
    guard = KeywordGuard(patterns=[r"\d{3}-\d{4}"], regex=True, strategy="mask")
    chunks, _ = await run(make_agent(model, outputs=[guard]))
    assert streamed_text(chunks) == "call [REDACTED] now"


async def test_overlapping_matches_become_one_mask():
    model = MockModel([deltas("xabcdx")])
    guard = KeywordGuard(patterns=["abc", "bcd"], strategy="mask", mask="*")
    chunks, _ = await run(make_agent(model, outputs=[guard]))
    assert streamed_text(chunks) == "x*x"


async def test_held_text_is_released_before_a_tool_call():
    @tool
    def lookup(q: str) -> str:
        """Look something up."""
        return "found"

    model = MockModel([
        MockResponse(text="let me check", tool_calls=[{"tool_name": "lookup", "args": {"q": "a"}}]),
        MockResponse(text="done"),
    ])
    guard = KeywordGuard(patterns=["password"], strategy="mask")
    chunks, stream = await run(make_agent(model, outputs=[guard], tools=[lookup]))
    kinds = [c.type for c in chunks if c.type in ("text-delta", "tool-call")]
    assert kinds[-2:] == ["tool-call", "text-delta"]
    before_call = "".join(
        c.payload["text"] for c in chunks[: [c.type for c in chunks].index("tool-call")]
        if c.type == "text-delta"
    )
    assert before_call == "let me check"
    assert await stream.text == "let me checkdone"


async def test_a_failing_on_violation_is_swallowed():
    def explode(violation):
        raise RuntimeError("monitoring is down")

    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    guard.on_violation = explode
    chunks, stream = await run(make_agent(MockModel([deltas("a secret")]), outputs=[guard]))
    assert streamed_text(chunks) == "a [REDACTED]"
    assert stream.tripwire is None


async def test_async_on_violation_is_awaited():
    seen = []

    async def record(violation):
        seen.append(violation.detail["where"])

    guard = KeywordGuard(patterns=["secret"], strategy="mask")
    guard.on_violation = record
    await run(make_agent(MockModel([deltas("a secret")]), outputs=[guard]))
    assert seen == ["output"]
