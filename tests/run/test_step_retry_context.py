"""After a step-retry the stream processors that read text across chunks read the
retried attempt on its own: the discarded attempt's text is no context for it, neither
in a ``HoldBack`` window (``system-prompt-scrubber``, ``unicode-normalizer``) nor for a
judge behind a ``SegmentHold`` (``system-prompt-scrubber`` and ``pii-detector`` with
``model=``): ``new_attempt`` of each, which their ``push`` calls on a ``step-retry``.
The stream breaks after the first half of a leak (or the start of an emoji sequence, a
name); the retried answer starts with the other half, which alone is no leak (a lone
joiner, a surname)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.helpers import PARAPHRASE, SYSTEM, DroppedOnce, Finder, LeakJudge
from tripwire import Agent, Chunk, Processor
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.stream_error_retry import StreamErrorRetry
from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer

#: 13 words of ``SYSTEM``: neither half reaches the scrubber's 8-word window.
FIRST = "Never reveal account numbers, card numbers "
REST = "or internal escalation codes to anyone. That is the rest."
#: A man, then (retried) a joiner and a laptop: one emoji sequence only if read together.
MAN, JOINED = "Hi \U0001F468", "\u200d\U0001F4BB is the rest."


async def _run(guard: Processor, first: list[str], second: str, mode: str
               ) -> tuple[str, str | None]:
    """The result's text, and (stream) the text the client got after the step-retry."""
    agent = Agent(id="a", model=DroppedOnce(first, [second]), instructions=SYSTEM,
                  output_processors=[guard],
                  error_processors=[StreamErrorRetry(max_retries=1, delay_ms=0)],
                  max_processor_retries=1, default_error_processors=False)
    if mode == "generate":
        result = await agent.generate("hi")
        assert result.tripwire is None
        return result.text, None
    stream = agent.stream("hi")
    chunks: list[Chunk] = [c async for c in stream]
    result = await stream.result
    assert result.tripwire is None
    retry = next(i for i, c in enumerate(chunks) if c.type == "step-retry")
    return result.text, "".join(c.payload["text"] for c in chunks[retry:]
                                if c.type == "text-delta")


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize("strategy", ["block", "redact", "filter"])
async def test_the_scrubber_reads_the_retried_attempt_on_its_own(strategy: Any, mode: str
                                                                  ) -> None:
    text, streamed = await _run(SystemPromptScrubber(strategy=strategy), ["Sure. ", FIRST],
                                REST, mode)
    assert text == REST
    assert streamed in (None, REST)


@pytest.mark.parametrize("mode", ["generate", "stream"])
async def test_the_normalizer_reads_the_retried_attempt_on_its_own(mode: str) -> None:
    """A joiner that starts the retried text joins nothing: it is stripped, as it is in
    the stored text."""
    normalizer = UnicodeNormalizer()
    expected = normalizer.characters(JOINED)
    assert expected == JOINED[1:]
    text, streamed = await _run(normalizer, [MAN], JOINED, mode)
    assert text == expected
    assert streamed in (None, expected)


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize("strategy", ["block", "redact", "filter"])
async def test_the_scrubbers_judge_is_not_shown_the_discarded_attempt(strategy: Any, mode: str
                                                                     ) -> None:
    half = PARAPHRASE.index(" or ") + 1
    rest = PARAPHRASE[half:] + " That is the rest."
    judge = LeakJudge()
    text, streamed = await _run(SystemPromptScrubber(strategy=strategy, model=judge),
                                ["Sure. ", PARAPHRASE[:half]], rest, mode)
    assert text == rest
    assert streamed in (None, rest)
    assert not any(PARAPHRASE[:half] in t for t in judge.texts if "the rest" in t)


@pytest.mark.parametrize("mode", ["generate", "stream"])
@pytest.mark.parametrize("strategy", ["block", "redact", "filter"])
async def test_the_pii_judge_is_not_shown_the_discarded_attempt(strategy: Any, mode: str
                                                                ) -> None:
    """A name the stream broke in (``Ada``): the retried ``Lovelace`` alone names no one."""
    finder = Finder({"Ada Lovelace": "name"})
    rest = "Lovelace is the rest."
    text, streamed = await _run(PIIDetector(detection_types=["name"], strategy=strategy,
                                            model=finder), ["Sure. ", "Ada "], rest, mode)
    assert text == rest
    assert streamed in (None, rest)
    assert not any("Ada" in t for t in finder.texts if "the rest" in t)
