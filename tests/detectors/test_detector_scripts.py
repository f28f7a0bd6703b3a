"""Values written in other scripts: every built-in detector finds a value whose digits
are any script's decimal digits (Arabic-Indic, Devanagari, fullwidth, ... every Unicode
Nd digit, as ``int()`` and a person read them), and an e-mail address or URL whose host
has ideographic or fullwidth full stops (``ann@example。com``), at its place in the text
as written. pii-detector then redacts the characters as written, with and without
unicode-normalizer in front (NFKC leaves these characters as they are), on every path:
the input, the stream cut at every boundary, generate, tool-call arguments, tool
results, the final result."""

from __future__ import annotations

import asyncio
import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.helpers import strings, texts
from tripwire import Agent, Chunk, tool
from tripwire.detectors import BUILTIN_TYPES, build, detect_all, fold
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.pii_detector.redaction import mask
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer
from tripwire.testing import MockModel, MockResponse

#: The zero of every family of decimal digits Unicode has (each is ten in a row).
ZEROS = [c for c in map(chr, range(0x80, sys.maxunicode + 1))
         if c.isdecimal() and unicodedata.decimal(c) == 0]
ARABIC_INDIC, DEVANAGARI = "\u0660", "\u0966"
FULL_STOPS = ["\u3002", "\uff61", "\uff0e", "\ufe52"]  # 。 ｡ ． ﹒

#: A text with one value of each type, and the value.
SAMPLES = {
    "email": ("mail ann.lee@example.com today", "ann.lee@example.com"),
    "phone": ("call (415) 555-2671 today", "(415) 555-2671"),
    "credit-card": ("card 4111 1111 1111 1111 ok", "4111 1111 1111 1111"),
    "ssn": ("my ssn is 234-56-7891", "234-56-7891"),
    "api-key": ("key AKIAIOSFODNN7EXAMPLE ok", "AKIAIOSFODNN7EXAMPLE"),
    "ip-address": ("host 192.168.1.20 down", "192.168.1.20"),
    "url": ("see https://www.example.com/a?b=1 now", "https://www.example.com/a?b=1"),
    "uuid": ("id 550e8400-e29b-41d4-a716-446655440000 ok",
             "550e8400-e29b-41d4-a716-446655440000"),
    "crypto-wallet": ("btc 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 ok",
                      "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),
    "iban": ("iban GB82WEST12345698765432 ok", "GB82WEST12345698765432"),
    "date-of-birth": ("born on 1985-03-14 in Oslo", "1985-03-14"),
    "url-credentials": ("use postgres://app:Xk29fLq7@db.example.com:5432/shop now",
                        "postgres://app:Xk29fLq7@db.example.com:5432/shop"),
}
#: The types whose values have a host name (its dots may be other full stops).
HOSTS = ("email", "url", "url-credentials")


def written(value: str, zeros: list[str], stops: list[str] = ()) -> str:
    """``value`` with its i-th ASCII digit in the digit family of ``zeros[i % n]`` and
    its i-th dot as ``stops[i % m]`` (when given)."""
    out, d, s = [], 0, 0
    for c in value:
        if c.isascii() and c.isdigit():
            out.append(chr(ord(zeros[d % len(zeros)]) + int(c)))
            d += 1
        elif c == "." and stops:
            out.append(stops[s % len(stops)])
            s += 1
        else:
            out.append(c)
    return "".join(out)


def test_every_type_has_a_sample_and_there_are_many_digit_families():
    assert sorted(SAMPLES) == sorted(BUILTIN_TYPES)
    assert len(ZEROS) > 60 and ARABIC_INDIC in ZEROS and DEVANAGARI in ZEROS


def test_fold_reads_every_decimal_digit_and_the_other_full_stops_one_for_one():
    digits = [c for c in map(chr, range(sys.maxunicode + 1)) if c.isdecimal()]
    assert fold("".join(digits)) == "".join(str(int(c)) for c in digits)
    assert fold("a。b｡c．d﹒e") == "a.b.c.d.e"
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "4111 1111")
    assert fold(hidden) == "4111 1111"
    plain = "plain text, 123. Привет 世界"
    assert fold(plain) is plain


def _spans(kind: str, text: str) -> list[tuple[int, int, str | None]]:
    return [(d.start, d.end, d.value) for d in detect_all(text, build([kind]), types=[kind])]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@settings(max_examples=25, deadline=None, database=None)
@given(zeros=st.lists(st.sampled_from(ZEROS), min_size=1, max_size=3),
       stops=st.lists(st.sampled_from(FULL_STOPS), min_size=1, max_size=2))
@example(zeros=[ARABIC_INDIC], stops=["\u3002"])
@example(zeros=[DEVANAGARI], stops=["\uff61"])
@example(zeros=["\uff10"], stops=["\uff0e"])
def test_property_a_value_in_any_digits_is_found_as_written(kind, zeros, stops):
    text, value = SAMPLES[kind]
    start = text.index(value)
    assert _spans(kind, text) == [(start, start + len(value), value)]
    other = written(value, zeros, stops if kind in HOSTS else [])
    disguised = text.replace(value, other)
    assert _spans(kind, disguised) == [(start, start + len(value), other)]


@pytest.mark.parametrize(("kind", "text", "value"), [
    ("email", "write to ann.lee@example。com today", "ann.lee@example。com"),
    ("email", "ann@mail｡example｡org", "ann@mail｡example｡org"),
    ("email", "ann@example．com", "ann@example．com"),
    ("credit-card", "card ٤١١١ ١١١١ ١١١١ ١١١١", "٤١١١ ١١١١ ١١١١ ١١١١"),
    ("credit-card", "card ٤١١١١١١١١١١١١١١١.", "٤١١١١١١١١١١١١١١١"),
    ("ssn", "SSN २३४-५६-७८९१", "२३४-५६-७८९१"),
    ("ssn", "२३४-५६-७८९१", "२३४-५६-७८९१"),
    ("phone", "call (٤١٥) ٥٥٥-٢٦٧١", "(٤١٥) ٥٥٥-٢٦٧١"),
    ("phone", "call +٤٤ ٢٠ ٧٩٤٦ ٠٩٥٨", "+٤٤ ٢٠ ٧٩٤٦ ٠٩٥٨"),
    ("url", "see www。example。com/x now", "www。example。com/x"),
])
def test_the_cases_of_the_report_are_found(kind, text, value):
    start = text.index(value)
    assert _spans(kind, text) == [(start, start + len(value), value)]


@pytest.mark.parametrize(("kind", "value", "masked"), [
    ("email", "ann.lee@example。com", "a*****e@*******。com"),
    ("credit-card", "٤١١١ ١١١١ ١١١١ ١١١١", "**** **** **** ١١١١"),
    ("ssn", "२३४-५६-७८९१", "***-**-७८९१"),
    ("phone", "(٤١٥) ٥٥٥-٢٦٧١", "(XXX) XXX-٢٦٧١"),
    ("uuid", "٥٥٠e8400-e29b-41d4-a716-446655440000", "********-****-****-****-************"),
])
def test_a_mask_reads_the_digits_and_dots_as_written(kind, value, masked):
    assert mask(kind, value) == masked


# ------------------------------------------------------------------ every path

CASES = {
    "email": ("ann.lee@example。com", "a*****e@*******。com"),
    "credit-card": ("٤١١١ ١١١١ ١١١١ ١١١١", "**** **** **** ١١١١"),
    "ssn": ("२३४-५६-७८९१", "***-**-७८९१"),
    "phone": ("(٤١٥) ٥٥٥-٢٦٧١", "(XXX) XXX-٢٦٧١"),
}


def _processors(normalized: bool) -> list[Any]:
    guard = PIIDetector(detection_types=sorted(CASES))
    return [UnicodeNormalizer(), guard] if normalized else [guard]


def _agent(model: MockModel, normalized: bool, **options: Any) -> Agent:
    processors = _processors(normalized)
    return Agent(id="scripts", model=model, input_processors=processors,
                 output_processors=processors, default_error_processors=False, **options)


def _leaks(value: str, *outputs: Any) -> list[str]:
    """The strings in which a reader finds ``value`` (as written, or read as ASCII)."""
    return [s for s in strings(list(outputs)) if fold(value) in fold(s)]


async def _stream(agent: Agent) -> tuple[Any, list[Chunk]]:
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    return await stream.result, chunks


@pytest.mark.parametrize("normalized", [False, True], ids=["alone", "normalizer"])
@pytest.mark.parametrize("kind", sorted(CASES))
async def test_a_value_in_other_digits_is_redacted_in_the_input(kind, normalized):
    value, masked = CASES[kind]
    model = MockModel(["ok"])
    await _agent(model, normalized).generate(f"mine is {value}, thanks")
    assert model.requests[0].prompt[-1]["content"][0]["text"] == f"mine is {masked}, thanks"


@pytest.mark.parametrize("normalized", [False, True], ids=["alone", "normalizer"])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_value_in_other_digits_is_redacted_in_the_stream_cut_at_every_boundary(
        kind, normalized):
    value, masked = CASES[kind]
    said = f"It is {value}, ok."

    async def main() -> None:
        for i in range(len(said) + 1):
            pieces = [p for p in (said[:i], said[i:]) if p]
            response = MockResponse(chunks=[{"type": "text-delta", "id": "t", "text": p}
                                            for p in pieces])
            result, chunks = await _stream(_agent(MockModel([response]), normalized))
            assert texts(chunks) == result.text == f"It is {masked}, ok.", i
            response = MockResponse(chunks=[{"type": "reasoning-delta", "id": "r", "text": p}
                                            for p in pieces] + [{"type": "text-delta",
                                                                  "id": "t", "text": "ok"}])
            result, chunks = await _stream(_agent(MockModel([response]), normalized))
            assert texts(chunks, "reasoning-delta") == f"It is {masked}, ok.", i
        result = await _agent(MockModel([said]), normalized).generate("hi")
        assert result.text == f"It is {masked}, ok."
        assert not _leaks(value, result.messages)

    asyncio.run(main())


@pytest.mark.parametrize("normalized", [False, True], ids=["alone", "normalizer"])
@pytest.mark.parametrize("kind", sorted(CASES))
async def test_a_value_in_other_digits_in_tool_arguments_and_results_is_redacted(
        kind, normalized):
    value, masked = CASES[kind]
    ran: list[str] = []

    @tool
    def lookup(query: str) -> dict[str, str]:
        """Look something up."""
        ran.append(query)
        return {"found": f"on file: {value}"}

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": f"find {value}"}}]),
        "ok"])
    result, chunks = await _stream(_agent(model, normalized, tools=[lookup]))
    assert ran == [f"find {masked}"]
    assert result.tool_results[0].result == {"found": f"on file: {masked}"}
    assert not _leaks(value, [c.payload for c in chunks], result.messages,
                      [r.prompt for r in model.requests])


_FAMILY = st.sampled_from(ZEROS)


@settings(max_examples=30, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(CASES)), zeros=st.lists(_FAMILY, min_size=1, max_size=3),
       stop=st.sampled_from(FULL_STOPS), cut=st.integers(0, 40), normalized=st.booleans())
@example(kind="credit-card", zeros=[ARABIC_INDIC], stop="\u3002", cut=12, normalized=True)
@example(kind="email", zeros=[ARABIC_INDIC], stop="\u3002", cut=20, normalized=True)
@example(kind="ssn", zeros=[DEVANAGARI], stop="\u3002", cut=9, normalized=False)
def test_property_a_value_in_any_digits_never_reaches_the_client(kind, zeros, stop, cut,
                                                                normalized):
    value = written(fold(CASES[kind][0]).replace(".", stop), zeros)
    said = f"It is {value}, ok."
    cut = min(cut, len(said))
    pieces = [p for p in (said[:cut], said[cut:]) if p]
    response = MockResponse(chunks=[{"type": "text-delta", "id": "t", "text": p}
                                    for p in pieces])
    result, chunks = asyncio.run(_stream(_agent(MockModel([response]), normalized)))
    assert not _leaks(value, [c.payload for c in chunks], result.text, result.messages)
    assert texts(chunks).startswith("It is ") and texts(chunks).endswith(", ok.")
