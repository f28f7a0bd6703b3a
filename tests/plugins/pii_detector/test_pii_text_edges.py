"""pii-detector and the built-in detectors at the edges of a text: a value at the very
start or end of it (no character before or after to look at), on every path it can
take (input, the stream cut at every boundary, generate, tool-call arguments, tool
results, the final result); and a message that ``redaction_method="remove"`` leaves
with nothing but white space, which is not sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.helpers import texts
from tripwire import Agent, Chunk, tool
from tripwire.detectors import BUILTIN_TYPES, build
from tripwire.detectors.identity import SSNDetector, ssn_is_valid
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

SSN = "234-56-7891"
SSN_MASKED = "***-**-7891"

#: One value of each built-in type, as it stands alone.
VALUES = {
    "email": "test@example.com",
    "phone": "(415) 555-2671",
    "credit-card": "4111 1111 1111 1111",
    "ssn": SSN,
    "api-key": "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "ip-address": "192.168.1.20",
    "url": "https://example.com/a?b=1",
    "uuid": "550e8400-e29b-41d4-a716-446655440000",
    "crypto-wallet": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
    "iban": "GB82WEST12345698765432",
    "url-credentials": "postgres://app:Xk29fLq7@db.example.com:5432/shop",
}


def test_every_type_but_date_of_birth_has_a_value():
    # (a date of birth needs its keyword before it: it cannot start a text alone)
    assert sorted(VALUES) == sorted(t for t in BUILTIN_TYPES if t != "date-of-birth")


def _found(kind: str, text: str) -> list[tuple[int, int]]:
    (detector,) = build([kind])
    return sorted((d.start, d.end) for d in detector.detect(text) if d.type == kind)


# ------------------------------------------------------------------ the detectors


@pytest.mark.parametrize("text", [SSN, f"{SSN}.", f"{SSN} or 12", f"{SSN}!\n", f"{SSN}: 1 2"])
def test_an_ssn_that_starts_the_text_is_found(text):
    assert [(d.start, d.end) for d in SSNDetector().detect(text)] == [(0, len(SSN))]


@given(st.integers(1, 899).filter(lambda a: a != 666), st.integers(1, 99),
       st.integers(1, 9999), st.sampled_from("- "),
       st.sampled_from(["", ".", " ", "!", "\n", ", ", ") "]),
       st.text("ab 0123456789.-", max_size=12))
@example(234, 56, 7891, "-", "", "")
@example(234, 56, 7891, "-", ".", "")
@example(234, 56, 7891, "-", " ", "is 12")
@settings(database=None)
def test_property_an_ssn_at_the_start_is_found_whatever_ends_the_text(
        area, group, serial, sep, stop, rest):
    value = f"{area:03d}{sep}{group:02d}{sep}{serial:04d}"
    if not ssn_is_valid(value.replace(sep, "")):
        return
    if stop in (" ", ".") and rest[:1].isdigit():
        rest = "x" + rest  # "234-56-7891 5", "234-56-7891.5": part of a longer number
    text = value + (stop + rest if stop else "")
    assert (0, len(value)) in [(d.start, d.end) for d in SSNDetector().detect(text)]


@pytest.mark.parametrize("kind", sorted(VALUES))
@pytest.mark.parametrize("after", ["", ".", " ok 12", ": 1 2", "\n9 9"])
def test_every_detector_finds_a_value_that_starts_or_ends_the_text(kind, after):
    value = VALUES[kind]
    assert (0, len(value)) in _found(kind, value + after)
    assert (4, 4 + len(value)) in _found(kind, "1 2:" + value)


# ------------------------------------------------------------------ every path


def _agent(model: MockModel, detector: PIIDetector, **options: Any) -> Agent:
    return Agent(id="edges", model=model, input_processors=[detector],
                 output_processors=[detector], default_error_processors=False, **options)


async def _stream(agent: Agent, prompt: Any = "hi") -> tuple[Any, list[Chunk]]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return await stream.result, chunks


def _pii(**options: Any) -> PIIDetector:
    options.setdefault("detection_types", ["ssn"])
    return PIIDetector(**options)


@pytest.mark.parametrize("said", [SSN, f"{SSN}.", f"{SSN} or 12"])
async def test_an_ssn_that_starts_the_text_is_redacted_on_every_path(said):
    expected = said.replace(SSN, SSN_MASKED)
    # the input: the model is sent the masked number
    model = MockModel(["ok"])
    await _agent(model, _pii()).generate(said)
    assert model.requests[0].prompt[-1]["content"][0]["text"] == expected
    # generate, and the stream cut at every boundary
    for i in range(len(said) + 1):
        pieces = [p for p in (said[:i], said[i:]) if p]
        chunks_in = [{"type": "text-delta", "id": "t", "text": p} for p in pieces]
        result = await _agent(MockModel([MockResponse(chunks=chunks_in)]), _pii()).generate("hi")
        assert result.text == expected
        result, chunks = await _stream(_agent(MockModel([MockResponse(chunks=chunks_in)]),
                                              _pii()))
        assert texts(chunks) == result.text == expected, i


async def test_an_ssn_that_starts_a_tool_argument_or_result_is_redacted():
    ran: list[str] = []

    @tool
    def lookup(number: str) -> str:
        """Look a number up."""
        ran.append(number)
        return SSN

    call = {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup",
            "args": {"number": SSN}}
    model = MockModel([MockResponse(chunks=[call], finish_reason="tool-calls"), "done"])
    result = await _agent(model, _pii(), tools=[lookup]).generate("hi")
    assert ran == [SSN_MASKED]
    assert result.tool_results[0].result == SSN_MASKED


# ------------------------------------------------------------------ remove


MAIL = "ann.lee@example.com"


@pytest.mark.parametrize("message", [SSN, f" {SSN} ", f"{SSN}\n", f"\t{SSN}  {MAIL}\n",
                                     f" {MAIL} ", f"{MAIL}\n", f"\n\n{MAIL}\t"])
def test_a_message_remove_leaves_as_white_space_is_not_sent(message):
    async def main() -> MockModel:
        model = MockModel(["ok"])
        guard = _pii(redaction_method="remove", detection_types=["ssn", "email"])
        await _agent(model, guard).generate(["first", message])
        return model

    model = asyncio.run(main())
    assert model.requests[0].prompt == [
        {"role": "user", "content": [{"type": "text", "text": "first"}]}]


async def test_remove_keeps_a_message_with_words_left_as_it_is():
    model = MockModel(["ok"])
    await _agent(model, _pii(redaction_method="remove")).generate(f"mine: {SSN} \n")
    assert model.requests[0].prompt[-1]["content"] == [{"type": "text", "text": "mine:  \n"}]
