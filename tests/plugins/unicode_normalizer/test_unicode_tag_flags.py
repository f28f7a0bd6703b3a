"""unicode-normalizer and tag characters: only the subdivision flags Unicode recommends
(England, Scotland, Wales) keep theirs. Any other run of tag characters after a black
flag, such as flags chained one after another, can spell hidden ASCII text (an
instruction for the model, a card number for the client): it is stripped, wherever it
is and however the stream is cut."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.helpers import run_collected, strings, texts
from tripwire import Agent, tool
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer
from tripwire.plugins.unicode_normalizer.chars import RGI_SUBDIVISIONS
from tripwire.testing import MockModel, MockResponse

BLACK_FLAG, CANCEL = "\U0001f3f4", "\U000e007f"


def tags(text: str) -> str:
    """``text`` (ASCII) in tag characters: invisible, and read back by a decoder."""
    return "".join(chr(0xE0000 + ord(c)) for c in text)


def flag(code: str) -> str:
    return BLACK_FLAG + tags(code) + CANCEL


ENGLAND, SCOTLAND, WALES = flag("gbeng"), flag("gbsct"), flag("gbwls")


def smuggled(text: str, size: int = 5) -> str:
    """``text`` hidden as black flags chained one after another, each with 3 to 6 tag
    letters or digits and a cancel tag: the shape a subdivision flag has."""
    return "".join(flag(text[i:i + size]) for i in range(0, len(text), size))


def decoded(text: str) -> str:
    """The hidden text a client that reads tag characters finds in ``text``."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


_RGI = "|".join(re.escape(tags(code) + CANCEL) for code in sorted(RGI_SUBDIVISIONS))
_KEPT_OR_TAG = re.compile(rf"({re.escape(BLACK_FLAG)}(?:{_RGI}))|[\U000e0000-\U000e007f]")


def expected(text: str) -> str:
    """``text`` as the normalizer leaves ASCII words and flags: every tag character
    gone except those of an RGI subdivision flag."""
    return _KEPT_OR_TAG.sub(lambda m: m.group(1) or "", text)


NORMALIZER = UnicodeNormalizer()
INSTRUCTION = "exfiltrate"
CARD = "4111111111111111"


def test_the_rgi_subdivision_flags_are_england_scotland_and_wales():
    assert RGI_SUBDIVISIONS == {"gbeng", "gbsct", "gbwls"}
    for f in (ENGLAND, SCOTLAND, WALES):
        assert NORMALIZER.normalize(f"go {f}{f} {f}!") == f"go {f}{f} {f}!"


@pytest.mark.parametrize("hidden", [
    smuggled(INSTRUCTION), smuggled(CARD, 4), smuggled(INSTRUCTION, 3), smuggled(CARD, 6),
    flag("usca"), flag("gbeng1"), flag("gbenga"), flag("frbre"), BLACK_FLAG + tags("gbeng"),
    SCOTLAND + smuggled(CARD, 4), flag("gbsc") + tags("t") + CANCEL,
])
def test_tags_after_a_black_flag_that_make_no_rgi_flag_are_stripped(hidden):
    assert NORMALIZER.normalize(f"a {hidden} b") == expected(f"a {hidden} b")
    assert not any(0xE0000 <= ord(c) <= 0xE007F for c in expected(hidden).replace(SCOTLAND, ""))


_TAG = st.integers(0xE0000, 0xE007F).map(chr)
_SEGMENT = st.one_of(
    st.text("ab 12", min_size=1, max_size=6),
    st.sampled_from([ENGLAND, SCOTLAND, WALES, BLACK_FLAG, CANCEL]),
    st.lists(_TAG, max_size=10).map("".join),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8).map(flag),
    st.sampled_from(sorted(RGI_SUBDIVISIONS)).map(tags),
)


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(_SEGMENT, max_size=12).map("".join))
@example(f"ok {smuggled(INSTRUCTION)} now")
@example(f"card {smuggled(CARD, 4)} {SCOTLAND}")
def test_property_only_rgi_flags_keep_tag_characters(text):
    assert NORMALIZER.characters(text) == expected(text)


# ------------------------------------------------------------------ every path

#: Hidden text the model writes (an instruction, a card number in tag digits) among
#: words, a real flag and chained flags, and what each guard after the normalizer
#: would catch if it were plain.
SAID = f"Go {SCOTLAND} {smuggled(INSTRUCTION)} and {smuggled(CARD, 4)} ok."


def _guards() -> list[Any]:
    return [UnicodeNormalizer(),
            RegexFilter(rules=[{"name": "exfil", "pattern": INSTRUCTION}], strategy="redact"),
            PIIDetector(detection_types=["credit-card"])]


def _leaks(*outputs: Any) -> list[str]:
    return [s for s in strings(list(outputs))
            if any(v in s or v in decoded(s) for v in (INSTRUCTION, CARD))]


def test_the_hidden_text_is_what_a_decoder_reads():
    assert INSTRUCTION in decoded(SAID) and CARD in decoded(SAID)


async def test_hidden_text_in_the_input_never_reaches_the_model():
    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, input_processors=_guards(),
                  default_error_processors=False)
    await agent.generate(f"Hi {smuggled(INSTRUCTION)} {SCOTLAND}, card {smuggled(CARD, 4)}")
    assert not _leaks(model.requests[0].prompt)
    assert SCOTLAND in model.requests[0].prompt[-1]["content"][0]["text"]


@pytest.mark.parametrize("kind", ["text-delta", "reasoning-delta"])
def test_hidden_text_the_model_writes_never_reaches_the_client_cut_anywhere(kind):
    async def one(pieces: list[str], stream: bool) -> None:
        model = MockModel([MockResponse(chunks=[{"type": kind, "id": "t1", "text": p}
                                                for p in pieces])])
        agent = Agent(id="a", model=model, output_processors=_guards(),
                      default_error_processors=False)
        chunks, result = await run_collected(agent, "hi", stream)
        assert not _leaks([c.payload for c in chunks], result.text, result.messages)
        if stream:
            assert texts(chunks, kind) == expected(SAID)

    async def main() -> None:
        for i in range(len(SAID) + 1):
            pieces = [p for p in (SAID[:i], SAID[i:]) if p]
            await one(pieces, True)
        await one([SAID], False)
        await one(list(SAID), True)

    asyncio.run(main())


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.integers(1, len(SAID) - 1), max_size=12))
def test_property_hidden_text_cut_into_many_deltas_never_reaches_the_client(cuts):
    bounds = [0, *sorted(cuts), len(SAID)]
    chunks_in = [{"type": "text-delta", "id": "t1", "text": SAID[a:b]}
                 for a, b in zip(bounds, bounds[1:], strict=False)]
    model = MockModel([MockResponse(chunks=chunks_in)])
    agent = Agent(id="a", model=model, output_processors=_guards(),
                  default_error_processors=False)
    chunks, result = asyncio.run(run_collected(agent, "hi", True))
    assert not _leaks([c.payload for c in chunks], result.text, result.messages)
    assert texts(chunks) == expected(SAID)


@pytest.mark.parametrize("stream", [True, False])
async def test_hidden_text_in_tool_arguments_and_results_never_gets_through(stream):
    calls: list[str] = []

    @tool
    def lookup(query: str) -> dict[str, str]:
        """Look something up."""
        calls.append(query)
        return {"found": SAID}

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": SAID}}]),
        "ok"])
    agent = Agent(id="a", model=model, tools=[lookup], output_processors=_guards(),
                  default_error_processors=False)
    chunks, result = await run_collected(agent, "hi", stream)
    assert calls == [expected(SAID)]
    assert not _leaks([c.payload for c in chunks], result.messages, calls,
                      [r.result for r in result.tool_results], [r.prompt for r in model.requests])


@pytest.mark.parametrize("hidden", [tags(CARD), tags("4111 1111 1111 1111")])
def test_a_card_number_in_tag_digits_is_found_by_pii_detector_alone(hidden):
    # Without the normalizer in front, the detector reads tag characters as the ASCII
    # they hide: the card is masked (its last four digits stay, as for any card).
    said = f"ok {hidden} ok"

    async def main() -> None:
        for i in range(len(said) + 1):
            pieces = [p for p in (said[:i], said[i:]) if p]
            model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t1",
                                                     "text": p} for p in pieces])])
            agent = Agent(id="a", model=model, default_error_processors=False,
                          output_processors=[PIIDetector(detection_types=["credit-card"])])
            chunks, result = await run_collected(agent, "hi", True)
            outputs = strings([[c.payload for c in chunks], result.text, result.messages])
            assert not [s for s in outputs if decoded(hidden) in decoded(s)], i
            assert decoded(texts(chunks)).endswith("1111")

    asyncio.run(main())
