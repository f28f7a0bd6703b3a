"""``tripwire.ToolError``: a tool's error answer, whose text passes
``process_tool_result`` (any other exception's does not) before it reaches the model
as the tool's error."""

from __future__ import annotations

import pytest

from tripwire import Agent, Processor, ToolError, hookimpl, tool
from tripwire.testing import MockModel, MockResponse


class Redact(Processor):
    id = "redact"

    def __init__(self) -> None:
        self.seen: list[object] = []

    @hookimpl
    def process_tool_result(self, result):
        self.seen.append(result)
        return {"result": str(result).replace("hunter2", "[redacted]")}


@tool
def login(user: str) -> str:
    """Log in."""
    raise ToolError(f"wrong password hunter2 for {user}")


@tool
def crash(user: str) -> str:
    """Crash."""
    raise RuntimeError(f"wrong password hunter2 for {user}")


def model(name: str) -> MockModel:
    return MockModel([MockResponse(tool_calls=[{"tool_name": name, "args": {"user": "ada"},
                                                "tool_call_id": "c1"}]),
                      MockResponse(text="done")])


async def test_a_tool_errors_text_passes_process_tool_result_then_reaches_the_model() -> None:
    redact = Redact()
    scripted = model("login")
    agent = Agent(id="a", model=scripted, tools=[login], output_processors=[redact])
    chunks = [c async for c in agent.stream("go")]
    assert redact.seen == ["ToolError: wrong password hunter2 for ada"]
    (error,) = [c.payload for c in chunks if c.type == "tool-error"]
    assert error["error"] == "ToolError: wrong password [redacted] for ada"
    tool_message = [m for m in scripted.requests[1].prompt if m["role"] == "tool"]
    assert tool_message[0]["content"][0]["output"] == "ToolError: wrong password [redacted] for ada"


@pytest.mark.parametrize("streamed", [False, True])
async def test_another_exceptions_text_does_not_pass_process_tool_result(streamed) -> None:
    redact = Redact()
    agent = Agent(id="a", model=model("crash"), tools=[crash], output_processors=[redact])
    if streamed:
        [c async for c in agent.stream("go")]
    else:
        result = await agent.generate("go")
        assert result.steps[0].tool_results[0].is_error
    assert redact.seen == []
