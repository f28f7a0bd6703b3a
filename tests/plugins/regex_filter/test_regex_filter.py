"""regex-filter: named patterns blocked, redacted or reported everywhere a value can go
(input, streamed text and reasoning, tool-call arguments, tool results, the final
response), whatever the chunking; reports never hold what matched."""

from __future__ import annotations

import asyncio
import re
import textwrap
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tripwire.plugins
from tests.support.helpers import CountsText, first_release, run_collected, strings, texts
from tripwire import (
    Agent,
    ConfigurationError,
    Message,
    Processor,
    ProcessorViolation,
    TextPart,
    hookimpl,
    tool,
)
from tripwire.guards.verdicts import Verdict
from tripwire.plugins.regex_filter import PRESETS, RegexFilter, Rule
from tripwire.plugins.regex_filter import rules as _regex
from tripwire.testing import MockModel, MockResponse

EMAIL = "ann.lee@example.com"
CARD = "4111 1111 1111 1111"
SSN = "123-45-6789"


# ---------------------------------------------------------------- helpers


def text_chunk(text: str, id: str = "t1") -> dict[str, str]:
    return {"type": "text-delta", "id": id, "text": text}


def reasoning_chunk(text: str, id: str = "r1") -> dict[str, str]:
    return {"type": "reasoning-delta", "id": id, "text": text}


def deltas(*texts: str, id: str = "t1") -> MockResponse:
    return MockResponse(chunks=[text_chunk(t, id) for t in texts])


def call(args: dict[str, Any], name: str = "lookup", id: str = "c1") -> MockResponse:
    return MockResponse(tool_calls=[{"tool_name": name, "tool_call_id": id, "args": args}])


async def run(agent: Agent, prompt: str | list[Message] = "hi", mode: str = "stream"):
    """``(chunks, result)``: the chunks the client received (none for generate) and
    the run's result."""
    return await run_collected(agent, prompt, mode == "stream")






def holding(secret: str, *values: Any) -> list[str]:
    """The strings of ``values`` that hold ``secret``."""
    return [s for s in strings(list(values)) if secret in s]


def prompt_of(model: MockModel, i: int) -> list[dict[str, Any]]:
    return model.requests[i].prompt


def user_texts(model: MockModel, i: int = 0) -> list[str]:
    return [p["text"] for m in prompt_of(model, i) if m["role"] == "user"
            for p in m["content"] if p["type"] == "text"]


def recording_tool(calls: list[dict[str, Any]], result: Any):
    @tool
    def lookup(query: str) -> Any:
        """Look something up."""
        calls.append({"query": query})
        return result

    return lookup


def guard_text(guard: RegexFilter, text: str) -> str:
    """``text`` as an input message after ``guard`` (redact)."""
    message = Message.user(text)
    asyncio.run(guard.process_input([message], abort=None, writer=NullWriter()))
    return message.text


class NullWriter:
    """A stand-in for the ``writer`` of a hook called directly."""

    def __init__(self):
        self.verdicts: list[Verdict] = []

    def report(self, verdict):
        self.verdicts.append(verdict)


@pytest.fixture
def agent_with(make_bare_agent):
    """An agent around ``model`` with these input / output processors."""

    def make(model, *, inputs=(), outputs=(), tools=None):
        return make_bare_agent(model=model, input_processors=list(inputs),
                               output_processors=list(outputs), tools=tools)

    return make


class AddsToTheResponse(Processor):
    """Appends ``text`` to the final response (process_output_result), where only a
    check of the final messages sees it."""

    id = "adds"

    def __init__(self, text: str):
        self.text = text

    @hookimpl
    def process_output_result(self, messages):
        messages[-1].content.parts.append(TextPart(self.text))
        return messages


# ---------------------------------------------------------------- options


def test_presets_hold_the_reference_rules_and_replacements():
    assert {name: [(r.name, r.replacement) for r in rules] for name, rules in PRESETS.items()} == {
        "pii": [("email", "[EMAIL]"), ("phone", "[PHONE]"), ("ssn", "[SSN]"),
                ("credit-card", "[CREDIT_CARD]")],
        "secrets": [("api-key", "[API_KEY]"), ("bearer-token", "[BEARER_TOKEN]"),
                    ("aws-key", "[AWS_KEY]"), ("url-credentials", "[URL_CREDENTIALS]")],
        "urls": [("url", "[URL]")],
    }


@pytest.mark.parametrize("rule", [r for rules in PRESETS.values() for r in rules],
                         ids=lambda r: r.name)
def test_each_preset_rule_declares_the_longest_match_its_pattern_can_make(rule):
    import re._parser as parser  # the stdlib's own measure of a pattern

    assert parser.parse(rule.pattern).getwidth()[1] == rule.max_length


def test_rules_are_tables_or_rule_objects_with_the_default_replacement():
    guard = RegexFilter([{"name": "order", "pattern": r"ORD-\d{6}"},
                         Rule("pin", r"PIN \d{4}", "[PIN]")])
    assert guard.rules == [Rule("order", r"ORD-\d{6}"), Rule("pin", r"PIN \d{4}", "[PIN]")]
    assert [r.replacement for r in guard.active_rules] == ["[REDACTED]", "[PIN]"]
    assert (guard.strategy, guard.phase, guard.presets) == ("block", "all", [])


def test_rules_come_first_then_each_presets_rules_in_order():
    guard = RegexFilter([{"name": "order", "pattern": r"ORD-\d{6}"}],
                        presets=["urls", "pii", "urls"])
    assert guard.presets == ["urls", "pii"]
    assert [r.name for r in guard.active_rules] == [
        "order", "url", "email", "phone", "ssn", "credit-card"]


@pytest.mark.parametrize(("pattern", "bound"), [
    ("hunter2", 7),                 # a literal: its length
    (r"a\.b\+c", 5),                # escapes count once
    (r"ORD-\d{6}", 10),             # a bounded pattern: its longest match
    (r"(?i:secret|password)", 8),
    (r"(?<!\w)\d{3}(?!\d)", 3),     # look-arounds cover nothing
])
def test_max_length_is_computed_for_bounded_patterns(pattern, bound):
    (rule,) = RegexFilter([{"name": "r", "pattern": pattern}]).active_rules
    assert rule.max_length == bound


def test_max_length_is_kept_when_given_and_is_how_much_the_stream_holds_back():
    guard = RegexFilter([{"name": "id", "pattern": r"ID\d+", "max_length": 12},
                         {"name": "pw", "pattern": "hunter2", "max_length": 20}])
    assert [r.max_length for r in guard.active_rules] == [12, 20]
    assert guard.max_length == 20


async def test_an_unbounded_pattern_guards_a_split_value_up_to_its_max_length(agent_with):
    model = MockModel([deltas("ref ID12", "345 and ID9", "9 ok")])
    guard = RegexFilter([{"name": "id", "pattern": r"ID\d+", "max_length": 12}],
                        strategy="redact")
    chunks, result = await run(agent_with(model, outputs=[guard]))
    assert texts(chunks) == result.text == "ref [REDACTED] and [REDACTED] ok"


def test_without_the_stdlib_parser_literal_patterns_still_get_their_length(monkeypatch):
    monkeypatch.setattr(_regex, "_PARSER", None)
    guard = RegexFilter([{"name": "pw", "pattern": r"hunter2\!"},
                         {"name": "code", "pattern": r"(?<!\w)C-\d{4}", "max_length": 6}],
                        strategy="redact")
    assert [r.max_length for r in guard.active_rules] == [8, 6]
    with pytest.raises(ConfigurationError, match="the longest match of .* cannot be computed"):
        RegexFilter([{"name": "code", "pattern": r"C-\d{4}"}])
    with pytest.raises(ConfigurationError, match="can match the empty string"):
        RegexFilter([{"name": "e", "pattern": "x*", "max_length": 3}])
    assert guard_text(guard, "a hunter2! and C-1234, xC-9999") == "a [REDACTED] and [REDACTED], xC-9999"


@pytest.mark.parametrize(("options", "message"), [
    ({}, "give at least one rule or preset"),
    ({"rules": []}, "give at least one rule or preset"),
    ({"presets": []}, "give at least one rule or preset"),
    ({"presets": ["pii"], "strategy": "redcat"},
     "option 'strategy' must be one of 'block', 'redact', 'warn' or 'mask' \\(= 'redact'\\), got "
     "'redcat' \\(did you mean 'redact'\\?\\)"),
    ({"presets": ["pii"], "phase": "both"}, "phase must be one of input, output, all; got 'both'"),
    ({"presets": ["passwords"]}, r"presets must be a list of 'pii', 'secrets', 'urls'; got \['pass"),
    ({"presets": "pii"}, r"presets must be a list of 'pii', 'secrets', 'urls'; got 'pii'"),
    ({"rules": {"name": "a", "pattern": "b"}}, r"rules must be a list of rules"),
    ({"rules": ["secret"]}, r"rule 0 must be a table \{name, pattern, replacement, max_"),
    ({"rules": [{"name": "a", "pattern": "b", "replace": "x"}]}, r"rule 0 has no key 'replace'"),
    ({"rules": [{"pattern": "b"}]}, r"rule 0 needs 'name'; a rule has name, pattern"),
    ({"rules": [{"name": "a"}]}, r"rule 0 needs 'pattern'"),
    ({"rules": [{"name": "a", "pattern": 3}]}, r"rule 0 must be"),
    ({"rules": [{"name": "", "pattern": "b"}]}, r"rule 0 \(''\): name must be a non-empty"),
    ({"rules": [{"name": "a", "pattern": "("}]}, r"rule 0 \('a'\): pattern '\(' is not a valid"),
    ({"rules": [{"name": "a", "pattern": "x?"}]}, "can match the empty string"),
    ({"rules": [{"name": "a", "pattern": r"\b"}]}, "can match the empty string"),
    ({"rules": [{"name": "a", "pattern": r"\d+"}]},
     r"rule 0 \('a'\): pattern '\\\\d\+' can match without bound; give max_length"),
    ({"rules": [{"name": "a", "pattern": r"\d{4}", "max_length": 3}]},
     r"max_length 3 is less than the longest match of '\\\\d\{4\}' \(4 characters\)"),
    ({"rules": [{"name": "a", "pattern": "b", "max_length": 0}]}, "max_length must be an integer >= 1"),
    ({"rules": [{"name": "a", "pattern": "b", "max_length": True}]},
     r"rule 0 must be a Rule .* expected int \| None @ value.max_length"),
    ({"rules": [{"name": "a", "pattern": "b"}, {"name": "a", "pattern": "c"}]},
     r"rule name 'a' is used twice \(rule 0 and rule 1\)"),
    ({"rules": [{"name": "email", "pattern": "b"}], "presets": ["pii"]},
     r"rule name 'email' is used twice \(rule 0 and preset 'pii'\)"),
    ({"rules": [{"name": "a", "pattern": "EMAIL"}], "presets": ["pii"], "strategy": "redact"},
     r"the replacement '\[EMAIL\]' of rule 'email' is matched by rule 'a'"),
])
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        RegexFilter(**options)


def test_a_replacement_a_rule_matches_is_fine_when_nothing_is_replaced():
    RegexFilter([{"name": "a", "pattern": "REDACTED"}], strategy="block")
    RegexFilter([{"name": "a", "pattern": "REDACTED"}], strategy="warn")


# ---------------------------------------------------------------- what the presets find


@pytest.mark.parametrize(("text", "expected"), [
    # pii
    (f"mail {EMAIL} now", "mail [EMAIL] now"),
    ("to: Jo.Ann+tag@mail.dept.example.co.uk.", "to: [EMAIL]."),
    ("call (555) 123-4567 or 555.123.4567 or 5551234567", "call [PHONE] or [PHONE] or [PHONE]"),
    ("abroad: +44 20 7946 0958, +1 (555) 123-4567", "abroad: [PHONE], [PHONE]"),
    (f"ssn {SSN}.", "ssn [SSN]."),
    (f"card {CARD}; 4111-1111-1111-1111; 4111111111111111", "card [CREDIT_CARD]; [CREDIT_CARD]; [CREDIT_CARD]"),
    ("amex 3782 822463 10005", "amex [CREDIT_CARD]"),
    # secrets
    ("key sk-proj-abcdefghijklmnopqrstuvwx1234 ok", "key [API_KEY] ok"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [API_KEY]"),
    ("slack xoxb-1234567890-abcdefghij", "slack [API_KEY]"),
    ("stripe sk_live_abcdefghijklmnop1234", "stripe [API_KEY]"),
    ('config: api_key = "abcd1234efgh5678"', 'config: [API_KEY]"'),
    ("OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz", "OPENAI_[API_KEY]"),
    ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "AWS_SECRET_[API_KEY]"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_-x==", "Authorization: [BEARER_TOKEN]"),
    ("id AKIAIOSFODNN7EXAMPLE and ASIAIOSFODNN7EXAMPLE", "id [AWS_KEY] and [AWS_KEY]"),
    ("DATABASE_URL=postgres://app:Xk29fLq7@db.internal:5432/shop.",
     "DATABASE_URL=[URL_CREDENTIALS]."),
    ("cache redis://:Zx81kPq@cache:6379/0, jdbc:mysql://root:T00r!@10.0.0.5/shop",
     "cache [URL_CREDENTIALS], [URL_CREDENTIALS]"),
    ("mirror https://bob:s3cr3t@files.example.com/a (private)",
     "mirror [URL_CREDENTIALS] (private)"),
    # urls
    ("see https://example.com/a?b=c, or HTTP://x.org/p.", "see [URL], or [URL]."),
    ("at www.example.org/docs) and ftp://files.example.net", "at [URL]) and [URL]"),
])
def test_the_presets_find_what_they_name(text, expected):
    guard = RegexFilter(presets=["pii", "secrets", "urls"], strategy="redact")
    assert guard_text(guard, text) == expected


@pytest.mark.parametrize(("presets", "expected"), [
    (["secrets", "urls"], "get [URL_CREDENTIALS] now"), (["urls", "secrets"], "get [URL] now")])
def test_a_web_address_with_a_password_is_replaced_by_the_rule_listed_first(presets, expected):
    guard = RegexFilter(presets=presets, strategy="redact")
    assert guard_text(guard, "get https://bob:s3cr3t@files.example.com/a now") == expected


@pytest.mark.parametrize("text", [
    "order 12345678 shipped; version 1.2.3; on 2024-01-15 at 10:30",
    "ISBN 978-3-16-148410-0 and +100 points",
    "user@localhost, monkey=bananas12345, a bearer of news",
    "sk-short, AKIA123, AKIAIOSFODNN7EXAMPLEX, the key: value",
    "https:/broken and wwwexample.com",
])
def test_the_presets_leave_look_alikes_alone(text):
    guard = RegexFilter(presets=["pii", "secrets", "urls"], strategy="redact")
    assert guard_text(guard, text) == text


def test_rules_of_every_kind_match_like_python_regular_expressions():
    guard = RegexFilter([
        {"name": "word-start", "pattern": r"(?<!\w)[A-Z]{3}-\d{4}(?!\d)", "replacement": "[CODE]"},
        {"name": "anywhere", "pattern": r"ORD-\d{6}", "replacement": "[ORDER]"},
        {"name": "alternation", "pattern": r"(?<!\w)pin \d{4}|cvv\d{3}", "replacement": "[PIN]"},
        {"name": "groups", "pattern": r"(\w)\1{3}", "replacement": "[RUN]"},  # backreference
        {"name": "flags", "pattern": r"(?i)hunter2", "replacement": "[PW]"},   # global flag
        {"name": "named", "pattern": r"(?P<a>zz)-(?P=a)", "replacement": "[ZZ]"},
    ], strategy="redact")
    text = "ABC-1234 xABC-1234 xORD-123456 pin 1234 xpin 1234 xcvv123 aaaa HUNTER2 zz-zz"
    assert guard_text(guard, text) == (
        "[CODE] xABC-1234 x[ORDER] [PIN] xpin 1234 x[PIN] [RUN] [PW] [ZZ]")


# ---------------------------------------------------------------- input


async def test_block_stops_the_run_before_the_model_sees_the_input(agent_with):
    model = MockModel(["never"])
    guard = RegexFilter(presets=["pii"])
    result = await agent_with(model, inputs=[guard]).generate(f"I am {EMAIL}, ssn {SSN}, {EMAIL}")
    assert model.requests == []
    assert result.tripwire.processor_id == "regex-filter"
    assert result.tripwire.reason == "Regex filter: blocked content matching patterns: email, ssn"
    assert result.tripwire.retry is False
    assert result.tripwire.metadata == {
        "processor_id": "regex-filter", "channel": "input", "strategy": "block",
        "action": "blocked", "types": ["email", "ssn"],
        "detections": [
            {"type": "email", "start": 5, "end": 24, "score": 1.0},
            {"type": "ssn", "start": 30, "end": 41, "score": 1.0},
            {"type": "email", "start": 43, "end": 62, "score": 1.0},
        ],
        "matches": [{"rule": "email", "count": 2, "channel": "input"},
                    {"rule": "ssn", "count": 1, "channel": "input"}],
    }


async def test_redact_changes_what_the_model_sees_and_what_is_stored(agent_with):
    model = MockModel(["ok"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    chunks, result = await run(agent_with(model, inputs=[guard]), f"mail {EMAIL} or ssn {SSN}")
    assert user_texts(model) == ["mail [EMAIL] or ssn [SSN]"]
    assert not holding(EMAIL, result.messages, [r.prompt for r in model.requests], chunks)
    (verdict,) = result.verdicts
    assert (verdict.channel, verdict.action, verdict.types) == ("input", "redacted", ["email", "ssn"])


async def test_redact_reaches_every_text_an_input_message_carries(agent_with):
    model = MockModel(["ok"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    history = Message.assistant(f"noted {EMAIL}")
    plain = Message.user("")
    plain.content.parts = []
    plain.content.content = f"and {SSN}"
    await agent_with(model, inputs=[guard]).generate([history, plain, Message.user("thanks")])
    assert not holding(EMAIL, prompt_of(model, 0)) and not holding(SSN, prompt_of(model, 0))
    assert [history.text, plain.content.content] == ["noted [EMAIL]", "and [SSN]"]


async def test_redact_a_callers_system_message_sent_as_input(make_bare_agent):
    """``caller_system="input"`` (tripwire serve's clients): the caller's system
    message is input and is redacted; the agent's instructions are not touched."""
    model = MockModel(["ok"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    agent = make_bare_agent(model=model, input_processors=[guard],
                            instructions=f"Escalate to {EMAIL}.")
    await agent.generate([{"role": "system", "content": f"The user is {EMAIL}."}, "hi"],
                         caller_system="input")
    assert model.requests[0].prompt[:2] == [
        {"role": "system", "content": f"Escalate to {EMAIL}."},
        {"role": "system", "content": "The user is [EMAIL]."}]


async def test_warn_changes_nothing_and_tells_on_violation(agent_with):
    seen: list[ProcessorViolation] = []
    model = MockModel(["ok"])
    guard = RegexFilter(presets=["pii"], strategy="warn")
    guard.on_violation = seen.append
    result = await agent_with(model, inputs=[guard]).generate(f"mail {EMAIL}")
    assert user_texts(model) == [f"mail {EMAIL}"]
    assert result.tripwire is None
    (violation,) = seen
    assert violation.message == "Regex filter: found content matching patterns: email"
    assert violation.detail["matches"] == [{"rule": "email", "count": 1, "channel": "input"}]
    assert [(v.channel, v.action, v.strategy) for v in result.verdicts] == [
        ("input", "warned", "warn")]


# ---------------------------------------------------------------- strategy x phase

BOTH = {"input": f"I am {EMAIL}", "reply": f"your ssn is {SSN}"}


@pytest.mark.parametrize("phase", ["input", "output", "all"])
@pytest.mark.parametrize("strategy", ["block", "redact", "warn"])
async def test_each_strategy_in_each_phase(agent_with, strategy, phase):
    """The same instance in both lists; ``phase`` says which side acts."""
    model = MockModel([BOTH["reply"]])
    guard = RegexFilter(presets=["pii"], strategy=strategy, phase=phase)
    chunks, result = await run(agent_with(model, inputs=[guard], outputs=[guard]), BOTH["input"])
    on_input, on_output = phase in ("input", "all"), phase in ("output", "all")
    if strategy == "block" and on_input:
        assert model.requests == [] and result.tripwire.metadata["channel"] == "input"
        return
    # The input, as the model saw it.
    assert user_texts(model) == (["I am [EMAIL]"] if strategy == "redact" and on_input
                                 else [BOTH["input"]])
    if strategy == "block":  # output phase only
        assert result.tripwire.reason == "Regex filter: blocked content matching patterns: ssn"
        assert result.tripwire.metadata["channel"] == "output"
        assert SSN not in texts(chunks) and result.text == ""
        return
    assert result.tripwire is None
    replied = "your ssn is [SSN]" if strategy == "redact" and on_output else BOTH["reply"]
    assert texts(chunks) == result.text == replied
    expected = [("input", "email")] * on_input + [("output", "ssn")] * on_output
    assert [(v.channel, *v.types) for v in result.verdicts] == expected
    assert {v.action for v in result.verdicts} <= {"redacted" if strategy == "redact" else "warned"}


@pytest.mark.parametrize("stop", ["\u3002", "\uff61", "\uff0e", "\ufe52"])
@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_an_email_whose_domain_uses_another_full_stop_is_redacted(agent_with, stop, mode):
    """``ann.lee@example。com`` is an address to whoever reads it (the ideographic,
    halfwidth, fullwidth and small full stops); cut at every boundary in the stream."""
    value = f"ann.lee@mail{stop}example{stop}com"
    text = f"write to {value} today"
    for at in range(1, len(text)) if mode == "stream" else [len(text)]:
        model = MockModel([deltas(text[:at], text[at:])])
        chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"],
                                                                         strategy="redact")]),
                                   mode=mode)
        assert result.text == "write to [EMAIL] today"
        if mode == "stream":
            assert texts(chunks) == result.text


# ---------------------------------------------------------------- streamed text


@pytest.mark.parametrize("cut", range(1, len(CARD)))
@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_a_card_split_at_any_boundary_is_redacted(agent_with, cut, mode):
    text = f"pay with {CARD} today"
    at = len("pay with ") + cut
    model = MockModel([deltas(text[:at], text[at:])])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"],
                                                                     strategy="redact")]),
                               mode=mode)
    assert result.text == "pay with [CREDIT_CARD] today"
    if mode == "stream":
        assert texts(chunks) == result.text
    assert not holding(CARD, chunks, result.messages, result.steps)


@pytest.mark.parametrize("cut", range(1, len(CARD)))
async def test_a_card_split_at_any_boundary_is_blocked_before_any_of_it_streams(agent_with, cut):
    text = f"pay with {CARD} today"
    at = len("pay with ") + cut
    model = MockModel([deltas(text[:at], text[at:])])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"])]))
    assert chunks[-1].type == "tripwire"
    assert result.tripwire.reason == "Regex filter: blocked content matching patterns: credit-card"
    assert "4111" not in texts(chunks)
    assert result.text == "" and not holding("4111", result.messages)


async def test_a_value_split_across_text_ids_and_into_single_characters_is_redacted(agent_with):
    text = f"ssn {SSN}!"
    pieces = [text_chunk(ch, id=f"t{i % 3}") for i, ch in enumerate(text)]
    model = MockModel([MockResponse(chunks=pieces)])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"],
                                                                     strategy="redact")]))
    assert texts(chunks) == result.text == "ssn [SSN]!"
    # Text around the value keeps its chunks and ids.
    assert [(c.payload["id"], c.payload["text"]) for c in chunks if c.type == "text-delta"][:4] == [
        ("t0", "s"), ("t1", "s"), ("t2", "n"), ("t0", " ")]


async def test_text_without_matches_arrives_in_its_chunks_ids_and_order(agent_with):
    model = MockModel([MockResponse(chunks=[text_chunk("Hello wor", "t1"),
                                            text_chunk("ld. Sec", "t2"),
                                            text_chunk("ond", "t1")])])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"])]))
    assert [(c.payload["id"], c.payload["text"]) for c in chunks if c.type == "text-delta"] == [
        ("t1", "Hello wor"), ("t2", "ld. Sec"), ("t1", "ond")]
    assert result.text == "Hello world. Second"


async def test_text_before_the_window_streams_before_the_reply_ends(agent_with):
    """A small rule holds back only its own length: earlier text is released as it
    comes (before the step ends), in its chunks."""
    model = MockModel([deltas("one two three ", "four five six ", "PIN 1234 ", "seven")])
    guard = RegexFilter([{"name": "pin", "pattern": r"PIN \d{4}"}], strategy="redact")
    chunks, _ = await run(agent_with(model, outputs=[guard]))
    kinds = [(c.type, c.payload.get("text")) for c in chunks]
    finish = kinds.index(("step-finish", None))
    assert kinds.index(("text-delta", "one two three ")) < finish
    assert texts(chunks) == "one two three four five six [REDACTED] seven"


async def test_reasoning_is_redacted_across_its_chunks(agent_with):
    model = MockModel([MockResponse(chunks=[reasoning_chunk("the user is ann.lee@exa"),
                                            reasoning_chunk("mple.com, so"), text_chunk("ok")])])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"],
                                                                     strategy="redact")]))
    assert texts(chunks, "reasoning-delta") == "the user is [EMAIL], so"
    assert result.steps[0].reasoning == "the user is [EMAIL], so"
    assert not holding(EMAIL, result.messages, chunks)
    assert [(v.channel, v.types) for v in result.verdicts] == [("reasoning", ["email"])]


async def test_reasoning_is_blocked(agent_with):
    model = MockModel([MockResponse(reasoning=f"I could reveal {SSN}", text="no")])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"])]))
    assert result.tripwire.metadata["matches"] == [
        {"rule": "ssn", "count": 1, "channel": "reasoning"}]
    assert SSN not in texts(chunks, "reasoning-delta")


async def test_a_value_cut_by_a_tool_call_never_reaches_the_client_whole(agent_with):
    model = MockModel([
        MockResponse(chunks=[text_chunk("ssn 123-45"),
                             {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                              "args": {"query": "x"}}], finish_reason="tool-calls"),
        deltas("-6789 ok"),
    ])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    chunks, result = await run(agent_with(model, outputs=[guard],
                                          tools=[recording_tool([], "found")]))
    assert texts(chunks) == result.text == "ssn 123-45[SSN] ok"


async def test_a_value_cut_by_a_tool_call_is_blocked_when_it_completes(agent_with):
    model = MockModel([
        MockResponse(chunks=[text_chunk("ssn 123-45"),
                             {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                              "args": {"query": "x"}}], finish_reason="tool-calls"),
        deltas("-6789 ok"),
    ])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"])],
                                          tools=[recording_tool([], "found")]))
    assert result.tripwire.metadata["matches"] == [{"rule": "ssn", "count": 1, "channel": "output"}]
    assert "6789" not in texts(chunks)


# ---------------------------------------------------------------- tool calls and results


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_redacted_tool_call_arguments_are_what_the_tool_runs_with(agent_with, mode):
    calls: list[dict[str, Any]] = []
    model = MockModel([call({"query": f"find {EMAIL} and {CARD}"}), "done"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    chunks, result = await run(agent_with(model, outputs=[guard],
                                          tools=[recording_tool(calls, "none")]), mode=mode)
    redacted = {"query": "find [EMAIL] and [CREDIT_CARD]"}
    assert calls == [redacted]                                                  # the tool
    assert result.tool_calls[0].args == redacted                                # the history
    assistant = [m for m in prompt_of(model, 1) if m["role"] == "assistant"][0]
    assert assistant["content"][-1]["input"] == redacted                        # the model
    if mode == "stream":
        (sent,) = [c for c in chunks if c.type == "tool-call"]
        assert sent.payload["args"] == redacted                                 # the client
    assert not holding(EMAIL, chunks, result.messages, [r.prompt for r in model.requests])
    assert [(v.channel, v.types) for v in result.verdicts] == [
        ("tool-call", ["email", "credit-card"])]


async def test_a_blocked_tool_call_never_runs(agent_with):
    calls: list[dict[str, Any]] = []
    model = MockModel([call({"query": f"ssn {SSN}"}), "never"])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["pii"])],
                                          tools=[recording_tool(calls, "x")]))
    assert calls == []
    assert result.tripwire.metadata["matches"] == [{"rule": "ssn", "count": 1, "channel": "tool-call"}]
    assert "tool-call" not in [c.type for c in chunks]
    assert len(model.requests) == 1


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_a_redacted_tool_result_is_what_the_model_the_client_and_the_history_see(
    agent_with, mode,
):
    found = {"name": "ann", "email": EMAIL, "cards": [CARD, 4111111111111111], "n": 3}
    model = MockModel([call({"query": "ann"}), "done"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    chunks, result = await run(agent_with(model, outputs=[guard],
                                          tools=[recording_tool([], found)]), mode=mode)
    redacted = {"name": "ann", "email": "[EMAIL]", "cards": ["[CREDIT_CARD]", "[CREDIT_CARD]"],
                "n": 3}
    tool_message = [m for m in prompt_of(model, 1) if m["role"] == "tool"][0]
    assert tool_message["content"][0]["output"] == redacted                     # the model
    assert result.tool_results[0].result == redacted                            # the history
    if mode == "stream":
        (sent,) = [c for c in chunks if c.type == "tool-result"]
        assert sent.payload["result"] == redacted                               # the client
    assert not holding(EMAIL, chunks, result.messages, [r.prompt for r in model.requests])
    assert not holding("4111", result.messages)
    assert [(v.channel, v.types) for v in result.verdicts] == [("tool-result", ["email", "credit-card"])]


async def test_a_blocked_tool_result_stops_the_run_before_anyone_sees_it(agent_with):
    model = MockModel([call({"query": "ann"}), "never"])
    chunks, result = await run(agent_with(model, outputs=[RegexFilter(presets=["secrets"])],
                                          tools=[recording_tool([], "key AKIAIOSFODNN7EXAMPLE")]))
    assert result.tripwire.reason == "Regex filter: blocked content matching patterns: aws-key"
    assert result.tripwire.metadata["channel"] == "tool-result"
    assert "tool-result" not in [c.type for c in chunks]
    assert len(model.requests) == 1
    assert not holding("AKIA", chunks, result.messages)


async def test_a_tool_errors_text_is_redacted_for_the_client(agent_with):
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        raise ValueError(f"no account for {EMAIL}")

    model = MockModel([call({"query": "ann"}), "sorry"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    chunks, result = await run(agent_with(model, outputs=[guard], tools=[lookup]))
    (error,) = [c for c in chunks if c.type == "tool-error"]
    assert error.payload["error"] == "ValueError: no account for [EMAIL]"
    assert "tool-result" in [v.channel for v in result.verdicts]


# ---------------------------------------------------------------- the final response


@pytest.mark.parametrize("mode", ["stream", "generate"])
async def test_the_final_response_is_redacted_where_the_stream_never_saw_it(agent_with, mode):
    model = MockModel(["the answer"])
    guard = RegexFilter(presets=["pii"], strategy="redact")
    _, result = await run(agent_with(model, outputs=[AddsToTheResponse(f" - {EMAIL}"), guard]),
                          mode=mode)
    assert result.text == "the answer - [EMAIL]"
    assert not holding(EMAIL, result.messages)
    assert [(v.channel, v.types) for v in result.verdicts] == [("result", ["email"])]


async def test_the_final_response_is_blocked_where_the_stream_never_saw_it(agent_with):
    model = MockModel(["the answer"])
    guard = RegexFilter(presets=["pii"])
    _, result = await run(agent_with(model, outputs=[AddsToTheResponse(f" {SSN}"), guard]))
    assert result.tripwire.metadata["matches"] == [{"rule": "ssn", "count": 1, "channel": "result"}]
    assert result.text == "" and not holding(SSN, result.messages)


async def test_warn_reports_each_value_once_though_the_result_still_holds_it(agent_with):
    seen: list[ProcessorViolation] = []
    model = MockModel([call({"query": EMAIL}), MockResponse(reasoning=f"r {SSN}",
                                                            text=f"mail {EMAIL}")])
    guard = RegexFilter(presets=["pii"], strategy="warn")
    guard.on_violation = seen.append
    chunks, result = await run(agent_with(model, outputs=[AddsToTheResponse(f" {CARD}"), guard],
                                          tools=[recording_tool([], f"got {EMAIL}")]))
    assert result.text.startswith(f"mail {EMAIL}")
    assert [(v.channel, v.types) for v in result.verdicts] == [
        ("tool-call", ["email"]), ("tool-result", ["email"]), ("reasoning", ["ssn"]),
        ("output", ["email"]), ("result", ["credit-card"])]
    assert len(seen) == 5


# ---------------------------------------------------------------- reports never hold the value


async def test_tripwires_violations_and_verdicts_never_hold_the_matched_text(agent_with):
    seen: list[ProcessorViolation] = []
    secret = "AKIAIOSFODNN7EXAMPLE"
    runs = []
    for strategy in ("block", "redact", "warn"):
        for responses in ([deltas("key AKIAIOSF", "ODNN7EXAMPLE ok")],
                          [MockResponse(reasoning=f"r {secret}", text="x")],
                          [call({"query": secret}), "done"]):
            guard = RegexFilter(presets=["secrets"], strategy=strategy)
            guard.on_violation = seen.append
            chunks, result = await run(agent_with(MockModel(responses), outputs=[guard],
                                                  tools=[recording_tool([], "ok")]))
            runs.append((strategy, result))
            reports = [[c.payload for c in chunks if c.type == "tripwire"],
                       [v.to_metadata() for v in result.verdicts], result.tripwire]
            assert not holding("AKIA", reports), strategy
            assert not holding("EXAMPLE", reports), strategy
    assert seen and not holding("AKIA", seen) and not holding("EXAMPLE", seen)
    assert all(r.tripwire is not None for s, r in runs if s == "block")
    assert all(r.verdicts for s, r in runs if s != "block")


async def test_a_failing_on_violation_is_swallowed(agent_with):
    def explode(violation):
        raise RuntimeError("monitoring is down")

    guard = RegexFilter(presets=["pii"], strategy="warn")
    guard.on_violation = explode
    _, result = await run(agent_with(MockModel([f"mail {EMAIL}"]), outputs=[guard]))
    assert result.tripwire is None and result.text == f"mail {EMAIL}"


# ---------------------------------------------------------------- found by name


def test_created_by_name_with_its_options_checked(only_plugins):
    only_plugins("regex-filter")
    entry = tripwire.plugins.available()["regex-filter"]
    assert entry.cls is RegexFilter and entry.status == "ok"
    assert entry.hooks == ("process_input", "process_output_stream", "process_output_result",
                           "process_tool_result")
    guard = tripwire.plugins.create("regex-filter", presets=["pii"], strategy="redact",
                                    rules=[{"name": "pin", "pattern": r"PIN \d{4}"}])
    assert [r.name for r in guard.active_rules] == ["pin", "email", "phone", "ssn", "credit-card"]
    with pytest.raises(ConfigurationError, match="option 'strategy' must be one of 'block', "
                                                 "'redact', 'warn', 'mask', got 'redcat'"):
        tripwire.plugins.create("regex-filter", presets=["pii"], strategy="redcat")
    with pytest.raises(ConfigurationError, match="processor 'regex-filter': give "
                                                 "at least one rule or preset"):
        tripwire.plugins.create("regex-filter")
    with pytest.raises(ConfigurationError, match=r"rule 0 has no key 'flags'"):
        tripwire.plugins.create("regex-filter", rules=[{"name": "a", "pattern": "b",
                                                        "flags": "i"}])


def test_tripwire_plugins_lists_it_with_its_options(only_plugins, cli):
    only_plugins("regex-filter")
    code, out, _ = cli("plugins")
    assert code == 0
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("regex-filter "))
    assert lines[row].split()[1:3] == ["tripwire", tripwire.plugins.available()[
        "regex-filter"].version]
    assert "input, output_stream, output_result, tool_result" in lines[row]
    assert lines[row + 1] == (
        "  options: rules (list[Rule | dict[str, Any]] | None, default None), presets "
        "(list[Literal['pii', 'secrets', 'urls']] | None, default None), strategy "
        "(Literal['block', 'redact', 'warn', 'mask'], default 'block'), phase (Literal['input', "
        "'output', 'all'], default 'all')")


async def test_works_from_toml_by_name(tmp_path, only_plugins):
    only_plugins("regex-filter")
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent("""
        [agents.support]
        model = "models.scripted"
        input_processors = [{ use = "regex-filter", presets = ["pii"], strategy = "redact" }]
        output_processors = [
            { use = "regex-filter", strategy = "redact", phase = "output", rules = [
                { name = "order", pattern = 'ORD-\\d{6}', replacement = "[ORDER]" },
            ] },
        ]
        default_error_processors = false

        [models.scripted]
        use = "mock"
        responses = [{ text = "your order ORD-123456 is on its way" }]
    """), encoding="utf-8")
    async with Agent.from_config(str(path), "support") as agent:
        result = await agent.generate(f"where is my order? I am {EMAIL}")
    assert [type(p) for p in agent.input_processors + agent.output_processors] == [
        RegexFilter, RegexFilter]
    assert user_texts(agent.model) == ["where is my order? I am [EMAIL]"]
    assert result.text == "your order [ORDER] is on its way"


# ---------------------------------------------------------------- properties: any split, any ids

# Values the guard must keep from the client, and what replaces each. Each stands alone
# between spaces in the generated text, and the filler can form none of them, so the
# expected text is known without the guard.
PRESET_VALUES = {
    EMAIL: "[EMAIL]", CARD: "[CREDIT_CARD]", "(555) 123-4567": "[PHONE]", SSN: "[SSN]",
    "AKIAIOSFODNN7EXAMPLE": "[AWS_KEY]", "sk-abcdefghijklmnopqrstuvwx": "[API_KEY]",
    "Bearer abcdefgh12345678": "[BEARER_TOKEN]", "https://example.com/private": "[URL]",
    "ORD-123456": "[ORDER]",
}
PRESET_GUARD = {"rules": [{"name": "order", "pattern": r"ORD-\d{6}", "replacement": "[ORDER]"}],
                "presets": ["pii", "secrets", "urls"]}
# A guard that holds back little: most text is released mid-stream, through windows
# that start inside the text.
SMALL_VALUES = {"ABC-1234": "[CODE]", "ORD-123456": "[ORDER]", "hunter2": "[PW]"}
SMALL_GUARD = {"rules": [
    {"name": "code", "pattern": r"(?<!\w)[A-Z]{3}-\d{4}(?!\d)", "replacement": "[CODE]"},
    {"name": "order", "pattern": r"ORD-\d{6}", "replacement": "[ORDER]"},
    {"name": "pw", "pattern": "hunter2", "replacement": "[PW]"},
]}
# The long filler makes texts longer than the presets' window (513 characters), so
# text is released mid-stream there too.
FILLER = ["hello", "ok.", "fine,", "the", "q", "so!", "yes?", " ".join(["so", "fine."] * 60)]


@st.composite
def cases(draw, *, flushes: bool = True, apart: bool = False):
    """A guard, its values, and one or two scripted replies: text and reasoning holding
    the values, cut at random places into deltas of several ids, interleaved with each
    other and with other chunks (which flush what is held); optionally a tool call
    whose arguments and result hold a value, before a second reply. With ``apart``,
    filler stands between any two values (side by side, the match of one value can run
    into the next, and the two are found as one)."""
    values, options = draw(st.sampled_from([(PRESET_VALUES, PRESET_GUARD),
                                            (SMALL_VALUES, SMALL_GUARD)]))
    value = st.sampled_from(sorted(values))

    def channel_text(min_values: int) -> list[str]:
        items = draw(st.lists(st.one_of(value, st.sampled_from(FILLER)), max_size=12))
        for _ in range(min_values):
            items.insert(draw(st.integers(0, len(items))), draw(value))
        if apart:
            spaced: list[str] = []
            for item in items:
                if spaced and item in values and spaced[-1] in values:
                    spaced.append("q")
                spaced.append(item)
            items = spaced
        return items

    def cut(kind: str, full: str, ids: list[str]) -> list[dict[str, str]]:
        points = sorted(draw(st.lists(st.integers(0, len(full)), max_size=12)))
        bounds = [0, *points, len(full)]
        return [{"type": kind, "id": draw(st.sampled_from(ids)), "text": full[a:b]}
                for a, b in zip(bounds, bounds[1:], strict=False)]

    def chunk_sequence(text: str, reasoning: str) -> list[dict[str, Any]]:
        queues = [cut("text-delta", text, ["t1", "t2", "t3"])]
        if flushes:
            queues.append(cut("reasoning-delta", reasoning, ["r1", "r2"]))
        out: list[dict[str, Any]] = []
        while any(queues):
            choices = [q for q in queues if q] + ([None] if flushes else [])
            take = draw(st.sampled_from(choices))
            out.append(take.pop(0) if take is not None
                       else {"type": "source", "url": "https://example.org"})
        return out

    texts = [channel_text(1), channel_text(0)]
    first = chunk_sequence(" ".join(texts[0]), " ".join(texts[1]))
    responses = [MockResponse(chunks=first)]
    tool_value = None
    if flushes and draw(st.booleans()):
        tool_value = draw(value)
        first.insert(draw(st.integers(0, len(first))),
                     {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
                      "args": {"query": f"x {tool_value}"}})
        responses[0].finish_reason = "tool-calls"
        more = [channel_text(0), channel_text(0)]
        # The client concatenates the replies: the second one starts with a space.
        second = [(" " if before and after else "") + " ".join(after)
                  for before, after in zip(texts, more, strict=True)]
        responses.append(MockResponse(chunks=chunk_sequence(*second)))
        texts = [texts[0] + more[0], texts[1] + more[1]]
    return values, options, texts, responses, tool_value


def redacted_pattern(values: dict[str, str], items: list[str], *, cut: bool = True
                     ) -> re.Pattern[str]:
    """What the client may receive for the text of ``items``: the filler exactly, and
    for each run of values side by side, replacements: one per value, or fewer where
    the match of one rule ran into the next value (``(555) 123-4567 4111 ...``: the
    card's first four digits end a phone number) and both went under one replacement.
    With ``cut``, where a flush (a tool call, reasoning, another chunk) cut a value,
    pieces of it may stand around the replacements: never the value whole."""
    mark = "(?:" + "|".join(re.escape(r) for r in sorted(set(values.values()))) + ")"

    def run_form(run: list[str]) -> str:
        if not cut:
            return f"{mark}(?: {mark}){{0,{len(run) - 1}}}"
        piece = "[" + "".join(re.escape(c) for c in sorted(set(" ".join(run)))) + "]"
        return f"(?:{piece}|{mark})*?{mark}(?:{piece}|{mark})*?"

    forms: list[str] = []
    run: list[str] = []
    for item in [*items, None]:
        if item in values:
            run.append(item)
            continue
        if run:
            forms.append(run_form(run))
            run = []
        if item is not None:
            forms.append(re.escape(item))
    return re.compile(" ".join(forms))


def property_run(make_agent, options: dict[str, Any], strategy: str, responses, tool_result):
    calls: list[dict[str, Any]] = []
    model = MockModel(responses)
    guard = RegexFilter(**options, strategy=strategy)
    agent = make_agent(model=model, output_processors=[guard],
                       tools=[recording_tool(calls, tool_result)])
    chunks, result = asyncio.run(run(agent))
    return chunks, result, calls, model


PROPERTY = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@PROPERTY
@given(cases(flushes=False))
def test_property_text_split_anywhere_across_ids_arrives_redacted_and_otherwise_intact(
    make_bare_agent, case,
):
    values, options, (text, _), responses, _ = case
    chunks, result, _, _ = property_run(make_bare_agent, options, "redact", responses, "x")
    assert redacted_pattern(values, text, cut=False).fullmatch(texts(chunks)), (
        texts(chunks), text)
    assert result.text == texts(chunks)
    # Deltas keep their ids, in the order they came; nothing is duplicated.
    ids = iter(c["id"] for c in responses[0].chunks)
    assert all(c.payload["id"] in ids for c in chunks if c.type == "text-delta")
    for value in values:
        assert not holding(value, chunks, result.messages)


@PROPERTY
@given(cases())
def test_property_redact_keeps_every_value_from_the_client_the_model_and_the_tool(
    make_bare_agent, case,
):
    values, options, (text, reasoning), responses, tool_value = case
    tool_result = {"found": f"the {tool_value}"} if tool_value else "x"
    chunks, result, calls, model = property_run(make_bare_agent, options, "redact", responses,
                                                tool_result)
    assert result.tripwire is None
    assert redacted_pattern(values, text).fullmatch(texts(chunks)), (texts(chunks), text)
    assert redacted_pattern(values, reasoning).fullmatch(texts(chunks, "reasoning-delta"))
    assert result.text == texts(chunks)
    for value in values:
        assert not holding(value, [c.payload for c in chunks], result.messages, calls,
                           [r.prompt for r in model.requests]), value
    if tool_value is not None:
        assert calls == [{"query": f"x {values[tool_value]}"}]
        assert result.tool_results[0].result == {"found": f"the {values[tool_value]}"}


@PROPERTY
@given(cases())
def test_property_block_trips_before_any_value_reaches_the_client(make_bare_agent, case):
    values, options, (text, reasoning), responses, _ = case
    chunks, result, calls, _ = property_run(make_bare_agent, options, "block", responses, "x")
    assert result.tripwire is not None and result.tripwire.processor_id == "regex-filter"
    assert chunks[-1].type == "tripwire"
    for value in values:
        assert not holding(value, [c.payload for c in chunks], result.messages), value
    # What did stream is the start of the text, unchanged.
    assert " ".join(text).startswith(texts(chunks))
    assert " ".join(reasoning).startswith(texts(chunks, "reasoning-delta"))
    assert calls == []


@PROPERTY
@given(cases(apart=True))
def test_property_warn_changes_nothing_and_reports_every_value(make_bare_agent, case):
    values, options, (text, reasoning), responses, tool_value = case
    tool_result = {"found": f"the {tool_value}"} if tool_value else "x"
    chunks, result, _, _ = property_run(make_bare_agent, options, "warn", responses, tool_result)
    assert texts(chunks) == result.text == " ".join(text)
    assert texts(chunks, "reasoning-delta") == " ".join(reasoning)
    stream_found = sum(len(v.detections) for v in result.verdicts
                       if v.channel in ("output", "reasoning"))
    # Each value once, or more where a flush cut it after a part that matches on its
    # own (``ann.lee@example.co``, then ``m``: both were complete when seen).
    assert stream_found >= sum(item in values for item in text + reasoning)
    tool_found = [len(v.detections) for v in result.verdicts
                  if v.channel in ("tool-call", "tool-result")]
    assert tool_found == ([1, 1] if tool_value else [])
    # The final response still holds every value: none is reported twice. (Stored
    # reasoning is one part per reasoning id: ids that take turns put pieces side by
    # side that never were, which the final check rightly reports.)
    reasoning_ids = {c["id"] for r in responses for c in r.chunks
                     if c["type"] == "reasoning-delta" and c["text"]}
    if len(reasoning_ids) <= 1:
        assert "result" not in [v.channel for v in result.verdicts]


@PROPERTY
@given(cases(flushes=False, apart=True))
def test_property_warn_reports_each_value_of_an_unbroken_text_once(make_bare_agent, case):
    values, options, (text, _), responses, _ = case
    _, result, _, _ = property_run(make_bare_agent, options, "warn", responses, "x")
    (verdict,) = result.verdicts
    # Each value once: a value's overlapping matches of one rule are one detection.
    assert len(verdict.detections) == sum(i in values for i in text)


# ---------------------------------------------------------------- how long the stream waits


@pytest.mark.parametrize(("pattern", "one_word"), [
    (r"(?<!\w)[A-Za-z0-9._%+-]{1,64}@[a-z]{2,9}\.com(?![\w-])", True),
    (r"ORD-\d{6}\b", True), (r"\S{3,9}", True), (r"[^\s]{2,4}$", True), (r"(?i:abc)", True),
    (r"a b", False), (r"a\sb", False), (r"[^x]{2}", False), (r"x.y", False),
    (r"foo(?=bar)", False), (r"(?:a|b c)", False), (r"\W", False),
])
def test_in_one_word_reads_the_parsed_pattern(pattern, one_word):
    from tripwire.guards.window import in_one_word

    assert in_one_word(pattern) is one_word


@pytest.mark.parametrize(("presets", "most"), [
    (["urls"], 12), (["pii"], 45), (["secrets"], 530),
])
async def test_one_word_rules_hold_back_a_word_others_their_max_length(make_bare_agent,
                                                                       presets, most):
    counted = CountsText()
    model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t",
                                             "text": f"word{i} "} for i in range(300)])])
    agent = make_bare_agent(model=model, output_processors=[
        counted, RegexFilter(presets=presets, strategy="redact")])
    first, _ = await first_release(agent.stream("hi"), counted)
    assert first is not None and first <= most
