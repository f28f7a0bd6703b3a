"""pii-detector: every option, the exact redaction formats, each strategy on every path
a value can take (input, the stream, tool calls, tool results, step and final
messages, cache replays, retries), tokenize's round trip, and properties over every
way a value can be split across streamed chunks."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tripwire.plugins
from tests.support.helpers import CountsText, RejectFirst, first_release, strings, texts
from tripwire import (
    Agent,
    APICallError,
    Chunk,
    ConfigurationError,
    Message,
    Processor,
    ProcessorError,
    TextPart,
    hookimpl,
    tool,
)
from tripwire.detectors import DEFAULT_TYPES
from tripwire.guards.verdicts import Detection
from tripwire.plugins.pii_detector import PHASES, PIIDetector
from tripwire.plugins.pii_detector.redaction import mask, redact
from tripwire.plugins.pii_detector.tokenizer import Vault
from tripwire.testing import MockModel, MockResponse

CARD = "4111111111111111"
CARD_MASKED = "************1111"
EMAIL = "ada@example.com"
EMAIL_MASKED = "a*a@*******.com"
PHONE = "(415) 555-2671"
PHONE_MASKED = "(XXX) XXX-2671"
DB_URL = "postgres://app:Xk29fLq7@db.example.com:5432/shop"
DB_URL_MASKED = "postgres://***:********@**.*******.***:****/****"
TYPES = ["email", "credit-card", "phone", "url-credentials"]


# ------------------------------------------------------------------ helpers


def pii(**options: Any) -> PIIDetector:
    options.setdefault("detection_types", TYPES)
    return PIIDetector(**options)


def text(t: str, id: str = "t1") -> dict[str, str]:
    return {"type": "text-delta", "id": id, "text": t}


def thinking(t: str, id: str = "r1") -> dict[str, str]:
    return {"type": "reasoning-delta", "id": id, "text": t}


def call(args: dict[str, Any], id: str = "c1", name: str = "lookup") -> dict[str, Any]:
    return {"type": "tool-call", "tool_call_id": id, "tool_name": name, "args": args}


def deltas(*texts: str) -> MockResponse:
    return MockResponse(chunks=[text(t) for t in texts])






def holds(value: Any, needle: str) -> bool:
    return any(needle in s for s in strings(value))


def prompt_text(model: MockModel, i: int = -1) -> list[str]:
    """The texts of the text parts the model was sent in request ``i``, in order."""
    return [p["text"] for m in model.requests[i].prompt if isinstance(m["content"], list)
            for p in m["content"] if p["type"] == "text"]


def recording(calls: list[dict[str, Any]], result: Any = "done"):
    @tool
    def lookup(query: str, contact: dict[str, Any] | None = None) -> Any:
        """Look something up."""
        calls.append({"query": query, "contact": contact})
        return result

    return lookup


@pytest.fixture(params=["generate", "stream"])
def run(request):
    """``result, chunks = await run(agent, prompt)``: through ``generate`` (no chunks)
    or ``stream`` (the chunks the client received)."""

    async def go(agent: Agent, prompt: Any = "hi") -> tuple[Any, list[Chunk] | None]:
        if request.param == "generate":
            return await agent.generate(prompt), None
        stream = agent.stream(prompt)
        chunks = [c async for c in stream]
        return await stream.result, chunks

    return go


async def stream_run(agent: Agent, prompt: Any = "hi") -> tuple[Any, list[Chunk]]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return await stream.result, chunks


@pytest.fixture
def guarded(make_bare_agent):
    """``guarded(detector, responses_or_model, tools=...)``: an agent with the same
    detector instance in both lists."""

    def make(detector: PIIDetector, responses: Any = (), **options: Any) -> Agent:
        if isinstance(responses, MockModel):
            options["model"] = responses
            responses = ()
        return make_bare_agent(list(responses), input_processors=[detector],
                               output_processors=[detector], **options)

    return make


class EmployeeIds:
    """A custom detector: ``EMP-`` and six digits, scored 0.5."""

    name = "employee-id"
    types = ("employee-id",)
    max_length = 10

    def detect(self, text: str):
        for m in re.finditer(r"EMP-\d{6}", text):
            yield Detection("employee-id", m.start(), m.end(), 0.5, self.name)


# ------------------------------------------------------------------ redaction formats


@pytest.mark.parametrize(("kind", "value", "masked"), [
    ("email", "test@example.com", "t**t@*******.com"),
    ("email", "ab@mail.example.org", "***@****.example.org"),
    ("phone", "(555) 123-4567", "(XXX) XXX-4567"),
    ("phone", "+44 20 7946 0958", "+XX XX XXXX 0958"),
    ("credit-card", "4111 1111 1111 1111", "**** **** **** 1111"),
    ("credit-card", "4111111111111111", "************1111"),
    ("ssn", "536-22-8726", "***-**-8726"),
    ("uuid", "550e8400-e29b-41d4-a716-446655440000", "********-****-****-****-************"),
    ("crypto-wallet", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "1BvB" + "*" * 26 + "NVN2"),
    ("iban", "GB82WEST12345698765432", "GB" + "*" * 16 + "5432"),
    ("ip-address", "192.168.1.20", "1**********0"),
    ("date-of-birth", "1985-03-14", "1********4"),
    ("url-credentials", "redis://:Zx81kP@cache:6379/0", "redis://:******@*****:****/*"),
    ("url-credentials", "jdbc:mysql://root:T00r!@10.0.0.5/shop",
     "jdbc:mysql://****:****!@**.*.*.*/****"),
    ("api-key", "abc", "***"),
    ("employee-id", "EMP-123456", "E********6"),
])
def test_mask_keeps_each_types_shape_as_the_reference_does(kind, value, masked):
    assert mask(kind, value) == masked


@pytest.mark.parametrize(("value", "masked"), [("4111 1111 1111 1111", "********"),
                                               ("abc", "***")])
def test_mask_without_preserve_format_is_stars_up_to_eight(value, masked):
    assert mask("credit-card", value, preserve_format=False) == masked


def test_hash_placeholder_and_remove_replacements():
    assert redact("email", "test@example.com", "hash") == "[HASH:973dfe46]"
    assert redact("credit-card", CARD, "placeholder") == "[CREDIT_CARD]"
    assert redact("ip-address", "10.0.0.1", "placeholder") == "[IP_ADDRESS]"
    assert redact("email", EMAIL, "remove") == ""


# ------------------------------------------------------------------ options


def test_defaults():
    detector = PIIDetector()
    assert detector.detection_types == DEFAULT_TYPES
    assert (detector.strategy, detector.redaction_method, detector.include_detections,
            detector.preserve_format, detector.threshold, detector.regions, detector.store) == (
        "redact", "mask", False, True, 0.6, None, "placeholders")
    assert detector.phases == set(PHASES)


@pytest.mark.parametrize(("options", "message"), [
    ({"detection_types": ["e-mail"]}, "unknown detection type.s. e-mail; valid: email"),
    ({"detection_types": "email"}, "detection_types"),
    ({"strategy": "redcat"}, "option 'strategy' must be one of 'block', 'warn', 'filter', "
                             "'redact', 'tokenize' or 'mask' \\(= 'redact'\\), got 'redcat'"),
    ({"strategy": "mask", "redaction_method": "hash"},
     "strategy 'mask' is 'redact' with redaction_method 'mask', but redaction_method is 'hash'"),
    ({"redaction_method": "stars"}, "redaction_method must be one of mask, hash, remove, placeh"),
    ({"threshold": 1.5}, "threshold must be"),
    ({"threshold": "high"}, "threshold must be"),
    ({"include_detections": "yes"}, "include_detections"),
    ({"preserve_format": 1}, "preserve_format"),
    ({"regions": "US"}, "regions"),
    ({"phases": ["input", "stream"]}, "phases"),
    ({"phases": []}, "phases must name at least one of input, output"),
    ({"store": "both"}, "store must be one of placeholders, values"),
    ({"detection_types": []}, "nothing to detect"),
    ({"detectors": [object()]}, "detectors.0.: a detector needs name, types, max_length"),
])
def test_bad_options_are_named(options, message):
    options.setdefault("detection_types", TYPES)
    with pytest.raises(ConfigurationError, match=message):
        PIIDetector(**options)


def test_a_detector_with_a_bad_max_length_is_named():
    class Broken(EmployeeIds):
        max_length = 0

    with pytest.raises(ConfigurationError, match="detector 'employee-id' has max_length 0"):
        pii(detectors=[Broken()])


async def test_detection_types_limit_what_is_found(guarded):
    agent = guarded(pii(detection_types=["email"]), ["ok"])
    await agent.generate(f"{EMAIL} and {CARD}")
    assert prompt_text(agent.model) == [f"{EMAIL_MASKED} and {CARD}"]


@pytest.mark.parametrize("spec", [EmployeeIds(), EmployeeIds, "employee-ids"])
async def test_detectors_add_custom_detection_types(guarded, fake_plugins, spec):
    fake_plugins({"employee-ids": EmployeeIds}, group="tripwire.detectors")
    detector = pii(detectors=[spec], threshold=0.5)
    assert "employee-id" in detector.detection_types
    agent = guarded(detector, ["ok"])
    await agent.generate(f"badge EMP-123456, mail {EMAIL}")
    assert prompt_text(agent.model)[-1] == f"badge E********6, mail {EMAIL_MASKED}"


def test_a_custom_detector_can_provide_a_judge_type():
    class Names:
        name = "names"
        types = ("name",)
        max_length = 40

        def detect(self, text):
            return []

    assert "name" in pii(detection_types=["name"], detectors=[Names()]).detection_types


@pytest.mark.parametrize(("threshold", "found"), [(0.6, False), (0.5, True), (0.0, True)])
async def test_threshold_drops_detections_that_score_lower(guarded, threshold, found):
    agent = guarded(pii(detectors=[EmployeeIds()], threshold=threshold), ["ok"])
    await agent.generate("badge EMP-123456")
    assert ("EMP-123456" not in prompt_text(agent.model)[-1]) is found


async def test_regions_say_how_numbers_without_a_country_code_are_read(guarded):
    local = "call 020 7946 0958 today"  # English: British plans are tried by default
    inferred = guarded(pii(detection_types=["phone"]), ["ok"])
    await inferred.generate(local)
    us = guarded(pii(detection_types=["phone"], regions=["US"]), ["ok"])
    await us.generate(local)
    gb = guarded(pii(detection_types=["phone"], regions=["GB"]), ["ok"])
    await gb.generate("ring 020 7946 0958")
    assert prompt_text(inferred.model)[-1] == "call XXX XXXX 0958 today"
    assert prompt_text(us.model)[-1] == local
    assert prompt_text(gb.model)[-1] == "ring XXX XXXX 0958"


@pytest.mark.parametrize(("method", "expected"), [
    ("mask", f"card {CARD_MASKED}, mail {EMAIL_MASKED}"),
    ("hash", "card [HASH:9bbef194], mail [HASH:b5fc85e5]"),
    ("placeholder", "card [CREDIT_CARD], mail [EMAIL]"),
    ("remove", "card , mail "),
])
async def test_redaction_methods(guarded, run, method, expected):
    agent = guarded(pii(redaction_method=method), [f"card {CARD}, mail {EMAIL}"])
    result, chunks = await run(agent, f"card {CARD}, mail {EMAIL}")
    assert prompt_text(agent.model)[-1] == expected
    assert result.text == expected
    if chunks is not None:
        assert texts(chunks) == expected


async def test_preserve_format_off_masks_every_value_as_stars(guarded):
    agent = guarded(pii(preserve_format=False), ["ok"])
    await agent.generate(f"card {CARD}, mail {EMAIL}")
    assert prompt_text(agent.model)[-1] == "card ********, mail ********"


# ------------------------------------------------------------------ block


async def test_block_stops_the_run_before_the_model_sees_the_input(guarded, run):
    agent = guarded(pii(strategy="block"), ["never"])
    result, chunks = await run(agent, f"my card is {CARD}, mail {EMAIL}")
    assert result.tripwire.reason == "PII detected. Types: credit-card, email"
    assert result.tripwire.processor_id == "pii-detector"
    assert agent.model.requests == []
    assert result.tripwire.metadata == {
        "processor_id": "pii-detector", "channel": "input", "strategy": "block",
        "action": "blocked", "types": ["credit-card", "email"],
        "detections": [{"type": "credit-card", "start": 11, "end": 27, "score": 0.95,
                        "detector": "credit-card"},
                       {"type": "email", "start": 34, "end": 49, "score": 1.0,
                        "detector": "email"}]}
    assert not holds(result.tripwire, CARD)
    if chunks is not None:
        assert [c.type for c in chunks] == ["tripwire"]


async def test_include_detections_adds_the_count_and_the_values(guarded):
    agent = guarded(pii(strategy="block", include_detections=True), ["never"])
    result = await agent.generate(f"my card is {CARD}")
    assert result.tripwire.reason == "PII detected. Types: credit-card. Detections: 1 items"
    assert result.tripwire.metadata["detections"][0]["value"] == CARD


async def test_block_in_the_stream_stops_before_the_value_reaches_the_client(guarded):
    agent = guarded(pii(strategy="block"), [deltas("your card: 4111 1111", " 1111 1111, ok")])
    result, chunks = await stream_run(agent)
    assert result.tripwire.reason == "PII detected. Types: credit-card"
    assert result.tripwire.metadata["channel"] == "output"
    assert chunks[-1].type == "tripwire"
    assert not holds([c.payload for c in chunks if c.type != "tripwire"], "1111 1111 1111")
    assert result.messages == []


async def test_block_on_tool_arguments_stops_before_the_tool_runs(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(chunks=[call({"query": f"card {CARD}"})]), "never"])
    result, chunks = await stream_run(guarded(pii(strategy="block"), model,
                                              tools=[recording(calls)]))
    assert result.tripwire.metadata["channel"] == "tool-call"
    assert calls == []
    assert not holds([c.payload for c in chunks], CARD)


async def test_block_on_a_tool_result_stops_before_the_model_sees_it(guarded, run):
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"}}]),
                       "never"])
    result, chunks = await run(guarded(pii(strategy="block"), model,
                                       tools=[recording([], {"email": EMAIL})]))
    assert result.tripwire.metadata["channel"] == "tool-result"
    assert len(model.requests) == 1
    assert not holds(result.messages, EMAIL)
    if chunks is not None:
        assert not holds([c.payload for c in chunks], EMAIL)


@pytest.mark.parametrize("phase", ["step", "result"])
async def test_block_on_the_stored_response_rejects_it(guarded, run, phase):
    agent = guarded(pii(strategy="block", phases=[phase]), [f"mail {EMAIL}"])
    result, _ = await run(agent)
    assert result.tripwire.metadata["channel"] == phase
    assert not holds(result.messages, EMAIL) and EMAIL not in result.text


# ------------------------------------------------------------------ warn


async def test_warn_reports_once_per_value_and_changes_nothing(guarded, run):
    seen = []
    detector = pii(strategy="warn")
    detector.on_violation = seen.append
    agent = guarded(detector, [deltas(f"ok {EMAIL[:5]}", f"{EMAIL[5:]} done")])
    result, chunks = await run(agent, f"card {CARD}")
    assert prompt_text(agent.model)[-1] == f"card {CARD}"
    assert result.text == f"ok {EMAIL} done"
    assert [(v.channel, v.action, v.types) for v in result.verdicts] == [
        ("input", "warned", ["credit-card"]), ("output", "warned", ["email"])]
    assert [v.message for v in seen] == ["PII detected. Types: credit-card",
                                         "PII detected. Types: email"]
    assert seen[1].detail["detections"] == [{"type": "email", "start": 3, "end": 18,
                                             "score": 1.0, "detector": "email"}]
    assert not holds(result.verdicts[0].to_metadata(), CARD)
    if chunks is not None:
        assert texts(chunks) == f"ok {EMAIL} done"


async def test_warn_values_are_in_the_verdicts_only_with_include_detections(guarded):
    agent = guarded(pii(strategy="warn", include_detections=True), ["ok"])
    result = await agent.generate(f"card {CARD}")
    assert result.verdicts[0].detections[0].value == CARD
    quiet = await guarded(pii(strategy="warn"), ["ok"]).generate(f"card {CARD}")
    assert quiet.verdicts[0].detections[0].value is None


# ------------------------------------------------------------------ filter


async def test_filter_drops_input_messages_holding_pii(guarded, run):
    agent = guarded(pii(strategy="filter"), ["ok"])
    history = [Message.user(f"my card is {CARD}"), Message.assistant("noted"),
               Message.user("what now?")]
    result, _ = await run(agent, history)
    assert prompt_text(agent.model) == ["noted", "what now?"]
    assert [(v.channel, v.action) for v in result.verdicts] == [("input", "filtered")]


async def test_filter_drops_the_streamed_chunks_holding_a_value(guarded):
    agent = guarded(pii(strategy="filter"), [deltas("hello. ", "card 4111 1111 ", "1111 1111",
                                                    " ok. ", "bye")])
    result, chunks = await stream_run(agent)
    assert texts(chunks) == "hello.  ok. bye"
    assert result.text == "hello.  ok. bye"


async def test_filter_drops_a_tool_call_with_pii_and_the_tool_does_not_run(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(chunks=[text("looking"), call({"query": EMAIL})],
                                    finish_reason="tool-calls")])
    result, chunks = await stream_run(guarded(pii(strategy="filter"), model,
                                              tools=[recording(calls)]))
    assert calls == [] and [c.type for c in chunks if c.type.startswith("tool")] == []
    assert result.text == "looking"


async def test_filter_withholds_a_tool_result_holding_pii(guarded, run):
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"}}]),
                       "ok"])
    result, _ = await run(guarded(pii(strategy="filter"), model,
                                  tools=[recording([], {"email": EMAIL})]))
    assert result.tool_results[0].result == "[withheld by pii-detector: PII detected (email)]"
    assert not holds(model.requests[1].prompt, EMAIL)


async def test_filter_drops_result_messages_holding_pii(guarded, run):
    agent = guarded(pii(strategy="filter", phases=["result"]), [f"mail {EMAIL}"])
    result, _ = await run(agent)
    assert result.messages == [] and result.text == ""


async def test_filter_at_the_step_keeps_a_message_with_tool_calls(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(text=f"mail {EMAIL}", tool_calls=[
        {"tool_name": "lookup", "args": {"query": "q"}}]), "done"])
    result = await guarded(pii(strategy="filter", phases=["step"]), model,
                           tools=[recording(calls)]).generate("hi")
    assert calls == [{"query": "q", "contact": None}]
    first = result.messages[0]
    assert first.tool_invocations and not holds(first, EMAIL)
    assert result.text == "done"


# ------------------------------------------------------------------ redact, path by path


async def test_redact_input_text_parts_and_content_strings(guarded):
    agent = guarded(pii(), ["ok"])
    message = Message.user(f"mail {EMAIL}")
    message.content.content = f"mail {EMAIL}"
    legacy = Message.user("")
    legacy.content.parts = []
    legacy.content.content = f"card {CARD}"
    result = await agent.generate([message, legacy])
    assert message.content.parts == [TextPart(f"mail {EMAIL_MASKED}")]
    assert message.content.content == f"mail {EMAIL_MASKED}"
    assert legacy.content.content == f"card {CARD_MASKED}"
    assert not holds(agent.model.requests[0].prompt, EMAIL)
    assert not holds(agent.model.requests[0].prompt, CARD)
    assert [(v.channel, v.action, v.types) for v in result.verdicts] == [
        ("input", "redacted", ["email", "credit-card"])]


async def test_redact_the_stream_text_and_reasoning_split_across_chunks(guarded):
    model = MockModel([MockResponse(chunks=[
        thinking("the user's card is 4111 11"), thinking("11 1111 1111."),
        text("Card: 4111 1111 1111 1", id="t1"), text("111, mail ada@exa", id="t2"),
        text("mple.com.", id="t1")])])
    result, chunks = await stream_run(guarded(pii(), model))
    assert texts(chunks, "reasoning-delta") == "the user's card is **** **** **** 1111."
    assert texts(chunks) == f"Card: **** **** **** 1111, mail {EMAIL_MASKED}."
    assert [c.payload["id"] for c in chunks if c.type == "text-delta"] == ["t1", "t2", "t1"]
    assert result.text == texts(chunks)
    assert result.steps[0].reasoning == "the user's card is **** **** **** 1111."
    # Each channel is held on its own: the reasoning's card waits for its end (the
    # step's), while the text goes on.
    assert [(v.channel, v.types) for v in result.verdicts] == [
        ("output", ["credit-card", "email"]), ("reasoning", ["credit-card"])]
    assert [(d.start, d.end) for d in result.verdicts[0].detections] == [(6, 25), (32, 47)]


async def test_redact_tool_arguments_before_the_tool_runs(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {
        "query": f"orders of {EMAIL}", "contact": {"phones": [PHONE]}}}]), "done"])
    result, chunks = await stream_run(guarded(pii(), model, tools=[recording(calls)]))
    assert calls == [{"query": f"orders of {EMAIL_MASKED}",
                      "contact": {"phones": [PHONE_MASKED]}}]
    tool_call = next(c for c in chunks if c.type == "tool-call")
    assert tool_call.payload["args"]["query"] == f"orders of {EMAIL_MASKED}"
    assert not holds(model.requests[1].prompt, EMAIL)
    assert not holds(result.messages, PHONE)


async def test_redact_nested_tool_results_for_the_model_the_client_and_the_history(
        guarded, run):
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"}}]),
                       "done"])
    found = {"customer": {"emails": [EMAIL], "card": CARD, "note": "vip"}, "n": 2}
    result, chunks = await run(guarded(pii(), model, tools=[recording([], found)]))
    expected = {"customer": {"emails": [EMAIL_MASKED], "card": CARD_MASKED, "note": "vip"},
                "n": 2}
    assert result.tool_results[0].result == expected
    assert result.messages[0].tool_invocations[0].result == expected
    assert not holds(model.requests[1].prompt, EMAIL)
    if chunks is not None:
        assert next(c for c in chunks if c.type == "tool-result").payload["result"] == expected
    assert found["customer"]["card"] == CARD  # the tool's own value is not changed


async def test_redact_a_failed_tools_error(guarded):
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        raise LookupError(f"no account for {EMAIL}")

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "q"}}]),
                       "sorry"])
    result, chunks = await stream_run(guarded(pii(), model, tools=[lookup]))
    error = next(c for c in chunks if c.type == "tool-error")
    assert error.payload["error"] == f"LookupError: no account for {EMAIL_MASKED}"
    assert not holds(model.requests[1].prompt, EMAIL)
    assert not holds(result.messages, EMAIL)


@pytest.mark.parametrize("phase", ["step", "result"])
async def test_redact_the_stored_response_when_the_stream_is_not_checked(guarded, run, phase):
    agent = guarded(pii(phases=[phase]), [f"mail {EMAIL}"])
    result, chunks = await run(agent)
    assert result.text == f"mail {EMAIL_MASKED}"
    assert result.messages[0].text == f"mail {EMAIL_MASKED}"
    assert [(v.channel, v.action) for v in result.verdicts] == [(phase, "redacted")]
    if chunks is not None:  # the stream was not guarded: the client did see it
        assert texts(chunks) == f"mail {EMAIL}"


async def test_redact_the_parsed_object_of_the_result(guarded):
    class Parse(Processor):
        id = "parse"

        @hookimpl
        def process_output_result(self, result):
            result.object = {"contact": result.text}

    detector = pii(phases=["result"])
    agent = Agent(id="a", model=MockModel([f"{EMAIL}"]), output_processors=[Parse(), detector],
                  default_error_processors=False)
    result, chunks = await stream_run(agent)
    assert result.object == {"contact": EMAIL_MASKED}
    assert next(c for c in chunks if c.type == "object-result").payload["object"] == {
        "contact": EMAIL_MASKED}


async def test_redact_a_cache_replay(guarded):
    class Cache(Processor):
        id = "cache"

        @hookimpl
        def process_llm_request(self):
            return {"response": [Chunk("text-delta", {"id": "t1", "text": "card 4111 1111 "}),
                                 Chunk("text-delta", {"id": "t1", "text": "1111 1111"}),
                                 Chunk("finish", {"finish_reason": "stop", "usage": None})]}

    detector = pii()
    agent = Agent(id="a", model=MockModel([]), input_processors=[Cache(), detector],
                  output_processors=[detector], default_error_processors=False)
    result, chunks = await stream_run(agent)
    assert texts(chunks) == "card **** **** **** 1111"
    assert result.steps[0].from_cache and result.text == "card **** **** **** 1111"


async def test_a_retried_step_leaves_nothing_of_the_failed_attempt(guarded):
    class FailsMidStream:
        model_id = "flaky"
        provider = "test"

        def __init__(self):
            self.requests = []

        async def stream(self, request):
            self.requests.append(request)
            if len(self.requests) == 1:
                yield Chunk("text-delta", {"id": "t1", "text": "card 4111 1111"})
                raise APICallError("connection reset", 502, True)
            for t in ("no card, mail ", "ada@example.com"):
                yield Chunk("text-delta", {"id": "t1", "text": t})
            yield Chunk("finish", {"finish_reason": "stop", "usage": None})

    class Retry(Processor):
        id = "retry"

        @hookimpl
        def process_api_error(self):
            return {"retry": True}

    detector = pii()
    agent = Agent(id="a", model=FailsMidStream(), input_processors=[detector],
                  output_processors=[detector], error_processors=[Retry()],
                  default_error_processors=False)
    result, chunks = await stream_run(agent)
    assert "step-retry" in [c.type for c in chunks]
    assert not holds([c.payload for c in chunks], "4111")
    assert texts(chunks) == f"no card, mail {EMAIL_MASKED}"
    assert result.verdicts[-1].detections[0].start == 14  # offsets count the kept attempt


async def test_a_processor_retry_reruns_the_step_guarded(guarded):
    detector = pii()
    agent = Agent(id="a", model=MockModel([deltas("mail ada@", "example.com"),
                                           deltas("card 4111 1111 1111 1111")]),
                  input_processors=[detector], output_processors=[detector, RejectFirst()],
                  max_processor_retries=1, default_error_processors=False)
    result, chunks = await stream_run(agent)
    assert not holds([c.payload for c in chunks], EMAIL)
    assert not holds([c.payload for c in chunks], "1111 1111 1111")
    assert result.text == "card **** **** **** 1111"


# ------------------------------------------------------------------ phases


@pytest.mark.parametrize("phase", PHASES)
async def test_each_phase_alone_guards_only_its_path(guarded, phase):
    calls: list[dict[str, Any]] = []
    model = MockModel([
        MockResponse(chunks=[text(f"mail {EMAIL}"), call({"query": CARD})],
                     finish_reason="tool-calls"),
        "done"])
    agent = guarded(pii(phases=[phase]), model, tools=[recording(calls, {"phone": PHONE})])
    result, chunks = await stream_run(agent, f"I am {EMAIL}")
    user_prompt = prompt_text(model, 0)[-1]
    assert (EMAIL in user_prompt) is (phase != "input")
    assert (f"mail {EMAIL}" in texts(chunks)) is (phase != "output")
    assert (calls[0]["query"] == CARD) is (phase != "output")
    assert holds(model.requests[1].prompt, PHONE) is (phase != "tool-results")
    stored = result.messages[0].text
    assert (stored == f"mail {EMAIL}") is (phase not in ("output", "step", "result"))
    assert {v.channel for v in result.verdicts} <= {
        "input": {"input"}, "output": {"output", "tool-call"}, "step": {"step"},
        "tool-results": {"tool-result"}, "result": {"result"}}[phase]


# ------------------------------------------------------------------ tokenize


async def test_tokenize_the_model_sees_placeholders_and_the_client_gets_values(guarded, run):
    model = MockModel([deltas("I'll write to <EMA", "IL_1> about the card <CREDIT_CARD_1>.")])
    agent = guarded(pii(strategy="tokenize"), model)
    result, chunks = await run(agent, f"I'm {EMAIL}, card {CARD}; again: {EMAIL}")
    assert prompt_text(model)[-1] == "I'm <EMAIL_1>, card <CREDIT_CARD_1>; again: <EMAIL_1>"
    assert result.text == f"I'll write to {EMAIL} about the card {CARD}."
    if chunks is not None:
        assert texts(chunks) == result.text
    # store="placeholders": the history keeps placeholders.
    assert result.messages[0].text == "I'll write to <EMAIL_1> about the card <CREDIT_CARD_1>."
    assert result.message_list.input.db()[0].text == (
        "I'm <EMAIL_1>, card <CREDIT_CARD_1>; again: <EMAIL_1>")
    assert [(v.channel, v.action, v.types) for v in result.verdicts] == [
        ("input", "tokenized", ["email", "credit-card"])]
    assert not holds(result.verdicts[0].to_metadata(), EMAIL)


async def test_tokenize_with_store_values_keeps_values_in_the_history(guarded, run):
    model = MockModel([deltas("Noted, <EMAIL_1>."), "Still <EMAIL_1>."])
    agent = guarded(pii(strategy="tokenize", store="values"), model)
    result, _ = await run(agent, f"I'm {EMAIL}")
    assert result.text == f"Noted, {EMAIL}."
    assert result.messages[0].text == f"Noted, {EMAIL}."
    assert result.message_list.input.db()[0].text == f"I'm {EMAIL}"
    assert prompt_text(model)[-1] == "I'm <EMAIL_1>"
    # The next call sends the stored values, tokenized afresh.
    again, _ = await run(agent, [*result.message_list.all.db(), Message.user("and?")])
    assert not holds(model.requests[1].prompt, EMAIL)
    assert again.text == f"Still {EMAIL}."


async def test_tokenize_tool_calls_get_values_and_results_are_tokenized(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "<EMAIL_1>"}}]),
        deltas("Their phone: <PHONE_1>.")])
    agent = guarded(pii(strategy="tokenize"), model,
                    tools=[recording(calls, {"owner": EMAIL, "phone": PHONE})])
    result, chunks = await stream_run(agent, f"who is {EMAIL}?")
    assert calls == [{"query": EMAIL, "contact": None}]  # the tool got the real value
    second = model.requests[1].prompt
    assert not holds(second, EMAIL) and not holds(second, PHONE)
    assert holds(second, "<PHONE_1>") and holds(second, "<EMAIL_1>")
    assert next(c for c in chunks if c.type == "tool-call").payload["args"] == {"query": EMAIL}
    assert next(c for c in chunks if c.type == "tool-result").payload["result"] == {
        "owner": EMAIL, "phone": PHONE}
    assert result.text == f"Their phone: {PHONE}."
    assert not holds(result.messages, EMAIL) and not holds(result.messages, PHONE)
    assert [(v.channel, v.types) for v in result.verdicts] == [
        ("input", ["email"]), ("tool-result", ["email", "phone"])]


async def test_tokenize_placeholders_of_an_earlier_call_are_not_reused(guarded):
    model = MockModel([deltas("<EMAIL_1> and <EMAIL_3>")])
    agent = guarded(pii(strategy="tokenize"), model)
    history = [Message.user("I'm <EMAIL_1>"), Message.assistant("hello <EMAIL_1>"),
               Message.user(f"my other one is {EMAIL}")]
    result = await agent.generate(history)
    assert prompt_text(model)[-1] == "my other one is <EMAIL_2>"
    # A placeholder this call did not make stays as it is.
    assert result.text == "<EMAIL_1> and <EMAIL_3>"


async def test_tokenize_needs_the_instance_in_both_lists(make_bare_agent):
    agent = make_bare_agent(["hi"], output_processors=[pii(strategy="tokenize")])
    with pytest.raises(ProcessorError, match="needs the same instance in input_processors"):
        await agent.generate(f"I'm {EMAIL}")


async def test_tokenize_keeps_the_mapping_out_of_prompts_logs_and_verdicts(guarded, caplog):
    caplog.set_level(logging.DEBUG)
    model = MockModel([deltas("ok <EMAIL_1>")])
    result = await guarded(pii(strategy="tokenize"), model).generate(f"I'm {EMAIL}")
    assert not holds(model.requests[0].prompt, EMAIL)
    assert EMAIL not in caplog.text
    assert not holds([v.to_metadata() for v in result.verdicts], EMAIL)
    vault = Vault()
    vault.placeholder("email", EMAIL)
    assert EMAIL not in repr(vault)


async def test_tokenize_a_placeholder_split_across_chunks_and_ids_is_restored(guarded):
    model = MockModel([MockResponse(chunks=[text("to <CRED", id="a"), text("IT_", id="b"),
                                            text("CARD_1>", id="a")])])
    result, chunks = await stream_run(guarded(pii(strategy="tokenize"), model), f"card {CARD}")
    assert texts(chunks) == f"to {CARD}"


async def test_tokenize_what_each_result_field_holds(guarded):
    calls: list[dict[str, Any]] = []
    model = MockModel([
        MockResponse(reasoning="the user is <EMAIL_1>",
                     tool_calls=[{"tool_name": "lookup", "args": {"query": "<EMAIL_1>"}}]),
        deltas("Found <PHONE_1>.")])
    agent = guarded(pii(strategy="tokenize"), model, tools=[recording(calls, PHONE)])
    result, chunks = await stream_run(agent, f"who is {EMAIL}?")
    assert texts(chunks, "reasoning-delta") == f"the user is {EMAIL}"
    # What the client received: values.
    assert result.steps[0].reasoning == f"the user is {EMAIL}"
    assert result.tool_calls[0].args == {"query": EMAIL}
    assert result.text == f"Found {PHONE}."
    # The stored history, and the tool results as the model saw them: placeholders.
    assert result.tool_results[0].result == "<PHONE_1>"
    stored = result.messages[0]
    assert stored.tool_invocations[0].args == {"query": "<EMAIL_1>"}
    assert stored.content.parts[0].text == "the user is <EMAIL_1>"


async def test_tokenize_store_values_keeps_tool_results_whole_and_the_model_blind(guarded):
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "<EMAIL_1>"}}]),
        "ok"])
    agent = guarded(pii(strategy="tokenize", store="values"), model,
                    tools=[recording([], {"phone": PHONE})])
    result = await agent.generate(f"who is {EMAIL}?")
    assert result.tool_results[0].result == {"phone": PHONE}
    assert result.messages[0].tool_invocations[0].args == {"query": EMAIL}
    for request in model.requests:
        assert not holds(request.prompt, EMAIL) and not holds(request.prompt, PHONE)


async def test_tokenize_without_the_output_phase_does_not_restore(guarded):
    model = MockModel([deltas("hi <EMAIL_1>")])
    result = await guarded(pii(strategy="tokenize", phases=["input"]), model).generate(EMAIL)
    assert result.text == "hi <EMAIL_1>"


async def test_tokenize_concurrent_calls_keep_their_own_mappings(make_bare_agent):
    detector = pii(strategy="tokenize")
    first = make_bare_agent([deltas("you are <EMAIL_1>")], input_processors=[detector],
                            output_processors=[detector])
    second = make_bare_agent([deltas("you are <EMAIL_1>")], input_processors=[detector],
                             output_processors=[detector])
    a, b = await asyncio.gather(first.generate("I am ann@example.org"),
                                second.generate("I am bob@example.net"))
    assert (a.text, b.text) == ("you are ann@example.org", "you are bob@example.net")


async def test_tokenize_from_toml_with_an_instance_per_list(only_plugins, tmp_path):
    only_plugins("pii-detector")
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "pii-detector", strategy = "tokenize", detection_types = ["email"] }]
output_processors = [{ use = "pii-detector", strategy = "tokenize", detection_types = ["email"] }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [{ chunks = [{ type = "text-delta", id = "t1", text = "Hi <EMA" },
                         { type = "text-delta", id = "t1", text = "IL_1>!" }] }]
''')
    agent = Agent.from_config(config, "support")
    result = await agent.generate(f"I'm {EMAIL}")
    assert prompt_text(agent.model) == ["I'm <EMAIL_1>"]
    assert result.text == f"Hi {EMAIL}!"


async def test_instances_with_other_options_do_not_share_what_they_found_clean(make_bare_agent):
    cards = pii(detection_types=["credit-card"], phases=["input"])
    emails = pii(detection_types=["email"], phases=["result"])
    agent = make_bare_agent([f"mail {EMAIL}"], input_processors=[cards],
                            output_processors=[emails])
    result = await agent.generate(f"mail {EMAIL}")
    assert result.text == f"mail {EMAIL_MASKED}"


async def test_warn_on_tool_calls_and_results_reports_and_changes_nothing(guarded, run):
    calls: list[dict[str, Any]] = []
    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup",
                                                 "args": {"query": EMAIL}}]), "ok"])
    result, _ = await run(guarded(pii(strategy="warn"), model,
                                  tools=[recording(calls, {"card": CARD})]))
    assert calls == [{"query": EMAIL, "contact": None}]
    assert result.tool_results[0].result == {"card": CARD}
    assert [(v.channel, v.types) for v in result.verdicts] == [
        ("tool-call", ["email"]), ("tool-result", ["credit-card"])]


class Explodes:
    name = "explodes"
    types = ("email",)
    max_length = 5

    def detect(self, text):
        raise RuntimeError("detector down")


async def test_a_failing_detector_fails_closed(guarded):
    agent = guarded(pii(detection_types=[], detectors=[Explodes()]), ["never"])
    with pytest.raises(ProcessorError, match="pii-detector"):
        await agent.generate(f"mail {EMAIL}")
    assert agent.model.requests == []


async def test_fail_open_passes_the_input_unchanged(guarded, caplog):
    detector = pii(detection_types=[], detectors=[Explodes()], phases=["input"])
    detector.fail_open = True
    agent = guarded(detector, ["ok"])
    result = await agent.generate(f"mail {EMAIL}")
    assert result.text == "ok" and prompt_text(agent.model) == [f"mail {EMAIL}"]


async def test_a_detector_returning_a_span_outside_the_text_is_named(guarded):
    class Wild(EmployeeIds):
        def detect(self, text):
            return [Detection("employee-id", 0, len(text) + 5, 1.0, "wild")]

    with pytest.raises(ProcessorError, match="detector 'wild' returned the span"):
        await guarded(pii(detectors=[Wild()]), ["never"]).generate("hi")


SAMPLES = {
    "email": ("mail test@example.com today", "mail t**t@*******.com today"),
    "phone": ("call (415) 555-2671 today", "call (XXX) XXX-2671 today"),
    "credit-card": ("card 4111 1111 1111 1111 ok", "card **** **** **** 1111 ok"),
    "ssn": ("my ssn is 536-22-8726", "my ssn is ***-**-8726"),
    "api-key": ("key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z ok",
                f"key s{'*' * 38}z ok"),
    "ip-address": ("host 192.168.1.20 down", "host 1**********0 down"),
    "url": ("see https://example.com/a?b=1 now", "see h***********************1 now"),
    "uuid": ("id 550e8400-e29b-41d4-a716-446655440000 ok",
             "id ********-****-****-****-************ ok"),
    "crypto-wallet": ("btc 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 ok",
                      "btc 1BvB**************************NVN2 ok"),
    "iban": ("iban GB82WEST12345698765432 ok", "iban GB****************5432 ok"),
    "date-of-birth": ("born on 1985-03-14 in Oslo", "born on 1********4 in Oslo"),
    "url-credentials": ("db postgres://app:Xk29fLq7@db.example.com/shop ok",
                        "db postgres://***:********@**.*******.***/**** ok"),
}


def test_every_default_type_has_a_sample():
    assert sorted(SAMPLES) == sorted(DEFAULT_TYPES)


@pytest.mark.parametrize("kind", DEFAULT_TYPES)
async def test_every_type_end_to_end_with_the_defaults(guarded, kind):
    said, masked = SAMPLES[kind]
    model = MockModel([MockResponse(chunks=[text(said[:9]), text(said[9:])])])
    result, chunks = await stream_run(guarded(PIIDetector(), model), said)
    assert prompt_text(model) == [masked]
    assert texts(chunks) == result.text == masked
    assert {d.type for v in result.verdicts for d in v.detections} == {kind}


@pytest.mark.parametrize("kind", DEFAULT_TYPES)
async def test_every_type_tokenizes_and_comes_back(guarded, kind):
    said, _ = SAMPLES[kind]
    model = MockModel([deltas("you said: <", f"{kind.upper().replace('-', '_')}_1>")])
    result = await guarded(PIIDetector(strategy="tokenize"), model).generate(said)
    value = next(d.value for d in PIIDetector(detection_types=[kind])._scan.find(said))
    assert not holds(model.requests[0].prompt, value)
    assert result.text == f"you said: {value}"


# ------------------------------------------------------------------ properties


VALUES = {"card": (CARD, CARD_MASKED), "email": (EMAIL, EMAIL_MASKED),
          "url-credentials": (DB_URL, DB_URL_MASKED)}
FILLER = "xyz,!"


PLACEHOLDERS = {"card": "<CREDIT_CARD_1>", "email": "<EMAIL_1>",
                "url-credentials": "<URL_CREDENTIALS_1>"}


@st.composite
def replies(draw, *, interleave: bool, placeholder: bool = False):
    """A value (a card number, an email address or a URL with a password; with ``placeholder``, its
    placeholder) in filler text, the text cut at random places (always at least once
    inside the value) into deltas of several ids; with ``interleave``, reasoning
    deltas (holding the value too) and other chunks between them, and a tool call
    whose arguments hold it."""
    name = draw(st.sampled_from(sorted(VALUES)))
    value = PLACEHOLDERS[name] if placeholder else VALUES[name][0]

    def channel_text() -> str:
        # Filler words (never only spaces) around each value: two card numbers with
        # nothing but spaces between them read as one run of digits.
        parts = [" " + draw(st.text(FILLER, min_size=1, max_size=6)) + " "
                 for _ in range(draw(st.integers(2, 4)))]
        return value.join(parts)

    def cut(kind: str, full: str, ids: list[str]) -> list[dict[str, str]]:
        at = full.index(value)
        inside = draw(st.lists(st.integers(at + 1, at + len(value) - 1), min_size=1, max_size=3))
        points = sorted({*inside, *draw(st.lists(st.integers(0, len(full)), max_size=6))})
        bounds = [0, *points, len(full)]
        return [{"type": kind, "id": draw(st.sampled_from(ids)), "text": full[a:b]}
                for a, b in zip(bounds, bounds[1:], strict=False)]

    said = channel_text()
    queues = [cut("text-delta", said, ["t1", "t2", "t3"])]
    thought = ""
    if interleave:
        thought = channel_text()
        queues.append(cut("reasoning-delta", thought, ["r1", "r2"]))
    chunks: list[dict[str, Any]] = []
    while any(queues):
        options = [q for q in queues if q] + ([None] if interleave else [])
        take = draw(st.sampled_from(options))
        chunks.append(take.pop(0) if take is not None
                      else {"type": "source", "url": "https://example.org"})
    responses = [MockResponse(chunks=chunks)]
    if interleave and draw(st.booleans()):
        chunks.insert(draw(st.integers(0, len(chunks))),
                      call({"query": f"about {value}", "contact": {"tags": [value]}}))
        responses[0].finish_reason = "tool-calls"
        responses.append(deltas("done"))
        said += "done"
    return name, said, thought, responses


def run_sync(agent: Agent) -> tuple[Any, list[Chunk]]:
    return asyncio.run(stream_run(agent))


def everywhere(result: Any, chunks: list[Chunk], model: MockModel, calls: list[Any]) -> list[Any]:
    return [[c.payload for c in chunks], result.text, result.messages,
            [r.prompt for r in model.requests], calls]


PROPERTY = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(replies(interleave=False))
def test_property_a_value_split_anywhere_in_the_text_is_masked_exactly(guarded, case):
    name, said, _, responses = case
    value, masked = VALUES[name]
    model = MockModel(responses)
    result, chunks = run_sync(guarded(pii(), model))
    assert texts(chunks) == said.replace(value, masked)
    assert result.text == texts(chunks)
    ids = iter(c["id"] for c in responses[0].chunks)
    assert all(c.payload["id"] in ids for c in chunks if c.type == "text-delta")


@PROPERTY
@given(replies(interleave=True))
def test_property_nothing_guarded_escapes_and_nothing_else_is_lost(guarded, case):
    name, said, thought, responses = case
    value = VALUES[name][0]
    calls: list[Any] = []
    model = MockModel(responses)
    result, chunks = run_sync(guarded(pii(), model, tools=[recording(calls, value)]))
    assert result.tripwire is None
    for where in everywhere(result, chunks, model, calls):
        assert not holds(where, value)
    # Around each value the text is intact and in order; the value itself is masked
    # (or, where a flush cut it, its start went out and the rest is masked).
    for kind, original in (("text-delta", said), ("reasoning-delta", thought)):
        around = r"\S+".join(map(re.escape, original.split(value)))
        assert re.fullmatch(around, texts(chunks, kind)), (texts(chunks, kind), original)
    assert [c.type for c in chunks if c.type not in ("text-delta", "reasoning-delta")] == [
        c.type for c in _expected_other_chunks(responses)]


def _expected_other_chunks(responses: list[MockResponse]) -> list[Chunk]:
    out = []
    for r in responses:
        out.append(Chunk("step-start"))
        out.extend(Chunk(c["type"]) for c in r.chunks
                   if c["type"] not in ("text-delta", "reasoning-delta"))
        out.append(Chunk("step-finish"))
        if any(c["type"] == "tool-call" for c in r.chunks):
            out.append(Chunk("tool-result"))
    out.append(Chunk("finish"))
    return out


@PROPERTY
@given(replies(interleave=False))
def test_property_block_trips_before_any_of_the_value_reaches_the_client(guarded, case):
    name, said, _, responses = case
    value = VALUES[name][0]
    result, chunks = run_sync(guarded(pii(strategy="block"), MockModel(responses)))
    assert result.tripwire is not None and chunks[-1].type == "tripwire"
    got = texts(chunks)
    assert said.startswith(got) and len(got) <= said.index(value)


@PROPERTY
@given(replies(interleave=False, placeholder=True))
def test_property_tokenize_round_trip_at_any_split(guarded, case):
    name, reply, _, responses = case
    value, placeholder = VALUES[name][0], PLACEHOLDERS[name]
    model = MockModel(responses)
    result, chunks = asyncio.run(stream_run(guarded(pii(strategy="tokenize"), model),
                                            f"mine is {value}"))
    assert prompt_text(model) == [f"mine is {placeholder}"]
    assert texts(chunks) == result.text == reply.replace(placeholder, value)
    assert result.messages[0].text == reply
    assert not holds(result.messages, value)


@st.composite
def mixed_streams(draw):
    """Text with values of every type among filler words, cut anywhere into deltas."""
    words = draw(st.lists(st.one_of(st.sampled_from(sorted(SAMPLES)),
                                    st.text("abc 12.-:", min_size=1, max_size=40)),
                          min_size=10, max_size=40))
    said = " ".join(SAMPLES[w][0] if w in SAMPLES else w for w in words)
    points = sorted(draw(st.lists(st.integers(0, len(said)), min_size=20, max_size=120)))
    bounds = [0, *points, len(said)]
    return said, [text(said[a:b], id=draw(st.sampled_from(["t1", "t2"])))
                  for a, b in zip(bounds, bounds[1:], strict=False)]


@PROPERTY
@given(mixed_streams())
def test_property_a_stream_cut_anywhere_is_redacted_as_the_whole_text(guarded, case):
    said, chunks_in = case

    def client(chunks: list[dict[str, Any]]) -> list[Any]:
        model = MockModel([MockResponse(chunks=chunks)])
        result, chunks_out = run_sync(guarded(PIIDetector(phases=["output"]), model))
        return [texts(chunks_out), [d for v in result.verdicts
                                     for d in v.to_metadata()["detections"]]]

    # Each part of the stream is searched once, with the text before it that a
    # detector looks back at; what it releases as it goes is what the whole text gives.
    assert client(chunks_in) == client([text(said)])


@pytest.mark.parametrize("name", sorted(VALUES))
async def test_tokenize_restores_a_placeholder_cut_at_every_boundary(guarded, name):
    value = VALUES[name][0]
    placeholder = PLACEHOLDERS[name]
    for i in range(1, len(placeholder)):
        model = MockModel([deltas(f"it is {placeholder[:i]}", f"{placeholder[i:]}.")])
        result, chunks = await stream_run(guarded(pii(strategy="tokenize"), model),
                                          f"mine is {value}")
        assert prompt_text(model)[-1] == f"mine is {placeholder}"
        assert texts(chunks) == result.text == f"it is {value}."


@pytest.mark.parametrize("name", sorted(VALUES))
async def test_redact_a_value_cut_at_every_boundary(guarded, name):
    value, masked = VALUES[name]
    for i in range(1, len(value)):
        model = MockModel([deltas(f"it is {value[:i]}", f"{value[i:]}.")])
        result, chunks = await stream_run(guarded(pii(), model))
        assert texts(chunks) == result.text == f"it is {masked}."


# ------------------------------------------------------------------ discovery and config


def test_listed_and_created_by_discovery(only_plugins):
    only_plugins("pii-detector")
    entry = tripwire.plugins.available()["pii-detector"]
    assert entry.cls is PIIDetector and entry.distribution == "tripwire"
    assert set(entry.hooks) == {"process_input", "process_input_step", "process_llm_request",
                                "process_output_stream", "process_output_step",
                                "process_tool_result", "process_output_result"}
    detector = tripwire.plugins.create("pii-detector", detection_types=["email"],
                                       strategy="tokenize", phases=["input", "output"])
    assert (detector.detection_types, detector.strategy, detector.phases) == (
        ("email",), "tokenize", {"input", "output"})
    with pytest.raises(ConfigurationError, match="strategy"):
        tripwire.plugins.create("pii-detector", strategy="shred")


def test_tripwire_plugins_lists_it_with_its_options(only_plugins, cli):
    only_plugins("pii-detector")
    code, out, _ = cli("plugins")
    assert code == 0
    assert "pii-detector" in out and "redaction_method" in out and "store" in out


async def test_an_agent_from_toml_uses_it_by_name(only_plugins, tmp_path):
    only_plugins("pii-detector")
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "pii-detector", detection_types = ["email", "credit-card"] }]
output_processors = [{ use = "pii-detector", detection_types = ["credit-card"], phases = ["output"] }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [{ chunks = [{ type = "text-delta", id = "t1", text = "card 4111 1111" },
                         { type = "text-delta", id = "t1", text = " 1111 1111" }] }]
''')
    agent = Agent.from_config(config, "support")
    result = await agent.generate(f"mail {EMAIL}")
    assert prompt_text(agent.model)[-1] == f"mail {EMAIL_MASKED}"
    assert result.text == "card **** **** **** 1111"


# ------------------------------------------------------------------ how long the stream waits

#: Values of the default types whose detectors say where a value can start
#: (``hold_from``: email, url, api-key) and one whose detector does not (a card).
DEFAULT_STREAMED = [EMAIL, "https://ada:pa55-w0rd@db.example.com:5432/app",
                    "sk-proj-" + "Ab3xQ9" * 26, CARD,
                    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
                    "BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4\n-----END PRIVATE KEY-----"]


@PROPERTY
@given(st.data())
def test_property_default_types_mask_a_value_cut_anywhere_as_in_the_whole_text(guarded, data):
    """With every default type the window holds back a word at a time where it can;
    a value cut anywhere is still masked exactly as in the text in one piece."""
    value = data.draw(st.sampled_from(DEFAULT_STREAMED))
    full = f"Some words go first here, then {value} and more words after it."
    at = full.index(value)
    cuts = sorted({*data.draw(st.lists(st.integers(0, len(full)), max_size=12)),
                   data.draw(st.integers(at + 1, at + len(value) - 1))})
    bounds = [0, *cuts, len(full)]
    pieces = [text(full[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    _, streamed = run_sync(guarded(PIIDetector(), [MockResponse(chunks=pieces)]))
    _, whole = run_sync(guarded(PIIDetector(), [MockResponse(chunks=[text(full)])]))
    assert texts(streamed) == texts(whole)
    assert "pa55-w0rd" not in texts(streamed) and value not in texts(streamed)


@pytest.mark.parametrize(("types", "most"), [
    # The window searches once the text has grown by 12 characters a detector (and as
    # much as the last search left unsettled): every default type, about 132
    # characters at a time; one or three detectors, a few words.
    (None, 160),
    (["api-key"], 30),
    (["email", "url", "api-key"], 50),
])
async def test_prose_is_released_a_few_words_at_a_time_not_a_window_at_a_time(
        make_bare_agent, types, most):
    words = [f"word{i} " for i in range(400)]
    counted = CountsText()
    detector = PIIDetector(**({"detection_types": types} if types else {}))
    agent = make_bare_agent(
        model=MockModel([MockResponse(chunks=[text(w) for w in words])]),
        output_processors=[counted, detector])
    first, _ = await first_release(agent.stream("hi"), counted)
    assert first is not None and first <= most


# ------------------------------------------- the streamed text is not searched again


class SeenTexts(EmployeeIds):
    """``EmployeeIds`` that records every text it searches."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def detect(self, text):
        self.seen.append(text)
        return super().detect(text)


@pytest.mark.parametrize(("said", "stored"), [
    ("the badge list is empty today, as it was yesterday and the day before",
     "the badge list is empty today, as it was yesterday and the day before"),
    ("badge EMP-123456 is Ada's, and badge EMP-654321 is Ben's, as the list says",
     "badge E********6 is Ada's, and badge E********1 is Ben's, as the list says"),
])
async def test_the_streamed_text_is_stored_as_released_and_not_searched_whole_again(
        guarded, said, stored):
    # What the window released is what the step stores: it found there what a search
    # of the whole text finds (the values redacted), so neither the step's phase nor
    # the result's searches it again.
    seen = SeenTexts()
    agent = guarded(pii(detection_types=[], detectors=[seen], threshold=0.5),
                    [deltas(*(said[i:i + 5] for i in range(0, len(said), 5)))])
    result, chunks = await stream_run(agent)
    assert "".join(c.payload["text"] for c in chunks if c.type == "text-delta") == stored
    assert result.text == stored
    assert said not in seen.seen and stored not in seen.seen


async def test_with_warn_a_streamed_text_with_a_value_is_searched_again_at_the_step(guarded):
    said = "badge EMP-123456 is Ada's"
    seen = SeenTexts()
    agent = guarded(pii(detection_types=[], detectors=[seen], threshold=0.5, strategy="warn"),
                    [deltas(said[:9], said[9:])])
    result, _ = await stream_run(agent)
    assert result.text == said
    assert said in seen.seen


@pytest.mark.parametrize(("kind", "value"), [
    ("uuid", "123e4567-e89b-12d3-a456-426614174000"),
    ("iban", "DE89 3704 0044 0532 0130 00"),
    ("ip-address", "192.168.10.20"),
    ("credit-card", "4111 1111 1111 1111"),
    ("email", EMAIL),
])
@pytest.mark.parametrize("size", [1, 3, 5, 16])
async def test_a_type_alone_never_lets_its_value_out_of_a_stream(guarded, kind, value, size):
    # A guard with one detector holds few characters: its search runs before the text
    # it has not searched yet is more than that, so no value goes out before it is found.
    for pad in range(0, 40, 7):
        said = "x" * pad + " here " + value + " and then some more words follow" * 3
        agent = guarded(pii(detection_types=[kind]),
                        [deltas(*(said[i:i + size] for i in range(0, len(said), size)))])
        _, chunks = await stream_run(agent)
        out = "".join(c.payload["text"] for c in chunks if c.type == "text-delta")
        assert value not in out and out.startswith("x" * pad + " here "), (pad, out)
