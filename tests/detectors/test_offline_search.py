"""What the offline tier leaves unsearched changes nothing it finds: the name detector
told where a stream's settled text ends judges only the runs after it and finds what
its whole search finds from there; the address detector searches a part of the text
only for the kinds of street whose words it holds, and finds what the whole pattern
finds."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripwire.detectors import addresses, build

pytest.importorskip("gender_guesser")

#: Names, addresses and what comes around them: contexts before and after a run, rows,
#: sign-offs, labels, streets of each kind, numbers and capitalised words.
PIECES = ["Anna", "Maria Schmidt", "Dear John,", "Hi", "Mr", "Frau", "\n", "\n\n",
          "Best regards,\n", "Name:", "Nom :", ",", ";", " ", " ", "in", "nach", "the",
          "<anna@example.org>", "Whitaker,", "Joan", "Okonjo, Emeka", "AMELIA ROSE",
          "THORNTON", "Rue", "Victor Hugo", "GmbH", "Hotel", "Bonjour", "Cordialement,",
          "Lucía Fernández", "Un saludo,", "Paris", "Will", "Grace", "12", ":", ".", "@",
          "12 rue de la Paix", "Hauptstraße 5", "10115 Berlin", "Calle Mayor 3, 2º B",
          "1600 Pennsylvania Ave NW", "St", "Street", "&", "Jean-Pierre", "von", "Dr.",
          "P.O. Box 12", "Postfach 12 34", "Anschrift: ", "Eigelstein 112", "Am Markt 3",
          "Calle 85 # 11-53", "Chaussée de Wavre 214", "A 1", "Flat 3, 12 High Street",
          "Adresse: Eigelstein 112, 50668 Köln",
          "Springfield, IL 62704", "75002 Paris", "C/ Alcalá 45", "Unit 7, Bridge Estate"]


def key(d):
    return (d.type, d.start, d.end, d.score, d.value)


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(PIECES), min_size=1, max_size=30),
       spaces=st.lists(st.sampled_from(["", " ", ", ", "\n"]), min_size=30, max_size=30))
def test_the_name_detector_told_where_to_start_finds_what_its_whole_search_finds(words, spaces):
    # (a name may start after its run does: "Dear John", or before: "Whitaker, Joan")
    text = "".join(w + s for w, s in zip(words, spaces, strict=False))
    (detector,) = build(["name"])
    found = [key(d) for d in detector.detect(text)]
    for since in range(len(text) + 1):
        assert sorted(k for k in map(key, detector.detect_from(text, since)) if k[1] >= since
                      ) == sorted(k for k in found if k[1] >= since), since


@pytest.fixture
def whole_pattern():
    """An address detector that tries every kind of street in every part of the text."""
    (detector,) = build(["address"])

    class Whole:
        def detect(self, text):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(addresses, "_KIND_WORDS",
                              (re.compile(""),) * len(addresses._KIND_WORDS))
                return detector.detect(text)
    return Whole()


@pytest.mark.parametrize("dense", [10_000, addresses._DENSE])
def test_the_address_detector_finds_what_the_whole_pattern_finds(whole_pattern, monkeypatch,
                                                                 dense):
    # (every kind looked for in every part, and the French and German ones only where
    # numbers are dense, as by default)
    monkeypatch.setattr(addresses, "_DENSE", dense)
    rng = random.Random(28)
    cases = ["".join(rng.choice(PIECES) + rng.choice(["", " ", ", ", "\n"])
                     for _ in range(rng.randint(1, 40))) for _ in range(400)]
    (detector,) = build(["address"])
    found = [[key(d) for d in detector.detect(text)] for text in cases]
    assert found == [[key(d) for d in whole_pattern.detect(text)] for text in cases]
    assert sum(map(len, found)) > 400  # (addresses of every kind among them)


def test_a_part_without_a_street_word_is_not_searched_and_each_kind_is_found_by_its_words():
    # the word each kind's street starts with or ends in, found where it is written
    en, es, fr, de, po, label = addresses._KIND_WORDS
    assert en.search("12 Baker Street") and en.search("1600 Pennsylvania Ave")
    assert es.search("C/ Alcalá 45") and es.search("Pº de Gracia 5")
    assert fr.search("12 bd Voltaire") and fr.search("Rue de Rivoli 5")
    assert de.search("Hauptstr. 5") and de.search("Unter den Linden 77")
    assert po.search("P.O. Box 12") and po.search("B.P 45")
    assert label.search("Anschrift: Eigelstein 112")
    assert not any(kind.search("A 1 A 1 B 2 ") for kind in addresses._KIND_WORDS)
