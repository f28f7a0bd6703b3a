"""Phone numbers written nationally, found in the plans of the countries a text points
at (its country codes, country domains, language, letters and script) without
``regions``; ``regions`` overrides that; and a number must be written as its country
writes one (the trunk prefix), not be a piece of a longer number, an identifier or
an SSN."""

from __future__ import annotations

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripwire.detectors.contact import PhoneDetector
from tripwire.detectors.regions import DEFAULT_REGIONS, NEAR, RegionMap, languages_of, regions_of

PHONE = PhoneDetector()


def values(detector: PhoneDetector, text: str) -> list[str]:
    return [d.value or "" for d in detector.detect(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Hi, please call me on 07458 912306, thanks!", ["US", "GB", "IE", "AU"]),
    ("Bonjour, vous pouvez me joindre au 06 12 34 56 78. Merci !", ["US", "FR", "BE", "CH", "RE", "GP", "MQ"]),
    ("Hallo, bitte rufen Sie mich unter 030 12345678 an, danke.", ["US", "DE", "AT", "CH"]),
    ("Hola, gracias por su mensaje, mi número es 612 345 678.", ["US", "ES", "MX", "CO", "AR"]),
    ("Flat 9, London WC1N 1AB · 07812 604339", ["US", "GB"]),
    ("CURRICULUM VITAE\nInès Benali · Née le 05/10/1996 · Société Générale", ["US", "FR", "BE", "CH", "RE", "GP", "MQ"]),
    ("mail v.duval@transports-gl.fr or https://www.example.co.uk/x", ["US", "FR", "GB"]),
    ("tel +33 6 98 14 72 05 / 0032 475 61 22 90", ["US", "FR", "BE"]),
    ("Позвоните мне: 8 (495) 123-45-67", ["US", "RU", "UA"]),
    ("電話番号は 090-1234-5678 です", ["US", "JP", "CN", "TW", "HK"]),
    ("startup.io, me@example.ai", ["US"]),                 # domains sold as names
    ("ring 020 7946 0958", ["US"]),                         # nothing points anywhere
])
def test_the_text_says_which_plans_to_try(text, expected):
    assert list(regions_of(text, phonenumbers)) == expected
    # a short text is all within reach of a number in it: the same plans
    assert set(RegionMap(text, phonenumbers).near(0, len(text))) == set(expected)


def test_a_numbers_plans_are_read_from_the_text_within_reach_of_it():
    far = " " + "x" * NEAR + " "
    text = f"Bonjour, vous pouvez me joindre au 06 12 34 56 78.{far}Hallo, bitte und danke."
    number = text.index("06")
    regions = RegionMap(text, phonenumbers)
    assert "FR" in regions.near(number, number + 14)
    assert "DE" not in regions.near(number, number + 14)
    assert values(PHONE, text) == ["06 12 34 56 78"]
    assert values(PHONE, f"06 1234 5678{far}Bonjour, vous pouvez me joindre.") == []
    assert values(PHONE, "06 12 34 56 78 — bonjour, vous pouvez me joindre.") == [
        "06 12 34 56 78"]


def test_the_language_is_read_from_short_words_and_letters():
    assert languages_of("the order is late and you said it would come") == ["en"]
    assert languages_of("Straße Größe Übergröße") == ["de"]
    assert languages_of("x y z 12 34") == []


@pytest.mark.parametrize(("text", "value"), [
    ("lost my phone so new number: 07458 912306 text me when you're free", "07458 912306"),
    ("Queries: Callum Fraser, 01738 622 418. Thanks for your help", "01738 622 418"),
    ("Mon numéro a changé ! Nouveau : 07 58 12 93 46 (l'ancien ne marche plus)",
     "07 58 12 93 46"),
    ("Nom : Lucie Gros\nTéléphone : 0475 61 22 90\nMerci pour votre aide", "0475 61 22 90"),
    ("Können Sie mich bitte unter 0171 2345678 zurückrufen? Danke", "0171 2345678"),
    ("Tel.: 030 / 123 456 78, wir sind für Sie da", "030 / 123 456 78"),
    ("Hola, mi móvil es el 612 34 56 78, llámame por la tarde", "612 34 56 78"),
    ("Contacto: 915 123 456 (oficina), gracias por su paciencia", "915 123 456"),
    ("Flat 9, London WC1N 1AB · 07812 604339 · amelia@example.com", "07812 604339"),
    ("Appelez le +33 (0)1 23 45 67 89, merci.", "+33 (0)1 23 45 67 89"),
    ("Rufen Sie an: (030) 1234567, danke.", "(030) 1234567"),
    ("mi teléfono: 91-123-45-67, gracias", "91-123-45-67"),
])
def test_national_numbers_of_the_texts_own_countries_are_found_without_regions(text, value):
    assert values(PHONE, text) == [value]


def test_regions_override_what_the_text_says():
    text = "Bonjour, appelez-moi au 06 12 34 56 78, merci pour tout."
    assert values(PhoneDetector(), text) == ["06 12 34 56 78"]
    assert values(PhoneDetector(regions=["US"]), text) == []
    assert values(PhoneDetector(regions=["FR"]), "ring 06 12 34 56 78") == ["06 12 34 56 78"]


@pytest.mark.parametrize("text", [
    "Hi, please call 7458 912306 thanks",           # a British number needs its 0
    "Merci, le SIRET est 812 345 674 00021 pour votre dossier",
    "Merci, mon identifiant client : 88410236",
    "FACTURE N° 2024-0317 pour votre commande",
    "et Sean O'Donnell (413-53-1057). Merci pour votre aide",
    "Bitte Kundennummer 0301 2345678 angeben, danke",
    "Gracias, su pedido 0612 345 678 está en camino",
    "Lieferschein 8003 4567 12",                     # a North American number's digits,
    "tel 800 3456 712 thanks",                       # not grouped as one is written
    "Steuer-ID 12 345 678 901",
])
def test_identifiers_pieces_and_ssns_are_not_phone_numbers(text):
    assert values(PHONE, text) == []


REGION_LANGUAGE = {"GB": "Thanks, please call me on {} when you are free.",
                   "FR": "Bonjour, vous pouvez me joindre au {}, merci.",
                   "DE": "Hallo, bitte rufen Sie mich unter {} an, danke.",
                   "ES": "Hola, gracias, mi número es {} para la cita.",
                   "BE": "Bonjour, vous pouvez me joindre au {}, merci.",
                   "AT": "Hallo, bitte rufen Sie mich unter {} an, danke."}


@settings(max_examples=120, deadline=None, database=None)
@given(st.sampled_from(sorted(REGION_LANGUAGE)), st.sampled_from(["MOBILE", "FIXED_LINE"]),
       st.integers(0, 10_000))
def test_property_a_valid_national_number_in_a_text_of_its_language_is_found(region, kind, n):
    example = phonenumbers.example_number_for_type(
        region, getattr(phonenumbers.PhoneNumberType, kind))
    # another number of the same kind: the example's last digits changed
    national = str(example.national_number)
    number = phonenumbers.parse(national[:-4] + f"{n % 10_000:04d}", region)
    if not phonenumbers.is_valid_number(number):
        return
    shown = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    assert values(PHONE, REGION_LANGUAGE[region].format(shown)) == [shown]


def test_the_default_plan_is_always_tried():
    assert DEFAULT_REGIONS == ("US",)
    assert values(PHONE, "Bonjour, appelez le (415) 555-2671, merci.") == ["(415) 555-2671"]


@pytest.mark.parametrize("text", [
    "Der Betrag von 0301 2345 678 € wurde überwiesen, danke.",
    "Total: 612 345 678 EUR, gracias.",
    "Artikelnummer 0301 2345 678 ist ausverkauft, danke.",
    "Le numéro de série 0245 678 901 est illisible, merci.",
])
def test_amounts_and_product_numbers_are_not_phone_numbers(text):
    assert values(PHONE, text) == []


def test_bare_digits_are_a_phone_number_only_where_the_text_says_so():
    (said,) = PHONE.detect("Móvil: 612345678. Gracias por todo.")
    assert said.score == 0.85
    # unsaid: tried in the default plan only, and under pii-detector's threshold there
    assert PHONE.detect("El código 612345678 caduca hoy, gracias.") == []
    (us,) = PHONE.detect("El código 4155552671 caduca hoy, gracias.")
    assert us.score == 0.5


@pytest.mark.parametrize(("text", "region"), [
    ("numéro 06 12 34 56 78", "FR"),              # one accented word says French
    ("Hi Anna,\nmy numéro 06.12.34.56.78\nBest", "FR"),
    ("Mi móvil 612 34 56 78", "ES"),
])
def test_a_short_text_with_one_accented_word_is_read_in_its_language(text, region):
    (found,) = PhoneDetector().detect(text)
    assert "".join(c for c in found.value or "" if c.isdigit()).endswith("612345678")
    # the reading of the regions around a number (a stream's) is the whole text's
    assert region in RegionMap(text, phonenumbers).near(found.start, found.end)
    assert region in regions_of(text, phonenumbers)
