"""Phone numbers as people write them in the four languages' countries, in short texts
that say little of their language: a phone word right before a national number ("Tel.",
"Fax", "Mobil", "Tfno.", "portable", "M:") is enough to try the plans of the countries
of English, German, French and Spanish; a German switchboard's ``-0`` is an extension
after the number; and, side by side, the identifiers, amounts and pieces that are no
phone number even after such a word."""

from __future__ import annotations

import phonenumbers
import pytest

from tripwire.detectors.contact import CALLED_REGIONS, PhoneDetector
from tripwire.detectors.regions import languages_of, region_map

PHONE = PhoneDetector()


def values(text: str) -> list[str]:
    return [d.value or "" for d in PHONE.detect(text) if d.score >= 0.6]


@pytest.mark.parametrize(("text", "value"), [
    # German
    ("Tel. 030/12345678", "030/12345678"),
    ("Mobil 0151-23456789", "0151-23456789"),
    ("Fax: 089 / 123 456 78", "089 / 123 456 78"),
    ("Ruf mich an: 0171 2345678", "0171 2345678"),
    ("M: 0171 2345678", "0171 2345678"),
    ("Telefon: 030 1234567-0", "030 1234567"),       # the switchboard's -0 left out
    # French
    ("Tél : 01.42.68.53.00", "01.42.68.53.00"),
    ("portable 0612345678", "0612345678"),
    ("joignable au 01-42-68-53-00", "01-42-68-53-00"),
    ("GSM 0470 12 34 56", "0470 12 34 56"),           # Belgium
    # Spanish
    ("Tel: 91 402 73 18", "91 402 73 18"),
    ("Tfno.: 612 34 56 78", "612 34 56 78"),
    ("teléfono 912 345 678", "912 345 678"),
    ("móvil 612345678", "612345678"),
    # English
    ("T: 020 7946 0958", "020 7946 0958"),
    ("mobile 0412 345 678", "0412 345 678"),          # Australia
    ("call 212-555-0143 x204", "212-555-0143"),
    ("+1 (212) 555-0143 ext. 12", "+1 (212) 555-0143"),
])
def test_a_national_number_after_a_phone_word_is_found_in_a_short_text(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "Bestellnummer 0171 2345678",
    "Kundennummer: 030 1234567",
    "N° de commande 06 12 34 56 78",
    "pedido 612 34 56 78",
    "Le montant est de 612 345 678 €",
    "SIRET 732 829 320 00074",
    "Seriennummer 0123 4567 8901",
    "ISBN 978-3-16-148410-0",
    "Tel. Bestellung 0171 2345678",                   # the identifier's word is the nearer
    "tel 800 3456 712 thanks",                        # no country writes it so
    "Tel. 1 2 3 4 5 6 7 8",
    "Tél : 2024-06-12 à 10h",
    "Fax vom 12.03.2024 erhalten",
    "Tfno. ref 0612345678",
])
def test_identifiers_and_amounts_after_or_without_a_phone_word_are_no_phone_numbers(text):
    assert values(text) == []


def test_the_called_regions_are_those_of_the_four_languages_but_mexico_and_colombia():
    assert set(CALLED_REGIONS) == {"GB", "IE", "AU", "DE", "AT", "CH", "FR", "BE", "RE", "GP",
                                   "MQ", "ES", "AR"}


@pytest.mark.parametrize(("text", "lang"), [
    ("móvil 612345678", "es"),
    ("Vielen Dank für Ihre Nachricht", "de"),
    ("très bien, merci", "fr"),
])
def test_a_word_with_letters_outside_ascii_counts_for_its_language(text, lang):
    assert languages_of(text) == [lang]


@pytest.mark.parametrize(("text", "value"), [
    ("Bitte rufen Sie die Tel.-Nr. 030 1234567 an, danke.", "030 1234567"),
    ("Notfall-Nr.: 0171 2345678 bitte", "0171 2345678"),
    ("Handy-Nr. 0171 2345678 und danke", "0171 2345678"),
    ("Fax-Nr. 030 1234568 danke", "030 1234568"),
    ("Tel. No. 020 7946 0958, thanks", "020 7946 0958"),
    ("Phone no. 020 7946 0958 thanks", "020 7946 0958"),
    ("Tel. #: (415) 555-2671", "(415) 555-2671"),
    ("mon n° de portable : 06 12 34 56 78, merci", "06 12 34 56 78"),
    ("Mi núm. de teléfono es 612 34 56 78, gracias", "612 34 56 78"),
])
def test_a_phone_words_number_mark_is_no_identifiers(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "Bestell-Nr. 030 1234567 danke",
    "Nr. 030 1234567 danke",
    "Rechnung Nr. 030 1234567 bitte",
    "N° 06 12 34 56 78 merci",
    "Ticket # 020 7946 0958 thanks",
    "pedido núm. 612 34 56 78, gracias",
])
def test_an_identifiers_number_mark_still_is(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ("Please call (+49) 30 1234567 thanks", "(+49) 30 1234567"),
    ("Tel. (+34) 912 345 678", "(+34) 912 345 678"),
    ("(+33) 6 12 34 56 78", "(+33) 6 12 34 56 78"),
    ("+44 (0) 7911 123456 thanks", "+44 (0) 7911 123456"),   # 13 digits Luhn-valid: no card
])
def test_a_country_code_in_brackets_or_a_number_that_looks_like_a_card_is_found(text, value):
    assert values(text) == [value]


def test_a_card_number_is_still_no_phone_number():
    assert values("Karte 4111 1111 1111 1111, danke") == []


def test_one_letter_of_a_language_in_a_short_text_says_its_language():
    assert languages_of("Büro 0171 2345678") == ["de"]
    assert languages_of("Ok 0171 2345678") == []


@pytest.mark.parametrize(("text", "value"), [
    # French text, numbers of Mexico, Argentina, Colombia, Italy, Ireland
    ("Contact au Mexique : 55 1234 5678 (bureau de Mexico).", "55 1234 5678"),
    ("Le client mexicain a rappelé du 33 1234 5678.", "33 1234 5678"),
    ("Notre agence de Buenos Aires : 011 4123-4567.", "011 4123-4567"),
    ("Son numéro en Colombie : 310 123 4567.", "310 123 4567"),
    ("Le bureau de Milan répond au 02 1234 5678.", "02 1234 5678"),
    # Spanish text
    ("Teléfono en Buenos Aires: (011) 4123-4567", "(011) 4123-4567"),
    ("Contacto en Bogotá: 310 123 4567", "310 123 4567"),
    ("Nuestra oficina de Lisboa: 21 234 5678", "21 234 5678"),
    ("Llame a la sede de Ámsterdam, 020 123 4567.", "020 123 4567"),
    ("La oficina de Casablanca: 05 22 12 34 56", "05 22 12 34 56"),
    # German text
    ("Unsere Filiale in Mailand: 02 1234 5678", "02 1234 5678"),
    ("Das Büro in Warschau erreichen Sie unter 22 123 45 67.", "22 123 45 67"),
    ("Die Kollegen in Amsterdam: 020 123 4567", "020 123 4567"),
    # English text
    ("Dublin: 01 234 5678", "01 234 5678"),
    ("Our Auckland office is on 09 123 4567.", "09 123 4567"),
    ("The Lisbon team: 21 234 5678", "21 234 5678"),
    ("Ring the Madrid office on 91 123 45 67 or Mexico City on 55 1234 5678.",
     "91 123 45 67"),
])
def test_a_national_number_is_tried_in_the_plan_of_the_place_the_text_names(text, value):
    assert value in values(text)


@pytest.mark.parametrize("text", [
    "Commande n° 55 1234 5678 expédiée au Mexique.",
    "Pedido 310 123 4567 enviado a Bogotá.",
    "Bestellnummer 02 1234 5678 aus Mailand",
    "Tracking 9400 1000 0000 0000 0000 00 from Dublin, invoice 2024-0113.",
    "La facture 2024/11/0042 de notre client de Buenos Aires.",
    "Versión 10.4.2.1 desplegada en Lisboa.",
    "Le montant, 21 234 567 €, a été viré à Lisbonne.",
])
def test_a_places_name_makes_no_identifier_or_amount_a_phone_number(text):
    assert values(text) == []


def test_a_place_name_says_its_countrys_plan_in_the_region_map():
    text = "Notre bureau de Genève et celui de Bogotá"
    assert {"CH", "CO"} <= set(region_map(text, phonenumbers).near(0, len(text)))


@pytest.mark.parametrize(("text", "value"), [
    ("| Madrid | Óscar Lozano | 91.563.84.20 | 91.563.84.21 |", "91.563.84.20"),
    ("Teléfono: 944.15.62.30", "944.15.62.30"),
    ("eingehend 0049 711 26 84 93 0 -> Nst. 210", "0049 711 26 84 93 0"),
    ("Zentrale: +49 711 26 84 93 0", "+49 711 26 84 93 0"),
])
def test_spanish_dotted_groups_and_a_switchboards_digit_after_a_country_code_are_numbers(
        text, value):
    assert value in values(text)


@pytest.mark.parametrize("text", [
    "UPS tracking 1Z 9W8 47E 03 4417 2285, should arrive Thu",
    "Seriennummer SN 4K7 030 1234 5678",
    "Lote AB12 612 34 56 78 caducado",
    "Server 192.168.10.200 antwortet nicht",
    "ISBN 0-306-40615-2",
    "Ref. 0 306 40615 2",
])
def test_the_rest_of_a_code_an_ip_address_or_an_isbn_is_no_phone_number(text):
    assert values(text) == []


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\u2009", "\u2007"])
@pytest.mark.parametrize(("text", "value"), [
    ("Mon portable : 06_12_34_56_78", "06_12_34_56_78"),
    ("Tél._: 01_42_68_53_00", "01_42_68_53_00"),
    ("Tel. +34_612_34_56_78", "+34_612_34_56_78"),
    ("Mobil 0171_2345678", "0171_2345678"),
])
def test_a_number_grouped_with_no_break_or_thin_spaces_is_found_as_written(space, text, value):
    text, value = text.replace("_", space), value.replace("_", space)
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "Montant : 612\u00a0345\u00a0678\u00a0€",
    "Commande n°\u00a006\u00a012\u00a034\u00a056\u00a078",
    "SIREN\u00a0552\u00a0100\u00a0554",
])
def test_no_break_spaces_make_no_amount_or_identifier_a_phone_number(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    # Spanish is written in Colombia and Argentina too; French in La Réunion, Guadeloupe
    # and Martinique, whose plans are their own
    ("Escríbeme al WhatsApp 310 123 4567, estoy en la oficina.", "310 123 4567"),
    ("Mi celular es 011 15-2345-6789, llámame por la tarde.", "011 15-2345-6789"),
    ("Mon numéro à la Réunion : 0692 12 34 56", "0692 12 34 56"),
    ("Le cabinet est joignable au 0590 12 34 56 le matin.", "0590 12 34 56"),
    # British numbers with dashes, in a short English text
    ("ring me on 0161 496 0000 or 0161-496-0001", "0161-496-0001"),
    ("mobile is 07911-123456 if you need it", "07911-123456"),
])
def test_the_plans_of_more_countries_that_write_the_texts_language(text, value):
    assert value in values(text)


@pytest.mark.parametrize("text", [
    "El pedido 310 123 4567 salió ayer de la bodega.",
    "Referencia de pago 011 4123 4567 8 en la factura.",
    "La facture n° 0590 12 34 56 est réglée.",
    "Ticket 0161-496-0001-7 closed",
])
def test_identifiers_of_those_countries_shapes_are_still_no_phone_numbers(text):
    assert values(text) == []


@pytest.mark.parametrize(("text", "value"), [
    ('pbx.c: Executing [675418203@entrantes:1] Answer("SIP/trunk")', "675418203"),
    ("From: <sip:0612345678@voip.example.fr>;tag=1", "0612345678"),
    ("VoIP-Anschluss 030 12345678 eingerichtet", "030 12345678"),
])
def test_a_number_in_a_dial_string_or_sip_address_is_found(text, value):
    assert values(text) == [value]


@pytest.mark.parametrize("text", [
    "mail 612345678@gmail.com",
    "id [612345678@x]",
    "SIP/2.0 200 OK, CSeq 102 INVITE",
])
def test_an_addresss_digits_or_a_protocols_numbers_are_no_phone_number(text):
    assert values(text) == []
