"""The phone detector keeps what each run of digits holds, by the characters its
verdicts read, so that a text searched again (a stream's end, a hold-back window's end)
reads each run once: a run in other surroundings, or one whose verdict the regions of
the text decide, is read again, and each text finds what it finds alone."""

from __future__ import annotations

import pytest

from tripwire.detectors.contact import PhoneDetector

pytest.importorskip("phonenumbers")

# Characters of no language, no digit, no phone word: surroundings that say nothing.
NEUTRAL = " " + "~" * 70 + " "
TAIL = " ~~~~~~~~~~~~~~~~~~~~ ."


def found(detector: PhoneDetector, text: str) -> list[str]:
    return [d.value or "" for d in detector.detect(text)]


def test_a_run_whose_regions_decide_it_is_read_again_in_each_text():
    # "030 23456789" is a German number: valid where the text is German (words more
    # than the remembered surroundings away), not in a text of no language (US only)
    german = "und die der das ist nicht mit ihre " * 3 + NEUTRAL + "030 23456789" + TAIL
    none = "xyz " * 30 + NEUTRAL + "030 23456789" + TAIL
    detector = PhoneDetector()
    alone = [found(PhoneDetector(), german), found(PhoneDetector(), none)]
    assert alone == [["030 23456789"], []]
    assert [found(detector, t) for t in (german, none, german, none)] == alone * 2
    detector = PhoneDetector()
    assert [found(detector, t) for t in (none, german)] == alone[::-1]


@pytest.mark.parametrize("order", [("order", "phone"), ("phone", "order")])
def test_the_same_run_after_other_words_is_read_again(order):
    texts = {word: f"{NEUTRAL}{word} 415-555-2671{TAIL}" for word in order}
    detector = PhoneDetector()
    assert {w: found(detector, t) for w, t in texts.items()} == {
        "order": [], "phone": ["415-555-2671"]}
    assert {w: found(detector, t) for w, t in texts.items()} == {
        "order": [], "phone": ["415-555-2671"]}  # (and again, from what was kept)


def test_what_a_run_holds_is_kept_and_found_again_at_its_place():
    detector = PhoneDetector()
    text = NEUTRAL + "call 415-555-2671" + TAIL
    first = [(d.start, d.end, d.score, d.value) for d in detector.detect(text)]
    moved = "x " * 40 + text
    again = [(d.start - 80, d.end - 80, d.score, d.value) for d in detector.detect(moved)]
    assert first == again == [(77, 89, 0.95, "415-555-2671")]


def test_a_run_judged_for_its_numbers_is_not_judged_again_for_where_the_regions_decide():
    # A stream's search asks both of the same run (``hold_from``, then the search):
    # it is judged once for both.
    detector = PhoneDetector()
    text = NEUTRAL + "call 415-555-2671 or Tel. 030 23456789" + TAIL
    judged: list[int] = []
    spans = detector._spans
    detector._spans = lambda t, tokens: (judged.append(tokens[0][0]), spans(t, tokens))[1]
    fresh = PhoneDetector()
    assert found(detector, text) == found(fresh, text)
    runs = len(judged)
    assert detector.hold_from(text) == fresh.hold_from(text) and len(judged) == runs
    judged.clear()
    # and the other way round: asked where first, then searched
    detector._memo.clear()
    assert detector.hold_from(text) == fresh.hold_from(text)
    probed = len(judged)
    assert found(detector, text) == found(fresh, text)
    # (a run whose regions decide its number is read again for it, as before)
    assert len(judged) <= probed + 1
