"""pii-detector's judge tier (``model=``): names, addresses and dates of birth found by
a model, located at every occurrence, merged with the deterministic detections (never
dropping them), judged concurrently per hook, failing closed or open, and over HTTP."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest

from tests.support.fake_llm_server import Reply
from tests.support.helpers import Finder
from tripwire import APICallError, Chunk, ConfigurationError, JudgeError, Message, ProcessorError
from tripwire.detectors import DEFAULT_TYPES
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

EMAIL = "ada@example.com"
def user_texts(model: MockModel) -> list[str]:
    """The user texts the agent's model saw in its first call."""
    return [p["text"] for m in model.requests[0].prompt if m["role"] == "user"
            for p in m["content"] if p["type"] == "text"]


@pytest.fixture
def finder() -> Finder:
    return Finder()


# ---------------------------------------------------------------- options


def test_model_adds_name_and_address_to_the_default_types(finder):
    assert PIIDetector(model=finder).detection_types == (*DEFAULT_TYPES, "name", "address")
    assert PIIDetector(model=finder).judged_types == ("date-of-birth", "name", "address")
    assert PIIDetector().judge is None


def test_name_and_address_are_valid_types_with_a_model(finder):
    detector = PIIDetector(model=finder, detection_types=["name", "address"])
    assert detector.detection_types == ("name", "address")
    assert detector.judged_types == ("name", "address")


def test_without_a_model_or_the_names_extra_name_is_an_error_naming_both(monkeypatch):
    monkeypatch.setitem(sys.modules, "gender_guesser", None)  # the extra not installed
    with pytest.raises(ConfigurationError, match=r"name need the offline tier or the judge "
                       r"tier: .*pip install 'tripwire\[names\]'; or give model="):
        PIIDetector(detection_types=["name"])


def test_a_model_with_no_judged_type_is_an_error(finder):
    with pytest.raises(ConfigurationError, match="names none of the types it finds "
                                                 r"\(name, address, date-of-birth\)"):
        PIIDetector(model=finder, detection_types=["email"])


def test_the_judge_asks_for_exact_quotes_of_the_judged_types_only(finder):
    detector = PIIDetector(model=finder, detection_types=["email", "name"])
    assert detector.judge is not None
    schema = detector.judge.schema
    assert schema["properties"]["findings"]["items"]["properties"]["type"]["enum"] == ["name"]
    assert "copied exactly" in detector.instructions
    assert "- name: a person's name" in detector.instructions
    assert "address:" not in detector.instructions


# ---------------------------------------------------------------- what it finds


@pytest.mark.parametrize(("method", "redacted"), [
    ("mask", "A**********e"),
    ("hash", "[HASH:"),
    ("placeholder", "[NAME]"),
    ("remove", "Write to  today."),
])
async def test_a_judged_name_is_redacted_with_every_method(make_bare_agent, finder, method,
                                                           redacted):
    pii = PIIDetector(model=finder, detection_types=["name"], redaction_method=method)
    agent = make_bare_agent(["ok"], input_processors=[pii])
    await agent.generate("Write to Ada Lovelace today.")
    (seen,) = user_texts(agent.model)
    assert "Ada Lovelace" not in seen and redacted in seen


async def test_an_address_and_a_date_of_birth_in_prose_are_redacted(make_bare_agent, finder):
    pii = PIIDetector(model=finder, redaction_method="placeholder")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    await agent.generate("She lived at 12 St James's Square,\nLondon; born 10 December 1815.")
    assert user_texts(agent.model) == ["She lived at [ADDRESS]; born [DATE_OF_BIRTH]."]


async def test_the_value_is_redacted_at_every_occurrence(make_bare_agent, finder):
    pii = PIIDetector(model=finder, detection_types=["name"], redaction_method="placeholder")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    await agent.generate("Charles wrote; Charles's engine; CHARLES again; Charleston stays.")
    assert user_texts(agent.model) == [
        "[NAME] wrote; [NAME]'s engine; CHARLES again; Charleston stays."]


async def test_a_value_written_only_in_another_case_is_found_in_that_case(make_bare_agent):
    pii = PIIDetector(model=Finder({"Charles": "name"}), detection_types=["name"],
                      redaction_method="placeholder")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    await agent.generate("ask charles, or CHARLES")
    assert user_texts(agent.model) == ["ask [NAME], or [NAME]"]


async def test_a_value_that_is_not_in_the_text_is_ignored(make_bare_agent):
    class Liar(Finder):
        async def stream(self, request: Any) -> Any:
            self.requests.append(request)
            verdict = {"findings": [{"type": "name", "text": "Grace Hopper"},
                                    {"type": "name", "text": "x"}]}
            yield Chunk("text-delta", {"id": "t", "text": json.dumps(verdict)})

    pii = PIIDetector(model=Liar(), detection_types=["name"], strategy="warn")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    result = await agent.generate("x marks the spot")
    assert result.verdicts == [] and user_texts(agent.model) == ["x marks the spot"]


async def test_deterministic_detections_are_kept_when_the_judge_misses_them(make_bare_agent,
                                                                           finder):
    pii = PIIDetector(model=finder, detection_types=["email", "name"], strategy="warn")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    result = await agent.generate(f"Ada Lovelace <{EMAIL}>")
    (verdict,) = result.verdicts
    assert [(d.type, d.start, d.end) for d in verdict.detections] == [
        ("name", 0, 12), ("email", 14, 29)]
    assert [d.detector for d in verdict.detections] == ["fake/finder", "email"]


async def test_a_judge_finding_over_a_deterministic_one_does_not_replace_it(make_bare_agent):
    # The judge calls the whole line a name: the email keeps its type and its mask, and
    # the rest of the judge's span is redacted as a name.
    judge = Finder({f"Ada Lovelace <{EMAIL}>": "name"})
    pii = PIIDetector(model=judge, detection_types=["email", "name"],
                      redaction_method="placeholder", include_detections=True)
    agent = make_bare_agent(["ok"], input_processors=[pii])
    result = await agent.generate(f"From: Ada Lovelace <{EMAIL}>")
    assert user_texts(agent.model) == ["From: [NAME][EMAIL]>"]
    (verdict,) = result.verdicts
    assert [(d.type, d.value) for d in verdict.detections] == [
        ("name", "Ada Lovelace <"), ("email", EMAIL)]


async def test_block_names_the_judged_and_deterministic_types(make_bare_agent, finder):
    pii = PIIDetector(model=finder, detection_types=["email", "name"], strategy="block")
    agent = make_bare_agent(["never"], input_processors=[pii])
    result = await agent.generate(f"Ada Lovelace, {EMAIL}")
    assert result.tripwire.reason == "PII detected. Types: name, email"
    assert agent.model.requests == []


# ---------------------------------------------------------------- where it looks


async def test_messages_of_one_hook_are_judged_concurrently(make_bare_agent):
    entered: list[str] = []

    class Concurrent(Finder):
        async def stream(self, request: Any) -> Any:
            entered.append(request.prompt[1]["content"][0]["text"])
            while len(entered) < 2:  # the second call must start before the first ends
                await asyncio.sleep(0)
            async for chunk in super().stream(request):
                yield chunk

    pii = PIIDetector(model=Concurrent(), detection_types=["name"],
                      redaction_method="placeholder")
    agent = make_bare_agent(["ok"], input_processors=[pii])
    await agent.generate([Message.user("hi Ada Lovelace"), Message.user("and Charles")])
    assert sorted(entered) == ["and Charles", "hi Ada Lovelace"]
    assert user_texts(agent.model) == ["hi [NAME]", "and [NAME]"]


async def test_a_message_is_judged_once_as_one_text(make_bare_agent, finder):
    pii = PIIDetector(model=finder, detection_types=["name"])
    agent = make_bare_agent(["ok"], input_processors=[pii], output_processors=[pii])
    await agent.generate([Message.user("hi Ada Lovelace"), Message.user("hi Ada Lovelace")])
    # Input: one call (the same text twice); the step and the result: "ok", once.
    assert finder.texts == ["hi Ada Lovelace", "ok"]


async def test_a_tool_result_is_judged_before_the_model_sees_it(make_bare_agent, finder):
    from tripwire import tool

    @tool
    def lookup(id: str) -> dict[str, str]:
        """Look a customer up."""
        return {"customer": "Ada Lovelace", "id": id}

    pii = PIIDetector(model=finder, detection_types=["name"], redaction_method="placeholder")
    agent = make_bare_agent(
        [MockResponse(chunks=[{"type": "tool-call", "tool_call_id": "c1",
                               "tool_name": "lookup", "args": {"id": "7"}}]), "done"],
        tools=[lookup], output_processors=[pii])
    result = await agent.generate("who is 7?")
    assert result.tool_results[0].result == {"customer": "[NAME]", "id": "7"}
    assert '{"customer": "Ada Lovelace", "id": "7"}' in finder.texts


async def test_with_judge_stream_off_a_streamed_name_is_redacted_in_the_result_only(
        make_bare_agent, finder):
    pii = PIIDetector(model=finder, detection_types=["name"], redaction_method="placeholder",
                      judge_stream="off")
    agent = make_bare_agent([MockResponse(chunks=[
        {"type": "text-delta", "id": "t1", "text": "Dear Ada "},
        {"type": "text-delta", "id": "t1", "text": "Lovelace,"}])], output_processors=[pii])
    stream = agent.stream("write a letter")
    chunks = [c async for c in stream]
    result = await stream.result
    streamed = "".join(c.payload["text"] for c in chunks if c.type == "text-delta")
    assert streamed == "Dear Ada Lovelace,"  # not held for the judge
    assert result.text == "Dear [NAME],"
    assert "Ada" not in json.dumps([m.text for m in result.messages])


async def test_tokenize_replaces_a_judged_name_and_restores_it_for_the_client(
        make_bare_agent, finder):
    pii = PIIDetector(model=finder, detection_types=["name"], strategy="tokenize")
    agent = make_bare_agent(["Hello <NAME_1>!"], input_processors=[pii],
                            output_processors=[pii])
    result = await agent.generate("I am Ada Lovelace")
    assert user_texts(agent.model) == ["I am <NAME_1>"]
    assert result.text == "Hello Ada Lovelace!"


# ---------------------------------------------------------------- failures


async def test_a_judge_failure_fails_closed(make_bare_agent):
    judge = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    agent = make_bare_agent(["never"], input_processors=[
        PIIDetector(model=judge, detection_types=["name"])])
    with pytest.raises(ProcessorError) as info:
        await agent.generate("I am Ada Lovelace")
    assert (info.value.processor_id, info.value.hook) == ("pii-detector", "process_input")
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "api-error"
    assert agent.model.requests == []


async def test_fail_open_lets_the_input_through_with_the_deterministic_check_undone(
        make_bare_agent):
    judge = MockModel(["not json", "still not json"])
    guard = PIIDetector(model=judge, detection_types=["name"])
    guard.fail_open = True  # every processor's attribute (fail_open = true in TOML)
    agent = make_bare_agent(["ok"], input_processors=[guard])
    result = await agent.generate("I am Ada Lovelace")
    assert result.text == "ok" and user_texts(agent.model) == ["I am Ada Lovelace"]


# ---------------------------------------------------------------- over HTTP


async def test_a_judge_over_http_sends_the_schema_and_its_findings_are_redacted(
        llm_server, make_bare_agent):
    verdict = {"findings": [{"type": "name", "text": "Ada Lovelace"}]}
    llm_server.script(Reply(text=json.dumps(verdict)))
    async with llm_server.openai(model="judge-test") as model:
        pii = PIIDetector(model=model, detection_types=["email", "name"],
                          redaction_method="placeholder")
        agent = make_bare_agent(["ok"], input_processors=[pii])
        await agent.generate(f"Ada Lovelace ({EMAIL}) says hi")
    assert user_texts(agent.model) == ["[NAME] ([EMAIL]) says hi"]
    (request,) = llm_server.requests
    body = request.body
    assert request.path == "/v1/chat/completions"
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["findings"]
    assert schema["properties"]["findings"]["items"]["properties"]["type"]["enum"] == ["name"]
    assert body["temperature"] == 0
