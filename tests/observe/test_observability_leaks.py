"""Attack tests: a value a guard removed (pii-detector, regex-filter, keyword-guard) must
not escape through what tripwire observes of a run: span attributes, events and
statuses, the audit records, log records at any level, the verdicts, a tripwire's
reason and metadata."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from tripwire import Agent, TripWire, tool
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.testing import MockModel, MockResponse
from tripwire_keyword_guard import KeywordGuard

EMAIL = "ada@example.com"
CARD = "4111111111111111"
KEYWORD = "swordfish"
SECRETS = (EMAIL, CARD, KEYWORD)


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """An SDK tracer provider with an in-memory exporter, as the global provider."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    yield exporter
    provider.shutdown()


@tool
def lookup(who: str) -> str:
    """Look an account up (it fails, naming what it was given and found)."""
    raise ValueError(f"no account for {who}; card {CARD}; password {KEYWORD}")


def guards(strategy: str) -> list[Any]:
    """The three guards, each removing (or blocking) its own value."""
    return [
        PIIDetector(strategy="block" if strategy == "block" else "redact",
                    detection_types=["email"]),
        RegexFilter([{"name": "card", "pattern": r"\b4111\d{12}\b"}],
                    strategy="block" if strategy == "block" else "redact"),
        KeywordGuard(patterns=[KEYWORD], strategy="block" if strategy == "block" else "mask"),
    ]


def observed(spans: Any, caplog: pytest.LogCaptureFixture, *extra: Any) -> str:
    """Everything observable of the run, as one text."""
    seen = [repr(x) for x in extra]
    for span in spans.get_finished_spans():
        seen += [span.name, repr(dict(span.attributes or {})), repr(span.status.description)]
        seen += [f"{e.name} {dict(e.attributes or {})!r}" for e in span.events]
    seen += [caplog.handler.format(r) for r in caplog.records]
    return "\n".join(seen)


@pytest.mark.parametrize("where", ["input", "output"])
@pytest.mark.parametrize("strategy", ["redact", "block"])
@pytest.mark.parametrize("streamed", [False, True], ids=["generate", "stream"])
async def test_a_guarded_value_reaches_no_span_audit_or_log(
    spans: Any, caplog: pytest.LogCaptureFixture, where: str, strategy: str, streamed: bool
) -> None:
    caplog.set_level(logging.DEBUG)
    said = f"my email is {EMAIL}, card {CARD}, password {KEYWORD}"
    # guarding the output: the model's call carries no guarded value, the tool's error
    # (which reaches the model through the output processors) and the answer do
    model = MockModel([MockResponse(text="looking", tool_calls=[
                           {"tool_name": "lookup", "args": {"who": "me"}}]),
                       MockResponse(text=said)] if where == "output" else ["done"])
    processors = {f"{where}_processors": guards(strategy)}
    agent = Agent(id="leaky", model=model, tools=[lookup], audit=True, **processors)
    prompt = said if where == "input" else "hello"
    extra: list[Any] = []
    try:
        if streamed:
            stream = agent.stream(prompt)
            async for _ in stream:
                pass
            result = await stream.result
        else:
            result = await agent.generate(prompt)
        extra += [result.audit, result.tripwire, result.verdicts, result.text,
                  [s.tool_results for s in result.steps]]
    except TripWire as tw:
        extra += [str(tw), tw.metadata]
    text = observed(spans, caplog, *extra)
    assert spans.get_finished_spans()
    for secret in SECRETS:
        assert secret not in text


async def test_a_tool_that_raised_is_logged_by_name_and_type(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="tripwire")
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"who": "me"}}]),
                       MockResponse(text="done")])
    await Agent(id="a", model=model, tools=[lookup]).generate("hi")
    assert "tool 'lookup' raised ValueError" in caplog.text
    assert CARD not in caplog.text
