"""The name detector keeps each run's verdict by the characters it reads, so a text of
the same names again and again (or a stream's text searched again) judges each run
once: a run in other surroundings is judged again, and each text finds what it finds
alone, with a detector that has read other texts before."""

from __future__ import annotations

import random

from tripwire.detectors import build

# What a name's verdict reads around it: titles, greetings, sign-offs on the line
# before, labels, rows, an address after it, places and articles before it.
PIECES = ["Anna", "Maria Schmidt", "Dear John,", "Hi", "Mr", "Frau", "\n", "\n\n",
          "Best regards,\n", "Name:", "Nom :", ",", ";", " ", " ", "in", "nach", "the",
          "<anna@example.org>", "Whitaker,", "Joan", "Rue", "Victor Hugo", "GmbH", "Hotel",
          "Bonjour", "Cordialement,", "Lucía Fernández", "Un saludo,", "x" * 70, "Paris",
          "Will", "Grace", "Anselmo", "12", ":", "."]


def spans(detector, text: str) -> list[tuple[int, int, float, str | None]]:
    return [(d.start, d.end, d.score, d.value) for d in detector.detect(text)]


def test_a_detector_that_read_other_texts_finds_what_a_new_one_finds():
    rng = random.Random(28)
    texts = ["".join(rng.choice(PIECES) + rng.choice(["", " ", ", "]) for _ in range(60))
             for _ in range(150)]
    texts += [t[i:] for t in texts[:30] for i in (1, 7, 40)]  # the same runs, moved
    (shared,) = build(["name"])
    for text in texts:
        (new,) = build(["name"])
        assert spans(shared, text) == spans(new, text), text


def test_the_same_name_again_and_again_is_found_each_time():
    (detector,) = build(["name"])
    text = "Anna, " * 500
    found = spans(detector, text)
    assert len(found) == 500
    assert {(s % 6, e - s, value) for s, e, _, value in found} == {(0, 4, "Anna")}


def test_a_name_under_a_sign_off_is_judged_by_the_line_before_it():
    # the same run, with a sign-off on the line before it (a signature) or another line
    signed = "Thanks.\nBest regards,\nEilidh\n"
    plain = "Thanks.\nThe invoice:\nEilidh\n"
    for order in ((signed, plain), (plain, signed)):
        (detector,) = build(["name"])
        assert {t: [v for *_, v in spans(detector, t)] for t in order * 2} == {
            signed: ["Eilidh"], plain: []}


def test_the_words_it_keeps_are_bounded_and_a_family_name_first_is_judged_by_its_context():
    # (each word's verdict is kept by the word: given name, family name written first)
    rng = random.Random(5)
    words = ["".join(rng.choice("bcdfghklmnprstvz") for _ in range(6)).capitalize()
             for _ in range(6000)]
    (detector,) = build(["name"])
    detector.detect(", ".join(f"{w}, Anna" for w in words))
    assert len(detector._kinds) <= 4096 and len(detector._family_of) <= 4096
    # a census family name before a given name is one; another word only in a field
    for text, value in (("met Whitaker, Joan today", "Whitaker, Joan"),
                        ("met Zqxv, Joan today", "Joan"),
                        ("Name: Zqxv, Joan", "Zqxv, Joan"),
                        ("Best, Joan", "Joan")):
        (new,) = build(["name"])
        assert [v for *_, v in spans(detector, text)] == [v for *_, v in spans(new, text)]
        assert value in [v for *_, v in spans(new, text)], text
