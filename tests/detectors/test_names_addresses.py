"""The offline tier for ``name`` and ``address`` (``tripwire.detectors.names``,
``.addresses``): real text of the four languages, and the hard negatives that look
like a name or an address (streets and places named after people, organisations,
given names that are common words, numbers that are not house numbers)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tripwire.detectors import OFFLINE_TYPES, build, detect_all
from tripwire.errors import MissingDependencyError


@pytest.fixture(scope="module")
def found():
    """``found(text)``: the (type, value) pairs the offline tier finds, merged."""
    detectors = build(OFFLINE_TYPES)

    def find(text: str) -> list[tuple[str, str]]:
        return [(d.type, text[d.start:d.end]) for d in detect_all(text, detectors)]

    return find


def names(pairs: list[tuple[str, str]]) -> list[str]:
    return [value for kind, value in pairs if kind == "name"]


def addresses(pairs: list[tuple[str, str]]) -> list[str]:
    return [value for kind, value in pairs if kind == "address"]


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(("text", "expected"), [
    # English: full names, a title, a greeting, a sign-off, a label, an e-mail header
    ("Can you call Jonas Becker tomorrow about the refund?", ["Jonas Becker"]),
    ("Hi Priya, the invoice went to Mr. Okafor yesterday.", ["Priya", "Okafor"]),
    ("Thanks for your help!\n\nBest regards,\nEilidh Cameron", ["Eilidh Cameron"]),
    ("Name on ID: Oluwaseun Adeyemi, DOB 1988-05-17", ["Oluwaseun Adeyemi"]),
    ("From: Margaret O'Connor <m.oconnor@example.org>", ["Margaret O'Connor"]),
    # German: Herr/Frau, a greeting, Mit freundlichen Grüßen, a double name
    ("Sehr geehrte Frau Schneider-Hoffmann, anbei die Unterlagen.", ["Schneider-Hoffmann"]),
    ("Hallo Lena, hier ist Tobias. Mit freundlichen Grüßen\nKlaus Zimmermann",
     ["Lena", "Tobias", "Klaus Zimmermann"]),
    ("Ich habe gestern mit Anna gesprochen.", ["Anna"]),
    # French: M., Mme, Bonjour, Cordialement, a hyphenated given name
    ("Bonjour Marie, M. Dupont a rappelé ce matin. Cordialement, Jean-Pierre Martin",
     ["Marie", "Dupont", "Jean-Pierre Martin"]),
    ("Nom : VASSEUR Prénom : Ethan", ["VASSEUR", "Ethan"]),
    # Spanish: Sra., Hola, two family names, "se llama"
    ("Hola Carlos, la Sra. García llamará mañana.", ["Carlos", "García"]),
    ("Un saludo,\nLucía Fernández García", ["Lucía Fernández García"]),
    ("El portero se llama Anselmo y es majísimo.", ["Anselmo"]),
    # the family name first, in a record
    ('employee 00417 name="Whitaker, Joan" status=active', ["Whitaker, Joan"]),
    ("id,first,last\n10442,Marisa,Delgado,mdelgado@example.com", ["Marisa", "Delgado"]),
])
def test_names_are_found_in_the_four_languages(found, text, expected):
    assert names(found(text)) == expected


@pytest.mark.parametrize("text", [
    # streets and places named after people
    "Wir wohnen in der Goethestraße, gleich bei der Karl-Marx-Allee.",
    "They renamed it Martin Luther King Boulevard last year.",
    "Le café est place Charles de Gaulle, près de la rue Victor Hugo.",
    "Nos vemos en la Avenida de Miguel de Unamuno.",
    "The conference is in San Francisco, then Saint-Étienne.",
    "Our office moved to St. Mary's Hospital campus.",
    # organisations
    "The contract with Siemens AG and Johnson & Johnson is signed.",
    "Überweisung an Schmidt & Partner GmbH bitte bis Freitag.",
    "Titular: Talleres Bravo e Hijos, S.L.",
    # given names that are words: a verb, a noun after an article, a month
    "Will you send the file before Monday?",
    "Crashlog im Anhang, Build 6.2.0.",
    "Jun 3 10:41:12 mx1 postfix/smtp[2211]: status=sent",
    # places after a preposition
    "Wir fliegen morgen nach Paris und dann nach Florence.",
    # handles and file names
    "ping @maria_dev or see logo@2x.png",
    # a field's label, not a person
    "Payment by bank transfer to: Account name: see below",
])
def test_hard_negatives_are_not_names(found, text):
    assert names(found(text)) == []


# ------------------------------------------------------------------ addresses


@pytest.mark.parametrize(("text", "expected"), [
    # English: US with state and ZIP, UK with a flat and a postcode, Canada, a PO box
    ("Ship to 1600 Pennsylvania Ave NW, Washington, DC 20500 please.",
     "1600 Pennsylvania Ave NW, Washington, DC 20500"),
    ("new flat is Flat 2, 19 Wilbraham Road, Manchester M14 7DA if you want",
     "Flat 2, 19 Wilbraham Road, Manchester M14 7DA"),
    ("my new address: 1120 Harbour View Rd, North Vancouver, BC V7G 1A3, Canada.",
     "1120 Harbour View Rd, North Vancouver, BC V7G 1A3, Canada"),
    ("Send cheques to PO Box 1187, Golden, CO 80402", "PO Box 1187, Golden, CO 80402"),
    # German: a joined and a separate street type, a preposition street, two lines
    ("Bitte an Musterstraße 12a, 10115 Berlin schicken.", "Musterstraße 12a, 10115 Berlin"),
    ("Lieferung: Berliner Straße 45\n60311 Frankfurt am Main, Deutschland",
     "Berliner Straße 45\n60311 Frankfurt am Main, Deutschland"),
    ("Wir sind Am Markt 3, 1010 Wien.", "Am Markt 3, 1010 Wien"),
    ("Anschrift: Eigelstein 112, 50668 Köln Telefon: 0221 1397 5520",
     "Eigelstein 112, 50668 Köln"),
    # French: number first, bis, Cedex, an apartment; Belgian street-first order
    ("Envoyez le colis au 12 bis rue de la Paix, 75002 Paris Cedex 02.",
     "12 bis rue de la Paix, 75002 Paris Cedex 02"),
    ("logement situé 15 rue Jean Jaurès, appartement 3B, 29200 Brest. Article 4",
     "15 rue Jean Jaurès, appartement 3B, 29200 Brest"),
    ("pour le courrier : Chaussée de Wavre 214, 1050 Ixelles", "Chaussée de Wavre 214, 1050 Ixelles"),
    # Spanish: C/, the floor and door, the province; a Mexican colonia
    ("Dirección: C/ Alcalá 45, 2º izda., 28014 Madrid (Madrid)",
     "C/ Alcalá 45, 2º izda., 28014 Madrid (Madrid)"),
    ("Calle Mayor, 5, 3º B, 28013 Madrid", "Calle Mayor, 5, 3º B, 28013 Madrid"),
    ('domicilio="Av. Chapultepec 480, Col. Americana, 44160 Guadalajara, Jal."',
     "Av. Chapultepec 480, Col. Americana, 44160 Guadalajara, Jal"),
    # Latin America: numbered streets, an Argentine postal code and a two-word city
    ("Oficina: Calle 85 # 11-53, Bogotá.", "Calle 85 # 11-53, Bogotá"),
    ("Envíenlo a Av. Corrientes 1234, C1043AAZ Buenos Aires, Argentina.",
     "Av. Corrientes 1234, C1043AAZ Buenos Aires, Argentina"),
])

def test_addresses_are_found_whole_in_the_four_languages(found, text, expected):
    assert addresses(found(text)) == [expected]


def test_two_addresses_joined_by_a_word_are_two(found):
    assert addresses(found("Plaza Mayor 1, 28012 Madrid y Ronda de Segovia 12, 28005 Madrid")
                     ) == ["Plaza Mayor 1, 28012 Madrid", "Ronda de Segovia 12, 28005 Madrid"]


@pytest.mark.parametrize("text", [
    "Version 2.1.3 released on 12 March; see section 4.2.1.",
    "Order 12345 shipped, tracking 1Z 8V4 W71 03 4478 2190.",
    "Room 12 at 3pm, then the Street Fighter tournament.",
    "Goethestraße ist schön, die rue Victor Hugo auch.",
    "Am 12. März, 10115 Besucher, Seite 12.",
    "PLZ 10115 gehört zu Berlin.",
    "Version 2, 12345 Downloads in der ersten Woche.",
])
def test_numbers_streets_and_postal_codes_alone_are_not_addresses(found, text):
    assert addresses(found(text)) == []


def test_a_name_inside_an_address_is_the_address(found):
    assert found("Wir wohnen Karl-Marx-Allee 90, 10243 Berlin.") == [
        ("address", "Karl-Marx-Allee 90, 10243 Berlin")]
    assert found("Écrire au 8 rue Victor Hugo, 69002 Lyon") == [
        ("address", "8 rue Victor Hugo, 69002 Lyon")]


def test_spans_are_those_of_the_text_as_written(found):
    text = "Rufen Sie Frau Dr. Müller an: Lindenstraße ٤٢, ١٠١١٥ Berlin."  # Arabic-Indic digits
    assert found(text) == [("name", "Müller"), ("address", "Lindenstraße ٤٢, ١٠١١٥ Berlin")]


# ------------------------------------------------------------------ the extra


def test_without_the_extra_building_the_detectors_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "gender_guesser", None)
    for kind in OFFLINE_TYPES:
        with pytest.raises(MissingDependencyError, match=r"pip install 'tripwire\[names\]'"):
            build([kind])


def test_importing_tripwire_does_not_load_the_tier_or_its_libraries():
    code = ("import sys, tripwire, tripwire.detectors\n"
            "loaded = [m for m in ('tripwire.detectors.names', 'tripwire.detectors.addresses',"
            " 'gender_guesser', 'probablepeople') if m in sys.modules]\n"
            "print(loaded)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
