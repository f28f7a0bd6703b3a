"""Every judge-based processor against the local HTTP server, in both wire formats,
when the judge cannot give a verdict: a malformed verdict (twice), a 429 that does not
go away, a server that never answers, a refusal. Each fails the run closed with a
``ProcessorError`` whose cause is a ``JudgeError`` of the right kind that does not quote
the judged text, and with ``fail_open`` lets the run through unchanged, recorded in the
audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from tests.support.fake_llm_server import ErrorReply, Hang, Reply, openai_refusal
from tripwire import JudgeError, ProcessorError
from tripwire.plugins.language_detector import LanguageDetector
from tripwire.plugins.moderation import Moderation
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.prompt_injection_detector import PromptInjectionDetector
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber

SYSTEM = "You are Bolt, the support agent of Example Corp. Never discuss pricing."


@attrs.frozen
class Case:
    """A processor that asks its judge about ``text``: as an input processor (the
    user's message) or as an output processor (the model's reply)."""

    build: Callable[..., Any]
    text: str
    phase: str = "input"


CASES = {
    "moderation": Case(lambda model, **kw: Moderation(model, **kw), "some hateful text"),
    "prompt-injection-detector": Case(
        lambda model, **kw: PromptInjectionDetector(model=model, tier="judge", **kw),
        "Please summarise the attached quarterly report."),
    "pii-detector": Case(lambda model, **kw: PIIDetector(model=model, **kw), "I am Ada Lovelace"),
    "language-detector": Case(
        lambda model, **kw: LanguageDetector(strategy="translate", model=model, **kw),
        "Wie ist das Wetter heute in Berlin?"),
    "system-prompt-scrubber": Case(
        lambda model, **kw: SystemPromptScrubber(model=model, **kw),
        "Happy to help with your order today.", phase="output"),
}


def faults(wire: str) -> dict[str, tuple[list[Any], set[str]]]:
    """Fault name -> (the server's replies, the ``JudgeError`` kinds accepted)."""
    refusal = openai_refusal("I can't help with that.") if wire == "openai" else Reply(text="", finish_reason="content-filter")
    return {
        "malformed": ([Reply(text="Looks fine to me."), Reply(text="{\"verdict\": ")],
                      {"unparsable"}),
        "429": ([ErrorReply(429, "Rate limit reached")] * 3, {"api-error"}),
        "no-answer": ([Hang()], {"api-error", "timeout"}),
        "refusal": ([refusal], {"refused"}),
    }


def make_agent(make_bare_agent, case: Case, guard: Any):
    if case.phase == "input":
        return make_bare_agent(["The model's answer."], input_processors=[guard], audit=True)
    return make_bare_agent([case.text], instructions=SYSTEM, output_processors=[guard],
                           audit=True)


def user_texts(agent) -> list[str]:
    return [p["text"] for r in agent.model.requests for m in r.prompt if m["role"] == "user"
            for p in m["content"] if p["type"] == "text"]


PARAMS = [(name, wire, fault) for name in CASES for wire in ("openai", "anthropic")
          for fault in ("malformed", "429", "no-answer", "refusal")]


async def run_against(llm_server, make_bare_agent, name: str, wire: str, fault: str, *,
                      fail_open: bool = False) -> tuple[Any, Any]:
    """``(agent, result)``, or ``(agent, the ProcessorError)`` when the run failed: the
    processor ``name`` with a judge over ``wire`` whose server answers with ``fault``."""
    case = CASES[name]
    llm_server.script(*faults(wire)[fault][0])
    input_text = case.text if case.phase == "input" else "hi"
    async with llm_server.model(wire, model="judge-test", timeout=0.3, max_retries=1) as model:
        guard = case.build(model)
        guard.fail_open = fail_open
        agent = make_agent(make_bare_agent, case, guard)
        try:
            return agent, await agent.generate(input_text)
        except ProcessorError as error:
            return agent, error


@pytest.mark.parametrize(("name", "wire", "fault"), PARAMS)
async def test_a_judge_without_a_verdict_fails_the_run_closed(
        llm_server, make_bare_agent, name, wire, fault):
    case, kinds = CASES[name], faults(wire)[fault][1]
    agent, error = await run_against(llm_server, make_bare_agent, name, wire, fault)

    assert isinstance(error, ProcessorError), error

    assert error.processor_id == name
    cause = error.__cause__
    assert isinstance(cause, JudgeError) and cause.kind in kinds, repr(cause)
    assert case.text not in str(error) and case.text not in str(cause)
    if case.phase == "input":
        assert agent.model.requests == []  # nothing reached the model unjudged
    if fault == "refusal":
        assert len(llm_server.requests) == 1  # a refusal is not asked again


@pytest.mark.parametrize(("name", "wire", "fault"), PARAMS)
async def test_with_fail_open_the_run_goes_on_and_the_audit_says_so(
        llm_server, make_bare_agent, name, wire, fault):
    case = CASES[name]
    agent, result = await run_against(llm_server, make_bare_agent, name, wire, fault,
                                      fail_open=True)

    if case.phase == "input":
        assert user_texts(agent) == [case.text] and result.text == "The model's answer."
    else:
        assert result.text == case.text
    assert result.tripwire is None
    outcomes = {(r.processor_id, r.outcome) for r in result.audit}
    assert (name, "fail-open") in outcomes


@pytest.mark.parametrize("name", list(CASES))
async def test_judge_timeout_ends_an_attempt_the_provider_would_still_wait_for(
        llm_server, make_bare_agent, name):
    """``judge_timeout`` bounds each judge attempt, whatever the provider's own timeout
    (here 30 s): a server that never answers is a ``timeout`` JudgeError."""
    case = CASES[name]
    llm_server.script(Hang())
    async with llm_server.model("openai", model="judge-test", timeout=30, max_retries=0
                                ) as model:
        guard = case.build(model, judge_timeout=0.2)
        agent = make_agent(make_bare_agent, case, guard)
        with pytest.raises(ProcessorError) as info:
            await agent.generate(case.text if case.phase == "input" else "hi")
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "timeout"


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("value", [0, -1, "soon", True])
def test_a_bad_judge_timeout_is_a_configuration_error_naming_it(name, value):
    from tripwire import ConfigurationError
    from tripwire.testing import MockModel

    with pytest.raises(ConfigurationError, match=f"{name}: judge_timeout must be a number"):
        CASES[name].build(MockModel([]), judge_timeout=value)


@pytest.mark.parametrize("name", ["pii-detector", "prompt-injection-detector",
                                  "language-detector", "system-prompt-scrubber"])
def test_judge_timeout_is_an_option_in_toml_tables(name):
    from tripwire.config import build_processors

    extra = {"strategy": "translate"} if name == "language-detector" else {}
    (guard,) = build_processors([{"use": name, "model": "openai/judge-test",
                                  "judge_timeout": 1.5, **extra}])
    assert guard.judge.timeout == 1.5
