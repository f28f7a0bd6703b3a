"""Phone numbers in more of the forms people write them, in German, French, Spanish
and English: a switchboard's extension with text after it (``0561 93188-0 · Fax``),
"numéro" as the word that calls bare digits a number, a number with its country
code in a dial string or after ``=`` (``[+34915527840@entrantes:1]``,
``caller_id=+4915123456789``), a Spanish text read from its short words ("de", "la",
"su"); and, side by side, the numbers that are not phone numbers in the same places:
order and tracking numbers, versions, dates, IBANs, amounts."""

from __future__ import annotations

import pytest

pytest.importorskip("phonenumbers")

from tripwire.detectors.contact import PhoneDetector  # noqa: E402

PHONE = PhoneDetector()


def phones(text: str) -> list[str]:
    return [d.value or "" for d in PHONE.detect(text) if d.score >= 0.6]


@pytest.mark.parametrize(("text", "want"), [
    ("Tel. 0561 93188-0 · timo.hagedorn@freenet.de", ["0561 93188"]),
    ("Tel.: 0561 93188-0, Fax: 0561 93188-99", ["0561 93188", "0561 93188"]),
    ("Durchwahl 0221 9438-12 (Frau Weber)", ["0221 9438"]),
    ("Telefon 030 1234567-0; Fax 030 1234567-99", ["030 1234567", "030 1234567"]),
    ("Fax +49 221 9438-99 | Zentrale", ["+49 221 9438"]),
])
def test_a_switchboard_number_with_text_after_its_extension_is_found(text, want):
    assert phones(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("mon numéro c'est le 0612345678", ["0612345678"]),
    ("voici mon numéro : 0612345678, merci", ["0612345678"]),
    ("mi número es 612345678", ["612345678"]),
])
def test_numero_calls_bare_digits_a_number(text, want):
    assert phones(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ('pbx.c: Executing [+34915527840@entrantes:1] Answer("SIP/trunk")', ["+34915527840"]),
    ("INVITE caller_id=+4915123456789 callee=+33612345678", ["+4915123456789",
                                                             "+33612345678"]),
    ("dial string: +441614960000@gw-uk", ["+441614960000"]),
])
def test_a_number_with_its_country_code_in_a_dial_string_is_found(text, want):
    assert phones(text) == want


@pytest.mark.parametrize("text", [
    "pedido 612345678@tienda",            # bare digits, no country code: no phone
    "order_id=4915123456789",
    "build=+1.2.3",
    "user 0612345678@example.com",        # an address's local part
])
def test_digits_before_an_at_or_after_an_equals_without_a_country_code_are_not_found(text):
    assert phones(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("Familiar de contacto de la paciente: Rosa Cortés, 968 24 17 50", ["968 24 17 50"]),
    ("Si tiene dudas, contacte con su gestor en el 91 552 78 40", ["91 552 78 40"]),
    ("Nombre: Lucía Peña\nContacto: 612 34 56 78\nSaludos", ["612 34 56 78"]),
])
def test_a_spanish_text_tries_the_spanish_plan(text, want):
    assert phones(text) == want


@pytest.mark.parametrize("text", [
    "Bestellnummer 0171 2345678, Sendung 00340434161234567890",
    "Rechnung vom 12.03.2024, Betrag 1.234,56 €, Version 4.12.0.3",
    "IBAN DE89 3704 0044 0532 0130 00 (Kundennummer 0561 93188-0)",
    "le colis n° 6 12 34 56 78 est parti, suivi 0612345678",
    "commande 06 12 34 56 78 du 03/04/2024",
    "Número de pedido: 968 24 17 50 de la tienda",
    "el importe es de 612 345 678 € en la factura 2024-058",
    "referencia: 91 552 78 40",
    "Referenz 0561 93188-0",
])
def test_identifiers_amounts_and_dates_beside_them_are_not_phone_numbers(text):
    assert phones(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("Sophie Martin\n06 12 34 56 78\nsophie.martin@gmail.com", ["06 12 34 56 78"]),
    ("Sophie Martin | 01.42.68.53.00 | sophie@gmail.com", ["01.42.68.53.00"]),
    ("Lucía Pérez\n612 34 56 78\nlucia@gmail.com", ["612 34 56 78"]),
    ("Juan Ruiz · 91 552 78 40 · juan@gmail.com", ["91 552 78 40"]),
    ("Emily Clark\n07911 123456\nemily@gmail.com", ["07911 123456"]),
    ("Tom Hall, 0161 496 0000, tom@gmail.com", ["0161 496 0000"]),
    ("Anna Weber: 020 7946 0958", ["020 7946 0958"]),
    ("Schmidt;0171 2345678;Berlin", ["0171 2345678"]),
    ("Kevin Braun · 0176/98765432 · kevin@gmail.com", ["0176/98765432"]),
])
def test_a_grouping_only_one_country_writes_says_its_plan(text, want):
    assert phones(text) == want


@pytest.mark.parametrize("text", [
    "Sophie Martin\n06 12 345 678\nsophie@gmail.com",   # no country's grouping
    "Emily Clark\n0791 1123 456\nemily@gmail.com",
    "Tracking 06 12 34 56 78, order 612 34 56 78",
    "Version 06.12.34.56.78 released",
    "SKU 0171 2345678, Artikel 0151-23456789",
    "Sendungsnummer 0176/98765432",
    "Vertragsnummer: 0171 2345678",
    "batch 020 7946 0958/3 shipped",
])
def test_such_a_grouping_as_an_identifier_or_a_version_is_not_found(text):
    assert phones(text) == []


@pytest.mark.parametrize(("text", "want"), [
    ("Tél.: 0240357618", ["0240357618"]),
    ("tél 0612345678 (après 18h)", ["0612345678"]),
])
def test_tel_with_its_accent_calls_bare_digits_a_number(text, want):
    assert phones(text) == want


@pytest.mark.parametrize("text", [
    "Telefonnummer 0171 2345678", "Handynummer: 0171 2345678", "Rückrufnummer 0171 2345678",
    "meine Nummer 0171 2345678",
])
def test_a_german_compound_that_names_a_phone_is_no_identifier(text):
    assert phones(text) == ["0171 2345678"]
