"""The building blocks guardrails share: detections, verdicts, detectors, reporting."""

from __future__ import annotations

import re

import pytest

from tripwire import ConfigurationError, Processor, ProcessorError, hookimpl
from tripwire.guards.verdicts import (
    Detection,
    Detector,
    Verdict,
    available_detectors,
    load_detector,
    merge,
)


class Digits:
    """A tiny detector: runs of 4+ digits."""

    name = "digits"
    types = ("number",)
    max_length = 32

    def detect(self, text):
        for m in re.finditer(r"\d{4,}", text):
            yield Detection("number", m.start(), m.end(), 0.9, self.name, m.group())


def test_detections_and_verdicts_never_show_values_unless_asked():
    d = Detection("email", 4, 20, 0.99, "email", "ada@example.com")
    assert "ada@" not in repr(d)
    assert d.to_dict() == {"type": "email", "start": 4, "end": 20, "score": 0.99,
                           "detector": "email"}
    assert d.to_dict(include_value=True)["value"] == "ada@example.com"
    v = Verdict("pii", "input", "block", "blocked", (d, Detection("phone", 30, 40)))
    meta = v.to_metadata()
    assert meta["types"] == ["email", "phone"]
    assert "ada@" not in repr(meta)
    assert v.to_metadata(include_values=True)["detections"][0]["value"] == "ada@example.com"


def test_merge_keeps_the_longest_of_overlapping_detections_in_text_order():
    found = [Detection("a", 0, 5), Detection("b", 3, 12), Detection("c", 20, 22),
             Detection("d", 12, 14, 0.5), Detection("e", 12, 14, 0.9)]
    assert [(d.type, d.start) for d in merge(found)] == [("b", 3), ("e", 12), ("c", 20)]


def test_load_detector_takes_instances_classes_and_installed_names(fake_plugins):
    assert isinstance(load_detector(Digits()), Detector)
    assert load_detector(Digits).name == "digits"
    fake_plugins({"digits": Digits}, group="tripwire.detectors")
    assert "digits" in available_detectors()
    detector = load_detector("digits")
    assert [d.value for d in detector.detect("call 5551234 now")] == ["5551234"]
    with pytest.raises(ConfigurationError):
        load_detector("no-such-detector")
    with pytest.raises(ConfigurationError, match="needs name, types, max_length and detect"):
        load_detector(object())


async def test_writer_report_puts_verdicts_on_the_result(make_bare_agent):
    class Warns(Processor):
        id = "warns"

        @hookimpl
        def process_input(self, messages, writer):
            found = tuple(d for m in messages for d in Digits().detect(m.text))
            if found:
                writer.report(Verdict(self.id, "input", "warn", "warned", found))

    agent = make_bare_agent(["ok"], input_processors=[Warns()])
    result = await agent.generate("my pin is 123456")
    (verdict,) = result.verdicts
    assert verdict.channel == "input" and verdict.types == ["number"]
    stream = make_bare_agent(["ok"], input_processors=[Warns()]).stream("pin 123456")
    async for _ in stream:
        pass
    assert len(await stream.verdicts) == 1


async def test_writer_report_takes_only_verdicts(make_bare_agent):
    class Bad(Processor):
        id = "bad"

        @hookimpl
        def process_input(self, writer):
            writer.report({"type": "email"})

    with pytest.raises(ProcessorError, match="writer.report\\(\\) takes a tripwire.guards.verdicts"):
        await make_bare_agent(["ok"], input_processors=[Bad()]).generate("hi")


def test_merge_keeps_a_non_overlapping_set_where_every_dropped_one_lost_to_a_longer():
    from hypothesis import given
    from hypothesis import strategies as st

    spans = st.lists(st.tuples(st.integers(0, 200), st.integers(1, 30),
                               st.floats(0, 1)), max_size=40)

    @given(spans)
    def check(raw):
        found = [Detection("x", s, s + n, score) for s, n, score in raw]
        kept = merge(found)
        assert all(a.end <= b.start for a, b in zip(kept, kept[1:], strict=False))
        for d in found:
            if d in kept:
                continue
            # it lost to a kept one it overlaps that ranks at least as high (greedy by
            # rank: another overlapping kept one may rank lower, taken after d fell)
            rivals = [k for k in kept if k.start < d.end and d.start < k.end]
            assert any((k.end - k.start, k.score) >= (d.end - d.start, d.score)
                       for k in rivals)

    # three spans of one length in a row: the middle one loses to the best, and the
    # weaker first one, which overlaps only the middle one, is kept beside the best
    found = [Detection("x", 0, 2, 0.0), Detection("x", 1, 3, 0.5), Detection("x", 2, 4, 1.0)]
    assert [(d.start, d.end) for d in merge(found)] == [(0, 2), (2, 4)]

    check()
